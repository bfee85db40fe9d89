"""Attacks (§各攻撃の処理; E3, E4, E5; edge OQ19, OQ20).

The turn player cranks an attacker with line of sight to declare an attack on a target with line
of sight in another player's conspiracy, once per defender per turn; whammies and adjustments may
follow (a window); then the powers compare: AP plus modifiers against DP plus modifiers, and each
combatant whose opponent's power is at least its own goes to the dead pile, its player losing
influence equal to its printed pull."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core.effects import Effect, emit
from engine.core.errors import IllegalAction
from engine.core.holdings import modified
from engine.edge.basics import bury
from engine.edge.conspiracy import find, in_front, normalise
from engine.edge.model import Combat, EdgeState
from engine.edge.reasons import EdgeReason as R
from engine.edge.turn import require_turn


@dataclass(frozen=True)
class AttackResolved(Effect):
    """The powers compared and who was removed, for the transcript."""

    kind: ClassVar[str] = "attack_resolved"
    attack: int
    defence: int
    removed: tuple[str, ...]
    cancelled: bool = False  # a combatant left before the resolution (OQ19)


def declare_attack(state: EdgeState, seat: int, attacker: str, defender: int, target: str,
                   los_override: str | None) -> None:
    """E4, E5: checks, then the attacker is cranked and the attack waits for its resolution."""
    require_turn(state, seat, "operations")
    if defender == seat or defender not in state.in_play():
        raise IllegalAction(R.BAD_DEFENDER, "Attack another player still in the game.")
    if defender in state.attacked:
        raise IllegalAction(R.ALREADY_ATTACKED, f"Seat {defender} was attacked this turn (E4).")
    found = find(state, attacker)
    if found is None or found[0] != seat or found[1].state == "flipped":
        raise IllegalAction(R.NOT_IN_CONSPIRACY, f"{attacker} is not in your conspiracy.")
    mine = found[1]
    if mine.state != "active":
        raise IllegalAction(R.NOT_ACTIVE, "The attacker is cranked.")
    if in_front(state, seat, mine):
        raise IllegalAction(R.ATTACKER_BLOCKED, "An active character of yours stands in front "
                            "of it in its file (E5).")
    aimed = find(state, target)
    if aimed is None or aimed[0] != defender or aimed[1].state == "flipped":
        raise IllegalAction(R.TARGET_NOT_IN_CONSPIRACY, f"{target} is not in seat {defender}'s "
                            "conspiracy.")
    if in_front(state, defender, aimed[1]) and not los_override:
        raise IllegalAction(R.TARGET_BLOCKED, "An active character stands in front of the "
                            "target in its file (E5).")
    mine.state = "cranked"
    state.attacked.append(defender)
    state.combat = Combat(attacker=attacker, target=target, defender=defender)


def resolve_combat(state: EdgeState, seat: int, attacker_modifier: int,
                   target_modifier: int) -> None:
    """E3: ``a`` = AP + modifiers, ``d`` = DP + modifiers (the lasting ones of the ``ap`` and
    ``dp`` stats, C3, and this attack's own); the target goes if a >= d, the attacker if d >= a;
    each loses its player its printed pull in influence (E3: never the modified pull; may go
    below 0). A combatant gone meanwhile cancels the comparison (OQ19)."""
    combat = state.combat
    if combat is None:
        raise IllegalAction(R.NO_COMBAT, "No attack waits to be resolved.")
    if seat != state.active:
        raise IllegalAction(R.NOT_YOUR_TURN, "The attacking player resolves the attack.")
    state.combat = None
    mine, theirs = find(state, combat.attacker), find(state, combat.target)
    if mine is None or theirs is None or theirs[1].state == "flipped" or \
            mine[1].state == "flipped":
        emit(state, AttackResolved(attack=0, defence=0, removed=(), cancelled=True))
        return
    a = modified(state.modifiers, combat.attacker, "ap", state.card(combat.attacker).ap) + \
        attacker_modifier
    d = modified(state.modifiers, combat.target, "dp", state.card(combat.target).dp) + \
        target_modifier
    removed = []
    for (owner, character), goes in ((theirs, a >= d), (mine, d >= a)):
        if goes:
            state.conspiracies[owner].remove(character)
            bury(state, character)
            state.influence[owner] -= state.card(character.card).pull or 0
            normalise(state, owner)
            removed.append(character.card)
    emit(state, AttackResolved(attack=a, defence=d, removed=tuple(removed)))
