"""Setup: deck construction (C5; §事前準備 › デッキ), the opening (§開始準備, §ゲーム開始時基本設定:
10 cards, influence 0) and the first player (edge OQ7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import MatchConfig, SetupError
from engine.core.chance import SuppliedChance
from engine.edge.model import EdgeState
from tests.engine.edge.helpers import CARDS, RULES
from tests.support import RandomChance, sample_config


def config(decks: list[dict[str, int]], **options: Any) -> MatchConfig:
    return MatchConfig(players=[f"P{i}" for i in range(1, len(decks) + 1)], decks=decks,
                       cards=CARDS, options=RULES.new_match_options(options))


def opening(seat: int, start: int = 1) -> list[str]:
    """Ten draws of ``seat``: FILL@seat.start .. start+9 (instances are numbered in card-id
    order from 1)."""
    return [f"FILL@{seat}.{n}" for n in range(start, start + 10)]


def refused_setup(reason: str, decks: list[dict[str, int]], **options: Any) -> SetupError:
    with pytest.raises(SetupError) as info:
        RULES.setup(config(decks, **options), SuppliedChance([]))
    assert info.value.reason == reason, info.value.message
    return info.value


# ----- C5: deck construction ----------------------------------------------------------------
def test_c5_a_deck_of_39_is_refused() -> None:
    """C5, §事前準備 › デッキ (「デッキ枚数: 40枚以上」): seat 2's 39 cards are refused as
    deck_under_minimum, naming the seat."""
    error = refused_setup("deck_under_minimum", [{"FILL": 40}, {"FILL": 39}], first_player=1)
    assert error.details == {"seat": 2}


def test_c5_forty_cards_and_no_copy_limit() -> None:
    """C5, §事前準備 › デッキ (「構築条件: 特になし」): 40 copies of one card, and 60, are legal
    (no maximum, no copy limit): 40 - 10 = 30 and 60 - 10 = 50 stay in the decks."""
    chance = SuppliedChance([*opening(1), *opening(2)])
    state = RULES.setup(config([{"FILL": 40}, {"FILL": 60}], first_player=1), chance)
    chance.finish()
    assert isinstance(state, EdgeState)
    assert {s: len(state.decks[s]) for s in (1, 2)} == {1: 30, 2: 50}


def test_c5_deck_check_off_accepts_a_short_deck() -> None:
    """C5 (deck_check: off): two 12-card decks are set up (12 - 10 = 2 left each)."""
    chance = SuppliedChance([*opening(1), *opening(2)])
    state = RULES.setup(config([{"FILL": 12}, {"FILL": 12}], first_player=1, deck_check="off"),
                        chance)
    chance.finish()
    assert isinstance(state, EdgeState)
    assert state.decks == {1: ["FILL@1.11", "FILL@1.12"], 2: ["FILL@2.11", "FILL@2.12"]}


def test_c5_the_sample_decks_are_legal() -> None:
    """C5: the shipped sample decks pass the deck check."""
    state = RULES.setup(sample_config(RULES, 2), RandomChance(random.Random(5)))
    assert isinstance(state, EdgeState)


# ----- §開始準備, §ゲーム開始時基本設定 ---------------------------------------------------------
def test_setup_ten_cards_each_influence_0_and_an_empty_table() -> None:
    """§開始準備 (shuffle, draw 10), §ゲーム開始時基本設定 (開始手札 10枚, influence 0): each seat
    holds exactly its ten drawn cards, 40 - 10 = 30 in each deck; conspiracies, fields, dead
    piles and the reserve are empty; the first player's turn 1 is at its discard step (the draw
    is an action: nothing is drawn for the turn yet)."""
    chance = SuppliedChance([*opening(1), *opening(2)])
    state = RULES.setup(config([{"FILL": 40}, {"FILL": 40}], first_player=1), chance)
    chance.finish()
    assert isinstance(state, EdgeState)
    assert state.hands == {1: opening(1), 2: opening(2)}
    assert {s: len(state.decks[s]) for s in (1, 2)} == {1: 30, 2: 30}
    assert state.influence == {1: 0, 2: 0}
    assert state.conspiracies == {1: [], 2: []} and state.permanents == {1: [], 2: []}
    assert state.dead == {1: [], 2: []}
    assert (state.character_pull, state.other_pull) == (0, 0)
    assert (state.active, state.turn, state.step) == (1, 1, "discard")
    assert RULES.to_act(state) == [1]


def test_oq7_first_player_option_needs_no_pick() -> None:
    """edge OQ7 (first_player: a seat): first_player 2 is used as set: no first_player outcome;
    seat 2 acts first."""
    chance = SuppliedChance([*opening(1), *opening(2)])
    state = RULES.setup(config([{"FILL": 40}, {"FILL": 40}], first_player=2), chance)
    chance.finish()
    assert "first_player" not in [o.kind for o in chance.outcomes]
    assert isinstance(state, EdgeState)
    assert (state.first_player, state.active) == (2, 2)


def test_oq7_unset_first_player_is_a_recorded_pick() -> None:
    """edge OQ7 (first_player: random, C1): with no option the first seat is a recorded pick
    after the 3 x 10 opening draws; here seat 3 of 3."""
    chance = SuppliedChance([*opening(1), *opening(2), *opening(3), 3])
    state = RULES.setup(config([{"FILL": 40}] * 3), chance)
    chance.finish()
    assert [o.kind for o in chance.outcomes][-1] == "first_player"
    assert isinstance(state, EdgeState)
    assert (state.first_player, state.active, state.starting_players) == (3, 3, 3)


def test_oq7_first_player_beyond_the_seats_is_refused() -> None:
    """edge OQ7: first_player 3 in a 2-player match is a bad option."""
    with pytest.raises(SetupError) as info:
        RULES.setup(config([{"FILL": 40}, {"FILL": 40}], first_player=3),
                    SuppliedChance([*opening(1), *opening(2)]))
    assert info.value.reason == "bad_option"


def test_oq30_more_than_8_players_are_refused() -> None:
    """edge OQ30 (the project caps at 8): a 9-player match is refused (player_count)."""
    refused_setup("player_count", [{"FILL": 40}] * 9)


def test_e2_draw_per_turn_must_be_at_least_1() -> None:
    """E2 and digest section 6 ([proposal] draw_per_turn >= 1): draw_per_turn 0 is refused."""
    refused_setup("bad_option", [{"FILL": 40}] * 2, draw_per_turn=0)
