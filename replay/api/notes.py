"""Annotations: comments, symbols, highlights and arrows on a position of a match, in streams
of their own beside it (``replay.annotations`` decides who may write and read each)."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ledger.annotations import SYMBOLS, TEXT_LIMIT
from replay import access
from replay import annotations as annotating
from replay.api.shapes import AnnotationEvent, AnnotationOut
from replay.api.wire import CallerDep, KirokuDep, MatchId, respond

router = APIRouter(tags=["annotations"])

Mark = Annotated[str, Field(min_length=1, max_length=120,
                            description="What a highlight names: a zone (ZONE, ZONE#SEAT), a "
                                        "place in one (a square field:B-2, a cell "
                                        "conspiracy#2:1.3, a hex field#1:A1:2C), a card the "
                                        "readers may see there (its id), or a card in a place "
                                        "(PLACE/CARD: field:M1-3/WGS-012).")]


class AnnotationContent(BaseModel):
    """What an annotation says and shows."""

    model_config = ConfigDict(extra="forbid")
    text: Annotated[str, Field(max_length=TEXT_LIMIT)] = ""
    symbols: Annotated[list[Literal[tuple(SYMBOLS)]],  # type: ignore[valid-type]
                       Field(max_length=len(SYMBOLS))] = []
    highlights: Annotated[list[Mark], Field(max_length=20)] = []
    arrows: Annotated[list[Annotated[list[Mark], Field(min_length=2, max_length=2)]],
                      Field(max_length=20)] = []
    visibility: Literal["private", "team", "judges", "public"] = "private"


class AnnotationCreate(AnnotationContent):
    """A new annotation of a position of the match (the current one if omitted), or of a
    position of one of its variations."""

    position: Annotated[int | None, Field(ge=0, le=1_000_000)] = None
    variation: UUID | None = None


class Withdrawal(BaseModel):
    """Why an annotation is withdrawn."""

    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(min_length=1, max_length=200)]


@router.post("/matches/{match_id}/annotations", status_code=201, response_model=AnnotationOut)
def add(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
        body: AnnotationCreate) -> Response:
    """Annotate a position of the match, as the caller's credential: its seats, judges,
    organisers and commentators (public annotations at the positions they may see)."""
    access.signed_in(caller, "Annotating")
    made = annotating.add(kiroku, kiroku.audience(match_id, caller), body.position, body.text,
                          body.symbols, body.highlights, body.arrows, body.visibility,
                          body.variation)
    return respond(request, made, 201)


@router.get("/matches/{match_id}/annotations", response_model=list[AnnotationOut])
def listing(request: Request, kiroku: KirokuDep, caller: CallerDep,
            match_id: MatchId) -> Response:
    """The match's annotations the caller may read, oldest first."""
    return respond(request, annotating.listing(kiroku, kiroku.audience(match_id, caller)))


@router.post("/annotations/{annotation_id}/amend", response_model=AnnotationOut)
def amend(request: Request, kiroku: KirokuDep, caller: CallerDep, annotation_id: UUID,
          body: AnnotationContent) -> Response:
    """Its author replaces an annotation's content; the history keeps the old."""
    author = access.signed_in(caller, "Amending an annotation")
    return respond(request, annotating.amend(kiroku, author, annotation_id, body.text, body.symbols,
                                        body.highlights, body.arrows, body.visibility))


@router.post("/annotations/{annotation_id}/withdraw", response_model=AnnotationOut)
def withdraw(request: Request, kiroku: KirokuDep, caller: CallerDep, annotation_id: UUID,
             body: Withdrawal) -> Response:
    """Its author, or a judge, withdraws an annotation; the history keeps it."""
    by = access.signed_in(caller, "Withdrawing an annotation")
    return respond(request, annotating.withdraw(kiroku, by, annotation_id, body.reason))


@router.get("/annotations/{annotation_id}/history", response_model=list[AnnotationEvent])
def history(request: Request, kiroku: KirokuDep, caller: CallerDep,
            annotation_id: UUID) -> Response:
    """Every event of an annotation, for its author and the judges."""
    reader = access.signed_in(caller, "An annotation's history")
    return respond(request, annotating.history(kiroku, reader, annotation_id))
