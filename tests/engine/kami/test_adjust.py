"""Judges' adjustments (C3): counters (vp, ap, damage:HEX, lasting_damage:HEX, hand_limit,
battle_at, battle_df), card moves between zones, their refusals, and K7 after an adjustment.

Seat 1 is active in its action phase with a pool of 10, AP 5 and deck 5 unless a test says
otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import MalformedAction
from engine.core.chance import NoChance
from engine.kami.battle import stack_at, unit_df
from engine.kami.model import Battle, KamiState
from tests.engine.kami.helpers import (
    CARDS,
    RULES,
    U,
    act,
    adjust,
    ap_count,
    build,
    deck_count,
    play,
    play_with,
    refused,
    rocks,
    territory_on,
    unit,
    unit_on,
)


def position(**kw: Any) -> KamiState:
    kw.setdefault("pool", {1: rocks(10), 2: rocks(10)})
    kw.setdefault("ap", {1: 5, 2: 5})
    return build(**kw)


def counter(name: str, value: int) -> dict[str, Any]:
    return {"counter": {"name": name, "value": value}}


def move(card: str, from_zone: str, to_zone: str, **seats: int) -> dict[str, Any]:
    return {"move": {"card": card, "from_zone": from_zone, "to_zone": to_zone, **seats}}


# ----- counters ------------------------------------------------------------------------------
def test_c3_vp_counter_sets_the_seats_vp() -> None:
    """C3 (change a counter): seat 2's VP 3 -> 7; seat 1's stays 1."""
    state = play(position(vp={1: 1, 2: 3}), adjust(2, **counter("vp", 7)))
    assert state.vp == {1: 1, 2: 7}


def test_c3_damage_counter_on_a_hex() -> None:
    """C3 (damage by card text): damage:A2:2C sets the unit's damage to 2; outside battle a
    damage at DF destroys nothing (kami Q-11): GUARD (DF 4) with 4 stays."""
    state = play(position(units={"A2:2C": U("GUARD", 2)}), adjust(1, **counter("damage:A2:2C", 2)))
    guard = state.board["A2:2C"].unit
    assert guard is not None and guard.damage == 2
    state = play(state, adjust(1, **counter("damage:A2:2C", 4)))
    assert unit_on(state, "A2:2C") == ("GUARD", 2)


def test_c3_lasting_damage_is_not_recovered() -> None:
    """C3, §補充フェイズ ※: lasting_damage:A2:2C = 2 survives the refill phase; damage 1 is
    recovered."""
    state = position(units={"A2:2C": U("GUARD", 2)})
    state = play(state, adjust(1, **counter("lasting_damage:A2:2C", 2)))
    state = play(state, adjust(1, **counter("damage:A2:2C", 1)))
    state = play(state, act("end_action_phase", 1))
    guard = state.board["A2:2C"].unit
    assert guard is not None and (guard.damage, guard.lasting_damage) == (0, 2)


def test_c3_ap_counter_moves_ap_cards_to_and_from_the_deck() -> None:
    """C3, K3's direction: AP 5 -> 2 puts 3 AP cards on the deck (5 -> 8); AP 2 -> 9 takes 7
    from it (8 -> 1). The pool of 10 is unchanged: 9 + 1."""
    state = play(position(), adjust(1, **counter("ap", 2)))
    assert (ap_count(state, 1), deck_count(state, 1)) == (2, 8)
    state = play(state, adjust(1, **counter("ap", 9)))
    assert (ap_count(state, 1), deck_count(state, 1)) == (9, 1)


def test_c3_battle_df_modifier_counts_in_the_effective_df() -> None:
    """C3, K5 (effective DF): a force gives seat 2's GUARD -1 DF in the battle (battle_df):
    SOLDIER's 3 >= 4 - 1 destroys it."""
    state = position(units={"A2:1L": U("SOLDIER", 1), "A2:2C": U("GUARD", 2)})
    state = play(state, act("move_unit", 1, from_hex="A2:1L", to_hex="A2:2C"))
    state = play(state, adjust(2, **counter("battle_df", -1)))
    state = play(state, act("pass_battle", 1))
    state = play(state, act("pass_battle", 2))
    assert unit_on(state, "A2:2C") == ("SOLDIER", 1)


@pytest.mark.parametrize("change", [
    counter("score", 3),  # no such counter
    counter("vp", -1),
    counter("ap", 11),  # AP is 0-10
    counter("damage:A1:2C", 1),  # no unit on A1:2C
    counter("damage:A2:2C", -1),
    counter("damage", 1),  # no hex
    counter("battle_at", 2),  # no battle open
    counter("hand_limit", 41),
])
def test_c3_bad_counters_are_refused(change: dict[str, Any]) -> None:
    """C3: only the game's counters, with values they can take."""
    refused(position(units={"A2:2C": U("GUARD", 2)}), adjust(1, **change), "bad_counter")


def test_c3_ap_counter_needs_cards_in_the_deck() -> None:
    """C3, K3: pool 6 with AP 5 leaves deck 1; AP 8 would need 3 deck cards."""
    state = position(pool={1: rocks(6)}, ap={1: 5})
    refused(state, adjust(1, **counter("ap", 8)), "bad_counter")


# ----- card moves ----------------------------------------------------------------------------
def test_c3_move_hand_to_discard_and_back() -> None:
    """C3 (move a card between zones): BOLT from hand to discard, then back."""
    state = play(position(hands={1: ["BOLT"]}), adjust(1, **move("BOLT", "hand", "discard")))
    assert (state.hands[1], state.discard[1]) == ([], ["BOLT"])
    state = play(state, adjust(1, **move("BOLT", "discard", "hand")))
    assert (state.hands[1], state.discard[1]) == (["BOLT"], [])


def test_c3_move_a_unit_onto_the_field_without_cost() -> None:
    """C3: a card text puts SOLDIER from hand onto A1:2C: no AP paid (AP stays 5)."""
    state = play(position(hands={1: ["SOLDIER"]}),
                 adjust(1, **move("SOLDIER", "hand", "field:A1:2C")))
    assert unit_on(state, "A1:2C") == ("SOLDIER", 1) and ap_count(state, 1) == 5


def test_c3_move_a_unit_off_the_field_takes_its_options_to_their_owners() -> None:
    """C3, §オプションカード: seat 2's GUARD leaves the field for its hand; seat 1's CURSE on
    it goes to seat 1's discard pile."""
    state = position(units={"A2:2C": U("GUARD", 2, options=[("CURSE", 1)])})
    state = play(state, adjust(2, **move("GUARD", "field:A2:2C", "hand")))
    assert unit_on(state, "A2:2C") is None
    assert state.hands[2] == ["GUARD"] and state.discard == {1: ["CURSE"], 2: []}


def test_c3_move_between_hand_and_deck() -> None:
    """C3: SCOUT from the hand into the deck (5 -> 6), then a card from the deck to the hand
    (6 -> 5)."""
    state = play(position(hands={1: ["SCOUT"]}), adjust(1, **move("SCOUT", "hand", "deck")))
    assert state.hands[1] == [] and deck_count(state, 1) == 6
    state = play(state, adjust(1, **move("SCOUT", "deck", "hand")))
    assert state.hands[1] == ["SCOUT"] and deck_count(state, 1) == 5


def test_c3_move_a_territory_off_the_field() -> None:
    """C3: a card text sends seat 1's territory on A2:1L to its discard pile."""
    state = position(territories={"A2:1L": ("T-RED", 1)})
    state = play(state, adjust(1, **move("T-RED", "field:A2:1L", "discard")))
    assert territory_on(state, "A2:1L") is None and state.discard[1] == ["T-RED"]


def test_c3_move_names_the_seats_whose_zones_it_uses() -> None:
    """C3 (from_seat, to_seat): an adjustment for seat 1 discards a card of seat 2's hand."""
    state = position(hands={2: ["BOLT"]})
    state = play(state, adjust(1, **move("BOLT", "hand", "discard", from_seat=2, to_seat=2)))
    assert state.hands[2] == [] and state.discard == {1: [], 2: ["BOLT"]}


@pytest.mark.parametrize(("change", "reason"), [
    (move("WARD", "hand", "discard"), "card_not_in_zone"),  # not in seat 1's hand
    (move("GUARD", "field:A2:2C", "hand"), "card_not_in_zone"),  # seat 2's, not seat 1's
    (move("SCOUT", "field:A1:1L", "hand"), "card_not_in_zone"),  # nothing there
    (move("SOLDIER", "deck", "hand"), "card_not_in_zone"),  # no SOLDIER in the deck
    (move("SCOUT", "hand", "field:A1:3R"), "card_not_in_zone"),  # no room: a unit is there
    (move("BOLT", "hand", "graveyard"), "bad_zone"),
    (move("BOLT", "hand", "field:A3:9Z"), "bad_zone"),
    (move("BOLT", "hand", "ap"), "bad_zone"),  # not adjustable: use the ap counter
    (move("BOLT", "hand", "discard", to_seat=3), "no_such_seat"),
])
def test_c3_move_errors(change: dict[str, Any], reason: str) -> None:
    """C3: a move names the seat's zones and a card really there."""
    state = position(hands={1: ["BOLT", "SCOUT"], 2: ["WARD"]},
                     units={"A2:2C": U("GUARD", 2), "A1:3R": U("SCOUT", 1)})
    refused(state, adjust(1, **change), reason)


def test_c3_an_adjustment_needs_a_reason_and_one_change() -> None:
    """C3 (with a written reason): no reason, or two changes at once, is malformed."""
    state = position(hands={1: ["BOLT"]})
    for bad in ({"type": "adjust", "seat": 1, **move("BOLT", "hand", "discard")},
                {**adjust(1, **move("BOLT", "hand", "discard")), **counter("vp", 1)}):
        with pytest.raises(MalformedAction):
            RULES.apply(state, bad, NoChance())


def test_k7_runs_after_an_adjustment() -> None:
    """K7 (after every action), C3: a card text removes seat 1's T-BLUE; BLUE2 (hold blue 2)
    is discarded at once, with no VP (kami Q-9)."""
    cards = CARDS | {"BLUE2": unit("Blue Adept", hold={"blue": 2})}
    state = build(cards, territories={"A1:3L": ("T-BLUE", 1)},
                  units={"A1:2C": U("BLUE2", 1)})
    state = play(state, adjust(1, **move("T-BLUE", "field:A1:3L", "discard")))
    assert unit_on(state, "A1:2C") is None
    assert state.discard[1] == ["T-BLUE", "BLUE2"]
    assert state.vp == {1: 0, 2: 0}


def test_c3_a_card_taken_from_the_deck_by_adjustment() -> None:
    """C3: a card text puts X from the deck into the hand (deck 5 -> 4); the next draw_card
    (K3: AP 5 -> 4, deck 4 + 1 - 1 = 4) draws from what is left."""
    cards = {"X": unit("Xeno"), "ROCK": unit("Rock", cost=9, at=0, vp=0)}
    state = build(cards, pool={1: ["X", *rocks(9)]}, ap={1: 5})
    state = play(state, adjust(1, **move("X", "deck", "hand")))
    assert state.hands[1] == ["X"] and deck_count(state, 1) == 4
    state = play_with(state, act("draw_card", 1), "ROCK")
    assert state.hands[1] == ["X", "ROCK"] and (ap_count(state, 1), deck_count(state, 1)) == (
        4, 4)


# ----- options on their own, and lasting AT/DF modifiers (issue 39) -----------------------
def test_c3_an_option_is_destroyed_on_its_own() -> None:
    """C3 ("destroy target option"): BLADE leaves GUARD's hex for its owner's discard pile; the
    unit stays, with its other option."""
    state = position(units={"A2:2C": U("GUARD", 2, options=[("BLADE", 2), ("CURSE", 1)])})
    state = play(state, adjust(2, **move("BLADE", "options:A2:2C", "discard")))
    assert unit_on(state, "A2:2C") == ("GUARD", 2)
    placed = state.board["A2:2C"].unit
    assert placed is not None and [(o.card, o.owner) for o in placed.options] == [("CURSE", 1)]
    assert state.discard[2] == ["BLADE"]


def test_c3_an_option_is_attached_from_the_discard_pile() -> None:
    """C3 ("attach from the discard"): seat 1's BLADE goes onto seat 2's GUARD, kept by seat 1
    (kami Q-12); an option's own refusals: no unit there, not an option."""
    state = position(discard={1: ["BLADE", "BOLT"]}, units={"A2:2C": U("GUARD", 2)})
    after = play(state, adjust(1, **move("BLADE", "discard", "options:A2:2C")))
    placed = after.board["A2:2C"].unit
    assert placed is not None and [(o.card, o.owner) for o in placed.options] == [("BLADE", 1)]
    assert after.discard[1] == ["BOLT"]
    refused(state, adjust(1, **move("BLADE", "discard", "options:A1:1L")), "bad_zone")
    refused(state, adjust(1, **move("BOLT", "discard", "options:A2:2C")), "card_not_in_zone")


def test_c3_a_lasting_at_modifier_counts_in_a_battle_and_ends_with_the_turn() -> None:
    """C3 (AT/DF outside a battle): GUARD +2 AT until the end of the turn counts in its stack's
    AT; a DF -1 for good in its DF; the AT one is gone once the turn moves on."""
    state = position(units={"A2:2C": U("GUARD", 2)})
    state = play(state, adjust(2, modifier={"card": "GUARD", "stat": "at", "amount": 2,
                                            "until": "end_of_turn"}))
    state = play(state, adjust(2, modifier={"card": "GUARD", "stat": "df", "amount": -1}))
    guard = state.board["A2:2C"].unit
    assert guard is not None
    printed = CARDS["GUARD"]
    assert unit_df(state, None, 2, guard) == printed["df"] - 1
    battle = Battle(hex="A2:2C", attacker=guard, attacker_seat=2, stacks={2: []})
    assert stack_at(state, battle, 2, guard) == printed["at"] + 2
    later = play(state, adjust(1, turn={"turn": state.turn + 1}))
    assert [(m.stat, m.amount) for m in later.modifiers] == [("df", -1)]


def test_c3_a_modifier_names_a_unit_on_the_field() -> None:
    """A stat modifier names a unit on the field (a card in hand has no AT to change)."""
    state = position(hands={1: ["SCOUT"]})
    refused(state, adjust(1, modifier={"card": "SCOUT", "stat": "at", "amount": 1}),
            "card_not_in_zone")
    refused(state, adjust(1, modifier={"card": "SCOUT", "stat": "vp", "amount": 1}), "bad_stat")
