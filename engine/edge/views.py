"""What each viewer sees of a position (edge digest section 7), and transcript lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.chance import Outcome
from engine.core.contract import Action
from engine.core.effects import Effect
from engine.core.viewer import Viewer
from engine.edge import actions as act
from engine.edge.combat import AttackResolved
from engine.edge.model import Character, EdgeState, Permanent

Sees = Callable[[Viewer, str, int | None], bool]
"""The ruleset's ``sees(viewer, zone, seat)``: the zone table's one rule."""


def _card(state: EdgeState, instance: str) -> dict[str, Any]:
    c = state.card(instance)
    return {"id": instance, "card": c.id, "name": c.name, "type": c.type}


def _cards(state: EdgeState, cards: Sequence[str]) -> list[dict[str, Any]]:
    return [_card(state, c) for c in cards]


def _piece(state: EdgeState, p: Permanent) -> dict[str, Any]:
    out = {**_card(state, p.card), "state": p.state, "attached": _cards(state, p.attached)}
    if isinstance(p, Character):
        out.update(rank=p.rank, file=p.file)
    return out


def view(state: EdgeState, viewer: Viewer, sees: Sees) -> dict[str, Any]:
    """Hands to their owner; decks counted (judges see them); everything in play, the dead
    piles, influence and the reserve to all (flipped cards' identities too, OQ28)."""
    seats = []
    for s in state.seats():
        seats.append({
            "seat": s, "influence": state.influence[s], "hand_count": len(state.hands[s]),
            "hand": _cards(state, sorted(state.hands[s])) if sees(viewer, "hand", s) else None,
            "deck_count": len(state.decks[s]),
            "deck": _cards(state, sorted(state.decks[s])) if sees(viewer, "deck", s) else None,
            "conspiracy": [_piece(state, c) for c in
                           sorted(state.conspiracies[s], key=lambda c: (c.rank, c.file))],
            "field": [_piece(state, p) for p in state.permanents[s]],
            "dead": _cards(state, state.dead[s])})
    combat = state.combat
    return {"step": state.step, "first_player": state.first_player, "seats": seats,
            "reserve": {"character": state.character_pull, "other": state.other_pull},
            "zero_cost_used": state.zero_cost_used, "attacked": list(state.attacked),
            "combat": None if combat is None else {"attacker": combat.attacker,
                                                   "target": combat.target,
                                                   "defender": combat.defender},
            "claim": None if state.claim is None else {
                "seat": state.claim.seat, "card": state.claim.card,
                "reason": state.claim.reason, "disputed_by": state.claim.disputed_by,
                "accepted": list(state.claim.accepted)}}


def _name(before: EdgeState | None, instance: object) -> str:
    if not isinstance(instance, str):
        return "a card"
    if before is None or instance.partition("@")[0] not in before.cards:
        return instance
    return before.card(instance).name


def describe(action: Action, outcomes: Sequence[Outcome], viewer: Viewer,
             before: EdgeState | None, effects: Sequence[Effect], sees: Sees) -> str:
    """The action, an attack's result, and the draws (named only to the drawer)."""
    f = action.__dict__
    parts = [f"Seat {action.seat} {_phrase(action, f, before)}."]
    for effect in effects:
        if isinstance(effect, AttackResolved) and effect.cancelled:
            parts.append("The attack is cancelled: a combatant has left the conspiracy (OQ19).")
        elif isinstance(effect, AttackResolved):
            gone = ", ".join(_name(before, c) for c in effect.removed) or "nobody"
            parts.append(f"Power {effect.attack} against {effect.defence}: removed {gone}.")
    drawn = [o for o in outcomes if o.kind == "draw"]
    if drawn:
        seen = [_name(before, str(o.value)) for o in drawn if o.seen_by(viewer)]
        who = getattr(drawn[0], "seat", action.seat)
        parts.append(f"Seat {who} draws " + (", ".join(seen) if len(seen) == len(drawn)
                                             else f"{len(drawn)} card(s)") + ".")
    return " ".join(parts)


def _modifiers(f: dict[str, Any]) -> str:
    """An attack's own modifiers with their reasons, as everyone sees them (edge digest 7)."""
    parts = [f"{side} {f[f'{side}_modifier']:+d}" + (f": {f[f'{side}_reason']}"
                                                   if f.get(f"{side}_reason") else "")
             for side in ("attacker", "target") if f.get(f"{side}_modifier")]
    return f" ({'; '.join(parts)})" if parts else ""


def _phrase(action: Action, f: dict[str, Any], before: EdgeState | None) -> str:
    n = (lambda key: _name(before, f.get(key)))  # noqa: E731
    pay = f" paying {f.get('from_characters', 0)} character and {f.get('from_others', 0)} " \
          "other pull" if "from_characters" in f else ""
    card = before.card(str(f["card"])) if before is not None and "card" in f and \
        str(f["card"]).partition("@")[0] in before.cards else None
    if card is not None and card.cost_dot and not card.cost_requires:
        pay += " (dotted cost: condition claimed, OQ22)"
    phrases: dict[type[Action], Callable[[], str]] = {
        act.DiscardUnplayable: lambda: "exchanges " + ", ".join(_name(before, c)
                                                                for c in f["cards"]),
        act.Draw: lambda: "draws for the turn",
        act.PlaceCharacter: lambda: f"places {n('card')} at rank {f['rank']}, file "
                                    f"{f['file']}{pay}",
        act.PlacePermanent: lambda: f"places {n('card')}{pay}",
        act.Attach: lambda: f"attaches {n('card')} to {n('host')}{pay}",
        act.PlayWhammy: lambda: f"plays the whammy {n('card')}",
        act.MoveCharacter: lambda: f"moves {n('character')} to rank {f['rank']}, file "
                                   f"{f['file']}",
        act.CrankCharacter: lambda: f"cranks {n('character')}",
        act.GeneratePull: lambda: f"cranks {n('source')} for pull",
        act.DeclareAttack: lambda: f"attacks seat {f['defender']}'s {n('target')} with "
                                   f"{n('attacker')}",
        act.ResolveCombat: lambda: "resolves the attack" + _modifiers(f),
        act.EndOperations: lambda: "ends operations",
        act.ShiftGear: lambda: f"shifts {n('gear')} to {n('to')}",
        act.EndTurn: lambda: "ends the turn",
        act.ClaimCardVictory: lambda: f"claims {n('card')}'s victory: {f['reason']}",
        act.AcceptClaim: lambda: "accepts the claim",
        act.Dispute: lambda: "disputes the claim",
        act.RuleClaim: lambda: "has the claim " + ("upheld" if f["upheld"] else "overturned")
                               + " by a judge",
    }
    return phrases[type(action)]()
