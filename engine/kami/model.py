"""Kami no Kijutsu's cards, its field, its zone table and its state (imports nothing of the game).

Sources: the document 001 (cited by its headings, §カード構成, §場の構成, ...), rulings C1-C5 and
K1-K9, and the digest's open questions adopted by X1 (kami Q-n).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.contract import GameState

DECK_SIZE = 40  # §事前準備: exactly 40 cards
MAX_COPIES = 3  # §事前準備: at most 3 cards of one name
OPENING_HAND = 5  # §ゲーム開始時基本設定 開始手札
HAND_LIMIT = 5  # §ゲーム開始時基本設定: enforced at the end of one's own turn
AP_LIMIT = 10  # §AP(アクションポイント)について: 0 to 10
AP_REFILL = 5  # K4
MULLIGANS = 2  # K8
SECOND_PLAYER_VP = 2  # K8
RENEWAL_VP = 5  # K4
INVADER_VP = 2  # §補充フェイズ
VICTORY_VP = 10  # §勝利条件

PHASES = ("mulligan", "action", "battle", "hand_limit", "judgment")


class Colour(StrEnum):
    """§色について: four colours, and colourless (printed orange)."""

    RED = "red"
    BLUE = "blue"
    BLACK = "black"
    WHITE = "white"
    COLOURLESS = "colourless"


COLOURS = (Colour.RED, Colour.BLUE, Colour.BLACK, Colour.WHITE)

Icons = dict[Colour, int]


class Card(BaseModel):
    """One card definition (§カード構成). Only what the core rules read; texts are for people
    (C3)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    kind: Literal["territory", "unit", "option", "force"]
    colours: tuple[Colour, ...] = Field(default=(), description="kami Q-24: read by no rule.")
    value: int = Field(default=0, ge=0, le=10, description="Value icons (spoils only).")
    text: str = Field(default="", max_length=600)
    cost: int | None = Field(default=None, ge=0, le=10, description="Unit, option, force.")
    set_cost: int | None = Field(default=None, ge=0, le=10, description="Territory: 設置.")
    replace_cost: int | None = Field(default=None, ge=0, le=10, description="Territory: 置換.")
    move_cost: int | None = Field(default=None, ge=0, le=10,
                                  description="Unit; none: it cannot move (kami Q-20).")
    teleport_cost: int | None = Field(default=None, ge=0, le=10,
                                      description="Unit; none: it cannot teleport (Q-20).")
    at: int = Field(default=0, ge=0, le=99)
    df: int = Field(default=0, ge=0, le=99)
    vp: int = Field(default=0, ge=0, le=99)
    at_mod: int = Field(default=0, ge=-99, le=99, description="Option: AT modifier.")
    df_mod: int = Field(default=0, ge=-99, le=99, description="Option: DF modifier.")
    hold: dict[Colour, int] = Field(default_factory=dict,
                                    description="Icons needed, by colour (colourless too).")
    support: dict[Colour, int] = Field(default_factory=dict,
                                       description="Icons given, by colour (territories, some "
                                                   "units).")
    reinforcement: bool = Field(default=False, description="援軍: usable in a battle.")
    reinforce_cost: int | None = Field(default=None, ge=0, le=10,
                                       description="kami Q-4: else the printed cost.")
    interference: bool = Field(default=False, description="干渉: a force usable in the "
                                                          "opponent's turn and in battle.")

    @model_validator(mode="after")
    def _costs_of_its_kind(self) -> Card:
        if self.kind == "territory":
            if self.set_cost is None or self.replace_cost is None:
                raise ValueError("a territory has a set_cost and a replace_cost")
            if self.hold:
                raise ValueError("a territory has no hold (§ホールドとサポートについて)")
        elif self.cost is None:
            raise ValueError(f"a {self.kind} has a cost (§カード構成: コスト必要)")
        if Colour.COLOURLESS in self.support:
            raise ValueError("support icons have a colour")
        return self


# ----- the field (§場の構成, K1) ------------------------------------------------------------
SPOTS = ("1L", "1R", "2L", "2C", "2R", "3L", "3R")  # rows from the border, columns from seat 1
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    "1L": ("1R", "2L", "2C"), "1R": ("1L", "2R", "2C"), "2L": ("1L", "3L", "2C"),
    "2R": ("1R", "3R", "2C"), "3L": ("2L", "3R", "2C"), "3R": ("2R", "3L", "2C"),
    "2C": ("1L", "1R", "2L", "2R", "3L", "3R"),
}
HEXES = tuple(f"A{area}:{spot}" for area in (1, 2) for spot in SPOTS)


def area_of(hex_id: str) -> int:
    """The seat whose area a hex is in."""
    return int(hex_id[1])


def spot_of(hex_id: str) -> str:
    """The hex's place inside its area (``2C``)."""
    return hex_id.partition(":")[2]


def adjacent(a: str, b: str) -> bool:
    """K1: neighbours inside one area (movement never crosses the border)."""
    return area_of(a) == area_of(b) and spot_of(b) in NEIGHBOURS[spot_of(a)]


def mirror(hex_id: str) -> str:
    """K1: the teleport target, same row and column in the other area."""
    return f"A{3 - area_of(hex_id)}:{spot_of(hex_id)}"


@dataclass(kw_only=True)
class Attached:
    """An option on a unit; it keeps its owner, who is its controller (kami Q-12)."""

    card: str
    owner: int


@dataclass(kw_only=True)
class Unit:
    """A unit on a hex, with its damage and its options."""

    card: str
    owner: int
    damage: int = 0
    lasting_damage: int = 0  # C3: set by judges only, never recovered
    options: list[Attached] = field(default_factory=list)


@dataclass(kw_only=True)
class Hex:
    """One hex: at most one territory (of either player) and, between actions, one unit."""

    territory: str | None = None
    territory_owner: int | None = None
    unit: Unit | None = None


@dataclass(kw_only=True)
class Battle:
    """A battle open on a hex (§各戦闘の処理): the two units, each side's stack of cards used
    (bottom to top), whose priority it is and how many passes came in a row."""

    hex: str
    attacker: Unit
    attacker_seat: int
    stacks: dict[int, list[str]] = field(default_factory=dict)
    priority: int = 1
    passes: int = 0
    at_mod: dict[int, int] = field(default_factory=dict)  # C3: a force's effect, by seat
    df_mod: dict[int, int] = field(default_factory=dict)


@dataclass(kw_only=True)
class Run:
    """``count`` cards of layer ``layer`` lying together in a deck (engine.kami.deck)."""

    layer: int
    count: int


@dataclass(kw_only=True)
class Declaration:
    """A victory declared in a judgment phase, tested at the end of the opponent's next turn
    (K2)."""

    seat: int
    turn: int


@dataclass(kw_only=True)
class KamiState(GameState):
    """A Kami no Kijutsu position. Seat-owned zones are dicts keyed by seat number.

    The deck and the AP pile are face down and nobody sees them, so a card's identity is fixed
    only when it must be (kami Q-15, the lazy encoding of the digest's section 8): see
    engine.kami.deck for ``layers``, ``deck_top``, ``deck_under`` and ``ap``.
    """

    cards: dict[str, Card] = field(default_factory=dict)
    phase: str = "mulligan"
    first_player: int = 1
    layers: dict[int, list[list[str]]] = field(default_factory=dict)
    deck_top: dict[int, list[str | int]] = field(default_factory=dict)
    deck_under: dict[int, list[Run]] = field(default_factory=dict)
    ap: dict[int, list[str | int]] = field(default_factory=dict)
    hands: dict[int, list[str]] = field(default_factory=dict)
    discard: dict[int, list[str]] = field(default_factory=dict)
    forces: dict[int, list[str]] = field(default_factory=dict)  # kami Q-18, in effect
    vp: dict[int, int] = field(default_factory=dict)
    mulligans: dict[int, int] = field(default_factory=dict)
    kept: dict[int, bool] = field(default_factory=dict)
    hand_limit: dict[int, int] = field(default_factory=dict)
    board: dict[str, Hex] = field(default_factory=dict)
    battle: Battle | None = None
    declaration: Declaration | None = None

    shared_fields = ("cards",)

    def other(self, seat: int) -> int:
        """The opponent (two players only, §ゲームタイプ)."""
        return 3 - seat
