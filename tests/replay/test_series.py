"""Best-of-N series (MTR 2.1): first to the wins needed; drawn games count as played, not won,
and call for another game; a best-of-one match is its one game."""

from __future__ import annotations

from typing import Any

import pytest

from replay.series import series_of, wins_needed


def won(seat: int) -> dict[str, Any]:
    return {"winners": [seat], "drawn": False}


DRAWN = {"winners": [], "drawn": True}


@pytest.mark.parametrize(("best_of", "needed"), [(1, 1), (3, 2), (5, 3)])
def test_a_match_goes_to_the_first_to_a_majority_of_games(best_of: int, needed: int) -> None:
    assert wins_needed(best_of) == needed


def test_two_nil_decides_a_best_of_three() -> None:
    series = series_of(3, 2, [won(1), won(1)])
    assert (series.decided, series.winners, series.game_wins, series.next_game) == (
        True, (1,), (2, 0), False)


def test_one_all_needs_a_third_game() -> None:
    series = series_of(3, 2, [won(1), won(2)])
    assert not series.decided and series.next_game and series.game_wins == (1, 1)


def test_a_game_in_progress_holds_the_next() -> None:
    series = series_of(3, 2, [won(1), None])
    assert series.playing and not series.next_game and series.finished == 1


def test_two_one_is_a_win() -> None:
    assert series_of(3, 2, [won(2), won(1), won(2)]).winners == (2,)


def test_a_drawn_game_counts_as_played_not_won() -> None:
    series = series_of(3, 2, [won(1), DRAWN])
    assert (series.game_wins, series.game_draws, series.decided) == ((1, 0), 1, False)


def test_one_all_and_a_draw_goes_to_a_fourth_game() -> None:
    series = series_of(3, 2, [won(1), won(2), DRAWN])
    assert (series.decided, series.next_game, series.game_draws) == (False, True, 1)
    assert series_of(3, 2, [won(1), won(2), DRAWN, won(2)]).winners == (2,)


def test_no_more_than_twice_the_best_of_games_start() -> None:
    series = series_of(3, 2, [DRAWN] * 6)
    assert (series.decided, series.next_game) == (False, False)


def test_best_of_one_is_its_one_game() -> None:
    assert series_of(1, 2, [won(2)]).winners == (2,)
    assert series_of(1, 2, [DRAWN]).drawn


def test_a_multiplayer_game_won_by_two_gives_each_a_game() -> None:
    series = series_of(1, 4, [{"winners": [1, 3], "drawn": False}])
    assert series.winners == (1, 3) and series.game_wins == (1, 0, 1, 0)


def test_no_game_yet_is_undecided_and_not_playing() -> None:
    series = series_of(3, 2, [])
    assert not series.decided and not series.playing


def test_best_of_two_is_refused() -> None:
    with pytest.raises(ValueError, match="best of 1, 3, 5"):
        series_of(2, 2, [])
