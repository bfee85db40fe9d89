"""Following a match live: a Server-Sent Events stream of the match's version and number of
positions as far as the caller may see them (its audience, ``replay.audience``): a delayed
spectator's stand as of its horizon, so the stream speaks only when that horizon moves, never
at an action past it. Not in the OpenAPI document: the stream does not end by itself, so a
walk of the document must not open it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Hashable
from contextlib import aclosing
from functools import partial
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials
from starlette.concurrency import run_in_threadpool

from ledger.identity import Unauthenticated
from replay.access import Caller
from replay.api.following import Following, Watch
from replay.api.wire import CallerDep, KirokuDep, MatchId, bearer
from replay.service import Kiroku

router = APIRouter(tags=["replay"], include_in_schema=False)

RECHECK_CREDENTIAL_EVERY = 5.0  # seconds between two checks that the credential still holds
KEEPALIVE_EVERY = 15.0  # seconds between two comment lines when nothing changes
LASTS = 3600.0  # seconds before the stream ends (the client's EventSource reconnects)
# seconds at least between two events of a stream: a match recorded faster than this is
# told to its watchers this often, with where it stands then. Short beside the 200 ms a
# watcher may wait for an action (issue 43); long enough that a burst (an undo of several
# actions, a scripted sequence) is one event, not one per version. A stream waits only when
# the match moves again that soon, not after every event
AT_MOST_EVERY = 0.05


def _stand(kiroku: Kiroku, match_id: UUID, caller: Caller) -> tuple[tuple[int, int], int]:
    """The match's version and positions as the caller's audience stands (Forbidden where
    it may not watch), and the match's own version as read."""
    audience = kiroku.audience(match_id, caller)
    audience.watch()
    return (audience.version, audience.positions), int(audience.match.version)


def _still_valid(kiroku: Kiroku, token: str) -> bool:
    """Whether the stream's credential still authenticates (not revoked since)."""
    try:
        kiroku.credentials.authenticate(token)
    except Unauthenticated:
        return False
    return True


def _event(version: int, positions: int) -> str:
    return f"event: position\ndata: {json.dumps({'version': version, 'positions': positions})}\n\n"


@router.get("/matches/{match_id}/live", include_in_schema=False)
async def live(request: Request, kiroku: KirokuDep, caller: CallerDep,
               token: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
               match_id: MatchId) -> StreamingResponse:
    """``event: position`` with ``{"version": V, "positions": P}`` (as far as the caller may
    see: a delayed spectator's stand at its horizon) at once and whenever either changes;
    ``: keepalive`` every 15 s; ends when the client leaves, after an hour, or within 5 s of
    the caller's credential being revoked. A caller who may not watch the match is
    answered as ``GET /matches/{id}/state`` would be. The stream waits for the match to move
    (``replay.api.following``), holding no thread and reading nothing meanwhile."""
    first, version = await run_in_threadpool(_stand, kiroku, match_id, caller)  # refusals here
    following: Following = request.app.state.following
    reader = None if caller is None else caller.credential_id  # whose reading a stream shares

    async def stream() -> AsyncIterator[str]:
        async with following.follow(match_id, version):
            watch = following.watch(match_id)
            lines = told(following, watch, match_id, reader,
                         lambda: _stand(kiroku, match_id, caller),
                         None if token is None else partial(_still_valid, kiroku,
                                                            token.credentials),
                         first, version)
            try:
                async with aclosing(lines):  # closed here, not by the collector, when it ends
                    async for line in lines:
                        yield line
            finally:
                watch.close()

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"})


async def told(following: Following, watch: Watch, match_id: UUID, reader: Hashable,
               read: Callable[[], tuple[tuple[int, int], int]],
               still_valid: Callable[[], bool] | None, last: tuple[int, int],
               seen: int) -> AsyncGenerator[str, None]:
    """A stream's lines: where the match stands (``last``, as of version ``seen``) at once,
    then whenever that changes (``read`` by ``following`` once per version for every stream
    of ``reader``), a keep-alive after a quiet while, until the stream's time is up or, with
    ``still_valid``, its credential no longer holds. Each wait is for the match to move or
    for the alarm (``Watch``), which is set again only when what it rings for falls due:
    the keep-alive's and the check's times move only when they ring, not at every event."""
    clock = asyncio.get_running_loop().time
    yield _event(*last)
    started = quiet = checked = told_at = clock()
    keepalive = quiet + KEEPALIVE_EVERY  # moved on when it rings after a quiet while
    while clock() - started < LASTS:
        due = min(started + LASTS, keepalive)
        if still_valid is not None:
            due = min(due, checked + RECHECK_CREDENTIAL_EVERY)
        watch.alarm_at(due)
        moved = await watch.moved_past(seen)
        if still_valid is not None and clock() - checked >= RECHECK_CREDENTIAL_EVERY:
            checked = clock()
            if not await run_in_threadpool(still_valid):
                yield "event: revoked\ndata: {}\n\n"
                return
        if moved:
            # a burst of actions (an undo of several, a scripted sequence) is told once
            # AT_MOST_EVERY, with where the match stands after it
            if (wait := told_at + AT_MOST_EVERY - clock()) > 0:
                await asyncio.sleep(wait)
            await following.idle()  # the seats' requests in hand first
            seen = following.version(match_id)
            try:
                stand = await following.stand(match_id, reader, read)
            except Exception:  # the match became unwatchable: the client reconnects
                return
            if stand != last:
                last = stand
                quiet = told_at = clock()
                yield _event(*stand)
        elif clock() >= keepalive:
            if clock() - quiet >= KEEPALIVE_EVERY:
                quiet = clock()
                yield ": keepalive\n\n"
            keepalive = quiet + KEEPALIVE_EVERY
