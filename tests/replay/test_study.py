"""Studies (issue 13): a match with its annotations and variations as a readable text
document that goes back in: the same annotations and lines come out again, each reader sees
only what it may, and a study with one bad item stores nothing."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest

from engine.core.errors import ActionError
from ledger.errors import ImportRejected
from ledger.identity import Identity
from replay import annotations as annotating
from replay import disputes as hearing
from replay import study as studies
from replay import variations as lines
from replay.service import Kiroku

JUDGE_ID = Identity.operator("Judge Jun")


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _studied_match(kiroku: Kiroku) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1})
    for turn in range(3):
        seat = 1 + turn % 2
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")
    judge = kiroku.audience(match_id, JUDGE_ID)
    annotating.add(kiroku, judge, 1, "a quiet start", ["dubious"], ["hand#1"], [], "public")
    annotating.add(kiroku, judge, 2, "judges only", ["rules_question"], [], [], "judges")
    outer = UUID(lines.start(kiroku, judge, 1, None, None, "Ben passes",
                             "public")["variation_id"])
    lines.play(kiroku, JUDGE_ID, outer, {"type": "end_turn", "seat": 2}, None)
    inner = UUID(lines.start(kiroku, kiroku.audience(match_id, JUDGE_ID), None, outer, 1,
                             "and again", "private")["variation_id"])
    lines.play(kiroku, JUDGE_ID, inner, {"type": "end_turn", "seat": 1}, None)
    annotating.add(kiroku, kiroku.audience(match_id, JUDGE_ID), 1, "the better line", ["good"],
                   ["hand#2"], [], "public", outer)
    return match_id


def test_a_study_reads_like_the_match(kiroku: Kiroku) -> None:
    match_id = _studied_match(kiroku)
    text = studies.export_study(kiroku, kiroku.audience(match_id, JUDGE_ID))
    rows = text.splitlines()
    assert rows[0] == '[Kiroku "study/1"]' and f'[Match "{match_id}"]' in rows
    assert '[Players "Ann; Ben"]' in rows and '[Result "*"]' in rows
    assert rows[rows.index("0. setup") + 1].startswith('1. {"seat": 1, "type": "end_turn"}')
    assert '"text": "a quiet start"' in text and '"text": "judges only"' in text
    assert '}  # P1: Seat 1 ends the turn. Seat 2 draws ' in text  # the transcript's sentence
    assert '  ( {"name": "Ben passes", "visibility": "public"}' in rows
    assert '    ( {"name": "and again", "visibility": "private"}' in rows
    assert any(row.startswith("      ; {") and "the better line" in row for row in rows)


def test_spectators_get_the_public_part_only(kiroku: Kiroku) -> None:
    match_id = _studied_match(kiroku)
    text = studies.export_study(kiroku, kiroku.audience(match_id, None))
    assert '[Viewer "spectator"]' in text and "a quiet start" in text
    assert "# P1: Seat 1 ends the turn. Seat 2 draws a card." in text  # not which card
    assert "judges only" not in text and "Ben passes" not in text  # the match is still on
    assert "the better line" not in text  # on a line spectators may not read yet


def test_a_study_goes_back_in(kiroku: Kiroku) -> None:
    match_id = _studied_match(kiroku)
    text = studies.export_study(kiroku, kiroku.audience(match_id, JUDGE_ID))
    other = Kiroku.open("sqlite:///:memory:")
    try:
        other.import_match(kiroku.export(kiroku.seen_by(match_id)))
        done = studies.import_study(other, JUDGE_ID, text)
        assert done == {"match_id": str(match_id), "annotations": 3, "variations": 2}
        again = studies.export_study(other, other.audience(match_id, JUDGE_ID))
        assert again == text
    finally:
        other.close()


def test_one_bad_item_stores_nothing(kiroku: Kiroku) -> None:
    match_id = _studied_match(kiroku)
    text = studies.export_study(kiroku, kiroku.audience(match_id, JUDGE_ID))
    before = studies.export_study(kiroku, kiroku.audience(match_id, JUDGE_ID))
    illegal = text.replace('2. {"action": {"seat": 2, "type": "end_turn"}',
                           '2. {"action": {"seat": 1, "type": "end_turn"}')
    with pytest.raises(ActionError):
        studies.import_study(kiroku, JUDGE_ID, illegal)
    for broken in ("hello", text.replace("  )\n", "", 1), '[Kiroku "study/9"]\n',
                   text.replace("  ; {", "  ; {oops", 1)):
        with pytest.raises(ImportRejected):
            studies.import_study(kiroku, JUDGE_ID, broken)
    assert studies.export_study(kiroku, kiroku.audience(match_id, JUDGE_ID)) == before


def test_a_seat_cannot_import_what_it_may_not_write(kiroku: Kiroku) -> None:
    match_id = _studied_match(kiroku)
    text = studies.export_study(kiroku, kiroku.audience(match_id, JUDGE_ID))
    token = kiroku.seat_credentials(match_id, JUDGE_ID)[0]["token"]
    ann = kiroku.credentials.authenticate(token)
    with pytest.raises(Exception, match="cards you may not see"):
        studies.import_study(kiroku, ann, text)
    assert len(annotating.listing(kiroku, kiroku.audience(match_id, JUDGE_ID))) == 3


def test_an_annotated_transcript_places_notes_and_rulings_where_they_belong(
        kiroku: Kiroku) -> None:
    match_id = _studied_match(kiroku)
    dispute = hearing.open_dispute(kiroku, JUDGE_ID, match_id, None, "a slow turn", [], False)
    hearing.rule(kiroku, JUDGE_ID, UUID(dispute["dispute_id"]), "Warning", "Slow play.",
                 {"kind": "penalty", "penalty": "warning", "seat": 2})
    judge = studies.annotated_transcript(kiroku, kiroku.audience(match_id, JUDGE_ID))
    first = next(i for i, line in enumerate(judge) if "#1 Seat 1 ends the turn" in line)
    assert "a quiet start" in judge[first + 1] and "judges only" in judge[first + 3]
    assert any("dispute" in line and "a slow turn" in line for line in judge)
    assert any("ruling on" in line and "Warning (penalty)" in line for line in judge)
    spectator = studies.annotated_transcript(kiroku, kiroku.audience(match_id, None))
    assert any("a quiet start" in line for line in spectator)
    assert not any("judges only" in line or "dispute" in line for line in spectator)
