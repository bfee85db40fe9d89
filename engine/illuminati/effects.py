"""What an Illuminati step did: the attack verdicts only the rules know (emitted while applying),
and the places and values the kernel compares to find every other effect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.effects import Effect
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
