"""The registry of games, keyed by game id (one Ruleset instance per game).

The games Kiroku ships are named here, each by the module and class of its ruleset, and each is
imported the first time it is asked for: a command or a worker that meets one game does not
import the other four (two thirds of importing the engine). ``register`` adds another game (a
plug-in game, or a test's toy game) to this process; ``unregister`` removes it again.
"""

from __future__ import annotations

import threading
from importlib import import_module

from engine.core.contract import Ruleset
from engine.core.errors import ActionError
from engine.core.reasons import KernelReason as R

# game id -> "module:class" of its ruleset
SHIPPED: dict[str, str] = {
    "edge": "engine.edge:Edge",
    "grail": "engine.grail:Grail",
    "illuminati": "engine.illuminati:Illuminati",
    "kami": "engine.kami:Kami",
    "worldgainer": "engine.worldgainer:WorldGainer",
}
_GAMES: dict[str, Ruleset] = {}  # the shipped games imported so far, and those registered
_loading = threading.Lock()


def get_game(game_id: str) -> Ruleset:
    """The ruleset for ``game_id``, or an ActionError naming the known games."""
    try:
        return _GAMES[game_id]
    except KeyError:
        pass
    if game_id not in SHIPPED:
        raise ActionError(R.UNKNOWN_GAME, f"Unknown game {game_id!r}; known games: "
                          f"{', '.join(sorted({*SHIPPED, *_GAMES}))}.")
    return _shipped(game_id)


def _shipped(game_id: str) -> Ruleset:
    """A shipped game's one ruleset, its module imported the first time it is asked for."""
    with _loading:  # two threads asking at once get the same instance
        if game_id not in _GAMES:
            module, name = SHIPPED[game_id].split(":")
            ruleset: Ruleset = getattr(import_module(module), name)()
            assert ruleset.game_id == game_id, SHIPPED[game_id]
            _GAMES[game_id] = ruleset
        return _GAMES[game_id]


def games() -> list[Ruleset]:
    """Every game, shipped or registered, sorted by id."""
    return [get_game(k) for k in sorted({*SHIPPED, *_GAMES})]


def register(ruleset: Ruleset) -> None:
    """Add a game to this process (its id must be new)."""
    if ruleset.game_id in _GAMES or ruleset.game_id in SHIPPED:
        raise ValueError(f"a game {ruleset.game_id!r} is registered already")
    _GAMES[ruleset.game_id] = ruleset


def unregister(game_id: str) -> None:
    """Remove a game added with ``register`` (the shipped games stay)."""
    if game_id in SHIPPED:
        raise ValueError(f"{game_id!r} is shipped with Kiroku and cannot be removed")
    _GAMES.pop(game_id, None)
