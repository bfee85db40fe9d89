"""Swiss standings: match points, MW% with its 1/3 floor, OMW%, OOMW%, shared ranks."""

from __future__ import annotations

import pytest

from replay.standings import Standing, TableResult, points_of, standings


def win(round_: int, table: int, winner: str, loser: str) -> TableResult:
    """A two-player table that ``winner`` won."""
    return TableResult(round=round_, table=table, players=(winner, loser), winners=(winner,))


def draw(round_: int, table: int, *players: str) -> TableResult:
    """A drawn table."""
    return TableResult(round=round_, table=table, players=players, winners=(), drawn=True)


def bye(round_: int, player: str) -> TableResult:
    """A bye."""
    return TableResult(round=round_, table=None, players=(player,), winners=(), bye=True)


def by_id(lines: list[Standing]) -> dict[str, Standing]:
    """The standings keyed by player id."""
    return {line.player_id: line for line in lines}


def test_worked_example_four_players_three_rounds() -> None:
    # Round 1: A beats B, C beats D.  Round 2: A draws C, B beats D.  Round 3: A beats D, B beats C.
    # Points: A 3+1+3 = 7, B 0+3+3 = 6, C 3+1+0 = 4, D 0.
    # MW%:    A 7/9, B 6/9, C 4/9, D 0/9 -> floored to 3/9.
    # Opponents: A: B, C, D   B: A, D, C   C: D, A, B   D: C, B, A.
    # OMW%:  A (6+4+3)/27 = 13/27   B (7+3+4)/27 = 14/27
    #        C (3+7+6)/27 = 16/27   D (4+6+7)/27 = 17/27
    # OOMW%: A (14+16+17)/81 = 47/81   B (13+17+16)/81 = 46/81
    #        C (17+13+14)/81 = 44/81   D (16+14+13)/81 = 43/81
    results = [
        win(1, 1, "A", "B"), win(1, 2, "C", "D"),
        draw(2, 1, "A", "C"), win(2, 2, "B", "D"),
        win(3, 1, "A", "D"), win(3, 2, "B", "C"),
    ]
    lines = standings(["A", "B", "C", "D"], results)
    assert [(line.rank, line.player_id, line.match_points) for line in lines] == [
        (1, "A", 7), (2, "B", 6), (3, "C", 4), (4, "D", 0),
    ]
    expected = {
        "A": (7 / 9, 13 / 27, 47 / 81, (3, 2, 0, 1)),
        "B": (6 / 9, 14 / 27, 46 / 81, (3, 2, 1, 0)),
        "C": (4 / 9, 16 / 27, 44 / 81, (3, 1, 1, 1)),
        "D": (3 / 9, 17 / 27, 43 / 81, (3, 0, 3, 0)),
    }
    for line in lines:
        mw, omw, oomw, (played, wins, losses, draws) = expected[line.player_id]
        assert line.match_win == pytest.approx(mw)
        assert line.opponents_match_win == pytest.approx(omw)
        assert line.opponents_opponents_match_win == pytest.approx(oomw)
        assert (line.played, line.wins, line.losses, line.draws, line.byes) == (
            played, wins, losses, draws, 0,
        )


def test_match_win_is_floored_at_one_third() -> None:
    # L lost both matches: 0/6 would be 0.0, the floor makes it 1/3.
    lines = by_id(standings(["W", "L", "X"], [win(1, 1, "W", "L"), win(2, 1, "X", "L")]))
    assert lines["L"].match_points == 0
    assert lines["L"].match_win == pytest.approx(1 / 3)
    # W's only opponent is L, so W's OMW% is L's floored MW%.
    assert lines["W"].opponents_match_win == pytest.approx(1 / 3)


def test_a_bye_gives_three_points_and_no_opponent() -> None:
    lines = by_id(standings(["A", "B", "C"], [win(1, 1, "A", "B"), bye(1, "C")]))
    c = lines["C"]
    assert (c.match_points, c.played, c.wins, c.losses, c.byes) == (3, 1, 1, 0, 1)
    assert c.match_win == 1.0
    assert c.opponents_match_win == 0.0
    assert c.opponents_opponents_match_win == 0.0
    # A and C are level on points; A's OMW% (B's floored 1/3) beats C's 0.0.
    order = standings(["C", "A", "B"], [bye(1, "C"), win(1, 1, "A", "B")])
    assert [line.player_id for line in order] == ["A", "C", "B"]


def test_a_draw_gives_each_player_one_point() -> None:
    lines = by_id(standings(["A", "B"], [draw(1, 1, "A", "B")]))
    for player in ("A", "B"):
        line = lines[player]
        assert (line.match_points, line.played, line.wins, line.losses, line.draws) == (
            1, 1, 0, 0, 1,
        )
        assert line.match_win == pytest.approx(1 / 3)
        assert line.opponents_match_win == pytest.approx(1 / 3)
        assert line.rank == 1


def test_a_three_player_table() -> None:
    table = TableResult(round=1, table=1, players=("A", "B", "C"), winners=("A",))
    lines = by_id(standings(["A", "B", "C"], [table]))
    assert [lines[p].match_points for p in "ABC"] == [3, 0, 0]
    assert (lines["B"].wins, lines["B"].losses) == (0, 1)
    # A faced B and C (1/3 each); B faced A (1) and C (1/3).
    assert lines["A"].opponents_match_win == pytest.approx(1 / 3)
    assert lines["B"].opponents_match_win == pytest.approx(2 / 3)
    assert lines["C"].opponents_match_win == pytest.approx(2 / 3)
    drawn = by_id(standings(["A", "B", "C"], [draw(1, 1, "A", "B", "C")]))
    assert [drawn[p].match_points for p in "ABC"] == [1, 1, 1]


def test_ties_share_a_rank_and_keep_registration_order() -> None:
    # A beats B, C beats D: A and C are level on everything, so are B and D.
    lines = standings(["D", "C", "B", "A"], [win(1, 1, "A", "B"), win(1, 2, "C", "D")])
    assert [(line.rank, line.player_id) for line in lines] == [
        (1, "C"), (1, "A"), (3, "D"), (3, "B"),
    ]


def test_omw_breaks_a_points_tie() -> None:
    # P2 beats P1, P4 beats P3, then P2 beats P4 and P3 beats P1: P3 and P4 have 3 points each.
    # P4 faced P3 (1/2) and P2 (1): OMW 3/4. P3 faced P4 (1/2) and P1 (floored 1/3): OMW 5/12.
    results = [win(1, 1, "P2", "P1"), win(1, 2, "P4", "P3"),
               win(2, 1, "P2", "P4"), win(2, 2, "P3", "P1")]
    lines = standings(["P1", "P2", "P3", "P4"], results)
    assert [(line.rank, line.player_id) for line in lines] == [
        (1, "P2"), (2, "P4"), (3, "P3"), (4, "P1"),
    ]


def test_oomw_breaks_a_points_and_omw_tie() -> None:
    # MW%: A 1, B D E F 1/2, C 1/3 (floored).  D faced B and E, E faced F and D: OMW 1/2 each.
    # OMW%: B (D 1/2 + C 1/3)/2 = 5/12, F (E 1/2 + A 1)/2 = 3/4, D 1/2.
    # OOMW%: D (B 5/12 + E 1/2)/2 = 11/24, E (F 3/4 + D 1/2)/2 = 5/8, so E ranks above D.
    results = [win(1, 1, "F", "E"), win(1, 2, "A", "C"), win(1, 3, "D", "B"),
               win(2, 1, "B", "C"), win(2, 2, "E", "D"), win(2, 3, "A", "F")]
    lines = by_id(standings(["A", "B", "C", "D", "E", "F"], results))
    assert lines["D"].opponents_match_win == pytest.approx(lines["E"].opponents_match_win)
    assert lines["D"].opponents_opponents_match_win == pytest.approx(11 / 24)
    assert lines["E"].opponents_opponents_match_win == pytest.approx(5 / 8)
    assert lines["E"].rank < lines["D"].rank


def test_a_result_naming_an_unknown_player_raises() -> None:
    with pytest.raises(ValueError, match="'Z'"):
        standings(["A", "B"], [win(1, 1, "A", "Z")])
    with pytest.raises(ValueError, match="'Z'"):
        standings(["A", "B"], [TableResult(1, 1, ("A", "B"), ("Z",))])


def test_no_results_gives_everyone_rank_one_with_zeros() -> None:
    lines = standings(["A", "B", "C"], [])
    assert [line.player_id for line in lines] == ["A", "B", "C"]
    for line in lines:
        assert line == Standing(
            rank=1, player_id=line.player_id, match_points=0, played=0, wins=0, losses=0,
            draws=0, byes=0, match_win=0.0, opponents_match_win=0.0,
            opponents_opponents_match_win=0.0,
        )


def test_points_of_each_kind_of_table() -> None:
    assert points_of(win(1, 1, "A", "B"), "A") == 3
    assert points_of(win(1, 1, "A", "B"), "B") == 0
    assert points_of(draw(1, 1, "A", "B"), "B") == 1
    assert points_of(bye(1, "C"), "C") == 3
    with pytest.raises(ValueError):
        points_of(win(1, 1, "A", "B"), "C")
