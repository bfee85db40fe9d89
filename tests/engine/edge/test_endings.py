"""Ways the match ends besides the influence goal and deck-out (§勝利条件, digest section 6):
concession (C4), elimination of a player in a 3+ player match (edge OQ25), and the time limit
(core turn_limit; edge OQ26)."""

from __future__ import annotations

from tests.engine.edge.helpers import (
    RULES,
    C,
    P,
    act,
    build,
    char,
    perm,
    play,
)

CONCEDE = {"type": "concede", "seat": 2}


def test_c4_concession_with_two_players_the_other_wins() -> None:
    """C4: seat 2 concedes in seat 1's turn: seat 1 wins."""
    state = play(build(), CONCEDE)
    assert state.result is not None and state.result.winners == [1]


def test_oq25_an_eliminated_players_cards_leave_the_game() -> None:
    """C4, edge OQ25: 3 players; seat 2 concedes. Its Fixer and Safehouse leave the game (not to
    any dead pile); its Warded Coat on its own Fixer goes with it; seat 2's condition Curse on
    seat 1's Enforcer leaves the game too; seat 3's condition Marked on seat 2's Fixer goes to
    seat 3's dead pile. Play goes on in seat 1's turn."""
    state = build(players=3, characters=[C("ENF@1.1", attached=["CURSE@2.7"]),
                                         C("FIX@2.1", attached=["COAT@2.5", "MARKED@3.6"])],
                  permanents=[P("SAFE@2.2")])
    state = play(state, CONCEDE)
    assert state.result is None and state.eliminated == [2] and state.active == 1
    assert state.conspiracies[2] == [] and state.permanents[2] == []
    assert char(state, "ENF@1.1").attached == []
    assert state.dead == {1: [], 2: [], 3: ["MARKED@3.6"]}


def test_oq25_a_pending_combat_against_an_eliminated_player_is_cancelled() -> None:
    """edge OQ25: seat 1 attacks seat 2's Fixer; seat 2 concedes before resolution: no combat
    is pending and seat 1 goes on (resolve is no longer listed)."""
    state = build(players=3, characters=[C("ENF@1.1"), C("FIX@2.1")])
    state = play(state, act("declare_attack", 1, attacker="ENF@1.1", defender=2,
                            target="FIX@2.1"))
    state = play(state, CONCEDE)
    assert state.combat is None and state.result is None
    assert "resolve_combat" not in {a.type for a in RULES.legal_actions(state, 1)}


def test_oq25_conceding_in_ones_own_turn_passes_the_turn_without_conversion() -> None:
    """C4, edge OQ25: 3 players, seat 2 concedes in its own turn holding 4 character pull: its
    influence stays 0, and seat 3's turn begins (its cranked Safehouse uncranks)."""
    state = build(players=3, active=2, character_pull=4, permanents=[P("SAFE@3.1", "cranked")])
    state = play(state, CONCEDE)
    assert state.influence[2] == 0 and state.character_pull == 0
    assert (state.active, state.step) == (3, "discard")
    assert perm(state, "SAFE@3.1").state == "active"


def test_c4_the_last_one_standing_after_concessions_wins() -> None:
    """C4, §勝利条件 (last player standing): 3 players; seats 2 and 3 concede: seat 1 wins."""
    state = play(build(players=3), CONCEDE)
    state = play(state, {"type": "concede", "seat": 3})
    assert state.result is not None and state.result.winners == [1]


def test_oq26_time_limit_highest_influence_wins() -> None:
    """edge OQ26 (turn_limit 3): seat 1 ends turn 3 at 5 + 2 character pull = 7 against seat 2's
    6: time is called and seat 1 wins (turn_limit)."""
    state = build(options={"turn_limit": 3}, influence={1: 5, 2: 6}, character_pull=2)
    state = play(state, act("end_turn", 1))
    assert state.result is not None
    assert (state.result.winners, state.result.reason, state.result.drawn) == \
        ([1], "turn_limit", False)


def test_oq26_time_limit_tie_is_a_draw() -> None:
    """edge OQ26: both at 6 when turn 3 ends: drawn."""
    state = play(build(options={"turn_limit": 3}, influence={1: 6, 2: 6}), act("end_turn", 1))
    assert state.result is not None and state.result.drawn and state.result.winners == []


def test_oq26_time_is_called_only_after_the_last_turn() -> None:
    """Core turn_limit: ending turn 2 of 3 starts turn 3 normally."""
    state = play(build(turn=2, options={"turn_limit": 3}), act("end_turn", 1))
    assert state.result is None and (state.turn, state.active) == (3, 2)
