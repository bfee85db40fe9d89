"""Undo back to a position (issue 9): idempotent and race-free, unlike "undo the last N"."""

from __future__ import annotations

import threading
from uuid import UUID

import pytest

from engine.core.errors import ActionError, IllegalAction
from engine.registry import get_game
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]


def _match(kiroku: Kiroku, actions: int) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["A", "B"], DECKS, options={"first_player": 1},
                                seed=b"\x01" * 32)
    for _ in range(actions):
        _act(kiroku, match_id)
    return match_id


def _act(kiroku: Kiroku, match_id: UUID) -> None:
    """One legal action, chosen from a single read of the match (another thread may undo
    between two reads)."""
    match = kiroku.recorder.get_match(match_id)
    action = get_game(match.game).legal_actions(match.state, match.state.active)[-1]
    kiroku.record(match_id, action.model_dump(mode="json"), recorded_by="judge")


def _live_seqs(kiroku: Kiroku, match_id: UUID) -> list[int]:
    return [seq for _, seq, *_ in kiroku.recorder.get_match(match_id).live]


def test_undo_to_a_position_voids_every_later_action(memory_kiroku: Kiroku) -> None:
    match_id = _match(memory_kiroku, 5)
    memory_kiroku.undo(match_id, None, to_position=2, reason="backup", recorded_by="judge")
    assert _live_seqs(memory_kiroku, match_id) == [1, 2]


def test_undo_to_where_the_match_stands_appends_nothing(memory_kiroku: Kiroku) -> None:
    match_id = _match(memory_kiroku, 3)
    memory_kiroku.undo(match_id, None, to_position=1, reason="backup", recorded_by="judge")
    version = memory_kiroku.recorder.get_match(match_id).version
    again = memory_kiroku.undo(match_id, None, to_position=1, reason="backup",
                               recorded_by="judge")
    assert again.version == version == memory_kiroku.recorder.get_match(match_id).version


def test_undo_to_a_position_past_the_end_is_refused(memory_kiroku: Kiroku) -> None:
    match_id = _match(memory_kiroku, 2)
    with pytest.raises(IllegalAction) as refused:
        memory_kiroku.undo(match_id, None, to_position=3, reason="x", recorded_by="judge")
    assert refused.value.reason == "undo_out_of_range"


def test_racing_undos_to_one_position_void_it_once(kiroku: Kiroku) -> None:
    for _ in range(10):
        match_id = _match(kiroku, 4)
        barrier = threading.Barrier(2)

        def undo(match_id: UUID = match_id, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            kiroku.undo(match_id, None, to_position=2, reason="backup", recorded_by="judge")

        threads = [threading.Thread(target=undo) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert _live_seqs(kiroku, match_id) == [1, 2]
        undone = [r for r in kiroku.records(kiroku.seen_by(match_id))
                  if r["event"] == "ActionsUndone"]
        assert len(undone) == 1


def test_an_undo_racing_an_action_never_voids_an_earlier_one(kiroku: Kiroku) -> None:
    for _ in range(10):
        match_id = _match(kiroku, 4)
        barrier = threading.Barrier(2)

        def undo(match_id: UUID = match_id, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            kiroku.undo(match_id, None, to_position=3, reason="backup", recorded_by="judge")

        def act(match_id: UUID = match_id, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                _act(kiroku, match_id)
            except ActionError:
                pass  # chosen at the old position, refused after the undo: nothing stored

        threads = [threading.Thread(target=undo), threading.Thread(target=act)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert _live_seqs(kiroku, match_id)[:3] == [1, 2, 3]
