"""Victory challenges and claims (勝利チャレンジ L182-188; 王 L288-290; ドロー L70; G8; grail
OQ-20..OQ-23): a king's alternate victory is declared, pending until the declarer's next draw
phase, then claimed; the claim ends play at once, and the others accept it (all of them) or
dispute it and a judge rules (OQ-22). Seat 1 has King Ulf of Northmarch (PRO 6, STR 5, END 8,
valor 9, alternate victory)."""

from __future__ import annotations

from typing import Any

from engine.grail.model import GrailState
from tests.engine.grail.helpers import (
    RULES,
    W,
    act,
    adjust,
    build,
    combat_of,
    legal_types,
    on_field,
    play,
    refused,
    roll,
    warrior_of,
)

KING = "KING-N@1.1"


def pending(*warriors: Any, **kw: Any) -> GrailState:
    """Seat 1's draw phase has begun with its victory challenge (King Ulf) pending: nothing
    drawn yet (L70)."""
    return build(phase="draw", drawn=False, victory_challenges={1: [KING]},
                 warriors=list(warriors or [W(KING)]), **kw)


def claimed(**kw: Any) -> GrailState:
    return play(pending(**kw), act("claim_alternate_victory", 1, met=True))


# ----- declaring (L182-185) ----------------------------------------------------------------------
def test_l182_a_king_with_an_alternate_victory_declares_a_victory_challenge() -> None:
    """[勝利チャレンジ L182-183; チャレンジ(Challenge)フェイズ L95], G8: King Ulf declares: it is
    his action; the challenge is pending for seat 1; the claim is recorded with its claimant;
    it is no combat."""
    state = play(build(warriors=[W(KING)]), act("declare_victory_challenge", 1, king=KING))
    assert state.victory_challenges == {1: [KING]} and warrior_of(state, KING).acted
    assert [(c.seat, c.what, c.about) for c in state.claims] == \
        [(1, "victory_challenge", KING)]
    assert state.combat is None


def test_l288_only_a_king_with_an_alternate_victory_declares() -> None:
    """[王 L288]: King Wulf has none, Sir Alan is no king: both refused (no_alt_victory)."""
    state = build(warriors=[W("KING-W@1.2"), W("KNIGHT@1.3")])
    for warrior in ("KING-W@1.2", "KNIGHT@1.3"):
        refused(state, act("declare_victory_challenge", 1, king=warrior), "no_alt_victory")


def test_l184_no_victory_challenge_while_another_players_is_pending() -> None:
    """[勝利チャレンジ L184; 王 L290]: seat 1's is pending; seat 2's King Hal is refused
    (victory_challenge_pending), not listed."""
    state = build(active=2, warriors=[W(KING), W("KING-S@2.2")],
                  victory_challenges={1: [KING]})
    refused(state, act("declare_victory_challenge", 2, king="KING-S@2.2"),
            "victory_challenge_pending")
    assert "declare_victory_challenge" not in legal_types(state, 2)


def test_oq23_another_own_king_may_declare_too() -> None:
    """grail OQ-23: with King Ulf's pending, seat 1's King Hal of Sunholt declares as well."""
    state = build(warriors=[W(KING, acted=True), W("KING-S@1.2")],
                  victory_challenges={1: [KING]})
    state = play(state, act("declare_victory_challenge", 1, king="KING-S@1.2"))
    assert state.victory_challenges == {1: [KING, "KING-S@1.2"]}


# ----- the claim at the next draw phase (L70, L188, G8, OQ-22) ----------------------------------
def test_l70_the_challenge_waits_for_the_declarers_next_draw_phase() -> None:
    """[ドロー L70; 王 L289]: declared, then seat 2's turn (it draws and pays upkeep); at seat
    1's next turn nothing is drawn: seat 1 must first claim, met or not; nothing else goes on
    (decision_pending)."""
    state = play(build(warriors=[W(KING)]), act("declare_victory_challenge", 1, king=KING))
    state = play(state, act("end_turn", 1), "ROCK@2.90")
    state = play(state, act("pay_upkeep", 2))
    state = play(state, act("end_turn", 2))
    assert (state.active, state.phase, state.drawn, state.hands[1]) == (1, "draw", False, [])
    assert legal_types(state, 1) == {"claim_alternate_victory"}
    refused(state, act("end_phase", 1), "decision_pending")


def test_g8_a_claim_accepted_by_the_other_player_wins() -> None:
    """G8, [勝利チャレンジ L188; 勝利条件 L22], grail OQ-22: seat 1 claims the condition met;
    seat 2 is to accept or dispute; it accepts: seat 1 wins (alternate_victory)."""
    state = claimed()
    assert state.result is None and RULES.to_act(state) == [2]
    assert legal_types(state, 2) == {"accept_claim", "dispute"}
    refused(state, act("accept_claim", 1), "not_your_decision")
    state = play(state, act("accept_claim", 2))
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([1], "alternate_victory")


def test_oq22_every_other_player_must_accept() -> None:
    """grail OQ-22 (3 players): seat 2 accepts, the match goes on and waits on seat 3; seat 3
    accepts: seat 1 wins."""
    state = claimed(players=3)
    state = play(state, act("accept_claim", 2))
    assert state.result is None and RULES.to_act(state) == [3]
    state = play(state, act("accept_claim", 3))
    assert state.result is not None and state.result.winners == [1]


def test_oq22_an_alternate_victory_claim_ends_play_at_once() -> None:
    """grail OQ-22 (a claim takes effect at once; a match ended by a claim stays open to
    dispute): once seat 1 claims, nothing of the game goes on but the answers: seat 2 may not
    play an event nor cast a spell (victory_claimed), seat 1 draws nothing and its turn waits
    (decision_pending)."""
    state = play(pending(W(KING), W("MAGE@2.2"), hands={2: ["FEAST@2.5", "BOLT@2.6"]}),
                 act("claim_alternate_victory", 1, met=True))
    refused(state, act("play_event", 2, card="FEAST@2.5"), "victory_claimed")
    refused(state, act("cast_spell", 2, card="BOLT@2.6", caster="MAGE@2.2"), "victory_claimed")
    refused(state, act("end_phase", 1), "decision_pending")
    assert state.hands[1] == [] and state.result is None


def test_oq22_a_seat_that_accepted_no_longer_disputes() -> None:
    """grail OQ-22 (open to dispute until the opponent's acceptance), 3 players: seat 2 accepts;
    its own dispute is then refused (already_accepted); seat 3, still to answer, disputes."""
    state = play(claimed(players=3), act("accept_claim", 2))
    refused(state, act("dispute", 2, claimant=1), "already_accepted")
    state = play(state, act("dispute", 3, claimant=1))
    assert RULES.to_act(state) == [1]


def test_oq22_the_claim_stands_when_the_last_seat_to_answer_leaves() -> None:
    """grail OQ-22, C4 (3 players: the conceder is eliminated and play goes on): seat 2 accepts
    and seat 3, the last to answer, concedes instead: nobody is left to dispute, so the claim
    taken at once is recorded: seat 1 wins (alternate_victory)."""
    state = play(claimed(players=3), act("accept_claim", 2))
    state = play(state, act("concede", 3))
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([1], "alternate_victory")


def test_g8_a_disputed_claim_upheld_by_the_judge_wins() -> None:
    """G8, grail OQ-22: seat 2 disputes; the game waits on the judge's ruling (recorded for seat
    1); upheld: seat 1 wins."""
    state = play(claimed(), act("dispute", 2, claimant=1))
    assert RULES.to_act(state) == [1] and legal_types(state, 1) == {"rule_claim"}
    state = play(state, act("rule_claim", 1, upheld=True, reason="three domains are held"))
    assert state.result is not None and state.result.reason == "alternate_victory"


def test_oq22_an_overturned_alternate_victory_fails_and_the_draw_follows() -> None:
    """grail OQ-22 (alternate victory overturned: no win, the draw follows): seat 1 draws and its
    turn goes on; the challenge is over."""
    state = play(claimed(), act("dispute", 2, claimant=1))
    state = play(state, act("rule_claim", 1, upheld=False, reason="only two domains"),
                 "ROCK@1.90")
    assert state.result is None and state.hands[1] == ["ROCK@1.90"]
    assert state.victory_challenges == {} and state.victory_claim is None
    assert legal_types(state, 1) >= {"end_phase"}


def test_l70_a_claim_not_met_lets_the_challenge_lapse_and_the_draw_follows() -> None:
    """[ドロー L70-71]: seat 1 says the condition no longer holds: it draws; no challenge."""
    state = play(pending(), act("claim_alternate_victory", 1, met=False), "ROCK@1.90")
    assert state.hands[1] == ["ROCK@1.90"] and state.victory_challenges == {}
    assert state.result is None


def test_l70_the_claim_comes_before_the_draw_so_an_empty_court_deck_can_still_win() -> None:
    """[ドロー L70-71] (the check before the draw), C2: seat 1's court deck is empty, yet it
    claims and, accepted, wins without a deck-out."""
    state = play(claimed(court={1: []}), act("accept_claim", 2))
    assert state.result is not None and state.result.reason == "alternate_victory"


def test_l187_a_king_gone_before_the_draw_phase_leaves_nothing_to_claim() -> None:
    """[勝利チャレンジ L187]: during seat 2's turn King Ulf leaves the field (a judge's move for
    a card effect, C3): the challenge is void; seat 1's next turn draws at once."""
    state = build(active=2, warriors=[W(KING)], victory_challenges={1: [KING]})
    state = play(state, adjust(1, move={"card": KING, "from_zone": "field",
                                        "to_zone": "court_discard"}))
    assert state.victory_challenges == {}
    state = play(state, act("end_turn", 2), "ROCK@1.90")
    assert (state.active, state.drawn, state.hands[1]) == (1, True, ["ROCK@1.90"])


# ----- losing a combat under a victory challenge (L186-187, OQ-21) ------------------------------
def honour_on_the_king(*warriors: Any, champion: str | None = None) -> GrailState:
    """Seat 2's turn: Sir Percival (PRO 6, STR 5, END 7, valor 12) challenges King Ulf (no rude
    penalty, L185); seat 1 accepts."""
    state = build(active=2, warriors=[W("HERO@2.1"), *warriors],
                  victory_challenges={1: [KING]})
    state = play(state, act("challenge_honour", 2, challenger="HERO@2.1", target=KING))
    assert warrior_of(state, "HERO@2.1").valor == 12
    return play(state, act("answer_honour", 1, accept=True, champion=champion))


def test_oq21_the_king_losing_a_combat_is_discarded_at_once() -> None:
    """[勝利チャレンジ L186-187], grail OQ-21: King Ulf (3 damage) 6 + 2 = 8 against Sir
    Percival 6 + 6 = 12 takes 5: 3 + 5 = 8 >= 8 and loses: he goes to seat 1's court discard
    as soon as the round is rolled, before the combat is finished; the challenge is void.
    Finished: Sir Percival 12 + 1 = 13."""
    state = roll(honour_on_the_king(W(KING, damage=3)), 2, 3, 3, 1, 1)
    assert combat_of(state).result == "win:0"
    assert not on_field(state, KING) and state.court_discard[1] == [KING]
    assert state.victory_challenges == {}
    state = play(state, act("finish_combat", 2))
    assert state.combat is None and warrior_of(state, "HERO@2.1").valor == 13


def test_oq21_a_champion_losing_loses_for_the_king() -> None:
    """[勝利チャレンジ L186] (王および代理人), grail OQ-21: King Ulf's champion, the Man-at-arms
    (1 damage), takes 5 and loses: King Ulf is discarded at once; the champion stays."""
    state = honour_on_the_king(W(KING), W("SOLDIER@1.2", damage=1), champion="SOLDIER@1.2")
    state = roll(state, 2, 3, 3, 1, 1)
    assert not on_field(state, KING) and on_field(state, "SOLDIER@1.2")
    assert state.victory_challenges == {}


def test_oq21_a_draw_is_not_a_loss() -> None:
    """grail OQ-21: Sir Percival (2 damage) and King Ulf (3 damage) tie at 6 + 4: each takes 5,
    7 >= 7 and 8 >= 8: a draw. King Ulf stays and his challenge stays pending."""
    state = build(active=2, warriors=[W("HERO@2.1", damage=2), W(KING, damage=3)],
                  victory_challenges={1: [KING]})
    state = play(state, act("challenge_honour", 2, challenger="HERO@2.1", target=KING))
    state = play(state, act("answer_honour", 1, accept=True))
    state = roll(state, 2, 2, 2, 2, 2)
    assert combat_of(state).result == "draw"
    state = play(state, act("finish_combat", 2))
    assert on_field(state, KING) and state.victory_challenges == {1: [KING]}


def test_oq21_the_kings_surrender_is_a_loss() -> None:
    """grail OQ-21 (the king's side surrendered): round 1, 6 + 2 = 8 against 6 + 2 = 8, each
    takes 5 (< 7, < 8); King Ulf asks to surrender and Sir Percival accepts: King Ulf is
    discarded at once."""
    state = roll(honour_on_the_king(W(KING)), 2, 1, 1, 1, 1)
    state = play(state, act("request_surrender", 1))
    state = play(state, act("answer_surrender", 2, accept=True))
    assert not on_field(state, KING) and state.victory_challenges == {}


# ----- disputes (G8, OQ-22) ----------------------------------------------------------------------
def test_oq22_an_overturned_victory_challenge_is_void_and_the_kings_action_used() -> None:
    """grail OQ-22 (victory-challenge declaration overturned: no challenge, the king's action
    still used): seat 2 disputes the declaration at once; the judge overturns it."""
    state = play(build(warriors=[W(KING)]), act("declare_victory_challenge", 1, king=KING))
    state = play(state, act("dispute", 2, claimant=1))
    refused(state, act("end_turn", 1), "decision_pending")
    state = play(state, act("rule_claim", 1, upheld=False, reason="only one domain"))
    assert state.victory_challenges == {} and warrior_of(state, KING).acted


def test_g8_a_disputed_quest_claim_holds_play_until_the_ruling() -> None:
    """G8, grail OQ-22: seat 1 claims the Riddle for Sir Alan; seat 2 disputes; until the ruling
    seat 1 may not end its turn; upheld, the claim stands (Sir Alan's reward still due)."""
    state = build(warriors=[W("KNIGHT@1.1")], active_quest={2: "Q-RIDDLE@2.1"},
                  quests={2: ["Q-WELL@2.2"]})
    state = play(state, act("attempt_quest", 1, warrior="KNIGHT@1.1", quest="Q-RIDDLE@2.1",
                            claim=True), "Q-WELL@2.2")
    state = play(state, act("take_quest_reward", 1, mode="valor"))
    state = play(state, act("dispute", 2, claimant=1))
    refused(state, act("end_turn", 1), "decision_pending")
    assert RULES.to_act(state) == [1]
    state = play(state, act("rule_claim", 1, upheld=True, reason="the riddle was answered"))
    assert warrior_of(state, "KNIGHT@1.1").valor == 8 and state.quest_discard[2] == \
        ["Q-RIDDLE@2.1"]
    play(state, act("end_turn", 1), "ROCK@2.90")


def test_g8_only_another_players_open_claim_is_disputed() -> None:
    """G8: seat 1 may not dispute its own claim (own_claim); seat 2 may not dispute twice
    (already_disputed); with no claim there is nothing to dispute (no_claim)."""
    refused(build(), act("dispute", 2, claimant=1), "no_claim")
    state = play(build(warriors=[W(KING)]), act("declare_victory_challenge", 1, king=KING))
    refused(state, act("dispute", 1, claimant=1), "own_claim")
    state = play(state, act("dispute", 2, claimant=1))
    refused(state, act("dispute", 2, claimant=1), "already_disputed")


def test_oq22_a_claim_may_be_disputed_until_the_opponents_own_next_action() -> None:
    """grail OQ-22 ("Any opponent may dispute it before their own next action"): seat 1 claims
    the Riddle and ends its turn at once; at the start of its turn, before any action, seat 2
    disputes it."""
    state = build(warriors=[W("KNIGHT@1.1")], active_quest={2: "Q-RIDDLE@2.1"},
                  quests={2: ["Q-WELL@2.2"]})
    state = play(state, act("attempt_quest", 1, warrior="KNIGHT@1.1", quest="Q-RIDDLE@2.1",
                            claim=True), "Q-WELL@2.2")
    state = play(state, act("take_quest_reward", 1, mode="valor"))
    state = play(state, act("end_turn", 1), "ROCK@2.90")
    state = play(state, act("dispute", 2, claimant=1))
    assert RULES.to_act(state) == [1]
