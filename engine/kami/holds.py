"""Hold and support (§ホールドとサポートについて, K7, kami Q-10, Q-12, Q-21, Q-29).

A seat's support is the icons of its territories on the field, in either area, and of its units
on the field that have support; it is never consumed. A card's hold is met when each colour's
support covers that colour's hold icons and the total support covers every hold icon, colourless
ones on top of the coloured (Q-10 ``additional``; ``overlapping`` lets them share). After every
action, every unit and option whose hold is no longer met by its controller's support is
discarded at once, over and over until nothing changes (K7); no VP for it (Q-9).
"""

from __future__ import annotations

from collections import Counter

from engine.kami.model import COLOURS, HEXES, Card, Colour, KamiState, Unit


def support(state: KamiState, seat: int) -> Counter[Colour]:
    """The icons of ``seat``'s territories and units on the field (Q-29)."""
    icons: Counter[Colour] = Counter()
    for hex_id in HEXES:
        place = state.board[hex_id]
        if place.territory is not None and place.territory_owner == seat:
            icons.update(state.cards[place.territory].support)
        if place.unit is not None and place.unit.owner == seat:
            icons.update(state.cards[place.unit.card].support)
    return icons


def hold_met(state: KamiState, card: Card, icons: Counter[Colour]) -> bool:
    """Whether ``icons`` of support meet ``card``'s hold."""
    need = card.hold
    if any(icons[c] < need.get(c, 0) for c in COLOURS):
        return False
    coloured = sum(need.get(c, 0) for c in COLOURS)
    colourless = need.get(Colour.COLOURLESS, 0)
    total = sum(icons[c] for c in COLOURS)
    if state.options.get("hold_colourless", "additional") == "overlapping":
        return total >= max(coloured, colourless)
    return total >= coloured + colourless


def failing_holds(state: KamiState) -> tuple[list[str], list[tuple[str, int]]]:
    """The hexes whose unit's hold fails, and the (hex, option index) of options whose own
    hold fails, each against its controller's support as it stands."""
    icons = {seat: support(state, seat) for seat in state.seats()}
    units, options = [], []
    for hex_id in HEXES:
        unit = state.board[hex_id].unit
        if unit is None:
            continue
        if not hold_met(state, state.cards[unit.card], icons[unit.owner]):
            units.append(hex_id)
            continue
        options += [(hex_id, i) for i, o in enumerate(unit.options)
                    if not hold_met(state, state.cards[o.card], icons[o.owner])]
    return units, options


def enforce_holds(state: KamiState) -> None:
    """K7: discard every unit and option whose hold fails, all at once, until none does. The
    options of a discarded unit go with it (Q-21); every card to its owner's discard pile, in
    hex order, options after their unit."""
    while True:
        units, options = failing_holds(state)
        if not units and not options:
            return
        for hex_id in HEXES:
            unit = state.board[hex_id].unit
            if unit is None:
                continue
            if hex_id in units:
                state.board[hex_id].unit = None
                discard_unit(state, unit)
                continue
            failing = [i for h, i in options if h == hex_id]
            for option in [unit.options[i] for i in failing]:
                state.discard[option.owner].append(option.card)
            unit.options = [o for i, o in enumerate(unit.options) if i not in failing]


def discard_unit(state: KamiState, unit: Unit) -> None:
    """A unit and its options to their owners' discard piles, the unit first."""
    state.discard[unit.owner].append(unit.card)
    for option in unit.options:
        state.discard[option.owner].append(option.card)
