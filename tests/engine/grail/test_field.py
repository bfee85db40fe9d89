"""Building, deployment and assignment: one domain per build phase (構築 L74; 領地 L240-241),
free deployment and uniqueness on one's own side (配備 L75-77; 戦士 L251-252; G6), and the
assignment phase (割り当て L78-85; 貴婦人 L298-303; 武器や防具 L315-319; 誓約 L320-324; 戦闘経験
L325-328; grail OQ-7, OQ-8, OQ-10). Title challenges are in test_title.py."""

from __future__ import annotations

from tests.engine.grail.helpers import (
    RULES,
    W,
    act,
    build,
    combat_of,
    play,
    refused,
    warrior_of,
)


# ----- build (構築 L74) ------------------------------------------------------------------------
def test_l74_one_domain_per_build_phase() -> None:
    """[構築 L74; 領地 L240]: the first domain goes from hand to the field; a second in the same
    build phase is refused (domain_already_placed)."""
    state = build(phase="build", hands={1: ["D-NORTH@1.1", "D-SOUTH@1.2"]})
    state = play(state, act("place_domain", 1, card="D-NORTH@1.1"))
    assert state.domains[1] == ["D-NORTH@1.1"] and state.hands[1] == ["D-SOUTH@1.2"]
    refused(state, act("place_domain", 1, card="D-SOUTH@1.2"), "domain_already_placed")


def test_l241_domains_are_not_unique() -> None:
    """[領地 L241]: a second Northmarch joins the one already on the field."""
    state = build(phase="build", domains={1: ["D-NORTH@1.1"]}, hands={1: ["D-NORTH@1.2"]})
    state = play(state, act("place_domain", 1, card="D-NORTH@1.2"))
    assert state.domains[1] == ["D-NORTH@1.1", "D-NORTH@1.2"]


def test_l74_only_a_domain_from_hand_is_placed() -> None:
    """[構築 L74]: a knight is not a domain (not_a_domain); a domain not in hand is refused
    (card_not_in_hand)."""
    state = build(phase="build", hands={1: ["KNIGHT@1.1"]})
    refused(state, act("place_domain", 1, card="KNIGHT@1.1"), "not_a_domain")
    refused(state, act("place_domain", 1, card="D-NORTH@1.2"), "card_not_in_hand")


# ----- deployment (配備 L75-77, G6) ------------------------------------------------------------
def test_l76_deployment_is_free_and_unlimited() -> None:
    """[配備 L76; 戦士 L251-252; 一般戦士 L268]: a knight and two copies of a general warrior
    are deployed in one phase at no cost (hand and domains are all that change); each enters
    with its printed valor (6 and 3) and no damage."""
    state = build(phase="deployment", domains={1: ["D-NORTH@1.9"]},
                  hands={1: ["KNIGHT@1.1", "SOLDIER@1.2", "SOLDIER@1.3"]})
    for card in ("KNIGHT@1.1", "SOLDIER@1.2", "SOLDIER@1.3"):
        state = play(state, act("deploy_warrior", 1, card=card))
    assert state.hands[1] == [] and state.domains[1] == ["D-NORTH@1.9"]
    assert [(w.card, w.valor, w.damage) for w in state.warriors[1]] == \
        [("KNIGHT@1.1", 6, 0), ("SOLDIER@1.2", 3, 0), ("SOLDIER@1.3", 3, 0)]
    assert state.combat is None


def test_l76_only_warriors_are_deployed() -> None:
    """[配備 L76]: a domain is not a warrior (not_a_warrior)."""
    state = build(phase="deployment", hands={1: ["D-NORTH@1.1"]})
    refused(state, act("deploy_warrior", 1, card="D-NORTH@1.1"), "not_a_warrior")


def test_g6_a_second_knight_of_the_same_name_on_ones_own_side_is_refused() -> None:
    """G6 (own side): Sir Alan is on seat 1's field; a second Sir Alan is refused."""
    state = build(phase="deployment", warriors=[W("KNIGHT@1.1")], hands={1: ["KNIGHT@1.2"]})
    refused(state, act("deploy_warrior", 1, card="KNIGHT@1.2"), "duplicate_name")


def test_g6_a_second_king_of_the_same_domain_on_ones_own_side_is_refused() -> None:
    """G6 (own side), [王 L283]: King Ulf of Northmarch is on seat 1's field; King Olaf, another
    name but also of Northmarch, is refused."""
    state = build(phase="deployment", warriors=[W("KING-N@1.1")], hands={1: ["KING-N2@1.2"]})
    refused(state, act("deploy_warrior", 1, card="KING-N2@1.2"), "duplicate_domain")


def test_g6_same_name_knight_against_another_players_field_starts_a_title_challenge() -> None:
    """G6, [配備 L77; タイトルチャレンジ L176]: seat 2 has Sir Alan; seat 1 deploys its own: it
    enters and a title challenge starts at once between the two (both seats to act)."""
    state = build(phase="deployment", warriors=[W("KNIGHT@2.1")], hands={1: ["KNIGHT@1.1"]})
    state = play(state, act("deploy_warrior", 1, card="KNIGHT@1.1"))
    combat = combat_of(state)
    assert combat.kind == "title"
    assert [(s.seat, s.fighter) for s in combat.sides] == [(2, "KNIGHT@2.1"), (1, "KNIGHT@1.1")]
    assert warrior_of(state, "KNIGHT@1.1").valor == 6
    assert RULES.to_act(state) == [1, 2]


def test_g6_same_domain_king_against_another_players_field_starts_a_title_challenge() -> None:
    """G6, [基本構成細則 L55]: seat 2 has King Ulf of Northmarch; seat 1 deploys King Olaf of
    Northmarch: a title challenge between the two kings."""
    state = build(phase="deployment", warriors=[W("KING-N@2.1")], hands={1: ["KING-N2@1.1"]})
    state = play(state, act("deploy_warrior", 1, card="KING-N2@1.1"))
    combat = combat_of(state)
    assert combat.kind == "title"
    assert {s.fighter for s in combat.sides} == {"KING-N@2.1", "KING-N2@1.1"}


def test_g6_general_warriors_and_other_names_start_nothing() -> None:
    """G6, [一般戦士 L268]: a Man-at-arms against seat 2's Man-at-arms, and Sir Bors against
    seat 2's Sir Alan, start no title challenge."""
    state = build(phase="deployment", warriors=[W("SOLDIER@2.1"), W("KNIGHT@2.2")],
                  hands={1: ["SOLDIER@1.1", "BORS@1.2"]})
    state = play(state, act("deploy_warrior", 1, card="SOLDIER@1.1"))
    state = play(state, act("deploy_warrior", 1, card="BORS@1.2"))
    assert state.combat is None and len(state.warriors[1]) == 2


# ----- assignment: attaching (割り当て L80-82) -------------------------------------------------
def test_l80_a_vow_is_attached_whatever_its_value() -> None:
    """[割り当て L80; 誓約 L323]: the Vow of Silence (value 2) goes onto Sir Alan."""
    state = build(phase="assignment", hands={1: ["VOW@1.5"]}, warriors=[W("KNIGHT@1.1")])
    state = play(state, act("attach_card", 1, card="VOW@1.5", warrior="KNIGHT@1.1"))
    assert warrior_of(state, "KNIGHT@1.1").attached == ["VOW@1.5"] and state.hands[1] == []


def test_l81_a_value_0_reward_is_attached() -> None:
    """[割り当て L81; 報酬 L309]: the Woodman's Axe (value 0) goes onto a general warrior."""
    state = build(phase="assignment", hands={1: ["AXE@1.5"]}, warriors=[W("SOLDIER@1.1")])
    state = play(state, act("attach_card", 1, card="AXE@1.5", warrior="SOLDIER@1.1"))
    assert warrior_of(state, "SOLDIER@1.1").attached == ["AXE@1.5"]


def test_l82_a_companion_is_attached() -> None:
    """[割り当て L82; 仲間 L291-297]: a Squire goes onto a general warrior."""
    state = build(phase="assignment", hands={1: ["SQUIRE@1.5"]}, warriors=[W("SOLDIER@1.1")])
    state = play(state, act("attach_card", 1, card="SQUIRE@1.5", warrior="SOLDIER@1.1"))
    assert warrior_of(state, "SOLDIER@1.1").attached == ["SQUIRE@1.5"]


def test_l310_a_reward_of_value_1_or_more_needs_a_quest() -> None:
    """[報酬 L310; 割り当て L81]: the Sword (value 2), the Jewel (value 1) and combat experience
    (value 1) come into play only as quest rewards: value_needs_quest."""
    state = build(phase="assignment", hands={1: ["SWORD@1.5", "GEM@1.6", "EXP@1.7"]},
                  warriors=[W("KNIGHT@1.1")])
    for card in ("SWORD@1.5", "GEM@1.6", "EXP@1.7"):
        refused(state, act("attach_card", 1, card=card, warrior="KNIGHT@1.1"),
                "value_needs_quest")


def test_l82_only_companions_and_rewards_are_attached() -> None:
    """[割り当て L80-82]: an event is not attachable."""
    state = build(phase="assignment", hands={1: ["FEAST@1.5"]}, warriors=[W("KNIGHT@1.1")])
    refused(state, act("attach_card", 1, card="FEAST@1.5", warrior="KNIGHT@1.1"),
            "not_attachable")


def test_l300_a_lady_goes_only_to_a_knight_or_king() -> None:
    """[貴婦人 L300; 一般戦士 L265]: Lady Elaine is refused to a Man-at-arms
    (lady_needs_knight) and accepted by a king."""
    state = build(phase="assignment", hands={1: ["LADY@1.5"]},
                  warriors=[W("SOLDIER@1.1"), W("KING-N@1.2")])
    refused(state, act("attach_card", 1, card="LADY@1.5", warrior="SOLDIER@1.1"),
            "lady_needs_knight")
    state = play(state, act("attach_card", 1, card="LADY@1.5", warrior="KING-N@1.2"))
    assert warrior_of(state, "KING-N@1.2").attached == ["LADY@1.5"]


def test_l300_one_lady_per_knight() -> None:
    """[貴婦人 L300]: Sir Alan has Lady Elaine; Lady Vivien is refused (one_lady)."""
    state = build(phase="assignment", hands={1: ["LADY-B@1.5"]},
                  warriors=[W("KNIGHT@1.1", attached=["LADY@1.4"])])
    refused(state, act("attach_card", 1, card="LADY-B@1.5", warrior="KNIGHT@1.1"), "one_lady")


def test_oq10_a_lady_is_unique_in_play_on_every_side() -> None:
    """[貴婦人 L302; 基本構成細則 L56], grail OQ-10: Lady Elaine is on seat 2's knight; seat 1's
    own Lady Elaine is refused (unique_in_play) and stays in hand."""
    state = build(phase="assignment", hands={1: ["LADY@1.5"]},
                  warriors=[W("KNIGHT@1.1"), W("BORS@2.1", attached=["LADY@2.4"])])
    refused(state, act("attach_card", 1, card="LADY@1.5", warrior="KNIGHT@1.1"),
            "unique_in_play")


def test_oq10_a_vow_of_value_1_or_more_is_unique_in_play() -> None:
    """[報酬 L311; 基本構成細則 L57], grail OQ-10: the Vow of Silence (value 2) is on seat 2's
    knight; seat 1's copy is refused (unique_in_play)."""
    state = build(phase="assignment", hands={1: ["VOW@1.5"]},
                  warriors=[W("KNIGHT@1.1"), W("BORS@2.1", attached=["VOW@2.4"])])
    refused(state, act("attach_card", 1, card="VOW@1.5", warrior="KNIGHT@1.1"),
            "unique_in_play")


def test_l318_one_weapon_armour_shield_and_horse_per_warrior() -> None:
    """[武器や防具 L318], grail OQ-8: Sir Alan has an axe, mail and a shield; a horse is
    accepted; a second of each category (axe, plate, shield, horse) is refused (slot_taken) on
    Sir Bors who already has all four."""
    state = build(phase="assignment",
                  hands={1: ["HORSE@1.5", "AXE@1.6", "PLATE@1.7", "SHIELD@1.8", "HORSE@1.9"]},
                  warriors=[W("KNIGHT@1.1", attached=["AXE@1.2", "MAIL@1.3", "SHIELD@1.4"]),
                            W("BORS@1.10", attached=["AXE@1.11", "MAIL@1.12", "SHIELD@1.13",
                                                     "HORSE@1.14"])])
    for card in ("AXE@1.6", "PLATE@1.7", "SHIELD@1.8", "HORSE@1.9"):
        refused(state, act("attach_card", 1, card=card, warrior="BORS@1.10"), "slot_taken")
    state = play(state, act("attach_card", 1, card="HORSE@1.5", warrior="KNIGHT@1.1"))
    assert warrior_of(state, "KNIGHT@1.1").attached == ["AXE@1.2", "MAIL@1.3", "SHIELD@1.4",
                                                         "HORSE@1.5"]


def test_oq7_one_assignment_operation_per_warrior_per_turn() -> None:
    """[割り当て L79], grail OQ-7: after the axe, Sir Alan takes no squire this turn
    (already_assigned); another warrior still may."""
    state = build(phase="assignment", hands={1: ["AXE@1.5", "SQUIRE@1.6"]},
                  warriors=[W("KNIGHT@1.1"), W("SOLDIER@1.2")])
    state = play(state, act("attach_card", 1, card="AXE@1.5", warrior="KNIGHT@1.1"))
    refused(state, act("attach_card", 1, card="SQUIRE@1.6", warrior="KNIGHT@1.1"),
            "already_assigned")
    state = play(state, act("attach_card", 1, card="SQUIRE@1.6", warrior="SOLDIER@1.2"))
    assert warrior_of(state, "SOLDIER@1.2").attached == ["SQUIRE@1.6"]


def test_l80_attach_only_to_ones_own_warrior() -> None:
    """[割り当て L79] (each warrior on your field): seat 2's knight is refused."""
    state = build(phase="assignment", hands={1: ["AXE@1.5"]}, warriors=[W("KNIGHT@2.1")])
    refused(state, act("attach_card", 1, card="AXE@1.5", warrior="KNIGHT@2.1"),
            "not_your_warrior")


# ----- assignment: transfers (割り当て L83-84, OQ-7) ------------------------------------------
def test_oq7_both_a_transfer_uses_both_warriors_operation() -> None:
    """[割り当て L83], grail OQ-7 (assignment_transfer: both, the default): the Sword moves from
    Sir Alan to Sir Bors; neither may then take the axe (already_assigned)."""
    state = build(phase="assignment", hands={1: ["AXE@1.5"]},
                  warriors=[W("KNIGHT@1.1", attached=["SWORD@1.4"]), W("BORS@1.2")])
    state = play(state, act("transfer_card", 1, card="SWORD@1.4", to_warrior="BORS@1.2"))
    assert warrior_of(state, "KNIGHT@1.1").attached == []
    assert warrior_of(state, "BORS@1.2").attached == ["SWORD@1.4"]
    for w in ("KNIGHT@1.1", "BORS@1.2"):
        refused(state, act("attach_card", 1, card="AXE@1.5", warrior=w), "already_assigned")


def test_oq7_both_a_giver_that_has_had_its_operation_cannot_give() -> None:
    """grail OQ-7 (both): Sir Alan took the axe this turn; it cannot give its squire."""
    state = build(phase="assignment", warriors=[W("KNIGHT@1.1", attached=["SQUIRE@1.4"],
                                                  assigned=True), W("BORS@1.2")])
    refused(state, act("transfer_card", 1, card="SQUIRE@1.4", to_warrior="BORS@1.2"),
            "already_assigned")


def test_oq7_receiver_a_transfer_uses_only_the_receivers_operation() -> None:
    """grail OQ-7 (assignment_transfer: receiver): Sir Alan, already assigned this turn, gives
    the Squire to Sir Bors; Sir Bors is then assigned, Sir Alan not charged again; a
    Man-at-arms that gives its axe may still take a shield."""
    state = build(phase="assignment", hands={1: ["SHIELD@1.5"]},
                  options={"assignment_transfer": "receiver"},
                  warriors=[W("KNIGHT@1.1", attached=["SQUIRE@1.4"], assigned=True),
                            W("BORS@1.2"), W("SOLDIER@1.3", attached=["AXE@1.6"]),
                            W("GUARD@1.7")])
    state = play(state, act("transfer_card", 1, card="SQUIRE@1.4", to_warrior="BORS@1.2"))
    assert warrior_of(state, "BORS@1.2").attached == ["SQUIRE@1.4"]
    assert warrior_of(state, "BORS@1.2").assigned
    state = play(state, act("transfer_card", 1, card="AXE@1.6", to_warrior="GUARD@1.7"))
    assert not warrior_of(state, "SOLDIER@1.3").assigned
    state = play(state, act("attach_card", 1, card="SHIELD@1.5", warrior="SOLDIER@1.3"))
    assert warrior_of(state, "SOLDIER@1.3").attached == ["SHIELD@1.5"]


def test_l83_vows_combat_experience_and_ladies_are_not_transferable() -> None:
    """[割り当て L83-84; 誓約 L324; 戦闘経験 L328; 貴婦人 L301]: each is refused
    (not_transferable)."""
    state = build(phase="assignment",
                  warriors=[W("KNIGHT@1.1", attached=["VOW@1.4", "EXP@1.5", "LADY@1.6"]),
                            W("BORS@1.2")])
    for card in ("VOW@1.4", "EXP@1.5", "LADY@1.6"):
        refused(state, act("transfer_card", 1, card=card, to_warrior="BORS@1.2"),
                "not_transferable")


def test_oq8_a_transfer_into_a_taken_slot_is_refused() -> None:
    """[武器や防具 L318], grail OQ-8: Sir Bors has an axe; the Sword (a weapon) is refused."""
    state = build(phase="assignment", warriors=[W("KNIGHT@1.1", attached=["SWORD@1.4"]),
                                                W("BORS@1.2", attached=["AXE@1.5"])])
    refused(state, act("transfer_card", 1, card="SWORD@1.4", to_warrior="BORS@1.2"),
            "slot_taken")


def test_l83_transfers_are_between_ones_own_warriors() -> None:
    """[割り当て L83] (場の戦士同士): to seat 2's knight is refused (not_your_warrior); to the
    same warrior is refused (same_warrior)."""
    state = build(phase="assignment", warriors=[W("KNIGHT@1.1", attached=["SWORD@1.4"]),
                                                W("BORS@2.1")])
    refused(state, act("transfer_card", 1, card="SWORD@1.4", to_warrior="BORS@2.1"),
            "not_your_warrior")
    refused(state, act("transfer_card", 1, card="SWORD@1.4", to_warrior="KNIGHT@1.1"),
            "same_warrior")
