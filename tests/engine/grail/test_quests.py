"""Quests and their rewards (クエストについて L114-126; 討伐クエスト L147-153; G4, G8; grail OQ-4,
OQ-9, OQ-10, OQ-15, OQ-24, OQ-34). Seat 1 is in its challenge phase, upkeep paid; seat 2's
active quest is the one attempted, with Q-WELL next in its quest deck. Combat quests: the
warrior is side 0 and attacks, the quest side 1 (its dice second)."""

from __future__ import annotations

from typing import Any

from engine import SPECTATOR
from engine.core.chance import SuppliedChance
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


def questing(quest: str, *warriors: Any, **kw: Any) -> GrailState:
    """Seat 2's active quest is ``quest``, Q-WELL@2.2 next in its deck."""
    kw.setdefault("quests", {2: ["Q-WELL@2.2"]})
    return build(active_quest={2: quest}, warriors=list(warriors or [W("KNIGHT@1.1")]), **kw)


def attempt(state: GrailState, quest: str, claim: bool = False, warrior: str = "KNIGHT@1.1",
            *outcomes: Any) -> GrailState:
    return play(state, act("attempt_quest", 1, warrior=warrior, quest=quest, claim=claim),
                *outcomes)


def achieved(quest: str = "Q-RIDDLE@2.1", *warriors: Any, **kw: Any) -> GrailState:
    """Sir Alan (valor 6) has achieved seat 2's ``quest`` on a claim; Q-WELL is revealed."""
    return attempt(questing(quest, *warriors, **kw), quest, True, "KNIGHT@1.1", "Q-WELL@2.2")


def take(state: GrailState, mode: str, *cards: str, seat: int = 1,
         outcomes: tuple[Any, ...] = ()) -> GrailState:
    return play(state, act("take_quest_reward", seat, mode=mode, cards=list(cards)), *outcomes)


# ----- quests (クエストについて L115-126; G8; OQ-24) ---------------------------------------------
def test_l115_any_players_active_quest_is_attempted_and_l125_goes_to_its_owner() -> None:
    """[クエストについて L115-116, L125-126], G8: Sir Alan achieves seat 2's Riddle (valor 2) on
    seat 1's claim: the Riddle goes to seat 2's quest discard, seat 2 reveals Q-WELL; the claim
    is recorded with its claimant; seat 1 now takes the reward of 2 (G4)."""
    state = achieved()
    assert state.quest_discard[2] == ["Q-RIDDLE@2.1"] and state.active_quest[2] == "Q-WELL@2.2"
    assert [(c.seat, c.what, c.about) for c in state.claims] == [(1, "quest", "Q-RIDDLE@2.1")]
    assert (state.reward_due, state.reward_value) == ("KNIGHT@1.1", 2)
    assert warrior_of(state, "KNIGHT@1.1").acted and RULES.to_act(state) == [1]


def test_oq24_a_non_combat_quest_without_the_claim_fails_with_no_other_effect() -> None:
    """grail OQ-24: no claim: the Riddle stays active, Sir Alan has used his action, no valor
    lost, no reward."""
    state = attempt(questing("Q-RIDDLE@2.1"), "Q-RIDDLE@2.1", False)
    assert state.active_quest[2] == "Q-RIDDLE@2.1" and state.quest_discard[2] == []
    knight = warrior_of(state, "KNIGHT@1.1")
    assert (knight.acted, knight.valor, state.reward_due) == (True, 6, None)


def test_l115_only_an_active_quest_is_attempted() -> None:
    """[クエストについて L115]: Q-WELL is in seat 2's deck, not active (not_active_quest)."""
    state = questing("Q-RIDDLE@2.1")
    refused(state, act("attempt_quest", 1, warrior="KNIGHT@1.1", quest="Q-WELL@2.2",
                       claim=True), "not_active_quest")


def test_l89_a_warrior_takes_one_challenge_action_per_turn() -> None:
    """[チャレンジ(Challenge)フェイズ L90-97]: Sir Alan has acted; he may not quest
    (already_acted)."""
    state = questing("Q-RIDDLE@2.1", W("KNIGHT@1.1", acted=True))
    refused(state, act("attempt_quest", 1, warrior="KNIGHT@1.1", quest="Q-RIDDLE@2.1",
                       claim=True), "already_acted")


# ----- rewards (G4; クエストについて L119-124) ----------------------------------------------------
def test_g4_valor_added_to_the_warrior() -> None:
    """G4, [クエストについて L121]: Sir Alan 6 + 2 = 8; nothing else is gained."""
    state = take(achieved(), "valor")
    assert warrior_of(state, "KNIGHT@1.1").valor == 8 and state.reward_due is None


def test_g4_rewards_from_hand_worth_at_most_the_valor_gained() -> None:
    """G4, [クエストについて L122-123]: the Sacred Grove gives 3: the Sword (2) and the Jewel (1),
    2 + 1 = 3 <= 3, go onto Sir Alan from hand; his valor stays 6."""
    state = achieved("Q-GROVE@2.1", hands={1: ["SWORD@1.5", "GEM@1.6", "ROCK@1.7"]})
    state = take(state, "rewards", "SWORD@1.5", "GEM@1.6")
    knight = warrior_of(state, "KNIGHT@1.1")
    assert (knight.attached, knight.valor) == (["SWORD@1.5", "GEM@1.6"], 6)
    assert state.hands[1] == ["ROCK@1.7"]


def test_g4_rewards_worth_more_than_the_valor_gained_are_refused() -> None:
    """G4: the Riddle gives 2: the Iron Crown (3) and the Sword + Jewel (2 + 1 = 3) are refused
    (over_valor)."""
    state = achieved(hands={1: ["CROWN@1.5", "SWORD@1.6", "GEM@1.7"]})
    refused(state, act("take_quest_reward", 1, mode="rewards", cards=["CROWN@1.5"]),
            "over_valor")
    refused(state, act("take_quest_reward", 1, mode="rewards", cards=["SWORD@1.6", "GEM@1.7"]),
            "over_valor")


def test_oq9_an_empty_reward_list_is_refused() -> None:
    """grail OQ-9: rewards with no card are refused (no_rewards_chosen)."""
    refused(achieved(), act("take_quest_reward", 1, mode="rewards", cards=[]),
            "no_rewards_chosen")


def test_oq9_vows_value_0_rewards_and_combat_experience_may_be_taken() -> None:
    """grail OQ-9, [戦闘経験 L327] (not unique): for the Riddle's 2: the Vow (2) + the axe (0)
    = 2; another time combat experience (1), though Sir Bors of seat 2 has one too."""
    state = achieved(hands={1: ["VOW@1.5", "AXE@1.6"]})
    state = take(state, "rewards", "VOW@1.5", "AXE@1.6")
    assert warrior_of(state, "KNIGHT@1.1").attached == ["VOW@1.5", "AXE@1.6"]
    state = achieved("Q-RIDDLE@2.1", W("KNIGHT@1.1"), W("BORS@2.3", attached=["EXP@2.4"]),
                     hands={1: ["EXP@1.5"]})
    state = take(state, "rewards", "EXP@1.5")
    assert warrior_of(state, "KNIGHT@1.1").attached == ["EXP@1.5"]


def test_oq10_a_reward_of_value_1_or_more_already_in_play_is_refused() -> None:
    """[報酬 L311], grail OQ-10: Sir Bors of seat 2 bears the Sword of Light; seat 1's copy is
    refused as a reward (unique_in_play) and stays in hand."""
    state = achieved("Q-RIDDLE@2.1", W("KNIGHT@1.1"), W("BORS@2.3", attached=["SWORD@2.4"]),
                     hands={1: ["SWORD@1.5"]})
    refused(state, act("take_quest_reward", 1, mode="rewards", cards=["SWORD@1.5"]),
            "unique_in_play")


def test_oq8_a_reward_into_a_taken_slot_is_refused() -> None:
    """[武器や防具 L318], grail OQ-8: Sir Alan has an axe; the Sword (a weapon) is refused."""
    state = achieved("Q-RIDDLE@2.1", W("KNIGHT@1.1", attached=["AXE@1.4"]),
                     hands={1: ["SWORD@1.5"]})
    refused(state, act("take_quest_reward", 1, mode="rewards", cards=["SWORD@1.5"]),
            "slot_taken")


def test_g4_rewards_are_reward_cards_from_hand() -> None:
    """G4 ("reward cards from hand"): a lady is not a reward (not_a_reward); a Jewel not in hand
    is refused (card_not_in_hand)."""
    state = achieved(hands={1: ["LADY@1.5"]})
    refused(state, act("take_quest_reward", 1, mode="rewards", cards=["LADY@1.5"]),
            "not_a_reward")
    refused(state, act("take_quest_reward", 1, mode="rewards", cards=["GEM@1.6"]),
            "card_not_in_hand")


def test_g4_the_valor_spent_whole_on_one_court_draw() -> None:
    """G4, [クエストについて L124]: seat 1 draws one court card (5 - 1 = 4 left); Sir Alan's
    valor stays 6."""
    state = take(achieved(), "draw", outcomes=("ROCK@1.92",))
    assert state.hands[1] == ["ROCK@1.92"] and len(state.court[1]) == 4
    assert warrior_of(state, "KNIGHT@1.1").valor == 6


def test_oq4_the_draw_is_refused_from_an_empty_court_deck() -> None:
    """grail OQ-4, C2 (only draws a player must make lose): with no court card the draw is
    refused (deck_empty) and not listed; valor is still possible."""
    state = achieved(court={1: []})
    refused(state, act("take_quest_reward", 1, mode="draw"), "deck_empty")
    assert {a.model_dump()["mode"] for a in RULES.legal_actions(state, 1)} == {"valor"}
    assert state.result is None


def test_g4_exactly_one_way_by_the_achieving_seat() -> None:
    """G4 (exactly one way): seat 2 may not take seat 1's reward (no_reward_due); once taken as
    valor, nothing more is due; the turn then goes on."""
    state = achieved()
    refused(state, act("take_quest_reward", 2, mode="valor"), "no_reward_due")
    refused(state, act("end_turn", 1), "decision_pending")
    state = take(state, "valor")
    refused(state, act("take_quest_reward", 1, mode="valor"), "no_reward_due")
    state = play(state, act("end_turn", 1), "ROCK@2.90")
    assert state.active == 2


# ----- slaying quests (討伐クエスト L147-153; OQ-15, OQ-34) -------------------------------------
def test_l148_a_combat_quest_is_a_mortal_combat_the_warrior_attacking() -> None:
    """[討伐クエスト L147-148]: the Wyvern (a creature) defends: side 1 is the quest, owned by seat
    2; only seat 1 acts in it (the quest side never does, OQ-15)."""
    state = attempt(questing("Q-WYVERN@2.1"), "Q-WYVERN@2.1")
    combat = combat_of(state)
    assert combat.kind == "quest"
    assert [(s.seat, s.fighter, s.quest) for s in combat.sides] == \
        [(1, "KNIGHT@1.1", False), (2, "Q-WYVERN@2.1", True)]
    assert RULES.to_act(state) == [1]
    refused(state, act("roll_round", 2), "not_in_combat", 1, 1, 1, 1)


def test_l150_the_quest_side_wounded_is_achieved() -> None:
    """[討伐クエスト L150-151]: Sir Alan 5 + 6 = 11 against the Wyvern (PRO 4, STR 4, END 4)
    4 + 2 = 6: the Wyvern takes 4 >= 4, Sir Alan wins unhurt; finished, the Wyvern goes to seat
    2's quest discard, Q-WELL is revealed and Sir Alan's reward of 3 is due."""
    state = roll(attempt(questing("Q-WYVERN@2.1"), "Q-WYVERN@2.1"), 1, 3, 3, 1, 1)
    assert combat_of(state).result == "win:0"
    state = play(state, act("finish_combat", 1), "Q-WELL@2.2")
    assert state.combat is None and state.quest_discard[2] == ["Q-WYVERN@2.1"]
    assert state.active_quest[2] == "Q-WELL@2.2"
    assert (state.reward_due, state.reward_value) == ("KNIGHT@1.1", 3)


def wyvern_draw() -> GrailState:
    """Sir Alan (2 permanent) and the Wyvern tie at 5 + 2 = 4 + 3 = 7: Sir Alan 4 + 2 = 6 >= 6,
    the Wyvern 4 >= 4: both wounded, a draw."""
    state = questing("Q-WYVERN@2.1", W("KNIGHT@1.1", permanent=2))
    return roll(attempt(state, "Q-WYVERN@2.1"), 1, 1, 1, 1, 2)


def test_oq34_a_draw_achieves_the_quest_and_a_healed_warrior_is_rewarded() -> None:
    """grail OQ-34, [討伐クエスト L152]: the draw achieves the Wyvern; Sir Alan heals (6 - 1 =
    5) and takes the reward of 3."""
    state = wyvern_draw()
    assert combat_of(state).result == "draw" and combat_of(state).heal_pending == [0]
    state = play(state, act("heal", 1, warrior="KNIGHT@1.1"), "Q-WELL@2.2")
    assert state.quest_discard[2] == ["Q-WYVERN@2.1"] and state.active_quest[2] == "Q-WELL@2.2"
    assert (state.reward_due, state.reward_value) == ("KNIGHT@1.1", 3)
    assert warrior_of(state, "KNIGHT@1.1").valor == 5


def test_l152_a_warrior_still_wounded_is_discarded_and_gets_nothing() -> None:
    """[討伐クエスト L152; 死闘 L145]: the same draw, Sir Alan not healed: the quest is still
    achieved (discard, Q-WELL revealed) but Sir Alan is discarded and no reward is due."""
    state = play(wyvern_draw(), act("finish_combat", 1), "Q-WELL@2.2")
    assert state.quest_discard[2] == ["Q-WYVERN@2.1"] and state.active_quest[2] == "Q-WELL@2.2"
    assert not on_field(state, "KNIGHT@1.1") and state.court_discard[1] == ["KNIGHT@1.1"]
    assert state.reward_due is None


def test_l153_the_quest_side_alone_winning_fails_the_quest() -> None:
    """[討伐クエスト L153]: 5 + 2 = 7 against 4 + 12 = 16: only the Wyvern hits, Sir Alan 4 + 2
    = 6 >= 6; he heals (6 - 1 = 5) and lives, but the quest failed: the Wyvern stays active,
    nothing revealed, no reward, no valor lost beyond the heal."""
    state = questing("Q-WYVERN@2.1", W("KNIGHT@1.1", permanent=2))
    state = roll(attempt(state, "Q-WYVERN@2.1"), 1, 1, 1, 6, 6)
    assert combat_of(state).result == "win:1"
    state = play(state, act("heal", 1, warrior="KNIGHT@1.1"))
    assert state.active_quest[2] == "Q-WYVERN@2.1" and state.quest_discard[2] == []
    assert state.reward_due is None and warrior_of(state, "KNIGHT@1.1").valor == 5


def test_oq15_a_surrender_to_a_quest_is_accepted_with_a_certain_wound() -> None:
    """grail OQ-15, [交戦処理 L212] (クエスト時は確定で致命傷): against the Black Knight (PRO 5,
    STR 5, END 6, armour 1) 5 + 6 = 11 against 5 + 2 = 7: it takes 4 - 1 = 3. Sir Alan asks to
    surrender: no answer is awaited; he is mortally wounded and loses (the quest failed); he
    may heal; not healed he is discarded and the Black Knight stays active."""
    state = questing("Q-BLACK@2.1")
    state = roll(attempt(state, "Q-BLACK@2.1"), 1, 3, 3, 1, 1)
    assert combat_of(state).sides[1].damage == 3
    state = play(state, act("request_surrender", 1))
    combat = combat_of(state)
    assert (combat.step, combat.result, combat.sides[0].wounded) == ("heal", "win:1", True)
    assert combat.heal_pending == [0]
    state = play(state, act("finish_combat", 1))
    assert not on_field(state, "KNIGHT@1.1") and state.active_quest[2] == "Q-BLACK@2.1"


def test_l153_a_quests_damage_is_reset_after_each_combat() -> None:
    """[討伐クエスト L153]: the Black Knight took 3 from Sir Alan, who then surrendered; Sir
    Bors's new attempt finds it at 0 damage."""
    state = questing("Q-BLACK@2.1", W("KNIGHT@1.1"), W("BORS@1.2"))
    state = roll(attempt(state, "Q-BLACK@2.1"), 1, 3, 3, 1, 1)
    state = play(state, act("request_surrender", 1))
    state = play(state, act("finish_combat", 1))
    state = attempt(state, "Q-BLACK@2.1", False, "BORS@1.2")
    assert combat_of(state).sides[1].damage == 0


def test_oq36_the_transcript_names_who_throws_the_quests_dice() -> None:
    """grail OQ-36, [討伐クエスト L149] (in 2 players the questing player's opponent throws the
    quest's dice, recorded for the transcript only): the round's line names seat 2."""
    state = attempt(questing("Q-WYVERN@2.1"), "Q-WYVERN@2.1")
    chance = SuppliedChance([3, 3, 1, 1])
    RULES.apply(state, act("roll_round", 1), chance)
    line = RULES.describe(act("roll_round", 1), chance.outcomes, SPECTATOR, state)
    assert "seat 2" in line.lower()


def test_l49_a_warrior_deployed_this_turn_pays_upkeep_and_acts_at_once() -> None:
    """[基本構成細則 L49] (no summoning sickness), digest 3.3: Sir Alan, deployed this turn, is
    paid from the one domain (1 <= 1) and achieves the Riddle in the same turn."""
    state = build(phase="deployment", hands={1: ["KNIGHT@1.1"]}, domains={1: ["D-NORTH@1.9"]},
                  active_quest={2: "Q-RIDDLE@2.1"}, quests={2: ["Q-WELL@2.2"]})
    state = play(state, act("deploy_warrior", 1, card="KNIGHT@1.1"))
    state = play(state, act("pay_upkeep", 1))
    state = attempt(state, "Q-RIDDLE@2.1", True, "KNIGHT@1.1", "Q-WELL@2.2")
    assert state.reward_due == "KNIGHT@1.1"
