"""The legal actions of a seat now: every card play, move and phase step, one listed action per
distinct choice. Abilities (a declared cost, kami Q-17), the end of a lasting force, lasting
forces and a declared defeat (open in every judgment phase, like a concession) are legal when
``check`` says so but are not listed: random play would otherwise end most games at once."""

from __future__ import annotations

from engine.core.contract import Action
from engine.core.legality import listed
from engine.kami.actions import (
    DeclareVictory,
    DiscardToLimit,
    DrawCard,
    EndActionPhase,
    EndTurn,
    EquipOption,
    Interfere,
    KeepHand,
    MoveUnit,
    Mulligan,
    PassBattle,
    PlayForce,
    Reinforce,
    RenewDeck,
    ReplaceTerritory,
    SetTerritory,
    SummonUnit,
    TeleportUnit,
)
from engine.kami.battle import reinforce_cost
from engine.kami.deck import ap
from engine.kami.holds import hold_met, support
from engine.kami.model import HEXES, MULLIGANS, NEIGHBOURS, KamiState, area_of, mirror, spot_of
from engine.kami.setup import still_deciding
from engine.kami.turn import victory_refusal


def legal_actions(state: KamiState, seat: int) -> list[Action]:
    """Every listed action ``seat`` may take now."""
    if state.phase == "mulligan":
        return _mulligans(state, seat)
    if state.phase == "battle":
        return _battle(state, seat)
    if seat != state.active:
        return _interference(state, seat) if state.phase != "mulligan" else []
    if state.phase == "action":
        return _action_phase(state, seat)
    if state.phase == "hand_limit":
        excess = len(state.hands[seat]) - state.hand_limit[seat]
        return [listed(DiscardToLimit, seat=seat, cards=tuple(sorted(state.hands[seat])[:excess]))]
    return _judgment(state, seat)


def _mulligans(state: KamiState, seat: int) -> list[Action]:
    if seat not in still_deciding(state):
        return []
    out: list[Action] = [listed(KeepHand, seat=seat)]
    if state.mulligans[seat] < MULLIGANS:
        out.append(listed(Mulligan, seat=seat))
    return out


def _battle(state: KamiState, seat: int) -> list[Action]:
    if state.battle is None or state.battle.priority != seat:
        return []
    out: list[Action] = [listed(PassBattle, seat=seat)]
    for card in sorted(set(state.hands[seat])):
        definition = state.cards[card]
        if definition.kind == "unit" and definition.reinforcement and \
                _usable(state, seat, card, reinforce_cost(definition)):
            out.append(listed(Reinforce, seat=seat, card=card))
        elif definition.kind == "force" and definition.interference and \
                _usable(state, seat, card, definition.cost or 0):
            out.append(listed(Interfere, seat=seat, card=card))
    return out


def _usable(state: KamiState, seat: int, card: str, cost: int) -> bool:
    return ap(state, seat) >= cost and hold_met(state, state.cards[card], support(state, seat))


def _interference(state: KamiState, seat: int) -> list[Action]:
    return [listed(PlayForce, seat=seat, card=card) for card in sorted(set(state.hands[seat]))
            if state.cards[card].kind == "force" and state.cards[card].interference
            and _usable(state, seat, card, state.cards[card].cost or 0)]


def _action_phase(state: KamiState, seat: int) -> list[Action]:
    out: list[Action] = [listed(EndActionPhase, seat=seat)]
    if ap(state, seat) >= 1:
        out.append(listed(DrawCard, seat=seat))
    if state.discard[seat]:
        out.append(listed(RenewDeck, seat=seat))
    for card in sorted(set(state.hands[seat])):
        out += _plays(state, seat, card)
    out += _movements(state, seat)
    return out


def _territory_hexes(state: KamiState, seat: int) -> list[str]:
    out = []
    for hex_id in HEXES:
        unit = state.board[hex_id].unit
        own_area = area_of(hex_id) == seat
        if (own_area and (unit is None or unit.owner == seat)) or (
                not own_area and unit is not None and unit.owner == seat):
            out.append(hex_id)
    return out


def _plays(state: KamiState, seat: int, card: str) -> list[Action]:
    definition = state.cards[card]
    points = ap(state, seat)
    if definition.kind == "territory":
        hexes = _territory_hexes(state, seat)
        return [listed(SetTerritory if state.board[h].territory is None else ReplaceTerritory,
                       seat=seat, card=card, hex=h) for h in hexes
                if points >= ((definition.set_cost if state.board[h].territory is None
                           else definition.replace_cost) or 0)]
    if not _usable(state, seat, card, definition.cost or 0):
        return []
    if definition.kind == "unit":
        return [listed(SummonUnit, seat=seat, card=card, hex=h) for h in HEXES
                if area_of(h) == seat and (state.board[h].unit is None
                                           or state.board[h].unit.owner != seat)]  # type: ignore[union-attr]
    if definition.kind == "option":
        return [listed(EquipOption, seat=seat, card=card, hex=h) for h in HEXES
                if state.board[h].unit is not None]
    return [listed(PlayForce, seat=seat, card=card)]


def _movements(state: KamiState, seat: int) -> list[Action]:
    out: list[Action] = []
    for hex_id in HEXES:
        unit = state.board[hex_id].unit
        if unit is None or unit.owner != seat:
            continue
        definition = state.cards[unit.card]
        area = area_of(hex_id)
        if definition.move_cost is not None and ap(state, seat) >= definition.move_cost:
            for spot in NEIGHBOURS[spot_of(hex_id)]:
                to = f"A{area}:{spot}"
                there = state.board[to].unit
                if there is None or there.owner != seat:
                    out.append(listed(MoveUnit, seat=seat, from_hex=hex_id, to_hex=to))
        there = state.board[mirror(hex_id)].unit
        if definition.teleport_cost is not None and ap(state, seat) >= \
                definition.teleport_cost and (there is None or there.owner != seat):
            out.append(listed(TeleportUnit, seat=seat, from_hex=hex_id))
    return out


def _judgment(state: KamiState, seat: int) -> list[Action]:
    out: list[Action] = [listed(EndTurn, seat=seat)]
    if victory_refusal(state, seat) is None:
        out.append(listed(DeclareVictory, seat=seat))
    return out
