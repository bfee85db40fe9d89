"""Snapshots are a cache, never evidence (issue 9): a changed snapshot is ignored, the match is
rebuilt from its events, and the audit says so instead of blaming the next legitimate event."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack

from engine import JUDGE
from ledger.match import Match
from ledger.recorder import Recorder
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
        kiroku.record(match_id, kiroku.legal_actions(match_id, seat)[-1], recorded_by="judge")
    return match_id


def _tamper_snapshot(path: Path, change: Any) -> int:
    with sqlite3.connect(path) as con:
        version, blob = con.execute("SELECT originator_version, state FROM stored_snapshots "
                                    "ORDER BY originator_version DESC LIMIT 1").fetchone()
        fields = msgpack.unpackb(blob[1:], raw=False, strict_map_key=False,
                                 ext_hook=lambda code, data: msgpack.ExtType(code, data))
        change(fields)
        con.execute("UPDATE stored_snapshots SET state = ? WHERE originator_version = ?",
                    (bytes([1]) + msgpack.packb(fields, use_bin_type=True), version))
    return int(version)


def test_a_changed_snapshot_is_ignored_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    kiroku = _open(path)
    match_id = _record(kiroku, 9)
    truth = kiroku.view(match_id, None, JUDGE)
    kiroku.close()

    def forge(fields: dict[str, Any]) -> None:  # the turn number of the snapshot's position
        ext = fields["state"]["state"]
        game, data = msgpack.unpackb(ext.data, raw=False, strict_map_key=False,
                                     ext_hook=lambda code, raw: msgpack.ExtType(code, raw))
        data["turn"] += 5
        fields["state"]["state"] = msgpack.ExtType(ext.code, msgpack.packb(
            [game, data], use_bin_type=True))

    version = _tamper_snapshot(path, forge)
    fresh = _open(path)  # nothing cached: the store is read again
    try:
        assert fresh.view(match_id, None, JUDGE) == truth
        seat = fresh.recorder.get_match(match_id).state.active
        fresh.record(match_id, fresh.legal_actions(match_id, seat)[-1], recorded_by="judge")
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
