"""The ledger on a real event store, run once on SQLite and once on PostgreSQL."""

from __future__ import annotations

import hashlib
import threading
from typing import Any
from uuid import UUID

import pytest

from engine.core.errors import IllegalAction, MalformedAction, SetupError
from ledger.errors import ConcurrentAppend, MatchNotFound
from ledger.match import Match
from ledger.recorder import SNAPSHOT_INTERVAL, Recorder
from ledger.transcoder import MsgpackTranscoder
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]


def new_match(kiroku: Kiroku, **options: Any) -> UUID:
    return kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS,
                            options={"first_player": 1, **options})


def end_turn(kiroku: Kiroku, match_id: UUID) -> Any:
    seat = kiroku.recorder.get_match(match_id).state.active
    return kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="test")


def event_names(kiroku: Kiroku, match_id: UUID) -> list[str]:
    return [r["event"] for r in kiroku.records(kiroku.seen_by(match_id))]


def test_a_new_match_publishes_only_the_seed_commitment(kiroku: Kiroku) -> None:
    match_id = new_match(kiroku)
    created = kiroku.records(kiroku.seen_by(match_id))[0]
    assert created["event"] == "MatchCreated"
    assert created["game"] == "worldgainer" and created["ruleset_version"] == "1.0"
    assert created["config"]["players"] == ["Ann", "Ben"]
    assert len(created["commitment"]) == 64
    assert kiroku.summary(kiroku.seen_by(match_id))["seed"] is None
    assert "seed" not in created


def test_a_legal_action_is_stored_with_its_digest(kiroku: Kiroku) -> None:
    match_id = new_match(kiroku)
    done = end_turn(kiroku, match_id)
    record = kiroku.records(kiroku.seen_by(match_id))[-1]
    assert record["event"] == "ActionRecorded"
    assert record["seq"] == 1 and record["seat"] == 1 and record["digest"] == done.digest
    assert record["outcomes"][0]["kind"] == "draw" and record["outcomes"][0]["seat"] == 2
    assert record["prev_hash"] == kiroku.records(kiroku.seen_by(match_id))[0]["hash"]


def test_an_illegal_action_stores_nothing(kiroku: Kiroku) -> None:
    match_id = new_match(kiroku)
    with pytest.raises(IllegalAction) as info:
        kiroku.record(match_id, {"type": "end_turn", "seat": 2}, recorded_by="test")
    assert info.value.reason == "not_your_turn"
    with pytest.raises(MalformedAction):
        kiroku.record(match_id, {"type": "end_turn"}, recorded_by="test")
    assert event_names(kiroku, match_id) == ["MatchCreated"]
    assert kiroku.summary(kiroku.seen_by(match_id))["version"] == 1


def test_a_bad_deck_creates_no_match(kiroku: Kiroku) -> None:
    with pytest.raises(SetupError) as info:
        kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS[:1] * 2, options={},
                         cards={"X": {"name": "x", "colour": "red", "cost": 1, "stun": 1}})
    assert info.value.reason == "unknown_card"
    assert kiroku.list_matches() == []


def test_undo_appends_an_event_and_the_projection_skips_void_actions(kiroku: Kiroku) -> None:
    match_id = new_match(kiroku)
    first = end_turn(kiroku, match_id)
    end_turn(kiroku, match_id)
    undone = kiroku.undo(match_id, 1, reason="wrong player ended", recorded_by="judge")
    assert undone.digest == first.digest
    assert event_names(kiroku, match_id) == ["MatchCreated", "ActionRecorded", "ActionRecorded",
                                             "ActionsUndone"]
    summary = kiroku.summary(kiroku.seen_by(match_id))
    assert summary["positions"] == 1 and summary["active"] == 2
    assert kiroku.records(kiroku.seen_by(match_id))[-1]["seqs"] == [2]


def test_undo_cannot_reroll_chance(kiroku: Kiroku) -> None:
    """C1: recording the same action again after an undo gives the same draw."""
    match_id = new_match(kiroku)
    drawn = end_turn(kiroku, match_id)
    kiroku.undo(match_id, 1, reason="again", recorded_by="judge")
    again = end_turn(kiroku, match_id)
    assert again.digest == drawn.digest
    records = kiroku.records(kiroku.seen_by(match_id))
    assert records[1]["outcomes"] == records[3]["outcomes"]
    assert records[3]["seq"] == 2


def test_undo_out_of_range_is_refused(kiroku: Kiroku) -> None:
    match_id = new_match(kiroku)
    end_turn(kiroku, match_id)
    with pytest.raises(IllegalAction) as info:
        kiroku.undo(match_id, 2, reason="too far", recorded_by="judge")
    assert info.value.reason == "undo_out_of_range"
    with pytest.raises(IllegalAction):
        kiroku.undo(match_id, 1, reason=" ", recorded_by="judge")
    assert kiroku.summary(kiroku.seen_by(match_id))["version"] == 2


def test_the_end_reveals_the_seed_that_matches_the_commitment(kiroku: Kiroku) -> None:
    match_id = new_match(kiroku)
    done = kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="Ben")
    assert done.result is not None and done.result["winners"] == [1]
    assert event_names(kiroku, match_id)[-2:] == ["MatchEnded", "SeedRevealed"]
    summary = kiroku.summary(kiroku.seen_by(match_id))
    assert hashlib.sha256(bytes.fromhex(summary["seed"])).hexdigest() == summary["commitment"]
    with pytest.raises(IllegalAction) as info:
        end_turn(kiroku, match_id)
    assert info.value.reason == "match_over"
    with pytest.raises(IllegalAction):
        kiroku.undo(match_id, 1, reason="late", recorded_by="judge")


def test_table_outcomes_are_checked_and_stored(kiroku: Kiroku) -> None:
    match_id = new_match(kiroku)
    deck = kiroku.recorder.get_match(match_id).state.player(2).deck
    with pytest.raises(IllegalAction) as info:
        kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="t",
                      outcomes=["NOT-A-CARD"])
    assert info.value.reason == "outcome_impossible"
    with pytest.raises(IllegalAction) as missing:
        kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="t", outcomes=[])
    assert missing.value.reason == "outcome_missing"
    kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="t", outcomes=[deck[0]])
    record = kiroku.records(kiroku.seen_by(match_id))[-1]
    assert record["chance_source"] == "table" and record["outcomes"][0]["value"] == deck[0]


def test_state_at_any_position_matches_the_recorded_digests(kiroku: Kiroku) -> None:
    match_id = kiroku.simulate("worldgainer", 1, seed=11)[0]
    actions = [r for r in kiroku.records(kiroku.seen_by(match_id))
               if r["event"] == "ActionRecorded"]
    for position in (0, 1, len(actions) // 2, len(actions)):
        view = kiroku.view(kiroku.seen_by(match_id, _judge()), position)
        expected = (kiroku.records(kiroku.seen_by(match_id))[0]["digest"] if position == 0
                    else actions[position - 1]["digest"])
        assert view["digest"] == expected


def test_long_matches_are_snapshotted(kiroku: Kiroku) -> None:
    """A snapshot every SNAPSHOT_INTERVAL (25) events, and positions read through them stay
    exact."""
    match_id = new_match(kiroku)
    for _ in range(30):
        end_turn(kiroku, match_id)
    for _ in range(40):  # undo and redo: 80 more events, still 30 positions
        kiroku.undo(match_id, 1, reason="replay the draw", recorded_by="judge")
        end_turn(kiroku, match_id)
    snapshots = list(kiroku.recorder.snapshots.get(match_id))  # type: ignore[union-attr]
    last = kiroku.recorder.get_match(match_id).version  # 111 events
    assert [s.originator_version for s in snapshots] == list(range(
        SNAPSHOT_INTERVAL, last + 1, SNAPSHOT_INTERVAL))
    records = kiroku.records(kiroku.seen_by(match_id))
    # no cache: reads snapshot + later events
    fresh = Recorder(env=dict(kiroku.recorder.env), keyring=kiroku.recorder.keyring)
    try:
        match = fresh.get_match(match_id)
        assert match.version == 111 and len(match.live) == 30
        assert _digest(match.state) == records[-1]["digest"]
        _, state = fresh.state_at(match_id, 29)
        assert _digest(state) == records[29]["digest"]
    finally:
        fresh.close()


def test_every_stored_event_survives_a_msgpack_round_trip(kiroku: Kiroku) -> None:
    match_id = kiroku.simulate("worldgainer", 1, seed=4)[0]
    transcoder = MsgpackTranscoder()
    for event in kiroku.recorder.stored_events(match_id):
        fields = dict(vars(event))
        assert transcoder.decode(transcoder.encode(fields)) == fields


def _race(store_url: str, **conditions: Any) -> tuple[list[str], Recorder, Recorder, UUID]:
    """Two recorder processes (separate applications and connections) record seat 1's end of
    turn at once, both saving only after both have validated it: how each fared ("stored",
    "conflict", or the rules' reason), the two recorders and the match."""
    first, second = Recorder.open(store_url), Recorder.open(store_url)
    match_id = Kiroku(first).new_match("worldgainer", ["Ann", "Ben"], DECKS,
                                       options={"first_player": 1})
    barrier = threading.Barrier(2, timeout=10)
    outcomes: list[str] = []

    def race(recorder: Recorder) -> None:
        original = recorder._save

        def save_after_both_validated(match: Match, *rest: Any) -> None:
            if match.version == 2:  # the racing save, not a second run's
                barrier.wait()
            original(match, *rest)

        recorder._save = save_after_both_validated  # type: ignore[method-assign]
        try:
            recorder.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="x",
                            **conditions)
            outcomes.append("stored")
        except ConcurrentAppend:
            outcomes.append("conflict")
        except IllegalAction as refused:
            outcomes.append(refused.reason)
        finally:
            recorder._save = original  # type: ignore[method-assign]

    threads = [threading.Thread(target=race, args=(r,)) for r in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(outcomes), first, second, match_id


def test_two_writers_racing_on_a_version_one_wins_and_the_other_must_retry(
        store_url: str) -> None:
    outcomes, first, second, match_id = _race(store_url, expected_version=1)
    try:
        assert outcomes == ["conflict", "stored"]
        assert event_names(Kiroku(first), match_id) == ["MatchCreated", "ActionRecorded"]
        retry = second.record(match_id, {"type": "end_turn", "seat": 2}, recorded_by="x")
        assert retry.version == 3
    finally:
        first.close()
        second.close()


def test_two_writers_racing_are_taken_one_after_the_other(store_url: str) -> None:
    """Without ``expected_version`` the loser is judged on the match as the winner left it,
    as the match's lock has it within one process: here seat 1 has no turn to end."""
    outcomes, first, second, match_id = _race(store_url)
    try:
        assert outcomes == ["not_your_turn", "stored"]
        assert event_names(Kiroku(first), match_id) == ["MatchCreated", "ActionRecorded"]
    finally:
        first.close()
        second.close()


def test_unknown_match_is_not_found(kiroku: Kiroku) -> None:
    with pytest.raises(MatchNotFound):
        kiroku.summary(kiroku.seen_by(UUID(int=1)))
    with pytest.raises(MatchNotFound):
        kiroku.record(UUID(int=1), {"type": "end_turn", "seat": 1}, recorded_by="x")


def test_matches_are_listed_with_their_results(kiroku: Kiroku) -> None:
    open_id = new_match(kiroku)
    done_id = new_match(kiroku)
    kiroku.record(done_id, {"type": "concede", "seat": 1}, recorded_by="Ann")
    listed = {m.match_id: m for m in kiroku.list_matches()}
    assert listed[open_id].result is None
    assert listed[done_id].result == {"winners": [2], "losers": [1], "reason": "concession",
                                      "drawn": False}


def _judge() -> Any:
    from engine import JUDGE

    return JUDGE


def _digest(state: Any) -> str:
    from engine import get_game

    return get_game("worldgainer").digest(state)
