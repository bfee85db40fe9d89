"""Deck-out and elimination with 3 or more players (C2, C4; 勝利条件 L21; 基本構成細則 L47-48;
grail OQ-2, OQ-3, OQ-37)."""

from __future__ import annotations

from tests.engine.grail.helpers import (
    W,
    act,
    build,
    on_field,
    play,
    warrior_of,
)


def test_oq3_eliminate_a_deck_out_with_3_players_eliminates_and_play_goes_on() -> None:
    """C2, grail OQ-3 (deck_out_multiplayer: eliminate, the default), OQ-37: seat 2 must draw
    from an empty court deck: it is eliminated, its warrior and active quest leave; seat 3's
    turn begins and it draws."""
    state = build(players=3, court={2: []}, warriors=[W("KING-N@2.1")],
                  active_quest={2: "Q-RIDDLE@2.5"})
    state = play(state, act("end_turn", 1), "ROCK@3.90")
    assert state.result is None and state.eliminated == [2]
    assert not on_field(state, "KING-N@2.1") and state.active_quest[2] is None
    assert (state.active, state.hands[3]) == (3, ["ROCK@3.90"])


def test_oq3_others_win_a_deck_out_ends_the_match_for_everyone() -> None:
    """grail OQ-3 (deck_out_multiplayer: others_win): seat 2 decks out: seats 1 and 3 win,
    reason deck_out."""
    state = build(players=3, court={2: []}, options={"deck_out_multiplayer": "others_win"})
    state = play(state, act("end_turn", 1))
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason) == \
        ([1, 3], [2], "deck_out")


def test_oq3_the_last_player_left_wins() -> None:
    """grail OQ-3 (the last player left wins): seat 3 is already out; seat 2 decks out: seat 1
    wins."""
    state = build(players=3, court={2: []}, eliminated=[3])
    state = play(state, act("end_turn", 1))
    assert state.result is not None and state.result.winners == [1]


def test_oq37_an_eliminated_players_combat_ends_with_no_result() -> None:
    """C4, grail OQ-37: in 3 players seat 2 concedes during seat 1's mortal challenge: the
    combat ends with no result; Sir Alan's action and his 2 valor stay spent (6 - 2 = 4); seat 2
    is out, its Guard gone; seat 1 plays on."""
    state = build(players=3, warriors=[W("KNIGHT@1.1"), W("GUARD@2.1")])
    state = play(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="GUARD@2.1"))
    state = play(state, {"type": "concede", "seat": 2})
    assert state.combat is None and state.eliminated == [2] and state.result is None
    knight = warrior_of(state, "KNIGHT@1.1")
    assert (knight.valor, knight.acted) == (4, True) and not on_field(state, "GUARD@2.1")
    play(state, act("end_turn", 1), "ROCK@3.90")


def test_oq37_an_active_player_conceding_voids_its_grail_attempt_and_the_turn_passes() -> None:
    """C4, grail OQ-37, OQ-2: seat 1 concedes during its grail attempt: the attempt is void and
    seat 2's turn begins with its draw."""
    state = build(players=3, warriors=[W("HERO@1.1")], active_quest={2: "Q-RIDDLE@2.5"})
    state = play(state, act("start_grail_quest", 1, knight="HERO@1.1"))
    state = play(state, {"type": "concede", "seat": 1}, "ROCK@2.90")
    assert state.grail is None and state.eliminated == [1]
    assert (state.active, state.hands[2]) == (2, ["ROCK@2.90"])
