"""Legal actions as a view: iterate, count, and an exact ``in`` (shown on World Gainer)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine import IllegalAction
from engine.core.chance import ProbeChance
from engine.core.legality import listed, lister
from engine.illuminati import actions as act
from tests.engine.worldgainer.helpers import G, build, card, exhaust, gain

CARDS = {"R1": card("red", 1, stun=1), "G2": card("green", 2, stun=1),
         "B3": card("blue", 3, stun=2)}


def _position() -> object:
    return build(CARDS, hand1=["G2"], standby1={1: ("R1", True), 2: ("B3", True)},
                 phase="gain", stun_placed=True)


def test_a_legal_action_that_is_not_the_listed_representative_is_in_the_view() -> None:
    legal = G.legal_actions(_position(), 1)
    overpaid = gain(1, "G2", "M1-1", exhaust(1), exhaust(2))  # 1 + 2 for a cost of 2
    assert overpaid not in [a.model_dump() for a in legal]
    assert overpaid in legal


def test_an_action_the_rules_refuse_is_not_in_the_view_and_check_says_why() -> None:
    state = _position()
    legal = G.legal_actions(state, 1)
    short = gain(1, "G2", "M1-1", exhaust(1))  # 1 for a cost of 2
    assert short not in legal
    assert gain(2, "G2", "M1-1", exhaust(2)) not in legal  # not seat 2's view
    with pytest.raises(IllegalAction) as info:
        G.check(state, short)
    assert info.value.reason == "cost_not_paid"


def test_the_choice_space_describes_every_payment_source() -> None:
    legal = G.legal_actions(_position(), 1)
    (payment,) = [c for c in legal.choices if c.field == "payment"]
    assert payment.kind == "sequence" and legal.sampled == ["gain"]
    assert {"source": "exhaust_stun", "slot": 2} in payment.options
    assert {"source": "discard_stun", "slot": 1} in payment.options


def test_check_leaves_the_state_as_it_was() -> None:
    state = _position()
    before = G.state_to_data(state)
    G.check(state, gain(1, "G2", "M1-1", exhaust(2)))
    assert G.state_to_data(state) == before


def test_probe_chance_answers_with_possible_values_that_vary() -> None:
    """Varying values: a probe of a tie-breaking re-roll (Illuminati's I10) must end."""
    chance = ProbeChance()
    assert chance.draw("draw", ["b", "a"], 1) == "b" and chance.roll("die", 6) == 2
    assert [chance.roll("die", 6) for _ in range(3)] == [3, 4, 5]


def test_listed_actions_are_validated_once_and_shared() -> None:
    attack = listed(act.DeclareAttack, seat=1, attacker="a@1", target="b@2", purpose="destroy")
    assert attack == act.DeclareAttack(seat=1, attacker="a@1", target="b@2", purpose="destroy")
    assert attack is listed(act.DeclareAttack, seat=1, attacker="a@1", target="b@2",
                            purpose="destroy")
    draw = listed(act.DrawPlot, seat=1, pay=("a@1", "b@1"))  # a tuple for a list field
    assert draw == act.DrawPlot(seat=1, pay=["a@1", "b@1"]) and draw.pay == ["a@1", "b@1"]
    with pytest.raises(ValidationError):
        listed(act.DeclareAttack, seat=0, attacker="a@1", target="b@2", purpose="destroy")


def test_a_lister_builds_by_position_what_listed_builds_by_name() -> None:
    move = lister(act.MoveGroup, "seat", "group", "parent", "arrow", "pay")
    made = move(1, "g@1", "i@1", "left", "i@1")
    assert made == act.MoveGroup(seat=1, group="g@1", parent="i@1", arrow="left", pay="i@1")
    assert made.model_fields_set == act.MoveGroup(
        seat=1, group="g@1", parent="i@1", arrow="left", pay="i@1").model_fields_set
    assert move(1, "g@1", "i@1", "left", "i@1") is made
    with pytest.raises(ValidationError):
        move(1, "g@1", "i@1", "middle", "i@1")
