"""A match's standing in plain words, for people at a table: a seat by its number and player,
the result, the score, a card by its name. What ``kiroku match act`` and ``match undo``
print after recording, without rich's boards (``cli.render``), which those commands do not
import (issue 43: a scorekeeper's recorded action within 0.3 s)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_INSTANCE = re.compile(r"^(?P<card>[^@\s]+)(?:@[\d.]+)?$")


def card_label(value: str, names: Mapping[str, str]) -> str:
    """``Name [id]`` for a card id or instance id (``id@n``) the names know, else the text."""
    found = _INSTANCE.match(value)
    if found and found.group("card") in names:
        return f"{names[found.group('card')]} [{value}]"
    return value


def seat_name(players: Sequence[Any], seat: int | None) -> str:
    """``seat 2 (Ben)`` from a view's or a summary's players."""
    if seat is None:
        return "nobody"
    for entry in players:
        if isinstance(entry, Mapping) and entry.get("seat") == seat:
            return f"seat {seat} ({entry.get('name')})"
        if isinstance(entry, str) and players.index(entry) + 1 == seat:
            return f"seat {seat} ({entry})"
    return f"seat {seat}"


def result_text(result: Mapping[str, Any] | None, players: Sequence[Any]) -> str | None:
    """The result in words, or None while the match is on."""
    if not result:
        return None
    why = f"{result.get('reason')}" + (f": {result['detail']}" if result.get("detail") else "")
    if result.get("drawn"):
        return f"Drawn ({why})"
    winners = " and ".join(seat_name(players, s) for s in result.get("winners", []))
    return f"{winners} won ({why})"


def scores_text(scores: Mapping[str, Any] | None, players: Sequence[Any]) -> str | None:
    """``Score: seat 1 (Ann) 3 · seat 2 (Ben) 5``, or None for a game without a score."""
    if not scores:
        return None
    parts = [f"{seat_name(players, int(seat))} {value}" for seat, value in scores.items()]
    return "Score: " + " · ".join(parts)
