"""What the judge's console reads (replay.console): for every game, at every position of a
played match, what an adjustment may touch is answered (a counter that is not there now is
left out, never an error), and every place and counter it names is one ``adjust`` takes."""

from __future__ import annotations

import random

import pytest

from engine import games, get_game
from ledger.catalog import sample_decks
from replay import console
from replay.service import Kiroku

OPERATOR = {"id": "op", "name": "operator", "role": "organiser"}


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game", [g.game_id for g in games()])
def test_the_console_reads_what_may_be_touched_at_every_position(
        game: str, seed: int, memory_kiroku: Kiroku) -> None:
    # (seeds 1 and 2 take Kami no Kijutsu through battles, whose modifiers exist only then)
    rules = get_game(game)
    decks = sorted(sample_decks(game))[:2]
    match_id = memory_kiroku.new_match(game, ["Ann", "Ben"], decks, seed=bytes([seed]) * 32)
    rng = random.Random(seed)
    for _ in range(150):
        shown = console.adjustable(memory_kiroku, memory_kiroku.seen_by(match_id))
        assert shown["places"] and all(p["ref"] for p in shown["places"])
        known = {t.name for t in rules.tallies}
        assert {c["name"].split(":")[0] for c in shown["counters"]} <= known
        state = memory_kiroku.recorder.get_match(match_id).state
        if state.result is not None:
            break
        seat = rules.to_act(state)[0]
        action = rng.choice(list(rules.legal_actions(state, seat)))
        memory_kiroku.record(match_id, action.model_dump(mode="json"), recorded_by=OPERATOR)
