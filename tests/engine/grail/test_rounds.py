"""Combats that cannot end (grail OQ-31): the regulation option max_combat_rounds and the
judge's end_combat, both a draw with nobody mortally wounded. Seat 1 is in its challenge
phase."""

from __future__ import annotations

from engine.grail.model import GrailAttempt
from tests.engine.grail.helpers import (
    W,
    act,
    build,
    combat_of,
    on_field,
    play,
    refused,
    roll,
    warrior_of,
)

END = {"reason": "no damage is possible"}


def test_oq31_max_combat_rounds_makes_a_draw_with_nobody_wounded() -> None:
    """grail OQ-31 (max_combat_rounds 2): Sir Alan (6 - 2 = 4) hits the Gate Guard (END 10) for
    4 twice (5 + 3 = 8 against 4 + 2 = 6): 8 < 10; after round 2 the combat is a draw, nobody
    wounded, nobody healing; finished, both stay (the Guard keeps its 8 damage this turn)."""
    state = build(warriors=[W("KNIGHT@1.1"), W("GUARD@2.1")],
                  options={"max_combat_rounds": 2})
    state = play(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="GUARD@2.1"))
    state = roll(state, 1, 1, 2, 1, 1)
    assert combat_of(state).result == ""
    state = roll(state, 1, 1, 2, 1, 1)
    combat = combat_of(state)
    assert (combat.result, combat.heal_pending) == ("draw", [])
    assert [s.wounded for s in combat.sides] == [False, False]
    state = play(state, act("finish_combat", 1))
    assert state.combat is None and on_field(state, "KNIGHT@1.1")
    assert warrior_of(state, "GUARD@2.1").damage == 8


def test_oq31_a_quest_combat_timed_out_does_not_achieve_the_quest() -> None:
    """grail OQ-31 (a draw with no mortal wound), OQ-34 and [討伐クエスト L150] (achieved when the
    quest side loses, i.e. is wounded): max_combat_rounds 1; Sir Alan 5 + 6 = 11 against the
    Black Knight (PRO 5, END 6, armour 1) 5 + 2 = 7 deals 4 - 1 = 3 < 6; time is called: the
    quest is not achieved, it stays active and no reward is due."""
    state = build(warriors=[W("KNIGHT@1.1")], active_quest={2: "Q-BLACK@2.1"},
                  quests={2: ["Q-WELL@2.2"]}, options={"max_combat_rounds": 1})
    state = play(state, act("attempt_quest", 1, warrior="KNIGHT@1.1", quest="Q-BLACK@2.1"))
    state = roll(state, 1, 3, 3, 1, 1)
    assert combat_of(state).result == "draw"
    state = play(state, act("finish_combat", 1))
    assert state.active_quest[2] == "Q-BLACK@2.1" and state.reward_due is None
    assert state.quest_discard[2] == [] and state.quests[2] == ["Q-WELL@2.2"]


def test_oq31_a_judge_ends_a_mortal_combat_as_a_draw() -> None:
    """grail OQ-31 (end_combat): Sir Iron (STR 2) against Sir Iron (armour 1) with Plate (3):
    no damage is possible; the judge ends it: nobody wounded, nobody discarded."""
    state = build(warriors=[W("IRON@1.1"), W("IRON@2.1", attached=["PLATE@2.5"])])
    state = play(state, act("challenge_mortal", 1, challenger="IRON@1.1", target="IRON@2.1"))
    state = play(state, act("end_combat", 1, **END))
    assert state.combat is None and on_field(state, "IRON@1.1") and on_field(state, "IRON@2.1")


def test_oq31_a_judge_ending_a_quest_combat_achieves_nothing_and_ends_a_grail_attempt() -> None:
    """grail OQ-31: Sir Percival's grail attempt is at the Black Knight; the judge ends the
    combat: the quest stays active, no reward; the attempt is over without a defeat (valor
    still 12)."""
    state = build(warriors=[W("HERO@1.1", acted=True)], active_quest={2: "Q-BLACK@2.1"},
                  grail=GrailAttempt(seat=1, knight="HERO@1.1", eligible=["Q-BLACK@2.1"]))
    state = play(state, act("attempt_quest", 1, warrior="HERO@1.1", quest="Q-BLACK@2.1"))
    state = play(state, act("end_combat", 1, **END))
    assert state.combat is None and state.grail is None and state.reward_due is None
    assert state.active_quest[2] == "Q-BLACK@2.1" and warrior_of(state, "HERO@1.1").valor == 12


def test_oq31_end_combat_only_while_the_rounds_go_on() -> None:
    """grail OQ-31: once the result is fixed, end_combat is refused (wrong_step); with no combat
    it is refused (no_combat)."""
    refused(build(), act("end_combat", 1, **END), "no_combat")
    state = build(warriors=[W("KNIGHT@1.1"), W("SOLDIER@2.1")])
    state = play(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1",
                            target="SOLDIER@2.1"))
    state = roll(state, 1, 3, 3, 1, 1)  # 11 against 5: 4 >= 4, the Man-at-arms is wounded
    refused(state, act("end_combat", 1, **END), "wrong_step")
