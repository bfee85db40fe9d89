"""``kiroku serve`` as the README starts it uses the machine (issue 43): one server process
per core on a database file or PostgreSQL, one on an in-memory store, ``--workers`` still
deciding when given; and a credential revoked through one server is refused by another on
the same store within ``RECHECK_AFTER`` seconds, by the one that revoked it at once."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from ledger.identity import RECHECK_AFTER
from replay.api import connections
from replay.api.connections import cores, default_workers
from tests.cli.conftest import kiroku as run_kiroku
from tests.replay.conftest import Server, serve
from tests.replay.test_workers_http import _workers


def test_the_default_is_one_process_per_core_on_a_shared_store() -> None:
    assert cores() == len(os.sched_getaffinity(0))
    assert default_workers("sqlite:////tmp/kiroku.db") == cores()
    assert default_workers("postgresql://postgres@127.0.0.1:5432/test") == cores()
    assert default_workers("sqlite:///:memory:") == 1


def test_the_cores_are_those_this_process_may_run_on() -> None:
    """A container's or ``taskset``'s limit on the cores narrows the default: the affinity,
    not the machine's count."""
    everything = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {min(everything)})
        assert cores() == 1 and default_workers("sqlite:////tmp/kiroku.db") == 1
    finally:
        os.sched_setaffinity(0, everything)


def _served(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """What ``kiroku serve`` would serve, recorded in place of serving it: ("one", app) for
    uvicorn.run in this process, ("workers", config) for uvicorn's worker processes."""
    for name in ("KIROKU_THREADS", "KIROKU_DATABASE_URL", "KIROKU_KEY_FILE"):
        monkeypatch.setenv(name, "")  # restored after the test: serve exports them
        monkeypatch.delenv(name)
    served: list[tuple[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: served.append(("one", app)))
    monkeypatch.setattr(connections, "listening_socket", lambda config: None)
    monkeypatch.setattr(connections, "run_workers",
                        lambda config, sock: served.append(("workers", config)))
    return served


@pytest.mark.skipif(cores() < 2, reason="one core: the default is one process")
def test_serve_without_options_runs_a_worker_per_core_on_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    served = _served(monkeypatch)
    run_kiroku(f"sqlite:///{tmp_path / 'k.db'}", "serve", "--no-demo")
    [(how, config)] = served
    assert how == "workers" and config.workers == cores()


def test_serve_on_an_in_memory_store_runs_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    served = _served(monkeypatch)
    run_kiroku("sqlite:///:memory:", "serve", "--no-demo")
    assert [how for how, _ in served] == ["one"]


def test_workers_given_are_the_workers_run(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    served = _served(monkeypatch)
    db = f"sqlite:///{tmp_path / 'k.db'}"
    run_kiroku(db, "serve", "--no-demo", "--workers", "1")
    run_kiroku(db, "serve", "--no-demo", "--workers", "3")
    (one, _), (workers, config) = served
    assert one == "one" and workers == "workers" and config.workers == 3


@pytest.mark.skipif(cores() < 2, reason="one core: the default is one process")
def test_a_default_server_runs_a_process_per_core_and_records(tmp_path: Path) -> None:
    """The real thing: ``kiroku serve`` with no options but its port, one worker process per
    core, each answering."""
    for server in serve(tmp_path / "k.db", default_workers=True):
        assert len(_workers(server)) == cores()
        with server.client(server.organiser_token) as client:
            made = client.post("/credentials", json={"role": "judge", "name": "J"})
            assert made.status_code == 201, made.text
        for _ in range(8):  # new connections, spread across the workers by the kernel
            with server.client(made.json()["token"]) as judge:
                assert judge.get("/me").json()["role"] == "judge"


def _get_games(connection: socket.socket) -> bytes:
    """``GET /games`` on an open keep-alive connection; the answer's status line ('' if the
    server had closed the connection)."""
    connection.sendall(b"GET /games HTTP/1.1\r\nhost: kiroku\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = connection.recv(65536)
        if not chunk:
            return b""
        answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        body += connection.recv(65536)
    return head.split(b"\r\n")[0]


@pytest.mark.parametrize("options", [(), ("--workers", "1")], ids=["default", "one-process"])
def test_an_idle_connection_outlives_uvicorns_five_seconds(tmp_path: Path,
                                                            options: tuple[str, ...]) -> None:
    """A table's phone that taps every few seconds keeps its connection: idle for longer than
    uvicorn's default keep-alive (5 s), it is still open and answers."""
    idle = 6.0
    assert connections.KEEP_ALIVE_SECONDS > idle
    for server in serve(tmp_path / "k.db", *options, default_workers=not options):
        port = int(server.base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
            assert _get_games(connection) == b"HTTP/1.1 200 OK"
            time.sleep(idle)
            assert _get_games(connection) == b"HTTP/1.1 200 OK"


def _me(server: Server, token: str) -> int:
    """The status of ``GET /me`` with ``token`` on a new connection."""
    return httpx.get(f"{server.base}/me", headers={"authorization": f"Bearer {token}"},
                     timeout=30).status_code


def test_a_credential_revoked_through_one_server_is_refused_by_another_within_seconds(
        tmp_path: Path) -> None:
    """Two servers on one SQLite file. A judge's token works on both; the organiser revokes
    it through the first, which refuses it at once; the second, which read it a moment ago,
    refuses it within ``RECHECK_AFTER`` seconds (plus the time a request takes here)."""
    for first in serve(tmp_path / "k.db"):
        for second in serve(tmp_path / "k.db"):
            with first.client(first.organiser_token) as organiser:
                made = organiser.post("/credentials", json={"role": "judge", "name": "J"})
                assert made.status_code == 201, made.text
                token, credential = made.json()["token"], made.json()["credential_id"]
                assert _me(first, token) == 200 and _me(second, token) == 200
                revoked = organiser.post(f"/credentials/{credential}/revoke",
                                         json={"reason": "left the event"})
                assert revoked.status_code == 200, revoked.text
            revoked_at = time.monotonic()
            assert _me(first, token) == 401
            while _me(second, token) != 401:
                assert time.monotonic() - revoked_at < RECHECK_AFTER + 1.0
                time.sleep(0.05)
            time.sleep(RECHECK_AFTER)  # and it stays refused
            assert _me(second, token) == 401 and _me(first, token) == 401


def test_a_worker_slow_to_start_is_waited_for(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Each worker process sleeps 7 s as Python starts in it (a ``sitecustomize``, as a
    machine loaded by other work makes it slow): longer than uvicorn's own 5 s health check,
    which killed such workers as hung and started others, for ever. The server answers."""
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "sitecustomize.py").write_text(
        "import sys, time\n"
        "if '--multiprocessing-fork' in sys.argv:\n"
        "    time.sleep(7)\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(slow), *filter(None, [os.environ.get("PYTHONPATH")])]))
    for server in serve(tmp_path / "k.db", "--workers", "2"):
        assert len(_workers(server)) == 2
        assert httpx.get(f"{server.base}/games", timeout=30).status_code == 200
