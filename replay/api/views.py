"""Reading a match: positions, events, transcripts, exports and the audit, each seen by the
request's one audience (``replay.audience``: the credential, narrowed by ``?viewer=``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response

from ledger.errors import CorruptRecord
from replay import beside
from replay import study as studies
from replay.api.heavy import HeavyDep
from replay.api.limits import Plain
from replay.api.shapes import AuditOut, EventRecord, PositionOut, TranscriptOut
from replay.api.wire import (
    MSGPACK,
    AskedViewer,
    CallerDep,
    KirokuDep,
    MatchId,
    MatchText,
    ViewerText,
    audience_of,
    kiroku_of,
    respond,
)
from replay.service import Window

router = APIRouter(tags=["replay"])
JSONL = "application/x-ndjson"


@router.get("/matches/{match_id}/state", response_model=PositionOut)
def state(request: Request, match_id: MatchText,
          at: Annotated[int | None, Query(ge=0, description="Position; now if omitted")]
          = None, viewer: ViewerText = None) -> Response:
    """The position after ``at`` live actions, as the caller sees it."""
    kiroku = kiroku_of(request)  # the service, the caller and the ids: wire.kiroku_of says why
    return respond(request, kiroku.view(audience_of(request, match_id, viewer), at))


Until = Annotated[int | None, Query(ge=0, le=10_000_000, description=(
    "Only the events up to this version (as the match stood then); the last the caller may "
    "see if omitted."))]
Last = Annotated[int | None, Query(ge=1, le=10_000, description=(
    "Only the last this many of them: a long match read a window at a time."))]


@router.get("/matches/{match_id}/events", response_model=list[EventRecord])
async def events(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
                 viewer: AskedViewer, reads: HeavyDep, until: Until = None,
                 last: Last = None) -> Response:
    """Every event, filtered for the caller (``until`` and ``last``: a window of them; a
    heavy read: ``replay.api.heavy``)."""
    window = Window(until, last)
    async with reads.turn(request, caller) as turn:
        audience = await turn.light(kiroku.audience, match_id, caller, viewer)
        if window.whole:
            return await turn.answer(("events", audience.sight),
                                     lambda: respond(request, kiroku.records(audience)))
        return await turn.answer(("events", audience.sight, window.bounds(audience)),
                                 lambda: respond(request, kiroku.records(audience, window)))


@router.get("/matches/{match_id}/transcript", response_model=TranscriptOut)
async def transcript(request: Request, kiroku: KirokuDep, caller: CallerDep,
                     match_id: MatchId, viewer: AskedViewer, reads: HeavyDep,
                     annotated: Annotated[bool, Query(description="With the annotations and "
                                                      "disputes the caller may read")] = False,
                     until: Until = None, last: Last = None) -> Response:
    """One line per event, as the caller may see it (with ``viewer``: as that viewer would,
    annotations included; a heavy read: ``replay.api.heavy``). With ``until`` or ``last``,
    the lines of that window of events, as the transcript stood at its last one, with
    ``after`` (the version before its first line) and ``positions_before`` (the live
    positions reached up to it): a long match's page reads its last moves first."""
    window = Window(until, last)
    async with reads.turn(request, caller) as turn:
        audience = await turn.light(kiroku.audience, match_id, caller, viewer)
        if not window.whole and not annotated:
            return await turn.answer(
                ("transcript", audience.sight, window.bounds(audience)),
                lambda: respond(request, kiroku.transcript_window(audience, window)))
        if annotated:  # what the caller may read beside the match: made for it alone
            return await turn.heavy(lambda: respond(request, {
                "match_id": str(match_id),
                "lines": studies.annotated_transcript(kiroku, audience)}))
        return await turn.answer(("transcript", audience.sight), lambda: respond(request, {
            "match_id": str(match_id), "lines": kiroku.transcript(audience)}))


@router.get("/matches/{match_id}/audit", response_model=AuditOut)
async def audit(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
                reads: HeavyDep) -> Response:
    """Recompute the hash chain and every digest; name the first failing event. Anyone who
    may watch the match may ask, and it covers what they may see (a delayed spectator's, the
    events up to its horizon): the report names versions and reasons, never a hidden value.
    Judges also get ``beside``: the audit of the match's variations, disputes and
    annotations. A heavy read (``replay.api.heavy``): the report is kept per match version
    and audience."""
    async with reads.turn(request, caller) as turn:
        try:
            audience = await turn.light(kiroku.audience, match_id, caller)
        except CorruptRecord:
            if caller is None or not caller.is_staff:
                raise
            # the audit is how a broken store is examined: judges get the whole report
            return respond(request, await turn.heavy(lambda: kiroku.audit(match_id).to_dict()))
        report = await turn.value(("audit", audience.sight),
                                  lambda: kiroku.audit_seen(audience).to_dict())
        if audience.is_staff:  # the streams beside the match change apart from it: made anew
            report = {**report, "beside": await turn.heavy(
                lambda: beside.verify(kiroku, match_id))}
        return respond(request, report)


@router.post("/matches/{match_id}/audit", response_model=AuditOut)
async def audit_with_receipts(request: Request, kiroku: KirokuDep, caller: CallerDep,
                              match_id: MatchId,
                              receipts: Annotated[list[dict[str, Plain]],
                                                  Body(max_length=10_000)],
                              reads: HeavyDep) -> Response:
    """The audit, and the stored match held against signed receipts its seats or judges kept
    (a JSON list): a removed or rewritten event up to any of them fails it. As the GET, it
    covers what the caller may see (a heavy read, made for it alone)."""
    async with reads.turn(request, caller) as turn:
        audience = await turn.light(kiroku.audience, match_id, caller)
        return await turn.heavy(lambda: respond(
            request, kiroku.audit_seen(audience, receipts).to_dict()))


@router.get("/matches/{match_id}/export", response_class=Response, responses={200: {
    "description": "The export: a msgpack document, or JSON lines (the header first)",
    "content": {MSGPACK: {"schema": {"type": "string", "format": "binary"}},
                JSONL: {"schema": {"type": "string"}}}}})
async def export(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
                 viewer: AskedViewer, reads: HeavyDep,
                 format: Annotated[str, Query(pattern="^(msgpack|jsonl)$")] = "msgpack"
                 ) -> Response:
    """The whole match as a msgpack document or JSON lines, as the caller sees it: without
    ``viewer``, as the credential sees it (a judge's or organiser's is the judge's view, a
    seat's its seat's, none a spectator's); only a judge's export can be imported again. A
    heavy read (``replay.api.heavy``): kept per match version and audience, with the receipt
    signed when it was made."""
    media = MSGPACK if format == "msgpack" else JSONL
    async with reads.turn(request, caller) as turn:
        audience = await turn.light(kiroku.audience, match_id, caller, viewer)
        return await turn.answer(("export", audience.sight, format), lambda: Response(
            kiroku.export(audience, format), media_type=media))
