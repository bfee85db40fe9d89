"""Blind Bid's cards, its zone table and its state (imports nothing of the game)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from engine.core.contract import GameState
from engine.core.holdings import Holding, Pile, Seat
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


class _FaceDown(Holding["BlindBidState"]):
    """A seat's face-down bid of the round: one card or none (a judge does not move it)."""

    def cards(self, state: BlindBidState, seat: Seat, address: str) -> list[str]:
        """The bid, if the seat has bid."""
        assert seat is not None
        return [state.bids[seat]] if seat in state.bids else []


def _seats(pile: str) -> Pile[BlindBidState]:
    return Pile(lambda state, seat: getattr(state, pile)[seat])


ZONES: tuple[Zone, ...] = (
    Zone("hand", "seat", False, Visibility.OWNER, description="The cards a seat may bid.",
         holding=_seats("hands")),
    Zone("deck", "seat", False, Visibility.JUDGES,
         description="Unordered: each draw is a recorded random pick.", holding=_seats("decks")),
    Zone("bid", "seat", False, Visibility.OWNER, adjustable=False,
         description="The card laid face down this round, until every seat has bid.",
         holding=_FaceDown()),
    Zone("won", "seat", False, Visibility.EVERYONE,
         description="Bid cards taken by winning rounds: they score their values.",
         holding=_seats("won")),
    Zone("discard", "shared", False, Visibility.EVERYONE,
         description="The bid cards of rounds nobody won (the highest value tied).",
         holding=Pile(lambda state, seat: state.discard)),
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
