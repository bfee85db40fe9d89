"""What recording and time travel must not do again (issue 16): re-apply saved actions through
the rules, unseal a match's seed per action, rebuild a past position already read, the one
after it or one a rebuild passed through, decode a snapshot twice, set a match up again, read
the current match twice for one view, or fail a command whose events are committed because
its snapshot could not be stored."""

from __future__ import annotations

import random
import sqlite3
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack
import pytest
from eventsourcing.application import LRUCache, ProcessingEvent
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError, OperationalError

import ledger.fold as fold_module
from engine import JUDGE
from engine.core.viewer import Viewer
from engine.registry import get_game
from ledger.compactrows import stored_stream
from ledger.errors import CorruptRecord, MatchNotFound
from ledger.groupcommit import SNAPSHOTS, GroupCommitRecorder
from ledger.match import Match
from ledger.recorder import AggregatesCollected, Recorder
from ledger.seedkeeper import SEEDS_KEPT, secret_id
from ledger.transcoder import stored_fields
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]


class _OftenSnapshotting(Recorder):
    snapshotting_intervals = {Match: 4}


@pytest.fixture
def kiroku(tmp_path: Path) -> Iterator[Kiroku]:
    service = Kiroku(_OftenSnapshotting.open(f"sqlite:///{tmp_path}/k.db"))
    yield service
    service.close()


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every action re-applied from its stored record (not computed by the command itself)."""
    seen: list[int] = []
    original = fold_module.replay_action

    def counting(*args: Any) -> Any:
        seen.append(1)
        return original(*args)

    monkeypatch.setattr(fold_module, "replay_action", counting)
    return seen


def event_reads(kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry for each read of stored events from now on."""
    reads: list[int] = []
    store = kiroku.recorder.recorder
    select = store.select_events

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return select(*args, **kwargs)

    monkeypatch.setattr(store, "select_events", counted)
    return reads


def snapshot_decodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The version of each stored snapshot decoded from now on."""
    decoded: list[int] = []
    original = Match.Snapshot.restore

    def counting(self: Any, creation: Any) -> Any:
        decoded.append(self.originator_version)
        return original(self, creation)

    monkeypatch.setattr(Match.Snapshot, "restore", counting)
    return decoded


def new_match(kiroku: Kiroku, **options: Any) -> UUID:
    return kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS,
                            options={"first_player": 1, **options}, seed=b"\x05" * 32)


DELAYED = {"spectators": "delayed", "spectator_delay": 2}


def play(kiroku: Kiroku, match_id: UUID, count: int) -> None:
    for _ in range(count):
        seat = kiroku.recorder.get_match(match_id).state.active
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="test")


def test_recording_applies_each_action_once_and_snapshots_without_replaying(
        kiroku: Kiroku, replays: list[int]) -> None:
    """The next command starts from the aggregate just saved, and a snapshot is taken from
    it: no action is re-applied from the store (9 actions cross two snapshot intervals)."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 9)
    assert [s.originator_version for s in kiroku.recorder.snapshots.get(  # type: ignore[union-attr]
        match_id)] == [4, 8]
    assert replays == []


def test_a_matchs_seed_is_read_and_unsealed_once(kiroku: Kiroku,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = new_match(kiroku)
    read: list[UUID] = []
    seeds = kiroku.recorder.seeds
    original = seeds._read

    def counting(owner: UUID, segment: int) -> bytes | None:
        read.append(owner)
        return original(owner, segment)

    monkeypatch.setattr(seeds, "_read", counting)
    play(kiroku, match_id, 6)
    assert read == []  # created here: kept since
    seeds._seeds = LRUCache(SEEDS_KEPT)  # as another server, which did not create it
    play(kiroku, match_id, 6)
    assert read == [match_id]


def test_a_past_position_read_again_is_not_rebuilt(kiroku: Kiroku, replays: list[int]) -> None:
    match_id = new_match(kiroku)
    play(kiroku, match_id, 7)
    kiroku.recorder.forget_positions()  # as a server that did not record it
    first = kiroku.view(kiroku.seen_by(match_id, JUDGE), 5)
    rebuilt = len(replays)
    assert rebuilt > 0  # position 5 (version 6) lies past the snapshot at 4: rebuilt once
    assert kiroku.view(kiroku.seen_by(match_id, JUDGE), 5) == first
    assert len(replays) == rebuilt


def test_stepping_to_the_next_position_applies_one_action(kiroku: Kiroku,
                                                          replays: list[int]) -> None:
    match_id = new_match(kiroku)
    play(kiroku, match_id, 7)
    kiroku.recorder.forget_positions()  # as a server that did not record it
    kiroku.view(kiroku.seen_by(match_id, JUDGE), 5)  # version 6: rebuilt from the snapshot at 4
    before = len(replays)
    kept = kiroku.recorder.get_match(match_id, version=6)
    line = list(kept.live)
    # version 7: without the kept version 6, three replays
    kiroku.view(kiroku.seen_by(match_id, JUDGE), 6)
    assert len(replays) == before + 1
    assert kept.live == line  # the kept version is not changed by the step from it
    assert kiroku.recorder.get_match(match_id, version=7).live[:-1] == line


def test_the_positions_just_recorded_are_read_without_a_rebuild(
        kiroku: Kiroku, replays: list[int]) -> None:
    """In a match its spectators watch delayed, each position recording reached is kept as
    it was saved (issue 43: the delayed view reads a position a few actions back at every
    action): reading them replays no action, and each is the position a rebuild from the
    store gives."""
    match_id = new_match(kiroku, **DELAYED)
    play(kiroku, match_id, 7)
    kept = [kiroku.view(kiroku.seen_by(match_id, JUDGE), p) for p in range(8)]
    assert replays == []
    kiroku.recorder.forget_positions()
    assert [kiroku.view(kiroku.seen_by(match_id, JUDGE), p) for p in range(8)] == kept
    assert replays != []


def test_a_match_watched_live_keeps_no_position_as_it_is_recorded(
        kiroku: Kiroku, replays: list[int]) -> None:
    """Elsewhere a save keeps nothing beside the cached match: states kept at every save
    outlived the young garbage collections and lengthened the full ones (issue 43)."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 7)
    assert not any(key[0] == match_id for key in kiroku.recorder.loader._states.cache)
    kiroku.view(kiroku.seen_by(match_id, JUDGE), 6)  # version 7: from the snapshot at 4
    assert len(replays) == 3


def test_a_position_another_server_recorded_is_kept_as_its_match_is_brought_up_to_date(
        tmp_path: Path, replays: list[int]) -> None:
    """A server whose cached match another one appended to brings it up to date, and keeps the
    position it reaches: when the match has moved on again, reading that position replays
    nothing more."""
    url = f"sqlite:///{tmp_path}/two.db"
    recording, reading = (Kiroku(_OftenSnapshotting.open(url)) for _ in range(2))
    try:
        match_id = new_match(recording, **DELAYED)
        play(recording, match_id, 4)
        reading.view(reading.seen_by(match_id, JUDGE), None)  # cached by the reader
        play(recording, match_id, 1)
        reading.view(reading.seen_by(match_id, JUDGE), None)  # brought up to position 5
        play(recording, match_id, 1)
        before = len(replays)
        assert reading.view(reading.seen_by(match_id, JUDGE), 5) == recording.view(
            recording.seen_by(match_id, JUDGE), 5)
        # position 6's action, bringing the match up to date; not positions 5 and 4 again
        # from the snapshot at position 3 (version 4)
        assert len(replays) == before + 1
    finally:
        reading.close()
        recording.close()


def test_positions_kept_while_recording_are_the_positions_recorded(tmp_path: Path) -> None:
    """Random legal playouts, and a match backed up by an undo and played on: every position
    the recording service reads kept has the digest its event recorded (no later action, undo
    or rebuild changed a kept position in place) and is the position a fresh service
    rebuilds."""
    url = f"sqlite:///{tmp_path}/kept.db"
    recording = Kiroku(_OftenSnapshotting.open(url))
    try:
        backed_up = new_match(recording, **DELAYED)
        play(recording, backed_up, 7)
        recording.undo(backed_up, 2, reason="misplayed", recorded_by="judge")
        play(recording, backed_up, 2)
        for match_id in [backed_up, *recording.simulate("worldgainer", 3, seed=43,
                                                        options=DELAYED)]:
            lines = len(recording.recorder.get_match(match_id).live)
            positions = range(lines + 1)
            kept = {p: recording.view(recording.seen_by(match_id, JUDGE), p) for p in positions}
            recorded = {r["version"]: r["digest"]
                        for r in recording.records(recording.seen_by(match_id)) if "digest" in r}
            assert {p: v["digest"] for p, v in kept.items()} == {
                p: recorded[v["version"]] for p, v in kept.items()}
            fresh = Kiroku(_OftenSnapshotting.open(url))
            try:
                assert {p: fresh.view(fresh.seen_by(match_id, JUDGE), p)
                        for p in positions} == kept
            finally:
                fresh.close()
    finally:
        recording.close()


def test_what_a_rebuild_passes_through_is_kept(
        tmp_path: Path, replays: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The rebuild of position 33 (version 34) from the snapshot at 25 keeps the state of
    every version on its way: a viewer stepping back reads each position kept, with no
    action replayed and no snapshot read (each would have cost the snapshot and 5 to 8
    actions). A later position steps on from the state kept at version 34, though it lies
    more than STEP_FROM_KEPT events back, rather than from the snapshot (11 actions, not
    20)."""
    kiroku = Kiroku.open(f"sqlite:///{tmp_path}/back.db")  # a snapshot every 25 events
    try:
        match_id = new_match(kiroku)
        play(kiroku, match_id, 47)
        kiroku.recorder.forget_positions()
        kiroku.view(kiroku.seen_by(match_id, JUDGE), 33)
        assert len(replays) == 34 - 25
        decoded, reads = snapshot_decodes(monkeypatch), event_reads(kiroku, monkeypatch)
        for position in (32, 31, 30, 29):
            kiroku.view(kiroku.seen_by(match_id, JUDGE), position)
        assert (len(replays), decoded, len(reads)) == (34 - 25, [], 4)  # reads: fast-forward
        kiroku.view(kiroku.seen_by(match_id, JUDGE), 44)  # version 45
        assert (len(replays), decoded) == (34 - 25 + 45 - 34, [])
    finally:
        kiroku.close()


def test_a_position_after_a_kept_one_is_stepped_on_from_its_state_alone(
        tmp_path: Path, replays: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A position whose events since a kept state are all live actions is those actions
    replayed onto that state: no snapshot read, no past version of the match built (none is
    kept for it), the events after the kept state read once, and every state passed kept; it
    is the position a fresh service rebuilds from the store."""
    url = f"sqlite:///{tmp_path}/stepped.db"
    kiroku = Kiroku.open(url)  # a snapshot every 25 events
    try:
        match_id = new_match(kiroku)
        play(kiroku, match_id, 47)
        kiroku.recorder.forget_positions()
        kiroku.view(kiroku.seen_by(match_id, JUDGE), 28)  # version 29, from the snapshot at 25
        assert len(replays) == 29 - 25
        decoded, reads = snapshot_decodes(monkeypatch), event_reads(kiroku, monkeypatch)
        view = kiroku.view(kiroku.seen_by(match_id, JUDGE), 31)  # version 32
        assert (len(replays), decoded, len(reads)) == (29 - 25 + 32 - 29, [], 2)
        loader = kiroku.recorder.loader
        assert [v for v in (30, 31, 32) if (match_id, v) in loader._positions.cache] == []
        assert kiroku.view(kiroku.seen_by(match_id, JUDGE), 30) == kiroku.view(
            kiroku.seen_by(match_id, JUDGE), 30)  # version 31, passed: kept
        assert len(replays) == 29 - 25 + 32 - 29
    finally:
        kiroku.close()
    fresh = Kiroku.open(url)
    try:
        assert fresh.view(fresh.seen_by(match_id, JUDGE), 31) == view
    finally:
        fresh.close()


def test_an_undo_after_a_kept_state_is_folded_by_the_match(kiroku: Kiroku) -> None:
    """A kept state with an undo after it is not stepped on: the position after the undo
    has the digest its event recorded."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 3)  # versions 2-4
    kiroku.undo(match_id, 2, reason="misplayed", recorded_by="judge")  # version 5
    play(kiroku, match_id, 2)  # versions 6-7
    recorded = {r["version"]: r["digest"] for r in kiroku.records(kiroku.seen_by(match_id))
                if "digest" in r}
    kiroku.recorder.forget_positions()
    kiroku.recorder.state_of(match_id, 4)  # kept: the position the undo leaves behind
    views = [kiroku.view(kiroku.seen_by(match_id, JUDGE), p) for p in (2, 3)]
    assert [(v["version"], v["digest"]) for v in views] == [(6, recorded[6]), (7, recorded[7])]


def test_an_action_the_rules_refuse_after_a_kept_state_is_a_corrupt_record(
        tmp_path: Path) -> None:
    """An event changed in the store after the state before it was kept: stepping on from
    that state refuses it, and so does the full load, which says the record is corrupt."""
    db = tmp_path / "refused.db"
    kiroku = Kiroku(_OftenSnapshotting.open(f"sqlite:///{db}"))
    try:
        match_id = new_match(kiroku)
        play(kiroku, match_id, 7)  # versions 2-8, snapshots at 4 and 8
        kiroku.recorder.forget_positions()
        kiroku.view(kiroku.seen_by(match_id, JUDGE), 4)  # version 5 kept
        with sqlite3.connect(db) as con:
            (blob,), = con.execute("SELECT state FROM stored_events WHERE originator_id = ? "
                                   "AND originator_version = 6", (stored_stream(con, match_id),))
            fields = stored_fields(bytes(blob))
            fields["action"]["seat"] = 3 - fields["action"]["seat"]  # not the seat to act
            con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND "
                        "originator_version = 6",
                        (bytes([1]) + msgpack.packb(fields, use_bin_type=True),
                         stored_stream(con, match_id)))
        with pytest.raises(CorruptRecord, match="no longer make a match"):
            kiroku.view(kiroku.seen_by(match_id, JUDGE), 5)
    finally:
        kiroku.close()


def test_a_snapshot_is_decoded_once_for_a_rebuild(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checking a snapshot decodes it; the rebuild starts from the match that check decoded."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 7)
    decoded = snapshot_decodes(monkeypatch)
    kiroku.recorder.forget_positions()
    kiroku.view(kiroku.seen_by(match_id, JUDGE), 6)  # version 7: from the snapshot at 4
    assert decoded == [4]


def test_positions_read_in_any_order_are_the_positions_recorded(tmp_path: Path) -> None:
    """Backwards and in a shuffled order, on a fresh service, each position of a match with an
    undo after its last snapshot has the digest its event recorded, and reads the same again:
    the positions kept along the way are never changed by the rebuilds that follow them, not
    even by the rebuild of the current match, which reads the undo's target back (from the
    snapshot at 4, two actions on) in the middle of replaying actions in place."""
    url = f"sqlite:///{tmp_path}/order.db"
    recording = Kiroku(_OftenSnapshotting.open(url))
    match_id = new_match(recording)
    play(recording, match_id, 7)  # versions 2-8, snapshots at 4 and 8
    recording.undo(match_id, 2, reason="misplayed", recorded_by="judge")  # back to version 6
    play(recording, match_id, 2)
    recorded = {r["version"]: r["digest"] for r in recording.records(recording.seen_by(match_id))
                if "digest" in r}
    positions = list(range(len(recording.recorder.get_match(match_id).live) + 1))
    recording.close()
    for order in (positions[::-1], random.Random(16).sample(positions, len(positions))):
        reading = Kiroku(_OftenSnapshotting.open(url))
        try:
            views = {p: reading.view(reading.seen_by(match_id, JUDGE), p) for p in order}
            assert {p: v["digest"] for p, v in views.items()} == {
                p: recorded[v["version"]] for p, v in views.items()}
            assert {p: reading.view(reading.seen_by(match_id, JUDGE), p)
                    for p in positions} == views
        finally:
            reading.close()


def test_a_match_rebuilt_from_its_creation_is_set_up_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Early positions are rebuilt from the creation; the set-up position is kept by its
    content, so the card definitions are not validated again (the audit sets up anew)."""
    setups: list[int] = []
    original = fold_module.setup_position

    def counting(*args: Any) -> Any:
        setups.append(1)
        return original(*args)

    monkeypatch.setattr(fold_module, "setup_position", counting)
    kiroku = Kiroku(_OftenSnapshotting.open(f"sqlite:///{tmp_path}/setup.db"))
    try:
        match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS,
                                    options={"first_player": 1}, seed=bytes(range(32)))
        play(kiroku, match_id, 3)
        first = len(setups)
        assert [kiroku.view(kiroku.seen_by(match_id, JUDGE), p)["position"]
                for p in (0, 1, 2)] == [0, 1, 2]
        assert len(setups) == first
    finally:
        kiroku.close()


def test_rebuilding_later_positions_changes_no_kept_state(kiroku: Kiroku,
                                                         replays: list[int]) -> None:
    """Rebuilding replays actions in place of the state it owns, never of one it was handed:
    the kept set-up position, a kept past version and the cached match stay as they were
    while later positions are rebuilt from them, from a snapshot and by fast-forward."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 3)
    recorder = kiroku.recorder
    setup = recorder.get_match(match_id, version=1).state
    past = recorder.get_match(match_id, version=3).state
    current = recorder.get_match(match_id).state
    game = recorder.get_match(match_id).game
    digests = [get_game(game).digest(s) for s in (setup, past, current)]
    for version in (2, 4, 3):  # from the set-up, stepped from version 3, kept
        recorder.get_match(match_id, version=version)
    play(kiroku, match_id, 9)  # the cached match moves on; snapshots at 4, 8, 12
    recorder.forget_positions()
    for position in range(13):
        kiroku.view(kiroku.seen_by(match_id, JUDGE), position)
    assert replays  # positions were rebuilt through the rules
    assert [get_game(game).digest(s) for s in (setup, past, current)] == digests


def test_positions_stepped_through_are_the_positions_rebuilt(tmp_path: Path) -> None:
    """Forward through a match with an undo and an end, one position after another, each
    view is the view a fresh service rebuilds from the store, for a judge and a seat."""
    url = f"sqlite:///{tmp_path}/steps.db"
    stepping = Kiroku(_OftenSnapshotting.open(url))
    match_id = new_match(stepping)
    play(stepping, match_id, 5)
    stepping.undo(match_id, 2, reason="misplayed", recorded_by="judge")
    play(stepping, match_id, 4)
    stepping.record(match_id, {"type": "concede", "seat": 2}, recorded_by="test")
    positions = len(stepping.recorder.get_match(match_id).live)
    try:
        for viewer in (JUDGE, Viewer.parse(1)):
            stepped = [stepping.view(stepping.seen_by(match_id, viewer), p)
                       for p in range(positions + 1)]
            fresh = Kiroku(_OftenSnapshotting.open(url))
            try:
                rebuilt = [fresh.view(fresh.seen_by(match_id, viewer), p)
                           for p in range(positions + 1)]
            finally:
                fresh.close()
            assert stepped == rebuilt
    finally:
        stepping.close()


def test_a_view_of_a_kept_position_reads_the_store_once(kiroku: Kiroku,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = new_match(kiroku)
    play(kiroku, match_id, 7)
    kiroku.view(kiroku.seen_by(match_id, JUDGE), 5)
    reads = event_reads(kiroku, monkeypatch)
    kiroku.view(kiroku.seen_by(match_id, JUDGE), 5)
    assert len(reads) == 1  # the current match's fast-forward; the position is kept


def _broken(*args: Any, **kwargs: Any) -> None:
    raise OperationalError("disk I/O error")


def _broken_sqlite(*args: Any, **kwargs: Any) -> None:
    raise sqlite3.OperationalError("disk I/O error")


@pytest.mark.parametrize("breaks", ["insert", "encoding", "apart"])
def test_a_snapshot_that_cannot_be_stored_does_not_fail_the_command(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch, breaks: str) -> None:
    """Where the snapshot fails (its insert in the save's transaction, its encoding before
    it, or its own save where it is stored apart, as on PostgreSQL), the action's events are
    committed: the command succeeds (a client told otherwise would retry and record the
    action twice), the match reads back from its events, and the audit is clean."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 2)
    snapshots = kiroku.recorder.snapshots
    assert snapshots is not None
    if breaks == "insert":
        monkeypatch.setattr(snapshots.recorder, "_insert_events", _broken_sqlite)
    elif breaks == "encoding":
        monkeypatch.setattr(Match.Snapshot, "take", _broken)
    else:
        monkeypatch.setattr(kiroku.recorder, "_snapshots_ride", False)
        monkeypatch.setattr(snapshots, "put", _broken)
    seat = kiroku.recorder.get_match(match_id).state.active
    done = kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="test")
    assert done.version == 4  # the save crossing the interval of 4
    assert list(snapshots.get(match_id)) == []
    fresh = Recorder(env=dict(kiroku.recorder.env), keyring=kiroku.recorder.keyring)
    try:
        assert fresh.get_match(match_id).version == 4
    finally:
        fresh.close()
    assert kiroku.audit(match_id).ok


def test_a_snapshot_is_stored_in_the_transaction_of_the_save_that_takes_it(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """On SQLite the save crossing the interval commits its snapshot with its events: one
    commit (and sync), not a second for the snapshot."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 2)
    store = kiroku.recorder.recorder
    assert isinstance(store, GroupCommitRecorder)
    snapshots = kiroku.recorder.snapshots
    assert snapshots is not None
    monkeypatch.setattr(snapshots, "put", _broken)  # the library's own way: not taken
    commits = store.commits
    play(kiroku, match_id, 1)
    assert store.commits == commits + 1
    assert [s.originator_version for s in snapshots.get(match_id)] == [4]
    fresh = _OftenSnapshotting(env=dict(kiroku.recorder.env), keyring=kiroku.recorder.keyring)
    try:  # a fresh process starts from it, and it is the match its events give
        decoded = snapshot_decodes(monkeypatch)
        assert fresh.get_match(match_id).version == 4 and decoded == [4]
    finally:
        fresh.close()
    assert kiroku.audit(match_id).ok


def test_a_refused_save_stores_none_of_its_snapshots(kiroku: Kiroku) -> None:
    """A snapshot goes in with its save's events or not at all."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 2)  # at version 3, before the first snapshot (at 4)
    recorder = kiroku.recorder
    assert recorder.snapshots is not None
    store = recorder.recorder
    assert isinstance(store, GroupCommitRecorder)
    taken = recorder.snapshots.mapper.to_stored_event(
        Match.Snapshot.take(recorder.get_match(match_id)))
    duplicate = recorder.mapper.to_stored_event(next(iter(recorder.events.get(match_id))))
    with pytest.raises(IntegrityError):
        store.insert_events([duplicate], **{SNAPSHOTS: [taken]})
    assert list(recorder.snapshots.get(match_id)) == []


def test_a_matchs_creation_is_read_once_from_its_creation_event(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """What recording an action over HTTP asks first (the game, whether the match was set up
    from a table), and what a snapshot leaves out, never changes: read from the creation event
    alone, once, not by loading the match on every request."""
    match_id = new_match(kiroku)
    play(kiroku, match_id, 3)
    recorder = kiroku.recorder
    loader = recorder.loader
    loader._creations = type(loader._creations)(8)  # as a server that has not read it
    reads = event_reads(kiroku, monkeypatch)
    created = recorder.creation(match_id)
    assert len(reads) == 1  # the creation event alone
    assert (created.game, created.setup_from_table) == ("worldgainer", False)
    assert created.config == recorder.get_match(match_id, version=1).config
    assert set(created.shared) == {"cards"} and len(created.shared["cards"]) == len(
        created.config["cards"])
    reads.clear()
    assert recorder.creation(match_id) is created
    assert reads == []
    with pytest.raises(MatchNotFound):
        recorder.creation(UUID(int=7))
    with pytest.raises(MatchNotFound):  # the match's seed stream is not a match
        recorder.creation(secret_id(match_id))



class _Tally(Aggregate):
    """An aggregate of the library's kind, with events pending."""

    @event("Counted")
    def count(self) -> None:
        """Nothing to keep."""


def _pending() -> tuple[_Tally, None, Any]:
    """An aggregate with two pending events, None, and a bare event of another aggregate."""
    tally, other = _Tally(), _Tally()
    tally.count()
    (bare,) = other.collect_events()
    return tally, None, bare


def test_a_save_collects_what_the_library_collects_without_asking_protocols(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorder's save tells an aggregate by its class, not by the library's
    ``runtime_checkable`` protocols (which Python 3.11 answers by listing the protocol's
    members each time: 9 us a save); it collects from aggregates, bare events and None what
    the library's processing event does."""
    asked: list[str] = []
    check = typing._ProtocolMeta.__instancecheck__  # type: ignore[attr-defined]

    def counted(cls: type, instance: Any) -> bool:
        if isinstance(instance, Aggregate):
            asked.append(cls.__name__)
        return bool(check(cls, instance))

    monkeypatch.setattr(typing._ProtocolMeta, "__instancecheck__", counted)  # type: ignore[attr-defined]
    ours, theirs = AggregatesCollected(), ProcessingEvent[UUID]()
    ours.collect_events(*_pending(), note=1)
    assert asked == []
    theirs.collect_events(*_pending(), note=1)
    assert asked  # what the library asks, and the recorder no longer does

    def shape(collected: ProcessingEvent[UUID]) -> Any:
        return ([(type(e).__name__, e.originator_version) for e in collected.events],
                [type(a).__name__ for a in collected.aggregates.values()],
                collected.saved_kwargs)

    assert shape(ours) == shape(theirs) == (
        [("Created", 1), ("Counted", 2), ("Created", 1)], ["_Tally"], {"note": 1})
