"""What every route shares: the service, the caller behind the request, the answer's format."""

from __future__ import annotations

from typing import Annotated, Any

import msgpack
from fastapi import Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from engine.core.viewer import Viewer
from ledger.identity import Identity, Unauthenticated
from replay.access import Caller
from replay.service import Kiroku

MSGPACK = "application/msgpack"

bearer = HTTPBearer(auto_error=False, description="A credential's token. Without one the "
                    "caller is a spectator; organisers issue judges' tokens, creating a match "
                    "issues each seat's.")


def respond(request: Request, data: Any, status: int = 200,
            headers: dict[str, str] | None = None) -> Response:
    """JSON, or msgpack when the client accepts it."""
    if MSGPACK in request.headers.get("accept", ""):
        return Response(msgpack.packb(data, use_bin_type=True), status, headers,
                        media_type=MSGPACK)
    return JSONResponse(data, status, headers)


def service(request: Request) -> Kiroku:
    """The Kiroku service the application was created over."""
    kiroku: Kiroku = request.app.state.kiroku
    return kiroku


def caller(request: Request, kiroku: Annotated[Kiroku, Depends(service)],
           token: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Caller:
    """The authenticated identity, None without an Authorization header (a spectator), and
    401 for an unknown or revoked token or a header that is not a bearer token."""
    if token is None:
        if request.headers.get("authorization"):
            raise Unauthenticated("The Authorization header must be 'Bearer TOKEN'.")
        return None
    identity: Identity = kiroku.credentials.authenticate(token.credentials)
    return identity


def asked_viewer(viewer: Annotated[str | None, Query(
        description="Narrow the view your credential allows: judge, spectator or seat:N "
                    "(default: what the credential sees).", max_length=20)] = None
                 ) -> Viewer | None:
    """The optional ``viewer`` query parameter."""
    return None if viewer is None else Viewer.parse(viewer)


KirokuDep = Annotated[Kiroku, Depends(service)]
CallerDep = Annotated[Caller, Depends(caller)]
AskedViewer = Annotated[Viewer | None, Depends(asked_viewer)]
