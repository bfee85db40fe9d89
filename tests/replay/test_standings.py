"""Swiss standings: match points, game counts, the "mtr" profile (MW% and GW% floored at 0.33,
OMW%, GW%, OGW%), the "pokemon" profile (win percentage floored at 25%, a dropped opponent capped
at 75%, byes left out, OWP then OOWP), shared ranks and the input checks. The MTR's worked
examples and a check against an independent computation are in test_standings_mtr.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from replay.standings import (
    PROFILES,
    Standing,
    TableResult,
    games_of,
    points_of,
    standings,
    tiebreakers,
)

FLOOR = Fraction(33, 100)  # the MTR's floor, not 1/3


def win(round_: int, table: int, winner: str, loser: str) -> TableResult:
    """A two-player table that ``winner`` won (game counts unknown)."""
    return TableResult(round=round_, table=table, players=(winner, loser), winners=(winner,))


def draw(round_: int, table: int, *players: str) -> TableResult:
    """A drawn table (game counts unknown)."""
    return TableResult(round=round_, table=table, players=players, winners=(), drawn=True)


def bye(round_: int, player: str) -> TableResult:
    """A bye, as replay.tournaments records it (the player among the winners)."""
    return TableResult(round=round_, table=None, players=(player,), winners=(player,), bye=True)


def games(round_: int, table: int, first: str, second: str, first_games: int,
          second_games: int, drawn_games: int = 0) -> TableResult:
    """A two-player best-of-N match with its game score; more game wins take the match, equal
    game wins draw it."""
    drawn = first_games == second_games
    winners = () if drawn else ((first,) if first_games > second_games else (second,))
    return TableResult(round_, table, (first, second), winners, drawn,
                       game_wins=(first_games, second_games), game_draws=drawn_games)


def by_id(lines: list[Standing]) -> dict[str, Standing]:
    """The standings keyed by player id."""
    return {line.player_id: line for line in lines}


# ----- mtr, the default ----------------------------------------------------------------------

def test_worked_example_four_players_three_rounds() -> None:
    # Round 1: A beats B, C beats D.  Round 2: A draws C, B beats D.  Round 3: A beats D, B beats C.
    # Points: A 3+1+3 = 7, B 0+3+3 = 6, C 3+1+0 = 4, D 0.
    # MW%:    A 7/9, B 6/9, C 4/9, D 0/9 -> floored to 0.33.
    # Opponents: A: B, C, D   B: A, D, C   C: D, A, B   D: C, B, A.
    # With no game counts each table is one game, so GW% = MW% and OGW% = OMW%.
    results = [
        win(1, 1, "A", "B"), win(1, 2, "C", "D"),
        draw(2, 1, "A", "C"), win(2, 2, "B", "D"),
        win(3, 1, "A", "D"), win(3, 2, "B", "C"),
    ]
    lines = standings(["A", "B", "C", "D"], results)
    assert [(line.rank, line.player_id, line.match_points) for line in lines] == [
        (1, "A", 7), (2, "B", 6), (3, "C", 4), (4, "D", 0),
    ]
    mw = {"A": Fraction(7, 9), "B": Fraction(6, 9), "C": Fraction(4, 9), "D": FLOOR}
    omw = {"A": (mw["B"] + mw["C"] + mw["D"]) / 3, "B": (mw["A"] + mw["D"] + mw["C"]) / 3,
           "C": (mw["D"] + mw["A"] + mw["B"]) / 3, "D": (mw["C"] + mw["B"] + mw["A"]) / 3}
    oomw = {"A": (omw["B"] + omw["C"] + omw["D"]) / 3, "B": (omw["A"] + omw["D"] + omw["C"]) / 3,
            "C": (omw["D"] + omw["A"] + omw["B"]) / 3, "D": (omw["C"] + omw["B"] + omw["A"]) / 3}
    records = {"A": (3, 2, 0, 1), "B": (3, 2, 1, 0), "C": (3, 1, 1, 1), "D": (3, 0, 3, 0)}
    for line in lines:
        p = line.player_id
        assert line.match_win == float(mw[p])
        assert line.opponents_match_win == float(omw[p])
        assert line.opponents_opponents_match_win == float(oomw[p])
        assert (line.game_win, line.opponents_game_win) == (float(mw[p]), float(omw[p]))
        played, wins, losses, draws = records[p]
        assert (line.played, line.wins, line.losses, line.draws, line.byes) == (
            played, wins, losses, draws, 0,
        )
        assert (line.game_wins, line.game_losses, line.game_draws) == (wins, losses, draws)
        assert line.dropped is False
    assert lines[3].match_win == 0.33


def test_match_win_is_floored_at_0_33_not_one_third() -> None:
    # L lost both matches: 0/6 would be 0.0, the floor makes it 0.33 (the MTR's number).
    lines = by_id(standings(["W", "L", "X"], [win(1, 1, "W", "L"), win(2, 1, "X", "L")]))
    assert lines["L"].match_points == 0
    assert lines["L"].match_win == 0.33
    assert lines["L"].game_win == 0.33
    # W's only opponent is L, so W's OMW% and OGW% are L's floored percentages.
    assert lines["W"].opponents_match_win == 0.33
    assert lines["W"].opponents_game_win == 0.33


def test_a_draw_gives_each_player_one_point() -> None:
    lines = by_id(standings(["A", "B"], [draw(1, 1, "A", "B")]))
    for player in ("A", "B"):
        line = lines[player]
        assert (line.match_points, line.played, line.wins, line.losses, line.draws) == (
            1, 1, 0, 0, 1,
        )
        # 1 point of 3 is above the 0.33 floor: 1/3 stands.
        assert line.match_win == pytest.approx(1 / 3)
        assert line.opponents_match_win == pytest.approx(1 / 3)
        assert (line.game_wins, line.game_losses, line.game_draws) == (0, 0, 1)
        assert line.rank == 1


def test_a_bye_is_a_2_0_win_with_no_opponent() -> None:
    lines = by_id(standings(["A", "B", "C"], [win(1, 1, "A", "B"), bye(1, "C")]))
    c = lines["C"]
    assert (c.match_points, c.played, c.wins, c.losses, c.byes) == (3, 1, 1, 0, 1)
    assert (c.game_wins, c.game_losses, c.game_draws) == (2, 0, 0)
    assert (c.match_win, c.game_win) == (1.0, 1.0)
    assert (c.opponents_match_win, c.opponents_game_win) == (0.0, 0.0)
    assert c.opponents_opponents_match_win == 0.0
    # A and C are level on points; A's OMW% (B's floored 0.33) beats C's 0.0.
    order = standings(["C", "A", "B"], [bye(1, "C"), win(1, 1, "A", "B")])
    assert [line.player_id for line in order] == ["A", "C", "B"]


def test_a_bye_counts_in_the_players_own_percentages_that_opponents_average() -> None:
    # C has a bye, then loses to A: C's MW% is 3/6 and A's OMW% is that 0.5; C's OMW% ignores
    # the bye round (A's 1.0 alone).
    lines = by_id(standings(["A", "B", "C"], [bye(1, "C"), win(1, 1, "A", "B"),
                                              games(2, 1, "A", "C", 2, 1)]))
    assert lines["C"].match_win == 0.5
    assert lines["A"].opponents_match_win == float((FLOOR + Fraction(1, 2)) / 2)
    assert lines["C"].opponents_match_win == 1.0
    # C's games: the bye's 2-0 and a 1-2 loss: 3 won of 5, 9 game points of 15.
    assert (lines["C"].game_wins, lines["C"].game_losses) == (3, 2)
    assert lines["C"].game_win == 0.6


def test_game_counts_give_game_win_percentage() -> None:
    # A beats B 2-1, then draws C 1-1 with a drawn game: A 3 won, 2 lost, 1 drawn, 10 points
    # of 18.
    results = [games(1, 1, "A", "B", 2, 1), games(2, 1, "A", "C", 1, 1, 1)]
    lines = by_id(standings(["A", "B", "C"], results))
    a = lines["A"]
    assert (a.match_points, a.wins, a.draws) == (4, 1, 1)
    assert (a.game_wins, a.game_losses, a.game_draws) == (3, 2, 1)
    assert a.game_win == float(Fraction(10, 18))
    # B: 1 won of 3 = 1/3; C: 1 won, 1 lost, 1 drawn = 4/9.
    assert a.opponents_game_win == float((Fraction(1, 3) + Fraction(4, 9)) / 2)


def test_game_win_percentage_breaks_an_omw_tie() -> None:
    # A beats B 2-0, C beats D 2-1: 3 points each, OMW% 0.33 each; GW% A 6/6, C 6/9.
    results = [games(1, 1, "A", "B", 2, 0), games(1, 2, "C", "D", 2, 1)]
    lines = standings(["C", "D", "A", "B"], results)
    assert [(line.rank, line.player_id) for line in lines][:2] == [(1, "A"), (2, "C")]
    assert (lines[0].game_win, lines[1].game_win) == (1.0, float(Fraction(2, 3)))


def test_opponents_game_win_breaks_a_game_win_tie() -> None:
    # A beats B 2-1 and C beats D 2-1 (GW% 6/9 each). B then draws E 1-1: B's MW% 1/6 -> 0.33,
    # GW% 6/15 = 0.4. D draws F with one drawn game: MW% 0.33 too, GW% 4/12 = 1/3. So A and C
    # tie on points, OMW% and GW%, and A's OGW% 0.4 beats C's 1/3.
    results = [games(1, 1, "A", "B", 2, 1), games(1, 2, "C", "D", 2, 1),
               games(2, 1, "B", "E", 1, 1), games(2, 2, "D", "F", 0, 0, 1)]
    lines = by_id(standings(["C", "A", "B", "D", "E", "F"], results))
    assert lines["A"].opponents_match_win == lines["C"].opponents_match_win == 0.33
    assert lines["A"].game_win == lines["C"].game_win
    assert (lines["A"].opponents_game_win, lines["C"].opponents_game_win) == (
        0.4, float(Fraction(1, 3)),
    )
    assert (lines["A"].rank, lines["C"].rank) == (1, 2)


def test_omw_breaks_a_points_tie() -> None:
    # P2 beats P1, P4 beats P3, then P2 beats P4 and P3 beats P1: P3 and P4 have 3 points each.
    # P4 faced P3 (1/2) and P2 (1): OMW 3/4. P3 faced P4 (1/2) and P1 (floored 0.33): 0.415.
    results = [win(1, 1, "P2", "P1"), win(1, 2, "P4", "P3"),
               win(2, 1, "P2", "P4"), win(2, 2, "P3", "P1")]
    lines = standings(["P1", "P2", "P3", "P4"], results)
    assert [(line.rank, line.player_id) for line in lines] == [
        (1, "P2"), (2, "P4"), (3, "P3"), (4, "P1"),
    ]
    assert lines[2].opponents_match_win == float((Fraction(1, 2) + FLOOR) / 2)


def test_a_three_player_table() -> None:
    table = TableResult(round=1, table=1, players=("A", "B", "C"), winners=("A",))
    lines = by_id(standings(["A", "B", "C"], [table]))
    assert [lines[p].match_points for p in "ABC"] == [3, 0, 0]
    assert (lines["B"].wins, lines["B"].losses) == (0, 1)
    # One game, A's: A 1-0, B and C 0-1.
    assert [(lines[p].game_wins, lines[p].game_losses) for p in "ABC"] == [(1, 0), (0, 1), (0, 1)]
    # A faced B and C (0.33 each); B faced A (1) and C (0.33).
    assert lines["A"].opponents_match_win == 0.33
    assert lines["B"].opponents_match_win == float((1 + FLOOR) / 2)
    assert lines["C"].opponents_match_win == float((1 + FLOOR) / 2)
    drawn = by_id(standings(["A", "B", "C"], [draw(1, 1, "A", "B", "C")]))
    assert [drawn[p].match_points for p in "ABC"] == [1, 1, 1]


def test_a_multiplayer_game_with_two_winners_is_one_game() -> None:
    # Best of one at a table of four: one game, won by seats 1 and 2 together.
    table = TableResult(1, 1, ("A", "B", "C", "D"), ("A", "B"), game_wins=(1, 1, 0, 0),
                        games_played=1)
    assert [games_of(table, p) for p in "ABCD"] == [(1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 0)]
    # Without games_played every game has one winner: two games, each winner 1-1.
    assert games_of(TableResult(1, 1, ("A", "B", "C", "D"), ("A", "B"),
                                game_wins=(1, 1, 0, 0)), "A") == (1, 1, 0)


def test_ties_share_a_rank_and_keep_registration_order() -> None:
    # A beats B, C beats D: A and C are level on everything, so are B and D.
    lines = standings(["D", "C", "B", "A"], [win(1, 1, "A", "B"), win(1, 2, "C", "D")])
    assert [(line.rank, line.player_id) for line in lines] == [
        (1, "C"), (1, "A"), (3, "D"), (3, "B"),
    ]


# ----- pokemon -------------------------------------------------------------------------------

def test_pokemon_floors_an_opponents_win_percentage_at_25_percent() -> None:
    lines = by_id(standings(["W", "L"], [win(1, 1, "W", "L")], profile="pokemon"))
    assert lines["L"].match_win == 0.25
    assert lines["W"].opponents_match_win == 0.25
    # The same table under the MTR: 0.33.
    assert by_id(standings(["W", "L"], [win(1, 1, "W", "L")]))["W"].opponents_match_win == 0.33


def test_pokemon_caps_a_dropped_opponent_at_75_percent() -> None:
    # X wins three rounds, the last against P; X's win percentage is 100%, which counts 75% in
    # P's resistance once X dropped.
    results = [win(1, 1, "X", "F1"), win(2, 1, "X", "F2"), win(3, 1, "X", "P")]
    players = ["P", "X", "F1", "F2"]
    stayed = by_id(standings(players, results, profile="pokemon"))
    gone = by_id(standings(players, results, profile="pokemon", dropped={"X"}))
    assert stayed["P"].opponents_match_win == 1.0
    assert gone["P"].opponents_match_win == 0.75
    assert gone["X"].match_win == 1.0  # X's own percentage is not capped
    assert gone["X"].dropped and not gone["P"].dropped
    # The cap is Pokémon's: the MTR counts the dropped X's 1.0.
    assert by_id(standings(players, results, dropped={"X"}))["P"].opponents_match_win == 1.0


def test_pokemon_counts_a_tie_as_half_a_win() -> None:
    # RK9's example: "if an opponent finished 3–1–1, their contribution is
    # (1 + 1 + 1 + 0.5 + 0) / 5 = 70%". X: three wins, a tie, and the loss to P.
    results = [win(1, 1, "X", "F1"), win(2, 1, "X", "F2"), win(3, 1, "X", "F3"),
               draw(4, 1, "X", "F4"), win(5, 1, "P", "X")]
    lines = by_id(standings(["P", "X", "F1", "F2", "F3", "F4"], results, profile="pokemon"))
    assert lines["X"].match_win == 0.7
    assert lines["P"].opponents_match_win == 0.7


def test_pokemon_leaves_byes_out_of_win_percentages() -> None:
    # RK9: "if one of your opponents received a Bye and finished 2-1, then they would contribute
    # a 1-1 score (50%)", and a player's own bye round gives no opponent.
    results = [bye(1, "X"), win(1, 1, "P", "F1"),
               win(2, 1, "X", "F2"), win(2, 2, "P", "F3"),
               win(3, 1, "P", "X")]
    lines = by_id(standings(["P", "X", "F1", "F2", "F3"], results, profile="pokemon"))
    assert (lines["X"].match_points, lines["X"].wins, lines["X"].byes) == (6, 2, 1)
    assert lines["X"].match_win == 0.5
    assert lines["X"].opponents_match_win == (0.25 + 1.0) / 2  # F2 and P; no bye opponent
    assert lines["P"].opponents_match_win == float(Fraction(1, 3))  # (1/4 + 1/4 + 1/2) / 3
    # The MTR counts the bye: X's MW% is 6/9.
    assert by_id(standings(["P", "X", "F1", "F2", "F3"], results))["X"].match_win == \
        float(Fraction(6, 9))


def test_pokemon_breaks_an_owp_tie_on_oowp() -> None:
    # Win percentage: A 1, B D E F 1/2, C 0 -> 25%.  D faced B and E, E faced F and D: OWP 1/2.
    # OWP: B (D 1/2 + C 1/4)/2 = 3/8, F (E 1/2 + A 1)/2 = 3/4.
    # OOWP: D (B 3/8 + E 1/2)/2 = 7/16, E (F 3/4 + D 1/2)/2 = 5/8, so E ranks above D.
    results = [win(1, 1, "F", "E"), win(1, 2, "A", "C"), win(1, 3, "D", "B"),
               win(2, 1, "B", "C"), win(2, 2, "E", "D"), win(2, 3, "A", "F")]
    lines = by_id(standings(["A", "B", "C", "D", "E", "F"], results, profile="pokemon"))
    assert lines["D"].opponents_match_win == lines["E"].opponents_match_win == 0.5
    assert lines["D"].opponents_opponents_match_win == 7 / 16
    assert lines["E"].opponents_opponents_match_win == 5 / 8
    assert lines["E"].rank < lines["D"].rank


def test_pokemon_ignores_game_counts_in_the_order() -> None:
    # A beats B 2-0, C beats D 2-1: the MTR ranks A first on GW%; Pokémon ties them.
    results = [games(1, 1, "A", "B", 2, 0), games(1, 2, "C", "D", 2, 1)]
    lines = standings(["C", "D", "A", "B"], results, profile="pokemon")
    assert [(line.rank, line.player_id) for line in lines] == [
        (1, "C"), (1, "A"), (3, "D"), (3, "B"),
    ]


# ----- profiles, dropped players, inputs -----------------------------------------------------

def test_the_profiles_and_their_tiebreakers() -> None:
    assert PROFILES == ("mtr", "pokemon")
    assert tiebreakers("mtr") == [
        "match_points", "opponents_match_win", "game_win", "opponents_game_win",
        "registration_order",
    ]
    assert tiebreakers("pokemon") == [
        "match_points", "opponents_match_win", "opponents_opponents_match_win",
        "registration_order",
    ]
    line_fields = set(Standing.__dataclass_fields__)
    for profile in PROFILES:
        assert set(tiebreakers(profile)[:-1]) <= line_fields


def test_an_unknown_profile_raises() -> None:
    with pytest.raises(ValueError, match="'swiss'"):
        tiebreakers("swiss")
    with pytest.raises(ValueError, match="'swiss'"):
        standings(["A", "B"], [], profile="swiss")


def test_a_dropped_player_stays_in_the_standings() -> None:
    lines = by_id(standings(["A", "B", "C"], [win(1, 1, "A", "B")], dropped=["B"]))
    assert set(lines) == {"A", "B", "C"}
    assert [lines[p].dropped for p in "ABC"] == [False, True, False]
    with pytest.raises(ValueError, match="'Z'"):
        standings(["A", "B"], [], dropped={"Z"})


def test_game_counts_are_checked() -> None:
    with pytest.raises(ValueError, match="negative"):
        TableResult(1, 1, ("A", "B"), ("A",), game_wins=(2, -1))
    with pytest.raises(ValueError, match="negative"):
        TableResult(1, 1, ("A", "B"), ("A",), game_wins=(2, 0), game_draws=-1)
    with pytest.raises(ValueError, match="3 game win counts for 2 players"):
        TableResult(1, 1, ("A", "B"), ("A",), game_wins=(2, 0, 0))
    with pytest.raises(ValueError, match="a bye has no game counts"):
        TableResult(1, None, ("A",), ("A",), bye=True, game_wins=(2,))
    with pytest.raises(ValueError, match="come with the game wins"):
        TableResult(1, 1, ("A", "B"), (), drawn=True, game_draws=1)
    with pytest.raises(ValueError, match="between 2 and 3"):
        TableResult(1, 1, ("A", "B", "C"), ("A",), game_wins=(2, 1, 0), games_played=1)


def test_games_of_each_kind_of_table() -> None:
    assert games_of(games(1, 1, "A", "B", 2, 1), "A") == (2, 1, 0)
    assert games_of(games(1, 1, "A", "B", 2, 1), "B") == (1, 2, 0)
    assert games_of(games(1, 1, "A", "B", 1, 1, 1), "B") == (1, 1, 1)
    assert games_of(win(1, 1, "A", "B"), "B") == (0, 1, 0)
    assert games_of(draw(1, 1, "A", "B"), "A") == (0, 0, 1)
    assert games_of(bye(1, "C"), "C") == (2, 0, 0)
    with pytest.raises(ValueError):
        games_of(win(1, 1, "A", "B"), "C")


def test_a_result_naming_an_unknown_player_raises() -> None:
    with pytest.raises(ValueError, match="'Z'"):
        standings(["A", "B"], [win(1, 1, "A", "Z")])
    with pytest.raises(ValueError, match="'Z'"):
        standings(["A", "B"], [TableResult(1, 1, ("A", "B"), ("Z",))])


def test_no_results_gives_everyone_rank_one_with_zeros() -> None:
    for profile in PROFILES:
        lines = standings(["A", "B", "C"], [], profile)
        assert [line.player_id for line in lines] == ["A", "B", "C"]
        for line in lines:
            assert line == Standing(
                rank=1, player_id=line.player_id, match_points=0, played=0, wins=0, losses=0,
                draws=0, byes=0, match_win=0.0, opponents_match_win=0.0,
                opponents_opponents_match_win=0.0, game_wins=0, game_losses=0, game_draws=0,
                game_win=0.0, opponents_game_win=0.0, dropped=False,
            )


def test_points_of_each_kind_of_table() -> None:
    assert points_of(win(1, 1, "A", "B"), "A") == 3
    assert points_of(win(1, 1, "A", "B"), "B") == 0
    assert points_of(draw(1, 1, "A", "B"), "B") == 1
    assert points_of(bye(1, "C"), "C") == 3
    with pytest.raises(ValueError):
        points_of(win(1, 1, "A", "B"), "C")
