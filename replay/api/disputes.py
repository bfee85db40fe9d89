"""Disputes: calling a judge about a position, the evidence, rulings with remedies and appeals
(``replay.disputes`` decides who may do and read what)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ledger.disputes import CLAIM_LIMIT
from replay import access, console
from replay import disputes as hearing
from replay.api.limits import Plain
from replay.api.shapes import DisputeOut, DisputeRead, OpenCall
from replay.api.wire import CallerDep, DisputeId, KirokuDep, MatchId, respond

router = APIRouter(tags=["disputes"])


class DisputeOpen(BaseModel):
    """A call for a judge: the claim, where, and the events it concerns."""

    model_config = ConfigDict(extra="forbid")
    claim: Annotated[str, Field(min_length=1, max_length=CLAIM_LIMIT)]
    position: Annotated[int | None, Field(ge=0, le=1_000_000,
                                          description="Default: the current one.")] = None
    concerns: Annotated[list[Annotated[int, Field(ge=1, le=1_000_000)]],
                        Field(max_length=100, description="Event versions.")] = []
    pause: Annotated[bool, Field(description="Pause the match until the ruling (judges "
                                             "only).")] = False


class DisputeTake(BaseModel):
    """A judge takes the dispute."""

    model_config = ConfigDict(extra="forbid")
    pause: bool = False


class Remedy(BaseModel):
    """What the ruling does to the match."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["none", "backup", "adjustment", "penalty", "game_ruling", "reopen"]
    to_position: Annotated[int | None, Field(ge=0, le=1_000_000)] = None
    action: dict[str, Plain] | None = None
    penalty: Literal["warning", "game_loss"] | None = None
    seat: Annotated[int | None, Field(ge=1, le=64)] = None


class Ruling(BaseModel):
    """A judge's ruling (an organiser's on appeal)."""

    model_config = ConfigDict(extra="forbid")
    decision: Annotated[str, Field(min_length=1, max_length=200)]
    reasoning: Annotated[str, Field(min_length=1, max_length=CLAIM_LIMIT)]
    remedy: Remedy


class Appeal(BaseModel):
    """Why a ruling is appealed."""

    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(min_length=1, max_length=500)]


def _remedy(remedy: Remedy) -> dict[str, Any]:
    return {k: v for k, v in remedy.model_dump().items() if v is not None}


@router.post("/matches/{match_id}/disputes", status_code=201, response_model=DisputeOut)
def open_dispute(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
                 body: DisputeOpen) -> Response:
    """Call a judge about a position of the match (a seat of it, or a judge)."""
    by = access.signed_in(caller, "Opening a dispute")
    return respond(request, hearing.open_dispute(kiroku, by, match_id, body.position,
                                                 body.claim, body.concerns, body.pause), 201)


@router.get("/matches/{match_id}/disputes", response_model=list[DisputeOut])
def listing(request: Request, kiroku: KirokuDep, caller: CallerDep,
            match_id: MatchId) -> Response:
    """The match's disputes, for its seats and judges."""
    return respond(request, hearing.listing(kiroku, kiroku.audience(match_id, caller)))


@router.get("/disputes", response_model=list[OpenCall])
def open_calls(request: Request, kiroku: KirokuDep, caller: CallerDep) -> Response:
    """The calls waiting for a judge (open or appealed disputes) in the live matches the
    caller hears, oldest first: the judge's console polls it for new calls."""
    return respond(request, console.open_calls(kiroku, caller))


@router.get("/disputes/{dispute_id}", response_model=DisputeRead)
def read(request: Request, kiroku: KirokuDep, caller: CallerDep, dispute_id: DisputeId) -> Response:
    """A dispute with its evidence, filtered for the caller."""
    return respond(request, hearing.read(kiroku, caller, dispute_id))


@router.post("/disputes/{dispute_id}/take", response_model=DisputeOut)
def take(request: Request, kiroku: KirokuDep, caller: CallerDep, dispute_id: DisputeId,
         body: DisputeTake) -> Response:
    """A judge takes the dispute, and may pause the match for it."""
    judge = access.signed_in(caller, "Taking a dispute")
    return respond(request, hearing.take(kiroku, judge, dispute_id, body.pause))


@router.post("/disputes/{dispute_id}/rule", response_model=DisputeOut)
def rule(request: Request, kiroku: KirokuDep, caller: CallerDep, dispute_id: DisputeId,
         body: Ruling) -> Response:
    """Rule, applying the remedy to the match (an organiser rules on appeal)."""
    judge = access.signed_in(caller, "Ruling")
    return respond(request, hearing.rule(kiroku, judge, dispute_id, body.decision,
                                         body.reasoning, _remedy(body.remedy)))


@router.post("/disputes/{dispute_id}/appeal", response_model=DisputeOut)
def appeal(request: Request, kiroku: KirokuDep, caller: CallerDep, dispute_id: DisputeId,
           body: Appeal) -> Response:
    """Appeal a ruling to the organisers (the head judges)."""
    by = access.signed_in(caller, "Appealing")
    return respond(request, hearing.appeal(kiroku, by, dispute_id, body.reason))
