"""Pairings in, results out: the CSV files a tournament exchanges with its pairing software.

``parse_pairings`` reads the shape that Melee.gg, EventLink and Limitless export: a header row,
then one row per table. The table column is the first header named ``Table``, ``Table #``,
``Table Number`` or ``Table No``; the player columns are every header named ``Player``,
``Opponent``, ``Player N``, ``Player #N`` or ``Seat N``, in column order (headers compared
case-insensitively, trimmed); every other column (``Player 1 Decklist``, ``Points``, ``Record``)
is ignored. A row with a single player (the others empty or ``BYE``) is a bye. Anything the
function cannot read with certainty raises ``PairingsRejected`` with the line and the reason.

``results_csv`` writes rows back out, every text cell guarded against CSV (formula) injection.

Both are pure: no I/O beyond the given string, no clock, no randomness.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MAX_PAIRINGS_BYTES = 1024 * 1024  # counted in characters of the decoded text
MAX_PAIRINGS_ROWS = 5000
MAX_CELL_CHARS = 200
MAX_TABLE = 10000

_TABLE_HEADERS = frozenset({"table", "table #", "table number", "table no"})
_PLAYER_HEADERS = frozenset({"player", "opponent"})
_NUMBERED_PLAYER = re.compile(r"(player|seat)\s*#?\s*\d+")
_DIGITS = re.compile(r"[0-9]+")
_BYE = "bye"
_BOM = "\ufeff"
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

_Row = tuple[int, list[str]]  # (the line the row starts on, its cells)


class PairingsRejected(ValueError):
    """The pairings file cannot be read; the message says which line and why."""


@dataclass(frozen=True)
class Pairing:
    """One row of the pairings: a table and its players, or a bye (``table`` None)."""

    table: int | None  # None: a bye
    players: tuple[str, ...]  # the cells as written (external ids or display names), seat order


def parse_pairings(text: str) -> list[Pairing]:
    """The pairings in a CSV export, in file order; ``PairingsRejected`` when unreadable."""
    if len(text) > MAX_PAIRINGS_BYTES:
        raise PairingsRejected(f"the file is larger than {MAX_PAIRINGS_BYTES} characters")
    rows = _read_rows(text.removeprefix(_BOM))
    if not rows:
        raise PairingsRejected("the file has no pairings")
    (header_line, header), data = rows[0], rows[1:]
    table_column, player_columns = _columns(header_line, header)
    if not data:
        raise PairingsRejected("the file has no pairings")
    return _pairings(data, table_column, player_columns)


def results_csv(rows: Sequence[Mapping[str, object]], columns: Sequence[str]) -> str:
    """A CSV of ``rows`` under a header of ``columns`` (``\\r\\n`` line endings).

    Each value is written with ``str()``; None, or a key the row lacks, is an empty cell; keys
    not among ``columns`` are left out. A text cell starting with ``=``, ``+``, ``-``, ``@``, a
    tab or a carriage return gets a leading ``'`` so a spreadsheet shows it rather than running
    it as a formula; ints and floats are written as they are (a negative number stays a number).
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_cell_text(column) for column in columns])
    for row in rows:
        writer.writerow([_cell_text(row.get(column)) for column in columns])
    return out.getvalue()


def _cell_text(value: object) -> str:
    """One value as a CSV cell, a formula-like text defused with a leading quote."""
    if value is None:
        return ""
    text = str(value)
    if isinstance(value, int | float):
        return text
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def _read_rows(text: str) -> list[_Row]:
    """The non-blank rows with the line each starts on; size limits and CSV syntax checked."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[_Row] = []
    line = 1
    try:
        for cells in reader:
            _check_cells(line, cells)
            if any(cell.strip() for cell in cells):
                rows.append((line, cells))
                _check_count(line, len(rows))
            line = reader.line_num + 1
    except csv.Error as exc:
        raise PairingsRejected(f"line {reader.line_num}: not a valid CSV file ({exc})") from exc
    return rows


def _check_cells(line: int, cells: Sequence[str]) -> None:
    """No cell of the row is longer than MAX_CELL_CHARS."""
    if any(len(cell) > MAX_CELL_CHARS for cell in cells):
        raise PairingsRejected(f"line {line}: a cell is longer than {MAX_CELL_CHARS} characters")


def _check_count(line: int, kept: int) -> None:
    """At most MAX_PAIRINGS_ROWS non-blank rows after the header."""
    if kept > MAX_PAIRINGS_ROWS + 1:
        raise PairingsRejected(f"line {line}: more than {MAX_PAIRINGS_ROWS} rows of pairings")


def _columns(line: int, header: Sequence[str]) -> tuple[int, list[int]]:
    """The index of the table column and those of the player columns, in column order."""
    names = [cell.strip().casefold() for cell in header]
    tables = [i for i, name in enumerate(names) if name in _TABLE_HEADERS]
    players = [i for i, name in enumerate(names) if _is_player_header(name)]
    if not tables or not players:
        found = ", ".join(repr(cell.strip()) for cell in header)
        raise PairingsRejected(
            f"line {line}: the header needs a table column and at least one player column;"
            f" found {found}"
        )
    return tables[0], players


def _is_player_header(name: str) -> bool:
    """``player``, ``opponent``, ``player N``, ``player #N`` or ``seat N`` (already folded)."""
    return name in _PLAYER_HEADERS or _NUMBERED_PLAYER.fullmatch(name) is not None


def _pairings(
    data: Sequence[_Row], table_column: int, player_columns: Sequence[int]
) -> list[Pairing]:
    """Each data row as a pairing; a table number or a player used twice is rejected."""
    tables: dict[int, int] = {}  # table -> line
    players: dict[str, int] = {}  # folded player cell -> line
    pairings: list[Pairing] = []
    for line, cells in data:
        pairing = _pairing(line, cells, table_column, player_columns)
        _claim_table(line, pairing.table, tables)
        for player in pairing.players:
            _claim_player(line, player, players)
        pairings.append(pairing)
    return pairings


def _pairing(
    line: int, cells: Sequence[str], table_column: int, player_columns: Sequence[int]
) -> Pairing:
    """One data row: its players (empty and BYE cells dropped) and its table, or a bye."""
    named = (_cell(cells, i).strip() for i in player_columns)
    seated = tuple(name for name in named if name and name.casefold() != _BYE)
    if not seated:
        raise PairingsRejected(f"line {line}: no players")
    if len(seated) == 1:
        return Pairing(table=None, players=seated)
    return Pairing(table=_table(line, _cell(cells, table_column)), players=seated)


def _cell(cells: Sequence[str], index: int) -> str:
    """The cell at ``index``, or empty when the row is shorter than the header."""
    return cells[index] if index < len(cells) else ""


def _table(line: int, cell: str) -> int:
    """The table number of a row with two players or more: an integer 1..MAX_TABLE."""
    text = cell.strip()
    if not text:
        raise PairingsRejected(f"line {line}: no table number")
    if _DIGITS.fullmatch(text) is None:
        raise PairingsRejected(f"line {line}: table {text!r} is not a number")
    table = int(text)
    if not 1 <= table <= MAX_TABLE:
        raise PairingsRejected(f"line {line}: table {table} is not between 1 and {MAX_TABLE}")
    return table


def _claim_table(line: int, table: int | None, tables: dict[int, int]) -> None:
    """Record the row's table, rejecting a number already used (byes have none)."""
    if table is None:
        return
    if table in tables:
        raise PairingsRejected(f"line {line}: table {table} is already on line {tables[table]}")
    tables[table] = line


def _claim_player(line: int, player: str, players: dict[str, int]) -> None:
    """Record a player cell (case-insensitively), rejecting one already paired."""
    key = player.casefold()
    if key in players:
        where = "this line" if players[key] == line else f"line {players[key]}"
        raise PairingsRejected(f"line {line}: player {player!r} is already paired on {where}")
    players[key] = line
