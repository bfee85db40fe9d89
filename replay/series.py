"""Best-of-N matches (issue 42): a table's match in a tournament is a series of games, each a
recorded Kiroku match with its own trail, and the series' result comes from its game wins.

The Magic Tournament Rules (section 2.3, "Match Structure") play a match as best of three games
(best of one or five where the event says so): the first player to win two games (three of
five; one of one) wins the match. A drawn game counts toward the games played, not toward either
player's wins. When every game of the series has been played without a player reaching the
wins needed, the player with more game wins takes the match, and equal game wins are a drawn
match (MTR 2.3: "a match is a draw if the players have won an equal number of games"). A match
the time calls, or an intentional draw, is a judge's entry (``replay.tournaments``).

At a table of three or more players (Illuminati) each game's winners each win a game; the
series goes to those first to the wins needed, else to those with the most game wins when the
games run out (a draw if everyone has as many).

Pure: a function of the best-of count, the players and the games' outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BEST_OF = (1, 3, 5)


@dataclass(frozen=True)
class Series:
    """Where a table's series stands: game wins per player (seat order), drawn games, games
    finished, and its result once it is decided."""

    best_of: int
    game_wins: tuple[int, ...]
    game_draws: int
    finished: int  # games with a result
    playing: bool  # the last game has no result yet
    decided: bool
    winners: tuple[int, ...]  # seat numbers (1-based); empty when drawn or undecided
    drawn: bool

    @property
    def next_game(self) -> bool:
        """Whether another game may start: the last one is over and the series is not."""
        return not self.playing and not self.decided


def wins_needed(best_of: int) -> int:
    """Games a player must win to take a best-of-``best_of`` match (2 of 3, 3 of 5)."""
    return best_of // 2 + 1


def series_of(best_of: int, seats: int,
              outcomes: Sequence[Mapping[str, Any] | None]) -> Series:
    """The series of ``seats`` players after ``outcomes`` (each game's result in order: its
    winners by seat and whether it was drawn, or None while it is played)."""
    if best_of not in BEST_OF:
        raise ValueError(f"a match is best of {', '.join(map(str, BEST_OF))}")
    wins = [0] * seats
    draws = finished = 0
    for outcome in outcomes:
        if outcome is None:
            continue
        finished += 1
        if outcome["drawn"] or not outcome["winners"]:
            draws += 1
        for seat in outcome["winners"]:
            wins[seat - 1] += 1
    playing = bool(outcomes) and outcomes[-1] is None
    reached = [s + 1 for s, w in enumerate(wins) if w >= wins_needed(best_of)]
    exhausted = finished >= best_of and not playing
    decided = bool(reached) or exhausted
    winners: tuple[int, ...] = ()
    if reached:
        winners = tuple(reached)
    elif exhausted and len(set(wins)) > 1:
        winners = tuple(s + 1 for s, w in enumerate(wins) if w == max(wins))
    return Series(best_of, tuple(wins), draws, finished, playing, decided, winners,
                  drawn=decided and not winners)
