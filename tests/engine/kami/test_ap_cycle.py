"""AP is cards (§AP(アクションポイント)について): paying (K3), drawing (K3), the refill (K4),
renewal, forced and voluntary (K4), with kami Q-13, Q-14, Q-15 and Q-27.

Positions start with every card of a seat's deck and AP pile unseen (kami Q-15): ``build``
takes the seat's unseen cards and how many of them are AP cards; AP and deck counts are read
from the views, as the table sees them.
"""

from __future__ import annotations

import pytest

from engine import JUDGE
from engine.core.chance import SuppliedChance
from engine.core.errors import IllegalAction
from engine.kami.model import KamiState
from tests.engine.kami.helpers import (
    RULES,
    U,
    act,
    ap_count,
    build,
    deck_count,
    play,
    play_with,
    refused,
    rocks,
    unseen,
)


def test_k3_paying_moves_ap_cards_onto_the_deck() -> None:
    """K3: paying 2 (WARD) moves two AP cards onto the deck: AP 5 -> 3, deck 5 -> 7; no card
    leaves the pool of unseen cards (10)."""
    state = build(hands={1: ["WARD"]}, pool={1: rocks(10)}, ap={1: 5})
    state = play(state, act("play_force", 1, card="WARD"))
    assert (ap_count(state, 1), deck_count(state, 1), len(unseen(state, 1))) == (3, 7, 10)
    assert state.discard[1] == ["WARD"]


def test_k3_draw_card_puts_the_paid_ap_card_into_the_hand() -> None:
    """K3 (the draw action therefore puts that AP card into the hand): AP 3, deck 5. Paying 1
    makes AP 2, deck 6; play_with the top card makes deck 5 again: AP 3 -> 2, deck 5 -> 5, hand
    +1, pool 8 -> 7. The card is a recorded draw seen by seat 1 (C1, kami Q-15)."""
    state = build(hands={1: ["BOLT"]}, pool={1: ["SCOUT", *rocks(7)]}, ap={1: 3})
    chance = SuppliedChance(["SCOUT"])
    state = play(state, act("draw_card", 1), chance)
    chance.finish()
    assert chance.stored() == [{"kind": "draw", "value": "SCOUT", "seat": 1}]
    assert (ap_count(state, 1), deck_count(state, 1), len(unseen(state, 1))) == (2, 5, 7)
    assert state.hands[1] == ["BOLT", "SCOUT"]


def test_k3_draw_card_needs_1_ap() -> None:
    """K3 (the draw action costs 1 AP): with AP 0 it is refused."""
    state = build(pool={1: rocks(5)}, ap={1: 0})
    refused(state, act("draw_card", 1), "insufficient_ap", SuppliedChance(["ROCK"]))


def test_k3_draw_card_only_by_the_active_seat() -> None:
    """○ 行動フェイズ: seat 2 may not draw in seat 1's turn."""
    state = build(pool={1: rocks(5), 2: rocks(5)}, ap={1: 3, 2: 3})
    refused(state, act("draw_card", 2), "not_your_turn", SuppliedChance(["ROCK"]))


@pytest.mark.parametrize(("ap", "after"), [(0, 5), (5, 10), (7, 10), (10, 10)])
def test_k4_refill_takes_min_of_5_and_10_minus_ap(ap: int, after: int) -> None:
    """K4 (5, or fewer when the pile reaches 10), kami Q-27 (AP carries over): seat 2's turn
    begins with min(5, 10 - AP) cards from its deck of 20 - AP: 0 -> 5, 5 -> 10, 7 -> 10
    (3 taken), 10 -> 10 (none)."""
    state = build(phase="judgment", pool={1: rocks(5), 2: rocks(20)}, ap={1: 0, 2: ap})
    state = play(state, act("end_turn", 1))
    assert (state.active, state.phase, state.turn) == (2, "action", 4)
    assert ap_count(state, 2) == after
    assert deck_count(state, 2) == 20 - after  # (20 - ap) - (after - ap)


def test_k4_forced_renewal_in_the_middle_of_the_refill() -> None:
    """K4: seat 2's deck holds 2 and its discard 4. Two cards go onto the AP pile, the empty
    deck forces a renewal (discard 4 into the deck, seat 1 gains 5 VP), then three more:
    AP 0 + 5 = 5, deck 2 - 2 + 4 - 3 = 1, discard empty. (The renewal shuffles the discard
    into the deck, not into the AP pile, so the two AP cards' identities are fixed first:
    two hidden outcomes, kami Q-15.)"""
    state = build(phase="judgment", pool={2: rocks(2)},
                  discard={2: ["SCOUT", "GUARD", "BOLT", "WARD"]}, vp={1: 3, 2: 4})
    state = play_with(state, act("end_turn", 1), "ROCK", "ROCK")
    assert (ap_count(state, 2), deck_count(state, 2), state.discard[2]) == (5, 1, [])
    assert state.vp == {1: 8, 2: 4}  # 3 + 5


def test_q13_forced_renewal_with_an_empty_discard_stops_the_refill_short() -> None:
    """kami Q-13: deck 2, discard empty: the refill takes 2 and stops (AP 2, deck 0); no
    renewal, no VP, no loss."""
    state = build(phase="judgment", pool={2: rocks(2)}, vp={1: 3, 2: 4})
    state = play(state, act("end_turn", 1))
    assert (ap_count(state, 2), deck_count(state, 2)) == (2, 0)
    assert state.vp == {1: 3, 2: 4}
    assert state.result is None and state.phase == "action"


def test_k4_voluntary_renewal_shuffles_the_discard_into_the_deck() -> None:
    """K4 (a player may also renew voluntarily), kami Q-14 (shuffle_all): deck 5 + discard 3
    = deck 8, discard empty, AP still 5, seat 2 gains 5 VP (1 -> 6)."""
    state = build(pool={1: rocks(10)}, ap={1: 5}, discard={1: ["SCOUT", "GUARD", "BOLT"]},
                  vp={1: 0, 2: 1})
    state = play_with(state, act("renew_deck", 1), *rocks(5))  # the 5 AP cards fixed
    assert (deck_count(state, 1), ap_count(state, 1), state.discard[1]) == (8, 5, [])
    assert sorted(["BOLT", "GUARD", "SCOUT"]) == [c for c in unseen(state, 1) if c != "ROCK"]
    assert state.vp == {1: 0, 2: 6}


def test_q13_voluntary_renewal_with_an_empty_discard_is_refused() -> None:
    """kami Q-13: renewing with nothing to shuffle in is refused (discard_empty)."""
    state = build(pool={1: rocks(10)}, ap={1: 5})
    refused(state, act("renew_deck", 1), "discard_empty")


def test_k4_forced_renewal_in_the_refill_phase_draw() -> None:
    """K4, §補充フェイズ (unit draw), §基本構成細則 ライブラリアウト: two own units at home
    draw two cards; the deck holds 1. The first draw empties it, the second forces a renewal
    (discard 2 into the deck, seat 2 gains 5 VP): deck 1 - 1 + 2 - 1 = 1."""
    state = build(pool={1: ["SCOUT"]}, discard={1: ["GUARD", "BOLT"]},
                  units={"A1:2C": U("SOLDIER", 1), "A1:1L": U("SOLDIER", 1)})
    state = play_with(state, act("end_action_phase", 1), "SCOUT", "BOLT")
    assert state.hands[1] == ["SCOUT", "BOLT"]
    assert (deck_count(state, 1), state.discard[1], unseen(state, 1)) == (1, [], ["GUARD"])
    assert state.vp == {1: 0, 2: 5}


def test_q27_unspent_ap_stays_across_turns() -> None:
    """kami Q-27: seat 1 ends its turn with AP 3; it still has 3 in seat 2's turn."""
    state = build(phase="judgment", pool={1: rocks(8), 2: rocks(10)}, ap={1: 3, 2: 0})
    state = play(state, act("end_turn", 1))
    assert (ap_count(state, 1), deck_count(state, 1)) == (3, 5)


def _ap_pile(state: KamiState, seat: int) -> list[str | None]:
    """The AP pile, top first, as a judge's view shows it (None: a card not fixed yet)."""
    view = next(s for s in RULES.view(state, JUDGE)["seats"] if s["seat"] == seat)
    return [None if c is None else c["id"] for c in view["ap_pile"]]


def test_k3_paid_ap_cards_go_on_top_of_the_deck_in_order_and_come_back() -> None:
    """K3, digest 4.2 (after paying 2 with the AP pile [a1, a2, ...] the deck reads [a2, a1,
    ...]). A renewal fixes seat 1's three AP cards (kami Q-15; deck 2 + discard 1 = 3, seat 2
    gains 5). draw_card pays a1 onto the deck and draws it: no outcome is needed (AP 3 -> 2,
    deck 3). An ability costing 2 puts a2 then a3 on top (deck a3, a2, ...: AP 0, deck 5);
    the refill phase's two unit draws take a3, then a2, again with no outcome."""
    state = build(pool={1: ["SCOUT", "GUARD", "BOLT", "ROCK", "ROCK"]}, ap={1: 3},
                  discard={1: ["WARD"]},
                  units={"A1:2C": U("STATUE", 1), "A1:1L": U("STATUE", 1)})
    state = play_with(state, act("renew_deck", 1), "SCOUT", "GUARD", "BOLT")
    a1, a2, a3 = _ap_pile(state, 1)
    assert sorted([a1, a2, a3]) == ["BOLT", "GUARD", "SCOUT"]  # type: ignore[type-var]
    assert (ap_count(state, 1), deck_count(state, 1), state.vp[2]) == (3, 3, 5)
    state = play(state, act("draw_card", 1))  # NoChance: the card is known
    assert state.hands[1] == [a1] and (ap_count(state, 1), deck_count(state, 1)) == (2, 3)
    state = play(state, act("activate_ability", 1, hex="A1:2C", cost=2))
    assert (ap_count(state, 1), deck_count(state, 1)) == (0, 5)
    state = play(state, act("end_action_phase", 1))  # NoChance again
    assert state.hands[1] == [a1, a3, a2]
    assert deck_count(state, 1) == 3


def test_q13_refill_phase_draw_with_empty_deck_and_discard_is_cut_short() -> None:
    """kami Q-13 (the refill draw is cut short; no deck-out, §基本構成細則 ライブラリアウト: 無し):
    two units at home, deck 1, discard empty: one card is drawn, no renewal, no VP."""
    state = build(pool={1: ["SCOUT"]},
                  units={"A1:2C": U("STATUE", 1), "A1:1L": U("STATUE", 1)})
    state = play_with(state, act("end_action_phase", 1), "SCOUT")
    assert state.hands[1] == ["SCOUT"] and deck_count(state, 1) == 0
    assert state.vp == {1: 0, 2: 0} and state.result is None and state.phase == "judgment"


def test_q14_renewal_option_exists_with_shuffle_all_by_default() -> None:
    """kami Q-14, digest 9.2, X1 (a proposed regulation option exists with its default):
    ``renewal: shuffle_all`` (default) | ``discard_under``."""
    assert RULES.parse_options({}).model_dump()["renewal"] == "shuffle_all"
    assert RULES.parse_options({"renewal": "discard_under"}).model_dump()["renewal"] == (
        "discard_under")


def test_q14_discard_under_keeps_the_remaining_deck_on_top() -> None:
    """kami Q-14 (``discard_under``): the discard pile goes under what is left of the deck.
    Deck 1 (an unseen ROCK) + discard SCOUT: deck 2, seat 2 gains 5; the refill phase draw of
    the one unit at home is the ROCK, never the SCOUT."""
    state = build(pool={1: ["ROCK"]}, discard={1: ["SCOUT"]},
                  units={"A1:2C": U("STATUE", 1)}, options={"renewal": "discard_under"})
    state = play(state, act("renew_deck", 1))
    assert (deck_count(state, 1), state.vp[2]) == (2, 5)
    refused(state, act("end_action_phase", 1), "outcome_impossible", SuppliedChance(["SCOUT"]))
    state = play_with(state, act("end_action_phase", 1), "ROCK")
    assert state.hands[1] == ["ROCK"]


def test_q15_a_table_renewal_asks_for_the_ap_cards_a_judge_looks_at() -> None:
    """kami Q-15, K4: at a physical table nobody turns the AP pile over, so a renewal asks for
    its unfixed cards as hidden outcomes a judge enters; none entered: refused, saying so."""
    state = build(pool={1: rocks(10)}, ap={1: 5}, discard={1: ["SCOUT"]})
    with pytest.raises(IllegalAction) as refusal:
        RULES.apply(state, act("renew_deck", 1), SuppliedChance([]))
    assert refusal.value.reason == "outcome_missing"
    assert "a judge looks at" in refusal.value.message
