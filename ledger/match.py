"""The Match aggregate: one event stream per match, on eventsourcing.

Events are facts in the past tense with explicit, versioned topics (``kiroku:...``), so renaming a
class never breaks stored matches. Every event carries who recorded it, when (server clock, UTC ISO
8601), ``prev_hash`` and ``hash`` (see ledger.chain; ledger.mapper says how they are stored). The
aggregate keeps the current game state and the live line of actions; undo appends
``ActionsUndone`` and nothing is ever rewritten. Every event is folded into the aggregate by the
one fold of a match's events (ledger.fold).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast
from uuid import UUID

from eventsourcing.domain import Aggregate, OriginatorIDError, OriginatorVersionError, Snapshot
from eventsourcing.utils import register_topic

from engine.core.chance import Chance, Outcome, SuppliedChance
from engine.core.contract import GameState, Ruleset
from engine.core.errors import ActionError, IllegalAction
from engine.core.viewer import Viewer
from engine.registry import get_game
from ledger import topics as topics  # registers "kiroku:": other aggregates' modules on demand
from ledger.chain import GENESIS
from ledger.errors import MatchPaused
from ledger.fold import Fold, LiveAction, Owned, Record, Visitor
from ledger.fold import project as project  # re-exported: a position from a live line
from ledger.identity import RecordedBy, by_staff
from ledger.reasons import RecorderReason as R
from ledger.sealing import Sealer
from ledger.seed import SeededChance

_LIBRARY_FIELDS = ("originator_id", "originator_version", "timestamp", "originator_topic")



@dataclasses.dataclass(frozen=True)
class Loading:
    """What a match rebuilt from its stored events is given, where it cannot compute it from
    what it holds: ``past``, a past live position by the version of the event that reached it
    (an undo replayed from a snapshot, back past the snapshot: the recorder loads it), and
    ``owned``, the state the rebuild produced last, which it may change in place
    (ledger.fold.Owned)."""

    past: Callable[[UUID, int], GameState] | None = None
    owned: Owned | None = None


def instant(recorded_at: str) -> datetime:
    """The instant a ``recorded_at`` string names (what the library's timestamp is)."""
    return datetime.fromisoformat(recorded_at)


def compact_live(live: list[LiveAction]) -> list[list[int]]:
    """The live line as runs ``[first version, first seq, length]`` of actions recorded one
    after another: what a snapshot keeps of it (the events hold each action). A line without
    undos is one run, so a snapshot no longer grows with the match."""
    runs: list[list[int]] = []
    for version, seq, *_ in live:
        if runs and version == runs[-1][0] + runs[-1][2] and seq == runs[-1][1] + runs[-1][2]:
            runs[-1][2] += 1
        else:
            runs.append([version, seq, 1])
    return runs


def _lean(entry: LiveAction) -> LiveAction:
    """A live entry as a match keeps it: its version, seq and seat. The action and its
    outcomes are in the event; a past position is loaded through the recorder
    (``Loading.past``), as for a match read from a snapshot. Kept, they were most of a
    cached match's objects (an Illuminati match of 1,500 actions: 9,300 of 10,000), and the
    garbage collector walked them all in every full collection (issue 16)."""
    version, seq, seat, _, _ = entry
    return cast(LiveAction, (version, seq, seat, None, None))


def expand_live(runs: list[list[int]]) -> list[LiveAction]:
    """The live line of ``compact_live``'s runs: versions and seqs (seat, action and outcomes
    are left to the events)."""
    return [(version + i, seq + i, None, None, None)  # type: ignore[misc]
            for version, seq, length in runs for i in range(length)]


class WholeMatchSnapshot(Snapshot):
    """A match's snapshot as stored before format 2 of snapshots: the aggregate with its live
    line compacted (``compact_live``), and everything else, its configuration and card
    definitions included. Still read; no longer taken.

    The library's snapshot keeps every attribute as it is; a match's live line holds every
    live action, so each snapshot grew with the match and their total with its square."""

    TOPIC = "kiroku:MatchSnapshot/1"

    @classmethod
    def take(cls, aggregate: Any) -> Any:
        """The snapshot of ``aggregate`` with its live line as runs."""
        snapshot = super().take(aggregate)
        state = dict(snapshot.state)
        state["live"] = compact_live(state["live"])
        object.__setattr__(snapshot, "state", state)
        return snapshot

    def mutate(self, _: None) -> Any:
        """The match, its live line expanded from the runs."""
        return self.restore(None)

    def restore(self, creation: Creation | None) -> Any:
        """The match the snapshot stands for; ``creation`` is what its match's creation fixed
        (which later formats leave out; this one keeps everything)."""
        aggregate: Any = super().mutate(None)
        aggregate.live = expand_live(aggregate.live)
        return aggregate


@dataclasses.dataclass(frozen=True)
class Creation:
    """What a match's creation fixed for good, as its MatchCreated event holds it: the game,
    whether it was set up from a physical table, its configuration, the shared fields of its
    game states (the card definitions, as setting it up parsed them), and the rest of the
    match's attributes that no later event changes (``FIXED``)."""

    game: str
    setup_from_table: bool
    config: dict[str, Any]
    shared: dict[str, Any]
    ruleset_version: str
    replay_policy: str
    setup_outcomes: list[Outcome]
    created_by: RecordedBy
    created_at: str

    @classmethod
    def of(cls, created: Match.Created, shared: dict[str, Any]) -> Creation:
        """What ``created`` fixed, with ``shared``, the card definitions of the position it
        set the match up to."""
        return cls(created.game, created.chance_source == "table", created.config, shared,
                   created.ruleset_version, created.replay_policy, created.setup_outcomes,
                   created.recorded_by, created.recorded_at)

    def fixed(self) -> dict[str, Any]:
        """The match's attributes named in ``FIXED``, as its creation set them."""
        return {name: getattr(self, name) for name in FIXED}


# A match's attributes that its creation sets and no later event changes (each a field of
# ``Creation`` of the same name)
FIXED = ("game", "ruleset_version", "replay_policy", "setup_outcomes", "created_by",
         "created_at", "setup_from_table")


class MatchSnapshot(WholeMatchSnapshot):
    """A match's snapshot: ``WholeMatchSnapshot`` without what the match's creation fixed,
    its configuration and its game state's card definitions (the state's ``shared_fields``),
    which were two thirds of a World Gainer snapshot. Read back, both come from the match's
    creation event (``restore``); without it the snapshot cannot be read, and the match is
    rebuilt from its events."""

    TOPIC = "kiroku:MatchSnapshot/2"

    @classmethod
    def take(cls, aggregate: Any) -> Any:
        """The snapshot of ``aggregate`` without its configuration and card definitions."""
        snapshot = super().take(aggregate)
        state = dict(snapshot.state)
        del state["config"]
        game_state = copy.copy(state["state"])
        for name in game_state.shared_fields:
            object.__setattr__(game_state, name, {})
        state["state"] = game_state
        object.__setattr__(snapshot, "state", state)
        return snapshot

    def mutate(self, _: None) -> Any:
        """Refused: the snapshot is read with its match's creation (``restore``)."""
        raise LookupError("a snapshot without its match's creation cannot be read")

    def restore(self, creation: Creation | None) -> Any:
        """The match, with its configuration and card definitions as ``creation`` fixed
        them."""
        if creation is None:
            raise LookupError("a snapshot without its match's creation cannot be read")
        aggregate: Any = super().restore(None)
        aggregate.config = creation.config
        for name, value in creation.shared.items():
            object.__setattr__(aggregate.state, name, value)
        return aggregate


class LeanMatchSnapshot(MatchSnapshot):
    """A match's snapshot: ``MatchSnapshot`` without the rest of what the match's creation
    fixed (``FIXED``: its game, ruleset version, replay policy, opening draws, who created it
    and when), which read back come from the creation event too (issue 16: a fifth of a World
    Gainer snapshot, the opening draws most of it)."""

    TOPIC = "kiroku:MatchSnapshot/3"

    @classmethod
    def take(cls, aggregate: Any) -> Any:
        """The snapshot of ``aggregate`` without what its creation fixed."""
        snapshot = super().take(aggregate)
        state = {k: v for k, v in snapshot.state.items() if k not in FIXED}
        object.__setattr__(snapshot, "state", state)
        return snapshot

    def restore(self, creation: Creation | None) -> Any:
        """The match, with what its creation fixed."""
        aggregate: Any = super().restore(creation)
        # MatchSnapshot.restore has refused a snapshot read without its match's creation
        aggregate.__dict__.update(cast(Creation, creation).fixed())
        return aggregate


# The library registers the topics of aggregates and their events itself, not a snapshot
# class's: a process that reads snapshots before it has written one must know the topics.
register_topic(WholeMatchSnapshot.TOPIC, WholeMatchSnapshot)
register_topic(MatchSnapshot.TOPIC, MatchSnapshot)
register_topic(LeanMatchSnapshot.TOPIC, LeanMatchSnapshot)


class Match(Aggregate):
    """A recorded match."""

    TOPIC = "kiroku:Match"
    Snapshot = LeanMatchSnapshot

    class Created(Aggregate.Created):
        """MatchCreated: the game, ruleset version, players, decks, options and seed commitment."""

        TOPIC = "kiroku:MatchCreated/1"
        class_version = 2  # 2: commitments to hidden values (ledger.chain)
        game: str
        ruleset_version: str
        config: dict[str, Any]
        replay_policy: str
        commitment: str
        setup_outcomes: list[Outcome]
        chance_source: str
        digest: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str
        commitments: dict[str, str]

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Recorded before commitments: none (its hash covers the plain values)."""
            state["commitments"] = {}

        def apply(self, aggregate: Any) -> None:
            """Set the match up: position 0."""
            aggregate._fold(self)

    class ActionRecorded(Aggregate.Event):
        """One game action, its chance outcomes and the digest of the state it produced."""

        TOPIC = "kiroku:ActionRecorded/1"
        class_version = 2  # 2: commitments to hidden values (ledger.chain)
        seq: int
        seat: int
        action: dict[str, Any]
        outcomes: list[Outcome]
        chance_source: str
        digest: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str
        commitments: dict[str, str]

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Recorded before commitments: none (its hash covers the plain values)."""
            state["commitments"] = {}

        def apply(self, aggregate: Any) -> None:
            """Advance the position by this action."""
            aggregate._fold(self)

    class ActionsUndone(Aggregate.Event):
        """The last ``count`` live actions are void from now on; the log keeps them."""

        TOPIC = "kiroku:ActionsUndone/1"
        count: int
        seqs: list[int]
        reason: str
        digest: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """Rewind the position."""
            aggregate._fold(self)

    class Ended(Aggregate.Event):
        """MatchEnded: the result the rules produced."""

        TOPIC = "kiroku:MatchEnded/1"
        winners: list[int]
        losers: list[int]
        reason: str
        drawn: bool
        detail: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """Mark the match over."""
            aggregate._fold(self)

    class SeedRevealed(Aggregate.Event):
        """The secret seed, published once the match is over."""

        TOPIC = "kiroku:SeedRevealed/1"
        seed: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """Remember the revealed seed."""
            aggregate._fold(self)

    class SeedWithheld(Aggregate.Event):
        """The match ended in a store that does not hold its seed (imported while it was on):
        the seed stays with the store that created the match, which can still reveal it."""

        TOPIC = "kiroku:SeedWithheld/1"
        reason: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """Move the chain head."""
            aggregate._fold(self)

    class Reopened(Aggregate.Event):
        """MatchReopened: a judge's ruling reopens the ended match (issue 13). The seed of the
        finished segment was revealed, so the match goes on under a fresh seed whose commitment
        this event publishes (segment 2, 3, ...); the audit checks each segment's seed."""

        TOPIC = "kiroku:MatchReopened/1"
        reason: str
        segment: int
        commitment: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """The match is on again."""
            aggregate._fold(self)

    class Paused(Aggregate.Event):
        """MatchPaused: a dispute pauses the match (issue 13); a seat's action is refused until
        it is ruled. Kept in the match's own stream, in the save that files or holds the
        dispute, so that an append computed before the pause cannot be saved after it."""

        TOPIC = "kiroku:MatchPaused/1"
        dispute_id: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """One more dispute holds the match."""
            aggregate._fold(self)

    class Resumed(Aggregate.Event):
        """MatchResumed: a dispute that paused the match was ruled; it no longer holds it."""

        TOPIC = "kiroku:MatchResumed/1"
        dispute_id: str
        recorded_by: RecordedBy
        recorded_at: str
        prev_hash: str
        hash: str

        def apply(self, aggregate: Any) -> None:
            """The dispute lets the match go (another may still hold it)."""
            aggregate._fold(self)

    def __init__(self, game: str, ruleset_version: str, config: dict[str, Any],
                 replay_policy: str, commitment: str, setup_outcomes: list[Outcome],
                 chance_source: str, digest: str, recorded_by: RecordedBy, recorded_at: str,
                 prev_hash: str, hash: str, commitments: dict[str, str] | None = None) -> None:
        self.game = game
        self.ruleset_version = ruleset_version
        self.config = config
        self.replay_policy = replay_policy
        self.commitment = commitment
        self.setup_outcomes = setup_outcomes
        self.created_by = recorded_by
        self.created_at = recorded_at
        self.head_hash = hash
        self.live: list[LiveAction] = []
        self.next_seq = 1
        self.result: dict[str, Any] | None = None
        self.seed: str | None = None
        self.setup_from_table = chance_source == "table"
        # position 0, set when Created.apply folds the event (after the attributes above, so
        # stored snapshots keep their field order)
        self.state: GameState

    setup_from_table = False  # snapshots taken before the attribute existed
    segment = 1  # the seed segment: 1 until a ruling reopens the match (Reopened)
    # the disputes that pause the match (Paused, Resumed); replaced, never changed in place
    pausing: tuple[str, ...] = ()

    # The aggregate cache hands out copies. Game states are never changed in place (the engine
    # returns new ones) and live entries are never changed, so copying the containers suffices;
    # a full deepcopy would cost O(match length) on every command.
    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        clone = object.__new__(type(self))
        clone.__dict__.update({k: (list(v) if isinstance(v, list) else v)
                               for k, v in self.__dict__.items()})
        return clone

    @property
    def ended(self) -> bool:
        """Whether the match is over."""
        return self.result is not None

    @property
    def players(self) -> list[str]:
        """Player names by seat."""
        return list(self.config["players"])

    @property
    def spectators(self) -> str:
        """How spectators watch the match while it is on: ``live``, ``delayed`` (by the
        ``spectator_delay`` option's positions) or ``refused`` (the match option)."""
        return str(self.config["options"].get("spectators", "live"))

    def position_version(self, position: int) -> int:
        """The event version at which live position ``position`` (0 = after setup) was reached."""
        return 1 if position == 0 else self.live[position - 1][0]

    # ----- commands: the match decides, appending the events that record what it decided ------
    def act(self, action: Mapping[str, Any], chance: Chance, *, asker: Viewer,
            recorded_by: RecordedBy, sealer: Sealer) -> Acted:
        """Record ``action`` if the rules allow it (``chance`` decides what it leaves to
        chance), and the match's end if it ends it; IllegalAction appends nothing. ``asker``
        is who asks, as the match shows itself to them: a refusal names nothing it may not
        know (``Ruleset.refusal_for``). A seat waits while a dispute pauses the match; judges
        and organisers act during a pause, since their remedies are how it ends."""
        if self.pausing and not by_staff(recorded_by):
            raise MatchPaused("The match is paused while a judge hears a dispute: wait for the "
                              "ruling.", disputes=list(self.pausing))
        ruleset = get_game(self.game)
        parsed = ruleset.parse_action(action)
        try:
            state = ruleset.apply(self.state, parsed, chance)
            if isinstance(chance, SuppliedChance):
                chance.finish()
        except ActionError as refused:
            raise ruleset.refusal_for(refused, self.state, parsed, asker) from None
        digest = ruleset.digest(state)
        self._append(Match.ActionRecorded, {
            "seq": self.next_seq, "seat": parsed.seat, "action": parsed.model_dump(mode="json"),
            "outcomes": chance.stored(),
            "chance_source": "seed" if isinstance(chance, SeededChance) else "table",
            "digest": digest, "recorded_by": recorded_by, "recorded_at": sealer.now()},
            sealer, after=state)
        calls_judge = ruleset.calls_judge(getattr(parsed, "type", None))
        acted = Acted(self.next_seq - 1, digest,
                      (len(self.live), self.version) if calls_judge else None)
        outcome = ruleset.outcome(state)
        if outcome is not None:
            self._end(outcome.__dict__, recorded_by, sealer)
        return acted

    def undo(self, count: int | None, to_position: int | None, *, reason: str,
             recorded_by: RecordedBy, sealer: Sealer,
             position: Callable[[int], GameState]) -> str | None:
        """Void the last ``count`` live actions, or every one after ``to_position``
        (ActionsUndone; nothing is erased), returning the digest of the position the match
        is back at; None when it stands at ``to_position`` already (nothing appended: two
        judges backing up to one position void what they meant and no more). ``position``
        gives a past live position of the match."""
        back = count
        if to_position is not None:
            if not 0 <= to_position <= len(self.live):
                raise IllegalAction(R.UNDO_OUT_OF_RANGE, f"The match has positions 0 to "
                                    f"{len(self.live)}, not {to_position}.")
            back = len(self.live) - to_position
            if back == 0:
                return None
        if back is None or back < 1 or back > len(self.live):
            raise IllegalAction(R.UNDO_OUT_OF_RANGE, f"Can undo 1 to {len(self.live)} "
                                f"action(s) here, not {back}.")
        return self._void(len(self.live) - back, reason, recorded_by, sealer, position)

    def reopen(self, to_position: int, *, reason: str, commitment: str,
               recorded_by: RecordedBy, sealer: Sealer,
               position: Callable[[int], GameState]) -> str:
        """Reopen the ended match for a judge's ruling (issue 13) under the seed that
        ``commitment`` commits to, the next segment's (the ended one's was revealed), backed
        up to ``to_position`` in the same save: at the final position the rules would end the
        match again. The digest of the position it is back at."""
        if not self.ended:
            raise IllegalAction(R.MATCH_NOT_OVER, "Only an ended match is reopened; back it up "
                                "instead.")
        if not 0 <= to_position < len(self.live):
            raise IllegalAction(R.UNDO_OUT_OF_RANGE, f"A reopened match backs up to a position "
                                f"from 0 to {len(self.live) - 1}.")
        self._append(Match.Reopened, {
            "reason": reason, "segment": self.segment + 1, "commitment": commitment,
            "recorded_by": recorded_by, "recorded_at": sealer.now()}, sealer)
        return self._void(to_position, reason, recorded_by, sealer, position)

    def keep_paused(self, pausing: Sequence[str], *, recorded_by: RecordedBy,
                    sealer: Sealer) -> bool:
        """Bring the match's pause in step with ``pausing``, the disputes that pause it now: a
        MatchPaused for each that holds it anew, a MatchResumed for each that lets it go;
        whether anything was appended. An ended match takes neither (nothing is recorded in
        it; a ruling that reopens it brings it in step again)."""
        if self.ended:
            return False
        started = self.version
        for dispute_id in [d for d in pausing if d not in self.pausing]:
            self._append(Match.Paused, {"dispute_id": dispute_id, "recorded_by": recorded_by,
                                        "recorded_at": sealer.now()}, sealer)
        for dispute_id in [d for d in self.pausing if d not in pausing]:
            self._append(Match.Resumed, {"dispute_id": dispute_id, "recorded_by": recorded_by,
                                         "recorded_at": sealer.now()}, sealer)
        return self.version != started

    def _void(self, target: int, reason: str, recorded_by: RecordedBy, sealer: Sealer,
              position: Callable[[int], GameState]) -> str:
        state = position(target)
        digest = get_game(self.game).digest(state)
        self._append(Match.ActionsUndone, {
            "count": len(self.live) - target, "seqs": [a[1] for a in self.live[target:]],
            "reason": reason, "digest": digest, "recorded_by": recorded_by,
            "recorded_at": sealer.now()}, sealer, after=state)
        return digest

    def _end(self, result: Mapping[str, Any], recorded_by: RecordedBy, sealer: Sealer) -> None:
        """MatchEnded with the result, and the seed of the segment revealed (withheld where
        the store does not hold it: imported while on)."""
        self._append(Match.Ended, {
            "winners": list(result["winners"]), "losers": list(result["losers"]),
            "reason": result["reason"], "drawn": bool(result["drawn"]),
            "detail": result.get("detail", ""), "recorded_by": recorded_by,
            "recorded_at": sealer.now()}, sealer)
        seed = sealer.seed(self.segment)
        if seed is None:
            self._append(Match.SeedWithheld, {
                "reason": "imported while on, without its seed: the store that created the "
                          "match holds it", "recorded_by": "kiroku", "recorded_at": sealer.now()},
                sealer)
            return
        self._append(Match.SeedRevealed, {"seed": seed.hex(), "recorded_by": "kiroku",
                                          "recorded_at": sealer.now()}, sealer)

    def _append(self, cls: type[Any], payload: dict[str, Any], sealer: Sealer,
                after: GameState | None = None) -> None:
        """The library's ``trigger_event``, the event sealed (its commitments and hash) and
        folded in with the position the command computed already (``after``), instead of
        replaying the action through the rules a second time."""
        version = self.version + 1
        payload["prev_hash"] = self.head_hash
        name = EVENT_NAMES[cls]
        sealed = (sealer.seal(name, version, payload, get_game(self.game), len(self.players),
                              self.segment) if commits(cls)
                  else sealer.hashed(name, version, payload))
        event = cls(originator_id=self.id, originator_version=version,
                    timestamp=instant(payload["recorded_at"]), **sealed)
        self._fold(event, after=after)
        self.version, self.modified_on = version, event.timestamp
        self.pending_events.append(event)

    # ----- folding events in ------------------------------------------------------------------
    def replay(self, event: Any, loading: Loading) -> None:
        """Fold one stored event into the match, as the library's ``mutate`` does (the event
        must be the match's next), with what ``loading`` gives."""
        if event.originator_id != self.id:
            raise OriginatorIDError(event.originator_id, self.id)
        if event.originator_version != self.version + 1:
            raise OriginatorVersionError(event.originator_version, self.version + 1)
        self._fold(event, loading=loading)
        self.version, self.modified_on = event.originator_version, event.timestamp

    def _fold(self, event: Any, *, after: GameState | None = None,
              loading: Loading | None = None) -> None:
        """Fold one of this match's events into it: the live line, the state, the rest."""
        keeper = _Keeper(self, after, loading or _NOT_LOADING)
        if isinstance(event, Match.Created):
            fold = Fold(keeper)
        else:
            fold = Fold.resume(keeper, self.game, self.config, self.setup_outcomes, self.live,
                               self.state)
        fold.feed(to_record(event, envelope=False))
        self.live, self.state = fold.live, fold.state
        if isinstance(event, Match.ActionRecorded):
            self.live[-1] = _lean(self.live[-1])


_NOT_LOADING = Loading()


@dataclasses.dataclass(frozen=True)
class Acted:
    """What ``Match.act`` recorded: the action's seq, the digest of the position it reached,
    and (live position, version) of a game's own dispute of a claim when it calls a judge."""

    seq: int
    digest: str
    calls_judge: tuple[int, int] | None


MATCH_TOPICS = {"created": Match.Created.TOPIC, "action": Match.ActionRecorded.TOPIC,
                "undone": Match.ActionsUndone.TOPIC, "ended": Match.Ended.TOPIC,
                "seed": Match.SeedRevealed.TOPIC, "withheld": Match.SeedWithheld.TOPIC,
                "reopened": Match.Reopened.TOPIC, "paused": Match.Paused.TOPIC,
                "resumed": Match.Resumed.TOPIC}
EVENT_NAMES: dict[type[Any], str] = {
    Match.Created: "MatchCreated", Match.ActionRecorded: "ActionRecorded",
               Match.ActionsUndone: "ActionsUndone", Match.Ended: "MatchEnded",
               Match.SeedRevealed: "SeedRevealed", Match.SeedWithheld: "SeedWithheld",
               Match.Reopened: "MatchReopened", Match.Paused: "MatchPaused",
               Match.Resumed: "MatchResumed"}


def commits(cls: type[Any]) -> bool:
    """Whether events of ``cls`` carry commitments to hidden values (ledger.chain). Asked at
    every event recorded; a class's fields never change, so it is answered once a class."""
    known = _COMMITS.get(cls)
    if known is None:
        known = _COMMITS[cls] = any(f.name == "commitments" for f in dataclasses.fields(cls))
    return known


_COMMITS: dict[type[Any], bool] = {}


def linked(events: list[Any]) -> list[Any]:
    """A match's events from its first on, each with the ``prev_hash`` it was hashed with: the
    stored one where there is one, else the ``hash`` of the event before it (ledger.mapper)."""
    if events and events[0].originator_version != 1:
        raise ValueError("events are linked from a match's first event on")
    prev = GENESIS
    for event in events:
        prev = link(event, prev)
    return events


def link(event: Any, prev: str) -> str:
    """Give ``event`` the ``prev_hash`` ``prev`` unless it has its own; its hash (the next
    event's ``prev``)."""
    fields = vars(event)
    if fields.get("prev_hash", prev) is None:
        fields["prev_hash"] = prev
    return str(fields.get("hash", prev))


def to_record(event: Any, *, envelope: bool = True) -> Record:
    """A stored domain event of a match as a plain record (the form ledger.fold reads).

    Without ``envelope`` the record leaves out ``match_id``, which the fold never reads: the
    aggregate folds its events that way. The library's own ``timestamp`` is never shown: the
    hash does not cover it, so it proves nothing (``recorded_at``, which it covers, says when).
    """
    payload = dict(vars(event))
    for name in _LIBRARY_FIELDS:
        payload.pop(name, None)
    if not payload.get("commitments", True):
        del payload["commitments"]  # events recorded before commitments read as they were
    if not envelope:
        return {"event": EVENT_NAMES[type(event)], "version": event.originator_version,
                **payload}
    return {"event": EVENT_NAMES[type(event)], "match_id": _id_text(event.originator_id),
            "version": event.originator_version, **payload}


@functools.lru_cache(maxsize=256)
def _id_text(match_id: UUID) -> str:
    """``str(match_id)``, made once for the events of a match read together (a record each
    was about 1 % of an audit)."""
    return str(match_id)


class _Keeper(Visitor):
    """Folds events into a Match: with the position its command computed already (``after``),
    else replaying; an undo's position from the recorder where the match was read from a
    snapshot (``Loading.past``)."""

    def __init__(self, match: Match, after: GameState | None, loading: Loading) -> None:
        self.match = match
        self.after = after
        self.loading = loading
        self.owned = loading.owned

    def apply(self, ruleset: Ruleset, before: GameState, record: Record) -> GameState:
        """The position the command computed, else the action replayed."""
        return self.after if self.after is not None else super().apply(ruleset, before, record)

    def restore(self, record: Record, position: int) -> GameState | None:
        """The position the command computed, else the one the recorder loads (a snapshot
        keeps no actions to re-project it from)."""
        if self.after is not None:
            return self.after
        if self.loading.past is None:
            return None
        return self.loading.past(self.match.id, self.match.position_version(position))

    def action(self, record: Record, before: GameState, after: GameState,
               position: int) -> None:
        """Count the seq and move the chain head."""
        self.match.next_seq = record["seq"] + 1
        self.match.head_hash = record["hash"]

    def undone(self, record: Record, voided: list[LiveAction], state: GameState) -> None:
        """Move the chain head."""
        self.match.head_hash = record["hash"]

    def ended(self, record: Record, state: GameState) -> None:
        """Keep the result."""
        self.match.result = {"winners": list(record["winners"]),
                             "losers": list(record["losers"]), "reason": record["reason"],
                             "drawn": record["drawn"], "detail": record["detail"]}
        self.match.head_hash = record["hash"]

    def seed_revealed(self, record: Record) -> None:
        """Keep the revealed seed."""
        self.match.seed = record["seed"]
        self.match.head_hash = record["hash"]

    def seed_withheld(self, record: Record) -> None:
        """Move the chain head."""
        self.match.head_hash = record["hash"]

    def reopened(self, record: Record, state: GameState) -> None:
        """On again, under the new segment's seed commitment."""
        self.match.result = None
        self.match.seed = None
        self.match.commitment = record["commitment"]
        self.match.segment = int(record["segment"])
        self.match.head_hash = record["hash"]

    def paused(self, record: Record) -> None:
        """One more dispute holds the match."""
        self.match.pausing = (*self.match.pausing, record["dispute_id"])
        self.match.head_hash = record["hash"]

    def resumed(self, record: Record) -> None:
        """The dispute no longer holds the match."""
        self.match.pausing = tuple(d for d in self.match.pausing if d != record["dispute_id"])
        self.match.head_hash = record["hash"]


class MatchSecret(Aggregate):
    """The match's seed, kept in its own stream and never served while the match is on;
    sealed with the deployment's seed key (ledger.keys) since class version 2."""

    TOPIC = "kiroku:MatchSecret"

    class Created(Aggregate.Created):
        """SeedSealed: ``seed`` is hex, encrypted when ``sealed`` (plain in version 1)."""

        TOPIC = "kiroku:SeedSealed/1"
        class_version = 2
        match_id: UUID
        seed: str
        sealed: bool

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Seeds stored before sealing existed are plain."""
            state["sealed"] = False

    def __init__(self, match_id: UUID, seed: str, sealed: bool) -> None:
        self.match_id = match_id
        self.seed = seed
        self.sealed = sealed
