"""A store one tree recorded, given to another tree of a bench's ``--baseline``: a tree before
compact rows (``ledger.compactrows``, issue 43) reads only the library's rows.

Imported by benches that run this tree's code (it names this tree's topic codes), never by a
process of a baseline tree."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ledger.compactrows import ROW_TOPICS, stored_topic

ROW_TABLES = ("stored_events", "stored_snapshots")


def reads_compact_rows(tree: Path) -> bool:
    """Whether ``tree``'s code reads an SQLite store of compact rows."""
    return (tree / "ledger" / "compactrows.py").exists()


def as_written_before(db: Path) -> None:
    """Turn the compact rows of the SQLite store ``db`` into the library's, in place (ids as
    32 hexadecimal characters, topics in full), as a tree before compact rows would have
    recorded them."""
    with sqlite3.connect(db) as con:
        for table in ROW_TABLES:
            con.execute(f"UPDATE {table} SET originator_id = lower(hex(originator_id)) "  # noqa: S608
                        "WHERE typeof(originator_id) = 'blob'")
            con.executemany(f"UPDATE {table} SET topic = ? WHERE topic = ?",  # noqa: S608
                            [(topic, stored_topic(topic)) for topic in ROW_TOPICS])
