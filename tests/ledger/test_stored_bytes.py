"""Issue 43: the whole SQLite file, not only what its rows hold. A new file has pages of 1 KiB;
a file made before keeps its pages of 4 KiB and works. Snapshots are stored in a table
with rowids, whose pages they fill; a store whose snapshots
table was created by eventsourcing (WITHOUT ROWID, before issue 43) keeps it and works. A
match's creation is deflated against its game's dictionary (format 6); a store's format 5
creations still read and verify. A match's snapshots are deflated against the same
dictionary; a store's format 5 snapshots are still read and trusted. A store that the last
version to write formats 4 to 6 recorded at a table reads, verifies and grows in format 7."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore

from engine import JUDGE
from ledger.catalog import sample_decks
from ledger.compactrows import stored_stream
from ledger.transcoder import (
    CREATION_DEFLATED,
    CREATION_DICTIONARIES,
    GAMES_WITH_SHAPES,
    TERSE,
    TERSE_CREATION,
    WORDED,
    WORDED_DEFLATED,
    MsgpackTranscoder,
    UnknownStorageFormat,
    _deflate,
    creation_dictionary,
    payload,
)
from ledger.writegate import PAGE_SIZE
from replay.service import Kiroku

GRAIL = {"turn_limit": 30, "max_combat_rounds": 20}  # snapshots of 1-1.3 KB
# two World Gainer matches recorded at a table by ab48db0 (tests/data/stores/record_at_a_table.py)
FORMAT_6_STORE = Path(__file__).resolve().parents[1] / "data" / "stores" / "format-6.sqlite"


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
    """(snapshots stored, bytes of their table's leaf and overflow pages, bytes of those
    pages left unused)."""
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (count, biggest), = con.execute("SELECT COUNT(*), MAX(LENGTH(state)) "
                                        "FROM stored_snapshots").fetchall()
        assert biggest > 1100, biggest  # more than an index b-tree's cell keeps in 4 KiB
        taken, unused = con.execute(
            "SELECT SUM(pgsize), SUM(unused) FROM dbstat WHERE name = 'stored_snapshots' "
            "AND pagetype IN ('leaf', 'overflow')").fetchone()
    return int(count), int(taken), int(unused)


def _made_by_the_library(path: Path, table: str) -> None:
    """A file made by eventsourcing's own datastore, with ``table`` as its recorder makes it."""
    datastore = SQLiteDatastore(str(path))
    try:
        SQLiteAggregateRecorder(datastore, events_table_name=table).create_table()
    finally:
        datastore.close()


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


def test_snapshots_fill_the_pages_they_take(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    match_id = _grail_match(path)
    assert "WITHOUT ROWID" not in _snapshots_table(path).upper()
    count, taken, unused = _snapshot_pages(path)
    # eventsourcing's WITHOUT ROWID table in 4 KiB pages took a leaf cell and an overflow
    # page of its own for each: about two thirds of its pages unused
    assert count >= 8 and unused <= taken // 8, (count, taken, unused)
    _agrees_with_its_events(path, match_id)


def test_a_new_store_has_pages_of_1_kib_and_an_empty_one_is_small(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    Kiroku.open(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert con.execute("PRAGMA page_size").fetchone() == (PAGE_SIZE,) == (1024,)
        assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    # a page for each table and index (three for the schema): 56 KiB in 4 KiB pages
    assert path.stat().st_size <= 16 * 1024


def test_a_store_with_pages_of_4_kib_keeps_them_and_works(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    # the library's first connection writes the file in SQLite's default pages
    _made_by_the_library(path, "stored_events")
    match_id = _grail_match(path)
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA page_size").fetchone() == (4096,)
    _agrees_with_its_events(path, match_id)


def test_a_store_with_the_library_snapshots_table_keeps_it_and_works(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    # the table as eventsourcing creates it, as every store before issue 43 has it
    _made_by_the_library(path, "stored_snapshots")
    before = _snapshots_table(path)
    assert "WITHOUT ROWID" in before.upper()
    match_id = _grail_match(path)
    assert _snapshots_table(path) == before
    count, _, _ = _snapshot_pages(path)
    assert count >= 8
    _agrees_with_its_events(path, match_id)


GAMES = {"worldgainer": (2, {}), "illuminati": (4, {"turn_limit": 8}),
         "kami": (2, {"turn_limit": 40}), "grail": (3, GRAIL), "edge": (4, {"turn_limit": 30})}


def _creation_row(path: Path, match_id: UUID) -> bytes:
    with sqlite3.connect(path) as con:
        (blob,), = con.execute("SELECT state FROM stored_events WHERE originator_id = ? AND "
                               "originator_version = 1", (stored_stream(con, match_id),)).fetchall()
    return bytes(blob)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_creation_is_deflated_against_its_games_dictionary(tmp_path: Path, game: str) -> None:
    path = tmp_path / "k.db"
    players, options = GAMES[game]
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        match_id = kiroku.new_match(game, [f"P{s}" for s in range(players)],
                                    [list(sample_decks(game))[0]] * players, options=options,
                                    seed=b"\x05" * 32)
    finally:
        kiroku.close()
    blob = _creation_row(path, match_id)
    as_format_5 = bytes([WORDED_DEFLATED]) + _deflate(payload(blob))
    assert blob[0] == TERSE_CREATION and blob[1] == GAMES_WITH_SHAPES.index(game)
    assert len(blob) < 1400 and len(blob) < len(as_format_5) * 0.7, (len(blob), len(as_format_5))
    assert MsgpackTranscoder().decode(blob) == MsgpackTranscoder().decode(as_format_5)
    fresh = Kiroku.open(f"sqlite:///{path}")
    try:
        report = fresh.audit(match_id)
        assert report.ok, report.failure
    finally:
        fresh.close()


def test_a_store_with_format_5_creations_still_reads_and_verifies(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    match_id = _grail_match(path)
    blob = _creation_row(path, match_id)
    with sqlite3.connect(path) as con:  # the creation as a store before issue 43 holds it
        con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND "
                    "originator_version = 1",
                    (bytes([WORDED_DEFLATED]) + _deflate(payload(blob)),
                     stored_stream(con, match_id)))
    assert _creation_row(path, match_id)[0] == WORDED_DEFLATED
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        report = kiroku.audit(match_id)
        assert report.ok, report.failure
    finally:
        kiroku.close()
    _agrees_with_its_events(path, match_id)


def _snapshots(path: Path) -> list[tuple[int, bytes]]:
    with sqlite3.connect(path) as con:
        return [(v, bytes(b)) for v, b in con.execute(
            "SELECT originator_version, state FROM stored_snapshots ORDER BY rowid")]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_snapshot_is_deflated_against_its_games_dictionary(tmp_path: Path, game: str) -> None:
    path = tmp_path / "k.db"
    players, options = GAMES[game]
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        (match_id,) = kiroku.simulate(game, 1, seed=11, players=players, options=options)
    finally:
        kiroku.close()
    snapshots = _snapshots(path)
    assert snapshots, "the match is long enough for a snapshot"
    for _, blob in snapshots:
        assert blob[0] == TERSE_CREATION and blob[1] == GAMES_WITH_SHAPES.index(game)
        as_format_5 = bytes([WORDED_DEFLATED]) + _deflate(payload(blob))
        assert MsgpackTranscoder().decode(blob) == MsgpackTranscoder().decode(as_format_5)
        if game == "illuminati":  # its groups' texts are the card set's: 2 KB in format 5
            assert len(blob) < len(as_format_5) * 0.7, (len(blob), len(as_format_5))
    _agrees_with_its_events(path, match_id)


def test_a_store_with_format_5_snapshots_still_reads_and_trusts_them(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    match_id = _grail_match(path)
    with sqlite3.connect(path) as con:  # the snapshots as a store before this change holds them
        for version, blob in _snapshots(path):
            con.execute("UPDATE stored_snapshots SET state = ? WHERE originator_version = ?",
                        (bytes([WORDED_DEFLATED]) + _deflate(payload(blob)), version))
    assert {blob[0] for _, blob in _snapshots(path)} == {WORDED_DEFLATED}
    _agrees_with_its_events(path, match_id)


@pytest.mark.parametrize("record", [bytes([CREATION_DEFLATED]),
                                    bytes([CREATION_DEFLATED, 200]) + b"\x01\x02",
                                    bytes([CREATION_DEFLATED, 0]) + b"\xff" * 40])
def test_a_format_6_record_that_does_not_read_is_refused_as_such(record: bytes) -> None:
    with pytest.raises(UnknownStorageFormat):
        MsgpackTranscoder().decode(record)


def test_the_dictionaries_are_the_ones_format_6_was_written_with() -> None:
    for game, sha256 in CREATION_DICTIONARIES:
        assert creation_dictionary(game, sha256)
    with pytest.raises(UnknownStorageFormat):
        creation_dictionary("grail", "0" * 64)


def _formats(path: Path) -> set[int]:
    with sqlite3.connect(path) as con:
        return {bytes(b)[0] for table in ("stored_events", "stored_snapshots")
                for (b,) in con.execute(f"SELECT state FROM {table}")}


def test_a_store_the_last_version_of_formats_4_to_6_recorded_reads_verifies_and_grows(
        tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    shutil.copy(FORMAT_6_STORE, path)
    assert _formats(path) == {WORDED, CREATION_DEFLATED}
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        matches = [m.match_id for m in kiroku.list_matches()]
        keepers = {i.match_id: i for i in kiroku.credentials.issued() if i.match_id}
        assert len(matches) == 2 and set(keepers) == set(matches)
        for match_id in matches:
            records = kiroku.records(kiroku.seen_by(match_id, JUDGE))
            actions = [r for r in records if r["event"] == "ActionRecorded"]
            assert actions and all(r["recorded_by"] == keepers[match_id].recorded_by
                                   for r in actions)
            assert "MatchEnded" in {r["event"] for r in records}
        (grown,) = kiroku.simulate("worldgainer", 1, seed=5)
    finally:
        kiroku.close()
    assert _formats(path) == {WORDED, CREATION_DEFLATED, TERSE, TERSE_CREATION}
    for match_id in [*matches, grown]:
        _agrees_with_its_events(path, match_id)
