"""Opening a store a judge's command line cannot use says so in one sentence (issue 17), and
the match list tells simulated matches apart."""

from __future__ import annotations

import gc
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from ledger.catalog import sample_card_set, sample_decks
from ledger.recorder import Recorder
from ledger.settings import SettingsError, persistence_env

PASSWORD = "s3cret-pw"


def _free_port() -> int:
    """A local port nobody listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_postgresql_is_one_sentence_soon() -> None:
    port = _free_port()
    started = time.monotonic()
    with pytest.raises(SettingsError) as refused:
        Recorder.open(f"postgresql://postgres:{PASSWORD}@127.0.0.1:{port}/test")
    assert time.monotonic() - started < 10
    message = str(refused.value)
    assert message == (f"Cannot reach the PostgreSQL database at 127.0.0.1:{port} (connection "
                       "refused); check KIROKU_DATABASE_URL or --db.")
    assert PASSWORD not in message and "\n" not in message
    assert refused.value.reason == "database_unavailable"


def test_a_server_that_never_answers_is_given_up_on_within_seconds() -> None:
    with socket.socket() as silent:  # accepts connections, never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        started = time.monotonic()
        with pytest.raises(SettingsError) as refused:
            Recorder.open(f"postgresql://postgres:{PASSWORD}@127.0.0.1:{port}/test")
        assert time.monotonic() - started < 10
    assert str(refused.value) == (f"Cannot reach the PostgreSQL database at 127.0.0.1:{port} "
                                  "(no answer within 2 s); check KIROKU_DATABASE_URL or --db.")


@pytest.mark.parametrize("store_url", ["postgres"], indirect=True)  # PostgreSQL's own error
def test_an_unknown_database_is_one_sentence(store_url: str) -> None:
    url = store_url.split("?")[0].rsplit("/", 1)[0] + "/kiroku_no_such_database"
    with pytest.raises(SettingsError) as refused:
        Recorder.open(url)
    assert str(refused.value).endswith(" has no database 'kiroku_no_such_database'; check "
                                       "KIROKU_DATABASE_URL or --db.")


def test_a_refused_password_is_one_sentence_without_it() -> None:
    from ledger.settings import database_unavailable

    env = persistence_env(f"postgresql://ann:{PASSWORD}@db.example:5433/kiroku")
    said = psycopg.OperationalError(
        'connection failed: connection to server at "10.0.0.5", port 5433 failed: FATAL:  '
        'password authentication failed for user "ann"')
    assert str(database_unavailable(env, said)) == (
        "The PostgreSQL server at db.example:5433 refused the password given for user 'ann'; "
        "check KIROKU_DATABASE_URL or --db.")
    echoed = psycopg.OperationalError(f"connection failed: something odd about {PASSWORD}")
    assert PASSWORD not in str(database_unavailable(env, echoed))


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    opened = Recorder.open("sqlite:///:memory:")
    yield opened
    opened.close()


def test_the_match_list_marks_simulated_matches(recorder: Recorder) -> None:
    cards = sample_card_set("worldgainer").cards
    decks = [d.cards for d in list(sample_decks("worldgainer").values())[:2]]
    simulated = recorder.create_match("worldgainer", ["Sim 1", "Sim 2"], decks, cards,
                                      recorded_by="simulator")
    played = recorder.create_match("worldgainer", ["Ann", "Ben"], decks, cards,
                                   recorded_by={"id": "x", "name": "simulator", "role": "judge"})
    recorder.record(simulated, {"type": "concede", "seat": 1}, recorded_by="simulator")
    listed = {m.match_id: m for m in recorder.list_matches()}
    assert listed[simulated].simulated and listed[simulated].result is not None
    assert not listed[played].simulated


@pytest.mark.parametrize("bad", ["a folder", "not a database", "its lock file is a folder"])
def test_an_sqlite_file_that_cannot_be_opened_is_one_sentence(
        tmp_path: Path, bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    unraisable: list[Any] = []  # what a half-made store's __del__ would print after it
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    path = tmp_path / "kiroku.db"
    if bad == "a folder":
        path.mkdir()
    elif bad == "not a database":
        path.write_bytes(b"a judge's notes, not a database")
    else:
        (tmp_path / "kiroku.db-open-lock").mkdir()
    with pytest.raises(SettingsError) as refused:
        Recorder.open(f"sqlite:///{path}")
    message = str(refused.value)
    assert message.startswith(f"Cannot open the SQLite database {path} (")
    assert message.endswith("check KIROKU_DATABASE_URL or --db.") and "\n" not in message
    assert refused.value.reason == "database_unavailable"
    del refused
    gc.collect()
    assert unraisable == []
    if bad == "not a database":
        assert path.read_bytes() == b"a judge's notes, not a database"  # left as it was
