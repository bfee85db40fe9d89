"""The refill and judgment phases and every way the game ends (○ 補充フェイズ, ○ 判定フェイズ,
§勝利条件; K2, C4, kami Q-1, Q-2, Q-3, Q-19, Q-22, Q-31)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.chance import SuppliedChance
from engine.kami.model import Declaration, KamiState
from tests.engine.kami.helpers import (
    RULES,
    U,
    act,
    adjust,
    ap_count,
    build,
    deck_count,
    legal_types,
    play,
    play_with,
    refused,
    rocks,
)


def judgment(**kw: Any) -> KamiState:
    """Seat 1's judgment phase; seat 2 has a pool of 10 for its refill."""
    kw.setdefault("pool", {1: rocks(10), 2: rocks(10)})
    return build(phase="judgment", **kw)


# ----- ○ 補充フェイズ --------------------------------------------------------------------------
def test_refill_recovers_normal_damage_of_every_unit_but_not_lasting_damage() -> None:
    """§補充フェイズ (それぞれの場のユニットすべてが…ダメージをすべて回復する), §基本構成細則,
    C3: both seats' units lose their normal damage; lasting damage stays. (Seat 1's one unit
    at home draws one card.)"""
    state = build(pool={1: ["SCOUT"]},
                  units={"A1:2C": U("GUARD", 1, damage=2, lasting=1),
                         "A2:2C": U("GUARD", 2, damage=3)})
    state = play_with(state, act("end_action_phase", 1), "SCOUT")
    ours, theirs = state.board["A1:2C"].unit, state.board["A2:2C"].unit
    assert ours is not None and (ours.damage, ours.lasting_damage) == (0, 1)
    assert theirs is not None and theirs.damage == 0


@pytest.mark.parametrize(("refill_vp", "vp"), [
    ("both", {1: 1 + 2 * 2, 2: 3 + 2 * 1}),  # each seat scores its own invaders: 5, 5
    ("active", {1: 1 + 2 * 2, 2: 3}),  # only seat 1, the active seat: 5, 3
])
def test_q1_invader_vp_to_both_seats_or_only_the_active_one(refill_vp: str,
                                                           vp: dict[int, int]) -> None:
    """§補充フェイズ (それぞれ敵軍エリアにいる自軍ユニット1体に付き、VPを2ポイントずつ), kami
    Q-1: seat 1 has 2 units in A2, seat 2 has 1 in A1. By default (both) each seat gains 2 per
    invader; with refill_vp: active only seat 1 does."""
    state = build(units={"A2:1L": U("SCOUT", 1), "A2:3R": U("GUARD", 1),
                         "A1:1R": U("SCOUT", 2)},
                  vp={1: 1, 2: 3}, options={"refill_vp": refill_vp})
    state = play(state, act("end_action_phase", 1))
    assert state.vp == vp
    assert state.phase == "judgment"


def test_refill_draws_one_card_per_own_unit_at_home() -> None:
    """§補充フェイズ (自軍エリアにいる自軍ユニットの数だけ…引き手札に加える): seat 1 has three
    units in A1 and one in A2, so it draws 3 (deck 5 -> 2); seat 2's unit at home draws it
    nothing in seat 1's turn."""
    state = build(pool={1: ["SCOUT", "GUARD", "BOLT", "ROCK", "ROCK"], 2: rocks(3)},
                  units={"A1:1L": U("SCOUT", 1), "A1:2C": U("SCOUT", 1),
                         "A1:3R": U("SCOUT", 1), "A2:2C": U("GUARD", 1),
                         "A2:3L": U("GUARD", 2)})
    state = play_with(state, act("end_action_phase", 1), "BOLT", "GUARD", "SCOUT")
    assert state.hands == {1: ["BOLT", "GUARD", "SCOUT"], 2: []}
    assert (deck_count(state, 1), deck_count(state, 2)) == (2, 3)


def test_hand_limit_discard_exactly_the_excess() -> None:
    """§補充フェイズ, §ゲーム開始時基本設定 (上限も5枚(自ターン終了時に調整有り)): 5 in hand + 2
    drawn = 7 > 5: the hand-limit step opens; discarding 1 or 3 is refused, 2 is right and
    they go face up to the discard pile; then the judgment phase."""
    hand = ["BOLT", "WARD", "SCOUT", "GUARD", "BLADE"]
    state = build(hands={1: hand}, pool={1: ["ROCK", "SOLDIER"]},
                  units={"A1:1L": U("SCOUT", 1), "A1:1R": U("SCOUT", 1)})
    state = play_with(state, act("end_action_phase", 1), "ROCK", "SOLDIER")
    assert state.phase == "hand_limit" and len(state.hands[1]) == 7
    assert legal_types(state, 1) == {"discard_to_limit"}
    refused(state, act("discard_to_limit", 1, cards=["ROCK"]), "wrong_discard_count")
    refused(state, act("discard_to_limit", 1, cards=["ROCK", "BOLT", "WARD"]),
            "wrong_discard_count")
    refused(state, act("discard_to_limit", 1, cards=["ROCK", "CURSE"]), "card_not_in_hand")
    state = play(state, act("discard_to_limit", 1, cards=["ROCK", "BOLT"]))
    assert state.phase == "judgment"
    assert sorted(state.hands[1]) == ["BLADE", "GUARD", "SCOUT", "SOLDIER", "WARD"]
    assert state.discard[1] == ["ROCK", "BOLT"]


def test_hand_at_the_limit_goes_straight_to_judgment() -> None:
    """§補充フェイズ: 5 cards (the limit) need no discard; a discard is then refused."""
    state = build(hands={1: rocks(5)})
    state = play(state, act("end_action_phase", 1))
    assert state.phase == "judgment"
    refused(state, act("discard_to_limit", 1, cards=["ROCK"]), "wrong_phase")


def test_q22_only_the_active_seats_hand_limit_is_checked() -> None:
    """kami Q-22: seat 2 holds 8 cards in seat 1's turn; seat 1's refill needs no discard."""
    state = build(hands={1: rocks(2), 2: rocks(8)})
    state = play(state, act("end_action_phase", 1))
    assert state.phase == "judgment" and len(state.hands[2]) == 8


def test_q22_an_adjusted_hand_limit_is_used() -> None:
    """kami Q-22 (card texts change it through adjust): limit 3 and a hand of 5: discard 2."""
    state = build(hands={1: rocks(5)})
    state = play(state, adjust(1, counter={"name": "hand_limit", "value": 3}))
    state = play(state, act("end_action_phase", 1))
    assert state.phase == "hand_limit"
    refused(state, act("discard_to_limit", 1, cards=["ROCK"]), "wrong_discard_count")
    state = play(state, act("discard_to_limit", 1, cards=["ROCK", "ROCK"]))
    assert len(state.hands[1]) == 3


# ----- ○ 判定フェイズ: the end of the turn ------------------------------------------------------
def test_end_turn_passes_the_turn_and_the_next_seat_refills() -> None:
    """§判定フェイズ (ターンの終了を宣言する), §全体の基本進行, K4: turn 3 -> 4, seat 2 active
    in its action phase with AP 0 + 5 (deck 10 -> 5)."""
    state = play(judgment(), act("end_turn", 1))
    assert (state.turn, state.active, state.phase) == (4, 2, "action")
    assert (ap_count(state, 2), deck_count(state, 2)) == (5, 5)


def test_end_turn_only_in_the_judgment_phase_by_the_active_seat() -> None:
    """§判定フェイズ: ending the turn from the action phase (Q-31: end the action phase
    first) or by the other seat is refused."""
    refused(build(), act("end_turn", 1), "wrong_phase")
    refused(judgment(), act("end_turn", 2), "wrong_phase")


# ----- §勝利条件, K2: declarations ----------------------------------------------------------------
def through_seat_2s_turn(state: KamiState) -> KamiState:
    """Seat 1 ends its turn; seat 2 ends its action phase (no units: no draw) and its turn."""
    state = play(state, act("end_turn", 1))
    assert state.result is None  # K2: not tested at the declarer's own end of turn
    state = play(state, act("end_action_phase", 2))
    return play(state, act("end_turn", 2))


def test_k2_a_declaration_that_holds_wins() -> None:
    """K2, §勝利条件: seat 1 declares with 10 VP against 5; at the end of seat 2's next turn it
    still has 10 >= 10 and 10 > 5: seat 1 wins."""
    state = play(judgment(vp={1: 10, 2: 5}), act("declare_victory", 1))
    assert state.declaration == Declaration(seat=1, turn=3)
    state = through_seat_2s_turn(state)
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason) == (
        [1], [2], "victory_held")
    refused(state, act("end_action_phase", 1), "match_over")


def test_k2_a_tie_breaks_the_declaration() -> None:
    """K2 (more VP than the opponent): seat 1 declares at 10 against 8; seat 2's invader in A1
    scores 2 in seat 2's refill phase (8 + 2 = 10): 10 is not more than 10, the declaration is
    broken and seat 2 wins."""
    state = play(judgment(vp={1: 10, 2: 8}, units={"A1:2C": U("SCOUT", 2)}),
                 act("declare_victory", 1))
    state = through_seat_2s_turn(state)
    assert state.vp == {1: 10, 2: 10}
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([2], "victory_broken")


def test_k2_a_declarer_below_10_at_the_test_loses() -> None:
    """K2 (VP >= 10): a judge sets seat 1's VP to 9 (C3) before the test: broken, seat 2
    wins though it has fewer VP (9 against 5)."""
    state = play(judgment(vp={1: 11, 2: 5}), act("declare_victory", 1))
    state = play(state, adjust(1, counter={"name": "vp", "value": 9}))
    state = through_seat_2s_turn(state)
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([2], "victory_broken")


@pytest.mark.parametrize("vp", [{1: 9, 2: 0}, {1: 10, 2: 10}, {1: 10, 2: 11}])
def test_q2_declaring_needs_the_conditions(vp: dict[int, int]) -> None:
    """kami Q-2 (declaration_requires_condition: on, the default): 9 VP, or 10 not more than
    the opponent's, is refused, and the declaration is not listed."""
    state = judgment(vp=vp)
    refused(state, act("declare_victory", 1), "victory_conditions_not_met")
    assert legal_types(state, 1) == {"end_turn"}


def test_q2_with_the_option_off_anyone_may_declare_and_it_is_tested() -> None:
    """kami Q-2 (declaration_requires_condition: off): seat 1 declares at 4 VP; at the test it
    still has 4 < 10: broken, seat 2 wins."""
    state = judgment(vp={1: 4, 2: 1}, options={"declaration_requires_condition": "off"})
    state = play(state, act("declare_victory", 1))
    state = through_seat_2s_turn(state)
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([2], "victory_broken")


def test_q3_no_declaration_while_the_opponents_is_pending() -> None:
    """kami Q-3: seat 1's declaration is pending in seat 2's turn; seat 2, with 12 VP against
    10, may not declare (declaration_pending); seat 1 may not declare twice."""
    state = play(judgment(vp={1: 10, 2: 5}), act("declare_victory", 1))
    refused(state, act("declare_victory", 1), "already_declared")
    state = play(state, act("end_turn", 1))
    state = play(state, act("end_action_phase", 2))
    state = play(state, adjust(2, counter={"name": "vp", "value": 12}))
    refused(state, act("declare_victory", 2), "declaration_pending")


def test_declarations_only_in_ones_own_judgment_phase() -> None:
    """§判定フェイズ: not in the action phase, not by the other seat."""
    refused(build(vp={1: 12}), act("declare_victory", 1), "wrong_phase")
    refused(judgment(vp={2: 12}), act("declare_victory", 2), "wrong_phase")
    refused(build(), act("declare_defeat", 1), "wrong_phase")


def test_declare_defeat_ends_the_game_at_once() -> None:
    """§判定フェイズ 敗北宣言 (そのままゲームが終了する), §勝利条件: seat 1 declares defeat, with
    more VP even; seat 2 wins."""
    state = play(judgment(vp={1: 8, 2: 2}), act("declare_defeat", 1))
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason) == (
        [2], [1], "defeat_declared")


def test_c4_either_seat_may_concede_at_any_time() -> None:
    """C4: seat 2 concedes in seat 1's action phase; seat 1 wins. (The reason code is the
    kernel's, shared by every game: ``concession``.)"""
    state = play(build(), act("concede", 2))
    assert state.result is not None
    assert (state.result.winners, state.result.losers) == ([1], [2])
    assert state.result.reason == "concession"


# ----- kami Q-19: turn_limit ------------------------------------------------------------------
@pytest.mark.parametrize(("vp", "winners", "drawn"), [
    ({1: 3, 2: 7}, [2], False),  # 7 > 3
    ({1: 6, 2: 6}, [], True),  # equal VP: a draw
])
def test_q19_turn_limit_highest_vp_wins(vp: dict[int, int], winners: list[int],
                                        drawn: bool) -> None:
    """kami Q-19, digest section 6 (time called): at the end of turn 4 of 4, more VP wins and
    equal VP is a draw."""
    state = judgment(turn=4, vp=vp, options={"turn_limit": 4})
    state = play(state, act("end_turn", 1))
    assert state.result is not None
    assert (state.result.winners, state.result.drawn, state.result.reason) == (
        winners, drawn, "turn_limit")


def test_q19_a_declaration_tested_at_the_limit_decides() -> None:
    """kami Q-19 (if the limit turn's end_turn is also the declaration test, the test decides):
    seat 1 declared (option off) at 9 VP against 5; at the end of turn 4 of 4, 9 < 10 breaks it
    and seat 2 wins, though time would have given it to seat 1 (9 > 5)."""
    state = build(phase="judgment", active=2, turn=4, vp={1: 9, 2: 5},
                  options={"turn_limit": 4, "declaration_requires_condition": "off"})
    state.declaration = Declaration(seat=1, turn=3)
    state = play(state, act("end_turn", 2))
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([2], "victory_broken")


def test_q19_play_goes_on_before_the_limit() -> None:
    """kami Q-19: at the end of turn 3 of 4 the next turn simply begins."""
    state = play(judgment(turn=3, options={"turn_limit": 4}), act("end_turn", 1))
    assert state.result is None and (state.turn, state.active) == (4, 2)


def test_no_chance_for_an_end_turn_without_draws() -> None:
    """C1: ending the turn asks for no outcome (the refill moves counts only, Q-15)."""
    chance = SuppliedChance([])
    state = play(judgment(), act("end_turn", 1), chance)
    chance.finish()
    assert chance.stored() == [] and RULES.to_act(state) == [2]


# ----- §戦利品ルールについて, §1ゲーム終了時の処理: spoils ---------------------------
def test_spoils_value_is_the_vp_difference_when_the_winner_leads() -> None:
    """§戦利品ルールについて, digest section 6 (spoils: on): seat 1's declaration holds at 12
    against 5: the spoils' value is 12 - 5 = 7."""
    state = play(judgment(vp={1: 12, 2: 5}, options={"spoils": "on"}), act("declare_victory", 1))
    state = through_seat_2s_turn(state)
    assert state.result is not None and state.result.winners == [1]
    assert "spoils value 7" in state.result.detail


def test_spoils_value_is_1_when_the_winner_does_not_lead() -> None:
    """§戦利品ルールについて (otherwise 1): seat 1 declares defeat with 8 VP against 2; seat 2
    wins with fewer VP, and the spoils' value is 1."""
    state = play(judgment(vp={1: 8, 2: 2}, options={"spoils": "on"}), act("declare_defeat", 1))
    assert state.result is not None and state.result.winners == [2]
    assert "spoils value 1" in state.result.detail


def test_spoils_value_is_reported_for_a_concession() -> None:
    """Kami digest 6 "Spoils" (every ending but a draw; §1ゲーム終了時の処理 excludes only draws):
    with spoils on, seat 2 (3 VP) concedes to seat 1 (8 VP): the spoils' value is 8 - 3 = 5."""
    state = play(judgment(vp={1: 8, 2: 3}, options={"spoils": "on"}), act("concede", 2))
    assert state.result is not None and state.result.reason == "concession"
    assert state.result.winners == [1] and state.result.detail.endswith("; spoils value 5")


def test_spoils_value_is_reported_for_a_turn_limit_win_but_not_a_draw() -> None:
    """Kami digest 6 "Spoils" (none on a draw), kami Q-19: with spoils on and turn_limit 3,
    time is called at seat 1's end of turn 3. Seat 2 leading 9 to 4 wins with spoils value 5;
    at 6 VP each it is a draw, and no spoils are reported."""
    options = {"spoils": "on", "turn_limit": 3}
    state = play(judgment(turn=3, vp={1: 4, 2: 9}, options=options), act("end_turn", 1))
    assert state.result is not None and state.result.reason == "turn_limit"
    assert state.result.winners == [2] and state.result.detail.endswith("; spoils value 5")
    state = play(judgment(turn=3, vp={1: 6, 2: 6}, options=options), act("end_turn", 1))
    assert state.result is not None and state.result.drawn
    assert "spoils" not in state.result.detail


def test_spoils_off_by_default() -> None:
    """§戦利品ルールについて (採用するかどうかは開始時に決めておくこと): off unless chosen."""
    state = play(judgment(vp={1: 8, 2: 2}), act("declare_defeat", 1))
    assert state.result is not None and "spoils" not in state.result.detail
