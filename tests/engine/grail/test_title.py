"""Title challenges (タイトルチャレンジ L175-181; 基本構成細則 L53-59; G6; grail OQ-35): started by
a deployment, a formal combat in which both defend, no surrender; the loser discarded (both on
a draw), the winner's damage reset, no valor change.

Seat 2 has Sir Alan (PRO 5, STR 4, END 6; valor 7, with a Woodman's Axe); seat 1 deploys its
own Sir Alan (valor 6). Side 0 is seat 2's (already there), side 1 seat 1's newcomer."""

from __future__ import annotations

from engine.grail.model import GrailState
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


def title() -> GrailState:
    state = build(phase="deployment", hands={1: ["KNIGHT@1.1", "SOLDIER@1.4", "FEINT@1.7"],
                                             2: ["FEINT@2.7"]},
                  warriors=[W("KNIGHT@2.1", valor=7, attached=["AXE@2.5"])])
    return play(state, act("deploy_warrior", 1, card="KNIGHT@1.1"))


def first_round_tie(state: GrailState) -> GrailState:
    """5 + 6 = 5 + 6: both hit, 4 damage each (4 < 6)."""
    return roll(state, 1, 3, 3, 3, 3)


def test_l180_the_loser_is_discarded_and_the_winners_damage_reset_with_no_valor_change() -> None:
    """[タイトルチャレンジ L180-181], grail OQ-35: round 1 a tie (4 each); round 2 5 + 2 = 7
    against 5 + 12 = 17: seat 1's Sir Alan hits, seat 2's reaches 8 >= 6 and loses. No heal is
    offered (formal); finished, seat 2's Sir Alan and his axe go to seat 2's court discard; the
    winner's 4 damage goes to 0 and his valor stays 6; deployment goes on."""
    state = roll(first_round_tie(title()), 2, 1, 1, 6, 6)
    combat = combat_of(state)
    assert (combat.result, combat.heal_pending) == ("win:1", [])
    refused(state, act("heal", 1, warrior="KNIGHT@1.1"), "nothing_to_heal")
    state = play(state, act("finish_combat", 2))
    assert state.combat is None and not on_field(state, "KNIGHT@2.1")
    assert state.court_discard[2] == ["KNIGHT@2.1", "AXE@2.5"]
    winner = warrior_of(state, "KNIGHT@1.1")
    assert (winner.damage, winner.valor) == (0, 6)
    state = play(state, act("deploy_warrior", 1, card="SOLDIER@1.4"))
    assert state.phase == "deployment" and on_field(state, "SOLDIER@1.4")


def test_l180_a_draw_discards_both() -> None:
    """[タイトルチャレンジ L180] (引き分けはどちらも敗北): two ties: 4 + 4 = 8 >= 6 for both: both
    are discarded."""
    state = roll(first_round_tie(title()), 1, 3, 3, 3, 3)
    assert combat_of(state).result == "draw"
    state = play(state, act("finish_combat", 1))
    assert state.warriors == {1: [], 2: []}
    assert state.court_discard == {1: ["KNIGHT@1.1"], 2: ["KNIGHT@2.1", "AXE@2.5"]}


def test_l179_there_is_no_surrender_in_a_title_challenge() -> None:
    """[タイトルチャレンジ L179; 交戦処理 L206]: after a round neither seat may ask to surrender
    (no_surrender_in_title), nor is it listed."""
    state = first_round_tie(title())
    for seat in (1, 2):
        refused(state, act("request_surrender", seat), "no_surrender_in_title")
        assert "request_surrender" not in legal_types(state, seat)


def test_l178_both_sides_defend_and_play_combat_actions() -> None:
    """[タイトルチャレンジ L178], grail OQ-35 (both cards roll and play combat actions): both seats
    are to act; each plays its Feint, which goes to its court discard."""
    state = title()
    assert RULES.to_act(state) == [1, 2]
    state = play(state, act("play_combat_action", 2, card="FEINT@2.7"))
    state = play(state, act("play_combat_action", 1, card="FEINT@1.7"))
    assert state.court_discard == {1: ["FEINT@1.7"], 2: ["FEINT@2.7"]}


def test_l176_play_waits_for_the_title_challenge() -> None:
    """[タイトルチャレンジ L176] (at once): while it is fought seat 1 deploys nothing more
    (decision_pending)."""
    refused(title(), act("deploy_warrior", 1, card="SOLDIER@1.4"), "decision_pending")


def test_oq17_the_title_champion_option_exists_and_is_off_by_default() -> None:
    """grail OQ-17 (Option: yes, title_champion: off|on, default off), X1 (a proposed option
    exists with its default): the option is recorded off by default and accepts on. (Off: the
    two same-name cards fight each other, as every test above shows.)"""
    assert RULES.parse_options({}).recorded()["title_champion"] == "off"
    assert RULES.parse_options({"title_champion": "on"}).recorded()["title_champion"] == "on"


def test_oq17_with_title_champion_on_a_king_names_a_champion_and_bears_the_result() -> None:
    """grail OQ-17 (``title_champion: on``), [王 L285-287]: seat 2's King Wulf of Sunholt meets
    seat 1's newly deployed King Hal of Sunholt (same domain). Seat 2 first names its Gate Guard
    (PRO 4, STR 2, END 10); seat 1 names none. Round: King Hal 5 + 12 = 17 against the Guard
    4 + 2 = 6: the Guard takes 4 - 0 = 4 (< 10). Round 2: Hal 5 + 12 = 17 against 4 + 2 = 6
    again, 8; round 3: 12 >= 10, the Guard's side loses: King Wulf (not the Guard) is
    discarded, and the Guard stands with its damage reset."""
    state = build(phase="deployment", hands={1: ["KING-S@1.1"]},
                  warriors=[W("KING-W@2.1"), W("GUARD@2.2")],
                  options={"title_champion": "on"})
    state = play(state, act("deploy_warrior", 1, card="KING-S@1.1"))
    assert combat_of(state).step == "champions" and RULES.to_act(state) == [1, 2]
    refused(state, act("roll_round", 1), "decision_pending")
    state = play(state, act("name_champion", 2, champion="GUARD@2.2"))
    state = play(state, act("name_champion", 1))
    assert combat_of(state).step == "cards"
    for _ in range(3):
        state = roll(state, 1, 1, 1, 6, 6)
    assert combat_of(state).result == "win:1"
    state = play(state, act("finish_combat", 1))
    assert not on_field(state, "KING-W@2.1") and on_field(state, "GUARD@2.2")
    assert warrior_of(state, "GUARD@2.2").damage == 0


def test_oq17_off_by_default_no_champion_is_asked() -> None:
    """grail OQ-17 default ``off``: the two kings fight each other at once."""
    state = build(phase="deployment", hands={1: ["KING-S@1.1"]},
                  warriors=[W("KING-W@2.1"), W("GUARD@2.2")])
    state = play(state, act("deploy_warrior", 1, card="KING-S@1.1"))
    assert combat_of(state).step == "cards"
    refused(state, act("name_champion", 2, champion="GUARD@2.2"), "no_champion")
