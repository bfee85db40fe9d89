"""World Gainer actions: place a stun, gain a field (with its payment), end the turn."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.actions import card_field
from engine.core.chance import CardDrawn, OutcomeKind, SeatChosen
from engine.core.contract import Action


class ExhaustStun(BaseModel):
    """Turn a ready stun sideways: yields its stun value in its colour (W2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: Literal["exhaust_stun"] = "exhaust_stun"
    slot: int = Field(ge=1, le=5)


class DiscardStun(BaseModel):
    """Put a ready stun into the break zone: yields 1 of its colour (W2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: Literal["discard_stun"] = "discard_stun"
    slot: int = Field(ge=1, le=5)


class DiscardFieldCard(BaseModel):
    """Put the top card of a square you hold into the break zone: yields 1 of its colour (W2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: Literal["discard_field_card"] = "discard_field_card"
    field: str


Payment = Annotated[ExhaustStun | DiscardStun | DiscardFieldCard,
                    Field(discriminator="source")]


class PlaceStun(Action):
    """Stand-by phase: place a card from hand as a stun (once a turn, ready at once)."""

    type: Literal["stun"] = "stun"
    card: str = card_field(description="Card id from the hand.")
    slot: int | None = Field(default=None, ge=1, le=5,
                             description="Stun slot 1-5; the first free one when omitted.")


class Gain(Action):
    """Gain phase: place a card from hand on a square, paying its cost (once a turn)."""

    type: Literal["gain"] = "gain"
    card: str = card_field(description="Card id from the hand.")
    field: str = Field(description="Square: M1-1..M1-3, B-1..B-3, M2-1..M2-3.")
    payment: list[Payment] = Field(default_factory=list,
                                   description="Cost sources, used in the order given.")


class EndTurn(Action):
    """End phase: pass the turn; the next player readies their stuns and draws."""

    consumes = ("draw",)
    type: Literal["end_turn"] = "end_turn"


ACTIONS: tuple[type[Action], ...] = (PlaceStun, Gain, EndTurn)

# C1: what chance decides in World Gainer, and what a physical table enters for it
OUTCOME_KINDS = (
    OutcomeKind("draw", CardDrawn, "The card a seat draws from its deck: 7 each in setup (seat "
                "1 first), then one in each draw phase (the next seat's, on end_turn)."),
    OutcomeKind("first_player", SeatChosen, "Who plays first (setup), when the first_player "
                "option is not set."),
)
SETUP_CONSUMES = ("draw", "first_player")
