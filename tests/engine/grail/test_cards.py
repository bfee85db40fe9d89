"""One-shot cards (一時的に使用するカード L329-348): events any time (イベント L333-334), spells
through an own caster (呪文 L335-343; grail OQ-25), combat actions in a combat's card window
(戦闘アクション L344-348). Their effects are card text (C3): only where they go is ruled here."""

from __future__ import annotations

from typing import Any

from engine.grail.model import GrailState
from tests.engine.grail.helpers import W, act, build, play, refused, roll


def cast(state: GrailState, seat: int, card: str, caster: str) -> GrailState:
    return play(state, act("cast_spell", seat, card=card, caster=caster))


def test_l334_an_event_is_played_at_any_time_even_in_anothers_turn() -> None:
    """[イベント L333-334]: in seat 1's turn seat 2 plays its Feast: to seat 2's court discard."""
    state = play(build(hands={2: ["FEAST@2.5"]}), act("play_event", 2, card="FEAST@2.5"))
    assert state.hands[2] == [] and state.court_discard[2] == ["FEAST@2.5"]


def test_l339_a_spell_needs_an_own_caster_of_enough_enchanter_rating() -> None:
    """[呪文 L339-340]: the Lightning Bolt needs 2: the Court Wizard (3) casts it (to the court
    discard); the Hermit Sage (2), a companion on Sir Alan, may too; Sir Alan (none, 0) may not
    (enchanter_too_low); seat 2's warrior is not seat 1's caster (not_your_warrior)."""
    state = build(hands={1: ["BOLT@1.5", "BOLT@1.6", "BOLT@1.7"]},
                  warriors=[W("MAGE@1.1"), W("KNIGHT@1.2", attached=["SAGE@1.3"]),
                            W("MAGE@2.1")])
    refused(state, act("cast_spell", 1, card="BOLT@1.7", caster="KNIGHT@1.2"),
            "enchanter_too_low")
    refused(state, act("cast_spell", 1, card="BOLT@1.7", caster="MAGE@2.1"),
            "not_your_warrior")
    state = cast(cast(state, 1, "BOLT@1.5", "MAGE@1.1"), 1, "BOLT@1.6", "SAGE@1.3")
    assert state.court_discard[1] == ["BOLT@1.5", "BOLT@1.6"]


def rounds(**options: Any) -> GrailState:
    """Seat 1 (first player) casts through its Court Wizard, ends its turn; seat 2's turn."""
    state = build(hands={1: ["BOLT@1.5", "BOLT@1.6"]}, warriors=[W("MAGE@1.1")],
                  options=options)
    state = cast(state, 1, "BOLT@1.5", "MAGE@1.1")
    return play(state, act("end_turn", 1), "ROCK@2.90")


def test_oq25_per_round_a_caster_casts_once_per_round_of_turns() -> None:
    """grail OQ-25 (spell_limit: per_round): in seat 2's turn, the same round, the Wizard may
    not cast again (caster_spent); at seat 1's next turn (a new round) it may."""
    state = rounds()
    refused(state, act("cast_spell", 1, card="BOLT@1.6", caster="MAGE@1.1"), "caster_spent")
    state = play(state, act("pay_upkeep", 2))
    state = play(state, act("end_turn", 2), "ROCK@1.90")
    cast(state, 1, "BOLT@1.6", "MAGE@1.1")


def test_oq25_a_round_starts_at_the_first_players_turn() -> None:
    """grail OQ-25 ("A round starts at the first player's turn"): seat 2 plays first; its
    Wizard casts in seat 2's turn; seat 1's turn that follows is the same round: the Wizard may
    not cast again (caster_spent)."""
    state = build(active=2, first_player=2, hands={2: ["BOLT@2.5", "BOLT@2.6"]},
                  warriors=[W("MAGE@2.1")])
    state = cast(state, 2, "BOLT@2.5", "MAGE@2.1")
    state = play(state, act("end_turn", 2), "ROCK@1.90")
    refused(state, act("cast_spell", 2, card="BOLT@2.6", caster="MAGE@2.1"), "caster_spent")


def test_oq25_per_turn_a_caster_casts_once_per_turn() -> None:
    """grail OQ-25 (spell_limit: per_turn): in seat 2's turn the Wizard casts again."""
    cast(rounds(spell_limit="per_turn"), 1, "BOLT@1.6", "MAGE@1.1")


def test_l342_no_spell_in_a_formal_combat_but_in_a_mortal_one() -> None:
    """[呪文 L342; 決闘 L141; 死闘 L144]: during an honour duel the Wizard's spell is refused
    (no_spells_in_duel); during a mortal challenge it is cast."""
    honour = build(hands={1: ["BOLT@1.5"]}, warriors=[W("MAGE@1.1"), W("BORS@1.2"),
                                                      W("KNIGHT@2.1")])
    honour = play(honour, act("challenge_honour", 1, challenger="BORS@1.2", target="KNIGHT@2.1"))
    honour = play(honour, act("answer_honour", 2, accept=True))
    refused(honour, act("cast_spell", 1, card="BOLT@1.5", caster="MAGE@1.1"),
            "no_spells_in_duel")
    mortal = build(hands={1: ["BOLT@1.5"]}, warriors=[W("MAGE@1.1"), W("BORS@1.2"),
                                                      W("KNIGHT@2.1")])
    mortal = play(mortal, act("challenge_mortal", 1, challenger="BORS@1.2", target="KNIGHT@2.1"))
    cast(mortal, 1, "BOLT@1.5", "MAGE@1.1")


def test_l347_a_combat_action_is_played_in_a_combats_card_window_by_a_participant() -> None:
    """[戦闘アクション L347; 交戦処理 L195]: outside a combat it is refused (no_combat); in a
    3-player mortal challenge seat 3 may not play one (not_in_combat); seat 2 plays its Feint
    (to its court discard); once the result is fixed it is refused (wrong_step)."""
    state = build(players=3, hands={1: ["FEINT@1.5"], 2: ["FEINT@2.5"], 3: ["FEINT@3.5"]},
                  warriors=[W("KNIGHT@1.1"), W("SOLDIER@2.1")])
    refused(state, act("play_combat_action", 1, card="FEINT@1.5"), "no_combat")
    state = play(state, act("challenge_mortal", 1, challenger="KNIGHT@1.1",
                            target="SOLDIER@2.1"))
    refused(state, act("play_combat_action", 3, card="FEINT@3.5"), "not_in_combat")
    state = play(state, act("play_combat_action", 2, card="FEINT@2.5"))
    assert state.court_discard[2] == ["FEINT@2.5"]
    state = roll(state, 1, 3, 3, 1, 1)  # 11 against 5: 4 >= 4, the Man-at-arms is wounded
    refused(state, act("play_combat_action", 1, card="FEINT@1.5"), "wrong_step")
