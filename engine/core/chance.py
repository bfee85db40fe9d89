"""Chance as an explicit actor (C1).

The engine never draws random numbers itself. ``apply`` and ``setup`` ask a ``Chance`` source for
every pick, die roll and shuffle; the source answers and keeps a record of each outcome. The
recorder stores those outcomes in the event, and a replay hands them back through
``ReplayChance``, which fails loudly if the engine asks for anything else.

An outcome is a plain dict ``{"kind": str, "value": ..., "seat": int | None, "hidden": bool}``:
``seat`` names the one seat allowed to see the value (besides judges), ``hidden`` marks a value no
seat may see (only judges). With neither, the outcome is public (a die roll).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from engine.core.errors import IllegalAction

Outcome = dict[str, Any]


class ChanceError(RuntimeError):
    """Stored outcomes do not fit what the engine asked for: the record and the rules disagree."""


class Chance(ABC):
    """A source of chance outcomes that records every outcome it gives."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    def pick(self, kind: str, options: Sequence[Any], *, seat: int | None = None,
             hidden: bool = False) -> Any:
        """One of ``options`` uniformly (duplicates weigh more: a deck with 3 copies)."""
        if not options:
            raise ChanceError(f"nothing to pick from for {kind!r}")
        value = self._pick(kind, options)
        self.outcomes.append(_outcome(kind, value, seat, hidden))
        return value

    def roll(self, kind: str, sides: int, *, seat: int | None = None) -> int:
        """A die roll from 1 to ``sides``, public unless ``seat`` is given."""
        value = self._pick(kind, list(range(1, sides + 1)))
        self.outcomes.append(_outcome(kind, value, seat, False))
        return int(value)

    @abstractmethod
    def _pick(self, kind: str, options: Sequence[Any]) -> Any:
        """Return one of ``options``."""


def _outcome(kind: str, value: Any, seat: int | None, hidden: bool) -> Outcome:
    out: Outcome = {"kind": kind, "value": value}
    if seat is not None:
        out["seat"] = seat
    if hidden:
        out["hidden"] = True
    return out


class ReplayChance(Chance):
    """Hands back stored outcomes in order; any mismatch is a ``ChanceError``."""

    def __init__(self, stored: Sequence[Outcome]) -> None:
        super().__init__()
        self._stored = list(stored)
        self._next = 0

    def _pick(self, kind: str, options: Sequence[Any]) -> Any:
        if self._next >= len(self._stored):
            raise ChanceError(f"the engine asked for a {kind!r} outcome that was never recorded")
        stored = self._stored[self._next]
        self._next += 1
        if stored.get("kind") != kind:
            raise ChanceError(f"recorded outcome is {stored.get('kind')!r}, engine asked {kind!r}")
        value = stored.get("value")
        if value not in options:
            raise ChanceError(f"recorded {kind!r} outcome {value!r} is not possible here")
        return value

    def finish(self) -> None:
        """Fail if some stored outcomes were not asked for."""
        if self._next != len(self._stored):
            raise ChanceError(
                f"{len(self._stored) - self._next} recorded outcome(s) were not used by the engine")


class SuppliedChance(Chance):
    """Outcomes entered at a physical table (dice thrown, cards seen), checked as they are used.

    A supplied value that is impossible (a card not in the deck, a 7 on a six-sided die) is an
    ``IllegalAction``; so is running out of supplied values or supplying too many.
    """

    def __init__(self, supplied: Sequence[Any]) -> None:
        super().__init__()
        self._supplied = list(supplied)
        self._next = 0

    def _pick(self, kind: str, options: Sequence[Any]) -> Any:
        if self._next >= len(self._supplied):
            raise IllegalAction(
                "outcome_missing",
                f"This action needs a {kind} outcome from the table; "
                f"only {len(self._supplied)} were supplied.", kind=kind)
        value = self._supplied[self._next]
        self._next += 1
        if isinstance(value, dict):
            value = value.get("value")
        if value not in options:
            raise IllegalAction(
                "outcome_impossible",
                f"The supplied {kind} outcome {value!r} is not possible here.", kind=kind)
        return value

    def finish(self) -> None:
        """Fail if some supplied outcomes were not needed."""
        if self._next != len(self._supplied):
            raise IllegalAction(
                "outcome_unused",
                f"{len(self._supplied) - self._next} supplied outcome(s) were not needed "
                "by this action.")


class NoChance(Chance):
    """For positions where no chance is expected (tests, pure checks): any request is an error."""

    def _pick(self, kind: str, options: Sequence[Any]) -> Any:
        raise ChanceError(f"no chance source, but the engine asked for {kind!r}")


class ProbeChance(Chance):
    """For legality checks: answers every request with the first possible value, so an action
    can be tried without a seed. Rules decide legality before they consult chance; the
    conformance suite checks that this holds for every game."""

    def _pick(self, kind: str, options: Sequence[Any]) -> Any:
        return options[0]
