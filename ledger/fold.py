"""The one fold of a match's events: the live line, undo, and a visitor's hooks.

A match's events are folded into game states in one place. ``Fold`` walks the events in order,
as records (``{"event": name, "match_id", "version", **payload}``; a stored domain
event becomes one with ``ledger.match.to_record``), keeps the live line (the live actions and the
positions they reach) and applies undo. It tells a ``Visitor`` what happened, in the manner of
python-chess's PGN visitors:

    created(record, state)                the match is set up: position 0
    action(record, before, after, n)      a live action took position n - 1 to position n
    undone(record, voided, state)         the last live actions are void; ``state`` is now live
    ended(record, state)                  the match ended at ``state``
    seed_revealed(record)                 the seed was published
    seed_withheld(record)                 the match ended where its seed is not held

A visitor may also say how a position is computed: ``setup`` and ``apply`` replay the stored
chance outcomes by default (the audit turns refusals into its findings; the aggregate hands back
the state the recorder already computed), and ``restore`` may supply the position an undo returns
to (otherwise the fold takes it from the positions it kept, or re-projects it from setup).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import msgpack
from eventsourcing.application import LRUCache

from engine.core.chance import Outcome, ReplayChance
from engine.core.contract import GameState, MatchConfig, Ruleset, Step
from engine.registry import get_game

# (event version, seq, seat, action data, chance outcomes) of one live action
LiveAction = tuple[int, int, int, dict[str, Any], list[Outcome]]
# one event as a plain record (see the module docstring)
Record = dict[str, Any]
# the events a fold reads, by record name
EVENT_KINDS = ("MatchCreated", "ActionRecorded", "ActionsUndone", "MatchEnded", "SeedRevealed",
               "SeedWithheld", "MatchReopened", "MatchPaused", "MatchResumed")
# set-up positions kept by their content (``kept_setup_position``)
SETUPS_KEPT = 512


class FoldError(Exception):
    """The events do not form a match the fold can walk."""


class BadUndo(FoldError):
    """An undo of more live actions than there are (or of none)."""

    def __init__(self, count: int, live: int) -> None:
        super().__init__(f"undoes {count} action(s) of {live}")
        self.count = count
        self.live = live


T = TypeVar("T")


def _replaying(outcomes: Sequence[Outcome], run: Callable[[ReplayChance], T]) -> T:
    """``run`` with the stored outcomes, all of which it must use."""
    chance = ReplayChance(outcomes)
    result = run(chance)
    chance.finish()
    return result


def setup_position(ruleset: Ruleset, config: Mapping[str, Any],
                   outcomes: Sequence[Outcome]) -> GameState:
    """Position 0: set the match up again with its stored setup outcomes, all of them used."""
    match_config = MatchConfig.model_validate(config)
    return _replaying(outcomes, lambda chance: ruleset.setup(match_config, chance))


_setups: LRUCache[bytes, GameState] = LRUCache(SETUPS_KEPT)


def kept_setup_position(ruleset: Ruleset, config: Mapping[str, Any],
                        outcomes: Sequence[Outcome]) -> GameState:
    """``setup_position``, computed once per content (game and rules version, config, setup
    outcomes) and then kept: rebuilding a short match or an early position from its creation
    otherwise validates every card definition again. Sharing the state is safe because a
    position is never changed in place (``Ruleset.apply`` copies first); the positions the
    recorder keeps are shared the same way. The audit does not use it: it sets each match up
    again (``setup_position``)."""
    try:
        content = msgpack.packb([ruleset.game_id, ruleset.version, config, outcomes],
                                use_bin_type=True)
    except TypeError:  # outcomes given as engine objects, not as stored: set up, unkept
        return setup_position(ruleset, config, outcomes)
    key = hashlib.sha256(content).digest()
    try:
        return _setups.get(key)
    except KeyError:
        state = setup_position(ruleset, config, outcomes)
        _setups.put(key, state)
        return state


@dataclass
class Owned:
    """While a match is rebuilt from its stored events, the state the rebuild produced last:
    no one else holds it, so the next action replayed onto it changes it in place
    (``Ruleset.apply_in_place``) instead of copying it. A state that came from elsewhere (a
    kept set-up position or past version, a cached match, a snapshot) is copied first, as
    always. Copying was about half of replaying an action. One per rebuild, handed to the
    fold explicitly (``Visitor.owned``)."""

    state: GameState | None = None

    def shared(self) -> None:
        """The state produced last is now held elsewhere too (kept as a past version): the
        next action replayed onto it copies it first."""
        self.state = None


def replay_action(ruleset: Ruleset, state: GameState, action: Mapping[str, Any],
                  outcomes: Sequence[Outcome], owned: Owned | None = None) -> GameState:
    """The position after ``action``, replayed with its stored outcomes, all of them used
    (in place of ``state`` when the rebuild under way, ``owned``, owns it)."""
    if owned is None:
        return _replaying(outcomes, lambda chance: ruleset.apply(state, action, chance))
    apply = ruleset.apply_in_place if state is owned.state else ruleset.apply
    owned.state = None  # a replay that fails leaves nothing owned
    owned.state = _replaying(outcomes, lambda chance: apply(state, action, chance))
    return owned.state


def replay_step(ruleset: Ruleset, state: GameState, action: Mapping[str, Any],
                outcomes: Sequence[Outcome]) -> Step:
    """``replay_action`` with the step's effects (for transcripts and step animations)."""
    return _replaying(outcomes, lambda chance: ruleset.step(state, action, chance))


def project(config: Mapping[str, Any], game: str, setup_outcomes: Sequence[Outcome],
            actions: Sequence[LiveAction]) -> GameState:
    """Rebuild a position from setup and a list of live actions, using only stored outcomes."""
    ruleset = get_game(game)
    state = kept_setup_position(ruleset, config, setup_outcomes)
    for _, _, _, action, outcomes in actions:
        if action is None:  # a live line read back from a snapshot keeps no actions
            raise FoldError("the live line holds no actions to re-project (it was read from a "
                            "snapshot): load past positions through the recorder")
        state = replay_action(ruleset, state, action, outcomes)
    return state


def _live_entry(record: Record) -> LiveAction:
    """The live-line entry of an ActionRecorded record; seq and seat are taken as recorded."""
    return cast(LiveAction, (record["version"], record.get("seq"), record.get("seat"),
                             record["action"], record["outcomes"]))


class Visitor:
    """What a fold tells about a match, and how it computes positions. Override what you need.

    The hooks do nothing by default; the position methods replay stored outcomes (in place of
    the states a rebuild owns, where ``owned`` is set: ``Owned``).
    """

    owned: Owned | None = None

    def setup(self, ruleset: Ruleset, record: Record) -> GameState:
        """Position 0 for a MatchCreated record."""
        return kept_setup_position(ruleset, record["config"], record["setup_outcomes"])

    def apply(self, ruleset: Ruleset, before: GameState, record: Record) -> GameState:
        """The position an ActionRecorded record reaches from ``before``."""
        return replay_action(ruleset, before, record["action"], record["outcomes"], self.owned)

    def restore(self, record: Record, position: int) -> GameState | None:
        """The live ``position`` an ActionsUndone record returns to, if the visitor has it."""
        return None

    def created(self, record: Record, state: GameState) -> None:
        """The match was set up at ``state`` (position 0)."""

    def action(self, record: Record, before: GameState, after: GameState,
               position: int) -> None:
        """A live action took the match from ``before`` to ``after``, live ``position``."""

    def undone(self, record: Record, voided: list[LiveAction], state: GameState) -> None:
        """The ``voided`` live actions are void; ``state`` is the live position again."""

    def ended(self, record: Record, state: GameState) -> None:
        """The match ended; ``state`` is its final live position."""

    def seed_revealed(self, record: Record) -> None:
        """The match's seed was published."""

    def reopened(self, record: Record, state: GameState) -> None:
        """A ruling reopened the ended match at ``state`` (a new seed segment begins)."""

    def seed_withheld(self, record: Record) -> None:
        """The match ended in a store that does not hold its seed (it was imported while on)."""

    def paused(self, record: Record) -> None:
        """A dispute paused the match."""

    def resumed(self, record: Record) -> None:
        """A dispute that paused the match no longer does."""


class Fold:
    """Walks a match's records in order, keeps its live line and tells a visitor.

    The positions the fold reaches are kept (from ``first_kept`` on), so undo needs no
    re-projection; a fold resumed at the tip of a line (``resume``) keeps only what it reaches.
    """

    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor
        self._ruleset: Ruleset | None = None
        self.config: Mapping[str, Any] = {}
        self.setup_outcomes: Sequence[Outcome] = []
        self.live: list[LiveAction] = []
        self.first_kept = 0
        self._kept: list[GameState] = []

    @classmethod
    def resume(cls, visitor: Visitor, game: str, config: Mapping[str, Any],
               setup_outcomes: Sequence[Outcome], live: list[LiveAction],
               state: GameState) -> Fold:
        """A fold picked up at ``state``, the tip of ``live`` (it takes ``live`` over)."""
        fold = cls(visitor)
        fold._ruleset = get_game(game)
        fold.config, fold.setup_outcomes = config, setup_outcomes
        fold.live, fold.first_kept, fold._kept = live, len(live), [state]
        return fold

    @property
    def state(self) -> GameState:
        """The current live position."""
        if not self._kept:
            raise FoldError("the match has not been created")
        return self._kept[-1]

    @property
    def ruleset(self) -> Ruleset:
        """The match's ruleset (known once MatchCreated is folded)."""
        if self._ruleset is None:
            raise FoldError("the first event is not MatchCreated")
        return self._ruleset

    def position(self, n: int) -> GameState:
        """Live position ``n`` (0 = after setup): kept, or re-projected from setup."""
        if n >= self.first_kept:
            return self._kept[n - self.first_kept]
        return project(self.config, self.ruleset.game_id, self.setup_outcomes, self.live[:n])

    def feed(self, record: Record) -> None:
        """Fold one more event into the line and tell the visitor."""
        step = _STEPS.get(record["event"])
        if step is None:
            raise FoldError(f"unknown event {record['event']!r}")
        step(self, record)

    def feed_all(self, records: Sequence[Record]) -> Fold:
        """Fold every record in order; returns the fold."""
        for record in records:
            self.feed(record)
        return self

    def _created(self, record: Record) -> None:
        if self._ruleset is not None:
            raise FoldError("MatchCreated appears twice")
        ruleset = get_game(record["game"])
        state = self.visitor.setup(ruleset, record)
        self._ruleset = ruleset
        self.config, self.setup_outcomes = record["config"], record["setup_outcomes"]
        self.live, self.first_kept, self._kept = [], 0, [state]
        self.visitor.created(record, state)

    def _action(self, record: Record) -> None:
        before = self.state
        after = self.visitor.apply(self.ruleset, before, record)
        self.live.append(_live_entry(record))
        self._kept.append(after)
        self.visitor.action(record, before, after, len(self.live))

    def _undone(self, record: Record) -> None:
        """Undo, the one place it is done: the last ``count`` live actions become void."""
        count = int(record["count"])
        if not 1 <= count <= len(self.live):
            raise BadUndo(count, len(self.live))
        target = len(self.live) - count
        voided = self.live[target:]
        state = self.visitor.restore(record, target)
        if state is None:
            state = self.position(target)
        if target >= self.first_kept:
            del self._kept[target - self.first_kept:]
            self._kept.append(state)
        else:
            self.first_kept, self._kept = target, [state]
        del self.live[target:]
        self.visitor.undone(record, voided, state)

    def _ended(self, record: Record) -> None:
        self.visitor.ended(record, self.state)

    def _seed_revealed(self, record: Record) -> None:
        self.visitor.seed_revealed(record)

    def _seed_withheld(self, record: Record) -> None:
        self.visitor.seed_withheld(record)

    def _reopened(self, record: Record) -> None:
        self.visitor.reopened(record, self.state)

    def _paused(self, record: Record) -> None:
        self.visitor.paused(record)

    def _resumed(self, record: Record) -> None:
        self.visitor.resumed(record)


# what the fold does for each kind of event
_STEPS: dict[str, Callable[[Fold, Record], None]] = dict(zip(EVENT_KINDS, (
    Fold._created, Fold._action, Fold._undone, Fold._ended, Fold._seed_revealed,
    Fold._seed_withheld, Fold._reopened, Fold._paused, Fold._resumed)))
