"""Heavy reads: a match's events, transcript, export, study and audit. On a long match each
takes a quarter of a second to seconds of one core (a 1,500-event match's audit 0.8 s, its
transcript 1.7 s), and four anonymous loops asking for one audit once cut a seat's recording
by 94% (issue 41). Three bounds keep them behind recording:

- **Kept answers.** An answer read from the match's events alone is kept per match version
  and audience (``Audience.sight``: the viewer, what it is shown, its horizon) and format, in
  a bounded LRU, for at most ``KEPT_FOR`` seconds: asking again about an unchanged match costs
  loading its audience (the version check), not the work. Never by caller or match alone: a
  seat's transcript is never a spectator's.
- **One heavy computation at a time** in a server process (``AT_ONCE``), on a thread of its
  own rather than one of the pool's, so a seat's action always finds a thread free; a read
  that cannot start within ``LONGEST_WAIT`` is answered 503 ``server_busy``.
- **Each caller's share.** A caller (its credential; without one, its address) has one heavy
  read at a time, and its heavy reads, kept answers included, take at most ``CALLER_SHARE``
  of the server's time: a read that took t seconds moves the caller's next one t /
  CALLER_SHARE later, beyond a burst of ``CALLER_BURST`` seconds (the generic cell rate
  algorithm, charged with the time each read took). The wait is on the event loop, holding no
  thread; a read that would wait longer than ``LONGEST_WAIT`` waits that long and is answered
  429 ``rate_limited``, so that a client asking again at once is slowed down as well. Both
  refusals carry ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import AsyncIterator, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from eventsourcing.application import LRUCache
from fastapi import Depends, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from replay.access import Caller
from replay.api.wire import MSGPACK

T = TypeVar("T")

KEPT_ANSWERS = 64  # answers kept per server process: a 1,500-event match's events are 1.4 MiB
KEPT_FOR = 60.0  # seconds an answer is kept at most: a store changed behind the server shows
AT_ONCE = 1  # heavy computations at once per server process
LONGEST_WAIT = 10.0  # seconds a heavy read waits for its turn at most
CALLER_SHARE = 0.05  # of the server's time, a caller's heavy reads over time
CALLER_BURST = 1.0  # seconds of work a caller may have done ahead of its share
REQUEST_COST = 0.001  # seconds of HTTP work around each read (parsing, routing), charged too
CALLERS_KEPT = 4096  # callers' paces kept before those paid up are dropped
# an answer is kept only with no header beyond these: a kept one is sent with these alone
PLAIN_HEADERS = frozenset({b"content-length", b"content-type"})


class Busy(Exception):
    """A heavy read refused for now: 429 ``rate_limited`` or 503 ``server_busy``, with the
    seconds after which to ask again (``Retry-After``)."""

    def __init__(self, status: int, code: str, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = max(1, math.ceil(retry_after))


def rate_limited(wait: float) -> Busy:
    """The refusal of a caller whose heavy reads have taken their share of the server."""
    return Busy(429, "rate_limited", "Your reads of whole matches (events, transcripts, "
                "exports, studies, audits) have taken their share of this server for now; "
                f"ask again in {max(1, math.ceil(wait))} s.", wait)


def server_busy(wait: float) -> Busy:
    """The refusal of a heavy read that found no place within ``wait`` seconds."""
    return Busy(503, "server_busy", "This server is busy reading other whole matches; ask "
                "again in a moment. Recording is not affected.", wait)


@dataclass(frozen=True)
class KeptAnswer:
    """An answer as it was sent: its body, status and media type."""

    body: bytes
    status: int
    media_type: str | None

    def response(self) -> Response:
        """The answer again, byte for byte."""
        return Response(self.body, self.status, media_type=self.media_type)


@dataclass
class _Pace:
    """One caller's: when its heavy reads so far are paid for (the cell rate algorithm's
    theoretical arrival time), and its one read at a time."""

    due: float = 0.0
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class _OnLoop:
    """What waits on the server's event loop: the heavy computations' places, their
    threads, and each caller's pace."""

    loop: asyncio.AbstractEventLoop
    places: asyncio.Semaphore
    threads: anyio.CapacityLimiter
    paces: dict[Hashable, _Pace]


class HeavyReads:
    """The kept answers and the bounds of one server process (see the module)."""

    def __init__(self, *, at_once: int = AT_ONCE, longest_wait: float = LONGEST_WAIT,
                 share: float = CALLER_SHARE, burst: float = CALLER_BURST,
                 kept: int = KEPT_ANSWERS, kept_for: float = KEPT_FOR) -> None:
        self.at_once = at_once
        self.longest_wait = longest_wait
        self.share = share
        self.burst = burst
        self.kept_for = kept_for
        self._kept: LRUCache[Hashable, tuple[float, Any]] = LRUCache(kept)
        self._on_loop: _OnLoop | None = None

    def kept(self, key: Hashable) -> Any | None:
        """What is kept under ``key`` and not too old, else None."""
        try:
            stored_at, value = self._kept.get(key)
        except KeyError:
            return None
        return value if time.monotonic() - stored_at < self.kept_for else None

    def keep(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key`` (never changed afterwards: readers share it)."""
        self._kept.put(key, (time.monotonic(), value))

    @asynccontextmanager
    async def turn(self, request: Request, caller: Caller) -> AsyncIterator[Turn]:
        """The caller's turn for one heavy read, once its earlier read has ended and its
        reads are within their share (Busy 429 after ``longest_wait`` if that is further
        away); the time the turn's work took is charged to the caller when it ends."""
        here = self._here()
        pace = self._pace(here, _caller_key(request, caller))
        deadline = time.monotonic() + self.longest_wait
        try:
            async with asyncio.timeout(self.longest_wait):
                await pace.turn.acquire()
        except TimeoutError:
            raise rate_limited(max(pace.due - self.burst - time.monotonic(), 1.0)) from None
        try:
            wait = pace.due - self.burst - time.monotonic()
            if wait > 0:
                # held even when refused, so that a client asking again at once is slowed
                # down too: a refusal answered at once would be a loop's next request
                await asyncio.sleep(min(wait, deadline - time.monotonic()))
                if time.monotonic() < pace.due - self.burst:
                    raise rate_limited(pace.due - self.burst - time.monotonic())
            turn = Turn(self, here, request)
            started = time.monotonic()
            try:
                yield turn
            finally:
                pace.due = max(pace.due, started) + (turn.spent + REQUEST_COST) / self.share
        finally:
            pace.turn.release()

    def _here(self) -> _OnLoop:
        """The waiting places of the running event loop (made anew for another loop: an
        application served again in one process, as tests do)."""
        loop = asyncio.get_running_loop()
        if self._on_loop is None or self._on_loop.loop is not loop:
            self._on_loop = _OnLoop(loop, asyncio.Semaphore(self.at_once),
                                    anyio.CapacityLimiter(self.at_once), {})
        return self._on_loop

    def _pace(self, here: _OnLoop, key: Hashable) -> _Pace:
        pace = here.paces.get(key)
        if pace is None:
            if len(here.paces) >= CALLERS_KEPT:
                now = time.monotonic()
                for old in [k for k, p in here.paces.items()
                            if p.due < now and not p.turn.locked()]:
                    del here.paces[old]
            pace = here.paces[key] = _Pace()
        return pace


class Turn:
    """One heavy read of one caller: its work on threads, timed (the caller is charged it),
    and its answers kept or made."""

    def __init__(self, reads: HeavyReads, here: _OnLoop, request: Request) -> None:
        self.reads = reads
        self.here = here
        self.request = request
        self.spent = 0.0  # seconds its work took on threads

    async def light(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` on the thread pool, as any route's work: what a heavy read does
        before it knows whether its answer is kept (loading the audience)."""
        return await run_in_threadpool(self._timed, work, *args)

    async def heavy(self, work: Callable[[], T]) -> T:
        """``work()`` on the heavy reads' own thread, once one of their places is free
        (Busy 503 if none is within ``longest_wait``)."""
        try:
            async with asyncio.timeout(self.reads.longest_wait):
                await self.here.places.acquire()
        except TimeoutError:
            raise server_busy(self.reads.longest_wait) from None
        try:
            return await anyio.to_thread.run_sync(self._timed, work,
                                                  limiter=self.here.threads)
        finally:
            self.here.places.release()

    async def answer(self, key: Hashable, make: Callable[[], Response]) -> Response:
        """The answer kept under ``key`` in the format the request accepts, or ``make()``'s,
        made as a heavy computation and kept when it is a plain 200."""
        key = (key, MSGPACK in self.request.headers.get("accept", ""))
        kept = self.reads.kept(key)
        if isinstance(kept, KeptAnswer):
            return kept.response()
        return await self.heavy(lambda: self._made(key, make))

    async def value(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value kept under ``key``, or ``make()``'s, made as a heavy computation and
        kept (shared by every reader from then on: never change it)."""
        kept = self.reads.kept(key)
        if kept is not None:
            return kept  # type: ignore[no-any-return]
        return await self.heavy(lambda: self._made_value(key, make))

    def _made(self, key: Hashable, make: Callable[[], Response]) -> Response:
        again = self.reads.kept(key)  # made by a read that had the place before this one
        if isinstance(again, KeptAnswer):
            return again.response()
        response = make()
        if response.status_code == 200 and {name for name, _ in response.raw_headers} <= (
                PLAIN_HEADERS):
            self.reads.keep(key, KeptAnswer(bytes(response.body), response.status_code,
                                            response.media_type))
        return response

    def _made_value(self, key: Hashable, make: Callable[[], T]) -> T:
        again = self.reads.kept(key)
        if again is not None:
            return again  # type: ignore[no-any-return]
        value = make()
        self.reads.keep(key, value)
        return value

    def _timed(self, work: Callable[..., T], *args: Any) -> T:
        started = time.perf_counter()
        try:
            return work(*args)
        finally:
            self.spent += time.perf_counter() - started


def _caller_key(request: Request, caller: Caller) -> Hashable:
    """Whose share a read is: the credential's, else the client address's."""
    if caller is not None:
        return ("credential", caller.credential_id)
    return ("address", request.client.host if request.client else "")


class HeavyShareSettingError(ValueError):
    """KIROKU_HEAVY_SHARE is not a share of the server's time."""


def caller_share() -> float:
    """The share of the server's time a caller's heavy reads may take: ``KIROKU_HEAVY_SHARE``
    (above 0, at most 1), else ``CALLER_SHARE``. A deployment whose callers are all its own
    (a judges' tool reading every channel of many matches, a test suite) may give them the
    whole server; the heavy computations still run one at a time outside the pool."""
    raw = os.environ.get("KIROKU_HEAVY_SHARE")
    if raw is None:
        return CALLER_SHARE
    try:
        share = float(raw)
    except ValueError:
        share = 0.0
    if not 0 < share <= 1:
        raise HeavyShareSettingError(f"KIROKU_HEAVY_SHARE is the share of the server's time "
                                     f"a caller's heavy reads may take, above 0 and at most "
                                     f"1, not {raw!r}.")
    return share


async def heavy_reads(request: Request) -> HeavyReads:
    """The application's heavy reads."""
    reads: HeavyReads = request.app.state.heavy
    return reads


HeavyDep = Annotated[HeavyReads, Depends(heavy_reads)]
