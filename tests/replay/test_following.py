"""Live streams wait for their match to move (issue 41, ``replay.api.following``): streams of
a match where nothing happens read nothing but one look at the store a tick, whatever their
number; an action recorded here wakes them at once, one recorded by another process at the
next look; and every stream of one caller shares one reading of where the match stands.

The hub in process, on a real store; the stream itself over a real server, with the match
moved by another process (this one, writing to the server's store). No timing is asserted
beyond "within seconds"."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from replay.api import following as following_module
from replay.api.following import Following
from replay.service import Kiroku
from tests.replay.conftest import Server, served_store

DECKS = ["solar_vanguard", "pleiades_bloom"]


@pytest.fixture
def kiroku(tmp_path: Path) -> Iterator[Kiroku]:
    service = Kiroku.open(f"sqlite:///{tmp_path / 'kiroku.db'}")
    yield service
    service.close()


def _match(kiroku: Kiroku) -> UUID:
    return kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})


def _end_turn(kiroku: Kiroku, match_id: UUID, seat: int) -> int:
    return kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="P").version


def _counted_looks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    looks: list[int] = []
    look = following_module._stored_versions

    def counting(kiroku: Kiroku, known: dict[UUID, int]) -> dict[UUID, int]:
        looks.append(len(known))
        return look(kiroku, known)

    monkeypatch.setattr(following_module, "_stored_versions", counting)
    return looks


def test_streams_of_a_match_where_nothing_happens_share_one_look_a_tick(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = _match(kiroku)
    looks = _counted_looks(monkeypatch)
    hub = Following(kiroku, check_every=0.1)

    async def stream() -> bool:
        async with hub.follow(match_id, 1):
            return await hub.moved_past(match_id, 1, 1.0)

    async def streams() -> list[bool]:
        return await asyncio.gather(*(stream() for _ in range(200)))

    assert asyncio.run(streams()) == [False] * 200
    assert 1 <= len(looks) <= 15 and set(looks) == {1}  # one match a look, not 200 streams


def test_an_action_recorded_here_wakes_its_streams_at_once(kiroku: Kiroku) -> None:
    match_id = _match(kiroku)
    hub = Following(kiroku, check_every=3600)  # no look at the store in this test

    async def run() -> tuple[bool, int]:
        async with hub.follow(match_id, 1):
            waiting = asyncio.ensure_future(hub.moved_past(match_id, 1, 60))
            await asyncio.sleep(0)
            version = await asyncio.to_thread(_end_turn, kiroku, match_id, 1)
            await asyncio.to_thread(hub.moved, match_id, version)  # as the action's route does
            return await asyncio.wait_for(waiting, 10), hub.version(match_id)

    assert asyncio.run(run()) == (True, 2)


def test_an_action_recorded_elsewhere_wakes_its_streams_at_the_next_look(
        kiroku: Kiroku, tmp_path: Path) -> None:
    match_id = _match(kiroku)
    other_process = Kiroku.open(f"sqlite:///{tmp_path / 'kiroku.db'}")
    hub = Following(kiroku, check_every=0.05)

    async def run() -> tuple[bool, int]:
        async with hub.follow(match_id, 1):
            waiting = asyncio.ensure_future(hub.moved_past(match_id, 1, 60))
            await asyncio.to_thread(_end_turn, other_process, match_id, 1)
            await asyncio.to_thread(_end_turn, other_process, match_id, 2)
            moved = await asyncio.wait_for(waiting, 10)
            while hub.version(match_id) < 3:
                await asyncio.sleep(0.05)
            return moved, hub.version(match_id)

    try:
        assert asyncio.run(run()) == (True, 3)
    finally:
        other_process.close()


def test_the_streams_of_one_caller_share_one_reading(kiroku: Kiroku) -> None:
    match_id = _match(kiroku)
    hub = Following(kiroku, check_every=3600)
    readings: list[int] = []

    def read() -> tuple[str, int]:
        readings.append(1)
        time.sleep(0.05)  # long enough for every stream to ask meanwhile
        return "where it stands", kiroku.recorder.get_match(match_id).version

    async def run() -> list[Any]:
        async with hub.follow(match_id, 1):
            first = await asyncio.gather(*(hub.stand(match_id, None, read) for _ in range(50)))
            hub.moved(match_id, _end_turn(kiroku, match_id, 1))
            await asyncio.sleep(0)  # the move lands on the loop
            second = await asyncio.gather(*(hub.stand(match_id, None, read)
                                            for _ in range(50)))
            other = await hub.stand(match_id, "another caller", read)
            return [*first, *second, other]

    assert set(asyncio.run(run())) == {"where it stands"}
    assert len(readings) == 3  # one per version for one caller, one for the other caller


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kiroku, Server]]:
    """A store this process records in, and a real server reading it."""
    yield from served_store(tmp_path_factory, "following")


def test_a_stream_hears_an_action_recorded_by_another_process(
        store: tuple[Kiroku, Server]) -> None:
    kiroku, server = store
    match_id = _match(kiroku)
    with server.client() as anonymous:
        with anonymous.stream("GET", f"/matches/{match_id}/live") as stream:
            events = (json.loads(line[5:]) for line in stream.iter_lines()
                      if line.startswith("data:"))
            assert next(events) == {"version": 1, "positions": 0}
            version = _end_turn(kiroku, match_id, 1)
            assert next(events) == {"version": version, "positions": 1}
            _end_turn(kiroku, match_id, 2)
            assert next(events)["positions"] == 2
