"""Kiroku's rules engines: pure functions of state, action and chance (no I/O, clock or RNG)."""

from engine.core.chance import Chance, ChanceError, ReplayChance, SuppliedChance
from engine.core.contract import Action, GameState, MatchConfig, MatchResult, Ruleset
from engine.core.errors import ActionError, IllegalAction, MalformedAction, SetupError
from engine.core.viewer import JUDGE, SPECTATOR, Viewer
from engine.registry import games, get_game

__all__ = ["JUDGE", "SPECTATOR", "Action", "ActionError", "Chance", "ChanceError", "GameState",
           "IllegalAction", "MalformedAction", "MatchConfig", "MatchResult", "ReplayChance",
           "Ruleset", "SetupError", "SuppliedChance", "Viewer", "games", "get_game"]
