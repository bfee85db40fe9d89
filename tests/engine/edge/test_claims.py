"""A card's own victory condition (§勝利条件: 「特定カードに記載された勝利条件を満たす」; edge
OQ24): the claimant names its card; every other player accepts, or one disputes and a judge
rules."""

from __future__ import annotations

from typing import Any

from tests.engine.edge.helpers import (
    RULES,
    C,
    P,
    act,
    build,
    legal_types,
    place,
    play,
    refused,
)


def claim(card: str = "PLAN@1.1", seat: int = 1) -> dict[str, Any]:
    return act("claim_card_victory", seat, card=card, reason="The Plan: five Agents in play")


def table(players: int = 2) -> Any:
    """Seat 1 holds The Plan (a secret) and a Fixer in hand; 1 character pull."""
    return build(players=players, permanents=[P("PLAN@1.1")], characters=[C("ENF@1.2")],
                 hands={1: ["FIX@1.5"]}, character_pull=1)


def test_oq24_accepted_by_the_other_player_the_claimant_wins() -> None:
    """edge OQ24: seat 1 claims; the game waits on seat 2 (accept or dispute); seat 2 accepts:
    seat 1 wins (card_victory)."""
    state = play(table(), claim())
    assert RULES.to_act(state) == [2] and legal_types(state, 2) == {"accept_claim", "dispute"}
    state = play(state, act("accept_claim", 2))
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([1], "card_victory")


def test_oq24_every_other_player_must_accept() -> None:
    """edge OQ24: 3 players; after seat 2 accepts the game waits on seat 3; seat 3's acceptance
    wins it for seat 1."""
    state = play(play(table(3), claim()), act("accept_claim", 2))
    assert state.result is None and RULES.to_act(state) == [3]
    state = play(state, act("accept_claim", 3))
    assert state.result is not None and state.result.winners == [1]


def test_oq24_a_dispute_goes_to_a_judge_who_upholds_it() -> None:
    """edge OQ24 (as G8): seat 2 disputes; the ruling is awaited for seat 1's claim; upheld:
    seat 1 wins."""
    state = play(play(table(), claim()), act("dispute", 2))
    assert legal_types(state, 1) == {"rule_claim"}
    state = play(state, act("rule_claim", 1, upheld=True, reason="five Agents counted"))
    assert state.result is not None and state.result.winners == [1]


def test_oq24_a_claim_overturned_play_goes_on() -> None:
    """edge OQ24: overturned, the claim is gone and seat 1 continues its operations step (it
    places the Fixer)."""
    state = play(play(table(), claim()), act("dispute", 2))
    state = play(state, act("rule_claim", 1, upheld=False, reason="only four Agents"))
    assert state.result is None and state.claim is None
    play(state, place(1, "FIX@1.5", 1, 2, chars=1))


def test_oq24_the_game_waits_while_a_claim_is_pending() -> None:
    """edge OQ24: with the claim pending, seat 1 cannot place (decision_pending)."""
    refused(play(table(), claim()), place(1, "FIX@1.5", 1, 2, chars=1), "decision_pending")


def test_oq24_the_claim_names_ones_own_card_on_the_field() -> None:
    """edge OQ24: a card in hand or another player's card is no_such_card; a claim out of one's
    own turn is not_now."""
    state = build(permanents=[P("PLAN@2.1")], hands={1: ["FIX@1.5"]})
    refused(state, claim("FIX@1.5"), "no_such_card")
    refused(state, claim("PLAN@2.1"), "no_such_card")
    refused(state, claim("PLAN@2.1", seat=2), "not_now")
