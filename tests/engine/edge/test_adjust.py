"""Judges' adjustments (C3; the only way card texts act): influence, the reserve, a card's
state (flip, crank), card moves with their attachments and closing up, and refusals."""

from __future__ import annotations

from typing import Any

from tests.engine.edge.helpers import (
    C,
    P,
    adjust,
    build,
    char,
    grid,
    perm,
    play,
    refused,
)


def counter(name: str, value: int) -> dict[str, Any]:
    return {"counter": {"name": name, "value": value}}


def move(card: str, from_zone: str, to_zone: str, **seats: int) -> dict[str, Any]:
    return {"move": {"card": card, "from_zone": from_zone, "to_zone": to_zone, **seats}}


def test_c3_influence_is_set_and_may_be_negative() -> None:
    """C3, §影響力 (「マイナス値もありうる」): influence of seat 2 set to 7, then to -2."""
    state = play(build(), adjust(2, **counter("influence", 7)))
    assert state.influence[2] == 7
    assert play(state, adjust(2, **counter("influence", -2))).influence[2] == -2


def test_c3_the_reserve_is_set_by_kind() -> None:
    """C3, E7: character_pull 3 and other_pull 1 are set separately; a negative pull is
    refused (bad_counter)."""
    state = play(build(), adjust(1, **counter("character_pull", 3)))
    state = play(state, adjust(1, **counter("other_pull", 1)))
    assert (state.character_pull, state.other_pull) == (3, 1)
    refused(state, adjust(1, **counter("other_pull", -1)), "bad_counter")


def test_c3_state_flips_and_cranks_any_card_in_play() -> None:
    """C3, §その他構成 › カードの行動表現 (flips come only from card text): seat 2's Warden is
    flipped (2) and keeps its cell (E6); seat 1's Safehouse is cranked (1), then made active
    (0)."""
    state = build(characters=[C("WARD@2.1", 1, 2), C("FIX@2.2", 1, 1)],
                  permanents=[P("SAFE@1.3")])
    state = play(state, adjust(1, **counter("state:WARD@2.1", 2)))
    assert char(state, "WARD@2.1").state == "flipped"
    assert grid(state, 2)["WARD@2.1"] == (1, 2)
    state = play(state, adjust(1, **counter("state:SAFE@1.3", 1)))
    assert perm(state, "SAFE@1.3").state == "cranked"
    assert perm(play(state, adjust(1, **counter("state:SAFE@1.3", 0))), "SAFE@1.3").state == \
        "active"


def test_c3_bad_counters_are_refused() -> None:
    """C3: an unknown counter, a state value 3, and the state of a card not in play are refused
    (bad_counter)."""
    state = build(characters=[C("ENF@1.1")])
    for name, value in (("valor", 5), ("state:ENF@1.1", 3), ("state:FIX@1.9", 1),
                        ("influence:ENF@1.1", 2)):
        refused(state, adjust(1, **counter(name, value)), "bad_counter")


def test_c3_a_character_removed_takes_its_attachments_and_the_grid_closes_up() -> None:
    """C3, OQ17, E6: seat 2's Fixer (1, 1), wearing its Coat and seat 1's Marked, is moved to
    seat 2's dead pile; the Coat follows to seat 2's, Marked to seat 1's; the Warden behind it
    moves up from (2, 1) to (1, 1)."""
    state = build(characters=[C("FIX@2.1", 1, 1, attached=["COAT@2.5", "MARKED@1.6"]),
                              C("WARD@2.2", 2, 1)])
    state = play(state, adjust(2, **move("FIX@2.1", "conspiracy", "dead")))
    assert state.dead == {1: ["MARKED@1.6"], 2: ["COAT@2.5", "FIX@2.1"]}
    assert grid(state, 2) == {"WARD@2.2": (1, 1)}


def test_c3_an_attached_card_alone_can_be_moved() -> None:
    """C3: seat 1's Marked on seat 2's Fixer is moved to seat 1's hand; the Fixer stays."""
    state = build(characters=[C("FIX@2.1", attached=["MARKED@1.6"])])
    state = play(state, adjust(1, **move("MARKED@1.6", "conspiracy", "hand", from_seat=2)))
    assert state.hands[1] == ["MARKED@1.6"] and char(state, "FIX@2.1").attached == []


def test_c3_moves_between_hand_deck_and_dead_pile() -> None:
    """C3: a dead Fixer back to seat 1's hand, then from the hand to the deck."""
    state = play(build(dead={1: ["FIX@1.5"]}), adjust(1, **move("FIX@1.5", "dead", "hand")))
    assert state.hands[1] == ["FIX@1.5"] and state.dead[1] == []
    state = play(state, adjust(1, **move("FIX@1.5", "hand", "deck")))
    assert "FIX@1.5" in state.decks[1] and state.hands[1] == []


def test_c3_a_card_not_in_the_named_zone_is_refused() -> None:
    """C3: FIX@1.5 is not in seat 1's hand, and not in its conspiracy: card_not_in_zone."""
    state = build(dead={1: ["FIX@1.5"]})
    refused(state, adjust(1, **move("FIX@1.5", "hand", "dead")), "card_not_in_zone")
    refused(state, adjust(1, **move("FIX@1.5", "conspiracy", "dead")), "card_not_in_zone")


def test_c3_a_card_can_be_put_into_play_by_a_judge() -> None:
    """C3 (「move a card between zones」; the zone table declares field and conspiracy): a card
    text returns seat 1's dead Safehouse to its field."""
    state = play(build(dead={1: ["SAFE@1.5"]}), adjust(1, **move("SAFE@1.5", "dead", "field")))
    assert [p.card for p in state.permanents[1]] == ["SAFE@1.5"]


def test_oq6_a_duplicate_arriving_by_card_effect_goes_to_the_dead_pile() -> None:
    """edge OQ6 (先出し生存: a duplicate arriving by card effect goes to the dead pile): with an
    Enforcer at (1, 1), a card text puts a second Enforcer (ENF2) from the hand into the
    conspiracy at 1.2: it goes to seat 1's dead pile and the first one stays."""
    state = build(characters=[C("ENF@1.1")], hands={1: ["ENF2@1.5"]})
    state = play(state, adjust(1, **move("ENF2@1.5", "hand", "conspiracy:1.2")))
    assert grid(state, 1) == {"ENF@1.1": (1, 1)} and state.dead[1] == ["ENF2@1.5"]
