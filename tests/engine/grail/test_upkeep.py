"""Upkeep (アップキープ L86-88; コストについて L104-113; 領地 L242-246; 王 L281-282): G5 and grail
OQ-11, OQ-12. Seat 1 is in its upkeep phase, unpaid, unless a test says otherwise."""

from __future__ import annotations

from tests.engine.grail.helpers import (
    RULES,
    W,
    act,
    build,
    on_field,
    play,
    refused,
)


def pay(*unpaid: str) -> dict[str, object]:
    return act("pay_upkeep", 1, unpaid=list(unpaid))


def test_g5_each_domain_yields_1() -> None:
    """G5, [コストについて L109]: two domains and no king yield 1 + 1 = 2: Sir Alan (1) and a
    Man-at-arms (1) are paid (2 <= 2); the challenge phase follows."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.8", "D-SOUTH@1.9"]},
                  warriors=[W("KNIGHT@1.1"), W("SOLDIER@1.2")])
    state = play(state, pay())
    assert on_field(state, "KNIGHT@1.1") and on_field(state, "SOLDIER@1.2")
    assert (state.phase, state.upkeep_paid) == ("challenge", True)


def test_g5_the_paid_warriors_cost_at_most_the_yield() -> None:
    """G5: yield 2 (two domains); Sir Alan 1 + Man-at-arms 1 + Gate Guard 1 = 3 > 2 is refused
    (upkeep_exceeds_yield)."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.8", "D-SOUTH@1.9"]},
                  warriors=[W("KNIGHT@1.1"), W("SOLDIER@1.2"), W("GUARD@1.3")])
    refused(state, pay(), "upkeep_exceeds_yield")


def test_g5_a_domain_named_by_an_own_king_yields_2_per_domain_card() -> None:
    """G5, [コストについて L110; 王 L282; 領地 L243-244]: two Northmarch and a Sunholt with King
    Ulf of Northmarch yield 2 + 2 + 1 = 5: King Ulf 2 + Sir Bors 2 + Sir Alan 1 = 5 are paid."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.7", "D-NORTH@1.8", "D-SOUTH@1.9"]},
                  warriors=[W("KING-N@1.1"), W("BORS@1.2"), W("KNIGHT@1.3")])
    state = play(state, pay())
    assert len(state.warriors[1]) == 3 and state.upkeep_paid


def test_g5_a_king_on_another_players_field_gives_no_bonus() -> None:
    """G5 ("a king its owner controls"), [領地 L246]: King Ulf of Northmarch is seat 2's; seat
    1's two Northmarch yield 1 + 1 = 2: Sir Bors 2 + Sir Alan 1 = 3 is refused; Sir Alan left
    unpaid (2 paid, 0 spare < 1) is destroyed."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.8", "D-NORTH@1.9"]},
                  warriors=[W("BORS@1.2"), W("KNIGHT@1.3"), W("KING-N@2.1")])
    refused(state, pay(), "upkeep_exceeds_yield")
    state = play(state, pay("KNIGHT@1.3"))
    assert not on_field(state, "KNIGHT@1.3") and state.court_discard[1] == ["KNIGHT@1.3"]


def test_g5_unpaid_warriors_are_destroyed_with_attachments_to_their_owners() -> None:
    """G5, [アップキープ L88; 仲間 L297; 報酬 L313]: one domain yields 1; Sir Bors (2) cannot be
    paid: he and his Sword go to seat 1's court discard, the Lady Elaine of seat 2 on him to
    seat 2's."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.9"]},
                  warriors=[W("BORS@1.2", attached=["SWORD@1.5", "LADY@2.6"])])
    state = play(state, pay("BORS@1.2"))
    assert state.warriors[1] == []
    assert state.court_discard == {1: ["BORS@1.2", "SWORD@1.5"], 2: ["LADY@2.6"]}


def test_oq11_forced_only_refuses_leaving_a_payable_warrior_unpaid() -> None:
    """grail OQ-11 (upkeep_unpaid: forced_only, the default): yield 2; paying Sir Alan (1)
    leaves 1, enough for the Man-at-arms (1): leaving it unpaid is refused (could_pay)."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.8", "D-SOUTH@1.9"]},
                  warriors=[W("KNIGHT@1.1"), W("SOLDIER@1.2")])
    refused(state, pay("SOLDIER@1.2"), "could_pay")


def test_oq11_free_lets_a_payable_warrior_go_unpaid() -> None:
    """grail OQ-11 (upkeep_unpaid: free), G5 ("any warrior left unpaid is destroyed"): the same
    position; the Man-at-arms left unpaid is destroyed."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.8", "D-SOUTH@1.9"]},
                  warriors=[W("KNIGHT@1.1"), W("SOLDIER@1.2")],
                  options={"upkeep_unpaid": "free"})
    state = play(state, pay("SOLDIER@1.2"))
    assert [w.card for w in state.warriors[1]] == ["KNIGHT@1.1"]
    assert state.court_discard[1] == ["SOLDIER@1.2"]


def test_l87_a_warrior_costing_nothing_is_always_paid() -> None:
    """[アップキープ L87-88] (only a warrior that cannot be paid is destroyed), digest 4.8
    (warriors costing 0 are always paid): even under upkeep_unpaid: free, with no domain (yield
    0), the Page (upkeep 0) cannot be left unpaid (could_pay); paying everyone costs 0 <= 0."""
    state = build(phase="upkeep", warriors=[W("PAGE@1.1")], options={"upkeep_unpaid": "free"})
    refused(state, pay("PAGE@1.1"), "could_pay")
    assert on_field(play(state, pay()), "PAGE@1.1")


def test_oq12_the_yield_is_computed_before_anyone_is_destroyed() -> None:
    """grail OQ-12: one Northmarch with King Ulf yields 2 (his domain) even though King Ulf (2)
    is left unpaid: Sir Alan 1 + Man-at-arms 1 = 2 are paid, 0 spare < 2, so the king alone
    is destroyed."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.9"]},
                  warriors=[W("KING-N@1.1"), W("KNIGHT@1.2"), W("SOLDIER@1.3")])
    state = play(state, pay("KING-N@1.1"))
    assert [w.card for w in state.warriors[1]] == ["KNIGHT@1.2", "SOLDIER@1.3"]


def test_l87_upkeep_is_paid_once_per_turn() -> None:
    """[アップキープ L87]: once paid, the turn is in its challenge phase; a second payment is
    refused (the upkeep phase is over: wrong_phase)."""
    state = play(build(phase="upkeep"), pay())
    refused(state, pay(), "wrong_phase")


def test_g5_the_listed_payment_pays_the_cheapest_first() -> None:
    """G5, OQ-11 (legal_actions): yield 2; Sir Alan 1 and the Man-at-arms 1 are paid, Sir Bors
    (2) is listed unpaid; that listed payment is legal."""
    state = build(phase="upkeep", domains={1: ["D-NORTH@1.8", "D-SOUTH@1.9"]},
                  warriors=[W("KNIGHT@1.1"), W("BORS@1.2"), W("SOLDIER@1.3")])
    [payment] = [a for a in RULES.legal_actions(state, 1) if a.type == "pay_upkeep"]
    assert list(payment.model_dump()["unpaid"]) == ["BORS@1.2"]
    state = play(state, payment.model_dump())
    assert [w.card for w in state.warriors[1]] == ["KNIGHT@1.1", "SOLDIER@1.3"]
