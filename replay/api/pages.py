"""The web pages: the match list at ``/``, a match's replay viewer at ``/watch/{match}``,
its board alone for stream overlays at ``/embed/{match}``, the sign-in page a slip's link
opens at ``/sign-in``, the printable slips at ``/slips``, the judge's calls at ``/judge``, a
tournament's public page at ``/events/{tournament}``, its player's own page at
``/events/{tournament}/me`` and its organiser's console at ``/events/{tournament}/console``
(``/events/new`` to create one), their
static files under ``/static``, and the API's documentation at ``/docs`` (Swagger UI from
vendored files: no request leaves the server). The pages read the public HTTP API like any
other client; nothing here is in the OpenAPI document."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter
from fastapi import Path as PathParam
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

import replay.web

WEB = Path(replay.web.__file__).resolve().parent

# The pages load only their own files and call only this server's API.
PAGE_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
               "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
# Swagger UI's page starts it with an inline script and styles itself inline.
DOCS_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
               "script-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; "
               "base-uri 'none'; frame-ancestors 'none'")

# The embeddable board has no control and never holds a credential: any page may frame it.
EMBED_POLICY = PAGE_POLICY.replace("frame-ancestors 'none'", "frame-ancestors *")

router = APIRouter(include_in_schema=False)
router.mount("/static", StaticFiles(directory=WEB), name="static")


def _page(name: str, policy: str = PAGE_POLICY) -> FileResponse:
    return FileResponse(WEB / name, media_type="text/html",
                        headers={"content-security-policy": policy,
                                 "cache-control": "no-cache"})


@router.get("/", include_in_schema=False)
def match_list() -> FileResponse:
    """The match list, filtered by game, player and simulated."""
    return _page("index.html")


@router.get("/watch/{match}", include_in_schema=False)
def watch(match: Annotated[str, PathParam(max_length=64)]) -> FileResponse:
    """A match's replay viewer. The page resolves ``match`` (an id or its prefix) through the
    API (GET /matches/{match_id}), so an unknown one is shown there as the API answers it; the
    parameter is not named ``match_id``, which is for API routes resolving with ``MatchId``."""
    del match
    return _page("match.html")


@router.get("/play/{match}", include_in_schema=False)
def play(match: Annotated[str, PathParam(max_length=64)]) -> FileResponse:
    """A seat's page: what the match waits for and the seat's actions first, then its own
    area and the table (resolved by the page as ``/watch/{match}`` is)."""
    del match
    return _page("play.html")


@router.get("/embed/{match}", include_in_schema=False)
def embed(match: Annotated[str, PathParam(max_length=64)]) -> FileResponse:
    """A match's board alone, always at the last position a spectator may see and following
    the match live (for stream overlays); resolved by the page as ``/watch/{match}`` is."""
    del match
    return _page("embed.html", EMBED_POLICY)


@router.get("/sign-in", include_in_schema=False)
def sign_in() -> FileResponse:
    """The page a sign-in link opens: it takes the code from the address's fragment (which
    never reaches a server), opens a session with it and goes to the player's match."""
    return _page("signin.html")


@router.get("/slips", include_in_schema=False)
def slips() -> FileResponse:
    """Printable sign-in slips of a match's seats or a round's tables, for judges."""
    return _page("slips.html")


@router.get("/events/new", include_in_schema=False)
def new_event() -> FileResponse:
    """The organiser's console, creating a tournament (the page opens the new one's console).
    Routed before ``/events/{tournament}``, whose pattern it would match."""
    return _page("console.html")


@router.get("/events/{tournament}/console", include_in_schema=False)
def event_console(tournament: Annotated[str, PathParam(max_length=64)]) -> FileResponse:
    """The organiser's console of a tournament: players, pairings, each table's status live,
    results, drops, standings and finishing (resolved by the page through GET
    /tournaments/{tournament_id}, an id or its prefix)."""
    del tournament
    return _page("console.html")


@router.get("/judge", include_in_schema=False)
def judge() -> FileResponse:
    """The judge's open calls across matches, or an event's by round
    (``?tournament=ID``, its appealed rulings too for its head judge), with a notice when a
    seat calls."""
    return _page("judge.html")


@router.get("/events/{tournament}", include_in_schema=False)
def event(tournament: Annotated[str, PathParam(max_length=64)]) -> FileResponse:
    """A tournament's public page: its current round's tables, earlier rounds, standings and
    players, following the event live (resolved by the page through the public API, as
    ``/watch/{match}`` is)."""
    del tournament
    return _page("event.html")


@router.get("/events/{tournament}/me", include_in_schema=False)
def event_player(tournament: Annotated[str, PathParam(max_length=64)]) -> FileResponse:
    """A tournament player's own page, signed in by their one sign-in for the event: their
    current match and its Play button first, then earlier matches, standing and decklist."""
    del tournament
    return _page("player.html")


@router.get("/docs", include_in_schema=False)
def docs() -> HTMLResponse:
    """Swagger UI over /openapi.json, from the vendored files."""
    page = get_swagger_ui_html(openapi_url="/openapi.json", title="Kiroku: HTTP API",
                               swagger_js_url="/static/vendor/swagger-ui-bundle.js",
                               swagger_css_url="/static/vendor/swagger-ui.css",
                               swagger_favicon_url="/static/vendor/favicon-32x32.png",
                               swagger_ui_parameters={"validatorUrl": None})
    page.headers["content-security-policy"] = DOCS_POLICY
    return page
