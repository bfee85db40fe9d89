"""The legal actions: one bid per distinct card in hand, for each seat still to bid."""

from __future__ import annotations

from engine.core.contract import Action
from engine.core.legality import listed
from tests.toygame.actions import Bid
from tests.toygame.model import BlindBidState
from tests.toygame.round import still_to_bid


def legal_actions(state: BlindBidState, seat: int) -> list[Action]:
    """Every bid ``seat`` may lay now (none once it has bid this round)."""
    if seat not in still_to_bid(state):
        return []
    return [listed(Bid, seat=seat, card=card) for card in sorted(set(state.hands[seat]))]
