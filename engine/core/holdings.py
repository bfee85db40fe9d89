"""Where a game keeps each zone's cards and values in its state, said once beside its zone
table (C3, issue 39): the kernel reads every place from it, moves a judge's card between any
two places, and sets any counter, stat or flag a game declares.

A ``Holding`` is one zone's cards in the state: which places the zone has for a seat (a stun
slot, a square, a hex, a cell, a host card's attachments), which cards are in one, how a card
leaves it and how one arrives (with what may refuse an arrival: one card per cell, uniqueness).
A ``Pile`` is the common case, one list of cards per seat (or for the table). A ``Tally`` is a
value a judge may set: of a seat (influence), of a card (valor, tokens, a stat) or of the match
(the reserve), with its bounds; a flag is a tally of 0 and 1.

The kernel's adjustment (``Ruleset._adjust_checked``) takes the card out of its place first and
then asks the destination whether it admits it, on the position as the removal left it (a
move within a grid is checked on the grid as it is once the card has left), then puts it
there and lets the game restore what it derives (``Ruleset._adjusted``); the position is a
private copy until the whole action succeeds, so a refusal anywhere leaves nothing changed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from engine.core.errors import IllegalAction
from engine.core.reasons import KernelReason as R

S = TypeVar("S")
Seat = int | None
"""The seat whose place it is: None for a shared zone's place as the table lists it; in a
judge's move, the seat the card leaves or enters for (a shared zone may use it: the seat a
square is held by)."""


class Holding(ABC, Generic[S]):
    """One zone's cards in a game's state ``S``."""

    def addresses(self, state: S, seat: Seat) -> Sequence[str]:
        """The places of the zone for ``seat`` ("" for a zone without places)."""
        return ("",)

    def entries(self, state: S, seat: Seat) -> Sequence[str]:
        """The places a card may be put into now, where they are more than ``addresses`` (a
        grid's free cells, a host card's attachments); the default: ``addresses``."""
        return self.addresses(state, seat)

    def shift(self, state: S, seat: int, source: str, target: str, card: str) -> bool:
        """Move ``card`` from one place of the zone to another of the same seat's at once (a
        piece on a grid keeping what is attached to it, checked in the grid as it stands),
        and say True; False (the default): the kernel takes it out and puts it in."""
        return False

    @abstractmethod
    def cards(self, state: S, seat: Seat, address: str) -> list[str]:
        """The cards in one place, in order (a new list)."""

    def find(self, state: S, seat: Seat, address: str, ref: str) -> str | None:
        """The card of the place a judge's move names by ``ref`` (the default: exactly that
        card, if it is there; a game that names cards by a bare card id where that is
        unambiguous resolves it here), or None."""
        return ref if ref in self.cards(state, seat, address) else None

    def take(self, state: S, seat: Seat, address: str, card: str) -> None:
        """Take ``card`` out of the place (it is there: the kernel checked); the default: a
        zone cards do not leave by adjustment."""
        raise IllegalAction(R.BAD_ZONE, "Cards do not leave that zone by adjustment.")

    def admit(self, state: S, seat: Seat, address: str, card: str) -> None:
        """Raise IllegalAction if ``card`` may not enter the place now; the default: any card
        enters any place the zone has."""
        if address not in self.addresses(state, seat):
            raise IllegalAction(R.BAD_ZONE, f"There is no place {address!r} there.")

    def put(self, state: S, seat: Seat, address: str, card: str) -> None:
        """Put ``card`` into the place (``admit`` let it); the default: a zone cards do not
        enter by adjustment."""
        raise IllegalAction(R.BAD_ZONE, "Cards do not enter that zone by adjustment.")


@dataclass(frozen=True)
class Pile(Holding[S]):
    """A zone whose one place per seat (or for the table) is a list of cards in the state:
    ``pile(state, seat)`` is that list itself. A card arrives on top (at the end), or where it
    sorts in a pile the game keeps sorted (``sort``)."""

    pile: Callable[[S, Seat], list[str]]
    sort: bool = False

    def cards(self, state: S, seat: Seat, address: str) -> list[str]:
        """The list's cards."""
        return list(self.pile(state, seat))

    def take(self, state: S, seat: Seat, address: str, card: str) -> None:
        """Out of the list."""
        self.pile(state, seat).remove(card)

    def put(self, state: S, seat: Seat, address: str, card: str) -> None:
        """On top of the list, or in its sorted place."""
        pile = self.pile(state, seat)
        pile.append(card)
        if self.sort:
            pile.sort()


def _no_keys(state: Any, seat: int) -> Sequence[str]:
    return ()


@dataclass(frozen=True)
class Tally(Generic[S]):
    """A value a judge may set by adjustment (C3): ``NAME`` for the match's or the adjusted
    seat's, ``NAME:KEY`` for a card's (KEY an instance id, or a card id where the game names
    cards so) or a place's (KEY its address: a stun slot). ``get`` and ``set`` take the state,
    the adjusted seat and the key ("" for a seat's or the match's value); ``set`` may refuse
    (IllegalAction) what its rules forbid, and may bring in step what the value decides. A
    flag is a tally of 0 and 1."""

    name: str
    of: Literal["seat", "match", "card", "place"]
    get: Callable[[S, int, str], int]
    set: Callable[[S, int, str, int], None]
    low: int = 0
    high: int = 1_000_000
    description: str = ""
    keys: Callable[[S, int], Sequence[str]] = _no_keys
    """For a card's or a place's tally: the keys that have it now for the adjusted seat."""

    @property
    def flag(self) -> bool:
        """Whether it is a flag: 0 or 1."""
        return (self.low, self.high) == (0, 1)

    @property
    def keyed(self) -> bool:
        """Whether an adjustment names it with a key (a card or a place)."""
        return self.of in ("card", "place")

    def reference(self) -> str:
        """How an adjustment names it: ``NAME``, ``NAME:CARD`` or ``NAME:PLACE``."""
        return f"{self.name}:{self.of.upper()}" if self.keyed else self.name


def tally_named(tallies: Sequence[Tally[Any]], name: str) -> tuple[Tally[Any], str]:
    """The tally an adjustment's counter name means and its key ("" if none), or
    IllegalAction ``bad_counter`` naming every one the game has."""
    base, sep, key = name.partition(":")
    for tally in tallies:
        if tally.name == base and tally.keyed == bool(sep and key):
            return tally, key
    known = ", ".join(t.reference() for t in tallies) or "none"
    raise IllegalAction(R.BAD_COUNTER, f"Unknown counter {name!r}: this game's are {known}.")


@dataclass(frozen=True)
class Stat(Generic[S]):
    """A stat of a card in play that card text changes for a while (C3): ``cards`` are the
    cards that have it now. The game reads a card's value through ``modified``."""

    name: str
    description: str
    cards: Callable[[S], Sequence[str]]


Until = Literal["end_of_turn", "permanent"]


@dataclass
class Modifier:
    """A lasting change of a card's stat made by card text (C3): ``amount`` added to the
    card's ``stat`` until the end of the turn or for good (until a judge ends it), shown to
    everyone with its reason."""

    card: str
    stat: str
    amount: int
    until: Until
    reason: str


def modified(modifiers: Sequence[Modifier], card: str, stat: str, value: int) -> int:
    """``value`` (a card's printed ``stat``) with every lasting modifier of it added."""
    return value + sum(m.amount for m in modifiers if m.card == card and m.stat == stat)
