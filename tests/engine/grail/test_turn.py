"""The turn (ターン(自分の手番)の進行 L68-99): the phases in order, never back, implicit advance and
the mandatory upkeep (grail OQ-39); the draw (ドロー L69-71, C2) and the refresh (L72, OQ-5, OQ-6);
the end of the turn (ターン終了 L98-99) and the turn order (grail OQ-2)."""

from __future__ import annotations

from engine.grail.model import PHASES
from tests.engine.grail.helpers import (
    RULES,
    W,
    act,
    build,
    legal_types,
    play,
    refused,
    warrior_of,
)


# ----- OQ-39: phases ---------------------------------------------------------------------------
def test_phases_are_the_seven_of_the_document_in_order() -> None:
    """[ターン(自分の手番)の進行 L68-99]: draw, build, deployment, assignment, upkeep, challenge
    (the end of turn is end_turn)."""
    assert PHASES == ("draw", "build", "deployment", "assignment", "upkeep", "challenge")


def test_oq39_a_later_phase_action_advances_implicitly_and_never_back() -> None:
    """grail OQ-39: from the draw phase place_domain moves to build, deploy_warrior to
    deployment; a second place_domain is then refused as wrong_phase (never back)."""
    state = build(phase="draw", hands={1: ["D-NORTH@1.1", "KNIGHT@1.2", "D-SOUTH@1.3"]})
    state = play(state, act("place_domain", 1, card="D-NORTH@1.1"))
    assert state.phase == "build"
    state = play(state, act("deploy_warrior", 1, card="KNIGHT@1.2"))
    assert state.phase == "deployment"
    refused(state, act("place_domain", 1, card="D-SOUTH@1.3"), "wrong_phase")
    refused(state, act("refresh_quest", 1), "wrong_phase")


def test_oq39_end_phase_moves_one_phase_on() -> None:
    """grail OQ-39 (explicit end_phase): draw -> build -> deployment -> assignment -> upkeep."""
    state = build(phase="draw")
    for expected in ("build", "deployment", "assignment", "upkeep"):
        state = play(state, act("end_phase", 1))
        assert state.phase == expected


def test_oq39_upkeep_cannot_be_skipped_by_end_phase() -> None:
    """grail OQ-39, [アップキープ L87] (mandatory): end_phase in an unpaid upkeep is refused
    (upkeep_pending) and is not listed; paying moves to the challenge phase, whose end is
    end_turn, not end_phase (wrong_phase)."""
    state = build(phase="upkeep")
    refused(state, act("end_phase", 1), "upkeep_pending")
    assert legal_types(state, 1) == {"pay_upkeep"}
    state = play(state, act("pay_upkeep", 1))
    assert (state.phase, state.upkeep_paid) == ("challenge", True)
    refused(state, act("end_phase", 1), "wrong_phase")
    assert "end_turn" in legal_types(state, 1) and "end_phase" not in legal_types(state, 1)


def test_oq39_upkeep_comes_before_every_challenge_action_and_end_turn() -> None:
    """grail OQ-39 ("Upkeep must be recorded before any challenge action or end_turn"): from the
    assignment phase a quest, a mortal and an honour challenge, the grail quest, a victory
    challenge and end_turn are all refused with upkeep_pending."""
    state = build(phase="assignment", active_quest={2: "Q-RIDDLE@2.1"},
                  warriors=[W("KNIGHT@1.1"), W("HERO@1.2"), W("KING-N@1.3"),
                            W("SOLDIER@2.1")])
    for action in (act("attempt_quest", 1, warrior="KNIGHT@1.1", quest="Q-RIDDLE@2.1",
                       claim=True),
                   act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="SOLDIER@2.1"),
                   act("challenge_honour", 1, challenger="KNIGHT@1.1", target="SOLDIER@2.1"),
                   act("start_grail_quest", 1, knight="HERO@1.2"),
                   act("declare_victory_challenge", 1, king="KING-N@1.3"),
                   act("end_turn", 1)):
        refused(state, action, "upkeep_pending")


def test_oq39_only_the_current_phase_actions_are_listed() -> None:
    """grail OQ-39: in the build phase with a domain and a warrior in hand, place_domain and
    end_phase are listed, deploy_warrior (a later phase) is not, though it is legal."""
    state = build(phase="build", hands={1: ["D-NORTH@1.1", "KNIGHT@1.2"]})
    assert legal_types(state, 1) == {"place_domain", "end_phase"}
    RULES.check(state, act("deploy_warrior", 1, card="KNIGHT@1.2"))


def test_only_the_active_seat_plays_its_turn() -> None:
    """[ターン(自分の手番)の進行 L68]: seat 2 may not end seat 1's phase or turn."""
    state = build(phase="draw")
    refused(state, act("end_phase", 2), "not_your_turn")
    assert RULES.to_act(state) == [1]


# ----- the draw phase: refresh (L72, OQ-5, OQ-6) ----------------------------------------------
def test_l72_refresh_sends_the_active_quest_to_the_discard_and_reveals_the_next() -> None:
    """[ドロー L72]: Q-RIDDLE goes to seat 1's quest discard; Q-GROVE, revealed, is active."""
    state = build(phase="draw", active_quest={1: "Q-RIDDLE@1.1"}, quests={1: ["Q-GROVE@1.2"]})
    state = play(state, act("refresh_quest", 1), "Q-GROVE@1.2")
    assert state.active_quest[1] == "Q-GROVE@1.2"
    assert state.quest_discard[1] == ["Q-RIDDLE@1.1"] and state.quests[1] == []


def test_l72_refresh_once_per_turn() -> None:
    """[ドロー L72] (at most one refresh per turn, digest 3): a second refresh is refused
    (already_refreshed); after end_turn and seat 2's turn, seat 1 may refresh again."""
    state = build(phase="draw", active_quest={1: "Q-RIDDLE@1.1"},
                  quests={1: ["Q-GROVE@1.2", "Q-WELL@1.3"]})
    state = play(state, act("refresh_quest", 1), "Q-GROVE@1.2")
    refused(state, act("refresh_quest", 1), "already_refreshed")
    state = play(state, act("pay_upkeep", 1))
    state = play(state, act("end_turn", 1), "ROCK@2.90")
    state = play(state, act("pay_upkeep", 2))
    state = play(state, act("end_turn", 2), "ROCK@1.90")
    state = play(state, act("refresh_quest", 1), "Q-WELL@1.3")
    assert state.active_quest[1] == "Q-WELL@1.3"


def test_l72_refresh_only_in_the_draw_phase() -> None:
    """[ドロー L72]: in the build phase a refresh is refused (wrong_phase)."""
    state = build(phase="build", active_quest={1: "Q-RIDDLE@1.1"}, quests={1: ["Q-GROVE@1.2"]})
    refused(state, act("refresh_quest", 1), "wrong_phase")


def test_l72_refresh_needs_an_active_quest() -> None:
    """[ドロー L72], grail OQ-6: with no active quest there is nothing to refresh."""
    state = build(phase="draw", quests={1: ["Q-GROVE@1.2"]})
    refused(state, act("refresh_quest", 1), "no_active_quest")


def test_oq5_the_discard_is_reshuffled_when_a_reveal_is_needed_card_just_sent_included() -> None:
    """grail OQ-5, [クエスト(Quest)カード L236]: the quest deck is empty; the refreshed Q-RIDDLE
    joins the discard (Q-WELL, Q-RIDDLE), which becomes the deck; Q-RIDDLE itself may be
    revealed at once; Q-WELL stays in the deck, the discard is empty."""
    state = build(phase="draw", active_quest={1: "Q-RIDDLE@1.1"},
                  quest_discard={1: ["Q-WELL@1.3"]})
    state = play(state, act("refresh_quest", 1), "Q-RIDDLE@1.1")
    assert state.active_quest[1] == "Q-RIDDLE@1.1"
    assert state.quests[1] == ["Q-WELL@1.3"] and state.quest_discard[1] == []


def test_oq6_a_missing_active_quest_is_revealed_when_the_seat_next_begins_a_turn() -> None:
    """grail OQ-6: seat 2 has no active quest but a quest deck (Q-WELL); when its turn begins
    Q-WELL is revealed, then seat 2 draws."""
    state = build(quests={2: ["Q-WELL@2.1"]})
    state = play(state, act("end_turn", 1), "Q-WELL@2.1", "ROCK@2.90")
    assert state.active_quest[2] == "Q-WELL@2.1" and state.hands[2] == ["ROCK@2.90"]


# ----- the draw (L71, C2) and the end of the turn (L98-99) ------------------------------------
def test_l98_end_turn_resets_every_normal_damage_and_the_next_seat_draws() -> None:
    """[ターン終了 L99; 基本構成細則 L51]: normal damage of both seats' warriors goes to 0,
    permanent damage stays; seat 2's turn 4 begins in its draw phase with one card drawn
    [ドロー L71] (court 5 - 1 = 4); seat 2's warrior is ready again (acted cleared)."""
    state = build(warriors=[W("KNIGHT@1.1", damage=3, permanent=2),
                            W("SOLDIER@2.1", damage=1, acted=True, assigned=True)])
    state = play(state, act("end_turn", 1), "ROCK@2.92")
    assert (state.active, state.turn, state.phase) == (2, 4, "draw")
    assert state.hands[2] == ["ROCK@2.92"] and len(state.court[2]) == 4
    knight, soldier = warrior_of(state, "KNIGHT@1.1"), warrior_of(state, "SOLDIER@2.1")
    assert (knight.damage, knight.permanent_damage) == (0, 2)
    assert (soldier.damage, soldier.acted, soldier.assigned) == (0, False, False)
    assert not state.upkeep_paid and not state.domain_placed and not state.refreshed


def test_oq2_turn_order_follows_the_seats() -> None:
    """grail OQ-2 (seat order from the first player): in 3 players seat 3 is followed by
    seat 1."""
    state = build(players=3, active=3)
    state = play(state, act("end_turn", 3), "ROCK@1.90")
    assert state.active == 1 and state.hands[1] == ["ROCK@1.90"]


def test_c2_drawing_from_an_empty_court_deck_loses_in_two_players() -> None:
    """C2, [勝利条件 L21; 基本構成細則 L47]: seat 2 must draw from an empty court deck at the
    start of its turn: it loses at once, seat 1 wins, reason deck_out."""
    state = build(court={1: [], 2: []})
    state = play(state, act("end_turn", 1))
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason) == \
        ([1], [2], "deck_out")
    assert RULES.to_act(state) == []
