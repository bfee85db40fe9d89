"""Issue 43: an SQLite file keeps each stream's id as its 16 bytes and each topic as its code,
in the events and the snapshots tables; a file written before (ids as text, topics in full)
is read and written as it is."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path
from uuid import UUID, uuid4

from engine import JUDGE
from ledger import matchlist
from ledger.compactrows import ROW_TOPICS, row_topic, stored_topic, stream_id
from replay.service import Kiroku

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


def test_a_new_store_keeps_ids_as_16_bytes_and_topics_as_codes(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    match_id = _simulated(path, seed=7)
    for table in TABLES:
        ids, topics = _columns(path, table)
        assert ids == {("blob", 16)}, table
        assert topics and all(":" not in t and row_topic(t) in ROW_TOPICS for t in topics)
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT COUNT(*) FROM stored_events WHERE originator_id = ? AND "
                           "topic = '0'", (match_id.bytes,)).fetchone()[0] > 20
    _positions(path, match_id)
    assert _listed_afresh(path) == [f"{match_id} ended"]


def test_a_store_written_before_is_read_and_written_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    match_id = _simulated(path, seed=7)
    kept = _positions(path, match_id)
    with sqlite3.connect(path) as con:  # the rows as every store before issue 43 holds them
        for table in TABLES:
            con.execute(f"UPDATE {table} SET originator_id = lower(hex(originator_id))")  # noqa: S608
            for topic in ROW_TOPICS:
                con.execute(f"UPDATE {table} SET topic = ? WHERE topic = ?",  # noqa: S608
                            (topic, stored_topic(topic)))
    assert _columns(path, "stored_events")[0] == {("text", 32)}
    assert _positions(path, match_id) == kept
    later = _simulated(path, seed=8)  # appended to the same file, as the file has its rows
    for table in TABLES:
        ids, topics = _columns(path, table)
        assert ids == {("text", 32)} and all(t.startswith("kiroku:") for t in topics), table
    _positions(path, later)
    assert sorted(_listed_afresh(path)) == sorted([f"{match_id} ended", f"{later} ended"])
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        assert all(report.ok for report in kiroku.audit_all())
    finally:
        kiroku.close()


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
