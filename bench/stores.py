"""A store one tree recorded, given to another tree of a bench's ``--baseline``: a tree before
compact rows (``ledger.compactrows``, issue 43) reads only the library's rows, a tree of
compact rows before stream numbers reads ids as their 16 bytes, not numbers, and a tree
before storage formats 7 to 9 (``ledger.transcoder``, issue 43's twenty-eighth round) reads
records in formats 1 to 6 only.

Imported by benches that run this tree's code (it names this tree's topic codes), never by a
process of a baseline tree."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from ledger.compactrows import ROW_TOPICS, STREAMS_TABLE, stored_topic
from ledger.transcoder import PLAIN, TERSE, MsgpackTranscoder, _pack

ROW_TABLES = ("stored_events", "stored_snapshots")
# run by the older tree, in its own checkout: each record in format 1 (what ``_as_plain``
# left) encoded again by that tree's own transcoder, as it would have stored it
_ENCODED_AGAIN = """
import sqlite3, sys
from ledger.transcoder import MsgpackTranscoder
transcoder = MsgpackTranscoder()
with sqlite3.connect(sys.argv[1]) as con:
    for table in {tables!r}:
        rows = con.execute(f"SELECT rowid, state FROM {{table}} WHERE substr(state, 1, 1) = ?",
                           (bytes([{plain}]),)).fetchall()
        con.executemany(f"UPDATE {{table}} SET state = ? WHERE rowid = ?",
                        [(transcoder.encode(transcoder.decode(bytes(state))), rowid)
                         for rowid, state in rows])
"""


def as_read_by(tree: Path, db: Path) -> None:
    """Turn the rows of the SQLite store ``db`` (this tree's) into those ``tree`` reads, in
    place, as that tree would have recorded them."""
    compact = tree / "ledger" / "compactrows.py"
    if not compact.exists():
        _as_rows(db, "lower(hex(s.id))", full_topics=True)
    elif STREAMS_TABLE not in compact.read_text():
        _as_rows(db, "s.id", full_topics=False)
    if "TERSE" not in (tree / "ledger" / "transcoder.py").read_text():
        _as_plain(db)
        subprocess.run([sys.executable, "-c", _ENCODED_AGAIN.format(tables=ROW_TABLES,
                                                                    plain=PLAIN), str(db)],
                       cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True)


def _as_plain(db: Path) -> None:
    """Every record of formats 7 to 9 in ``db`` as format 1 (plain msgpack), which every
    tree reads."""
    transcoder = MsgpackTranscoder()
    with sqlite3.connect(db) as con:
        for table in ROW_TABLES:
            rows = con.execute(f"SELECT rowid, state FROM {table} "  # noqa: S608
                               "WHERE substr(state, 1, 1) >= ?", (bytes([TERSE]),)).fetchall()
            con.executemany(f"UPDATE {table} SET state = ? WHERE rowid = ?",  # noqa: S608
                            [(bytes([PLAIN]) + _pack(transcoder.decode(bytes(state))), rowid)
                             for rowid, state in rows])


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
