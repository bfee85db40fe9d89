"""Issue 43's HTTP figures (issue 16's before it): Kiroku as ``kiroku serve`` starts it, under
16 concurrent clients, against a bare FastAPI app doing one SQLite insert (or select) per
request, side by side in one run.

    python bench/http_load.py [--quick] [--repeats 3] [--clients 16] [--requests 200]
                              [--workers N] [--baseline TREE]

The servers run at once, each in its own process tree, each on its own SQLite file in WAL mode
with the library's defaults (``synchronous`` untouched, a 10 s busy timeout):

- Kiroku: ``kiroku --db sqlite:///… serve --no-demo --port P``, the command line itself, as
  the README starts it: its default worker processes (one per core on a file, issue 43) on
  its default threads, or ``--workers N`` when given; its CPU time sums the processes;
- ``--baseline TREE`` (another checkout, such as the commit before issue 43's changes): that
  tree's ``kiroku serve`` the same way, on a store of its own prepared by its own code, its
  phases interleaved with this tree's: before and after in one run;
- bare: ``bare_app`` below as ``uvicorn.run(app)`` serves it, on uvicorn's defaults (one
  process; the HTTP parser and event loop uvicorn picks itself, httptools and uvloop once
  installed, as they are with Kiroku since issue 43; an access log line a request, as
  Kiroku's): a FastAPI app whose POST validates the same JSON body and does one INSERT and
  COMMIT (writers take turns on a lock, as eventsourcing's connection pool has them), and
  whose GET reads one row by its primary key. The targets are against this one;
- bare xN, when Kiroku runs N > 1 worker processes: the same app on uvicorn's N workers
  (given Kiroku's connection protocol, ``replay.api.connections``), so a reader sees the
  bare app on as many processes as Kiroku uses too.

The load comes from this process (not the servers'): ``--clients`` clients, each with its own
keep-alive connection, sending prebuilt HTTP/1.1 requests on a raw socket and reading the
answer by its Content-Length, all driven by one thread through the operating system's
readiness events, as wrk drives its connections (the cheapest client Python has, so the
client is not what is measured; its CPU time is printed). Every client sends ``--requests``
requests per phase, each as soon as the answer before it is whole, and times each. The
phases, every server's POST then every server's GET, the servers' order turned each repeat:

- ``Kiroku POST action``: each client records its own World Gainer matches
  (``POST /matches/{id}/actions``), every action sent by its seat with the seat's credential
  (by the organiser's where its outcomes are not the seat's to enter: another seat's draw)
  and the table's chance outcomes of a known random playout (``bench.playout_script``), so every
  action is legal; a client whose match ends goes on with its next one (created beforehand);
- ``bare POST insert``: the same request bodies, to the bare app;
- ``Kiroku GET position``: ``GET /matches/{id}/state?at=N`` with the organiser's credential (a
  judge's view), at positions recorded in this run that no request asked for before, drawn
  at random from all of them. None is kept because it was asked for, but a rebuild keeps the
  states of the positions it passes (docs/architecture.md), so a position near one asked for
  earlier is often read kept, as it is for viewers stepping through a replay;
- ``bare GET row``: ``GET /rows/{id}``, rows inserted in this run, each asked for once.

A warm-up round of every phase (5 requests a client) goes first and is not counted. Printed:
medians over ``--repeats`` (``--quick``: one run of 10 requests a client) of requests per second
while every client was at work (until the first client had its last answer: from then on
fewer clients load the servers, and with several worker processes the one the kernel gave
more of the connections works on alone, so the phase's end measures the kernel's split, not
the servers; the whole phase's rate is printed beside it), median and p99 latency, the
server's CPU time per request (from /proc: steadier than the rates when other work shares
the machine, whose load average is printed), the client's CPU, the size of the answers, each
busy server process's CPU when there are several (workers that took uneven shares of the
connections show here), and issue 43's targets next to the measured figures: recording at
least x0.8 of the bare POST and p99 at most 25 ms; the GET of a position at least x0.8 of the
bare GET; then Kiroku against the bare app on as many workers, and against the baseline.
Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import selectors
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from processes import started, stop_on_sigterm  # noqa: E402
from scale import percentile  # noqa: E402
from trees import tree_name  # noqa: E402

from bench import DECKS, PlayoutStep, free_port, playout_script  # noqa: E402
from replay.threads import threads_setting  # noqa: E402

WARM_UP = 5  # requests per client per phase before the measured repeats
TARGET_RATIO = 0.8  # issue 43: at least x0.8 of the bare app
TARGET_P99_MS = 25.0  # issue 43: recording p99 at most 25 ms
Script = tuple[list[Any], list[PlayoutStep]]


# ----- the bare app ---------------------------------------------------------------------------
class BareAction(BaseModel):
    """The body Kiroku's POST takes, validated the plain way."""

    action: dict[str, Any]
    outcomes: list[Any] | None = None


class BareStore:
    """One SQLite file as eventsourcing's datastore opens it: a connection per thread in
    autocommit mode, WAL journal, 10 s busy timeout; writers take turns on one lock."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.local = threading.local()
        self.writer = threading.Lock()
        self.connection().execute("CREATE TABLE IF NOT EXISTS actions (id INTEGER PRIMARY KEY, "
                                  "match_id TEXT, body BLOB)")

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use."""
        conn: sqlite3.Connection | None = getattr(self.local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")
            self.local.conn = conn
        return conn

    def insert(self, match_id: str, body: bytes) -> int:
        """Insert one row in its own committed transaction; its id."""
        conn = self.connection()
        with self.writer:
            conn.execute("BEGIN")
            try:
                row = conn.execute("INSERT INTO actions (match_id, body) VALUES (?, ?)",
                                   (match_id, body)).lastrowid
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return int(row or 0)

    def read(self, row: int) -> tuple[str, bytes] | None:
        """The match id and body of one row, None if there is no such row."""
        found = self.connection().execute("SELECT match_id, body FROM actions WHERE id = ?",
                                          (row,)).fetchone()
        return None if found is None else (str(found[0]), bytes(found[1]))


def bare_app(path: str) -> FastAPI:
    """The yardstick: a FastAPI app over one SQLite file, one statement per request (sync
    routes, run in the thread pool as Kiroku's are)."""
    store = BareStore(path)
    app = FastAPI(docs_url=None, redoc_url=None)

    @app.get("/ready")
    def ready() -> JSONResponse:
        return JSONResponse({})

    @app.post("/matches/{match_id}/actions", status_code=201)
    def insert(match_id: str, body: BareAction) -> JSONResponse:
        data = json.dumps(body.model_dump(), separators=(",", ":")).encode()
        return JSONResponse({"match_id": match_id, "seq": store.insert(match_id, data)}, 201)

    @app.get("/rows/{row}")
    def read(row: int) -> JSONResponse:
        found = store.read(row)
        if found is None:
            return JSONResponse({"code": "not_found"}, 404)
        return JSONResponse({"id": row, "match_id": found[0], "body": found[1].decode()})

    return app


# ----- servers and the raw client -------------------------------------------------------------
def bare_app_from_environment() -> FastAPI:
    """The bare app over the file ``BARE_DB`` names: what each of its workers builds."""
    return bare_app(os.environ["BARE_DB"])


def bare_server(db: Path, port: int, workers: int) -> Any:
    """The bare app: with ``workers`` 1 as ``uvicorn.run(app)`` runs it, on uvicorn's
    defaults (one process; httptools and uvloop, which uvicorn picks itself once they are
    installed, as they are with Kiroku; an access log line for each request, as Kiroku's);
    else in ``workers`` uvicorn worker processes given Kiroku's connection protocol
    (``replay.api.connections``: httptools with Nagle's algorithm off)."""
    prefix = f"import sys; sys.path.insert(0, {str(BENCH)!r}); import uvicorn; "
    if workers == 1:
        code = (prefix + "from http_load import bare_app; "
                f"uvicorn.run(bare_app({str(db)!r}), host='127.0.0.1', port={port})")
    else:
        code = (prefix + "from replay.api.connections import HTTP; "
                "uvicorn.run('http_load:bare_app_from_environment', factory=True, "
                f"workers={workers}, http=HTTP, host='127.0.0.1', port={port})")
    return started([sys.executable, "-c", code], BENCH.parent,
                   {**os.environ, "BARE_DB": str(db)})


def kiroku_server(tree: Path, db: Path, port: int, workers: int | None,
                  env: dict[str, str] | None = None) -> Any:
    """``tree``'s Kiroku as ``kiroku serve`` starts it (the command line's own ``main``, on
    ``db``, without its demo match), with its default worker processes, or ``--workers
    workers`` when given; ``env`` added to its environment (``PYTHONPATH`` there goes
    before the tree)."""
    code = (f"import sys; sys.path.insert(0, {str(tree)!r}); from cli.main import main; "
            "main()")
    command = [sys.executable, "-c", code, "--db", f"sqlite:///{db}", "serve", "--no-demo",
               "--port", str(port), *(["--workers", str(workers)] if workers else [])]
    extra = dict(env or {})
    first = extra.pop("PYTHONPATH", None)
    merged = {**os.environ, **extra,
              "PYTHONPATH": os.pathsep.join([first, str(tree)] if first else [str(tree)])}
    merged.pop("KIROKU_DATABASE_URL", None)
    return started(command, tree, merged)


def organiser_of(tree: Path, db: Path) -> str:
    """An organiser's token, issued into a fresh store at ``db`` by ``tree``'s own code."""
    code = (f"import sys; sys.path.insert(0, {str(tree)!r}); "
            "from replay.service import Kiroku; from ledger.identity import Role; "
            f"k = Kiroku.open('sqlite:///{db}'); "
            "print(k.credentials.issue(Role.ORGANISER, 'bench', issued_by='bench')[1]); "
            "k.close()")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tree)})
    return out.stdout.strip().splitlines()[-1]


def workers_of(tree: Path, db: Path, given: int | None) -> int:
    """How many worker processes ``tree``'s ``kiroku serve`` runs on ``db``: ``given``, else
    its default (1 where the tree has no ``default_workers``: before issue 43)."""
    if given:
        return given
    code = (f"import sys; sys.path.insert(0, {str(tree)!r})\n"
            "try:\n    from replay.api.connections import default_workers\n"
            "except ImportError:\n    print(1)\n"
            f"else:\n    print(default_workers('sqlite:///{db}'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, check=True,
                         capture_output=True, text=True)
    return int(out.stdout.strip())


def whole_answer(data: bytes) -> tuple[int, bytes, bytes] | None:
    """The first HTTP/1.1 answer in ``data`` (its status, its body, and the bytes after it)
    once it has arrived whole, read by its Content-Length; None before."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = data[:end + 2].lower()  # each header line ends with CRLF
    start = head.find(b"\r\ncontent-length:")
    if start < 0:
        raise RuntimeError(f"an answer without Content-Length: {head[:200]!r}")
    total = end + 4 + int(head[start + 17:head.index(b"\r\n", start + 2)])
    if len(data) < total:
        return None
    return int(data[9:12]), data[end + 4:total], data[total:]


def answer_closes(data: bytes) -> bool:
    """Whether the HTTP/1.1 answer at the start of ``data`` (its head arrived) says
    ``Connection: close``: the server closes the connection once it is sent, as a worker of
    ``kiroku serve --workers`` holding more than its share of the connections does
    (replay.api.connections), and the client's next request goes on a new one."""
    return b"\r\nconnection: close\r\n" in data[:data.find(b"\r\n\r\n") + 2].lower()


class Connection:
    """One keep-alive HTTP/1.1 connection on a raw socket: prebuilt requests out, answers read
    by their Content-Length; opened again after an answer that says ``Connection: close``
    (``reconnects`` counts them)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock = self._opened()
        self.pending = b""
        self.reconnects = 0

    def _opened(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def reopen(self) -> None:
        """Close the socket and open a new one (the server said ``Connection: close``)."""
        self.sock.close()
        self.sock = self._opened()
        self.pending = b""
        self.reconnects += 1

    def roundtrip(self, request: bytes) -> tuple[int, bytes]:
        """Send one request; the answer's status and body."""
        self.sock.sendall(request)
        data = self.pending
        while (answer := whole_answer(data)) is None:
            data += self._recv()
        status, body, self.pending = answer
        if answer_closes(data):
            self.reopen()
        return status, body

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk

    def close(self) -> None:
        """Close the socket."""
        self.sock.close()


def request(method: str, path: str, token: str | None = None,
            body: Any = None) -> bytes:
    """The bytes of one HTTP/1.1 request (JSON body if given)."""
    data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    return (head + "\r\n").encode() + data


def wait_ready(port: int, path: str, process: subprocess.Popen[bytes]) -> None:
    """Wait until the server at ``port`` answers ``GET path`` with 200."""
    deadline = time.monotonic() + 120  # a loaded machine starts worker processes slowly
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited ({process.returncode})")
        try:
            conn = Connection(port)
        except OSError:
            time.sleep(0.05)
            continue
        status, body = conn.roundtrip(request("GET", path))
        conn.close()
        if status == 200:
            return
        raise RuntimeError(f"{path}: {status} {body[:200]!r}")
    raise RuntimeError(f"the server on port {port} did not start")


def call(conn: Connection, req: bytes, expect: int) -> Any:
    """One setup request; its JSON answer (RuntimeError on another status)."""
    status, body = conn.roundtrip(req)
    if status != expect:
        raise RuntimeError(f"{status}: {body[:300]!r}")
    return json.loads(body)


def cpu_by_process(pid: int) -> dict[int, float] | None:
    """User + system CPU time of process ``pid`` and of each of its running descendants (a
    server's worker processes), by process id (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    found = {pid: (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")}
    for child in children:
        found.update(cpu_by_process(int(child)) or {})
    return found


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process ``pid`` and of its running children (Linux /proc;
    None elsewhere)."""
    found = cpu_by_process(pid)
    return None if found is None else sum(found.values())


# ----- one phase ------------------------------------------------------------------------------
@dataclass
class Lane:
    """What one client did in a phase."""

    latencies: list[float] = field(default_factory=list)
    answered_at: list[float] = field(default_factory=list)  # perf_counter() of each answer
    received: int = 0
    reconnects: int = 0  # answers that said Connection: close


@dataclass
class Phase:
    """One measured phase: every request's latency (ms), wall time, the time every client
    was still at work and the answers it took (s), and CPU times (s)."""

    latencies: list[float]
    wall: float
    at_work: float
    answered_at_work: int
    received: int
    client_cpu: float
    server_cpu: float | None
    busy: list[float] = field(default_factory=list)  # each busy server process, % of a core
    reconnects: int = 0  # answers that said Connection: close (the client opened a new one)

    @property
    def rate(self) -> float:
        """Requests per second while every client was at work: until the first client sent
        its last request's answer home. After that fewer clients load the servers, and with
        several worker processes the one holding more of the connections works on alone
        (the kernel assigns connections at random), so the whole phase's rate would measure
        that split more than the servers."""
        return self.answered_at_work / self.at_work

    @property
    def phase_rate(self) -> float:
        """Requests per second over the whole phase."""
        return len(self.latencies) / self.wall

    @property
    def server_ms(self) -> float | None:
        """Server CPU milliseconds per request."""
        return None if self.server_cpu is None else self.server_cpu / len(self.latencies) * 1000


class Driven:
    """One client's keep-alive connection, driven by the event loop of ``drive_all``: its
    requests sent one after the other, each as soon as the answer before it is whole."""

    def __init__(self, conn: Connection, requests: list[bytes], expect: int) -> None:
        self.conn, self.requests, self.expect = conn, requests, expect
        self.lane, self.next, self.data, self.sent_at = Lane(), 0, b"", 0.0
        self.closing = False  # the last answer said Connection: close

    def send_next(self) -> bool:
        """Send the next request (False when none is left)."""
        if self.next == len(self.requests):
            return False
        self.sent_at = time.perf_counter()
        self.conn.sock.sendall(self.requests[self.next])
        self.next += 1
        return True

    def received(self, chunk: bytes) -> bool:
        """Take what arrived; True once the answer is whole (its latency then recorded)."""
        self.data += chunk
        answer = whole_answer(self.data)
        if answer is None:
            return False
        now = time.perf_counter()
        self.lane.latencies.append((now - self.sent_at) * 1000)
        self.lane.answered_at.append(now)
        if answer_closes(self.data):
            self.lane.reconnects += 1
            self.closing = True
        status, body, self.data = answer
        self.lane.received += len(body)
        if status != self.expect:
            raise RuntimeError(f"{status}: {body[:300]!r}")
        return True


def drive_all(port: int, lanes: list[list[bytes]], expect: int,
              started: Callable[[], None]) -> list[Lane]:
    """Every lane's requests on its own keep-alive connection, all driven by this one thread
    through the operating system's readiness events, as wrk drives its connections: one
    wake-up takes every answer that has arrived, and every answer's time is known to the one
    thread (``Phase.rate``). Against the sixteen client threads the bench had before, the
    rates differed by no more than the machine's noise. ``started`` is called once every
    connection is open, just before the first requests go."""
    clients: list[Driven] = []
    chooser = selectors.DefaultSelector()
    try:
        for requests in lanes:
            clients.append(Driven(Connection(port), requests, expect))
        started()
        for client in clients:
            if client.send_next():
                chooser.register(client.conn.sock, selectors.EVENT_READ, client)
        while chooser.get_map():
            for key, _ in chooser.select():
                client = key.data
                chunk = client.conn.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the server closed the connection")
                if not client.received(chunk):
                    continue
                if client.closing:  # as a browser does: the next request on a new connection
                    chooser.unregister(client.conn.sock)
                    client.conn.reopen()
                    client.closing = False
                    chooser.register(client.conn.sock, selectors.EVENT_READ, client)
                if not client.send_next():
                    chooser.unregister(client.conn.sock)
    finally:
        chooser.close()
        for client in clients:
            client.conn.close()
    return [client.lane for client in clients]


def run_phase(port: int, pid: int, lanes: list[list[bytes]], expect: int) -> Phase:
    """Every lane's requests by its own client connection at once (``drive_all``)."""
    before: dict[int, float] | None = None
    cpu_before = start = 0.0

    def started() -> None:
        nonlocal before, cpu_before, start
        before, cpu_before, start = cpu_by_process(pid), time.process_time(), time.perf_counter()

    results = drive_all(port, lanes, expect, started)
    wall = time.perf_counter() - start
    until = min((lane.answered_at[-1] for lane in results if lane.answered_at),
                default=start + wall)
    answered = sum(1 for lane in results for t in lane.answered_at if t <= until)
    client_cpu, after = time.process_time() - cpu_before, cpu_by_process(pid)
    server_cpu = (None if before is None or after is None
                  else sum(after.values()) - sum(before.values()))
    busy = ([] if before is None or after is None else
            sorted((share for share in ((after[p] - before.get(p, 0.0)) / wall * 100
                                        for p in after) if share >= 1), reverse=True))
    return Phase([x for lane in results for x in lane.latencies], wall, until - start,
                 answered, sum(lane.received for lane in results), client_cpu, server_cpu,
                 busy, sum(lane.reconnects for lane in results))


# ----- the work: matches, positions, rows -----------------------------------------------------
@dataclass
class Step:
    """One action to record: its match, the position before it, and the request (the bare app
    takes the same bytes: same path, credential and body)."""

    match_id: str
    position: int
    request: bytes


class Pool:
    """Things recorded so far that no request asked for yet, handed out in random order."""

    def __init__(self, seed: int) -> None:
        self.items: list[Any] = []
        self.rng = random.Random(seed)

    def add(self, items: list[Any]) -> None:
        """Make ``items`` available."""
        self.items.extend(items)

    def draw(self, n: int) -> list[Any]:
        """``n`` items never drawn before, at random."""
        if n > len(self.items):
            raise RuntimeError(f"{n} asked, {len(self.items)} left")
        self.rng.shuffle(self.items)
        out, self.items = self.items[:n], self.items[n:]
        return out


def create_matches(port: int, organiser: str, script: Script, count: int) -> list[Step]:
    """``count`` matches of ``script`` created over HTTP; the steps recording them again."""
    setup, actions = script
    conn = Connection(port)
    steps = []
    for _ in range(count):
        created = call(conn, request("POST", "/matches", organiser, {
            "players": ["A", "B"], "decks": DECKS, "setup_outcomes": setup}), 201)
        match_id = created["match_id"]
        seats = {s["seat"]: s["token"] for s in created["seats"]}
        path = f"/matches/{match_id}/actions"
        for n, (action, outcomes, judged) in enumerate(actions):
            by = organiser if judged else seats[action["seat"]]
            steps.append(Step(match_id, n, request("POST", path, by, {
                "action": action, "outcomes": outcomes})))
    conn.close()
    return steps


@dataclass
class Client:
    """One client's work on one Kiroku server for the whole run, and what it may read."""

    steps: list[Step]
    positions: Pool
    done: int = 0  # steps sent so far


class Served:
    """One running server under load: its name, port and process, and what its clients
    send it. A Kiroku server (``clients`` given) records its own clients' matches and reads
    positions they recorded; a bare one (``clients`` None) takes the requests of ``source``'s
    clients (the same bytes) and reads back the rows it inserted."""

    def __init__(self, name: str, port: int, pid: int, clients: list[Client] | None,
                 source: list[Client]) -> None:
        self.name, self.port, self.pid = name, port, pid
        self.clients, self.source = clients, source
        self.sent = [0] * len(source)  # a bare server's steps sent, per client
        self.rows = Pool(99)
        self.inserted = 0  # rows in a bare server's fresh table: their ids are 1 to this

    @property
    def kiroku(self) -> bool:
        """Whether this is a Kiroku server (else a bare one)."""
        return self.clients is not None

    def post(self) -> str:
        """The name of this server's POST phase."""
        return f"{self.name} POST {'action' if self.kiroku else 'insert'}"

    def get(self) -> str:
        """The name of this server's GET phase."""
        return f"{self.name} GET {'position' if self.kiroku else 'row'}"

    def phase(self, posting: bool, n: int, organiser: str) -> Phase:
        """This server's POST (``posting``) or GET phase, ``n`` requests a client."""
        if self.clients is not None:
            return self._kiroku_post(n) if posting else self._kiroku_get(n, organiser)
        return self._bare_post(n) if posting else self._bare_get(n)

    def _kiroku_post(self, n: int) -> Phase:
        assert self.clients is not None
        lanes = [[s.request for s in c.steps[c.done:c.done + n]] for c in self.clients]
        result = run_phase(self.port, self.pid, lanes, 201)
        for c in self.clients:
            c.positions.add([(s.match_id, s.position) for s in c.steps[c.done:c.done + n]])
            c.done += n
        return result

    def _kiroku_get(self, n: int, organiser: str) -> Phase:
        assert self.clients is not None
        lanes = [[request("GET", f"/matches/{m}/state?at={p}", organiser)
                  for m, p in c.positions.draw(n)] for c in self.clients]
        return run_phase(self.port, self.pid, lanes, 200)

    def _bare_post(self, n: int) -> Phase:
        lanes = [[s.request for s in c.steps[done:done + n]]
                 for c, done in zip(self.source, self.sent)]
        result = run_phase(self.port, self.pid, lanes, 201)
        self.sent = [done + n for done in self.sent]
        self.rows.add(list(range(self.inserted + 1, self.inserted + 1 + n * len(lanes))))
        self.inserted += n * len(lanes)
        return result

    def _bare_get(self, n: int) -> Phase:
        lanes = [[request("GET", f"/rows/{r}") for r in self.rows.draw(n)] for _ in self.source]
        return run_phase(self.port, self.pid, lanes, 200)


def prepare(kiroku_port: int, organiser: str, scripts: list[Script], clients: int,
            needed: int) -> list[Client]:
    """Each client's matches (client i plays script i, again and again), ``needed`` steps
    at least; created over HTTP by 4 threads at once."""
    out: list[Client | None] = [None] * clients

    def make(i: int) -> None:
        script = scripts[i % len(scripts)]
        count = -(-needed // len(script[1]))
        out[i] = Client(create_matches(kiroku_port, organiser, script, count), Pool(i))

    for first in range(0, clients, 4):
        threads = [threading.Thread(target=make, args=(i,))
                   for i in range(first, min(first + 4, clients))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    ready = [c for c in out if c is not None]
    if len(ready) != clients:
        raise RuntimeError("creating the matches failed (see above)")
    return ready


# ----- the report -----------------------------------------------------------------------------
def median_of(runs: list[Phase], get: Callable[[Phase], float]) -> float:
    """The median over ``runs`` of one figure."""
    return statistics.median(get(p) for p in runs)


def row(name: str, runs: list[Phase]) -> str:
    """One line of the table: medians over the runs."""
    rate = median_of(runs, lambda p: p.rate)
    whole = median_of(runs, lambda p: p.phase_rate)
    med = median_of(runs, lambda p: statistics.median(p.latencies))
    p99 = median_of(runs, lambda p: percentile(p.latencies, 99))
    client = median_of(runs, lambda p: p.client_cpu / p.wall * 100)
    size = median_of(runs, lambda p: p.received / len(p.latencies))
    server = [p.server_ms for p in runs]
    server_text = ("n/a" if None in server
                   else f"{statistics.median(s for s in server if s is not None):.2f}")
    return (f"{name:<26} {rate:7.0f} {whole:7.0f} {med:7.1f} {p99:7.1f} {server_text:>8}"
            f" {client:6.0f}% {size:7.0f}  {', '.join(f'{p.rate:.0f}' for p in runs)}")


def target(text: str, figure: float, shown: str, ok: bool, runs: list[str],
           note: str = "") -> str:
    """One target of issue 43 next to its measured figure."""
    return (f"target: {text}: {shown.format(figure)}, {'met' if ok else 'NOT MET'} "
            f"(runs {', '.join(runs)}{note})")


def cpu_ratio(ours: list[Phase], bare: list[Phase]) -> str:
    """``; server CPU per request xN of bare``, or nothing without /proc."""
    pairs = [(k.server_ms, b.server_ms) for k, b in zip(ours, bare)]
    ratios = [k / b for k, b in pairs if k is not None and b]
    return f"; server CPU per request x{statistics.median(ratios):.1f}" if ratios else ""


def ratio_line(label: str, ours: list[Phase], theirs: list[Phase]) -> str:
    """``label``: the median of the runs' rate ratios, each run's, and the CPU ratio."""
    each = [k.rate / b.rate for k, b in zip(ours, theirs)]
    return (f"{label}: x{statistics.median(each):.2f} (runs "
            f"{', '.join(f'x{x:.2f}' for x in each)}{cpu_ratio(ours, theirs)})")


def report(results: dict[str, list[Phase]], servers: list[Served], clients: int) -> None:
    """The table, issue 43's targets next to the figures (Kiroku against the bare app as
    ``uvicorn.run(app)`` runs it), then the other comparisons."""
    print(f"{'phase':<26} {'req/s':>7} {'phase/s':>7} {'med ms':>7} {'p99 ms':>7}"
          f" {'srv ms':>8} {'client':>7} {'resp B':>7}  runs (req/s)")
    names = [name for s in servers for name in (s.post(), s.get())]
    for name in names:
        print(row(name, results[name]))
    print("(req/s: while every client was at work, what the ratios use; phase/s: over the "
          "whole phase; srv ms: the server's CPU ms per request; client: the load generator's "
          "CPU, % of one core; resp B: answer body bytes)")
    for name in names:
        if any(len(p.busy) > 1 for p in results[name]):
            print(f"{name}, each busy server process, % of a core, by run: "
                  + ", ".join("/".join(f"{b:.0f}" for b in p.busy) for p in results[name])
                  + "; connections the server closed to balance its workers: "
                  + ", ".join(str(p.reconnects) for p in results[name]))
    kiroku, bare = servers[0], next(s for s in servers if not s.kiroku)
    k_post, b_post = results[kiroku.post()], results[bare.post()]
    k_get, b_get = results[kiroku.get()], results[bare.get()]
    post = statistics.median(k.rate / b.rate for k, b in zip(k_post, b_post))
    get = statistics.median(k.rate / b.rate for k, b in zip(k_get, b_get))
    p99 = [percentile(p.latencies, 99) for p in k_post]
    print(target(f"HTTP recording at {clients} clients >= x{TARGET_RATIO} of bare POST", post,
                 "x{:.2f}", post >= TARGET_RATIO,
                 [f"x{k.rate / b.rate:.2f}" for k, b in zip(k_post, b_post)],
                 cpu_ratio(k_post, b_post) + " of bare"))
    print(target(f"HTTP recording p99 <= {TARGET_P99_MS:.0f} ms", statistics.median(p99),
                 "{:.1f} ms", statistics.median(p99) <= TARGET_P99_MS, [f"{x:.1f}" for x in p99]))
    print(target(f"GET of a past position >= x{TARGET_RATIO} of bare GET", get, "x{:.2f}",
                 get >= TARGET_RATIO, [f"x{k.rate / b.rate:.2f}" for k, b in zip(k_get, b_get)],
                 cpu_ratio(k_get, b_get) + " of bare"))
    for other in servers[1:]:
        if other is bare:
            continue
        for mine, theirs in ((kiroku.post(), other.post()), (kiroku.get(), other.get())):
            print(ratio_line(f"{mine} / {theirs}", results[mine], results[theirs]))
        if other.kiroku:
            for mine, theirs in ((other.post(), bare.post()), (other.get(), bare.get())):
                print(ratio_line(f"{mine} / {theirs}", results[mine], results[theirs]))


# ----- main -----------------------------------------------------------------------------------
def order(servers: list[Served], repeat: int) -> list[tuple[Served, bool]]:
    """The phases of one repeat: every server's POST, then every server's GET (a GET reads
    what the POSTs recorded), the servers' order turned by one each repeat."""
    turned = servers[repeat % len(servers):] + servers[:repeat % len(servers)]
    return [(s, True) for s in turned] + [(s, False) for s in turned]


@dataclass
class Tree:
    """A Kiroku checkout to serve: its label and folder."""

    name: str
    path: Path


def measure(folder: Path, trees: list[Tree], clients: int, per_phase: int, repeats: int,
            playouts: int, workers: int | None) -> tuple[dict[str, list[Phase]], list[Served],
                                                         list[int]]:
    """Start every server (each tree's Kiroku, the bare app on uvicorn's defaults, and on as
    many workers as this tree's Kiroku when that is more than one), prepare every Kiroku's
    clients' matches, run the warm-up and the repeats. The results by phase, the servers,
    and each tree's worker processes."""
    counts = [workers_of(t.path, folder / f"k{i}.db", workers) for i, t in enumerate(trees)]
    tokens = [organiser_of(t.path, folder / f"k{i}.db") for i, t in enumerate(trees)]
    ports = [free_port() for _ in range(len(trees) + 2)]
    with ExitStack() as stack:
        procs = [stack.enter_context(kiroku_server(t.path, folder / f"k{i}.db", ports[i],
                                                   workers)) for i, t in enumerate(trees)]
        bare = [(f"bare x{n}" if n > 1 else "bare", n) for n in sorted({1, counts[0]})]
        for j, (_, n) in enumerate(bare):
            procs.append(stack.enter_context(bare_server(folder / f"bare{n}.db",
                                                         ports[len(trees) + j], n)))
        scripts = [playout_script(seed) for seed in range(playouts)]
        for i, proc in enumerate(procs):
            wait_ready(ports[i], "/games" if i < len(trees) else "/ready", proc)
        needed = WARM_UP + per_phase * repeats
        work = [prepare(ports[i], tokens[i], scripts, clients, needed)
                for i in range(len(trees))]
        servers = [Served(f"Kiroku {t.name}" if i else "Kiroku", ports[i], procs[i].pid,
                          work[i], work[i]) for i, t in enumerate(trees)]
        servers += [Served(name, ports[len(trees) + j], procs[len(trees) + j].pid, None,
                           work[0]) for j, (name, _) in enumerate(bare)]
        organiser = dict(zip((s.name for s in servers), tokens))
        for server, posting in order(servers, 0):
            server.phase(posting, WARM_UP, organiser.get(server.name, ""))
        results: dict[str, list[Phase]] = {}
        for repeat in range(repeats):
            for server, posting in order(servers, repeat):
                name = server.post() if posting else server.get()
                results.setdefault(name, []).append(
                    server.phase(posting, per_phase, organiser.get(server.name, "")))
    return results, servers, counts


def main() -> None:
    """Parse the arguments, measure, print."""
    stop_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=None,
                        help="requests per client per phase (default 200, --quick 10)")
    parser.add_argument("--workers", type=int, default=None,
                        help="Kiroku's server processes (kiroku serve --workers; default: "
                             "kiroku serve's own default)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another Kiroku tree, served and measured beside this one")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    per_phase = args.requests or (10 if args.quick else 200)
    trees = [Tree(tree_name(BENCH.parent, "this tree"), BENCH.parent)]
    if args.baseline is not None:
        trees.append(Tree(tree_name(args.baseline.resolve(), "baseline"),
                          args.baseline.resolve()))
    started_at = time.perf_counter()
    print(f"Kiroku HTTP load (python {sys.version.split()[0]}, {os.cpu_count()} cores): "
          f"{args.clients} clients, keep-alive, {per_phase} requests each per phase, "
          f"medians of {repeats} run(s); load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        results, servers, counts = measure(
            Path(tmp), trees, args.clients, per_phase, repeats,
            min(args.clients, 4 if args.quick else 16), args.workers)
    for tree, count in zip(trees, counts):
        print(f"{tree.name}: kiroku serve{f' --workers {args.workers}' if args.workers else ''}"
              f", {count} worker process(es) of {threads_setting()} thread(s)")
    also = (f"; bare x{counts[0]}: uvicorn's {counts[0]} workers, httptools with Nagle's "
            "algorithm off (Kiroku's protocol)") if counts[0] > 1 else ""
    print("bare: uvicorn.run(app), uvicorn's defaults: one process, "
          f"{uvicorn_parts()}, an access log line a request (as Kiroku's){also}")
    report(results, servers, args.clients)
    print(f"({time.perf_counter() - started_at:.1f} s in all)")


def uvicorn_parts() -> str:
    """The HTTP parser and event loop uvicorn's defaults (``auto``) pick here."""
    parser = "httptools" if importlib.util.find_spec("httptools") else "h11"
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    return f"{parser}, {loop}"


if __name__ == "__main__":
    main()
