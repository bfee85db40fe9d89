"""The CSV files Kiroku writes for organisers, spreadsheets and pairing programs.

Every text cell is guarded against CSV (formula) injection: a cell starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return gets a leading ``'``. Lines end with ``\\r\\n``.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Collection, Mapping, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
FRACTION_COLUMNS = frozenset({"match_win", "opponents_match_win",
                              "opponents_opponents_match_win", "game_win",
                              "opponents_game_win"})
STANDINGS_COLUMNS = ("rank", "external_id", "name", "match_points", "wins", "losses", "draws",
                     "byes", "opponents_match_win", "opponents_opponents_match_win",
                     "player_id")
RESULT_LETTERS = frozenset({"W", "L", "D", "BYE"})

_Rows = Sequence[Mapping[str, object]]


def fixed(value: float, places: int = 4) -> str:
    """``value`` with exactly ``places`` decimals: 0.5 is "0.5000", 2/3 "0.6667", never "0.5"
    nor "-0.0000"; NaN and infinities are refused (ValueError)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{value!r} is not a number")
    if not math.isfinite(value):
        raise ValueError(f"{value!r} is not a finite number")
    if not 0 <= places <= 12:
        raise ValueError(f"{places!r} decimals: between 0 and 12")
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def results_csv(rows: _Rows, columns: Sequence[str]) -> str:
    """A CSV of ``rows`` under a header of ``columns`` (``\\r\\n`` line endings).

    Each value is written with ``str()``; None, or a key the row lacks, is an empty cell; keys
    not among ``columns`` are left out. A text cell starting with ``=``, ``+``, ``-``, ``@``, a
    tab or a carriage return gets a leading ``'`` so a spreadsheet shows it rather than running
    it as a formula; ints and floats are written as they are (a negative number stays a number).

    Kiroku's results.csv (``round, table, external_id, name, opponents, result, match_points,
    player_id``, one row per player) written with it is read back by ``read_pairings`` as the
    pairings of one of its rounds (format "kiroku").
    """
    return _csv(rows, columns, lambda column, value: _cell_text(value))


def standings_csv(rows: _Rows, columns: Sequence[str] = STANDINGS_COLUMNS, *, places: int = 4,
                  fractions: Collection[str] = FRACTION_COLUMNS) -> str:
    """The standings as CSV: like ``results_csv``, but every float, and every number in a
    ``fractions`` column (the win percentages, as fractions 0..1), written with ``places``
    fixed decimals ("0.5000", "0.6204"), so every line of a column reads alike."""

    def cell(column: str, value: object) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool) and (
                isinstance(value, float) or column in fractions):
            return fixed(value, places)
        return _cell_text(value)

    return _csv(rows, columns, cell)


def match_results_csv(rows: _Rows) -> str:
    """The results one line per table: ``Round, Table, Player 1, Player 2 (.. Player N),
    Player 1 Wins .. Player N Wins, Draws``.

    ``rows`` are Kiroku's results rows, one per player (``round``, ``table``, ``external_id``,
    ``name``, ``result`` W, L, D or BYE, and where known ``game_wins`` and ``game_draws``, the
    games of a best-of-N match), in seat order; a player is written as their external id,
    else their name. Without game counts a winner has 1 win, the others 0, and a drawn table 1
    draw. A bye is a line with no table, the player, ``BYE``, and 2 wins (the MTR counts a bye
    as a match won 2-0). Tables come in the order their first row comes.
    """
    groups: dict[tuple[object, object, int], list[tuple[str, str, object, object]]] = {}
    for index, row in enumerate(rows):
        letter = str(row.get("result") or "").strip().upper()
        if letter not in RESULT_LETTERS:
            raise ValueError(f"result {letter!r} is not W, L, D or BYE")
        player = str(row.get("external_id") or "").strip() or str(row.get("name") or "")
        bye = letter == "BYE" or row.get("table") in (None, "")
        key = (row.get("round"), None if bye else row.get("table"), index if bye else -1)
        groups.setdefault(key, []).append((player, "W" if bye else letter,
                                           2 if bye else row.get("game_wins"),
                                           0 if bye else row.get("game_draws")))
    seats = max([2, *(len(players) for players in groups.values())])
    columns = ["Round", "Table", *(f"Player {n}" for n in range(1, seats + 1)),
               *(f"Player {n} Wins" for n in range(1, seats + 1)), "Draws"]
    lines: list[dict[str, object]] = []
    for (number, table, _), players in groups.items():
        draws = players[0][3]
        line: dict[str, object] = {
            "Round": number, "Table": table,
            "Draws": draws if isinstance(draws, int) and players[0][2] is not None else
            int(any(letter == "D" for _, letter, _, _ in players))}
        for seat, (player, letter, wins, _) in enumerate(players, 1):
            line[f"Player {seat}"] = player
            line[f"Player {seat} Wins"] = wins if isinstance(wins, int) else int(letter == "W")
        if table is None:
            line["Player 2"] = "BYE"
        lines.append(line)
    return results_csv(lines, columns)


def _csv(rows: _Rows, columns: Sequence[str], cell: Callable[[str, object], str]) -> str:
    """The header then one line per row, each value written by ``cell(column, value)``."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_cell_text(column) for column in columns])
    for row in rows:
        writer.writerow([cell(column, row.get(column)) for column in columns])
    return out.getvalue()


def _cell_text(value: object) -> str:
    """One value as a CSV cell, a formula-like text defused with a leading quote."""
    if value is None:
        return ""
    text = str(value)
    if isinstance(value, int | float):
        return text
    return "'" + text if text.startswith(FORMULA_STARTS) else text
