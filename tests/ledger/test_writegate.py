"""The write gate (ledger.writegate): every write to a Kiroku SQLite file passes one gate per
file, a thread lock in each process and a ``flock`` between processes; readers never wait."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import OperationalError

from engine import JUDGE
from ledger.groupcommit import GroupCommitRecorder
from ledger.identity import Role
from ledger.recorder import Recorder
from ledger.settings import SettingsError
from ledger.writegate import SUFFIX, GatedDatastore, gate_for
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]
FORK = multiprocessing.get_context("fork")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "kiroku.db")


@pytest.fixture
def kiroku(db: str) -> Iterator[Kiroku]:
    service = Kiroku.open(f"sqlite:///{db}")
    yield service
    service.close()


def new_match(kiroku: Kiroku) -> UUID:
    return kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS, options={"first_player": 1})


def end_turn(kiroku: Kiroku, match_id: UUID) -> Any:
    return kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="test")


def _hold(path: str, holding: Any, release: Any) -> None:
    """In another process: take the file's write lock, say so, hold it until told."""
    with open(path + SUFFIX, "ab") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        holding.set()
        release.wait(30)


@contextmanager
def another_process_holding_the_gate(db: str) -> Iterator[Callable[[], None]]:
    """Another process holds the file's write lock until the ``release()`` yielded is called
    (or the block ends)."""
    holding, release = FORK.Event(), FORK.Event()
    process = FORK.Process(target=_hold, args=(db, holding, release))
    process.start()
    try:
        assert holding.wait(20)
        yield release.set
    finally:
        release.set()
        process.join(20)


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, threading.Event]:
    done = threading.Event()

    def run() -> None:
        call()
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, done


def test_a_file_store_writes_through_the_gate_and_reads_without_it(kiroku: Kiroku,
                                                                    db: str) -> None:
    assert isinstance(kiroku.recorder.factory.datastore, GatedDatastore)
    gate = gate_for(db)
    before = gate.passed
    match_id = new_match(kiroku)
    end_turn(kiroku, match_id)
    kiroku.credentials.issue(Role.JUDGE, "Hana", issued_by="test")
    written = gate.passed
    assert written >= before + 3  # the creation, the action and the credential at least
    kiroku.recorder.forget_positions()
    kiroku.view(kiroku.seen_by(match_id, JUDGE), 0)
    kiroku.records(kiroku.seen_by(match_id))
    kiroku.transcript(kiroku.seen_by(match_id))
    assert gate.passed == written
    assert Path(db + SUFFIX).is_file()


def test_an_in_memory_store_has_no_gate() -> None:
    service = Kiroku.open("sqlite:///:memory:")
    try:
        assert not isinstance(service.recorder.factory.datastore, GatedDatastore)
    finally:
        service.close()


def test_a_write_waits_while_another_process_holds_the_gate_and_reads_do_not(
        kiroku: Kiroku, db: str) -> None:
    match_id = new_match(kiroku)
    with another_process_holding_the_gate(db) as release:
        writer, done = in_thread(lambda: end_turn(kiroku, match_id))
        assert not done.wait(0.5), "a write went in while another process held the gate"
        kiroku.recorder.forget_positions()
        assert kiroku.view(kiroku.seen_by(match_id, JUDGE), 0)["position"] == 0  # reading goes on
        release()
        assert done.wait(20)
        writer.join()
    assert kiroku.summary(kiroku.seen_by(match_id))["positions"] == 1


def test_a_process_that_dies_holding_the_gate_holds_up_no_one(kiroku: Kiroku, db: str) -> None:
    match_id = new_match(kiroku)
    holding, release = FORK.Event(), FORK.Event()
    holder = FORK.Process(target=_hold, args=(db, holding, release))
    holder.start()
    assert holding.wait(20)
    holder.kill()  # killed while it holds the lock: the kernel releases it
    holder.join(20)
    writer, done = in_thread(lambda: end_turn(kiroku, match_id))
    assert done.wait(20), "a write waited for a process that had died"
    writer.join()
    assert kiroku.summary(kiroku.seen_by(match_id))["positions"] == 1


def test_a_write_kept_waiting_past_its_timeout_by_another_process_fails_and_stores_nothing(
        db: str) -> None:
    service = Kiroku(Recorder.open(f"sqlite:///{db}", SQLITE_LOCK_TIMEOUT="1"))
    try:
        match_id = new_match(service)
        with another_process_holding_the_gate(db):
            started = time.monotonic()
            with pytest.raises(OperationalError, match="another process's write"):
                end_turn(service, match_id)
            assert time.monotonic() - started < 5
        # the thread that went on waiting took the lock once it came, and let it go at once
        end_turn(service, match_id)
        assert service.summary(service.seen_by(match_id))["positions"] == 1
        assert service.audit(match_id).ok
    finally:
        service.close()


def test_a_gate_given_up_on_is_let_go_for_this_process_and_the_others(db: str) -> None:
    gate = gate_for(db)
    with another_process_holding_the_gate(db) as release:
        with pytest.raises(OperationalError), gate.held(0.2):
            pass  # pragma: no cover (never held)
        with pytest.raises(OperationalError, match="gate of this process"), gate.held(0.2):
            pass  # pragma: no cover (the thread still waiting keeps it for this process)
        release()
        with gate.held(5):  # once the other process lets go, the waiting thread does too
            pass
    answer = FORK.Queue()
    child = FORK.Process(target=_try_gate, args=(db, answer))
    child.start()
    assert answer.get(timeout=20) == "taken"
    child.join(20)


def test_a_write_that_cannot_start_its_waiting_thread_fails_and_leaves_the_gate_free(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = gate_for(db)

    def refused(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    with another_process_holding_the_gate(db) as release:
        with monkeypatch.context() as patched:
            patched.setattr(threading.Thread, "start", refused)
            with pytest.raises(OperationalError, match="no thread"), gate.held(5):
                pass  # pragma: no cover (never held)
        release()
        with gate.held(5):  # the thread lock was let go with the error
            pass


def _pass_while_another_process_holds(db: str) -> threading.Thread | None:
    """Pass the file's gate in a thread of this process while another process holds the
    file, until that one lets go; the thread that waited for the file meanwhile."""
    gate = gate_for(db)

    def pass_gate() -> None:
        with gate.held(20):
            pass

    with another_process_holding_the_gate(db) as release:
        waits = gate._waiter.waits
        thread, done = in_thread(pass_gate)
        deadline = time.monotonic() + 20
        while gate._waiter.waits == waits:  # until the gate's thread waits for the file
            assert time.monotonic() < deadline, "no thread waited for the file"
            time.sleep(0.01)
        release()
        assert done.wait(20)
        thread.join()
    return gate._waiter._thread


def test_every_wait_for_another_process_runs_in_the_gates_one_thread(db: str) -> None:
    waiters = [_pass_while_another_process_holds(db) for _ in range(3)]
    assert waiters[0] is not None and waiters[0].name == "kiroku-write-gate"
    assert waiters == [waiters[0]] * 3  # kept for the next wait, not started for each
    assert waiters[0].is_alive()
    gate_for(db).close()
    waiters[0].join(20)


def test_closing_the_gate_ends_its_waiting_thread(db: str) -> None:
    service = Kiroku.open(f"sqlite:///{db}")
    waiter = _pass_while_another_process_holds(db)
    assert waiter is not None and waiter.is_alive()
    service.close()  # the last store on the file closes its gate
    waiter.join(20)
    assert not waiter.is_alive()


def test_a_wait_asked_after_the_thread_ended_starts_another(db: str) -> None:
    first = _pass_while_another_process_holds(db)
    assert first is not None
    gate_for(db)._waiter.close()
    first.join(20)
    waiter = gate_for(db)._waiter
    assert not first.is_alive() and waiter._thread is None
    waits = waiter.waits
    _pass_while_another_process_holds(db)  # served by a thread started for it, not lost
    assert waiter.waits == waits + 1
    assert waiter._thread is None  # closed: that thread ended once the wait was run


def test_saves_queued_while_another_process_commits_go_in_one_commit(kiroku: Kiroku,
                                                                     db: str) -> None:
    recorder = kiroku.recorder.recorder
    assert isinstance(recorder, GroupCommitRecorder)
    matches = [new_match(kiroku) for _ in range(3)]
    commits, saves = recorder.commits, recorder.saves
    with another_process_holding_the_gate(db) as release:
        writers = [in_thread(lambda m=m: end_turn(kiroku, m)) for m in matches]
        # the first save waits at the gate without having taken the queue: all three queue
        deadline = time.monotonic() + 20
        while len(recorder._queue) < 3:
            assert time.monotonic() < deadline, "the queue was taken before the gate"
            time.sleep(0.01)
        release()
        for thread, done in writers:
            assert done.wait(20)
            thread.join()
    assert (recorder.commits - commits, recorder.saves - saves) == (1, 3)
    assert [kiroku.summary(kiroku.seen_by(m))["positions"] for m in matches] == [1, 1, 1]


def _try_gate(db: str, answer: Any) -> None:
    """In a forked child: can it take the file's gate without waiting?"""
    gate = gate_for(db)
    try:
        fcntl.flock(gate._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        answer.put("held by another")
    else:
        answer.put("taken")


def test_a_forked_process_does_not_share_its_parents_gate(db: str) -> None:
    gate = gate_for(db)
    answer = FORK.Queue()
    with gate.held(5):
        child = FORK.Process(target=_try_gate, args=(db, answer))
        child.start()
        said = answer.get(timeout=20)
        child.join(20)
    assert said == "held by another"  # a descriptor shared with the parent would say "taken"


def test_two_processes_recording_on_one_file_store_every_action_once(db: str) -> None:
    setup = Kiroku.open(f"sqlite:///{db}")
    matches = [new_match(setup) for _ in range(4)]
    setup.close()
    processes = [FORK.Process(target=_record_turns, args=(db, matches[p::2], 6)) for p in (0, 1)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    assert [process.exitcode for process in processes] == [0, 0]
    service = Kiroku.open(f"sqlite:///{db}")
    try:
        for match_id in matches:
            assert service.summary(service.seen_by(match_id))["positions"] == 6
            assert service.audit(match_id).ok
    finally:
        service.close()


def _record_turns(db: str, matches: list[UUID], turns: int) -> None:
    """In a forked child: end ``turns`` turns in each match, one thread per match."""
    service = Kiroku.open(f"sqlite:///{db}")

    def play(match_id: UUID) -> None:
        for turn in range(turns):
            service.record(match_id, {"type": "end_turn", "seat": 1 + turn % 2},
                           recorded_by="test")

    threads = [threading.Thread(target=play, args=(m,)) for m in matches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    service.close()


def test_a_lock_file_that_cannot_be_made_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "kiroku.db"
    (tmp_path / f"kiroku.db{SUFFIX}").mkdir()
    with pytest.raises(SettingsError) as refused:
        Kiroku.open(f"sqlite:///{path}")
    message = str(refused.value)
    assert message.startswith(f"Cannot open the SQLite database {path} (")
    assert "\n" not in message and refused.value.reason == "database_unavailable"
    assert not path.exists()  # an open that fails makes no database file


def test_the_lock_files_descriptor_is_closed_with_the_last_store_on_the_file(db: str) -> None:
    first, second = Kiroku.open(f"sqlite:///{db}"), Kiroku.open(f"sqlite:///{db}")
    gate = gate_for(db)
    assert gate.users == 2
    first.close()
    assert gate_for(db) is gate and gate.users == 1
    second.close()
    with pytest.raises(OSError):
        os.fstat(gate._fd)  # closed
    assert gate_for(db) is not gate  # a later store opens the file again


def test_closing_the_last_store_while_a_write_holds_the_gate_leaves_its_descriptor(
        db: str) -> None:
    service = Kiroku.open(f"sqlite:///{db}")
    gate = gate_for(db)
    with gate.held(5):
        service.close()  # the last store on the file: its gate is let go
        os.fstat(gate._fd)  # still open: the write's unlock below reaches the right file
    assert gate_for(db) is not gate


def _read_connection(datastore: GatedDatastore) -> Any:
    """The sqlite3 connection a read on this thread goes through (the cursor's own)."""
    with datastore.transaction(commit=False) as cursor:
        cursor.execute("SELECT 1")
        return cursor.sqlite_cursor.connection


def test_a_read_is_one_statement_on_its_threads_own_connection(kiroku: Kiroku, db: str) -> None:
    datastore = kiroku.recorder.factory.datastore
    assert isinstance(datastore, GatedDatastore)
    mine = _read_connection(datastore)
    assert _read_connection(datastore) is mine  # the thread's, read after read
    assert not mine.in_transaction  # no BEGIN left open: nothing holds the WAL back
    theirs: list[Any] = []
    thread, done = in_thread(lambda: theirs.append(_read_connection(datastore)))
    assert done.wait(20)
    thread.join()
    assert theirs[0] is not mine  # each thread its own: no lock, no queue between them


def test_a_read_sees_what_another_store_committed_just_before(kiroku: Kiroku, db: str) -> None:
    match_id = new_match(kiroku)
    assert len(kiroku.recorder.recorder.select_events(match_id)) == 1  # the connection opened
    other = Kiroku.open(f"sqlite:///{db}")
    try:
        end_turn(other, match_id)
    finally:
        other.close()
    assert len(kiroku.recorder.recorder.select_events(match_id)) == 2


def test_a_read_that_fails_raises_the_librarys_error(kiroku: Kiroku) -> None:
    datastore = kiroku.recorder.factory.datastore
    assert isinstance(datastore, GatedDatastore)
    with pytest.raises(OperationalError, match="no such table"), \
            datastore.transaction(commit=False) as cursor:
        cursor.execute("SELECT * FROM no_such_table")
    with datastore.transaction(commit=False) as cursor:  # the connection still reads
        cursor.execute("SELECT 1")
        assert cursor.fetchone()[0] == 1


def test_closing_the_store_closes_every_threads_reading_connection(db: str) -> None:
    service = Kiroku.open(f"sqlite:///{db}")
    datastore = service.recorder.factory.datastore
    assert isinstance(datastore, GatedDatastore)
    connections = [_read_connection(datastore)]
    closed = threading.Event()

    def read_then_wait() -> None:  # a thread still alive when the store closes
        connections.append(_read_connection(datastore))
        closed.wait(20)

    thread, _ = in_thread(read_then_wait)
    while len(connections) < 2 and thread.is_alive():
        time.sleep(0.01)
    service.close()
    closed.set()
    thread.join()
    assert len(connections) == 2
    for connection in connections:
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            connection.execute("SELECT 1")


def _read_in_child(datastore: GatedDatastore, parents: int, answer: Any) -> None:
    answer.put(id(_read_connection(datastore)) != parents)


def test_a_forked_process_reads_through_a_connection_of_its_own(kiroku: Kiroku) -> None:
    datastore = kiroku.recorder.factory.datastore
    assert isinstance(datastore, GatedDatastore)
    parents = _read_connection(datastore)
    answer = FORK.Queue()
    child = FORK.Process(target=_read_in_child, args=(datastore, id(parents), answer))
    child.start()
    said = answer.get(timeout=20)
    child.join(20)
    assert said is True  # SQLite's rule: no connection carried across a fork
