"""The audit runs the rules once per event where the revealed seed gives exactly the stored
outcomes, and still names every forged outcome; its report crosses to a worker process."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from engine.core.chance import Chance
from engine.core.contract import GameState, Ruleset
from engine.registry import get_game
from ledger.chain import event_hash
from ledger.fold import Fold, Visitor
from replay.audit import verify_records
from replay.records import payload_of
from replay.service import Kiroku

Record = dict[str, Any]


@pytest.fixture(scope="module")
def ended() -> list[Record]:
    """The records of a simulated World Gainer match, ended and its seed revealed."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    try:
        return kiroku.records(kiroku.seen_by(kiroku.simulate("worldgainer", 1, seed=8)[0]))
    finally:
        kiroku.close()


def _rechained(records: list[Record]) -> list[Record]:
    """``records`` hashed again, as a forger rewriting the chain would (without commitments,
    as a match recorded before them: the salts would give the change away first)."""
    prev = "0" * 64
    for record in records:
        record.pop("commitments", None)
        record["prev_hash"] = prev
        record["hash"] = prev = event_hash(record["event"], UUID(record["match_id"]),
                                           record["version"], payload_of(record))
    return records


def _counting(ruleset: Ruleset, name: str, calls: list[str]) -> Callable[..., GameState]:
    """``ruleset``'s ``apply`` or ``apply_in_place``, noting each call by its name."""
    run = getattr(ruleset, name)

    def counted(state: GameState, action: Any, chance: Chance) -> GameState:
        calls.append(name)
        return run(state, action, chance)  # type: ignore[no-any-return]

    return counted


def _count_runs(monkeypatch: pytest.MonkeyPatch, calls: list[str]) -> None:
    ruleset = get_game("worldgainer")
    for name in ("apply", "apply_in_place"):
        monkeypatch.setattr(ruleset, name, _counting(ruleset, name, calls))


def test_each_action_is_run_once_when_the_seed_gives_its_outcomes(
        ended: list[Record], monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    _count_runs(monkeypatch, calls)
    report = verify_records(ended)
    assert report.ok and report.failure is None
    assert len(calls) == report.actions == sum(r["event"] == "ActionRecorded" for r in ended)
    assert set(calls) == {"apply_in_place"}  # no undo returns to any position


@pytest.fixture(scope="module")
def backed_up() -> list[Record]:
    """A World Gainer match whose judge backs up twice, once to a position backed up to
    before, then played on to its end (the seed revealed)."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    try:
        match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"],
                                    ["solar_vanguard", "pleiades_bloom"],
                                    options={"first_player": 1})

        def end_turns(count: int) -> None:
            for _ in range(count):
                seat = kiroku.recorder.get_match(match_id).state.active
                kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="t")

        end_turns(4)
        kiroku.undo(match_id, None, reason="misplay", recorded_by="judge", to_position=2)
        end_turns(3)
        kiroku.undo(match_id, None, reason="misplay", recorded_by="judge", to_position=2)
        end_turns(1)
        kiroku.undo(match_id, None, reason="misplay", recorded_by="judge", to_position=1)
        end_turns(2)
        kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="Ann")
        return kiroku.records(kiroku.seen_by(match_id))
    finally:
        kiroku.close()


def test_the_positions_an_undo_returns_to_are_kept_intact(
        backed_up: list[Record], monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    _count_runs(monkeypatch, calls)
    report = verify_records(backed_up)
    assert report.ok, report.failure
    assert report.notes == []
    # the actions that left positions 2 (twice) and 1 ran on a copy, the rest in place
    assert calls.count("apply") == 3
    assert calls.count("apply_in_place") == report.actions - 3


def test_a_forged_draw_with_its_digest_recomputed_fails_the_seed_check(
        ended: list[Record]) -> None:
    """The forger replaces a drawn card by another of the deck and records the digest the
    rules then reach: only the revealed seed tells, at that very event."""
    forged = copy.deepcopy(ended)
    at = next(i for i, r in enumerate(forged) if r["event"] == "ActionRecorded"
              and r["outcomes"] and r["version"] > 6)
    fold = Fold(Visitor()).feed_all(forged[:at])
    drawn = forged[at]["outcomes"][0]
    drawn["value"] = next(card for card in fold.state.player(drawn["seat"]).deck  # type: ignore[attr-defined]
                          if card != drawn["value"])
    fold.feed(forged[at])
    forged[at]["digest"] = get_game("worldgainer").digest(fold.state)
    report = verify_records(_rechained(forged))
    assert report.failure is not None
    assert (report.failure["version"], report.failure["reason"]) == (
        forged[at]["version"], "seed_outcomes_mismatch")


def test_a_report_crosses_to_another_process_whole(ended: list[Record]) -> None:
    report = verify_records(ended[:-1])  # its SeedRevealed cut off
    assert report.failure is not None and report.failure["reason"] == "seed_not_revealed"
    assert pickle.loads(pickle.dumps(report)) == report
