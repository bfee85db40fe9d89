"""The kernel's zone table and the judge's adjustment (C3), shown on World Gainer positions.

The zone table decides who sees what, the vocabulary of ``adjust``, and what a refusal may say:
zone names and places are checked before any card is looked at, so refusals reveal nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import JUDGE, SPECTATOR, Viewer, get_game
from engine.core.zones import Visibility, Zone, ZoneTable, may_see
from tests.engine.worldgainer.helpers import G, build, card, play, refused

CARDS = {"R1": card("red", 1), "G2": card("green", 2), "B3": card("blue", 3),
         "Y4": card("yellow", 4)}
SEAT1, SEAT2 = Viewer("seat", 1), Viewer("seat", 2)


def _move(card_id: str, from_zone: str, to_zone: str, seat: int = 1,
          **seats: int) -> dict[str, Any]:
    return {"type": "adjust", "seat": seat, "reason": "card text",
            "move": {"card": card_id, "from_zone": from_zone, "to_zone": to_zone, **seats}}


def _turn(**change: Any) -> dict[str, Any]:
    return {"type": "adjust", "seat": 1, "reason": "extra turn", "turn": change}


# ----- who sees what: one rule ---------------------------------------------------------------
@pytest.mark.parametrize(("visibility", "viewer", "owner", "sees"), [
    (Visibility.EVERYONE, SPECTATOR, 1, True),
    (Visibility.OWNER, SEAT1, 1, True),
    (Visibility.OWNER, SEAT2, 1, False),
    (Visibility.OWNER, SPECTATOR, 1, False),
    (Visibility.OWNER, JUDGE, 1, True),
    (Visibility.OWNER, SEAT1, None, False),
    (Visibility.JUDGES, SEAT1, 1, False),
    (Visibility.JUDGES, JUDGE, 1, True),
])
def test_may_see(visibility: Visibility, viewer: Viewer, owner: int | None, sees: bool) -> None:
    assert may_see(viewer, visibility, owner) is sees


def test_a_zone_is_declared_once() -> None:
    zone = Zone("hand", "seat", ordered=False, contents=Visibility.OWNER)
    with pytest.raises(ValueError, match="twice"):
        ZoneTable([zone, zone])


def test_every_game_declares_the_zones_its_views_and_adjustments_use() -> None:
    wg, ill = get_game("worldgainer"), get_game("illuminati")
    assert {"hand", "deck", "break", "standby", "field"} == set(wg.zone_table.zones)
    assert {"plot_hand", "group_hand", "plot_deck", "group_deck", "structure"} <= set(
        ill.zone_table.zones)


def test_the_view_follows_the_zone_table() -> None:
    st = build(CARDS, hand1=["R1"], deck1=["G2"], hand2=["B3"], deck2=["Y4"])
    seats = G.view(st, SEAT1)["seats"]
    assert [c["id"] for c in seats[0]["hand"]] == ["R1"] and seats[0]["deck"] is None
    assert seats[1]["hand"] is None and seats[1]["hand_count"] == 1
    assert G.view(st, JUDGE)["seats"][1]["deck"] == ["Y4"]


# ----- refusals are no oracle ------------------------------------------------------------------
@pytest.mark.parametrize("to_zone", ["nowhere", "field:Z9", "standby:9", "hand:3"])
def test_a_bad_zone_is_refused_alike_whether_or_not_the_card_is_there(to_zone: str) -> None:
    st = build(CARDS, hand1=["R1"], deck1=["G2"])
    there = refused(st, _move("R1", "hand", to_zone), "bad_zone")
    absent = refused(st, _move("B3", "hand", to_zone), "bad_zone")
    assert there.message == absent.message.replace("B3", "R1")


def test_an_unknown_source_zone_is_refused_before_the_card_is_looked_for() -> None:
    st = build(CARDS, hand1=["R1"])
    refused(st, _move("R1", "pocket", "break"), "bad_zone")
    refused(st, _move("B3", "pocket", "break"), "bad_zone")


# ----- moves between seats -------------------------------------------------------------------
def test_a_judge_moves_a_card_into_the_opponents_hand() -> None:
    st = build(CARDS, break1=["B3"], hand2=["R1"])
    after = play(st, _move("B3", "break", "hand", to_seat=2))
    assert after.player(1).breaks == [] and after.player(2).hand == ["B3", "R1"]


def test_a_card_can_be_put_onto_a_square_the_opponent_holds() -> None:
    st = build(CARDS, hand1=["G2"], board={"B-1": (2, ["R1"])})
    after = play(st, _move("G2", "hand", "field:B-1", to_seat=2))
    assert after.board["B-1"].holder == 2 and after.board["B-1"].cards == ("R1", "G2")


def test_a_card_is_taken_from_the_named_seats_zone() -> None:
    st = build(CARDS, hand2=["Y4"])
    after = play(st, _move("Y4", "hand", "break", from_seat=2, to_seat=2))
    assert after.player(2).breaks == ["Y4"]
    refused(st, _move("Y4", "hand", "break"), "card_not_in_zone")  # not in seat 1's hand


def test_a_move_names_only_seats_of_the_match() -> None:
    refused(build(CARDS, hand1=["R1"]), _move("R1", "hand", "hand", to_seat=3), "no_such_seat")


# ----- turn, turn number and phase -----------------------------------------------------------
def test_a_judge_gives_an_extra_turn_and_sets_the_phase() -> None:
    st = build(CARDS, active=1, turn=5, phase="gain", stun_placed=True)
    after = play(st, _turn(active=1, turn=6, phase="standby"))
    assert (after.active, after.turn, after.phase) == (1, 6, "standby")
    after = play(st, _turn(active=2))
    assert (after.active, after.turn, after.phase) == (2, 5, "gain")


def test_a_turn_change_names_a_phase_of_the_game_and_a_seat_of_the_match() -> None:
    st = build(CARDS)
    error = refused(st, _turn(phase="upkeep"), "bad_phase")
    assert "standby, gain" in error.message
    refused(st, _turn(active=3), "no_such_seat")


def test_a_turn_change_past_the_turn_limit_calls_time() -> None:
    st = build(CARDS, turn=3, options={"turn_limit": 3})
    assert play(st, _turn(turn=4)).result.reason == "turn_limit"


# ----- what the record of an adjustment shows ------------------------------------------------
def test_a_hidden_move_is_redacted_for_those_who_see_neither_end() -> None:
    action = _move("R1", "hand", "deck")
    for viewer in (SPECTATOR, SEAT2):
        assert G.redact_action(action, viewer)["move"]["card"] is None
        assert "a card" in G.describe(action, [], viewer)
    for viewer in (SEAT1, JUDGE):
        assert G.redact_action(action, viewer) == action
        assert "R1" in G.describe(action, [], viewer)


def test_a_move_to_a_public_zone_or_into_the_viewers_hand_is_shown() -> None:
    assert G.redact_action(_move("R1", "hand", "break"), SPECTATOR)["move"]["card"] == "R1"
    gift = _move("R1", "hand", "hand", to_seat=2)
    assert G.redact_action(gift, SEAT2)["move"]["card"] == "R1"
    assert G.redact_action(gift, SPECTATOR)["move"]["card"] is None
    assert "to hand of seat 2" in G.describe(gift, [], SEAT2)
