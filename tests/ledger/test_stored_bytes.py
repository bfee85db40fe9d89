"""Issue 43: the whole SQLite file, not only what its rows hold. Snapshots are stored in a table
with rowids, whose leaf pages keep a snapshot of a few KB whole; a store whose snapshots
table was created by eventsourcing (WITHOUT ROWID, before issue 43) keeps it and works."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from uuid import UUID

from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore

from engine import JUDGE
from replay.service import Kiroku

GRAIL = {"turn_limit": 30, "max_combat_rounds": 20}  # snapshots of 1-1.3 KB


def _grail_match(path: Path) -> UUID:
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        (match_id,) = kiroku.simulate("grail", 1, seed=43, players=3, options=GRAIL)
    finally:
        kiroku.close()
    return match_id


def _snapshots_table(path: Path) -> str:
    with sqlite3.connect(path) as con:
        (sql,) = con.execute("SELECT sql FROM sqlite_schema WHERE name = 'stored_snapshots'"
                             ).fetchone()
    return str(sql)


def _snapshot_pages(path: Path) -> tuple[int, int, int]:
    """(snapshots stored, pages of their table, overflow pages among them)."""
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (count, biggest), = con.execute("SELECT COUNT(*), MAX(LENGTH(state)) "
                                        "FROM stored_snapshots").fetchall()
        assert biggest > 1100, biggest  # more than an index b-tree's cell keeps
        pages, overflow = con.execute(
            "SELECT COUNT(*), COALESCE(SUM(pagetype = 'overflow'), 0) FROM dbstat "
            "WHERE name = 'stored_snapshots'").fetchone()
    return int(count), int(pages), int(overflow)


def _agrees_with_its_events(path: Path, match_id: UUID) -> None:
    """Time travel from the snapshots gives what the events alone give, and the audit
    trusts every snapshot."""
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        judge = kiroku.seen_by(match_id, JUDGE)
        positions = kiroku.summary(judge)["positions"]
        picks = [1, positions // 3, positions // 2 + 7, positions - 1]
        kiroku.recorder.forget_positions()
        from_snapshots = [kiroku.view(judge, n) for n in picks]
        assert kiroku.recorder.snapshot_findings(match_id) == []
        report = kiroku.audit(match_id)
        assert report.ok and not any("snapshot" in n for n in report.notes), report.notes
        # without a snapshot store the library's repository rebuilds from the events alone
        kiroku.recorder.repository.snapshot_store = None
        kiroku.recorder.forget_positions()
        assert [kiroku.view(judge, n) for n in picks] == from_snapshots
    finally:
        kiroku.close()


def test_snapshots_are_kept_whole_in_their_pages(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    match_id = _grail_match(path)
    assert "WITHOUT ROWID" not in _snapshots_table(path).upper()
    count, pages, overflow = _snapshot_pages(path)
    # eventsourcing's WITHOUT ROWID table took a leaf cell and an overflow page for each
    assert count >= 8 and overflow == 0 and pages <= count // 2, (count, pages, overflow)
    _agrees_with_its_events(path, match_id)


def test_a_store_with_the_library_snapshots_table_keeps_it_and_works(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    datastore = SQLiteDatastore(str(path))
    try:  # the table as eventsourcing creates it, as every store before issue 43 has it
        SQLiteAggregateRecorder(datastore, events_table_name="stored_snapshots").create_table()
    finally:
        datastore.close()
    before = _snapshots_table(path)
    assert "WITHOUT ROWID" in before.upper()
    match_id = _grail_match(path)
    assert _snapshots_table(path) == before
    count, _, _ = _snapshot_pages(path)
    assert count >= 8
    _agrees_with_its_events(path, match_id)
