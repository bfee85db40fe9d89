"""A card's own victory condition (§勝利条件: 「特定カードに記載された勝利条件を満たす」; edge
OQ24): the claimant names the card; the others accept, or one disputes and a judge rules."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.edge.basics import win
from engine.edge.model import CardClaim, EdgeState, owner_of
from engine.edge.operations import host
from engine.edge.reasons import EdgeReason as R


def claim_card_victory(state: EdgeState, seat: int, card: str, reason: str) -> None:
    """The turn player claims a card of its own on the field meets its victory condition."""
    if seat != state.active or state.combat is not None or state.claim is not None:
        raise IllegalAction(R.NOT_NOW, "A claim is made in one's own turn, nothing pending.")
    if host(state, card) is None or owner_of(card) != seat:
        raise IllegalAction(R.NO_SUCH_CARD, f"{card} is not on seat {seat}'s field.")
    state.claim = CardClaim(seat=seat, card=card, reason=reason)


def waiting_on(state: EdgeState) -> list[int]:
    """The seats still to accept or dispute the pending claim."""
    claim = state.claim
    if claim is None or claim.disputed_by is not None:
        return []
    return [s for s in state.in_play() if s != claim.seat and s not in claim.accepted]


def accept_claim(state: EdgeState, seat: int) -> None:
    """Accept the claim; when all others have, the claimant wins."""
    if seat not in waiting_on(state):
        raise IllegalAction(R.NO_CLAIM, "No claim waits for this seat's answer.")
    claim = state.claim
    assert claim is not None
    claim.accepted.append(seat)
    if not waiting_on(state):
        _won(state, claim)


def dispute(state: EdgeState, seat: int) -> None:
    """Dispute the claim: a judge rules."""
    if seat not in waiting_on(state):
        raise IllegalAction(R.NO_CLAIM, "No claim waits for this seat's answer.")
    assert state.claim is not None
    state.claim.disputed_by = seat


def rule_claim(state: EdgeState, seat: int, upheld: bool) -> None:
    """A judge's ruling on the disputed claim of ``seat``: upheld, it wins; else play goes on."""
    claim = state.claim
    if claim is None or claim.disputed_by is None or claim.seat != seat:
        raise IllegalAction(R.NO_DISPUTE, f"No disputed claim of seat {seat} waits for a "
                            "ruling.")
    state.claim = None
    if upheld:
        _won(state, claim)


def _won(state: EdgeState, claim: CardClaim) -> None:
    state.claim = None
    win(state, claim.seat, "card_victory", f"seat {claim.seat}'s {state.card(claim.card).name}: "
        f"{claim.reason}")
