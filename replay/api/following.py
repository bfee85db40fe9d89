"""Who follows which match live (``GET /matches/{id}/live``), and what tells them it moved.

One ``Following`` per server process keeps, for each match someone follows, the latest version
it knows of, and wakes that match's streams when it moves. Nothing polls a match: the store
itself says when it was written to, and only then is anything read (issue 43). It learns it
from these sources:

- an action or an undo recorded through this process tells it at once (``moved``);
- on PostgreSQL, the database's own notifications: the insert of events sends
  ``pg_notify(<the library's channel>, '<match> <version>')`` in its transaction
  (``ledger.pgwriters``), and one asyncio task per process, on one connection of its own,
  ``LISTEN``s and notes each. Every server on the database hears every append of every
  other, at commit, whatever recorded it (an action, an undo, a dispute's pause, a reopening);
- on an SQLite file, written by other worker processes too: ``PRAGMA data_version`` on a
  connection of its own, asked on the event loop every ``CHANGE_EVERY`` seconds. It changes
  when any other connection commits to the file and costs no read of the file (SQLite keeps
  it in the shared WAL index); only when it changed is the notification log read from where
  the last reading stopped (the library's ``select_notifications``, one indexed range read),
  and each match it names at its latest version noted. SQLite has no notification between
  processes, so this tick is the cheapest push there is: a few microseconds of the loop,
  nothing on the thread pool while nothing is written;
- on an in-memory store (one process only, tests and demos), one look at the store every
  ``CHECK_EVERY`` seconds for the followed matches, for what this process recorded by other
  means than an action.

A match followed anew is looked at once (one indexed read, batched with others followed
meanwhile), so that an append landing between a stream's first reading and its joining is
never missed; a source that (re)starts looks at every followed match once, after it listens.
No source runs while nobody follows anything.

A woken stream works out where the match stands for its caller once per match version and
caller (``stand``): every anonymous spectator of a match shares one reading. A stream that
waits for a change holds no thread and reads nothing.

A woken stream first lets its process finish the requests it has in hand (``idle``, counted
by ``InHand``): a seat's action waits for no watcher's work, a watcher waits at most
``YIELD_AT_MOST`` for the seats. The streams' work is no less; it moves to the moments the
process would otherwise idle (issue 43: with 2,000 watchers on 200 tables, the tables' p99
had doubled; bench/RESULTS.md, tenth round).
"""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
from collections.abc import AsyncIterator, Callable, Hashable, Sequence
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable
from uuid import UUID

from eventsourcing.sqlite import SQLiteApplicationRecorder
from starlette.concurrency import run_in_threadpool
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from ledger.compactrows import log_statement, stream_id
from replay.service import Kiroku

T = TypeVar("T")
CHECK_EVERY = 0.5  # seconds between two looks at an in-memory store for the followed matches
CHANGE_EVERY = 0.02  # seconds between two asks of an SQLite file whether it was written to
START_AGAIN_AFTER = 1.0  # seconds before a failed source (a lost listener) starts again
LOG_PAGE = 1000  # notifications read at once from the SQLite log
# seconds at most a woken stream waits for its process to finish the requests in hand: well
# within the 200 ms a watcher may wait for an action (issue 43), and more than a request takes
YIELD_AT_MOST = 0.05

_log = logging.getLogger("uvicorn.error")


@runtime_checkable
class _Notifying(Protocol):
    """A store that notifies its appends (``ledger.pgwriters.ManyWritersRecorder``, named
    by what it does so that a store on an SQLite file never imports the PostgreSQL driver)."""

    async def listen(self, heard: Callable[[str], None], listening: Callable[[], None],
                     still: Callable[[], bool]) -> None:
        """Tell ``heard`` each append's ``'<aggregate> <version>'`` while ``still`` holds."""


@dataclass
class _Followed:
    """A followed match: the latest version known, the streams following it, the waits it
    ends when it moves, and each caller's reading of it as of a version."""

    version: int
    streams: int = 0
    waiting: set[asyncio.Future[None]] = field(default_factory=set)
    stands: dict[Hashable, tuple[int, asyncio.Future[Any]]] = field(default_factory=dict)


class Watch:
    """One live stream's wait: for its match to move past what the stream told last, or for
    the stream's own alarm (a keep-alive, a credential's check or its end is due). The alarm
    is one timer, set again only when its time changes, not a timeout set and cancelled for
    every wait (issue 43; the CPU a delivery costs did not measurably change with it:
    bench/RESULTS.md, fourth round)."""

    def __init__(self, followed: _Followed) -> None:
        self._followed = followed
        self._loop = asyncio.get_running_loop()
        self._waiter: asyncio.Future[None] | None = None
        self._alarm: asyncio.TimerHandle | None = None
        self._alarm_at = math.inf
        self._rang = False

    def alarm_at(self, when: float) -> None:
        """Ring at ``when`` (the loop's clock, ``loop.time()``) instead of any time set
        before."""
        if when == self._alarm_at:
            return
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm_at = when
        self._alarm = self._loop.call_at(when, self._ring)

    def close(self) -> None:
        """No alarm any more (the stream ends)."""
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm, self._alarm_at = None, math.inf

    def _ring(self) -> None:
        self._alarm, self._alarm_at, self._rang = None, math.inf, True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            self._followed.waiting.discard(waiter)
            waiter.set_result(None)

    async def moved_past(self, version: int) -> bool:
        """Whether the match is known to stand past ``version``, waiting for it to move
        there until the alarm rings (then False, unless it moved meanwhile)."""
        followed = self._followed
        if followed.version <= version and not self._rang:
            waiter = self._waiter = self._loop.create_future()
            followed.waiting.add(waiter)
            try:
                await waiter
            finally:
                followed.waiting.discard(waiter)
                self._waiter = None
        self._rang = False
        return followed.version > version


class Following:
    """The followed matches of one server process (see the module)."""

    def __init__(self, kiroku: Kiroku, check_every: float = CHECK_EVERY,
                 change_every: float = CHANGE_EVERY) -> None:
        self.kiroku = kiroku
        self.check_every = check_every
        self.change_every = change_every
        self._followed: dict[UUID, _Followed] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watching: asyncio.Task[None] | None = None
        self._to_look: set[UUID] = set()
        self._looking: asyncio.Task[None] | None = None
        self._in_hand = 0  # requests this process serves now, live streams apart (``InHand``)
        self._idle: tuple[asyncio.Future[None], asyncio.TimerHandle] | None = None

    @asynccontextmanager
    async def follow(self, match_id: UUID, version: int) -> AsyncIterator[None]:
        """Follow ``match_id``, known to stand at ``version`` at least, while in the block."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # an application served again on another loop (tests)
            self._loop, self._followed, self._watching, self._looking = loop, {}, None, None
            self._to_look = set()
        followed = self._followed.get(match_id)
        if followed is None:
            followed = self._followed[match_id] = _Followed(version)
            self._look_at(match_id)  # what landed since the caller's reading
        followed.streams += 1
        self._note(match_id, version)
        if self._watching is None or self._watching.done():
            self._watching = loop.create_task(self._watch())
        try:
            yield
        finally:
            followed.streams -= 1
            if followed.streams == 0 and self._followed.get(match_id) is followed:
                del self._followed[match_id]

    def version(self, match_id: UUID) -> int:
        """The latest version of a followed match known here."""
        return self._followed[match_id].version

    def watch(self, match_id: UUID) -> Watch:
        """A stream's wait for a match it follows (``follow``) to move."""
        return Watch(self._followed[match_id])

    async def moved_past(self, match_id: UUID, version: int, timeout: float) -> bool:
        """Whether a followed match is known to stand past ``version``, waiting up to
        ``timeout`` seconds for it to move there."""
        watch = self.watch(match_id)
        watch.alarm_at(asyncio.get_running_loop().time() + max(timeout, 0.0))
        try:
            return await watch.moved_past(version)
        finally:
            watch.close()

    def moved(self, match_id: UUID, version: int) -> None:
        """A match was recorded at ``version`` by this process (from any thread): its
        streams wake now, not when the store's own word of it arrives."""
        loop = self._loop
        if match_id in self._followed and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._note, match_id, version)

    async def idle(self) -> None:
        """Return once this process serves no request (live streams apart), or after
        ``YIELD_AT_MOST`` seconds at most: what a woken stream waits for before it works, so
        that the seats' requests go first. The streams that wait meanwhile share one wait
        (one future, one timer), and all go at the first one's time at the latest."""
        if self._in_hand == 0:
            return
        loop = asyncio.get_running_loop()
        idle = self._idle
        if idle is None or idle[0].done() or idle[0].get_loop() is not loop:
            done = loop.create_future()
            idle = self._idle = (done, loop.call_later(YIELD_AT_MOST, _let_go, done))
        await asyncio.shield(idle[0])  # a stream that leaves meanwhile ends no other's wait

    def began(self) -> None:
        """A request (not a live stream) began in this process (``InHand``)."""
        self._in_hand += 1

    def ended(self) -> None:
        """A request ``began`` ended; the streams waiting for ``idle`` go once none is left."""
        self._in_hand -= 1
        if self._in_hand == 0 and self._idle is not None:
            (done, alarm), self._idle = self._idle, None
            alarm.cancel()
            _let_go(done)

    async def stand(self, match_id: UUID, caller: Hashable,
                    read: Callable[[], tuple[T, int]]) -> T:
        """Where a followed match stands for ``caller``, as ``read`` (run on the thread pool)
        works it out, with the match's version it read; read once per version known here and
        caller, and shared by every stream of that caller."""
        followed = self._followed[match_id]
        known = followed.stands.get(caller)
        if known is None or known[0] != followed.version:
            known = followed.stands[caller] = (followed.version,
                                               asyncio.ensure_future(run_in_threadpool(read)))
        reading = known[1]
        # read already (every stream but the first of a caller): no shield to wait through
        stand, version = reading.result() if reading.done() else await asyncio.shield(reading)
        self._note(match_id, version)
        return stand  # type: ignore[no-any-return]

    def _note(self, match_id: UUID, version: int) -> None:
        """Learn that a followed match stands at ``version``; its streams wake if it moved."""
        followed = self._followed.get(match_id)
        if followed is None or version <= followed.version:
            return
        followed.version = version
        waiting, followed.waiting = followed.waiting, set()
        for waiter in waiting:
            if not waiter.done():
                waiter.set_result(None)

    def _heard(self, payload: str) -> None:
        """A notification's ``'<match> <version>'``, noted (anything else is ignored: the
        library's own payload-less ``NOTIFY`` on the channel, another store's)."""
        match_text, _, version_text = payload.partition(" ")
        try:
            self._note(UUID(match_text), int(version_text))
        except ValueError:
            return

    # ----- looking at the store for given matches --------------------------------------------
    def _look_at(self, *match_ids: UUID) -> None:
        """Read the latest stored versions of these followed matches soon (one hop to the
        thread pool for every match asked for meanwhile)."""
        self._to_look.update(match_ids)
        if self._looking is None or self._looking.done():
            self._looking = asyncio.get_running_loop().create_task(self._look())

    async def _look(self) -> None:
        while self._to_look:
            known = {match_id: self._followed[match_id].version
                     for match_id in self._to_look if match_id in self._followed}
            self._to_look = set()
            try:
                latest = await run_in_threadpool(_stored_versions, self.kiroku, known)
            except Exception:  # the store unreachable for now: the next look tries again
                _log.warning("live streams: the store could not be read", exc_info=True)
                self._to_look.update(known)
                await asyncio.sleep(self.check_every)
                continue
            for match_id, version in latest.items():
                self._note(match_id, version)

    # ----- the store's word that it was written to -------------------------------------------
    async def _watch(self) -> None:
        """While anything is followed, what the store says of its appends (see the module);
        a source that fails (the database unreachable, the file unreadable) starts again a
        second later, looking at every followed match once it is back."""
        recorder = self.kiroku.recorder.recorder
        while self._followed:
            try:
                if isinstance(recorder, _Notifying):
                    await recorder.listen(self._heard, lambda: self._look_at(*self._followed),
                                          lambda: bool(self._followed))
                elif (isinstance(recorder, SQLiteApplicationRecorder)
                      and not recorder.datastore.pool.is_sqlite_memory_mode):
                    await self._tail_sqlite(recorder, recorder.datastore.pool.db_name)
                else:
                    await self._look_every_tick()
            except Exception:
                _log.warning("live streams: not hearing from the store for now",
                             exc_info=True)
                await asyncio.sleep(START_AGAIN_AFTER)

    async def _tail_sqlite(self, recorder: SQLiteApplicationRecorder, path: str) -> None:
        """An SQLite file: the notification log read past where it was last read whenever
        the file's ``data_version`` changed (see the module)."""
        with closing(await run_in_threadpool(_data_version_connection, path)) as changes:
            seen = _data_version(changes)
            head = await run_in_threadpool(recorder.max_notification_id)
            self._look_at(*self._followed)  # what was appended before the tail began
            while self._followed:
                await asyncio.sleep(self.change_every)
                try:
                    now = _data_version(changes)
                except sqlite3.OperationalError:  # busy for now: the next tick asks again
                    continue
                if now == seen:
                    continue
                try:
                    head, latest = _log_since(changes, recorder.events_table_name, head)
                except sqlite3.OperationalError as exc:
                    if _busy(exc):  # the next tick reads again, from the same head
                        continue
                    raise  # the source starts again (``_watch``)
                seen = now  # once read: a failed read is retried from the same head
                for match_id, version in latest.items():
                    self._note(match_id, version)

    async def _look_every_tick(self) -> None:
        """An in-memory store: every followed match looked at every ``check_every`` s."""
        while self._followed:
            await asyncio.sleep(self.check_every)
            self._look_at(*self._followed)


def _let_go(done: asyncio.Future[None]) -> None:
    """End a shared wait for ``Following.idle`` (not one of a loop closed since: tests)."""
    if not done.done() and not done.get_loop().is_closed():
        done.set_result(None)


class InHand:
    """Pure ASGI middleware counting the HTTP requests its process serves now for
    ``Following.idle``, those that ``apart``'s routes answer left out: the live streams
    (``replay.api.live``), which last as long as their watcher stays. A request is told
    apart by the routes' own matching (their path and method, under any root path), so
    the routes' paths are written once, in their router."""

    def __init__(self, app: ASGIApp, following: Following, apart: Sequence[BaseRoute]) -> None:
        self.app = app
        self.following = following
        self.apart = tuple(apart)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request, counted while it is served."""
        if scope["type"] != "http" or any(route.matches(scope)[0] == Match.FULL
                                          for route in self.apart):
            await self.app(scope, receive, send)
            return
        self.following.began()
        try:
            await self.app(scope, receive, send)
        finally:
            self.following.ended()


def _data_version_connection(path: str) -> sqlite3.Connection:
    """A connection of its own to the file, asked its ``data_version`` (SQLite counts there
    the commits of every connection but the one asking) and, when that changed, the log
    past where it last read (``_log_since``)."""
    # it never waits for a lock: on the event loop, a busy file is asked again next tick
    return sqlite3.connect(path, timeout=0, check_same_thread=False, isolation_level=None)


def _data_version(connection: sqlite3.Connection) -> int:
    row = connection.execute("PRAGMA data_version").fetchone()
    return int(row[0])


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused a read only because another connection holds a lock for now
    (a new connection recovering the WAL after a crash, one in exclusive locking mode):
    what the tail's connection, which never waits, meets where the library's would have
    waited out its busy timeout."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _log_since(changes: sqlite3.Connection, table: str,
               head: int) -> tuple[int, dict[UUID, int]]:
    """The notification log of an SQLite file past ``head``, read on the tail's own
    connection: its new head, and the latest version of each aggregate appended there.

    It reads what the library's ``select_notifications`` reads (the events table by its
    ``rowid``, which is the notification id) but only the ids and versions, not each event's
    state, and on the event loop: the library's read takes a connection of the recorder's
    pool, so a hand-over to the thread pool at every tick that found a write, up to 50 a
    second in each worker (issue 43)."""
    latest: dict[UUID, int] = {}
    while True:
        page = changes.execute(log_statement(table), (head, LOG_PAGE)).fetchall()
        for notification_id, originator_id, version in page:
            head = max(head, notification_id)
            match_id = stream_id(originator_id)
            latest[match_id] = max(latest.get(match_id, 0), version)
        if len(page) < LOG_PAGE:
            return head, latest


def _stored_versions(kiroku: Kiroku, known: dict[UUID, int]) -> dict[UUID, int]:
    """The latest stored version of each match in ``known`` that the store holds past the
    version given (one indexed read each: none when nothing was stored since)."""
    found = {}
    for match_id, version in known.items():
        newer = kiroku.recorder.recorder.select_events(match_id, gt=version, desc=True,
                                                        limit=1)
        if newer:
            found[match_id] = newer[0].originator_version
    return found
