"""What every reader of a pairings file shares: the pairing, the file read, the refusal, the
limits, the choice of a round and the checks of one round (a table or a player used twice)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

MAX_PAIRINGS_BYTES = 1024 * 1024  # counted in characters of the decoded text
MAX_PAIRINGS_ROWS = 5000  # rows (or matches) of the round read
MAX_FILE_ROWS = 50000  # rows (or matches) of the whole file, every round
MAX_CELL_CHARS = 200
MAX_TABLE = 10000
MAX_ROUND = 1000

_DIGITS = re.compile(r"[0-9]+")


class PairingsRejected(ValueError):
    """The pairings file cannot be read; the message says where and why."""


@dataclass(frozen=True)
class Pairing:
    """One row of the pairings: a table and its players, or a bye (``table`` None)."""

    table: int | None  # None: a bye
    players: tuple[str, ...]  # the cells as written (external ids or display names), seat order


@dataclass(frozen=True)
class PairingsFile:
    """A pairings file read: its shape, the rounds it holds, the round read and its pairings.

    ``rounds`` is empty when the file does not number its rounds (a one-round export); ``round``
    is then the round the caller asked for, or None. ``unseated`` lists the players the round
    names without a table or a bye (a TOM late entrant's loss, outcome 8), in file order.
    """

    format: str  # "melee", "topdeck", "aetherhub", "endstep", "tom", "limitless", "kiroku", "csv"
    rounds: list[int]
    round: int | None
    pairings: list[Pairing]
    unseated: list[str] = field(default_factory=list)


def choose_round(rounds: Sequence[int], wanted: int | None) -> int | None:
    """The round to read: ``wanted`` if the file holds it, else the latest; the caller's own
    ``wanted`` when the file numbers no rounds."""
    if wanted is not None and (isinstance(wanted, bool) or wanted < 1):
        raise PairingsRejected(f"round {wanted!r} is not a round number (rounds count from 1)")
    if not rounds:
        return wanted
    if wanted is None:
        return max(rounds)
    if wanted not in rounds:
        held = ", ".join(str(r) for r in sorted(set(rounds)))
        noun = "rounds" if len(set(rounds)) > 1 else "round"
        raise PairingsRejected(f"the file holds {noun} {held}; round {wanted} is not among them")
    return wanted


def round_number(where: str, text: str) -> int:
    """A round cell: an integer 1..MAX_ROUND."""
    return _numbered(where, text, "round", MAX_ROUND)


def table_number(where: str, text: str) -> int:
    """The table number of a table with two players or more: an integer 1..MAX_TABLE."""
    return _numbered(where, text, "table", MAX_TABLE)


def _numbered(where: str, text: str, what: str, most: int) -> int:
    """A ``what`` cell's number, 1..``most``, or the refusal saying what is wrong with it."""
    text = text.strip()
    if not text:
        raise PairingsRejected(f"{where}: no {what} number")
    if _DIGITS.fullmatch(text) is None:
        raise PairingsRejected(f"{where}: {what} {text!r} is not a number")
    number = int(text)
    if not 1 <= number <= most:
        raise PairingsRejected(f"{where}: {what} {number} is not between 1 and {most}")
    return number


def check_name(where: str, name: str) -> str:
    """A player as the file names them: trimmed, at most MAX_CELL_CHARS characters."""
    name = name.strip()
    if len(name) > MAX_CELL_CHARS:
        raise PairingsRejected(f"{where}: a cell is longer than {MAX_CELL_CHARS} characters")
    return name


class Claims:
    """The tables and players of one round claimed so far, and how many pairings it holds.

    ``where`` strings name a place in the file ("line 3", "match 2 of round 1", "entry 5"); a
    refusal names the place of the second use and that of the first.
    """

    def __init__(self, noun: str = "rows") -> None:
        self._noun = noun
        self._tables: dict[int, str] = {}  # table -> where
        self._players: dict[str, str] = {}  # folded player -> where
        self._count = 0

    def count(self, where: str) -> None:
        """One more pairing in the round; at most MAX_PAIRINGS_ROWS."""
        self._count += 1
        if self._count > MAX_PAIRINGS_ROWS:
            raise PairingsRejected(
                f"{where}: more than {MAX_PAIRINGS_ROWS} {self._noun} of pairings")

    def table(self, where: str, table: int | None) -> None:
        """Record a table number, rejecting one already used this round (byes have none)."""
        if table is None:
            return
        if table in self._tables:
            raise PairingsRejected(f"{where}: table {table} is already on {self._tables[table]}")
        self._tables[table] = where

    def player(self, where: str, player: str) -> None:
        """Record a player (case-insensitively), rejecting one already paired this round."""
        key = player.casefold()
        if key in self._players:
            first = self._players[key]
            there = "this " + where.split(" ", 1)[0] if first == where else first
            raise PairingsRejected(f"{where}: player {player!r} is already paired on {there}")
        self._players[key] = where

    def pairing(self, where: str, pairing: Pairing) -> Pairing:
        """Count and claim a whole pairing: its table and each of its players."""
        self.count(where)
        self.table(where, pairing.table)
        for player in pairing.players:
            self.player(where, player)
        return pairing
