"""Mortal challenges (抹殺チャレンジ L154-160; 一般戦士 L270; grail OQ-18, OQ-30): any warrior
attacks another player's warrior; a knight or king pays 2 valor; no declining."""

from __future__ import annotations

from tests.engine.grail.helpers import (
    RULES,
    W,
    act,
    build,
    combat_of,
    on_field,
    play,
    refused,
    warrior_of,
)


def test_l156_a_knight_pays_2_valor_and_the_combat_starts_at_once() -> None:
    """[抹殺チャレンジ L155-158]: Sir Alan 6 - 2 = 4; a mortal combat, Sir Alan attacking, with no
    answer awaited (no declining): both seats roll."""
    state = build(warriors=[W("KNIGHT@1.1"), W("GUARD@2.1")])
    state = play(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="GUARD@2.1"))
    assert warrior_of(state, "KNIGHT@1.1").valor == 4
    combat = combat_of(state)
    assert combat.kind == "mortal" and [s.fighter for s in combat.sides] == \
        ["KNIGHT@1.1", "GUARD@2.1"]
    assert state.honour_offer is None and RULES.to_act(state) == [1, 2]
    refused(state, act("answer_honour", 2, accept=False), "no_honour_challenge")


def test_l156_a_king_pays_2_valor() -> None:
    """[抹殺チャレンジ L156; 王 L279] (a king is a knight): King Ulf 9 - 2 = 7."""
    state = build(warriors=[W("KING-N@1.1"), W("GUARD@2.1")])
    state = play(state, act("challenge_mortal", 1, challenger="KING-N@1.1", target="GUARD@2.1"))
    assert warrior_of(state, "KING-N@1.1").valor == 7


def test_l157_a_general_warrior_pays_nothing() -> None:
    """[抹殺チャレンジ L157; 一般戦士 L270]: the Man-at-arms keeps its valor 3."""
    state = build(warriors=[W("SOLDIER@1.1"), W("KNIGHT@2.1")])
    state = play(state, act("challenge_mortal", 1, challenger="SOLDIER@1.1",
                            target="KNIGHT@2.1"))
    assert warrior_of(state, "SOLDIER@1.1").valor == 3 and combat_of(state).kind == "mortal"


def test_oq30_a_cost_to_0_destroys_the_challenger_who_never_fights() -> None:
    """grail OQ-30: Sir Alan at 2: 2 - 2 = 0: destroyed at once; no combat."""
    state = build(warriors=[W("KNIGHT@1.1", valor=2), W("GUARD@2.1")])
    state = play(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="GUARD@2.1"))
    assert state.combat is None and not on_field(state, "KNIGHT@1.1")
    assert warrior_of(state, "GUARD@2.1").valor == 4


def test_l155_the_target_is_another_players_warrior() -> None:
    """[抹殺チャレンジ L155] (他のプレイヤーの戦士): one's own warrior is refused (own_target); a
    card not on the field is refused (not_on_field); a warrior that acted may not challenge
    (already_acted)."""
    state = build(warriors=[W("KNIGHT@1.1"), W("SOLDIER@1.2", acted=True), W("GUARD@2.1")])
    refused(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="SOLDIER@1.2"),
            "own_target")
    refused(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="GUARD@2.9"),
            "not_on_field")
    refused(state, act("challenge_mortal", 1, challenger="SOLDIER@1.2", target="GUARD@2.1"),
            "already_acted")


def test_oq18_no_champion_in_a_mortal_combat() -> None:
    """grail OQ-18 (never a champion in mortal combat; 王 L285 speaks of duels): King Ulf,
    attacked with a Man-at-arms beside him, defends himself: no answer is awaited and the
    defending side is the king, fighting for no one."""
    state = build(warriors=[W("KNIGHT@1.1"), W("KING-N@2.1"), W("SOLDIER@2.2")])
    state = play(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="KING-N@2.1"))
    side = combat_of(state).sides[1]
    assert (side.fighter, side.for_king) == ("KING-N@2.1", None)
    assert state.honour_offer is None
