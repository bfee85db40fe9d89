"""Illuminati elimination (I8), victory (I1, 勝利条件) and concession (C4).

Sources: rules document 000 (勝利条件, プレイヤーの脱落について, ゴール) and rulings C4, I1 and I8
(RULINGS.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.illuminati import structure
from engine.illuminati.model import IlluminatiState
from tests.engine.illuminati.helpers import (
    G,
    attack,
    fill,
    groups,
    home,
    play,
    put,
    refused,
    resolve,
    table,
    totals,
)


def end_turn(seat: int = 1) -> dict[str, Any]:
    return {"type": "end_turn", "seat": seat}


def declare(goal: str, seat: int = 1, card: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "declare_victory", "seat": seat, "goal": goal}
    if card is not None:
        action["card"] = card
    return action


# ----- I8: elimination ------------------------------------------------------------------------
def last_group_destroyed(n: int) -> IlluminatiState:
    """Seat 1's World Bank destroys seat 2's only group, its home group (power 1, depth 1)."""
    st = table(n)
    put(st, 1, "giant", tokens=1)
    st = attack(st, "giant@1", home(2), "destroy")
    assert totals(st) == (30, 11)  # attack 30; defence power 1 + 10 (depth 1)
    return resolve(st, (1, 1))


def test_i8_losing_the_last_group_eliminates_at_once_and_play_goes_on() -> None:
    """I8 "eliminated at once": in a 3-player match seat 2 is out as soon as its last group is
    destroyed; the match goes on and seat 2's turns are skipped."""
    st = last_group_destroyed(3)
    assert st.eliminated == [2] and st.result is None
    assert st.player(1).destroyed == [home(2)]
    refused(st, {"type": "draw_plot", "seat": 2, "pay": ["illuminati"]}, "eliminated")
    st = play(st, end_turn(1))
    assert st.active == 3
    st = play(st, {"type": "begin_main", "seat": 3})
    st = play(st, end_turn(3))
    assert st.active == 1


def test_i8_in_two_players_the_other_wins_at_once() -> None:
    """I8, 勝利条件 "自分以外のプレイヤーが、すべて脱落する": seat 1 wins the moment seat 2 loses
    its last group."""
    st = last_group_destroyed(2)
    assert st.result is not None
    assert (st.result.winners, st.result.losers) == ([1], [2])
    assert st.result.reason == "last_player_standing"


def test_i8_losing_the_last_group_to_a_control_attack_eliminates_too() -> None:
    """I8: the last group taken by a control attack leaves the structure empty as well."""
    st = table(3)
    put(st, 1, "giant", tokens=1)
    st = resolve(attack(st, "giant@1", home(2), "control"), (1, 1))
    assert st.player(1).structure[home(2)].parent == "giant@1"
    assert st.eliminated == [2] and st.result is None


def test_i8_the_active_player_losing_its_last_group_hands_the_turn_on() -> None:
    """I8: seat 1 destroys its own last group with an instant attack on its turn (3 players):
    seat 1 is out and seat 2 begins its turn at once."""
    st = table(3)
    st.player(1).plot_hand = ["hit5@1"]
    st = play(st, {"type": "instant_attack", "seat": 1, "plot": "hit5@1", "target": home(1)})
    assert st.eliminated == [1] and st.result is None
    assert (st.active, st.phase) == (2, "beginning")


# ----- I1: the basic goal ---------------------------------------------------------------------
@pytest.mark.parametrize(("players", "need"), [(2, 12), (3, 12), (4, 11), (5, 10), (6, 10)])
def test_i1_basic_goal_wins_at_the_end_of_the_turn(players: int, need: int) -> None:
    """I1: 12 groups for 2-3 players, 11 for 4, 10 for 5+ (the Illuminati not counted); the
    declaration is settled when the turn ends."""
    st = table(players)
    fill(st, 1, need)
    assert groups(st, 1) == need
    st = play(st, declare("basic"))
    assert st.result is None
    st = play(st, end_turn())
    assert st.result is not None
    assert st.result.winners == [1] and st.result.reason == "victory"
    assert sorted(st.result.losers) == list(range(2, players + 1))


@pytest.mark.parametrize(("players", "need"), [(2, 12), (4, 11), (6, 10)])
def test_i1_basic_goal_with_one_group_too_few_is_refused(players: int, need: int) -> None:
    """I1: one group short of the goal: goal_not_met."""
    st = table(players)
    fill(st, 1, need - 1)
    refused(st, declare("basic"), "goal_not_met")


def test_i1_losing_groups_before_the_end_of_turn_means_no_win() -> None:
    """勝利条件 "条件を満たしたままターンを終える": seat 1 declares with 12 groups, then loses
    one (its own instant attack on a filler); the turn ends without a winner."""
    st = table()
    fill(st, 1, 12)
    st = play(st, declare("basic"))
    leaf = structure.groups_in(st.player(1))[-1]
    st.player(1).plot_hand = ["hit5@1"]
    st = play(st, {"type": "instant_attack", "seat": 1, "plot": "hit5@1", "target": leaf})
    assert groups(st, 1) == 11
    st = play(st, end_turn())
    assert st.result is None and st.claims == [] and st.active == 2


def test_i1_goal_groups_option_overrides_the_count() -> None:
    """I1 "regulation option goal_groups overrides": with goal_groups 3, 2 groups are refused
    and 3 win."""
    st = table(goal_groups=3)
    fill(st, 1, 2)
    refused(st, declare("basic"), "goal_not_met")
    fill(st, 1, 3)
    st = play(play(st, declare("basic")), end_turn())
    assert st.result is not None and st.result.winners == [1]


def test_i1_a_basic_claim_cannot_be_disputed() -> None:
    """The basic goal is counted by the engine, not claimed (claim_checked)."""
    st = table()
    fill(st, 1, 12)
    st = play(st, declare("basic"))
    refused(st, {"type": "dispute", "seat": 2, "claimant": 1}, "claim_checked")


# ----- special goals and goal cards (C3 claims) -----------------------------------------------
def test_special_goal_claim_undisputed_wins_at_the_end_of_the_turn() -> None:
    """勝利条件 "特殊ゴール": a claim nobody disputes wins when the turn ends."""
    st = play(table(), declare("special"))
    st = play(st, end_turn())
    assert st.result is not None
    assert (st.result.winners, st.result.reason) == ([1], "victory")


def test_disputed_claim_blocks_the_end_of_turn_until_ruled() -> None:
    """A disputed claim waits for a ruling: end_turn is refused (claim_disputed) and the game
    waits on the claimant; rejected, the turn ends without a winner."""
    st = play(play(table(), declare("special")), {"type": "dispute", "seat": 2, "claimant": 1})
    assert G.to_act(st) == [1]
    refused(st, end_turn(), "claim_disputed")
    st = play(st, {"type": "rule_claim", "seat": 1, "upheld": False,
                   "reason": "only 3 government groups"})
    assert st.claims == []
    st = play(st, end_turn())
    assert st.result is None and st.active == 2


def test_disputed_claim_upheld_wins() -> None:
    """An upheld claim wins at the end of the turn."""
    st = play(play(table(), declare("special")), {"type": "dispute", "seat": 2, "claimant": 1})
    st = play(st, {"type": "rule_claim", "seat": 1, "upheld": True,
                   "reason": "five government groups counted"})
    st = play(st, end_turn())
    assert st.result is not None and st.result.winners == [1]


def test_rejected_goal_card_returns_to_hand_revealed() -> None:
    """ゴール "条件達成を阻害されると公開された状態で手札に戻される"."""
    st = table()
    st.player(1).plot_hand = ["ledger@1"]
    st = play(st, declare("goal_card", card="ledger@1"))
    st = play(st, {"type": "dispute", "seat": 2, "claimant": 1})
    st = play(st, {"type": "rule_claim", "seat": 1, "upheld": False, "reason": "not met"})
    assert st.player(1).plot_hand == ["ledger@1"]
    assert st.player(1).revealed == ["ledger@1"]
    st = play(st, end_turn())
    assert st.result is None
    assert st.player(1).revealed == ["ledger@1"]


def test_goal_card_claim_needs_a_goal_card() -> None:
    """Only a goal plot can be played as a goal card (not_a_goal)."""
    st = table()
    st.player(1).plot_hand = ["p1@1"]
    refused(st, declare("goal_card", card="p1@1"), "not_a_goal")


# ----- C4: concession -------------------------------------------------------------------------
def test_c4_concession_in_three_players_eliminates_and_play_goes_on() -> None:
    """C4 "in a game of more than two players, the conceding player is eliminated and play goes
    on": seat 1 concedes on its turn; the next seat in turn order (3) begins."""
    st = table(3)
    st.order = [1, 3, 2]
    st = play(st, {"type": "concede", "seat": 1})
    assert st.eliminated == [1] and st.result is None
    assert (st.active, st.phase) == (3, "beginning")
    st = play(st, {"type": "begin_main", "seat": 3})
    st = play(st, end_turn(3))
    st = play(st, {"type": "begin_main", "seat": 2})
    st = play(st, end_turn(2))
    assert st.active == 3


def test_c4_concession_off_turn_keeps_the_turn() -> None:
    """C4: seat 2 concedes during seat 1's turn; seat 1 goes on and seat 3 is next."""
    st = play(table(3), {"type": "concede", "seat": 2})
    assert st.eliminated == [2] and st.active == 1 and st.result is None
    assert play(st, end_turn()).active == 3


def test_c4_concession_in_two_players_ends_the_match() -> None:
    """C4: in a 2-player match the opponent wins."""
    st = play(table(), {"type": "concede", "seat": 1})
    assert st.result is not None
    assert (st.result.winners, st.result.reason) == ([2], "concession")


def test_c4_a_conceding_players_cards_leave_the_table() -> None:
    """Project choice (docs: Elimination): the conceder's groups go to the discard pile, so their
    names are free again; the Illuminati stays as an empty root."""
    st = table(3)
    st = play(st, {"type": "concede", "seat": 2})
    gone = st.player(2)
    assert structure.groups_in(gone) == [] and home(2) in gone.discard
    assert gone.illuminati in gone.structure
    assert st.card(home(2)).name not in structure.names_on_table(st)


def test_c4_the_target_conceding_ends_the_attack_and_spends_its_plot() -> None:
    """An attack on a player who concedes ends without effect; a plot paid for it is used up."""
    st = table(3)
    st.player(1).plot_hand.append("raid@1")
    st.player(1).structure[home(1)].tokens = 1
    st = attack(st, home(1), home(2), "destroy", plot="raid@1")
    st = play(st, {"type": "concede", "seat": 2})
    assert st.attack is None and st.result is None
    assert home(2) not in st.player(1).destroyed
    assert "raid@1" in st.player(1).discard


def test_a_claim_disputed_while_an_attack_waits_for_payment_can_be_ruled() -> None:
    """Found by random play: with an unpaid attack declared, a disputed claim made the game wait
    on the claimant while listing no ruling for them; the listed actions follow to_act."""
    st = table()
    put(st, 1, "d05", tokens=1)
    st = play(st, {"type": "attack", "seat": 1, "attacker": "d05@1", "target": home(2),
                   "purpose": "destroy"})
    st = play(play(st, declare("special")), {"type": "dispute", "seat": 2, "claimant": 1})
    assert G.to_act(st) == [1]
    legal = G.legal_actions(st, 1)
    assert {"type": "rule_claim", "seat": 1, "upheld": True, "reason": "judge's ruling"} in [
        a.model_dump() for a in legal]
