"""The turn (§ターン(自分の手番)の進行): the victory check at its start (E1, §勝利条件の確認; edge
OQ8), uncrank and unflip (§カードテンディング, edge OQ1), the discard exchange (§ディスカード; edge
OQ3, OQ5), the draw (§ドロー; E2, C2, edge OQ31, OQ25) and the turn order."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.edge.helpers import (
    RULES,
    C,
    P,
    act,
    build,
    char,
    perm,
    play,
    refused,
)

END = act("end_turn", 1)


# ----- E1: the influence goal, checked at the start of one's own turn ------------------------
@pytest.mark.parametrize(("players", "goal"), [(2, 24), (3, 16), (4, 12), (5, 10), (8, 10)])
def test_e1_goal_by_player_count(players: int, goal: int) -> None:
    """E1 (2 -> 24, 3 -> 16, 4 -> 12, 5+ -> 10): seat 2 starting its turn with goal - 1 does not
    win; with exactly the goal it wins (reason influence)."""
    below = play(build(players=players, influence={2: goal - 1}), END)
    assert below.result is None and below.active == 2
    at_goal = play(build(players=players, influence={2: goal}), END)
    assert at_goal.result is not None
    assert (at_goal.result.winners, at_goal.result.reason) == ([2], "influence")


def test_e1_the_goal_is_checked_only_at_the_start_of_ones_own_turn() -> None:
    """E1, §勝利条件 (「自分のターン開始時に」): seat 1 holds 24 in its own operations step and ends
    its turn: nothing happens to seat 1 (seat 2 begins, 0 < 24)."""
    state = play(build(influence={1: 24}), END)
    assert state.result is None and state.active == 2


def test_e1_reaching_the_goal_by_conversion_waits_for_the_next_own_turn() -> None:
    """E1, E7: seat 1 at 20 ends its turn with 4 character pull: 20 + 4 = 24, no win yet; seat 2
    passes (draw, end turn) and seat 1's next turn starts at 24: seat 1 wins."""
    state = play(build(influence={1: 20}, character_pull=4), END)
    assert state.influence[1] == 24 and state.result is None
    state = play(state, act("draw", 2), "FILL@2.90")
    state = play(state, act("end_turn", 2))
    assert state.result is not None and state.result.winners == [1]


def test_e1_losses_before_the_next_own_turn_count() -> None:
    """E1 (checked only at the turn's start): seat 1 at 24 after its turn is set to 23 by an
    adjustment in seat 2's turn (as a combat loss would): seat 1's next turn starts, no win."""
    state = build(active=2, influence={1: 24})
    state = play(state, {"type": "adjust", "seat": 1, "reason": "lost a character",
                         "counter": {"name": "influence", "value": 23}})
    state = play(state, act("end_turn", 2))
    assert state.result is None and state.active == 1


def test_e1_the_win_comes_before_the_uncrank() -> None:
    """E1, digest section 3 step 1 (the match ends before anything else): seat 2 wins at 24 and
    its cranked Enforcer is still cranked."""
    state = play(build(influence={2: 24}, characters=[C("ENF@2.1", state="cranked")]), END)
    assert state.result is not None and state.result.winners == [2]
    assert char(state, "ENF@2.1").state == "cranked"


def test_oq8_goal_basis_starting_counts_the_players_at_the_start() -> None:
    """edge OQ8 (goal_basis: starting, the default): 3 started, seat 3 is out; seat 2 at 16
    (the 3-player goal) wins at the start of its turn."""
    state = play(build(players=3, eliminated=[3], influence={2: 16}), END)
    assert state.result is not None and state.result.winners == [2]


def test_oq8_goal_basis_remaining_counts_the_players_still_in() -> None:
    """edge OQ8 (goal_basis: remaining): 3 started, seat 3 out, 2 remain: the goal is 24; seat 2
    at 16 does not win."""
    state = play(build(players=3, eliminated=[3], influence={2: 16},
                       options={"goal_basis": "remaining"}), END)
    assert state.result is None and state.active == 2


def test_oq8_influence_goal_overrides_the_table() -> None:
    """edge OQ8 (influence_goal): with influence_goal 30 in a 2-player match, 24 does not win
    and 30 does."""
    assert play(build(influence={2: 24}, options={"influence_goal": 30}), END).result is None
    won = play(build(influence={2: 30}, options={"influence_goal": 30}), END)
    assert won.result is not None and won.result.winners == [2]


# ----- OQ1: uncrank, then unflip ---------------------------------------------------------------
def test_oq1_uncrank_then_unflip_leaves_flipped_cards_cranked() -> None:
    """edge OQ1, §アンクランク, §アンフリップ (「すべて表向きの屈伸状態にする」): at the start of
    seat 2's turn its cranked Enforcer and cranked Safehouse become active; its flipped Seer and
    flipped Den turn face up cranked (in the Seer's own cell, 2.1). Seat 1's cranked Fixer stays
    cranked."""
    state = build(characters=[C("ENF@2.1", 1, 1, "cranked"), C("SEER@2.2", 2, 1, "flipped"),
                              C("FIX@1.1", state="cranked")],
                  permanents=[P("SAFE@2.3", "cranked"), P("DEN@2.4", "flipped")])
    state = play(state, END)
    assert [char(state, c).state for c in ("ENF@2.1", "SEER@2.2", "FIX@1.1")] == \
        ["active", "cranked", "cranked"]
    assert (char(state, "SEER@2.2").rank, char(state, "SEER@2.2").file) == (2, 1)
    assert [perm(state, p).state for p in ("SAFE@2.3", "DEN@2.4")] == ["active", "cranked"]


def test_turn_start_resets_the_per_turn_limits() -> None:
    """Digest section 3 step 0: seat 1 used its 0-cost card, attacked seat 2, shifted a gear and
    drew a card; at seat 2's turn all are reset, and seat 2 is at its discard step."""
    state = build(zero_cost_used=True, attacked=[2], shifted=["KNUCKLES@1.5"],
                  drawn=["FILL@1.80"])
    state = play(state, END)
    assert (state.zero_cost_used, state.attacked, state.shifted, state.drawn) == \
        (False, [], [], [])
    assert (state.active, state.step, state.turn) == (2, "discard", 4)


def test_turn_order_skips_eliminated_seats() -> None:
    """Digest section 3 (turns rotate in seat order, skipping eliminated players): with seat 2
    out, seat 1's end_turn starts seat 3's turn; seat 3's starts seat 1's."""
    state = play(build(players=3, eliminated=[2]), END)
    assert state.active == 3
    state = play(state, act("draw", 3), "FILL@3.90")
    assert play(state, act("end_turn", 3)).active == 1


# ----- OQ3, OQ5: the discard exchange ---------------------------------------------------------
def discard_table(**fields: Any) -> dict[str, Any]:
    """Seat 1 in its discard step with an Enforcer in play; in hand a second Enforcer
    (ENF@1.2), another printing of the name (ENF2@1.3) and a Fixer (placeable)."""
    return dict(step="discard", characters=[C("ENF@1.1")],
                hands={1: ["ENF@1.2", "ENF2@1.3", "FIX@1.4"]}) | fields


def test_oq5_a_blocked_card_is_exchanged_face_up_into_the_dead_pile() -> None:
    """§ディスカード, edge OQ5: the second Enforcer (blocked by name) goes to seat 1's dead pile
    and FILL@1.90 is drawn in its place (deck 5 -> 4); still the discard step."""
    state = play(build(**discard_table()), act("discard_unplayable", 1, cards=["ENF@1.2"]),
                 "FILL@1.90")
    assert state.dead[1] == ["ENF@1.2"]
    assert state.hands[1] == ["ENF2@1.3", "FIX@1.4", "FILL@1.90"]
    assert len(state.decks[1]) == 4 and state.step == "discard"


def test_oq3_only_cards_uniqueness_blocks_may_be_discarded() -> None:
    """edge OQ3 (the discard step exchanges blocked cards only, no hand-limit discard): the
    Fixer can be placed: refused (not_unplayable)."""
    refused(build(**discard_table()), act("discard_unplayable", 1, cards=["FIX@1.4"]),
            "not_unplayable")


def test_oq5_the_exchange_is_repeatable_but_not_for_cards_drawn_this_turn() -> None:
    """§ディスカード (「このターンに引いた…カードは、捨てることができない」), edge OQ5: the first
    exchange draws ENF@1.5, a third Enforcer (blocked); discarding it is refused
    (drawn_this_turn); exchanging ENF2@1.3 next is accepted (repeatable)."""
    state = build(**discard_table(decks={1: ["ENF@1.5", "FILL@1.90"]}))
    state = play(state, act("discard_unplayable", 1, cards=["ENF@1.2"]), "ENF@1.5")
    refused(state, act("discard_unplayable", 1, cards=["ENF@1.5"]), "drawn_this_turn")
    state = play(state, act("discard_unplayable", 1, cards=["ENF2@1.3"]), "FILL@1.90")
    assert state.dead[1] == ["ENF@1.2", "ENF2@1.3"] and state.decks[1] == []


def test_oq5_discarding_more_than_the_deck_holds_is_refused() -> None:
    """edge OQ5 (deck_too_small rather than a voluntary deck-out): two blocked cards, one card
    in the deck."""
    refused(build(**discard_table(decks={1: ["FILL@1.90"]})),
            act("discard_unplayable", 1, cards=["ENF@1.2", "ENF2@1.3"]), "deck_too_small")


def test_discard_step_ends_with_the_draw() -> None:
    """Digest section 3 (the discard step lasts until draw): after the draw an exchange is
    refused (wrong_step)."""
    state = play(build(**discard_table()), act("draw", 1), "FILL@1.90")
    refused(state, act("discard_unplayable", 1, cards=["ENF@1.2"]), "wrong_step")


# ----- E2, C2: the draw step -------------------------------------------------------------------
def test_e2_the_draw_step_draws_one_card_and_opens_operations() -> None:
    """E2: one card (FILL@1.92), deck 5 -> 4, the operations step follows."""
    state = play(build(step="discard"), act("draw", 1), "FILL@1.92")
    assert state.hands[1] == ["FILL@1.92"] and len(state.decks[1]) == 4
    assert state.step == "operations" and state.drawn == ["FILL@1.92"]


def test_e2_draw_per_turn_option() -> None:
    """E2 (regulation option draw_per_turn): with 2, the draw step draws two."""
    state = play(build(step="discard", options={"draw_per_turn": 2}), act("draw", 1),
                 "FILL@1.90", "FILL@1.91")
    assert state.hands[1] == ["FILL@1.90", "FILL@1.91"]


def test_e2_the_draw_is_mandatory() -> None:
    """Digest section 3 (step 5 mandatory): end_turn in the discard step is refused
    (wrong_step)."""
    refused(build(step="discard"), END, "wrong_step")


def test_c2_deck_out_with_two_players_the_other_wins() -> None:
    """C2, §勝利条件 (「引くべき時に引けない」): seat 1 draws from an empty deck: seat 2 wins
    (deck_out)."""
    state = play(build(step="discard", decks={1: []}), act("draw", 1))
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason) == \
        ([2], [1], "deck_out")


def test_oq31_a_short_deck_draws_what_is_there_then_loses() -> None:
    """edge OQ31: draw_per_turn 2 with one card left: FILL@1.90 is drawn, the second card is
    owed from an empty deck: seat 2 wins (deck_out)."""
    state = play(build(step="discard", decks={1: ["FILL@1.90"]},
                       options={"draw_per_turn": 2}), act("draw", 1), "FILL@1.90")
    assert state.hands[1] == ["FILL@1.90"]
    assert state.result is not None and state.result.reason == "deck_out"
    assert state.result.winners == [2]


def test_c2_deck_out_with_three_players_eliminates_and_the_turn_passes() -> None:
    """C2, edge OQ25 (eliminated in its own turn: the turn passes at once, no conversion): seat
    1 of 3 decks out holding 3 character pull; seat 1 is eliminated with influence still 0, its
    Enforcer leaves the game, and seat 2's turn starts (its cranked Fixer uncranks)."""
    state = build(players=3, step="discard", decks={1: []}, character_pull=3,
                  characters=[C("ENF@1.1"), C("FIX@2.1", state="cranked")])
    state = play(state, act("draw", 1))
    assert state.result is None and state.eliminated == [1]
    assert state.influence[1] == 0 and state.character_pull == 0
    assert state.conspiracies[1] == []
    assert (state.active, state.step) == (2, "discard")
    assert char(state, "FIX@2.1").state == "active"
    assert RULES.to_act(state) == [2]


def test_c2_the_last_player_standing_wins() -> None:
    """§勝利条件 (「自分以外のプレイヤー全員がゲームから脱落する」), C2: 3 players, seat 3 already
    out; seat 1 decks out: seat 2, the last one in, wins."""
    state = play(build(players=3, eliminated=[3], step="discard", decks={1: []}),
                 act("draw", 1))
    assert state.result is not None and state.result.winners == [2]
    assert 1 in state.result.losers


def test_oq5_only_blocked_cards_not_drawn_this_turn_are_listed_for_exchange() -> None:
    """edge OQ3, OQ5: in the discard step with ENF@1.2 and ENF2@1.3 blocked, ENF@1.6 blocked but
    drawn this turn and a placeable Fixer, the listed exchanges are the first two only, beside
    the draw."""
    state = build(**discard_table(hands={1: ["ENF@1.2", "ENF2@1.3", "FIX@1.4", "ENF@1.6"]},
                                  drawn=["ENF@1.6"]))
    listed = list(RULES.legal_actions(state, 1))
    assert {a.type for a in listed} == {"draw", "discard_unplayable"}
    assert sorted(tuple(a.cards) for a in listed  # type: ignore[attr-defined]
                  if a.type == "discard_unplayable") == [("ENF2@1.3",), ("ENF@1.2",)]
