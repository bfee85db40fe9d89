"""Issue 43's storage target, ahead of a record format of Kiroku's own: what the stores of
``bench/file_bytes.py`` would take in other table layouts, the same rows in the same order.

    python bench/file_layouts.py [--quick] [--short 20] [--long 300] [--games a,b]

For each game, ``file_bytes``' two stores recorded at a table (``--short`` random playouts;
one match of up to ``--long`` actions), made by this tree's code. Each store's rows are then
copied, table by table in the order they were inserted (rowid order), into a fresh file of
each layout below (in pages of the store's size), checkpointed as ``file_bytes`` measures a
store (its WAL folded in, no VACUUM). A b-tree's pages are filled by the order of its own
inserts only, so a copy in that order takes the pages the store took as it was recorded: the
first layout, the same tables, checks that (it prints the store's own bytes). The layouts
add up, each with the one before it:

- ``as stored``: eventsourcing's tables as Kiroku uses them today: every stream (a match's,
  an annotation's) as its number and each event's topic as a code of one or two characters
  (``ledger.compactrows``); trees before it stored the id as its 16 bytes, or as 32
  hexadecimal characters, in the table and again in its key index, and the topic
  (``kiroku:ActionRecorded/1``) in full;
- ``ids as blobs``: text ids as 16 bytes in the events and snapshots tables (a numbered
  store's rows are left as they are: for a store made by a tree before ``ledger.compactrows``);
- ``short topics``: each topic as one or two characters (its number among the store's
  topics, as a table of topics would hold it; the same size as a compact row's code);
- ``snapshots /50`` and ``/100``: a match's snapshots kept at every 50th or 100th version
  instead of every 25th (``SNAPSHOT_INTERVAL``), a longer replay from the last one.

Printed: the whole file over the recorded actions (the target, at most 250 B), the same beyond
the empty store's fixed part (one page a table and index, copied the same way), and the events
table, its key index and the snapshots, each in bytes an action. Nothing is asserted and no
stored format changes: it measures what the steps named in bench/RESULTS.md would take off.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from file_bytes import (
    ACTION_TOPICS,
    GAMES,
    checkpointed,
    empty_store,
    listed,
    long_random,
    long_worldgainer,
    short_store,
)

from ledger.recorder import SNAPSHOT_INTERVAL
from ledger.snapshots import SNAPSHOTS_TABLE
from replay.service import Kiroku

EVENTS_TABLE = "stored_events"
TARGET = 250  # bytes an action, the whole file (issue 43)
Row = list[Any]


@dataclass(frozen=True)
class Layout:
    """A way of storing the same rows: whether ids are blobs, topics short, and which
    snapshots are kept (every ``snapshot_every``-th version)."""

    name: str
    blob_ids: bool = False
    short_topics: bool = False
    snapshot_every: int = SNAPSHOT_INTERVAL


LAYOUTS = (
    Layout("as stored"),
    Layout("ids as blobs", blob_ids=True),
    Layout("short topics", blob_ids=True, short_topics=True),
    Layout("snapshots /50", blob_ids=True, short_topics=True, snapshot_every=50),
    Layout("snapshots /100", blob_ids=True, short_topics=True, snapshot_every=100),
)


def _schema(source: sqlite3.Connection, layout: Layout) -> list[str]:
    """The store's ``CREATE`` statements, the id columns of its events and snapshots as BLOB
    where the layout says so; tables first, then indexes."""
    found = source.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                           "ORDER BY type = 'index', rowid").fetchall()
    statements = []
    for _, name, sql in found:
        if layout.blob_ids and name in (EVENTS_TABLE, SNAPSHOTS_TABLE):
            sql = sql.replace("originator_id TEXT", "originator_id BLOB")
        statements.append(sql)
    return statements


def _rows(source: sqlite3.Connection, table: str) -> tuple[list[str], list[Row]]:
    """A table's columns and its rows in the order they were inserted (rowid order; a
    table without rowids in its key's order)."""
    columns = [info[1] for info in source.execute(f"PRAGMA table_info({table})")]
    sql = source.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    order = "" if "WITHOUT ROWID" in sql.upper() else " ORDER BY rowid"
    return columns, [list(row) for row in source.execute(f"SELECT * FROM {table}{order}")]  # noqa: S608


def _rewrite(layout: Layout, table: str, columns: list[str],
             topics: dict[str, str]) -> Callable[[Row], Row | None]:
    """How one row of ``table`` is stored in ``layout`` (None: not kept)."""
    keyed = table in (EVENTS_TABLE, SNAPSHOTS_TABLE)
    id_at = columns.index("originator_id") if keyed else -1
    topic_at = columns.index("topic") if keyed else -1
    version_at = columns.index("originator_version") if keyed else -1

    def rewrite(row: Row) -> Row | None:
        if not keyed:
            return row
        if table == SNAPSHOTS_TABLE and row[version_at] % layout.snapshot_every:
            return None
        if layout.blob_ids and isinstance(row[id_at], str):
            row[id_at] = bytes.fromhex(row[id_at])
        if layout.short_topics:
            row[topic_at] = topics.setdefault(row[topic_at], format(len(topics), "x"))
        return row

    return rewrite


def copied(store: Path, target: Path, layout: Layout) -> dict[str, Any]:
    """``store``'s rows in a new file ``target`` of ``layout``: its size once checkpointed,
    its actions, and its bytes by table and index."""
    source = sqlite3.connect(store)
    copy = sqlite3.connect(target)
    try:
        (page,) = source.execute("PRAGMA page_size").fetchone()
        copy.execute(f"PRAGMA page_size = {int(page)}")  # the store's own (ledger.writegate)
        copy.execute("PRAGMA journal_mode=WAL")
        for statement in _schema(source, layout):
            copy.execute(statement)
        copy.commit()
        topics: dict[str, str] = {}
        tables = [name for (name,) in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL "
            "ORDER BY rowid")]
        for table in tables:
            columns, rows = _rows(source, table)
            rewrite = _rewrite(layout, table, columns, topics)
            kept = [new for new in map(rewrite, rows) if new is not None]
            marks = ", ".join("?" * len(columns))
            copy.executemany(f"INSERT INTO {table} VALUES ({marks})", kept)  # noqa: S608
            copy.commit()
        copy.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        actions = source.execute(
            f"SELECT COUNT(*) FROM {EVENTS_TABLE} WHERE topic IN (?, ?)",  # noqa: S608
            ACTION_TOPICS).fetchone()[0]
        by_table = dict(copy.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
    finally:
        source.close()
        copy.close()
    return {"file": target.stat().st_size, "actions": int(actions), "tables": by_table}


def long_store(folder: Path, game: str, length: int) -> Path:
    """``file_bytes``' long match of ``game`` in a store of its own (no time travel), its
    match list read, checkpointed."""
    db = folder / f"long-{game}.db"
    kiroku = Kiroku.open(f"sqlite:///{db}")
    try:
        if game == "worldgainer":
            long_worldgainer(kiroku, length)
        else:
            long_random(kiroku, game, length)
        listed(kiroku)
    finally:
        kiroku.close()
    checkpointed(db)
    return db


def describe(layout: Layout, found: dict[str, Any], fixed: int) -> str:
    """One layout's line for one store."""
    actions = max(1, int(found["actions"]))
    tables = found["tables"]
    index = sum(size for name, size in tables.items()
                if name.startswith(f"sqlite_autoindex_{EVENTS_TABLE}"))
    snapshots = sum(size for name, size in tables.items() if SNAPSHOTS_TABLE in name)
    whole = found["file"] / actions
    met = "met" if whole <= TARGET else "not met"
    return (f"    {layout.name:15s} {whole:4.0f} B an action ({met}), "
            f"{(found['file'] - fixed) / actions:4.0f} beyond the fixed part; events "
            f"{tables.get(EVENTS_TABLE, 0) / actions:3.0f}, key index {index / actions:3.0f}, "
            f"snapshots {snapshots / actions:3.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--short", type=int, default=20, help="short matches a game")
    parser.add_argument("--long", type=int, default=300, help="actions of the long match")
    parser.add_argument("--games", default=None, help="comma-separated (default: all five)")
    args = parser.parse_args()
    if args.quick:
        args.short, args.long = 2, 100
    games = (args.games or ("worldgainer" if args.quick else ",".join(GAMES))).split(",")
    print(f"whole SQLite file per recorded action in other layouts, the same rows in the same "
          f"order; short: {args.short} random playouts, long: up to {args.long} actions")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        empty = folder / "empty.db"
        empty_store(folder)
        fixed = [copied(empty, folder / f"empty-{n}.db", layout)["file"]
                 for n, layout in enumerate(LAYOUTS)]
        for game in games:
            short_store(folder, game, args.short)
            stores = {"short": folder / f"short-{game}.db",
                      "long": long_store(folder, game, args.long)}
            for kind, store in stores.items():
                print(f"{game}, {kind}:")
                for n, layout in enumerate(LAYOUTS):
                    found = copied(store, folder / f"{kind}-{game}-{n}.db", layout)
                    print(describe(layout, found, fixed[n]))
                own = checkpointed(store)
                print(f"    (the store itself: {own['file'] / max(1, own['actions']):.0f} B "
                      "an action)")


if __name__ == "__main__":
    main()
