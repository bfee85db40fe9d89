"""Zones: where cards can be, who owns each place, and who may see what is in it.

A game declares its table of zones once. Hidden information is then decided in one place,
``ZoneTable.sees``: views ask it before showing a zone's cards, the kernel redacts recorded
actions and judges' adjustments with it, and it is the vocabulary of ``adjust`` (C3).

A zone reference is the zone's name, or ``name:address`` for zones with places in them (a World
Gainer stun slot ``standby:3``, a square ``field:B-2``, an Illuminati arrow
``structure:PARENT:ARROW``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from engine.core.errors import IllegalAction
from engine.core.holdings import Holding
from engine.core.reasons import KernelReason as R
from engine.core.viewer import Viewer


class Visibility(StrEnum):
    """Who may see a zone's cards (or how many there are)."""

    EVERYONE = "everyone"  # face up on the table
    OWNER = "owner"  # the owning seat (and judges): a hand
    JUDGES = "judges"  # nobody at the table: a shuffled deck, a face-down pile


@dataclass(frozen=True)
class Zone:
    """One zone of a game: a hand, a deck, a pile, a field, a stand-by area..."""

    name: str
    owner: Literal["seat", "shared"]
    ordered: bool
    contents: Visibility
    size: Visibility = Visibility.EVERYONE
    address: str = ""  # what follows ``name:`` in a reference, e.g. "slot 1-5"; "" for none
    description: str = ""
    adjustable: bool = True  # whether a judge's move may name it
    # where the game's state keeps the zone's cards (engine.core.holdings): the kernel then
    # reads its places and moves a judge's card in and out of it; None: the game's own code
    holding: Holding[Any] | None = None


def may_see(viewer: Viewer, visibility: Visibility, owner: int | None) -> bool:
    """Whether ``viewer`` may see something of ``visibility`` owned by seat ``owner`` (None for
    a shared zone). The one rule every channel follows."""
    if visibility is Visibility.EVERYONE or viewer.is_judge:
        return True
    if visibility is Visibility.OWNER:
        return owner is not None and viewer.sees_seat(owner)
    return False


class ZoneTable:
    """A game's zones by name."""

    def __init__(self, zones: Iterable[Zone]) -> None:
        self.zones: dict[str, Zone] = {}
        for zone in zones:
            if zone.name in self.zones:
                raise ValueError(f"zone {zone.name!r} is declared twice")
            self.zones[zone.name] = zone

    def __iter__(self) -> Iterable[Zone]:  # type: ignore[override]
        return iter(self.zones.values())

    def vocabulary(self) -> str:
        """The references ``adjust`` accepts, for error messages and docs."""
        return ", ".join(f"{z.name}:{z.address.split(' ')[0].upper()}" if z.address else z.name
                         for z in self.zones.values() if z.adjustable)

    def parse(self, ref: str) -> tuple[Zone, str]:
        """The zone a reference names and its address ("" if none), or IllegalAction
        ``bad_zone``. It never looks at the cards, so it tells nobody anything hidden; the game
        checks the address itself (a slot number, a square)."""
        name, _, address = ref.partition(":")
        zone = self.zones.get(name)
        if zone is None or not zone.adjustable:
            raise IllegalAction(R.BAD_ZONE, f"Unknown zone {ref!r}: zones are "
                                f"{self.vocabulary()}.", zone=ref)
        return zone, address

    def sees(self, viewer: Viewer, zone: str, owner: int | None) -> bool:
        """Whether ``viewer`` may see which cards are in ``owner``'s ``zone``."""
        return may_see(viewer, self.zones[zone].contents, owner)

    def sees_size(self, viewer: Viewer, zone: str, owner: int | None) -> bool:
        """Whether ``viewer`` may see how many cards are in ``owner``'s ``zone``."""
        return may_see(viewer, self.zones[zone].size, owner)


@dataclass(frozen=True)
class CardFlow:
    """Declared on an action model: a field naming cards that move from one of ``from_zones``
    of the acting seat to ``to_zone`` of the seat in field ``to_seat_field``. The kernel shows
    the cards to a viewer who may see either end, and hides them (``None``) from the others."""

    field: str
    from_zones: tuple[str, ...]
    to_zone: str
    to_seat_field: str = "seat"


def flow_visible(table: ZoneTable, flow: CardFlow, action: dict[str, object],
                 viewer: Viewer) -> bool:
    """Whether ``viewer`` may see the cards of ``flow`` in ``action`` (data): they may see one
    of the zones the cards came from, or the zone they went to."""
    seat = int(str(action["seat"]))
    to = int(str(action.get(flow.to_seat_field) or seat))
    return any(table.sees(viewer, z, seat) for z in flow.from_zones) or table.sees(
        viewer, flow.to_zone, to)
