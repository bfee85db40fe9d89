"""Snapshots are a cache, never evidence (issue 9): a changed snapshot is ignored, the match is
rebuilt from its events, and the audit says so instead of blaming the next legitimate event."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import msgpack
import pytest
from eventsourcing.persistence import EventStore

from engine import JUDGE, get_game
from ledger.compactrows import row_topic
from ledger.match import (
    FIXED,
    LeanMatchSnapshot,
    Match,
    MatchSnapshot,
    WholeMatchSnapshot,
)
from ledger.recorder import Recorder
from ledger.snapshots import CheckedSnapshots, Given
from ledger.transcoder import spelled_out, stored_fields
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]


class _OftenSnapshotting(Recorder):
    snapshotting_intervals = {Match: 4}


def _open(path: Path) -> Kiroku:
    return Kiroku(_OftenSnapshotting.open(f"sqlite:///{path}"))


def _record(kiroku: Kiroku, count: int) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["A", "B"], DECKS, options={"first_player": 1},
                                seed=b"\x02" * 32)
    for _ in range(count):
        seat = kiroku.recorder.get_match(match_id).state.active
        kiroku.record(match_id, kiroku.legal_actions(kiroku.seen_by(match_id), seat)[-1],
                      recorded_by="judge")
    return match_id


def _tamper_snapshot(path: Path, change: Any) -> int:
    with sqlite3.connect(path) as con:
        version, blob = con.execute("SELECT originator_version, state FROM stored_snapshots "
                                    "ORDER BY originator_version DESC LIMIT 1").fetchone()
        fields = stored_fields(blob)
        change(fields)
        con.execute("UPDATE stored_snapshots SET state = ? WHERE originator_version = ?",
                    (bytes([1]) + msgpack.packb(fields, use_bin_type=True), version))
    return int(version)


def test_a_changed_snapshot_is_ignored_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    kiroku = _open(path)
    match_id = _record(kiroku, 9)
    truth = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)
    kiroku.close()

    def forge(fields: dict[str, Any]) -> None:  # the turn number of the snapshot's position
        ext = fields["state"]["state"]
        game, data = spelled_out(ext.data)
        data["turn"] += 5
        fields["state"]["state"] = msgpack.ExtType(ext.code, msgpack.packb(
            [game, data], use_bin_type=True))

    version = _tamper_snapshot(path, forge)
    fresh = _open(path)  # nothing cached: the store is read again
    try:
        assert fresh.view(fresh.seen_by(match_id, JUDGE), None) == truth
        seat = fresh.recorder.get_match(match_id).state.active
        fresh.record(match_id, fresh.legal_actions(fresh.seen_by(match_id), seat)[-1],
                     recorded_by="judge")
        report = fresh.audit(match_id)
        assert report.ok, report.failure
        assert any(f"snapshot at v{version} was ignored" in n for n in report.notes), \
            report.notes
    finally:
        fresh.close()


def test_untouched_snapshots_are_trusted(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    kiroku = _open(path)
    match_id = _record(kiroku, 9)
    kiroku.close()
    fresh = _open(path)
    try:
        fresh.recorder.get_match(match_id)
        assert fresh.recorder.snapshot_findings(match_id) == []
        assert not any("snapshot" in n for n in fresh.audit(match_id).notes)
    finally:
        fresh.close()


def test_the_audit_holds_snapshots_to_the_events_it_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: checking a match's snapshots read its creation and the events near each
    snapshot again, and set the match up a second time (a sixth of ``audit verify``). The
    audit reads the match's events once and sets it up once; a changed snapshot is still
    found (the test above)."""
    path = tmp_path / "k.db"
    kiroku = _open(path)
    match_id = _record(kiroku, 9)  # snapshots at versions 4 and 8
    kiroku.close()
    fresh = _open(path)
    reads: list[tuple[Any, ...]] = []
    setups: list[Any] = []
    events = fresh.recorder.recorder
    read, setup = events.select_events, type(get_game("worldgainer")).setup
    monkeypatch.setattr(events, "select_events",
                        lambda *a, **k: reads.append((a, k)) or read(*a, **k))
    monkeypatch.setattr(type(get_game("worldgainer")), "setup",
                        lambda self, *a: setups.append(a) or setup(self, *a))
    try:
        report = fresh.audit(match_id)
        assert report.ok and not any("snapshot" in n for n in report.notes), report.notes
        of_match = [r for r in reads if match_id in (*r[0], r[1].get("originator_id"))]
        assert of_match == [((match_id,), {})] and len(setups) == 1
        store = fresh.recorder.snapshots
        assert isinstance(store, CheckedSnapshots) and len(list(
            EventStore.get(store, match_id))) == 2
    finally:
        fresh.close()


def _stored_snapshots(path: Path) -> list[tuple[int, int, Any]]:
    """(version, stored bytes, live line as stored) of every snapshot, oldest first."""
    with sqlite3.connect(path) as con:
        rows = con.execute("SELECT originator_version, state FROM stored_snapshots "
                           "ORDER BY originator_version").fetchall()
    out = []
    for version, blob in rows:
        fields = stored_fields(blob)
        out.append((int(version), len(blob), fields["state"]["live"]))
    return out


def test_a_snapshot_keeps_the_live_line_as_runs_so_it_does_not_grow_with_the_match(
        tmp_path: Path) -> None:
    """Issue 16: a snapshot held every live action, so snapshots grew with the match and their
    total with its square. The live line is kept as runs of consecutive actions."""
    path = tmp_path / "k.db"
    kiroku = _open(path)
    _record(kiroku, 40)
    kiroku.close()
    snapshots = _stored_snapshots(path)
    assert [v for v, _, _ in snapshots] == list(range(4, 41, 4))
    for version, _, live in snapshots:
        assert live == [[2, 1, version - 1]]  # one run: actions 1.. at versions 2..
    first, last = snapshots[0][1], snapshots[-1][1]
    assert last < first * 1.25, (first, last)  # the state changes a little, the line not


def test_an_undo_replayed_past_a_snapshot_reads_the_position_back(tmp_path: Path) -> None:
    """A snapshot keeps no actions, so an undo whose target lies before the snapshot, replayed
    on a fresh reader, takes that position from the store (through an earlier snapshot)."""
    path = tmp_path / "k.db"
    kiroku = _open(path)
    match_id = _record(kiroku, 13)  # snapshots at versions 4, 8, 12
    kiroku.undo(match_id, None, to_position=5, reason="back to five", recorded_by="judge")
    truth = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)
    digest = kiroku.records(kiroku.seen_by(match_id))[-1]["digest"]
    kiroku.close()
    with sqlite3.connect(path) as con:  # the snapshot after the undo is not there to help
        con.execute("DELETE FROM stored_snapshots WHERE originator_version > 12")
    fresh = _open(path)
    try:
        assert fresh.view(fresh.seen_by(match_id, JUDGE), None) == truth
        assert fresh.view(fresh.seen_by(match_id, JUDGE), None)["digest"] == digest
        assert fresh.recorder.get_match(match_id).live[-1][0] == 6
    finally:
        fresh.close()


def test_a_fresh_process_reads_a_stored_snapshot(tmp_path: Path) -> None:
    """The snapshot's topic resolves in a process that has not written a snapshot itself
    (the library registers aggregate and event topics on its own, not a snapshot class's)."""
    path = tmp_path / "k.db"
    kiroku = _open(path)
    match_id = _record(kiroku, 9)
    truth = kiroku.view(kiroku.seen_by(match_id, JUDGE), 5)["digest"]
    kiroku.close()
    code = ("from uuid import UUID; from engine import JUDGE; from replay.service import Kiroku; "
            f"k = Kiroku.open('sqlite:///{path}'); "
            f"print(k.view(k.seen_by(UUID('{match_id}'), JUDGE), 5)['digest'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == truth


def test_a_snapshot_leaves_out_what_the_match_creation_fixed(tmp_path: Path) -> None:
    """Format 2 of snapshots: no configuration and no card definitions (two thirds of a World
    Gainer snapshot); format 3: nor the rest of what the creation fixed (the opening draws
    most of it). Read back, all of it comes from the creation event."""
    path = tmp_path / "k.db"
    kiroku = _open(path)
    match_id = _record(kiroku, 9)
    truth = [kiroku.view(kiroku.seen_by(match_id, JUDGE), p) for p in (4, 8, 9)]
    kiroku.close()
    with sqlite3.connect(path) as con:
        rows = con.execute("SELECT topic, state FROM stored_snapshots").fetchall()
    assert {row_topic(topic) for topic, _ in rows} == {LeanMatchSnapshot.TOPIC}
    for _, blob in rows:
        fields = stored_fields(blob)
        assert not {"config", *FIXED} & set(fields["state"])
        _, state = spelled_out(fields["state"]["state"].data)
        assert state["cards"] == {}
    fresh = _open(path)
    try:
        assert [fresh.view(fresh.seen_by(match_id, JUDGE), p) for p in (4, 8, 9)] == truth
        match = fresh.recorder.get_match(match_id, version=9)
        created = fresh.recorder.get_match(match_id, version=1)
        assert match.config == created.config
        assert all(getattr(match, name) == getattr(created, name) for name in FIXED)
        assert len(match.state.cards) == len(match.config["cards"])  # type: ignore[attr-defined]
        assert fresh.recorder.snapshot_findings(match_id) == []
    finally:
        fresh.close()


@pytest.mark.parametrize("taken", [WholeMatchSnapshot, MatchSnapshot],
                         ids=["stored whole", "format 2"])
def test_a_snapshot_of_an_earlier_format_is_still_read(
        taken: type[WholeMatchSnapshot], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "k.db"
    monkeypatch.setattr(Match, "Snapshot", taken)
    kiroku = _open(path)
    match_id = _record(kiroku, 9)
    truth = kiroku.view(kiroku.seen_by(match_id, JUDGE), 9)
    kiroku.close()
    monkeypatch.undo()
    with sqlite3.connect(path) as con:
        assert {row_topic(t) for (t,) in con.execute("SELECT topic FROM stored_snapshots")} == {
            taken.TOPIC}
    fresh = _open(path)
    try:
        assert fresh.view(fresh.seen_by(match_id, JUDGE), 9) == truth
        assert fresh.recorder.snapshot_findings(match_id) == []
    finally:
        fresh.close()


def test_a_snapshot_read_without_its_match_creation_is_ignored(tmp_path: Path) -> None:
    kiroku = _open(tmp_path / "k.db")
    try:
        match_id = _record(kiroku, 4)
        store = kiroku.recorder.snapshots
        assert isinstance(store, CheckedSnapshots)
        [snapshot] = EventStore.get(store, match_id)
        blind = CheckedSnapshots(kiroku.recorder.mapper, store.recorder, store.events)
        assert not blind.trusted(snapshot)
        assert blind.rejected[(match_id, 4)] == "it cannot be read (LookupError)"
        assert store.trusted(snapshot)
    finally:
        kiroku.close()


def test_the_events_handed_to_a_snapshot_check_are_found_by_version() -> None:
    """The audit hands its events to the snapshot check (``Given``), which takes the ones the
    store would give it, by version: also in a match with a gap (event 2 removed), where they
    no longer stand at their version's place."""
    def events(*versions: int) -> list[SimpleNamespace]:
        return [SimpleNamespace(originator_version=v) for v in versions]

    def near(given: Given, version: int) -> list[int]:
        return [e.originator_version for e in given.near(version)]

    whole = Given(events(1, 2, 3, 4, 5), lambda _: None)  # type: ignore[arg-type,return-value]
    assert near(whole, 4) == [2, 3, 4] and near(whole, 1) == [1]
    gap = Given(events(1, 3, 4, 5), lambda _: None)  # type: ignore[arg-type,return-value]
    assert near(gap, 4) == [3, 4] and near(gap, 5) == [3, 4, 5] and near(gap, 2) == [1]
