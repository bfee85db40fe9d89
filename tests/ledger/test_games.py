"""The ledger's side of every game: positions rebuilt from stored events, states through the
storage encoding, and a match recorded with undo, audited, exported and imported again."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import JUDGE, games
from engine.core.contract import Ruleset
from engine.registry import register, unregister
from ledger.catalog import Deck
from ledger.match import project
from ledger.transcoder import MsgpackTranscoder
from replay.service import Kiroku
from tests.support import PLAYOUT_OPTIONS, playout, sample_data
from tests.toygame import BlindBid

TOY = BlindBid()
LEDGER_GAMES = [*games(), TOY]  # every registered game, and the toy game of the guide


@pytest.fixture(scope="module", autouse=True)
def toy_registered() -> Iterator[None]:
    """The store finds games in the registry: the toy is registered for this module only."""
    register(TOY)
    try:
        yield
    finally:
        unregister(TOY.game_id)


@pytest.fixture(scope="module", params=LEDGER_GAMES, ids=lambda r: r.game_id)
def game(request: pytest.FixtureRequest) -> tuple[Ruleset, dict[str, Any]]:
    return request.param, playout(request.param, seed=3)


@pytest.fixture
def stores() -> Iterator[tuple[Kiroku, Kiroku]]:
    first, second = Kiroku.open("sqlite:///:memory:"), Kiroku.open("sqlite:///:memory:")
    yield first, second
    first.close()
    second.close()


def test_projection_of_a_live_line_equals_the_live_state(
        game: tuple[Ruleset, dict[str, Any]]) -> None:
    ruleset, log = game
    live = [(i + 2, i + 1, a["seat"], a, o) for i, (a, o) in enumerate(log["actions"])]
    state = project(log["config"].model_dump(), ruleset.game_id, log["setup"], live)
    assert ruleset.digest(state) == ruleset.digest(log["final"])


def test_states_survive_the_storage_encoding(game: tuple[Ruleset, dict[str, Any]]) -> None:
    ruleset, log = game
    transcoder = MsgpackTranscoder()
    for state in log["states"][::7]:
        back = transcoder.decode(transcoder.encode({"state": state}))["state"]
        assert ruleset.digest(back) == ruleset.digest(state)
        assert back == state


def test_a_match_is_recorded_undone_audited_exported_and_imported(
        game: tuple[Ruleset, dict[str, Any]], stores: tuple[Kiroku, Kiroku]) -> None:
    ruleset, _ = game
    kiroku, other = stores
    cards, decks = sample_data(ruleset)
    players = ruleset.min_players
    match_id = kiroku.new_match(
        ruleset.game_id, [f"P{i}" for i in range(1, players + 1)],
        [Deck(ruleset.game_id, "", "", decks[i % len(decks)]) for i in range(players)],
        cards=cards, options=PLAYOUT_OPTIONS.get(ruleset.game_id, {}), seed=b"\x07" * 32)
    rng = random.Random(5)
    for n in range(400):
        match = kiroku.recorder.get_match(match_id)
        if match.ended:
            break
        if n == 6:
            kiroku.undo(match_id, 2, reason="misrecorded", recorded_by="judge")
            continue
        seat = rng.choice(ruleset.to_act(match.state))
        action = rng.choice(ruleset.legal_actions(match.state, seat))
        kiroku.record(match_id, action.model_dump(mode="json"), recorded_by=f"P{seat}")
    report = kiroku.audit(match_id)
    assert report.ok, report.failure
    assert any("[undone]" in line for line in kiroku.transcript(kiroku.seen_by(match_id, JUDGE)))
    again = other.import_match(kiroku.export(kiroku.seen_by(match_id, JUDGE), "jsonl")).match_id
    assert other.audit(again).ok
    assert other.view(other.seen_by(again, JUDGE), None) == kiroku.view(
        kiroku.seen_by(match_id, JUDGE), None)
