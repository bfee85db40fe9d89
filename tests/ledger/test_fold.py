"""The one fold of a match's events (ledger.fold): undo applied in one place, and the aggregate,
transcripts and the audit all reading a match through it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from engine import JUDGE, get_game
from engine.core.contract import GameState, Ruleset
from engine.core.data import digest_format
from ledger import fold as fold_module
from ledger.fold import BadUndo, Fold, FoldError, LiveAction, Record, Visitor, project
from ledger.recorder import Recorder
from replay.audit import verify_records
from replay.service import Kiroku, parse_export, transcript_lines
from tests.golden.record import GOLDEN_DIR

DECKS = ["solar_vanguard", "pleiades_bloom"]
GOLDEN_WITH_UNDO = sorted(
    p.parent for p in GOLDEN_DIR.glob("*/*/match.jsonl")
    if '"ActionsUndone"' in p.read_text(encoding="utf-8"))


class Recording(Visitor):
    """Writes down every hook call (and, at each undo, what the fold's live line is then)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.voided: list[list[int]] = []
        self.undo_states: list[tuple[Record, GameState]] = []

    def created(self, record: Record, state: GameState) -> None:
        self.calls.append(("created", record["version"]))

    def action(self, record: Record, before: GameState, after: GameState,
               position: int) -> None:
        self.calls.append(("action", record["version"]))

    def undone(self, record: Record, voided: list[LiveAction], state: GameState) -> None:
        self.calls.append(("undone", record["version"]))
        self.voided.append([entry[1] for entry in voided])
        self.undo_states.append((record, state))

    def ended(self, record: Record, state: GameState) -> None:
        self.calls.append(("ended", record["version"]))

    def seed_revealed(self, record: Record) -> None:
        self.calls.append(("seed_revealed", record["version"]))


@pytest.fixture
def store() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _end_turn(kiroku: Kiroku, match_id: UUID) -> None:
    seat = kiroku.recorder.get_match(match_id).state.active
    kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="test")


def _match_with_two_undos(kiroku: Kiroku) -> UUID:
    """Seqs 1-4, undo of 3 and 4, seq 5, undo of 5, seqs 6-7: live line 1, 2, 6, 7."""
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS,
                                options={"first_player": 1}, seed=b"f" * 32)
    for _ in range(4):
        _end_turn(kiroku, match_id)
    kiroku.undo(match_id, 2, reason="misrecorded", recorded_by="judge")
    _end_turn(kiroku, match_id)
    kiroku.undo(match_id, 1, reason="again", recorded_by="judge")
    for _ in range(2):
        _end_turn(kiroku, match_id)
    return match_id


def _golden(path: Path) -> list[Record]:
    return parse_export((path / "match.jsonl").read_bytes())[1]


def _digest(game: str, state: GameState) -> str:
    return get_game(game).digest(state)


def _as_recorded(game: str, state: GameState, recorded: str) -> str:
    """The digest of ``state`` in the format of ``recorded`` (older golden matches: legacy)."""
    rules = get_game(game)
    return rules.digest(state) if digest_format(recorded) else rules.legacy_digest(state)


def test_a_visitor_sees_each_undo_once_with_the_actions_it_voids(store: Kiroku) -> None:
    records = store.records(store.seen_by(_match_with_two_undos(store)))
    seen = Recording()
    fold = Fold(seen).feed_all(records)
    kinds = [kind for kind, _ in seen.calls]
    assert kinds == ["created"] + ["action"] * 4 + ["undone", "action", "undone"] + ["action"] * 2
    assert [version for _, version in seen.calls] == [r["version"] for r in records]
    assert seen.voided == [[3, 4], [5]]
    assert [entry[1] for entry in fold.live] == [1, 2, 6, 7]
    assert [entry[0] for entry in fold.live] == [2, 3, 9, 10]


@pytest.mark.parametrize("path", GOLDEN_WITH_UNDO, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_positions_after_undo_equal_projections_and_recorded_digests(path: Path) -> None:
    records = _golden(path)
    game, config, setup = records[0]["game"], records[0]["config"], records[0]["setup_outcomes"]
    seen = Recording()
    fold = Fold(seen)
    lines: list[list[LiveAction]] = []
    for record in records:
        fold.feed(record)
        if record["event"] == "ActionsUndone":
            lines.append(list(fold.live))
    assert len(seen.undo_states) == len(lines) >= 1
    for (record, state), live in zip(seen.undo_states, lines):
        assert _digest(game, state) == _digest(game, project(config, game, setup, live))
        assert _as_recorded(game, state, record["digest"]) == record["digest"]
    step = max(1, len(fold.live) // 8)
    for n in [*range(0, len(fold.live), step), len(fold.live)]:
        assert _digest(game, fold.position(n)) == _digest(
            game, project(config, game, setup, fold.live[:n]))


class Restoring(Visitor):
    """Supplies the position an undo returns to, as the aggregate does with the one its
    command computed."""

    def __init__(self, state: GameState | None) -> None:
        self.state = state
        self.asked: list[int] = []

    def restore(self, record: Record, position: int) -> GameState | None:
        self.asked.append(position)
        return self.state


def _resumed_at_tip(records: list[Record], visitor: Visitor) -> Fold:
    """A fold resumed at the tip of the line that ``records`` (no undo among them) reach."""
    whole = Fold(Visitor()).feed_all(records)
    created = records[0]
    return Fold.resume(visitor, created["game"], created["config"], created["setup_outcomes"],
                       list(whole.live), whole.state)


def test_a_resumed_fold_re_projects_an_undo_beyond_what_it_kept(store: Kiroku) -> None:
    match_id = store.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})
    for _ in range(3):
        _end_turn(store, match_id)
    store.undo(match_id, 2, reason="misrecorded", recorded_by="judge")
    records = store.records(store.seen_by(match_id))
    asked = Restoring(None)
    fold = _resumed_at_tip(records[:-1], asked)
    assert fold.first_kept == 3
    fold.feed(records[-1])
    assert asked.asked == [1]
    assert [entry[1] for entry in fold.live] == [1]
    assert _digest("worldgainer", fold.state) == records[-1]["digest"]


def test_a_visitor_can_supply_the_position_an_undo_returns_to(store: Kiroku) -> None:
    match_id = store.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})
    for _ in range(3):
        _end_turn(store, match_id)
    store.undo(match_id, 2, reason="misrecorded", recorded_by="judge")
    records = store.records(store.seen_by(match_id))
    supplied = store.recorder.get_match(match_id).state
    fold = _resumed_at_tip(records[:-1], Restoring(supplied))
    fold.feed(records[-1])
    assert fold.state is supplied


def test_an_undo_of_no_actions_or_too_many_is_refused_and_changes_nothing(store: Kiroku) -> None:
    match_id = store.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})
    for _ in range(2):
        _end_turn(store, match_id)
    store.undo(match_id, 1, reason="misrecorded", recorded_by="judge")
    records = store.records(store.seen_by(match_id))
    for count in (0, 3):
        fold = Fold(Visitor()).feed_all(records[:-1])
        tip = fold.state
        with pytest.raises(BadUndo) as info:
            fold.feed({**records[-1], "count": count})
        assert (info.value.count, info.value.live) == (count, 2)
        assert len(fold.live) == 2 and fold.state is tip


def test_events_that_do_not_form_a_match_are_refused(store: Kiroku) -> None:
    match_id = store.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})
    _end_turn(store, match_id)
    records = store.records(store.seen_by(match_id))
    with pytest.raises(FoldError):
        Fold(Visitor()).feed(records[1])
    with pytest.raises(FoldError):
        Fold(Visitor()).feed_all([records[0], records[0]])
    with pytest.raises(FoldError):
        Fold(Visitor()).feed_all([records[0], {**records[1], "event": "ActionForgotten"}])


def test_recording_applies_the_rules_once_per_action(
        store: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match computes the new state once and folds its event with it: no re-apply."""
    match_id = store.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})
    ruleset = get_game("worldgainer")
    applied: list[Any] = []
    original = type(ruleset).apply

    def counting(self: Ruleset, state: GameState, action: Any, chance: Any) -> GameState:
        applied.append(action)
        return original(self, state, action, chance)

    monkeypatch.setattr(type(ruleset), "apply", counting)
    for seat in (1, 2):
        store.recorder.get_match(match_id)  # the cached match catches up with the store first
        applied.clear()
        store.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="test")
        assert len(applied) == 1


def test_an_undo_uses_the_position_the_recorder_read_and_does_not_re_project(
        store: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = store.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})
    for _ in range(3):
        _end_turn(store, match_id)
    projections: list[int] = []
    original = fold_module.project

    def counting(*args: Any) -> GameState:
        projections.append(len(args[3]))
        return original(*args)

    monkeypatch.setattr(fold_module, "project", counting)
    store.undo(match_id, 2, reason="misrecorded", recorded_by="judge")
    assert projections == []
    # nothing staged: a fresh reader takes the undo's target position from the store, as it
    # reads any past position (issue 16: a snapshot keeps no actions to re-project from)
    fresh = Recorder(env=dict(store.recorder.env), keyring=store.recorder.keyring)
    try:
        match = fresh.get_match(match_id)
    finally:
        fresh.close()
    assert projections == [] and [entry[1] for entry in match.live] == [1]
    assert store.recorder.get_match(match_id).state == match.state


@pytest.mark.parametrize("path", GOLDEN_WITH_UNDO, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_aggregate_transcript_and_audit_agree_on_the_live_line(path: Path,
                                                                   store: Kiroku) -> None:
    records = _golden(path)
    seen = Recording()
    fold = Fold(seen).feed_all(records)
    game = records[0]["game"]

    imported = store.import_match((path / "match.jsonl").read_bytes())
    match = store.recorder.get_match(imported.match_id)
    # the match keeps each live action's version, seq and seat; its action and outcomes
    # are in its event (ledger.match._lean)
    assert [entry[:3] for entry in match.live] == [entry[:3] for entry in fold.live]
    assert all(entry[3:] == (None, None) for entry in match.live)
    assert _digest(game, match.state) == _digest(game, fold.state)
    assert match.next_seq == max(r.get("seq", 0) for r in records) + 1

    lines = transcript_lines(records, JUDGE)
    marked = {int(line.split(" #")[1].split()[0]) for line in lines if line.endswith("[undone]")}
    assert marked == {seq for seqs in seen.voided for seq in seqs}
    assert len(lines) == len(records)

    report = verify_records(records)
    assert report.ok, report.failure
    assert report.actions == sum(1 for kind, _ in seen.calls if kind == "action")
