"""World Gainer data: colours, cards, the board and the state (004 "カード構成", "場の構成")."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.contract import GameState
from engine.core.zones import Visibility, Zone


class Colour(StrEnum):
    """The four colours, which double as rock-paper-scissors marks (W1)."""

    RED = "red"  # rock (グー), Zeta League
    GREEN = "green"  # paper (パー), Pleiades League
    BLUE = "blue"  # scissors (チョキ), Solar Union
    YELLOW = "yellow"  # グチパ: beats all three


_BEATS = {Colour.RED: Colour.BLUE, Colour.BLUE: Colour.GREEN, Colour.GREEN: Colour.RED}


def janken(mine: Colour, theirs: Colour) -> Literal["win", "same", "lose"]:
    """W1: red is rock, green paper, blue scissors; yellow beats all three; yellow v yellow same."""
    if mine == theirs:
        return "same"
    if mine == Colour.YELLOW:
        return "win"
    if theirs == Colour.YELLOW:
        return "lose"
    return "win" if _BEATS[mine] == theirs else "lose"


class Requirement(BaseModel):
    """The required colour amount: part of the cost that must be paid in ``colour`` (W2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    colour: Colour
    amount: int = Field(ge=0, le=20)


class Card(BaseModel):
    """A World Gainer card definition as found in a card-set file."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    colour: Colour
    cost: int = Field(ge=0, le=20, description="Cost to place; also its points on a held field.")
    stun: int = Field(ge=0, le=10, description="Cost it yields when exhausted as a stun.")
    required: Requirement = Requirement(colour=Colour.YELLOW, amount=0)
    unique: bool = False
    text: str = ""


SLOTS = 5  # stun slots in each stand-by area ("それぞれのスタンバイにはスタンを5枚まで")
HAND_SIZE = 7


_MY_FIELDS = {seat: tuple(f"M{seat}-{i}" for i in (1, 2, 3)) for seat in (1, 2)}


def field_ids(seat: int) -> list[str]:
    """The three my-field squares of ``seat``: M1-1..M1-3 for seat 1."""
    return list(_MY_FIELDS[seat])


BATTLEFIELD = ["B-1", "B-2", "B-3"]
ALL_FIELDS = field_ids(1) + BATTLEFIELD + field_ids(2)


PHASES = ("standby", "gain")  # the draw phase runs as the turn starts, the end phase on end_turn

# 場の構成: every zone, who owns it and who may see its cards
ZONES = (
    Zone("hand", "seat", ordered=False, contents=Visibility.OWNER,
         description="手札: seen by its owner only; everyone sees how many."),
    Zone("deck", "seat", ordered=False, contents=Visibility.JUDGES,
         description="デッキ: face down and unordered; each draw is a recorded pick (C1)."),
    Zone("break", "seat", ordered=True, contents=Visibility.EVERYONE,
         description="ブレイク: the break zone, face up, in the order cards arrived."),
    Zone("standby", "seat", ordered=True, contents=Visibility.EVERYONE, address="slot 1-5",
         description="スタンバイ: five stun slots, each ready or exhausted."),
    Zone("field", "shared", ordered=True, contents=Visibility.EVERYONE,
         address="square M1-1..M1-3, B-1..B-3, M2-1..M2-3",
         description="The nine squares; a card put there by adjustment is held by the seat "
                     "it is put for."),
)


@dataclass
class Stun:
    """A card in a stand-by slot, ready (待機) or exhausted (消耗)."""

    card: str
    ready: bool = True


@dataclass
class Square:
    """One field square: who holds it and the cards on it, bottom first (a stack is one owner's)."""

    holder: int | None = None
    cards: list[str] = field(default_factory=list)


@dataclass
class Player:
    """One seat's zones. ``deck`` is an unordered multiset: each draw is a recorded pick (C1)."""

    deck: list[str]
    hand: list[str] = field(default_factory=list)
    standby: list[Stun | None] = field(default_factory=lambda: [None] * SLOTS)
    breaks: list[str] = field(default_factory=list)  # the break zone (ブレイク), in order


@dataclass(kw_only=True)
class WorldGainerState(GameState):
    """The whole World Gainer position."""

    shared_fields = ("cards",)  # frozen definitions: copies of the state share them
    cards: dict[str, Card]
    seats_state: list[Player]
    board: dict[str, Square]
    phase: str = "standby"  # "standby" then "gain"; the draw phase runs as the turn starts
    stun_placed: bool = False
    gain_placed: bool = False
    first_player: int = 1

    def player(self, seat: int) -> Player:
        """The zones of ``seat`` (1-based)."""
        return self.seats_state[seat - 1]
