"""The registry of games, keyed by game id (one Ruleset instance per game).

The games Kiroku ships are registered here. ``register`` adds another (a plug-in game, or a
test's toy game) to this process; ``unregister`` removes it again.
"""

from __future__ import annotations

from engine.core.contract import Ruleset
from engine.core.errors import ActionError
from engine.edge import Edge
from engine.grail import Grail
from engine.illuminati import Illuminati
from engine.kami import Kami
from engine.worldgainer import WorldGainer

SHIPPED: tuple[Ruleset, ...] = (Edge(), Grail(), Illuminati(), Kami(), WorldGainer())
_GAMES: dict[str, Ruleset] = {r.game_id: r for r in SHIPPED}


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


def register(ruleset: Ruleset) -> None:
    """Add a game to this process (its id must be new)."""
    if ruleset.game_id in _GAMES:
        raise ValueError(f"a game {ruleset.game_id!r} is registered already")
    _GAMES[ruleset.game_id] = ruleset


def unregister(game_id: str) -> None:
    """Remove a game added with ``register`` (the shipped games stay)."""
    if any(r.game_id == game_id for r in SHIPPED):
        raise ValueError(f"{game_id!r} is shipped with Kiroku and cannot be removed")
    _GAMES.pop(game_id, None)
