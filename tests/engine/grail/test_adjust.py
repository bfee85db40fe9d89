"""Judges' adjustments (C3): the counters valor, damage and permanent_damage of a warrior
(基本構成細則 L51-52; grail OQ-30), card moves between zones, and their refusals."""

from __future__ import annotations

from typing import Any

from tests.engine.grail.helpers import (
    W,
    adjust,
    build,
    on_field,
    play,
    refused,
    warrior_of,
)


def counter(name: str, value: int) -> dict[str, Any]:
    return {"counter": {"name": name, "value": value}}


def move(card: str, from_zone: str, to_zone: str, **seats: int) -> dict[str, Any]:
    return {"move": {"card": card, "from_zone": from_zone, "to_zone": to_zone, **seats}}


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
    """C3: an unknown counter (prowess), a negative value and a warrior not on the field are
    refused (bad_counter)."""
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
    the empty place; a second quest into the occupied place is refused (card_not_in_zone)."""
    state = build(active_quest={1: "Q-RIDDLE@1.5"}, quests={1: ["Q-WELL@1.6", "Q-GROVE@1.7"]})
    state = play(state, adjust(1, **move("Q-RIDDLE@1.5", "active_quest", "quest_discard")))
    assert state.active_quest[1] is None and state.quest_discard[1] == ["Q-RIDDLE@1.5"]
    state = play(state, adjust(1, **move("Q-WELL@1.6", "quests", "active_quest")))
    assert state.active_quest[1] == "Q-WELL@1.6"
    refused(state, adjust(1, **move("Q-GROVE@1.7", "quests", "active_quest")),
            "card_not_in_zone")


def test_c3_moves_are_refused_for_missing_cards_and_unknown_zones() -> None:
    """C3: a card not in the named zone (card_not_in_zone); a zone the game does not have
    (bad_zone)."""
    state = build(hands={1: ["FEAST@1.6"]})
    refused(state, adjust(1, **move("FEAST@1.5", "hand", "court_discard")), "card_not_in_zone")
    refused(state, adjust(1, **move("FEAST@1.6", "hand", "graveyard")), "bad_zone")
