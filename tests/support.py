"""Helpers shared by the game test suites: a seeded chance and apply-with-checks."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

import pytest

from engine.core.chance import Chance, NoChance, Outcome
from engine.core.contract import GameState, Ruleset
from engine.core.errors import IllegalAction


class RandomChance(Chance):
    """Test-only chance from a seeded Python generator."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def _pick(self, request: Outcome, options: Any) -> Any:
        return options[self.rng.randrange(len(options))]


def apply_checked(rules: Ruleset, state: GameState, action: Mapping[str, Any],
                  chance: Chance | None = None) -> GameState:
    """Apply a legal action; also check that ``state`` itself was not changed."""
    before = rules.state_to_data(state)
    new = rules.apply(state, dict(action), chance if chance is not None else NoChance())
    assert rules.state_to_data(state) == before, "apply() changed its input state"
    return new


def refused_checked(rules: Ruleset, state: GameState, action: Mapping[str, Any], reason: str,
                    chance: Chance | None = None) -> IllegalAction:
    """Assert ``action`` is refused with ``reason`` and the state is left exactly as it was."""
    before = copy.deepcopy(rules.state_to_data(state))
    with pytest.raises(IllegalAction) as info:
        rules.apply(state, dict(action), chance if chance is not None else NoChance())
    assert info.value.reason == reason, info.value.message
    assert rules.state_to_data(state) == before, "a refused action changed the state"
    return info.value
