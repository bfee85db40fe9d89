"""Every error the HTTP service answers: one body, one mapping from domain errors to statuses."""

from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.constants import REF_PREFIX
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.core.errors import ActionError, IllegalAction, MalformedAction, SetupError
from engine.core.reasons import KernelReason
from ledger.annotations import AnnotationNotFound
from ledger.disputes import DisputeNotFound, MatchPaused
from ledger.errors import (
    BadPosition,
    ConcurrentAppend,
    CorruptRecord,
    Forbidden,
    ImportRejected,
    LedgerError,
    MatchNotFound,
)
from ledger.identity import CredentialRefused, Unauthenticated
from ledger.keys import KeyfileError
from ledger.tournaments import TournamentNotFound, TournamentRefused
from ledger.variations import VariationNotFound
from replay.api.heavy import Busy
from replay.api.wire import respond

_log = logging.getLogger("uvicorn.error")


class ErrorBody(BaseModel):
    """Every error: a stable code, the rule's reason code where one applies, and a message."""

    code: str = Field(description="unauthenticated, forbidden, illegal_action, "
                      "malformed_action, malformed_request, setup_error, bad_request, "
                      "not_found, method_not_allowed, match_not_found, game_not_found, "
                      "tournament_not_found, dispute_not_found, variation_not_found, "
                      "annotation_not_found, concurrent_append, match_paused, "
                      "import_rejected, bad_position, credential_refused, "
                      "tournament_refused, dispute_refused, variation_refused, "
                      "annotation_refused, payload_too_large, corrupt_record, "
                      "store_unavailable, server_busy, rate_limited")
    reason: str = Field(description="The rule's reason code (e.g. 'priority', 'deck_too_small') "
                        "or, for 403, what was refused (e.g. 'not_your_seat').")
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "malformed_request: a body that cannot be read as "
                                             "its content type says (JSON that is not UTF-8 "
                                             "text); only operations that take a body"},
    401: {"model": ErrorBody, "description": "No credential where one is needed, or an unknown "
                                             "or revoked one"},
    403: {"model": ErrorBody, "description": "More than the credential may see or do (another "
                                             "seat, a judge's task, a spectator of a match that "
                                             "refuses or delays spectators)"},
    404: {"model": ErrorBody, "description": "Unknown match, game, tournament, dispute, "
                                             "annotation or variation; a match or tournament "
                                             "id prefix that names none or several (listed)"},
    409: {"model": ErrorBody, "description": "concurrent_append: the match is no longer at "
                                             "the expected_version sent (or moved twice while "
                                             "the action was recorded), or a dispute's "
                                             "pause lost a race with an action, or a "
                                             "tournament changed at the same time (two "
                                             "organisers pairing one round: nothing of the "
                                             "loser's is stored): reload and "
                                             "decide again; match_paused: a dispute pauses "
                                             "the match"},
    413: {"model": ErrorBody, "description": "payload_too_large: a body larger than 1 MiB "
                                             "(32 MiB for POST /matches/import); nothing was "
                                             "read or stored"},
    500: {"model": ErrorBody, "description": "A stored event cannot be read (corrupt_record), "
                                             "or this server's key file is not the one that "
                                             "sealed the match's seed (key_mismatch)"},
    422: {"model": ErrorBody, "description": "Illegal or malformed action, bad setup or input"},
    429: {"model": ErrorBody, "description": "rate_limited: the caller's reads of whole "
                                             "matches (events, transcripts, exports, studies, "
                                             "audits) took their share of the server for now "
                                             "(Retry-After)"},
    503: {"model": ErrorBody, "description": "store_unavailable: the store could not be reached, "
                                             "or stayed locked by another writer past its "
                                             "timeout; nothing was acknowledged; server_busy: "
                                             "a read of a whole match (events, transcript, "
                                             "export, study, audit) found no place in time "
                                             "(Retry-After)"},
}
"""What any operation may answer beside its own answers, with the JSON error body: the
application's ``responses``, so that the OpenAPI document lists them for every operation."""

JSON_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {**{k: v for k, v in answer.items() if k != "model"},
             "content": {"application/json": {"schema": {"$ref": REF_PREFIX +
                                                         ErrorBody.__name__}}}}
    for status, answer in ERRORS.items()}
"""``ERRORS`` for an operation whose own answer is not JSON (text, CSV), as its ``responses``:
FastAPI documents a ``model`` in the operation's own media type, but its errors are JSON
(``ErrorBody``, a component the other operations' ``ERRORS`` put in the document)."""

STORE_UNAVAILABLE = ("The store could not be reached, or another writer kept it locked too "
                     "long; nothing was acknowledged. Reload what you were changing and try "
                     "again.")


def error_status(exc: Exception) -> tuple[int, str, str]:
    """The one mapping from domain errors to (HTTP status, code, reason)."""
    if isinstance(exc, Unauthenticated):
        return 401, exc.code, exc.code
    if isinstance(exc, (MatchNotFound, AnnotationNotFound, DisputeNotFound,
                        VariationNotFound, TournamentNotFound)):
        return 404, exc.code, exc.code
    if isinstance(exc, TournamentRefused):
        return 422, exc.code, exc.reason
    if isinstance(exc, (ConcurrentAppend, MatchPaused)):
        return 409, exc.code, exc.code
    if isinstance(exc, (CorruptRecord, KeyfileError)):  # the server's store or keys at fault
        return 500, exc.code, exc.code
    if isinstance(exc, Forbidden):
        return 403, exc.code, exc.reason
    if isinstance(exc, (ImportRejected, BadPosition, CredentialRefused, LedgerError)):
        return 422, exc.code, exc.code
    if isinstance(exc, MalformedAction):
        return 422, "malformed_action", exc.reason
    if isinstance(exc, IllegalAction):
        return 422, "illegal_action", exc.reason
    if isinstance(exc, SetupError):
        return 422, "setup_error", exc.reason
    if isinstance(exc, ActionError):
        if exc.reason == KernelReason.UNKNOWN_GAME:  # the engine's message names the known games
            return 404, "game_not_found", "game_not_found"
        return 422, "bad_request", exc.reason
    raise exc


def install(app: FastAPI) -> None:
    """Answer domain errors and malformed requests with ``ErrorBody``."""

    @app.exception_handler(ActionError)
    @app.exception_handler(LedgerError)
    async def domain_error(request: Request, exc: Exception) -> Response:
        status, code, reason = error_status(exc)
        details = getattr(exc, "details", {}) or {}
        body = ErrorBody(code=code, reason=reason, message=getattr(exc, "message", str(exc)),
                         details=details)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        return respond(request, body.model_dump(), status, headers)

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    async def store_unavailable(request: Request, exc: Exception) -> Response:
        # the library's words may name the server or the file: the log keeps them
        _log.warning("store unavailable: %s", exc)
        body = ErrorBody(code="store_unavailable", reason="store_unavailable",
                         message=STORE_UNAVAILABLE)
        return respond(request, body.model_dump(), 503, {"Retry-After": "1"})

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> Response:
        body = ErrorBody(code=exc.code, reason=exc.code, message=exc.message)
        return respond(request, body.model_dump(), exc.status,
                       {"Retry-After": str(exc.retry_after)})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code,
                                                                   "malformed_request")
        body = ErrorBody(code=code, reason=code, message=str(exc.detail))
        return respond(request, body.model_dump(), exc.status_code,
                       dict(exc.headers) if exc.headers else None)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        errors = [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"]} for e in exc.errors()]
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        body = ErrorBody(code="malformed_request", reason="malformed_request",
                         message=f"{'.'.join(first['loc'])}: {first['msg']}",
                         details={"errors": errors})
        return respond(request, body.model_dump(), 422)
