"""A ruling reopens an ended match (issue 13): the seed of the finished segment was revealed, so
the rest is played under a fresh committed seed; the audit verifies each segment against its
own seed, and a reopening where none may be is a finding."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from engine.core.errors import IllegalAction
from ledger.chain import event_hash
from ledger.identity import Identity
from ledger.seed import commitment
from replay import disputes as hearing
from replay.audit import verify_records
from replay.records import payload_of
from replay.service import Kiroku

HEAD = Identity.operator("Head Judge Hana")


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _turns(kiroku: Kiroku, match_id: UUID, turns: int, first: int = 1) -> None:
    for turn in range(turns):
        seat = 1 + (first - 1 + turn) % 2
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")


def _conceded(kiroku: Kiroku) -> UUID:
    """Four turns (each draws a card from the seed), then Ben's concession, misrecorded."""
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1})
    _turns(kiroku, match_id, 4)
    kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="P2")
    return match_id


def _reopen(kiroku: Kiroku, match_id: UUID, to: int = 4) -> dict[str, Any]:
    dispute = hearing.open_dispute(kiroku, HEAD, match_id, None, "Ben's tap was misread as a "
                                   "concession", [], False)
    return hearing.rule(kiroku, HEAD, UUID(dispute["dispute_id"]), "Reopened",
                        "The concession was never made.", {"kind": "reopen", "to_position": to})


def test_a_reopened_match_goes_on_under_a_fresh_seed(kiroku: Kiroku) -> None:
    match_id = _conceded(kiroku)
    first_seed = kiroku.summary(kiroku.seen_by(match_id))["seed"]
    assert [m["status"] for m in kiroku.find_matches()] == ["ended"]
    ruled = _reopen(kiroku, match_id)
    summary = kiroku.summary(kiroku.seen_by(match_id))
    assert summary["result"] is None and summary["seed"] is None and summary["positions"] == 4
    assert summary["commitment"] != commitment(bytes.fromhex(first_seed))
    assert ruled["rulings"][0]["applied"]["kind"] == "reopen"
    assert [m.result for m in kiroku.list_matches()] == [None]
    _turns(kiroku, match_id, 2)
    assert kiroku.audit(match_id).ok
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
    summary = kiroku.summary(kiroku.seen_by(match_id))
    assert summary["result"]["winners"] == [2] and summary["seed"] != first_seed
    assert summary["commitment"] == commitment(bytes.fromhex(summary["seed"]))
    report = kiroku.audit(match_id)
    assert report.ok and report.notes == [], report
    assert any("match reopened (seed segment 2" in line
               for line in kiroku.transcript(kiroku.seen_by(match_id)))


def test_the_audit_holds_each_segment_to_its_own_seed(kiroku: Kiroku) -> None:
    match_id = _conceded(kiroku)
    _reopen(kiroku, match_id)
    _turns(kiroku, match_id, 2)
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
    records = kiroku.records(kiroku.seen_by(match_id))
    seeds = [r["seed"] for r in records if r["event"] == "SeedRevealed"]
    assert len(seeds) == 2 and seeds[0] != seeds[1]
    reopened = next(r["version"] for r in records if r["event"] == "MatchReopened")
    swapped = _rechain(records, lambda r: r["event"] == "SeedRevealed",
                       lambda r: r.update(seed=seeds[0]))
    report = verify_records(swapped)
    assert not report.ok and report.failure["version"] > reopened


def test_a_reopening_while_the_match_is_on_is_a_finding(kiroku: Kiroku) -> None:
    match_id = _conceded(kiroku)
    _reopen(kiroku, match_id)
    records = kiroku.records(kiroku.seen_by(match_id))
    ended = next(r["version"] for r in records if r["event"] == "MatchEnded")
    early = [r for r in records if r["version"] < ended] + [
        {**r, "version": ended + i} for i, r in enumerate(
            r for r in records if r["version"] > ended + 1)]  # ending and seed cut out
    report = verify_records(_rechain(early, lambda r: False, lambda r: None))
    assert (report.failure or {}).get("reason") == "reopen_while_on"


def test_only_an_ended_match_is_reopened_and_a_refusal_stores_nothing(kiroku: Kiroku) -> None:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1})
    _turns(kiroku, match_id, 2)
    with pytest.raises(IllegalAction, match="Only an ended match"):
        kiroku.reopen(match_id, to_position=1, reason="x", recorded_by="judge")
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
    version = kiroku.recorder.get_match(match_id).version
    for to in (3, -1):
        with pytest.raises(IllegalAction):
            kiroku.reopen(match_id, to_position=to, reason="x", recorded_by="judge")
    with pytest.raises(IllegalAction):
        kiroku.reopen(match_id, to_position=1, reason="   ", recorded_by="judge")
    assert kiroku.recorder.get_match(match_id).version == version


def test_a_reopened_match_travels_in_an_export(kiroku: Kiroku) -> None:
    match_id = _conceded(kiroku)
    _reopen(kiroku, match_id)
    _turns(kiroku, match_id, 1)
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
    other = Kiroku.open("sqlite:///:memory:")
    try:
        done = other.import_match(kiroku.export(kiroku.seen_by(match_id)))
        assert done.stored and other.audit(match_id).ok
        assert other.summary(other.seen_by(match_id))["result"] == kiroku.summary(
            kiroku.seen_by(match_id))["result"]
    finally:
        other.close()


def _rechain(records: list[dict[str, Any]], which: Any, change: Any) -> list[dict[str, Any]]:
    out = copy.deepcopy(records)
    prev = "0" * 64
    for r in out:
        if which(r):
            change(r)
        r["prev_hash"] = prev
        r["hash"] = event_hash(r["event"], UUID(r["match_id"]), r["version"], payload_of(r))
        prev = r["hash"]
    return out
