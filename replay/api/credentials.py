"""Credentials: the organiser issuing and revoking judges',
organisers' and commentators' tokens (seat credentials come with a match: see matches)."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ledger.identity import NAME_LIMIT, Role
from replay import access
from replay.api.shapes import CredentialIssued, CredentialOut, CredentialRevoked
from replay.api.wire import CallerDep, KirokuDep, respond

router = APIRouter(tags=["credentials"])


class CredentialCreate(BaseModel):
    """A judge's, an organiser's or a commentator's credential (a commentator reads every
    match as a spectator does and writes public annotations and studies beside it)."""

    model_config = ConfigDict(extra="forbid")
    role: Literal["judge", "organiser", "commentator"]
    name: Annotated[str, Field(min_length=1, max_length=NAME_LIMIT,
                               description="The display name events recorded with it carry.")]


class Revocation(BaseModel):
    """Why a credential is revoked."""

    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(min_length=1, max_length=200)]


@router.post("/credentials", status_code=201, response_model=CredentialIssued)
def issue(request: Request, kiroku: KirokuDep, caller: CallerDep,
          body: CredentialCreate) -> Response:
    """Issue a judge's, an organiser's or a commentator's credential; its token is shown
    this once."""
    by = access.organiser(caller, "Issuing credentials")
    identity, token = kiroku.credentials.issue(Role(body.role), body.name,
                                               issued_by=str(by.credential_id))
    return respond(request, {"credential_id": str(identity.credential_id),
                             "role": identity.role.value, "name": identity.name,
                             "token": token}, 201)


@router.get("/credentials", response_model=list[CredentialOut])
def listing(request: Request, kiroku: KirokuDep, caller: CallerDep) -> Response:
    """Every credential ever issued (never a token: only hashes are kept)."""
    access.organiser(caller, "Listing credentials")
    return respond(request, [
        {"credential_id": str(i.credential_id), "role": i.role.value, "name": i.name,
         "match_id": str(i.match_id) if i.match_id else None, "seat": i.seat,
         "revoked": kiroku.credentials.is_revoked(i)} for i in kiroku.credentials.issued()])


@router.post("/credentials/{credential_id}/revoke", response_model=CredentialRevoked)
def revoke(request: Request, kiroku: KirokuDep, caller: CallerDep, credential_id: UUID,
           body: Revocation) -> Response:
    """Revoke a credential: its token stops working at once."""
    by = access.organiser(caller, "Revoking credentials")
    kiroku.credentials.revoke(credential_id, reason=body.reason,
                              revoked_by=str(by.credential_id))
    return respond(request, {"credential_id": str(credential_id), "revoked": True})
