"""The recorder: the write side. Every command validates through the engine before saving.

    recorder = Recorder.open("sqlite:///./kiroku.db")
    match_id = recorder.create_match("worldgainer", ["Ann", "Ben"], decks, cards)
    recorder.record(match_id, {"type": "stun", "seat": 1, "card": "WGS-021"}, recorded_by="Ann")
"""

from __future__ import annotations

import copy
import logging
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from importlib import import_module
from types import ModuleType
from typing import Any, cast
from uuid import UUID, uuid4

from eventsourcing.application import Application, ProcessingEvent, Repository
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import (
    EventStore,
    IntegrityError,
    Mapper,
    MapperDeserialisationError,
    PersistenceError,
    Recording,
    StoredEvent,
    Transcoder,
)
from eventsourcing.sqlite import SQLiteAggregateRecorder

from engine.core.chance import Chance, Outcome, SuppliedChance
from engine.core.contract import GameState, MatchConfig
from engine.core.errors import ActionError, IllegalAction, SetupError
from engine.core.reasons import KernelReason
from engine.core.viewer import JUDGE, Viewer
from engine.registry import get_game
from ledger.chain import GENESIS
from ledger.compactrows import CompactRows
from ledger.errors import BadPosition, ConcurrentAppend, CorruptRecord, LedgerError, MatchNotFound
from ledger.groupcommit import SNAPSHOTS, GroupCommitRecorder
from ledger.identity import NAME_LIMIT, RecordedBy
from ledger.keys import Keyring, key_file
from ledger.loading import MatchLoader
from ledger.mapper import MatchMapper, Sealed
from ledger.match import Creation, Match, MatchSecret, instant, linked
from ledger.matchlist import (
    DisputesProjection,
    ListedMatch,
    MatchList,
    MatchListView,
    MatchPage,
    MatchQuery,
    SQLiteMatchListView,
    Streams,
    StreamsProjection,
)
from ledger.reasons import RecorderReason as R
from ledger.sealing import Sealer
from ledger.seed import SeededChance, commitment, new_seed
from ledger.seedkeeper import SeedKeeper, secret_id
from ledger.settings import (
    SettingsError,
    database_unavailable,
    database_url,
    persistence_env,
    sqlite_unavailable,
)
from ledger.snapshots import CheckedSnapshots, Given, snapshot_recorder
from ledger.transcoder import MsgpackTranscoder

if sys.platform != "win32":
    import fcntl  # POSIX: serialises opening an SQLite file (_lock_beside)

_log = logging.getLogger(__name__)
# Events between two snapshots: a position is rebuilt from at most this many events. 25 since
# snapshots leave out the match's configuration and card definitions (issue 16: a World Gainer
# snapshot is about 700 bytes, 29 per action, and the cold time-travel median fell by a third).
SNAPSHOT_INTERVAL = 25
REPLAY_POLICIES = ("open", "closed")
# Aggregates kept in memory by eventsourcing's LRU cache (AGGREGATE_CACHE_MAXSIZE): matches, and
# what a request reads beside them (seatings, dispute dockets, credentials, tournaments). Past
# it every action reloads its match from its snapshot and events (issue 43: CPU per action
# x2.5 to x4 from 257 live matches at 256). 16,384 hold an event of 2,000 live matches with a
# seating and two seats' credentials each, and the tournament's pages; a World Gainer match
# takes 15 to 30 KiB (a 2,000-action one about 290 KiB), so some 0.5 GiB per process at the
# most for matches of usual length. KIROKU_AGGREGATE_CACHE_MAXSIZE (the library's setting,
# named for this application) sets another size.
CACHED_AGGREGATES = 16384
CACHE_SETTING = "KIROKU_AGGREGATE_CACHE_MAXSIZE"


def _credential(recorded_by: RecordedBy) -> str | None:
    """The credential an event was recorded with (None for a plain name: no resend is
    recognised without a credential)."""
    if isinstance(recorded_by, Mapping) and recorded_by.get("id"):
        return str(recorded_by["id"])
    return None


def now() -> str:
    """The server clock, UTC, ISO 8601 (the ``recorded_at`` of every event)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class Recorded:
    """What a command stored: the match's new version and, if it ended, the result, with the
    signed receipt of the match's head (``receipt``)."""

    match_id: UUID
    version: int
    seq: int | None
    digest: str
    result: dict[str, Any] | None
    head: str  # the hash of the match's last event: what the receipt signs
    keyring: Keyring = field(repr=False, compare=False)
    calls_judge: tuple[int, int] | None = None  # (live position, version) of a game's dispute
    resent: bool = False  # the same action sent again on the same version: nothing stored
    appended: bool = True  # False: nothing to append (an undo to where the match stands)

    @cached_property
    def receipt(self) -> dict[str, Any]:
        """The signed receipt of the match's head at ``version`` (ledger.keys), signed when
        first asked for: the Ed25519 signature was a tenth of recording an action, and a
        caller recording many (an import, a simulation, a script over the library) mostly
        never reads it. The HTTP service hands every one to the caller."""
        return self.keyring.receipt(self.match_id, self.version, self.head)


@dataclass(frozen=True)
class NewMatch:
    """A match set up but not yet saved (``Recorder.new_match``): its id, and the aggregates
    that store it (the match and its sealed seed), to save in one save."""

    match_id: UUID
    aggregates: tuple[Aggregate, ...]
    sealed: Sealed  # which seeds sealed its events (``Recorder.save``'s ``sealed``)


@dataclass(frozen=True)
class Appending:
    """A command on a match under way, before its save: the match with what it appended, what
    it recorded, and its sealer. What goes with the command in its save (``Then``) reads it,
    and may bring the match's pause in step (``keep_paused``)."""

    match: Match
    done: Recorded
    sealer: Sealer

    def keep_paused(self, pausing: Sequence[str], recorded_by: RecordedBy) -> None:
        """Bring the match's pause in step with ``pausing`` in the same save
        (``Match.keep_paused``)."""
        self.match.keep_paused(pausing, recorded_by=recorded_by, sealer=self.sealer)


# a command on a match: it appends to the match, sealed by the sealer, and says what it did
Command = Callable[[Match, Sealer], Recorded]
# what is saved with a command, in the same save (a dispute it calls, a ruling it remedies)
Then = Callable[[Appending], Sequence[Aggregate]]


@dataclass(frozen=True)
class MatchSummary:
    """One line of the match list."""

    match_id: UUID
    game: str
    players: list[str]
    created_at: str
    result: dict[str, Any] | None
    simulated: bool = False  # recorded by the simulator (``Kiroku.simulate``), not at a table


class Recorder(Application):
    """The Kiroku application on eventsourcing: matches as event streams.

    Every command on a match runs under the match's lock on the match as this process last
    saved or read it; the match decides (``Match.act``, ``undo``, ``reopen``, ``keep_paused``)
    and the command saves what it appended in one save, with whatever goes with it (``then``:
    a dispute it calls, a ruling whose remedy it is). Matches are loaded by a ``MatchLoader``,
    their seeds kept by a ``SeedKeeper``, their new events sealed by a ``Sealer``."""

    name = "Kiroku"
    snapshotting_intervals = {Match: SNAPSHOT_INTERVAL}
    env = {"AGGREGATE_CACHE_MAXSIZE": str(CACHED_AGGREGATES)}

    @classmethod
    def open(cls, url: str | None = None, *, keys: str | None = None,
             **extra: str) -> Recorder:
        """A recorder on the database at ``url`` (default: KIROKU_DATABASE_URL, else SQLite),
        with the deployment's key file ``keys`` (default: see ledger.keys.key_file)."""
        url = database_url(url)
        env = {**persistence_env(url), **extra}
        path = key_file(url, keys)
        keyring = Keyring.at(path) if path else Keyring.ephemeral()
        postgres = _postgres(env)
        unavailable: tuple[type[Exception], ...] = (
            *(postgres.DRIVER_ERRORS if postgres else ()), PersistenceError, sqlite3.Error,
            OSError)
        try:
            with _one_opener_at_a_time(env, postgres):
                return cls(env=env, keyring=keyring)
        except unavailable as exc:
            # a PostgreSQL server that does not answer or refuses us, an SQLite file that
            # cannot be opened: one sentence (DatabaseUnavailable, a SettingsError), not a
            # driver's traceback
            if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
                raise sqlite_unavailable(env, exc) from exc
            raise database_unavailable(env, exc) from exc

    def construct_mapper(self) -> Mapper[UUID]:
        """The library's mapper, storing a match's events without what the stream already
        says (ledger.mapper)."""
        return self.factory.mapper(transcoder=self.construct_transcoder(),
                                   mapper_class=MatchMapper)

    def construct_transcoder(self) -> Transcoder:
        """Events and snapshots are stored as msgpack."""
        return MsgpackTranscoder()

    def construct_snapshot_store(self) -> EventStore[UUID]:
        """Snapshots, used only where they agree with the events, stored on SQLite in a
        table with rowids (ledger.snapshots)."""
        return CheckedSnapshots(self.mapper, snapshot_recorder(self.factory),
                                self._events_as_stored(), self.creation)

    def construct_repository(self) -> Repository[UUID]:
        """The library's repository, reading a match's events with their commitments as
        stored: loading a match never looks at them (ledger.mapper). Its cache's size is
        checked first (``cache_size``)."""
        cache_size(self.env.get(self.AGGREGATE_CACHE_MAXSIZE))
        repository = super().construct_repository()
        repository.event_store = self._events_as_stored()
        return repository

    def _events_as_stored(self) -> EventStore[UUID]:
        return self.factory.event_store(mapper=self.match_mapper.as_stored(),
                                        recorder=self.recorder)

    @property
    def match_mapper(self) -> MatchMapper:
        """The mapper (ledger.mapper), as the class it is."""
        return cast(MatchMapper, self.mapper)

    def __init__(self, env: Mapping[str, str] | None = None,
                 keyring: Keyring | None = None) -> None:
        super().__init__(env)
        self.keyring = keyring or Keyring.ephemeral()
        self._locks: dict[UUID, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self.seeds = SeedKeeper(self.events, self.recorder, self.keyring)
        # a match's events store the commitments its seeds derive as the seed's segment
        self.match_mapper.seed_of = self.seeds.known
        self.loader = MatchLoader(self.repository, self.repository.event_store,
                                  SNAPSHOT_INTERVAL)
        self.match_list = MatchList(self, cast(MatchListView, self.factory.tracking_recorder(
            _list_view(self))))
        self.streams = Streams(self, StreamsProjection(self.match_list.view))
        self.dispute_streams = Streams(self, DisputesProjection(self.match_list.view))
        # snapshots stored in the transaction of the save that takes them (SQLite)
        self._snapshots_ride = (isinstance(self.recorder, GroupCommitRecorder)
                                and self.snapshots is not None
                                and isinstance(self.snapshots.recorder, SQLiteAggregateRecorder)
                                and self.recorder.snapshots_beside(self.snapshots.recorder))

    # ----- saving ----------------------------------------------------------------------------
    def save(self, *objs: Any, sealed: Sealed | None = None,
             **kwargs: Any) -> list[Recording[UUID]]:
        """The library's ``save``, its pending events collected by ``AggregatesCollected``;
        ``sealed`` names the segments whose seeds derived the commitments of the match events
        saved (``Sealer.sealed``: stored without deriving them again). On SQLite, the
        snapshots it takes go into the transaction that stores its events
        (``_riding_snapshots``), elsewhere after it, as the library stores them."""
        processing_event = AggregatesCollected()
        processing_event.collect_events(*objs, **kwargs)
        if self._snapshots_ride:
            riding = self._riding_snapshots(self._crossing(processing_event))
            if riding:
                processing_event.saved_kwargs[SNAPSHOTS] = riding
        recordings = self._record(processing_event, sealed)
        if not self._snapshots_ride:
            self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # the library's deprecated hook, as it calls it
        return recordings

    def _record(self, processing_event: ProcessingEvent[UUID],
                sealed: Sealed | None = None) -> list[Recording[UUID]]:
        """Store the events (with the mapper told which seeds sealed them); then the
        aggregates just saved become the cached ones, and a match's state is kept as the
        position at its version where spectators watch it delayed (``MatchLoader.saved``).

        The library's cache, with fast-forward on (so that several servers on one database
        see each other's appends), otherwise re-reads the events it just wrote and re-applies
        every action through the rules on the next command. The saved aggregate already holds
        that state; fast-forward still picks up anything another server appended after it.
        """
        events = (self.factory.event_store(mapper=self.match_mapper.sealing(sealed),
                                           recorder=self.recorder) if sealed else self.events)
        recordings = events.put(processing_event.events, tracking=processing_event.tracking,
                                **processing_event.saved_kwargs)
        self._cache_saved(processing_event.aggregates.values())
        for aggregate in processing_event.aggregates.values():
            if isinstance(aggregate, Match):
                self.loader.saved(aggregate)
        return recordings

    def _cache_saved(self, aggregates: Iterable[Any]) -> None:
        """The aggregates just saved become the cached ones (see ``_record``)."""
        if self.repository.cache and self.repository.fastforward:
            for aggregate in aggregates:
                # a copy: the caller keeps its own object and may go on changing it
                self.repository.cache.put(aggregate.id, copy.deepcopy(aggregate))

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Snapshot a match whose save crossed a multiple of its interval, from the aggregate
        just saved, after the save (PostgreSQL): the library would load it again and
        re-apply up to an interval of actions through the rules to take the same snapshot."""
        for match in self._crossing(processing_event):
            self._snapshot(match)

    def _crossing(self, processing_event: ProcessingEvent[UUID]) -> list[Match]:
        """The matches whose save crosses a multiple of the snapshot interval."""
        interval = self.snapshotting_intervals.get(Match)
        if not interval or self.snapshots is None:
            return []
        crossing = []
        for aggregate in processing_event.aggregates.values():
            if not isinstance(aggregate, Match):
                continue
            saved = sum(1 for e in processing_event.events
                        if e.originator_id == aggregate.id)
            if aggregate.version // interval > (aggregate.version - saved) // interval:
                crossing.append(aggregate)
        return crossing

    def _riding_snapshots(self, crossing: list[Match]) -> list[StoredEvent]:
        """The stored snapshots of the matches ``crossing`` an interval, for the store's
        recorder to insert in the save's transaction (SQLite's group commit: a snapshot then
        costs no commit and sync of its own, a twenty-fifth of one per action). One that
        cannot be encoded is logged and left out: it is a cache, never the command's
        failure."""
        riding = []
        for match in crossing:
            try:
                riding.append(self.snapshots.mapper.to_stored_event(  # type: ignore[union-attr]
                    Match.Snapshot.take(match)))
            except Exception:  # the cache is missed, nothing is lost
                _log.warning("the snapshot of match %s at v%s was not stored", match.id,
                             match.version, exc_info=True)
        return riding

    def _snapshot(self, match: Match) -> None:
        """Store a snapshot of ``match``. Its events are already committed and the command has
        succeeded: a snapshot that cannot be stored is only a cache missed (the match is read
        from its events), so it is logged, never reported as the command's failure (a client
        told that would retry, and record the action twice)."""
        try:
            self.snapshots.put([Match.Snapshot.take(match)])  # type: ignore[union-attr]
        except Exception:  # the cache is missed, nothing is lost
            _log.warning("the snapshot of match %s at v%s was not stored", match.id,
                         match.version, exc_info=True)

    def snapshot_findings(self, match_id: UUID, events: Sequence[Any] | None = None,
                          shared: dict[str, Any] | None = None) -> list[str]:
        """What is wrong with the stored snapshots of a match (each is ignored).

        The audit, which has read and verified the match's ``events`` (all of them, in order)
        and set it up (``shared``: its card definitions), passes both: the snapshots are then
        held to those events, and nothing but the snapshots is read again."""
        store = self.snapshots
        if not isinstance(store, CheckedSnapshots):
            return []
        given: Given | None = None
        if events and shared is not None and isinstance(events[0], Match.Created):
            creation = Creation.of(events[0], shared)
            given = Given(events, lambda _: creation)
        return [f"the snapshot at v{version} was ignored: {why}"
                for version, why in store.findings(match_id, given)]

    # ----- commands --------------------------------------------------------------------------
    def create_match(self, game: str, players: Sequence[str], decks: Sequence[Mapping[str, int]],
                     cards: Mapping[str, Mapping[str, Any]],
                     options: Mapping[str, Any] | None = None,
                     *, recorded_by: RecordedBy = "organizer", replay_policy: str = "open",
                     setup_outcomes: Sequence[Any] | None = None,
                     seed: bytes | None = None) -> UUID:
        """Set up and store a new match; decks and options are checked first (C5).

        ``cards`` may hold a whole card set: only the cards the decks use are embedded in the
        match, so it replays anywhere. ``setup_outcomes`` are the table's own (a physical deal).
        ``seed`` is for reproducible simulations only; real matches get a fresh secret one.
        """
        created = self.new_match(game, players, decks, cards, options, recorded_by=recorded_by,
                                 replay_policy=replay_policy, setup_outcomes=setup_outcomes,
                                 seed=seed)
        self.save(*created.aggregates, sealed=created.sealed)
        return created.match_id

    def new_match(self, game: str, players: Sequence[str], decks: Sequence[Mapping[str, int]],
                  cards: Mapping[str, Mapping[str, Any]],
                  options: Mapping[str, Any] | None = None,
                  *, recorded_by: RecordedBy = "organizer", replay_policy: str = "open",
                  setup_outcomes: Sequence[Any] | None = None,
                  seed: bytes | None = None) -> NewMatch:
        """``create_match`` without saving: the match and its sealed seed, for the caller to
        save in one save with what goes with them (a round's matches with the round)."""
        ruleset = get_game(game)
        if replay_policy not in REPLAY_POLICIES:
            raise SetupError(R.BAD_POLICY, f"replay_policy must be one of {REPLAY_POLICIES}.")
        for name in players:
            if not 1 <= len(name.strip()) <= NAME_LIMIT or not name.isprintable():
                raise SetupError(R.BAD_PLAYER_NAME, f"A player's name is 1 to {NAME_LIMIT} "
                                 f"printable characters, not {name[:NAME_LIMIT]!r}.")
        used = {cid for deck in decks for cid in deck}
        config = MatchConfig(players=list(players), decks=[dict(d) for d in decks],
                             cards={cid: dict(cards[cid]) for cid in sorted(used) if cid in cards},
                             options=ruleset.new_match_options(options or {}))
        seed = seed if seed is not None else new_seed()
        chance: Chance = (SuppliedChance(setup_outcomes, entered_by=JUDGE)  # organisers only
                          if setup_outcomes is not None
                          else SeededChance(seed, 0))
        state = ruleset.setup(config, chance)
        if isinstance(chance, SuppliedChance):
            chance.finish()
        config = config.model_copy(update={"options": ruleset.parse_options(
            config.options).recorded()})
        match_id = uuid4()
        payload = {"game": game, "ruleset_version": ruleset.version,
                   "config": config.model_dump(), "replay_policy": replay_policy,
                   "commitment": commitment(seed), "setup_outcomes": chance.stored(),
                   "chance_source": "table" if setup_outcomes is not None else "seed",
                   "digest": ruleset.digest(state), "recorded_by": recorded_by,
                   "recorded_at": now(), "prev_hash": GENESIS}
        sealer = Sealer(match_id, lambda _: seed, now)
        sealed = sealer.seal("MatchCreated", 1, payload, ruleset, len(config.players), 1)
        match = Match._create(Match.Created, id=match_id, **sealed,
                              timestamp=instant(str(payload["recorded_at"])))
        secret = MatchSecret._create(MatchSecret.Created, id=secret_id(match_id),
                                     match_id=match_id, seed=self.keyring.seal(seed, match_id),
                                     sealed=True)
        # kept before the match is saved, so that storing the creation finds the seed that
        # derives its commitments (ledger.mapper)
        self.seeds.keep(match_id, 1, seed)
        return NewMatch(match_id, (match, secret), sealer.sealed)

    def record(self, match_id: UUID, action: Mapping[str, Any], *, recorded_by: RecordedBy,
               outcomes: Sequence[Any] | None = None,
               expected_version: int | None = None, asker: Viewer = JUDGE,
               then: Then | None = None) -> Recorded:
        """Validate ``action`` through the rules and store it; IllegalAction stores nothing.

        ``outcomes`` are chance outcomes entered at a physical table; without them the match's
        seeded generator decides. ``expected_version`` makes the append conditional.
        ``asker`` is who asks, as the match shows itself to them (a seat's credential: its
        seat): it enters only the outcomes it may see, and a refusal names nothing it may not
        know (``Ruleset.refusal_for``). ``then`` gives what is saved with the action (the
        dispute it calls, the ruling it is the remedy of).
        """
        over = "The match is over; no more actions can be recorded."

        def act(match: Match, sealer: Sealer) -> Recorded:
            chance = self._chance(match, outcomes, asker)
            acted = match.act(action, chance, asker=asker, recorded_by=recorded_by,
                              sealer=sealer)
            return Recorded(match_id, match.version, acted.seq, acted.digest, match.result,
                            match.head_hash, self.keyring, acted.calls_judge)

        try:
            return self._append(match_id, expected_version, over, act, then)
        except ConcurrentAppend:
            if expected_version is None:
                raise
            resent = self._resent(match_id, expected_version, action, recorded_by)
            if resent is None:
                raise
            return resent

    def _resent(self, match_id: UUID, expected_version: int, action: Mapping[str, Any],
                recorded_by: RecordedBy) -> Recorded | None:
        """The answer to an action already recorded on ``expected_version`` by the same
        credential (a tap sent again after its answer was lost on a flaky network): what the
        first one stored, so a resend never records twice. None for anything else (a true
        conflict: another action came first)."""
        match = self.get_match(match_id)
        after = list(self.events.get(match_id, gt=expected_version,
                                     lte=expected_version + 2))
        if not after or not isinstance(after[0], Match.ActionRecorded):
            return None
        first = after[0]
        try:
            parsed = get_game(match.game).parse_action(action).model_dump(mode="json")
        except ActionError:
            return None
        sender = _credential(recorded_by)
        if parsed != first.action or sender is None or _credential(first.recorded_by) != sender:
            return None
        ended = len(after) > 1 and isinstance(after[1], Match.Ended)
        last: Any = after[1] if ended else first
        return Recorded(match_id, last.originator_version, first.seq, first.digest,
                        match.result if last.originator_version == match.version else None,
                        last.hash, self.keyring, resent=True)

    def undo(self, match_id: UUID, count: int | None = 1, *, reason: str,
             recorded_by: RecordedBy, expected_version: int | None = None,
             to_position: int | None = None, then: Then | None = None) -> Recorded:
        """Void live actions by appending ActionsUndone; nothing is erased.

        ``to_position`` ("undo back to here") voids every live action after that position and
        is idempotent: if the match already stands there nothing is appended (``appended``
        is False), so two judges undoing to the same position, or one retrying, void what
        they meant and no more. ``count`` voids the last actions, whatever they are (use
        ``expected_version`` with it). ``then`` gives what is saved with the undo.
        """
        if not reason or not reason.strip():
            raise IllegalAction(R.REASON_REQUIRED, "An undo must say why.")
        if not reason.strip().isprintable() or len(reason) > 500:
            raise IllegalAction(R.BAD_REASON, "An undo's reason is up to 500 visible, printable "
                                "characters (no control or invisible characters).")
        reason = reason.strip()
        over = "The match is over and its seed revealed; it can no longer be undone."

        def void(match: Match, sealer: Sealer) -> Recorded:
            digest = match.undo(count, to_position, reason=reason, recorded_by=recorded_by,
                                sealer=sealer, position=self._positions_of(match))
            if digest is None:
                return Recorded(match_id, match.version, None,
                                get_game(match.game).digest(match.state), None,
                                match.head_hash, self.keyring, appended=False)
            return Recorded(match_id, match.version, None, digest, None, match.head_hash,
                            self.keyring)

        return self._append(match_id, expected_version, over, void, then)

    def reopen(self, match_id: UUID, *, reason: str, recorded_by: RecordedBy,
               to_position: int, then: Then | None = None) -> Recorded:
        """Reopen an ended match for a judge's ruling (issue 13): its seed was revealed at the
        end, so the rest of the match gets a fresh sealed seed, committed to in MatchReopened;
        the live actions after ``to_position`` are voided in the same save (``Match.reopen``),
        with the new segment's sealed seed and what ``then`` gives."""
        reason = reason.strip()
        if not reason or not reason.isprintable() or len(reason) > 500:
            raise IllegalAction(R.BAD_REASON, "A reopening says why, in up to 500 printable "
                                "characters.")
        seed = new_seed()

        def reopen(match: Match, sealer: Sealer) -> Recorded:
            digest = match.reopen(to_position, reason=reason, commitment=commitment(seed),
                                  recorded_by=recorded_by, sealer=sealer,
                                  position=self._positions_of(match))
            return Recorded(match_id, match.version, None, digest, None, match.head_hash,
                            self.keyring)

        def with_secret(appending: Appending) -> Sequence[Aggregate]:
            secret = MatchSecret._create(
                MatchSecret.Created, id=secret_id(match_id, appending.match.segment),
                match_id=match_id, seed=self.keyring.seal(seed, match_id), sealed=True)
            return [secret, *(then(appending) if then is not None else ())]

        return self._append(match_id, None, None, reopen, with_secret)

    def save_with_pause(self, match_id: UUID, pausing: Sequence[str], recorded_by: RecordedBy,
                        *aggregates: Aggregate) -> None:
        """Save ``aggregates`` (a dispute and its match's docket) and, in the same atomic save,
        bring the match's pause in step with ``pausing`` (the disputes that pause it now:
        ``Match.keep_paused``).

        The pause is in the match's own stream so that a seat's action validated before it
        (in this process or another) cannot be saved after it: its version is taken."""
        with self._lock(match_id):
            match = self.get_match(match_id)
            sealer = self._sealer(match_id)
            changed = match.keep_paused(pausing, recorded_by=recorded_by, sealer=sealer)
            try:
                self.save(*aggregates, *([match] if changed else []), sealed=sealer.sealed)
            except IntegrityError:
                raise ConcurrentAppend("The match or its disputes changed at the same time; "
                                       "reload them and try again.",
                                       match_id=str(match_id)) from None

    def receipt(self, match_id: UUID) -> dict[str, Any]:
        """A signed receipt for the match's head as it stands."""
        match = self.get_match(match_id)
        return self.keyring.receipt(match.id, match.version, match.head_hash)

    def _chance(self, match: Match, outcomes: Sequence[Any] | None,
                entered_by: Viewer) -> Chance:
        """Where the next action's chance comes from: the outcomes supplied; in a match set up
        from a physical table, or imported without its seed, only ever from the table (a
        forgotten outcome is refused, saying what to enter, never drawn from a seed); else
        the match's seed. Supplied outcomes are ``entered_by``'s: only those it may see, and
        an impossible one's refusal names the cards it could have been only to a judge (a
        judge may see every deck; a seat must not learn another's)."""
        if outcomes is not None or match.setup_from_table:
            return SuppliedChance(outcomes or [], entered_by=entered_by)
        seed = self.seeds.held(match.id, match.segment)
        return SeededChance(seed, len(match.live) + 1) if seed else SuppliedChance([])

    def _sealer(self, match_id: UUID) -> Sealer:
        """The sealer of one command's new events of a match (ledger.sealing)."""
        return Sealer(match_id, lambda segment: self.seeds.held(match_id, segment), now)

    def _positions_of(self, match: Match) -> Callable[[int], GameState]:
        """A past live position of ``match`` by its number, as loaded."""
        return lambda position: self.state_of(match.id, match.position_version(position))

    def _append(self, match_id: UUID, expected_version: int | None, when_over: str | None,
                command: Command, then: Then | None) -> Recorded:
        """Run ``command`` on a match that is still on (``when_over`` says why not; None: the
        command takes an ended match), under the match's lock, and save what it appends with
        what ``then`` gives, in one save (the final action, MatchEnded and SeedRevealed land
        atomically, and a ruling with its remedy); an exception in either saves nothing.

        The match comes from this process's cache as its last save or read left it, without
        reading the store first (optimistic: one read less per action). Another process (a
        second server or worker on the same database) may have appended since, or at the same
        time; the store's uniqueness of (match, version) then refuses the save. So when the
        command fails (a refusal, a version mismatch, a lost race), or appends nothing, and
        the store holds events after the version it started from, the command runs once more
        on the match as stored, and that run's answer is given: commands racing from two
        processes are taken one after the other, as the match's lock takes them within one.
        """
        with self._lock(match_id):
            match = self._for_append(match_id)
            started = match.version  # the command advances its match's version as it appends
            try:
                done = self._run_append(match, expected_version, when_over, command, then)
            except (LedgerError, ActionError):
                if not self._moved_on(match_id, started):
                    raise
            else:
                # a command that appended nothing (an undo to where the match already
                # stands) was not checked by a save: it too is answered as the store stands
                if done.appended or not self._moved_on(match_id, started):
                    return done
            return self._run_append(self.get_match(match_id), expected_version, when_over,
                                    command, then)

    def _run_append(self, match: Match, expected_version: int | None, when_over: str | None,
                    command: Command, then: Then | None) -> Recorded:
        if expected_version is not None and expected_version != match.version:
            raise ConcurrentAppend(f"The match is at version {match.version}, not "
                                   f"{expected_version}; reload it and try again.",
                                   version=match.version)
        if match.ended and when_over is not None:
            raise IllegalAction(KernelReason.MATCH_OVER, when_over)
        sealer = self._sealer(match.id)
        done = command(match, sealer)
        with_it = then(Appending(match, done, sealer)) if then is not None else ()
        if match.pending_events or with_it:
            self._save(match, with_it, sealer)
        return done

    def _for_append(self, match_id: UUID) -> Match:
        """A copy of the cached match (which another process may have appended past), or the
        match read from the store when this process has none cached."""
        cache = self.repository.cache
        if cache is not None:
            try:
                cached = cache.get(match_id)
            except KeyError:
                pass
            else:
                if isinstance(cached, Match):
                    return copy.deepcopy(cached)
        return self.get_match(match_id)

    def _moved_on(self, match_id: UUID, version: int) -> bool:
        """Whether the store holds events of the match after ``version``."""
        return bool(self.recorder.select_events(match_id, gt=version, limit=1))

    def _save(self, match: Match, with_it: Sequence[Aggregate], sealer: Sealer) -> None:
        """Save what ``match`` appended, with ``with_it``, in one save."""
        sealed = [(e.originator_version, cast(Any, e).hash) for e in match.pending_events]
        try:
            self.save(*([match] if sealed else []), *with_it, sealed=sealer.sealed)
        except IntegrityError:
            if self._landed(match.id, sealed):
                self._cache_saved([match, *with_it])
                return
            raise ConcurrentAppend("Another action was recorded on this match at the same "
                                   "time; reload the match and try again.",
                                   match_id=str(match.id)) from None

    def _landed(self, match_id: UUID, sealed: list[tuple[int, str]]) -> bool:
        """Whether the store holds exactly the events ``sealed`` (their versions and hashes):
        a save refused for a key its own insert had filled. On PostgreSQL the library runs
        an insert again when the connection is lost (its ``retry``); when the first run had
        committed and only its answer was lost, the second meets the first's rows. The save
        then stands, once, rather than the command running again on the match as stored."""
        if not sealed:
            return False
        stored = self.events.get(match_id, gt=sealed[0][0] - 1, lte=sealed[-1][0])
        return [(e.originator_version, getattr(e, "hash", None)) for e in stored] == sealed

    def _lock(self, match_id: UUID) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(match_id, threading.Lock())

    # ----- queries ---------------------------------------------------------------------------
    def get_match(self, match_id: UUID, version: int | None = None) -> Match:
        """The match aggregate (at ``version`` if given), or MatchNotFound (ledger.loading)."""
        return self.loader.match(match_id, version)

    def match_to_read(self, match_id: UUID) -> Match:
        """The latest match, for a reader that changes nothing (``MatchLoader.to_read``): the
        cached one itself, not a copy."""
        return self.loader.to_read(match_id)

    def state_of(self, match_id: UUID, version: int) -> GameState:
        """The game state of the match at event ``version``: kept, or its version's."""
        return self.loader.state(match_id, version)

    def creation(self, match_id: UUID) -> Creation:
        """What the match's creation fixed for good (``MatchLoader.creation``)."""
        return self.loader.creation(match_id)

    def forget_positions(self) -> None:
        """Drop the kept past versions of matches (time travel is cold again)."""
        self.loader.forget_positions()

    def learn_stream_numbers(self) -> None:
        """Before reading most of the store's matches (the audit of every one): the numbers
        of the file's streams, for the events and for the snapshots, read at once
        (``CompactRows.learn_numbers``; nothing to learn on PostgreSQL)."""
        stores = (self.recorder, self.snapshots.recorder if self.snapshots else None)
        for store in stores:
            if isinstance(store, CompactRows):
                store.learn_numbers()

    def state_at(self, match_id: UUID, position: int | None = None) -> tuple[Match, GameState]:
        """The latest match and the game state at live ``position`` (None: the current one)."""
        match = self.get_match(match_id)
        return match, self.position_of(match, position)

    def position_of(self, match: Match, position: int | None = None) -> GameState:
        """The game state at live ``position`` of ``match`` as it was loaded (None: its
        current one)."""
        if position is None or position == len(match.live):
            return match.state
        if not 0 <= position <= len(match.live):
            raise BadPosition(f"Position {position} is outside 0..{len(match.live)}.",
                              positions=len(match.live))
        return self.state_of(match.id, match.position_version(position))

    def stored_events(self, match_id: UUID) -> list[Any]:
        """Every event of the match, in order, as domain event objects."""
        return self._read_events(self.events, match_id)

    def store_as_is(self, events: Sequence[Any]) -> None:
        """Store events with their commitments as they are (an import, which brings no seed
        to derive them from)."""
        self.repository.event_store.put(list(events))

    def events_as_stored(self, match_id: UUID) -> list[Any]:
        """Every event of the match, in order, with its commitments as stored (for readers
        that never show them, such as a transcript, which then need no seed)."""
        return self._read_events(self.repository.event_store, match_id)

    @staticmethod
    def _read_events(events: EventStore[UUID], match_id: UUID) -> list[Any]:
        try:
            found = list(events.get(match_id))
        except MapperDeserialisationError as exc:
            raise CorruptRecord(f"A stored event of match {match_id} cannot be read ({exc}); "
                                "run 'kiroku audit verify' to find it.",
                                match_id=str(match_id)) from None
        if not found:
            raise MatchNotFound(f"No match {match_id}.", match_id=str(match_id))
        return linked(found)

    def list_matches(self) -> list[MatchSummary]:
        """Every match, oldest first, with its result if it has ended (the match list's read
        model, ledger.matchlist)."""
        return [MatchSummary(m.match_id, m.game, m.players, m.created_at, m.result,
                             simulated=m.simulated)
                for m in self.find_matches(MatchQuery(simulated=None))]

    def find_matches(self, query: MatchQuery) -> list[ListedMatch]:
        """The matches ``query`` asks for, from the match list's read model."""
        return self.match_list.search(query)

    def match_page(self, query: MatchQuery) -> MatchPage:
        """The page ``query`` asks for and how many matches its filters select."""
        return self.match_list.page(query)

    def match_ids(self, prefix: str) -> list[UUID]:
        """The ids of the matches that start with ``prefix`` (lowercase)."""
        return self.match_list.ids_starting(prefix)

    def seed_if_revealed(self, match: Match) -> str | None:
        """The seed, only once the match has ended and revealed it."""
        return match.seed


class AggregatesCollected(ProcessingEvent[UUID]):
    """The library's processing event, telling an aggregate (whose pending events it
    collects) from an event by the aggregate's class: the library asks whether each object
    is an event, then whether it collects events, by ``runtime_checkable`` protocols, which
    Python 3.11 answers by listing the protocol's members every time (9 us a save, 2% of
    recording an action: issue 16). Anything else is collected as the library does."""

    def collect_events(self, *objs: Any, **kwargs: Any) -> None:
        """Collect the pending events of the aggregates among ``objs``, and the rest."""
        for obj in objs:
            if isinstance(obj, Aggregate):
                self.events.extend(obj.collect_events())
                self.aggregates[obj.id] = obj
            else:
                super().collect_events(obj)
        self.saved_kwargs.update(kwargs)


def _postgres(env: Mapping[str, str]) -> ModuleType | None:
    """Kiroku's PostgreSQL module (ledger.postgres) where ``env`` is PostgreSQL's, imported
    by name as eventsourcing imports the ``PERSISTENCE_MODULE`` it names: a store on an
    SQLite file never imports psycopg."""
    if env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
        return import_module("ledger.postgres")
    return None


def cache_size(setting: str | None) -> int:
    """The number of aggregates the recorder's cache holds, from its setting
    (``CACHE_SETTING``), or SettingsError: a whole number of at least 1 (the library takes
    0 or less for a cache without bound, which a long-running server must not have)."""
    if setting is None:
        return CACHED_AGGREGATES
    try:
        size = int(setting)
    except ValueError:
        size = 0
    if size < 1:
        raise SettingsError(f"{CACHE_SETTING}={setting!r}: give the number of aggregates the "
                            f"recorder keeps in memory, a whole number of at least 1 (default "
                            f"{CACHED_AGGREGATES}).")
    return size


def _list_view(app: Application[UUID]) -> type[MatchListView]:
    """The match list's table in the application's own database."""
    postgres = _postgres(app.env)
    if postgres is not None:
        return cast(type[MatchListView], postgres.PostgresMatchListView)
    return SQLiteMatchListView


@contextmanager
def _one_opener_at_a_time(env: Mapping[str, str], postgres: ModuleType | None,
                          ) -> Iterator[None]:
    """Let one process at a time open the store, while eventsourcing creates (or re-creates)
    its tables: processes started together on a new store would otherwise race. On
    PostgreSQL they failed with 'tuple concurrently updated', on a new SQLite file with the
    library's IntegrityError for its migration's tracking record."""
    if postgres is not None:
        with postgres.one_opener_at_a_time(env):
            yield
    elif sys.platform != "win32" and "mode=memory" not in env.get("SQLITE_DBNAME", ""):
        with _lock_beside(env["SQLITE_DBNAME"]):
            yield
    else:  # an in-memory store belongs to one process
        yield


@contextmanager
def _lock_beside(db_path: str) -> Iterator[None]:
    """An exclusive ``flock`` on the file beside an SQLite database, ``<db>-open-lock``
    (created once and left there, as SQLite leaves ``-wal`` and ``-shm``). Not the database
    file itself: closing another descriptor of it would drop the POSIX locks SQLite holds
    on it in this process."""
    with open(f"{db_path}-open-lock", "ab") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def outcomes_of(events: Sequence[Any]) -> list[list[Outcome]]:
    """The chance outcomes of each ActionRecorded event, in order."""
    return [e.outcomes for e in events if isinstance(e, Match.ActionRecorded)]
