"""An append starts from this process's cached match without reading the store first; when
another process (a second server or worker on the same database) appended since, the
store's uniqueness of (match, version) refuses the stale save, and the command runs again on
the match read afresh (ledger.recorder.Recorder._append). On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from engine.core.errors import IllegalAction
from ledger.errors import ConcurrentAppend
from replay.service import Kiroku


def _end_turn(kiroku: Kiroku, match_id: UUID, seat: int, **kwargs: Any) -> Any:
    return kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="test",
                         **kwargs)


def _version(kiroku: Kiroku, match_id: UUID) -> int:
    return len(kiroku.records(kiroku.seen_by(match_id)))


def test_an_action_on_a_cached_match_reads_none_of_its_events(
        servers: tuple[Kiroku, Kiroku, UUID], store_reads: Callable[[Kiroku], list[UUID]]) -> None:
    first, _, match_id = servers
    _end_turn(first, match_id, 1)  # cached by its save
    reads = store_reads(first)
    _end_turn(first, match_id, 2)
    assert match_id not in reads


def test_a_server_behind_another_records_after_it(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    _end_turn(first, match_id, 1)
    # the second server's cached match still has seat 1 to play: seat 2's turn is refused
    # there, and legal in the match as stored
    done = _end_turn(second, match_id, 2)
    assert done.version == 3 and done.seq == 2
    records = first.records(first.seen_by(match_id))
    assert [r.get("seq") for r in records[1:]] == [1, 2]
    assert first.audit(match_id).ok
    assert second.recorder.get_match(match_id).version == 3


def test_both_servers_take_turns_on_one_match(servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    for turn in range(6):
        _end_turn((first, second)[turn % 2], match_id, turn % 2 + 1)
    assert _version(first, match_id) == 7
    assert first.audit(match_id).ok


def test_a_refusal_on_a_stale_match_is_the_refusal_of_the_match_as_stored(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    _end_turn(first, match_id, 1)
    _end_turn(first, match_id, 2)
    # seat 2 ending seat 1's turn: refused here as cached (v1) and as stored (v3) alike
    with pytest.raises(IllegalAction) as refused:
        _end_turn(second, match_id, 2)
    assert refused.value.reason == "not_your_turn"
    assert _version(first, match_id) == 3


def test_the_expected_version_is_the_stored_one(servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    _end_turn(first, match_id, 1)
    with pytest.raises(ConcurrentAppend):
        _end_turn(second, match_id, 2, expected_version=1)  # what the cache says
    assert _version(first, match_id) == 2
    assert _end_turn(second, match_id, 2, expected_version=2).version == 3


def test_a_match_that_ended_elsewhere_is_over(servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    first.record(match_id, {"type": "concede", "seat": 1}, recorded_by="Ann")
    stored = _version(first, match_id)
    with pytest.raises(IllegalAction) as refused:
        _end_turn(second, match_id, 1)
    assert refused.value.reason == "match_over"
    assert _version(first, match_id) == stored


def test_an_undo_behind_another_server_voids_what_is_stored(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    _end_turn(first, match_id, 1)
    _end_turn(first, match_id, 2)
    done = second.recorder.undo(match_id, reason="misplay", recorded_by="judge",
                                to_position=1)
    assert done.version == 4
    assert first.records(first.seen_by(match_id))[-1]["seqs"] == [2]
    assert first.audit(match_id).ok


def test_an_action_legal_on_both_lost_to_one_event_is_recorded_after_it(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    _end_turn(first, match_id, 1)  # one event: v2
    # conceding is legal on the cached match too: its save meets v2 taken, and it runs again
    done = second.record(match_id, {"type": "concede", "seat": 2}, recorded_by="Ben")
    records = first.records(first.seen_by(match_id))
    assert [r["event"] for r in records[1:]] == ["ActionRecorded", "ActionRecorded",
                                                "MatchEnded", "SeedRevealed"]
    assert done.version == 5 and records[2]["action"]["type"] == "concede"
    assert first.audit(match_id).ok


def test_an_undo_to_where_the_cached_match_stands_voids_what_was_appended_since(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    _end_turn(first, match_id, 1)
    # as cached here the match stands at position 0 already: nothing to undo, but it has moved
    done = second.recorder.undo(match_id, None, reason="misplay", recorded_by="judge",
                                to_position=0)
    assert done.version == 3
    assert first.records(first.seen_by(match_id))[-1]["event"] == "ActionsUndone"
    assert first.summary(first.seen_by(match_id))["positions"] == 0
