"""Issue 43's watcher figure: live watchers pushed while tables record, side by side in one run.

    python bench/live_watchers.py [--quick] [--watchers 2000] [--tables 200] [--rate 1]
                                  [--seconds 20] [--repeats 2] [--workers N]
                                  [--postgres URL | --apart] [--nice N] [--baseline TREE]

A server as ``kiroku serve`` starts it (the command line's own ``main``, its default worker
processes unless ``--workers``) on a fresh SQLite file. ``--tables`` tables each record a
known playout of World Gainer (``bench.playout_script``) over HTTP, one action every
``1/--rate`` seconds (the tables staggered evenly over that interval), each on a keep-alive
connection of its own, with its seat's credential; each phase, every table records a match
created for it. Two phases, ``--seconds`` long, alternate (the order flips every repeat):

- ``alone``: the tables only;
- ``watched``: the same, with ``--watchers`` anonymous spectators following the tables'
  matches live (``GET /matches/{id}/live``, Server-Sent Events), spread evenly over them.
  Every stream has its first event before the tables start.

The tables are driven by a process of their own, the watchers by this one, each by a single
thread through the operating system's readiness events (as bench/http_load.py drives its
clients), so that 2,000 streams cost the client little. Times on both sides are
``time.monotonic()`` (one clock for every process of the machine). An action's delivery
to a watcher is the time from its answer arriving at its table (acknowledged) to the first
event of that watcher's stream at that version or later (the stream says where the match
stands; 0 where the push beat the answer); an action no watcher of its match heard of before
the phase ended counts as missed, once per watcher.

With ``--postgres URL`` (a database the bench may create schemas in) the store is a fresh
schema there, served by two servers: the tables record through server B, the watchers
follow on server A: several servers, one service. With ``--apart``, the same two servers on
the one SQLite file: the tables' server then streams to nobody, so what its tables lose to
the watchers is what the machine's shared cores cost them (the other server's streams, the
watchers' client), not its own streams' work; ``--nice N`` runs the watchers' server of the
two at that niceness, below the tables' (``nice -n N``). With ``--baseline TREE`` (another checkout
of Kiroku, such as /tmp/before) a second server (or pair) runs that tree's code on a store
of its own, its phases interleaved with this tree's.

Printed, for each tree and phase: medians over ``--repeats`` of the tables' p50 and p99 (ms),
the delivery p50, p99 and worst (ms, over every watcher and action of the phase) and the
misses, each server's CPU and the clients' (the tables' driver and the watchers' reader,
each a process of this bench on the same cores; % of a core); then the ratio of the watched
tables' p99 to the alone one (per repeat, its median), next to issue 43's targets: delivery
p99 at most 200 ms, tables' p99 at most x1.2; and the tables' p99 of every repeat's answers
pooled, alone and watched (a repeat's p99 is its few dozen slowest answers, and moves by half
between repeats; the pooled one is steadier). Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from http_load import (  # noqa: E402
    Connection,
    answer_closes,
    call,
    cpu_by_process,
    cpu_seconds,
    request,
    wait_ready,
    whole_answer,
)
from processes import started, stop_on_sigterm  # noqa: E402
from scale import percentile  # noqa: E402
from trees import tree_name  # noqa: E402

from bench import DECKS, free_port, playout_script  # noqa: E402

TARGET_DELIVERY_MS = 200.0  # issue 43: every watcher sees each action within 200 ms at p99
TARGET_RATIO = 1.2  # issue 43: the tables' p99 with watchers at most x1.2 of without
LEAD = 1.0  # seconds between the last stream opened and the tables' start
GRACE = 1.0  # seconds the watchers keep listening after the tables' last action
OPEN_AT_ONCE = 100  # streams being opened at once
PHASES = ("alone", "watched")
Script = tuple[list[Any], list[tuple[dict[str, Any], list[Any], bool]]]


# ----- servers --------------------------------------------------------------------------------
@dataclass
class Served:
    """A tree's servers on one store: where the watchers go (A) and where the tables record
    (B, the same server on SQLite), their processes, and the organiser's token."""

    name: str
    watch_port: int
    table_port: int
    pids: list[int]
    organiser: str
    scripts: list[Script]
    used: int = 0  # matches created so far


def kiroku(tree: Path, url: str, keys: Path, *args: str) -> list[str]:
    """The command line of ``tree``'s ``kiroku`` on ``url`` with the key file ``keys``."""
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); from cli.main import main; main()"
    return [sys.executable, "-c", code, "--db", url, "--keys", str(keys), *args]


def tree_env(tree: Path) -> dict[str, str]:
    """The environment of a process on ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("KIROKU_DATABASE_URL", None)
    return env


def organiser(tree: Path, url: str, keys: Path) -> str:
    """An organiser's token, issued into the store at ``url`` by ``tree``'s own code."""
    out = subprocess.run(kiroku(tree, url, keys, "credentials", "issue", "--role",
                                "organiser", "--name", "bench"),
                         cwd=tree, env=tree_env(tree), check=True, capture_output=True,
                         text=True)
    return out.stdout.strip().split()[-1]


@contextmanager
def tree_servers(name: str, tree: Path, folder: Path, postgres: str | None,
                 workers: int | None, scripts: list[Script], apart: bool = False,
                 nice: int = 0) -> Iterator[Served]:
    """``tree``'s Kiroku as ``kiroku serve`` starts it, on a store of its own: one server on
    an SQLite file in ``folder`` (two with ``apart``), or two on a fresh schema of
    ``postgres``; of two, the watchers' at the niceness ``nice``."""
    folder.mkdir(parents=True, exist_ok=True)
    keys = folder / "kiroku.keys"
    if postgres is None:
        url, schema = f"sqlite:///{folder / 'kiroku.db'}", None
    else:
        schema = f"bench_live_{uuid.uuid4().hex[:10]}"
        _sql(postgres, f"CREATE SCHEMA {schema}")
        url = f"{postgres}{'&' if '?' in postgres else '?'}schema={schema}"
    try:
        token = organiser(tree, url, keys)
        with ExitStack() as stack:
            ports = [free_port() for _ in range(1 if postgres is None and not apart else 2)]
            processes = []
            for port in ports:
                command = kiroku(tree, url, keys, "serve", "--no-demo", "--port", str(port),
                                 *(["--workers", str(workers)] if workers else []))
                if nice and port != ports[-1]:  # the watchers' server of two
                    command = ["nice", "-n", str(nice), *command]
                processes.append(stack.enter_context(started(
                    command, tree, tree_env(tree), folder / f"server-{port}.log")))
            for port, process in zip(ports, processes, strict=True):
                wait_ready(port, "/games", process)
            yield Served(name, ports[0], ports[-1], [p.pid for p in processes], token,
                         scripts)
    finally:
        if schema is not None:
            _sql(postgres or "", f"DROP SCHEMA {schema} CASCADE")


def _sql(url: str, statement: str) -> None:
    import psycopg  # only with --postgres: the bench runs without the driver otherwise

    with psycopg.connect(url.split("?")[0], autocommit=True) as connection:
        connection.execute(statement)


# ----- the tables -----------------------------------------------------------------------------
@dataclass
class Table:
    """One table's match for a phase: its id and its actions' requests, in order."""

    match_id: str
    steps: list[bytes]


def new_tables(served: Served, count: int, actions: int) -> list[Table]:
    """``count`` matches created on the tables' server, each with at least ``actions``
    actions of a known playout to record."""
    conn = Connection(served.table_port)
    tables: list[Table] = []
    try:
        while len(tables) < count:
            setup, steps = served.scripts[served.used % len(served.scripts)]
            served.used += 1
            created = call(conn, request("POST", "/matches", served.organiser, {
                "players": ["A", "B"], "decks": DECKS, "setup_outcomes": setup}), 201)
            match_id = created["match_id"]
            seats = {s["seat"]: s["token"] for s in created["seats"]}
            path = f"/matches/{match_id}/actions"
            tables.append(Table(match_id, [
                request("POST", path, served.organiser if judged else seats[action["seat"]],
                        {"action": action, "outcomes": outcomes})
                for action, outcomes, judged in steps[:actions]]))
    finally:
        conn.close()
    return tables


def drive_tables(port: int, tables: list[Table], rate: float, start: float,
                 out: Pipe) -> None:
    """Every table's actions, one every ``1/rate`` seconds from ``start`` (monotonic), each
    table on its keep-alive connection, all driven by this process's one thread; sends back
    each answer as (match, version, acknowledged at, latency ms) and the CPU seconds this
    process took, and how many connections it opened again after an answer said
    ``Connection: close``; or an error's text."""
    try:
        cpu = time.process_time()
        answers, reopened = _drive(port, tables, rate, start)
        out.send((answers, time.process_time() - cpu, reopened))
    except Exception as exc:  # noqa: BLE001 - the parent reports it
        out.send(f"the tables failed: {exc!r}")


def _drive(port: int, tables: list[Table], rate: float,
           start: float) -> tuple[list[tuple[str, int, float, float]], int]:
    chooser = selectors.DefaultSelector()
    reopened = 0
    conns = [Connection(port) for _ in tables]
    due = [start + i / len(tables) / rate for i in range(len(tables))]
    nxt, sent_at, data = [0] * len(tables), [0.0] * len(tables), [b""] * len(tables)
    waiting: set[int] = set()
    answers: list[tuple[str, int, float, float]] = []
    for i, conn in enumerate(conns):
        conn.sock.setblocking(False)
        chooser.register(conn.sock, selectors.EVENT_READ, i)
    try:
        while any(nxt[i] < len(t.steps) for i, t in enumerate(tables)) or waiting:
            now = time.monotonic()
            for i, table in enumerate(tables):
                if i not in waiting and nxt[i] < len(table.steps) and due[i] <= now:
                    sent_at[i] = time.monotonic()
                    conns[i].sock.setblocking(True)
                    conns[i].sock.sendall(table.steps[nxt[i]])
                    conns[i].sock.setblocking(False)
                    nxt[i] += 1
                    due[i] += 1 / rate
                    waiting.add(i)
            idle = [due[i] for i, t in enumerate(tables)
                    if i not in waiting and nxt[i] < len(t.steps)]
            timeout = max(0.0, min(idle) - time.monotonic()) if idle else None
            for key, _ in chooser.select(timeout):
                i = key.data
                chunk = conns[i].sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the server closed a table's connection")
                data[i] += chunk
                answer = whole_answer(data[i])
                if answer is None:
                    continue
                acknowledged = time.monotonic()
                closes = answer_closes(data[i])
                status, body, data[i] = answer
                if status != 201:
                    raise RuntimeError(f"an action answered {status}: {body[:300]!r}")
                waiting.discard(i)
                if nxt[i] == len(tables[i].steps):  # done: the server may close it when idle
                    chooser.unregister(conns[i].sock)
                elif closes:  # a worker over its share of the connections: on a new one
                    chooser.unregister(conns[i].sock)
                    conns[i].reopen()
                    reopened += 1
                    conns[i].sock.setblocking(False)
                    chooser.register(conns[i].sock, selectors.EVENT_READ, i)
                answers.append((tables[i].match_id, int(json.loads(body)["version"]),
                                acknowledged, (acknowledged - sent_at[i]) * 1000))
    finally:
        chooser.close()
        for conn in conns:
            conn.close()
    return answers, reopened


# ----- the watchers ---------------------------------------------------------------------------
@dataclass
class Watcher:
    """One live stream: its match, what it has received, and when each version came."""

    match_id: str
    sock: socket.socket
    data: bytes = b""
    heard: list[tuple[float, int]] = field(default_factory=list)  # (monotonic, version)

    def received(self, chunk: bytes, now: float) -> None:
        """Take what arrived: each ``data:`` line's version, with the time it came."""
        self.data += chunk
        while (begin := self.data.find(b"data: ")) >= 0:
            end = self.data.find(b"\n", begin)
            if end < 0:
                break
            self.heard.append((now, int(json.loads(self.data[begin + 6:end])["version"])))
            self.data = self.data[end + 1:]
        if len(self.data) > 4096:  # headers, chunk sizes and keep-alive comments
            self.data = self.data[-4096:]


def open_watchers(port: int, tables: list[Table], count: int,
                  chooser: selectors.BaseSelector) -> list[Watcher]:
    """``count`` streams spread over the tables' matches, each open with its first event,
    ``OPEN_AT_ONCE`` opening at a time."""
    watchers: list[Watcher] = []
    for n in range(count):
        match_id = tables[n % len(tables)].match_id
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(request("GET", f"/matches/{match_id}/live"))
        sock.setblocking(False)
        watcher = Watcher(match_id, sock)
        chooser.register(sock, selectors.EVENT_READ, watcher)
        watchers.append(watcher)
        while sum(1 for w in watchers if not w.heard) >= OPEN_AT_ONCE or (
                n == count - 1 and any(not w.heard for w in watchers)):
            listen(chooser, time.monotonic() + 0.05)
    return watchers


def listen(chooser: selectors.BaseSelector, until: float) -> None:
    """Take every stream's events until ``until`` (monotonic)."""
    while (left := until - time.monotonic()) > 0:
        for key, _ in chooser.select(left):
            chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
            if not chunk:
                raise ConnectionError("the server closed a live stream")
            key.data.received(chunk, time.monotonic())


# ----- one phase ------------------------------------------------------------------------------
@dataclass
class Phase:
    """One measured phase: the tables' latencies (ms), the deliveries (ms), the misses,
    each server's CPU and the clients' (% of a core)."""

    latencies: list[float]
    deliveries: list[float]
    missed: int
    cpu: list[float]
    cpu_ms: float  # every server's CPU milliseconds per action
    clients: tuple[float, float]  # the tables' driver's and the watchers' reader's CPU
    busy: list[float]  # each busy process of the tables' server, % of a core
    reopened: int  # the tables' connections opened again after Connection: close


def deliveries(answers: list[tuple[str, int, float, float]],
               watchers: list[Watcher]) -> tuple[list[float], int]:
    """Each action's delivery to each watcher of its match (ms), and the misses."""
    by_match: dict[str, list[Watcher]] = {}
    for watcher in watchers:
        by_match.setdefault(watcher.match_id, []).append(watcher)
    found, missed = [], 0
    for match_id, version, acknowledged, _ in answers:
        for watcher in by_match.get(match_id, []):
            heard = next((t for t, v in watcher.heard if v >= version), None)
            if heard is None:
                missed += 1
            else:
                found.append(max(0.0, heard - acknowledged) * 1000)
    return found, missed


def run_phase(served: Served, watched: bool, watchers: int, tables: int, rate: float,
              seconds: float) -> Phase:
    """One phase on ``served`` (see the module)."""
    actions = max(1, int(seconds * rate))
    chosen = new_tables(served, tables, actions)
    chooser = selectors.DefaultSelector()
    streams = open_watchers(served.watch_port, chosen, watchers, chooser) if watched else []
    start = time.monotonic() + LEAD
    receiving, sending = multiprocessing.Pipe(duplex=False)
    driver = multiprocessing.Process(target=drive_tables, args=(
        served.table_port, chosen, rate, start, sending))
    cpu_before = [cpu_seconds(pid) or 0.0 for pid in served.pids]
    by_process = cpu_by_process(served.pids[-1]) or {}
    driver.start()
    try:
        time.sleep(max(0.0, start - time.monotonic()))
        began, reading = time.monotonic(), time.process_time()
        while not receiving.poll():
            listen(chooser, time.monotonic() + 0.1) if streams else time.sleep(0.1)
        received = receiving.recv()
        if isinstance(received, str):
            raise RuntimeError(received)
        answers, driving, reopened = received
        listen(chooser, time.monotonic() + GRACE) if streams else time.sleep(GRACE)
        wall, reading = time.monotonic() - began, time.process_time() - reading
        used = [(cpu_seconds(pid) or 0.0) - before
                for pid, before in zip(served.pids, cpu_before, strict=True)]
        after = cpu_by_process(served.pids[-1]) or {}
    finally:
        driver.join(30)
        chooser.close()
        for stream in streams:
            stream.sock.close()
    delivered, missed = deliveries(answers, streams)
    busy = sorted((share for share in ((after[p] - by_process.get(p, 0.0)) / wall * 100
                                       for p in after) if share >= 1), reverse=True)
    return Phase([a[3] for a in answers], delivered, missed, [u / wall * 100 for u in used],
                 sum(used) / len(answers) * 1000, (driving / wall * 100, reading / wall * 100),
                 busy, reopened)


# ----- the run --------------------------------------------------------------------------------
def measure(servers: list[Served], args: argparse.Namespace) -> dict[str, dict[str, list[Phase]]]:
    """Every server's phases, ``args.repeats`` times, interleaved (orders flipped on odd
    repeats)."""
    results: dict[str, dict[str, list[Phase]]] = {s.name: {p: [] for p in PHASES}
                                                  for s in servers}
    for repeat in range(args.repeats):
        flip = repeat % 2 == 1
        for served in (servers[::-1] if flip else servers):
            for phase in (PHASES[::-1] if flip else PHASES):
                result = run_phase(served, phase == "watched", args.watchers, args.tables,
                                   args.rate, args.seconds)
                results[served.name][phase].append(result)
                print(f"  {served.name} {phase}: tables p99 "
                      f"{percentile(result.latencies, 99):.1f} ms, delivery p99 "
                      f"{_p(result.deliveries, 99)} ms, missed {result.missed}; the tables' "
                      f"server's busy processes "
                      f"{'/'.join(f'{b:.0f}' for b in result.busy)} % of a core, "
                      f"{result.reopened} table connections opened again", flush=True)
    return results


def _p(values: list[float], p: float) -> str:
    return f"{percentile(values, p):.1f}" if values else "-"


def _median(runs: list[Phase], figure: Any) -> float:
    return statistics.median(figure(run) for run in runs)


def report(results: dict[str, dict[str, list[Phase]]], args: argparse.Namespace) -> None:
    """The medians per tree and phase, the ratio and the targets."""
    mode = ("two servers on PostgreSQL" if args.postgres else
            "two servers on one SQLite file" if args.apart else "one server on SQLite")
    if args.nice:
        mode += f", the watchers' at nice {args.nice}"
    print(f"\n{args.watchers} watchers, {args.tables} tables at {args.rate}/s, {mode}, "
          f"{args.seconds:g} s phases, medians of {args.repeats}")
    width = max(len("tree"), *(len(name) for name in results))
    print(f"{'tree':<{width}} {'phase':<8} {'tables p50':>10} {'p99':>7} {'delivery p50':>12} "
          f"{'p99':>7} {'worst':>7} {'missed':>7} {'CPU ms/action':>13}  server CPU % of a core"
          f"  clients %")
    for name, phases in results.items():
        for phase, runs in phases.items():
            watched = phase == "watched"
            cells = [_median(runs, lambda r: percentile(r.latencies, 50)),
                     _median(runs, lambda r: percentile(r.latencies, 99))]
            delivery = (f"{_median(runs, lambda r: percentile(r.deliveries, 50)):>12.1f} "
                        f"{_median(runs, lambda r: percentile(r.deliveries, 99)):>7.1f} "
                        f"{max(max(r.deliveries) for r in runs):>7.1f} "
                        f"{_median(runs, lambda r: r.missed):>7.0f}"
                        if watched and all(r.deliveries for r in runs) else
                        f"{'-':>12} {'-':>7} {'-':>7} "
                        f"{_median(runs, lambda r: r.missed) if watched else '-':>7}")
            cpu = " + ".join(f"{statistics.median(r.cpu[i] for r in runs):.0f}"
                             for i in range(len(runs[0].cpu)))
            clients = " + ".join(f"{statistics.median(r.clients[i] for r in runs):.0f}"
                                 for i in range(2))
            print(f"{name:<{width}} {phase:<8} {cells[0]:>10.1f} {cells[1]:>7.1f} {delivery} "
                  f"{_median(runs, lambda r: r.cpu_ms):>13.2f}  {cpu:<21}  {clients}")
        ratios = [percentile(w.latencies, 99) / percentile(a.latencies, 99)
                  for a, w in zip(phases["alone"], phases["watched"], strict=True)]
        delivery_p99 = _median(phases["watched"], lambda r: percentile(r.deliveries, 99)
                               if r.deliveries else float("inf"))
        print(f"{name:<{width}} tables p99 watched/alone x{statistics.median(ratios):.2f} (target "
              f"at most x{TARGET_RATIO}), delivery p99 {delivery_p99:.1f} ms (target at most "
              f"{TARGET_DELIVERY_MS:.0f} ms)")
        alone, watched_p99 = (_pooled_p99(phases[phase]) for phase in PHASES)
        print(f"{name:<{width}} tables p99 of the repeats' answers pooled: alone {alone:.1f} ms, "
              f"watched {watched_p99:.1f} ms, x{watched_p99 / alone:.2f}")


def _pooled_p99(runs: list[Phase]) -> float:
    """The p99 of every repeat's table latencies together: steadier than the median of each
    repeat's p99, whose tail is a few dozen answers."""
    return percentile([latency for run in runs for latency in run.latencies], 99)


def main() -> None:
    stop_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of a few seconds (CI)")
    parser.add_argument("--watchers", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=1.0, help="actions a second a table")
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None,
                        help="kiroku serve --workers (default: its own default)")
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="two servers on a fresh schema of this PostgreSQL database")
    parser.add_argument("--apart", action="store_true",
                        help="two servers on the one SQLite file: the tables on one, the "
                             "watchers on the other")
    parser.add_argument("--nice", type=int, default=0,
                        help="with two servers, the watchers' runs at this niceness (nice -n)")
    parser.add_argument("--baseline", type=Path, default=None, metavar="TREE",
                        help="another checkout of Kiroku, measured side by side")
    args = parser.parse_args()
    if args.apart and args.postgres:
        parser.error("--apart is for SQLite; --postgres always runs two servers")
    if args.nice and not (args.apart or args.postgres):
        parser.error("--nice is for the watchers' server of two (--apart or --postgres)")
    if args.quick:
        args.watchers, args.tables, args.seconds, args.repeats = 100, 10, 3.0, 1
    needed = int(args.seconds * args.rate)
    scripts = [s for s in (playout_script(seed) for seed in range(12)) if len(s[1]) >= needed]
    if not scripts:
        parser.error(f"no playout has {needed} actions: fewer --seconds or a lower --rate")
    trees = [(tree_name(BENCH.parent, "after"), BENCH.parent)]
    if args.baseline is not None:
        trees.append((tree_name(args.baseline.resolve(), "baseline"),
                      args.baseline.resolve()))
    with tempfile.TemporaryDirectory(prefix="live-watchers-") as folder, ExitStack() as stack:
        servers = [stack.enter_context(tree_servers(
            name, tree, Path(folder) / f"{n}", args.postgres, args.workers, scripts,
            args.apart, args.nice))
            for n, (name, tree) in enumerate(trees)]
        report(measure(servers, args), args)


if __name__ == "__main__":
    main()
