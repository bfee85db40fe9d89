"""A window of a match's events and transcript (issue 43): ``?until=`` and ``?last=`` on
``GET /matches/{id}/events`` and ``/transcript`` answer exactly the matching part of the whole
answer as it stood at ``until``, for every viewer, through undos that reach back past the
window's start, a pause and a delayed spectator's horizon; and a bad window is a 422."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import httpx
import pytest

from engine.core.viewer import Viewer
from engine.registry import get_game
from ledger.identity import Identity
from replay.service import Kiroku, Window
from tests.replay.conftest import Server, served_store

VIEWERS = ("judge", "seat:1", "seat:2", "spectator")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kiroku, Server]]:
    yield from served_store(tmp_path_factory, "windows")


def _act(kiroku: Kiroku, match_id: UUID, count: int, rng: random.Random) -> bool:
    """``count`` legal actions, each by the seat to act: every other one ends the turn (a
    card drawn out of the other seat's sight), the others are random (no concession);
    False if the match ended before (its shuffles come from its own random seed)."""
    ruleset = get_game("worldgainer")
    for n in range(count):
        state = kiroku.recorder.get_match(match_id).state
        if not ruleset.to_act(state):
            return False
        seat = ruleset.to_act(state)[0]
        legal = [a for a in ruleset.legal_actions(state, seat) if a.type != "concede"]
        ends = [a for a in legal if a.type == "end_turn"]
        action = ends[0] if ends and n % 2 else rng.choice(legal)
        kiroku.record(match_id, action.model_dump(mode="json"), recorded_by="P")
    return True


def _match(kiroku: Kiroku, **options: Any) -> tuple[UUID, dict[int, str]]:
    """A closed World Gainer match whose events hold undos of a few actions and of many (back
    past most windows' starts) and a dispute's pause and resumption; its seats' tokens. A
    match that a random line ends too soon, or by its last action, is set aside for
    another."""
    for _ in range(20):
        match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"],
                                    ["solar_vanguard", "pleiades_bloom"],
                                    replay_policy="closed",
                                    options={"first_player": 1, **options})
        rng = random.Random(7)
        if not _act(kiroku, match_id, 30, rng):
            continue
        kiroku.undo(match_id, 3, reason="misclick", recorded_by="judge")
        if not _act(kiroku, match_id, 12, rng):
            continue
        kiroku.undo(match_id, None, to_position=20, reason="ruling", recorded_by="judge")
        # still on at the end too: a delayed spectator sees an ended match whole
        if _act(kiroku, match_id, 15, rng) and not kiroku.recorder.get_match(match_id).ended:
            break
    else:
        raise AssertionError("20 matches in a row ended too soon")
    seats = kiroku.seat_credentials(match_id, Identity.operator())
    return match_id, {s["seat"]: s["token"] for s in seats}


def _live_positions_up_to(records: list[dict[str, Any]], after: int) -> int:
    """The positions the page numbers before the events after ``after``: the actions up to it
    that no undo of the whole match voids."""
    voided = {seq for r in records if r["event"] == "ActionsUndone" for seq in r["seqs"]}
    return sum(1 for r in records if r["event"] == "ActionRecorded"
               and r["version"] <= after and r["seq"] not in voided)


def test_a_window_is_the_whole_answers_part_for_every_viewer(
        store: tuple[Kiroku, Server]) -> None:
    kiroku, _ = store
    match_id, _ = _match(kiroku)
    version = kiroku.recorder.get_match(match_id).version
    for name in VIEWERS:
        audience = kiroku.seen_by(match_id, Viewer.parse(name))
        whole = kiroku.transcript(audience)
        records = kiroku.records(audience)
        assert len(whole) == len(records) == version
        for until in (None, version - 1, 45, 33, 2):
            upto = version if until is None else until
            as_then = kiroku.transcript(audience, Window(until=until))
            assert as_then == (whole if until is None else kiroku.transcript(
                kiroku.seen_by(match_id, Viewer.parse(name)), Window(until=until)))
            assert len(as_then) == upto
            for last in (1, 2, 5, 12, 25, upto, upto + 10):
                window = Window(until, last)
                expected = as_then[max(0, upto - last):]
                assert kiroku.transcript(audience, window) == expected, (name, until, last)
                assert kiroku.records(audience, window) == records[max(0, upto - last):upto]
                answer = kiroku.transcript_window(audience, window)
                assert answer["lines"] == expected
                assert answer["after"] == max(0, upto - last)
                assert answer["positions_before"] == _live_positions_up_to(
                    records, answer["after"])


def test_a_window_read_after_a_restart_resumes_from_the_store(
        store: tuple[Kiroku, Server], tmp_path_factory: pytest.TempPathFactory) -> None:
    """A fresh service (nothing kept in memory) reads the match as it stood at the window's
    start from its stored events and snapshots, and answers as the service that recorded it."""
    kiroku, server = store
    match_id, _ = _match(kiroku)
    fresh = Kiroku.open(server.db_url)
    try:
        audience = fresh.seen_by(match_id, Viewer.parse("seat:2"))
        ours = kiroku.seen_by(match_id, Viewer.parse("seat:2"))
        for last in (3, 8, 17, 40):
            assert fresh.transcript(audience, Window(last=last)) == kiroku.transcript(ours)[
                -last:]
    finally:
        fresh.close()


def _get(client: httpx.Client, match_id: UUID, what: str, **params: Any) -> Any:
    answer = client.get(f"/matches/{match_id}/{what}", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_windows_over_http_are_each_callers_own(store: tuple[Kiroku, Server]) -> None:
    kiroku, server = store
    match_id, seats = _match(kiroku)
    callers = {"seat:1": seats[1], "seat:2": seats[2], "spectator": None}
    for name, token in callers.items():
        with server.client(token) as client:
            whole = _get(client, match_id, "transcript")
            events = _get(client, match_id, "events")
            assert whole == {"match_id": str(match_id), "lines": whole["lines"]}
            window = _get(client, match_id, "transcript", last=10)
            assert window["lines"] == whole["lines"][-10:], name
            assert window["after"] == len(whole["lines"]) - 10
            assert window["positions_before"] == _live_positions_up_to(events,
                                                                       window["after"])
            assert _get(client, match_id, "events", last=10) == events[-10:]
            assert _get(client, match_id, "events", until=20, last=4) == events[16:20]
            assert _get(client, match_id, "transcript", until=20, last=4)["lines"] == (
                kiroku.transcript(kiroku.seen_by(match_id, Viewer.parse(name)),
                                  Window(until=20))[-4:])


def test_a_delayed_spectators_window_ends_at_its_horizon(
        store: tuple[Kiroku, Server]) -> None:
    kiroku, server = store
    match_id, _ = _match(kiroku, spectators="delayed", spectator_delay=3)
    with server.client() as anonymous:
        whole = _get(anonymous, match_id, "transcript")["lines"]
        events = _get(anonymous, match_id, "events")
        horizon = kiroku.seen_by(match_id, Viewer.parse("spectator")).version
        assert len(whole) == len(events) == horizon < kiroku.recorder.get_match(
            match_id).version
        far = kiroku.recorder.get_match(match_id).version + 5
        assert _get(anonymous, match_id, "transcript", until=far, last=6)["lines"] == whole[-6:]
        assert _get(anonymous, match_id, "events", until=far, last=6) == events[-6:]


@pytest.mark.parametrize("query", ["last=0", "last=-1", "last=x", "until=-1", "until=1.5",
                                   "last=10001", "until=99999999999"])
@pytest.mark.parametrize("what", ["events", "transcript"])
def test_a_bad_window_is_a_422(store: tuple[Kiroku, Server], what: str, query: str) -> None:
    kiroku, server = store
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"],
                                ["solar_vanguard", "pleiades_bloom"],
                                options={"first_player": 1})
    with server.client() as anonymous:
        answer = anonymous.get(f"/matches/{match_id}/{what}?{query}")
    assert answer.status_code == 422, answer.text
    assert answer.json()["reason"] == "malformed_request", answer.text


def test_an_empty_window(store: tuple[Kiroku, Server]) -> None:
    kiroku, server = store
    match_id, _ = _match(kiroku)
    with server.client() as anonymous:
        assert _get(anonymous, match_id, "events", until=0) == []
        assert _get(anonymous, match_id, "transcript", until=0, last=5) == {
            "match_id": str(match_id), "lines": [], "after": 0, "positions_before": 0}
