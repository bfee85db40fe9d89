"""The HTTP service (FastAPI): one router per resource, thin routes over ``replay.service``,
the caller's credential deciding every viewer (``replay.access``), domain errors mapped to
statuses in one place (``errors``).

JSON by default; ``Accept: application/msgpack`` gets msgpack. OpenAPI at /docs and /openapi.json.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import Depends, FastAPI

from engine import registry
from replay.api import (
    actions,
    credentials,
    disputes,
    errors,
    games,
    imports,
    live,
    matches,
    notes,
    pages,
    sessions,
    studies,
    tournaments,
    variations,
    views,
)
from replay.api.collector import pace
from replay.api.following import Following, InHand
from replay.api.hardening import HardenedFastAPI
from replay.api.heavy import HeavyReads, caller_share
from replay.api.limits import BodyLimit
from replay.api.wire import authenticated
from replay.service import Kiroku
from replay.threads import threads_setting


@asynccontextmanager
async def _limited_threads(app: FastAPI) -> AsyncIterator[None]:
    """Run with ``app.state.threads`` threads: the limit of anyio's default thread limiter,
    which Starlette's plain-function routes, FastAPI's plain-function dependencies and
    ``run_in_threadpool`` all take from (it is the event loop's own, so it is set here, on it)."""
    anyio.to_thread.current_default_thread_limiter().total_tokens = app.state.threads
    yield


def create_app(kiroku: Kiroku, threads: int | None = None) -> FastAPI:
    """The FastAPI application over one Kiroku service, running requests on ``threads``
    threads (``threads_setting``)."""
    app = HardenedFastAPI(
        title="Kiroku", version="0.2.0", responses=errors.ERRORS, docs_url=None,
        redoc_url=None, lifespan=_limited_threads,
        description="Record, replay and audit trading-card-game matches. Send a credential "
                    "as 'Authorization: Bearer TOKEN'; without one you are a spectator. "
                    "Answers documented as JSON, errors included, come as msgpack (the same "
                    "shapes) to 'Accept: application/msgpack'.",
        dependencies=[Depends(authenticated)])  # a bad token is a 401 on every route
    app.state.kiroku = kiroku
    app.state.threads = threads_setting(threads)
    app.state.heavy = HeavyReads(share=caller_share())  # heavy reads kept and bounded
    app.state.following = Following(kiroku)  # live streams (following.py)
    app.add_middleware(BodyLimit)
    # what live streams yield to: every request but theirs
    app.add_middleware(InHand, following=app.state.following, apart=live.router.routes)
    errors.install(app)
    # the routes a table and its watchers call at every tap first: the router tries each
    # included router's routes in this order, and no path of one is another's (issue 43)
    for module in (actions, views, matches, live, games, credentials, imports, notes,
                   disputes, variations, studies, tournaments, sessions, pages):
        app.include_router(module.router)
    return app


def create_app_from_environment() -> FastAPI:
    """The application over the store ``KIROKU_DATABASE_URL`` names, with the key file
    ``KIROKU_KEY_FILE`` names (or the store's own): what each worker process of ``kiroku
    serve --workers N`` builds and serves."""
    return serving(create_app(Kiroku.open()))


def serving(app: FastAPI) -> FastAPI:
    """``app``, with this process about to serve it until it ends: every object made so far
    (modules, routes, models, the opened store) is moved out of the garbage collector's
    reach (``gc.freeze``). A full collection stops every request while it walks every object
    it tracks, so it now walks only what requests made since (issue 16: a World Gainer
    server's full collections held up requests 70-195 ms under load; bench/gc_pauses.py).
    From then on, what survives each full collection is frozen too
    (``replay.api.collector``). For ``kiroku serve`` and its workers only: frozen objects
    are collected only when the collector walks everything again, so a process that builds
    many applications (the tests) must not call it each time."""
    registry.games()  # every game imported now, not by the first GET /games (issue 43)
    gc.collect()
    gc.freeze()
    pace()  # and what survives each full collection from now on (replay.api.collector)
    return app
