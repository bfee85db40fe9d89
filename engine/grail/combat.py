"""Combat (各戦闘の処理 L189-219; G1; grail OQ-13, OQ-14, OQ-15, OQ-16, OQ-21, OQ-29, OQ-30,
OQ-31, OQ-33, OQ-34).

A combat has two sides. Each round: a card window (combat actions, spells in a mortal combat),
then ``roll_round``: both sides roll 2d6; round prowess = PRO + dice + modifiers; the higher hits,
both on a tie; a hit deals strength minus the target's armour; normal plus permanent damage at
endurance is a mortal wound (G1). Rounds repeat until a mortal wound or an accepted surrender.
Then the result (E1, ``engine.grail.basics.fix_result``: also fixed when a participant is
destroyed mid-combat, OQ-30), healing (E2: knights and kings, 1 valor, mortal combats only) and
the consequences of the kind of combat (E3), which ``engine.grail.outcomes`` applies.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.core.holdings import modified
from engine.grail.basics import FORMAL, change_valor, fix_result
from engine.grail.model import Combat, GrailState, Side
from engine.grail.reasons import GrailReason as R


def start_combat(state: GrailState, kind: str, first: Side, second: Side) -> None:
    """戦闘の開始 L191-192: one against one; the first side attacks (both defend in a title
    challenge). Under ``title_champion: on`` (OQ-17) each king of a title challenge may first
    name a champion."""
    combat = Combat(kind=kind, sides=[first, second])  # type: ignore[arg-type]
    if kind == "title" and state.options.get("title_champion") == "on":
        state.champions_to_name = [i for i, s in enumerate(combat.sides)
                                   if state.card(s.fighter).kind == "king"]
        if state.champions_to_name:
            combat.step = "champions"
    state.combat = combat


def name_champion(state: GrailState, seat: int, champion: str | None) -> None:
    """OQ-17 (``title_champion: on``): a king in a title challenge names another warrior of
    his own field to fight for him (or none); the results fall on the king."""
    combat = require_combat(state)
    index = next((i for i in state.champions_to_name if combat.sides[i].seat == seat), None)
    if combat.step != "champions" or index is None:
        raise IllegalAction(R.NO_CHAMPION, "No king of this seat names a champion now.")
    side = combat.sides[index]
    if champion is not None:
        stand_in = state.warrior(champion)
        if stand_in is None or stand_in.owner != seat or \
                any(s.fighter == champion for s in combat.sides):
            raise IllegalAction(R.NO_CHAMPION, "A champion is another warrior of the king's "
                                "own field.")
        side.for_king, side.fighter = side.fighter, champion
    state.champions_to_name.remove(index)
    if not state.champions_to_name:
        combat.step = "cards"


def require_combat(state: GrailState) -> Combat:
    """The combat in progress, or ``no_combat``."""
    if state.combat is None:
        raise IllegalAction(R.NO_COMBAT, "No combat is in progress.")
    return state.combat


def participant(combat: Combat, seat: int) -> int:
    """The index of ``seat``'s warrior side (``not_in_combat``)."""
    for i, side in enumerate(combat.sides):
        if side.seat == seat and not side.quest:
            return i
    raise IllegalAction(R.NOT_IN_COMBAT, f"Seat {seat} has no warrior in this combat.")


def stats(state: GrailState, side: Side) -> tuple[int, int, int, int]:
    """(prowess, strength, endurance, armour) of a side: printed values; armour adds the
    printed armour of the rewards attached to a warrior (OQ-33); each with the lasting
    modifiers a judge gave the fighter for card text (C3; the round's own declared modifiers,
    OQ-32, come on top in ``roll_round``)."""
    fighter = side.fighter
    card = state.card(fighter)
    armour = card.armour
    warrior = state.warrior(fighter)
    if warrior is not None:
        armour += sum(state.card(c).armour for c in warrior.attached)
    return (modified(state.modifiers, fighter, "prowess", card.prowess),
            modified(state.modifiers, fighter, "strength", card.strength),
            modified(state.modifiers, fighter, "endurance", card.endurance),
            modified(state.modifiers, fighter, "armour", armour))


def damage_of(state: GrailState, side: Side) -> int:
    """Normal plus permanent damage of a side (a quest keeps its own, 討伐クエスト L153)."""
    warrior = state.warrior(side.fighter)
    if warrior is None:
        return side.damage
    return warrior.damage + warrior.permanent_damage


def _hit(state: GrailState, side: Side, amount: int) -> None:
    warrior = state.warrior(side.fighter)
    if warrior is None:
        side.damage += amount
    else:
        warrior.damage += amount


def roll_round(state: GrailState, seat: int, prowess: list[int], strength: list[int],
               armour: list[int], chance: Chance) -> tuple[tuple[int, int], ...]:
    """G1: one round; returns each side's (dice total, round prowess). The modifiers are the
    ones declared for this round (OQ-32)."""
    combat = require_combat(state)
    participant(combat, seat)
    if combat.step != "cards":
        raise IllegalAction(R.DECISION_PENDING, "The combat waits on a surrender answer or "
                            "on healing.")
    rolls, totals, strengths, armours = [], [], [], []
    for i, side in enumerate(combat.sides):
        pro, strg, _, arm = stats(state, side)
        dice = chance.roll("die", 6) + chance.roll("die", 6)
        rolls.append(dice)
        totals.append(pro + dice + prowess[i])
        strengths.append(strg + strength[i])
        armours.append(arm + armour[i])
    hits = [totals[0] >= totals[1], totals[1] >= totals[0]]  # a tie: both hit
    for i in (0, 1):
        if hits[i]:
            _hit(state, combat.sides[1 - i], max(0, strengths[i] - armours[1 - i]))
    for side in combat.sides:
        if damage_of(state, side) >= stats(state, side)[2]:
            side.wounded = True
    combat.round += 1
    if any(side.wounded for side in combat.sides):
        fix_result(state, combat)
    elif combat.round >= int(state.options.get("max_combat_rounds") or 0) > 0:
        combat.result = "draw"  # OQ-31: time called on the combat, nobody wounded
        combat.heal_pending = []
        combat.step = "heal"
    return tuple(zip(rolls, totals))


def support(state: GrailState, seat: int, warrior_id: str) -> None:
    """OQ-28: in a mortal combat's card window, a warrior of a participant's controller that is
    not fighting supports once per combat; on its controller's own turn it uses its challenge
    action."""
    combat = require_combat(state)
    participant(combat, seat)
    if combat.kind in FORMAL:
        raise IllegalAction(R.NO_SUPPORT_IN_DUEL, "Nobody supports in a formal combat (決闘 "
                            "L141).")
    if combat.step != "cards":
        raise IllegalAction(R.WRONG_STEP, "Support comes before a roll.")
    warrior = state.warrior(warrior_id)
    if warrior is None or warrior.owner != seat:
        raise IllegalAction(R.NOT_YOUR_WARRIOR, f"{warrior_id} is not a warrior of seat {seat}.")
    if any(s.fighter == warrior_id for s in combat.sides) or warrior_id in combat.supporters:
        raise IllegalAction(R.CANNOT_SUPPORT, "A fighter, or a warrior that has supported in "
                            "this combat, does not support.")
    if seat == state.active:
        if warrior.acted:
            raise IllegalAction(R.ALREADY_ACTED, f"{state.card(warrior_id).name} has acted.")
        warrior.acted = True
    combat.supporters.append(warrior_id)


def request_surrender(state: GrailState, seat: int) -> None:
    """交戦処理 L206-208, OQ-13: once per participant per combat, after a round and before the
    next roll, never in a title challenge. A quest always accepts, with a certain mortal wound
    (OQ-15)."""
    combat = require_combat(state)
    index = participant(combat, seat)
    side = combat.sides[index]
    if combat.kind == "title":
        raise IllegalAction(R.NO_SURRENDER_IN_TITLE, "There is no surrender in a title "
                            "challenge (タイトルチャレンジ L179).")
    if combat.step != "cards" or combat.round < 1:
        raise IllegalAction(R.WRONG_STEP, "A surrender is asked after a round, before the next "
                            "roll.")
    if side.surrender_used:
        raise IllegalAction(R.SURRENDER_USED, "This side has asked to surrender in this combat.")
    side.surrender_used = True
    if combat.sides[1 - index].quest:
        side.wounded = True  # L212: to a quest the wound is certain
        fix_result(state, combat, surrendered=index)
        return
    combat.surrender_by = index
    combat.step = "surrender_answer"


def answer_surrender(state: GrailState, seat: int, accept: bool, wound: bool) -> None:
    """L208-213: refusing costs a knight or king 2 valor (its king's, for a champion, OQ-16);
    accepted, a mortal combat may wound the surrenderer; either way the surrenderer loses."""
    combat = require_combat(state)
    if combat.step != "surrender_answer" or combat.surrender_by is None:
        raise IllegalAction(R.NO_SURRENDER, "No surrender waits for an answer.")
    asked = combat.surrender_by
    answering = combat.sides[1 - asked]
    if answering.seat != seat:
        raise IllegalAction(R.NOT_YOUR_DECISION, f"Seat {answering.seat} answers.")
    combat.surrender_by = None
    if not accept:
        combat.step = "cards"
        payer = state.warrior(answering.for_king or answering.fighter)
        if payer is not None and state.card(payer.card).is_knight:
            change_valor(state, payer, -2)  # at 0 it is destroyed and loses (OQ-30, destroy)
        return
    if wound and combat.kind not in FORMAL:
        combat.sides[asked].wounded = True
    fix_result(state, combat, surrendered=asked)
