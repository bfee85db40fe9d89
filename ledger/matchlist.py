"""The match list as a read model: one row per match, kept in step with the events.

The list, its filters and its pages (``GET /matches``, the list page, ``kiroku match list``,
standings, id prefixes) read a table, so what they cost depends on the number of matches asked
for, not on the number of events stored. The table is a materialised view in eventsourcing's
own terms: a ``Projection`` whose ``process_event`` updates a ``TrackingRecorder`` (the view)
and records, in the same transaction, the notification it has processed. A view row is
therefore never applied twice, nor skipped, even with several servers on one database.

What keeps it in step is ``MatchList.catch_up``, called before every read: it processes the
notifications stored since the view's tracking position (a page of them per transaction, the
page's changes and its tracking committed together: ``MatchListView.batch``), so a list read
just after a match was created (by this server or another) shows it. Of a match's creation and
end it reads only the fields the list shows (``MatchListProjection.read``: a creation's decks
and card definitions are never built). The library's ``ProjectionRunner``
does not fit here: it follows an application by subscription, which its SQLite recorder does not
offer, and a runner in the background would show a match created a moment ago only after it
caught up. A catch-up reads up to the log's settled head, below which no notification is still
to commit: on SQLite the log's head (one writer at a time), on PostgreSQL, where writers insert
side by side, what ``ManyWritersRecorder.settled_notification_id`` waits for.

The streams that lists find (each match's annotations and variations; the store's tournaments
and credentials) are a second read model of the same kind, in a table of their own beside the
list's, with a tracking position of their own (``Streams``): a match's annotations are found
by its id, and the tournaments by their kind, not by reading the notification log by topic,
which has no index by topic and so scans every stored event (issue 16).
"""

from __future__ import annotations

import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import date
from functools import singledispatchmethod
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import (
    IntegrityError,
    Mapper,
    Notification,
    Tracking,
    TrackingRecorder,
)
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteTrackingRecorder

from ledger.identity import Credential
from ledger.mapper import MatchMapper
from ledger.match import MATCH_TOPICS, Match
from ledger.transcoder import Wanted

if TYPE_CHECKING:
    from ledger.tournaments import Seating, Tournament

SIMULATOR = "simulator"  # the recorded_by of the matches Kiroku.simulate records
PAGE = 500  # notifications read at a time while catching up
# When only events the list ignores were stored since its position, it moves its position on
# past them once they are this many (one small write), so later reads skip them.
SKIP_AHEAD = 1_000
TABLE = "match_list"
STREAMS = "streams"  # (match, kind, stream) in the order they were started
# the streams kept, by the topic of the event that starts one: their kind, and whether each is
# listed by its match (else store-wide, under the match id "")
# The topics of other aggregates' events are named here, not read from their classes, so that
# a process that reads matches only never imports those modules (ledger.topics, issue 43);
# tests/ledger/test_topics.py checks each against its class.
ANNOTATION_ADDED = "kiroku:AnnotationAdded/1"  # ledger.annotations: Annotation.Created
VARIATION_STARTED = "kiroku:VariationStarted/1"  # ledger.variations: Variation.Created
TOURNAMENT_CREATED = "kiroku:TournamentCreated/1"  # ledger.tournaments: Tournament.Created
MATCH_SEATED = "kiroku:MatchSeated/1"  # ledger.tournaments: Seating.Created
TABLE_RESULT_ENTERED = "kiroku:TableResultEntered/1"  # ledger.tournaments: ResultEntered
DISPUTE_OPENED = "kiroku:DisputeOpened/1"  # ledger.disputes: Dispute.Created
STREAM_KINDS: dict[str, tuple[str, bool]] = {
    ANNOTATION_ADDED: ("annotation", True),
    VARIATION_STARTED: ("variation", True),
    TOURNAMENT_CREATED: ("tournament", False),
    Credential.Created.TOPIC: ("credential", False),
}
# disputes, store-wide (found by a prefix of their id), in a read model tracked apart: it began
# after the one above, so a store's older disputes are read into it from the start of the log
DISPUTE_KINDS: dict[str, tuple[str, bool]] = {DISPUTE_OPENED: ("dispute", False)}


@dataclass(frozen=True)
class MatchQuery:
    """What the list is asked for: each filter left as None matches every match.

    ``player`` is a part of a player's name (case ignored); ``status`` is ``live`` (no
    result) or ``ended``; ``since`` and ``until`` are UTC days of creation, both included;
    ``simulated`` False lists matches recorded at a table, True the simulator's only, None
    both; ``offset`` and ``limit`` cut one page of the list in its order."""

    game: str | None = None
    player: str | None = None
    tournament_id: UUID | None = None
    round: int | None = None
    table: int | None = None
    status: str | None = None
    since: date | None = None
    until: date | None = None
    simulated: bool | None = False
    newest_first: bool = False
    offset: int = 0
    limit: int | None = None


@dataclass(frozen=True)
class ListedMatch:
    """One row of the match list: the match, its result (None while it is on) and, for a
    match played in a tournament, its seating (tournament, round, table, players)."""

    match_id: UUID
    game: str
    players: list[str]
    created_at: str
    result: dict[str, Any] | None
    simulated: bool
    seating: dict[str, Any] | None


@dataclass(frozen=True)
class MatchPage:
    """One page of the match list, and ``total``: how many matches the filters select, on
    this page and the others."""

    matches: list[ListedMatch]
    total: int


class _Statements:
    """The view's SQL, written once for both databases: ``{t}`` is the list's table
    (``{by_time}`` and ``{by_seating}`` its indexes), ``{s}`` the streams' table, ``?`` a
    parameter, ``contains`` the database's substring search function; text compares and
    sorts by its bytes (times and ids are compared as strings)."""

    COLUMNS = ("match_id", "listed_at", "game", "players", "players_folded", "created_at",
               "simulated", "result", "tournament_id", "seating", "round", "table_number")

    def __init__(self, mark: str, contains: str, boolean: str, text: str) -> None:
        self.mark = mark
        self.contains = contains
        self.create = [
            f"CREATE TABLE IF NOT EXISTS {{t}} (match_id {text} PRIMARY KEY, listed_at BIGINT, "
            f"game {text}, players {text}, players_folded {text}, created_at {text}, "
            f"simulated {boolean}, result {text}, tournament_id {text}, seating {text}, "
            "round INTEGER, table_number INTEGER)",
            "CREATE INDEX IF NOT EXISTS {by_time} ON {t} (simulated, created_at, listed_at)",
            "CREATE INDEX IF NOT EXISTS {by_seating} ON {t} (tournament_id, round, "
            "table_number)",
            f"CREATE TABLE IF NOT EXISTS {{s}} (match_id {text}, kind {text}, "
            f"stream_id {text}, listed_at BIGINT, PRIMARY KEY (match_id, kind, stream_id))",
        ]
        self.created = self._marks(
            "INSERT INTO {t} (match_id, listed_at, game, players, players_folded, created_at, "
            "simulated) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET "
            "listed_at = excluded.listed_at, game = excluded.game, players = excluded.players, "
            "players_folded = excluded.players_folded, created_at = excluded.created_at, "
            "simulated = excluded.simulated")
        # a creation and, later in the same batch, its result (``MatchListView.batch``): the
        # creation's upsert, then the result's update, in one statement
        self.created_with_result = self._marks(
            "INSERT INTO {t} (match_id, listed_at, game, players, players_folded, created_at, "
            "simulated, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO "
            "UPDATE SET listed_at = excluded.listed_at, game = excluded.game, "
            "players = excluded.players, players_folded = excluded.players_folded, "
            "created_at = excluded.created_at, simulated = excluded.simulated, "
            "result = excluded.result")
        self.result = self._marks("UPDATE {t} SET result = ? WHERE match_id = ?")
        self.table_games = self._marks(
            "SELECT seating FROM {t} WHERE tournament_id = ? AND round = ? AND "
            "table_number = ?")
        self.table_closed = self._marks(
            "UPDATE {t} SET result = ? WHERE tournament_id = ? AND round = ? AND "
            "table_number = ? AND result IS NULL")
        self.seated = self._marks(
            "INSERT INTO {t} (match_id, tournament_id, seating, round, table_number) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET "
            "tournament_id = excluded.tournament_id, seating = excluded.seating, "
            "round = excluded.round, table_number = excluded.table_number")
        self.stream_added = self._marks(
            "INSERT INTO {s} (match_id, kind, stream_id, listed_at) VALUES (?, ?, ?, ?)")
        self.streams = self._marks(
            "SELECT stream_id FROM {s} WHERE match_id = ? AND kind = ? ORDER BY listed_at")
        self.streams_by_kind = self._marks(
            "SELECT kind, stream_id FROM {s} WHERE match_id = ? ORDER BY listed_at")
        self.prefixed = self._marks(
            "SELECT match_id FROM {t} WHERE game IS NOT NULL AND match_id LIKE ? "
            "ORDER BY match_id")

    def _marks(self, sql: str) -> str:
        return sql.replace("?", self.mark)

    def search(self, query: MatchQuery) -> tuple[str, list[Any]]:
        """The SELECT of one page for ``query`` and its parameters (LIMIT and OFFSET last)."""
        where, params = self._where(query)
        order = " DESC" if query.newest_first else ""
        sql = (f"SELECT * FROM {{t}} WHERE {where} "
               f"ORDER BY created_at{order}, listed_at{order} LIMIT ? OFFSET ?")
        return self._marks(sql), params

    def count(self, query: MatchQuery) -> tuple[str, list[Any]]:
        """The SELECT of how many matches ``query``'s filters select, and its parameters."""
        where, params = self._where(query)
        return self._marks(f"SELECT COUNT(*) AS total FROM {{t}} WHERE {where}"), params

    def _where(self, query: MatchQuery) -> tuple[str, list[Any]]:
        """The WHERE condition of ``query``'s filters and its parameters."""
        where, params = ["game IS NOT NULL"], []
        for column, value in (("game", query.game), ("simulated", query.simulated),
                              ("tournament_id", query.tournament_id and str(
                                  query.tournament_id)),
                              ("round", query.round), ("table_number", query.table)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if query.player is not None:
            where.append(f"{self.contains}(players_folded, ?) > 0")
            params.append(query.player.casefold())
        if query.status is not None:
            where.append("result IS NULL" if query.status == "live" else "result IS NOT NULL")
        if query.since is not None:
            where.append("created_at >= ?")
            params.append(query.since.isoformat())
        if query.until is not None:
            where.append("substr(created_at, 1, 10) <= ?")
            params.append(query.until.isoformat())
        return " AND ".join(where), params


def _folded(players: list[str]) -> str:
    """The players' names for a search by part of a name: case folded, one per line (a name
    is printable, so a search for part of a name never spans two)."""
    return "\n".join(p.casefold() for p in players)


def _listed(row: Any) -> ListedMatch:
    seating = json.loads(row["seating"]) if row["seating"] else None
    return ListedMatch(UUID(row["match_id"]), row["game"], json.loads(row["players"]),
                       row["created_at"], json.loads(row["result"]) if row["result"] else None,
                       bool(row["simulated"]), seating)


class _Batch:
    """A batch of the view's changes under way (``MatchListView.batch``): its transaction's
    cursor; by tracking name, the last tracking given and the last written; the rows of the
    matches created in it not yet written, by match id, and the result each was given since
    (if it was)."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor
        self.given: dict[str, Tracking] = {}
        self.written: dict[str, int] = {}
        self.created: dict[str, list[Any]] = {}
        self.results: dict[str, str | None] = {}


class MatchListView(TrackingRecorder, ABC):
    """The match list's table, written only with the tracking of the event that changed it;
    each database gives its statements (``SQL``), its way to write and read them, and what
    its ``LIMIT`` takes for no limit."""

    SQL: _Statements
    NO_LIMIT: Any
    _batches: threading.local  # each thread's transaction of a batch under way (``batch``)

    @abstractmethod
    def _transaction(self, commit: bool) -> AbstractContextManager[Any]:
        """A transaction of the view's database: its cursor."""

    @abstractmethod
    def _execute(self, cursor: Any, sql: str, params: list[Any]) -> None:
        """Run one of ``SQL``'s statements on ``cursor``."""

    @abstractmethod
    def _insert_tracking(self, cursor: Any, tracking: Tracking) -> None:
        """Record ``tracking`` on ``cursor`` (the library's tracking recorder's own)."""

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Within, this thread's changes (each with its tracking, as always) are written in
        one transaction, committed at the end: a catch-up writes a page of notifications at
        once, not one transaction (and one commit) each. A tracking refused (another server
        recorded one of them first) rolls the whole batch back."""
        if not hasattr(self, "_batches"):
            self._batches = threading.local()
        with self._transaction(commit=True) as cursor:
            batch = self._batches.current = _Batch(cursor)
            try:
                yield
                self._flush(batch)
                for name, tracking in batch.given.items():
                    if batch.written.get(name) != tracking.notification_id:
                        self._insert_tracking(cursor, tracking)
            finally:
                self._batches.current = None

    def _batch(self) -> _Batch | None:
        """This thread's batch under way, if any."""
        batches = getattr(self, "_batches", None)
        return getattr(batches, "current", None) if batches is not None else None

    def _single_row_tracking(self) -> bool:
        """Whether the library keeps one tracking row a name (its default): the highest
        notification id, an insert refused unless its id is higher."""
        return bool(getattr(getattr(self, "datastore", None), "single_row_tracking", False))

    def _track_in(self, batch: _Batch, tracking: Tracking) -> None:
        """Record ``tracking`` in ``batch``. With single-row tracking only a batch's first
        tracking of a name is written at once, its last when the batch ends (issue 43: 5,200
        upserts of one row were a fifth of a first list read). The first is refused if
        another server recorded it or a later one, as ever; from then on the row is this
        transaction's until it ends (SQLite's one writer, PostgreSQL's row lock), so each
        later insert would be refused exactly when its id is not above the one before, which
        is checked here instead: the row and the refusals are the library's, as if each had
        been written."""
        name = tracking.application_name
        given = batch.given.get(name)
        if given is None or not self._single_row_tracking():
            self._insert_tracking(batch.cursor, tracking)
            batch.written[name] = tracking.notification_id
        elif tracking.notification_id <= given.notification_id:
            raise IntegrityError(f"Failed to record tracking for {name} "
                                 f"{tracking.notification_id}")
        batch.given[name] = tracking

    def _execute_many(self, cursor: Any, sql: str, rows: list[list[Any]]) -> None:
        """Run one of ``SQL``'s statements on ``cursor`` once for each of ``rows``."""
        for params in rows:
            self._execute(cursor, sql, params)

    def _flush(self, batch: _Batch) -> None:
        """Write the rows of the matches created in ``batch`` and not yet written, with the
        result each was given since, if any (before any other write or read of the batch,
        so each statement still sees every change given before it)."""
        if not batch.created:
            return
        plain = [row for match_id, row in batch.created.items()
                 if match_id not in batch.results]
        ended = [[*row, batch.results[match_id]] for match_id, row in batch.created.items()
                 if match_id in batch.results]
        batch.created, batch.results = {}, {}
        if plain:
            self._execute_many(batch.cursor, self.SQL.created, plain)
        if ended:
            self._execute_many(batch.cursor, self.SQL.created_with_result, ended)

    def _write(self, sql: str, params: list[Any], tracking: Tracking) -> None:
        """Run one of ``SQL``'s statements and record ``tracking``, in one transaction (the
        batch's, if one is under way)."""
        batch = self._batch()
        if batch is not None:
            self._flush(batch)
            self._execute(batch.cursor, sql, params)
            self._track_in(batch, tracking)
            return
        with self._transaction(commit=True) as cursor:
            self._execute(cursor, sql, params)
            self._insert_tracking(cursor, tracking)

    def _select(self, sql: str, params: list[Any]) -> list[Any]:
        """The rows one of ``SQL``'s queries finds (in the batch under way, if any: it sees
        the batch's own changes)."""
        batch = self._batch()
        if batch is not None:
            self._flush(batch)
            self._execute(batch.cursor, sql, params)
            return list(batch.cursor.fetchall())
        with self._transaction(commit=False) as cursor:
            self._execute(cursor, sql, params)
            return list(cursor.fetchall())

    def track(self, tracking: Tracking) -> None:
        """Record ``tracking`` alone: its notification changes nothing here (in the batch
        under way, if any)."""
        batch = self._batch()
        if batch is None:
            self.insert_tracking(tracking)
        else:
            self._track_in(batch, tracking)

    def match_created(self, listed: ListedMatch, tracking: Tracking) -> None:
        """A match was created (its row, placed in the list by ``tracking``). In a batch the
        row is written with the batch's other new rows, at once (``_flush``)."""
        match_id = str(listed.match_id)
        row = [match_id, tracking.notification_id, listed.game, json.dumps(listed.players),
               _folded(listed.players), listed.created_at, listed.simulated]
        batch = self._batch()
        if batch is None:
            self._write(self.SQL.created, row, tracking)
            return
        if match_id in batch.created:  # created twice in one batch: the first written first
            self._flush(batch)
        batch.created[match_id] = row
        self._track_in(batch, tracking)

    def result_changed(self, match_id: UUID, result: dict[str, Any] | None,
                       tracking: Tracking) -> None:
        """A match ended (``result``) or was reopened (None). In a batch that created the
        match and has not written its row yet, the row is written with its result (one
        statement, not the creation's and the result's: issue 43)."""
        stored = json.dumps(result) if result else None
        batch = self._batch()
        if batch is not None and str(match_id) in batch.created:
            batch.results[str(match_id)] = stored
            self._track_in(batch, tracking)
            return
        self._write(self.SQL.result, [stored, str(match_id)], tracking)

    def table_closed(self, tournament_id: str, round_number: int, table: int,
                     winners: list[str], drawn: bool, tracking: Tracking) -> None:
        """A judge entered a table's result: its games still without a result of their own
        end in the list with it (``entered``), so the list says what the round says."""
        rows = self._select(self.SQL.table_games, [tournament_id, round_number, table])
        if not rows:
            self.track(tracking)
            return
        players = json.loads(rows[0]["seating"])["players"]
        seats = [n for n, p in enumerate(players, start=1) if p in winners]
        result = {"winners": seats, "losers": [n for n in range(1, len(players) + 1)
                                               if n not in seats],
                  "reason": "table_result_entered", "drawn": drawn, "entered": True}
        self._write(self.SQL.table_closed, [json.dumps(result), tournament_id, round_number,
                                            table], tracking)

    def match_seated(self, match_id: UUID, seating: dict[str, Any],
                     tracking: Tracking) -> None:
        """A match was seated at a tournament's table."""
        self._write(self.SQL.seated, [str(match_id), seating["tournament_id"],
                                      json.dumps(seating), seating["round"], seating["table"]],
                    tracking)

    def stream_added(self, match_id: str, kind: str, stream_id: UUID,
                     tracking: Tracking) -> None:
        """A stream of ``kind`` was started, listed under ``match_id`` ("" for a store-wide
        one) and placed by ``tracking``."""
        self._write(self.SQL.stream_added, [match_id, kind, str(stream_id),
                                            tracking.notification_id], tracking)

    def streams(self, match_id: str, kind: str) -> list[UUID]:
        """The ids of the streams of ``kind`` listed under ``match_id``, oldest first."""
        return [UUID(row["stream_id"]) for row in self._select(self.SQL.streams,
                                                                [match_id, kind])]

    def streams_by_kind(self, match_id: str) -> dict[str, list[UUID]]:
        """The ids of every stream listed under ``match_id``, by kind, oldest first: what
        ``streams`` reads for each kind, in one read."""
        found: dict[str, list[UUID]] = {}
        for row in self._select(self.SQL.streams_by_kind, [match_id]):
            found.setdefault(row["kind"], []).append(UUID(row["stream_id"]))
        return found

    def search(self, query: MatchQuery) -> list[ListedMatch]:
        """The matches ``query`` asks for, by creation time (a part of a name that is not
        printable is in no player's name)."""
        if query.player is not None and not query.player.isprintable():
            return []
        sql, params = self.SQL.search(query)
        limit = self.NO_LIMIT if query.limit is None else query.limit
        return [_listed(row) for row in self._select(sql, [*params, limit, query.offset])]

    def count(self, query: MatchQuery) -> int:
        """How many matches ``query``'s filters select (its offset and limit aside)."""
        if query.player is not None and not query.player.isprintable():
            return 0
        sql, params = self.SQL.count(query)
        return int(self._select(sql, params)[0]["total"])

    def ids_starting(self, prefix: str) -> list[UUID]:
        """The ids of the listed matches that start with ``prefix`` (lowercase hex and
        dashes, as ``replay.ids`` checks before asking)."""
        return [UUID(row["match_id"]) for row in self._select(self.SQL.prefixed,
                                                               [prefix + "%"])]


class SQLiteMatchListView(SQLiteTrackingRecorder, MatchListView):
    """The match list in the embedded SQLite store, beside the events."""

    SQL = _Statements("?", "instr", "INTEGER", "TEXT")
    NO_LIMIT = -1

    def construct_create_table_statements(self) -> list[str]:
        """The library's tracking table, and the list's table and indexes."""
        return [*super().construct_create_table_statements(),
                *(s.format(t=TABLE, s=STREAMS, by_time=f"{TABLE}_by_time",
                           by_seating=f"{TABLE}_by_seating") for s in self.SQL.create)]

    def _transaction(self, commit: bool) -> AbstractContextManager[Any]:
        return self.datastore.transaction(commit=commit)

    def _execute(self, cursor: Any, sql: str, params: list[Any]) -> None:
        cursor.execute(sql.format(t=TABLE, s=STREAMS), params)

    def _execute_many(self, cursor: Any, sql: str, rows: list[list[Any]]) -> None:
        cursor.executemany(sql.format(t=TABLE, s=STREAMS), rows)


class ReadModel(Projection[MatchListView]):
    """A projection into the match list's view, kept in step by ``KeptInStep``."""

    def read(self, notification: Notification, mapper: Mapper[UUID]) -> Any:
        """What ``process_event`` is given for ``notification``: its domain event."""
        return mapper.to_domain_event(notification)


def _listed_creation(match_id: UUID, game: str, players: list[str], recorded_at: str,
                     recorded_by: Any) -> ListedMatch:
    """The list's row of a match just created."""
    return ListedMatch(match_id, game, players, recorded_at, None, recorded_by == SIMULATOR,
                       None)


@dataclass(frozen=True)
class ListedEnd:
    """What the list reads of a match's end (read in part: ``MatchListProjection.read``)."""

    match_id: UUID
    result: dict[str, Any]


def _result(fields: Any) -> dict[str, Any]:
    """A match's result as the list shows it, from its end's fields (or the event)."""
    return {"winners": fields["winners"], "losers": fields["losers"],
            "reason": fields["reason"], "drawn": fields["drawn"]}


class MatchListProjection(ReadModel):
    """The events that change the match list, and what each changes."""

    name = "match_list"
    topics = (MATCH_TOPICS["created"], MATCH_TOPICS["ended"], MATCH_TOPICS["reopened"],
              MATCH_SEATED, TABLE_RESULT_ENTERED)
    # what the list reads of the events it reads in part (``read``), by topic: of a match's
    # creation not its decks, its options and the definitions of its cards (most of the
    # bytes stored), of its end not its detail, its hash and its times (issue 43)
    IN_PART: dict[str, Wanted] = {
        MATCH_TOPICS["created"]: {"game": None, "config": {"players": None},
                                  "recorded_by": None, "recorded_at": None},
        MATCH_TOPICS["ended"]: {"winners": None, "losers": None, "reason": None,
                                "drawn": None},
    }

    def read(self, notification: Notification, mapper: Mapper[UUID]) -> Any:
        """A match's creation as the row it lists (``ListedMatch``), its end as the result
        it lists (``ListedEnd``), only the fields the list shows read
        (``MatchMapper.fields_of``: issue 43, decoding each creation's card set was most of
        a first list read after thousands of matches); every other event whole."""
        wanted = self.IN_PART.get(notification.topic)
        fields = (mapper.fields_of(notification, wanted)
                  if wanted is not None and isinstance(mapper, MatchMapper) else None)
        if fields is None:
            return mapper.to_domain_event(notification)
        match_id = notification.originator_id
        match_id = match_id if isinstance(match_id, UUID) else UUID(match_id)
        if notification.topic == MATCH_TOPICS["ended"]:
            return ListedEnd(match_id, _result(fields))
        return _listed_creation(match_id, fields["game"], list(fields["config"]["players"]),
                                fields["recorded_at"], fields["recorded_by"])

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """A tournament's event the list follows, found by its topic (the list does not
        import the tournament's module for its class); else an event the list ignores: only
        its tracking is recorded."""
        topic = getattr(domain_event, "TOPIC", None)
        if topic == MATCH_SEATED:
            self._seated(domain_event, tracking)
        elif topic == TABLE_RESULT_ENTERED:
            self._table_result(domain_event, tracking)
        else:
            self.view.track(tracking)

    @process_event.register
    def _created(self, event: Match.Created, tracking: Tracking) -> None:
        self.view.match_created(_listed_creation(
            event.originator_id, event.game, list(event.config["players"]), event.recorded_at,
            event.recorded_by), tracking)

    @process_event.register
    def _created_read_in_part(self, event: ListedMatch, tracking: Tracking) -> None:
        self.view.match_created(event, tracking)

    @process_event.register
    def _ended(self, event: Match.Ended, tracking: Tracking) -> None:
        self.view.result_changed(event.originator_id, _result(vars(event)), tracking)

    @process_event.register
    def _ended_read_in_part(self, event: ListedEnd, tracking: Tracking) -> None:
        self.view.result_changed(event.match_id, event.result, tracking)

    @process_event.register
    def _reopened(self, event: Match.Reopened, tracking: Tracking) -> None:
        self.view.result_changed(event.originator_id, None, tracking)

    def _seated(self, event: Seating.Created, tracking: Tracking) -> None:
        self.view.match_seated(UUID(event.match_id), {
            "tournament_id": event.tournament_id, "tournament": event.tournament,
            "round": event.round, "table": event.table, "game": event.game,
            "players": list(event.players)}, tracking)

    def _table_result(self, event: Tournament.ResultEntered, tracking: Tracking) -> None:
        self.view.table_closed(str(event.originator_id), event.round, event.table,
                               list(event.winners), event.drawn, tracking)


class StreamsProjection(ReadModel):
    """The events that start a stream that a list finds (``STREAM_KINDS``)."""

    name = STREAMS
    kinds = STREAM_KINDS
    topics = tuple(STREAM_KINDS)

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """A stream started: its row under its kind, and its match where it is listed by
        one."""
        kind, by_match = self.kinds[domain_event.TOPIC]
        self.view.stream_added(domain_event.match_id if by_match else "", kind,
                               domain_event.originator_id, tracking)


class DisputesProjection(StreamsProjection):
    """The disputes opened, store-wide (``DISPUTE_KINDS``)."""

    name = "disputes"
    kinds = DISPUTE_KINDS
    topics = tuple(DISPUTE_KINDS)


def settled_head(recorder: Any) -> int:
    """The highest notification id up to which every notification is committed or never
    will be (0 for an empty log): notifications become visible in id order on SQLite, where
    one writer commits at a time, but not on PostgreSQL, where writers insert side by side."""
    settled = getattr(recorder, "settled_notification_id", None)  # ledger.pgwriters
    if settled is not None:
        return int(settled())
    return int(recorder.max_notification_id() or 0)


class KeptInStep:
    """A read model of an application (the Recorder): a projection into its view, brought up
    to date before each read, its position tracked under ``tracking_name``."""

    def __init__(self, app: Any, projection: ReadModel,
                 tracking_name: str) -> None:
        self.app = app
        self.projection = projection
        self.tracking_name = tracking_name
        self._catching_up = threading.Lock()

    @property
    def view(self) -> MatchListView:
        """The table the read model is read from."""
        return self.projection.view

    def catch_up(self) -> None:
        """Process every event of the projection's topics stored since the view's position
        (a page of them and their tracking in one transaction). Another server
        catching up at the same moment may record some of them first: its tracking then
        refuses ours, the page is rolled back whole, and this picks up after its position."""
        with self._catching_up:
            head = settled_head(self.app.recorder)
            while True:
                done = self.view.max_tracking_id(self.tracking_name) or 0
                if done >= head:
                    return
                try:
                    self._process(done, head)
                    return
                except IntegrityError:
                    continue

    def _process(self, done: int, head: int) -> None:
        """Process the notifications after ``done`` up to ``head``, a page of them in each
        transaction (``MatchListView.batch``): one commit per notification was most of a
        first read after thousands of matches were stored (issue 43)."""
        last = done
        while True:
            page = self.app.recorder.select_notifications(
                last + 1, PAGE, stop=head, topics=self.projection.topics)
            # a read model never shows commitments: read as stored
            mapper = self.app.repository.event_store.mapper
            with self.view.batch():
                for notification in page:
                    self.projection.process_event(self.projection.read(notification, mapper),
                                                  Tracking(self.tracking_name, notification.id))
            if page:
                last = page[-1].id
            if len(page) < PAGE:
                break
        if head - last >= SKIP_AHEAD:
            self.view.insert_tracking(Tracking(self.tracking_name, head))


class MatchList(KeptInStep):
    """The match list, tracked under the application's name (as it was before the streams
    beside the matches had a read model of their own)."""

    def __init__(self, app: Any, view: MatchListView) -> None:
        super().__init__(app, MatchListProjection(view), app.name)

    def search(self, query: MatchQuery) -> list[ListedMatch]:
        """The matches ``query`` asks for, as of now."""
        self.catch_up()
        return self.view.search(query)

    def page(self, query: MatchQuery) -> MatchPage:
        """The page of matches ``query`` asks for and how many its filters select, as of
        now (one catch-up for both)."""
        self.catch_up()
        return MatchPage(self.view.search(query), self.view.count(query))

    def ids_starting(self, prefix: str) -> list[UUID]:
        """The ids of the matches that start with ``prefix``, as of now."""
        self.catch_up()
        return self.view.ids_starting(prefix)


class Streams(KeptInStep):
    """The streams that lists find, in the match list's view, tracked apart (each projection
    under its own name: ``StreamsProjection``, ``DisputesProjection``)."""

    def __init__(self, app: Any, projection: StreamsProjection) -> None:
        super().__init__(app, projection, f"{app.name}.{projection.name}")

    def of_match(self, match_id: UUID, kind: str) -> list[UUID]:
        """The ids of the match's streams of ``kind`` (``annotation``, ``variation``), oldest
        first, as of now."""
        self.catch_up()
        return self.view.streams(str(match_id), kind)

    def kinds_of_match(self, match_id: UUID, *, catch_up: bool = True) -> dict[str, list[UUID]]:
        """The ids of every stream of the match, by kind, oldest first, in one read: as of
        now, or, without ``catch_up``, as of the caller's own last ``catch_up`` (a reader of
        every match, such as ``audit verify``, brings the view up to date once for all)."""
        if catch_up:
            self.catch_up()
        return self.view.streams_by_kind(str(match_id))

    def every(self, kind: str) -> list[UUID]:
        """The ids of every store-wide stream of ``kind`` (``tournament``, ``credential``,
        ``dispute``), oldest first, as of now."""
        self.catch_up()
        return self.view.streams("", kind)
