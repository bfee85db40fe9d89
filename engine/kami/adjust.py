"""Judges' adjustments (C3): card texts, abilities, force effects, damage that is not recovered.

Moves: a card between a seat's hand, deck (taken from anywhere in it, put on top), discard pile,
lasting forces and the field (``field:A1:2C``: a unit or a territory of that seat on that hex).
Counters: ``vp``, ``ap`` (AP cards back from or onto the deck), ``hand_limit``, ``damage:HEX``,
``lasting_damage:HEX``, ``battle_at`` and ``battle_df`` (the seat's modifiers in the open
battle). The holds are checked
after every adjustment (K7).
"""

from __future__ import annotations

from engine.core.actions import Adjust, CardMove, CounterChange
from engine.core.errors import IllegalAction
from engine.kami.deck import ap, deck_size, pay, take_top
from engine.kami.holds import enforce_holds
from engine.kami.model import AP_LIMIT, HEXES, KamiState, Unit
from engine.kami.turn import settle_hand_limit


def adjust(state: KamiState, action: Adjust) -> None:
    """Apply one adjustment, then the K7 holds."""
    if action.counter is not None:
        _counter(state, action.seat, action.counter)
    else:
        assert action.move is not None  # the kernel handles turn changes
        _move(state, action.seat, action.move)
    enforce_holds(state)
    settle_hand_limit(state)


def _take(state: KamiState, seat: int, ref: str, card: str) -> None:
    zone, _, hex_id = ref.partition(":")
    if zone == "field":
        place = state.board[hex_id]
        if place.unit is not None and place.unit.owner == seat and place.unit.card == card:
            for option in place.unit.options:
                state.discard[option.owner].append(option.card)
            place.unit = None
            return
        if place.territory == card and place.territory_owner == seat:
            place.territory, place.territory_owner = None, None
            return
    elif zone == "deck":
        if card in state.deck_top[seat]:
            state.deck_top[seat].remove(card)
            return
        for i, entry in enumerate(state.deck_top[seat]):
            if isinstance(entry, int) and card in state.layers[seat][entry]:
                state.layers[seat][entry].remove(card)  # the judge fixes a paid AP card
                state.deck_top[seat].pop(i)
                return
        under = state.deck_under[seat]
        for run in under:
            if card in state.layers[seat][run.layer]:  # the judge fixes an unfixed deck card
                state.layers[seat][run.layer].remove(card)
                run.count -= 1
                state.deck_under[seat] = [r for r in under if r.count]
                return
    else:
        pile = _pile(state, seat, zone)
        if card in pile:
            pile.remove(card)
            return
    raise IllegalAction("card_not_in_zone", f"{card} is not in {ref} of seat {seat}.")


def _put(state: KamiState, seat: int, ref: str, card: str) -> None:
    zone, _, hex_id = ref.partition(":")
    if zone == "deck":  # on top of the deck
        state.deck_top[seat].insert(0, card)
        return
    if zone != "field":
        _pile(state, seat, zone).append(card)
        return
    place, kind = state.board[hex_id], state.cards[card].kind
    if kind == "unit" and place.unit is None:
        place.unit = Unit(card=card, owner=seat)
    elif kind == "territory" and place.territory is None:
        place.territory, place.territory_owner = card, seat
    else:
        raise IllegalAction("card_not_in_zone", f"{hex_id} has no room for that {kind}.")


def _pile(state: KamiState, seat: int, zone: str) -> list[str]:
    piles = {"hand": state.hands, "discard": state.discard, "forces": state.forces}
    if zone not in piles:
        raise IllegalAction("bad_zone", f"Cards are not moved in or out of {zone}.")
    return piles[zone][seat]


def _move(state: KamiState, seat: int, move: CardMove) -> None:
    source, target = move.seats(seat)
    _take(state, source, move.from_zone, move.card)
    _put(state, target, move.to_zone, move.card)


def _counter(state: KamiState, seat: int, change: CounterChange) -> None:
    name, _, hex_id = change.name.partition(":")
    value = change.value
    if hex_id and name not in ("damage", "lasting_damage"):
        raise IllegalAction("bad_counter", f"{name} takes no hex: write {name}.")
    if name in ("damage", "lasting_damage"):
        unit = state.board[hex_id].unit if hex_id in HEXES else None
        if unit is None or value < 0:
            raise IllegalAction("bad_counter", f"{change.name}: name a hex with a unit "
                                "(damage:A1:2C) and a value of 0 or more.")
        setattr(unit, name, value)
    elif name == "vp" and value >= 0:
        state.vp[seat] = value
    elif name == "hand_limit" and 0 <= value <= 40:
        state.hand_limit[seat] = value
    elif name == "ap" and 0 <= value <= AP_LIMIT:
        _set_ap(state, seat, value)
    elif name in ("battle_at", "battle_df") and state.battle is not None:
        mods = state.battle.at_mod if name == "battle_at" else state.battle.df_mod
        mods[seat] = value
    else:
        raise IllegalAction("bad_counter", f"Unknown counter or value {change.name}={value}: "
                            "vp, ap (0-10), hand_limit, damage:HEX, lasting_damage:HEX, "
                            "battle_at, battle_df (during a battle).")


def _set_ap(state: KamiState, seat: int, value: int) -> None:
    """AP cards move between the top of the deck and the top of the AP pile, one at a time."""
    more = value - ap(state, seat)
    if more > deck_size(state, seat):
        raise IllegalAction("bad_counter", f"Seat {seat}'s deck has {deck_size(state, seat)} "
                            "card(s) to move onto the AP pile.")
    if more < 0:
        pay(state, seat, -more)
    for _ in range(more):
        state.ap[seat].insert(0, take_top(state, seat))

