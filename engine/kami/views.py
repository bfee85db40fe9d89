"""What each viewer sees of a position (kami digest section 7), and transcript lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.chance import Outcome
from engine.core.contract import Action
from engine.core.effects import Effect
from engine.core.viewer import Viewer
from engine.kami import actions as act
from engine.kami.deck import ap, deck_size, unseen
from engine.kami.effects import BattleResolved
from engine.kami.model import HEXES, KamiState, Unit
from engine.kami.setup import still_deciding

Sees = Callable[[Viewer, str, int | None], bool]
"""The ruleset's ``sees(viewer, zone, seat)``: the zone table's one rule."""


def _card(state: KamiState, card: str) -> dict[str, Any]:
    c = state.cards[card]
    return {"id": c.id, "name": c.name, "kind": c.kind}


def _cards(state: KamiState, cards: Sequence[str]) -> list[dict[str, Any]]:
    return [_card(state, c) for c in cards]


def _entries(state: KamiState, entries: Sequence[str | int]) -> list[dict[str, Any] | None]:
    """Cards of the deck's top or the AP pile; None for one whose identity is not fixed."""
    return [_card(state, e) if isinstance(e, str) else None for e in entries]


def _unit(state: KamiState, unit: Unit) -> dict[str, Any]:
    return {**_card(state, unit.card), "owner": unit.owner, "damage": unit.damage,
            "lasting_damage": unit.lasting_damage,
            "options": [{**_card(state, o.card), "owner": o.owner} for o in unit.options]}


def view(state: KamiState, viewer: Viewer, sees: Sees) -> dict[str, Any]:
    """Hands to their owner; the deck and AP pile counted (judges see the pool of unseen
    cards); the field, discard piles, forces, VP and the open battle to everyone."""
    seats = []
    for s in state.seats():
        seats.append({
            "seat": s, "vp": state.vp[s], "ap": ap(state, s), "deck_count": deck_size(state, s),
            "hand": _cards(state, sorted(state.hands[s])) if sees(viewer, "hand", s) else None,
            "hand_count": len(state.hands[s]), "hand_limit": state.hand_limit[s],
            "unseen": _cards(state, sorted(unseen(state, s))) if sees(viewer, "deck", s)
            else None,
            "deck_top": _entries(state, state.deck_top[s]) if sees(viewer, "deck", s) else None,
            "ap_pile": _entries(state, state.ap[s]) if sees(viewer, "ap", s) else None,
            "discard": _cards(state, state.discard[s]), "forces": _cards(state, state.forces[s]),
            "mulligans": state.mulligans[s], "kept": state.kept[s]})
    board = {}
    for hex_id in HEXES:
        place = state.board[hex_id]
        board[hex_id] = {
            "territory": None if place.territory is None else {
                **_card(state, place.territory), "owner": place.territory_owner},
            "unit": None if place.unit is None else _unit(state, place.unit)}
    battle = state.battle
    return {
        "phase": state.phase, "first_player": state.first_player, "seats": seats,
        "board": board, "to_decide": still_deciding(state),
        "battle": None if battle is None else {
            "hex": battle.hex, "attacker": _unit(state, battle.attacker),
            "attacker_seat": battle.attacker_seat, "priority": battle.priority,
            "passes": battle.passes,
            "stacks": {str(s): _cards(state, stack) for s, stack in battle.stacks.items()},
            "at_mod": {str(s): v for s, v in battle.at_mod.items()},
            "df_mod": {str(s): v for s, v in battle.df_mod.items()}},
        "declaration": None if state.declaration is None else {
            "seat": state.declaration.seat, "turn": state.declaration.turn}}


def _name(before: KamiState | None, card: str | None) -> str:
    if card is None:
        return "a card"
    if before is None or card not in before.cards:
        return card
    return before.cards[card].name


PHRASES: dict[type[Action], str] = {
    act.KeepHand: "keeps the hand", act.DrawCard: "pays 1 AP and draws",
    act.PassBattle: "passes", act.RenewDeck: "renews the deck (5 VP to the opponent)",
    act.EndActionPhase: "ends the action phase", act.DeclareVictory: "declares victory",
    act.DeclareDefeat: "declares defeat", act.EndTurn: "ends the turn",
    act.Mulligan: "takes a mulligan (1 VP to the opponent)",
}


def describe(action: Action, outcomes: Sequence[Outcome], viewer: Viewer,
             before: KamiState | None, effects: Sequence[Effect], sees: Sees) -> str:
    """The action, its cards named only to who may see them, what a battle decided, and the
    cards drawn (named only to the drawing seat)."""
    parts = [f"Seat {action.seat} {_phrase(action, before, viewer, sees)}."]
    for effect in effects:
        if isinstance(effect, BattleResolved):
            parts.append(_battle_line(effect, before))
    drawn = [o for o in outcomes if o.kind == "draw"]
    if drawn:
        seen = [_name(before, str(o.value)) for o in drawn if o.seen_by(viewer)]
        who = getattr(drawn[0], "seat", action.seat)
        parts.append(f"Seat {who} draws " + (", ".join(seen) if len(seen) == len(drawn)
                                             else f"{len(drawn)} card(s)") + ".")
    return " ".join(parts)


def _phrase(action: Action, before: KamiState | None, viewer: Viewer, sees: Sees) -> str:
    if type(action) in PHRASES:
        return PHRASES[type(action)]
    card = getattr(action, "card", None)
    name = _name(before, card)
    if isinstance(action, act.SetTerritory):
        return f"sets the territory {name} on {action.hex}"
    if isinstance(action, act.ReplaceTerritory):
        return f"replaces the territory on {action.hex} with {name}"
    if isinstance(action, act.SummonUnit):
        return f"summons {name} on {action.hex}"
    if isinstance(action, act.EquipOption):
        return f"equips {name} to the unit on {action.hex}"
    if isinstance(action, act.PlayForce):
        return f"plays the force {name}" + (" (lasting)" if action.lasting else "")
    if isinstance(action, act.EndForce):
        return f"ends the force {name}"
    if isinstance(action, act.Reinforce):
        return f"reinforces with {name}"
    if isinstance(action, act.Interfere):
        return f"interferes with {name}"
    if isinstance(action, act.ActivateAbility):
        piled = " discarding it" if action.pile else ""
        return f"activates the {action.source} on {action.hex} for {action.cost} AP{piled}"
    if isinstance(action, act.MoveUnit):
        return f"moves the unit on {action.from_hex} to {action.to_hex}"
    if isinstance(action, act.TeleportUnit):
        return f"teleports the unit on {action.from_hex}"
    if isinstance(action, act.DiscardToLimit):
        return "discards " + ", ".join(_name(before, c) for c in action.cards)
    return str(getattr(action, "type", "acts")).replace("_", " ")


def _battle_line(effect: BattleResolved, before: KamiState | None) -> str:
    if effect.ended_by == "defender gone":
        return f"The battle on {effect.hex} ends: the defender is gone, seat " \
               f"{effect.survivor}'s attacker holds the hex."
    if effect.ended_by:
        return f"The battle on {effect.hex} ends: the attacker's hold failed and it is " \
               "discarded (K7)."
    at = ", ".join(f"seat {s} AT {v}" for s, v in effect.attack)
    dead = ", ".join(_name(before, c) for c in effect.destroyed) or "nothing"
    held = f"seat {effect.survivor} holds {effect.hex}" if effect.survivor else \
        f"{effect.hex} is empty"
    vp = "; ".join(f"seat {s} gains {v} VP" for s, v in effect.vp)
    return f"Battle on {effect.hex}: {at}; destroyed: {dead}; {held}" + \
        (f"; {vp}" if vp else "") + "."
