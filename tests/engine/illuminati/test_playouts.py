"""Random legal playouts with 3 to 6 players (the shared conformance suite plays 2): every one
ends, and replaying its stored outcomes gives the same digest at every step."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.core.chance import ReplayChance
from tests.engine.test_conformance import playout

RULES = get_game("illuminati")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_multiplayer_playouts_end_and_replay_digest_for_digest(players: int) -> None:
    for seed in range(2):
        log = playout(RULES, 100 * players + seed, players)
        final = log["final"]
        assert final.result is not None
        assert final.result.reason in ("turn_limit", "victory", "last_player_standing")
        assert len(log["actions"]) > players * 10
        windows = sum(len(RULES.to_act(s)) > 1 for s in log["states"])
        assert windows > 0, "no attack opened a support window to several seats"
        chance = ReplayChance(log["setup"])
        state = RULES.setup(log["config"], chance)
        chance.finish()
        for i, (action, outcomes) in enumerate(log["actions"], start=1):
            chance = ReplayChance(outcomes)
            state = RULES.apply(state, action, chance)
            chance.finish()
            assert RULES.digest(state) == RULES.digest(log["states"][i])
