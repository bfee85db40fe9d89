"""Issue 43: an SQLite file keeps each stream as its number and each topic as its code, in the
events and the snapshots tables; a file written before (ids as text and topics in full, or ids
as their 16 bytes) is read and written as it is."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteCursor

from engine import JUDGE
from ledger import compactrows, matchlist
from ledger.compactrows import (
    ROW_TOPICS,
    STREAMS_TABLE,
    Layout,
    row_topic,
    rows_table,
    stored_stream,
    stored_topic,
    stream_id,
)
from replay.service import Kiroku
from tests.ledger.test_groupcommit import queued_while_held

ROOT = Path(__file__).resolve().parents[2]
GRAIL = {"turn_limit": 30, "max_combat_rounds": 20}  # long enough for snapshots
TABLES = ("stored_events", "stored_snapshots")
# the codes given so far: a code, once in a file, never changes (append to ROW_TOPICS only)
GIVEN, GIVEN_SHA256 = 45, "64cef76851b3d39482e13e7c51dd6c354abdd39606b108e73ea409868f9226d1"


def _simulated(path: Path, seed: int) -> UUID:
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        (match_id,) = kiroku.simulate("grail", 1, seed=seed, players=3, options=GRAIL)
    finally:
        kiroku.close()
    return match_id


def _columns(path: Path, table: str) -> tuple[set[tuple[str, int]], set[str]]:
    """The (storage class, length) of the table's ids, and its topics as stored."""
    with sqlite3.connect(path) as con:
        ids = set(con.execute(f"SELECT DISTINCT typeof(originator_id), length(originator_id) "  # noqa: S608
                              f"FROM {table}"))
        topics = {t for (t,) in con.execute(f"SELECT DISTINCT topic FROM {table}")}  # noqa: S608
    return ids, topics


def _positions(path: Path, match_id: UUID) -> list[dict[str, object]]:
    """A judge's view of a few positions, rebuilt from the store (snapshots and events),
    which the audit trusts."""
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        judge = kiroku.seen_by(match_id, JUDGE)
        last = kiroku.summary(judge)["positions"] - 1
        kiroku.recorder.forget_positions()
        views = [kiroku.view(judge, n) for n in (1, last // 2 + 3, last)]
        assert kiroku.recorder.snapshot_findings(match_id) == []
        report = kiroku.audit(match_id)
        assert report.ok and not any("snapshot" in n for n in report.notes), report.notes
        return views
    finally:
        kiroku.close()


def _listed_afresh(path: Path) -> list[str]:
    """The match list as a new store's first read builds it from the notification log (by
    its topics), with the list of the file dropped first."""
    with sqlite3.connect(path) as con:
        con.execute(f"DROP TABLE {matchlist.TABLE}")
        con.execute("DELETE FROM tracking")
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        return [f"{m['match_id']} {m['status']}" for m in kiroku.find_matches(simulated=True)]
    finally:
        kiroku.close()


def test_a_new_store_numbers_its_streams_and_codes_its_topics(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    match_id = _simulated(path, seed=7)
    for table in TABLES:
        ids, topics = _columns(path, table)
        assert {kind for kind, _ in ids} == {"integer"}, table
        assert topics and all(":" not in t and row_topic(t) in ROW_TOPICS for t in topics)
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT COUNT(*) FROM stored_events WHERE originator_id = ? AND "
                           "topic = '0'", (stored_stream(con, match_id),)).fetchone()[0] > 20
        numbered = dict(con.execute(f"SELECT id, number FROM {STREAMS_TABLE}"))  # noqa: S608
    assert numbered[match_id.bytes] == 1 and sorted(numbered.values()) == list(
        range(1, len(numbered) + 1))
    _positions(path, match_id)
    assert _listed_afresh(path) == [f"{match_id} ended"]


def _as_before(path: Path, layout: Layout) -> None:
    """The file's tables as a build before stream numbers made them (their id column TEXT,
    no table of numbers), their rows in ``layout``: the library's (ids as text, topics in
    full; before issue 43) or ids as their 16 bytes (issue 43's twenty-first round)."""
    with sqlite3.connect(path) as con:
        for table in TABLES:
            con.execute(f"ALTER TABLE {table} RENAME TO numbered")  # noqa: S608
            con.execute(rows_table(table).replace("(originator_id,", "(originator_id TEXT,", 1))
            as_id = "lower(hex(s.id))" if layout is Layout.LIBRARY else "s.id"
            con.execute(f"INSERT INTO {table} (rowid, originator_id, originator_version, "  # noqa: S608
                        f"topic, state) SELECT n.rowid, {as_id}, n.originator_version, "
                        f"n.topic, n.state FROM numbered n JOIN {STREAMS_TABLE} s ON "
                        "s.number = n.originator_id ORDER BY n.rowid")
            con.execute("DROP TABLE numbered")
            if layout is Layout.LIBRARY:
                for topic in ROW_TOPICS:
                    con.execute(f"UPDATE {table} SET topic = ? WHERE topic = ?",  # noqa: S608
                                (topic, stored_topic(topic)))
        con.execute(f"DROP TABLE {STREAMS_TABLE}")


@pytest.mark.parametrize("layout, stored", [(Layout.LIBRARY, ("text", 32)),
                                             (Layout.BYTES, ("blob", 16))],
                         ids=["library", "bytes"])
def test_a_store_written_before_is_read_and_written_as_it_is(
        tmp_path: Path, layout: Layout, stored: tuple[str, int]) -> None:
    path = tmp_path / "old.db"
    match_id = _simulated(path, seed=7)
    kept = _positions(path, match_id)
    _as_before(path, layout)
    assert _columns(path, "stored_events")[0] == {stored}
    assert _positions(path, match_id) == kept
    later = _simulated(path, seed=8)  # appended to the same file, as the file has its rows
    for table in TABLES:
        ids, topics = _columns(path, table)
        assert ids == {stored}, table
        assert all(t.startswith("kiroku:") == (layout is Layout.LIBRARY) for t in topics)
    _positions(path, later)
    assert sorted(_listed_afresh(path)) == sorted([f"{match_id} ended", f"{later} ended"])
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        kiroku.recorder.learn_stream_numbers()  # as audit verify's workers do: none to learn
        assert all(report.ok for report in kiroku.audit_all())
    finally:
        kiroku.close()


def test_an_empty_table_of_a_file_written_before_keeps_ids_as_bytes(tmp_path: Path) -> None:
    """A file of issue 43's twenty-first round whose snapshots table has no row yet: its id
    column is TEXT, where a number would be stored as text, so it takes ids as 16 bytes."""
    path = tmp_path / "old.db"
    match_id = _simulated(path, seed=7)
    _as_before(path, Layout.BYTES)
    with sqlite3.connect(path) as con:
        con.execute("DELETE FROM stored_snapshots")
    later = _simulated(path, seed=8)
    assert _columns(path, "stored_snapshots")[0] == {("blob", 16)}
    _positions(path, later)
    _positions(path, match_id)


def test_a_number_given_in_a_transaction_that_rolled_back_is_not_kept(tmp_path: Path) -> None:
    """SQLite gives the number again: a recorder that kept it would store another stream's
    events under it."""
    kiroku = Kiroku.open(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        recorder = kiroku.recorder.recorder
        first, second = uuid4(), uuid4()
        with pytest.raises(IntegrityError):  # one version twice: the save rolls back whole
            recorder.insert_events([StoredEvent(first, 1, "t", b"a"),
                                    StoredEvent(first, 1, "t", b"b")])
        recorder.insert_events([StoredEvent(second, 1, "t", b"c")])
        recorder.insert_events([StoredEvent(first, 1, "t", b"d")])
        assert [e.state for e in recorder.select_events(first)] == [b"d"]
        assert [e.state for e in recorder.select_events(second)] == [b"c"]
        log = recorder.select_notifications(None, 10, topics=["t"])
        assert [(n.originator_id, n.state) for n in log] == [(second, b"c"), (first, b"d")]
    finally:
        kiroku.close()


def test_a_number_given_to_a_save_refused_in_a_group_is_not_kept(tmp_path: Path) -> None:
    """In a group commit the refused save is rolled back to its savepoint, its new stream's
    number with it, and the group commits: that number is not kept either."""
    kiroku = Kiroku.open(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        recorder = kiroku.recorder.recorder
        refused, other, later = uuid4(), uuid4(), uuid4()
        results = queued_while_held(kiroku, [
            lambda: recorder.insert_events([StoredEvent(refused, 1, "t", b"a"),
                                            StoredEvent(refused, 1, "t", b"b")]),
            lambda: recorder.insert_events([StoredEvent(other, 1, "t", b"c")]),
        ])
        assert isinstance(results[0], IntegrityError) and not isinstance(results[1], Exception)
        recorder.insert_events([StoredEvent(refused, 1, "t", b"d")])
        recorder.insert_events([StoredEvent(later, 1, "t", b"e")])
        for stream, state in ((refused, b"d"), (other, b"c"), (later, b"e")):
            assert [e.state for e in recorder.select_events(stream)] == [state]
    finally:
        kiroku.close()


def test_a_recorder_keeps_a_bounded_number_of_numbers(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading and writing streams without end (a server up for weeks, an audit of a large
    archive), a recorder keeps at most about ``KEPT_NUMBERS`` numbers, and still reads each
    stream right."""
    monkeypatch.setattr(compactrows, "KEPT_NUMBERS", 5)
    url = f"sqlite:///{tmp_path / 'k.db'}"
    streams = [uuid4() for _ in range(20)]
    writer = Kiroku.open(url)
    reader = Kiroku.open(url)
    try:
        for n, stream in enumerate(streams):
            writer.recorder.recorder.insert_events([StoredEvent(stream, 1, "t", bytes([n]))])
        for n, stream in enumerate(streams * 2):
            assert [e.state for e in reader.recorder.recorder.select_events(stream)] == [
                bytes([n % 20])]
        for recorder in (writer.recorder.recorder, reader.recorder.recorder):
            assert 0 < len(recorder._numbers) <= 6  # type: ignore[attr-defined]  # noqa: SLF001
        reader.recorder.learn_stream_numbers()  # all at once, as audit verify's workers do
        assert len(reader.recorder.recorder._numbers) == 5  # type: ignore[attr-defined]  # noqa: SLF001
        for n, stream in enumerate(streams):
            assert [e.state for e in reader.recorder.recorder.select_events(stream)] == [
                bytes([n])]
    finally:
        writer.close()
        reader.close()


def _rows(kiroku: Kiroku, match_id: UUID) -> tuple[list[StoredEvent], list[StoredEvent]]:
    """The match's stored events and snapshots, as its recorders select them."""
    snapshots = kiroku.recorder.snapshots
    assert snapshots is not None
    return (list(kiroku.recorder.recorder.select_events(match_id)),
            list(snapshots.recorder.select_events(match_id)))


def test_numbers_learned_at_once_are_each_streams_and_later_ones_are_still_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The numbers a reader learns at once (each worker of audit verify) read every stream's
    events and snapshots as a reader looking each number up reads them, with no look-up; a
    stream numbered after is looked up and found."""
    path = tmp_path / "k.db"
    ids = [_simulated(path, seed) for seed in (1, 2)]
    looked_up: list[object] = []
    look_up = compactrows._found_number  # noqa: SLF001

    def counted(c: SQLiteCursor, stream: UUID | str) -> int | None:
        looked_up.append(stream)
        return look_up(c, stream)

    monkeypatch.setattr(compactrows, "_found_number", counted)
    looking, learned = Kiroku.open(f"sqlite:///{path}"), Kiroku.open(f"sqlite:///{path}")
    try:
        expected = [_rows(looking, match_id) for match_id in ids]
        assert len(looked_up) == 2 * len(ids)  # the events' recorder and the snapshots'
        assert all(events and snapshots for events, snapshots in expected)
        looked_up.clear()
        learned.recorder.learn_stream_numbers()
        assert [_rows(learned, match_id) for match_id in ids] == expected
        assert looked_up == []
        (later,) = looking.simulate("grail", 1, seed=3, players=3, options=GRAIL)
        events, _ = _rows(learned, later)
        assert events == _rows(looking, later)[0] and looked_up[0] == later
    finally:
        looking.close()
        learned.close()


def test_a_damaged_row_of_numbers_is_left_out_of_those_learned(tmp_path: Path) -> None:
    """A row of the numbers' table that holds no stream's id (a damaged file) does not stop
    the reader that learns them all (an audit examining that file): the rest are learned,
    and every match reads and audits as before."""
    path = tmp_path / "k.db"
    match_id = _simulated(path, seed=1)
    with sqlite3.connect(path) as con:
        con.execute(f"INSERT INTO {STREAMS_TABLE} (number, id) VALUES (9999, x'00')")  # noqa: S608
        con.execute(f"INSERT INTO {STREAMS_TABLE} (number, id) VALUES (9998, 'text')")  # noqa: S608
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        kiroku.recorder.learn_stream_numbers()
        assert match_id in kiroku.recorder.recorder._numbers  # type: ignore[attr-defined]  # noqa: SLF001
        assert 9999 not in kiroku.recorder.recorder._numbers.values()  # type: ignore[attr-defined]  # noqa: SLF001
        assert kiroku.audit(match_id).ok
    finally:
        kiroku.close()


def test_two_stores_on_one_file_number_each_stream_once(tmp_path: Path) -> None:
    """Two recorders on one file (as two processes are), each creating matches and
    recording on the other's: one number a stream, and every match reads and audits."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    one, two = Kiroku.open(url), Kiroku.open(url)
    try:
        ids = [kiroku.simulate("worldgainer", 1, seed=seed)[0]
               for seed, kiroku in enumerate((one, two, one, two))]
        for kiroku in (two, one):
            assert all(kiroku.audit(match_id).ok for match_id in ids)
    finally:
        one.close()
        two.close()
    with sqlite3.connect(tmp_path / "k.db") as con:
        numbered = [bytes(i) for (i,) in con.execute(f"SELECT id FROM {STREAMS_TABLE}")]  # noqa: S608
    assert len(numbered) == len(set(numbered)) and {m.bytes for m in ids} <= set(numbered)


def test_a_stored_id_reads_back_from_its_bytes_or_its_text() -> None:
    some = uuid4()
    assert stream_id(some.bytes) == some == stream_id(some.hex)


def test_a_topic_without_a_code_is_stored_in_full() -> None:
    assert stored_topic("kiroku:ActionRecorded/1") == "0"
    assert stored_topic("elsewhere:Thing/1") == "elsewhere:Thing/1"
    assert row_topic("elsewhere:Thing/1") == "elsewhere:Thing/1" and row_topic("0") == ROW_TOPICS[0]


def test_the_codes_given_never_change() -> None:
    assert len(set(ROW_TOPICS)) == len(ROW_TOPICS) >= GIVEN
    given = hashlib.sha256("\n".join(ROW_TOPICS[:GIVEN]).encode()).hexdigest()
    assert given == GIVEN_SHA256


def test_every_event_and_snapshot_topic_of_kiroku_has_a_code() -> None:
    defined = {topic for source in (ROOT / "ledger").glob("*.py")
               for topic in re.findall(r'TOPIC = "(kiroku:\w+/\d+)"', source.read_text())}
    assert len(defined) > 40 and defined <= set(ROW_TOPICS), defined - set(ROW_TOPICS)
