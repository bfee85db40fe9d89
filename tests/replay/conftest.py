"""A real HTTP server for the replay tests: ``kiroku serve`` in a subprocess on a fresh SQLite
file, and the organiser's credential it prints on its first start (no in-process TestClient)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from replay.service import Kiroku

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
# the benches' own stop (a server's whole session, killed race-free, Ctrl-C held back)
from processes import stop_session  # noqa: E402

TOKEN_LINE = re.compile(r"^\s{4}(\S{40,})$", re.MULTILINE)


@dataclass(frozen=True)
class Server:
    """A running service: its base URL, database URL, the first organiser's token and the
    store's key file."""

    base: str
    db_url: str
    organiser_token: str
    key_file: str | None = None

    def client(self, token: str | None = None) -> httpx.Client:
        """A client sending ``token`` as its bearer credential (none: a spectator)."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base, timeout=30, headers=headers)


def key_file_of(db_path: Path, db_url: str) -> str:
    """The key file ``serve`` gives the store: beside an SQLite file, as Kiroku's default;
    for a PostgreSQL store, ``kiroku.keys`` in ``db_path``'s folder (servers started there on
    one database share it)."""
    return f"{db_path}.keys" if db_url.startswith("sqlite:") else str(db_path.parent /
                                                                      "kiroku.keys")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(db_path: Path, *options: str, db_url: str | None = None,
          default_workers: bool = False) -> Iterator[Server]:
    """Run ``kiroku serve`` on ``db_path`` (with ``options``, such as ``--workers 2``) until
    GET /games answers, yield it, then stop it. The organiser's token is the one a first start
    prints ("" when it printed none). With ``db_url`` (a PostgreSQL store) the server uses that
    database instead, with the key file ``key_file_of`` names. One server process unless
    ``options`` say ``--workers``, or ``default_workers`` leaves the number to ``serve``."""
    port = _free_port()
    log_path = db_path.with_suffix(".log")
    db_url = db_url or "sqlite:///" + str(db_path)
    keys = key_file_of(db_path, db_url)
    # one server process unless the test asks for more: what a test reads of the server's
    # own state (its heavy-read shares, a revocation refused at once) is one process's
    # (``kiroku serve`` runs one per core by default: tests/replay/test_serve_default.py)
    workers = () if "--workers" in options or default_workers else ("--workers", "1")
    command = [sys.executable, "-c", "from cli.main import main; main()", "--db", db_url,
               "--keys", keys, "serve", "--port", str(port),
               "--no-demo", *workers, *options]
    # the tests' callers read every channel of a match, one after another: they may take the
    # whole server's time (tests/replay/test_heavy_reads.py holds a caller to its share)
    env = {**os.environ, "KIROKU_HEAVY_SHARE": os.environ.get("KIROKU_HEAVY_SHARE", "1")}
    with open(log_path, "wb") as log:
        # a session of its own: if it has to be killed, its workers go with it (killed
        # alone, a supervisor leaves its workers running, orphaned, past the test run)
        proc = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60  # a loaded machine starts workers slowly
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the server exited with {proc.returncode}:\n"
                            f"{log_path.read_text(errors='replace')}")
            try:
                if httpx.get(f"{base}/games", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not answer within 60 s:\n"
                            f"{log_path.read_text(errors='replace')}")
            time.sleep(0.1)
        found = TOKEN_LINE.search(log_path.read_text(errors="replace"))
        yield Server(base, db_url, found.group(1) if found else "", keys)
    finally:
        stop_session(proc, grace=10)


def served_store(tmp_path_factory: pytest.TempPathFactory,
                 name: str) -> Iterator[tuple[Kiroku, Server]]:
    """A fresh SQLite store the test records in directly, and a real server reading it (for a
    module's fixture: ``yield from served_store(tmp_path_factory, "name")``)."""
    path = tmp_path_factory.mktemp(name) / "kiroku.db"
    service = Kiroku.open(f"sqlite:///{path}")
    try:
        for running in serve(path):
            yield service, running
    finally:
        service.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the session."""
    for started in serve(tmp_path_factory.mktemp("kiroku-http") / "main.db"):
        assert started.organiser_token, "a first start prints the organiser's token"
        yield started


@pytest.fixture(scope="session")
def client(server: Server) -> Iterator[httpx.Client]:
    """The organiser's client."""
    with server.client(server.organiser_token) as c:
        yield c


@pytest.fixture(scope="session")
def anonymous(server: Server) -> Iterator[httpx.Client]:
    """A client without a credential: a spectator."""
    with server.client() as c:
        yield c
