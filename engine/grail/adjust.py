"""Judges' adjustments (C3): card texts, events, spells, permanent damage.

Moves: a card instance between a seat's hand, court deck, quest deck, court and quest discard
piles, removed zone, active quest and field (a domain; a warrior, whose attachments go to
their owners' court discard piles; or a card attached to a warrior). Counters:
``valor:WARRIOR``, ``damage:WARRIOR``, ``permanent_damage:WARRIOR`` (a warrior's instance
id)."""

from __future__ import annotations

from engine.core.actions import Adjust, CardMove, CounterChange
from engine.core.errors import IllegalAction
from engine.grail.basics import change_valor, destroy
from engine.grail.model import GrailState, Warrior

PILES = ("hand", "court", "quests", "court_discard", "quest_discard", "removed")


def adjust(state: GrailState, action: Adjust) -> None:
    """Apply one adjustment."""
    if action.counter is not None:
        _counter(state, action.counter)
        return
    assert action.move is not None  # the kernel handles turn changes
    _move(state, action.seat, action.move)


def _pile(state: GrailState, seat: int, zone: str) -> list[str]:
    piles = {"hand": state.hands, "court": state.court, "quests": state.quests,
             "court_discard": state.court_discard, "quest_discard": state.quest_discard,
             "removed": state.removed}
    if zone not in piles:
        raise IllegalAction("bad_zone", f"Cards are not moved in or out of {zone}.")
    return piles[zone][seat]


def _move(state: GrailState, seat: int, move: CardMove) -> None:
    source, target = move.seats(seat)
    card = move.card
    if move.from_zone == "field":
        warrior = next((w for w in state.warriors[source] if w.card == card), None)
        if warrior is not None:
            destroy(state, warrior)
            state.court_discard[warrior.owner].remove(card)
        elif card in state.domains[source]:
            state.domains[source].remove(card)
        else:
            holder = next((w for w in state.warriors[source] if card in w.attached), None)
            if holder is None:
                raise IllegalAction("card_not_in_zone", f"{card} is not on seat {source}'s "
                                    "field.")
            holder.attached.remove(card)
    elif move.from_zone == "active_quest":
        if state.combat is not None and any(s.fighter == card for s in state.combat.sides):
            raise IllegalAction("quest_in_combat", "That quest is being fought: end the combat "
                                "first.")
        if state.active_quest[source] != card:
            raise IllegalAction("card_not_in_zone", f"{card} is not seat {source}'s active "
                                "quest.")
        state.active_quest[source] = None
    else:
        pile = _pile(state, source, move.from_zone)
        if card not in pile:
            raise IllegalAction("card_not_in_zone", f"{card} is not in {move.from_zone} of "
                                f"seat {source}.")
        pile.remove(card)
    if move.to_zone == "active_quest":
        if state.active_quest[target] is not None or state.card(card).type != "quest":
            raise IllegalAction("card_not_in_zone", "The active quest's place holds one quest.")
        state.active_quest[target] = card
        return
    if move.to_zone == "field":
        kind = state.card(card).type
        if kind == "warrior":
            state.warriors[target].append(Warrior(card=card, owner=target,
                                                  valor=state.card(card).valor))
        elif kind == "domain":
            state.domains[target].append(card)
        else:
            raise IllegalAction("card_not_in_zone", "Only warriors and domains stand on the "
                                "field by themselves.")
        return
    _pile(state, target, move.to_zone).append(card)


def _counter(state: GrailState, change: CounterChange) -> None:
    name, _, instance = change.name.partition(":")
    warrior = state.warrior(instance)
    if warrior is None or name not in ("valor", "damage", "permanent_damage") or \
            change.value < 0:
        raise IllegalAction("bad_counter", f"Unknown counter or value {change.name}="
                            f"{change.value}: valor:W, damage:W, permanent_damage:W of a "
                            "warrior W on the field, 0 or more.")
    if name == "valor":
        change_valor(state, warrior, change.value - warrior.valor)
    else:
        setattr(warrior, name, change.value)
