"""A dispute's pause is in the match's own stream (MatchPaused, MatchResumed), saved with the
dispute's docket; a seat's action is checked against the match it appends to, so an action
validated before a pause, in this process or another, cannot be stored after it. On SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from engine.core.errors import IllegalAction
from ledger.disputes import MatchPaused, docket_id
from ledger.errors import ConcurrentAppend
from ledger.identity import Identity, Role
from ledger.match import Match
from replay import disputes as hearing
from replay.service import Kiroku

HEAD = Identity.operator("Head Judge Hana")


def _seat(kiroku: Kiroku, match_id: UUID, seat: int) -> Identity:
    token = kiroku.seat_credentials(match_id, HEAD)[seat - 1]["token"]
    return kiroku.credentials.authenticate(token)


def _judge(kiroku: Kiroku) -> Identity:
    return kiroku.credentials.issue(Role.JUDGE, "Judge Jun", issued_by="test")[0]


def _end_turn(kiroku: Kiroku, match_id: UUID, who: Identity) -> Any:
    return kiroku.record(match_id, {"type": "end_turn", "seat": who.seat},
                         recorded_by=who.recorded_by)


def _pause(kiroku: Kiroku, match_id: UUID, judge: Identity) -> UUID:
    made = hearing.open_dispute(kiroku, judge, match_id, None, "Ben drew two cards", [1],
                                pause=True)
    return UUID(made["dispute_id"])


def _events(kiroku: Kiroku, match_id: UUID) -> list[str]:
    return [r["event"] for r in kiroku.records(kiroku.seen_by(match_id))]


def test_a_pause_and_its_ruling_are_events_of_the_match(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    kiroku, _, match_id = servers
    judge = _judge(kiroku)
    dispute = _pause(kiroku, match_id, judge)
    paused = kiroku.records(kiroku.seen_by(match_id))[-1]
    assert paused["event"] == "MatchPaused"
    assert paused["dispute_id"] == str(dispute)
    assert paused["recorded_by"] == judge.recorded_by
    hearing.rule(kiroku, judge, dispute, "Play on", "Nothing wrong.", {"kind": "none"})
    resumed = kiroku.records(kiroku.seen_by(match_id))[-1]
    assert (resumed["event"], resumed["dispute_id"]) == ("MatchResumed", str(dispute))
    assert kiroku.recorder.get_match(match_id).pausing == ()
    assert kiroku.audit(match_id).ok


def test_a_seat_waits_for_the_ruling_and_nothing_is_stored(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    kiroku, _, match_id = servers
    judge, ann = _judge(kiroku), _seat(kiroku, match_id, 1)
    dispute = _pause(kiroku, match_id, judge)
    before = _events(kiroku, match_id)
    with pytest.raises(MatchPaused) as refused:
        _end_turn(kiroku, match_id, ann)
    assert refused.value.details == {"disputes": [str(dispute)]}
    assert _events(kiroku, match_id) == before
    hearing.rule(kiroku, judge, dispute, "Play on", "Nothing wrong.", {"kind": "none"})
    assert _end_turn(kiroku, match_id, ann).seq == 1


def test_a_judge_acts_during_the_pause(servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    kiroku, _, match_id = servers
    judge = _judge(kiroku)
    _pause(kiroku, match_id, judge)
    done = kiroku.record(match_id, {"type": "end_turn", "seat": 1},
                         recorded_by=judge.recorded_by)
    assert done.seq == 1
    assert kiroku.audit(match_id).ok


def test_a_seats_action_reads_nothing_of_the_docket(
        servers: tuple[Kiroku, Kiroku, UUID], store_reads: Callable[[Kiroku], list[UUID]]) -> None:
    kiroku, _, match_id = servers
    judge, ann = _judge(kiroku), _seat(kiroku, match_id, 1)
    hearing.rule(kiroku, judge, _pause(kiroku, match_id, judge), "Play on", "Nothing wrong.",
                 {"kind": "none"})
    reads = store_reads(kiroku)
    _end_turn(kiroku, match_id, ann)
    assert docket_id(match_id) not in reads


def test_an_action_validated_before_a_pause_elsewhere_is_refused(
        servers: tuple[Kiroku, Kiroku, UUID], monkeypatch: pytest.MonkeyPatch) -> None:
    first, second, match_id = servers
    judge, ann = _judge(first), _seat(first, match_id, 1)
    save = second.recorder.save
    filed: list[UUID] = []

    def pause_first(*aggregates: Any, **kwargs: Any) -> Any:
        # the judge in the other server pauses the match after this action was validated
        # against the match as it stood, and before it is saved
        if not filed:
            filed.append(_pause(first, match_id, judge))
        return save(*aggregates, **kwargs)

    monkeypatch.setattr(second.recorder, "save", pause_first)
    with pytest.raises(MatchPaused):
        _end_turn(second, match_id, ann)
    assert _events(first, match_id) == ["MatchCreated", "MatchPaused"]
    assert first.audit(match_id).ok


def test_an_ended_match_takes_no_pause(servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    kiroku, _, match_id = servers
    judge, ann = _judge(kiroku), _seat(kiroku, match_id, 1)
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by=ann.recorded_by)
    before = _events(kiroku, match_id)
    dispute = _pause(kiroku, match_id, judge)
    assert kiroku.disputes.docket(match_id).pausing == [str(dispute)]
    assert _events(kiroku, match_id) == before
    assert kiroku.audit(match_id).ok


def test_a_reopened_match_is_paused_as_its_docket_says(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    kiroku, _, match_id = servers
    judge, ann, ben = (_judge(kiroku), _seat(kiroku, match_id, 1),
                       _seat(kiroku, match_id, 2))
    _end_turn(kiroku, match_id, ann)
    _end_turn(kiroku, match_id, ben)
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by=ann.recorded_by)
    holding = _pause(kiroku, match_id, judge)  # filed after the end: no MatchPaused yet
    reopening = hearing.open_dispute(kiroku, judge, match_id, None, "Ann conceded by mistake",
                                     [4], pause=False)
    hearing.rule(kiroku, judge, UUID(reopening["dispute_id"]), "Reopen", "A slip.",
                 {"kind": "reopen", "to_position": 2})
    events = _events(kiroku, match_id)
    assert events[-3:] == ["MatchReopened", "ActionsUndone", "MatchPaused"]
    assert kiroku.records(kiroku.seen_by(match_id))[-1]["dispute_id"] == str(holding)
    with pytest.raises(MatchPaused):
        _end_turn(kiroku, match_id, ann)
    assert kiroku.audit(match_id).ok


def _forge(kiroku: Kiroku, match_id: UUID, cls: type[Any], payload: dict[str, Any]) -> None:
    """Store an event the recorder would not (the audit must catch it)."""
    match = kiroku.recorder.get_match(match_id)
    sealer = kiroku.recorder._sealer(match_id)
    match._append(cls, {**payload, "recorded_at": "2026-11-22T00:00:00Z"}, sealer)
    kiroku.recorder.save(match, sealed=sealer.sealed)


def test_the_audit_finds_a_seats_action_during_a_pause(
        servers: tuple[Kiroku, Kiroku, UUID], monkeypatch: pytest.MonkeyPatch) -> None:
    kiroku, _, match_id = servers
    judge, ann = _judge(kiroku), _seat(kiroku, match_id, 1)
    _pause(kiroku, match_id, judge)
    monkeypatch.setattr("ledger.match.by_staff", lambda recorded_by: True)
    _end_turn(kiroku, match_id, ann)
    report = kiroku.audit(match_id)
    assert report.failure is not None
    assert (report.failure["reason"], report.failure["version"]) == ("action_while_paused", 3)


def test_the_audit_finds_a_resumption_of_no_pause(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    kiroku, _, match_id = servers
    _forge(kiroku, match_id, Match.Resumed, {"dispute_id": "not-a-dispute",
                                             "recorded_by": "forger"})
    report = kiroku.audit(match_id)
    assert report.failure is not None and report.failure["reason"] == "bad_pause"


def test_the_audit_finds_a_second_pause_by_one_dispute(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    kiroku, _, match_id = servers
    dispute = _pause(kiroku, match_id, _judge(kiroku))
    _forge(kiroku, match_id, Match.Paused, {"dispute_id": str(dispute),
                                            "recorded_by": "forger"})
    report = kiroku.audit(match_id)
    assert report.failure is not None and report.failure["reason"] == "bad_pause"


def test_a_paused_match_exports_imports_and_reads_as_paused(
        servers: tuple[Kiroku, Kiroku, UUID], tmp_path: Any) -> None:
    kiroku, _, match_id = servers
    dispute = _pause(kiroku, match_id, _judge(kiroku))
    other = Kiroku.open(f"sqlite:///{tmp_path}/other.db")
    try:
        assert other.import_match(kiroku.export(kiroku.seen_by(match_id))).stored
        assert other.recorder.get_match(match_id).pausing == (str(dispute),)
        assert other.audit(match_id).ok
        lines = other.transcript(other.seen_by(match_id))
        assert any(f"match paused by dispute {dispute}" in line for line in lines)
    finally:
        other.close()


def test_a_match_imported_paused_resumes_when_its_new_store_hears_it(
        servers: tuple[Kiroku, Kiroku, UUID], tmp_path: Any) -> None:
    kiroku, _, match_id = servers
    _pause(kiroku, match_id, _judge(kiroku))
    other = Kiroku.open(f"sqlite:///{tmp_path}/other.db")
    try:
        other.import_match(kiroku.export(kiroku.seen_by(match_id)))
        ann = _seat(other, match_id, 1)
        with pytest.raises(MatchPaused):
            _end_turn(other, match_id, ann)
        # the pausing dispute is not in this store: any dispute heard here brings the match's
        # pause in step with this store's docket
        hearing.open_dispute(other, _judge(other), match_id, None, "Imported paused", [1],
                             pause=False)
        assert _events(other, match_id)[-1] == "MatchResumed"
        # judged by the rules again: imported without its seed, the draw comes from the table
        with pytest.raises(IllegalAction) as refused:
            _end_turn(other, match_id, ann)
        assert refused.value.reason == "outcome_missing"
        assert other.audit(match_id).ok
    finally:
        other.close()



def test_an_appeal_pauses_the_match_again_until_the_final_ruling(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    kiroku, _, match_id = servers
    judge, ben = _judge(kiroku), _seat(kiroku, match_id, 2)
    dispute = _pause(kiroku, match_id, judge)
    hearing.rule(kiroku, judge, dispute, "Play on", "Nothing wrong.", {"kind": "none"})
    hearing.appeal(kiroku, ben, dispute, "Ben drew two cards")
    appealed = kiroku.records(kiroku.seen_by(match_id))[-1]
    assert (appealed["event"], appealed["recorded_by"]) == ("MatchPaused", ben.recorded_by)
    with pytest.raises(MatchPaused):
        _end_turn(kiroku, match_id, _seat(kiroku, match_id, 1))
    hearing.rule(kiroku, HEAD, dispute, "Upheld", "Nothing wrong.", {"kind": "none"})
    assert _events(kiroku, match_id)[1:] == ["MatchPaused", "MatchResumed", "MatchPaused",
                                             "MatchResumed"]
    assert kiroku.audit(match_id).ok


def test_a_pause_that_loses_its_version_to_an_action_stores_nothing(
        servers: tuple[Kiroku, Kiroku, UUID], monkeypatch: pytest.MonkeyPatch) -> None:
    first, second, match_id = servers
    judge, ann = _judge(second), _seat(first, match_id, 1)
    dispute = UUID(hearing.open_dispute(second, judge, match_id, None, "Ben drew two cards",
                                        [1], pause=False)["dispute_id"])
    save = second.recorder.save

    def action_first(*aggregates: Any, **kwargs: Any) -> Any:
        # a seat's action in the other server takes the version the pause was computed for
        if not _events(first, match_id)[1:]:
            _end_turn(first, match_id, ann)
        return save(*aggregates, **kwargs)

    monkeypatch.setattr(second.recorder, "save", action_first)
    with pytest.raises(ConcurrentAppend):
        hearing.take(second, judge, dispute, pause=True)
    assert _events(first, match_id) == ["MatchCreated", "ActionRecorded"]
    assert first.disputes.get(dispute).status == "open"
    assert first.disputes.docket(match_id).pausing == []
    monkeypatch.setattr(second.recorder, "save", save)
    hearing.take(second, judge, dispute, pause=True)  # sent again, it pauses the match
    assert _events(first, match_id)[-1] == "MatchPaused"
