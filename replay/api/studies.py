"""Studies: a match with its annotations and variations as one text document, and back
(``replay.study``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request
from fastapi.responses import PlainTextResponse, Response

from ledger.errors import ImportRejected
from replay import access
from replay import study as studies
from replay.api import errors
from replay.api.heavy import HeavyDep
from replay.api.shapes import StudyImported
from replay.api.wire import CallerDep, KirokuDep, MatchId, respond

router = APIRouter(tags=["annotations"])


@router.get("/matches/{match_id}/study", response_class=PlainTextResponse,
            responses=errors.JSON_ERRORS)
async def export_study(request: Request, kiroku: KirokuDep, caller: CallerDep,
                       match_id: MatchId, reads: HeavyDep) -> PlainTextResponse:
    """The match as a study (text): each live action, with the annotations and variations the
    caller may read (a heavy read, made for the caller alone: ``replay.api.heavy``)."""
    async with reads.turn(request, caller) as turn:
        audience = await turn.light(kiroku.audience, match_id, caller)
        return await turn.heavy(
            lambda: PlainTextResponse(studies.export_study(kiroku, audience)))


@router.post("/studies/import", status_code=201, response_model=StudyImported)
def import_study(request: Request, kiroku: KirokuDep, caller: CallerDep,
                 text: Annotated[bytes, Body(media_type="text/plain")]) -> Response:
    """Add a study's annotations and variations to its match, as the caller; every one is
    checked first, and a refused one stores nothing."""
    by = access.signed_in(caller, "Importing a study")
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError:
        raise ImportRejected("A study is UTF-8 text.") from None
    return respond(request, studies.import_study(kiroku, by, decoded), 201)
