"""A store one tree recorded, given to another tree of a bench's ``--baseline``: a tree before
compact rows (``ledger.compactrows``, issue 43) reads only the library's rows, and a tree of
compact rows before stream numbers reads ids as their 16 bytes, not numbers.

Imported by benches that run this tree's code (it names this tree's topic codes), never by a
process of a baseline tree."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ledger.compactrows import ROW_TOPICS, STREAMS_TABLE, stored_topic

ROW_TABLES = ("stored_events", "stored_snapshots")


def as_read_by(tree: Path, db: Path) -> None:
    """Turn the rows of the SQLite store ``db`` (this tree's) into those ``tree`` reads, in
    place, as that tree would have recorded them."""
    compact = tree / "ledger" / "compactrows.py"
    if not compact.exists():
        _as_rows(db, "lower(hex(s.id))", full_topics=True)
    elif STREAMS_TABLE not in compact.read_text():
        _as_rows(db, "s.id", full_topics=False)


def _as_rows(db: Path, stream: str, full_topics: bool) -> None:
    """Each numbered row's stream as ``stream`` (an SQL expression of its id ``s.id``, the 16
    bytes), and each topic in full where ``full_topics``."""
    with sqlite3.connect(db) as con:
        for table in ROW_TABLES:
            con.execute(f"UPDATE {table} SET originator_id = (SELECT {stream} FROM "  # noqa: S608
                        f"{STREAMS_TABLE} s WHERE s.number = {table}.originator_id) "
                        "WHERE typeof(originator_id) = 'integer'")
            if full_topics:
                con.executemany(f"UPDATE {table} SET topic = ? WHERE topic = ?",  # noqa: S608
                                [(topic, stored_topic(topic)) for topic in ROW_TOPICS])
