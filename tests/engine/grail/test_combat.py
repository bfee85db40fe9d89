"""Combat (各戦闘の処理 L189-219): the round (G1; 交戦処理 L198-205; grail OQ-32, OQ-33), surrender
(交戦処理 L206-213; grail OQ-13, OQ-15), healing (戦闘の終了 L218; 騎士 L277; grail OQ-29) and the
end of a mortal challenge (抹殺チャレンジ L159-160).

Most tests are a mortal challenge by seat 1 in its challenge phase: Sir Alan (PRO 5, STR 4,
END 6, VAL 6) pays 2 valor (6 -> 4, L156) and attacks; side 0 is the attacker, side 1 the
defender, and each round's dice are side 0's two then side 1's two.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.grail.model import GrailState, Warrior
from tests.engine.grail.helpers import (
    RULES,
    W,
    act,
    build,
    combat_of,
    legal_types,
    on_field,
    play,
    refused,
    roll,
    warrior_of,
)


def mortal(challenger: Warrior, target: Warrior, *others: Warrior, **kw: object) -> GrailState:
    """Seat 1's ``challenger`` makes a mortal challenge on seat 2's ``target``."""
    state = build(warriors=[challenger, target, *others], **kw)  # type: ignore[arg-type]
    return play(state, act("challenge_mortal", 1, challenger=challenger.card,
                           target=target.card))


def damages(state: GrailState, *warriors: str) -> tuple[int, ...]:
    return tuple(warrior_of(state, w).damage for w in warriors)


# ----- G1: the round ---------------------------------------------------------------------------
def test_g1_the_higher_round_prowess_hits() -> None:
    """G1, [交戦処理 L198-202]: Sir Alan 5 + (1 + 2) = 8 against the Gate Guard (PRO 4, STR 2)
    4 + (1 + 1) = 6: only Sir Alan hits, for STR 4 - armour 0 = 4; no wound (END 10), so the
    next round's card window opens."""
    state = roll(mortal(W("KNIGHT@1.1"), W("GUARD@2.1")), 1, 1, 2, 1, 1)
    assert damages(state, "KNIGHT@1.1", "GUARD@2.1") == (0, 4)
    combat = combat_of(state)
    assert (combat.round, combat.step, combat.result) == (1, "cards", "")


def test_g1_a_tie_means_both_hit() -> None:
    """G1 (on a tie both hit), [交戦処理 L201]: 5 + (2 + 2) = 9 against 4 + (3 + 2) = 9: the
    Guard takes 4, Sir Alan takes the Guard's STR 2."""
    state = roll(mortal(W("KNIGHT@1.1"), W("GUARD@2.1")), 2, 2, 2, 3, 2)
    assert damages(state, "KNIGHT@1.1", "GUARD@2.1") == (2, 4)


def test_g1_declared_modifiers_add_to_prowess_strength_and_armour() -> None:
    """G1 ("adds its prowess and modifiers"), grail OQ-32: modifiers prowess [0, +3], strength
    [+2, 0], armour [0, +1]; Sir Alan 5 + 6 + 0 = 11, the Guard 4 + 4 + 3 = 11: a tie; Sir Alan
    deals (4 + 2) - (0 + 1) = 5, the Guard deals 2 - 0 = 2."""
    state = roll(mortal(W("KNIGHT@1.1"), W("GUARD@2.1")), 1, 3, 3, 2, 2,
                 prowess=[0, 3], strength=[2, 0], armour=[0, 1])
    assert damages(state, "KNIGHT@1.1", "GUARD@2.1") == (2, 5)


def test_oq33_armour_is_the_printed_armour_plus_the_attached_rewards() -> None:
    """G1, grail OQ-33: Sir Iron (PRO 3, STR 2, printed armour 1) wears Chain Mail (armour 2):
    armour 3. 5 + 2 = 7 against 3 + 4 = 7, a tie: Sir Iron takes 4 - 3 = 1, Sir Alan 2 - 0 = 2."""
    state = roll(mortal(W("KNIGHT@1.1"), W("IRON@2.1", attached=["MAIL@2.5"])), 1, 1, 1, 2, 2)
    assert damages(state, "KNIGHT@1.1", "IRON@2.1") == (2, 1)


def test_g1_damage_is_never_below_zero() -> None:
    """G1 (never below 0): Sir Alan wears Chain Mail (2) and a Round Shield (1): armour 3; a
    tie (5 + 4 = 4 + 5): the Guard's STR 2 - 3 deals 0, not -1; the Guard takes 4."""
    state = roll(mortal(W("KNIGHT@1.1", attached=["MAIL@1.5", "SHIELD@1.6"]),
                        W("GUARD@2.1")), 1, 2, 2, 3, 2)
    assert damages(state, "KNIGHT@1.1", "GUARD@2.1") == (0, 4)


def test_g1_normal_plus_permanent_damage_at_endurance_is_a_mortal_wound() -> None:
    """G1, [交戦処理 L203-205]: the Guard (END 10) has 2 permanent damage. Round 1: hit for 4,
    4 + 2 = 6 < 10, no wound, the rounds go on. Round 2: 8 + 2 = 10 >= 10: mortally wounded;
    the rounds stop and Sir Alan, free of a wound, wins [戦闘の終了 L215]."""
    state = mortal(W("KNIGHT@1.1"), W("GUARD@2.1", permanent=2))
    state = roll(state, 1, 3, 3, 1, 1)  # 5 + 6 = 11 against 4 + 2 = 6
    assert not combat_of(state).sides[1].wounded and combat_of(state).step == "cards"
    state = roll(state, 2, 3, 3, 1, 1)
    combat = combat_of(state)
    assert combat.sides[1].wounded and not combat.sides[0].wounded
    assert (combat.round, combat.result, combat.step) == (2, "win:0", "heal")
    refused(state, act("roll_round", 1), "decision_pending", 1, 1, 1, 1)


def test_g1_both_mortally_wounded_is_a_draw() -> None:
    """[戦闘の終了 L216]: Sir Alan (3 permanent) and Sir Bors (PRO 4, STR 3, END 7, 4 permanent)
    tie at 5 + 2 = 4 + 3 = 7: Sir Alan 3 + 3 = 6 >= 6 and Sir Bors 4 + 4 = 8 >= 7: both are
    wounded, a draw."""
    state = roll(mortal(W("KNIGHT@1.1", permanent=3), W("BORS@2.1", permanent=4)),
                 1, 1, 1, 2, 1)
    combat = combat_of(state)
    assert [s.wounded for s in combat.sides] == [True, True] and combat.result == "draw"


def test_g1_either_participants_seat_records_the_round() -> None:
    """G1 (each side rolls): seat 2, the defender, may record the round; seat 3 of a 3-player
    match, not in the combat, may not (not_in_combat)."""
    state = mortal(W("KNIGHT@1.1"), W("GUARD@2.1"), players=3)
    assert RULES.to_act(state) == [1, 2]
    refused(state, act("roll_round", 3), "not_in_combat", 1, 1, 1, 1)
    state = roll(state, 2, 1, 2, 1, 1)
    assert combat_of(state).round == 1


# ----- surrender (交戦処理 L206-213, OQ-13) -----------------------------------------------------
def test_oq13_surrender_is_asked_after_a_round_not_before_the_first() -> None:
    """grail OQ-13: before round 1 a surrender is refused (wrong_step) and not listed; after a
    round that wounded nobody it is asked, and the other side's seat answers; after a round
    that wounded someone (5 + 6 = 11 against 3 + 2 = 5: the Man-at-arms takes 4 >= 4) it is
    refused (wrong_step)."""
    state = mortal(W("KNIGHT@1.1"), W("GUARD@2.1"))
    refused(state, act("request_surrender", 2), "wrong_step")
    assert "request_surrender" not in legal_types(state, 2)
    state = roll(state, 1, 1, 2, 1, 1)
    assert "request_surrender" in legal_types(state, 2)
    state = play(state, act("request_surrender", 2))
    assert combat_of(state).step == "surrender_answer" and RULES.to_act(state) == [1]
    wounded = roll(mortal(W("KNIGHT@1.1"), W("SOLDIER@2.1")), 1, 3, 3, 1, 1)  # 4 >= END 4
    refused(wounded, act("request_surrender", 2), "wrong_step")


def test_l209_a_knight_refusing_a_surrender_loses_2_valor() -> None:
    """[交戦処理 L209]: seat 1 asks; Sir Bors (valor 8) refuses: 8 - 2 = 6; the next round's
    card window opens."""
    state = roll(mortal(W("KNIGHT@1.1"), W("BORS@2.1")), 1, 1, 1, 1, 1)  # 7 vs 6: Bors takes 4
    state = play(state, act("request_surrender", 1))
    state = play(state, act("answer_surrender", 2, accept=False))
    assert warrior_of(state, "BORS@2.1").valor == 6
    assert combat_of(state).step == "cards" and combat_of(state).result == ""


def test_l209_a_general_warrior_refuses_for_free() -> None:
    """[交戦処理 L209; 一般戦士 L271]: the Gate Guard (valor 4) refuses: still 4."""
    state = roll(mortal(W("KNIGHT@1.1"), W("GUARD@2.1")), 1, 1, 2, 1, 1)
    state = play(state, act("request_surrender", 1))
    state = play(state, act("answer_surrender", 2, accept=False))
    assert warrior_of(state, "GUARD@2.1").valor == 4


def test_l206_a_surrender_is_asked_once_per_side_per_combat() -> None:
    """[交戦処理 L206] (各戦闘につき 1回まで): refused once, seat 1 may not ask again
    (surrender_used), while seat 2 still may."""
    state = roll(mortal(W("KNIGHT@1.1"), W("GUARD@2.1")), 1, 1, 2, 1, 1)
    state = play(state, act("request_surrender", 1))
    state = play(state, act("answer_surrender", 2, accept=False))
    state = roll(state, 1, 1, 2, 1, 1)  # Guard 4 + 4 = 8 < 10
    refused(state, act("request_surrender", 1), "surrender_used")
    state = play(state, act("request_surrender", 2))
    assert combat_of(state).surrender_by == 1


def test_l212_an_accepted_surrender_in_mortal_combat_may_wound_the_surrenderer() -> None:
    """[交戦処理 L212-213; 戦闘の終了 L217]: the Guard (4 damage) asks; seat 1 accepts and
    wounds it: the Guard loses, whatever its state; nobody may heal (Sir Alan is unhurt, the
    Guard is no knight); finished, the wounded Guard is discarded [抹殺チャレンジ L160]."""
    state = roll(mortal(W("KNIGHT@1.1"), W("GUARD@2.1")), 1, 3, 3, 1, 1)
    state = play(state, act("request_surrender", 2))
    state = play(state, act("answer_surrender", 1, accept=True, wound=True))
    combat = combat_of(state)
    assert (combat.result, combat.surrendered, combat.heal_pending) == ("win:0", True, [])
    state = play(state, act("finish_combat", 1))
    assert state.combat is None and not on_field(state, "GUARD@2.1")
    assert state.court_discard[2] == ["GUARD@2.1"]


def test_l212_an_accepted_surrender_without_the_wound_leaves_the_surrenderer_alive() -> None:
    """[交戦処理 L212] (任意で): accepted without the wound, the Guard loses but stays, its 4
    damage kept until the end of the turn."""
    state = roll(mortal(W("KNIGHT@1.1"), W("GUARD@2.1")), 1, 3, 3, 1, 1)
    state = play(state, act("request_surrender", 2))
    state = play(state, act("answer_surrender", 1, accept=True, wound=False))
    assert combat_of(state).result == "win:0"
    state = play(state, act("finish_combat", 1))
    assert state.combat is None and warrior_of(state, "GUARD@2.1").damage == 4


def test_oq30_a_refusal_that_brings_valor_to_0_destroys_and_loses() -> None:
    """grail OQ-30 (a refusal at valor <= 2 is legal; a participant destroyed mid-combat loses
    and the combat ends): Sir Bors at 2 refuses Sir Alan's surrender: 2 - 2 = 0, destroyed;
    Sir Alan's side wins."""
    state = roll(mortal(W("KNIGHT@1.1"), W("BORS@2.1", valor=2)), 1, 1, 1, 1, 1)  # 7 vs 6
    state = play(state, act("request_surrender", 1))
    state = play(state, act("answer_surrender", 2, accept=False))
    assert not on_field(state, "BORS@2.1") and combat_of(state).result == "win:0"
    state = play(state, act("finish_combat", 1))
    assert state.combat is None and on_field(state, "KNIGHT@1.1")


@pytest.mark.parametrize("adjustment", [
    {"counter": {"name": "valor:GUARD@2.1", "value": 0}},
    {"move": {"card": "GUARD@2.1", "from_zone": "field", "to_zone": "court_discard"}},
], ids=["valor_set_to_0", "moved_off_the_field"])
def test_oq30_a_participant_destroyed_by_a_judge_mid_combat_loses_and_it_ends(
        adjustment: dict[str, Any]) -> None:
    """grail OQ-30 ("a participant destroyed mid-combat loses that combat, and the combat
    ends"), C3: round 1, Sir Alan 5 + 2 = 7 against the Gate Guard 4 + 2 = 6: the Guard takes 4
    (< END 10). A judge then sets the Guard's valor to 0 (a card effect), or moves it off the
    field: it is destroyed and loses; Sir Alan's side wins; no more round is rolled (the combat
    waits only on its end, as Sir Alan is unhurt and has nothing to heal); finished, it is
    over."""
    state = roll(mortal(W("KNIGHT@1.1"), W("GUARD@2.1")), 1, 1, 1, 1, 1)
    assert combat_of(state).result == ""
    state = play(state, {"type": "adjust", "seat": 2, "reason": "card text", **adjustment})
    assert not on_field(state, "GUARD@2.1") and state.court_discard[2] == ["GUARD@2.1"]
    combat = combat_of(state)
    assert (combat.result, combat.step, combat.heal_pending) == ("win:0", "heal", [])
    refused(state, act("roll_round", 1), "decision_pending", 1, 1, 1, 1)
    assert RULES.to_act(state) == [1] and legal_types(state, 1) == {"finish_combat"}
    state = play(state, act("finish_combat", 1))
    assert state.combat is None and damages(state, "KNIGHT@1.1") == (0,)


# ----- healing (戦闘の終了 L218, 騎士 L277, OQ-29) ----------------------------------------------
def draw_of_a_knight_and_a_king() -> GrailState:
    """Sir Alan (3 permanent) attacks King Ulf (PRO 6, STR 5, END 8, 4 permanent): 5 + 3 = 6 +
    2 = 8, a tie; Sir Alan 5 + 3 = 8 >= 6 and King Ulf 4 + 4 = 8 >= 8: both wounded, a draw."""
    state = mortal(W("KNIGHT@1.1", permanent=3), W("KING-N@2.1", permanent=4))
    return roll(state, 1, 2, 1, 1, 1)


def test_l277_knights_and_kings_heal_for_1_valor_and_the_result_stands() -> None:
    """[騎士 L277; 戦闘の終了 L218]: both may heal. Sir Alan heals: valor 4 - 1 = 3, normal
    damage 0 (the 3 permanent stay), the wound cleared; the result is still a draw, King Ulf
    still to decide. King Ulf heals: 9 - 1 = 8; the combat ends and both stay."""
    state = draw_of_a_knight_and_a_king()
    assert combat_of(state).heal_pending == [0, 1] and RULES.to_act(state) == [1, 2]
    state = play(state, act("heal", 1, warrior="KNIGHT@1.1"))
    knight, combat = warrior_of(state, "KNIGHT@1.1"), combat_of(state)
    assert (knight.valor, knight.damage, knight.permanent_damage) == (3, 0, 3)
    assert not combat.sides[0].wounded and combat.result == "draw"
    assert combat.heal_pending == [1] and RULES.to_act(state) == [2]
    state = play(state, act("heal", 2, warrior="KING-N@2.1"))
    assert state.combat is None
    assert warrior_of(state, "KING-N@2.1").valor == 8 and on_field(state, "KNIGHT@1.1")


def test_l160_a_mortal_challenge_discards_every_participant_still_wounded() -> None:
    """[抹殺チャレンジ L159-160; 死闘 L145]: in the same draw neither heals: both are discarded,
    each to its owner's court discard, Sir Alan with his Squire."""
    state = mortal(W("KNIGHT@1.1", permanent=3, attached=["SQUIRE@1.7"]),
                   W("KING-N@2.1", permanent=4))
    state = roll(state, 1, 2, 1, 1, 1)
    state = play(state, act("finish_combat", 1))
    assert state.combat is not None  # seat 2 still decides
    state = play(state, act("finish_combat", 2))
    assert state.combat is None and state.warriors == {1: [], 2: []}
    assert state.court_discard == {1: ["KNIGHT@1.1", "SQUIRE@1.7"], 2: ["KING-N@2.1"]}


def test_l277_a_general_warrior_cannot_heal() -> None:
    """[騎士 L277; 戦闘の終了 L218] (参加者が騎士や王の場合): the wounded Man-at-arms (END 4) may
    not heal (nothing_to_heal) and is discarded."""
    state = roll(mortal(W("KNIGHT@1.1"), W("SOLDIER@2.1")), 1, 3, 3, 1, 1)  # 11 vs 5: 4 >= 4
    assert combat_of(state).heal_pending == []
    refused(state, act("heal", 2, warrior="SOLDIER@2.1"), "nothing_to_heal")
    state = play(state, act("finish_combat", 2))
    assert not on_field(state, "SOLDIER@2.1")


def test_oq29_nothing_to_heal_without_damage_or_wound() -> None:
    """grail OQ-29: Sir Alan won unhurt: healing him is refused (nothing_to_heal)."""
    state = roll(mortal(W("KNIGHT@1.1"), W("SOLDIER@2.1")), 1, 3, 3, 1, 1)
    refused(state, act("heal", 1, warrior="KNIGHT@1.1"), "nothing_to_heal")


def test_oq29_a_knight_healing_at_valor_1_is_destroyed() -> None:
    """grail OQ-29, OQ-30: Sir Alan (valor 3 - 2 for the challenge = 1, 3 permanent) is wounded
    in the draw; healing takes him to 0: he is destroyed."""
    state = mortal(W("KNIGHT@1.1", valor=3, permanent=3), W("KING-N@2.1", permanent=4))
    state = roll(state, 1, 2, 1, 1, 1)
    state = play(state, act("heal", 1, warrior="KNIGHT@1.1"))
    assert not on_field(state, "KNIGHT@1.1") and state.court_discard[1] == ["KNIGHT@1.1"]


def test_oq29_only_the_warriors_own_seat_heals_it() -> None:
    """grail OQ-29: seat 2 may not heal seat 1's Sir Alan (nothing_to_heal)."""
    state = draw_of_a_knight_and_a_king()
    refused(state, act("heal", 2, warrior="KNIGHT@1.1"), "nothing_to_heal")


def test_oq28_support_is_an_action_of_mortal_combat() -> None:
    """grail OQ-28, [チャレンジ(Challenge)フェイズ L96; 死闘 L144] (support by a non-participating
    warrior in a mortal combat; digest 4.17 `support`): the game has a support action."""
    assert "support" in RULES.action_types()
