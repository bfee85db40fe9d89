"""Who may see and do what: the one access policy behind every channel (issue 8).

The caller is an authenticated ``Identity``, or None for a request without a credential (a
spectator). What a caller may see and do in one match is its ``replay.audience.Audience``,
built once per request; the checks here are those outside any one match (staff, organisers,
a tournament's judges, decklists). The request only ever narrows what its credential allows.

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
commentator             a spectator of every match (the delay included) who
                        writes public annotations and studies beside it
no credential           a spectator: public views under each match's policy
======================  ==========================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

from ledger.errors import Forbidden
from ledger.identity import Identity, Role, Unauthenticated

if TYPE_CHECKING:  # a match's reader never loads a tournament's module (issue 43)
    from ledger.tournaments import Tournament

Caller = Identity | None
"""An authenticated identity, or None: no credential, a spectator."""


def signed_in(caller: Caller, what: str) -> Identity:
    """The caller's identity, or Unauthenticated (401) for a request without a credential."""
    if caller is None:
        raise Unauthenticated(f"{what} needs a credential: send 'Authorization: Bearer TOKEN'.")
    return caller


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
