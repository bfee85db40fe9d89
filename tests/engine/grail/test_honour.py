"""Honour challenges (名誉チャレンジ L161-174): G2 (rude), G3 (the loser's reward, honor_loss),
the answer (L167-169; 一般戦士 L269), champions (王 L285-287; grail OQ-16), the formal combat and
its result (決闘 L140-142; grail OQ-14, OQ-19, OQ-20, OQ-30). Seat 1 challenges in its
challenge phase; seat 2 answers. Side 0 is the challenger, side 1 the target (or champion)."""

from __future__ import annotations

from typing import Any

from engine.grail.model import GrailState
from tests.engine.grail.helpers import (
    RULES,
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


def challenge(challenger: Any, target: Any, *others: Any, **kw: Any) -> GrailState:
    state = build(warriors=[challenger, target, *others], **kw)
    return play(state, act("challenge_honour", 1, challenger=challenger.card,
                           target=target.card))


def accepted(challenger: Any, target: Any, *others: Any, champion: str | None = None,
             **kw: Any) -> GrailState:
    state = challenge(challenger, target, *others, **kw)
    return play(state, act("answer_honour", 2, accept=True, champion=champion))


def valor(state: GrailState, warrior: str) -> int:
    return warrior_of(state, warrior).valor


# ----- G2: rude challenges -----------------------------------------------------------------------
def test_g2_a_general_warrior_target_is_rude() -> None:
    """G2, [名誉チャレンジ L164, L166]: Sir Alan (6) challenges the Gate Guard (4; 4 <= 6 - 3 =
    3 is false): rude only as a general warrior: 6 - 2 = 4; the offer waits for seat 2."""
    state = challenge(W("KNIGHT@1.1"), W("GUARD@2.1"))
    assert valor(state, "KNIGHT@1.1") == 4
    assert state.honour_offer is not None and RULES.to_act(state) == [2]


def test_g2_a_target_valor_at_least_3_below_is_rude() -> None:
    """G2 (target valor <= challenger valor - 3), [名誉チャレンジ L165]: Sir Bors (8) against
    Sir Alan at 5: 5 <= 8 - 3 = 5: rude, 8 - 2 = 6."""
    state = challenge(W("BORS@1.1"), W("KNIGHT@2.1", valor=5))
    assert valor(state, "BORS@1.1") == 6


def test_g2_a_target_valor_only_2_below_is_not_rude() -> None:
    """G2: Sir Bors (8) against Sir Alan at 6: 6 <= 5 is false: not rude, still 8."""
    state = challenge(W("BORS@1.1"), W("KNIGHT@2.1"))
    assert valor(state, "BORS@1.1") == 8


def test_g2_both_conditions_cost_2_once() -> None:
    """G2 (the rude challenger loses 2), digest 4.13 (once even if both hold): Sir Alan (6)
    against the Man-at-arms (3 <= 3, and a general warrior): 6 - 2 = 4, not 2."""
    state = challenge(W("KNIGHT@1.1"), W("SOLDIER@2.1"))
    assert valor(state, "KNIGHT@1.1") == 4


def test_oq19_no_rude_penalty_against_a_king_under_a_victory_challenge() -> None:
    """[勝利チャレンジ L185], grail OQ-19: King Ulf (9) of seat 2 is under a victory challenge;
    Sir Percival (12) challenges him: 9 <= 12 - 3 = 9 would be rude, but no valor is lost."""
    state = challenge(W("HERO@1.1"), W("KING-N@2.1"), victory_challenges={2: ["KING-N@2.1"]})
    assert valor(state, "HERO@1.1") == 12


def test_oq19_the_challenger_must_still_be_a_knight_or_king() -> None:
    """grail OQ-19, [名誉チャレンジ L163]: a Man-at-arms may not challenge that king either."""
    state = build(warriors=[W("SOLDIER@1.1"), W("KING-N@2.1")],
                  victory_challenges={2: ["KING-N@2.1"]})
    refused(state, act("challenge_honour", 1, challenger="SOLDIER@1.1", target="KING-N@2.1"),
            "not_a_knight")


def test_l163_only_a_knight_or_king_challenges_another_players_warrior() -> None:
    """[名誉チャレンジ L161, L163; 一般戦士 L267]: a Man-at-arms may not challenge
    (not_a_knight); Sir Alan may not challenge his own side (own_target), nor twice a turn
    (already_acted)."""
    state = build(warriors=[W("SOLDIER@1.1"), W("KNIGHT@1.2"), W("BORS@1.3", acted=True),
                            W("KNIGHT@2.1")])
    refused(state, act("challenge_honour", 1, challenger="SOLDIER@1.1", target="KNIGHT@2.1"),
            "not_a_knight")
    refused(state, act("challenge_honour", 1, challenger="KNIGHT@1.2", target="SOLDIER@1.1"),
            "own_target")
    refused(state, act("challenge_honour", 1, challenger="BORS@1.3", target="KNIGHT@2.1"),
            "already_acted")


def test_oq30_a_rude_penalty_to_0_destroys_the_challenger_and_ends_the_challenge() -> None:
    """grail OQ-30: Sir Alan at valor 2 challenges the Man-at-arms (rude): 2 - 2 = 0: he is
    destroyed at once; no answer is awaited."""
    state = challenge(W("KNIGHT@1.1", valor=2), W("SOLDIER@2.1"))
    assert not on_field(state, "KNIGHT@1.1") and state.honour_offer is None
    assert state.court_discard[1] == ["KNIGHT@1.1"] and RULES.to_act(state) == [1]


# ----- the answer (L167-169) ---------------------------------------------------------------------
def test_l167_a_knight_declines_for_2_valor() -> None:
    """[名誉チャレンジ L167]: Sir Alan (6) declines Sir Bors: 6 - 2 = 4; no combat; Sir Bors has
    used his action."""
    state = challenge(W("BORS@1.1"), W("KNIGHT@2.1"))
    state = play(state, act("answer_honour", 2, accept=False))
    assert valor(state, "KNIGHT@2.1") == 4 and state.combat is None
    assert state.honour_offer is None and warrior_of(state, "BORS@1.1").acted


def test_oq30_a_decline_at_valor_2_destroys_the_target() -> None:
    """grail OQ-30 (a decline at <= 2 is legal), [名誉チャレンジ L167]: Sir Alan at 2 declines
    (Sir Bors paid the rude 2: 2 <= 8 - 3): 2 - 2 = 0, Sir Alan is destroyed."""
    state = challenge(W("BORS@1.1"), W("KNIGHT@2.1", valor=2))
    state = play(state, act("answer_honour", 2, accept=False))
    assert not on_field(state, "KNIGHT@2.1") and valor(state, "BORS@1.1") == 6


def test_l168_a_general_warrior_declines_for_free() -> None:
    """[名誉チャレンジ L168; 一般戦士 L269]: the Gate Guard (4) declines: still 4."""
    state = challenge(W("KNIGHT@1.1"), W("GUARD@2.1"))
    state = play(state, act("answer_honour", 2, accept=False))
    assert valor(state, "GUARD@2.1") == 4 and state.combat is None


def test_l167_only_the_targets_seat_answers() -> None:
    """[名誉チャレンジ L167]: seat 1 may not answer for seat 2 (not_your_decision)."""
    state = challenge(W("BORS@1.1"), W("KNIGHT@2.1"))
    refused(state, act("answer_honour", 1, accept=True), "not_your_decision")


def test_oq20_a_king_under_a_victory_challenge_may_decline_by_default() -> None:
    """grail OQ-20 (victory_challenge_decline: allowed): King Ulf (9) declines: 9 - 2 = 7."""
    state = challenge(W("HERO@1.1"), W("KING-N@2.1"), victory_challenges={2: ["KING-N@2.1"]})
    state = play(state, act("answer_honour", 2, accept=False))
    assert valor(state, "KING-N@2.1") == 7


def test_oq20_forbidden_a_king_under_a_victory_challenge_must_accept() -> None:
    """grail OQ-20 (victory_challenge_decline: forbidden): declining is refused (must_accept)."""
    state = challenge(W("HERO@1.1"), W("KING-N@2.1"), victory_challenges={2: ["KING-N@2.1"]},
                      options={"victory_challenge_decline": "forbidden"})
    refused(state, act("answer_honour", 2, accept=False), "must_accept")


def test_l169_accepted_it_is_a_formal_combat_the_challenger_attacking() -> None:
    """[名誉チャレンジ L162, L169]: accepted: an honour combat, Sir Bors side 0, Sir Alan side 1."""
    state = accepted(W("BORS@1.1"), W("KNIGHT@2.1"))
    assert combat_of(state).kind == "honour"
    assert [s.fighter for s in combat_of(state).sides] == ["BORS@1.1", "KNIGHT@2.1"]


# ----- champions (王 L285-287, OQ-16) -----------------------------------------------------------
def test_l285_only_a_king_names_a_champion() -> None:
    """[王 L285]: Sir Alan, a knight, may not name one (no_champion); nor may a declining king."""
    state = challenge(W("BORS@1.1"), W("KNIGHT@2.1"), W("SOLDIER@2.2"))
    refused(state, act("answer_honour", 2, accept=True, champion="SOLDIER@2.2"), "no_champion")
    state = challenge(W("BORS@1.1"), W("KING-N@2.1"), W("SOLDIER@2.2"))
    refused(state, act("answer_honour", 2, accept=False, champion="SOLDIER@2.2"), "no_champion")


def test_oq16_a_champion_fights_and_the_results_fall_on_the_king() -> None:
    """[王 L285-287], grail OQ-16: King Ulf (9, a Sword and a Vow) names the Man-at-arms (3, 1
    damage, already acted: allowed). Sir Bors 4 + 6 = 10 against 3 + 2 = 5: he hits for 3, the
    champion reaches 4 >= 4 and loses. Finished: Sir Bors 8 + 1 = 9; King Ulf 9 - 1 = 8 and
    loses the reward Sir Bors picks (the Sword; the Vow may not be picked, G3); the champion's
    damage is reset and its valor stays 3."""
    state = accepted(W("BORS@1.1"), W("KING-N@2.1", attached=["SWORD@2.5", "VOW@2.6"]),
                     W("SOLDIER@2.2", damage=1, acted=True), champion="SOLDIER@2.2")
    side = combat_of(state).sides[1]
    assert (side.fighter, side.for_king) == ("SOLDIER@2.2", "KING-N@2.1")
    state = roll(state, 1, 3, 3, 1, 1)
    state = play(state, act("finish_combat", 1))
    assert (valor(state, "BORS@1.1"), valor(state, "KING-N@2.1")) == (9, 8)
    assert combat_of(state).step == "honour_reward" and RULES.to_act(state) == [1]
    refused(state, act("choose_reward_loss", 1, reward="VOW@2.6"), "not_losable")
    state = play(state, act("choose_reward_loss", 1, reward="SWORD@2.5"))
    assert warrior_of(state, "KING-N@2.1").attached == ["VOW@2.6"]
    soldier = warrior_of(state, "SOLDIER@2.2")
    assert (soldier.valor, soldier.damage) == (3, 0) and state.combat is None


def test_oq16_a_refused_surrender_costs_the_king_not_the_champion() -> None:
    """grail OQ-16 (the refusal penalty falls on the king): round 1, 4 + 2 = 6 against 3 + 2 =
    5: the champion takes 3 (< 4). Sir Bors asks to surrender; seat 2 refuses: King Ulf 9 - 2
    = 7, the Man-at-arms still 3."""
    state = accepted(W("BORS@1.1"), W("KING-N@2.1"), W("SOLDIER@2.2"), champion="SOLDIER@2.2")
    state = roll(state, 1, 1, 1, 1, 1)
    state = play(state, act("request_surrender", 1))
    state = play(state, act("answer_surrender", 2, accept=False))
    assert (valor(state, "KING-N@2.1"), valor(state, "SOLDIER@2.2")) == (7, 3)


# ----- the result (L170-174, G3, OQ-14) ---------------------------------------------------------
def knight_beaten(*attached: str, **kw: Any) -> GrailState:
    """Sir Bors (8) beats Sir Alan (6, 3 damage from earlier this turn, ``attached``): 4 + 6 =
    10 against 5 + 2 = 7: Sir Alan takes 3, 3 + 3 = 6 >= 6, and loses. Finished by seat 1."""
    state = accepted(W("BORS@1.1"), W("KNIGHT@2.1", damage=3, attached=list(attached)), **kw)
    state = roll(state, 1, 3, 3, 1, 1)
    assert combat_of(state).result == "win:0" and combat_of(state).heal_pending == []
    return play(state, act("finish_combat", 1))


def test_l172_the_winner_gains_1_and_the_loser_loses_1_valor() -> None:
    """[名誉チャレンジ L172-173], G3: Sir Bors 8 + 1 = 9, Sir Alan 6 - 1 = 5; all damage and
    wounds are reset [L171]; with no reward to lose the combat is over."""
    state = knight_beaten()
    assert (valor(state, "BORS@1.1"), valor(state, "KNIGHT@2.1")) == (9, 5)
    assert warrior_of(state, "KNIGHT@2.1").damage == 0 and state.combat is None


def test_g3_one_the_winner_picks_one_reward_never_a_vow_or_combat_experience() -> None:
    """G3 (honor_loss: one, the default), [名誉チャレンジ L173-174]: Sir Alan bears the Sword,
    the Vow and combat experience; seat 1 alone picks (seat 2: not_your_decision); the Vow and
    the experience are refused (not_losable); the Sword goes to seat 2's court discard."""
    state = knight_beaten("SWORD@2.5", "VOW@2.6", "EXP@2.7")
    assert {a.model_dump()["reward"] for a in RULES.legal_actions(state, 1)} == {"SWORD@2.5"}
    refused(state, act("choose_reward_loss", 2, reward="SWORD@2.5"), "not_your_decision")
    refused(state, act("choose_reward_loss", 1, reward="VOW@2.6"), "not_losable")
    refused(state, act("choose_reward_loss", 1, reward="EXP@2.7"), "not_losable")
    state = play(state, act("choose_reward_loss", 1, reward="SWORD@2.5"))
    assert warrior_of(state, "KNIGHT@2.1").attached == ["VOW@2.6", "EXP@2.7"]
    assert state.court_discard[2] == ["SWORD@2.5"] and state.combat is None


def test_g3_all_every_reward_but_vows_and_combat_experience_is_lost() -> None:
    """G3 (honor_loss: all), [報酬 L314]: the Sword and the axe go; the Vow, the experience and
    Lady Elaine (a companion, not a reward) stay; nothing waits for a choice."""
    state = knight_beaten("SWORD@2.5", "VOW@2.6", "EXP@2.7", "AXE@2.8", "LADY@2.9",
                          options={"honor_loss": "all"})
    assert state.combat is None
    assert warrior_of(state, "KNIGHT@2.1").attached == ["VOW@2.6", "EXP@2.7", "LADY@2.9"]
    assert state.court_discard[2] == ["SWORD@2.5", "AXE@2.8"]


def test_l170_a_draw_changes_nothing_but_the_damage() -> None:
    """[名誉チャレンジ L170-171]: Sir Bors (4 damage) and Sir Alan (3 damage) tie at 4 + 4 = 5 +
    3 = 8: Sir Alan 3 + 3 = 6 >= 6, Sir Bors 4 + 4 = 8 >= 7: a draw; no heal is offered (formal,
    決闘 L142); finished: both stay, damage 0, valor 8 and 6."""
    state = accepted(W("BORS@1.1", damage=4), W("KNIGHT@2.1", damage=3))
    state = roll(state, 1, 2, 2, 1, 2)
    assert combat_of(state).result == "draw"
    refused(state, act("heal", 1, warrior="BORS@1.1"), "nothing_to_heal")
    state = play(state, act("finish_combat", 1))
    assert state.combat is None
    for w, v in (("BORS@1.1", 8), ("KNIGHT@2.1", 6)):
        assert (warrior_of(state, w).damage, valor(state, w)) == (0, v)


def surrendered(**kw: Any) -> GrailState:
    """Round 1: 4 + 2 = 6 against 5 + 2 = 7: Sir Alan hits Sir Bors for 4 (< 7). Sir Alan (with
    a Sword) asks to surrender and Sir Bors accepts; finished."""
    state = accepted(W("BORS@1.1"), W("KNIGHT@2.1", attached=["SWORD@2.5"]), **kw)
    state = roll(state, 1, 1, 1, 1, 1)
    state = play(state, act("request_surrender", 2))
    state = play(state, act("answer_surrender", 1, accept=True))
    assert combat_of(state).result == "win:0" and combat_of(state).surrendered
    return play(state, act("finish_combat", 1))


def test_oq14_once_a_surrender_in_an_honour_duel_is_not_stacked() -> None:
    """[交戦処理 L211], grail OQ-14 (duel_surrender: once): Sir Bors 8 + 1 = 9, Sir Alan
    6 - 1 = 5, and Sir Alan still loses a reward (G3)."""
    state = surrendered()
    assert (valor(state, "BORS@1.1"), valor(state, "KNIGHT@2.1")) == (9, 5)
    assert combat_of(state).step == "honour_reward"


def test_oq14_stack_a_surrender_adds_its_own_1_to_the_honour_result() -> None:
    """grail OQ-14 (duel_surrender: stack): Sir Bors 8 + 2 = 10, Sir Alan 6 - 2 = 4."""
    state = surrendered(options={"duel_surrender": "stack"})
    assert (valor(state, "BORS@1.1"), valor(state, "KNIGHT@2.1")) == (10, 4)
