"""An SQLite file's rows, compact: a stream's id as its 16 bytes, an event's topic as a code.

eventsourcing's SQLite recorders store an aggregate's UUID (a match's, an annotation's, a
tournament's) as its 32 hexadecimal characters (``UUID.hex``), in the table and again in the
index of its primary key (originator_id, originator_version), and every event's topic in
full (``kiroku:ActionRecorded/1``, 23 characters): about 85 bytes of a recorded action's
300-440 in the file (issue 43). Kiroku's SQLite recorders store instead:

- the id as ``UUID.bytes``, a BLOB in the same column: SQLite keeps a BLOB as it is whatever
  type a column declares, and compares BLOBs byte by byte, so the tables, their keys and the
  library's statements stay as they are;
- the topic as its code, its place in ``ROW_TOPICS`` in decimal (``0`` for an action
  recorded): a code has no colon, so it is never a topic; a topic not listed is stored in full.

Everything above the recorder sees what the library gives: UUIDs and full topics. Reading
turns codes back into topics; a select by topics (the match list's) asks for their codes.

A file written before keeps its ids as text and its topics in full, and is read and written as
it is, so the build that wrote it can still read it: each recorder looks at the first row of
its table the first time it reads or writes, and a table whose ids are text goes on that way.
A table with no row yet is compact. An older build cannot read a compact table: the library's
conversion of an id expects text.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def stream_id(stored: bytes | str) -> UUID:
    """The UUID of an id as an SQLite table stores it: 16 bytes, or (a file written before)
    32 hexadecimal characters."""
    return UUID(bytes=stored) if isinstance(stored, bytes) else UUID(stored)


def stored_topic(topic: str) -> str:
    """How a compact table stores ``topic``: its code, or the topic itself if it has none."""
    return _CODES.get(topic, topic)


def row_topic(stored: str) -> str:
    """The topic of a stored row's ``topic`` column: a code's topic, else the column as is."""
    return _TOPICS.get(stored, stored)


class CompactRows(SQLiteAggregateRecorder):
    """An SQLite recorder storing compact rows, or the library's rows in a table that holds
    them already (a file written before)."""

    _written_before: bool | None = None  # decided by the table's first row, once

    def written_before(self, cursor: SQLiteCursor) -> bool:
        """Whether this recorder's table holds the library's rows (ids as text: a file
        written before), looked up once, in ``cursor``'s transaction."""
        if self._written_before is None:
            cursor.execute(f"SELECT typeof(originator_id) FROM {self.events_table_name} "  # noqa: S608
                           "LIMIT 1")
            first = cursor.fetchone()
            self._written_before = first is not None and first[0] == "text"
        return self._written_before

    def _is_written_before(self) -> bool:
        if self._written_before is None:
            with self.datastore.transaction(commit=False) as c:
                return self.written_before(c)
        return self._written_before

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent],
                       **kwargs: Any) -> Sequence[int] | None:
        """The library's insert, of compact rows unless the table holds the library's."""
        if not self.written_before(c):
            # the library stores an id that is not a UUID as it is given
            stored_events = [StoredEvent(cast(Any, _stored_id(s.originator_id)),
                                         s.originator_version, stored_topic(s.topic), s.state)
                             for s in stored_events]
        return super()._insert_events(c, stored_events, **kwargs)

    def select_events(self, originator_id: UUID | str, *, gt: int | None = None,
                      lte: int | None = None, desc: bool = False,
                      limit: int | None = None) -> Sequence[StoredEvent]:
        """The library's read of one stream (the same statement), its id as the table keeps
        them and each topic in full."""
        params: list[Any] = [originator_id.hex if self._is_written_before()
                             and isinstance(originator_id, UUID) else _stored_id(originator_id)]
        statement = self.select_events_statement
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
            c.execute(statement, params)
            return [StoredEvent(self.convert_originator_id(row[0]), row[1], row_topic(row[2]),
                                row[3]) for row in c.fetchall()]

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
        """The library's read of the log (the same statement), each topic in full; ``topics``
        selected by what the table holds them as."""
        conditions: list[str] = []
        params: list[Any] = []
        if start is not None:
            conditions.append("rowid>=? " if inclusive_of_start else "rowid>? ")
            params.append(start)
        if stop is not None:
            conditions.append("rowid<=? ")
            params.append(stop)
        if topics:
            if not self._is_written_before():
                topics = [stored_topic(topic) for topic in topics]
            conditions.append(f"topic IN ({','.join('?' * len(topics))}) ")
            params += list(topics)
        statement = f"SELECT rowid, * FROM {self.events_table_name} "  # noqa: S608
        if conditions:
            statement += "WHERE " + "AND ".join(conditions)
        statement += "ORDER BY rowid LIMIT ?"
        params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, params)
            return [Notification(id=row[0], originator_id=self.convert_originator_id(row[1]),
                                 originator_version=row[2], topic=row_topic(row[3]),
                                 state=row[4])
                    for row in c.fetchall()]


def _stored_id(originator_id: UUID | str) -> Any:
    return originator_id.bytes if isinstance(originator_id, UUID) else originator_id
