"""Annotations in the service (issue 13, first part): public annotations follow the spectator
rules while the match is on and the replay policy after it ends; each annotation is a stream of
its own, so the match's record is untouched."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest

from engine import JUDGE, SPECTATOR
from ledger.annotations import AnnotationRefused
from ledger.errors import Forbidden
from ledger.identity import Identity
from replay import annotations as annotating
from replay import variations as lines
from replay.service import Kiroku

OPERATOR = Identity.operator("Judge Jun")


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _match(kiroku: Kiroku, turns: int, policy: str = "closed", **options: object) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1, **options},
                                replay_policy=policy)
    for turn in range(turns):
        seat = 1 + turn % 2
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")
    return match_id


def _public(kiroku: Kiroku, match_id: UUID, position: int | None = None,
            highlights: list[str] | None = None, by: Identity = OPERATOR) -> str:
    made = annotating.add(kiroku, kiroku.audience(match_id, by), position, "watch this",
                          ["interesting"], highlights or [], [], "public")
    return str(made["annotation_id"])


def _seen_by_spectators(kiroku: Kiroku, match_id: UUID) -> set[str]:
    return {a["annotation_id"] for a in annotating.listing(kiroku, kiroku.audience(match_id, None))}


def _seat(kiroku: Kiroku, match_id: UUID, seat: int) -> Identity:
    token = kiroku.seat_credentials(match_id, OPERATOR)[seat - 1]["token"]
    return kiroku.credentials.authenticate(token)


def test_a_public_annotation_waits_for_the_spectator_delay(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, 4, spectators="delayed", spectator_delay=2)
    early, late = _public(kiroku, match_id, 2), _public(kiroku, match_id, 4)
    assert _seen_by_spectators(kiroku, match_id) == {early}
    for seat in (1, 2):
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")
    assert _seen_by_spectators(kiroku, match_id) == {early, late}


def test_no_public_annotation_while_spectators_are_refused(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, 2, spectators="refused")
    made = _public(kiroku, match_id)
    assert _seen_by_spectators(kiroku, match_id) == set()
    assert made in {a["annotation_id"]
                    for a in annotating.listing(kiroku, kiroku.audience(match_id,
                                                                   _seat(kiroku, match_id, 1)))}
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
    assert _seen_by_spectators(kiroku, match_id) == {made}


def test_after_an_open_replay_a_public_annotation_may_show_any_card(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, 2, policy="open")
    hand = sorted(annotating.known_cards(kiroku, kiroku.seen_by(match_id, JUDGE), 1)
                  - annotating.known_cards(kiroku, kiroku.seen_by(match_id, SPECTATOR), 1))
    seat1 = _seat(kiroku, match_id, 1)
    with pytest.raises(AnnotationRefused):
        _public(kiroku, match_id, 1, hand[:1], by=seat1)
    kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="P2")
    made = _public(kiroku, match_id, 1, hand[:1], by=seat1)
    assert made in _seen_by_spectators(kiroku, match_id)


def test_a_closed_replay_keeps_hands_out_of_public_annotations(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, 2, policy="closed")
    kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="P2")
    hidden = sorted(annotating.known_cards(kiroku, kiroku.seen_by(match_id, JUDGE), 1)
                    - annotating.known_cards(kiroku, kiroku.seen_by(match_id, SPECTATOR), 1))
    with pytest.raises(AnnotationRefused):
        _public(kiroku, match_id, 1, hidden[:1])


def test_annotations_are_streams_of_their_own(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, 2)
    before = kiroku.records(kiroku.seen_by(match_id, JUDGE))
    made = UUID(_public(kiroku, match_id))
    annotating.withdraw(kiroku, OPERATOR, made, "duplicate")
    assert kiroku.records(kiroku.seen_by(match_id, JUDGE)) == before
    assert kiroku.audit(match_id).ok
    assert [type(e).__name__ for e in kiroku.annotations.history(made)] == ["Created",
                                                                            "Withdrawn"]
    assert [m.match_id for m in kiroku.list_matches()] == [match_id]


def test_a_variation_is_annotated_like_the_main_line(kiroku: Kiroku) -> None:
    """Annotations of a variation's positions are read only by those who may read the line."""
    match_id = _match(kiroku, 2, policy="open")
    line = UUID(lines.start(kiroku, kiroku.audience(match_id, OPERATOR), 1, None, None,
                            "what if", "public")["variation_id"])
    lines.play(kiroku, OPERATOR, line, {"type": "end_turn", "seat": 2}, None)
    hidden = sorted(annotating.known_cards(kiroku, kiroku.seen_by(match_id,
                                                                  OPERATOR.viewer_of(match_id)), 1)
                    - annotating.known_cards(kiroku, kiroku.seen_by(match_id, SPECTATOR), 1))
    with pytest.raises(AnnotationRefused):  # public, and the line's cards are not yet public
        annotating.add(kiroku, kiroku.audience(match_id, OPERATOR), 0, "x", [], hidden[:1], [],
                       "public", line)
    made = annotating.add(kiroku, kiroku.audience(match_id, OPERATOR), 1, "a better turn",
                          ["good"], [], [], "public", line)
    assert made["variation"] == str(line) and made["position"] == 1
    with pytest.raises(AnnotationRefused):
        annotating.add(kiroku, kiroku.audience(match_id, OPERATOR), 5, "past the tip", [], [],
                       [], "public", line)
    seat1 = _seat(kiroku, match_id, 1)
    with pytest.raises(Forbidden):
        annotating.add(kiroku, kiroku.audience(match_id, seat1), 1, "mine", [], [], [],
                       "private", line)
    assert _seen_by_spectators(kiroku, match_id) == set()
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
    assert _seen_by_spectators(kiroku, match_id) == {made["annotation_id"]}
