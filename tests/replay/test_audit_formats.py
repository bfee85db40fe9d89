"""Digests over a versioned canonical position, legacy digests, and rules drift in the audit.

A refactor must not invalidate stored matches, a rules change must be told apart from tampering,
and what the audit cannot check it says in its notes instead of reporting tampering.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest

from engine import JUDGE, get_game
from engine.core.data import digest_format
from engine.worldgainer import WorldGainer
from ledger.chain import event_hash
from replay.audit import verify_records
from replay.records import payload_of
from replay.service import Kiroku, parse_export
from tests.golden.record import GOLDEN_DIR


@pytest.fixture
def store() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _finished_match(store: Kiroku) -> list[dict[str, Any]]:
    match_id = store.simulate("worldgainer", 1, seed=7)[0]
    return store.records(store.seen_by(match_id, JUDGE))


def _legacy_golden() -> list[dict[str, Any]]:
    """A golden match recorded before position digests (bare SHA-256 digests)."""
    _, records = parse_export(
        (GOLDEN_DIR / "worldgainer" / "long-to-the-end" / "match.jsonl").read_bytes())
    assert digest_format(records[0]["digest"]) is None
    return records


def _rehash(records: list[dict[str, Any]], start: int) -> None:
    """Re-chain every record from index ``start`` (what a forger with database access does)."""
    for i in range(start, len(records)):
        records[i]["prev_hash"] = records[i - 1]["hash"]
        r = records[i]
        r["hash"] = event_hash(r["event"], UUID(r["match_id"]), r["version"], payload_of(r))


def test_new_digests_name_their_format_and_leave_card_definitions_out(store: Kiroku) -> None:
    records = _finished_match(store)
    digests = [r["digest"] for r in records if "digest" in r]
    assert digests and all(d.startswith("p1:") for d in digests)
    rules = get_game("worldgainer")
    state = store.recorder.get_match(UUID(records[0]["match_id"])).state
    assert "cards" not in rules.position(state)
    assert rules.position(state)["seats_state"] == rules.state_to_data(state)["seats_state"]


def test_digest_format_reads_the_prefix() -> None:
    assert digest_format("p1:ab") == 1
    assert digest_format("p12:ab") == 12
    assert digest_format("0" * 64) is None
    assert digest_format("p²:ab") is None


def test_a_match_recorded_with_legacy_digests_verifies_and_says_what_it_rechecked() -> None:
    report = verify_records(_legacy_golden())
    assert report.ok, report.failure
    assert any("legacy format" in n and "0 not reproducible" in n for n in report.notes), (
        report.notes)


def test_legacy_digests_this_build_cannot_reproduce_are_noted_not_called_tampering(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # as after a refactor of the internal state: the legacy digest can no longer be rebuilt
    monkeypatch.setattr(WorldGainer, "legacy_digest", lambda self, state: "f" * 64)
    report = verify_records(_legacy_golden())
    assert report.ok, report.failure
    note = next(n for n in report.notes if "legacy format" in n)
    assert "0 re-checked" in note and "not verified" in note


def _stun_enters_exhausted(monkeypatch: pytest.MonkeyPatch, version: str) -> None:
    """A rules change: a placed stun is exhausted at once (today it is ready)."""
    original = WorldGainer._place_stun

    def place_stun(self: WorldGainer, st: Any, action: Any) -> None:
        original(self, st, action)
        standby = st.player(action.seat).standby
        for slot, stun in enumerate(standby):
            if stun is not None:
                standby[slot] = replace(stun, ready=False)

    monkeypatch.setattr(WorldGainer, "_place_stun", place_stun)
    monkeypatch.setattr(WorldGainer, "version", version)


def _first_stun(records: list[dict[str, Any]]) -> dict[str, Any]:
    return next(r for r in records if r["event"] == "ActionRecorded"
                and r["action"]["type"] == "stun")


def test_a_rules_change_under_a_new_ruleset_version_is_reported_as_drift(
        store: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    records = _finished_match(store)
    _stun_enters_exhausted(monkeypatch, "1.1")
    report = verify_records(records)
    assert not report.ok
    assert report.failure is not None and report.failure["reason"] == "rules_drift"
    first = _first_stun(records)
    assert report.drift is not None
    assert (report.drift["recorded_under"], report.drift["replayed_under"]) == (
        "worldgainer 1.0", "worldgainer 1.1")
    assert (report.drift["seq"], report.drift["version"]) == (first["seq"], first["version"])
    assert "not tampering" in report.failure["message"]
    assert report.events == len(records)  # the chain was still checked to the end


def test_the_same_change_without_a_version_bump_is_a_digest_mismatch(
        store: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    records = _finished_match(store)
    _stun_enters_exhausted(monkeypatch, "1.0")
    report = verify_records(records)
    assert report.failure is not None and report.failure["reason"] == "digest_mismatch"
    assert report.failure["version"] == _first_stun(records)["version"]
    assert report.drift is None


def test_after_drift_the_chain_check_still_stands(
        store: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    records = copy.deepcopy(_finished_match(store))
    records[-3]["recorded_by"] = "someone else"  # changed after the drift point, not re-hashed
    _stun_enters_exhausted(monkeypatch, "1.1")
    report = verify_records(records)
    assert report.failure is not None and report.failure["reason"] == "hash_mismatch"
    assert report.failure["version"] == records[-3]["version"]
    assert report.drift is not None and report.drift["seq"] == _first_stun(records)["seq"]


def test_a_rechained_forgery_of_a_position_is_still_a_digest_mismatch(store: Kiroku) -> None:
    records = copy.deepcopy(_finished_match(store))
    stun = _first_stun(records)
    i = records.index(stun)
    other = next(s for s in range(1, 6) if s != (stun["action"].get("slot") or 1))
    stun["action"]["slot"] = other  # a different slot, re-chained so the hashes agree
    _rehash(records, i)
    report = verify_records(records)
    assert report.failure is not None
    assert report.failure["reason"] == "digest_mismatch"
    assert report.failure["version"] == stun["version"]


def test_a_match_recorded_under_an_earlier_ruleset_version_says_it_replays_identically() -> None:
    """Illuminati 1.1 added face-down setup choices; a 1.0 match replays exactly and the report
    says under which versions it was recorded and verified."""
    _, records = parse_export((GOLDEN_DIR / "illuminati" / "two-players-turn-limit"
                               / "match.jsonl").read_bytes())
    assert records[0]["ruleset_version"] == "1.0"
    report = verify_records(records)
    assert report.ok and report.drift is None
    assert "recorded under illuminati 1.0, verified under illuminati 1.1: the rules replay it " \
           "identically" in report.notes
