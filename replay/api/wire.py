"""What every route shares: the service, the caller behind the request, the answer's format,
and the ids in a path (a match's or a tournament's: the whole id or a unique prefix, as on the
command line)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgpack
from fastapi import Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer

from engine.core.viewer import Viewer
from ledger.errors import Forbidden, MatchNotFound
from ledger.identity import Identity, Unauthenticated
from ledger.tournaments import TournamentNotFound
from replay import disputes as hearing
from replay.access import Caller
from replay.audience import Audience
from replay.ids import MIN_PREFIX, UUID_FORM, resolve_id, whole_id
from replay.service import Kiroku

MSGPACK = "application/msgpack"

bearer = HTTPBearer(auto_error=False, description="A credential's token. Without one the "
                    "caller is a spectator; organisers issue judges' tokens, creating a match "
                    "issues each seat's.")


SESSION_COOKIE = "kiroku_session"
PAGE_HEADER = "X-Kiroku-Page"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
session_cookie = APIKeyCookie(
    name=SESSION_COOKIE, auto_error=False, description="A session a sign-in opened (POST "
    "/sessions: a seat's sign-in link, or a token typed once into a page). Kiroku's pages "
    "send it; a request that changes anything with it must also carry the header "
    f"'{PAGE_HEADER}: 1' (no other site's page can send that header).")


def respond(request: Request, data: Any, status: int = 200,
            headers: dict[str, str] | None = None) -> Response:
    """JSON, or msgpack when the client accepts it."""
    if MSGPACK in request.headers.get("accept", ""):
        return Response(msgpack.packb(data, use_bin_type=True), status, headers,
                        media_type=MSGPACK)
    return JSONResponse(data, status, headers)


# The dependencies below are ``async``: FastAPI runs a plain function's dependency in its thread
# pool, one hand-over to a thread and back for each. What reads the store (a token's
# credential, an id given by its first characters) goes to the thread pool itself; the rest
# runs on the event loop at once (issue 16: five hand-overs a request became two).


async def service(request: Request) -> Kiroku:
    """The Kiroku service the application was created over."""
    return kiroku_of(request)


_CALLER = "kiroku.caller"  # where ``authenticated`` keeps the caller in the request's scope


async def authenticated(request: Request,
                        token: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
                        session: Annotated[str | None, Depends(session_cookie)]) -> None:
    """The application's own dependency, solved first on every route: the authenticated
    identity, kept for ``caller``. By the Authorization header (401 for an unknown or revoked
    token, or a header that is not a bearer token), else by the session cookie (a session
    that no longer authenticates reads as no credential), else None (a spectator)."""
    kiroku: Kiroku = request.app.state.kiroku
    found: Caller
    if token is not None:
        found = await _identity(kiroku, token.credentials)
    elif request.headers.get("authorization"):
        raise Unauthenticated("The Authorization header must be 'Bearer TOKEN'.")
    else:
        found = await _session_caller(request, kiroku, session) if session else None
    request.scope[_CALLER] = found


async def caller(request: Request) -> Caller:
    """The caller ``authenticated`` found for this request. A dependency of its own, with no
    dependencies of its own: FastAPI solves a cached dependency's dependencies again wherever
    it is named, and most routes name the caller (issue 43: the dependencies were a tenth of
    a request's time)."""
    return caller_of(request)


def caller_of(request: Request) -> Caller:
    """The caller ``authenticated`` found for this request, read where it keeps it. The
    application's dependencies are solved before any route's and any other dependency's, so
    a route or a dependency may read it without naming ``CallerDep``."""
    found: Caller = request.scope[_CALLER]
    return found


def kiroku_of(request: Request) -> Kiroku:
    """The Kiroku service the application was created over, without a dependency of its own.

    The routes a table calls at every tap (recording an action, its legal actions, its turn,
    the match and its position) and the path ids' dependencies read the service and the
    caller with ``kiroku_of`` and ``caller_of`` instead of naming ``KirokuDep`` and
    ``CallerDep``: FastAPI solves each named dependency as a small request of its own (its
    path, query, header and cookie parameters looked up, its cache key computed), and the
    recording route solved eight, a tenth of its server time (issue 43); now the
    application's three. Neither has a parameter, so the OpenAPI document is the same. The
    same routes take the match's id and the viewer as plain parameters (``audience_of``)."""
    kiroku: Kiroku = request.app.state.kiroku
    return kiroku


async def _identity(kiroku: Kiroku, token: str) -> Identity:
    """The identity ``token`` stands for: on the event loop if this process read its
    credential a moment ago (``Credentials.recently_authenticated``: no store read, no
    hand-over to a thread), else read in the thread pool (Unauthenticated if refused)."""
    identity = kiroku.credentials.recently_authenticated(token)
    if identity is None:
        identity = await run_in_threadpool(kiroku.credentials.authenticate, token)
    return identity


async def _session_caller(request: Request, kiroku: Kiroku, session: str) -> Caller:
    """The identity behind a session cookie. A change it asks for must carry the page header:
    a browser sends the cookie with any same-site request, but only a page of this server
    can add a custom header (cross-site, it needs a preflight this server never grants)."""
    if request.method not in SAFE_METHODS and request.headers.get(PAGE_HEADER) != "1":
        raise Forbidden("page_header_missing", f"A change signed in by a session cookie needs "
                        f"the header '{PAGE_HEADER}: 1' (Kiroku's pages send it); other clients "
                        "send 'Authorization: Bearer TOKEN'.")
    try:
        identity = await _identity(kiroku, session)
    except Unauthenticated:
        return None
    return identity


ViewerText = Annotated[str | None, Query(
    description="Narrow the view your credential allows: judge, spectator or seat:N "
                "(default: what the credential sees).", max_length=20)]
"""The optional ``viewer`` query parameter as sent: ``viewer_asked`` reads it."""


def viewer_asked(viewer: str | None) -> Viewer | None:
    """The viewer a ``viewer`` query parameter asks for (None: what the credential sees)."""
    return None if viewer is None else Viewer.parse(viewer)


async def asked_viewer(viewer: ViewerText = None) -> Viewer | None:
    """The optional ``viewer`` query parameter."""
    return viewer_asked(viewer)


KirokuDep = Annotated[Kiroku, Depends(service)]
CallerDep = Annotated[Caller, Depends(caller)]
AskedViewer = Annotated[Viewer | None, Depends(asked_viewer)]

def _id_text(what: str) -> Any:
    return Path(min_length=MIN_PREFIX, max_length=len(UUID_FORM),
                description=f"The {what}'s id, or its first characters (at least "
                            f"{MIN_PREFIX}) if no other {what}'s id starts with them.")


MatchText = Annotated[str, _id_text("match")]
"""A ``{match_id}`` path parameter as sent: ``match_named`` reads it."""


def match_named(request: Request, match_id: str) -> UUID:
    """The match a path names by its id or a unique prefix of it; 404 ``match_not_found``
    otherwise. Reads the store for a prefix: in a route that runs in the thread pool."""
    whole = whole_id(match_id)
    if whole is not None:
        return whole
    kiroku = kiroku_of(request)
    return resolve_id(match_id, lambda: kiroku.match_ids(match_id), ("match", "matches"),
                      MatchNotFound)


def audience_of(request: Request, match_id: str, viewer: str | None = None) -> Audience:
    """The caller's audience of the match a route's ``MatchText`` names, narrowed to the
    ``viewer`` its ``ViewerText`` asks for: what the routes of every tap read instead of
    naming ``MatchId`` and ``AskedViewer`` (``kiroku_of`` says why). In the thread pool."""
    return kiroku_of(request).audience(match_named(request, match_id), caller_of(request),
                                       viewer_asked(viewer))


async def match_ref(match_id: MatchText, request: Request) -> UUID:
    """``match_named`` as a dependency (a prefix read in the thread pool)."""
    whole = whole_id(match_id)
    if whole is not None:
        return whole
    return await run_in_threadpool(match_named, request, match_id)


async def tournament_ref(tournament_id: Annotated[str, _id_text("tournament")],
                         request: Request) -> UUID:
    """The tournament a path names by its id or a unique prefix of it; 404
    ``tournament_not_found`` otherwise."""
    whole = whole_id(tournament_id)
    if whole is not None:
        return whole
    kiroku = kiroku_of(request)
    return await run_in_threadpool(resolve_id, tournament_id, kiroku.tournaments.all_ids,
                                   ("tournament", "tournaments"), TournamentNotFound)


async def dispute_ref(
        dispute_id: Annotated[str, Path(
            min_length=MIN_PREFIX, max_length=len(UUID_FORM),
            description=f"The dispute's id, or its first characters (at least {MIN_PREFIX}) if "
                        "no other dispute you may read starts with them.")],
        request: Request) -> UUID:
    """The dispute a path names by its id or a prefix unique among the disputes the caller
    may read (``replay.disputes.find``); 404 ``dispute_not_found`` otherwise."""
    whole = whole_id(dispute_id)
    if whole is not None:
        return whole
    return await run_in_threadpool(hearing.find, kiroku_of(request), caller_of(request),
                                   dispute_id)


MatchId = Annotated[UUID, Depends(match_ref)]
"""A ``{match_id}`` path parameter: a string in the OpenAPI document, a UUID to the route."""
DisputeId = Annotated[UUID, Depends(dispute_ref)]
"""A ``{dispute_id}`` path parameter: a string in the OpenAPI document, a UUID to the route."""
TournamentId = Annotated[UUID, Depends(tournament_ref)]
"""A ``{tournament_id}`` path parameter: a string in the OpenAPI document, a UUID to the
route."""


# the headers of a paged list, for its OpenAPI description
PAGE_HEADERS = {
    "X-Total-Count": {"description": "How many items the filters select, on every page.",
                      "schema": {"type": "integer"}},
    "Link": {"description": 'The next and previous pages (rel="next", rel="prev"), when '
                     "there are any.", "schema": {"type": "string"}},
}


def page_headers(request: Request, offset: int, limit: int | None, shown: int,
                 total: int) -> dict[str, str]:
    """``X-Total-Count``, and a ``Link`` to the pages before and after this one (RFC 8288)
    when there are any."""
    links = []
    if limit is not None and offset + shown < total:
        links.append(f'<{request.url.include_query_params(offset=offset + shown)}>; '
                     'rel="next"')
    if offset > 0:
        back = max(0, offset - (limit or offset))
        links.append(f'<{request.url.include_query_params(offset=back)}>; rel="prev"')
    headers = {"X-Total-Count": str(total)}
    if links:
        headers["Link"] = ", ".join(links)
    return headers
