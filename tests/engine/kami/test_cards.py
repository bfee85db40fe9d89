"""Options (§オプションカード), forces (§フォースカード) and abilities (○ 行動フェイズ), with
kami Q-7, Q-8, Q-9, Q-12, Q-17, Q-18 and Q-28.

Seat 1 is active in its action phase; each seat has a pool of 10 with AP 5 (deck 5) unless a
test says otherwise: paying n leaves AP 5 - n and deck 5 + n (K3).
"""

from __future__ import annotations

from engine.core.chance import SuppliedChance
from engine.kami.model import KamiState
from tests.engine.kami.helpers import (
    U,
    act,
    ap_count,
    build,
    deck_count,
    legal_types,
    play,
    refused,
    rocks,
)


def position(**kw: object) -> KamiState:
    kw.setdefault("pool", {1: rocks(10), 2: rocks(10)})
    kw.setdefault("ap", {1: 5, 2: 5})
    return build(**kw)  # type: ignore[arg-type]


# ----- §オプションカード ----------------------------------------------------------------------
def test_option_equipped_to_an_own_unit_pays_its_cost() -> None:
    """§オプションカード: BLADE (cost 1) onto seat 1's GUARD: AP 5 -> 4, deck 5 -> 6."""
    state = position(hands={1: ["BLADE"]}, units={"A1:2C": U("GUARD", 1)})
    state = play(state, act("equip_option", 1, card="BLADE", hex="A1:2C"))
    guard = state.board["A1:2C"].unit
    assert guard is not None and [(o.card, o.owner) for o in guard.options] == [("BLADE", 1)]
    assert state.hands[1] == [] and (ap_count(state, 1), deck_count(state, 1)) == (4, 6)


def test_option_may_be_equipped_to_an_enemy_unit_in_either_area() -> None:
    """§オプションカード (場の任意ユニット, 相手ユニットにも配置できる), kami Q-12: seat 1's CURSE
    goes onto seat 2's units in A2 and in A1; it keeps seat 1 as its owner."""
    state = position(hands={1: ["CURSE", "CURSE"]},
                     units={"A2:2C": U("GUARD", 2), "A1:3R": U("SCOUT", 2)})
    state = play(state, act("equip_option", 1, card="CURSE", hex="A2:2C"))
    state = play(state, act("equip_option", 1, card="CURSE", hex="A1:3R"))
    for hex_id in ("A2:2C", "A1:3R"):
        enemy = state.board[hex_id].unit
        assert enemy is not None and enemy.owner == 2
        assert [(o.card, o.owner) for o in enemy.options] == [("CURSE", 1)]


def test_option_needs_a_unit_on_the_hex() -> None:
    """§オプションカード: an option goes onto a unit; an empty hex is refused."""
    state = position(hands={1: ["BLADE"]})
    refused(state, act("equip_option", 1, card="BLADE", hex="A1:2C"), "no_unit_on_hex")


def test_q28_options_have_no_per_unit_limit() -> None:
    """kami Q-28: two BLADEs on one unit (1 + 1 = 2 AP: AP 5 -> 3)."""
    state = position(hands={1: ["BLADE", "BLADE"]}, units={"A1:2C": U("GUARD", 1)})
    state = play(state, act("equip_option", 1, card="BLADE", hex="A1:2C"))
    state = play(state, act("equip_option", 1, card="BLADE", hex="A1:2C"))
    guard = state.board["A1:2C"].unit
    assert guard is not None and [o.card for o in guard.options] == ["BLADE", "BLADE"]
    assert ap_count(state, 1) == 3


# ----- §フォースカード ------------------------------------------------------------------------
def test_force_played_by_the_active_seat_goes_to_its_discard() -> None:
    """§フォースカード (瞬間使用…捨札となる): BOLT, cost 1: AP 5 -> 4; the card is discarded."""
    state = position(hands={1: ["BOLT"]})
    state = play(state, act("play_force", 1, card="BOLT"))
    assert (state.hands[1], state.discard[1], ap_count(state, 1)) == ([], ["BOLT"], 4)


def test_q7_interference_force_played_by_the_non_active_seat() -> None:
    """§フォースカード (干渉…相手ターンにも使用できる), kami Q-7, Q-27: seat 2 plays WARD
    (cost 2) in seat 1's action phase, paying from its own AP: 5 -> 3, deck 5 -> 7."""
    state = position(hands={2: ["WARD"]})
    state = play(state, act("play_force", 2, card="WARD"))
    assert (state.hands[2], state.discard[2]) == ([], ["WARD"])
    assert (ap_count(state, 2), deck_count(state, 2), ap_count(state, 1)) == (3, 7, 5)
    assert state.active == 1 and state.phase == "action"


def test_q7_interference_also_in_the_opponents_judgment_phase() -> None:
    """kami Q-7 (any time in the opponent's turn with no battle open): seat 2 plays WARD in
    seat 1's judgment phase; it is listed for seat 2."""
    state = position(hands={2: ["WARD"]}, phase="judgment")
    assert legal_types(state, 2) == {"play_force"}
    state = play(state, act("play_force", 2, card="WARD"))
    assert state.discard[2] == ["WARD"]


def test_force_without_interference_is_refused_in_the_opponents_turn() -> None:
    """§フォースカード: a force with no interference is played in one's own turn only."""
    state = position(hands={2: ["BOLT"]})
    refused(state, act("play_force", 2, card="BOLT"), "not_interference")


def test_q7_interference_outside_battle_is_not_played_while_a_battle_is_open() -> None:
    """kami Q-7 (no battle open), digest 5.2: in a battle a force is used with interfere."""
    state = position(hands={2: ["WARD"]}, units={"A1:2C": U("SCOUT", 1),
                                                 "A1:1L": U("GUARD", 2)})
    state = play(state, act("move_unit", 1, from_hex="A1:2C", to_hex="A1:1L"))
    assert state.phase == "battle"
    refused(state, act("play_force", 2, card="WARD"), "wrong_phase")


def test_q18_lasting_force_stays_in_effect_until_ended() -> None:
    """kami Q-18: a lasting force goes to the forces in effect (cost 1 paid); its owner ends it
    later and it goes to the discard pile; ending a force not in effect is refused."""
    state = position(hands={1: ["BOLT"]})
    state = play(state, act("play_force", 1, card="BOLT", lasting=True))
    assert (state.forces[1], state.discard[1], ap_count(state, 1)) == (["BOLT"], [], 4)
    refused(state, act("end_force", 1, card="WARD"), "card_not_in_zone")
    state = play(state, act("end_force", 1, card="BOLT"))
    assert (state.forces[1], state.discard[1]) == ([], ["BOLT"])


def test_force_cost_is_checked() -> None:
    """§AP(アクションポイント)について: WARD (cost 2) with AP 1 is refused."""
    state = position(hands={1: ["WARD"]}, ap={1: 1})
    refused(state, act("play_force", 1, card="WARD"), "insufficient_ap")


def test_q8_only_battle_actions_while_a_battle_is_open() -> None:
    """kami Q-8: during a battle, no ordinary force, option, move, draw or end of phase."""
    state = position(hands={1: ["BOLT", "BLADE"]},
                     units={"A1:2C": U("SCOUT", 1), "A1:1L": U("GUARD", 2),
                            "A1:3L": U("SCOUT", 1)})
    state = play(state, act("move_unit", 1, from_hex="A1:2C", to_hex="A1:1L"))
    refused(state, act("play_force", 1, card="BOLT"), "battle_open")
    refused(state, act("equip_option", 1, card="BLADE", hex="A1:3L"), "battle_open")
    refused(state, act("move_unit", 1, from_hex="A1:3L", to_hex="A1:2L"), "battle_open")
    refused(state, act("draw_card", 1), "battle_open", SuppliedChance(["ROCK"]))
    refused(state, act("end_action_phase", 1), "battle_open")
    assert legal_types(state, 1) == {"pass_battle"}


# ----- abilities (○ 行動フェイズ, kami Q-17) ----------------------------------------------------
def test_q17_ability_pays_the_declared_cost() -> None:
    """kami Q-17: a unit's ability at a declared cost 3: AP 5 -> 2, deck 5 -> 8; its effect is
    left to adjustments (C3)."""
    state = position(units={"A1:2C": U("GUARD", 1)})
    state = play(state, act("activate_ability", 1, hex="A1:2C", cost=3))
    assert (ap_count(state, 1), deck_count(state, 1)) == (2, 8)
    assert state.board["A1:2C"].unit is not None


def test_q17_ability_cost_is_checked_against_ap() -> None:
    """kami Q-17 (checked only against AP): a declared cost 6 with AP 5 is refused."""
    state = position(units={"A1:2C": U("GUARD", 1)})
    refused(state, act("activate_ability", 1, hex="A1:2C", cost=6), "insufficient_ap")


def test_q17_pile_discards_the_territory_with_no_vp() -> None:
    """§テリトリーカード (自身を破棄(パイル)), kami Q-9 (pile discards give no VP): the
    territory goes to its owner's discard pile, the hex has none left, VP unchanged."""
    state = position(territories={"A2:1L": ("T-RED", 1)}, units={"A2:1L": U("SCOUT", 1)})
    state = play(state, act("activate_ability", 1, hex="A2:1L", source="territory", cost=0,
                            pile=True))
    assert state.board["A2:1L"].territory is None
    assert state.discard == {1: ["T-RED"], 2: []}
    assert state.vp == {1: 0, 2: 0}


def test_q17_abilities_only_of_ones_own_cards_and_pile_only_for_territories() -> None:
    """kami Q-17, digest 4.8: not the opponent's unit or territory; pile only a territory."""
    state = position(units={"A1:2C": U("GUARD", 1), "A2:2C": U("GUARD", 2)},
                     territories={"A2:1L": ("T-RED", 2)})
    refused(state, act("activate_ability", 1, hex="A2:2C", cost=0), "not_your_unit")
    refused(state, act("activate_ability", 1, hex="A2:1L", source="territory", cost=0),
            "not_your_territory")
    refused(state, act("activate_ability", 1, hex="A1:2C", cost=0, pile=True), "not_a_territory")
