"""Effects: what one step of a match did (cards moved, values changed, an attack resolved...).

``Ruleset.step(state, action, chance)`` returns the new state and its effects. The kernel derives
the common ones from the game's zone table and values, so every game has them with no code of
its own: which cards left which place for which (``CardMoved``), which values changed
(``ValueChanged``: turn, active seat, phase, scores, the game's counters), and the end of the
match (``MatchEnded``). A game adds what only its rules decided, as its own frozen ``Effect``
subclasses emitted while the action is applied (``emit``), such as Illuminati's resolved attack
with its totals and roll. Transcripts, the web viewer's step animations and exports read effects
rather than recomputing rules.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.viewer import Viewer
from engine.core.zones import ZoneTable

_EMITTED = "_effects"


@dataclass(frozen=True)
class Place:
    """A place cards can be: a zone of a seat (``seat`` None for a shared zone), with its
    address (a slot, a square, a parent card) where the zone has places."""

    zone: str
    seat: int | None = None
    address: str = ""

    def __str__(self) -> str:
        where = f"{self.zone}:{self.address}" if self.address else self.zone
        return where if self.seat is None else f"seat {self.seat} {where}"


@dataclass(frozen=True)
class Effect:
    """Base of every effect. ``kind`` names it in data; ``to_data`` gives plain data."""

    kind: ClassVar[str] = "effect"

    def to_data(self) -> dict[str, Any]:
        """Plain data for JSON and msgpack: ``{"kind": ..., **fields}``."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = dataclasses.asdict(value) if isinstance(value, Place) else value
        return out

    def seen_by(self, viewer: Viewer, table: ZoneTable) -> Effect:
        """This effect as ``viewer`` may see it (the default: as it is)."""
        return self


@dataclass(frozen=True)
class CardMoved(Effect):
    """A card left ``source`` and entered ``target`` (None: it came from, or left, the game's
    zones altogether)."""

    kind: ClassVar[str] = "card_moved"
    card: str | None
    source: Place | None
    target: Place | None

    def seen_by(self, viewer: Viewer, table: ZoneTable) -> Effect:
        """The card is named only to a viewer who may see one end of the move."""
        ends = [p for p in (self.source, self.target) if p is not None]
        if any(table.sees(viewer, p.zone, p.seat) for p in ends):
            return self
        return dataclasses.replace(self, card=None)


@dataclass(frozen=True)
class ValueChanged(Effect):
    """A value of the position changed: ``turn``, ``active``, ``phase``, ``score:SEAT`` or one
    of the game's counters (``tokens:CARD``...)."""

    kind: ClassVar[str] = "value_changed"
    name: str
    before: Any
    after: Any


@dataclass(frozen=True)
class MatchEnded(Effect):
    """The match ended with this result."""

    kind: ClassVar[str] = "match_ended"
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    reason: str
    drawn: bool


def emit(state: Any, effect: Effect) -> None:
    """Record an effect the rules decided while applying an action to ``state`` (the private
    copy ``apply`` works on). Outside ``Ruleset.step`` it is kept nowhere."""
    emitted = state.__dict__.get(_EMITTED)
    if emitted is not None:
        emitted.append(effect)


def collect(state: Any) -> None:
    """Start collecting the effects emitted on ``state``."""
    state.__dict__[_EMITTED] = []


def take(state: Any) -> list[Effect]:
    """Stop collecting and return what was emitted on ``state``."""
    return list(state.__dict__.pop(_EMITTED, []))


def moves(before: Mapping[Place, list[str]], after: Mapping[Place, list[str]]) -> list[Effect]:
    """The cards that changed place between two positions, paired by card id in place order."""
    left: list[tuple[str, Place]] = []
    entered: list[tuple[str, Place]] = []
    for place in sorted(set(before) | set(after), key=str):
        old, new = Counter(before.get(place, [])), Counter(after.get(place, []))
        left += [(card, place) for card in sorted((old - new).elements())]
        entered += [(card, place) for card in sorted((new - old).elements())]
    out: list[Effect] = []
    for card, source in left:
        match = next((i for i, (c, _) in enumerate(entered) if c == card), None)
        target = entered.pop(match)[1] if match is not None else None
        out.append(CardMoved(card=card, source=source, target=target))
    out += [CardMoved(card=card, source=None, target=place) for card, place in entered]
    return out


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Effect]:
    """The values that differ between two positions, in name order."""
    return [ValueChanged(name=name, before=before.get(name), after=after.get(name))
            for name in sorted(set(before) | set(after))
            if before.get(name) != after.get(name)]
