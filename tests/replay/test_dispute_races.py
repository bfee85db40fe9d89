"""Compound writes of disputes happen once, whole (issue 41): a ruling is saved with its remedy
in one save, so of two rulings at once one is stored with its remedy and the other stores
nothing (in one process and across two on one store); an action that calls a judge is saved
with the dispute it opens, so nothing can store the one without the other."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from engine import JUDGE
from ledger.catalog import Deck
from ledger.disputes import Dispute, Disputes, Docket
from ledger.errors import ConcurrentAppend
from ledger.identity import Identity
from ledger.match import Match
from replay import disputes as hearing
from replay.service import Kiroku
from tests.replay.test_disputes import GOLDEN, HEAD, _judge, _open, _seat, four_turns


def _adjustment(kiroku: Kiroku, match_id: UUID) -> dict[str, Any]:
    """A remedy moving a card of seat 1's hand back to its deck."""
    state = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)["state"]
    card = state["seats"][0]["hand"][0]["id"]
    return {"kind": "adjustment", "action": {"type": "adjust", "seat": 1, "move": {
        "card": card, "from_zone": "hand", "to_zone": "deck"}}}


def _both_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ruling waits, once allowed to rule, for the other to be allowed too: both then
    apply their remedy at once (the race the issue measured)."""
    barrier = threading.Barrier(2, timeout=10)
    allowed = hearing._may_rule

    def waiting(*args: Any) -> None:
        allowed(*args)
        barrier.wait()

    monkeypatch.setattr(hearing, "_may_rule", waiting)


def _race(rulers: list[tuple[Kiroku, Identity]], dispute: UUID,
          remedy: dict[str, Any]) -> list[str]:
    """Each (service, caller) rules the dispute at once: how each fared."""
    fared: list[str] = []

    def rule(kiroku: Kiroku, caller: Identity) -> None:
        try:
            hearing.rule(kiroku, caller, dispute, "Card returned", "Drawn by mistake.", remedy)
            fared.append("ruled")
        except ConcurrentAppend:
            fared.append("conflict")

    threads = [threading.Thread(target=rule, args=ruler) for ruler in rulers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(fared)


def _adjustments(kiroku: Kiroku, match_id: UUID) -> int:
    return sum(1 for record in kiroku.records(kiroku.seen_by(match_id))
               if record.get("action", {}).get("type") == "adjust")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[Kiroku, Kiroku, str]]:
    """Two services on one SQLite store (two processes' worth of caches and connections),
    and the store's URL."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    first, second = Kiroku.open(url), Kiroku.open(url)
    yield first, second, url
    second.close()
    first.close()


@pytest.mark.parametrize("processes", [1, 2])
@pytest.mark.parametrize("round_", range(3))
def test_of_two_rulings_at_once_one_is_stored_with_its_remedy(
        store: tuple[Kiroku, Kiroku, str], monkeypatch: pytest.MonkeyPatch, processes: int,
        round_: int) -> None:
    kiroku, other, url = store
    match_id = four_turns(kiroku)
    judge = _judge(kiroku)
    dispute = _open(kiroku, match_id, _seat(kiroku, match_id, 1))
    hearing.take(kiroku, judge, dispute, pause=True)
    remedy = _adjustment(kiroku, match_id)
    _both_checked(monkeypatch)
    organiser_service = other if processes == 2 else kiroku
    assert _race([(kiroku, judge), (organiser_service, HEAD)], dispute,
                 remedy) == ["conflict", "ruled"]
    fresh = Kiroku.open(url)  # nothing cached: the store as it stands
    try:
        assert _adjustments(fresh, match_id) == 1
        assert len(fresh.disputes.get(dispute).rulings) == 1
        match = fresh.recorder.get_match(match_id)
        assert not match.pausing  # the ruling released the pause, once
        assert fresh.audit(match_id).ok
    finally:
        fresh.close()


def test_a_ruling_whose_dispute_changed_meanwhile_applies_nothing(
        store: tuple[Kiroku, Kiroku, str]) -> None:
    """The remedy runs, then the ruling finds its dispute ruled already (by another server):
    nothing is saved."""
    kiroku, other, _ = store
    match_id = four_turns(kiroku)
    dispute = _open(kiroku, match_id, HEAD)
    version = kiroku.recorder.get_match(match_id).version
    real_get = kiroku.disputes.get
    gets = 0

    def ruled_meanwhile(dispute_id: UUID) -> Dispute:
        nonlocal gets
        gets += 1
        found = real_get(dispute_id)
        if gets == 2:  # the ruling's own read, after the remedy ran: another ruled first
            hearing.rule(other, HEAD, dispute_id, "Warning", "Another's call.",
                         {"kind": "penalty", "penalty": "warning", "seat": 1})
        return found

    kiroku.disputes.get = ruled_meanwhile  # type: ignore[method-assign]
    try:
        with pytest.raises(ConcurrentAppend):
            hearing.rule(kiroku, HEAD, dispute, "Card returned", "Drawn by mistake.",
                         _adjustment(kiroku, match_id))
    finally:
        kiroku.disputes.get = real_get  # type: ignore[method-assign]
    assert kiroku.recorder.get_match(match_id).version == version
    assert [r["decision"] for r in kiroku.disputes.get(dispute).rulings] == ["Warning"]


def _grail_before_its_dispute(kiroku: Kiroku) -> tuple[UUID, dict[str, Any], Identity]:
    """The recorded Quest for the Grail match, replayed from its seed up to the action by
    which seat 3 disputes seat 2's alternate victory (G8): the match, that action, and
    seat 3's identity."""
    records = [json.loads(line) for line in GOLDEN.joinpath("match.jsonl").open()][1:]
    config = records[0]["config"]
    seed = next(r["seed"] for r in records if r["event"] == "SeedRevealed")
    match_id = kiroku.new_match(
        "grail", config["players"], [Deck("grail", "", "", d) for d in config["decks"]],
        cards=config["cards"], options=config["options"], seed=bytes.fromhex(seed))
    chen = _seat(kiroku, match_id, 3)
    for record in records[1:]:
        if record["event"] == "ActionsUndone":
            kiroku.undo(match_id, record["count"], reason=record["reason"], recorded_by="judge")
        elif record["event"] == "ActionRecorded":
            if record["action"]["type"] == "dispute":
                return match_id, record["action"], chen
            kiroku.record(match_id, record["action"], recorded_by="P")
    raise AssertionError("the golden match has no dispute")


def test_an_action_that_calls_a_judge_is_saved_with_its_dispute(
        kiroku_memory: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    kiroku = kiroku_memory
    match_id, action, chen = _grail_before_its_dispute(kiroku)
    saves: list[list[type[Any]]] = []
    real_save = kiroku.recorder.save

    def noting(*objs: Any, **kwargs: Any) -> Any:
        saves.append([type(o) for o in objs])
        return real_save(*objs, **kwargs)

    monkeypatch.setattr(kiroku.recorder, "save", noting)
    kiroku.record(match_id, action, recorded_by=chen.recorded_by)
    assert saves == [[Match, Dispute, Docket]]
    [opened] = kiroku.disputes.of_match(match_id)
    assert opened.concerns == [kiroku.recorder.get_match(match_id).version]


def test_an_action_whose_dispute_cannot_be_opened_stores_nothing(
        kiroku_memory: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure between the action and its dispute (a crash, once two saves) leaves neither."""
    kiroku = kiroku_memory
    match_id, action, chen = _grail_before_its_dispute(kiroku)
    version = kiroku.recorder.get_match(match_id).version

    def failing(self: Disputes, **fields: Any) -> Callable[..., Any]:
        raise OSError("the process died here")

    monkeypatch.setattr(Disputes, "opening", failing)
    with pytest.raises(OSError):
        kiroku.record(match_id, action, recorded_by=chen.recorded_by)
    assert kiroku.recorder.get_match(match_id).version == version
    assert kiroku.disputes.of_match(match_id) == []
    monkeypatch.undo()
    kiroku.record(match_id, action, recorded_by=chen.recorded_by)  # recorded as if anew
    assert len(kiroku.disputes.of_match(match_id)) == 1


@pytest.fixture
def kiroku_memory() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()
