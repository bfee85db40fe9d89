"""The HTTP service (FastAPI). Routes are thin; domain errors map to status codes in one place.

JSON by default; ``Accept: application/msgpack`` gets msgpack. OpenAPI at /docs and /openapi.json.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgpack
from fastapi import Body, Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from engine.core.errors import ActionError, IllegalAction, MalformedAction, SetupError
from engine.core.viewer import Viewer
from engine.registry import games, get_game
from ledger.catalog import Deck
from ledger.errors import (
    BadPosition,
    ConcurrentAppend,
    CorruptRecord,
    Forbidden,
    ImportRejected,
    LedgerError,
    MatchNotFound,
)
from replay.service import Kiroku

MSGPACK = "application/msgpack"


class ErrorBody(BaseModel):
    """Every error: a stable code, the rule's reason code where one applies, and a message."""

    code: str = Field(description="illegal_action, malformed_action, setup_error, bad_request, "
                      "match_not_found, concurrent_append, import_rejected, bad_position")
    reason: str = Field(description="The rule's reason code (e.g. 'priority', 'deck_too_small').")
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "More than the caller may see (a spectator of a "
                                             "match that refuses or delays spectators)"},
    404: {"model": ErrorBody, "description": "Unknown match or game"},
    409: {"model": ErrorBody, "description": "Another action was appended first: retry"},
    500: {"model": ErrorBody, "description": "A stored event cannot be read (corrupt_record)"},
    422: {"model": ErrorBody, "description": "Illegal or malformed action, bad setup or input"},
}


def error_status(exc: Exception) -> tuple[int, str, str]:
    """The one mapping from domain errors to (HTTP status, code, reason)."""
    if isinstance(exc, MatchNotFound):
        return 404, exc.code, exc.code
    if isinstance(exc, ConcurrentAppend):
        return 409, exc.code, exc.code
    if isinstance(exc, CorruptRecord):
        return 500, exc.code, exc.code
    if isinstance(exc, Forbidden):
        return 403, exc.code, exc.reason
    if isinstance(exc, (ImportRejected, BadPosition, LedgerError)):
        return 422, exc.code, exc.code
    if isinstance(exc, MalformedAction):
        return 422, "malformed_action", exc.reason
    if isinstance(exc, IllegalAction):
        return 422, "illegal_action", exc.reason
    if isinstance(exc, SetupError):
        return 422, "setup_error", exc.reason
    if isinstance(exc, ActionError):
        status = 404 if exc.reason == "unknown_game" else 422
        return status, "bad_request", exc.reason
    raise exc


class MatchCreate(BaseModel):
    """A new match. Decks are sample deck names or {card id: copies} lists."""

    game: str = "worldgainer"
    players: list[str]
    decks: list[str | dict[str, int]]
    cards: dict[str, dict[str, Any]] | None = Field(
        default=None, description="Card definitions by id; the game's sample set when omitted.")
    options: dict[str, Any] = Field(default_factory=dict)
    replay_policy: str = Field(default="open", description="open: after the end everyone sees "
                               "everything; closed: hidden information stays hidden.")
    recorded_by: str = "organizer"
    setup_outcomes: list[Any] | None = Field(
        default=None, description="Chance outcomes of setup seen at a physical table.")


class ActionCreate(BaseModel):
    """One action to record."""

    action: dict[str, Any] = Field(description="The game action; see GET /games/{game}/actions.")
    recorded_by: str = Field(min_length=1)
    outcomes: list[Any] | None = Field(
        default=None, description="Chance outcomes from a physical table (cards drawn, dice).")
    expected_version: int | None = Field(default=None, description="Append only if the match is "
                                         "still at this version (else 409).")


class UndoCreate(BaseModel):
    """Void the last ``count`` actions."""

    count: int = Field(default=1, ge=1)
    reason: str = Field(min_length=1)
    recorded_by: str = Field(min_length=1)
    expected_version: int | None = None


def respond(request: Request, data: Any, status: int = 200) -> Response:
    """JSON, or msgpack when the client accepts it."""
    if MSGPACK in request.headers.get("accept", ""):
        return Response(msgpack.packb(data, use_bin_type=True), status, media_type=MSGPACK)
    return JSONResponse(data, status)


def parse_viewer(viewer: Annotated[str, Query(description="judge, spectator or seat:N")]
                 = "spectator") -> Viewer:
    """The ``viewer`` query parameter."""
    return Viewer.parse(viewer)


ViewerDep = Annotated[Viewer, Depends(parse_viewer)]


def create_app(kiroku: Kiroku) -> FastAPI:
    """The FastAPI application over one Kiroku service."""
    app = FastAPI(title="Kiroku", version="0.1.0", responses=ERRORS,
                  description="Record, replay and audit trading-card-game matches.")

    @app.exception_handler(ActionError)
    @app.exception_handler(LedgerError)
    async def domain_error(request: Request, exc: Exception) -> Response:
        status, code, reason = error_status(exc)
        details = getattr(exc, "details", {}) or {}
        body = ErrorBody(code=code, reason=reason, message=getattr(exc, "message", str(exc)),
                         details=details)
        return respond(request, body.model_dump(), status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        errors = [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"]} for e in exc.errors()]
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        body = ErrorBody(code="malformed_request", reason="malformed_request",
                         message=f"{'.'.join(first['loc'])}: {first['msg']}",
                         details={"errors": errors})
        return respond(request, body.model_dump(), 422)

    @app.get("/games")
    def list_games(request: Request) -> Response:
        """The registered games."""
        return respond(request, [{"id": g.game_id, "title": g.title, "version": g.version,
                                  "players": [g.min_players, g.max_players],
                                  "actions": g.action_types()} for g in games()])

    @app.get("/games/{game}/actions")
    def action_schema(request: Request, game: str) -> Response:
        """JSON schema of the game's actions."""
        return respond(request, get_game(game).action_schema())

    @app.post("/matches", status_code=201)
    def create_match(request: Request, body: MatchCreate) -> Response:
        """Create a match (decks checked first)."""
        decks = [d if isinstance(d, str) else Deck(body.game, "", "inline", d) for d in body.decks]
        match_id = kiroku.new_match(body.game, body.players, decks, cards=body.cards,
                                    options=body.options, recorded_by=body.recorded_by,
                                    replay_policy=body.replay_policy,
                                    setup_outcomes=body.setup_outcomes)
        return respond(request, kiroku.summary(match_id), 201)

    @app.get("/matches")
    def list_matches(request: Request) -> Response:
        """Every match, oldest first."""
        return respond(request, [{"match_id": str(m.match_id), "game": m.game,
                                  "players": m.players, "created_at": m.created_at,
                                  "result": m.result} for m in kiroku.list_matches()])

    @app.get("/matches/{match_id}")
    def get_match(request: Request, match_id: UUID) -> Response:
        """A match's summary: players, options, version, positions, result, seed commitment."""
        return respond(request, kiroku.summary(match_id))

    @app.post("/matches/{match_id}/actions", status_code=201)
    def record_action(request: Request, match_id: UUID, body: ActionCreate) -> Response:
        """Record one action; 422 with the rule's reason code if illegal, nothing stored."""
        done = kiroku.record(match_id, body.action, recorded_by=body.recorded_by,
                             outcomes=body.outcomes, expected_version=body.expected_version)
        return respond(request, {"match_id": str(match_id), "version": done.version,
                                 "seq": done.seq, "digest": done.digest,
                                 "result": done.result}, 201)

    @app.post("/matches/{match_id}/undo", status_code=201)
    def undo(request: Request, match_id: UUID, body: UndoCreate) -> Response:
        """Void the last actions by appending ActionsUndone."""
        done = kiroku.undo(match_id, body.count, reason=body.reason,
                           recorded_by=body.recorded_by, expected_version=body.expected_version)
        return respond(request, {"match_id": str(match_id), "version": done.version,
                                 "digest": done.digest}, 201)

    @app.get("/matches/{match_id}/state")
    def state(request: Request, match_id: UUID, viewer: ViewerDep,
              at: Annotated[int | None, Query(ge=0, description="Position; now if omitted")]
              = None) -> Response:
        """The position after ``at`` live actions, as ``viewer`` sees it."""
        return respond(request, kiroku.view(match_id, at, viewer))

    @app.get("/matches/{match_id}/legal")
    def legal(request: Request, match_id: UUID,
              seat: Annotated[int, Query(ge=1)]) -> Response:
        """The game actions a seat may take now."""
        return respond(request, kiroku.legal_actions(match_id, seat))

    @app.get("/matches/{match_id}/events")
    def events(request: Request, match_id: UUID, viewer: ViewerDep) -> Response:
        """Every event, filtered for the viewer."""
        return respond(request, kiroku.records(match_id, viewer))

    @app.get("/matches/{match_id}/transcript")
    def transcript(request: Request, match_id: UUID, viewer: ViewerDep) -> Response:
        """One line per event, as the viewer may see it."""
        return respond(request, {"match_id": str(match_id),
                                 "lines": kiroku.transcript(match_id, viewer)})

    @app.get("/matches/{match_id}/audit")
    def audit(request: Request, match_id: UUID) -> Response:
        """Recompute the hash chain and every digest; name the first failing event."""
        return respond(request, kiroku.audit(match_id).to_dict())

    @app.get("/matches/{match_id}/export")
    def export(match_id: UUID, viewer: ViewerDep,
               format: Annotated[str, Query(pattern="^(msgpack|jsonl)$")] = "msgpack"
               ) -> Response:
        """The whole match as a msgpack document or JSON lines."""
        media = MSGPACK if format == "msgpack" else "application/x-ndjson"
        return Response(kiroku.export(match_id, format, viewer), media_type=media)

    @app.post("/matches/import", status_code=201)
    def import_match(request: Request,
                     data: Annotated[bytes, Body(media_type="application/octet-stream")]
                     ) -> Response:
        """Import an exported match after verifying it; nothing is stored if it fails."""
        match_id = kiroku.import_match(data)
        return respond(request, kiroku.summary(match_id), 201)

    return app
