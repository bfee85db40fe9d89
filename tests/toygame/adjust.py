"""Judges' adjustments (C3): a card moved between hands, decks, won piles and the discard
pile of any seats. Blind Bid has no counters."""

from __future__ import annotations

from engine.core.contract import Adjust
from engine.core.errors import IllegalAction
from tests.toygame.model import BlindBidState
from tests.toygame.scoring import check_end


def pile(state: BlindBidState, zone: str, seat: int) -> list[str]:
    """The cards in ``seat``'s ``zone`` (the shared discard pile whatever the seat)."""
    if zone == "hand":
        return state.hands[seat]
    if zone == "deck":
        return state.decks[seat]
    if zone == "won":
        return state.won[seat]
    if zone == "discard":
        return state.discard
    raise IllegalAction("bad_zone", f"Zone {zone!r} cannot be adjusted.")


def adjust(state: BlindBidState, action: Adjust) -> None:
    """Move one card as a judge ruled; refuse counters (``bad_counter``)."""
    if action.counter is not None:
        raise IllegalAction("bad_counter", "Blind Bid has no counters to set.")
    move = action.move
    assert move is not None  # the kernel handles turn changes itself
    source_seat, target_seat = move.seats(action.seat)
    source = pile(state, move.from_zone, source_seat)
    target = pile(state, move.to_zone, target_seat)
    if move.card not in source:
        raise IllegalAction("card_not_in_zone", f"Card {move.card} is not in {move.from_zone} "
                            f"of seat {source_seat}.")
    source.remove(move.card)
    target.append(move.card)
    check_end(state)
