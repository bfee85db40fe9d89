"""Sessions and sign-in links (issue 40): a seat signs in on a phone from its slip's link, a
tournament player once for the whole event, and anyone may turn a token into a session of
this browser. A session is an HttpOnly cookie (docs/architecture.md says why)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import segno
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ledger.errors import Forbidden
from ledger.identity import Identity
from ledger.signin import MAX_VALID_HOURS, VALID_HOURS
from replay import signin
from replay.api.shapes import CallerOut, SignInLinkOut
from replay.api.tournaments import RoundNumber
from replay.api.wire import (
    PAGE_HEADER,
    SESSION_COOKIE,
    CallerDep,
    KirokuDep,
    MatchId,
    TournamentId,
    respond,
)
from replay.service import Kiroku

router = APIRouter(tags=["sessions"])

SESSION_DAYS = 14  # a session outlives closing the tab, for an event's length


class SessionCreate(BaseModel):
    """What opens a session: a sign-in link's code, or a credential's token typed once."""

    model_config = ConfigDict(extra="forbid")
    code: Annotated[str | None, Field(min_length=1, max_length=200,
                                      description="The code of a sign-in link (after "
                                                  "'#code=' in the link).")] = None
    token: Annotated[str | None, Field(min_length=1, max_length=200,
                                       description="A credential's token.")] = None

    @model_validator(mode="after")
    def _one(self) -> SessionCreate:
        if (self.code is None) == (self.token is None):
            raise ValueError("give either 'code' (a sign-in link's) or 'token', not both")
        return self


class LinksCreate(BaseModel):
    """New sign-in links: how long they stay valid, and whether the sessions older links
    opened end now (a lost or handed-over phone)."""

    model_config = ConfigDict(extra="forbid")
    seats: Annotated[list[Annotated[int, Field(ge=1, le=64)]] | None, Field(
        max_length=64, description="The seats to issue links for (a match's links only; "
                                   "default: every seat).")] = None
    valid_hours: Annotated[int, Field(ge=1, le=MAX_VALID_HOURS)] = VALID_HOURS
    revoke_sessions: bool = False
    scorekeeper: Annotated[bool, Field(description="One link for the match's scorekeeper "
                                       "instead (one device that records both seats; a "
                                       "match's links only).")] = False


def _page_only(request: Request) -> None:
    """Opening or ending a session is done by Kiroku's pages: another site's page cannot send
    the header, so it cannot sign a visitor in as someone else (login CSRF)."""
    if request.headers.get(PAGE_HEADER) != "1":
        raise Forbidden("page_header_missing", "Opening or ending a session needs the header "
                        f"'{PAGE_HEADER}: 1' (Kiroku's pages send it).")


def _me(kiroku: Kiroku, caller: Identity, session: bool) -> dict[str, Any]:
    return {"credential_id": str(caller.credential_id), "role": caller.role.value,
            "name": caller.name, "match_id": str(caller.match_id) if caller.match_id else None,
            "seat": caller.seat,
            "tournament_id": str(caller.tournament_id) if caller.tournament_id else None,
            "player_id": str(caller.player_id) if caller.player_id else None,
            "plays": signin.my_matches(kiroku, caller), "session": session}


@router.get("/me", response_model=CallerOut)
def whoami(request: Request, kiroku: KirokuDep, caller: CallerDep) -> Response:
    """The caller behind the request's credential (a spectator without one), and the matches
    it plays."""
    if caller is None:
        return respond(request, {"role": "spectator"})
    return respond(request, _me(kiroku, caller,
                                "authorization" not in request.headers))


@router.post("/sessions", status_code=201, response_model=CallerOut)
def open_session(request: Request, kiroku: KirokuDep, body: SessionCreate) -> Response:
    """Open a session of this browser: from a sign-in link's code (spent: each link signs in
    one phone once) or a credential's token. The answer sets the session cookie (HttpOnly,
    SameSite=Strict) and says who is signed in and which matches they play."""
    _page_only(request)
    if body.code is not None:
        identity, token = kiroku.links.sign_in(body.code)
    else:
        assert body.token is not None
        identity, token = kiroku.credentials.authenticate(body.token), body.token
    answer = respond(request, _me(kiroku, identity, True), 201)
    answer.set_cookie(SESSION_COOKIE, token, max_age=SESSION_DAYS * 86400, path="/",
                      httponly=True, samesite="strict",
                      secure=request.url.scheme == "https")
    return answer


@router.delete("/sessions/current", response_model=CallerOut)
def close_session(request: Request, kiroku: KirokuDep, caller: CallerDep) -> Response:
    """Sign this browser out: the cookie is cleared, and a session a link opened is revoked
    (a token typed into the page stays valid elsewhere). Answers who the browser is now: a
    spectator."""
    _page_only(request)
    if caller is not None and "authorization" not in request.headers and (
            kiroku.links.is_session(caller)):
        kiroku.credentials.revoke(caller.credential_id, reason="signed out",
                                  revoked_by=str(caller.credential_id))
    answer = respond(request, {"role": "spectator"})
    answer.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict",
                         secure=request.url.scheme == "https")
    return answer


def _linked(request: Request, issued: dict[str, Any]) -> dict[str, Any]:
    """An issued link with its address and QR code."""
    link = f"{str(request.base_url).rstrip('/')}/sign-in#code={issued['code']}"
    qr = segno.make(link, error="m").svg_data_uri(scale=4, border=2)
    return {**issued, "link": link, "qr": qr}


@router.post("/matches/{match_id}/links", status_code=201, response_model=list[SignInLinkOut])
def match_links(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
                body: LinksCreate | None = None) -> Response:
    """New sign-in links for a match's seats (judges, and for a tournament's match its own
    judges and the organisers): one per seat, each with its slip's event, round, table and
    player. Each seat's older link stops working."""
    body = body or LinksCreate()
    issued = signin.seat_links(kiroku, caller, match_id, body.seats,
                               valid_hours=body.valid_hours,
                               revoke_sessions=body.revoke_sessions,
                               scorekeeper=body.scorekeeper)
    return respond(request, [_linked(request, i) for i in issued], 201)


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/links", status_code=201,
             response_model=list[SignInLinkOut])
def round_links(request: Request, kiroku: KirokuDep, caller: CallerDep,
                tournament_id: TournamentId, round_number: RoundNumber,
                body: LinksCreate | None = None) -> Response:
    """New sign-in links for every seat of every table of a round (the round's slips)."""
    body = body or LinksCreate()
    issued = signin.round_links(kiroku, caller, tournament_id, round_number,
                                valid_hours=body.valid_hours)
    return respond(request, [_linked(request, i) for i in issued], 201)


@router.post("/tournaments/{tournament_id}/players/{player_id}/link", status_code=201,
             response_model=SignInLinkOut)
def player_link(request: Request, kiroku: KirokuDep, caller: CallerDep,
                tournament_id: TournamentId, player_id: UUID,
                body: LinksCreate | None = None) -> Response:
    """A new sign-in link for a tournament's player: one sign-in for the event, playing each
    of their paired matches as their seat. Their older link stops working."""
    body = body or LinksCreate()
    issued = signin.player_link(kiroku, caller, tournament_id, player_id,
                                valid_hours=body.valid_hours,
                                revoke_sessions=body.revoke_sessions)
    return respond(request, _linked(request, issued), 201)
