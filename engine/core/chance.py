"""Chance as an explicit actor (C1), with typed outcomes.

The engine never draws random numbers itself. ``apply`` and ``setup`` ask a ``Chance`` source for
every draw, die roll and random pick; the source answers and keeps each answer as a typed,
frozen ``Outcome``. The recorder stores them in the event (``stored()``: plain dicts), and a
replay hands them back through ``ReplayChance``, which fails loudly if the engine asks for
anything else.

The outcomes, and who may see each (the same rule as the zone table, ``may_see``):

- ``CardDrawn``: a card drawn at random from a seat's deck into its hand; that seat sees it.
  Stored ``{kind, value, seat}``.
- ``HiddenCard``: a card taken at random that nobody at the table sees (judges do). Stored
  ``{kind, value, hidden: true}``.
- ``CardRevealed``, ``DieRolled``, ``SeatChosen``: a card shown to everyone, a die roll, a seat
  chosen (who plays first); public. Stored ``{kind, value}``.

Each game lists its outcome kinds and which actions consume them (``Ruleset.outcome_kinds`` and
``Action.consumes``), so a judge at a physical table knows what to enter.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import ActionError, IllegalAction
from engine.core.reasons import KernelReason as R
from engine.core.viewer import Viewer
from engine.core.zones import Visibility, may_see

LISTED = 10  # how many possible values an error message names before it says how many more


def shown(value: Any) -> str:
    """A value as a message names it: a card id or a number as it is, anything else quoted."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value.isprintable() and value.split() == [value]:
        return value
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def one_of(options: Sequence[Any], noun: str = "") -> str:
    """The possible values in plain words: ``1 or 2``, ``one of A, B or C``, ``one of A, B, ...
    (34 cards, 12 different)``. With a ``noun`` (``card``) the count is always given."""
    distinct = list(dict.fromkeys(options))
    try:
        distinct = sorted(distinct)
    except TypeError:
        pass
    names = [shown(v) for v in distinct]
    if len(names) == 1:
        listed = f"only {names[0]}"
    elif len(names) <= LISTED:
        listed = ("one of " if len(names) > 2 else "") + f"{', '.join(names[:-1])} or {names[-1]}"
    else:
        listed = f"one of {', '.join(names[:LISTED])}, ..."
    if not noun and len(names) <= LISTED:
        return listed
    noun = noun or "value"
    count = f"{len(options)} {noun}{'' if len(options) == 1 else 's'}"
    if len(distinct) != len(options):
        count += f", {len(distinct)} different"
    return f"{listed} ({count})"


@dataclass(frozen=True)
class Outcome:
    """What chance decided for one request: ``kind`` names the request, ``value`` the answer."""

    kind: str
    value: Any

    def visibility(self) -> tuple[Visibility, int | None]:
        """Who may see the value, as a zone would say it (visibility, owning seat)."""
        return Visibility.EVERYONE, None

    def seen_by(self, viewer: Viewer) -> bool:
        """Whether ``viewer`` may see the value."""
        return may_see(viewer, *self.visibility())

    def enterable_by(self, viewer: Viewer) -> bool:
        """Whether ``viewer`` may enter the value at a physical table: it sees the value, and
        checking it tells nothing it may not know (the default: whoever sees it)."""
        return self.seen_by(viewer)

    def to_data(self) -> dict[str, Any]:
        """The stored form."""
        return {"kind": self.kind, "value": self.value}

    def needed(self) -> str:
        """What a physical table enters for it (for error messages)."""
        return f"a {self.kind} outcome"

    def asked(self) -> dict[str, Any]:
        """What a table is asked to enter for it, as data a form is built from (which request,
        whose, how many sides): never a value, so it tells nobody anything hidden."""
        asked: dict[str, Any] = {"kind": self.kind, "outcome": type(self).__name__}
        for name in ("seat", "sides"):
            if hasattr(self, name):
                asked[name] = getattr(self, name)
        return asked

    def impossible(self, options: Sequence[Any], *, show_cards: bool = False) -> str:
        """Why a value cannot answer this request, whose possible values are ``options``: the
        rest of a sentence whose subject is that value. Cards in a hidden place are named only
        with ``show_cards`` (the reader may see them: a judge)."""
        return f"is not possible for {self.needed()}: it can be {one_of(options)}"


@dataclass(frozen=True)
class CardDrawn(Outcome):
    """A card drawn at random from ``seat``'s deck into its hand: only that seat sees it."""

    seat: int

    def visibility(self) -> tuple[Visibility, int | None]:
        """Seen by the drawing seat (and judges)."""
        return Visibility.OWNER, self.seat

    def to_data(self) -> dict[str, Any]:
        """The stored form, with the seat."""
        return {"kind": self.kind, "value": self.value, "seat": self.seat}

    def needed(self) -> str:
        """What a physical table enters for it."""
        return f"the card seat {self.seat} draws ({self.kind})"

    def impossible(self, options: Sequence[Any], *, show_cards: bool = False) -> str:
        """The card is not in the seat's deck; the deck's cards are named with ``show_cards``."""
        deck = f"seat {self.seat}'s deck"
        if show_cards:
            return f"is not in {deck}: a draw there can be {one_of(options, 'card')}"
        return f"is not in {deck}, so it cannot be {self.needed()}"


@dataclass(frozen=True)
class HiddenCard(Outcome):
    """A card taken at random that nobody at the table sees (judges do)."""

    def visibility(self) -> tuple[Visibility, int | None]:
        """Judges only."""
        return Visibility.JUDGES, None

    def to_data(self) -> dict[str, Any]:
        """The stored form, marked hidden."""
        return {"kind": self.kind, "value": self.value, "hidden": True}

    def needed(self) -> str:
        """What a physical table enters for it: a judge looks at the face-down card."""
        return f"the face-down card a judge looks at ({self.kind})"

    def impossible(self, options: Sequence[Any], *, show_cards: bool = False) -> str:
        """The card is not where the face-down card is taken from (named with ``show_cards``)."""
        where = f"among the cards the face-down card ({self.kind}) is taken from"
        if show_cards:
            return f"is not {where}: it can be {one_of(options, 'card')}"
        return f"is not {where}"


@dataclass(frozen=True)
class CardRevealed(Outcome):
    """A card taken at random and shown to everyone (an agent's cost)."""

    def enterable_by(self, viewer: Viewer) -> bool:
        """A judge's to enter: everyone sees the card, but whether a value is possible says
        what the hidden place it is taken from holds."""
        return viewer.is_judge

    def needed(self) -> str:
        """What a physical table enters for it."""
        return f"the card revealed ({self.kind})"

    def impossible(self, options: Sequence[Any], *, show_cards: bool = False) -> str:
        """The card is not where the revealed card is taken from (named with ``show_cards``)."""
        where = f"among the cards the revealed card ({self.kind}) is taken from"
        if show_cards:
            return f"is not {where}: it can be {one_of(options, 'card')}"
        return f"is not {where}"


@dataclass(frozen=True)
class DieRolled(Outcome):
    """A die roll, 1 to ``sides``."""

    sides: int = 6

    def needed(self) -> str:
        """What a physical table enters for it."""
        return f"a die roll 1-{self.sides} ({self.kind})"

    def impossible(self, options: Sequence[Any], *, show_cards: bool = False) -> str:
        """Not a face of the die."""
        return f"is not a roll of a {self.sides}-sided die ({self.kind}), which shows 1 to " \
               f"{self.sides}"


@dataclass(frozen=True)
class SeatChosen(Outcome):
    """A seat chosen at random (who plays first)."""

    def needed(self) -> str:
        """What a physical table enters for it."""
        return f"the seat chosen ({self.kind})"

    def impossible(self, options: Sequence[Any], *, show_cards: bool = False) -> str:
        """Not a seat that can be chosen (the seats are public)."""
        return f"is not a seat that can be chosen here: {self.needed()} can be " \
               f"{one_of(options)}"


PUBLIC_OUTCOMES: dict[str, type[Outcome]] = {
    "card_revealed": CardRevealed, "die_rolled": DieRolled, "seat_chosen": SeatChosen}


def outcome_from_data(data: Outcome | Mapping[str, Any],
                      kinds: Mapping[str, type[Outcome]] | None = None) -> Outcome:
    """The typed outcome of a stored one. Its visibility needs nothing more; ``kinds`` (a
    game's ``outcome_kinds`` types by kind family) tells public outcomes apart."""
    if isinstance(data, Outcome):
        return data
    kind, value = str(data.get("kind")), data.get("value")
    if data.get("hidden"):
        return HiddenCard(kind, value)
    if data.get("seat") is not None:
        return CardDrawn(kind, value, int(data["seat"]))
    cls = (kinds or {}).get(kind.split(":", 1)[0], Outcome)
    return cls(kind, value) if cls in PUBLIC_OUTCOMES.values() else Outcome(kind, value)


@dataclass(frozen=True)
class OutcomeKind:
    """A game's outcome kind (a family: ``order_roll`` covers ``order_roll:3``), its type and
    what it means at the table."""

    kind: str
    type: type[Outcome]
    description: str


class ChanceError(RuntimeError):
    """Stored outcomes do not fit what the engine asked for: the record and the rules disagree."""


class Chance(ABC):
    """A source of chance outcomes that records every outcome it gives."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    def draw(self, kind: str, deck: Sequence[str], seat: int) -> str:
        """A card drawn at random from ``seat``'s ``deck`` (duplicates weigh more)."""
        return str(self._record(CardDrawn(kind, None, seat), deck))

    def hidden_card(self, kind: str, cards: Sequence[str]) -> str:
        """A card taken at random that nobody at the table sees."""
        return str(self._record(HiddenCard(kind, None), cards))

    def reveal(self, kind: str, cards: Sequence[str]) -> str:
        """A card taken at random and shown to everyone."""
        return str(self._record(CardRevealed(kind, None), cards))

    def roll(self, kind: str, sides: int) -> int:
        """A die roll from 1 to ``sides``, public."""
        return int(self._record(DieRolled(kind, None, sides), list(range(1, sides + 1))))

    def choose_seat(self, kind: str, seats: Sequence[int]) -> int:
        """A seat chosen at random, public."""
        return int(self._record(SeatChosen(kind, None), seats))

    def stored(self) -> list[dict[str, Any]]:
        """The outcomes as the event stores them."""
        return [o.to_data() for o in self.outcomes]

    def _record(self, request: Outcome, options: Sequence[Any]) -> Any:
        if not options:
            raise ChanceError(f"nothing to pick from for {request.kind!r}")
        value = self._pick(request, options)
        self.outcomes.append(_answered(request, value))
        return value

    @abstractmethod
    def _pick(self, request: Outcome, options: Sequence[Any]) -> Any:
        """Return one of ``options`` for ``request`` (its ``value`` still None)."""


def _answered(request: Outcome, value: Any) -> Outcome:
    fields = {**request.__dict__, "value": value}
    return type(request)(**fields)


class ReplayChance(Chance):
    """Hands back stored outcomes in order; any mismatch is a ``ChanceError``."""

    def __init__(self, stored: Sequence[Outcome | Mapping[str, Any]]) -> None:
        super().__init__()
        self._stored = [outcome_from_data(o) for o in stored]
        self._next = 0

    def _pick(self, request: Outcome, options: Sequence[Any]) -> Any:
        kind = request.kind
        if self._next >= len(self._stored):
            raise ChanceError(f"the engine asked for a {kind!r} outcome that was never recorded")
        stored = self._stored[self._next]
        self._next += 1
        if stored.kind != kind:
            raise ChanceError(f"recorded outcome is {stored.kind!r}, engine asked {kind!r}")
        value = stored.value
        if value not in options:
            raise ChanceError(f"{shown(value)} (recorded outcome {self._next}) "
                              f"{request.impossible(options)}")
        return value

    def finish(self) -> None:
        """Fail if some stored outcomes were not asked for."""
        if self._next != len(self._stored):
            raise ChanceError(
                f"{len(self._stored) - self._next} recorded outcome(s) were not used by the engine")


class SuppliedChance(Chance):
    """Outcomes entered at a physical table (dice thrown, cards seen), checked as they are used.

    A supplied value that is impossible (a card not in the deck, a 7 on a six-sided die) is an
    ``IllegalAction``; so is running out of supplied values or supplying too many. Who enters
    them (``entered_by``) enters only the outcomes it may see: a seat its own draws and public
    dice, a judge any (``outcome_not_yours`` before the value is looked at, so the refusal
    tells nothing of it). The refusal of an impossible card names the cards it could have been
    only to a judge (a seat entering outcomes must not learn what a hidden place holds);
    ``entered_by`` None (a test, a pure check) accepts every outcome and names no card.
    """

    def __init__(self, supplied: Sequence[Any], *, entered_by: Viewer | None = None) -> None:
        super().__init__()
        self._supplied = list(supplied)
        self._next = 0
        self.entered_by = entered_by
        self.show_cards = entered_by is not None and entered_by.is_judge
        self.missing: Outcome | None = None  # the request no supplied outcome was left for

    @property
    def supplied(self) -> list[Any]:
        """The outcomes as they were supplied."""
        return list(self._supplied)

    def _pick(self, request: Outcome, options: Sequence[Any]) -> Any:
        kind = request.kind
        if self.entered_by is not None and not request.enterable_by(self.entered_by):
            raise IllegalAction(
                R.OUTCOME_NOT_YOURS,
                f"This action needs {request.needed()} as outcome {self._next + 1}, which "
                "only a judge enters here: ask a judge to record the action.", kind=kind)
        if self._next >= len(self._supplied):
            self.missing = request
            given = len(self._supplied)
            supplied = ("none was supplied" if not given else
                        f"only {given} {'was' if given == 1 else 'were'} supplied")
            raise IllegalAction(
                R.OUTCOME_MISSING,
                f"This action needs {request.needed()} from the table as outcome "
                f"{self._next + 1}; {supplied}.", kind=kind, asked=request.asked(),
                outcome=self._next + 1)
        value = self._supplied[self._next]
        self._next += 1
        if isinstance(value, dict):
            value = value.get("value")
        if value not in options:  # the value entered is not echoed to a seat
            echo = self.entered_by is None or self.entered_by.is_judge
            what = f"{shown(value)} (outcome {self._next})" if echo else \
                f"Outcome {self._next}"
            raise IllegalAction(
                R.OUTCOME_IMPOSSIBLE,
                f"{what} {request.impossible(options, show_cards=self.show_cards)}.",
                kind=kind)
        return value

    def finish(self) -> None:
        """Fail if some supplied outcomes were not needed."""
        if self._next != len(self._supplied):
            raise IllegalAction(
                R.OUTCOME_UNUSED,
                f"{len(self._supplied) - self._next} supplied outcome(s) were not needed "
                "by this action.")


def outcomes_needed(run: Callable[[Chance], object], given: Sequence[Any]) -> int | None:
    """How many outcomes ``run`` asks for when it is answered with ``given`` first and then
    with possible values; None where that depends on the values (two ways of answering
    disagree) or ``run`` fails. For messages only: ``run`` must be pure (a setup)."""
    counts = set()
    for backwards in (False, True):
        chance = _Continued(given, backwards)
        try:
            run(chance)
        except (ActionError, ChanceError):
            return None
        counts.add(len(chance.outcomes))
    return counts.pop() if len(counts) == 1 else None


class _Continued(Chance):
    """The given outcomes while they last and fit, then possible values, cycling through the
    options forwards or backwards (so that re-rolls of ties end)."""

    def __init__(self, given: Sequence[Any], backwards: bool) -> None:
        super().__init__()
        self._given = [v.get("value") if isinstance(v, dict) else v for v in given]
        self._backwards = backwards

    def _pick(self, request: Outcome, options: Sequence[Any]) -> Any:
        n = len(self.outcomes)
        if n < len(self._given) and self._given[n] in options:
            return self._given[n]
        i = n % len(options)
        return options[-1 - i if self._backwards else i]


class NoChance(Chance):
    """For positions where no chance is expected (tests, pure checks): any request is an error."""

    def _pick(self, request: Outcome, options: Sequence[Any]) -> Any:
        raise ChanceError(f"no chance source, but the engine asked for {request.kind!r}")


class ProbeChance(Chance):
    """For legality checks: answers each request with a possible value (cycling through the
    options, so re-rolls of ties end), so an action can be tried without a seed. Rules decide
    legality before they consult chance; the conformance suite checks that this holds for every
    game."""

    def _pick(self, request: Outcome, options: Sequence[Any]) -> Any:
        return options[len(self.outcomes) % len(options)]
