"""Swiss standings of a tournament, with the usual tie-breakers.

These are the tie-breakers most Swiss events use: those of the Magic: The Gathering Tournament
Rules (MTR, appendix C, "Tiebreaker Information") and Pokémon's "resistance" (its name for the
opponents' win percentage). A pure function of the registered players and the finished tables:

- Every registered player appears in the standings, even one with no results; a result naming a
  player who is not registered raises ``ValueError``.
- Match points: a win (the player is among the table's ``winners``) 3, a draw 1, a loss 0, a bye
  3 (counted as a win and as a bye). A multiplayer table (3+ players) is scored the same way:
  each winner 3, each other player 0, everyone 1 when the table is drawn.
- MW% (match-win percentage) = match points / (3 × matches played, byes included), floored at
  1/3 as in the MTR (Pokémon floors at 25%; Kiroku uses the MTR's floor); 0.0 for a player
  who has not played.
- OMW% (opponents' match-win percentage, Pokémon's "resistance") = the mean of the MW% of every
  opponent faced: every other player at each of the player's tables, counted once per table (a
  bye gives no opponent); 0.0 for a player without opponents.
- OOMW% (opponents' opponents' match-win percentage) = the mean of the OMW% of those same
  opponents (the same multiset).
- Order: match points, then OMW%, then OOMW%, all descending, then registration order. Players
  equal on all three (percentages compared rounded to 10 decimals) share the rank of the first of
  them (standard competition ranking: 1, 2, 2, 4). The percentages are returned unrounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

WIN_POINTS = 3
DRAW_POINTS = 1
LOSS_POINTS = 0
BYE_POINTS = 3
MW_FLOOR = 1 / 3
TIE_DECIMALS = 10


@dataclass(frozen=True)
class TableResult:
    """One finished table of a round: who played (player ids, seat order), who won."""

    round: int
    table: int | None  # None for a bye
    players: tuple[str, ...]  # player ids in seat order (one id for a bye)
    winners: tuple[str, ...]  # player ids; empty when drawn
    drawn: bool = False
    bye: bool = False


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    rank: int
    player_id: str
    match_points: int
    played: int  # matches played, byes included
    wins: int
    losses: int
    draws: int
    byes: int
    match_win: float  # MW%, floored at 1/3 once a match is played, 0.0 before
    opponents_match_win: float  # OMW%
    opponents_opponents_match_win: float  # OOMW%


@dataclass
class _Tally:
    """What one player has gathered so far: points, counts and the opponents faced."""

    match_points: int = 0
    played: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)  # one entry per opponent per table


def points_of(result: TableResult, player_id: str) -> int:
    """The match points ``player_id`` got at this table: bye 3, win 3, draw 1, loss 0."""
    if player_id not in result.players:
        raise ValueError(f"player {player_id!r} did not play at this table")
    if result.bye:
        return BYE_POINTS
    if result.drawn:
        return DRAW_POINTS
    return WIN_POINTS if player_id in result.winners else LOSS_POINTS


def standings(players: Sequence[str], results: Sequence[TableResult]) -> list[Standing]:
    """The standings of ``players`` (registration order) after ``results``, best first."""
    _check_players(players)
    known = set(players)
    for result in results:
        _check_result(result, known)
    tallies = {player: _Tally() for player in players}
    for result in results:
        _record(result, tallies)
    match_win = {player: _match_win(tally) for player, tally in tallies.items()}
    omw = {player: _mean(match_win, tally.opponents) for player, tally in tallies.items()}
    oomw = {player: _mean(omw, tally.opponents) for player, tally in tallies.items()}
    order = sorted(
        range(len(players)),
        key=lambda i: _sort_key(tallies[players[i]], omw[players[i]], oomw[players[i]], i),
    )
    return _ranked([players[i] for i in order], tallies, match_win, omw, oomw)


def _check_players(players: Sequence[str]) -> None:
    """Every registered id once."""
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise ValueError(f"player {player!r} is registered twice")
        seen.add(player)


def _check_result(result: TableResult, known: set[str]) -> None:
    """A table's players and winners are registered, distinct, and consistent with its kind."""
    where = f"round {result.round}, table {result.table}"
    for player in (*result.players, *result.winners):
        if player not in known:
            raise ValueError(f"{where}: player {player!r} is not registered")
    if len(set(result.players)) != len(result.players):
        raise ValueError(f"{where}: a player sits twice at the table")
    if not set(result.winners) <= set(result.players):
        raise ValueError(f"{where}: a winner did not play at the table")
    if result.bye and len(result.players) != 1:
        raise ValueError(f"{where}: a bye has exactly one player")
    if not result.bye and len(result.players) < 2:
        raise ValueError(f"{where}: a table needs at least two players")
    if result.drawn and result.winners:
        raise ValueError(f"{where}: a drawn table has no winners")


def _record(result: TableResult, tallies: Mapping[str, _Tally]) -> None:
    """Add one table's points, counts and opponents to its players' tallies."""
    for player in result.players:
        tally = tallies[player]
        points = points_of(result, player)
        tally.match_points += points
        tally.played += 1
        if result.bye:
            tally.byes += 1
            tally.wins += 1
            continue
        if result.drawn:
            tally.draws += 1
        elif points == WIN_POINTS:
            tally.wins += 1
        else:
            tally.losses += 1
        tally.opponents.extend(other for other in result.players if other != player)


def _match_win(tally: _Tally) -> float:
    """MW%: points over points possible, floored at 1/3; 0.0 before the first match."""
    if tally.played == 0:
        return 0.0
    return max(MW_FLOOR, tally.match_points / (WIN_POINTS * tally.played))


def _mean(values: Mapping[str, float], opponents: Sequence[str]) -> float:
    """The mean of the opponents' values (once per table faced); 0.0 without opponents."""
    if not opponents:
        return 0.0
    return sum(values[opponent] for opponent in opponents) / len(opponents)


def _sort_key(tally: _Tally, omw: float, oomw: float, index: int) -> tuple[float, ...]:
    """Points, OMW%, OOMW% descending, then registration order."""
    return (-tally.match_points, -round(omw, TIE_DECIMALS), -round(oomw, TIE_DECIMALS), index)


def _ranked(
    order: Sequence[str],
    tallies: Mapping[str, _Tally],
    match_win: Mapping[str, float],
    omw: Mapping[str, float],
    oomw: Mapping[str, float],
) -> list[Standing]:
    """The standings in ``order``, ties sharing the rank of the first of them."""
    lines: list[Standing] = []
    previous: tuple[float, ...] | None = None
    rank = 0
    for position, player in enumerate(order, start=1):
        tally = tallies[player]
        tie = _sort_key(tally, omw[player], oomw[player], 0)
        if tie != previous:
            rank, previous = position, tie
        lines.append(Standing(
            rank=rank, player_id=player, match_points=tally.match_points, played=tally.played,
            wins=tally.wins, losses=tally.losses, draws=tally.draws, byes=tally.byes,
            match_win=match_win[player], opponents_match_win=omw[player],
            opponents_opponents_match_win=oomw[player],
        ))
    return lines
