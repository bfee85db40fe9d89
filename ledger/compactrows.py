"""An SQLite file's rows, compact: a stream as a number, an event's topic as a code.

eventsourcing's SQLite recorders store an aggregate's UUID (a match's, an annotation's, a
tournament's) as its 32 hexadecimal characters (``UUID.hex``), in the table and again in the
index of its primary key (originator_id, originator_version), and every event's topic in
full (``kiroku:ActionRecorded/1``, 23 characters): about 85 bytes of a recorded action's
300-440 in the file (issue 43). Kiroku's SQLite recorders store instead:

- the stream as its number: ``STREAMS_TABLE`` gives each stream's id (its ``UUID.bytes``) a
  number the first time one of its events is stored, and the rows hold that number, an
  INTEGER of one to three bytes, in the same column: SQLite keeps whatever a row puts in a
  column whatever type it declares, so the tables, their keys and the library's statements
  stay as they are; a read of one stream looks its number up in the same statement, and a
  read of the log joins each row to its stream's id;
- the topic as its code, its place in ``ROW_TOPICS`` in decimal (``0`` for an action
  recorded): a code has no colon, so it is never a topic; a topic not listed is stored in full.

Everything above the recorder sees what the library gives: UUIDs and full topics. Reading
turns codes back into topics; a select by topics (the match list's) asks for their codes.

A file written before keeps its rows as they are, and each table is read and written in the
layout its first row shows (``Layout``), looked at the first time a recorder reads or writes:
ids as text with topics in full (the library's rows: a file from before issue 43, which the
build that wrote it can still read), ids as their 16 bytes with topics as codes (a file from
issue 43's twenty-first round), or numbers. A table with no row yet is numbered. An older
build cannot read a newer layout: the library's conversion of an id expects text.

A number is a stream's for good: one given in a transaction that rolls back is given again
(it is SQLite's rowid of ``STREAMS_TABLE``), so a recorder keeps the numbers it has seen in
memory only once the transaction that saw them has committed (``promote``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from enum import Enum
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import Notification, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteApplicationRecorder, SQLiteCursor

# A topic's code is its place here, in every file that holds it: append, never reorder or
# remove (tests/ledger/test_compactrows.py pins the codes given). The most frequent first.
ROW_TOPICS: tuple[str, ...] = (
    "kiroku:ActionRecorded/1",  # 0
    "kiroku:MatchSnapshot/3",
    "kiroku:MatchCreated/1",
    "kiroku:SeedRevealed/1",
    "kiroku:MatchEnded/1",
    "kiroku:SeedSealed/1",
    "kiroku:ActionsUndone/1",
    "kiroku:SeedWithheld/1",
    "kiroku:MatchReopened/1",
    "kiroku:MatchPaused/1",
    "kiroku:MatchResumed/1",  # 10
    "kiroku:MatchSnapshot/2",
    "kiroku:MatchSnapshot/1",
    "kiroku:CredentialIssued/1",
    "kiroku:CredentialRevoked/1",
    "kiroku:AnnotationAdded/1",
    "kiroku:AnnotationAmended/1",
    "kiroku:AnnotationWithdrawn/1",
    "kiroku:DisputeOpened/1",
    "kiroku:DisputeTaken/1",
    "kiroku:DisputeRuled/1",  # 20
    "kiroku:DisputeAppealed/1",
    "kiroku:DocketStarted/1",
    "kiroku:DisputeFiled/1",
    "kiroku:DisputeReleased/1",
    "kiroku:DisputeHeld/1",
    "kiroku:VariationStarted/1",
    "kiroku:VariationActionPlayed/1",
    "kiroku:VariationActionsTakenBack/1",
    "kiroku:TournamentCreated/1",
    "kiroku:TournamentStaffChanged/1",  # 30
    "kiroku:DecklistDeadlineSet/1",
    "kiroku:PlayerRegistered/1",
    "kiroku:DecklistSubmitted/1",
    "kiroku:DecklistsLocked/1",
    "kiroku:DecklistAmended/1",
    "kiroku:RoundPaired/1",
    "kiroku:SeriesGameStarted/1",
    "kiroku:PlayerDropped/1",
    "kiroku:TableResultEntered/1",
    "kiroku:TournamentFinished/1",  # 40
    "kiroku:MatchSeated/1",
    "kiroku:SignInDeskOpened/1",
    "kiroku:SignInLinkIssued/1",
    "kiroku:SignedIn/1",
)
_CODES: dict[str, str] = {topic: str(place) for place, topic in enumerate(ROW_TOPICS)}
_TOPICS: dict[str, str] = {code: topic for topic, code in _CODES.items()}


STREAMS_TABLE = "stream_numbers"  # each stream's number: (number, id as its 16 bytes)
CREATE_STREAMS = (f"CREATE TABLE IF NOT EXISTS {STREAMS_TABLE} "
                  "(number INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE)")
_NUMBER_OF = f"SELECT number FROM {STREAMS_TABLE} WHERE id = ?"  # noqa: S608
# the numbers a recorder keeps in memory at most (then it forgets them all, and looks each
# stream up again once): a server recording for weeks sees streams without end
KEPT_NUMBERS = 100_000


class Layout(Enum):
    """How a table holds its rows' streams and topics, told by its first row's id."""

    LIBRARY = "text"  # the library's rows: an id as 32 hexadecimal characters, topics in full
    BYTES = "blob"  # an id as its 16 bytes, a topic as its code
    NUMBERS = "integer"  # a stream as its number (``STREAMS_TABLE``), a topic as its code


def stream_id(stored: bytes | str) -> UUID:
    """The UUID of an id as an SQLite table or ``STREAMS_TABLE`` stores it: 16 bytes, or (a
    file written before) 32 hexadecimal characters."""
    return UUID(bytes=stored) if isinstance(stored, bytes) else UUID(stored)


def stored_topic(topic: str) -> str:
    """How a compact table stores ``topic``: its code, or the topic itself if it has none."""
    return _CODES.get(topic, topic)


def row_topic(stored: str) -> str:
    """The topic of a stored row's ``topic`` column: a code's topic, else the column as is."""
    return _TOPICS.get(stored, stored)


def rows_table(name: str) -> str:
    """The library's table of events (or snapshots) ``name``, with rowids, its id column
    declared without a type: SQLite then stores each id as it is given (a number as an
    INTEGER; a TEXT column would turn it into text)."""
    return (f"CREATE TABLE IF NOT EXISTS {name} (originator_id, originator_version INTEGER, "
            "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))")


def log_statement(table: str) -> str:
    """A read of ``table``'s rows past a notification id (the first ``?``), in order, at most
    the second ``?`` of them: each row's notification id, its stream's id as stored (16 bytes,
    or text in a file written before: ``stream_id``) and its version, whatever the table's
    layout."""
    return (f"SELECT e.rowid, coalesce(s.id, e.originator_id), e.originator_version "  # noqa: S608
            f"FROM {table} e LEFT JOIN {STREAMS_TABLE} s ON s.number = e.originator_id "
            "WHERE e.rowid > ? ORDER BY e.rowid LIMIT ?")


def stored_stream(connection: Any, stream: UUID) -> Any:
    """What the rows of an SQLite file (an open DB-API ``connection`` to it) hold for
    ``stream``: its number where the file numbers it, else its 16 bytes (a file of issue
    43's twenty-first round; the library's rows hold ``stream.hex``); for tools and tests
    that read a file by SQL."""
    found = connection.execute(_NUMBER_OF, (stream.bytes,)).fetchone()
    return stream.bytes if found is None else found[0]


def _found_number(c: SQLiteCursor, stream: UUID | str) -> int | None:
    """The number ``STREAMS_TABLE`` gives ``stream``, or None, read in ``c``'s transaction."""
    c.execute(_NUMBER_OF, (_stored_id(stream),))
    found = c.fetchone()
    return None if found is None else int(found[0])


class CompactRows(SQLiteAggregateRecorder):
    """An SQLite recorder storing compact rows, or the rows its table holds already in an
    earlier layout (a file written before)."""

    _layout: Layout | None = None  # decided by the table's first row, once

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._numbers: dict[UUID | str, int] = {}  # stream -> number, seen committed
        # what the transaction under way in each thread has seen (``_seen_now``)
        self._writing = threading.local()

    def construct_create_table_statements(self) -> list[str]:
        """The library's table, its id column without a type (``rows_table``), with rowids,
        and the table of stream numbers."""
        return [rows_table(self.events_table_name), CREATE_STREAMS]

    def layout(self, cursor: SQLiteCursor) -> Layout:
        """How this recorder's table holds its rows, looked up once, in ``cursor``'s
        transaction: as its first row does; a table with no row yet numbers its streams,
        unless it was created with its id column TEXT (by the library or a build before
        stream numbers), where a number would be stored as text: it keeps ids as bytes."""
        if self._layout is None:
            table = self.events_table_name
            cursor.execute(f"SELECT typeof(originator_id) FROM {table} LIMIT 1")  # noqa: S608
            first = cursor.fetchone()
            if first is None:
                cursor.execute(f"SELECT type FROM pragma_table_info('{table}') "
                               "WHERE name = 'originator_id'")
                declared = cursor.fetchone()
                self._layout = (Layout.BYTES if declared is not None and declared[0]
                                else Layout.NUMBERS)
            else:
                self._layout = Layout(first[0] if first[0] in ("text", "blob") else "integer")
        return self._layout

    def _known_layout(self) -> Layout:
        if self._layout is None:
            with self.datastore.transaction(commit=False) as c:
                return self.layout(c)
        return self._layout

    def insert_events(self, stored_events: Sequence[StoredEvent],
                      **kwargs: Any) -> Sequence[int] | None:
        """The library's insert in a transaction of its own; the numbers it saw kept once it
        has committed."""
        self.forget_uncommitted()
        ids = super().insert_events(stored_events, **kwargs)
        self.promote()
        return ids

    def promote(self) -> None:
        """Keep the numbers that this thread's transaction, just committed, saw."""
        self._keep(self._seen_now())
        self.forget_uncommitted()

    def _keep(self, committed: dict[UUID | str, int]) -> None:
        """Keep ``committed`` numbers, at most about ``KEPT_NUMBERS`` of them."""
        if len(self._numbers) > KEPT_NUMBERS:
            self._numbers.clear()
        self._numbers.update(committed)

    def forget_uncommitted(self) -> None:
        """Forget the numbers this thread's transaction saw, as it rolls back (or begins): a
        number given in it may be given again to another stream."""
        self._writing.seen = {}

    def _seen_now(self) -> dict[UUID | str, int]:
        seen: dict[UUID | str, int] | None = getattr(self._writing, "seen", None)
        if seen is None:
            seen = self._writing.seen = {}
        return seen

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent],
                       **kwargs: Any) -> Sequence[int] | None:
        """The library's insert, of compact rows in the table's layout."""
        layout = self.layout(c)
        if layout is not Layout.LIBRARY:
            key = self._number if layout is Layout.NUMBERS else _id_bytes
            # the library stores an id that is not a UUID as it is given
            stored_events = [StoredEvent(cast(Any, key(c, s.originator_id)),
                                         s.originator_version, stored_topic(s.topic), s.state)
                             for s in stored_events]
        return super()._insert_events(c, stored_events, **kwargs)

    def _number(self, c: SQLiteCursor, stream: UUID | str) -> int:
        """The stream's number, given it now (in ``c``'s transaction) if it has none."""
        seen = self._seen_now()
        number = self._numbers.get(stream) or seen.get(stream)
        if number is None:
            number = _found_number(c, stream)
            if number is None:
                c.execute(f"INSERT INTO {STREAMS_TABLE} (id) VALUES (?)",  # noqa: S608
                          (_stored_id(stream),))
                number = int(cast(int, c.lastrowid))
            seen[stream] = number
        return number

    def select_events(self, originator_id: UUID | str, *, gt: int | None = None,
                      lte: int | None = None, desc: bool = False,
                      limit: int | None = None) -> Sequence[StoredEvent]:
        """The library's read of one stream (the same statement, the stream as the table
        keeps it), each topic in full."""
        layout = self._known_layout()
        statement = self.select_events_statement
        params: list[Any] = [originator_id.hex if layout is Layout.LIBRARY
                             and isinstance(originator_id, UUID) else _stored_id(originator_id)]
        if gt is not None:
            statement += "AND originator_version>? "
            params.append(gt)
        if lte is not None:
            statement += "AND originator_version<=? "
            params.append(lte)
        statement += f"ORDER BY originator_version {'DESC' if desc else 'ASC'} "
        if limit is not None:
            statement += "LIMIT ? "
            params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            if layout is Layout.NUMBERS:
                number = self._committed_number(c, originator_id)
                if number is None:
                    return []
                params[0] = number
            c.execute(statement, params)
            rows = c.fetchall()
        if layout is Layout.NUMBERS:  # every row is the stream asked for
            return [StoredEvent(originator_id, row[1], row_topic(row[2]), row[3])
                    for row in rows]
        return [StoredEvent(self.convert_originator_id(row[0]), row[1], row_topic(row[2]),
                            row[3]) for row in rows]

    def learn_numbers(self) -> None:
        """Keep every stream's number the file holds (at most ``KEPT_NUMBERS``), read at once:
        for a reader about to read most of the file's streams (each worker of ``kiroku audit
        verify``), one read instead of one for each stream. What it reads was committed, and
        a number is its stream's for good; a stream numbered later is looked up as before. A
        row whose id is not a stream's 16 bytes (a damaged file) is left out: the audit that
        reads the file reports what it finds, and a look-up finds what it found before."""
        if self._known_layout() is not Layout.NUMBERS:
            return
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT id, number FROM {STREAMS_TABLE} LIMIT ?",  # noqa: S608
                      (KEPT_NUMBERS,))
            numbered = c.fetchall()
        # in place of the numbers kept so far (committed, so read again here unless past the
        # bound): kept with them, a recorder would hold up to twice its bound
        self._numbers.clear()
        self._keep({UUID(bytes=stored): number for stored, number in numbered
                    if type(stored) is bytes and len(stored) == 16 and type(number) is int})

    def _committed_number(self, c: SQLiteCursor, stream: UUID | str) -> int | None:
        """The stream's number, read in ``c``'s transaction, which writes nothing (so what
        it finds was committed, and is kept), or None where the stream has none. It is read
        apart, not in the statement that reads the stream's rows: SQLite does not search an
        index by a subquery's value on a column without a type, it scans it."""
        number = self._numbers.get(stream)
        if number is None:
            number = _found_number(c, stream)
            if number is not None:
                self._keep({stream: number})
        return number

    def convert_originator_id(self, originator_id: Any) -> UUID | str:
        """A stored id as the library's: a UUID from its 16 bytes or its text."""
        if isinstance(originator_id, bytes):
            return UUID(bytes=originator_id)
        return super().convert_originator_id(originator_id)


class CompactLog(CompactRows, SQLiteApplicationRecorder):
    """The application recorder's table of compact rows, with its notification log."""

    def select_notifications(self, start: int | None, limit: int, stop: int | None = None,
                             topics: Sequence[str] = (), *,
                             inclusive_of_start: bool = True) -> Sequence[Notification]:
        """The library's read of the log (the same statement, each row joined to its
        stream's id where the table numbers them), each topic in full; ``topics`` selected
        by what the table holds them as."""
        conditions: list[str] = []
        params: list[Any] = []
        if start is not None:
            conditions.append("e.rowid>=? " if inclusive_of_start else "e.rowid>? ")
            params.append(start)
        if stop is not None:
            conditions.append("e.rowid<=? ")
            params.append(stop)
        layout = self._known_layout()
        if topics:
            if layout is not Layout.LIBRARY:
                topics = [stored_topic(topic) for topic in topics]
            conditions.append(f"e.topic IN ({','.join('?' * len(topics))}) ")
            params += list(topics)
        statement = (f"SELECT e.rowid, s.id, e.originator_version, e.topic, e.state "  # noqa: S608
                     f"FROM {self.events_table_name} e CROSS JOIN {STREAMS_TABLE} s "
                     "ON s.number = e.originator_id "  # the log in order, each row's id found
                     if layout is Layout.NUMBERS else
                     f"SELECT e.rowid, e.* FROM {self.events_table_name} e ")
        if conditions:
            statement += "WHERE " + "AND ".join(conditions)
        statement += "ORDER BY e.rowid LIMIT ?"
        params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, params)
            return [Notification(id=row[0], originator_id=self.convert_originator_id(row[1]),
                                 originator_version=row[2], topic=row_topic(row[3]),
                                 state=row[4])
                    for row in c.fetchall()]


def _stored_id(originator_id: UUID | str) -> Any:
    return originator_id.bytes if isinstance(originator_id, UUID) else originator_id


def _id_bytes(_: SQLiteCursor, originator_id: UUID | str) -> Any:
    return _stored_id(originator_id)
