"""Helpers shared by the game test suites: a seeded chance and apply-with-checks."""

from __future__ import annotations

import copy
import inspect
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.core.chance import Chance, NoChance, Outcome
from engine.core.contract import GameState, MatchConfig, Ruleset
from engine.core.data import to_data
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


def sample_data(ruleset: Ruleset) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """A game's sample card set and ready decks, read from the ``data`` folder beside its
    package (``sample_set.json``, ``decks/*.json``) without the ledger's catalogue."""
    folder = Path(inspect.getfile(type(ruleset))).parent / "data"
    card_set = json.loads((folder / "sample_set.json").read_text("utf-8"))
    cards = {c["id"]: c for c in card_set["cards"]}
    decks = [json.loads(p.read_text("utf-8")) for p in sorted((folder / "decks").glob("*.json"))]
    return cards, [dict(d["cards"]) for d in decks]


def sample_config(ruleset: Ruleset, players: int,
                  options: Mapping[str, Any] | None = None) -> MatchConfig:
    """A match of ``players`` on the game's sample decks (seat n plays deck n, cycling), with the
    options a match created now gets."""
    cards, decks = sample_data(ruleset)
    return MatchConfig(players=[f"P{i}" for i in range(1, players + 1)],
                       decks=[decks[i % len(decks)] for i in range(players)], cards=cards,
                       options=ruleset.new_match_options(options or {}))


# Random play rarely builds a winning structure in Illuminati: time is called instead.
PLAYOUT_OPTIONS: dict[str, dict[str, Any]] = {"illuminati": {"turn_limit": 12},
                                              "kami": {"turn_limit": 40},
                                              "grail": {"turn_limit": 30,
                                                        "max_combat_rounds": 20},
                                              "edge": {"turn_limit": 30}}
MAX_ACTIONS = 5_000


def playout(ruleset: Ruleset, seed: int, players: int | None = None) -> dict[str, Any]:
    """One random legal playout, keeping what a recorder would store: the config, the setup
    outcomes, each (action, outcomes) and every state; it checks that apply never changes its
    input and that the seat the game waits on always has a legal action."""
    rng = random.Random(seed)
    config = sample_config(ruleset, players or ruleset.min_players,
                           PLAYOUT_OPTIONS.get(ruleset.game_id, {}))
    chance = RandomChance(rng)
    state = ruleset.setup(config, chance)
    log: dict[str, Any] = {"config": config, "setup": chance.outcomes, "actions": [],
                           "states": [state]}
    for _ in range(MAX_ACTIONS):
        if ruleset.outcome(state) is not None:
            break
        seat = rng.choice(ruleset.to_act(state))
        legal = ruleset.legal_actions(state, seat)
        assert legal, f"seat {seat} has no legal action in a live match"
        action = rng.choice(legal)
        chance = RandomChance(rng)
        frozen = copy.deepcopy(state)
        new = ruleset.apply(state, action, chance)
        assert to_data(state) == to_data(frozen), "apply mutated its input"
        log["actions"].append((action.model_dump(mode="json"), chance.outcomes))
        log["states"].append(new)
        state = new
    log["final"] = state
    return log
