"""The operations phase (§オペレーション(Operations)フェイズ): placing characters, resources,
environments, the secret, gear and conditions; whammies; moving and cranking characters;
producing pull (edge OQ9, OQ10, OQ11, OQ14, OQ17, OQ21, OQ27)."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.edge.conspiracy import check_cell, find, normalise
from engine.edge.model import Card, Character, EdgeState, Permanent, owner_of
from engine.edge.pull import pay, pull_of
from engine.edge.reasons import EdgeReason as R
from engine.edge.turn import blocked, require_turn


def _from_hand(state: EdgeState, seat: int, card: str, *types: str) -> Card:
    if card not in state.hands[seat]:
        raise IllegalAction(R.NOT_IN_HAND, f"{card} is not in seat {seat}'s hand.")
    definition = state.card(card)
    if definition.type not in types:
        raise IllegalAction(R.WRONG_CARD_TYPE, f"{definition.name} is a {definition.type}.")
    return definition


def place_character(state: EdgeState, seat: int, card: str, rank: int, file: int,
                    from_characters: int, from_others: int) -> None:
    """§陰謀団について, E6: next to another card (the first at 1, 1), at most 3 ranks; own-side
    unique (OQ6); it comes in active and may act at once."""
    require_turn(state, seat, "operations")
    definition = _from_hand(state, seat, card, "character")
    if blocked(state, seat, card):
        raise IllegalAction(R.UNIQUE_CONFLICT, f"{definition.name} is on seat {seat}'s field.")
    check_cell(state, seat, rank, file)
    pay(state, seat, definition, from_characters, from_others)
    state.hands[seat].remove(card)
    state.conspiracies[seat].append(Character(card=card, rank=rank, file=file))
    normalise(state, seat)


def place_permanent(state: EdgeState, seat: int, card: str, from_characters: int,
                    from_others: int) -> None:
    """A resource, an environment (own-side unique) or the secret (one in all), active
    (OQ27)."""
    require_turn(state, seat, "operations")
    definition = _from_hand(state, seat, card, "resource", "environment", "secret")
    if blocked(state, seat, card):
        raise IllegalAction(R.UNIQUE_CONFLICT, f"Seat {seat}'s field already holds "
                            f"{'a secret' if definition.type == 'secret' else definition.name}.")
    pay(state, seat, definition, from_characters, from_others)
    state.hands[seat].remove(card)
    state.permanents[seat].append(Permanent(card=card))


def host(state: EdgeState, instance: str) -> Permanent | None:
    """The permanent on any field with that instance id."""
    for seat in state.seats():
        for p in [*state.conspiracies[seat], *state.permanents[seat]]:
            if p.card == instance:
                return p
    return None


def attach(state: EdgeState, seat: int, card: str, target: str, from_characters: int,
           from_others: int) -> None:
    """Gear on one of one's own characters; a condition on any card on any field (OQ17)."""
    require_turn(state, seat, "operations")
    definition = _from_hand(state, seat, card, "gear", "condition")
    holder = host(state, target)
    if holder is None or (definition.type == "gear" and (
            not isinstance(holder, Character) or owner_of(target) != seat)):
        raise IllegalAction(R.BAD_HOST, "Gear goes on one of your own characters; a condition "
                            "on any card on a field.")
    pay(state, seat, definition, from_characters, from_others)
    state.hands[seat].remove(card)
    holder.attached.append(card)


def play_whammy(state: EdgeState, seat: int, card: str) -> None:
    """§ワミー, E8, OQ21: no cost, no limit; in one's own operations phase (its own attack's
    window included), or at any time when the card says "play any time"; to the dead pile, its
    effect recorded by adjustments (C3)."""
    definition = _from_hand(state, seat, card, "whammy")
    own_time = seat == state.active and state.step == "operations"
    if not own_time and not definition.play_any_time:
        raise IllegalAction(R.NOT_NOW, f"{definition.name} is played in your own operations "
                            "phase.")
    state.hands[seat].remove(card)
    state.dead[seat].append(card)


def _own_character(state: EdgeState, seat: int, instance: str) -> Character:
    found = find(state, instance)
    if found is None or found[0] != seat:
        raise IllegalAction(R.NOT_IN_CONSPIRACY, f"{instance} is not in seat {seat}'s "
                            "conspiracy.")
    character = found[1]
    if character.state == "flipped":
        raise IllegalAction(R.NOT_IN_CONSPIRACY, "A flipped character is out of the conspiracy "
                            "for now (E6).")
    if character.state != "active":
        raise IllegalAction(R.NOT_ACTIVE, "That character is cranked.")
    return character


def move_character(state: EdgeState, seat: int, instance: str, rank: int, file: int) -> None:
    """§陰謀団について, OQ14: crank it to move it; lifted, it goes next to another card by the
    placement rules; the ranks are judged after closing up."""
    require_turn(state, seat, "operations")
    character = _own_character(state, seat, instance)
    check_cell(state, seat, rank, file, moving=character)
    character.rank, character.file, character.state = rank, file, "cranked"
    normalise(state, seat)


def crank_character(state: EdgeState, seat: int, instance: str) -> None:
    """OQ9 (``voluntary_crank: on``): a character cranked at will, to clear a line of sight."""
    require_turn(state, seat, "operations")
    if state.options.get("voluntary_crank", "on") != "on":
        raise IllegalAction(R.NO_VOLUNTARY_CRANK, "This match has voluntary_crank off.")
    _own_character(state, seat, instance).state = "cranked"


def generate_pull(state: EdgeState, seat: int, source: str) -> None:
    """E7, OQ10, OQ11: the turn player cranks a character (in the conspiracy) or a resource to
    add its pull (printed, with its lasting modifiers, C3) to the reserve, by kind; in the end
    phase characters only, which closes the shift step."""
    if state.step in ("shift", "influence"):
        require_turn(state, seat, "shift", "influence")
    else:
        require_turn(state, seat, "operations")
    holder = host(state, source)
    if holder is None or owner_of(source) != seat:
        raise IllegalAction(R.NO_SUCH_CARD, f"{source} is not on seat {seat}'s field.")
    definition = state.card(source)
    if isinstance(holder, Character):
        _own_character(state, seat, source)
    elif state.step != "operations":
        raise IllegalAction(R.WRONG_STEP, "In the influence step only characters produce pull.")
    elif holder.state != "active":
        raise IllegalAction(R.NOT_ACTIVE, "That card is cranked.")
    pull = pull_of(state, source)
    if pull <= 0:
        raise IllegalAction(R.NO_PULL, f"{definition.name} has no pull.")
    holder.state = "cranked"
    if isinstance(holder, Character):
        state.character_pull += pull
    else:
        state.other_pull += pull
    if state.step == "shift":
        state.step = "influence"


def shift_gear(state: EdgeState, seat: int, gear: str, to: str) -> None:
    """§シフト: gear between one's own characters, each gear once per turn, before the
    influence step."""
    require_turn(state, seat, "shift")
    holder = next((c for c in state.conspiracies[seat] if gear in c.attached), None)
    if holder is None or state.card(gear).type != "gear":
        raise IllegalAction(R.BAD_HOST, f"{gear} is not gear on one of seat {seat}'s "
                            "characters.")
    if gear in state.shifted:
        raise IllegalAction(R.ALREADY_SHIFTED, "That gear was shifted this turn.")
    target = next((c for c in state.conspiracies[seat] if c.card == to), None)
    if target is None or target is holder:
        raise IllegalAction(R.BAD_HOST, "Shift it to another of your own characters.")
    holder.attached.remove(gear)
    target.attached.append(gear)
    state.shifted.append(gear)
