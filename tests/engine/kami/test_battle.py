"""Battle (各戦闘の処理: ▽ 援軍・干渉使用ステップ, ▽ ダメージ適用ステップ, ▽ 戦闘終了ステップ),
rulings K5, K6, K9 and kami Q-4, Q-5, Q-6, Q-11, Q-23, Q-25, Q-27.

Unless a test says otherwise seat 1's unit on A2:1L moves (cost 1) onto seat 2's unit on A2:2C
and attacks it; each seat has a pool of 20 with AP 10 (deck 10), so after the move seat 1 has
AP 9 and deck 11.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.kami.model import KamiState, Unit
from tests.engine.kami.helpers import (
    CARDS,
    RULES,
    U,
    act,
    adjust,
    ap_count,
    build,
    deck_count,
    legal_types,
    play,
    refused,
    rocks,
    territory_on,
    unit,
    unit_on,
)

BATTLE_CARDS: dict[str, Any] = CARDS | {
    # SOLDIER 3/3 vp 2, GUARD 1/4 vp 1, SCOUT 1/1 vp 1 (AT/DF), SHIELD reinforcement 1/2 vp 1
    # (cost 3, reinforcement cost 1), SPEAR reinforcement 2/1 vp 2 (cost 2), WARD interference
    # (cost 2), BLADE +2 AT vp 1, CURSE -1 DF vp 2: see helpers.CARDS.
    "KNIGHT": unit("Knight", at=3, df=6, vp=3),
    "HAMMER": unit("Hammer", at=6, df=10, vp=2),
    "WALL": unit("Wall", at=0, df=20, vp=0),
    "BRUTE": unit("Brute", at=5, df=5, vp=4),
}

ATTACK_FROM, HEX = "A2:1L", "A2:2C"


def battle(attacker: Unit, defender: Unit, **kw: Any) -> KamiState:
    """Seat 1's ``attacker`` moves from A2:1L onto seat 2's ``defender`` on A2:2C."""
    kw.setdefault("pool", {1: rocks(20), 2: rocks(20)})
    kw.setdefault("ap", {1: 10, 2: 10})
    state = build(BATTLE_CARDS, units={ATTACK_FROM: attacker, HEX: defender, **kw.pop("units", {})},
                  **kw)
    state = play(state, act("move_unit", 1, from_hex=ATTACK_FROM, to_hex=HEX))
    assert state.phase == "battle"
    return state


def passes(state: KamiState, *seats: int) -> KamiState:
    for seat in seats:
        state = play(state, act("pass_battle", seat))
    return state


def hex_unit(state: KamiState) -> Unit:
    placed = state.board[HEX].unit
    assert placed is not None
    return placed


# ----- ▽ 援軍・干渉使用ステップ: priority and passes ---------------------------------------------
def test_priority_starts_with_the_attacker_and_alternates() -> None:
    """▽ 援軍・干渉使用ステップ (攻撃側から交互に): seat 1 (attacker) first; seat 2 may not act
    before it; after seat 1's pass, seat 2 and only seat 2 is to act."""
    state = battle(U("SOLDIER", 1), U("GUARD", 2))
    assert RULES.to_act(state) == [1] and legal_types(state, 2) == set()
    refused(state, act("pass_battle", 2), "not_your_priority")
    state = passes(state, 1)
    assert state.battle is not None and (state.battle.priority, state.battle.passes) == (2, 1)
    assert RULES.to_act(state) == [2] and legal_types(state, 1) == set()
    refused(state, act("pass_battle", 1), "not_your_priority")


def test_two_passes_in_a_row_resolve_the_battle() -> None:
    """▽ 援軍・干渉使用ステップ (双方がパスするまで): pass, pass: the battle resolves at once and
    seat 1's action phase goes on."""
    state = passes(battle(U("SOLDIER", 1), U("SCOUT", 2)), 1, 2)
    assert state.battle is None and state.phase == "action"
    assert RULES.to_act(state) == [1]


def test_q5_a_pass_does_not_lock_a_seat_out() -> None:
    """kami Q-5: seat 1 passes, seat 2 reinforces (the passes start again), seat 1 may still
    reinforce; only pass, pass after the last card resolves. Stacks bottom to top."""
    state = battle(U("SOLDIER", 1), U("GUARD", 2), hands={1: ["SPEAR"], 2: ["SHIELD"]})
    state = passes(state, 1)
    state = play(state, act("reinforce", 2, card="SHIELD"))
    assert state.battle is not None and state.battle.passes == 0
    state = play(state, act("reinforce", 1, card="SPEAR"))
    state = passes(state, 2)
    assert state.battle is not None and state.battle.stacks == {1: ["SPEAR"], 2: ["SHIELD"]}
    state = passes(state, 1)
    assert state.battle is None


def test_one_pass_after_a_card_does_not_resolve() -> None:
    """kami Q-5 (two passes in a row): card, pass, still open; pass again, resolved."""
    state = battle(U("SOLDIER", 1), U("GUARD", 2), hands={1: ["SPEAR"]})
    state = play(state, act("reinforce", 1, card="SPEAR"))
    state = passes(state, 2)
    assert state.phase == "battle"
    state = passes(state, 1)
    assert state.phase == "action"


# ----- costs (kami Q-4) ------------------------------------------------------------------------
def test_q4_reinforcement_pays_its_reinforcement_cost_else_its_cost() -> None:
    """kami Q-4, Q-27: SHIELD pays its reinforcement cost 1, not its cost 3 (seat 1: AP 9 -> 8);
    SPEAR has none and pays its cost 2 (seat 2, in seat 1's turn: AP 10 -> 8, deck 10 -> 12)."""
    state = battle(U("SOLDIER", 1), U("GUARD", 2), hands={1: ["SHIELD"], 2: ["SPEAR"]})
    state = play(state, act("reinforce", 1, card="SHIELD"))
    assert (ap_count(state, 1), deck_count(state, 1)) == (8, 12)
    state = play(state, act("reinforce", 2, card="SPEAR"))
    assert (ap_count(state, 2), deck_count(state, 2)) == (8, 12)


def test_interference_pays_the_force_cost_and_goes_on_the_own_stack() -> None:
    """▽ 援軍・干渉使用ステップ, kami Q-25: WARD (cost 2) goes on seat 2's own stack: AP 10 -> 8."""
    state = battle(U("SOLDIER", 1), U("GUARD", 2), hands={2: ["WARD"]})
    state = passes(state, 1)
    state = play(state, act("interfere", 2, card="WARD"))
    assert state.battle is not None and state.battle.stacks == {1: [], 2: ["WARD"]}
    assert ap_count(state, 2) == 8 and state.hands[2] == []


def test_battle_cards_need_the_ability_and_the_ap() -> None:
    """▽ 援軍・干渉使用ステップ (援軍や干渉の能力を持つカード): a unit without 援軍 and a force
    without 干渉 are refused; SPEAR's cost 2 with AP 1 is refused."""
    state = battle(U("SOLDIER", 1), U("GUARD", 2), hands={1: ["SCOUT", "BOLT", "SPEAR"]},
                   pool={1: rocks(2), 2: rocks(20)}, ap={1: 2, 2: 10})
    assert ap_count(state, 1) == 1  # 2 - the move's 1
    refused(state, act("reinforce", 1, card="SCOUT"), "not_reinforcement")
    refused(state, act("interfere", 1, card="BOLT"), "not_interference")
    refused(state, act("reinforce", 1, card="SPEAR"), "insufficient_ap")
    refused(state, act("reinforce", 1, card="SHIELD"), "card_not_in_hand")


# ----- ▽ ダメージ適用ステップ: AT (K9) and allocation (K5) -------------------------------------
def test_k9_at_of_a_stack_adds_unit_options_reinforcements_and_force_modifiers() -> None:
    """K9: SOLDIER AT 3 + BLADE +2 + SPEAR 2 + SHIELD 1 + a force's +1 (a battle_at
    adjustment, C3) = 9 damage to WALL (DF 20), which keeps it (damage 9)."""
    state = battle(U("SOLDIER", 1, options=[("BLADE", 1)]), U("WALL", 2),
                   hands={1: ["SPEAR", "SHIELD", "WARD"]})
    state = play(state, act("reinforce", 1, card="SPEAR"))
    state = passes(state, 2)
    state = play(state, act("reinforce", 1, card="SHIELD"))
    state = passes(state, 2)
    state = play(state, act("interfere", 1, card="WARD"))
    state = play(state, adjust(1, counter={"name": "battle_at", "value": 1}))
    state = passes(state, 2, 1)
    assert unit_on(state, HEX) == ("WALL", 2) and hex_unit(state).damage == 9


def test_k5_damage_goes_top_down_reinforcements_up_to_their_df_forces_skipped() -> None:
    """K5, kami Q-25. Seat 2's stack, bottom to top: SHIELD (DF 2), WARD (a force), SPEAR
    (DF 1). HAMMER deals 6: SPEAR takes 1 (destroyed), WARD is skipped, SHIELD takes 2
    (destroyed), GUARD takes the other 6 - 1 - 2 = 3 (DF 4: it stands, damage 3)."""
    state = battle(U("HAMMER", 1), U("GUARD", 2), hands={2: ["SHIELD", "WARD", "SPEAR"]})
    for card, kind in (("SHIELD", "reinforce"), ("WARD", "interfere"), ("SPEAR", "reinforce")):
        state = passes(state, 1)
        state = play(state, act(kind, 2, card=card))
    assert state.battle is not None and state.battle.stacks[2] == ["SHIELD", "WARD", "SPEAR"]
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) == ("GUARD", 2) and hex_unit(state).damage == 3
    assert sorted(state.discard[2]) == ["SHIELD", "SPEAR", "WARD"]


def test_k5_the_unit_takes_the_rest_and_is_destroyed_at_its_df() -> None:
    """K5 (the unit itself last). With seat 2's SHIELD (DF 2) on top, BRUTE's 5 gives SHIELD 2
    and GUARD the other 3 < DF 4: GUARD stands with damage 3 (BRUTE takes 1 + 1 = 2 < 5, both
    stand, BRUTE is destroyed). Without SHIELD, GUARD takes all 5 >= 4 and is destroyed;
    BRUTE, hit for GUARD's 1, holds the hex."""
    state = battle(U("BRUTE", 1), U("GUARD", 2), hands={2: ["SHIELD"]})
    state = passes(state, 1)
    state = play(state, act("reinforce", 2, card="SHIELD"))
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) == ("GUARD", 2) and hex_unit(state).damage == 3
    state = passes(battle(U("BRUTE", 1), U("GUARD", 2)), 1, 2)
    assert unit_on(state, HEX) == ("BRUTE", 1) and unit_on(state, ATTACK_FROM) is None
    assert hex_unit(state).damage == 1  # GUARD's AT 1


def test_k5_earlier_damage_this_turn_counts() -> None:
    """K5, §ユニットカード (このダメージは各ターンの補充フェイズに初期化される), digest 5.3.
    First battle: SCOUT (AT 1) hits GUARD (DF 4) for 1 and is destroyed by GUARD's 1. Second
    battle, same turn: SOLDIER's 3 + the earlier 1 = 4 >= 4: GUARD is destroyed, though 3
    alone would not do it."""
    state = build(BATTLE_CARDS, pool={1: rocks(20), 2: rocks(20)}, ap={1: 10, 2: 10},
                  units={"A2:1L": U("SCOUT", 1), "A2:1R": U("SOLDIER", 1),
                         HEX: U("GUARD", 2)})
    state = play(state, act("move_unit", 1, from_hex="A2:1L", to_hex=HEX))
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) == ("GUARD", 2) and hex_unit(state).damage == 1
    state = play(state, act("move_unit", 1, from_hex="A2:1R", to_hex=HEX))
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) == ("SOLDIER", 1)
    assert state.discard[2] == ["GUARD"]


def test_k5_lasting_damage_counts_towards_df() -> None:
    """K5, C3, §基本構成細則 (damage that is not recovered): GUARD (DF 4) with lasting damage 1
    takes SOLDIER's 3: 1 + 3 = 4 >= 4, destroyed."""
    state = passes(battle(U("SOLDIER", 1), U("GUARD", 2, lasting=1)), 1, 2)
    assert unit_on(state, HEX) == ("SOLDIER", 1)


def test_k5_both_units_survive_the_attacker_is_destroyed() -> None:
    """K5 (if both units survive, the attacker is destroyed), K6: GUARD (AT 1 + BLADE 2 = 3)
    attacks WALL (DF 20) and takes 0; both stand, so the attacker is destroyed and seat 2
    gains GUARD's 1 + BLADE's 1 = 2 VP. WALL keeps 3 damage and the hex."""
    state = passes(battle(U("GUARD", 1, options=[("BLADE", 1)]), U("WALL", 2)), 1, 2)
    assert unit_on(state, HEX) == ("WALL", 2) and hex_unit(state).damage == 3
    assert unit_on(state, ATTACK_FROM) is None
    assert sorted(state.discard[1]) == ["BLADE", "GUARD"]
    assert state.vp == {1: 0, 2: 2}


def test_k5_surviving_reinforcements_are_discarded_with_no_vp() -> None:
    """K5, K6 (reinforcements discarded at the end of battle give no VP). SCOUT (AT 1) hits
    seat 2's stack: SHIELD takes 1 < DF 2 and survives, GUARD takes 0. Seat 2's AT 1 + 1 = 2
    destroys SCOUT (DF 1): seat 2 gains 1. SHIELD still goes to seat 2's discard, and seat 1
    gains nothing."""
    state = battle(U("SCOUT", 1), U("GUARD", 2), hands={2: ["SHIELD"]})
    state = passes(state, 1)
    state = play(state, act("reinforce", 2, card="SHIELD"))
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) == ("GUARD", 2) and hex_unit(state).damage == 0
    assert state.discard == {1: ["SCOUT"], 2: ["SHIELD"]}
    assert state.vp == {1: 0, 2: 1}


# ----- ▽ 戦闘終了ステップ: VP (K6, kami Q-6) and the hex (Q-23) -----------------------------------
def test_k6_destroyed_reinforcements_give_their_vp_to_the_opponent() -> None:
    """K6 (reinforcements included): HAMMER's 6 destroys seat 2's SPEAR (top, DF 1, vp 2)
    and SHIELD (DF 2, vp 1); GUARD takes 6 - 1 - 2 = 3 < DF 4 and stands. Seat 1 gains
    2 + 1 = 3. HAMMER takes 1 + 1 + 2 = 4 < 10 and stands, so K5 destroys it: seat 2 gains 2."""
    state = battle(U("HAMMER", 1), U("GUARD", 2), hands={2: ["SHIELD", "SPEAR"]})
    state = passes(state, 1)
    state = play(state, act("reinforce", 2, card="SHIELD"))
    state = passes(state, 1)
    state = play(state, act("reinforce", 2, card="SPEAR"))
    state = passes(state, 1, 2)
    assert state.vp == {1: 3, 2: 2}
    assert unit_on(state, HEX) == ("GUARD", 2)


@pytest.mark.parametrize(("option_vp_to", "vp"), [
    # default: GUARD 1 + BLADE 1 to seat 1 (opponent of their owner 2); CURSE 2 to seat 2
    ("opponent_of_option_owner", {1: 2, 2: 2}),
    # every option to the opponent of the unit's owner (seat 2): seat 1 gains 1 + 1 + 2
    ("opponent_of_unit_owner", {1: 4, 2: 0}),
])
def test_q6_options_destroyed_with_their_unit_give_vp(option_vp_to: str,
                                                      vp: dict[int, int]) -> None:
    """K6, kami Q-6, §オプションカード (付けた対象に関わらず、自分の捨札置場に送られる). GUARD
    (DF 4 - CURSE 1 = 3) carries seat 2's BLADE (vp 1) and seat 1's CURSE (vp 2); KNIGHT's 3
    destroys it (KNIGHT takes 1 + 2 = 3 < 6). Each option goes to its owner's discard."""
    state = battle(U("KNIGHT", 1), U("GUARD", 2, options=[("BLADE", 2), ("CURSE", 1)]),
                   options={"option_vp_to": option_vp_to})
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) == ("KNIGHT", 1) and hex_unit(state).damage == 3
    assert state.vp == vp
    assert state.discard == {1: ["CURSE"], 2: ["GUARD", "BLADE"]}


def test_q23_both_units_destroyed_leave_the_hex_empty() -> None:
    """kami Q-23, K6: SOLDIER (3/3) against SOLDIER (3/3): both take 3 >= 3. The hex is left
    with no unit, its territory stays, and each seat gains the other's 2 VP."""
    state = battle(U("SOLDIER", 1), U("SOLDIER", 2), territories={HEX: ("T-BLUE", 2)})
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) is None and unit_on(state, ATTACK_FROM) is None
    assert territory_on(state, HEX) == ("T-BLUE", 2)
    assert state.discard == {1: ["SOLDIER"], 2: ["SOLDIER"]}
    assert state.vp == {1: 2, 2: 2}


def test_the_winning_attacker_holds_the_hex_with_its_damage() -> None:
    """▽ 戦闘終了ステップ, digest 5.4 step 5-6: SOLDIER destroys SCOUT (3 >= 1) and takes 1:
    it now stands on A2:2C with damage 1; seat 1 gains SCOUT's 1 VP."""
    state = passes(battle(U("SOLDIER", 1), U("SCOUT", 2)), 1, 2)
    assert unit_on(state, HEX) == ("SOLDIER", 1) and hex_unit(state).damage == 1
    assert unit_on(state, ATTACK_FROM) is None
    assert state.vp == {1: 1, 2: 0}


# ----- kami Q-11: floors and damage already marked ------------------------------------------
def test_q11_at_is_floored_at_0() -> None:
    """kami Q-11: SCOUT's AT 1 with a force's -5 (battle_at, C3) deals 0, not -4: WALL's
    earlier damage 2 stays 2."""
    state = battle(U("SCOUT", 1), U("WALL", 2, damage=2))
    state = play(state, adjust(1, counter={"name": "battle_at", "value": -5}))
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) == ("WALL", 2) and hex_unit(state).damage == 2


def test_q11_nothing_is_destroyed_outside_battle() -> None:
    """kami Q-11 (outside battle nothing is destroyed automatically): GUARD (DF 4) with
    damage 3 gets seat 1's CURSE (DF 4 - 1 = 3): damage 3 >= 3, yet it stays."""
    state = build(BATTLE_CARDS, hands={1: ["CURSE"]}, pool={1: rocks(10)}, ap={1: 5},
                  units={HEX: U("GUARD", 2, damage=3)})
    state = play(state, act("equip_option", 1, card="CURSE", hex=HEX))
    assert unit_on(state, HEX) == ("GUARD", 2)


def test_q11_total_damage_at_df_destroys_in_battle_without_new_damage() -> None:
    """kami Q-11 (in battle, a card is destroyed iff its total damage, earlier damage
    included, is at least 1 and at least its effective DF). GUARD (DF 4 - CURSE 1 = 3) has 3
    damage from earlier in the turn; WALL (AT 0) attacks it and deals 0. Total 3 >= 1 and
    >= 3: GUARD is destroyed; WALL (takes 1 < 20) holds the hex. Seat 1 gains GUARD 1, seat 2
    gains CURSE 2 (Q-6)."""
    state = battle(U("WALL", 1), U("GUARD", 2, damage=3, options=[("CURSE", 1)]))
    state = passes(state, 1, 2)
    assert unit_on(state, HEX) == ("WALL", 1)
    assert state.vp == {1: 1, 2: 2}
