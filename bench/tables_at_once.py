"""Issue 43's tables targets: many tables recording at once, each at its own pace, on the
default server (``kiroku serve`` as the README starts it), open loop; before and after in one run.

    python bench/tables_at_once.py [--quick] [--seconds 30] [--warm-up 5] [--repeats 1]
                                   [--scenario 500x1 --scenario 1000x0.2 ...] [--timeout 10]
                                   [--baseline TREE]

The server is the ``kiroku`` console script exactly as the README starts it, ``kiroku serve``,
with only ``--db`` (a fresh SQLite file) and ``--port`` chosen here and every ``KIROKU_*``
variable taken out of its environment, so it runs the defaults (its worker processes and
threads included); the organiser's credential is read from its first start's output, as an
organiser would. With ``--baseline TREE`` (another checkout, such as /tmp/before) a second
server runs that tree's code (the same console script with ``PYTHONPATH=TREE``, from TREE) on a
store of its own, and each scenario runs on both servers back to back, the order flipping every
repeat.

A scenario ``TABLESxRATE[:MIX]`` is ``TABLES`` tables each tapping ``RATE`` times a second. Each
table records its own World Gainer match: a known legal random playout (``bench.playout_script``)
with its chance outcomes entered at the table, every action sent by its seat with the seat's
credential (by the organiser's where an outcome is not the seat's to enter: another seat's
draw) and the version it was made on (``expected_version``); a table whose match ends goes on
with its next one. Matches are created over HTTP between phases (not timed), as many as the
next phase needs. A tap is, by ``MIX``:

- ``post`` (the default): ``POST /matches/{id}/actions``;
- ``app``: a scorekeeper app's ``GET /matches/{id}`` (the summary), ``GET /matches/{id}/legal``
  and the POST, one after the other (issue 43's "scorekeeper-app mix");
- ``page``: what the seat's page (replay/web/play.js) sends per tap: the POST, then
  ``GET /matches/{id}/turn`` and ``GET /matches/{id}/state``.

The load is open loop: each table taps on its own schedule (every ``1/RATE`` s from a random
moment of the first interval), whether or not the server has answered, on its own keep-alive
connection. A tap due while the table's previous one is unanswered waits for it (one
connection, as a phone has), and its latency runs from the moment it was due, not from when it
could be sent: the queueing a slow server causes is counted, not hidden by a client that waits
before asking (coordinated omission). A table waits for every answer, however late, as a phone
does (a client that gave up and asked again would send a slow server more work); an answer that
came more than ``--timeout`` s after its request counts as a timeout instead of its status, and
a request unanswered when the phase's wait for answers ends (``--timeout`` s after its counted
window) as a timeout with an infinite latency. A refused tap (4xx) sends its table on to its
next match (the rest of that match would be refused for its version); a lost one (unanswered, a
5xx) sends its action again as the table's next tap, with the same ``expected_version``, which
records it once. A connection the server closed while idle (its keep-alive timeout), or after
an answer that said ``Connection: close`` (a worker holding more than its share of the
connections), is opened again for the next tap, and a request the server closed the
connection on before answering is sent once more on a new one, as the seat's page does (the
same ``expected_version``: it records once); all are counted. All connections are driven by
one thread of this process through the operating system's readiness events (``selectors``),
so its CPU and its own lateness (how late an idle table's tap went out: ``lag``) are printed,
to show it is not the limit.

Each phase runs ``--warm-up`` s (not counted; at least one interval, so that every table has
tapped), then ``--seconds`` s counted (taps due in that window), then waits for their answers;
the server's CPU is read from the counted window's start to the last answer, and divided by the
taps answered in that time. Printed, per server and scenario, medians over
``--repeats``: taps offered and answered a second, p50, p99 and the worst tap (ms), the
answers by class (2xx, 4xx, 5xx, timeouts, summed over the repeats), the server's CPU per tap
(ms; from /proc, summing every process of the server, which ``kiroku serve`` may start several
of; steadier than latencies on a shared machine, whose load average is printed) and in all (%
of a core), the client's CPU and lag; then issue 43's targets, each with PASS or FAIL:

- 500 tables at 1 action a second: p99 at most 100 ms, and nothing refused (every answer 2xx);
- 1,000 tables at 0.2 a second: p99 at most 50 ms;
- no cliff: server CPU per action with 1,000 live tables at most x1.2 of that with 10 at the
  same total rate (1000x0.2 against 10x20: 200 actions a second each), flagged "not a clean
  figure" when either phase fell behind the taps offered.

With ``--baseline``, this tree's p99 and CPU per tap over the baseline's follow, per scenario.
Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import bisect
import heapq
import math
import os
import random
import resource
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from http_load import (  # noqa: E402
    Connection,
    Script,
    answer_closes,
    call,
    cpu_by_process,
    cpu_seconds,
    request,
    whole_answer,
)
from processes import started, stop_on_sigterm  # noqa: E402
from scale import percentile  # noqa: E402

from bench import DECKS, free_port, playout_script  # noqa: E402

TARGET_500_P99_MS = 100.0  # issue 43: 500 tables at 1/s, p99 at most 100 ms, nothing refused
TARGET_1000_P99_MS = 50.0  # issue 43: 1,000 tables at 0.2/s, p99 at most 50 ms
TARGET_CLIFF = 1.2  # issue 43: CPU per action at 1,000 live tables at most x1.2 of that at 10
DEFAULT_SCENARIOS = ("500x1", "1000x0.2", "10x20", "256x0.2:app")
QUICK_SCENARIOS = ("20x1", "2x10", "8x1:app")
MIXES = ("post", "app", "page")
KEPT_UP = 0.9  # a server answering fewer of the taps offered a second fell behind
PLAYOUTS = 8  # distinct playouts the tables record, in turn
CREATORS = 4  # connections creating matches at once between phases
AT_REST = 0.03  # a server using less than this CPU second in half a second is at rest


# ----- scenarios ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scenario:
    """``tables`` tables each tapping ``rate`` times a second, each tap the requests of ``mix``."""

    tables: int
    rate: float
    mix: str = "post"

    @classmethod
    def parse(cls, text: str) -> Scenario:
        """``TABLESxRATE[:MIX]``, such as ``500x1`` or ``256x0.2:app``."""
        shape, _, mix = text.partition(":")
        tables, _, rate = shape.partition("x")
        try:
            scenario = cls(int(tables), float(rate), mix or "post")
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: expected TABLESxRATE[:MIX]") from None
        if scenario.tables < 1 or not scenario.rate > 0 or scenario.mix not in MIXES:
            raise argparse.ArgumentTypeError(
                f"{text!r}: tables at least 1, a rate above 0, a mix of {', '.join(MIXES)}")
        return scenario

    @property
    def name(self) -> str:
        """As the table prints it."""
        mix = "" if self.mix == "post" else f" ({self.mix})"
        return f"{self.tables} x {self.rate:g}/s{mix}"

    @property
    def offered(self) -> float:
        """Taps a second offered."""
        return self.tables * self.rate


# ----- the work: each table's matches ---------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One action of a prepared match: the seat whose phone taps it, and its POST."""

    match_id: str
    seat_token: str
    post: bytes


@dataclass
class Slot:
    """One table's prepared actions on one server, match after match, and how far it got."""

    steps: list[Step] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # the index of each match's first step
    done: int = 0

    def left(self) -> int:
        """Steps not taken yet."""
        return len(self.steps) - self.done

    def skip_match(self, failed: int) -> None:
        """Go on with the match after the one whose step ``failed`` went wrong."""
        after = bisect.bisect_right(self.starts, failed)
        self.done = self.starts[after] if after < len(self.starts) else len(self.steps)


def create_match(conn: Connection, organiser: str, script: Script) -> list[Step]:
    """One match of ``script`` created over HTTP; its steps, each POST with the version it is
    made on."""
    setup, actions = script
    created = call(conn, request("POST", "/matches", organiser, {
        "players": ["A", "B"], "decks": DECKS, "setup_outcomes": setup}), 201)
    match_id = str(created["match_id"])
    seats = {s["seat"]: str(s["token"]) for s in created["seats"]}
    path = f"/matches/{match_id}/actions"
    return [Step(match_id, seats[action["seat"]], request(
        "POST", path, organiser if judged else seats[action["seat"]],
        {"action": action, "outcomes": outcomes, "expected_version": n + 1}))
        for n, (action, outcomes, judged) in enumerate(actions)]


def top_up(port: int, organiser: str, slots: list[Slot], scripts: list[Script],
           need: int) -> int:
    """Create matches until each slot has ``need`` steps left, on ``CREATORS`` connections at
    once; how many matches were made."""
    short = [(i, slot) for i, slot in enumerate(slots) if slot.left() < need]
    made = [0] * CREATORS
    errors: list[BaseException] = []

    def creator(k: int) -> None:
        conn = Connection(port)
        try:
            for i, slot in short[k::CREATORS]:
                while slot.left() < need:
                    slot.starts.append(len(slot.steps))
                    slot.steps += create_match(
                        conn, organiser, scripts[(i + len(slot.starts)) % len(scripts)])
                    made[k] += 1
        except BaseException as exc:  # handed to the caller's thread
            errors.append(exc)
        finally:
            conn.close()

    threads = [threading.Thread(target=creator, args=(k,)) for k in range(CREATORS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise RuntimeError(f"creating matches failed: {errors[0]}")
    return sum(made)


def tap_requests(step: Step, mix: str) -> tuple[bytes, ...]:
    """The requests of one tap, in the order they are sent."""
    if mix == "post":
        return (step.post,)
    here = f"/matches/{step.match_id}"
    if mix == "app":
        return (request("GET", here, step.seat_token),
                request("GET", f"{here}/legal", step.seat_token), step.post)
    return (step.post, request("GET", f"{here}/turn", step.seat_token),
            request("GET", f"{here}/state", step.seat_token))


# ----- the servers ----------------------------------------------------------------------------
@dataclass
class Server:
    """A running ``kiroku serve``: its name, tree, port, process, organiser and tables' work."""

    name: str
    tree: Path
    port: int
    process: subprocess.Popen[bytes]
    organiser: str
    slots: list[Slot] = field(default_factory=list)

    @property
    def pid(self) -> int:
        """The process the console script runs in (its workers are its children)."""
        return self.process.pid

    def processes(self) -> int:
        """How many processes the server runs in."""
        return len(cpu_by_process(self.pid) or {self.pid: 0.0})


def console_script() -> Path:
    """The ``kiroku`` console script of this environment."""
    beside = Path(sys.executable).parent / "kiroku"
    found = beside if beside.exists() else shutil.which("kiroku")
    if found is None:
        raise RuntimeError("no kiroku console script: pip install -e . first")
    return Path(found)


def first_start_token(log: Path) -> str:
    """The organiser's credential ``kiroku serve`` prints on its first start."""
    lines = log.read_text(errors="replace").splitlines()
    for n, line in enumerate(lines[:-1]):
        if line.startswith("First start"):
            return lines[n + 1].strip()
    raise RuntimeError(f"no organiser's credential in {log}: {lines[:5]}")


@contextmanager
def kiroku_serve(name: str, tree: Path, folder: Path) -> Iterator[Server]:
    """``kiroku --db sqlite:///FOLDER/kiroku.db serve --port PORT`` on ``tree``'s code, with no
    ``KIROKU_*`` variable set; stopped on exit."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIROKU_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tree), env.get("PYTHONPATH")) if p)
    log = folder / "serve.log"
    command = [str(console_script()), "--db", f"sqlite:///{folder / 'kiroku.db'}", "serve",
               "--port", str(port)]
    with started(command, tree, env, log) as process:
        wait_serving(port, process, log)
        yield Server(name, tree, port, process, first_start_token(log))


def wait_serving(port: int, process: subprocess.Popen[bytes], log: Path,
                 longest: float = 120.0) -> None:
    """Wait until the server answers ``GET /games`` with 200 (worker processes importing
    everything on a busy machine may take a while)."""
    until = time.monotonic() + longest
    while time.monotonic() < until:
        if process.poll() is not None:
            raise RuntimeError(f"kiroku serve exited ({process.returncode}): "
                               f"{log.read_text(errors='replace')[-2000:]}")
        try:
            conn = Connection(port)
        except OSError:
            time.sleep(0.1)
            continue
        try:
            status, _ = conn.roundtrip(request("GET", "/games"))
        except OSError:
            status = 0
        finally:
            conn.close()
        if status == 200:
            return
        time.sleep(0.1)
    raise RuntimeError(f"kiroku serve did not answer within {longest:g} s: "
                       f"{log.read_text(errors='replace')[-2000:]}")


def wait_at_rest(pid: int, longest: float = 30.0) -> None:
    """Wait until the server has finished what it was asked (its CPU at rest)."""
    until = time.monotonic() + longest
    before = cpu_seconds(pid)
    while before is not None and time.monotonic() < until:
        time.sleep(0.5)
        after = cpu_seconds(pid)
        if after is None or after - before < AT_REST:
            return
        before = after


# ----- one phase: the open-loop driver --------------------------------------------------------
class Table:
    """One table in a phase: its keep-alive connection, its taps due and not yet started, and
    the tap in flight (its requests, the one awaiting its answer, when it was due)."""

    def __init__(self, slot: Slot, mix: str) -> None:
        self.slot, self.mix = slot, mix
        self.sock: socket.socket | None = None
        self.queue: deque[float] = deque()
        self.tap: tuple[bytes, ...] = ()
        self.part = 0
        self.step = -1
        self.due = self.sent_at = 0.0
        self.busy = self.resent = False
        self.data = b""


@dataclass
class Phase:
    """One phase's figures: each counted tap's latency (ms; inf: a timeout), the answers by
    class, the client's lag (ms), taps done, seconds, CPU seconds."""

    latencies: list[float]
    answers: Counter[str]
    lags: list[float]
    done_in_window: int  # taps answered whole (2xx) while due taps were counted
    done_measured: int  # taps answered whole (2xx) while the CPU was measured
    seconds: float  # the counted window
    measured: float  # the CPU's window: the counted one and the wait for its answers
    server_cpu: float | None
    client_cpu: float
    reconnects: int

    @property
    def rate(self) -> float:
        """Taps answered a second in the counted window."""
        return self.done_in_window / self.seconds

    @property
    def server_ms(self) -> float | None:
        """Server CPU ms per tap answered."""
        if self.server_cpu is None or not self.done_measured:
            return None
        return self.server_cpu / self.done_measured * 1000

    @property
    def server_share(self) -> float | None:
        """Server CPU, % of a core."""
        return None if self.server_cpu is None else self.server_cpu / self.measured * 100


class Driver:
    """Every table of a phase on its own connection, driven by this one thread. A table
    waits for each answer however long it takes, as a phone does (a client that gave up and
    asked again would send a slow server more work); an answer later than ``timeout`` after
    its request counts as a timeout instead of its status class."""

    def __init__(self, port: int, tables: list[Table], counted_from: float, timeout: float
                 ) -> None:
        self.port, self.tables, self.counted_from, self.timeout = (
            port, tables, counted_from, timeout)
        self.chooser = selectors.DefaultSelector()
        self.latencies: list[float] = []
        self.answers: Counter[str] = Counter()
        self.lags: list[float] = []
        self.finished: list[float] = []  # when each tap was answered whole (2xx)
        self.reconnects = 0
        for table in tables:
            self.connect(table)

    def connect(self, table: Table) -> None:
        """Open the table's connection (again)."""
        sock = socket.create_connection(("127.0.0.1", self.port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        table.sock, table.data = sock, b""
        self.chooser.register(sock, selectors.EVENT_READ, table)

    def drop(self, table: Table) -> None:
        """Close the table's connection."""
        if table.sock is not None:
            self.chooser.unregister(table.sock)
            table.sock.close()
            table.sock = None

    def close(self) -> None:
        """Close every connection."""
        for table in self.tables:
            self.drop(table)
        self.chooser.close()

    def fire(self, table: Table, due: float, now: float) -> None:
        """A tap of ``table`` is due: start it, or queue it behind the one in flight."""
        table.queue.append(due)
        if not table.busy:
            if due >= self.counted_from:
                self.lags.append((now - due) * 1000)
            self.start_next(table, now)

    def start_next(self, table: Table, now: float) -> None:
        """Start the table's next queued tap, if any."""
        if not table.queue:
            return
        if table.slot.left() == 0:  # (more failed than the preparation allowed for)
            unsent = sum(1 for due in table.queue if due >= self.counted_from)
            self.answers["unsent"] += unsent
            self.latencies += [math.inf] * unsent
            table.queue.clear()
            return
        table.due = table.queue.popleft()
        table.step = table.slot.done
        table.slot.done += 1
        table.tap = tap_requests(table.slot.steps[table.step], table.mix)
        table.part, table.busy = 0, True
        self.send(table, now)

    def send(self, table: Table, now: float) -> None:
        """Send the request of the tap in flight that is next."""
        if table.sock is None:
            self.connect(table)
        assert table.sock is not None
        table.sent_at, table.resent = now, False
        try:
            table.sock.sendall(table.tap[table.part])
        except OSError:  # the server closed it while idle: as the page does, on a new one
            self.reconnects += 1
            self.drop(table)
            self.connect(table)
            assert table.sock is not None
            table.sock.sendall(table.tap[table.part])

    def readable(self, table: Table) -> None:
        """Take what arrived on the table's connection."""
        assert table.sock is not None
        try:
            chunk = table.sock.recv(65536)
        except ConnectionError:
            chunk = b""
        if not chunk:
            self.closed(table)
            return
        table.data += chunk
        answer = whole_answer(table.data)
        if answer is None:
            return
        if answer_closes(table.data):  # a worker over its share: the next on a new one
            self.reconnects += 1
            self.drop(table)
        status, _, table.data = answer
        now = time.perf_counter()
        if table.due >= self.counted_from:
            late = now - table.sent_at > self.timeout
            self.answers["timeout" if late else f"{status // 100}xx"] += 1
        if not 200 <= status < 300:
            self.fail(table, (now - table.due) * 1000, again=status >= 500)
            return
        table.part += 1
        if table.part < len(table.tap):
            self.send(table, now)
            return
        if table.due >= self.counted_from:
            self.latencies.append((now - table.due) * 1000)
        self.finished.append(now)
        table.busy = False
        self.start_next(table, now)

    def closed(self, table: Table) -> None:
        """The server closed the table's connection: idle (its keep-alive timeout), open it
        again at the next tap; before a request's answer began, send that request once more
        on a new one (the same ``expected_version``: it records once); else a lost tap."""
        self.drop(table)
        if not table.busy:
            self.reconnects += 1
        elif not table.data and not table.resent:
            self.reconnects += 1
            self.send(table, time.perf_counter())
            table.resent = True
        else:
            self.timed_out(table)

    def timed_out(self, table: Table) -> None:
        """The tap in flight is lost (its answer cut off, or never came): a timeout."""
        self.drop(table)
        if table.due >= self.counted_from:
            self.answers["timeout"] += 1
        self.fail(table, math.inf, again=True)

    def fail(self, table: Table, latency: float, *, again: bool = False) -> None:
        """The tap in flight went wrong: counted; the table's next tap sends its action
        ``again`` (a lost answer or a server's error: the same ``expected_version`` records it
        once), else (a refusal) goes on with its next match, whose version it knows."""
        if table.due >= self.counted_from:
            self.latencies.append(latency)
        if again:
            table.slot.done = table.step
        else:
            table.slot.skip_match(table.step)
        table.busy = False
        self.start_next(table, time.perf_counter())

    def give_up(self) -> None:
        """Every tap still in flight or queued at the end is a timeout."""
        for table in self.tables:
            counted = sum(1 for due in table.queue if due >= self.counted_from)
            self.answers["timeout"] += counted
            self.latencies += [math.inf] * counted
            table.queue.clear()
            if table.busy:
                self.timed_out(table)

    def idle(self) -> bool:
        """No tap in flight or queued."""
        return not any(table.busy or table.queue for table in self.tables)


def run_phase(server: Server, scenario: Scenario, warm_up: float, seconds: float,
              timeout: float, rng: random.Random) -> Phase:
    """One phase of ``scenario`` on ``server``: the warm-up (``warm_up`` s, at least one tap
    of every table), the counted window, and the wait for its answers (at most ``timeout``);
    its figures."""
    warm_up = max(warm_up, 1 / scenario.rate)
    tables = [Table(slot, scenario.mix) for slot in server.slots[:scenario.tables]]
    interval = 1 / scenario.rate
    driver = Driver(server.port, tables, math.inf, timeout)  # every connection opened first
    begin = time.perf_counter() + 0.1
    driver.counted_from = counted_from = begin + warm_up
    stop = counted_from + seconds
    schedule = [(begin + rng.uniform(0, interval), n) for n in range(len(tables))]
    heapq.heapify(schedule)
    snapshot: tuple[dict[int, float] | None, float] | None = None
    measured_from = begin
    try:
        while True:
            now = time.perf_counter()
            if snapshot is None and now >= counted_from:
                snapshot, measured_from = (cpu_by_process(server.pid), time.process_time()), now
            while schedule[0][0] <= now and schedule[0][0] < stop:
                due, n = heapq.heappop(schedule)
                heapq.heappush(schedule, (due + interval, n))
                driver.fire(tables[n], due, now)
            if schedule[0][0] >= stop and snapshot is not None and driver.idle():
                break
            if now > stop + timeout:
                driver.give_up()
                break
            wake = min(schedule[0][0] if schedule[0][0] < stop else stop + timeout,
                       counted_from if snapshot is None else stop + timeout)
            for key, _ in driver.chooser.select(max(0.0, wake - time.perf_counter())):
                if key.fileobj is key.data.sock:  # (not a connection dropped meanwhile)
                    driver.readable(key.data)
        ended = time.perf_counter()
        assert snapshot is not None
        client_cpu, after = time.process_time() - snapshot[1], cpu_by_process(server.pid)
    finally:
        driver.close()
    before = snapshot[0]
    server_cpu = (None if before is None or after is None
                  else sum(after.values()) - sum(before.values()))
    return Phase(driver.latencies, driver.answers, driver.lags,
                 sum(1 for t in driver.finished if counted_from <= t < stop),
                 sum(1 for t in driver.finished if t >= measured_from), seconds,
                 ended - measured_from, server_cpu, client_cpu / (ended - measured_from),
                 driver.reconnects)


# ----- the report -----------------------------------------------------------------------------
def median(values: list[float | None]) -> float | None:
    """The median of the known values, None if none is known."""
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def fmt(value: float | None, spec: str = ".1f") -> str:
    """A figure, or n/a."""
    return "n/a" if value is None else format(value, spec)


def p99(phase: Phase) -> float:
    """The phase's p99 tap latency (ms; inf when more than 1% had no answer at all)."""
    return percentile(phase.latencies, 99) if phase.latencies else math.nan


HEADER = (f"{'scenario':<22} {'server':<12} {'offer/s':>7} {'taps/s':>7} {'p50 ms':>7} "
          f"{'p99 ms':>8} {'worst':>8} {'2xx':>6} {'4xx':>4} {'5xx':>4} {'t/o':>4} {'uns':>4} "
          f"{'srv ms':>7} {'srv %':>5} {'cli %':>5} {'lag99':>6}  runs p99")


def row(scenario: Scenario, name: str, runs: list[Phase]) -> str:
    """One line of the table: medians over the runs, answers summed."""
    answers: Counter[str] = Counter()
    for run in runs:
        answers.update(run.answers)
    p50 = median([percentile(r.latencies, 50) if r.latencies else None for r in runs])
    worst = median([max(r.latencies) if r.latencies else None for r in runs])
    lag = median([percentile(r.lags, 99) if r.lags else None for r in runs])
    return (f"{scenario.name:<22} {name:<12} {scenario.offered:7.1f} "
            f"{fmt(median([r.rate for r in runs])):>7} {fmt(p50):>7} "
            f"{fmt(median([p99(r) for r in runs])):>8} {fmt(worst, '.0f'):>8} "
            f"{answers['2xx']:6d} {answers['4xx']:4d} {answers['5xx']:4d} "
            f"{answers['timeout']:4d} {answers['unsent']:4d} "
            f"{fmt(median([r.server_ms for r in runs]), '.2f'):>7} "
            f"{fmt(median([r.server_share for r in runs]), '.0f'):>5} "
            f"{fmt(median([r.client_cpu * 100 for r in runs]), '.0f'):>5} {fmt(lag):>6}  "
            + ", ".join(fmt(p99(r)) for r in runs))


def verdict(ok: bool) -> str:
    """PASS or FAIL."""
    return "PASS" if ok else "FAIL"


def targets(results: dict[Scenario, dict[str, list[Phase]]], names: list[str]) -> list[str]:
    """Issue 43's targets, each server's measured figure beside each with PASS or FAIL."""
    lines = []
    checks = ((Scenario(500, 1.0), TARGET_500_P99_MS, True),
              (Scenario(1000, 0.2), TARGET_1000_P99_MS, False))
    for scenario, bound, whole in checks:
        if scenario not in results:
            lines.append(f"target: {scenario.name}: not run (--scenario {scenario.tables}x"
                         f"{scenario.rate:g})")
            continue
        for name in names:
            runs = results[scenario][name]
            figure = median([p99(r) for r in runs])
            lines.append(f"target: {scenario.name}, p99 <= {bound:.0f} ms: {name}: "
                         f"{fmt(figure)} ms {verdict(figure is not None and figure <= bound)}")
            if whole:
                kinds = ("4xx", "5xx", "timeout", "unsent")
                bad = sum(r.answers[k] for r in runs for k in kinds)
                lines.append(f"target: {scenario.name}, nothing refused: {name}: "
                             + ", ".join(f"{sum(r.answers[k] for r in runs)} {k}"
                                         for k in kinds) + f" {verdict(bad == 0)}")
    lines += cliff(results, names)
    return lines


def behind(scenario: Scenario, phase: Phase) -> bool:
    """Whether the server fell behind the taps offered in ``phase``."""
    lost = any(phase.answers[k] for k in ("4xx", "5xx", "timeout", "unsent"))
    return lost or phase.rate < KEPT_UP * scenario.offered


def cliff(results: dict[Scenario, dict[str, list[Phase]]], names: list[str]) -> list[str]:
    """The no-cliff target: CPU per action, most tables against fewest at the same total rate
    (1000x0.2 against 10x20 in a full run; the same check, scaled down, in a quick one)."""
    posts = [s for s in results if s.mix == "post"]
    pairs = [(few, many) for few in posts for many in posts
             if few.tables < many.tables and math.isclose(few.offered, many.offered)]
    if not pairs:
        return ["target: no cliff: not run (--scenario 10x20 --scenario 1000x0.2)"]
    few, many = max(pairs, key=lambda pair: pair[1].tables / pair[0].tables)
    lines = []
    for name in names:
        ratios = [m.server_ms / f.server_ms for f, m in zip(results[few][name],
                                                             results[many][name])
                  if m.server_ms is not None and f.server_ms]
        figure = median(list(ratios))
        fell_behind = any(behind(s, r) for s in (few, many) for r in results[s][name])
        lines.append(f"target: no cliff, server CPU per action at {many.tables} live tables "
                     f"<= x{TARGET_CLIFF} of {few.tables} ({few.offered:g} actions/s each): "
                     f"{name}: x{fmt(figure, '.2f')} "
                     f"{verdict(figure is not None and figure <= TARGET_CLIFF)} (runs "
                     + ", ".join(f"x{r:.2f}" for r in ratios) + ")"
                     + ("; not a clean figure: the server fell behind (answered under "
                        f"{KEPT_UP:.0%} of the taps offered, or late, refused or lost), so the "
                        "phases did not run at the rate asked" if fell_behind else ""))
    return lines


def report(results: dict[Scenario, dict[str, list[Phase]]], names: list[str]) -> None:
    """The table, the notes, the targets and the before/after ratios."""
    print(HEADER)
    for scenario, by_server in results.items():
        for name in names:
            print(row(scenario, name, by_server[name]))
    print("(offer/s: taps due a second; taps/s: answered whole a second; latency from when "
          "each tap was due; 2xx, 4xx, 5xx: answers (requests) by class; t/o: timeouts; "
          "uns: taps not sent, their table's prepared actions used up by refusals; srv ms: "
          "the server's CPU per tap, all its processes; srv %, cli %: the server's and this "
          "client's CPU, % of a core; lag99: the client's own p99 lateness sending an idle "
          "table's tap, ms)")
    extra = [f"{scenario.name} {name}: {sum(r.reconnects for r in runs)} connections opened "
             "again (the server closed them)"
             for scenario, by_server in results.items() for name, runs in by_server.items()
             if any(r.reconnects for r in runs)]
    for line in extra + targets(results, names):
        print(line)
    if len(names) == 2:
        for scenario, by_server in results.items():
            now, then = (by_server[n] for n in names)
            ratio_p99 = [p99(a) / p99(b) for a, b in zip(now, then)
                         if math.isfinite(p99(a)) and math.isfinite(p99(b)) and p99(b) > 0]
            ratio_cpu = [a.server_ms / b.server_ms for a, b in zip(now, then)
                         if a.server_ms is not None and b.server_ms]
            print(f"{names[0]} / {names[1]}, {scenario.name}: p99 "
                  f"x{fmt(median(list(ratio_p99)), '.2f')}, server CPU per tap "
                  f"x{fmt(median(list(ratio_cpu)), '.2f')}")


# ----- main -----------------------------------------------------------------------------------
def measure(servers: list[Server], scenarios: list[Scenario], repeats: int, warm_up: float,
            seconds: float, timeout: float) -> dict[Scenario, dict[str, list[Phase]]]:
    """Each scenario on each server in turn (the order flipping every repeat), matches made
    before each phase, the server at rest before it."""
    scripts = [playout_script(seed) for seed in range(PLAYOUTS)]
    results: dict[Scenario, dict[str, list[Phase]]] = {
        s: {server.name: [] for server in servers} for s in scenarios}
    rng = random.Random(43)
    for repeat in range(repeats):
        for scenario in scenarios:
            turn = servers if repeat % 2 == 0 else servers[::-1]
            for server in turn:
                server.slots += [Slot() for _ in range(scenario.tables - len(server.slots))]
                need = math.ceil(scenario.rate * (warm_up + seconds) * 1.2) + 2
                made = top_up(server.port, server.organiser, server.slots[:scenario.tables],
                              scripts, need)
                wait_at_rest(server.pid)
                phase = run_phase(server, scenario, warm_up, seconds, timeout, rng)
                results[scenario][server.name].append(phase)
                print(f"  {scenario.name} on {server.name} ({made} matches made first): "
                      f"{phase.rate:.1f} taps/s, p99 {p99(phase):.1f} ms, "
                      f"{dict(phase.answers)}, server {fmt(phase.server_share, '.0f')}% of a "
                      f"core; load average {os.getloadavg()[0]:.1f}", flush=True)
    return results


def enough_files(tables: int) -> None:
    """Raise the open-files limit for one socket a table, if it is too low and can be."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = tables + 256
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            raise SystemExit(f"{tables} tables need {wanted} open files; ulimit -n allows "
                             f"{hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def main() -> None:
    """Parse the arguments, start the servers, measure, print."""
    stop_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--scenario", type=Scenario.parse, action="append",
                        help="TABLESxRATE[:post|app|page], again for more "
                             f"(default {' '.join(DEFAULT_SCENARIOS)})")
    parser.add_argument("--seconds", type=float, default=None,
                        help="counted seconds a phase (default 30, --quick 1.5)")
    parser.add_argument("--warm-up", type=float, default=None,
                        help="seconds of each phase not counted (default 5, --quick 0.5)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds a request may wait for its answer")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another tree's Kiroku (such as /tmp/before), run side by side")
    args = parser.parse_args()
    scenarios = args.scenario or [Scenario.parse(s) for s in
                                  (QUICK_SCENARIOS if args.quick else DEFAULT_SCENARIOS)]
    seconds = args.seconds or (1.5 if args.quick else 30.0)
    warm_up = args.warm_up if args.warm_up is not None else (0.5 if args.quick else 5.0)
    repeats = 1 if args.quick else args.repeats
    if seconds <= 0 or warm_up < 0 or repeats < 1 or args.timeout <= 0:
        parser.error("--seconds and --timeout above 0, --warm-up at least 0, --repeats at "
                     "least 1")
    if args.baseline is not None and not (args.baseline / "cli" / "main.py").exists():
        parser.error(f"--baseline {args.baseline}: not a Kiroku tree")
    enough_files(max(s.tables for s in scenarios))
    started = time.perf_counter()
    print(f"Tables at once (python {sys.version.split()[0]}, {os.cpu_count()} cores): "
          f"kiroku serve as the README starts it; {seconds:g} s counted after {warm_up:g} s "
          f"of warm-up a phase, medians of {repeats} repeat(s), timeout {args.timeout:g} s; "
          f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    trees = [("this tree", BENCH.parent)]
    if args.baseline is not None:
        trees.append(("baseline", args.baseline.resolve()))
    with tempfile.TemporaryDirectory() as tmp, \
            kiroku_serve(*trees[0], Path(tmp) / "this") as this:
        servers = [this]
        with (kiroku_serve(*trees[1], Path(tmp) / "baseline") if len(trees) > 1
              else _nothing()) as other:
            if other is not None:
                servers.append(other)
            for server in servers:
                print(f"{server.name}: {server.tree}, kiroku --db sqlite:///... serve --port "
                      f"{server.port}: {server.processes()} process(es)", flush=True)
            results = measure(servers, scenarios, repeats, warm_up, seconds, args.timeout)
    report(results, [s.name for s in servers])
    print(f"(load average {os.getloadavg()[0]:.1f} at the end; "
          f"{time.perf_counter() - started:.0f} s in all)")


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


if __name__ == "__main__":
    main()
