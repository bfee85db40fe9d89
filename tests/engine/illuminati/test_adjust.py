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
