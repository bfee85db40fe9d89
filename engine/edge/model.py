"""On the Edge's cards and state (imports nothing of the game; its zone table, where each
zone's cards are in this state: engine.edge.table).

Sources: the document 003 (cited by its headings, §陰謀団について), rulings C1-C5 and E1-E8, and
the digest's open questions adopted by X1 (edge OQn).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.contract import GameState

DECK_MIN = 40  # §事前準備 デッキ枚数: 40枚以上
OPENING_HAND = 10  # §ゲーム開始時基本設定 開始手札 10枚
MAX_RANKS = 3  # E6
GOALS = {2: 24, 3: 16, 4: 12}  # E1; 5 or more: 10
GOAL_MANY = 10

STEPS = ("discard", "operations", "shift", "influence")
CardType = Literal["character", "resource", "gear", "condition", "environment", "secret",
                   "whammy"]
CardState = Literal["active", "cranked", "flipped"]


class Card(BaseModel):
    """One card definition (§カード構成); texts are for people only (C3)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    type: CardType
    text: str = Field(default="", max_length=600)
    cost: int | None = Field(default=None, ge=0, le=20, description="None for a whammy.")
    cost_dot: bool = Field(default=False, description="A dotted cost: a card condition (OQ22).")
    cost_requires: tuple[str, ...] = Field(default=(), description="OQ22: traits, one of "
                                           "which a face-up own card must have.")
    ap: int = Field(default=0, ge=0, le=99)
    dp: int = Field(default=0, ge=0, le=99)
    pull: int | None = Field(default=None, ge=0, le=20)
    traits: tuple[str, ...] = ()
    factions: tuple[str, ...] = ()
    play_any_time: bool = Field(default=False, description="A whammy playable at any time "
                                                           "(OQ21).")

    @model_validator(mode="after")
    def _cost_of_its_type(self) -> Card:
        if (self.type == "whammy") != (self.cost is None):
            raise ValueError("every card but a whammy has a cost (§ワミー: コスト概念を持たない)")
        if self.pull is not None and self.type not in ("character", "resource"):
            raise ValueError("only characters and resources have pull")
        return self


def card_of(instance: str) -> str:
    """The card id of a card instance (``<card id>@<seat>.<n>``)."""
    return instance.partition("@")[0]


def owner_of(instance: str) -> int:
    """The seat that owns a card instance."""
    return int(instance.partition("@")[2].partition(".")[0])


@dataclass(kw_only=True)
class Permanent:
    """A permanent card on a field: its state and what is attached to it (gear, conditions)."""

    card: str
    state: CardState = "active"
    attached: list[str] = field(default_factory=list)


@dataclass(kw_only=True)
class Character(Permanent):
    """A character in its owner's conspiracy, at (rank, file); flipped, it keeps its place
    (E6)."""

    rank: int = 1
    file: int = 1


@dataclass(kw_only=True)
class Combat:
    """A declared attack waiting for its resolution (edge OQ19)."""

    attacker: str
    target: str
    defender: int


@dataclass(kw_only=True)
class CardClaim:
    """A card-text victory claimed (edge OQ24), awaiting the others or a judge."""

    seat: int
    card: str
    reason: str
    accepted: list[int] = field(default_factory=list)
    disputed_by: int | None = None


@dataclass(kw_only=True)
class EdgeState(GameState):
    """An On the Edge position. Seat-owned zones are dicts keyed by seat number."""

    cards: dict[str, Card] = field(default_factory=dict)
    step: str = "discard"
    first_player: int = 1
    starting_players: int = 2
    decks: dict[int, list[str]] = field(default_factory=dict)  # unordered: draws are picks
    hands: dict[int, list[str]] = field(default_factory=dict)
    drawn: list[str] = field(default_factory=list)  # cards the turn player drew this turn
    conspiracies: dict[int, list[Character]] = field(default_factory=dict)
    permanents: dict[int, list[Permanent]] = field(default_factory=dict)  # resources, ...
    dead: dict[int, list[str]] = field(default_factory=dict)
    influence: dict[int, int] = field(default_factory=dict)
    character_pull: int = 0  # E7: the reserve, by kind
    other_pull: int = 0
    zero_cost_used: bool = False  # E8
    attacked: list[int] = field(default_factory=list)  # E4: defenders attacked this turn
    shifted: list[str] = field(default_factory=list)  # gear shifted this turn
    combat: Combat | None = None
    claim: CardClaim | None = None

    shared_fields = ("cards",)

    def card(self, instance: str) -> Card:
        """The definition of a card instance."""
        return self.cards[card_of(instance)]
