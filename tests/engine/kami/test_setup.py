"""Setup and mulligans: deck construction (C5, §事前準備), the first player and the second
player's 2 VP (§開始準備, K8), opening hands (§ゲーム開始時基本設定), mulligans (K8, kami Q-16,
Q-31) and the first AP refill (K4)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import SetupError
from engine.core.chance import SuppliedChance
from engine.kami.model import KamiState
from tests.engine.kami.helpers import (
    RULES,
    act,
    ap_count,
    ap_counts,
    config,
    deck_count,
    deck_counts,
    legal_types,
    play_with,
    refused,
    unit,
    unseen,
)

# Filler: 14 units with distinct names, for legal 40-card decks.
FILLER: dict[str, dict[str, Any]] = {f"F{n:02d}": unit(f"Filler {n:02d}") for n in range(1, 15)}


def forty(**extra: int) -> dict[str, int]:
    """A legal deck: F01-F13 three each (39) and F14 once = 40; ``extra`` overrides counts."""
    deck = {f"F{n:02d}": 3 for n in range(1, 14)} | {"F14": 1}
    deck.update(extra)
    return {k: v for k, v in deck.items() if v}


HAND_1 = ["F01", "F01", "F01", "F02", "F02"]
HAND_2 = ["F03", "F03", "F03", "F04", "F04"]


def setup(decks: list[dict[str, int]] | None = None,
          cards: dict[str, dict[str, Any]] | None = None,
          outcomes: list[Any] | None = None, **options: Any) -> KamiState:
    chance = SuppliedChance(outcomes if outcomes is not None else HAND_1 + HAND_2)
    state = RULES.setup(config(decks or [forty(), forty()], cards or FILLER, **options), chance)
    chance.finish()
    assert isinstance(state, KamiState)
    return state


def setup_refused(reason: str, decks: list[dict[str, int]],
                  cards: dict[str, dict[str, Any]] | None = None, **options: Any) -> SetupError:
    with pytest.raises(SetupError) as info:
        setup(decks, cards, **options)
    assert info.value.reason == reason, info.value.message
    return info.value


# ----- C5, §事前準備: deck construction --------------------------------------------------------
@pytest.mark.parametrize("size", [39, 41])
def test_c5_deck_must_have_exactly_40_cards(size: int) -> None:
    """C5, §事前準備 (exactly 40 cards): 39 (F14 removed) and 41 (F14 twice) are refused,
    naming the seat."""
    deck = forty(F14=size - 39)
    assert sum(deck.values()) == size
    error = setup_refused("deck_size", [forty(), deck], first_player=1)
    assert error.details == {"seat": 2}


def test_c5_four_cards_of_one_name_are_refused() -> None:
    """C5, §事前準備 (at most 3 of one name): F01 four times (4 + 36 = 40) is refused."""
    deck = forty(F01=4, F14=0)
    assert sum(deck.values()) == 40
    error = setup_refused("too_many_copies", [deck, forty()], first_player=1)
    assert error.details == {"seat": 1}


def test_c5_copies_are_counted_by_name_not_by_id() -> None:
    """C5, §事前準備: two ids of one name count together: 2 + 2 = 4 Twins is refused; 2 + 1
    = 3 is accepted."""
    cards = FILLER | {"TW-A": unit("Twin"), "TW-B": unit("Twin")}
    four = forty(F01=0, F14=0) | {"TW-A": 2, "TW-B": 2}  # 36 + 4 = 40
    three = forty(F01=0, F14=0) | {"TW-A": 2, "TW-B": 1, "F14": 1}  # 36 + 3 + 1 = 40
    assert sum(four.values()) == sum(three.values()) == 40
    setup_refused("too_many_copies", [four, forty()], cards, first_player=1)
    state = setup([three, forty()], cards, ["TW-A", "TW-B", "F02", "F02", "F02", *HAND_2],
                  first_player=1)
    assert state.hands[1] == ["TW-A", "TW-B", "F02", "F02", "F02"]


def test_c5_deck_check_off_accepts_any_deck() -> None:
    """C5 "unless the match is created with deck_check: off": 7 cards, 5 of one name."""
    decks = [{"F01": 5, "F02": 2}, {"F03": 7}]
    state = setup(decks, outcomes=["F01"] * 5 + ["F03"] * 5, deck_check="off", first_player=1)
    assert state.hands == {1: ["F01"] * 5, 2: ["F03"] * 5}
    assert deck_counts(state) == {1: 2, 2: 2}  # 7 - 5 each


@pytest.mark.parametrize("deck_check", ["on", "off"])
def test_c5_unknown_card_is_always_refused(deck_check: str) -> None:
    """An unknown card id is refused even with deck_check off."""
    error = setup_refused("unknown_card", [forty(F14=0) | {"NOPE": 1}, forty()],
                          deck_check=deck_check, first_player=1)
    assert error.details == {"seat": 1}


# ----- §開始準備, §ゲーム開始時基本設定, K8 -------------------------------------------------
def test_opening_hands_of_five_and_starting_values() -> None:
    """§ゲーム開始時基本設定 (開始手札 5, AP 0) and C1 (draws recorded, seen by their seat): each
    seat draws 5 of its 40, leaving 35 in the deck; AP is 0; the mulligan phase opens."""
    chance = SuppliedChance(HAND_1 + HAND_2)
    state = RULES.setup(config([forty(), forty()], FILLER, first_player=1), chance)
    assert isinstance(state, KamiState)
    assert state.hands == {1: HAND_1, 2: HAND_2}
    assert deck_counts(state) == {1: 35, 2: 35}  # 40 - 5
    assert ap_counts(state) == {1: 0, 2: 0}
    assert unseen(state, 1).count("F01") == 0 and unseen(state, 1).count("F02") == 1  # 3-3, 3-2
    assert chance.stored()[0] == {"kind": "draw", "value": "F01", "seat": 1}
    assert chance.stored()[5] == {"kind": "draw", "value": "F03", "seat": 2}
    assert state.phase == "mulligan"
    assert sorted(RULES.to_act(state)) == [1, 2]


def test_k8_second_player_starts_with_2_vp() -> None:
    """K8, §開始準備 (後攻はVPを2ポイント獲得する): with seat 1 first, seat 2 has 2 VP; with seat
    2 first, seat 1 has them."""
    assert setup(first_player=1).vp == {1: 0, 2: 2}
    state = setup(first_player=2)
    assert (state.first_player, state.active) == (2, 2)
    assert state.vp == {1: 2, 2: 0}


def test_first_player_is_a_recorded_pick_without_the_option() -> None:
    """§開始準備 (先攻・後攻を決定する), C1: with no first_player option the seat is a recorded
    public pick, taken before the opening hands; the other seat gets the 2 VP (K8)."""
    chance = SuppliedChance([2, *HAND_1, *HAND_2])
    state = RULES.setup(config([forty(), forty()], FILLER), chance)
    chance.finish()
    assert isinstance(state, KamiState)
    assert chance.stored()[0] == {"kind": "first_player", "value": 2}
    assert (state.first_player, state.vp) == (2, {1: 2, 2: 0})


# ----- mulligans (K8, kami) ---------------------------------------------------------
def test_k8_mulligan_redraws_five_and_gives_the_opponent_1_vp() -> None:
    """K8, §ゲーム開始時基本設定 マリガン: the whole hand goes back, five new cards are drawn, the
    opponent gains 1 VP (seat 2: 2 + 1 = 3)."""
    state = setup(first_player=1)
    state = play_with(state, act("mulligan", 1), "F05", "F05", "F06", "F07", "F01")
    assert state.hands[1] == ["F05", "F05", "F06", "F07", "F01"]
    assert deck_count(state, 1) == 35  # 35 + 5 back - 5 drawn
    assert unseen(state, 1).count("F01") == 2  # 0 left, 3 back, 1 drawn again
    assert state.mulligans[1] == 1 and state.kept[1] is False
    assert state.vp == {1: 0, 2: 3}
    assert state.phase == "mulligan"


def test_k8_at_most_two_mulligans_then_the_hand_is_kept() -> None:
    """K8 (up to 2), kami Q-16: after the second mulligan the seat keeps what it drew. Seat 2
    gains 1 VP each: 2 + 1 + 1 = 4."""
    state = setup(first_player=1)
    state = play_with(state, act("mulligan", 1), *["F05"] * 3, "F06", "F06")
    state = play_with(state, act("mulligan", 1), *["F07"] * 3, "F08", "F08")
    assert state.mulligans[1] == 2 and state.kept[1] is True
    assert state.hands[1] == ["F07"] * 3 + ["F08"] * 2
    assert state.vp == {1: 0, 2: 4}
    assert RULES.to_act(state) == [2] and state.phase == "mulligan"
    assert legal_types(state, 1) == set()


def test_k8_a_third_mulligan_is_refused_with_mulligan_limit() -> None:
    """K8 (up to 2), kami digest 4.1 (`mulligan_limit`): while seat 2 still decides, seat 1's
    third mulligan is refused for the limit, not as a keep (its second mulligan kept the hand);
    keeping again is still `already_kept`. Once the mulligans are over it is `wrong_phase`."""
    state = setup(first_player=1)
    state = play_with(state, act("mulligan", 1), *["F05"] * 3, "F06", "F06")
    state = play_with(state, act("mulligan", 1), *["F07"] * 3, "F08", "F08")
    refused(state, act("mulligan", 1), "mulligan_limit", SuppliedChance(["F01"] * 5))
    refused(state, act("keep_hand", 1), "already_kept")
    state = play_with(state, act("keep_hand", 2))
    refused(state, act("mulligan", 1), "wrong_phase", SuppliedChance(["F01"] * 5))


def test_q31_turn_1_begins_when_both_seats_have_kept() -> None:
    """kami Q-31, Q-16: one keep does not start the game; the second does, and the first
    player's turn 1 opens with its AP refill of 5 (K4): AP 0 -> 5, deck 35 -> 30."""
    state = setup(first_player=1)
    state = play_with(state, act("keep_hand", 1))
    assert state.phase == "mulligan" and RULES.to_act(state) == [2]
    state = play_with(state, act("keep_hand", 2))
    assert (state.phase, state.active, state.turn) == ("action", 1, 1)
    assert ap_counts(state) == {1: 5, 2: 0}
    assert deck_counts(state) == {1: 30, 2: 35}
    assert state.vp == {1: 0, 2: 2}


def test_q16_second_mulligan_of_the_last_seat_starts_turn_1() -> None:
    """kami Q-16: seats decide in any order; seat 2 keeps first, and seat 1's automatic keep
    after its second mulligan starts turn 1 with 5 AP for seat 1 (K4)."""
    state = setup(first_player=1)
    state = play_with(state, act("keep_hand", 2))
    state = play_with(state, act("mulligan", 1), *["F05"] * 3, "F06", "F06")
    assert state.phase == "mulligan"
    state = play_with(state, act("mulligan", 1), *["F07"] * 3, "F08", "F08")
    assert (state.phase, state.active, state.turn) == ("action", 1, 1)
    assert ap_count(state, 1) == 5 and deck_count(state, 1) == 30  # 35 - 5 onto the AP pile
    assert state.vp == {1: 0, 2: 4}  # 2 (second player) + 1 + 1


def test_q16_the_second_player_may_mulligan_before_the_first_decides() -> None:
    """kami Q-16 (any interleaving), K8: seat 2's mulligan comes first and gives seat 1 1 VP."""
    state = setup(first_player=1)
    state = play_with(state, act("mulligan", 2), *["F05"] * 3, "F06", "F06")
    assert state.vp == {1: 1, 2: 2}
    assert sorted(RULES.to_act(state)) == [1, 2]


def test_q31_keeping_twice_is_refused() -> None:
    """kami Q-31: a seat that kept has decided; keeping again (or a mulligan) is refused."""
    state = play_with(setup(first_player=1), act("keep_hand", 1))
    refused(state, act("keep_hand", 1), "already_kept")
    refused(state, act("mulligan", 1), "already_kept", SuppliedChance(["F01"] * 5))


def test_no_turn_action_before_both_seats_kept() -> None:
    """§ゲーム開始時基本設定: the game starts after the mulligans; play_with is refused before."""
    state = setup(first_player=1)
    refused(state, act("draw_card", 1), "wrong_phase", SuppliedChance(["F05"]))
    refused(state, act("end_action_phase", 1), "wrong_phase")


def test_mulligan_legal_actions() -> None:
    """K8: each undecided seat may keep or mulligan."""
    state = setup(first_player=1)
    assert legal_types(state, 1) == legal_types(state, 2) == {"keep_hand", "mulligan"}


def test_mulligans_are_over_once_turn_1_begins() -> None:
    """K8: mulligans are a setup step; in turn 1 a mulligan is refused."""
    state = setup(first_player=1)
    state = play_with(state, act("keep_hand", 1))
    state = play_with(state, act("keep_hand", 2))
    refused(state, act("mulligan", 2), "wrong_phase", SuppliedChance(["F01"] * 5))


def test_no_first_turn_restriction_the_first_player_may_draw_on_turn_1() -> None:
    """§ゲーム開始時基本設定 ファーストドロー制限 (the second player's 2 VP compensate; digest
    2.8): on turn 1 seat 1 draws (K3: AP 5 -> 4, deck 30 -> 30, hand 5 -> 6)."""
    state = setup(first_player=1)
    state = play_with(state, act("keep_hand", 1))
    state = play_with(state, act("keep_hand", 2))
    state = play_with(state, act("draw_card", 1), "F10")
    assert len(state.hands[1]) == 6 and state.hands[1][-1] == "F10"
    assert (ap_count(state, 1), deck_count(state, 1)) == (4, 30)
