"""The registry of games, keyed by game id (one Ruleset instance per game)."""

from __future__ import annotations

from engine.core.contract import Ruleset
from engine.core.errors import ActionError
from engine.illuminati import Illuminati
from engine.worldgainer import WorldGainer

_GAMES: dict[str, Ruleset] = {r.game_id: r for r in (Illuminati(), WorldGainer())}


def get_game(game_id: str) -> Ruleset:
    """The ruleset for ``game_id``, or an ActionError naming the known games."""
    try:
        return _GAMES[game_id]
    except KeyError:
        raise ActionError("unknown_game", f"Unknown game {game_id!r}; known games: "
                          f"{', '.join(sorted(_GAMES))}.") from None


def games() -> list[Ruleset]:
    """Every registered game, sorted by id."""
    return [_GAMES[k] for k in sorted(_GAMES)]
