"""Hold and support (§ホールドとサポートについて, K7), with kami Q-9, Q-10, Q-12, Q-21 and Q-29.

A seat's support is the icons of its territories (either area) and its support units on the
field; a card's hold is met when each colour is covered and the total covers the coloured plus
the colourless icons (Q-10 ``additional``). Seat 1 is active in its action phase with AP 5 and
deck 5 unless a test says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.kami.model import KamiState
from tests.engine.kami.helpers import (
    CARDS,
    U,
    act,
    adjust,
    ap_count,
    build,
    force,
    option,
    play,
    refused,
    rocks,
    territory,
    unit,
    unit_on,
)

HOLD_CARDS: dict[str, Any] = CARDS | {
    "T-RED1": territory("Small Red Shrine", set_cost=1, replace_cost=1, support={"red": 1}),
    "BLUE2": unit("Blue Adept", hold={"blue": 2}, vp=2),
    "MIXED": unit("Mixed Adept", hold={"red": 1, "colourless": 1}),
    "SPEAKER": unit("Black Speaker", hold={"blue": 2}, support={"black": 1}, vp=2, df=2),
    "FOLLOWER": unit("Black Follower", hold={"black": 1}, vp=1),
    "SELF": unit("Self-Reliant", hold={"blue": 1}, support={"blue": 1}),
    "CHARM-B": option("Blue Charm", hold={"blue": 1}, vp=1),
    "CHARM-R": option("Red Charm", hold={"red": 1}, vp=3),
    "WARD-B": force("Blue Ward", interference=True, hold={"blue": 1}),
    "R-BLUE": unit("Blue Recruit", reinforcement=True, hold={"blue": 1}),
    "R-SUPP": unit("Blue Herald", reinforcement=True, support={"blue": 2}),
}


def position(**kw: Any) -> KamiState:
    kw.setdefault("pool", {1: rocks(10), 2: rocks(10)})
    kw.setdefault("ap", {1: 5, 2: 5})
    return build(HOLD_CARDS, **kw)


# ----- hold at use ---------------------------------------------------------------------------
def test_hold_at_use_a_unit_needs_its_hold_met() -> None:
    """§ホールドとサポートについて (使用時…条件が満たされている必要がある): BLUE2 needs blue 2;
    refused with no support, summoned once seat 1's T-BLUE (blue 2) stands."""
    state = position(hands={1: ["BLUE2"]})
    refused(state, act("summon_unit", 1, card="BLUE2", hex="A1:2C"), "hold_not_met")
    state = position(hands={1: ["BLUE2"]}, territories={"A1:3L": ("T-BLUE", 1)})
    state = play(state, act("summon_unit", 1, card="BLUE2", hex="A1:2C"))
    assert unit_on(state, "A1:2C") == ("BLUE2", 1)


def test_hold_at_use_counts_only_ones_own_support() -> None:
    """§ホールドとサポートについて (場に配置された自分のテリトリー): seat 2's T-BLUE, even in
    seat 1's area, does not meet seat 1's hold."""
    state = position(hands={1: ["BLUE2"]}, territories={"A1:3L": ("T-BLUE", 2)})
    refused(state, act("summon_unit", 1, card="BLUE2", hex="A1:2C"), "hold_not_met")


@pytest.mark.parametrize("action", [
    act("equip_option", 1, card="CHARM-B", hex="A1:2C"),
    act("play_force", 1, card="WARD-B"),
])
def test_hold_at_use_options_and_forces(action: dict[str, Any]) -> None:
    """§ホールドとサポートについて: an option and a force need their hold (blue 1) too."""
    state = position(hands={1: ["CHARM-B", "WARD-B"]}, units={"A1:2C": U("GUARD", 1)},
                     territories={"A1:3L": ("T-RED", 1)})
    refused(state, action, "hold_not_met")


def test_q4_hold_at_use_a_reinforcement() -> None:
    """kami Q-4 (the hold must be met): R-BLUE needs blue 1; seat 1 has only red."""
    state = position(hands={1: ["R-BLUE"]}, territories={"A1:3L": ("T-RED", 1)},
                     units={"A1:2C": U("SCOUT", 1), "A1:1L": U("GUARD", 2)})
    state = play(state, act("move_unit", 1, from_hex="A1:2C", to_hex="A1:1L"))
    refused(state, act("reinforce", 1, card="R-BLUE"), "hold_not_met")


# ----- support sources (kami Q-29) -----------------------------------------------------------
def test_q29_own_territory_in_the_enemy_area_gives_support() -> None:
    """kami Q-29 (own territories in both areas): seat 1's T-BLUE on A2:1L meets BLUE2."""
    state = position(hands={1: ["BLUE2"]}, territories={"A2:1L": ("T-BLUE", 1)})
    state = play(state, act("summon_unit", 1, card="BLUE2", hex="A1:2C"))
    assert unit_on(state, "A1:2C") == ("BLUE2", 1)


def test_q29_support_units_give_support() -> None:
    """§ホールドとサポートについて (および一部ユニット), kami Q-29: SPEAKER's black 1 meets
    FOLLOWER's hold."""
    state = position(hands={1: ["FOLLOWER"]}, territories={"A1:3L": ("T-BLUE", 1)},
                     units={"A1:3R": U("SPEAKER", 1)})
    state = play(state, act("summon_unit", 1, card="FOLLOWER", hex="A1:2C"))
    assert unit_on(state, "A1:2C") == ("FOLLOWER", 1)


def test_q29_own_support_not_at_use_but_for_maintenance() -> None:
    """kami Q-29: SELF (hold blue 1, support blue 1) cannot be summoned on its own support;
    on the field, with T-BLUE replaced by T-RED, its own blue 1 keeps it."""
    state = position(hands={1: ["SELF"]})
    refused(state, act("summon_unit", 1, card="SELF", hex="A1:2C"), "hold_not_met")
    state = position(hands={1: ["T-RED"]}, territories={"A1:3L": ("T-BLUE", 1)},
                     units={"A1:2C": U("SELF", 1)})
    state = play(state, act("replace_territory", 1, card="T-RED", hex="A1:3L"))
    assert unit_on(state, "A1:2C") == ("SELF", 1)


def test_q29_reinforcements_in_a_stack_give_no_support() -> None:
    """kami Q-29: R-SUPP (support blue 2) on seat 1's stack does not meet WARD-B's blue 1."""
    state = position(hands={1: ["R-SUPP", "WARD-B"]},
                     units={"A1:2C": U("SCOUT", 1), "A1:1L": U("GUARD", 2)})
    state = play(state, act("move_unit", 1, from_hex="A1:2C", to_hex="A1:1L"))
    state = play(state, act("reinforce", 1, card="R-SUPP"))
    state = play(state, act("pass_battle", 2))
    refused(state, act("interfere", 1, card="WARD-B"), "hold_not_met")


def test_q29_an_attacking_support_unit_still_supports_during_its_battle() -> None:
    """K7, kami Q-29 (own support units on the field count), digest 5.1 (a battle is units of
    both players on one hex): SPEAKER (support black 1) moves onto an enemy GUARD; while it
    fights on A2:2C it is still on the field, so FOLLOWER (hold black 1) stays."""
    state = position(territories={"A1:3L": ("T-BLUE", 1)},
                     units={"A2:1L": U("SPEAKER", 1), "A2:2C": U("GUARD", 2),
                            "A1:1L": U("FOLLOWER", 1)})
    state = play(state, act("move_unit", 1, from_hex="A2:1L", to_hex="A2:2C"))
    assert state.phase == "battle"
    assert unit_on(state, "A1:1L") == ("FOLLOWER", 1)
    assert state.discard[1] == []


# ----- kami Q-10: colourless hold ------------------------------------------------------------
@pytest.mark.parametrize(("territories", "hold_colourless", "met"), [
    ({"A1:3L": ("T-RED1", 1)}, "additional", False),  # red 1: 1 < 1 + 1
    ({"A1:3L": ("T-RED1", 1)}, "overlapping", True),  # red 1: 1 >= max(1, 1)
    ({"A1:3L": ("T-RED", 1)}, "additional", True),  # red 2: 2 >= 1 + 1
    ({"A1:3L": ("T-RED1", 1), "A1:3R": ("T-BLACK", 1)}, "additional", True),  # 1 + 1 >= 2
    ({"A1:3L": ("T-BLACK", 1), "A1:3R": ("T-BLUE", 1)}, "overlapping", False),  # no red
])
def test_q10_colourless_hold_additional_or_overlapping(
        territories: dict[str, tuple[str, int]], hold_colourless: str, met: bool) -> None:
    """kami Q-10, §ホールドとサポートについて (無属性のホールドは色を問わず指定数のみを要求):
    MIXED holds red 1 + colourless 1. Under ``additional`` (the default) the total support
    must reach 1 + 1 = 2, any colours; under ``overlapping`` max(1, 1) = 1; red 1 is needed
    either way."""
    state = position(hands={1: ["MIXED"]}, territories=territories,
                     options={"hold_colourless": hold_colourless})
    action = act("summon_unit", 1, card="MIXED", hex="A1:2C")
    if met:
        assert unit_on(play(state, action), "A1:2C") == ("MIXED", 1)
    else:
        refused(state, action, "hold_not_met")


# ----- K7: maintenance -----------------------------------------------------------------------
def test_k7_replacement_cascades_across_both_seats_with_no_vp() -> None:
    """K7, kami Q-9, Q-12, Q-21, digest 4.17. Seat 1 replaces seat 2's T-BLUE (blue 2) on
    A2:2C (where seat 1's SCOUT stands) with T-RED: seat 2's support falls to black 1
    (SPEAKER). Round 1: SPEAKER (hold blue 2) is discarded with seat 1's CHARM-R on it (to
    seat 1's discard), and seat 2's CHARM-B (hold blue 1) leaves seat 1's GUARD. Round 2:
    black 0, so FOLLOWER (hold black 1) goes too. Seat 2's plain GUARD stays. No VP for any
    of it (Q-9); T-RED's replace cost 3: AP 5 -> 2."""
    state = position(
        hands={1: ["T-RED"]},
        territories={"A2:2C": ("T-BLUE", 2), "A1:2C": ("T-RED", 1)},
        units={"A2:2C": U("SCOUT", 1), "A2:1L": U("SPEAKER", 2, options=[("CHARM-R", 1)]),
               "A2:3R": U("FOLLOWER", 2), "A2:3L": U("GUARD", 2),
               "A1:1L": U("GUARD", 1, options=[("CHARM-B", 2)])},
        vp={1: 1, 2: 2})
    state = play(state, act("replace_territory", 1, card="T-RED", hex="A2:2C"))
    assert unit_on(state, "A2:1L") is None and unit_on(state, "A2:3R") is None
    assert unit_on(state, "A2:3L") == ("GUARD", 2) and unit_on(state, "A2:2C") == ("SCOUT", 1)
    guard = state.board["A1:1L"].unit
    assert guard is not None and guard.options == []
    # hex order (A1:1L before A2:1L), a unit before its options, round 1 before round 2
    assert state.discard == {1: ["CHARM-R"], 2: ["T-BLUE", "CHARM-B", "SPEAKER", "FOLLOWER"]}
    assert state.vp == {1: 1, 2: 2}
    assert ap_count(state, 1) == 2


def test_q21_an_option_whose_hold_fails_is_discarded_alone() -> None:
    """kami Q-21: seat 1 replaces its own T-BLUE with T-RED; CHARM-B (hold blue 1) leaves the
    GUARD it was on, and the GUARD stays."""
    state = position(hands={1: ["T-RED"]}, territories={"A1:3L": ("T-BLUE", 1)},
                     units={"A1:2C": U("GUARD", 1, options=[("CHARM-B", 1)])})
    state = play(state, act("replace_territory", 1, card="T-RED", hex="A1:3L"))
    guard = state.board["A1:2C"].unit
    assert guard is not None and guard.card == "GUARD" and guard.options == []
    assert state.discard[1] == ["T-BLUE", "CHARM-B"]


def test_q12_an_option_is_held_by_its_owners_support_not_the_units() -> None:
    """K7 (its controller's support), kami Q-12 (controller = owner): seat 1's CHARM-B sits on
    seat 2's GUARD; seat 2 has blue 2 of its own, but seat 1's blue is replaced, so the charm
    goes to seat 1's discard pile."""
    state = position(hands={1: ["T-RED"]},
                     territories={"A1:3L": ("T-BLUE", 1), "A2:3L": ("T-BLUE", 2)},
                     units={"A2:2C": U("GUARD", 2, options=[("CHARM-B", 1)])})
    state = play(state, act("replace_territory", 1, card="T-RED", hex="A1:3L"))
    guard = state.board["A2:2C"].unit
    assert guard is not None and guard.options == []
    assert state.discard == {1: ["T-BLUE", "CHARM-B"], 2: []}


def test_k7_runs_after_the_end_of_a_battle() -> None:
    """K7, digest 5.4 step 6: SPEAKER (AT 1, DF 2, support black 1) defends A1:2C against
    SOLDIER (AT 3): 3 >= 2, it is destroyed, and FOLLOWER (hold black 1) is discarded at once.
    VP: SOLDIER took 1 < DF 3 and survives; seat 1 gains SPEAKER's 2 only, none for the
    FOLLOWER (Q-9)."""
    state = position(territories={"A2:3L": ("T-BLUE", 2)},
                     units={"A2:2C": U("SPEAKER", 2), "A2:1L": U("FOLLOWER", 2),
                            "A1:2C": U("SOLDIER", 1)})
    state = play(state, act("teleport_unit", 1, from_hex="A1:2C"))
    state = play(state, act("pass_battle", 1))
    state = play(state, act("pass_battle", 2))
    assert unit_on(state, "A2:2C") == ("SOLDIER", 1)
    assert unit_on(state, "A2:1L") is None
    assert state.discard[2] == ["SPEAKER", "FOLLOWER"]
    assert state.vp == {1: 2, 2: 0}


def test_q24_a_cards_colours_are_read_by_no_rule() -> None:
    """kami Q-24, §色について (the core rules use colours only in support and hold icons): a
    blue-and-black unit with a red hold is summoned on red support alone; a red territory
    whose support icons are blue gives blue, not red."""
    cards = HOLD_CARDS | {
        "ODD": {**unit("Odd One", hold={"red": 1}), "colours": ["blue", "black"]},
        "T-ODD": {**territory("Odd Shrine", support={"blue": 2}), "colours": ["red"]},
    }
    state = build(cards, hands={1: ["ODD", "BLUE2"]}, pool={1: rocks(10)}, ap={1: 5},
                  territories={"A1:3L": ("T-RED1", 1), "A1:3R": ("T-ODD", 1)})
    state = play(state, act("summon_unit", 1, card="ODD", hex="A1:2C"))
    state = play(state, act("summon_unit", 1, card="BLUE2", hex="A1:1L"))
    assert unit_on(state, "A1:2C") == ("ODD", 1) and unit_on(state, "A1:1L") == ("BLUE2", 1)


def test_k7_an_option_on_an_attacking_unit_is_discarded_at_once() -> None:
    """K7 (after every action, discarded at once), C3 (K7 runs after an adjustment), kami Q-21.
    SOLDIER (AT 3) carries seat 1's MIGHT (hold blue 1, AT +2) and attacks WALL on A2:2C. In
    the battle a card text removes seat 1's only blue territory: MIGHT goes to the discard
    pile at once, so the attack is 3, not 3 + 2 = 5 (WALL keeps 3 damage)."""
    cards = HOLD_CARDS | {"MIGHT": option("Blue Might", hold={"blue": 1}, at_mod=2),
                          "WALL": unit("Wall", at=0, df=20, vp=0)}
    state = build(cards, pool={1: rocks(10), 2: rocks(10)}, ap={1: 5, 2: 5},
                  territories={"A1:3L": ("T-BLUE", 1)},
                  units={"A2:1L": U("SOLDIER", 1, options=[("MIGHT", 1)]),
                         "A2:2C": U("WALL", 2)})
    state = play(state, act("move_unit", 1, from_hex="A2:1L", to_hex="A2:2C"))
    state = play(state, adjust(1, move={"card": "T-BLUE", "from_zone": "field:A1:3L",
                                        "to_zone": "discard"}))
    assert state.discard[1] == ["T-BLUE", "MIGHT"]
    state = play(state, act("pass_battle", 1))
    state = play(state, act("pass_battle", 2))
    wall = state.board["A2:2C"].unit
    assert wall is not None and wall.damage == 3


def test_q18_lasting_forces_are_not_hold_checked() -> None:
    """Digest 4.17 (lasting forces in effect are not hold-checked; their fate is card text),
    kami Q-18: WARD-B (hold blue 1) stays in effect after seat 1's blue is replaced."""
    state = position(hands={1: ["WARD-B", "T-RED"]}, territories={"A1:3L": ("T-BLUE", 1)})
    state = play(state, act("play_force", 1, card="WARD-B", lasting=True))
    state = play(state, act("replace_territory", 1, card="T-RED", hex="A1:3L"))
    assert state.forces[1] == ["WARD-B"] and state.discard[1] == ["T-BLUE"]
