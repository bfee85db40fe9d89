"""C3 adjustments for Illuminati: card-text effects entered by a judge (or by agreement).

Counters: ``tokens:CARD`` (action tokens on a structure card or resource), ``power:CARD`` and
``resistance:CARD`` (the change card text made to a structure card's printed value).
Zones for moves: plot_hand, group_hand, plot_deck, group_deck, discard, destroyed, resources,
agents, plots, loose, structure (from; a card with nothing below it) and
``structure:PARENT:ARROW`` (to). The card leaves a zone of ``from_seat`` and enters one of
``to_seat`` (both default to ``seat``), so a card can be put into another player's structure.
"""

from __future__ import annotations

from engine.core.actions import Adjust, CounterChange
from engine.core.errors import IllegalAction
from engine.illuminati import structure
from engine.illuminati.model import SIDES, IlluminatiState, Resource, Side, find
from engine.illuminati.zones import own_card

LIST_ZONES = ("plot_hand", "group_hand", "discard", "destroyed", "agents", "plots", "loose")
ZONES_TEXT = ("plot_hand, group_hand, plot_deck, group_deck, discard, destroyed, resources, "
              "agents, plots, loose, structure, structure:PARENT:ARROW")


def adjust(st: IlluminatiState, action: Adjust) -> None:
    """Apply one adjustment to ``st`` or raise IllegalAction."""
    if action.counter is not None:
        _counter(st, action.seat, action.counter)
        return
    move = action.move
    assert move is not None
    source, target = move.seats(action.seat)
    card = _take(st, source, move.card, move.from_zone)
    attack = st.attack
    if attack is not None and card in (attack.attacker, attack.target):
        raise IllegalAction("attack_in_progress", "The attacker and the target of the attack "
                            "under way cannot be moved until it is resolved.")
    _put(st, target, card, move.to_zone)


def check_structure_place(st: IlluminatiState, seat: int, address: str) -> None:
    """``PARENT:ARROW`` must name a card in ``seat``'s power structure and, if given, a side."""
    parent_ref, _, arrow = address.partition(":")
    own_card(st, seat, parent_ref)
    if arrow and arrow not in SIDES:
        raise IllegalAction("bad_zone", f"Arrows are {', '.join(SIDES)}, not {arrow!r}.")


def _counter(st: IlluminatiState, seat: int, change: CounterChange) -> None:
    name, _, ref = change.name.partition(":")
    if name not in ("tokens", "power", "resistance") or not ref:
        raise IllegalAction("bad_counter", f"Cannot set {change.name!r}: counters are "
                            "tokens:CARD, power:CARD and resistance:CARD.")
    p = st.player(seat)
    if name == "tokens":
        if change.value < 0:
            raise IllegalAction("bad_counter", "Tokens cannot be negative.")
        res = find([r.card for r in p.resources], ref, seat)
        holder = next((r for r in p.resources if r.card == res), None)
        node = holder or p.structure.get(own_card(st, seat, ref))
        assert node is not None
        node.tokens = change.value
        return
    target = p.structure[own_card(st, seat, ref)]
    if name == "power":
        target.power_mod = change.value
    else:
        target.resistance_mod = change.value


def _take(st: IlluminatiState, seat: int, ref: str, zone: str) -> str:
    p = st.player(seat)
    missing = IllegalAction("card_not_in_zone", f"{ref} is not in seat {seat}'s {zone}.")
    if zone in LIST_ZONES:
        pile: list[str] = getattr(p, zone)
        card = find(pile, ref, seat)
        if card is None:
            raise missing
        pile.remove(card)
        if card in p.revealed:
            p.revealed.remove(card)
        return card
    if zone in ("plot_deck", "group_deck"):
        deck = p.plot_deck if zone == "plot_deck" else p.group_deck
        for part in (deck.shuffled, deck.bottom):
            card = find(part, ref, seat)
            if card is not None:
                part.remove(card)
                return card
        raise missing
    if zone == "resources":
        card = find([r.card for r in p.resources], ref, seat)
        if card is None:
            raise missing
        p.resources = [r for r in p.resources if r.card != card]
        p.links = [k for k in p.links if card not in (k.a, k.b)]
        return card
    if zone == "structure":
        card = own_card(st, seat, ref)
        if card == p.illuminati or structure.children(p, card):
            raise IllegalAction("bad_zone", "Only a group with nothing below it can be taken "
                                "out of a structure by adjustment.")
        del p.structure[card]
        p.links = [k for k in p.links if card not in (k.a, k.b)]
        return card
    raise IllegalAction("bad_zone", f"Unknown zone {zone!r}: use {ZONES_TEXT}.")


def _put(st: IlluminatiState, seat: int, card: str, zone: str) -> None:
    p = st.player(seat)
    if zone in LIST_ZONES:
        getattr(p, zone).append(card)
    elif zone in ("plot_deck", "group_deck"):
        (p.plot_deck if zone == "plot_deck" else p.group_deck).shuffled.append(card)
    elif zone == "resources":
        p.resources.append(Resource(card=card))
    elif zone.startswith("structure:"):
        _, parent_ref, arrow = (zone.split(":") + [""])[:3]
        parent = own_card(st, seat, parent_ref)
        side: Side | None = None
        if arrow:
            if arrow not in SIDES:
                raise IllegalAction("bad_zone", f"Arrows are {', '.join(SIDES)}, not {arrow!r}.")
            side = arrow  # type: ignore[assignment]
        structure.place_group(st, seat, card, parent, side)
    else:
        raise IllegalAction("bad_zone", f"Unknown zone {zone!r}: use {ZONES_TEXT}.")
