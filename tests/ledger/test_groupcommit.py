"""Group commit on SQLite (ledger.groupcommit): saves that arrive while a commit is under way
share the next transaction, each still atomic, in order, and exactly once."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError
from eventsourcing.sqlite import SQLiteCursor

from ledger.errors import ConcurrentAppend
from ledger.groupcommit import SNAPSHOTS, GroupCommitRecorder
from ledger.match import Match
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]


@pytest.fixture
def kiroku(tmp_path: Path) -> Any:
    service = Kiroku.open(f"sqlite:///{tmp_path}/kiroku.db")
    yield service
    service.close()


def group_recorder(kiroku: Kiroku) -> GroupCommitRecorder:
    recorder = kiroku.recorder.recorder
    assert isinstance(recorder, GroupCommitRecorder)
    return recorder


def new_match(kiroku: Kiroku) -> UUID:
    return kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})


def end_turn(kiroku: Kiroku, match_id: UUID, expected: int | None = None) -> Any:
    return kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="test",
                         expected_version=expected)


def queued_while_held(kiroku: Kiroku, calls: list[Any]) -> list[Any]:
    """Run ``calls`` in threads while the commit is held, so that all of them queue; then let
    them commit. Returns each call's result or exception."""
    recorder = group_recorder(kiroku)
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            results[i] = calls[i]()
        except Exception as exc:  # the test inspects it
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    with recorder._committing:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 20
        while len(recorder._queue) < len(calls):
            assert time.monotonic() < deadline, "the saves never queued"
            time.sleep(0.01)
    for t in threads:
        t.join(20)
    return results


def test_saves_queued_during_a_commit_share_the_next_one(kiroku: Kiroku) -> None:
    matches = [new_match(kiroku) for _ in range(6)]
    recorder = group_recorder(kiroku)
    commits = recorder.commits
    results = queued_while_held(kiroku, [lambda m=m: end_turn(kiroku, m) for m in matches])
    assert all(r.version == 2 for r in results)
    assert recorder.commits == commits + 1
    for match_id in matches:
        assert [r["event"] for r in kiroku.records(kiroku.seen_by(match_id))] == ["MatchCreated",
                                                                  "ActionRecorded"]
        assert kiroku.audit(match_id).ok


def test_a_refused_save_in_a_group_stores_nothing_of_its_own(kiroku: Kiroku) -> None:
    """A save whose events break the store's uniqueness is rolled back to its savepoint: the
    group's other saves commit, and the refused one stores none of its events."""
    matches = [new_match(kiroku) for _ in range(3)]
    recorder = group_recorder(kiroku)
    stored = list(kiroku.recorder.events.get(matches[0]))
    duplicate = [kiroku.recorder.mapper.to_stored_event(e) for e in stored]
    results = queued_while_held(kiroku, [
        lambda: end_turn(kiroku, matches[1]),
        lambda: recorder.insert_events(duplicate),
        lambda: end_turn(kiroku, matches[2]),
    ])
    assert results[0].version == 2 and results[2].version == 2
    assert type(results[1]).__name__ == "IntegrityError"
    assert len(list(kiroku.recorder.events.get(matches[0]))) == len(stored)


def test_a_refused_save_committing_alone_stores_none_of_its_events(kiroku: Kiroku) -> None:
    """A save alone in its commit goes in without a savepoint: when its second event breaks
    the store's uniqueness, the whole transaction is rolled back, its first event with it."""
    match_id = new_match(kiroku)
    recorder = group_recorder(kiroku)
    stored = [kiroku.recorder.mapper.to_stored_event(e)
              for e in kiroku.recorder.events.get(match_id)]
    after = dataclasses.replace(stored[-1], originator_version=stored[-1].originator_version + 1)
    with pytest.raises(IntegrityError):
        recorder.insert_events([after, stored[0]])
    assert len(list(kiroku.recorder.events.get(match_id))) == len(stored)
    assert end_turn(kiroku, match_id).version == len(stored) + 1  # the store goes on


def test_a_save_committing_alone_sets_no_savepoint(kiroku: Kiroku,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Savepoints are for saves that share a commit; one alone costs none (two statements of
    an action's few)."""
    match_id = new_match(kiroku)
    statements: list[str] = []
    execute = SQLiteCursor.execute

    def spy(cursor: SQLiteCursor, statement: str, *args: Any, **kwargs: Any) -> Any:
        statements.append(statement.split()[0])
        return execute(cursor, statement, *args, **kwargs)

    monkeypatch.setattr(SQLiteCursor, "execute", spy)
    end_turn(kiroku, match_id)
    assert "INSERT" in statements and "SAVEPOINT" not in statements


def test_in_a_group_a_snapshot_goes_in_with_its_save_or_not_at_all(kiroku: Kiroku) -> None:
    """Saves that share a commit each bring their snapshot: the one whose events go in stores
    it, the one refused stores none."""
    refused, kept = new_match(kiroku), new_match(kiroku)
    recorder = group_recorder(kiroku)
    store = kiroku.recorder
    assert store.snapshots is not None

    def stored(match_id: UUID) -> list[Any]:
        return [store.mapper.to_stored_event(e) for e in store.events.get(match_id)]

    def snapshot(match_id: UUID) -> Any:
        return store.snapshots.mapper.to_stored_event(  # type: ignore[union-attr]
            Match.Snapshot.take(store.get_match(match_id)))

    duplicate = stored(refused)[0]
    last = stored(kept)[-1]
    after = dataclasses.replace(last, originator_version=last.originator_version + 1)
    results = queued_while_held(kiroku, [
        lambda: recorder.insert_events([duplicate], **{SNAPSHOTS: [snapshot(refused)]}),
        lambda: recorder.insert_events([after], **{SNAPSHOTS: [snapshot(kept)]}),
    ])
    assert type(results[0]).__name__ == "IntegrityError"
    assert not isinstance(results[1], Exception)
    assert list(store.snapshots.get(refused)) == []
    assert [s.originator_version for s in store.snapshots.get(kept)] == [
        last.originator_version]


def test_threads_recording_one_match_append_each_action_once(kiroku: Kiroku) -> None:
    """Eight threads race to end the same turn at the same version: one wins, the rest are
    refused, and the match holds the action once."""
    match_id = new_match(kiroku)
    assert end_turn(kiroku, match_id, 1).version == 2
    barrier = threading.Barrier(8, timeout=10)
    outcomes: list[Any] = []

    def race() -> None:
        barrier.wait()
        try:
            outcomes.append(kiroku.record(match_id, {"type": "end_turn", "seat": 2},
                                          recorded_by="test", expected_version=2))
        except Exception as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=race) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    won = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(won) == 1 and all(isinstance(o, ConcurrentAppend) for o in outcomes
                                 if isinstance(o, Exception))
    assert [r["event"] for r in kiroku.records(kiroku.seen_by(match_id))].count(
        "ActionRecorded") == 2
