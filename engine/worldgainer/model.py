"""World Gainer data: colours, cards, the board and the state (004 "カード構成", "場の構成")."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.contract import GameState
from engine.core.errors import IllegalAction
from engine.core.holdings import Holding, Pile, Seat, Tally
from engine.core.zones import Visibility, Zone
from engine.worldgainer.reasons import WorldGainerReason as R


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

# A stun and a square are values: a change puts a new one in their place, so every copy of a
# position (each action applied to a kept position copies it) shares the stuns and squares the
# action did not change; engine.core.copying shares frozen dataclasses of immutable fields. Their
# data, and so every digest, view and snapshot, is what it was when they changed in place.
@dataclass(frozen=True)
class Stun:
    """A card in a stand-by slot, ready (待機) or exhausted (消耗)."""

    card: str
    ready: bool = True


@dataclass(frozen=True)
class Square:
    """One field square: who holds it and the cards on it, bottom first (a stack is one owner's)."""

    holder: int | None = None
    cards: tuple[str, ...] = ()

    def topped(self, seat: int | None, card: str) -> Square:
        """The square with ``card`` put on top, held by ``seat``."""
        return Square(holder=seat, cards=(*self.cards, card))

    def without(self, cards: tuple[str, ...]) -> Square:
        """The square left with ``cards``: held by nobody once it is empty."""
        return Square(holder=self.holder if cards else None, cards=cards)


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


# ----- where each zone's cards are (C3: engine.core.holdings) ---------------------------------
class StunSlots(Holding[WorldGainerState]):
    """A seat's five stun slots (スタンバイ): a card enters an empty slot ready."""

    def addresses(self, state: WorldGainerState, seat: Seat) -> list[str]:
        """Slots 1 to 5."""
        return [str(slot) for slot in range(1, SLOTS + 1)]

    def cards(self, state: WorldGainerState, seat: Seat, address: str) -> list[str]:
        """The slot's stun, if any."""
        stun = self._slots(state, seat)[int(address) - 1]
        return [] if stun is None else [stun.card]

    def take(self, state: WorldGainerState, seat: Seat, address: str, card: str) -> None:
        """The slot is left empty."""
        self._slots(state, seat)[int(address) - 1] = None

    def admit(self, state: WorldGainerState, seat: Seat, address: str, card: str) -> None:
        """A slot 1-5 that is empty."""
        super().admit(state, seat, address, card)
        if self._slots(state, seat)[int(address) - 1] is not None:
            raise IllegalAction(R.SLOT_TAKEN, f"Stun slot {address} is already occupied.")

    def put(self, state: WorldGainerState, seat: Seat, address: str, card: str) -> None:
        """Placed ready."""
        self._slots(state, seat)[int(address) - 1] = Stun(card=card, ready=True)

    @staticmethod
    def _slots(state: WorldGainerState, seat: Seat) -> list[Stun | None]:
        assert seat is not None
        return state.player(seat).standby


class Squares(Holding[WorldGainerState]):
    """The nine squares: a card leaves a square its seat holds, and enters one held by the
    seat it is put for or by nobody, on top; the seat then holds it."""

    def addresses(self, state: WorldGainerState, seat: Seat) -> list[str]:
        """M1-1..M1-3, B-1..B-3, M2-1..M2-3."""
        return list(ALL_FIELDS)

    def cards(self, state: WorldGainerState, seat: Seat, address: str) -> list[str]:
        """The square's stack, bottom first."""
        return list(state.board[address].cards)

    def take(self, state: WorldGainerState, seat: Seat, address: str, card: str) -> None:
        """Out of a square the seat holds; an emptied square is held by nobody."""
        square = state.board[address]
        if square.holder != seat:
            raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{card} is not on a square seat {seat} "
                                f"holds ({address}).")
        left = list(square.cards)
        left.remove(card)
        state.board[address] = square.without(tuple(left))

    def admit(self, state: WorldGainerState, seat: Seat, address: str, card: str) -> None:
        """A square of the board, not held by the opponent."""
        if address not in state.board:
            raise IllegalAction(R.BAD_ZONE, f"There is no square {address!r}; squares are "
                                f"{', '.join(ALL_FIELDS)}.")
        if state.board[address].holder not in (None, seat):
            raise IllegalAction(R.SQUARE_HELD, f"{address} is held by the opponent.")

    def put(self, state: WorldGainerState, seat: Seat, address: str, card: str) -> None:
        """On top; the seat holds the square."""
        state.board[address] = state.board[address].topped(seat, card)


def _of(seat: Seat, state: WorldGainerState) -> Player:
    assert seat is not None
    return state.player(seat)


# 場の構成: every zone, who owns it and who may see its cards
ZONES = (
    Zone("hand", "seat", ordered=False, contents=Visibility.OWNER,
         description="手札: seen by its owner only; everyone sees how many.",
         holding=Pile(lambda state, seat: _of(seat, state).hand, sort=True)),
    Zone("deck", "seat", ordered=False, contents=Visibility.JUDGES,
         description="デッキ: face down and unordered; each draw is a recorded pick (C1).",
         holding=Pile(lambda state, seat: _of(seat, state).deck, sort=True)),
    Zone("break", "seat", ordered=True, contents=Visibility.EVERYONE,
         description="ブレイク: the break zone, face up, in the order cards arrived.",
         holding=Pile(lambda state, seat: _of(seat, state).breaks)),
    Zone("standby", "seat", ordered=True, contents=Visibility.EVERYONE, address="slot 1-5",
         description="スタンバイ: five stun slots, each ready or exhausted.",
         holding=StunSlots()),
    Zone("field", "shared", ordered=True, contents=Visibility.EVERYONE,
         address="square M1-1..M1-3, B-1..B-3, M2-1..M2-3",
         description="The nine squares; a card put there by adjustment is held by the seat "
                     "it is put for.", holding=Squares()),
)


def _set_stun_placed(state: WorldGainerState, seat: int, key: str, value: int) -> None:
    state.stun_placed = bool(value)
    if not value and not state.gain_placed:
        state.phase = "standby"  # a stun may be placed again until the gain


def _set_gain_placed(state: WorldGainerState, seat: int, key: str, value: int) -> None:
    state.gain_placed = bool(value)


def _stun(state: WorldGainerState, seat: int, slot: str) -> Stun:
    stun = state.player(seat).standby[int(slot) - 1]
    assert stun is not None  # the kernel checked the key: a slot with a stun
    return stun


def _set_ready(state: WorldGainerState, seat: int, slot: str, value: int) -> None:
    state.player(seat).standby[int(slot) - 1] = Stun(card=_stun(state, seat, slot).card,
                                                     ready=bool(value))


# the values a judge sets by adjustment (C3): this turn's once-a-turn flags, a stun's state
TALLIES: tuple[Tally[WorldGainerState], ...] = (
    Tally("stun_placed", "match", lambda state, seat, key: int(state.stun_placed),
          _set_stun_placed, 0, 1,
          description="A stun was placed this turn (unset: one may be placed again)."),
    Tally("gain_placed", "match", lambda state, seat, key: int(state.gain_placed),
          _set_gain_placed, 0, 1,
          description="A card was placed on the field this turn."),
    Tally("stun_ready", "place", lambda state, seat, slot: int(_stun(state, seat, slot).ready),
          _set_ready, 0, 1, description="The stun in the adjusted seat's slot is ready (1) or "
          "exhausted (0).",
          keys=lambda state, seat: [str(i) for i, stun in enumerate(
              state.player(seat).standby, start=1) if stun is not None]),
)
