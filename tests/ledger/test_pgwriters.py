"""Several writers on one PostgreSQL store (ledger.pgwriters): an insert does not wait for
another writer's open transaction, appends to one match stay exactly-once, and a reader of
the log never passes over a notification that commits after a later one."""

from __future__ import annotations

import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
import pytest

from ledger.errors import ConcurrentAppend
from ledger.pgwriters import ManyWritersRecorder
from ledger.recorder import Recorder
from replay.service import Kiroku
from tests.conftest import POSTGRES_URL, drop_schema, postgres_schema


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL store: its URL and schema."""
    monkeypatch.setenv("KIROKU_KEY_FILE", str(tmp_path / "kiroku.keys"))
    schema = postgres_schema()
    if schema is None:
        pytest.skip("no PostgreSQL server (set KIROKU_TEST_POSTGRES_URL)")
    try:
        yield f"{POSTGRES_URL}?schema={schema}", schema
    finally:
        drop_schema(schema)


def _open(url: str, **extra: str) -> Kiroku:
    return Kiroku(Recorder.open(url, POSTGRES_LOCK_TIMEOUT="1", **extra))


def _match(kiroku: Kiroku, players: tuple[str, str] = ("Ann", "Ben")) -> UUID:
    return kiroku.new_match("worldgainer", list(players), ["solar_vanguard", "pleiades_bloom"],
                            options={"first_player": 1})


class _OpenInsert:
    """Another writer's insert into the events table, left open (its row uncommitted, its
    notification id drawn) until ``end``, which rolls it back."""

    def __init__(self, schema: str) -> None:
        self.conn = psycopg.connect(POSTGRES_URL)
        self.conn.execute(f"INSERT INTO {schema}.kiroku_events (originator_id, "
                          "originator_version, topic, state) VALUES (%s, 1, 'x', '')",
                          (uuid.uuid4(),))

    def end(self) -> None:
        self.conn.rollback()
        self.conn.close()


def test_the_store_uses_the_recorder_without_the_table_lock(store: tuple[str, str]) -> None:
    kiroku = _open(store[0])
    try:
        assert isinstance(kiroku.recorder.recorder, ManyWritersRecorder)
    finally:
        kiroku.close()


def test_an_action_is_inserted_in_one_statement_that_calls_the_recorders_function(
        store: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's insert function, under the recorder's own name: one statement, and no
    ``LOCK TABLE`` or bare ``NOTIFY`` with it; what it appended is notified instead
    (``pg_notify``, issue 43's live streams)."""
    kiroku = _open(store[0])
    match_id = _match(kiroku)
    sent: list[str] = []
    execute = psycopg.Cursor.execute

    def spy(self: psycopg.Cursor[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(query.as_string(self) if hasattr(query, "as_string") else str(query))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", spy)
    try:
        kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="P1")
    finally:
        monkeypatch.undo()
        kiroku.close()
    assert sent == [f'SELECT * FROM "{store[1]}"."kiroku_events_insert"((%b), \'1s\')']
    with psycopg.connect(POSTGRES_URL) as conn:
        row = conn.execute("SELECT prosrc FROM pg_proc JOIN pg_namespace n ON n.oid = "
                           "pronamespace WHERE nspname = %s AND proname = %s",
                           (store[1], "kiroku_events_insert")).fetchone()
    assert row is not None
    body = row[0].upper()
    assert "INSERT INTO" in body
    assert " NOTIFY " not in body and "LOCK TABLE" not in body and "PG_NOTIFY(" in body


def test_each_servers_inserts_wait_for_locks_as_long_as_its_own_setting_says(
        store: tuple[str, str]) -> None:
    """The library writes its lock timeout into its function, so the last server to open a
    store would decide every server's; Kiroku's servers each pass their own."""
    first = _open(store[0])  # POSTGRES_LOCK_TIMEOUT 1
    second = Kiroku(Recorder.open(store[0], POSTGRES_LOCK_TIMEOUT="7"))
    try:
        for kiroku, expected in ((first, "1s"), (second, "7s")):
            recorder = kiroku.recorder.recorder
            with recorder.datastore.transaction(commit=False) as curs:
                curs.execute(recorder.sql_invoke_pg_function_insert_events, ([],))
                curs.execute("SHOW lock_timeout")
                row: Any = curs.fetchone()
                assert row["lock_timeout"] == expected
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("one_statement", ["y", "n"])
def test_an_insert_does_not_wait_for_another_writers_open_transaction(
        store: tuple[str, str], one_statement: str) -> None:
    """Both ways the library inserts (its function, or its pipelined transaction)."""
    url, schema = store
    kiroku = _open(url, POSTGRES_ENABLE_DB_FUNCTIONS=one_statement)
    match_id = _match(kiroku)
    other = _OpenInsert(schema)
    try:
        done = kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="P1")
        assert done.version == 2
    finally:
        other.end()
        kiroku.close()


def test_the_table_lock_of_the_librarys_recorder_would_wait_for_it(
        store: tuple[str, str]) -> None:
    """The contrast the test above relies on: the open insert is a real second writer, which
    the library's ``LOCK TABLE ... IN EXCLUSIVE MODE`` waits for (here, until a timeout)."""
    url, schema = store
    _open(url).close()
    other = _OpenInsert(schema)
    try:
        with psycopg.connect(POSTGRES_URL) as conn:
            conn.execute("SET lock_timeout = '200ms'")
            with pytest.raises(psycopg.errors.LockNotAvailable):
                conn.execute(f"LOCK TABLE {schema}.kiroku_events IN EXCLUSIVE MODE")
    finally:
        other.end()


@pytest.mark.parametrize("one_statement", ["y", "n"])
def test_racing_appends_to_one_match_from_two_servers_store_one(
        store: tuple[str, str], one_statement: str) -> None:
    first = _open(store[0], POSTGRES_ENABLE_DB_FUNCTIONS=one_statement)
    second = _open(store[0], POSTGRES_ENABLE_DB_FUNCTIONS=one_statement)
    try:
        match_id = _match(first)
        second.recorder.get_match(match_id)  # both servers hold the match at version 1
        outcomes: list[Any] = []
        barrier = threading.Barrier(2)

        def race(kiroku: Kiroku) -> None:
            barrier.wait()
            try:
                outcomes.append(kiroku.record(match_id, {"type": "end_turn", "seat": 1},
                                              recorded_by="P1", expected_version=1).version)
            except ConcurrentAppend:
                outcomes.append("refused")

        threads = [threading.Thread(target=race, args=(k,)) for k in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(outcomes, key=str) == [2, "refused"]
        assert [r["event"] for r in first.records(first.seen_by(match_id))] == ["MatchCreated",
                                                                 "ActionRecorded"]
    finally:
        first.close()
        second.close()


class _HeldInsert:
    """Holds the next insert into the events table open, in the server: a statement trigger
    makes that insert, its rows in and its notification ids drawn, wait for an advisory lock
    this object holds until ``release``. Inserts while it waits pass (the first holds the
    other advisory lock); inserts after ``release`` pass too."""

    def __init__(self, schema: str) -> None:
        self.schema = schema
        # two-key advisory locks, apart from Kiroku's one-key ones and from another test
        # run's on the same server (keyed by this run's schema)
        key = zlib.crc32(schema.encode()) & 0x7FFFFFFF
        self.FIRST, self.GATE = (key, 1), (key, 2)
        self.conn = psycopg.connect(POSTGRES_URL, autocommit=True)
        self.conn.execute(f"""
            CREATE FUNCTION {schema}.hold_first_insert() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF pg_try_advisory_xact_lock({self.FIRST[0]}, {self.FIRST[1]}) THEN
                    PERFORM pg_advisory_xact_lock({self.GATE[0]}, {self.GATE[1]});
                END IF;
                RETURN NULL;
            END $$""")
        self.conn.execute(f"CREATE TRIGGER hold_first_insert AFTER INSERT ON "
                          f"{schema}.kiroku_events FOR EACH STATEMENT "
                          f"EXECUTE FUNCTION {schema}.hold_first_insert()")
        self.conn.execute("SELECT pg_advisory_lock(%s, %s)", self.GATE)
        self.released = False

    def waiting(self, within: float = 30.0) -> bool:
        """Whether an insert is held at the gate (waiting up to ``within`` seconds)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            row = self.conn.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                "AND classid = %s AND objid = %s", self.GATE).fetchone()
            if row and row[0]:
                return True
            time.sleep(0.02)
        return False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.conn.execute("SELECT pg_advisory_unlock(%s, %s)", self.GATE)

    def close(self) -> None:
        self.release()
        self.conn.execute(f"DROP TRIGGER hold_first_insert ON {self.schema}.kiroku_events")
        self.conn.close()


@pytest.mark.parametrize("one_statement", ["y", "n"])
def test_a_list_read_waits_for_an_earlier_insert_and_lists_it(
        store: tuple[str, str], one_statement: str) -> None:
    """Match X draws its notification ids first but commits after match Y. A list read
    between the two must not move past X's ids: it waits for X's commit, then lists both,
    and X stays listed afterwards."""
    url, schema = store
    kiroku = _open(url, POSTGRES_ENABLE_DB_FUNCTIONS=one_statement)
    held = _HeldInsert(schema)
    created: dict[str, UUID] = {}
    listed: list[set[str]] = []
    slow = threading.Thread(target=lambda: created.update(x=_match(kiroku, (
        "Xena", "Xavier"))))
    reader = threading.Thread(target=lambda: listed.append(
        {m["match_id"] for m in kiroku.find_matches()}))
    try:
        slow.start()
        assert held.waiting(), "the creation of X was not held open"
        created["y"] = _match(kiroku, ("Yuki", "Yves"))
        reader.start()
        reader.join(timeout=0.5)
        assert reader.is_alive(), "the list read did not wait for the open insert"
    finally:
        held.release()
        slow.join(timeout=30)
        if reader.ident is not None:  # started
            reader.join(timeout=30)
        held.close()
    with psycopg.connect(POSTGRES_URL) as conn:
        first = {str(row[0]) for row in conn.execute(
            f"SELECT originator_id FROM {schema}.kiroku_events ORDER BY notification_id "
            "LIMIT 1")}
    assert first == {str(created["x"])}, "X did not draw its ids first"
    both = {str(created["x"]), str(created["y"])}
    assert listed == [both]
    assert {m["match_id"] for m in kiroku.find_matches()} == both
    kiroku.close()


def test_a_list_read_passes_over_an_insert_that_was_rolled_back(
        store: tuple[str, str]) -> None:
    url, schema = store
    kiroku = _open(url)
    other = _OpenInsert(schema)
    try:
        match_id = _match(kiroku)
        reader = threading.Thread(target=kiroku.find_matches)
        reader.start()
        reader.join(timeout=0.5)
        assert reader.is_alive()
    finally:
        other.end()
    reader.join(timeout=30)
    assert [m["match_id"] for m in kiroku.find_matches()] == [str(match_id)]
    assert kiroku.recorder.recorder.settled_notification_id() >= 2
    kiroku.close()


def test_an_insert_whose_answer_was_lost_after_its_commit_is_recorded_once(
        store: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The connection drops after the server committed an action, before its answer
    arrives: the library runs the insert again (its ``retry``), which meets the rows it
    had just written. The action stands, once; the command is not run again on the match
    as stored (where the same seat ending its turn again would be refused, or another
    action recorded twice)."""
    kiroku = _open(store[0])
    match_id = _match(kiroku)
    execute, lost = psycopg.Cursor.execute, []

    def answer_lost(self: psycopg.Cursor[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
        done = execute(self, query, *args, **kwargs)  # autocommit: committed as it ends
        if not lost and "kiroku_events_insert" in (
                query.as_string(self) if hasattr(query, "as_string") else str(query)):
            lost.append(query)
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return done

    monkeypatch.setattr(psycopg.Cursor, "execute", answer_lost)
    try:
        done = kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="P1")
    finally:
        monkeypatch.undo()
    assert lost, "no insert lost its answer"
    assert done.version == 2
    assert [r["event"] for r in kiroku.records(kiroku.seen_by(match_id))] == ["MatchCreated",
                                                                              "ActionRecorded"]
    assert kiroku.record(match_id, {"type": "end_turn", "seat": 2},
                         recorded_by="P2").version == 3
    kiroku.close()


def test_a_save_refused_for_another_servers_action_is_not_taken_for_its_own(
        store: tuple[str, str]) -> None:
    """The other side of the check above: the rows at the refused versions are another
    server's action, so the command runs again on the match as stored (and, asked for at
    the version it expected, is refused)."""
    first, second = _open(store[0]), _open(store[0])
    try:
        match_id = _match(first)
        second.recorder.get_match(match_id)  # cached at version 1
        first.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="P1")
        with pytest.raises(ConcurrentAppend):
            second.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="P1",
                          expected_version=1)
        assert [r["event"] for r in first.records(first.seen_by(match_id))] == ["MatchCreated",
                                                                 "ActionRecorded"]
    finally:
        first.close()
        second.close()
