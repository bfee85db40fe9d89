"""Points and the end of the match."""

from __future__ import annotations

from engine.core.contract import MatchResult
from tests.toygame.model import BlindBidState


def points(state: BlindBidState, seat: int) -> int:
    """The sum of the values of the cards in ``seat``'s won pile."""
    return sum(state.cards[c].value for c in state.won[seat])


def check_end(state: BlindBidState) -> None:
    """End the match when a seat still in it has no card in hand and none bid (the start of a
    round, after the draws): the most points wins; a tie for the most is a draw."""
    empty = [s for s in state.in_play() if not state.hands[s] and s not in state.bids]
    if state.result is not None or not empty:
        return
    alive = state.in_play()
    scores = {s: points(state, s) for s in alive}
    best = max(scores.values())
    top = [s for s in alive if scores[s] == best]
    drawn = len(top) != 1
    tally = ", ".join(f"seat {s} {scores[s]}" for s in alive)
    state.result = MatchResult(
        winners=[] if drawn else top, losers=[] if drawn else [s for s in alive if s not in top],
        reason="hand_empty", drawn=drawn,
        detail=f"seat {empty[0]} has no card left to bid; points: {tally}")
