"""What an Illuminati step did: the attack verdicts only the rules know (emitted while applying),
and the places and values the kernel compares to find every other effect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.effects import Effect, Place
from engine.illuminati.model import IlluminatiState


@dataclass(frozen=True)
class AttackResolved(Effect):
    """I4: an attack's totals term by term, the roll and the verdict (各攻撃の処理)."""

    kind: ClassVar[str] = "attack_resolved"
    seat: int
    attacker: str
    target: str
    purpose: str
    attack_terms: tuple[tuple[str, int], ...]
    defence_terms: tuple[tuple[str, int], ...]
    attack_total: int
    defence_total: int
    achieved: int
    dice: tuple[int, ...]
    roll: int
    succeeded: bool


@dataclass(frozen=True)
class InstantAttackResolved(Effect):
    """I5: an instant attack, printed power against printed power."""

    kind: ClassVar[str] = "instant_attack_resolved"
    seat: int
    plot: str
    target: str
    plot_power: int
    target_power: int
    succeeded: bool


def places(st: IlluminatiState) -> dict[Place, list[str]]:
    """Every zone of every seat with its cards; structure cards by the place they hang from."""
    out: dict[Place, list[str]] = {}
    for seat in st.seats():
        p = st.player(seat)
        out[Place("plot_hand", seat)] = list(p.plot_hand)
        out[Place("group_hand", seat)] = list(p.group_hand)
        out[Place("revealed", seat)] = list(p.revealed)
        out[Place("plot_deck", seat)] = sorted(p.plot_deck.shuffled) + p.plot_deck.bottom
        out[Place("group_deck", seat)] = sorted(p.group_deck.shuffled) + p.group_deck.bottom
        for card, node in p.structure.items():
            address = f"{node.parent}:{node.arrow}" if node.parent else ""
            out.setdefault(Place("structure", seat, address), []).append(card)
        out[Place("resources", seat)] = [r.card for r in p.resources]
        for zone in ("agents", "plots", "loose", "discard", "destroyed"):
            out[Place(zone, seat)] = list(getattr(p, zone))
    attack = st.attack
    if attack is not None and attack.paid_with not in ("", "token"):
        # the attack plot paying an attack lies face up until the attack ends (then discarded)
        out[Place("plots", attack.seat)].append(attack.paid_with)
    for seat, card in st.chosen.items():
        out[Place("chosen", seat)] = [card]
    out[Place("set_aside")] = list(st.set_aside)
    for colour, card in st.new_world_order.items():
        out[Place("new_world_order", None, colour)] = [card]
    return out


def values(st: IlluminatiState) -> dict[str, Any]:
    """Phase and step, action tokens and card-text changes on table cards, the attack stage."""
    out: dict[str, Any] = {"phase": st.phase, "step": st.step,
                           "attack": None if st.attack is None else st.attack.stage}
    for seat in st.seats():
        p = st.player(seat)
        for card, node in p.structure.items():
            out[f"tokens:{card}"] = node.tokens
            if node.power_mod:
                out[f"power:{card}"] = node.power_mod
            if node.resistance_mod:
                out[f"resistance:{card}"] = node.resistance_mod
        for r in p.resources:
            out[f"tokens:{r.card}"] = r.tokens
    return out
