"""What each viewer sees of an Illuminati position and of its recorded actions, and transcript
lines.

Power structures are shown as trees (each card with its arrows and what hangs from them). Hands
and decks are private: other seats and spectators see counts and the cards a player has revealed;
judges see everything, decks included (unordered, as they are shuffled).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.chance import CardDrawn, Outcome
from engine.core.contract import Action
from engine.core.effects import Effect
from engine.core.viewer import Viewer
from engine.core.zones import flow_visible
from engine.illuminati import actions as act
from engine.illuminati import combat, structure
from engine.illuminati.effects import AttackResolved
from engine.illuminati.model import SETUP_PHASES, IlluminatiState, Player, card_of
from engine.illuminati.table import ZONE_TABLE
from engine.illuminati.timing import by_seats, still_to_choose, to_act
from engine.illuminati.victory import goal_groups


def card_view(st: IlluminatiState, instance: str) -> dict[str, Any]:
    """A card's printed facts, by instance."""
    c = st.card(instance)
    out: dict[str, Any] = {"card": instance, "name": c.name, "kind": c.kind.value}
    if c.kind.value in ("illuminati", "group"):
        out.update(power=c.power, global_power=c.global_power,
                   alignments=[a.value for a in c.alignments])
        if c.resistance is not None:
            out["resistance"] = c.resistance
    if c.plot_type is not None:
        out["plot_type"] = c.plot_type.value
    if c.colour is not None:
        out["colour"] = c.colour
    return out


def tree(st: IlluminatiState, p: Player, card: str) -> dict[str, Any]:
    """``card`` and everything below it, arrow by arrow."""
    node = p.structure[card]
    below = structure.children(p, card)
    view = card_view(st, card)
    view.update(tokens=node.tokens, depth=structure.depth(p, card),
                arrows={side: tree(st, p, below[side]) if side in below else None
                        for side in st.card(card).arrows})
    if node.power_mod:
        view["power_now"] = combat.power_of(st, card)
    if node.resistance_mod:
        view["resistance_now"] = combat.resistance_of(st, card)
    return view


def _hand(st: IlluminatiState, p: Player, cards: list[str], sees: bool) -> list[Any] | None:
    if sees:
        return [card_view(st, c) for c in cards]
    shown = [card_view(st, c) for c in cards if c in p.revealed]
    return shown or None


def _seat_view(st: IlluminatiState, seat: int, viewer: Viewer) -> dict[str, Any]:
    p = st.player(seat)
    return {
        "seat": seat,
        "illuminati": card_view(st, p.illuminati) if p.illuminati else None,
        "power_structure": tree(st, p, p.illuminati) if p.illuminati else None,
        "groups": len(structure.groups_in(p)),
        "plot_hand_count": len(p.plot_hand),
        "plot_hand": _hand(st, p, p.plot_hand, ZONE_TABLE.sees(viewer, "plot_hand", seat)),
        "group_hand_count": len(p.group_hand),
        "group_hand": _hand(st, p, p.group_hand, ZONE_TABLE.sees(viewer, "group_hand", seat)),
        "plot_deck_count": p.plot_deck.size(),
        "group_deck_count": p.group_deck.size(),
        "plot_deck": sorted(p.plot_deck.shuffled) + p.plot_deck.bottom
        if ZONE_TABLE.sees(viewer, "plot_deck", seat) else None,
        "group_deck": sorted(p.group_deck.shuffled) + p.group_deck.bottom
        if ZONE_TABLE.sees(viewer, "group_deck", seat) else None,
        "resources": [{**card_view(st, r.card), "tokens": r.tokens,
                       "used_this_turn": r.used_turn == st.turn} for r in p.resources],
        "agents": [card_view(st, c) for c in p.agents],
        "plots": [card_view(st, c) for c in p.plots],
        "loose": [card_view(st, c) for c in p.loose],
        "links": [[k.a, k.b] for k in p.links],
        "discard": [card_view(st, c) for c in p.discard],
        "destroyed": [card_view(st, c) for c in p.destroyed],
    }


def attack_view(st: IlluminatiState) -> dict[str, Any] | None:
    """The attack under way with its running calculation."""
    a = st.attack
    if a is None:
        return None
    t = combat.tally(st, a)
    return {"seat": a.seat, "attacker": a.attacker, "target": a.target, "purpose": a.purpose,
            "power": a.power_kind, "target_seat": a.target_seat, "arrow": a.arrow,
            "stage": a.stage, "paid_with": a.paid_with, "passed": list(a.passed),
            "attack_terms": [[label, v] for label, v in t.attack],
            "defence_terms": [[label, v] for label, v in t.defence],
            "attack_total": t.attack_total, "defence_total": t.defence_total,
            "achieved": t.achieved}


def view(st: IlluminatiState, viewer: Viewer) -> dict[str, Any]:
    """The game-specific part of the state view."""
    out = _table_view(st, viewer)
    if by_seats(st) and st.phase in SETUP_PHASES:
        out["chosen"] = chosen_view(st, viewer)
    return out


def chosen_view(st: IlluminatiState, viewer: Viewer) -> dict[str, Any]:
    """Who has laid a choice face down: the card to its owner (and judges), else only that a
    choice is made."""
    return {str(seat): card_view(st, card) if ZONE_TABLE.sees(viewer, "chosen", seat)
            else "face down" for seat, card in sorted(st.chosen.items())}


def _table_view(st: IlluminatiState, viewer: Viewer) -> dict[str, Any]:
    return {
        "phase": st.phase, "step": st.step, "order": list(st.order),
        "to_act": to_act(st), "goal_groups": goal_groups(st),
        "setup_round": st.setup_round,
        "set_aside": [card_view(st, c) for c in st.set_aside],
        "auto_controlled": st.auto_controlled, "resource_placed": st.resource_placed,
        "group_draw_bought": st.group_draw_bought,
        "attack": attack_view(st),
        "claims": [{"seat": c.seat, "goal": c.goal, "card": c.card,
                    "disputed_by": list(c.disputed_by), "ruling": c.ruling} for c in st.claims],
        "new_world_order": {colour: card_view(st, c)
                            for colour, c in sorted(st.new_world_order.items())},
        "seats": [_seat_view(st, s, viewer) for s in st.seats()],
    }


# ----- transcript --------------------------------------------------------------------------
def _name(before: IlluminatiState | None, ref: str) -> str:
    if before is None:
        return ref
    cid = card_of(ref)
    return before.cards[cid].name if cid in before.cards else ref


def describe(action: Action, outcomes: list[Outcome], viewer: Viewer,
             before: IlluminatiState | None, effects: Sequence[Effect] = ()) -> str:
    """One transcript line, with the attack calculation the rules made when dice are rolled
    (the ``AttackResolved`` effect) in place of the bare dice."""
    seat = action.seat
    n = lambda ref: _name(before, ref)  # noqa: E731
    if isinstance(action, act.ChooseIlluminati | act.ChooseGroup):
        line = _choice_line(action, before, n, viewer)
    else:
        line = _line(action, seat, n, viewer)
    extra = describe_outcomes(outcomes, viewer, before)
    resolved = [e for e in effects if isinstance(e, AttackResolved)]
    if resolved:
        extra = [_resolution(resolved[0])]
    return " ".join([line, *extra])


def _choice_line(action: act.ChooseIlluminati | act.ChooseGroup,
                 before: IlluminatiState | None, n: Any, viewer: Viewer) -> str:
    """A face-down choice, named only to its seat; the last one reveals every choice."""
    what = "an Illuminati" if isinstance(action, act.ChooseIlluminati) else "an initial group"
    shown = ZONE_TABLE.sees(viewer, "chosen", action.seat)
    line = f"Seat {action.seat} lays {n(action.card) if shown else what} face down."
    if before is None:
        return line
    everyone = {**before.chosen, action.seat: action.card}
    if set(everyone) >= set(still_to_choose(before)):
        revealed = ", ".join(f"seat {s}: {n(c)}" for s, c in sorted(everyone.items()))
        line += f" All have chosen: revealed ({revealed})."
    return line


def _line(action: Action, seat: int, n: Any, viewer: Viewer) -> str:  # noqa: C901
    who = f"Seat {seat}"
    if isinstance(action, act.RevealIlluminati | act.RevealGroups):
        what = "Illuminati" if isinstance(action, act.RevealIlluminati) else "initial groups"
        shown = ", ".join(f"seat {s}: {n(c)}" for s, c in sorted(action.choices.items()))
        return f"{what.capitalize()} revealed ({shown})."
    if isinstance(action, act.DrawPlot):
        paid = f" paying with {', '.join(n(c) for c in action.pay)}" if action.pay else ""
        return f"{who} draws a plot{paid}."
    if isinstance(action, act.DrawGroup):
        return f"{who} draws a group card{' paying with ' + n(action.pay) if action.pay else ''}."
    if isinstance(action, act.AutoControl):
        where = f" under {n(action.parent or 'illuminati')}" if action.parent else ""
        return f"{who} takes {n(action.card)} by automatic control{where}."
    if isinstance(action, act.BeginMain):
        return f"{who} places action tokens and begins the main phase."
    if isinstance(action, act.DeclareAttack):
        return (f"{who} declares an attack to {action.purpose} {n(action.target)} with "
                f"{n(action.attacker)}.")
    if isinstance(action, act.PayAttack):
        return f"{who} pays for the attack with {n(action.plot) if action.plot else 'a token'}."
    if isinstance(action, act.AbortAttack):
        return f"{who} aborts the attack."
    if isinstance(action, act.Support):
        side = "the attack" if action.side == "attack" else "the defence"
        return f"{who} supports {side} with {n(action.card)}'s {action.use} power."
    if isinstance(action, act.PlayAgent):
        return f"{who} plays {n(action.card)} as an agent for the {action.side}."
    if isinstance(action, act.Pass):
        return f"{who} passes."
    if isinstance(action, act.InstantAttack):
        return f"{who} plays {n(action.plot)} as an instant attack on {n(action.target)}."
    if isinstance(action, act.MoveGroup):
        return f"{who} moves {n(action.group)} under {n(action.parent)}."
    if isinstance(action, act.EndTurn):
        under = len(action.plots_to_bottom)
        return f"{who} ends the turn" + (f", putting {under} plot(s) under the deck." if under
                                         else ".")
    if isinstance(action, act.Discard | act.GiveCards):
        private = flow_visible(ZONE_TABLE, type(action).card_flows[0], action.model_dump(),
                               viewer)
        cards = ", ".join(n(c) for c in action.cards) if private else \
            f"{len(action.cards)} card(s)"
        if isinstance(action, act.GiveCards):
            return f"{who} gives {cards} to seat {action.to}."
        return f"{who} discards {cards}."
    return f"{who}: {_generic(action, n)}"


def _generic(action: Action, n: Any) -> str:
    data = action.model_dump(exclude={"seat"})
    kind = data.pop("type")
    words = ", ".join(f"{k} {n(v) if isinstance(v, str) else v}" for k, v in data.items()
                      if v not in (None, "", []))
    return f"{kind.replace('_', ' ')}{' (' + words + ')' if words else ''}."


def _resolution(r: AttackResolved) -> str:
    why = f"{combat.FUMBLE}+ always fails" if r.roll >= combat.FUMBLE else (
        f"{r.achieved} {'>=' if r.succeeded else '<'} {r.roll}")
    verdict = "succeeds" if r.succeeded else "fails"
    return (f"The attack resolves: attack {r.attack_total} - defence {r.defence_total} = "
            f"{r.achieved}; roll {'+'.join(map(str, r.dice))} = {r.roll} ({why}): it "
            f"{verdict}.")


def describe_outcomes(outcomes: Sequence[Outcome], viewer: Viewer,
                      before: IlluminatiState | None) -> list[str]:
    """Draws (named only to their owner), agent costs, turn-order dice."""
    phrases = []
    draws: dict[int, list[str | None]] = {}
    order: dict[str, list[int]] = {}
    for o in outcomes:
        if isinstance(o, CardDrawn):
            draws.setdefault(o.seat, []).append(
                _name(before, o.value) if o.seen_by(viewer) else None)
        elif o.kind.startswith("agent_cost_"):
            phrases.append(f"{_name(before, o.value)} is discarded as an agent's cost.")
        elif o.kind.startswith("order_roll:"):
            order.setdefault(o.kind.split(":", 1)[1], []).append(int(o.value))
    for seat, cards in draws.items():
        named = [c for c in cards if c]
        phrases.append(f"Seat {seat} draws {', '.join(named)}." if named else
                       f"Seat {seat} draws {len(cards)} card(s).")
    if order:
        phrases.append("Turn order dice: " + "; ".join(
            f"seat {s} rolls " + ", then ".join(f"{v[i]}+{v[i + 1]}"
                                                 for i in range(0, len(v) - 1, 2))
            for s, v in order.items()) + ".")
    return phrases
