"""Variations: what-if lines from a position of a match, played through the same rules
(``replay.variations`` decides who may branch and read)."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from replay import access
from replay import variations as lines
from replay.api.limits import Plain
from replay.api.shapes import LineOption, VariationOut, VariationRead
from replay.api.wire import CallerDep, KirokuDep, MatchId, respond

router = APIRouter(tags=["variations"])


class VariationStart(BaseModel):
    """Where a variation branches: a live position of the match, or a position of another
    variation (``parent``)."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=80)]
    position: Annotated[int | None, Field(ge=0, le=1_000_000)] = None
    parent: UUID | None = None
    parent_position: Annotated[int | None, Field(ge=0, le=1_000_000)] = None
    visibility: Literal["private", "public"] = "private"


class VariationMove(BaseModel):
    """One action at the tip of the line, with chance outcomes entered or drawn from the
    variation's own seed."""

    model_config = ConfigDict(extra="forbid")
    action: dict[str, Plain]
    outcomes: Annotated[list[Plain] | None, Field(max_length=200)] = None


class TakeBack(BaseModel):
    """How many actions at the tip no longer stand."""

    model_config = ConfigDict(extra="forbid")
    count: Annotated[int, Field(ge=1, le=2000)] = 1


@router.post("/matches/{match_id}/variations", status_code=201,
             response_model=VariationOut)
def start(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
          body: VariationStart) -> Response:
    """Branch a what-if line (judges always; anyone once the match is open to all)."""
    access.signed_in(caller, "Branching a variation")
    return respond(request, lines.start(kiroku, kiroku.audience(match_id, caller),
                                        body.position, body.parent,
                                        body.parent_position, body.name, body.visibility), 201)


@router.get("/matches/{match_id}/variations", response_model=list[VariationOut])
def listing(request: Request, kiroku: KirokuDep, caller: CallerDep,
            match_id: MatchId) -> Response:
    """The match's variations the caller may read."""
    return respond(request, lines.listing(kiroku, kiroku.audience(match_id, caller)))


@router.get("/variations/{variation_id}", response_model=VariationRead)
def read(request: Request, kiroku: KirokuDep, caller: CallerDep, variation_id: UUID,
         at: Annotated[int | None, Query(ge=0, le=1_000_000,
                                         description="Position in the line; the tip if "
                                                     "omitted")] = None) -> Response:
    """A variation with the position after ``at`` of its actions."""
    return respond(request, lines.read(kiroku, caller, variation_id, at))


@router.post("/variations/{variation_id}/actions", status_code=201,
             response_model=VariationOut)
def play(request: Request, kiroku: KirokuDep, caller: CallerDep, variation_id: UUID,
         body: VariationMove) -> Response:
    """Play one action at the tip of the line (its author or a judge)."""
    by = access.signed_in(caller, "Playing a variation")
    outcomes: list[Any] | None = body.outcomes
    return respond(request, lines.play(kiroku, by, variation_id, body.action, outcomes), 201)


@router.get("/variations/{variation_id}/legal", response_model=list[LineOption])
def legal(request: Request, kiroku: KirokuDep, caller: CallerDep, variation_id: UUID,
          seat: Annotated[int | None, Query(ge=1, le=64, description=(
              "The seat (default: the caller's own, or the first to act)."))] = None
          ) -> Response:
    """What a seat may do at the tip of the line, in words too (its author or a judge)."""
    by = access.signed_in(caller, "Playing a variation")
    return respond(request, lines.legal(kiroku, by, variation_id, seat))


@router.post("/variations/{variation_id}/take-back", response_model=VariationOut)
def take_back(request: Request, kiroku: KirokuDep, caller: CallerDep, variation_id: UUID,
              body: TakeBack) -> Response:
    """The last actions of the line no longer stand (kept in its history)."""
    by = access.signed_in(caller, "Taking back")
    return respond(request, lines.take_back(kiroku, by, variation_id, body.count))
