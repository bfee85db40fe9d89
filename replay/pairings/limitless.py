"""Limitless TCG pairings: the JSON list its API answers for ``/tournaments/{id}/pairings``.

Each entry is one match: ``{"round": 1, "phase": 1, "table": 3, "player1": "ash",
"player2": "misty", "winner": "ash"}``; ``winner`` is a username, 0 for a tie, -1 for a bye or
no result; a bye has no ``player2`` (missing, or null); top-cut matches (phase 2) carry a
``match`` label such as "T8-1". Players are Limitless usernames, Kiroku's external ids.

Source: the field list and the bye as a missing ``player2`` as found in public Limitless API
clients (several TypeScript ones, one of which records seeing a live bye without ``player2``).
Unverified here: whether a later phase numbers its rounds from 1 again; a round number met in
two phases is refused rather than guessed at.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from replay.pairings.common import (
    MAX_FILE_ROWS,
    MAX_ROUND,
    MAX_TABLE,
    Claims,
    Pairing,
    PairingsFile,
    PairingsRejected,
    check_name,
    choose_round,
)

SHAPE = ('a JSON list of matches ({"round": 1, "table": 1, "player1": "...", "player2":'
         ' "..."}), as Limitless answers /tournaments/{id}/pairings')


def read_limitless(text: str, wanted: int | None) -> PairingsFile:
    """The pairings of round ``wanted`` (or the latest) of a Limitless pairings list."""
    entries = _entries(text)
    rounds: dict[int, set[int]] = {}  # round -> phases
    numbered: list[tuple[str, int, Mapping[str, object]]] = []
    for index, entry in enumerate(entries, 1):
        where = f"entry {index}"
        if not isinstance(entry, dict):
            raise PairingsRejected(f"{where}: not a match object; the file should be {SHAPE}")
        number = _integer(where, entry.get("round"), "round", MAX_ROUND)
        phase = _integer(where, entry.get("phase", 1), "phase", MAX_ROUND)
        rounds.setdefault(number, set()).add(phase)
        numbered.append((where, number, entry))
    _check_phases(rounds)
    chosen = choose_round(sorted(rounds), wanted)
    claims = Claims("matches")
    pairings = [claims.pairing(where, _pairing(where, entry))
                for where, number, entry in numbered if number == chosen]
    return PairingsFile("limitless", sorted(rounds), chosen, pairings)


def _entries(text: str) -> list[object]:
    """The JSON list of the file, or the refusal saying what it is instead."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise PairingsRejected(f"not a valid JSON file ({exc})") from None
    if not isinstance(data, list):
        raise PairingsRejected(f"a JSON file, but not Limitless pairings: it should be {SHAPE}")
    if not data:
        raise PairingsRejected("the file has no pairings")
    if len(data) > MAX_FILE_ROWS:
        raise PairingsRejected(f"the file holds more than {MAX_FILE_ROWS} matches")
    return data


def _no_constant(name: str) -> object:
    """JSON's NaN and Infinity are not JSON; refused."""
    raise ValueError(f"{name} is not a JSON value")


def _integer(where: str, value: object, what: str, limit: int) -> int:
    """A whole number 1..``limit`` (a JSON number, not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PairingsRejected(f"{where}: {what} {value!r} is not a whole number")
    if not 1 <= value <= limit:
        raise PairingsRejected(f"{where}: {what} {value} is not between 1 and {limit}")
    return value


def _check_phases(rounds: Mapping[int, set[int]]) -> None:
    """No round number used by two phases (Kiroku could not tell those rounds apart)."""
    for number, phases in sorted(rounds.items()):
        if len(phases) > 1:
            first, second = sorted(phases)[:2]
            raise PairingsRejected(
                f"round {number} appears in phases {first} and {second}; Kiroku cannot tell"
                " those rounds apart")


def _pairing(where: str, entry: Mapping[str, object]) -> Pairing:
    """One match: two players at a table, or a bye (no ``player2``)."""
    first = _player(where, entry.get("player1"), "player1")
    second_value = entry.get("player2")
    if second_value is None or second_value == "":
        return Pairing(None, (first,))
    second = _player(where, second_value, "player2")
    table = entry.get("table")
    if table is None:
        raise PairingsRejected(
            f"{where}: the match of {first!r} and {second!r} has no table number")
    return Pairing(_integer(where, table, "table", MAX_TABLE), (first, second))


def _player(where: str, value: object, what: str) -> str:
    """A player's username: a non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise PairingsRejected(f"{where}: {what} {value!r} is not a player's username")
    return check_name(where, value)
