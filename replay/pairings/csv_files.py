"""Pairings in CSV: one row per table (Melee.gg, TopDeck.gg, AetherHub, Endstep, EventLink-like
exports, Kiroku's own match results), or one row per player (Kiroku's results.csv).

One row per table. The header names a table column (``Table``, ``Table #``, ``TableNumber``,
``Table Number``, ``Table No``), player columns (``Player``, ``Opponent``, ``Player N``,
``PlayerN``, ``Player #N``, ``Seat N``, in column order) and, in a file of several rounds, a
round column (``Round``, ``Round #``, ``RoundNumber``, ``Round Number``, ``Round No``); headers
are compared case-insensitively, trimmed, runs of spaces as one; every other column is ignored.
A row with a single player (the others empty or ``BYE``) is a bye, whatever its table cell.
Only the rows of the round read are checked beyond their round cell.

Where each shape comes from (the format named in ``PairingsFile.format``):

- ``melee``: a header naming ``TableNumber``, ``RoundNumber``, ``PlayerN`` or a decklist
  column. Melee.gg's round pairings are served with the fields ``RoundNumber``, ``TableNumber``,
  ``Player1``, ``Player1Decklist``, ``Player2``, ``Player2Decklist``, ``Result`` (a bye: no
  ``Player2``, the result "... was awarded a bye"), as documented by the public Melee clients
  (Badaro/MTGODecklistCache.Tools, MagicLegacy/mtgmelee-client); the "Table, Player 1,
  Player 1 Decklist" spelling is that of the CSV Kiroku already read. Melee's own CSV export
  button was not seen: its exact headers are inferred from those fields.
- ``aetherhub``: a header with ``Player`` and ``Opponent`` and a round or ``Match Results``
  column. AetherHub's pairings table has the columns Table, Player, Opponent, Match Results,
  its player cells sometimes carry "(6 Points)", which is removed, and a bye is an opponent
  ``BYE`` (public AetherHub scrapers read it so). AetherHub publishes no CSV export that could
  be seen: a multi-round file is taken to be that table with a ``Round`` column.
- ``topdeck``: a round column and a ``Winner`` or ``Status`` column. TopDeck.gg's API gives,
  per round, tables with ``table``, ``players`` (one to four, for multiplayer pods),
  ``winner`` and ``status`` (public TopDeck API clients); its CSV export was not seen, so the
  headers are that shape flattened: ``Round, Table, Player 1 .. Player 4, Winner, Status``.
- ``endstep``: a round column and a ``Result`` column. No public description of Endstep's
  export could be found; this is a guess (``Round, Table, Player 1, Player 2, Result``), and
  since every shape is read by the same rules, a wrong guess only mislabels the format.
- ``kiroku``: Kiroku's results.csv (``round, table, external_id, name, opponents, result,
  match_points, player_id``), one row per player, grouped by round and table in row order;
  the player is the ``player_id`` cell (else ``external_id``, else ``name``); an empty table
  is a bye.
- ``csv``: any other header meeting the rules above.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

from replay.pairings.common import (
    MAX_CELL_CHARS,
    MAX_FILE_ROWS,
    Claims,
    Pairing,
    PairingsFile,
    PairingsRejected,
    check_name,
    choose_round,
    round_number,
    table_number,
)

HEADER_NEEDS = (
    "the header needs a table column (one of Table, Table #, TableNumber, Table Number,"
    " Table No) and player columns (Player, Opponent, Player 1, Player 2, ..., Seat 1, ...)"
)
_TABLE_HEADERS = frozenset({"table", "table #", "table number", "table no", "table no.",
                            "tablenumber"})
_ROUND_HEADERS = frozenset({"round", "round #", "round number", "round no", "round no.",
                            "roundnumber"})
_PLAYER_HEADERS = frozenset({"player", "opponent"})
_NUMBERED_PLAYER = re.compile(r"(player|seat)\s*#?\s*\d+")
_MELEE_HEADER = re.compile(r"tablenumber|roundnumber|player\d+|.*decklist")
_KIROKU_HEADERS = frozenset({"table", "opponents", "result"})
_KIROKU_PLAYERS = ("player_id", "external_id", "name")
_POINTS_LABEL = re.compile(r"\(\s*\d+\s*points?\s*\)", re.IGNORECASE)
_BYE = "bye"

_Row = tuple[int, list[str]]  # (the line the row starts on, its cells)


@dataclass(frozen=True)
class _Layout:
    """Where the header puts the round (if any), the table and the players."""

    round: int | None
    table: int
    players: list[int]


def read_csv(text: str, wanted: int | None) -> PairingsFile:
    """The pairings of round ``wanted`` (or the latest) in a CSV export."""
    rows = read_rows(text)
    if not rows:
        raise PairingsRejected("the file has no pairings")
    (header_line, header), data = rows[0], rows[1:]
    names = [_fold(cell) for cell in header]
    if _KIROKU_HEADERS <= set(names) and any(n in names for n in _KIROKU_PLAYERS[:2]):
        return _read_kiroku(names, data, wanted)
    layout = _layout(header_line, header, names)
    shape = _shape(names, layout)
    if not data:
        raise PairingsRejected("the file has no pairings")
    in_round = [(line, cells, _round_of(line, cells, layout.round)) for line, cells in data]
    rounds = sorted({r for _, _, r in in_round if r is not None})
    chosen = choose_round(rounds, wanted)
    claims = Claims()
    pairings = [
        claims.pairing(f"line {line}", _pairing(line, cells, layout, shape == "aetherhub"))
        for line, cells, number in in_round
        if layout.round is None or number == chosen
    ]
    return PairingsFile(shape, rounds, chosen, pairings)


def _fold(cell: str) -> str:
    """A header cell compared: trimmed, case-folded, runs of spaces as one."""
    return " ".join(cell.split()).casefold()


def read_rows(text: str) -> list[_Row]:
    """The non-blank rows with the line each starts on; size limits and CSV syntax checked."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text), strict=True)
    rows: list[_Row] = []
    line = 1
    try:
        for cells in reader:
            if any(len(cell) > MAX_CELL_CHARS for cell in cells):
                raise PairingsRejected(
                    f"line {line}: a cell is longer than {MAX_CELL_CHARS} characters")
            if any(cell.strip() for cell in cells):
                rows.append((line, cells))
                if len(rows) > MAX_FILE_ROWS + 1:
                    raise PairingsRejected(f"line {line}: more than {MAX_FILE_ROWS} rows")
            line = reader.line_num + 1
    except csv.Error as exc:
        raise PairingsRejected(f"line {reader.line_num}: not a valid CSV file ({exc})") from exc
    return rows


def _delimiter(text: str) -> str:
    """The header line's separator: a comma, else a semicolon (Excel in many European
    languages), else a tab; a comma when the line has none of them."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    return next((d for d in (",", ";", "\t") if d in header), ",")


def _layout(line: int, header: Sequence[str], names: Sequence[str]) -> _Layout:
    """The round, table and player columns of the header, or the refusal naming what it
    needs and what it found."""
    tables = [i for i, name in enumerate(names) if name in _TABLE_HEADERS]
    players = [i for i, name in enumerate(names) if _is_player_header(name)]
    rounds = [i for i, name in enumerate(names) if name in _ROUND_HEADERS]
    if not tables or not players:
        found = ", ".join(repr(cell.strip()) for cell in header)
        raise PairingsRejected(f"line {line}: {HEADER_NEEDS}; found {found}")
    return _Layout(rounds[0] if rounds else None, tables[0], players)


def _is_player_header(name: str) -> bool:
    """``player``, ``opponent``, ``player N``, ``player #N`` or ``seat N`` (already folded)."""
    return name in _PLAYER_HEADERS or _NUMBERED_PLAYER.fullmatch(name) is not None


def _shape(names: Sequence[str], layout: _Layout) -> str:
    """Which program's export the header looks like (see the module docstring)."""
    present = set(names)
    if any(_MELEE_HEADER.fullmatch(name) for name in names):
        return "melee"
    if "opponent" in present and (layout.round is not None or "match results" in present):
        return "aetherhub"
    if layout.round is not None and present & {"winner", "status"}:
        return "topdeck"
    if layout.round is not None and "result" in present:
        return "endstep"
    return "csv"


def _round_of(line: int, cells: Sequence[str], column: int | None) -> int | None:
    """The row's round, None when the file has no round column."""
    return None if column is None else round_number(f"line {line}", _cell(cells, column))


def _pairing(line: int, cells: Sequence[str], layout: _Layout, points_labels: bool) -> Pairing:
    """One data row: its players (empty and BYE cells dropped) and its table, or a bye."""
    named = (_player_cell(_cell(cells, i), points_labels) for i in layout.players)
    seated = tuple(name for name in named if name and name.casefold() != _BYE)
    if not seated:
        raise PairingsRejected(f"line {line}: no players")
    if len(seated) == 1:
        return Pairing(table=None, players=seated)
    return Pairing(table=table_number(f"line {line}", _cell(cells, layout.table)),
                   players=seated)


def _player_cell(cell: str, points_labels: bool) -> str:
    """A player cell trimmed; AetherHub's "(6 Points)" removed when ``points_labels``."""
    if points_labels:
        cell = " ".join(_POINTS_LABEL.sub(" ", cell).split())
    return cell.strip()


def _cell(cells: Sequence[str], index: int) -> str:
    """The cell at ``index``, or empty when the row is shorter than the header."""
    return cells[index] if index < len(cells) else ""


def _read_kiroku(names: Sequence[str], data: Sequence[_Row], wanted: int | None) -> PairingsFile:
    """Kiroku's results.csv: one row per player, the players of a table grouped in row order."""
    if not data:
        raise PairingsRejected("the file has no pairings")
    column = {name: names.index(name) for name in set(names)}
    round_column = column.get("round")
    in_round = [(line, cells, _round_of(line, cells, round_column)) for line, cells in data]
    rounds = sorted({r for _, _, r in in_round if r is not None})
    chosen = choose_round(rounds, wanted)
    claims = Claims()
    groups: dict[int, tuple[str, list[str]]] = {}  # table -> (where first, players)
    order: list[tuple[str, int | None, list[str]]] = []  # (where, table, players), file order
    for line, cells, row_round in in_round:
        if round_column is not None and row_round != chosen:
            continue
        where = f"line {line}"
        player = _kiroku_player(where, cells, column)
        claims.player(where, player)
        table_cell = _cell(cells, column["table"])
        if not table_cell.strip():
            order.append((where, None, [player]))
            continue
        number = table_number(where, table_cell)
        if number not in groups:
            groups[number] = (where, [player])
            order.append((where, number, groups[number][1]))
        else:
            groups[number][1].append(player)
    pairings = []
    for where, table, players in order:
        if table is not None and len(players) < 2:
            raise PairingsRejected(
                f"{where}: table {table} has a single player ({players[0]!r}); a table seats"
                " two players or more")
        claims.count(where)
        pairings.append(Pairing(table, tuple(players)))
    return PairingsFile("kiroku", rounds, chosen, pairings)


def _kiroku_player(where: str, cells: Sequence[str], column: dict[str, int]) -> str:
    """The player of a results.csv row: its player_id, else external_id, else name."""
    for name in _KIROKU_PLAYERS:
        if name in column:
            player = check_name(where, _cell(cells, column[name]))
            if player:
                return player
    raise PairingsRejected(f"{where}: no player (player_id, external_id and name are empty)")
