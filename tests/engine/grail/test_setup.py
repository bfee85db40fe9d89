"""Setup: deck construction (C5; 事前準備 コートデッキ L25-28, クエストデッキ L30-33), the opening
(開始準備 L61-65, 開始時基本設定 L38-42) and the first player (grail OQ-1)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import MatchConfig, SetupError
from engine.core.chance import SuppliedChance
from engine.grail.model import GrailState
from tests.engine.grail.helpers import CARDS, RULES, quest
from tests.support import RandomChance, sample_config

SETUP_CARDS: dict[str, dict[str, Any]] = CARDS | {
    "Q-RIDDLE2": quest("Riddle of the Sphinx", val=2),  # a second id with Q-RIDDLE's name
}


def deck(**counts: int) -> dict[str, int]:
    """A legal deck unless changed: court ROCK 31 + KNIGHT 4 + D-NORTH 5 = 40; quests: five
    names twice each = 10. ``counts`` overrides (0 removes)."""
    base = {"ROCK": 31, "KNIGHT": 4, "D-NORTH": 5, "Q-RIDDLE": 2, "Q-GROVE": 2, "Q-WELL": 2,
            "Q-TOWER": 2, "Q-WYVERN": 2}
    base.update(counts)
    return {k: v for k, v in base.items() if v}


def config(decks: list[dict[str, int]], **options: Any) -> MatchConfig:
    return MatchConfig(players=["Ann", "Ben"], decks=decks, cards=SETUP_CARDS,
                       options=RULES.new_match_options(options))


def refused_setup(reason: str, decks: list[dict[str, int]], **options: Any) -> SetupError:
    with pytest.raises(SetupError) as info:
        RULES.setup(config(decks, **options), SuppliedChance([]))
    assert info.value.reason == reason, info.value.message
    return info.value


# Instances are numbered in card-id order: D-NORTH @s.1-5, KNIGHT @s.6-9, Q-GROVE @s.10-11,
# Q-RIDDLE @s.12-13, Q-TOWER @s.14-15, Q-WELL @s.16-17, Q-WYVERN @s.18-19, ROCK @s.20-50.
def opening(seat: int) -> list[str]:
    """Nine draws: the five domains and the four knights of ``seat``."""
    return [f"D-NORTH@{seat}.{n}" for n in range(1, 6)] + \
        [f"KNIGHT@{seat}.{n}" for n in range(6, 10)]


# ----- C5: deck construction ----------------------------------------------------------------
def test_c5_court_deck_of_39_is_refused() -> None:
    """C5, [事前準備 コートデッキ L25] (40 or more): ROCK 30 gives 30 + 4 + 5 = 39 court cards."""
    error = refused_setup("court_deck_size", [deck(), deck(ROCK=30)], first_player=1)
    assert error.details == {"seat": 2}


def test_c5_court_deck_has_no_copy_limit_or_maximum() -> None:
    """C5, [事前準備 コートデッキ L25, L28] (no maximum, no copy limit): 60 ROCK + 4 + 5 = 69
    court cards, 60 of one card, are accepted."""
    chance = SuppliedChance([*opening(1), *opening(2), "Q-RIDDLE@1.12", "Q-RIDDLE@2.12",
                             "ROCK@1.20"])
    state = RULES.setup(config([deck(ROCK=60), deck()], first_player=1), chance)
    chance.finish()
    assert isinstance(state, GrailState)
    assert len(state.court[1]) == 69 - 9 - 1  # 69, nine in hand, the turn-1 draw


def test_c5_quest_deck_of_9_is_refused() -> None:
    """C5, [事前準備 クエストデッキ L30] (10 or more): Q-WYVERN once gives 9 quests."""
    error = refused_setup("quest_deck_size", [deck(**{"Q-WYVERN": 1}), deck()],
                          first_player=1)
    assert error.details == {"seat": 1}


def test_c5_three_quests_of_one_name_are_refused() -> None:
    """C5, [事前準備 クエストデッキ L33] (at most 2 of the same quest): Q-RIDDLE 3 times (11
    quests) is refused."""
    error = refused_setup("too_many_copies", [deck(**{"Q-RIDDLE": 3}), deck()], first_player=1)
    assert error.details == {"seat": 1}


def test_c5_quest_copies_are_counted_by_name() -> None:
    """C5, [事前準備 クエストデッキ L33] (counted by name, digest 2.1): Q-RIDDLE 2 + Q-RIDDLE2 1,
    both "Riddle of the Sphinx", are 3 of one name (Q-WELL 1 keeps 10 quests)."""
    refused_setup("too_many_copies", [deck(**{"Q-WELL": 1, "Q-RIDDLE2": 1}), deck()],
                  first_player=1)


def test_c5_deck_check_off_accepts_any_deck() -> None:
    """C5 (deck_check: off): a court deck of 10 and a quest deck of 3 of one name are set up."""
    small = {"ROCK": 10, "Q-RIDDLE": 3}
    # Q-RIDDLE@s.1-3, ROCK@s.4-13
    draws = [f"ROCK@{s}.{n}" for s in (1, 2) for n in range(4, 13)]
    chance = SuppliedChance([*draws, "Q-RIDDLE@1.1", "Q-RIDDLE@2.1", "ROCK@1.13"])
    state = RULES.setup(config([small, small], first_player=1, deck_check="off"), chance)
    chance.finish()
    assert isinstance(state, GrailState)
    assert state.court == {1: [], 2: ["ROCK@2.13"]}  # 10 - 9 - the turn-1 draw; 10 - 9


def test_c5_the_sample_decks_are_legal() -> None:
    """C5: the shipped sample decks pass the deck check."""
    state = RULES.setup(sample_config(RULES, 2), RandomChance(random.Random(3)))
    assert isinstance(state, GrailState)


# ----- 開始準備 L61-65, 開始時基本設定 L38-42 ----------------------------------------------------
def test_setup_nine_cards_each_an_active_quest_each_and_the_first_player_draws() -> None:
    """[開始準備 L62-65; 開始時基本設定 L40, L42], OQ-1 (regulated first player): each seat draws
    9 (court 40 - 9 = 31), turns one quest face up (quest deck 10 - 1 = 9); seat 2, the
    regulated first player, then draws its turn-1 card (31 - 1 = 30, hand 10)."""
    chance = SuppliedChance([*opening(1), *opening(2), "Q-RIDDLE@1.12", "Q-GROVE@2.10",
                             "ROCK@2.20"])
    state = RULES.setup(config([deck(), deck()], first_player=2), chance)
    chance.finish()
    assert isinstance(state, GrailState)
    assert state.hands == {1: opening(1), 2: [*opening(2), "ROCK@2.20"]}
    assert {s: len(state.court[s]) for s in (1, 2)} == {1: 31, 2: 30}
    assert state.active_quest == {1: "Q-RIDDLE@1.12", 2: "Q-GROVE@2.10"}
    assert {s: len(state.quests[s]) for s in (1, 2)} == {1: 9, 2: 9}
    assert all(state.card(q).type == "quest" for s in (1, 2) for q in state.quests[s])
    assert all(state.card(c).type != "quest" for s in (1, 2) for c in state.court[s])
    assert (state.active, state.turn, state.phase, state.drawn) == (2, 1, "draw", True)
    assert state.warriors == {1: [], 2: []} and state.domains == {1: [], 2: []}


def test_oq1_unset_first_player_is_a_recorded_pick() -> None:
    """grail OQ-1: with no first_player option the first seat is a recorded pick (here 2),
    asked after the quests are revealed; seat 2 then draws."""
    chance = SuppliedChance([*opening(1), *opening(2), "Q-RIDDLE@1.12", "Q-GROVE@2.10", 2,
                             "ROCK@2.20"])
    state = RULES.setup(config([deck(), deck()]), chance)
    chance.finish()
    assert [o.kind for o in chance.outcomes][-2:] == ["first_player", "draw"]
    assert isinstance(state, GrailState) and state.active == 2 and state.first_player == 2
    assert len(state.hands[2]) == 10 and len(state.hands[1]) == 9


def test_oq1_regulated_first_player_needs_no_pick() -> None:
    """grail OQ-1: first_player 1 is used as set: no pick; seat 1 draws on turn 1."""
    chance = SuppliedChance([*opening(1), *opening(2), "Q-RIDDLE@1.12", "Q-GROVE@2.10",
                             "ROCK@1.20"])
    state = RULES.setup(config([deck(), deck()], first_player=1), chance)
    chance.finish()
    assert "first_player" not in [o.kind for o in chance.outcomes]
    assert isinstance(state, GrailState) and state.active == 1 and state.hands[1][-1] == "ROCK@1.20"
