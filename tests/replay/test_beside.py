"""The audit of what lives beside a match (issue 13): variations replayed against their
digests, rulings found in the match's record, annotations of known lines. Each tamper here is a
write that bypasses the rules (a bug, or someone with the database), and the audit names it."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import main
from ledger.disputes import Dispute
from ledger.identity import Identity
from ledger.recorder import now
from ledger.variations import Variation
from replay import annotations as annotating
from replay import beside
from replay import disputes as hearing
from replay import variations as lines
from replay.service import Kiroku
from tests.replay.test_dispute_races import _grail_before_its_dispute
from tests.replay.test_disputes import four_turns

HEAD = Identity.operator("Head Judge Hana")


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _line(kiroku: Kiroku, match_id: UUID) -> UUID:
    variation = UUID(lines.start(kiroku, kiroku.audience(match_id, HEAD), 2, None, None,
                                 "what if", "private")["variation_id"])
    lines.play(kiroku, HEAD, variation, {"type": "end_turn", "seat": 1}, None)
    return variation


def test_what_was_made_by_the_rules_passes(kiroku: Kiroku) -> None:
    match_id = four_turns(kiroku)
    variation = _line(kiroku, match_id)
    annotating.add(kiroku, kiroku.audience(match_id, HEAD), 1, "here", [], [], [], "public",
                   variation)
    dispute = UUID(hearing.open_dispute(kiroku, HEAD, match_id, None, "x", [], False)[
        "dispute_id"])
    hearing.rule(kiroku, HEAD, dispute, "Back up", "y", {"kind": "backup", "to_position": 3})
    report = beside.verify(kiroku, match_id)
    assert report == {"ok": True, "variations": 1, "disputes": 1, "annotations": 1,
                      "failures": []}


def _replay_first_step_with_a_wrong_digest(kiroku: Kiroku, variation: UUID) -> None:
    """Take back a variation's first step and play it again with a digest the rules never
    reach."""
    stored = kiroku.variations.get(variation)
    step = stored.line[0]
    kiroku.variations.append(stored, Variation.TakenBack, count=1, by=HEAD.recorded_by,
                             recorded_at=now())
    kiroku.variations.append(stored, Variation.Played, action=step["action"],
                             outcomes=step["outcomes"], chance_source="seed",
                             digest="p1:" + "0" * 64, by=HEAD.recorded_by, recorded_at=now())


def test_a_line_step_that_the_rules_did_not_reach_is_found(kiroku: Kiroku) -> None:
    match_id = four_turns(kiroku)
    variation = _line(kiroku, match_id)
    _replay_first_step_with_a_wrong_digest(kiroku, variation)
    [found] = beside.verify(kiroku, match_id)["failures"]
    assert (found["stream"], found["reason"]) == ("variation", "variation_digest_mismatch")


def test_a_ruling_whose_remedy_never_happened_is_found(kiroku: Kiroku) -> None:
    match_id = four_turns(kiroku)
    dispute = kiroku.disputes.get(UUID(hearing.open_dispute(
        kiroku, HEAD, match_id, None, "x", [], False)["dispute_id"]))
    version = kiroku.recorder.get_match(match_id).version
    kiroku.disputes.save(dispute, Dispute.Ruled, HEAD.recorded_by, decision="Back up",
                         reasoning="y",
                         remedy={"kind": "backup", "to_position": 1},
                         applied={"kind": "backup", "to_position": 1, "version": version},
                         on_appeal=False, by=HEAD.recorded_by, recorded_at=now())
    [found] = beside.verify(kiroku, match_id)["failures"]
    assert (found["stream"], found["reason"]) == ("dispute", "remedy_not_in_match")


def test_a_remedy_applied_twice_for_one_ruling_is_a_stray(kiroku: Kiroku) -> None:
    """As two rulings at once left it before a ruling was one save with its remedy: both
    adjustments recorded, one ruling stored (issue 41)."""
    match_id = four_turns(kiroku)
    dispute = kiroku.disputes.get(UUID(hearing.open_dispute(
        kiroku, HEAD, match_id, None, "x", [], False)["dispute_id"]))
    hand = kiroku.view(kiroku.seen_by(match_id), None)["state"]["seats"][0]["hand"]
    for card in (hand[0]["id"], hand[-1]["id"]):  # the old way: each remedy saved apart
        adjust = {"type": "adjust", "seat": 1, "reason": f"ruling on dispute {dispute.id}: "
                  "back", "move": {"card": card, "from_zone": "hand", "to_zone": "deck"}}
        done = kiroku.record(match_id, adjust, recorded_by=HEAD.recorded_by)
    kiroku.disputes.save(dispute, Dispute.Ruled, HEAD.recorded_by, decision="back",
                         reasoning="y", remedy={"kind": "adjustment", "action": adjust},
                         applied={"kind": "adjustment", "version": done.version},
                         on_appeal=False, by=HEAD.recorded_by, recorded_at=now())
    [found] = beside.verify(kiroku, match_id)["failures"]
    assert (found["stream"], found["reason"]) == ("dispute", "remedy_without_ruling")
    assert "2 times" in found["message"]


def test_an_action_that_called_a_judge_without_its_dispute_is_a_stray(kiroku: Kiroku) -> None:
    """As a crash between an action that calls a judge and its dispute left it, when they
    were two saves (issue 41)."""
    match_id, action, chen = _grail_before_its_dispute(kiroku)
    kiroku.recorder.record(match_id, action, recorded_by=chen.recorded_by)  # no dispute
    [found] = beside.verify(kiroku, match_id)["failures"]
    assert (found["stream"], found["reason"]) == ("match", "call_without_dispute")
    # as ``audit verify`` asks: with the game its audit of the record read (issue 43)
    game = kiroku.audit(match_id).game
    assert game == "grail" and beside.verify(kiroku, match_id, game)["failures"] == [found]
    assert beside.verify(kiroku, four_turns(kiroku))["ok"]  # a game that calls no judge


def test_an_action_that_called_a_judge_with_its_dispute_passes(kiroku: Kiroku) -> None:
    match_id, action, chen = _grail_before_its_dispute(kiroku)
    kiroku.record(match_id, action, recorded_by=chen.recorded_by)
    assert beside.verify(kiroku, match_id)["ok"]


def test_the_command_line_audit_fails_on_a_finding(tmp_path: object) -> None:
    db = f"sqlite:///{tmp_path}/k.db"
    kiroku = Kiroku.open(db)
    try:
        match_id = four_turns(kiroku)
        variation = _line(kiroku, match_id)
        stored = kiroku.variations.get(variation)
        kiroku.variations.append(stored, Variation.TakenBack, count=1, by=HEAD.recorded_by,
                                 recorded_at=now())
        ok = CliRunner().invoke(main, ["--db", db, "audit", "verify", str(match_id)])
        assert ok.exit_code == 0 and "beside: 1 variation(s)" in ok.output
        kiroku.variations.append(kiroku.variations.get(variation), Variation.Played,
                                 action={"type": "end_turn", "seat": 1}, outcomes=[],
                                 chance_source="seed", digest="p1:forged",
                                 by=HEAD.recorded_by, recorded_at=now())
    finally:
        kiroku.close()
    failed = CliRunner().invoke(main, ["--db", db, "audit", "verify", str(match_id)])
    assert failed.exit_code == 1 and "variation_replay_failed" in failed.output  # no draw


def test_what_is_added_after_a_check_is_found_by_the_next(kiroku: Kiroku) -> None:
    """Each check brings the streams' read model up to date and looks for the match's docket
    anew: a line, an annotation and a dispute made since the last check are all checked."""
    match_id = four_turns(kiroku)
    assert beside.verify(kiroku, match_id) == {"ok": True, "variations": 0, "disputes": 0,
                                               "annotations": 0, "failures": []}
    variation = _line(kiroku, match_id)
    annotating.add(kiroku, kiroku.audience(match_id, HEAD), 1, "here", [], [], [], "public",
                   variation)
    assert beside.verify(kiroku, match_id)["variations"] == 1
    dispute = UUID(hearing.open_dispute(kiroku, HEAD, match_id, None, "x", [], False)[
        "dispute_id"])
    hearing.rule(kiroku, HEAD, dispute, "Back up", "y", {"kind": "backup", "to_position": 3})
    _replay_first_step_with_a_wrong_digest(kiroku, variation)
    report = beside.verify(kiroku, match_id)
    assert (report["variations"], report["disputes"], report["annotations"]) == (1, 1, 1)
    assert [f["reason"] for f in report["failures"]] == ["variation_digest_mismatch"]


def test_a_check_of_every_match_reads_the_streams_as_its_caller_caught_them_up(
        kiroku: Kiroku) -> None:
    """``audit verify`` of every match brings the streams' read model up to date once, as it
    starts (issue 43: two reads fewer for each match); each match's streams are then read as
    of that moment, and a line started later is found by the next check."""
    match_id = four_turns(kiroku)
    beside.catch_up_streams(kiroku)
    _line(kiroku, match_id)
    assert beside.verify(kiroku, match_id, streams_current=True)["variations"] == 0
    assert beside.verify(kiroku, match_id)["variations"] == 1
