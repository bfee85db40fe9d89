"""Illuminati deck construction (C5) and setup (開始準備, I9, I10).

Sources: rules document 000 (Illuminati: New World Order TCG 1.2; its Japanese section headings
are cited) and rulings C5, I9 and I10 (RULINGS.md), which win over the document.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import JUDGE, SPECTATOR, SetupError, Viewer
from engine.core.chance import SuppliedChance
from engine.illuminati.model import IlluminatiState
from tests.engine.illuminati.helpers import (
    CARDS,
    DECK_GROUPS,
    G,
    RandomChance,
    config,
    deck,
    home,
    play,
    refused,
    start,
)


def set_up(decks: list[dict[str, int]], seed: int = 1, **options: Any) -> IlluminatiState:
    state = G.setup(config(decks, **options), RandomChance(random.Random(seed)))
    assert isinstance(state, IlluminatiState)
    return state


def setup_refused(reason: str, decks: list[dict[str, int]], **options: Any) -> SetupError:
    with pytest.raises(SetupError) as info:
        set_up(decks, **options)
    assert info.value.reason == reason, info.value.message
    return info.value


def reveal_illuminati(st: IlluminatiState, choices: dict[int, str],
                      seed: int = 1) -> IlluminatiState:
    return play(st, {"type": "reveal_illuminati", "seat": 1, "choices": choices},
                RandomChance(random.Random(seed)))


def chosen_illuminati(n: int, seed: int = 1) -> IlluminatiState:
    """An n-player match right after the Illuminati reveal (alpha, beta, gamma, ...)."""
    names = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"][:n]
    st = set_up([deck(name) for name in names], seed)
    return reveal_illuminati(st, {s: names[s - 1] for s in range(1, n + 1)}, seed)


def groups_round(st: IlluminatiState, choices: dict[int, str],
                 seed: int = 1) -> IlluminatiState:
    return play(st, {"type": "reveal_groups", "seat": 1, "choices": choices},
                RandomChance(random.Random(seed)))


# ----- C5: deck construction (事前準備) -----------------------------------------------------
def test_c5_a_45_card_deck_is_accepted() -> None:
    """事前準備 "グループデッキと合わせて、45枚ちょうど": plot deck + group deck = 45 is fine."""
    assert sum(deck().values()) == 45
    st = set_up([deck("alpha"), deck("beta")])
    assert st.phase == "choose_illuminati" and st.result is None
    assert st.player(1).plot_deck.size() + st.player(1).group_deck.size() == 45


@pytest.mark.parametrize("memos", [13, 15])
def test_c5_44_or_46_cards_are_refused(memos: int) -> None:
    """C5: exactly 45 cards: 44 and 46 are refused with reason deck_size, naming the seat."""
    error = setup_refused("deck_size", [deck("alpha"), deck("beta", memo=memos)])
    assert error.details == {"seat": 2}


def test_c5_deck_without_an_illuminati_is_refused() -> None:
    """事前準備 "イルミナティカードが 1枚以上": 45 cards but no Illuminati: no_illuminati."""
    no_ill = deck("alpha", alpha=0, memo=15)
    assert sum(no_ill.values()) == 45
    error = setup_refused("no_illuminati", [no_ill, deck("beta")])
    assert error.details == {"seat": 1}


def test_c5_deck_check_off_accepts_a_broken_deck() -> None:
    """C5 "unless the match is created with deck_check: off": 44 cards without an Illuminati and
    a 46-card deck are accepted."""
    st = set_up([deck("alpha", alpha=0), deck("beta", memo=15)], deck_check="off")
    assert st.result is None
    assert st.player(1).plot_deck.size() + st.player(1).group_deck.size() == 44
    assert st.player(2).plot_deck.size() + st.player(2).group_deck.size() == 46


# ----- 開始準備: the Illuminati -----------------------------------------------------------------
def test_setup_illuminati_are_revealed_together() -> None:
    """開始準備 "全員が配置を終えた時点で...表向きにする": one reveal names every seat's choice; a
    reveal missing a seat is refused (choices_incomplete)."""
    st = set_up([deck("alpha"), deck("beta"), deck("gamma")])
    refused(st, {"type": "reveal_illuminati", "seat": 1, "choices": {1: "alpha", 2: "beta"}},
            "choices_incomplete")
    st = reveal_illuminati(st, {1: "alpha", 2: "beta", 3: "gamma"})
    assert [st.player(s).illuminati for s in (1, 2, 3)] == ["alpha@1", "beta@2", "gamma@3"]
    assert st.phase == "choose_groups"


def test_setup_choosing_a_plot_as_illuminati_is_refused() -> None:
    """開始準備 "初期配置用のイルミナティカード 1枚を取り出す": a plot is not_an_illuminati."""
    st = set_up([deck("alpha"), deck("beta")])
    refused(st, {"type": "reveal_illuminati", "seat": 1, "choices": {1: "alpha", 2: "memo"}},
            "not_an_illuminati")


def test_setup_the_same_illuminati_for_two_players_is_allowed() -> None:
    """開始準備 "相手と重複していても問題ない": both seats may play the same Illuminati."""
    st = set_up([deck("alpha"), deck("alpha")])
    st = reveal_illuminati(st, {1: "alpha", 2: "alpha"})
    assert [st.player(s).illuminati for s in (1, 2)] == ["alpha@1", "alpha@2"]


def test_setup_three_plots_each_after_the_illuminati_reveal() -> None:
    """開始時基本設定 "プロット分: 3枚": each seat draws 3 plots (recorded picks, private to the
    seat); the Illuminati is the root of its power structure, not in the hand."""
    st = set_up([deck("alpha"), deck("beta")])
    chance = SuppliedChance(["memo@1", "memo@1.2", "memo@1.3", "memo@2.5", "memo@2.6",
                             "memo@2.7"])
    st = play(st, {"type": "reveal_illuminati", "seat": 1, "choices": {1: "alpha", 2: "beta"}},
              chance)
    chance.finish()
    assert st.player(1).plot_hand == ["memo@1", "memo@1.2", "memo@1.3"]
    assert st.player(2).plot_hand == ["memo@2.5", "memo@2.6", "memo@2.7"]
    assert [o.kind for o in chance.outcomes] == ["plot_draw"] * 6
    assert [o.seat for o in chance.outcomes] == [1, 1, 1, 2, 2, 2]
    assert st.player(1).plot_deck.size() == 15 - 1 - 3
    assert list(st.player(1).structure) == ["alpha@1"]
    assert st.player(1).structure["alpha@1"].parent is None


def test_setup_a_short_plot_deck_deals_what_is_left() -> None:
    """その他構成 "ライブラリアウト: 無し(そのまま続行)": a legal 45-card deck may hold a single
    plot (C5 asks only for 45 cards, an Illuminati and a group). The opening draw of 3 plots
    then deals the one there is and setup goes on; it must not leave the match stuck."""
    short = {"alpha": 1, "memo": 1} | {g: 1 for g in DECK_GROUPS} | {
        f"f{n:02d}": 1 for n in range(1, 14)}
    assert sum(short.values()) == 45
    st = set_up([short, deck("beta")])
    st = reveal_illuminati(st, {1: "alpha", 2: "beta"})
    assert st.player(1).plot_hand == ["memo@1"]
    assert len(st.player(2).plot_hand) == 3
    assert st.phase == "choose_groups"


def test_i1_starting_score_is_one() -> None:
    """I1 "Starting score is 1 (the initial group)"; the Illuminati is not counted."""
    assert G.scores(start(3)) == {1: 1, 2: 1, 3: 1}


# ----- I9: initial groups -------------------------------------------------------------------
def test_i9_each_unique_initial_group_hangs_from_its_illuminati() -> None:
    """I9, 開始準備: distinct initial groups are placed under each Illuminati at once."""
    st = groups_round(chosen_illuminati(2), {1: "d05", 2: "d07"})
    assert st.player(1).initial_group == "d05@1"
    assert st.player(1).structure["d05@1"].parent == "alpha@1"
    assert st.player(2).structure["d07@2"].parent == "beta@2"
    assert st.phase == "beginning"


def test_i9_every_seat_still_choosing_must_reveal() -> None:
    """I9: one round names every seat without a group (choices_incomplete otherwise)."""
    st = chosen_illuminati(2)
    refused(st, {"type": "reveal_groups", "seat": 1, "choices": {1: "d05"}},
            "choices_incomplete")


def test_i9_duplicates_are_set_aside_and_only_those_seats_choose_again() -> None:
    """I9: seats 1 and 2 both reveal Deck Group 05: both copies are set aside and only they
    choose again; seat 3's unique choice stands."""
    st = groups_round(chosen_illuminati(3), {1: "d05", 2: "d05", 3: "d09"})
    assert st.phase == "choose_groups" and st.setup_round == 2
    assert sorted(st.set_aside) == ["d05@1", "d05@2"]
    assert st.player(1).initial_group is None and st.player(2).initial_group is None
    assert st.player(3).initial_group == "d09@3"
    assert "d05@1" not in st.player(1).group_deck.shuffled
    refused(st, {"type": "reveal_groups", "seat": 1, "choices": {1: "d06", 2: "d07", 3: "d08"}},
            "choices_incomplete")
    st = groups_round(st, {1: "d06", 2: "d07"})
    assert (st.player(1).initial_group, st.player(2).initial_group) == ("d06@1", "d07@2")
    assert st.phase == "beginning"


def test_i9_set_aside_duplicates_return_to_their_owners_group_decks() -> None:
    """I9 "the duplicates return to their owners' group decks before the group decks are
    shuffled": both copies of Deck Group 05 are set aside, and after the repeated round each is
    back in its owner's group deck (the opening draws, supplied, leave it there)."""
    st = groups_round(chosen_illuminati(2), {1: "d05", 2: "d05"})
    picks = [c for seat in (1, 2) for c in sorted(
        c for c in st.player(seat).group_deck.shuffled if c not in ("d06@1", "d07@2"))[:6]]
    chance = SuppliedChance(picks + [6, 6, 1, 1])
    st = play(st, {"type": "reveal_groups", "seat": 1, "choices": {1: "d06", 2: "d07"}},
              chance)
    chance.finish()
    assert st.set_aside == []
    for seat in (1, 2):
        p = st.player(seat)
        assert f"d05@{seat}" in p.group_deck.shuffled
        assert len(p.group_deck.shuffled) == 30 - 1 - 6


def test_i9_a_group_already_on_the_table_cannot_be_revealed() -> None:
    """開始準備 "この時点で提示されていない任意のグループカード": in the repeated round a seat
    cannot reveal the group another seat already placed (group_on_table), and the message says
    which seat must choose again."""
    st = groups_round(chosen_illuminati(3), {1: "d05", 2: "d05", 3: "d09"})
    error = refused(st, {"type": "reveal_groups", "seat": 1, "choices": {1: "d09", 2: "d07"}},
                    "group_on_table")
    assert "seat 1" in error.message, error.message


def test_setup_six_group_cards_are_dealt() -> None:
    """開始時基本設定 "グループ分: 6枚": 6 group cards each, drawn after the initial group."""
    st = start(2)
    for seat in (1, 2):
        p = st.player(seat)
        assert len(p.group_hand) == 6
        assert len(p.group_deck.shuffled) == 30 - 1 - 6
        assert home(seat) not in p.group_hand


@pytest.mark.parametrize(("deck_groups", "hand"), [(6, 5), (4, 3)])
def test_setup_all_remaining_groups_when_five_or_fewer_are_left(deck_groups: int,
                                                                hand: int) -> None:
    """開始準備 "グループデッキが 5枚以下の場合は、すべてのカードを手札とする": with 6 (or 4)
    groups, the initial group leaves 5 (or 3) and all of them are drawn."""
    few = {"alpha": 1, "memo": 5} | {g: 1 for g in DECK_GROUPS[:deck_groups]}
    st = set_up([few, {"beta": 1, "memo": 5} | {g: 1 for g in DECK_GROUPS[:deck_groups]}],
                deck_check="off")
    st = reveal_illuminati(st, {1: "alpha", 2: "beta"})
    st = groups_round(st, {1: "d01", 2: "d02"})
    for seat in (1, 2):
        assert len(st.player(seat).group_hand) == hand
        assert st.player(seat).group_deck.size() == 0


# ----- I10: turn order ----------------------------------------------------------------------
def opening_groups(st: IlluminatiState, initial: dict[int, str]) -> list[str]:
    """Supplied picks for the 6-card group draws right after the last reveal: each seat's six
    alphabetically first deck groups, seat by seat."""
    picks: list[str] = []
    for seat in st.in_play():
        left = sorted(c for c in st.player(seat).group_deck.shuffled
                      if c != f"{initial[seat]}@{seat}")
        picks += left[:6]
    return picks


def test_i10_turn_order_by_2d6_with_ties_rerolled_among_the_tied_only() -> None:
    """I10: seat 1 rolls 12, seats 2 and 3 tie on 7 and re-roll (2 against 4) while seat 1 does
    not roll again: order 1, 3, 2, and seat 1 is active."""
    st = chosen_illuminati(3)
    choices = {1: "d01", 2: "d02", 3: "d03"}
    dice = [6, 6, 3, 4, 5, 2, 1, 1, 2, 2]
    chance = SuppliedChance(opening_groups(st, choices) + dice)
    st = play(st, {"type": "reveal_groups", "seat": 1, "choices": choices}, chance)
    chance.finish()
    rolls = [(o.kind, o.value) for o in chance.outcomes if o.kind != "group_draw"]
    assert rolls == [("order_roll:1", 6), ("order_roll:1", 6), ("order_roll:2", 3),
                     ("order_roll:2", 4), ("order_roll:3", 5), ("order_roll:3", 2),
                     ("order_roll:2", 1), ("order_roll:2", 1), ("order_roll:3", 2),
                     ("order_roll:3", 2)]
    assert st.order == [1, 3, 2]
    assert (st.active, st.turn, st.phase) == (1, 1, "beginning")


def test_i10_highest_roll_goes_first() -> None:
    """I10 "highest first": 2-player, seat 2 rolls 9 against seat 1's 5: seat 2 starts."""
    st = chosen_illuminati(2)
    choices = {1: "d01", 2: "d02"}
    chance = SuppliedChance(opening_groups(st, choices) + [2, 3, 4, 5])
    st = play(st, {"type": "reveal_groups", "seat": 1, "choices": choices}, chance)
    chance.finish()
    assert st.order == [2, 1] and st.active == 2


def test_card_set_is_valid() -> None:
    """Every test card definition is accepted by the engine's Card model."""
    for cid, data in CARDS.items():
        G.parse_card({**data, "id": cid})


# ----- each seat chooses face down (reveals: seats, the default of new matches) -------------
def by_seats(*ills: str, seed: int = 1) -> IlluminatiState:
    """A match created now: each seat lays its own choices face down."""
    options = G.new_match_options({})
    assert options["reveals"] == "seats"
    return set_up([deck(ill) for ill in ills], seed, **options)


def choose(st: IlluminatiState, seat: int, card: str, kind: str = "illuminati") -> IlluminatiState:
    return play(st, {"type": f"choose_{'illuminati' if kind == 'illuminati' else 'group'}",
                     "seat": seat, "card": card}, RandomChance(random.Random(seat)))


def test_setup_by_seats_each_player_lays_an_illuminati_face_down() -> None:
    """開始準備 "全員が配置を終えた時点で...表向きにする", as the table plays it: each seat
    chooses for itself; the game waits on those who have not chosen, a choice is seen only by
    its seat until the last one reveals them all together."""
    st = by_seats("alpha", "beta", "gamma")
    assert G.to_act(st) == [1, 2, 3]
    st = choose(st, 2, "beta")
    assert G.to_act(st) == [1, 3] and st.player(2).illuminati is None
    assert G.view(st, Viewer("seat", 2))["chosen"]["2"]["card"] == "beta@2"
    assert G.view(st, Viewer("seat", 1))["chosen"] == {"2": "face down"}
    assert G.view(st, SPECTATOR)["chosen"] == {"2": "face down"}
    record = {"type": "choose_illuminati", "seat": 2, "card": "beta"}
    assert G.redact_action(record, Viewer("seat", 1))["card"] is None
    assert G.redact_action(record, Viewer("seat", 2)) == record
    st = choose(choose(st, 3, "gamma"), 1, "alpha")
    assert [st.player(s).illuminati for s in (1, 2, 3)] == ["alpha@1", "beta@2", "gamma@3"]
    assert st.chosen == {} and st.phase == "choose_groups"
    assert all(len(st.player(s).plot_hand) == 3 for s in (1, 2, 3))


def test_setup_by_seats_a_choice_is_made_once_and_only_by_a_seat_still_choosing() -> None:
    st = choose(by_seats("alpha", "beta"), 1, "alpha")
    refused(st, {"type": "choose_illuminati", "seat": 1, "card": "alpha"}, "already_chosen")
    refused(st, {"type": "choose_illuminati", "seat": 2, "card": "memo"}, "not_an_illuminati")
    refused(st, {"type": "reveal_illuminati", "seat": 2, "choices": {1: "alpha", 2: "beta"}},
            "choose_by_seat")
    refused(st, {"type": "choose_group", "seat": 2, "card": "d05"}, "wrong_phase")


def test_setup_by_table_refuses_seat_choices() -> None:
    """Matches recorded before face-down choices existed keep their one-action reveal."""
    st = set_up([deck("alpha"), deck("beta")])
    refused(st, {"type": "choose_illuminati", "seat": 1, "card": "alpha"}, "reveal_by_table")
    assert G.to_act(st) == [1] and "chosen" not in G.view(st, JUDGE)


def test_i9_by_seats_duplicates_are_set_aside_and_those_seats_choose_again() -> None:
    """I9 with face-down choices: seats 1 and 2 both lay Deck Group 05; when seat 3 lays its
    group all three are revealed, the duplicates set aside, and only seats 1 and 2 choose
    again."""
    st = by_seats("alpha", "beta", "gamma")
    for seat, ill in ((1, "alpha"), (2, "beta"), (3, "gamma")):
        st = choose(st, seat, ill)
    st = choose(choose(st, 1, "d05", "group"), 2, "d05", "group")
    assert st.set_aside == [] and G.to_act(st) == [3]
    st = choose(st, 3, "d09", "group")
    assert sorted(st.set_aside) == ["d05@1", "d05@2"] and st.player(3).initial_group == "d09@3"
    assert G.to_act(st) == [1, 2] and st.setup_round == 2
    refused(st, {"type": "choose_group", "seat": 3, "card": "d10"}, "not_choosing")
    refused(st, {"type": "choose_group", "seat": 1, "card": "d09"}, "group_on_table")
    st = choose(choose(st, 2, "d07", "group"), 1, "d06", "group")
    assert (st.player(1).initial_group, st.player(2).initial_group) == ("d06@1", "d07@2")
    assert st.phase == "beginning" and st.set_aside == []


def test_setup_by_seats_every_possible_choice_is_listed() -> None:
    st = by_seats("alpha", "beta")
    assert [a.model_dump() for a in G.legal_actions(st, 1)] == [
        {"seat": 1, "type": "choose_illuminati", "card": "alpha"}]
    st = choose(choose(st, 1, "alpha"), 2, "beta")
    listed = {a.card for a in G.legal_actions(st, 1)}
    assert listed == set(DECK_GROUPS) and G.legal_actions(st, 1).sampled == []


def test_setup_by_seats_the_transcript_names_a_choice_only_to_its_seat() -> None:
    st = by_seats("alpha", "beta")
    first = {"type": "choose_illuminati", "seat": 1, "card": "alpha"}
    assert "Alpha" not in G.describe(first, [], Viewer("seat", 2), st)
    assert "lays an Illuminati face down" in G.describe(first, [], Viewer("seat", 2), st)
    after = choose(st, 1, "alpha")
    last = {"type": "choose_illuminati", "seat": 2, "card": "beta"}
    line = G.describe(last, [], Viewer("seat", 1), after)
    assert "All have chosen: revealed (seat 1: " in line and "seat 2: " in line


def test_setup_by_seats_a_concession_by_the_last_to_choose_reveals_the_others() -> None:
    """C4 during face-down choices: seats 1 and 2 have chosen; seat 3 concedes instead, so
    the two choices are revealed and setup goes on without seat 3."""
    st = choose(choose(by_seats("alpha", "beta", "gamma"), 1, "alpha"), 2, "beta")
    st = play(st, {"type": "concede", "seat": 3}, RandomChance(random.Random(3)))
    assert st.eliminated == [3] and st.chosen == {}
    assert [st.player(s).illuminati for s in (1, 2)] == ["alpha@1", "beta@2"]
    assert st.phase == "choose_groups" and G.to_act(st) == [1, 2]
