"""Following a match live: a Server-Sent Events stream of the match's version and number of
positions as far as the caller may see them (its audience, ``replay.audience``): a delayed
spectator's stand as of its horizon, so the stream speaks only when that horizon moves, never
at an action past it. Not in the OpenAPI document: the stream does not end by itself, so a
walk of the document must not open it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials
from starlette.concurrency import run_in_threadpool

from ledger.identity import Unauthenticated
from replay.access import Caller
from replay.api.following import Following
from replay.api.wire import CallerDep, KirokuDep, MatchId, bearer
from replay.service import Kiroku

router = APIRouter(tags=["replay"], include_in_schema=False)

RECHECK_CREDENTIAL_EVERY = 5.0  # seconds between two checks that the credential still holds
KEEPALIVE_EVERY = 15.0  # seconds between two comment lines when nothing changes
LASTS = 3600.0  # seconds before the stream ends (the client's EventSource reconnects)
# seconds a stream waits after an event before it looks again: a match recorded faster than
# this is told to its watchers this often, with where it stands then. Short beside the
# 200 ms a watcher may wait for an action (issue 43); long enough that a burst (an undo of
# several actions, a scripted sequence) is one event, not one per version
AT_MOST_EVERY = 0.05


def _stand(kiroku: Kiroku, match_id: UUID, caller: Caller) -> tuple[tuple[int, int], int]:
    """The match's version and positions as the caller's audience stands (Forbidden where
    it may not watch), and the match's own version as read."""
    audience = kiroku.audience(match_id, caller)
    audience.watch()
    return (audience.version, audience.positions), int(audience.match.version)


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

    def still_valid() -> bool:
        if token is None:
            return True
        try:
            kiroku.credentials.authenticate(token.credentials)
        except Unauthenticated:
            return False
        return True

    async def stream() -> AsyncIterator[str]:
        async with following.follow(match_id, version):
            last, seen = first, version
            yield _event(*last)
            started = quiet = checked = time.monotonic()
            while (left := LASTS - (time.monotonic() - started)) > 0:
                now = time.monotonic()
                wake_in = min(left, KEEPALIVE_EVERY - (now - quiet))
                if token is not None:
                    wake_in = min(wake_in, RECHECK_CREDENTIAL_EVERY - (now - checked))
                moved = await following.moved_past(match_id, seen, wake_in)
                if token is not None and time.monotonic() - checked >= RECHECK_CREDENTIAL_EVERY:
                    checked = time.monotonic()
                    if not await run_in_threadpool(still_valid):
                        yield "event: revoked\ndata: {}\n\n"
                        return
                if moved:
                    seen = following.version(match_id)
                    try:
                        stand = await following.stand(
                            match_id, reader, lambda: _stand(kiroku, match_id, caller))
                    except Exception:  # the match became unwatchable: the client reconnects
                        return
                    if stand != last:
                        last = stand
                        quiet = time.monotonic()
                        yield _event(*stand)
                    await asyncio.sleep(AT_MOST_EVERY)
                elif time.monotonic() - quiet >= KEEPALIVE_EVERY:
                    quiet = time.monotonic()
                    yield ": keepalive\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"})
