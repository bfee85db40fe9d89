"""Who follows which match live (``GET /matches/{id}/live``), and what tells them it moved.

Each stream used to look at its match every half second through the thread pool, reading
the store each time: 300 anonymous watchers of a match where nothing happened cost a seat's
recording a third of its rate (issue 41). Now one ``Following`` per server process keeps,
for each match someone follows, the latest version it knows of, and wakes that match's
streams when it moves. It learns it from two sources:

- an action or an undo recorded through this process tells it at once (``moved``);
- one look at the store every ``CHECK_EVERY`` seconds, for every followed match at once
  (one hop to the thread pool, one indexed read per followed match, however many streams
  follow it), finds what other processes recorded, and what this one recorded by other
  means (a dispute's pause, a reopening). No look is taken while nobody follows anything.

A woken stream works out where the match stands for its caller once per match version and
caller (``stand``): every anonymous spectator of a match shares one reading. A stream that
waits for a change holds no thread and reads nothing. Issue 43's push from the store itself
(PostgreSQL's notifications) would be a third source calling ``moved``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar
from uuid import UUID

from starlette.concurrency import run_in_threadpool

from replay.service import Kiroku

T = TypeVar("T")
CHECK_EVERY = 0.5  # seconds between two looks at the store for the followed matches

_log = logging.getLogger("uvicorn.error")


@dataclass
class _Followed:
    """A followed match: the latest version known, the streams following it, what wakes
    them, and each caller's reading of it as of a version."""

    version: int
    streams: int = 0
    moved: asyncio.Event = field(default_factory=asyncio.Event)
    stands: dict[Hashable, tuple[int, asyncio.Future[Any]]] = field(default_factory=dict)


class Following:
    """The followed matches of one server process (see the module)."""

    def __init__(self, kiroku: Kiroku, check_every: float = CHECK_EVERY) -> None:
        self.kiroku = kiroku
        self.check_every = check_every
        self._followed: dict[UUID, _Followed] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._looking: asyncio.Task[None] | None = None

    @asynccontextmanager
    async def follow(self, match_id: UUID, version: int) -> AsyncIterator[None]:
        """Follow ``match_id``, known to stand at ``version`` at least, while in the block."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # an application served again on another loop (tests)
            self._loop, self._followed, self._looking = loop, {}, None
        followed = self._followed.setdefault(match_id, _Followed(version))
        followed.streams += 1
        self._note(match_id, version)
        if self._looking is None or self._looking.done():
            self._looking = loop.create_task(self._look_at_store())
        try:
            yield
        finally:
            followed.streams -= 1
            if followed.streams == 0 and self._followed.get(match_id) is followed:
                del self._followed[match_id]

    def version(self, match_id: UUID) -> int:
        """The latest version of a followed match known here."""
        return self._followed[match_id].version

    async def moved_past(self, match_id: UUID, version: int, timeout: float) -> bool:
        """Whether a followed match is known to stand past ``version``, waiting up to
        ``timeout`` seconds for it to move there."""
        followed = self._followed[match_id]
        if followed.version > version:
            return True
        try:
            async with asyncio.timeout(max(timeout, 0.0)):
                await followed.moved.wait()
        except TimeoutError:
            return False
        return followed.version > version

    def moved(self, match_id: UUID, version: int) -> None:
        """A match was recorded at ``version`` by this process (from any thread): its
        streams wake now, not at the next look at the store."""
        loop = self._loop
        if match_id in self._followed and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._note, match_id, version)

    async def stand(self, match_id: UUID, caller: Hashable,
                    read: Callable[[], tuple[T, int]]) -> T:
        """Where a followed match stands for ``caller``, as ``read`` (run on the thread pool)
        works it out, with the match's version it read; read once per version known here and
        caller, and shared by every stream of that caller."""
        followed = self._followed[match_id]
        known = followed.stands.get(caller)
        if known is None or known[0] != followed.version:
            reading = asyncio.ensure_future(run_in_threadpool(read))
            known = followed.stands[caller] = (followed.version, reading)
        stand, version = await asyncio.shield(known[1])
        self._note(match_id, version)
        return stand  # type: ignore[no-any-return]

    def _note(self, match_id: UUID, version: int) -> None:
        """Learn that a followed match stands at ``version``; its streams wake if it moved."""
        followed = self._followed.get(match_id)
        if followed is None or version <= followed.version:
            return
        followed.version = version
        followed.moved.set()
        followed.moved = asyncio.Event()

    async def _look_at_store(self) -> None:
        """Every ``check_every`` seconds while anything is followed, the followed matches'
        latest versions from the store."""
        while self._followed:
            await asyncio.sleep(self.check_every)
            known = {match_id: f.version for match_id, f in self._followed.items()}
            try:
                latest = await run_in_threadpool(_stored_versions, self.kiroku, known)
            except Exception:  # the store unreachable for now: the next look tries again
                _log.warning("live streams: the store could not be read", exc_info=True)
                continue
            for match_id, version in latest.items():
                self._note(match_id, version)


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
