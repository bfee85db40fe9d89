"""Swiss standings of a tournament under a tie-breaker profile: the MTR's or Play! Pokémon's.

A pure function of the registered players, the finished tables, the profile's name and the
players who dropped (no I/O, no clock):

- Every registered player appears in the standings, dropped or not, with or without results (a
  dropped player's line says so). A result naming a player who is not registered, a dropped id
  that is not registered and an unknown profile raise ``ValueError``.
- Match points, under both profiles: a win (the player is among the table's ``winners``) 3, a
  draw 1, a loss 0, a bye 3 (counted as a win and as a bye). A multiplayer table (3+ players) is
  scored the same way: each winner 3, each other player 0, everyone 1 when the table is drawn;
  a player's opponents are every other player at each of their tables, once per table (a bye
  gives none).
- Games: a table's ``game_wins`` (one count per seat) and ``game_draws``; without them a won
  table counts as one game won by each winner and lost by the others, a drawn table as one
  drawn game. Game points: a game won 3, a drawn game 1, a lost game 0. A bye is the 2-0 the
  MTR makes it (two games won, 6 game points of 6).
- Order: match points, then the profile's tie-breakers (``tiebreakers(profile)``), all
  descending, then registration order. Players equal on all of them (percentages compared
  rounded to 10 decimals) share the rank of the first of them (standard competition ranking:
  1, 2, 2, 4). The percentages are computed exactly (fractions) and returned as floats,
  unrounded.

Profile "mtr" (the default): Magic: The Gathering Tournament Rules
------------------------------------------------------------------
MTR 3.1 (Tiebreakers) lists, in order: "1. Match points 2. Opponents' match-win percentage
3. Game-win percentage 4. Opponents' game-win percentage". Registration order comes after them.
Appendix C (Tiebreaker Explanation) defines them; the sentences applied here:

- Match Points: "Players receiving byes are considered to have won the match."
- Game Points: "players earn 3 game points for each game they win and 1 point for each game
  that ends in a draw, and 0 points for any game lost."
- Match-win percentage: "that player's accumulated match points divided by the total match
  points possible in those rounds (generally, 3 times the number of rounds played). If this
  number is lower than 0.33, use 0.33 instead."
- Game-win percentage: "the total number of game points they earned divided by the total game
  points possible (generally, 3 times the number of games played). Again, use 0.33 if the
  actual game-win percentage is lower than that."
- Opponents' match-win percentage: "the average match-win percentage of each opponent that
  player faced (ignoring those rounds for which the player received a bye)."
- Opponents' game-win percentage: "simply the average game-win percentage of all of that
  player's opponents. And, as with opponents' match-win percentage, each opponent has a minimum
  game-win percentage of 0.33."
- Byes: "When a player is assigned a bye for a round, they are considered to have won the
  match 2–0. Thus, that player earns 3 match points and 6 game points. A player's byes are
  ignored when computing their opponents' match-win and opponents' game-win percentages."

(Sources: the Appendix C text as the judges' MTR annotation site carries it,
blogs.magicjudges.org/rules/mtr-appendix-c and /mtr3-1; the Byes paragraph as quoted from the
MTR of February 27, 2026, Appendix C, p. 53; the opponents' game-win sentence as quoted from
the MTR of May 29, 2023.) The floor is 0.33 exactly, not 1/3. A player who has not played has
MW% and GW% 0.0; a player whose tables had no games (game counts all zero) has GW% 0.0 of their
own and counts as 0.33 in their opponents' OGW%.

Profile "pokemon": Play! Pokémon
--------------------------------
Order: match points, then opponents' win percentage ("resistance", OWP), then opponents'
opponents' win percentage (OOWP), then registration order (the later steps Play! Pokémon uses,
such as head-to-head, are not modelled). The rules are those of the Play! Pokémon Tournament
Operation Procedures, section 3.1.4.1 "Determining Tiebreakers" (now part of the Play! Pokémon
Tournament Rules Handbook). The searches behind this module found that section in the
procedures' table of contents but not its text; the sentences applied here are from accounts
of it: RK9's "All about tiebreakers in the Pokémon TCG" (2021): "A win is counted as 1, a tie
is counted as 0.5, and a loss 0."; "An opponent cannot contribute less than 25%."; "Byes are
not factored into any calculation."; and a summary of the procedures: "If an opponent dropped
AND their win percentage is greater than 75%, make it 75%." So a player's win percentage is
(wins + ties / 2) / rounds played, both without byes, and counts at least 25% in an opponent's
resistance (at most 75% when the player dropped).

What the fields mean under each profile
---------------------------------------
================================  ==========================  ================================
field                             "mtr"                       "pokemon"
================================  ==========================  ================================
match_win                         MW%, floored at 0.33        win percentage, byes left out,
                                                              floored at 25% (the 75% cap of
                                                              a dropped player applies only in
                                                              their opponents' resistance)
opponents_match_win               OMW% (tie-breaker 1)        OWP, resistance (tie-breaker 1)
opponents_opponents_match_win     mean of the opponents'      OOWP (tie-breaker 2)
                                  OMW% (shown, not used)
game_win / opponents_game_win     GW% / OGW%                  the MTR's GW% / OGW% (shown, not
                                  (tie-breakers 2 and 3)      used: the game's rules have none)
================================  ==========================  ================================
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

PROFILES = ("mtr", "pokemon")

WIN_POINTS = 3
DRAW_POINTS = 1
LOSS_POINTS = 0
BYE_POINTS = 3
GAME_WIN_POINTS = 3
GAME_DRAW_POINTS = 1
BYE_GAME_WINS = 2  # MTR Appendix C, Byes: "won the match 2–0"
MTR_FLOOR = Fraction(33, 100)
POKEMON_FLOOR = Fraction(1, 4)
POKEMON_DROPPED_CAP = Fraction(3, 4)
TIE_DECIMALS = 10

_TIEBREAKERS: dict[str, tuple[str, ...]] = {
    "mtr": ("match_points", "opponents_match_win", "game_win", "opponents_game_win"),
    "pokemon": ("match_points", "opponents_match_win", "opponents_opponents_match_win"),
}


@dataclass(frozen=True)
class TableResult:
    """One finished table of a round: who played (player ids, seat order), who won, and the
    games of its match where they are known."""

    round: int
    table: int | None  # None for a bye
    players: tuple[str, ...]  # player ids in seat order (one id for a bye)
    winners: tuple[str, ...]  # player ids; empty when drawn
    drawn: bool = False
    bye: bool = False
    game_wins: tuple[int, ...] = ()  # games won per seat; empty when unknown (derived)
    game_draws: int = 0  # drawn games at the table
    # Games played, for a multiplayer table where a game can have several winners; None means
    # one winner per game: sum(game_wins) + game_draws.
    games_played: int | None = None

    def __post_init__(self) -> None:
        _check_game_counts(self)


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings (see the module's table for each profile)."""

    rank: int
    player_id: str
    match_points: int
    played: int  # matches played, byes included
    wins: int
    losses: int
    draws: int
    byes: int
    match_win: float  # MW% (mtr) / win percentage (pokemon); 0.0 before the first match
    opponents_match_win: float  # OMW% (mtr) / OWP, resistance (pokemon)
    opponents_opponents_match_win: float  # opponents' mean OMW% (mtr, shown) / OOWP (pokemon)
    game_wins: int  # byes count 2
    game_losses: int
    game_draws: int
    game_win: float  # GW%, floored at 0.33; 0.0 before the first game
    opponents_game_win: float  # OGW%
    dropped: bool


@dataclass
class _Tally:
    """What one player has gathered so far: points, counts and the opponents faced."""

    match_points: int = 0
    played: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    game_wins: int = 0
    game_losses: int = 0
    game_draws: int = 0
    opponents: list[str] = field(default_factory=list)  # one entry per opponent per table


def tiebreakers(profile: str) -> list[str]:
    """The ``Standing`` fields a profile orders by, most significant first, ending with
    ``registration_order``."""
    return [*_profile_tiebreakers(profile), "registration_order"]


def points_of(result: TableResult, player_id: str) -> int:
    """The match points ``player_id`` got at this table: bye 3, win 3, draw 1, loss 0."""
    if player_id not in result.players:
        raise ValueError(f"player {player_id!r} did not play at this table")
    if result.bye:
        return BYE_POINTS
    if result.drawn:
        return DRAW_POINTS
    return WIN_POINTS if player_id in result.winners else LOSS_POINTS


def games_of(result: TableResult, player_id: str) -> tuple[int, int, int]:
    """The games ``player_id`` won, lost and drew at this table (a bye: 2-0-0)."""
    if player_id not in result.players:
        raise ValueError(f"player {player_id!r} did not play at this table")
    if result.bye:
        return BYE_GAME_WINS, 0, 0
    seat = result.players.index(player_id)
    if result.game_wins:
        played = _games_played(result)
        won = result.game_wins[seat]
        return won, played - won - result.game_draws, result.game_draws
    if result.drawn:
        return 0, 0, 1
    return (1, 0, 0) if player_id in result.winners else (0, 1, 0)


def standings(players: Sequence[str], results: Sequence[TableResult], profile: str = "mtr",
              dropped: Collection[str] = frozenset()) -> list[Standing]:
    """The standings of ``players`` (registration order) after ``results`` under the tie-breaker
    ``profile`` ("mtr" or "pokemon"), best first; ``dropped`` names the players who dropped."""
    order_by = _profile_tiebreakers(profile)
    _check_players(players)
    known = set(players)
    gone = _check_dropped(dropped, known)
    for result in results:
        _check_result(result, known)
    tallies = {player: _Tally() for player in players}
    for result in results:
        _record(result, tallies)
    match_win = {p: _match_win(t, profile) for p, t in tallies.items()}
    as_opponent = {p: _as_opponent(match_win[p], profile, p in gone) for p in players}
    omw = {p: _mean(as_opponent, t.opponents) for p, t in tallies.items()}
    oomw = {p: _mean(omw, t.opponents) for p, t in tallies.items()}
    game_win = {p: _game_win(t) for p, t in tallies.items()}
    game_as_opponent = {p: max(MTR_FLOOR, game_win[p]) for p in players}
    ogw = {p: _mean(game_as_opponent, t.opponents) for p, t in tallies.items()}
    values = {p: {"match_points": Fraction(tallies[p].match_points),
                  "opponents_match_win": omw[p], "opponents_opponents_match_win": oomw[p],
                  "game_win": game_win[p], "opponents_game_win": ogw[p]} for p in players}
    keys = {p: _tie_key(values[p], order_by) for p in players}
    order = sorted(range(len(players)), key=lambda i: (keys[players[i]], i))
    lines: list[Standing] = []
    rank = 0
    for position, index in enumerate(order, start=1):
        player = players[index]
        if position == 1 or keys[player] != keys[lines[-1].player_id]:
            rank = position
        lines.append(_line(rank, player, tallies[player], values[player], match_win[player],
                           player in gone))
    return lines


def _profile_tiebreakers(profile: str) -> tuple[str, ...]:
    """The profile's tie-breaker fields; an unknown profile raises ``ValueError``."""
    if profile not in _TIEBREAKERS:
        raise ValueError(f"unknown tie-breaker profile {profile!r}: one of "
                         f"{', '.join(PROFILES)}")
    return _TIEBREAKERS[profile]


def _check_game_counts(result: TableResult) -> None:
    """Game counts, when given: one per seat, none negative; none for a bye (its 2-0 is the
    MTR's); drawn games only with the game wins; games played within what the counts allow."""
    where = f"round {result.round}, table {result.table}"
    if result.game_draws < 0 or any(count < 0 for count in result.game_wins):
        raise ValueError(f"{where}: game counts cannot be negative")
    if result.game_wins and len(result.game_wins) != len(result.players):
        raise ValueError(f"{where}: {len(result.game_wins)} game win counts for "
                         f"{len(result.players)} players (one per seat, or none)")
    if result.bye and (result.game_wins or result.game_draws or result.games_played):
        raise ValueError(f"{where}: a bye has no game counts (it counts as won 2-0)")
    if not result.game_wins and (result.game_draws or result.games_played is not None):
        raise ValueError(f"{where}: drawn games and games played come with the game wins")
    if result.games_played is not None:
        least = max(result.game_wins) + result.game_draws
        most = sum(result.game_wins) + result.game_draws
        if not least <= result.games_played <= most:
            raise ValueError(f"{where}: {result.games_played} games played, but the counts "
                             f"give between {least} and {most}")


def _games_played(result: TableResult) -> int:
    """Games played at a table with game counts: as given, else one winner per game."""
    if result.games_played is not None:
        return result.games_played
    return sum(result.game_wins) + result.game_draws


def _check_players(players: Sequence[str]) -> None:
    """Every registered id once."""
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise ValueError(f"player {player!r} is registered twice")
        seen.add(player)


def _check_dropped(dropped: Collection[str], known: set[str]) -> frozenset[str]:
    """The dropped players, every one registered."""
    for player in dropped:
        if player not in known:
            raise ValueError(f"dropped player {player!r} is not registered")
    return frozenset(dropped)


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
    """Add one table's points, games, counts and opponents to its players' tallies."""
    for player in result.players:
        tally = tallies[player]
        points = points_of(result, player)
        won, lost, drew = games_of(result, player)
        tally.match_points += points
        tally.played += 1
        tally.game_wins += won
        tally.game_losses += lost
        tally.game_draws += drew
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


def _match_win(tally: _Tally, profile: str) -> Fraction:
    """The player's own match percentage under the profile."""
    if profile == "pokemon":
        return _pokemon_win_percentage(tally)
    return _mtr_match_win(tally)


def _mtr_match_win(tally: _Tally) -> Fraction:
    """MW%: match points over 3 × rounds played (byes included), at least 0.33; 0 before the
    first match."""
    if tally.played == 0:
        return Fraction(0)
    return max(MTR_FLOOR, Fraction(tally.match_points, WIN_POINTS * tally.played))


def _pokemon_win_percentage(tally: _Tally) -> Fraction:
    """Win percentage: a win 1, a tie 1/2, a loss 0, over the rounds played, byes left out of
    both; at least 25%; 0 before the first round played against someone."""
    rounds = tally.played - tally.byes
    if rounds == 0:
        return Fraction(0)
    return max(POKEMON_FLOOR, Fraction(2 * (tally.wins - tally.byes) + tally.draws, 2 * rounds))


def _game_win(tally: _Tally) -> Fraction:
    """GW%: game points over 3 × games played, at least 0.33; 0 before the first game."""
    games = tally.game_wins + tally.game_losses + tally.game_draws
    if games == 0:
        return Fraction(0)
    points = GAME_WIN_POINTS * tally.game_wins + GAME_DRAW_POINTS * tally.game_draws
    return max(MTR_FLOOR, Fraction(points, GAME_WIN_POINTS * games))


def _as_opponent(match_win: Fraction, profile: str, dropped: bool) -> Fraction:
    """A player's match percentage as their opponents count it: at least 0.33 (mtr); at least
    25%, and at most 75% once they dropped (pokemon)."""
    if profile == "mtr":
        return max(MTR_FLOOR, match_win)
    floored = max(POKEMON_FLOOR, match_win)
    return min(POKEMON_DROPPED_CAP, floored) if dropped else floored


def _mean(values: Mapping[str, Fraction], opponents: Sequence[str]) -> Fraction:
    """The mean of the opponents' values (once per table faced); 0 without opponents."""
    if not opponents:
        return Fraction(0)
    return sum((values[opponent] for opponent in opponents), Fraction(0)) / len(opponents)


def _tie_key(values: Mapping[str, Fraction], order_by: Sequence[str]) -> tuple[float, ...]:
    """The profile's tie-breakers, descending, rounded to ``TIE_DECIMALS`` for comparison."""
    return tuple(-round(float(values[name]), TIE_DECIMALS) for name in order_by)


def _line(rank: int, player: str, tally: _Tally, values: Mapping[str, Fraction],
          match_win: Fraction, dropped: bool) -> Standing:
    """One player's line of the standings."""
    return Standing(
        rank=rank, player_id=player, match_points=tally.match_points, played=tally.played,
        wins=tally.wins, losses=tally.losses, draws=tally.draws, byes=tally.byes,
        match_win=float(match_win), opponents_match_win=float(values["opponents_match_win"]),
        opponents_opponents_match_win=float(values["opponents_opponents_match_win"]),
        game_wins=tally.game_wins, game_losses=tally.game_losses,
        game_draws=tally.game_draws, game_win=float(values["game_win"]),
        opponents_game_win=float(values["opponents_game_win"]), dropped=dropped,
    )
