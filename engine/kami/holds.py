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

from engine.core.effects import emit
from engine.kami.effects import BattleResolved
from engine.kami.model import COLOURS, HEXES, Card, Colour, KamiState, Unit


def support(state: KamiState, seat: int) -> Counter[Colour]:
    """The icons of ``seat``'s territories and units on the field (Q-29), the attacker of an
    open battle included (it stands on the battle's hex)."""
    icons: Counter[Colour] = Counter()
    for hex_id in HEXES:
        place = state.board[hex_id]
        if place.territory is not None and place.territory_owner == seat:
            icons.update(state.cards[place.territory].support)
        if place.unit is not None and place.unit.owner == seat:
            icons.update(state.cards[place.unit.card].support)
    if state.battle is not None and state.battle.attacker.owner == seat:
        icons.update(state.cards[state.battle.attacker.card].support)
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


def _units(state: KamiState) -> list[Unit]:
    """Every unit standing on the field, the attacker of an open battle included."""
    units = [p.unit for h in HEXES if (p := state.board[h]).unit is not None]
    if state.battle is not None:
        units.append(state.battle.attacker)
    return units  # type: ignore[return-value]


def enforce_holds(state: KamiState) -> None:
    """K7: discard every unit and option whose hold fails against its controller's support,
    all at once, until none does. The options of a discarded unit go with it (Q-21); every card
    to its owner's discard pile, in hex order (the attacker of an open battle last), options
    after their unit; no VP (Q-9). An attacker discarded so ends its battle: the defender
    holds the hex and the stacks go to the discard piles."""
    while True:
        icons = {seat: support(state, seat) for seat in state.seats()}
        changed = False
        for unit in _units(state):
            if not hold_met(state, state.cards[unit.card], icons[unit.owner]):
                _remove(state, unit)
                discard_unit(state, unit)
                changed = True
                continue
            kept = [o for o in unit.options
                    if hold_met(state, state.cards[o.card], icons[o.owner])]
            for option in unit.options:
                if option not in kept:
                    state.discard[option.owner].append(option.card)
                    changed = True
            unit.options = kept
        if not changed:
            return


def _remove(state: KamiState, unit: Unit) -> None:
    """Take a unit off the field (ending its battle if it was attacking)."""
    battle = state.battle
    if battle is not None and battle.attacker is unit:
        for seat, stack in battle.stacks.items():
            state.discard[seat].extend(stack)
        defender = state.board[battle.hex].unit
        emit(state, BattleResolved(hex=battle.hex, attack=(), destroyed=(),
                                   survivor=defender.owner if defender else None, vp=(),
                                   ended_by="attacker's hold"))
        state.battle = None
        state.phase = "action"
        return
    for hex_id in HEXES:
        if state.board[hex_id].unit is unit:
            state.board[hex_id].unit = None


def discard_unit(state: KamiState, unit: Unit) -> None:
    """A unit and its options to their owners' discard piles, the unit first."""
    state.discard[unit.owner].append(unit.card)
    for option in unit.options:
        state.discard[option.owner].append(option.card)
