"""C3 adjustments in Illuminati (counters, moves, what they may not disturb), and placements
that bad input must not slip through."""

from __future__ import annotations

from engine.illuminati.model import Resource
from tests.engine.illuminati.helpers import attack, home, play, put, refused, table


def _adjust(seat: int, **change: object) -> dict[str, object]:
    return {"type": "adjust", "seat": seat, "reason": "card text", **change}


def test_c3_tokens_counter_on_a_resource_named_by_bare_id() -> None:
    st = table()
    st.player(1).resources.append(Resource(card="uniq@1"))
    st = play(st, _adjust(1, counter={"name": "tokens:uniq", "value": 2}))
    assert st.player(1).resources[0].tokens == 2


def test_c3_power_counter_changes_the_attack_total() -> None:
    st = table()
    put(st, 1, "d05", tokens=1)
    st = play(st, _adjust(1, counter={"name": "power:d05", "value": -2}))
    assert st.player(1).structure["d05@1"].power_mod == -2


def test_c3_the_target_of_an_attack_under_way_cannot_be_moved() -> None:
    """Moving the target out mid-attack would leave nothing to resolve against."""
    st = table()
    put(st, 1, "d05", tokens=1)
    st = attack(st, "d05@1", home(2), "destroy")
    refused(st, _adjust(2, move={"card": home(2), "from_zone": "structure",
                                 "to_zone": "group_hand"}), "attack_in_progress")


def test_c3_unknown_zone_is_refused() -> None:
    refused(table(), _adjust(1, move={"card": home(1), "from_zone": "pocket",
                                      "to_zone": "group_hand"}), "bad_zone")


def test_a_resource_taken_by_automatic_control_has_no_arrow() -> None:
    st = table(phase="beginning")
    st.player(1).group_hand.append("uniq@1")
    refused(st, {"type": "auto_control", "seat": 1, "card": "uniq", "parent": "illuminati"},
            "resource_has_no_arrow")
    st = play(st, {"type": "auto_control", "seat": 1, "card": "uniq"})
    assert [r.card for r in st.player(1).resources] == ["uniq@1"]


def test_c3_a_card_text_puts_a_group_from_hand_into_the_opponents_structure() -> None:
    st = table()
    st.player(1).group_hand.append("d05@1")
    st = play(st, _adjust(1, move={"card": "d05", "from_zone": "group_hand",
                                   "to_zone": f"structure:{home(2)}", "to_seat": 2}))
    assert st.player(1).group_hand == []
    assert st.player(2).structure["d05@1"].parent == home(2)


def test_c3_a_card_is_taken_from_the_named_seats_hand() -> None:
    st = table()
    st.player(2).plot_hand.append("p01@2")
    st = play(st, _adjust(1, move={"card": "p01", "from_zone": "plot_hand", "from_seat": 2,
                                   "to_zone": "plot_hand"}))
    assert st.player(1).plot_hand == ["p01@2"] and st.player(2).plot_hand == []


def test_c3_a_bad_structure_place_is_refused_before_the_card_is_looked_for() -> None:
    st = table()
    st.player(1).group_hand.append("d05@1")
    for card in ("d05", "d06"):  # in the hand, and not
        refused(st, _adjust(1, move={"card": card, "from_zone": "group_hand",
                                     "to_zone": "structure:nobody"}), "not_in_structure")
        refused(st, _adjust(1, move={"card": card, "from_zone": "group_hand",
                                     "to_zone": f"structure:{home(1)}:sideways"}), "bad_zone")


def test_c3_an_extra_turn_restarts_the_beginning_of_the_turn() -> None:
    st = table(active=2, phase="main")
    st = play(st, _adjust(1, turn={"active": 1, "turn": 4, "phase": "beginning"}))
    assert (st.active, st.turn, st.phase, st.step) == (1, 4, "beginning", "plot")
    refused(st, _adjust(1, turn={"phase": "choose_groups"}), "bad_phase")
