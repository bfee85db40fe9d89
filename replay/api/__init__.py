"""The HTTP service (FastAPI): one router per resource, thin routes over ``replay.service``,
the caller's credential deciding every viewer (``replay.access``), domain errors mapped to
statuses in one place (``errors``).

JSON by default; ``Accept: application/msgpack`` gets msgpack. OpenAPI at /docs and /openapi.json.
"""

from __future__ import annotations

from fastapi import Depends, FastAPI

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
    studies,
    tournaments,
    variations,
    views,
)
from replay.api.limits import BodyLimit
from replay.api.wire import caller
from replay.service import Kiroku


def create_app(kiroku: Kiroku) -> FastAPI:
    """The FastAPI application over one Kiroku service."""
    app = FastAPI(title="Kiroku", version="0.2.0", responses=errors.ERRORS, docs_url=None,
                  redoc_url=None,
                  description="Record, replay and audit trading-card-game matches. Send a "
                              "credential as 'Authorization: Bearer TOKEN'; without one you "
                              "are a spectator.",
                  dependencies=[Depends(caller)])  # a bad token is a 401 on every route
    app.state.kiroku = kiroku
    app.add_middleware(BodyLimit)
    errors.install(app)
    for module in (games, credentials, imports, matches, actions, views, notes, disputes,
                   variations, studies, tournaments, live, pages):
        app.include_router(module.router)
    return app


def create_app_from_environment() -> FastAPI:
    """The application over the store ``KIROKU_DATABASE_URL`` names, with the key file
    ``KIROKU_KEY_FILE`` names (or the store's own): what each worker process of ``kiroku
    serve --workers N`` builds."""
    return create_app(Kiroku.open())
