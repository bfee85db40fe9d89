"""Who may see and do what: the one access policy behind every channel (issue 8).

The caller is an authenticated ``Identity``, or None for a request without a credential (a
spectator). The policy decides the viewer of every read and who may record, undo, adjust,
import and manage credentials; the request only ever narrows what its credential allows.

======================  ==========================================================
organiser               everything a judge may do; creates matches; issues and
                        revokes credentials
judge                   the judge's view of every match, actions for any seat,
                        undo, adjustments, importable exports, import, reissuing a
                        seat's credential
seat N of match M       that seat's view of M and its legal actions; actions of
                        seat N only (chance outcomes only in a table match); a
                        spectator of every other match
player of tournament T  their own decklist of T (``replay.tournaments``); a
                        spectator of every match
no credential           a spectator: public views under each match's policy
======================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from engine.core.errors import ActionError
from engine.core.viewer import SPECTATOR, Viewer
from ledger.errors import Forbidden
from ledger.identity import Identity, Role, Unauthenticated
from ledger.tournaments import Tournament

Caller = Identity | None
"""An authenticated identity, or None: no credential, a spectator."""


def signed_in(caller: Caller, what: str) -> Identity:
    """The caller's identity, or Unauthenticated (401) for a request without a credential."""
    if caller is None:
        raise Unauthenticated(f"{what} needs a credential: send 'Authorization: Bearer TOKEN'.")
    return caller


def viewer_for(caller: Caller, match_id: UUID, asked: Viewer | None = None) -> Viewer:
    """How ``caller`` sees ``match_id``; ``asked`` may only narrow it (a judge asking for a
    seat's view, a seat for the spectators'), anything more is Forbidden."""
    allowed = caller.viewer_of(match_id) if caller else SPECTATOR
    if asked is None or asked == allowed or allowed.is_judge or asked == SPECTATOR:
        return asked or allowed
    raise Forbidden("viewer_not_allowed", f"Your credential sees this match as {allowed}; it "
                    f"cannot ask for the view of {asked}.", allowed=str(allowed))


def staff(caller: Caller, what: str) -> Identity:
    """A judge or an organiser, or Forbidden (Unauthenticated without a credential)."""
    identity = signed_in(caller, what)
    if not identity.is_staff:
        raise Forbidden("judges_only", f"{what} is for judges and organisers.")
    return identity


def organiser(caller: Caller, what: str) -> Identity:
    """An organiser, or Forbidden (Unauthenticated without a credential)."""
    identity = signed_in(caller, what)
    if identity.role != Role.ORGANISER:
        raise Forbidden("organisers_only", f"{what} is for organisers.")
    return identity


def tournament_judge(caller: Caller, tournament: Tournament, what: str) -> Identity:
    """An organiser or one of the tournament's judges (its head judge too), or Forbidden."""
    identity = signed_in(caller, what)
    if identity.role == Role.ORGANISER or (
            identity.role == Role.JUDGE and tournament.is_judge(identity.credential_id)):
        return identity
    raise Forbidden("tournament_staff_only", f"{what} is for this tournament's judges and the "
                    "organisers.")


def head_judge(caller: Identity, tournament: Tournament | None) -> bool:
    """Whether ``caller`` hears appeals: an organiser, or the head judge of the match's
    tournament."""
    return caller.role == Role.ORGANISER or (
        tournament is not None and tournament.head_judge is not None
        and tournament.head_judge["id"] == str(caller.credential_id))


def decklist_reader(caller: Caller, tournament: Tournament, player_id: UUID) -> None:
    """Whether ``caller`` may read a player's decklist: the player, the tournament's judges
    and the organisers always; anyone under the open decklist policy or once the tournament
    is finished; Forbidden otherwise."""
    if tournament.decklist_policy == "open" or tournament.finished:
        return
    if caller is not None and (caller.player_id == player_id or caller.role == Role.ORGANISER
                               or tournament.is_judge(caller.credential_id)):
        return
    raise Forbidden("decklist_closed", "Decklists are closed in this tournament: a player "
                    "sees their own, judges see all, and everyone sees them once it is over.")


def actor(caller: Caller, match_id: UUID, action: Mapping[str, Any], *,
          outcomes: bool, table_match: bool, judges_only: bool) -> Identity:
    """Who records ``action`` in ``match_id``, checked before the rules see it (so a refusal
    says nothing about the game): staff for any seat, a seat credential for its own seat only;
    a judge's acts (adjustments, rulings: ``judges_only``) are the judges'; a seat supplies
    chance outcomes only in a match whose setup was entered from a physical table, never in one
    the seed decides."""
    identity = signed_in(caller, "Recording an action")
    if identity.is_staff:
        return identity
    if judges_only:
        raise Forbidden("judges_only", "Adjustments and rulings are made by judges.")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or \
            not identity.may_act_for(match_id, seat):
        raise Forbidden("not_your_seat", "Your credential records actions of "
                        f"{_own(identity, match_id)} only.")
    if outcomes and not table_match:
        raise Forbidden("outcomes_not_allowed", "Chance in this match comes from its seed; "
                        "only a judge may enter outcomes seen at the table.")
    return identity


def legal_seat(caller: Caller, match_id: UUID, seat: int | None) -> int:
    """The seat whose legal actions ``caller`` may list: its own, or any for staff."""
    identity = signed_in(caller, "Listing legal actions")
    if identity.is_staff:
        if seat is None:
            raise ActionError("seat_required", "Say which seat's legal actions: ?seat=N.")
        return seat
    own = identity.seat if identity.match_id == match_id else None
    if own is None or seat not in (None, own):
        raise Forbidden("not_your_seat", "Your credential lists the legal actions of "
                        f"{_own(identity, match_id)} only.")
    return own


def _own(identity: Identity, match_id: UUID) -> str:
    if identity.match_id == match_id and identity.seat is not None:
        return f"seat {identity.seat}"
    return "its own seat of its own match"
