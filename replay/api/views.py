"""Reading a match: positions, events, transcripts, exports and the audit, each seen by the
request's one audience (``replay.audience``: the credential, narrowed by ``?viewer=``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response

from replay import beside
from replay import study as studies
from replay.api.limits import Plain
from replay.api.shapes import AuditOut, EventRecord, PositionOut, TranscriptOut
from replay.api.wire import MSGPACK, AskedViewer, CallerDep, KirokuDep, MatchId, respond

router = APIRouter(tags=["replay"])
JSONL = "application/x-ndjson"


@router.get("/matches/{match_id}/state", response_model=PositionOut)
def state(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
          viewer: AskedViewer,
          at: Annotated[int | None, Query(ge=0, description="Position; now if omitted")]
          = None) -> Response:
    """The position after ``at`` live actions, as the caller sees it."""
    return respond(request, kiroku.view(kiroku.audience(match_id, caller, viewer), at))


@router.get("/matches/{match_id}/events", response_model=list[EventRecord])
def events(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
           viewer: AskedViewer) -> Response:
    """Every event, filtered for the caller."""
    return respond(request, kiroku.records(kiroku.audience(match_id, caller, viewer)))


@router.get("/matches/{match_id}/transcript", response_model=TranscriptOut)
def transcript(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
               viewer: AskedViewer,
               annotated: Annotated[bool, Query(description="With the annotations and "
                                                "disputes the caller may read")] = False
               ) -> Response:
    """One line per event, as the caller may see it (with ``viewer``: as that viewer would,
    annotations included)."""
    audience = kiroku.audience(match_id, caller, viewer)
    if annotated:
        lines = studies.annotated_transcript(kiroku, audience)
    else:
        lines = kiroku.transcript(audience)
    return respond(request, {"match_id": str(match_id), "lines": lines})


@router.get("/matches/{match_id}/audit", response_model=AuditOut)
def audit(request: Request, kiroku: KirokuDep, caller: CallerDep,
          match_id: MatchId) -> Response:
    """Recompute the hash chain and every digest; name the first failing event. Anyone who
    may watch the match may ask, and it covers what they may see (a delayed spectator's, the
    events up to its horizon): the report names versions and reasons, never a hidden value.
    Judges also get ``beside``: the audit of the match's variations, disputes and
    annotations."""
    audience = kiroku.audience(match_id, caller)
    report = kiroku.audit_seen(audience).to_dict()
    if audience.is_staff:
        report["beside"] = beside.verify(kiroku, match_id)
    return respond(request, report)


@router.post("/matches/{match_id}/audit", response_model=AuditOut)
def audit_with_receipts(request: Request, kiroku: KirokuDep, caller: CallerDep,
                        match_id: MatchId, receipts: Annotated[list[dict[str, Plain]],
                                                               Body(max_length=10_000)]
                        ) -> Response:
    """The audit, and the stored match held against signed receipts its seats or judges kept
    (a JSON list): a removed or rewritten event up to any of them fails it. As the GET, it
    covers what the caller may see."""
    audience = kiroku.audience(match_id, caller)
    return respond(request, kiroku.audit_seen(audience, receipts).to_dict())


@router.get("/matches/{match_id}/export", response_class=Response, responses={200: {
    "description": "The export: a msgpack document, or JSON lines (the header first)",
    "content": {MSGPACK: {"schema": {"type": "string", "format": "binary"}},
                JSONL: {"schema": {"type": "string"}}}}})
def export(kiroku: KirokuDep, caller: CallerDep, match_id: MatchId, viewer: AskedViewer,
           format: Annotated[str, Query(pattern="^(msgpack|jsonl)$")] = "msgpack") -> Response:
    """The whole match as a msgpack document or JSON lines, as the caller sees it: without
    ``viewer``, as the credential sees it (a judge's or organiser's is the judge's view, a
    seat's its seat's, none a spectator's); only a judge's export can be imported again."""
    media = MSGPACK if format == "msgpack" else JSONL
    return Response(kiroku.export(kiroku.audience(match_id, caller, viewer), format),
                    media_type=media)
