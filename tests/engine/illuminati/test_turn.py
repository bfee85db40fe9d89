"""Illuminati turn flow: beginning-of-turn draws, anytime plot draws, the plot hand limit (I7),
uniqueness of resources and New World Order plots, and Illuminati agents.

Sources: rules document 000 (ターン開始, いつでもできる行動について, ターン終了, その他構成
"ユニーク処理", エージェントについて) and ruling I7 (RULINGS.md).
"""

from __future__ import annotations

from typing import Any

from engine.core.chance import SuppliedChance
from engine.illuminati.model import IlluminatiState
from tests.engine.illuminati.helpers import home, ill, play, put, refused, table


def top(st: IlluminatiState, seat: int, which: str = "plot") -> str:
    """A card of ``seat``'s plot (or group) deck to supply as the next draw."""
    p = st.player(seat)
    return sorted((p.plot_deck if which == "plot" else p.group_deck).shuffled)[0]


def draw_plot(seat: int, *pay: str) -> dict[str, Any]:
    return {"type": "draw_plot", "seat": seat, "pay": list(pay)}


# ----- ターン開始: free draws -------------------------------------------------------------------
def test_beginning_of_turn_free_plot_and_group_draws() -> None:
    """ターン開始: one plot and one group card, each free and optional, plot first."""
    st = table(phase="beginning")
    plot_card, group_card = top(st, 1), top(st, 1, "group")
    st = play(st, draw_plot(1), SuppliedChance([plot_card]))
    refused(st, draw_plot(1), "free_draw_used")
    st = play(st, {"type": "draw_group", "seat": 1}, SuppliedChance([group_card]))
    assert st.player(1).plot_hand == [plot_card] and st.player(1).group_hand == [group_card]
    refused(st, {"type": "draw_group", "seat": 1}, "free_draw_used")
    assert st.phase == "beginning"


def test_main_phase_group_draw_costs_a_token_once_a_turn() -> None:
    """メインフェイズ "アクショントークン 1つを消費することで、グループデッキからカードを 1枚
    (1ターンに 1回)"."""
    st = table()
    st.player(1).structure[ill(st, 1)].tokens = 1
    st.player(1).structure[home(1)].tokens = 1
    refused(st, {"type": "draw_group", "seat": 1}, "payment_needed")
    card = top(st, 1, "group")
    st = play(st, {"type": "draw_group", "seat": 1, "pay": "illuminati"}, SuppliedChance([card]))
    assert st.player(1).group_hand == [card]
    assert st.player(1).structure[ill(st, 1)].tokens == 0
    refused(st, {"type": "draw_group", "seat": 1, "pay": home(1)}, "group_draw_used")


def test_end_turn_passes_to_the_next_seat_in_turn_order() -> None:
    """ターン終了: the next player in turn order begins with a fresh beginning of turn."""
    st = table(3)
    st.order = [1, 3, 2]
    st = play(st, {"type": "end_turn", "seat": 1})
    assert (st.active, st.turn, st.phase, st.step) == (3, 4, "beginning", "plot")


# ----- いつでもできる行動: paid plot draws -------------------------------------------------------
def test_plot_draw_for_one_illuminati_token() -> None:
    """いつでもできる行動 "イルミナティのトークンなら 1つ": one Illuminati token buys a plot."""
    st = table()
    st.player(1).structure[ill(st, 1)].tokens = 1
    card = top(st, 1)
    st = play(st, draw_plot(1, "illuminati"), SuppliedChance([card]))
    assert st.player(1).plot_hand == [card]
    assert st.player(1).structure[ill(st, 1)].tokens == 0


def test_plot_draw_for_two_group_tokens() -> None:
    """いつでもできる行動 "グループのトークンなら 2つ": two groups' tokens buy a plot."""
    st = table()
    gov = put(st, 1, "gov", tokens=1)
    st.player(1).structure[home(1)].tokens = 1
    card = top(st, 1)
    st = play(st, draw_plot(1, home(1), gov), SuppliedChance([card]))
    assert st.player(1).plot_hand == [card]
    assert st.player(1).structure[gov].tokens == st.player(1).structure[home(1)].tokens == 0


def test_plot_draw_for_one_group_token_is_refused() -> None:
    """One group token, the same group twice, or the Illuminati plus a group: bad_payment."""
    st = table()
    st.player(1).structure[ill(st, 1)].tokens = 1
    gov = put(st, 1, "gov", tokens=1)
    refused(st, draw_plot(1, gov), "bad_payment")
    refused(st, draw_plot(1, gov, gov), "bad_payment")
    refused(st, draw_plot(1, "illuminati", gov), "bad_payment")


def test_plot_draw_off_turn() -> None:
    """いつでもできる行動 "自ターン以外でも": seat 2 buys a plot during seat 1's turn."""
    st = table()
    st.player(2).structure[ill(st, 2)].tokens = 1
    card = top(st, 2)
    st = play(st, draw_plot(2, "illuminati"), SuppliedChance([card]))
    assert st.player(2).plot_hand == [card] and st.active == 1


# ----- I7: the plot hand limit ------------------------------------------------------------------
def seven_plots(seat: int = 1) -> IlluminatiState:
    st = table()
    st.player(seat).plot_hand = [f"p{n}@{seat}" for n in range(1, 8)]
    return st


def end_turn(seat: int, *plots: str) -> dict[str, Any]:
    return {"type": "end_turn", "seat": seat, "plots_to_bottom": list(plots)}


def test_i7_excess_plots_go_under_the_plot_deck_in_the_chosen_order() -> None:
    """I7: 7 plots at the end of the owner's turn: exactly 2 go to the bottom of the plot deck,
    in the order the player gives (Plot 6 above Plot 2)."""
    st = play(seven_plots(), end_turn(1, "p6@1", "p2@1"))
    p = st.player(1)
    assert p.plot_hand == ["p1@1", "p3@1", "p4@1", "p5@1", "p7@1"]
    assert p.plot_deck.bottom[-2:] == ["p6@1", "p2@1"]
    assert st.active == 2


def test_i7_putting_the_wrong_number_under_the_deck_is_refused() -> None:
    """I7: with 7 plots, none, one or three cards under the deck are refused (hand_limit)."""
    st = seven_plots()
    for plots in ((), ("p1@1",), ("p1@1", "p2@1", "p3@1")):
        refused(st, end_turn(1, *plots), "hand_limit")


def test_i7_five_plots_need_nothing_put_away() -> None:
    """I7: the limit is 5: a hand of 5 ends the turn as it is."""
    st = table()
    st.player(1).plot_hand = [f"p{n}@1" for n in range(1, 6)]
    refused(st, end_turn(1, "p1@1"), "hand_limit")
    assert len(play(st, end_turn(1)).player(1).plot_hand) == 5


def test_i7_an_off_turn_player_may_hold_more_than_five() -> None:
    """I7 "enforced at the end of its owner's turn": seat 2 keeps 7 plots through seat 1's end of
    turn, and puts 2 away at the end of its own."""
    st = play(seven_plots(2), end_turn(1))
    assert len(st.player(2).plot_hand) == 7
    st = play(st, {"type": "begin_main", "seat": 2})
    refused(st, end_turn(2), "hand_limit")
    st = play(st, end_turn(2, "p1@2", "p2@2"))
    assert len(st.player(2).plot_hand) == 5


def test_group_hand_has_no_limit() -> None:
    """I7 "Group-card hand has no limit": 12 group cards end the turn untouched."""
    st = table()
    st.player(1).group_hand = [f"f{n:02d}@1" for n in range(1, 13)]
    assert len(play(st, end_turn(1)).player(1).group_hand) == 12


# ----- uniqueness (ユニーク処理) ---------------------------------------------------------------
def test_unique_resource_is_never_placed_twice_even_after_leaving_the_table() -> None:
    """ユニーク処理 "“Unique”を持つリソースカード、全軍ユニーク、破壊後を含め先出し生存": seat 1
    places Crown Jewels, a judge removes it (card text, C3), and seat 2's copy still cannot be
    placed, neither by automatic control nor in the main phase (unique_resource)."""
    st = table()
    st.player(1).group_hand = ["uniq@1"]
    st.player(2).group_hand = ["uniq@2"]
    st = play(st, {"type": "place_resource", "seat": 1, "card": "uniq@1"})
    assert [r.card for r in st.player(1).resources] == ["uniq@1"]
    st = play(st, {"type": "adjust", "seat": 1, "reason": "destroyed by a plot's text",
                   "move": {"card": "uniq@1", "from_zone": "resources", "to_zone": "discard"}})
    assert st.player(1).resources == []
    st = play(st, end_turn(1))
    refused(st, {"type": "auto_control", "seat": 2, "card": "uniq@2"}, "unique_resource")
    st = play(st, {"type": "begin_main", "seat": 2})
    refused(st, {"type": "place_resource", "seat": 2, "card": "uniq@2"}, "unique_resource")


def test_new_world_order_of_the_same_colour_replaces_the_older() -> None:
    """ユニーク処理 "“New World Order”...記述色単位で全軍ユニーク、後出し生存": seat 2's red
    order discards seat 1's; seat 1's blue order stays."""
    st = table()
    st.player(1).plot_hand = ["nwo-red-1@1", "nwo-blue@1"]
    st.player(2).plot_hand = ["nwo-red-2@2"]
    st = play(st, {"type": "play_plot", "seat": 1, "card": "nwo-red-1@1"})
    st = play(st, {"type": "play_plot", "seat": 1, "card": "nwo-blue@1"})
    st = play(st, {"type": "play_plot", "seat": 2, "card": "nwo-red-2@2"})
    assert st.new_world_order == {"red": "nwo-red-2@2", "blue": "nwo-blue@1"}
    assert st.player(1).discard == ["nwo-red-1@1"]


# ----- Illuminati agents (エージェントについて) -----------------------------------------------
def test_illuminati_agent_costs_the_top_card_of_each_deck() -> None:
    """エージェントについて "コストとしてプロットデッキとグループデッキそれぞれの一番上のカード
    (計 2枚)が破棄される": two recorded picks, both discarded; Beta Cabal (seat 2's) is placed."""
    st = table()
    st.player(1).plot_hand = ["beta@1"]
    plot_card, group_card = top(st, 1), top(st, 1, "group")
    chance = SuppliedChance([plot_card, group_card])
    st = play(st, {"type": "place_agent", "seat": 1, "card": "beta@1"}, chance)
    chance.finish()
    assert [o.kind for o in chance.outcomes] == ["agent_cost_plot", "agent_cost_group"]
    p = st.player(1)
    assert p.agents == ["beta@1"] and p.plot_hand == []
    assert sorted(p.discard) == sorted([plot_card, group_card])
    assert plot_card not in p.plot_deck.shuffled and group_card not in p.group_deck.shuffled


def test_illuminati_agent_of_your_own_illuminati_is_refused() -> None:
    """"自分のイルミナティと同じカードは、エージェントとして使用できない"."""
    st = table()
    st.player(1).plot_hand = ["alpha@1.2"]
    refused(st, {"type": "place_agent", "seat": 1, "card": "alpha@1.2"}, "own_illuminati")


def test_illuminati_agent_needs_an_opponent_playing_it() -> None:
    """"場に存在する対戦相手のイルミナティ...と同一のカード": nobody plays Gamma Circle."""
    st = table()
    st.player(1).plot_hand = ["gamma@1"]
    refused(st, {"type": "place_agent", "seat": 1, "card": "gamma@1"}, "no_such_opponent")


def test_illuminati_agent_one_per_name() -> None:
    """"カード名単位でそれぞれ 1枚ずつ配置できる": a second Beta Cabal agent is refused."""
    st = table()
    st.player(1).agents = ["beta@1"]
    st.player(1).plot_hand = ["beta@1.2"]
    refused(st, {"type": "place_agent", "seat": 1, "card": "beta@1.2"}, "agent_already_placed")
