"""Blind Bid's cards, its zone table and its state (imports nothing of the game)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from engine.core.contract import GameState
from engine.core.zones import Visibility, Zone

DECK_SIZE = 12  # C5: a deck is exactly this many cards
MAX_COPIES = 2  # C5: at most this many cards of one value
OPENING_HAND = 4  # cards each seat draws at setup


class Card(BaseModel):
    """A numbered card of a Blind Bid card set."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    value: int = Field(ge=1, le=9, description="What the card bids, and scores once won.")


ZONES: tuple[Zone, ...] = (
    Zone("hand", "seat", False, Visibility.OWNER, description="The cards a seat may bid."),
    Zone("deck", "seat", False, Visibility.JUDGES,
         description="Unordered: each draw is a recorded random pick."),
    Zone("bid", "seat", False, Visibility.OWNER, adjustable=False,
         description="The card laid face down this round, until every seat has bid."),
    Zone("won", "seat", False, Visibility.EVERYONE,
         description="Bid cards taken by winning rounds: they score their values."),
    Zone("discard", "shared", False, Visibility.EVERYONE,
         description="The bid cards of rounds nobody won (the highest value tied)."),
)


@dataclass(kw_only=True)
class BlindBidState(GameState):
    """A Blind Bid position. Seat-owned zones are dicts keyed by seat number."""

    cards: dict[str, Card] = field(default_factory=dict)
    hands: dict[int, list[str]] = field(default_factory=dict)
    decks: dict[int, list[str]] = field(default_factory=dict)
    bids: dict[int, str] = field(default_factory=dict)  # seat -> its face-down card this round
    won: dict[int, list[str]] = field(default_factory=dict)
    discard: list[str] = field(default_factory=list)

    shared_fields = ("cards",)
