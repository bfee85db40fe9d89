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
from replay.api.wire import CallerDep, KirokuDep, MatchId, bearer
from replay.service import Kiroku

router = APIRouter(tags=["replay"], include_in_schema=False)

CHECK_EVERY = 0.5  # seconds between two looks at the match
RECHECK_CREDENTIAL_EVERY = 5.0  # seconds between two checks that the credential still holds
KEEPALIVE_EVERY = 15.0  # seconds between two comment lines when nothing changes
LASTS = 3600.0  # seconds before the stream ends (the client's EventSource reconnects)


def _now(kiroku: Kiroku, match_id: UUID, caller: Caller) -> tuple[int, int]:
    """The match's version and positions as the caller's audience stands (Forbidden where
    it may not watch)."""
    audience = kiroku.audience(match_id, caller)
    audience.watch()
    return audience.version, audience.positions


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
    answered as ``GET /matches/{id}/state`` would be."""
    first = await run_in_threadpool(_now, kiroku, match_id, caller)  # refusals here

    def still_valid() -> bool:
        if token is None:
            return True
        try:
            kiroku.credentials.authenticate(token.credentials)
        except Unauthenticated:
            return False
        return True

    async def stream() -> AsyncIterator[str]:
        last = first
        yield _event(*last)
        started = quiet = checked = time.monotonic()
        while time.monotonic() - started < LASTS:
            await asyncio.sleep(CHECK_EVERY)
            if await request.is_disconnected():
                return
            if time.monotonic() - checked >= RECHECK_CREDENTIAL_EVERY:
                checked = time.monotonic()
                if not await run_in_threadpool(still_valid):
                    yield "event: revoked\ndata: {}\n\n"
                    return
            try:
                now = await run_in_threadpool(_now, kiroku, match_id, caller)
            except Exception:  # the match became unwatchable: the client reconnects and is told
                return
            if now != last:
                last = now
                quiet = time.monotonic()
                yield _event(*now)
            elif time.monotonic() - quiet >= KEEPALIVE_EVERY:
                quiet = time.monotonic()
                yield ": keepalive\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"})
