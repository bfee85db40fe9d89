"""Illuminati power structures: control arrows, automatic control, moves and action tokens (I6).

Sources: rules document 000 (権力構造図について, 支配矢印について, ターン開始, メインフェイズ,
アクショントークンについて) and ruling I6 (RULINGS.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.illuminati.model import IlluminatiState, Node
from tests.engine.illuminati.helpers import chain, home, ill, play, put, refused, table


def beginning(n: int = 2, hand: tuple[str, ...] = ("gov@1",), **options: Any) -> IlluminatiState:
    """Seat 1 at the beginning of its turn with ``hand`` as its group hand."""
    st = table(n, phase="beginning", **options)
    st.player(1).group_hand = list(hand)
    return st


def auto(card: str, parent: str | None = None, arrow: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "auto_control", "seat": 1, "card": card}
    if parent is not None:
        action["parent"] = parent
    if arrow is not None:
        action["arrow"] = arrow
    return action


# ----- automatic control onto arrows (支配矢印について) ----------------------------------------
def test_auto_control_puts_a_hand_group_on_a_free_arrow() -> None:
    """ターン開始 "自動支配": a hand group goes to the named free arrow without a token, and the
    main phase starts."""
    st = play(beginning(), auto("gov@1", "illuminati", "left"))
    assert st.player(1).structure["gov@1"] == Node(card="gov@1", parent="alpha@1", arrow="left",
                                                   tokens=1)
    assert st.player(1).group_hand == []
    assert st.phase == "main" and st.auto_controlled


def test_auto_control_without_an_arrow_takes_the_first_free_one() -> None:
    """The first free arrow of the parent (top is the home group's): right."""
    st = play(beginning(), auto("gov@1"))
    assert st.player(1).structure["gov@1"].arrow == "right"


def test_auto_control_onto_a_taken_arrow_is_refused() -> None:
    """支配矢印 "各アイコンごとにそれぞれ 1つのカードを支配": the top arrow already holds the
    home group (arrow_taken)."""
    refused(beginning(), auto("gov@1", "illuminati", "top"), "arrow_taken")


def test_auto_control_onto_a_side_without_an_arrow_is_refused() -> None:
    """A group's top side holds its incoming arrow, and Right Hand has only a right arrow:
    neither top nor left of it can take a group (no_such_arrow)."""
    st = beginning()
    put(st, 1, "onearrow")
    refused(st, auto("gov@1", "onearrow", "left"), "no_such_arrow")
    refused(st, auto("gov@1", home(1), "top"), "no_such_arrow")


def test_auto_control_under_a_card_with_no_free_arrow_is_refused() -> None:
    """Lonely Hermit has no outgoing arrow; Right Hand's only arrow is taken (no_free_arrow)."""
    st = beginning()
    put(st, 1, "leaf")
    hand = put(st, 1, "onearrow")
    put(st, 1, "f01", hand, "right")
    refused(st, auto("gov@1", "leaf"), "no_free_arrow")
    refused(st, auto("gov@1", "onearrow"), "no_free_arrow")


def test_auto_control_of_a_group_already_on_the_table_is_refused() -> None:
    """グループ "場において全体ユニーク": seat 2 controls Tax Office, so seat 1's copy cannot be
    placed (group_on_table)."""
    st = beginning()
    put(st, 2, "gov")
    refused(st, auto("gov@1"), "group_on_table")


def test_auto_control_of_a_resource_goes_to_the_resource_area() -> None:
    """ターン開始 "リソース: ...リソースの置き場に配置する"."""
    st = play(beginning(hand=("uniq@1",)), auto("uniq@1"))
    assert [r.card for r in st.player(1).resources] == ["uniq@1"]
    assert "uniq@1" not in st.player(1).structure


def test_auto_control_only_once_per_turn() -> None:
    """One automatic control: afterwards the main phase has begun (wrong_phase)."""
    st = play(beginning(hand=("gov@1", "plain@1")), auto("gov@1"))
    refused(st, auto("plain@1"), "wrong_phase")


# ----- moving a group (メインフェイズ) ----------------------------------------------------------
def moving() -> IlluminatiState:
    """Seat 1: Tax Office under the Illuminati's right arrow, Filler 01 under Tax Office; only
    the Illuminati holds a token."""
    st = table()
    chain(st, 1, "gov", "f01")
    st.player(1).structure[ill(st, 1)].tokens = 1
    return st


def test_move_takes_the_subtree_along_for_one_token() -> None:
    """メインフェイズ "アクショントークン 1つを消費...(下流部分ごと纏めて)移動": Tax Office
    moves under the home group's bottom arrow; Filler 01 stays under Tax Office."""
    st = play(moving(), {"type": "move", "seat": 1, "group": "gov@1", "parent": home(1),
                         "arrow": "bottom", "pay": "illuminati"})
    nodes = st.player(1).structure
    assert (nodes["gov@1"].parent, nodes["gov@1"].arrow) == (home(1), "bottom")
    assert (nodes["f01@1"].parent, nodes["f01@1"].arrow) == ("gov@1", "right")
    assert nodes["alpha@1"].tokens == 0


def test_move_under_its_own_subtree_is_refused() -> None:
    """A group cannot hang from a card below itself (move_into_itself)."""
    refused(moving(), {"type": "move", "seat": 1, "group": "gov@1", "parent": "f01@1",
                       "pay": "illuminati"}, "move_into_itself")


def test_move_needs_a_token() -> None:
    """The paying card must hold a token (no_token)."""
    refused(moving(), {"type": "move", "seat": 1, "group": "gov@1", "parent": home(1),
                       "pay": "f01@1"}, "no_token")


def test_move_onto_a_taken_arrow_is_refused() -> None:
    """Only a free arrow: the Illuminati's top arrow holds the home group (arrow_taken)."""
    refused(moving(), {"type": "move", "seat": 1, "group": "f01@1", "parent": "illuminati",
                       "arrow": "top", "pay": "illuminati"}, "arrow_taken")


# ----- I6: action tokens ------------------------------------------------------------------------
def test_i6_illuminati_and_each_group_holding_none_get_one_token() -> None:
    """I6: at the start of the turn the Illuminati and every group without a token get one; a
    group still holding one gets no second; the other seats get nothing."""
    st = beginning()
    put(st, 1, "gov")
    put(st, 1, "plain", tokens=1)
    put(st, 2, "corp")
    st = play(st, {"type": "begin_main", "seat": 1})
    tokens = {c: n.tokens for c, n in st.player(1).structure.items()}
    assert tokens == {"alpha@1": 1, home(1): 1, "gov@1": 1, "plain@1": 1}
    assert all(n.tokens == 0 for n in st.player(2).structure.values())
    assert st.phase == "main"


def test_i6_a_group_reduced_to_power_0_gets_no_token() -> None:
    """I6 "A group whose power has been reduced to 0 gets none": Tax Office (power 5) at -5."""
    st = beginning()
    gov = put(st, 1, "gov")
    st.player(1).structure[gov].power_mod = -5
    st = play(st, {"type": "begin_main", "seat": 1})
    assert st.player(1).structure[gov].tokens == 0


def test_i6_a_group_printed_with_power_0_still_gets_a_token() -> None:
    """I6 "(a group printed with power 0 still does)": Mime Troupe, power 0, gets one."""
    st = beginning()
    zero = put(st, 1, "zero")
    st = play(st, {"type": "begin_main", "seat": 1})
    assert st.player(1).structure[zero].tokens == 1


@pytest.mark.parametrize(("players", "rule", "illuminati_tokens"), [
    (2, "auto", 0), (2, "off", 1), (2, "on", 0), (3, "auto", 1), (3, "on", 0)])
def test_i6_tournament_rule_after_an_automatic_control(players: int, rule: str,
                                                      illuminati_tokens: int) -> None:
    """I6 tournament_two_player (default on in 2-player matches): on a turn with an automatic
    control the Illuminati gets no token; the groups (the new one too) still do."""
    st = beginning(players, tournament_two_player=rule)
    st = play(st, auto("gov@1"))
    nodes = st.player(1).structure
    assert nodes["alpha@1"].tokens == illuminati_tokens
    assert nodes[home(1)].tokens == 1 and nodes["gov@1"].tokens == 1


def test_i6_tournament_rule_spares_a_turn_without_automatic_control() -> None:
    """I6: in a 2-player match, a turn without automatic control gives the Illuminati its
    token."""
    st = play(beginning(2), {"type": "begin_main", "seat": 1})
    assert st.player(1).structure["alpha@1"].tokens == 1
