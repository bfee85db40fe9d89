"""The end of a combat (戦闘の終了 L214-219): healing (E2; 騎士 L277; OQ-29) and the consequences
of each kind (E3): a quest achieved or failed (討伐クエスト L150-153, OQ-34), a mortal
challenge's wounded discarded (L159-160), an honour challenge's valor and reward (L170-174; G3,
OQ-14, OQ-16), a title challenge's loser discarded (L180-181); a judge's end (OQ-31)."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.grail.basics import change_valor, destroy, end_grail, loser, owner_of
from engine.grail.combat import require_combat, stats
from engine.grail.model import UNTRANSFERABLE, Combat, GrailState, Side, Warrior
from engine.grail.quests import heal_between_quests, quest_achieved, quest_failed
from engine.grail.reasons import GrailReason as R


def heal(state: GrailState, seat: int, warrior_id: str, chance: Chance) -> None:
    """E2: a knight or king of the combat pays 1 valor: its normal damage goes and its mortal
    wound is cleared (permanent damage stays); the result does not change. At 0 valor it is
    destroyed (OQ-29). Between the quests of a grail attempt, outside any combat, it is the
    grail knight's heal after a non-combat quest (``heal_between_quests``, L133)."""
    if state.combat is None and state.grail is not None:
        heal_between_quests(state, seat, warrior_id)
        return
    combat = require_combat(state)
    index = next((i for i in combat.heal_pending if combat.sides[i].fighter == warrior_id),
                 None)
    if combat.step != "heal" or index is None or combat.sides[index].seat != seat:
        raise IllegalAction(R.NOTHING_TO_HEAL, "That warrior may not heal now.")
    warrior = state.warrior(warrior_id)
    assert warrior is not None
    warrior.damage = 0
    endurance = stats(state, combat.sides[index])[2]  # its lasting modifiers too (C3)
    combat.sides[index].wounded = warrior.permanent_damage >= endurance
    combat.heal_pending.remove(index)
    change_valor(state, warrior, -1)
    if not combat.heal_pending:
        finish(state, combat, chance)


def finish_combat(state: GrailState, seat: int, chance: Chance) -> None:
    """This seat heals no more; when nobody may heal, the consequences apply."""
    combat = require_combat(state)
    if combat.step != "heal":
        raise IllegalAction(R.WRONG_STEP, "The combat is not over yet.")
    mine = [i for i in combat.heal_pending if combat.sides[i].seat == seat]
    if combat.heal_pending and not mine:
        raise IllegalAction(R.NOT_YOUR_DECISION, "Another seat still decides on healing.")
    combat.heal_pending = [i for i in combat.heal_pending if i not in mine]
    if not combat.heal_pending:
        finish(state, combat, chance)


def finish(state: GrailState, combat: Combat, chance: Chance) -> None:
    """E3 for the combat's kind, then it is over (E4)."""
    lost = loser(combat)
    if combat.kind == "quest":
        _quest(state, combat, lost, chance)
    elif combat.kind == "mortal":
        for side in combat.sides:
            _discard_if_wounded(state, side)
    elif combat.kind == "title":
        _title(state, combat, lost)
    else:
        _honour(state, combat, lost)
        return  # it may wait for the winner's choice of reward (G3)
    state.combat = None


def _discard_if_wounded(state: GrailState, side: Side) -> None:
    warrior = state.warrior(side.fighter)
    if warrior is not None and side.wounded:
        destroy(state, warrior)


def _quest(state: GrailState, combat: Combat, lost: int | None, chance: Chance) -> None:
    """討伐クエスト L150-153, OQ-34: achieved when the quest side lost or both were wounded;
    failed when only the quest side won (a surrender included). A warrior still wounded is
    discarded and gets nothing; the quest's damage resets."""
    warrior_side, quest_side = combat.sides
    warrior_id, quest = warrior_side.fighter, quest_side.fighter
    _discard_if_wounded(state, warrior_side)
    alive = state.warrior(warrior_id) is not None
    state.combat = None
    if lost is None and not quest_side.wounded:  # time called (OQ-31): nothing achieved
        end_grail(state)
        return
    if lost == 0:
        quest_failed(state, warrior_id, quest)
        return
    quest_achieved(state, warrior_side.seat, warrior_id, quest, alive=alive, chance=chance,
                   wounded=warrior_side.was_wounded)


def _title(state: GrailState, combat: Combat, lost: int | None) -> None:
    """L180-181: the loser is discarded (a king, not his champion: OQ-17), both on a draw; the
    winner's damage resets; no valor."""
    for i, side in enumerate(combat.sides):
        fighter = state.warrior(side.fighter)
        if fighter is not None:
            fighter.damage = 0
        staked = state.warrior(side.for_king or side.fighter)
        if staked is not None and (lost is None or lost == i):
            destroy(state, staked)


def _honour(state: GrailState, combat: Combat, lost: int | None) -> None:
    """L170-174, G3: damage and wounds reset; on a win, +1 valor to the winner and -1 to the
    loser (once, a surrender included, OQ-14), and the loser loses a reward: the winner picks
    one (``honor_loss: one``) or all go (``all``). With a champion the king takes the results
    (OQ-16)."""
    for side in combat.sides:
        warrior = state.warrior(side.fighter)
        if warrior is not None:
            warrior.damage = 0
        side.wounded = False
    if lost is None:
        state.combat = None
        return
    winner_side, loser_side = combat.sides[1 - lost], combat.sides[lost]
    winner = state.warrior(winner_side.for_king or winner_side.fighter)
    beaten = state.warrior(loser_side.for_king or loser_side.fighter)
    swing = 2 if combat.surrendered and state.options.get("duel_surrender") == "stack" else 1
    if winner is not None:
        change_valor(state, winner, +swing)
    if beaten is None:
        state.combat = None
        return
    eligible = losable(state, beaten)
    change_valor(state, beaten, -swing)
    if state.warrior(beaten.card) is None or not eligible:
        state.combat = None
        return
    if state.options.get("honor_loss", "one") == "all":
        for card in eligible:
            beaten.attached.remove(card)
            state.court_discard[owner_of(card)].append(card)
        state.combat = None
        return
    combat.step = "honour_reward"


def losable(state: GrailState, warrior: Warrior) -> list[str]:
    """G3: the rewards a losing warrior may lose: neither vows nor combat experience."""
    return [c for c in warrior.attached if state.card(c).type == "reward"
            and state.card(c).reward not in UNTRANSFERABLE]


def choose_reward_loss(state: GrailState, seat: int, reward: str) -> None:
    """G3: the honour winner's controller picks the reward the loser discards."""
    combat = require_combat(state)
    lost = loser(combat)
    if combat.step != "honour_reward" or lost is None:
        raise IllegalAction(R.NO_REWARD_TO_TAKE, "No honour reward waits to be chosen.")
    winner_side, loser_side = combat.sides[1 - lost], combat.sides[lost]
    if winner_side.seat != seat:
        raise IllegalAction(R.NOT_YOUR_DECISION, f"Seat {winner_side.seat} chooses.")
    beaten = state.warrior(loser_side.for_king or loser_side.fighter)
    if beaten is None or reward not in losable(state, beaten):
        raise IllegalAction(R.NOT_LOSABLE, "Choose one of the loser's rewards that is neither a "
                            "vow nor combat experience (G3).")
    beaten.attached.remove(reward)
    state.court_discard[owner_of(reward)].append(reward)
    state.combat = None


def end_combat(state: GrailState, seat: int, chance: Chance) -> None:
    """OQ-31: a judge ends a combat that cannot end: a draw, nobody wounded."""
    combat = require_combat(state)
    if combat.step != "cards":
        raise IllegalAction(R.WRONG_STEP, "The combat is already over; finish it.")
    for side in combat.sides:
        side.wounded = False
    combat.result = "draw"
    combat.heal_pending = []
    finish(state, combat, chance)  # a quest nobody could wound is not achieved (_quest)
