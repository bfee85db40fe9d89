"""Recording: actions by the seat that takes them (or a judge), undo by judges, and each seat's
legal actions. Who may do what is decided before the rules see the request (replay.access)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from engine.core.errors import ActionError
from engine.registry import get_game
from replay import access, console
from replay.api.limits import Plain
from replay.api.shapes import ActionRecorded, ActionsUndone, Adjustable, TurnOut
from replay.api.wire import MatchId, MatchText, audience_of, caller_of, kiroku_of, respond
from replay.reasons import ServiceReason as R

router = APIRouter(tags=["recording"])


class ActionCreate(BaseModel):
    """One action to record; ``recorded_by`` is the credential's identity, never the body's."""

    model_config = ConfigDict(extra="forbid")
    action: dict[Annotated[str, Field(max_length=60)], Plain] = Field(
        description="The game action; see GET /games/{game}/actions.")
    outcomes: list[Plain] | None = Field(
        default=None, description="Chance outcomes from a physical table (cards drawn, dice).")
    expected_version: int | None = Field(
        default=None, ge=0, le=2**53,
        description="Append only if the match is still at this version (else 409).")


class UndoCreate(BaseModel):
    """A judge's backup: back to position ``to_position`` (idempotent, race-free: the way to
    undo), or the last ``count`` actions (1 when neither is given)."""

    model_config = ConfigDict(extra="forbid")
    to_position: int | None = Field(default=None, ge=0, le=2**53, description="Void every "
                                    "action after this position; nothing happens if the match "
                                    "already stands there.")
    count: int | None = Field(default=None, ge=1, le=100_000, description="Void the last "
                              "actions, whatever they are (pair it with expected_version).")
    reason: str = Field(min_length=1, max_length=500)
    expected_version: int | None = Field(default=None, ge=0, le=2**53)


@router.post("/matches/{match_id}/actions", status_code=201, response_model=ActionRecorded,
             responses={200: {"model": ActionRecorded,
                              "description": "The same action was already recorded on that "
                                             "expected_version by the same credential (a "
                                             "resend): its answer again; nothing stored"}})
def record_action(request: Request, match_id: MatchText, body: ActionCreate) -> Response:
    """Record one action; 422 with the rule's reason code if illegal, nothing stored; 200
    with the first answer when it is the same action sent again on the same
    ``expected_version`` by the same credential (a lost answer's resend). A
    refusal names no card the caller may not know: an action naming a card hidden from it
    gets the same refusal as one naming a card that does not exist (``card_not_seen``)."""
    kiroku = kiroku_of(request)  # the service, the caller and the ids: wire.kiroku_of says why
    # loading the match also brings this worker's cached copy up to what another worker has
    # appended, which ``record`` appends to unread (docs/architecture.md, "Nor the match's id")
    audience = audience_of(request, match_id)
    named = audience.match.id
    by = audience.actor(body.action, outcomes=body.outcomes is not None,
                        judges_only=get_game(audience.match.game).judges_only(
                            body.action.get("type")))
    done = kiroku.record(named, body.action, recorded_by=by.recorded_by,
                         outcomes=body.outcomes, expected_version=body.expected_version,
                         asker=audience.asker)
    request.app.state.following.moved(named, done.version)  # its live streams, at once
    return respond(request, {"match_id": str(named), "version": done.version,
                             "seq": done.seq, "digest": done.digest, "result": done.result,
                             "receipt": done.receipt}, 200 if done.resent else 201)


@router.post("/matches/{match_id}/undo", status_code=201, response_model=ActionsUndone,
             responses={200: {"model": ActionsUndone,
                              "description": "The match already stood at to_position"}})
def undo(request: Request, match_id: MatchId, body: UndoCreate) -> Response:
    """Void actions by appending ActionsUndone (judges and organisers): 201 when something was
    undone, 200 when the match already stood at ``to_position``."""
    kiroku = kiroku_of(request)
    by = access.staff(caller_of(request), "Undoing actions")
    if body.count is not None and body.to_position is not None:
        raise ActionError(R.BAD_UNDO, "Give to_position or count, not both.")
    count = body.count if body.count is not None or body.to_position is not None else 1
    done = kiroku.undo(match_id, count, reason=body.reason, recorded_by=by.recorded_by,
                       expected_version=body.expected_version, to_position=body.to_position)
    request.app.state.following.moved(match_id, done.version)
    return respond(request, {"match_id": str(match_id), "version": done.version,
                             "digest": done.digest, "receipt": done.receipt},
                   201 if done.appended else 200)


@router.get("/matches/{match_id}/legal", response_model=list[dict[str, Any]])
def legal(request: Request, match_id: MatchText,
          seat: Annotated[int | None, Query(ge=1, le=64, description="A judge's choice of "
                                            "seat; a seat's credential lists its own.")]
          = None) -> Response:
    """The game actions a seat may take now."""
    kiroku = kiroku_of(request)
    audience = audience_of(request, match_id)
    return respond(request, kiroku.legal_actions(audience, audience.legal_seat(seat)))


@router.get("/matches/{match_id}/turn", response_model=TurnOut)
def turn(request: Request, match_id: MatchText,
         seat: Annotated[int | None, Query(ge=1, le=64, description="A judge's choice of "
                                           "seat; a seat's credential reads its own.")]
         = None) -> Response:
    """What the match waits for, as a seat's page shows it: the version to act on, who is to
    act, a pause, and the seat's legal actions in words with the choices behind them."""
    kiroku = kiroku_of(request)
    audience = audience_of(request, match_id)
    return respond(request, kiroku.turn(audience, audience.legal_seat(seat)))


@router.get("/matches/{match_id}/adjustable", response_model=Adjustable)
def adjustable(request: Request, match_id: MatchId) -> Response:
    """What an adjustment may touch now (judges): every place with its cards, every counter
    with its value and bounds, the stats lasting modifiers change, the phases; what the
    judge's console builds its adjustment form from."""
    kiroku = kiroku_of(request)
    return respond(request, console.adjustable(kiroku, kiroku.audience(match_id,
                                                                       caller_of(request))))
