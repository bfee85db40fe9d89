"""Judges' adjustments (C3; the only way card texts act), done by the kernel from the zone
table's holdings (engine/edge/table.py): influence, the reserve, a card's state (flip, crank),
card moves with their attachments and closing up, moves within a conspiracy, attaching and
detaching, and refusals. Lasting modifiers of AP, DP and pull are read by the combat and pull
tests."""

from __future__ import annotations

from typing import Any

from engine import SPECTATOR
from engine.core.effects import Place
from engine.edge.model import EdgeState
from tests.engine.edge.helpers import (
    RULES,
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
    state = play(state, adjust(2, **move("FIX@2.1", "conspiracy:1.1", "dead")))
    assert state.dead == {1: ["MARKED@1.6"], 2: ["COAT@2.5", "FIX@2.1"]}
    assert grid(state, 2) == {"WARD@2.2": (1, 1)}


def test_c3_an_attached_card_alone_can_be_moved() -> None:
    """C3: seat 1's Marked on seat 2's Fixer is moved to seat 1's hand; the Fixer stays."""
    state = build(characters=[C("FIX@2.1", attached=["MARKED@1.6"])])
    state = play(state, adjust(1, **move("MARKED@1.6", "conspiracy:1.1", "hand", from_seat=2)))
    assert state.hands[1] == ["MARKED@1.6"] and char(state, "FIX@2.1").attached == []


def test_c3_moves_between_hand_deck_and_dead_pile() -> None:
    """C3: a dead Fixer back to seat 1's hand, then from the hand to the deck."""
    state = play(build(dead={1: ["FIX@1.5"]}), adjust(1, **move("FIX@1.5", "dead", "hand")))
    assert state.hands[1] == ["FIX@1.5"] and state.dead[1] == []
    state = play(state, adjust(1, **move("FIX@1.5", "hand", "deck")))
    assert "FIX@1.5" in state.decks[1] and state.hands[1] == []


def test_c3_a_card_not_in_the_named_zone_is_refused() -> None:
    """C3: FIX@1.5 is not in seat 1's hand, nor in the cell 1.1 of its conspiracy (the
    Enforcer's): card_not_in_zone."""
    state = build(characters=[C("ENF@1.1")], dead={1: ["FIX@1.5"]})
    refused(state, adjust(1, **move("FIX@1.5", "hand", "dead")), "card_not_in_zone")
    refused(state, adjust(1, **move("FIX@1.5", "conspiracy:1.1", "dead")), "card_not_in_zone")


def test_c3_a_card_leaves_a_cell_named_by_rank_and_file() -> None:
    """C3 (the kernel's moves): a card leaves a place of its zone, and the conspiracy's places
    are its cells: a move out of the bare ``conspiracy`` names no place (bad_zone), nor does a
    cell address that is not RANK.FILE."""
    state = build(characters=[C("ENF@1.1")])
    refused(state, adjust(1, **move("ENF@1.1", "conspiracy", "dead")), "bad_zone")
    refused(state, adjust(1, **move("ENF@1.1", "conspiracy:front", "dead")), "bad_zone")


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


# ----- issue 39: a character moved within its conspiracy ---------------------------------------
def xtu() -> EdgeState:
    """The issue's example: X (the Seer, cranked, wearing its Coat) at 1.1, T (the Enforcer) at
    1.2, U (the Fixer) at 2.2; the cell 2.1 is free and touches all three."""
    return build(characters=[C("SEER@1.3", 1, 1, "cranked", attached=["COAT@1.4"]),
                             C("ENF@1.1", 1, 2), C("FIX@1.2", 2, 2)])


def test_issue39_a_character_moved_to_a_free_cell_never_shares_it() -> None:
    """Issue 39, E6, OQ14: X moved from 1.1 to 2.1 goes to 2.1 of the frame as it stands (X
    lifted, nothing renumbered before it lands): X at 2.1, T at 1.2, U at 2.2. Before, lifting X
    renumbered T to 1.1 and U to 2.1 first, and X landed on U."""
    state = play(xtu(), adjust(1, **move("SEER@1.3", "conspiracy:1.1", "conspiracy:2.1")))
    assert grid(state, 1) == {"SEER@1.3": (2, 1), "ENF@1.1": (1, 2), "FIX@1.2": (2, 2)}


def test_issue39_a_character_moved_within_its_conspiracy_keeps_its_gear_and_state() -> None:
    """Issue 39, OQ17 (attachments leave with their host only when it leaves the field): X moved
    from 1.1 to 2.1 keeps its Coat and stays cranked (a judge's move is no crank); nothing goes
    to a dead pile. Before, the Coat went to the dead pile and X came back active."""
    state = play(xtu(), adjust(1, **move("SEER@1.3", "conspiracy:1.1", "conspiracy:2.1")))
    assert char(state, "SEER@1.3").attached == ["COAT@1.4"]
    assert char(state, "SEER@1.3").state == "cranked"
    assert state.dead == {1: [], 2: []}


def test_oq14_a_move_within_the_conspiracy_keeps_the_move_rules() -> None:
    """edge OQ14 (the mover lifted; ranks judged after closing up): A, B, C in ranks 1-3 of
    file 1; C moved in front of A (0.1) gives C, A, B. With D at 1.2 beside them, D moved onto
    B's cell or its own is cell_occupied, to file 4 bad_position, to a cell touching no other
    card not_adjacent, in front of A (a rank 4) too_many_ranks."""
    column = [C("FIX@1.1", 1, 1), C("ENF@1.2", 2, 1), C("SEER@1.3", 3, 1)]
    state = play(build(characters=column),
                 adjust(1, **move("SEER@1.3", "conspiracy:3.1", "conspiracy:0.1")))
    assert grid(state, 1) == {"SEER@1.3": (1, 1), "FIX@1.1": (2, 1), "ENF@1.2": (3, 1)}
    state = build(characters=[*column, C("WARD@1.4", 1, 2)])
    for cell, reason in (("2.1", "cell_occupied"), ("1.2", "cell_occupied"),
                         ("1.4", "bad_position"), ("3.3", "not_adjacent"),
                         ("0.1", "too_many_ranks")):
        refused(state, adjust(1, **move("WARD@1.4", "conspiracy:1.2", f"conspiracy:{cell}")),
                reason)


def test_c3_a_character_into_a_conspiracy_follows_the_placement_rules() -> None:
    """C3, E6: a character from the hand into a free cell of the current frame (rank 0 adds a
    rank in front: the others renumber); an occupied cell is cell_occupied; a resource is no
    character (card_not_in_zone)."""
    state = build(characters=[C("ENF@1.1")], hands={1: ["FIX@1.5", "SAFE@1.6"]})
    placed = play(state, adjust(1, **move("FIX@1.5", "hand", "conspiracy:0.1")))
    assert grid(placed, 1) == {"FIX@1.5": (1, 1), "ENF@1.1": (2, 1)}
    assert char(placed, "FIX@1.5").state == "active"
    refused(state, adjust(1, **move("FIX@1.5", "hand", "conspiracy:1.1")), "cell_occupied")
    refused(state, adjust(1, **move("SAFE@1.6", "hand", "conspiracy:1.2")), "card_not_in_zone")


def test_c3_a_permanent_moved_onto_its_own_field_stays_with_its_attachments() -> None:
    """C3: the Safehouse, carrying seat 2's Curse, moved from seat 1's field to seat 1's field
    stays where it is, Curse and all."""
    state = build(permanents=[P("SAFE@1.3", "cranked", attached=["CURSE@2.4"])])
    state = play(state, adjust(1, **move("SAFE@1.3", "field", "field")))
    assert perm(state, "SAFE@1.3") == P("SAFE@1.3", "cranked", attached=["CURSE@2.4"])
    assert state.dead == {1: [], 2: []}


# ----- attaching and detaching by adjustment (OQ17) --------------------------------------------
def test_oq17_gear_is_attached_by_adjustment_to_a_character_of_its_owner() -> None:
    """C3, edge OQ17 (gear on one of its owner's characters, flipped ones too): a card text puts
    seat 1's Knuckles from its hand onto its flipped Enforcer (``field:HOST``); it is listed
    with the Enforcer's cell."""
    state = build(characters=[C("ENF@1.1", 1, 1, "flipped")], hands={1: ["KNUCKLES@1.5"]})
    state = play(state, adjust(1, **move("KNUCKLES@1.5", "hand", "field:ENF@1.1")))
    assert char(state, "ENF@1.1").attached == ["KNUCKLES@1.5"] and state.hands[1] == []
    assert RULES.places(state)[Place("conspiracy", 1, "1.1")] == ["ENF@1.1", "KNUCKLES@1.5"]


def test_oq17_gear_goes_on_no_other_players_character_and_on_no_resource() -> None:
    """edge OQ17: seat 1's Knuckles onto seat 2's Fixer, or onto seat 1's Safehouse: bad_host."""
    state = build(characters=[C("FIX@2.1")], permanents=[P("SAFE@1.3")],
                  hands={1: ["KNUCKLES@1.5"]})
    refused(state, adjust(1, **move("KNUCKLES@1.5", "hand", "field:FIX@2.1", to_seat=2)),
            "bad_host")
    refused(state, adjust(1, **move("KNUCKLES@1.5", "hand", "field:SAFE@1.3")), "bad_host")


def test_oq17_a_condition_is_attached_by_adjustment_to_any_card_in_play() -> None:
    """C3, edge OQ17 (a condition on any card on the field, 「場のいずれかのカード」): seat 1's
    Curse from its dead pile onto seat 2's Den, then its Marked onto seat 2's Fixer; they keep
    their owner (seat 1)."""
    state = build(characters=[C("FIX@2.1")], permanents=[P("DEN@2.3")],
                  dead={1: ["CURSE@1.4"]}, hands={1: ["MARKED@1.5"]})
    state = play(state, adjust(1, **move("CURSE@1.4", "dead", "field:DEN@2.3", to_seat=2)))
    state = play(state, adjust(1, **move("MARKED@1.5", "hand", "field:FIX@2.1", to_seat=2)))
    assert perm(state, "DEN@2.3").attached == ["CURSE@1.4"]
    assert char(state, "FIX@2.1").attached == ["MARKED@1.5"]
    assert RULES.places(state)[Place("field", 2)] == ["DEN@2.3", "CURSE@1.4"]


def test_c3_only_gear_and_conditions_attach_and_only_to_a_card_in_play() -> None:
    """C3: a resource onto a host is card_not_in_zone; gear onto a card that is not in play
    of that seat (a card in a hand, another seat's character) is bad_zone."""
    state = build(characters=[C("ENF@1.1"), C("FIX@2.1")],
                  hands={1: ["SAFE@1.5", "KNUCKLES@1.6", "SEER@1.7"]})
    refused(state, adjust(1, **move("SAFE@1.5", "hand", "field:ENF@1.1")), "card_not_in_zone")
    refused(state, adjust(1, **move("KNUCKLES@1.6", "hand", "field:SEER@1.7")), "bad_zone")
    refused(state, adjust(1, **move("KNUCKLES@1.6", "hand", "field:FIX@2.1")), "bad_zone")


def test_oq17_gear_and_conditions_are_detached_by_adjustment() -> None:
    """C3: seat 1's Knuckles taken off its Enforcer (out of the Enforcer's cell) back to the
    hand; seat 2's Curse taken off seat 1's Safehouse (out of seat 1's field) to seat 2's dead
    pile. The hosts stay, as they were."""
    state = build(characters=[C("ENF@1.1", attached=["KNUCKLES@1.5"])],
                  permanents=[P("SAFE@1.3", attached=["CURSE@2.4"])])
    state = play(state, adjust(1, **move("KNUCKLES@1.5", "conspiracy:1.1", "hand")))
    state = play(state, adjust(1, **move("CURSE@2.4", "field", "dead", to_seat=2)))
    assert state.hands[1] == ["KNUCKLES@1.5"] and state.dead[2] == ["CURSE@2.4"]
    assert char(state, "ENF@1.1").attached == [] and perm(state, "SAFE@1.3").attached == []


def test_oq17_gear_is_moved_from_one_character_to_another_by_adjustment() -> None:
    """C3: a card text moves seat 1's Coat from its Enforcer (1.1) to its Fixer (1.2), outside
    the shift step and whether or not it was shifted this turn."""
    state = build(characters=[C("ENF@1.1", attached=["COAT@1.5"]), C("FIX@1.2", 1, 2)],
                  step="discard", shifted=["COAT@1.5"])
    state = play(state, adjust(1, **move("COAT@1.5", "conspiracy:1.1", "field:FIX@1.2")))
    assert char(state, "ENF@1.1").attached == [] and char(state, "FIX@1.2").attached == [
        "COAT@1.5"]


def test_c3_every_counter_and_stat_is_declared() -> None:
    """C3: the counters a judge sets are influence, character_pull, other_pull and state:CARD;
    the stats card texts change for a while are ap, dp and pull."""
    assert [t.reference() for t in RULES.tallies] == [
        "influence", "character_pull", "other_pull", "state:CARD"]
    assert [s.name for s in RULES.stats] == ["ap", "dp", "pull"]


def test_c3_a_stat_modifier_is_given_to_a_card_in_play_only() -> None:
    """C3: +2 ap to seat 2's Fixer until the end of the turn is shown to everyone with its
    reason; pull of an environment, or ap of a card in a hand, is card_not_in_zone; an
    unknown stat is bad_stat."""
    state = build(characters=[C("FIX@2.1")], permanents=[P("CITY@1.3")],
                  hands={1: ["ENF@1.5"]})
    given = play(state, adjust(1, modifier={"card": "FIX@2.1", "stat": "ap", "amount": 2,
                                            "until": "end_of_turn"}))
    assert RULES.view(given, SPECTATOR)["modifiers"] == [
        {"card": "FIX@2.1", "stat": "ap", "amount": 2, "until": "end_of_turn",
         "reason": "card text effect"}]
    refused(state, adjust(1, modifier={"card": "CITY@1.3", "stat": "pull", "amount": 1}),
            "card_not_in_zone")
    refused(state, adjust(1, modifier={"card": "ENF@1.5", "stat": "ap", "amount": 1}),
            "card_not_in_zone")
    refused(state, adjust(1, modifier={"card": "FIX@2.1", "stat": "cost", "amount": 1}),
            "bad_stat")
