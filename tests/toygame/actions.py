"""Blind Bid's one action, and the chance it asks for."""

from __future__ import annotations

from typing import Literal

from engine.core.actions import card_field
from engine.core.chance import CardDrawn, OutcomeKind
from engine.core.contract import Action
from engine.core.zones import CardFlow


class Bid(Action):
    """Lay one card from hand face down for this round; the last bid reveals them all, and
    then every seat draws a card (if its deck is not empty)."""

    type: Literal["bid"] = "bid"
    card: str = card_field(min_length=1, max_length=40, description="The card id bid from hand.")

    card_flows = (CardFlow("card", ("hand",), "bid"),)
    consumes = ("draw",)


ACTIONS: tuple[type[Action], ...] = (Bid,)

OUTCOME_KINDS = (
    OutcomeKind("draw", CardDrawn, "the card a seat draws from its deck into its hand"),
)
SETUP_CONSUMES = ("draw",)
