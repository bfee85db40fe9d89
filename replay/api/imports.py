"""Importing a judge's export from another store (judges and organisers)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request
from fastapi.responses import Response

from replay import access
from replay.api.shapes import MatchImported
from replay.api.wire import CallerDep, KirokuDep, respond

router = APIRouter(tags=["matches"])


@router.post("/matches/import", status_code=201, response_model=MatchImported,
             responses={200: {"model": MatchImported,
                              "description": "Exactly this match is already here"}})
def import_match(request: Request, kiroku: KirokuDep, caller: CallerDep,
                 data: Annotated[bytes, Body(media_type="application/octet-stream")]
                 ) -> Response:
    """Import an exported match after verifying it; nothing is stored if it fails. 201 when
    stored; 200 with ``"stored": false`` when exactly this match is already here."""
    by = access.staff(caller, "Importing a match")
    done = kiroku.import_match(data)
    return respond(request, {**kiroku.summary(kiroku.audience(done.match_id, by)),
                             "stored": done.stored},
                   201 if done.stored else 200)
