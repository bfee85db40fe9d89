"""Spectating a live match: allowed, delayed by a number of positions, or refused, as the match
was created (options ``spectators`` and ``spectator_delay``); after the end the replay policy
decides. Seats and judges are never held back."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest

from engine import JUDGE, SPECTATOR, Viewer
from ledger.errors import Forbidden
from replay.service import Kiroku


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _match(kiroku: Kiroku, turns: int, **options: object) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1, **options},
                                replay_policy="closed")
    for turn in range(turns):
        seat = 1 + turn % 2
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")
    return match_id


def test_new_matches_are_watched_live_by_default(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, 4)
    options = kiroku.summary(kiroku.seen_by(match_id))["options"]
    assert (options["spectators"], options["spectator_delay"]) == ("live", 3)
    assert kiroku.view(kiroku.seen_by(match_id, SPECTATOR), None)["position"] == 4


def test_a_refusing_match_cannot_be_watched_while_it_is_on(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, 2, spectators="refused")
    for read in (lambda: kiroku.view(kiroku.seen_by(match_id, SPECTATOR), None),
                 lambda: kiroku.view(kiroku.seen_by(match_id, SPECTATOR), 0),
                 lambda: kiroku.records(kiroku.seen_by(match_id, SPECTATOR)),
                 lambda: kiroku.transcript(kiroku.seen_by(match_id, SPECTATOR)),
                 lambda: kiroku.export(kiroku.seen_by(match_id, SPECTATOR), "jsonl")):
        with pytest.raises(Forbidden) as info:
            read()
        assert info.value.reason == "spectating_refused"
    assert kiroku.view(kiroku.seen_by(match_id, Viewer("seat", 1)), None)["position"] == 2
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="Ann")
    # over: the replay opens
    assert kiroku.view(kiroku.seen_by(match_id, SPECTATOR), None)["position"] == 3


def test_a_delayed_spectator_sees_the_match_positions_behind(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, 5, spectators="delayed", spectator_delay=2)
    seen = kiroku.view(kiroku.seen_by(match_id, SPECTATOR), None)
    assert (seen["position"], seen["positions"]) == (3, 3)
    with pytest.raises(Forbidden) as info:
        kiroku.view(kiroku.seen_by(match_id, SPECTATOR), 4)
    assert info.value.reason == "spectator_delay"
    records = kiroku.records(kiroku.seen_by(match_id, SPECTATOR))
    assert [r["seq"] for r in records if r["event"] == "ActionRecorded"] == [1, 2, 3]
    # creation and three actions
    assert len(kiroku.transcript(kiroku.seen_by(match_id, SPECTATOR))) == 4
    assert kiroku.view(kiroku.seen_by(match_id, JUDGE), None)["position"] == 5
    assert kiroku.view(kiroku.seen_by(match_id, Viewer("seat", 2)), 5)["position"] == 5


def test_a_delayed_spectators_summary_stands_where_its_view_does(kiroku: Kiroku) -> None:
    """The summary once said the live version, positions, turn and who is to act to anyone:
    a delayed spectator learned from it what the delay hides."""
    match_id = _match(kiroku, 5, spectators="delayed", spectator_delay=2)
    seen = kiroku.summary(kiroku.seen_by(match_id, SPECTATOR))
    judged = kiroku.summary(kiroku.seen_by(match_id, JUDGE))
    view = kiroku.view(kiroku.seen_by(match_id, SPECTATOR), None)
    assert (seen["positions"], seen["version"]) == (3, view["version"]) != (5, judged["version"])
    assert seen["turn"] == view["state"]["turn"] != judged["turn"]
    assert seen["to_act"] == kiroku.to_act_at(kiroku.seen_by(match_id), 3)
    refused = kiroku.summary(kiroku.seen_by(_match(kiroku, 2, spectators="refused"), SPECTATOR))
    assert (refused["positions"], refused["version"]) == (0, 1)
