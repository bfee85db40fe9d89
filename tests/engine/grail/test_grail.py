"""The grail quest (クエストについて L127-135; 騎士 L274; 一般戦士 L266): G7 and grail OQ-26,
OQ-27, OQ-34, with the claims of G8 (OQ-22).

Seat 1's Sir Percival (PRO 6, STR 5, END 7, valor 12) seeks the grail in seat 1's challenge
phase. Seat 1's active quest is the Riddle (valor 2) with the Wishing Well (1) next; seat 2's is
the Sacred Grove (3) with the Tower of Glass (5) next, unless a test says otherwise."""

from __future__ import annotations

from typing import Any

from engine import JUDGE
from engine.grail.model import GrailAttempt, GrailState
from tests.engine.grail.helpers import (
    RULES,
    W,
    act,
    build,
    combat_of,
    legal_types,
    play,
    refused,
    roll,
    warrior_of,
)

HERO = "HERO@1.1"
RIDDLE, WELL, GROVE, TOWER = "Q-RIDDLE@1.11", "Q-WELL@1.12", "Q-GROVE@2.11", "Q-TOWER@2.12"


def table(*warriors: Any, **kw: Any) -> GrailState:
    kw.setdefault("active_quest", {1: RIDDLE, 2: GROVE})
    kw.setdefault("quests", {1: [WELL], 2: [TOWER]})
    return build(warriors=list(warriors or [W(HERO)]), **kw)


def started(*warriors: Any, **kw: Any) -> GrailState:
    return play(table(*warriors, **kw), act("start_grail_quest", 1, knight=HERO))


def quest(state: GrailState, q: str, claim: bool = True, *outcomes: Any) -> GrailState:
    return play(state, act("attempt_quest", 1, warrior=HERO, quest=q, claim=claim), *outcomes)


def valor(state: GrailState) -> int:
    return warrior_of(state, HERO).valor


# ----- starting (L128-129, G7) -------------------------------------------------------------------
def test_g7_a_knight_of_valor_12_starts_it_with_the_active_quests_eligible() -> None:
    """G7, [クエストについて L128, L131], grail OQ-26: Sir Percival (12) starts; it is his
    challenge action; the eligible quests are the two active quests."""
    state = started()
    assert state.grail is not None and state.grail.knight == HERO
    assert state.grail.eligible == [RIDDLE, GROVE] and warrior_of(state, HERO).acted


def test_g7_valor_below_12_is_refused() -> None:
    """G7, [クエストについて L128; 騎士 L274]: at 11 it is refused (valor_below_12), not listed."""
    state = table(W(HERO, valor=11))
    refused(state, act("start_grail_quest", 1, knight=HERO), "valor_below_12")
    assert "start_grail_quest" not in legal_types(state, 1)


def test_g7_only_a_knight_or_king_seeks_the_grail() -> None:
    """G7, [一般戦士 L266]: a Man-at-arms at valor 12 is refused (not_a_knight); King Ulf at 12
    may start (a king is a knight, 王 L279)."""
    state = table(W("SOLDIER@1.2", valor=12), W("KING-N@1.3", valor=12))
    refused(state, act("start_grail_quest", 1, knight="SOLDIER@1.2"), "not_a_knight")
    state = play(state, act("start_grail_quest", 1, knight="KING-N@1.3"))
    assert state.grail is not None and state.grail.knight == "KING-N@1.3"


def test_g7_a_knight_that_has_acted_may_not_start() -> None:
    """G7, [チャレンジ(Challenge)フェイズ L90]: Sir Percival has acted (already_acted)."""
    refused(table(W(HERO, acted=True)), act("start_grail_quest", 1, knight=HERO),
            "already_acted")


def test_l129_not_while_another_players_victory_challenge_is_pending() -> None:
    """[クエストについて L129; 勝利チャレンジ L184; 王 L290]: King Ulf of seat 2 is under a
    victory challenge: the grail quest is refused (victory_challenge_pending), not listed."""
    state = table(W(HERO), W("KING-N@2.5"), victory_challenges={2: ["KING-N@2.5"]})
    refused(state, act("start_grail_quest", 1, knight=HERO), "victory_challenge_pending")
    assert "start_grail_quest" not in legal_types(state, 1)


# ----- three quests in a row (L130-135, G7) -----------------------------------------------------
def three_claimed_successes() -> GrailState:
    """The Riddle (Wishing Well revealed, made eligible), the Grove (Tower revealed), the Well
    (seat 1's deck is empty: its discard, Riddle and Well, is the deck and the Riddle comes
    back), each achieved on a claim (G8)."""
    state = quest(started(), RIDDLE, True, WELL)
    assert state.grail is not None and state.grail.eligible == [GROVE, WELL]
    state = quest(state, GROVE, True, TOWER)
    assert state.grail is not None and state.grail.successes == 2
    return quest(state, WELL, True, RIDDLE)


def test_g7_three_successes_in_a_row_win_with_valor_12() -> None:
    """G7, [クエストについて L130, L135; 勝利条件 L20]: three successes, valor 12: seat 1 wins
    (reason grail) once seat 2 has accepted the claimed quests (grail OQ-22)."""
    state = play(three_claimed_successes(), act("accept_claim", 2))
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([1], "grail")


def test_g7_a_grail_won_with_no_claim_open_wins_at_once() -> None:
    """G7, [クエストについて L135]: two successes already (no claim of them open), Sir Percival
    meets the Wyvern: 6 + 12 = 18 against 4 + 2 = 6, the Wyvern takes 5 >= 4; unhurt, he has
    nothing to heal: finished, the third success wins at once with valor 12."""
    wyvern = "Q-WYVERN@2.11"
    state = table(W(HERO, acted=True), active_quest={1: RIDDLE, 2: wyvern},
                  grail=GrailAttempt(seat=1, knight=HERO, successes=2, eligible=[wyvern]))
    state = roll(quest(state, wyvern, False), 1, 6, 6, 1, 1)
    state = play(state, act("finish_combat", 1), TOWER)
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([1], "grail")


def test_oq22_a_grail_won_on_claimed_quests_ends_play_and_stays_open_to_dispute() -> None:
    """grail OQ-22 (a match ended by a claim stays open to dispute until a ruling or the
    opponent's acceptance), G8: the third success rests on claimed quests: the grail is won at
    once as a claim, but the match has no result yet. Play is over (seat 1's end_turn waits,
    seat 2's event is refused: victory_claimed); the game waits on seat 2, who may accept or
    dispute; a judge's ruling upholding it records the win."""
    state = three_claimed_successes()
    assert state.result is None and state.grail is None
    assert RULES.view(state, JUDGE)["victory_claim"] == {
        "seat": 1, "what": "grail", "knight": HERO, "quest": WELL, "disputed_by": None,
        "accepted": []}
    assert RULES.to_act(state) == [2] and legal_types(state, 2) == {"accept_claim", "dispute"}
    refused(state, act("end_turn", 1), "decision_pending")
    with_event = table(hands={2: ["FEAST@2.5"]})
    with_event.victory_claim, with_event.accepted = state.victory_claim, []
    refused(with_event, act("play_event", 2, card="FEAST@2.5"), "victory_claimed")
    state = play(state, act("dispute", 2, claimant=1))
    assert RULES.to_act(state) == [1] and legal_types(state, 1) == {"rule_claim"}
    state = play(state, act("rule_claim", 1, upheld=True, reason="the quests were achieved"))
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([1], "grail")


def test_oq22_an_overturned_grail_claim_is_a_defeat_and_play_goes_on() -> None:
    """grail OQ-22 (an overturned non-combat quest is not achieved; in a grail attempt, a
    defeat), G7 [クエストについて L134]: seat 2 disputes the grail claim; the judge overturns
    it: no win; the attempt is defeated on its latest claimed quest, the Well (valor 1): 12 - 1
    = 11. The attempt's claims are settled (nothing left to dispute) and seat 1's turn goes on."""
    state = play(three_claimed_successes(), act("dispute", 2, claimant=1))
    state = play(state, act("rule_claim", 1, upheld=False, reason="the well was dry"))
    assert state.result is None and state.victory_claim is None and state.grail is None
    assert valor(state) == 11
    refused(state, act("dispute", 2, claimant=1), "no_claim")
    state = play(state, act("end_turn", 1), "ROCK@2.90")
    assert state.active == 2


def test_g7_no_valor_reward_or_draw_is_gained_on_the_way() -> None:
    """G7, [クエストについて L132]: after the Riddle (valor 2) Sir Percival is still at 12,
    nothing is attached, no reward waits and the hand is as it was."""
    state = quest(started(hands={1: ["SWORD@1.5"]}), RIDDLE, True, WELL)
    assert valor(state) == 12 and warrior_of(state, HERO).attached == []
    assert state.reward_due is None and state.hands[1] == ["SWORD@1.5"]
    assert state.grail is not None and state.grail.successes == 1


def test_g7_a_failed_quest_costs_its_valor_and_ends_the_attempt() -> None:
    """G7, [クエストについて L134]: the Grove (valor 3) attempted without the claim fails: 12 - 3
    = 9; the attempt is over, the Grove stays active, and the turn may end."""
    state = quest(started(), GROVE, False)
    assert state.grail is None and valor(state) == 9 and state.active_quest[2] == GROVE
    state = play(state, act("end_turn", 1), "ROCK@2.90")
    assert state.active == 2


def test_g7_a_combat_defeat_costs_the_quests_valor_after_healing() -> None:
    """G7, [クエストについて L134], digest 5.6 (heal, then the valor loss): against the Black
    Knight (PRO 5, STR 5, END 6, armour 1, valor 4), Sir Percival (3 permanent) 6 + 2 = 8 against
    5 + 12 = 17 takes 5: 5 + 3 = 8 >= 7, the quest alone wins. He heals: 12 - 1 = 11; the
    defeat then costs 4: 11 - 4 = 7; the attempt is over."""
    state = started(W(HERO, permanent=3), active_quest={1: RIDDLE, 2: "Q-BLACK@2.11"})
    state = roll(quest(state, "Q-BLACK@2.11", False), 1, 1, 1, 6, 6)
    assert combat_of(state).result == "win:1"
    state = play(state, act("heal", 1, warrior=HERO))
    assert state.combat is None and state.grail is None and valor(state) == 7


def test_l133_a_mortal_wound_fails_the_grail_even_on_an_achieved_quest() -> None:
    """[クエストについて L133], grail OQ-34: against the Wyvern (PRO 4, STR 4, END 4, valor 3)
    Sir Percival (3 permanent) ties 6 + 2 = 4 + 4: 4 + 3 = 7 >= 7, the Wyvern 5 >= 4: a draw,
    which achieves the quest (to seat 2's discard, the Tower revealed). He heals (12 - 1 = 11)
    and lives, but the attempt fails, with no quest valor lost (not a defeat)."""
    state = started(W(HERO, permanent=3), active_quest={1: RIDDLE, 2: "Q-WYVERN@2.11"})
    state = roll(quest(state, "Q-WYVERN@2.11", False), 1, 1, 1, 2, 2)
    assert combat_of(state).result == "draw"
    state = play(state, act("heal", 1, warrior=HERO), TOWER)
    assert state.quest_discard[2] == ["Q-WYVERN@2.11"] and state.active_quest[2] == TOWER
    assert state.grail is None and valor(state) == 11 and state.reward_due is None


def test_l133_healing_after_an_achievement_counts_against_the_final_valor_check() -> None:
    """[クエストについて L133, L135], G7: the Wyvern: round 1 6 + 2 = 8 against 4 + 6 = 10 (Sir
    Percival takes 4 < 7); round 2 6 + 12 = 18 against 4 + 2 = 6 (the Wyvern takes 5 >= 4):
    achieved. He heals his 4 damage: 12 - 1 = 11; the attempt goes on below 12. The Riddle and
    the Tower follow (the Wyvern comes back from seat 2's reshuffled discard): three successes
    but valor 11 < 12: no win, the attempt is over."""
    state = started(active_quest={1: RIDDLE, 2: "Q-WYVERN@2.11"})
    state = quest(state, "Q-WYVERN@2.11", False)
    state = roll(roll(state, 1, 1, 1, 3, 3), 1, 6, 6, 1, 1)
    assert combat_of(state).result == "win:0" and combat_of(state).heal_pending == [0]
    state = play(state, act("heal", 1, warrior=HERO), TOWER)
    assert valor(state) == 11 and state.grail is not None and state.grail.successes == 1
    state = quest(state, RIDDLE, True, WELL)
    state = quest(state, TOWER, True, "Q-WYVERN@2.11")
    assert state.result is None and state.grail is None and valor(state) == 11


def wounded_by_the_wyvern() -> GrailState:
    """Sir Percival (1 permanent damage) wins the Wyvern (PRO 4, STR 4, END 4): round 1, 6 + 2
    = 8 against 4 + 6 = 10, he takes 4 (4 + 1 < 7); round 2, 6 + 12 = 18 against 4 + 2 = 6,
    the Wyvern takes 5 >= 4: achieved (the Tower revealed). He does not heal at the combat's
    end: 4 damage carry on (normal damage resets only at the end of the turn)."""
    state = started(W(HERO, permanent=1), active_quest={1: RIDDLE, 2: "Q-WYVERN@2.11"})
    state = roll(roll(quest(state, "Q-WYVERN@2.11", False), 1, 1, 1, 3, 3), 1, 6, 6, 1, 1)
    assert combat_of(state).result == "win:0"
    state = play(state, act("finish_combat", 1), TOWER)
    assert warrior_of(state, HERO).damage == 4 and valor(state) == 12
    return state


def test_l133_the_knight_heals_once_after_a_quest_achieved_without_combat() -> None:
    """[クエストについて L133] (healing after each achieved quest), grail OQ-29 (after each
    achieved grail quest), digest 5.6: after the Wyvern, Sir Percival achieves the Riddle on a
    claim, with no combat. He may heal now (listed): 12 - 1 = 11, his 4 damage gone, his 1
    permanent damage kept; the attempt goes on at two successes. Once: a second heal is refused
    (nothing_to_heal) and no longer listed."""
    state = quest(wounded_by_the_wyvern(), RIDDLE, True, WELL)
    assert "heal" in legal_types(state, 1)
    state = play(state, act("heal", 1, warrior=HERO))
    knight = warrior_of(state, HERO)
    assert (knight.valor, knight.damage, knight.permanent_damage) == (11, 0, 1)
    assert state.grail is not None and state.grail.successes == 2 and state.combat is None
    refused(state, act("heal", 1, warrior=HERO), "nothing_to_heal")
    assert legal_types(state, 1) == {"attempt_quest", "abandon_grail_quest"}


def test_l133_the_heal_window_closes_when_the_attempt_goes_on() -> None:
    """[クエストについて L133] (the heal comes after the achievement, before the attempt goes
    on): Sir Percival (3 damage from a card effect earlier this turn, C3) achieves the Riddle on
    a claim and does not heal. He attempts the Wyvern: in that combat's card window the heal is
    refused (nothing_to_heal). Had he abandoned instead, there is nothing left to heal in (no
    grail attempt, no combat: no_combat)."""
    state = started(W(HERO, damage=3), active_quest={1: RIDDLE, 2: "Q-WYVERN@2.11"})
    state = quest(state, RIDDLE, True, WELL)
    assert "heal" in legal_types(state, 1)
    fighting = quest(state, "Q-WYVERN@2.11", False)
    assert combat_of(fighting).step == "cards" and "heal" not in legal_types(fighting, 1)
    refused(fighting, act("heal", 1, warrior=HERO), "nothing_to_heal")
    abandoned = play(state, act("abandon_grail_quest", 1))
    refused(abandoned, act("heal", 1, warrior=HERO), "no_combat")


def test_oq29_a_grail_knight_healing_at_valor_1_is_destroyed_and_the_attempt_ends() -> None:
    """grail OQ-29 (a knight may heal with valor 1, and is then destroyed at 0), G7: Sir
    Percival, down to valor 1 on the way (card effects), heals his 2 damage after a claimed
    quest: 1 - 1 = 0, he goes to seat 1's court discard and the attempt is over; the turn may
    end."""
    state = table(W(HERO, valor=1, damage=2, acted=True), grail_heal=HERO,
                  grail=GrailAttempt(seat=1, knight=HERO, successes=1, eligible=[GROVE, WELL]))
    state = play(state, act("heal", 1, warrior=HERO))
    assert state.court_discard[1] == [HERO] and state.warriors[1] == []
    assert state.grail is None and state.grail_heal is None
    play(state, act("end_turn", 1), "ROCK@2.90")


def test_oq26_a_quest_not_there_at_the_start_nor_revealed_by_the_attempt_is_not_eligible() -> None:
    """grail OQ-26, [クエストについて L131]: the Grove became active by card text after the start
    (eligible: the Riddle only): refused (grail_quest_not_eligible)."""
    state = table(W(HERO, acted=True),
                  grail=GrailAttempt(seat=1, knight=HERO, eligible=[RIDDLE]))
    refused(state, act("attempt_quest", 1, warrior=HERO, quest=GROVE, claim=True),
            "grail_quest_not_eligible")


def test_oq26_a_quest_revealed_again_from_the_reshuffled_discard_is_eligible() -> None:
    """grail OQ-26 (a reveal from a reshuffled deck included), OQ-5 (the card just achieved may
    come back at once): seat 1's quest deck is empty; the Riddle achieved goes to the discard,
    which is reshuffled, and the Riddle is revealed again: it is eligible."""
    state = started(quests={1: [], 2: [TOWER]})
    state = quest(state, RIDDLE, True, RIDDLE)
    assert state.active_quest[1] == RIDDLE
    assert state.grail is not None and RIDDLE in state.grail.eligible
    state = quest(state, RIDDLE, True, RIDDLE)
    assert state.grail is not None and state.grail.successes == 2


def test_g7_only_the_grail_knight_quests_and_the_turn_does_not_end_meanwhile() -> None:
    """G7 (one knight, three quests in one challenge phase): Sir Alan may not quest
    (grail_knight_only); end_turn is refused (decision_pending); only the attempt's actions are
    listed."""
    state = quest(started(W(HERO), W("KNIGHT@1.2")), RIDDLE, True, WELL)
    refused(state, act("attempt_quest", 1, warrior="KNIGHT@1.2", quest=GROVE, claim=True),
            "grail_knight_only")
    refused(state, act("end_turn", 1), "decision_pending")
    assert legal_types(state, 1) == {"attempt_quest", "abandon_grail_quest"}


def test_g7_no_other_challenge_comes_between_the_three_quests() -> None:
    """G7 ("three quests in a row"), [クエストについて L130] (3回連続で行う): between the first and
    second quest Sir Alan may not make a mortal challenge (decision_pending)."""
    state = quest(started(W(HERO), W("KNIGHT@1.2"), W("GUARD@2.3")), RIDDLE, True, WELL)
    refused(state, act("challenge_mortal", 1, challenger="KNIGHT@1.2", target="GUARD@2.3"),
            "decision_pending")


def test_oq27_abandoning_between_quests_is_a_failure_without_valor_loss() -> None:
    """grail OQ-27: after the Riddle, seat 1 abandons: the attempt is over, valor still 12; the
    turn may end. With no attempt, abandoning is refused (no_grail_quest)."""
    state = play(quest(started(), RIDDLE, True, WELL), act("abandon_grail_quest", 1))
    assert state.grail is None and valor(state) == 12
    refused(state, act("abandon_grail_quest", 1), "no_grail_quest")
    play(state, act("end_turn", 1), "ROCK@2.90")


def test_oq27_no_abandoning_in_the_middle_of_a_quest_combat() -> None:
    """grail OQ-27 (between quests): during the Wyvern's combat the combat is pending, so it is
    refused (decision_pending)."""
    state = started(active_quest={1: RIDDLE, 2: "Q-WYVERN@2.11"})
    state = quest(state, "Q-WYVERN@2.11", False)
    refused(state, act("abandon_grail_quest", 1), "decision_pending")


def test_oq22_an_overturned_quest_claim_in_a_grail_attempt_is_a_defeat() -> None:
    """grail OQ-22 (overturned non-combat quest: not achieved; in a grail attempt, a defeat),
    G7: seat 1 claims the Grove (valor 3); seat 2 disputes; the judge overturns: the attempt
    fails and Sir Percival loses 3: 12 - 3 = 9."""
    state = quest(started(), GROVE, True, TOWER)
    state = play(state, act("dispute", 2, claimant=1))
    assert RULES.to_act(state) == [1]
    state = play(state, act("rule_claim", 1, upheld=False, reason="the grove was not found"))
    assert state.grail is None and valor(state) == 9
