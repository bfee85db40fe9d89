"""The action phase (○ 行動フェイズ): drawing, territories, units, options, forces, abilities,
movement and teleport, renewal (digest 4.2-4.12). No per-turn limits (kami Q-26): AP, the hand
and the hexes are the only ones. Every handler checks everything before it changes anything.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.kami.battle import start_battle
from engine.kami.deck import draw, pay, renew, require_ap
from engine.kami.holds import hold_met, support
from engine.kami.model import Attached, Card, KamiState, Unit, adjacent, area_of, mirror
from engine.kami.reasons import KamiReason as R


def require_action_phase(state: KamiState, seat: int) -> None:
    """The active seat, in its action phase, with no battle open."""
    if state.phase == "battle":
        raise IllegalAction(R.BATTLE_OPEN, "A battle is open: reinforce, interfere or pass.")
    if state.phase != "action":
        raise IllegalAction(R.WRONG_PHASE, f"This is done in the action phase, not the "
                            f"{state.phase} phase.")
    if seat != state.active:
        raise IllegalAction(R.NOT_YOUR_TURN, f"It is seat {state.active}'s turn.")


def _from_hand(state: KamiState, seat: int, card: str, kind: str) -> Card:
    if card not in state.hands[seat]:
        raise IllegalAction(R.CARD_NOT_IN_HAND, f"{card} is not in seat {seat}'s hand.")
    definition = state.cards[card]
    if definition.kind != kind:
        raise IllegalAction(R.WRONG_CARD_KIND, f"{definition.name} is a {definition.kind}, "
                            f"not a {kind}.")
    return definition


def _require_hold(state: KamiState, seat: int, card: Card) -> None:
    """§ホールドとサポートについて: a card is used only if its hold is met (Q-29: its own
    support does not count yet)."""
    if not hold_met(state, card, support(state, seat)):
        raise IllegalAction(R.HOLD_NOT_MET, f"Seat {seat}'s support does not meet the hold of "
                            f"{card.name}.")


def draw_card(state: KamiState, seat: int, chance: Chance) -> None:
    """K3: pay 1; the AP card goes on top of the deck and into the hand."""
    require_action_phase(state, seat)
    pay(state, seat, 1)
    draw(state, seat, chance)


def _territory_hex(state: KamiState, seat: int, hex_id: str) -> None:
    """§テリトリーカード: in one's own area, a hex with no enemy unit; in the enemy area, a
    hex with one's own unit."""
    unit = state.board[hex_id].unit
    if area_of(hex_id) == seat:
        if unit is not None and unit.owner != seat:
            raise IllegalAction(R.ENEMY_UNIT_ON_HEX, f"An enemy unit stands on {hex_id}.")
    elif unit is None or unit.owner != seat:
        raise IllegalAction(R.NO_OWN_UNIT_ON_HEX, f"A territory in the enemy area goes on a hex "
                            f"with a unit of one's own; {hex_id} has none.")


def set_territory(state: KamiState, seat: int, card: str, hex_id: str) -> None:
    """設置: onto a hex with no territory, at the set cost."""
    require_action_phase(state, seat)
    definition = _from_hand(state, seat, card, "territory")
    if state.board[hex_id].territory is not None:
        raise IllegalAction(R.TERRITORY_ON_HEX, f"{hex_id} has a territory: replace it.")
    _territory_hex(state, seat, hex_id)
    pay(state, seat, definition.set_cost or 0)
    _place_territory(state, seat, card, hex_id)


def replace_territory(state: KamiState, seat: int, card: str, hex_id: str) -> None:
    """置換: in place of a territory of either player, at the replace cost; the old one goes
    to its owner's discard pile."""
    require_action_phase(state, seat)
    definition = _from_hand(state, seat, card, "territory")
    place = state.board[hex_id]
    if place.territory is None or place.territory_owner is None:
        raise IllegalAction(R.NO_TERRITORY_ON_HEX, f"{hex_id} has no territory to replace.")
    _territory_hex(state, seat, hex_id)
    pay(state, seat, definition.replace_cost or 0)
    state.discard[place.territory_owner].append(place.territory)
    _place_territory(state, seat, card, hex_id)


def _place_territory(state: KamiState, seat: int, card: str, hex_id: str) -> None:
    state.hands[seat].remove(card)
    state.board[hex_id].territory = card
    state.board[hex_id].territory_owner = seat


def summon_unit(state: KamiState, seat: int, card: str, hex_id: str) -> None:
    """召喚: onto a hex of one's own area without a unit of one's own; onto an enemy unit, an
    invasion: a battle with the summoned unit attacking."""
    require_action_phase(state, seat)
    definition = _from_hand(state, seat, card, "unit")
    if area_of(hex_id) != seat:
        raise IllegalAction(R.NOT_OWN_AREA, f"Units are summoned into one's own area; "
                            f"{hex_id} is not seat {seat}'s.")
    there = state.board[hex_id].unit
    if there is not None and there.owner == seat:
        raise IllegalAction(R.HEX_HAS_OWN_UNIT, f"Seat {seat}'s unit already stands on "
                            f"{hex_id}.")
    _require_hold(state, seat, definition)
    pay(state, seat, definition.cost or 0)
    state.hands[seat].remove(card)
    _arrive(state, hex_id, Unit(card=card, owner=seat))


def _arrive(state: KamiState, hex_id: str, unit: Unit) -> None:
    """A unit on a hex: alone it stands there; with an enemy unit, a battle starts."""
    if state.board[hex_id].unit is None:
        state.board[hex_id].unit = unit
    else:
        start_battle(state, hex_id, unit)


def equip_option(state: KamiState, seat: int, card: str, hex_id: str) -> None:
    """§オプションカード: onto any unit, own or enemy; no limit per unit (Q-28)."""
    require_action_phase(state, seat)
    definition = _from_hand(state, seat, card, "option")
    unit = state.board[hex_id].unit
    if unit is None:
        raise IllegalAction(R.NO_UNIT_ON_HEX, f"No unit stands on {hex_id}.")
    _require_hold(state, seat, definition)
    pay(state, seat, definition.cost or 0)
    state.hands[seat].remove(card)
    unit.options.append(Attached(card=card, owner=seat))


def play_force(state: KamiState, seat: int, card: str, lasting: bool) -> None:
    """§フォースカード: the active seat plays any force in its action phase; the other seat an
    interference force between its actions (Q-7). To the discard pile, or to the forces in
    effect when it lasts (Q-18)."""
    if seat == state.active:
        require_action_phase(state, seat)
    elif state.phase not in ("action", "hand_limit", "judgment"):
        raise IllegalAction(R.WRONG_PHASE, "Interference is played in the opponent's turn, "
                            "between its actions.")
    definition = _from_hand(state, seat, card, "force")
    if seat != state.active and not definition.interference:
        raise IllegalAction(R.NOT_INTERFERENCE, f"{definition.name} has no interference: it "
                            "is played in one's own turn.")
    _require_hold(state, seat, definition)
    pay(state, seat, definition.cost or 0)
    state.hands[seat].remove(card)
    (state.forces if lasting else state.discard)[seat].append(card)


def end_force(state: KamiState, seat: int, card: str) -> None:
    """Q-18: a lasting force of one's own ends, in its owner's action phase: to the discard
    pile."""
    require_action_phase(state, seat)
    if card not in state.forces[seat]:
        raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{card} is not among seat {seat}'s forces in "
                            "effect.")
    state.forces[seat].remove(card)
    state.discard[seat].append(card)


def activate_ability(state: KamiState, seat: int, hex_id: str, source: str, cost: int,
                     pile: bool) -> None:
    """Q-17: an ability of one's own unit or territory at the declared cost; a territory may be
    discarded for it (pile)."""
    require_action_phase(state, seat)
    place = state.board[hex_id]
    if source == "unit":
        if place.unit is None or place.unit.owner != seat:
            raise IllegalAction(R.NOT_YOUR_UNIT, f"Seat {seat} has no unit on {hex_id}.")
        if pile:
            raise IllegalAction(R.NOT_A_TERRITORY, "Only a territory is discarded (piled) for "
                                "its ability.")
    elif place.territory is None or place.territory_owner != seat:
        raise IllegalAction(R.NOT_YOUR_TERRITORY, f"Seat {seat} has no territory on {hex_id}.")
    require_ap(state, seat, cost)
    pay(state, seat, cost)
    if pile and place.territory is not None:
        state.discard[seat].append(place.territory)
        place.territory, place.territory_owner = None, None


def _own_unit(state: KamiState, seat: int, hex_id: str) -> Unit:
    unit = state.board[hex_id].unit
    if unit is None or unit.owner != seat:
        raise IllegalAction(R.NOT_YOUR_UNIT, f"Seat {seat} has no unit on {hex_id}.")
    return unit


def _destination(state: KamiState, seat: int, hex_id: str) -> None:
    there = state.board[hex_id].unit
    if there is not None and there.owner == seat:
        raise IllegalAction(R.HEX_HAS_OWN_UNIT, f"Seat {seat}'s unit already stands on "
                            f"{hex_id}.")


def move_unit(state: KamiState, seat: int, from_hex: str, to_hex: str) -> None:
    """移動: to an adjacent hex of the same area (K1), never across the border."""
    require_action_phase(state, seat)
    unit = _own_unit(state, seat, from_hex)
    if area_of(from_hex) != area_of(to_hex):
        raise IllegalAction(R.NOT_SAME_AREA, "Units move inside an area; crossing the border "
                            "is a teleport.")
    if not adjacent(from_hex, to_hex):
        raise IllegalAction(R.NOT_ADJACENT, f"{to_hex} is not next to {from_hex}.")
    _destination(state, seat, to_hex)
    cost = state.cards[unit.card].move_cost
    if cost is None:
        raise IllegalAction(R.CANNOT_MOVE, f"{state.cards[unit.card].name} has no move cost.")
    pay(state, seat, cost)
    state.board[from_hex].unit = None
    _arrive(state, to_hex, unit)


def teleport_unit(state: KamiState, seat: int, from_hex: str) -> None:
    """転移: to the mirror hex across the border (K1)."""
    require_action_phase(state, seat)
    unit = _own_unit(state, seat, from_hex)
    to_hex = mirror(from_hex)
    _destination(state, seat, to_hex)
    cost = state.cards[unit.card].teleport_cost
    if cost is None:
        raise IllegalAction(R.CANNOT_TELEPORT, f"{state.cards[unit.card].name} has no teleport "
                            "cost.")
    pay(state, seat, cost)
    state.board[from_hex].unit = None
    _arrive(state, to_hex, unit)


def renew_deck(state: KamiState, seat: int, chance: Chance) -> None:
    """K4: a voluntary renewal; refused with an empty discard pile (Q-13)."""
    require_action_phase(state, seat)
    if not state.discard[seat]:
        raise IllegalAction(R.DISCARD_EMPTY, "There is no discard pile to shuffle in.")
    renew(state, seat, chance)
