"""Attacks (§オペレーション(Operations)フェイズ, §各攻撃の処理, §キャラクター(Character)カード; E3,
E4, E5; edge OQ17, OQ19, OQ20): line of sight, one attack per defender per turn, the power
comparison, influence lost, attachments and closing up."""

from __future__ import annotations

from typing import Any

import pytest

from engine import SPECTATOR, MalformedAction
from engine.core.chance import NoChance
from engine.edge.model import Character
from tests.engine.edge.helpers import (
    RULES,
    C,
    act,
    adjust,
    build,
    char,
    grid,
    legal_types,
    play,
    refused,
)


def attack(attacker: str, target: str, defender: int = 2, seat: int = 1,
           **extra: Any) -> dict[str, Any]:
    return act("declare_attack", seat, attacker=attacker, defender=defender, target=target,
               **extra)


def resolve(a: int = 0, d: int = 0) -> dict[str, Any]:
    return act("resolve_combat", 1, attacker_modifier=a, target_modifier=d)


def fight(characters: list[Character], attacker: str, target: str, a: int = 0, d: int = 0,
          **fields: Any) -> Any:
    """Declare and resolve one attack of seat 1 on seat 2."""
    state = play(build(characters=characters, **fields), attack(attacker, target))
    return play(state, resolve(a, d))


# ----- E3: resolution ----------------------------------------------------------------------------
def test_e3_attack_above_defence_the_target_dies() -> None:
    """E3: Enforcer AP 4 against Fixer DP 2: 4 > 2, the Fixer goes to seat 2's dead pile and seat
    2 loses its printed pull 1 (5 - 1 = 4); the Enforcer stays, cranked."""
    state = fight([C("ENF@1.1"), C("FIX@2.1")], "ENF@1.1", "FIX@2.1", influence={2: 5})
    assert state.conspiracies[2] == [] and state.dead[2] == ["FIX@2.1"]
    assert state.influence == {1: 0, 2: 4}
    assert char(state, "ENF@1.1").state == "cranked"


def test_e3_defence_above_attack_the_attacker_dies() -> None:
    """E3: Seer AP 1 against Warden DP 5: 5 > 1, the Seer dies; seat 1 loses its pull 2."""
    state = fight([C("SEER@1.1"), C("WARD@2.1")], "SEER@1.1", "WARD@2.1", influence={1: 3})
    assert state.conspiracies[1] == [] and state.dead[1] == ["SEER@1.1"]
    assert grid(state, 2) == {"WARD@2.1": (1, 1)}
    assert state.influence == {1: 1, 2: 0}


def test_e3_a_tie_removes_both_and_influence_may_go_negative() -> None:
    """E3 (「相手のパワー値が自分の値以上」), §影響力 (「マイナス値もありうる」): Boss AP 3 against
    Enforcer DP 3: both die; seat 1 loses the Boss's pull 3 (0 - 3 = -3); the Enforcer has no
    pull (seat 2 stays 0)."""
    state = fight([C("BOSS@1.1"), C("ENF@2.1")], "BOSS@1.1", "ENF@2.1")
    assert state.dead == {1: ["BOSS@1.1"], 2: ["ENF@2.1"]}
    assert state.influence == {1: -3, 2: 0}


def test_e3_only_attackers_ap_and_targets_dp_count() -> None:
    """E3 (the attacker's DP and the target's AP play no part): Fixer AP 2 against Enforcer DP 3
    (AP 4): 3 > 2, the Fixer dies, the Enforcer stays."""
    state = fight([C("FIX@1.1"), C("ENF@2.1")], "FIX@1.1", "ENF@2.1")
    assert state.dead == {1: ["FIX@1.1"], 2: []}


def test_e3_modifiers_count() -> None:
    """E3 (power = printed value + modifiers, C3): Enforcer 4 + 2 = 6 against Warden 5: the
    Warden dies; with the Warden at 5 + 1 = 6 as well it is a tie: both die."""
    state = fight([C("ENF@1.1"), C("WARD@2.1")], "ENF@1.1", "WARD@2.1", a=2)
    assert state.dead == {1: [], 2: ["WARD@2.1"]}
    state = fight([C("ENF@1.1"), C("WARD@2.1")], "ENF@1.1", "WARD@2.1", a=2, d=1)
    assert state.dead == {1: ["ENF@1.1"], 2: ["WARD@2.1"]}


def test_e6_the_losers_conspiracy_closes_up() -> None:
    """E3, E6 (digest 5.2 step 9): seat 2's Fixer (1, 1) dies with a cranked Warden behind it at
    (2, 1): the Warden moves up to (1, 1)."""
    state = fight([C("ENF@1.1"), C("FIX@2.1", 1, 1), C("WARD@2.2", 2, 1, "cranked")],
                  "ENF@1.1", "FIX@2.1")
    assert grid(state, 2) == {"WARD@2.2": (1, 1)}


def test_oq17_attachments_follow_the_host_to_their_owners_dead_piles() -> None:
    """§ギア/§コンディション (「付けた対象が場を離れる際に一緒に破棄される」), edge OQ17: seat 2's
    Fixer carries its own Warded Coat and seat 1's Marked; it dies: Fixer and Coat go to seat
    2's dead pile, Marked to seat 1's."""
    state = fight([C("ENF@1.1"), C("FIX@2.1", attached=["COAT@2.5", "MARKED@1.6"])],
                  "ENF@1.1", "FIX@2.1")
    assert state.dead == {1: ["MARKED@1.6"], 2: ["FIX@2.1", "COAT@2.5"]}


# ----- E4: once per defender per turn ------------------------------------------------------------
def test_e4_one_attack_on_each_defender_per_turn() -> None:
    """E4: after an attack on seat 2, a second attack on seat 2 with another character is
    refused (already_attacked)."""
    state = fight([C("ENF@1.1"), C("BRUTE@1.2", 1, 2), C("WARD@2.1")], "ENF@1.1", "WARD@2.1",
                  a=2)
    refused(state, attack("BRUTE@1.2", "WARD@2.1"), "already_attacked")


def test_e4_each_other_player_may_be_attacked_once() -> None:
    """E4: with 3 players, seat 1 attacks seat 2, then seat 3, in one turn."""
    state = fight([C("ENF@1.1"), C("BRUTE@1.2", 1, 2), C("FIX@2.1"), C("FIX@3.1")], "ENF@1.1",
                  "FIX@2.1", players=3)
    state = play(state, attack("BRUTE@1.2", "FIX@3.1", defender=3))
    state = play(state, resolve())
    assert state.attacked == [2, 3] and state.dead[3] == ["FIX@3.1"]


def test_attack_another_player_still_in_the_game() -> None:
    """§各攻撃の処理: seat 1 cannot attack itself, nor an eliminated seat 3 (bad_defender)."""
    state = build(players=3, eliminated=[3], characters=[C("ENF@1.1"), C("FIX@1.2", 1, 2)])
    refused(state, attack("ENF@1.1", "FIX@1.2", defender=1), "bad_defender")
    refused(state, attack("ENF@1.1", "FIX@1.2", defender=3), "bad_defender")


# ----- E5: line of sight -----------------------------------------------------------------------
def test_e5_an_active_character_in_front_blocks_the_attacker() -> None:
    """E5: seat 1's Enforcer at (2, 1) behind an active Fixer at (1, 1): attacker_blocked."""
    state = build(characters=[C("FIX@1.2", 1, 1), C("ENF@1.1", 2, 1), C("WARD@2.1")])
    refused(state, attack("ENF@1.1", "WARD@2.1"), "attacker_blocked")


def test_e5_cranked_and_flipped_characters_and_other_files_do_not_block() -> None:
    """E5 (「屈伸・反転キャラクターや、空き地の存在は問題視されない」): the Enforcer at (3, 1)
    behind a cranked (1, 1) and a flipped (2, 1) attacks; so does a Bruiser at (2, 2) beside an
    active character in file 1 (checked on a fresh position: seat 2 is then attacked)."""
    state = build(characters=[C("FIX@1.2", 1, 1, "cranked"), C("SEER@1.3", 2, 1, "flipped"),
                              C("ENF@1.1", 3, 1), C("WARD@2.1")])
    assert play(state, attack("ENF@1.1", "WARD@2.1")).combat is not None
    state = build(characters=[C("FIX@1.2", 1, 1), C("BRUTE@1.4", 2, 2), C("WARD@2.1")])
    assert play(state, attack("BRUTE@1.4", "WARD@2.1")).combat is not None


def test_e5_the_attacker_must_be_active_and_in_the_conspiracy() -> None:
    """E5: a cranked Enforcer is refused (not_active); a flipped one is out of the conspiracy
    (not_in_conspiracy)."""
    refused(build(characters=[C("ENF@1.1", state="cranked"), C("WARD@2.1")]),
            attack("ENF@1.1", "WARD@2.1"), "not_active")
    refused(build(characters=[C("ENF@1.1", state="flipped"), C("WARD@2.1")]),
            attack("ENF@1.1", "WARD@2.1"), "not_in_conspiracy")


def test_e5_an_active_character_in_front_blocks_the_target() -> None:
    """E5: seat 2's Warden at (2, 1) behind its active Fixer at (1, 1): target_blocked."""
    state = build(characters=[C("ENF@1.1"), C("FIX@2.2", 1, 1), C("WARD@2.1", 2, 1)])
    refused(state, attack("ENF@1.1", "WARD@2.1"), "target_blocked")


def test_e5_cranked_targets_are_fair_game_and_cranked_blockers_do_not_block() -> None:
    """E5 (「屈伸キャラクターは、遮る者が無ければ…全員が対象となりうる」): seat 2's cranked Warden
    at (2, 1) behind its cranked Fixer at (1, 1) is a legal target, and is listed."""
    state = build(characters=[C("ENF@1.1"), C("FIX@2.2", 1, 1, "cranked"),
                              C("WARD@2.1", 2, 1, "cranked")])
    listed = [a for a in RULES.legal_actions(state, 1) if a.type == "declare_attack"]
    assert {a.target for a in listed} == {"FIX@2.2", "WARD@2.1"}  # type: ignore[attr-defined]
    play(state, attack("ENF@1.1", "WARD@2.1"))


def test_e5_a_flipped_character_is_no_target() -> None:
    """E5, E6 (a flipped character is out of the conspiracy for now): target_not_in_conspiracy."""
    state = build(characters=[C("ENF@1.1"), C("WARD@2.1", state="flipped")])
    refused(state, attack("ENF@1.1", "WARD@2.1"), "target_not_in_conspiracy")


def test_oq20_los_override_relaxes_only_the_targets_test() -> None:
    """edge OQ20 (バイパス): with a written los_override the Warden behind an active Fixer may be
    targeted; an attacker that is itself blocked is still refused (attacker_blocked)."""
    bypass = "Bypass: may target past active characters"
    state = build(characters=[C("ENF@1.1"), C("FIX@2.2", 1, 1), C("WARD@2.1", 2, 1)])
    assert play(state, attack("ENF@1.1", "WARD@2.1", los_override=bypass)).combat is not None
    state = build(characters=[C("FIX@1.2", 1, 1), C("ENF@1.1", 2, 1), C("FIX@2.2", 1, 1),
                              C("WARD@2.1", 2, 1)])
    refused(state, attack("ENF@1.1", "WARD@2.1", los_override=bypass), "attacker_blocked")


# ----- OQ19: two-step combat ---------------------------------------------------------------------
def test_oq19_declaring_cranks_the_attacker_and_opens_a_window() -> None:
    """edge OQ19, §各攻撃の処理: after the declaration the Enforcer is cranked, seat 2 counts as
    attacked, only resolve_combat is listed, and a placement waits (decision_pending); the
    turn player's ordinary whammy and seat 2's play-any-time whammy are accepted."""
    state = build(characters=[C("ENF@1.1"), C("WARD@2.1")],
                  hands={1: ["FIX@1.5", "JAB@1.6"], 2: ["AMBUSH@2.6"]}, character_pull=1)
    state = play(state, attack("ENF@1.1", "WARD@2.1"))
    assert char(state, "ENF@1.1").state == "cranked" and state.attacked == [2]
    assert legal_types(state, 1) == {"resolve_combat"}
    refused(state, act("place_character", 1, card="FIX@1.5", rank=1, file=2,
                       from_characters=1, from_others=0), "decision_pending")
    state = play(state, act("play_whammy", 1, card="JAB@1.6"))
    state = play(state, act("play_whammy", 2, card="AMBUSH@2.6"))
    assert state.combat is not None


def test_oq19_the_attacking_player_resolves() -> None:
    """edge OQ19: seat 2 cannot resolve seat 1's attack (not_your_turn); with no attack pending,
    resolve is refused (no_combat)."""
    state = play(build(characters=[C("ENF@1.1"), C("WARD@2.1")]), attack("ENF@1.1", "WARD@2.1"))
    refused(state, act("resolve_combat", 2), "not_your_turn")
    refused(build(), resolve(), "no_combat")


def test_oq19_a_combatant_gone_before_resolution_cancels_the_comparison() -> None:
    """edge OQ19: the Warden is removed by a judge (C3) before resolution: nobody else dies,
    the attack still counts for E4 and the Enforcer stays cranked."""
    state = play(build(characters=[C("ENF@1.1"), C("BRUTE@1.2", 1, 2), C("WARD@2.1")]),
                 attack("ENF@1.1", "WARD@2.1"))
    state = play(state, adjust(2, move={"card": "WARD@2.1", "from_zone": "conspiracy:1.1",
                                        "to_zone": "dead"}))
    state = play(state, resolve(a=10))
    assert state.combat is None and state.dead == {1: [], 2: ["WARD@2.1"]}
    assert char(state, "ENF@1.1").state == "cranked" and state.attacked == [2]
    refused(state, attack("BRUTE@1.2", "WARD@2.1"), "already_attacked")


def test_oq19_a_combatant_flipped_before_resolution_cancels_the_comparison() -> None:
    """edge OQ19: the Fixer target is flipped (state:FIX@2.1 = 2) before resolution: Enforcer 4
    against DP 2 would kill it, but nothing happens."""
    state = play(build(characters=[C("ENF@1.1"), C("FIX@2.1")]), attack("ENF@1.1", "FIX@2.1"))
    state = play(state, adjust(2, counter={"name": "state:FIX@2.1", "value": 2}))
    state = play(state, resolve())
    assert state.dead == {1: [], 2: []} and char(state, "FIX@2.1").state == "flipped"


def test_oq19_line_of_sight_is_not_checked_again() -> None:
    """edge OQ19: after the Warden (2, 1) was declared as target past seat 2's cranked Fixer
    (1, 1), a judge makes the Fixer active (state 0): the attack still resolves, Enforcer 4 + 2
    beats Warden 5."""
    state = play(build(characters=[C("ENF@1.1"), C("FIX@2.2", 1, 1, "cranked"),
                                   C("WARD@2.1", 2, 1)]), attack("ENF@1.1", "WARD@2.1"))
    state = play(state, adjust(2, counter={"name": "state:FIX@2.2", "value": 0}))
    state = play(state, resolve(a=2))
    assert state.dead[2] == ["WARD@2.1"]


# ----- C3: lasting modifiers of AP, DP and pull; an attack's modifiers with their reasons --------
def lasting(card: str, stat: str, amount: int) -> dict[str, Any]:
    """A judge's lasting modifier (C3) of a card's stat until the end of the turn."""
    return adjust(1, modifier={"card": card, "stat": stat, "amount": amount,
                               "until": "end_of_turn"})


def test_c3_a_lasting_ap_modifier_counts_in_combat() -> None:
    """E3 (power = AP + modifiers), C3: the Enforcer (AP 4) has +2 ap until the end of the
    turn: 4 + 2 = 6 against the Warden's DP 5: the Warden dies, the Enforcer stays."""
    state = play(build(characters=[C("ENF@1.1"), C("WARD@2.1")]), lasting("ENF@1.1", "ap", 2))
    state = play(play(state, attack("ENF@1.1", "WARD@2.1")), resolve())
    assert state.dead == {1: [], 2: ["WARD@2.1"]}


def test_c3_a_lasting_dp_modifier_counts_in_combat() -> None:
    """E3 (power = DP + modifiers), C3: the Fixer (DP 2) has +3 dp: the Enforcer's 4 against
    2 + 3 = 5: the Enforcer dies, the Fixer stays."""
    state = play(build(characters=[C("ENF@1.1"), C("FIX@2.1")]), lasting("FIX@2.1", "dp", 3))
    state = play(play(state, attack("ENF@1.1", "FIX@2.1")), resolve())
    assert state.dead == {1: ["ENF@1.1"], 2: []}


def test_e3_a_removed_character_costs_its_printed_pull_whatever_its_modifiers() -> None:
    """E3 (「記載プル値分の影響力を失う」: the printed pull): the Fixer (pull 1) has +2 pull; it
    dies: seat 2 loses 1 influence, not 3."""
    state = play(build(characters=[C("ENF@1.1"), C("FIX@2.1")], influence={2: 5}),
                 lasting("FIX@2.1", "pull", 2))
    state = play(play(state, attack("ENF@1.1", "FIX@2.1")), resolve())
    assert state.dead[2] == ["FIX@2.1"] and state.influence[2] == 4


def test_e3_an_attacks_modifiers_are_shown_with_their_reasons() -> None:
    """Edge digest 4 and 7 (combat modifiers are an amount and a reason, seen by everyone): the
    Enforcer +2 for a Sucker Punch, the Warden -1 for being Marked: 6 against 4; a spectator's
    transcript line gives both with their reasons."""
    state = play(build(characters=[C("ENF@1.1"), C("WARD@2.1")]), attack("ENF@1.1", "WARD@2.1"))
    action = act("resolve_combat", 1, attacker_modifier=2, attacker_reason="Sucker Punch",
                 target_modifier=-1, target_reason="Marked")
    step = RULES.step(state, action, NoChance())
    assert RULES.describe(action, [], SPECTATOR, state, step.effects) == (
        "Seat 1 resolves the attack (attacker +2: Sucker Punch; target -1: Marked). Power 6 "
        "against 4: removed Warden.")


def test_e3_a_reason_goes_with_a_modifier_and_old_records_keep_their_form() -> None:
    """Recorded matches stay valid: resolve_combat without reasons is stored as before (no new
    keys); a reason for a modifier of 0 is malformed_action."""
    assert RULES.parse_action(resolve(2)).model_dump() == {
        "seat": 1, "type": "resolve_combat", "attacker_modifier": 2, "target_modifier": 0}
    with pytest.raises(MalformedAction):
        RULES.parse_action(act("resolve_combat", 1, target_reason="Marked"))
