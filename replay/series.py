"""Best-of-N matches (issue 42): a table's match in a tournament is a series of games, each a
recorded Kiroku match with its own trail, and the series' result comes from its game wins.

The Magic Tournament Rules, 2.1 "Match Structure": "A Magic match consists of a series of games
that are played until one side has won a set number of games, usually two. Drawn games do not
count toward this goal. If the round ends before a player has won the required number of games,
the winner of the match is the player who has won the most games at that point. If both players
have equal game wins, the match is a draw." So a best-of-three match at 1-1-1 goes on to a
fourth game if the round's time allows; when time is called before a player has the wins
needed, a judge enters the result from the score (``replay.tournaments.enter_result``). Kiroku
starts at most ``max_games`` games of a series (twice the best-of count); past that, too, the
result is a judge's entry.

A best-of-one match is its one game: a drawn game is a drawn match (as a multiplayer match,
"usually ... only one game", Comprehensive Rules 100.6a, is played). At a table of three or
more players (Illuminati) each game's winners each win a game, and the series goes to those
first to the wins needed.

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
        """Whether another game may start: the last one is over, the series is not, and it
        has had fewer than ``max_games``."""
        return not self.playing and not self.decided and self.finished < max_games(
            self.best_of)


def wins_needed(best_of: int) -> int:
    """Games a player must win to take a best-of-``best_of`` match (2 of 3, 3 of 5)."""
    return best_of // 2 + 1


def max_games(best_of: int) -> int:
    """The most games Kiroku starts in one series: twice the best-of count (drawn games can
    make a best-of-three run to a fourth or fifth game, MTR 2.1); past that, a judge enters
    the result."""
    return 2 * best_of


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
    single = best_of == 1 and finished >= 1  # a best-of-one match is its one game
    decided = bool(reached) or single
    winners: tuple[int, ...] = ()
    if reached:
        winners = tuple(reached)
    elif single and len(set(wins)) > 1:
        winners = tuple(s + 1 for s, w in enumerate(wins) if w == max(wins))
    return Series(best_of, tuple(wins), draws, finished, playing, decided, winners,
                  drawn=decided and not winners)
