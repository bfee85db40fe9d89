"""A round: every seat bids face down, the last bid reveals them all, the highest single value
takes the bids (a tie discards them), every seat draws, and the next round starts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core.chance import Chance
from engine.core.effects import Effect, emit
from engine.core.errors import IllegalAction
from tests.toygame.actions import Bid
from tests.toygame.model import BlindBidState
from tests.toygame.reasons import BlindBidReason as R
from tests.toygame.scoring import check_end
from tests.toygame.setup import draw


@dataclass(frozen=True)
class BidsRevealed(Effect):
    """The rules' decision of a round: every bid as (seat, card, value) in seat order, the
    highest value, and the seat that won the round (None: the highest value was tied)."""

    kind: ClassVar[str] = "bids_revealed"
    bids: tuple[tuple[int, str, int], ...]
    high: int
    winner: int | None


def still_to_bid(state: BlindBidState) -> list[int]:
    """The seats the round waits on: in the match and without a bid (none once it is over)."""
    if state.result is not None:
        return []
    return [s for s in state.in_play() if s not in state.bids]


def bid(state: BlindBidState, action: Bid, chance: Chance) -> None:
    """Lay ``action.card`` face down; the last bid of the round resolves it."""
    if action.seat in state.bids:
        raise IllegalAction(R.ALREADY_BID, f"Seat {action.seat} has bid this round already; "
                            "the others have still to bid.")
    hand = state.hands[action.seat]
    if action.card not in hand:
        raise IllegalAction(R.CARD_NOT_IN_HAND,
                            f"Card {action.card} is not in seat {action.seat}'s hand.")
    hand.remove(action.card)
    state.bids[action.seat] = action.card
    if not still_to_bid(state):
        resolve(state, chance)


def resolve(state: BlindBidState, chance: Chance) -> None:
    """Reveal every bid: a single highest value takes all the bid cards into its won pile, a
    tied one sends them to the discard pile; then each seat draws if it can, and the round
    (the turn) ends."""
    laid = tuple((s, c, state.cards[c].value) for s, c in sorted(state.bids.items()))
    high = max(value for _, _, value in laid)
    top = [s for s, _, value in laid if value == high]
    winner = top[0] if len(top) == 1 else None
    pile = state.discard if winner is None else state.won[winner]
    pile.extend(card for _, card, _ in laid)
    state.bids.clear()
    emit(state, BidsRevealed(bids=laid, high=high, winner=winner))
    for seat in state.in_play():
        if state.decks[seat]:
            draw(state, seat, chance)
    state.turn += 1
    check_end(state)


def cancel_round(state: BlindBidState) -> None:
    """A seat left the match (C4): the round in progress is void, the face-down bids go back
    to their owners' hands unrevealed, and the seats still in bid again."""
    for seat, card in sorted(state.bids.items()):
        state.hands[seat].append(card)
    state.bids.clear()
    check_end(state)
