"""A players file: the registration list an organiser keeps in a spreadsheet or exports from a
pairing program (Melee's and EventLink's player lists, TOM's player export saved as CSV).

The header names the player: a ``Name``, ``Player``, ``Player Name``, ``Display Name`` or
``Full Name`` column, or ``First Name`` and ``Last Name`` columns joined by a space; and
optionally their number in the pairing program: ``External ID``, ``ID``, ``Player ID``,
``Player Number``, ``DCI``, ``DCI Number``, ``Pokemon ID``, ``Play! Pokémon ID``, ``POP ID``,
``Member ID``, ``Konami ID``, ``Bandai ID`` or ``Wizards Account`` (compared case-insensitively,
trimmed). Other columns (decklist, email, country) are ignored. Decoded as every pairings file
is (UTF-8, UTF-16 with its mark, Windows-1252), separated by commas, semicolons or tabs.
Pure: the given bytes in, the players out, or ``PairingsRejected`` naming the line and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay.pairings.common import PairingsRejected
from replay.pairings.csv_files import read_rows
from replay.pairings.text import decode

MAX_PLAYERS = 5000
NAME_LIMIT = 80
ID_LIMIT = 64

_NAMES = ("name", "player", "player name", "display name", "full name")
_FIRST, _LAST = ("first name", "firstname", "given name"), ("last name", "lastname", "surname",
                                                          "family name")
_IDS = ("external id", "id", "player id", "player number", "dci", "dci number", "pokemon id",
        "pokémon id", "play! pokémon id", "play! pokemon id", "pop id", "member id",
        "konami id", "bandai id", "wizards account")
NEEDS = ("the header needs a name column (Name, Player, Player Name, Display Name, Full Name, "
         "or First Name and Last Name) and may have an id column (External ID, ID, Player ID, "
         "DCI, Pokemon ID, Member ID, ...)")


@dataclass(frozen=True)
class PlayerEntry:
    """One player of the file: the display name, and the pairing program's number if given."""

    name: str
    external_id: str | None


def read_players(data: bytes) -> list[PlayerEntry]:
    """The players of a players file in file order; ``PairingsRejected`` when it cannot be
    read, when a row has no name, or when a name or an id is given twice."""
    rows = read_rows(decode(data))
    if not rows:
        raise PairingsRejected("the file has no players")
    (line, header), data_rows = rows[0], rows[1:]
    columns = _columns(line, header)
    if not data_rows:
        raise PairingsRejected("the file has a header and no players")
    if len(data_rows) > MAX_PLAYERS:
        raise PairingsRejected(f"the file lists more than {MAX_PLAYERS} players")
    players = [_entry(line, cells, columns) for line, cells in data_rows]
    _once(data_rows, players)
    return players


@dataclass(frozen=True)
class _Columns:
    names: tuple[int, ...]  # one name column, or first and last
    external_id: int | None


def _columns(line: int, header: list[str]) -> _Columns:
    folded = [" ".join(cell.strip().casefold().split()) for cell in header]

    def first(options: tuple[str, ...]) -> int | None:
        return next((i for i, name in enumerate(folded) if name in options), None)

    name, given, family, number = first(_NAMES), first(_FIRST), first(_LAST), first(_IDS)
    if name is not None:
        return _Columns((name,), number)
    if given is not None and family is not None:
        return _Columns((given, family), number)
    found = ", ".join(repr(cell.strip()) for cell in header)
    raise PairingsRejected(f"line {line}: {NEEDS}; found {found}")


def _entry(line: int, cells: list[str], columns: _Columns) -> PlayerEntry:
    name = " ".join(_cell(cells, i) for i in columns.names if _cell(cells, i))
    if not name:
        raise PairingsRejected(f"line {line}: no name")
    if len(name) > NAME_LIMIT or not name.isprintable():
        raise PairingsRejected(f"line {line}: a name is 1 to {NAME_LIMIT} printable characters")
    number = _cell(cells, columns.external_id) if columns.external_id is not None else ""
    if len(number) > ID_LIMIT or not number.isprintable():
        raise PairingsRejected(f"line {line}: an id is at most {ID_LIMIT} printable characters")
    return PlayerEntry(name, number or None)


def _cell(cells: list[str], index: int) -> str:
    return cells[index].strip() if index < len(cells) else ""


def _once(rows: list[tuple[int, list[str]]], players: list[PlayerEntry]) -> None:
    """No id twice; no name twice among players without an id (they are told apart by it)."""
    seen: dict[str, int] = {}
    for (line, _), player in zip(rows, players, strict=True):
        key = f"id:{player.external_id}" if player.external_id else \
            f"name:{player.name.casefold()}"
        if key in seen:
            what = f"id {player.external_id!r}" if player.external_id else \
                f"the name {player.name!r} (without an id)"
            raise PairingsRejected(f"line {line}: {what} is already on line {seen[key]}")
        seen[key] = line
