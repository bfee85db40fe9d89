"""The field (§場の構成, K1), movement and teleport (§ユニットカード), territories
(§テリトリーカード) and summoning (§ユニットカード 召喚), with kami Q-20, Q-26, Q-28.

Every position gives seat 1 a pool of 10 unseen cards of which 5 are AP cards (deck 5), unless
a test says otherwise: paying n leaves AP 5 - n and deck 5 + n (K3).
"""

from __future__ import annotations

import itertools

import pytest

from engine.kami.model import KamiState
from tests.engine.kami.helpers import (
    RULES,
    U,
    act,
    ap_count,
    build,
    deck_count,
    play,
    refused,
    rocks,
    territory_on,
    unit_on,
)

SPOTS = ["1L", "1R", "2L", "2C", "2R", "3L", "3R"]
# K1 worked out by hand: the rim is the ring 1L-1R-2R-3R-3L-2L-1L; 2C touches all six.
RIM = [("1L", "1R"), ("1R", "2R"), ("2R", "3R"), ("3R", "3L"), ("3L", "2L"), ("2L", "1L")]
ADJACENT = {frozenset(p) for p in RIM} | {frozenset(("2C", s)) for s in SPOTS if s != "2C"}
assert len(ADJACENT) == 12  # 6 rim edges + 6 spokes; the other 21 - 12 = 9 pairs are not


def position(**kw: object) -> KamiState:
    """Seat 1 active in its action phase, AP 5 and deck 5 (unless overridden)."""
    kw.setdefault("pool", {1: rocks(10), 2: rocks(10)})
    kw.setdefault("ap", {1: 5, 2: 5})
    return build(**kw)  # type: ignore[arg-type]


# ----- K1: adjacency and the mirror hex ----------------------------------------------------
@pytest.mark.parametrize("area", [1, 2])
@pytest.mark.parametrize(("a", "b"), list(itertools.permutations(SPOTS, 2)))
def test_k1_move_only_to_an_adjacent_hex(area: int, a: str, b: str) -> None:
    """K1 (every ordered pair of hexes, in both areas): a move to a K1 neighbour is made and
    costs the move cost 1 (AP 5 -> 4, deck 5 -> 6); any other hex is refused."""
    state = position(units={f"A{area}:{a}": U("SCOUT", 1)})
    move = act("move_unit", 1, from_hex=f"A{area}:{a}", to_hex=f"A{area}:{b}")
    if frozenset((a, b)) in ADJACENT:
        state = play(state, move)
        assert unit_on(state, f"A{area}:{b}") == ("SCOUT", 1)
        assert unit_on(state, f"A{area}:{a}") is None
        assert (ap_count(state, 1), deck_count(state, 1)) == (4, 6)
    else:
        refused(state, move, "not_adjacent")


@pytest.mark.parametrize("spot", SPOTS)
def test_k1_listed_moves_are_the_k1_neighbours(spot: str) -> None:
    """K1: the legal moves listed from a hex are exactly its neighbours in the same area."""
    state = position(units={f"A1:{spot}": U("SCOUT", 1)})
    listed = {a.to_hex for a in RULES.legal_actions(state, 1)
              if a.type == "move_unit"}
    assert listed == {f"A1:{s}" for s in SPOTS if frozenset((spot, s)) in ADJACENT}


@pytest.mark.parametrize("spot", SPOTS)
@pytest.mark.parametrize("area", [1, 2])
def test_k1_teleport_goes_to_the_mirror_hex(area: int, spot: str) -> None:
    """K1, §ユニットカード 転移: same row and column in the other area; SOLDIER's teleport cost
    2 is paid (AP 5 -> 3, deck 5 -> 7)."""
    state = position(units={f"A{area}:{spot}": U("SOLDIER", 1)})
    state = play(state, act("teleport_unit", 1, from_hex=f"A{area}:{spot}"))
    assert unit_on(state, f"A{3 - area}:{spot}") == ("SOLDIER", 1)
    assert unit_on(state, f"A{area}:{spot}") is None
    assert (ap_count(state, 1), deck_count(state, 1)) == (3, 7)


def test_k1_moving_never_crosses_the_border() -> None:
    """§場の構成 (ユニットはエリアをまたいでの移動ができない): A1:1L to A2:1L is refused."""
    state = position(units={"A1:1L": U("SCOUT", 1)})
    refused(state, act("move_unit", 1, from_hex="A1:1L", to_hex="A2:1L"), "not_same_area")


# ----- §ユニットカード: moving and teleporting ------------------------------------------------
def test_move_onto_an_own_unit_is_refused() -> None:
    """§各戦闘の処理 (one own unit per hex): moving or teleporting onto one's own unit."""
    state = position(units={"A1:2C": U("SCOUT", 1), "A1:1L": U("GUARD", 1),
                            "A2:2C": U("SOLDIER", 1)})
    refused(state, act("move_unit", 1, from_hex="A1:2C", to_hex="A1:1L"), "hex_has_own_unit")
    refused(state, act("teleport_unit", 1, from_hex="A1:2C"), "hex_has_own_unit")


def test_move_needs_an_own_unit() -> None:
    """§ユニットカード: only one's own unit moves; an enemy unit or an empty hex is refused."""
    state = position(units={"A1:2C": U("SCOUT", 2)})
    refused(state, act("move_unit", 1, from_hex="A1:2C", to_hex="A1:1L"), "not_your_unit")
    refused(state, act("move_unit", 1, from_hex="A1:2R", to_hex="A1:1R"), "not_your_unit")
    refused(state, act("teleport_unit", 1, from_hex="A1:2C"), "not_your_unit")


def test_move_costs_the_move_cost() -> None:
    """§AP(アクションポイント)について: with AP 0 a move (cost 1) is refused."""
    state = position(units={"A1:2C": U("SCOUT", 1)}, ap={1: 0})
    refused(state, act("move_unit", 1, from_hex="A1:2C", to_hex="A1:1L"), "insufficient_ap")


def test_move_onto_an_enemy_unit_starts_a_battle_with_the_mover_attacking() -> None:
    """§行動フェイズ (移動先が相手ユニットのいるヘクスの場合、戦闘となる), §各戦闘の処理: the
    mover is the attacker and its seat has priority; the defender holds the hex."""
    state = position(units={"A2:1L": U("SOLDIER", 1), "A2:2C": U("GUARD", 2)})
    state = play(state, act("move_unit", 1, from_hex="A2:1L", to_hex="A2:2C"))
    assert state.phase == "battle" and state.battle is not None
    assert (state.battle.hex, state.battle.attacker.card, state.battle.attacker_seat) == (
        "A2:2C", "SOLDIER", 1)
    assert state.battle.priority == 1
    assert unit_on(state, "A2:1L") is None and unit_on(state, "A2:2C") == ("GUARD", 2)
    assert RULES.to_act(state) == [1]


def test_teleport_onto_an_enemy_unit_starts_a_battle_with_the_teleporter_attacking() -> None:
    """§ユニットカード 転移, §各戦闘の処理: an enemy unit on the mirror hex means a battle."""
    state = position(units={"A1:3R": U("SOLDIER", 1), "A2:3R": U("GUARD", 2)})
    state = play(state, act("teleport_unit", 1, from_hex="A1:3R"))
    assert state.battle is not None
    assert (state.battle.hex, state.battle.attacker.card, state.battle.attacker_seat) == (
        "A2:3R", "SOLDIER", 1)


def test_q20_a_unit_without_a_move_or_teleport_cost_cannot_do_it() -> None:
    """kami Q-20: STATUE has neither cost: cannot_move, cannot_teleport."""
    state = position(units={"A1:2C": U("STATUE", 1)})
    refused(state, act("move_unit", 1, from_hex="A1:2C", to_hex="A1:1L"), "cannot_move")
    refused(state, act("teleport_unit", 1, from_hex="A1:2C"), "cannot_teleport")


def test_q26_a_unit_summoned_this_turn_moves_and_teleports_any_number_of_times() -> None:
    """kami Q-26 (no per-turn limit, no summoning sickness): summon SOLDIER (cost 2), move
    twice (1 + 1), teleport (2): AP 10 - 6 = 4, deck 0 + 6 = 6."""
    state = position(hands={1: ["SOLDIER"]}, pool={1: rocks(10)}, ap={1: 10})
    state = play(state, act("summon_unit", 1, card="SOLDIER", hex="A1:3L"))
    state = play(state, act("move_unit", 1, from_hex="A1:3L", to_hex="A1:2L"))
    state = play(state, act("move_unit", 1, from_hex="A1:2L", to_hex="A1:1L"))
    state = play(state, act("teleport_unit", 1, from_hex="A1:1L"))
    assert unit_on(state, "A2:1L") == ("SOLDIER", 1)
    assert (ap_count(state, 1), deck_count(state, 1)) == (4, 6)


def test_q28_options_and_damage_travel_with_their_unit() -> None:
    """kami Q-28, digest 4.9: the unit moves with its options (of either owner) and damage."""
    state = position(units={"A1:2C": U("GUARD", 1, damage=2,
                                       options=[("BLADE", 1), ("CURSE", 2)])})
    state = play(state, act("teleport_unit", 1, from_hex="A1:2C"))
    moved = state.board["A2:2C"].unit
    assert moved is not None and moved.damage == 2
    assert [(o.card, o.owner) for o in moved.options] == [("BLADE", 1), ("CURSE", 2)]


# ----- §テリトリーカード: setting and replacing ------------------------------------------------
def test_territory_set_on_an_empty_own_hex_pays_the_set_cost() -> None:
    """§テリトリーカード 設置: T-RED's set cost 1 is paid (not its replace cost 3):
    AP 5 -> 4, deck 5 -> 6; the territory is seat 1's."""
    state = position(hands={1: ["T-RED"]})
    state = play(state, act("set_territory", 1, card="T-RED", hex="A1:2C"))
    assert territory_on(state, "A1:2C") == ("T-RED", 1)
    assert state.hands[1] == [] and (ap_count(state, 1), deck_count(state, 1)) == (4, 6)


def test_territory_set_in_own_area_under_an_own_unit() -> None:
    """§テリトリーカード: an own-area hex with one's own unit is fine."""
    state = position(hands={1: ["T-RED"]}, units={"A1:2C": U("GUARD", 1)})
    state = play(state, act("set_territory", 1, card="T-RED", hex="A1:2C"))
    assert territory_on(state, "A1:2C") == ("T-RED", 1)


def test_territory_not_in_own_area_under_an_enemy_unit() -> None:
    """§テリトリーカード (自軍エリアの敵軍ユニットがいないヘクス): refused under an enemy unit."""
    state = position(hands={1: ["T-RED"]}, units={"A1:2C": U("GUARD", 2)})
    refused(state, act("set_territory", 1, card="T-RED", hex="A1:2C"), "enemy_unit_on_hex")


def test_territory_in_the_enemy_area_needs_an_own_unit_there() -> None:
    """§テリトリーカード (敵軍エリアの自軍ユニットがいるヘクス): refused on an empty enemy hex and
    under an enemy unit; accepted under one's own unit."""
    state = position(hands={1: ["T-RED"]},
                     units={"A2:2C": U("GUARD", 2), "A2:1R": U("SCOUT", 1)})
    refused(state, act("set_territory", 1, card="T-RED", hex="A2:1L"), "no_own_unit_on_hex")
    refused(state, act("set_territory", 1, card="T-RED", hex="A2:2C"), "no_own_unit_on_hex")
    state = play(state, act("set_territory", 1, card="T-RED", hex="A2:1R"))
    assert territory_on(state, "A2:1R") == ("T-RED", 1)


def test_territory_one_per_hex_set_is_refused_where_one_stands() -> None:
    """§テリトリーカード (ヘクス1箇所に付き1枚): setting onto a territory is refused."""
    state = position(hands={1: ["T-RED"]}, territories={"A1:2C": ("T-BLACK", 1)})
    refused(state, act("set_territory", 1, card="T-RED", hex="A1:2C"), "territory_on_hex")


def test_territory_replace_pays_the_replace_cost_and_discards_the_old_one() -> None:
    """§テリトリーカード 置換 (置換時の従来テリトリーは捨札となる): T-RED's replace cost 3:
    AP 5 -> 2, deck 5 -> 8; the old T-BLACK goes to seat 1's discard."""
    state = position(hands={1: ["T-RED"]}, territories={"A1:2C": ("T-BLACK", 1)})
    state = play(state, act("replace_territory", 1, card="T-RED", hex="A1:2C"))
    assert territory_on(state, "A1:2C") == ("T-RED", 1)
    assert state.discard == {1: ["T-BLACK"], 2: []}
    assert (ap_count(state, 1), deck_count(state, 1)) == (2, 8)


def test_q12_replaced_enemy_territory_goes_to_its_owners_discard() -> None:
    """§テリトリーカード (相手テリトリーに対しても置換できる), kami Q-12: seat 2's territory,
    replaced by seat 1 under seat 1's unit in A2, goes to seat 2's discard pile."""
    state = position(hands={1: ["T-RED"]}, territories={"A2:3L": ("T-BLACK", 2)},
                     units={"A2:3L": U("SCOUT", 1)})
    state = play(state, act("replace_territory", 1, card="T-RED", hex="A2:3L"))
    assert territory_on(state, "A2:3L") == ("T-RED", 1)
    assert state.discard == {1: [], 2: ["T-BLACK"]}


def test_territory_replace_needs_a_territory_and_the_placement_conditions() -> None:
    """§テリトリーカード: replacing needs a territory on the hex, and the same hex conditions
    as setting (own area: no enemy unit; enemy area: an own unit)."""
    state = position(hands={1: ["T-RED"]}, units={"A1:1L": U("GUARD", 2)},
                     territories={"A1:1L": ("T-BLACK", 1), "A2:1L": ("T-BLACK", 2)})
    refused(state, act("replace_territory", 1, card="T-RED", hex="A1:2C"), "no_territory_on_hex")
    refused(state, act("replace_territory", 1, card="T-RED", hex="A1:1L"), "enemy_unit_on_hex")
    refused(state, act("replace_territory", 1, card="T-RED", hex="A2:1L"), "no_own_unit_on_hex")


def test_territory_cost_and_kind_are_checked() -> None:
    """§AP(アクションポイント)について, §カード構成: T-BLUE's set cost 2 with AP 1 is refused; a
    unit is not set as a territory; a card not in hand is refused."""
    state = position(hands={1: ["T-BLUE", "SCOUT"]}, ap={1: 1})
    refused(state, act("set_territory", 1, card="T-BLUE", hex="A1:2C"), "insufficient_ap")
    refused(state, act("set_territory", 1, card="SCOUT", hex="A1:2C"), "wrong_card_kind")
    refused(state, act("set_territory", 1, card="T-RED", hex="A1:2C"), "card_not_in_hand")


def test_q28_a_territory_stays_when_its_hex_stops_meeting_the_condition() -> None:
    """kami Q-28: the own unit leaves the enemy-area hex; the territory stays there."""
    state = position(units={"A2:1L": U("SCOUT", 1)}, territories={"A2:1L": ("T-RED", 1)})
    state = play(state, act("move_unit", 1, from_hex="A2:1L", to_hex="A2:2C"))
    assert territory_on(state, "A2:1L") == ("T-RED", 1)


# ----- §ユニットカード 召喚 --------------------------------------------------------------------
def test_summon_onto_an_empty_own_hex_pays_its_cost() -> None:
    """§ユニットカード 召喚: SOLDIER (cost 2) on A1:2C: AP 5 -> 3, deck 5 -> 7, 0 damage."""
    state = position(hands={1: ["SOLDIER"]})
    state = play(state, act("summon_unit", 1, card="SOLDIER", hex="A1:2C"))
    placed = state.board["A1:2C"].unit
    assert placed is not None and (placed.card, placed.owner, placed.damage) == ("SOLDIER", 1, 0)
    assert state.hands[1] == [] and (ap_count(state, 1), deck_count(state, 1)) == (3, 7)


def test_summon_only_into_the_own_area() -> None:
    """§ユニットカード (自軍エリアの…ヘクス1箇所に配置できる): A2 is seat 2's area."""
    state = position(hands={1: ["SOLDIER"]})
    refused(state, act("summon_unit", 1, card="SOLDIER", hex="A2:2C"), "not_own_area")


def test_summon_not_onto_an_own_unit() -> None:
    """§ユニットカード (自軍ユニットがいないヘクス): refused onto one's own unit."""
    state = position(hands={1: ["SOLDIER"]}, units={"A1:2C": U("GUARD", 1)})
    refused(state, act("summon_unit", 1, card="SOLDIER", hex="A1:2C"), "hex_has_own_unit")


def test_summon_onto_an_enemy_unit_is_an_invasion_with_the_summoned_unit_attacking() -> None:
    """§ユニットカード (侵略として即座に戦闘が発生する): seat 2's unit stands in A1; summoning
    onto it opens a battle, the summoned SOLDIER attacking, seat 1 to act; cost 2 paid."""
    state = position(hands={1: ["SOLDIER"]}, units={"A1:1R": U("GUARD", 2)})
    state = play(state, act("summon_unit", 1, card="SOLDIER", hex="A1:1R"))
    assert state.phase == "battle" and state.battle is not None
    assert (state.battle.attacker.card, state.battle.attacker_seat) == ("SOLDIER", 1)
    assert (state.battle.hex, state.battle.priority) == ("A1:1R", 1)
    assert unit_on(state, "A1:1R") == ("GUARD", 2)
    assert (ap_count(state, 1), deck_count(state, 1)) == (3, 7)


def test_summon_only_by_the_active_seat_in_its_action_phase() -> None:
    """○ 行動フェイズ: seat 2 may not summon in seat 1's turn; a force is not summoned."""
    state = position(hands={1: ["BOLT"], 2: ["SOLDIER"]})
    refused(state, act("summon_unit", 2, card="SOLDIER", hex="A2:2C"), "not_your_turn")
    refused(state, act("summon_unit", 1, card="BOLT", hex="A1:2C"), "wrong_card_kind")
