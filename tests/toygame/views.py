"""What each viewer sees of a position, and transcript lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.chance import Outcome
from engine.core.effects import Effect
from engine.core.viewer import Viewer
from tests.toygame.actions import Bid
from tests.toygame.model import BlindBidState
from tests.toygame.round import BidsRevealed, still_to_bid
from tests.toygame.scoring import points

Sees = Callable[[Viewer, str, int | None], bool]
"""The ruleset's ``sees(viewer, zone, seat)``: the zone table's one rule."""

FACE_DOWN = "face down"


def _card(state: BlindBidState, card: str) -> dict[str, Any]:
    c = state.cards[card]
    return {"id": c.id, "name": c.name, "value": c.value}


def _cards(state: BlindBidState, cards: Sequence[str]) -> list[dict[str, Any]]:
    return [_card(state, c) for c in cards]


def view(state: BlindBidState, viewer: Viewer, sees: Sees) -> dict[str, Any]:
    """Hands to their owner (others get the count), bids face down to others until revealed,
    won piles, the discard pile and points to everyone; decks are counted (judges see them)."""
    seats = []
    for s in state.seats():
        bid = state.bids.get(s)
        seats.append({
            "seat": s,
            "hand": _cards(state, state.hands[s]) if sees(viewer, "hand", s) else None,
            "hand_count": len(state.hands[s]),
            "deck": _cards(state, sorted(state.decks[s])) if sees(viewer, "deck", s) else None,
            "deck_count": len(state.decks[s]),
            "bid": None if bid is None else (
                _card(state, bid) if sees(viewer, "bid", s) else FACE_DOWN),
            "won": _cards(state, state.won[s]),
            "points": points(state, s),
        })
    return {"seats": seats, "discard": _cards(state, state.discard),
            "to_bid": still_to_bid(state)}


def _name(before: BlindBidState | None, card: str) -> str:
    if before is None or card not in before.cards:
        return card
    c = before.cards[card]
    return f"{c.name} ({c.value})"


def describe(action: Bid, outcomes: Sequence[Outcome], viewer: Viewer,
             before: BlindBidState | None, effects: Sequence[Effect], sees: Sees) -> str:
    """The bid (its card named only to who may see the seat's hand), the reveal and winner
    read from the ``BidsRevealed`` effect, and the draws (named only to the drawing seat)."""
    card = _name(before, action.card) if sees(viewer, "hand", action.seat) else "a card"
    parts = [f"Seat {action.seat} bids {card} face down."]
    for effect in effects:
        if isinstance(effect, BidsRevealed):
            shown = ", ".join(f"seat {s} {_name(before, c)}" for s, c, _ in effect.bids)
            verdict = (f"seat {effect.winner} wins the round with {effect.high}"
                       if effect.winner is not None
                       else f"{effect.high} is tied: the bids go to the discard pile")
            parts.append(f"Bids revealed: {shown}; {verdict}.")
    for outcome in outcomes:
        seat = getattr(outcome, "seat", None)
        drawn = _name(before, str(outcome.value)) if outcome.seen_by(viewer) else "a card"
        parts.append(f"Seat {seat} draws {drawn}.")
    return " ".join(parts)
