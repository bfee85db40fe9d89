"""Judges' adjustments (C3), from the zone table (engine.grail.table): the counters valor, damage
and permanent_damage of a warrior (基本構成細則 L51-52; grail OQ-30) and the damage of a quest
being fought (討伐クエスト L153), the flags acted and assigned, lasting modifiers of prowess,
strength, endurance and armour read in combat rounds (G1), card moves between zones, attaching
and detaching cards, and their refusals."""

from __future__ import annotations

from typing import Any

from engine.grail.model import GrailState, Warrior
from tests.engine.grail.helpers import (
    W,
    act,
    adjust,
    build,
    combat_of,
    on_field,
    play,
    refused,
    roll,
    warrior_of,
)


def counter(name: str, value: int) -> dict[str, Any]:
    return {"counter": {"name": name, "value": value}}


def move(card: str, from_zone: str, to_zone: str, **seats: int) -> dict[str, Any]:
    return {"move": {"card": card, "from_zone": from_zone, "to_zone": to_zone, **seats}}


def modifier(card: str, stat: str, amount: int, until: str = "end_of_turn") -> dict[str, Any]:
    return {"modifier": {"card": card, "stat": stat, "amount": amount, "until": until}}


def _mortal(challenger: Warrior, target: Warrior, *changes: dict[str, Any],
            **kw: Any) -> GrailState:
    """The judge's ``changes`` (seat 1's adjustments), then seat 1's ``challenger`` makes a
    mortal challenge on seat 2's ``target`` (a knight pays 2 valor, L156)."""
    state = build(warriors=[challenger, target], **kw)
    for change in changes:
        state = play(state, adjust(1, **change))
    return play(state, act("challenge_mortal", 1, challenger=challenger.card,
                           target=target.card))


def _fighting(quest: str, *changes: dict[str, Any]) -> GrailState:
    """The judge's ``changes``, then Sir Alan attempts seat 2's active ``quest`` (a combat
    quest; Q-WELL@2.2 next in seat 2's quest deck)."""
    state = build(warriors=[W("KNIGHT@1.1")], active_quest={2: quest},
                  quests={2: ["Q-WELL@2.2"]})
    for change in changes:
        state = play(state, adjust(1, **change))
    return play(state, act("attempt_quest", 1, warrior="KNIGHT@1.1", quest=quest))


def _damages(state: GrailState, *warriors: str) -> tuple[int, ...]:
    return tuple(warrior_of(state, w).damage for w in warriors)


def test_c3_valor_counter_sets_a_warriors_valor() -> None:
    """C3: valor:KNIGHT@1.1 6 -> 9."""
    state = play(build(warriors=[W("KNIGHT@1.1")]), adjust(1, **counter("valor:KNIGHT@1.1", 9)))
    assert warrior_of(state, "KNIGHT@1.1").valor == 9


def test_oq30_valor_set_to_0_destroys_the_warrior() -> None:
    """C3, grail OQ-30, [基本構成細則 L52]: valor 0: Sir Alan and his Squire go to seat 1's court
    discard at once."""
    state = play(build(warriors=[W("KNIGHT@1.1", attached=["SQUIRE@1.4"])]),
                 adjust(1, **counter("valor:KNIGHT@1.1", 0)))
    assert not on_field(state, "KNIGHT@1.1")
    assert state.court_discard[1] == ["KNIGHT@1.1", "SQUIRE@1.4"]


def test_c3_damage_and_permanent_damage_counters() -> None:
    """C3, [基本構成細則 L51; 交戦処理 L204]: damage 2 and permanent_damage 3 on Sir Alan; the
    end of the turn resets the 2, not the 3 [ターン終了 L99]."""
    state = build(warriors=[W("KNIGHT@1.1")])
    state = play(state, adjust(1, **counter("damage:KNIGHT@1.1", 2)))
    state = play(state, adjust(1, **counter("permanent_damage:KNIGHT@1.1", 3)))
    knight = warrior_of(state, "KNIGHT@1.1")
    assert (knight.damage, knight.permanent_damage) == (2, 3)
    state = play(state, {"type": "end_turn", "seat": 1}, "ROCK@2.90")
    knight = warrior_of(state, "KNIGHT@1.1")
    assert (knight.damage, knight.permanent_damage) == (0, 3)


def test_c3_bad_counters_are_refused() -> None:
    """C3: an unknown counter (prowess is a stat: a modifier changes it), a negative value, a
    warrior not on the field and a counter without its card are refused (bad_counter)."""
    state = build(warriors=[W("KNIGHT@1.1")])
    for name, value in (("prowess:KNIGHT@1.1", 5), ("damage:KNIGHT@1.1", -1),
                        ("valor:BORS@1.2", 5), ("valor", 5)):
        refused(state, adjust(1, **counter(name, value)), "bad_counter")


def test_c3_a_card_moves_between_piles_and_seats() -> None:
    """C3 (move a card between zones): the Feast from seat 1's hand to its court discard; a
    Rumour from seat 1's court deck into seat 2's hand."""
    state = build(hands={1: ["FEAST@1.5"]})
    state = play(state, adjust(1, **move("FEAST@1.5", "hand", "court_discard")))
    assert state.hands[1] == [] and state.court_discard[1] == ["FEAST@1.5"]
    state = play(state, adjust(1, **move("ROCK@1.90", "court", "hand", to_seat=2)))
    assert "ROCK@1.90" not in state.court[1] and state.hands[2] == ["ROCK@1.90"]


def test_c3_a_warrior_leaving_the_field_sends_its_attachments_to_the_discard() -> None:
    """C3, [仲間 L297; 報酬 L313]: Sir Alan back to hand: his Squire goes to the court discard,
    not with him."""
    state = build(warriors=[W("KNIGHT@1.1", attached=["SQUIRE@1.4"])])
    state = play(state, adjust(1, **move("KNIGHT@1.1", "field", "hand")))
    assert not on_field(state, "KNIGHT@1.1") and state.hands[1] == ["KNIGHT@1.1"]
    assert state.court_discard[1] == ["SQUIRE@1.4"]


def test_c3_warriors_and_domains_are_put_onto_the_field() -> None:
    """C3: Sir Bors from hand onto the field enters with his printed valor 8; a Northmarch too;
    a Sword cannot stand on the field by itself (card_not_in_zone)."""
    state = build(hands={1: ["BORS@1.2", "D-NORTH@1.3", "SWORD@1.4"]})
    state = play(state, adjust(1, **move("BORS@1.2", "hand", "field")))
    state = play(state, adjust(1, **move("D-NORTH@1.3", "hand", "field")))
    assert warrior_of(state, "BORS@1.2").valor == 8 and state.domains[1] == ["D-NORTH@1.3"]
    refused(state, adjust(1, **move("SWORD@1.4", "hand", "field")), "card_not_in_zone")


def test_c3_an_attached_card_moves_off_its_warrior() -> None:
    """C3: the Sword on Sir Alan is taken into seat 2's hand (a card effect); Sir Alan stays."""
    state = build(warriors=[W("KNIGHT@1.1", attached=["SWORD@1.4"])])
    state = play(state, adjust(1, **move("SWORD@1.4", "field", "hand", to_seat=2)))
    assert warrior_of(state, "KNIGHT@1.1").attached == [] and state.hands[2] == ["SWORD@1.4"]


def test_c3_the_active_quest_is_moved_one_quest_at_a_time() -> None:
    """C3: seat 1's active Riddle goes to its quest discard; the Well from its quest deck takes
    the empty place; the Grove put there in turn replaces the Well, which goes to the quest
    discard as a refresh sends it [ドロー L72]; a card other than a quest is refused
    (card_not_in_zone)."""
    state = build(active_quest={1: "Q-RIDDLE@1.5"}, quests={1: ["Q-WELL@1.6", "Q-GROVE@1.7"]},
                  hands={1: ["FEAST@1.8"]})
    state = play(state, adjust(1, **move("Q-RIDDLE@1.5", "active_quest", "quest_discard")))
    assert state.active_quest[1] is None and state.quest_discard[1] == ["Q-RIDDLE@1.5"]
    state = play(state, adjust(1, **move("Q-WELL@1.6", "quests", "active_quest")))
    assert state.active_quest[1] == "Q-WELL@1.6"
    state = play(state, adjust(1, **move("Q-GROVE@1.7", "quests", "active_quest")))
    assert state.active_quest[1] == "Q-GROVE@1.7" and state.quests[1] == []
    assert state.quest_discard[1] == ["Q-RIDDLE@1.5", "Q-WELL@1.6"]
    refused(state, adjust(1, **move("FEAST@1.8", "hand", "active_quest")), "card_not_in_zone")


def test_c3_the_quest_being_fought_is_neither_moved_nor_replaced() -> None:
    """C3, [討伐クエスト L147-153]: while Sir Alan fights the Wyvern, it cannot leave seat 2's
    active quest nor be replaced there (quest_in_combat): end the combat first."""
    state = _fighting("Q-WYVERN@2.1")
    refused(state, adjust(2, **move("Q-WYVERN@2.1", "active_quest", "quest_discard")),
            "quest_in_combat")
    refused(state, adjust(2, **move("Q-WELL@2.2", "quests", "active_quest")),
            "quest_in_combat")


def test_c3_moves_are_refused_for_missing_cards_and_unknown_zones() -> None:
    """C3: a card not in the named zone (card_not_in_zone); a zone the game does not have
    (bad_zone)."""
    state = build(hands={1: ["FEAST@1.6"]})
    refused(state, adjust(1, **move("FEAST@1.5", "hand", "court_discard")), "card_not_in_zone")
    refused(state, adjust(1, **move("FEAST@1.6", "hand", "graveyard")), "bad_zone")


# ----- lasting modifiers of the combat stats (C3; G1, 交戦処理 L198-205) -------------------------
def test_g1_a_lasting_prowess_modifier_counts_in_the_round() -> None:
    """C3, G1 (round prowess = PRO + dice + modifiers): card text gives the Gate Guard +4
    prowess until the end of the turn: 4 + 4 + 2 = 10 against Sir Alan's 5 + 2 = 7: the Guard
    alone hits, for STR 2 (printed, the Guard would have missed: 6 < 7)."""
    state = _mortal(W("KNIGHT@1.1"), W("GUARD@2.1"), modifier("GUARD@2.1", "prowess", 4))
    state = roll(state, 1, 1, 1, 1, 1)
    assert _damages(state, "KNIGHT@1.1", "GUARD@2.1") == (2, 0)


def test_g1_a_lasting_strength_modifier_counts_in_the_round() -> None:
    """C3, G1 (a hit deals strength minus armour): Sir Alan +3 strength: 5 + 2 = 7 against
    4 + 2 = 6, he hits the Guard for 4 + 3 = 7."""
    state = _mortal(W("KNIGHT@1.1"), W("GUARD@2.1"), modifier("KNIGHT@1.1", "strength", 3))
    state = roll(state, 1, 1, 1, 1, 1)
    assert _damages(state, "KNIGHT@1.1", "GUARD@2.1") == (0, 7)


def test_g1_a_lasting_endurance_modifier_decides_the_mortal_wound() -> None:
    """C3, G1 (damage at END is a mortal wound), [交戦処理 L203-205]: the Guard -6 endurance
    (END 10 - 6 = 4): Sir Alan's hit of 4 wounds it and wins the combat (printed, 4 < 10)."""
    state = _mortal(W("KNIGHT@1.1"), W("GUARD@2.1"), modifier("GUARD@2.1", "endurance", -6))
    state = roll(state, 1, 1, 1, 1, 1)
    combat = combat_of(state)
    assert combat.sides[1].wounded and combat.result == "win:0"


def test_l277_a_knight_heals_against_his_modified_endurance() -> None:
    """C3, [騎士 L277] (healing clears normal damage, permanent damage stays), G1: Sir Alan (3
    permanent) has -3 endurance for good (END 3): after the Guard's tie hit he heals, but his
    3 permanent damage still reach END 3: he stays wounded and, the combat finished, is
    discarded (抹殺チャレンジ L159-160)."""
    state = _mortal(W("KNIGHT@1.1", permanent=3), W("GUARD@2.1"),
                    modifier("KNIGHT@1.1", "endurance", -3, "permanent"))
    state = roll(state, 1, 1, 1, 1, 2)  # 5 + 2 = 4 + 3: a tie, both hit
    assert combat_of(state).sides[0].wounded
    state = play(state, act("heal", 1, warrior="KNIGHT@1.1"))
    assert not on_field(state, "KNIGHT@1.1")
    assert state.modifiers == [], "his modifier ended as he left the field"


def test_oq33_a_lasting_armour_modifier_adds_to_the_armour() -> None:
    """C3, G1, grail OQ-33: the Guard +2 armour for good: Sir Alan's hit of STR 4 deals
    4 - 2 = 2."""
    state = _mortal(W("KNIGHT@1.1"), W("GUARD@2.1"),
                    modifier("GUARD@2.1", "armour", 2, "permanent"))
    state = roll(state, 1, 1, 1, 1, 1)
    assert _damages(state, "KNIGHT@1.1", "GUARD@2.1") == (0, 2)


def test_l147_a_combat_quests_stats_take_lasting_modifiers() -> None:
    """C3, [討伐クエスト L147; カード構成 L228-229] (a combat quest has combat stats): the Wyvern
    (END 4) +2 endurance: Sir Alan 5 + 6 = 11 hits it for 4 < 6, no wound (printed, it would
    have been achieved)."""
    state = _fighting("Q-WYVERN@2.1", modifier("Q-WYVERN@2.1", "endurance", 2))
    state = roll(state, 1, 3, 3, 1, 1)
    combat = combat_of(state)
    assert combat.sides[1].damage == 4 and not combat.sides[1].wounded and combat.result == ""


def test_c3_modifiers_until_the_end_of_the_turn_end_with_it_and_the_others_stay() -> None:
    """C3 (a lasting modifier until the end of the turn, or for good), G1: the Guard has +4
    prowess for seat 1's turn and +1 armour for good. Seat 1 ends its turn: only the armour is
    left. In seat 2's turn the Guard (upkeep paid from its Northmarch) challenges Sir Alan:
    4 + 2 = 6 against 5 + 2 = 7: Sir Alan hits it for 4 - 1 = 3."""
    state = build(warriors=[W("KNIGHT@1.1"), W("GUARD@2.1")], domains={2: ["D-NORTH@2.3"]})
    state = play(state, adjust(1, **modifier("GUARD@2.1", "prowess", 4)))
    state = play(state, adjust(1, **modifier("GUARD@2.1", "armour", 1, "permanent")))
    state = play(state, act("end_turn", 1), "ROCK@2.90")
    assert [(m.stat, m.amount, m.until) for m in state.modifiers] == [
        ("armour", 1, "permanent")]
    state = play(state, act("pay_upkeep", 2))
    state = play(state, act("challenge_mortal", 2, challenger="GUARD@2.1",
                            target="KNIGHT@1.1"))
    state = roll(state, 2, 1, 1, 1, 1)
    assert _damages(state, "GUARD@2.1", "KNIGHT@1.1") == (3, 0)


def test_c3_a_modifier_names_a_combat_stat_of_a_card_in_play() -> None:
    """C3: valor is a counter, not a stat (bad_stat); a warrior in hand and a quest fought by
    no combat (the Riddle) have no combat stats in play (card_not_in_zone)."""
    state = build(warriors=[W("KNIGHT@1.1")], hands={1: ["BORS@1.2"]},
                  active_quest={2: "Q-RIDDLE@2.1"})
    refused(state, adjust(1, **modifier("KNIGHT@1.1", "valor", 1)), "bad_stat")
    refused(state, adjust(1, **modifier("BORS@1.2", "prowess", 1)), "card_not_in_zone")
    refused(state, adjust(1, **modifier("Q-RIDDLE@2.1", "prowess", 1)), "card_not_in_zone")


def test_c3_a_warriors_modifiers_end_when_it_leaves_the_field() -> None:
    """C3 (card text changes a card in play), the engine's reading (no rule says how long a
    modifier outlives its card): Sir Alan +1 prowess for good ends as he leaves the field for
    the hand; put back on the field, he has none."""
    state = build(warriors=[W("KNIGHT@1.1")])
    state = play(state, adjust(1, **modifier("KNIGHT@1.1", "prowess", 1, "permanent")))
    state = play(state, adjust(1, **move("KNIGHT@1.1", "field", "hand")))
    assert state.modifiers == []
    state = play(state, adjust(1, **move("KNIGHT@1.1", "hand", "field")))
    assert on_field(state, "KNIGHT@1.1") and state.modifiers == []


# ----- a slaying quest's damage (討伐クエスト L153) -----------------------------------------------
def test_l153_a_quest_being_fought_takes_damage_by_adjustment() -> None:
    """C3, [討伐クエスト L153] (the quest's damage, reset at the combat's end): a spell deals 3
    to the Black Knight (END 6, armour 1) being fought: damage:Q-BLACK@2.1 = 3. Sir Alan
    5 + 6 = 11 against 5 + 2 = 7 hits it for 4 - 1 = 3: 6 >= 6, wounded: achieved. A quest
    not being fought has no damage to set (bad_counter)."""
    refused(build(active_quest={2: "Q-BLACK@2.1"}),
            adjust(1, **counter("damage:Q-BLACK@2.1", 3)), "bad_counter")
    state = _fighting("Q-BLACK@2.1")
    state = play(state, adjust(1, **counter("damage:Q-BLACK@2.1", 3)))
    assert combat_of(state).sides[1].damage == 3
    state = roll(state, 1, 3, 3, 1, 1)
    combat = combat_of(state)
    assert combat.sides[1].damage == 6 and combat.sides[1].wounded
    assert combat.result == "win:0"


# ----- attaching and detaching (割り当て L80-84; 貴婦人 L300-302; 武器や防具 L318) ---------------
def test_c3_a_card_is_attached_to_a_warrior_by_a_move() -> None:
    """C3 (card text attaches a card), [仲間 L291-297; 報酬 L304-314]: the Sword of Light (a
    weapon of value 2) from seat 1's hand onto Sir Alan, in the challenge phase and without
    using his assignment; Lady Elaine from the court discard onto him too. It counts as an
    attachment does: seat 2's Chain Mail onto its Gate Guard is the Guard's armour 2 (OQ-33),
    and Sir Alan's hit of 4 deals 2."""
    state = build(warriors=[W("KNIGHT@1.1"), W("GUARD@2.1")], hands={1: ["SWORD@1.4"],
                                                                     2: ["MAIL@2.6"]},
                  court_discard={1: ["LADY@1.5"]})
    state = play(state, adjust(1, **move("SWORD@1.4", "hand", "field:KNIGHT@1.1")))
    state = play(state, adjust(1, **move("LADY@1.5", "court_discard", "field:KNIGHT@1.1")))
    knight = warrior_of(state, "KNIGHT@1.1")
    assert knight.attached == ["SWORD@1.4", "LADY@1.5"] and not knight.assigned
    assert state.hands[1] == [] and state.court_discard[1] == []
    state = play(state, adjust(2, **move("MAIL@2.6", "hand", "field:GUARD@2.1")))
    assert warrior_of(state, "GUARD@2.1").attached == ["MAIL@2.6"]
    state = play(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1",
                            target="GUARD@2.1"))
    state = roll(state, 1, 1, 1, 1, 1)
    assert _damages(state, "KNIGHT@1.1", "GUARD@2.1") == (0, 2)


def test_c3_an_attachment_is_refused_where_the_rules_refuse_it() -> None:
    """C3 within the rules of attachment: a lady onto a general warrior (lady_needs_knight,
    貴婦人 L300), a second weapon (slot_taken, 武器や防具 L318), a lady whose name is in play
    (unique_in_play, L302), a domain (not_attachable: only companions and rewards attach), onto
    a warrior that is not on the seat's field (bad_zone)."""
    state = build(warriors=[W("KNIGHT@1.1", attached=["SWORD@1.4"]), W("SOLDIER@1.2"),
                            W("BORS@2.1", attached=["LADY@2.5"])],
                  hands={1: ["LADY@1.5", "AXE@1.6", "D-NORTH@1.7", "LADY@1.8"]})
    refused(state, adjust(1, **move("LADY@1.5", "hand", "field:SOLDIER@1.2")),
            "lady_needs_knight")
    refused(state, adjust(1, **move("AXE@1.6", "hand", "field:KNIGHT@1.1")), "slot_taken")
    refused(state, adjust(1, **move("LADY@1.8", "hand", "field:KNIGHT@1.1")),
            "unique_in_play")
    refused(state, adjust(1, **move("D-NORTH@1.7", "hand", "field:KNIGHT@1.1")),
            "not_attachable")
    refused(state, adjust(1, **move("AXE@1.6", "hand", "field:BORS@2.1")), "bad_zone")


def test_c3_an_attachment_moves_to_another_warrior_or_off_the_field() -> None:
    """C3: the Squire taken off Sir Alan onto Sir Bors (any companion, the transfer rules of
    the assignment phase aside); then the Sword off Sir Alan to the court discard, on its own:
    Sir Alan stays."""
    state = build(warriors=[W("KNIGHT@1.1", attached=["SQUIRE@1.4", "SWORD@1.5"]),
                            W("BORS@1.2")])
    state = play(state, adjust(1, **move("SQUIRE@1.4", "field", "field:BORS@1.2")))
    assert warrior_of(state, "BORS@1.2").attached == ["SQUIRE@1.4"]
    state = play(state, adjust(1, **move("SWORD@1.5", "field", "court_discard")))
    assert warrior_of(state, "KNIGHT@1.1").attached == []
    assert state.court_discard[1] == ["SWORD@1.5"]


# ----- a warrior's action and assignment (L79, L89; grail OQ-7) -------------------------------
def test_l89_a_warriors_used_action_is_restored() -> None:
    """C3, [チャレンジ L89-97] (one action per warrior and turn): Sir Alan has acted; a card
    gives him his action back: acted:KNIGHT@1.1 = 0, and he attempts the Riddle."""
    state = build(warriors=[W("KNIGHT@1.1", acted=True)], active_quest={2: "Q-RIDDLE@2.1"},
                  quests={2: ["Q-WELL@2.2"]})
    quest = act("attempt_quest", 1, warrior="KNIGHT@1.1", quest="Q-RIDDLE@2.1", claim=True)
    refused(state, quest, "already_acted")
    state = play(state, adjust(1, **counter("acted:KNIGHT@1.1", 0)))
    assert not warrior_of(state, "KNIGHT@1.1").acted
    state = play(state, quest, "Q-WELL@2.2")
    assert state.quest_discard[2] == ["Q-RIDDLE@2.1"]


def test_oq7_a_warriors_assignment_is_restored_and_a_flag_is_0_or_1() -> None:
    """C3, [割り当て L79] (one operation per warrior), grail OQ-7: Sir Alan has had his
    assignment; assigned:KNIGHT@1.1 = 0 gives it back and the Squire is attached; a flag set
    to 2 is refused (bad_counter)."""
    state = build(phase="assignment", warriors=[W("KNIGHT@1.1", assigned=True)],
                  hands={1: ["SQUIRE@1.4"]})
    attach = act("attach_card", 1, card="SQUIRE@1.4", warrior="KNIGHT@1.1")
    refused(state, attach, "already_assigned")
    refused(state, adjust(1, **counter("assigned:KNIGHT@1.1", 2)), "bad_counter")
    state = play(state, adjust(1, **counter("assigned:KNIGHT@1.1", 0)))
    state = play(state, attach)
    assert warrior_of(state, "KNIGHT@1.1").attached == ["SQUIRE@1.4"]
