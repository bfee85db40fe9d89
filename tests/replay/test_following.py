"""Live streams wait for their match to move (issues 41 and 43, ``replay.api.following``):
streams of a match where nothing happens read nothing, whatever their number; an action
recorded here wakes them at once; one recorded by another process wakes them by the store's
own word: on an SQLite file, its ``data_version`` (asked every few milliseconds) and the
notification log; on PostgreSQL, its notifications (``LISTEN``), with no look at the store
in between; and every stream of one caller shares one reading of where the match stands.

The hub in process, on a real store; the stream itself over real servers, with the match
moved by another process (this one, writing to the server's store), or through another
server on the same PostgreSQL database. No timing is asserted beyond "within seconds", but
every hub that must hear another process is built with its fallback look (``check_every``)
an hour away, so that only the push can wake it."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import psycopg
import pytest
from fastapi import FastAPI
from starlette.routing import Match

from ledger.identity import Role
from replay.api import create_app
from replay.api import following as following_module
from replay.api import live as live_module
from replay.api.following import Following
from replay.service import Kiroku
from tests.conftest import POSTGRES_URL, drop_schema, postgres_schema
from tests.replay.conftest import Server, serve, served_store

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


T = TypeVar("T")


def _in_loop(hub: Following, run: Callable[[], Awaitable[T]]) -> T:
    """``asyncio.run(run())``, returning once the hub's look at the store and its source
    have ended too (nothing is followed any more by then). A look still reading on a
    thread of its own when the test's store closed crashed the interpreter (a segmentation
    fault inside SQLite, one run in four of this module)."""

    async def then_settled() -> T:
        try:
            return await run()
        finally:
            for task in (hub._looking, hub._watching):
                if task is not None:
                    await task

    return asyncio.run(then_settled())


def _counted_looks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    looks: list[int] = []
    look = following_module._stored_versions

    def counting(kiroku: Kiroku, known: dict[UUID, int]) -> dict[UUID, int]:
        looks.append(len(known))
        return look(kiroku, known)

    monkeypatch.setattr(following_module, "_stored_versions", counting)
    return looks


def _counted_log_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    read = following_module._log_since

    def counting(changes: Any, table: str, head: int) -> tuple[int, dict[UUID, int]]:
        reads.append(head)
        return read(changes, table, head)

    monkeypatch.setattr(following_module, "_log_since", counting)
    return reads


def test_streams_of_a_match_where_nothing_happens_read_nothing(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = _match(kiroku)
    looks = _counted_looks(monkeypatch)
    log_reads = _counted_log_reads(monkeypatch)
    hub = Following(kiroku, check_every=0.01, change_every=0.01)

    async def stream() -> bool:
        async with hub.follow(match_id, 1):
            return await hub.moved_past(match_id, 1, 1.0)

    async def streams() -> list[bool]:
        return await asyncio.gather(*(stream() for _ in range(200)))

    assert _in_loop(hub, streams) == [False] * 200
    # the match looked at when followed (and when the tail began), then nothing for a second
    assert 1 <= len(looks) <= 2 and set(looks) == {1}
    assert log_reads == []


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

    assert _in_loop(hub, run) == (True, 2)


def _hears_another_process(hub: Following, other_process: Kiroku, match_id: UUID
                           ) -> tuple[bool, int]:
    """Whether the hub, following the match at version 1, hears two actions the other
    process records (with the latest version it then knows)."""

    async def run() -> tuple[bool, int]:
        async with hub.follow(match_id, 1):
            await asyncio.sleep(0.3)  # the hub's source begins
            waiting = asyncio.ensure_future(hub.moved_past(match_id, 1, 10))
            await asyncio.to_thread(_end_turn, other_process, match_id, 1)
            await asyncio.to_thread(_end_turn, other_process, match_id, 2)
            moved = await asyncio.wait_for(waiting, 10)
            async with asyncio.timeout(10):
                while hub.version(match_id) < 3:
                    await asyncio.sleep(0.01)
            return moved, hub.version(match_id)

    return _in_loop(hub, run)


def test_an_action_recorded_by_another_process_on_an_sqlite_file_wakes_its_streams(
        kiroku: Kiroku, tmp_path: Path) -> None:
    match_id = _match(kiroku)
    other_process = Kiroku.open(f"sqlite:///{tmp_path / 'kiroku.db'}")
    hub = Following(kiroku, check_every=3600)  # only the file's data_version wakes it
    try:
        assert _hears_another_process(hub, other_process, match_id) == (True, 3)
    finally:
        other_process.close()


def _log_read_failing_once(monkeypatch: pytest.MonkeyPatch,
                           error: Exception) -> list[Exception]:
    """The tail's read of the SQLite log raises ``error`` the first time, then reads; the
    list left holds ``error`` until that first read has been made."""
    read, failures = following_module._log_since, [error]

    def failing_once(changes: Any, table: str, head: int) -> tuple[int, dict[UUID, int]]:
        if failures:
            raise failures.pop()
        return read(changes, table, head)

    monkeypatch.setattr(following_module, "_log_since", failing_once)
    return failures


def test_a_source_that_fails_starts_again_and_misses_nothing(
        kiroku: Kiroku, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first read of the SQLite log fails (as a full disk would make it): the hub's
    source starts again and looks at the followed match, so the action is still heard."""
    match_id = _match(kiroku)
    other_process = Kiroku.open(f"sqlite:///{tmp_path / 'kiroku.db'}")
    failures = _log_read_failing_once(monkeypatch, sqlite3.OperationalError("disk I/O error"))
    monkeypatch.setattr(following_module, "START_AGAIN_AFTER", 0.1)
    hub = Following(kiroku, check_every=3600)
    try:
        assert _hears_another_process(hub, other_process, match_id) == (True, 3)
    finally:
        other_process.close()
    assert not failures


def test_the_sqlite_log_is_read_in_pages_as_the_library_lists_it(
        kiroku: Kiroku, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tail's own read of the log (ids and versions, on its connection) gives what the
    library's notification log holds past a head, however many pages it takes."""
    first, second = _match(kiroku), _match(kiroku)
    recorder = kiroku.recorder.recorder
    head = recorder.max_notification_id() or 0
    for seat in (1, 2, 1):
        _end_turn(kiroku, first, seat)
    _end_turn(kiroku, second, 1)
    listed = recorder.select_notifications(start=head + 1, limit=100)
    monkeypatch.setattr(following_module, "LOG_PAGE", 2)
    with closing(following_module._data_version_connection(str(tmp_path / "kiroku.db"))) as changes:
        new_head, latest = following_module._log_since(changes, recorder.events_table_name,
                                                       head)
    assert new_head == max(n.id for n in listed) == recorder.max_notification_id()
    assert latest == {first: 4, second: 2}
    assert latest == {n.originator_id: max(m.originator_version for m in listed
                                           if m.originator_id == n.originator_id)
                      for n in listed}


def _busy_error(path: Path) -> sqlite3.OperationalError:
    """What SQLite answers a read on a connection that never waits while another connection
    holds the file in exclusive locking mode: a real ``SQLITE_BUSY``."""
    holder = sqlite3.connect(path, isolation_level=None)
    reader = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        holder.execute("PRAGMA locking_mode=EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("CREATE TABLE held (x)")
        try:
            reader.execute("SELECT count(*) FROM sqlite_master").fetchall()
        except sqlite3.OperationalError as exc:
            return exc
        raise AssertionError("the file was not locked")
    finally:
        holder.close()
        reader.close()


def test_a_busy_log_read_is_read_again_at_the_next_tick(
        kiroku: Kiroku, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tail's connection never waits for a lock: a read of the log the file refuses for
    now is made again a tick later, from the same head, without starting the source again
    (which waits ``START_AGAIN_AFTER``, here longer than the 10 s the test waits to hear)."""
    match_id = _match(kiroku)
    other_process = Kiroku.open(f"sqlite:///{tmp_path / 'kiroku.db'}")
    busy = _busy_error(tmp_path / "busy.db")
    assert following_module._busy(busy)
    failures = _log_read_failing_once(monkeypatch, busy)
    monkeypatch.setattr(following_module, "START_AGAIN_AFTER", 30)
    hub = Following(kiroku, check_every=3600)
    try:
        assert _hears_another_process(hub, other_process, match_id) == (True, 3)
    finally:
        other_process.close()
    assert not failures


@pytest.fixture
def postgres_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh PostgreSQL store's URL (its key file in the test's folder)."""
    monkeypatch.setenv("KIROKU_KEY_FILE", str(tmp_path / "kiroku.keys"))
    schema = postgres_schema()
    if schema is None:
        pytest.skip("no PostgreSQL server (set KIROKU_TEST_POSTGRES_URL)")
    try:
        yield f"{POSTGRES_URL}?schema={schema}"
    finally:
        drop_schema(schema)


def test_an_action_recorded_through_another_server_on_postgresql_is_notified(
        postgres_url: str) -> None:
    here, other_server = Kiroku.open(postgres_url), Kiroku.open(postgres_url)
    try:
        match_id = _match(here)
        hub = Following(here, check_every=3600)  # only the database's notifications wake it
        assert _hears_another_process(hub, other_server, match_id) == (True, 3)
    finally:
        here.close()
        other_server.close()


def test_postgresql_notifies_each_append_with_its_match_and_version_at_commit(
        postgres_url: str) -> None:
    kiroku = Kiroku.open(postgres_url)
    recorder = kiroku.recorder.recorder
    try:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as listener:
            listener.execute(f"LISTEN {recorder.channel_name}")
            match_id = _match(kiroku)
            version = _end_turn(kiroku, match_id, 1)
            heard = [n.payload for n in listener.notifies(timeout=2)
                     if n.payload.startswith(str(match_id))]
    finally:
        kiroku.close()
    assert heard[-1] == f"{match_id} {version}"
    assert all(int(payload.split()[1]) <= version for payload in heard)


def test_a_match_followed_after_it_moved_is_looked_at_once(kiroku: Kiroku) -> None:
    """An append landing between a stream's first reading and its following is not missed,
    though the hub's source, already running, passed over it and no further append comes."""
    watched, match_id = _match(kiroku), _match(kiroku)
    hub = Following(kiroku, check_every=3600)

    async def run() -> bool:
        async with hub.follow(watched, 1):
            await asyncio.sleep(0.3)  # the hub's source runs
            version = await asyncio.to_thread(_end_turn, kiroku, match_id, 1)
            await asyncio.sleep(0.3)  # and has passed over the action
            async with hub.follow(match_id, 1):  # as read before the action
                return (await hub.moved_past(match_id, 1, 10)
                        and hub.version(match_id) == version)

    assert _in_loop(hub, run)


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

    assert set(_in_loop(hub, run)) == {"where it stands"}
    assert len(readings) == 3  # one per version for one caller, one for the other caller


def test_a_stream_waiting_through_many_moves_sets_its_alarm_once(kiroku: Kiroku) -> None:
    """A stream's wait is for its match to move or for its alarm: one timer for the alarm's
    time, not a timeout set and cancelled for every wait (issue 43)."""
    match_id = _match(kiroku)
    hub = Following(kiroku, check_every=3600)
    timers: list[float] = []

    async def run() -> list[bool]:
        loop = asyncio.get_running_loop()
        call_at = loop.call_at

        def counted(when: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
            if getattr(callback, "__self__", None) is watch:  # not the hub's own ticks
                timers.append(when)
            return call_at(when, callback, *args, **kwargs)

        async with hub.follow(match_id, 1):
            watch = hub.watch(match_id)
            loop.call_at = counted  # type: ignore[method-assign]
            moved = []
            alarm = loop.time() + 0.3
            for version in range(2, 22):
                watch.alarm_at(alarm)
                waiting = asyncio.ensure_future(watch.moved_past(version - 1))
                await asyncio.sleep(0)
                hub._note(match_id, version)  # as an action recorded here is noted
                moved.append(await waiting)
            watch.alarm_at(alarm)
            moved.append(await watch.moved_past(21))  # nothing more happens: the alarm rings
            watch.close()
            return moved

    assert _in_loop(hub, run) == [True] * 20 + [False]
    assert len(timers) == 1


def test_a_stream_that_leaves_while_it_waits_leaves_no_wait_behind(kiroku: Kiroku) -> None:
    """A client that goes away cancels its stream mid-wait: its wait and its alarm go with
    it, and the match is followed no more once its last stream has left."""
    match_id = _match(kiroku)
    hub = Following(kiroku, check_every=3600)

    async def run() -> tuple[int, int, bool]:
        async with hub.follow(match_id, 1):
            followed = hub._followed[match_id]
            watch = hub.watch(match_id)
            watch.alarm_at(asyncio.get_running_loop().time() + 60)
            waiting = asyncio.ensure_future(watch.moved_past(1))
            await asyncio.sleep(0)
            before = len(followed.waiting)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            watch.close()
            after = len(followed.waiting)
        return before, after, match_id in hub._followed

    assert _in_loop(hub, run) == (1, 0, False)


def _told(hub: Following, match_id: UUID, stands: list[tuple[int, int]], *, seconds: float,
          moves: list[tuple[float, int]], still_valid: Any = None,
          ended_at: float | None = None) -> list[tuple[float, str]]:
    """The lines of a stream following ``match_id`` from version 1 for ``seconds``, as
    ``live.told`` gives them, with when each came (s), while the match moves to each
    version of ``moves`` at its time; ``stands`` are what each reading after a move says.
    With ``ended_at``, a request in hand (``Following.began``) ends then."""
    read = iter(stands)

    async def run() -> list[tuple[float, str]]:
        lines: list[tuple[float, str]] = []
        async with hub.follow(match_id, 1):
            watch = hub.watch(match_id)
            loop = asyncio.get_running_loop()
            start = loop.time()
            for at, version in moves:
                loop.call_at(start + at, hub._note, match_id, version)
            if ended_at is not None:
                loop.call_at(start + ended_at, hub.ended)

            async def follow() -> None:
                async for line in live_module.told(hub, watch, match_id, None,
                                                   lambda: next(read), still_valid,
                                                   (1, 0), 1):
                    lines.append((loop.time() - start, line))

            try:
                async with asyncio.timeout(seconds):
                    await follow()  # until the stream ends, or the time is up
            except TimeoutError:
                pass
            watch.close()
        return lines

    return _in_loop(hub, run)


def test_a_quiet_stream_keeps_alive_and_a_burst_of_moves_is_told_once(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep-alives come after each quiet while, and not while events flow; three moves
    within AT_MOST_EVERY are told as one event, where the match stands after them; a move
    long after is told at once."""
    monkeypatch.setattr(live_module, "KEEPALIVE_EVERY", 0.5)
    monkeypatch.setattr(live_module, "AT_MOST_EVERY", 0.2)
    match_id = _match(kiroku)
    hub = Following(kiroku, check_every=3600)
    lines = _told(hub, match_id, [((4, 3), 4), ((5, 4), 5), ((9, 9), 9)], seconds=1.5,
                  moves=[(0.01, 2), (0.02, 3), (0.03, 4), (1.0, 5), (1.25, 9)])
    said = [line for _, line in lines]
    # told at about 0.2 s (the burst), 0.7 (quiet since), 1.0 and 1.25 (at once): nothing
    # at 1.2, when the keep-alive was due again but an event had gone out meanwhile
    assert said == [live_module._event(1, 0), live_module._event(4, 3), ": keepalive\n\n",
                    live_module._event(5, 4), live_module._event(9, 9)]
    at = [when for when, _ in lines]
    assert at[1] >= 0.19  # the burst, told once, AT_MOST_EVERY after the first event
    assert at[2] - at[1] >= 0.49  # a keep-alive a quiet while after the last event
    assert at[3] >= 1.0 and at[4] - at[3] >= 0.19


def test_a_stream_checks_its_credential_every_while_and_ends_when_it_fails(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_module, "RECHECK_CREDENTIAL_EVERY", 0.2)
    match_id = _match(kiroku)
    hub = Following(kiroku, check_every=3600)
    checks: list[int] = []

    def still_valid() -> bool:
        checks.append(1)
        return len(checks) < 3

    lines = _told(hub, match_id, [], seconds=5, moves=[], still_valid=still_valid)
    assert [line for _, line in lines] == [live_module._event(1, 0),
                                           "event: revoked\ndata: {}\n\n"]
    assert len(checks) == 3 and lines[-1][0] >= 0.59


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


def test_a_stream_on_one_server_hears_an_action_recorded_through_another_on_postgresql(
        postgres_url: str, tmp_path: Path) -> None:
    """Two processes on one PostgreSQL database: a real server streaming, and this one
    recording; the stream's events come at each action (the server looks at the store only
    when the database notifies it)."""
    kiroku = Kiroku.open(postgres_url)
    try:
        match_id = _match(kiroku)
        for server in serve(tmp_path / "kiroku", "--workers", "1", db_url=postgres_url):
            with server.client() as anonymous, anonymous.stream(
                    "GET", f"/matches/{match_id}/live") as stream:
                events = (json.loads(line[5:]) for line in stream.iter_lines()
                          if line.startswith("data:"))
                assert next(events) == {"version": 1, "positions": 0}
                for seat, positions in ((1, 1), (2, 2), (1, 3)):
                    version = _end_turn(kiroku, match_id, seat)
                    assert next(events) == {"version": version, "positions": positions}
    finally:
        kiroku.close()


def test_a_stream_ends_within_seconds_of_its_credential_revoked_by_another_process(
        store: tuple[Kiroku, Server]) -> None:
    """A judge follows a match on the server; this process (another server of the store)
    revokes the judge's credential: the stream says so and ends within the recheck period,
    though the match never moves."""
    kiroku, server = store
    match_id = _match(kiroku)
    judge, token = kiroku.credentials.issue(Role.JUDGE, "Jo", issued_by="test")
    with server.client(token) as client, client.stream(
            "GET", f"/matches/{match_id}/live") as stream:
        lines = stream.iter_lines()
        assert next(line for line in lines if line.startswith("data:"))
        kiroku.credentials.revoke(judge.credential_id, reason="test", revoked_by="test")
        revoked_at = time.monotonic()
        assert next(line for line in lines if line.startswith("event:")
                    and line != "event: position") == "event: revoked"
        assert time.monotonic() - revoked_at < live_module.RECHECK_CREDENTIAL_EVERY + 5
        assert not any(line.startswith("event:") for line in lines)  # and the stream ended


def test_a_woken_stream_waits_for_the_requests_its_process_has_in_hand(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move while a request is served here is told when that request ends, not before:
    the seats' requests first (issue 43)."""
    monkeypatch.setattr(following_module, "YIELD_AT_MOST", 5.0)
    match_id = _match(kiroku)
    hub = Following(kiroku, check_every=3600)
    hub.began()  # a request in hand from the start, ended at 0.3 s
    lines = _told(hub, match_id, [((2, 1), 2)], seconds=1.0,
                  moves=[(0.01, 2)], ended_at=0.3)
    assert [line for _, line in lines] == [live_module._event(1, 0), live_module._event(2, 1)]
    assert lines[1][0] >= 0.29


def test_a_woken_stream_waits_for_the_requests_in_hand_at_most_a_while(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that never stops serving requests still tells its watchers, each move at
    most YIELD_AT_MOST late."""
    monkeypatch.setattr(following_module, "YIELD_AT_MOST", 0.2)
    match_id = _match(kiroku)
    hub = Following(kiroku, check_every=3600)
    hub.began()  # never ends
    lines = _told(hub, match_id, [((2, 1), 2), ((3, 2), 3)], seconds=1.0,
                  moves=[(0.01, 2), (0.5, 3)])
    assert [line for _, line in lines] == [live_module._event(1, 0), live_module._event(2, 1),
                                           live_module._event(3, 2)]
    assert 0.2 <= lines[1][0] < 0.45 and 0.7 <= lines[2][0] < 0.95


def test_a_stream_with_no_request_in_hand_waits_for_nothing(kiroku: Kiroku) -> None:
    hub = Following(kiroku, check_every=3600)

    async def run() -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await hub.idle()
        hub.began()
        hub.ended()
        await hub.idle()
        return loop.time() - start

    assert _in_loop(hub, run) < 0.05


def test_the_requests_in_hand_are_counted_while_served_live_streams_apart(
        kiroku: Kiroku) -> None:
    """``InHand`` counts each HTTP request while it is served, one that fails too, and not a
    live stream (found by the live router's own route, under a root path too), which lasts
    as long as its watcher stays."""
    hub = Following(kiroku, check_every=3600)
    seen: list[tuple[str, int]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append((scope.get("path", scope["type"]), hub._in_hand))
        if scope.get("path") == "/fails":
            raise RuntimeError("a route's failure")

    counted = following_module.InHand(app, hub, apart=live_module.router.routes)
    live = f"/matches/{UUID(int=1)}/live"
    requests = [("POST", "/matches/7b1e/actions", ""), ("GET", live, ""),
                ("GET", "/fails", ""), ("GET", "/k" + live, "/k"),
                ("GET", "/tournaments/t/live", ""), ("GET", live + "/x", ""),
                ("POST", live, "")]

    async def run() -> int:
        for method, path, root in requests:
            try:
                await counted({"type": "http", "method": method, "path": path,
                               "root_path": root}, None, None)
            except RuntimeError:
                pass
        await counted({"type": "lifespan"}, None, None)
        return hub._in_hand

    assert _in_loop(hub, run) == 0
    assert seen == [("/matches/7b1e/actions", 1), (live, 0), ("/fails", 1), ("/k" + live, 0),
                    ("/tournaments/t/live", 1), (live + "/x", 1), (live, 1), ("lifespan", 0)]


def _every_route(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every route of ``app``, its included routers' too, each path
    parameter given a sample value."""
    found = []
    for route in app.routes:
        routes = getattr(getattr(route, "original_router", None), "routes", [route])
        for each in routes:
            path = re.sub(r"{[^}]+}", str(UUID(int=7)), getattr(each, "path", ""))
            found += [(method, path) for method in getattr(each, "methods", None) or ()]
    return found


def test_the_application_leaves_only_its_live_streams_out_of_the_requests_in_hand() -> None:
    """Of every route the application serves, only the live stream is left out of the
    count (the routes its ``InHand`` is given match that one request and no other)."""
    service = Kiroku.open("sqlite:///:memory:")
    try:
        app = create_app(service)
        in_hand = [m for m in app.user_middleware if m.cls is following_module.InHand]
        assert len(in_hand) == 1
        apart = in_hand[0].kwargs["apart"]
        every = _every_route(app)
        left_out = [(method, path) for method, path in every
                    if any(route.matches({"type": "http", "method": method, "path": path,
                                          "root_path": ""})[0] == Match.FULL
                           for route in apart)]
        assert len(every) > 80  # every router walked
        assert left_out == [("GET", f"/matches/{UUID(int=7)}/live")]
    finally:
        service.close()
