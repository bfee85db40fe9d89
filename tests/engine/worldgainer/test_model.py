"""World Gainer's squares and stuns are values (engine/worldgainer/model.py): a copy of a position
shares them, and an action replaces the one it changes instead of changing it in place."""

from __future__ import annotations

from engine.core.copying import copy_state
from engine.worldgainer.model import ALL_FIELDS, Square, Stun
from tests.engine.worldgainer.helpers import build, card, exhaust, gain, play

CARDS = {"R1": card("red", 1), "R2": card("red", 2), "PAY": card("yellow", 0, stun=10)}


def test_a_copy_of_a_position_shares_its_squares_and_stuns() -> None:
    """What makes a copy cheap: the nine squares and the stuns are not rebuilt."""
    state = build(CARDS, board={"M1-1": (1, ["R1"])}, standby1={1: ("PAY", True)})
    copied = copy_state(state)
    assert all(copied.board[f] is state.board[f] for f in ALL_FIELDS)
    assert copied.player(1).standby[0] is state.player(1).standby[0]
    assert copied.board is not state.board  # the board's dict is the copy's own


def test_an_action_replaces_the_square_and_stun_it_changes_and_shares_the_rest() -> None:
    state = build(CARDS, hand1=["R2"], board={"M1-1": (1, ["R1"])},
                  standby1={1: ("PAY", True)})
    after = play(state, gain(1, "R2", "M1-2", exhaust(1)))
    assert after.board["M1-2"] == Square(holder=1, cards=("R2",))
    assert state.board["M1-2"] == Square()  # the position before keeps its own
    assert after.player(1).standby[0] == Stun(card="PAY", ready=False)
    assert state.player(1).standby[0] == Stun(card="PAY", ready=True)
    assert all(after.board[f] is state.board[f] for f in ALL_FIELDS if f != "M1-2")
