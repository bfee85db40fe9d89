"""Battle (各戦闘の処理; K5, K6, K9, kami Q-4, Q-5, Q-6, Q-8, Q-11, Q-23, Q-25).

A unit that arrives on a hex holding an enemy unit (a summon, a move, a teleport) starts a battle
with it as the attacker. Priority alternates from the attacker's seat: each turn of priority is one
reinforcement, one interference force or a pass; two passes in a row resolve the battle at once
(▽ ダメージ適用ステップ, ▽ 戦闘終了ステップ).
"""

from __future__ import annotations

from engine.core.effects import emit
from engine.core.errors import IllegalAction
from engine.core.holdings import modified
from engine.kami.deck import pay
from engine.kami.effects import BattleResolved
from engine.kami.holds import enforce_holds, hold_met, support
from engine.kami.model import Battle, Card, KamiState, Unit
from engine.kami.reasons import KamiReason as R


def start_battle(state: KamiState, hex_id: str, attacker: Unit) -> None:
    """The attacker arrives on an enemy unit's hex: the battle opens, the attacker's seat has
    priority, each stack holds just its unit (§各戦闘の処理)."""
    state.battle = Battle(hex=hex_id, attacker=attacker, attacker_seat=attacker.owner,
                          stacks={1: [], 2: []}, priority=attacker.owner)
    state.phase = "battle"


def _require_priority(state: KamiState, seat: int) -> Battle:
    battle = state.battle
    if battle is None:
        raise IllegalAction(R.NO_BATTLE, "No battle is open.")
    if battle.priority != seat:
        raise IllegalAction(R.NOT_YOUR_PRIORITY, f"Seat {battle.priority} has priority in "
                            "the battle.")
    return battle


def _use_from_hand(state: KamiState, seat: int, card: str, cost: int) -> None:
    """Pay for a card from hand whose hold is met, and take it out of the hand."""
    if not hold_met(state, state.cards[card], support(state, seat)):
        raise IllegalAction(R.HOLD_NOT_MET, f"Seat {seat}'s support does not meet the hold of "
                            f"{state.cards[card].name}.")
    pay(state, seat, cost)
    state.hands[seat].remove(card)


def reinforce(state: KamiState, seat: int, card: str) -> None:
    """援軍: a reinforcement unit from hand on top of the seat's own stack, at its
    reinforcement cost, else its printed cost (Q-4)."""
    battle = _require_priority(state, seat)
    _in_hand(state, seat, card)
    definition = state.cards[card]
    if definition.kind != "unit" or not definition.reinforcement:
        raise IllegalAction(R.NOT_REINFORCEMENT, f"{definition.name} is not a reinforcement.")
    _use_from_hand(state, seat, card, reinforce_cost(definition))
    battle.stacks[seat].append(card)
    _priority_passes(battle, seat, passed=False)


def reinforce_cost(card: Card) -> int:
    """Q-4: the card's reinforcement cost, else its printed cost."""
    return card.reinforce_cost if card.reinforce_cost is not None else card.cost or 0


def interfere(state: KamiState, seat: int, card: str) -> None:
    """干渉: an interference force from hand on top of the seat's own stack (Q-25); its effect
    is a battle-scoped adjustment (C3)."""
    battle = _require_priority(state, seat)
    _in_hand(state, seat, card)
    definition = state.cards[card]
    if definition.kind != "force" or not definition.interference:
        raise IllegalAction(R.NOT_INTERFERENCE, f"{definition.name} is not an interference "
                            "force.")
    _use_from_hand(state, seat, card, definition.cost or 0)
    battle.stacks[seat].append(card)
    _priority_passes(battle, seat, passed=False)


def pass_battle(state: KamiState, seat: int) -> None:
    """A pass; the second in a row resolves the battle (Q-5: passing locks nobody out)."""
    battle = _require_priority(state, seat)
    _priority_passes(battle, seat, passed=True)
    if battle.passes >= 2:
        resolve(state, battle)


def _priority_passes(battle: Battle, seat: int, *, passed: bool) -> None:
    battle.passes = battle.passes + 1 if passed else 0
    battle.priority = 3 - seat


def _in_hand(state: KamiState, seat: int, card: str) -> None:
    if card not in state.hands[seat]:
        raise IllegalAction(R.CARD_NOT_IN_HAND, f"{card} is not in seat {seat}'s hand.")


def stack_at(state: KamiState, battle: Battle, seat: int, unit: Unit) -> int:
    """K9: the unit's AT, its options' AT modifiers, the AT of every reinforcement in the
    stack and the battle's modifiers for that seat; never below 0 (Q-11)."""
    printed = modified(state.modifiers, unit.card, "at", state.cards[unit.card].at)  # C3
    total = printed + sum(state.cards[o.card].at_mod for o in unit.options)
    total += sum(state.cards[c].at for c in battle.stacks[seat]
                 if state.cards[c].kind == "unit")
    return max(0, total + battle.at_mod.get(seat, 0))


def unit_df(state: KamiState, battle: Battle | None, seat: int, unit: Unit) -> int:
    """The unit's effective DF: printed, options' modifiers, the battle's modifier (Q-11)."""
    printed = modified(state.modifiers, unit.card, "df", state.cards[unit.card].df)  # C3
    total = printed + sum(state.cards[o.card].df_mod for o in unit.options)
    return max(0, total + (battle.df_mod.get(seat, 0) if battle else 0))


def _allocate(state: KamiState, battle: Battle, seat: int, unit: Unit, damage: int) -> list[str]:
    """K5: damage to ``seat``'s stack from the top down, each reinforcement up to its DF, forces
    skipped (Q-25), the unit last taking the rest; returns the cards destroyed (Q-11: a card is
    destroyed when its total damage, earlier damage included, is at least 1 and at least its
    effective DF)."""
    destroyed = []
    for card in reversed(battle.stacks[seat]):
        definition = state.cards[card]
        if definition.kind != "unit":
            continue
        taken = min(damage, definition.df)
        damage -= taken
        if taken and taken >= definition.df:
            destroyed.append(card)
    unit.damage += damage
    total = unit.damage + unit.lasting_damage  # earlier damage this turn counts
    if total >= 1 and total >= unit_df(state, battle, seat, unit):
        destroyed.append(unit.card)
    return destroyed


def resolve(state: KamiState, battle: Battle) -> None:
    """The damage step and the end of the battle (K5, K6), then the K7 holds."""
    defender = state.board[battle.hex].unit
    if defender is None:  # a judge removed it during the battle (C3): no one to fight
        _unopposed(state, battle)
        return
    attacker, a_seat, d_seat = battle.attacker, battle.attacker_seat, defender.owner
    a_at = stack_at(state, battle, a_seat, attacker)
    d_at = stack_at(state, battle, d_seat, defender)
    destroyed_a = _allocate(state, battle, a_seat, attacker, d_at)
    destroyed_d = _allocate(state, battle, d_seat, defender, a_at)
    gained = {1: 0, 2: 0}
    a_dead, d_dead = attacker.card in destroyed_a, defender.card in destroyed_d
    if not a_dead and not d_dead:  # K5: both stand, the attacker is destroyed
        a_dead = True
        destroyed_a.append(attacker.card)
    for seat, cards in ((a_seat, destroyed_a), (d_seat, destroyed_d)):
        for card in cards:  # K6: the opponent of the owner gains the printed VP
            gained[3 - seat] += state.cards[card].vp
    for unit, dead in ((attacker, a_dead), (defender, d_dead)):
        if dead:
            _destroy_options(state, unit, gained)
    _clear_stacks(battle, state)
    survivor = _leave_hex(state, battle, attacker, defender, a_dead, d_dead)
    for seat, points in gained.items():
        state.vp[seat] += points
    emit(state, BattleResolved(
        hex=battle.hex, attack=((a_seat, a_at), (d_seat, d_at)),
        destroyed=tuple(destroyed_a + destroyed_d), survivor=survivor,
        vp=tuple((s, v) for s, v in gained.items() if v)))
    state.battle = None
    state.phase = "action"
    enforce_holds(state)


def _unopposed(state: KamiState, battle: Battle) -> None:
    """The defender is gone: the attacker takes the hex; the stacks go to the discard piles."""
    _clear_stacks(battle, state)
    state.board[battle.hex].unit = battle.attacker
    emit(state, BattleResolved(hex=battle.hex, attack=(), destroyed=(),
                               survivor=battle.attacker_seat, vp=(), ended_by="defender gone"))
    state.battle = None
    state.phase = "action"
    enforce_holds(state)


def _destroy_options(state: KamiState, unit: Unit, gained: dict[int, int]) -> None:
    """K6, Q-6: the options of a destroyed unit are destroyed; each gives its VP to the
    opponent of its owner (or of the unit's owner, under ``option_vp_to``)."""
    to_unit_side = state.options.get("option_vp_to") == "opponent_of_unit_owner"
    for option in unit.options:
        scorer = 3 - (unit.owner if to_unit_side else option.owner)
        gained[scorer] += state.cards[option.card].vp


def _clear_stacks(battle: Battle, state: KamiState) -> None:
    """K5: every card of both stacks goes to its owner's discard pile: reinforcements
    destroyed by damage, those still standing (no VP, K6) and the forces used."""
    for seat, stack in battle.stacks.items():
        state.discard[seat].extend(stack)
        stack.clear()


def _leave_hex(state: KamiState, battle: Battle, attacker: Unit, defender: Unit,
               a_dead: bool, d_dead: bool) -> int | None:
    """The units destroyed go to their owners' discard piles with their options; the survivor
    holds the hex (Q-23: none if both fell)."""
    place = state.board[battle.hex]
    for unit, dead in ((attacker, a_dead), (defender, d_dead)):
        if dead:
            state.discard[unit.owner].append(unit.card)
            for option in unit.options:
                state.discard[option.owner].append(option.card)
    if not d_dead:
        place.unit = defender
        return defender.owner
    place.unit = None if a_dead else attacker
    return None if a_dead else attacker.owner
