"""Issue 41's figure: a seat's recording alone, and beside anonymous heavy reads and live
watchers, side by side in one run.

    python bench/loaded_recording.py [--quick] [--seconds 20] [--repeats 3] [--audits 4]
                                     [--watchers 300] [--events 1500] [--baseline TREE]

A real server as ``kiroku serve`` runs it (one process, ``serving(create_app(...))``, started
as bench/http_load.py starts it) on an SQLite file holding a long World Gainer match
(``--events`` events: ``end_turn`` and a judge's adjustment in turn, as ``bench.long_match``
records it) and the seat's matches. Each phase, ``--seconds`` long:

- ``alone``: one seat records, one action after the other on its keep-alive connection, as
  fast as the server answers: known playouts with their table outcomes, each action sent by
  its seat's credential (by the organiser's where its outcomes are not the seat's to enter),
  a match after the other;
- ``loaded``: the same, while ``--audits`` anonymous clients each ask for the long match's
  audit (``GET /matches/{id}/audit``) in a loop, each asking again as soon as it has its
  answer, and ``--watchers`` anonymous clients follow the long match live
  (``GET /matches/{id}/live``). The seat starts a second after the load is under way (each
  audit loop has had an answer, each watcher its stream), and the load ends after the seat;
  nothing happens to the long match meanwhile, so the watchers cost what waiting costs.

Phases alternate (the order flips every repeat), and the server is left to finish what the
load asked for (its CPU at rest) before the next phase. With ``--baseline TREE`` (another
checkout of Kiroku, such as ``git worktree add /tmp/before HEAD``) a second server runs that
tree's code on a store of its own, prepared by that tree, and its phases are interleaved with
this tree's: before and after in one run.

Printed, for each server: medians over ``--repeats`` of the seat's actions per second, p50,
p99 and the worst action (ms), the server's CPU (% of a core), the audits answered (200, 429,
503) and the watchers whose stream opened; then the ratio of loaded to alone (per repeat, its
median) and the loaded p99 next to issue 41's targets: at least x0.8, at most 100 ms.
Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from http_load import (  # noqa: E402
    cpu_seconds,
    create_matches,
    request,
    wait_ready,
)
from processes import started, stop_on_sigterm  # noqa: E402
from scale import percentile  # noqa: E402
from table_taps import read_answer  # noqa: E402
from trees import tree_name  # noqa: E402

from bench import free_port, playout_script  # noqa: E402

TARGET_RATIO = 0.8  # issue 41: loaded recording at least x0.8 of alone
TARGET_P99_MS = 100.0  # issue 41: loaded recording p99 at most 100 ms
LOAD_LEAD = 1.0  # seconds the load runs on once under way, before the seat starts
LOAD_STARTS = 120.0  # seconds the load may take to get under way at most
WARM_UP = 3.0  # seconds of recording first, to warm the server
RATE_FLOOR = 1000.0  # actions/s prepared for at least, before a phase has shown the rate
AT_REST = 0.03  # a server using less than this CPU second in half a second is at rest
PHASES = ("alone", "loaded")
Script = tuple[list[Any], list[tuple[dict[str, Any], list[Any], bool]]]


# ----- a server on a tree's code --------------------------------------------------------------
@dataclass
class Served:
    """A running server: its name, port, process id, the long match, the organiser's token,
    and the seat's next actions."""

    name: str
    port: int
    pid: int
    long_match: str
    organiser: str
    steps: list[bytes] = field(default_factory=list)
    done: int = 0
    fastest: float = 0.0  # the most actions a second a phase has recorded so far


def prepare_store(tree: Path, db: Path, events: int) -> tuple[str, str]:
    """The long match and an organiser's token, recorded into ``db`` by ``tree``'s own code
    (a store its server reads as it would its own); (match id, token)."""
    code = f"""
import json, sys
from pathlib import Path
sys.path.insert(0, {str(tree / "bench")!r}); sys.path.insert(0, {str(tree)!r})
from bench import long_match
from ledger.identity import Role
from replay.service import Kiroku
folder = Path({str(db.parent)!r})
match_id, _ = long_match(folder, {events // 2 * 2})
kiroku = Kiroku.open({f"sqlite:///{db}"!r})
token = kiroku.credentials.issue(Role.ORGANISER, "bench", issued_by="bench")[1]
kiroku.close()
print(json.dumps([str(match_id), token]))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, check=True,
                         capture_output=True, text=True).stdout
    match_id, token = json.loads(out.strip().splitlines()[-1])
    return str(match_id), str(token)


def server(imports: str, app_expr: str, port: int) -> Any:
    """``uvicorn.run(app_expr)`` after ``imports`` in a subprocess (this folder importable),
    stopped on exit: one process, as ``kiroku serve`` ran before issue 43 made it start a
    worker per core (this bench's figure is one process's: what its heavy reads and live
    streams cost the recording beside them)."""
    code = (f"import sys; sys.path.insert(0, {str(BENCH)!r}); import uvicorn; {imports}; "
            f"uvicorn.run({app_expr}, host='127.0.0.1', port={port}, log_level='warning')")
    return started([sys.executable, "-c", code], BENCH.parent)


@contextmanager
def tree_server(name: str, tree: Path, folder: Path, events: int) -> Iterator[Served]:
    """``tree``'s Kiroku as ``kiroku serve`` runs it, on a store of its own in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "long.db"  # the file bench.long_match records into
    long_match, organiser = prepare_store(tree, db, events)
    port = free_port()
    imports = (f"sys.path.insert(0, {str(tree)!r}); from replay.service import Kiroku; "
               "from replay.api import create_app, serving")
    with server(imports, f"serving(create_app(Kiroku.open('sqlite:///{db}')))",
                port) as process:
        wait_ready(port, "/games", process)
        yield Served(name, port, process.pid, long_match, organiser)


def add_steps(served: Served, scripts: list[Script], count: int) -> None:
    """At least ``count`` more actions for the seat: matches created over HTTP."""
    made = 0
    while made < count:
        script = scripts[len(served.steps) % len(scripts)]
        steps = create_matches(served.port, served.organiser, script, 1)
        served.steps += [s.request for s in steps]
        made += len(steps)


def at_rest(pid: int, longest: float = 30.0) -> None:
    """Wait until the server has finished what it was asked (its CPU at rest)."""
    until = time.monotonic() + longest
    before = cpu_seconds(pid)
    while before is not None and time.monotonic() < until:
        time.sleep(0.5)
        after = cpu_seconds(pid)
        if after is None or after - before < AT_REST:
            return
        before = after


# ----- the clients ----------------------------------------------------------------------------
async def seat(port: int, steps: list[bytes], seconds: float) -> list[float]:
    """Record ``steps`` one after the other for ``seconds``; each action's time (ms)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    times: list[float] = []
    until = time.perf_counter() + seconds
    try:
        for raw in steps:
            if time.perf_counter() >= until:
                return times
            sent = time.perf_counter()
            writer.write(raw)
            status = await read_answer(reader)
            times.append((time.perf_counter() - sent) * 1000)
            if status not in (200, 201):
                raise RuntimeError(f"an action was answered {status}")
        raise RuntimeError("the seat ran out of actions: prepare more")
    finally:
        writer.close()


async def audit_loop(port: int, match_id: str, statuses: Counter[int],
                     answered: list[int]) -> None:
    """Ask for the match's audit, again and again, until cancelled; counted in ``answered``
    once its first answer came."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    raw = request("GET", f"/matches/{match_id}/audit")
    try:
        writer.write(raw)
        statuses[await read_answer(reader)] += 1
        answered.append(1)
        while True:
            writer.write(raw)
            statuses[await read_answer(reader)] += 1
    finally:
        writer.close()


async def watcher(port: int, match_id: str, opened: list[int]) -> None:
    """Follow the match live until cancelled; counted once its first event came."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request("GET", f"/matches/{match_id}/live"))
        seen = await reader.readuntil(b"\r\n\r\n")
        if int(seen[9:12]) != 200:
            return
        while b"event: position" not in seen:
            seen += await reader.read(4096)
        opened.append(1)
        while await reader.read(4096):
            pass
    finally:
        writer.close()


async def under_way(started: Callable[[], bool]) -> None:
    """Once the load is under way (every audit loop answered once, every watcher's stream
    open: the first audit made, the watchers' first readings done), ``LOAD_LEAD`` more."""
    until = time.monotonic() + LOAD_STARTS
    while not started() and time.monotonic() < until:
        await asyncio.sleep(0.1)
    await asyncio.sleep(LOAD_LEAD)


@dataclass
class Phase:
    """One phase's figures."""

    latencies: list[float]
    seconds: float
    server_cpu: float
    audits: Counter[int]
    watchers: int

    @property
    def rate(self) -> float:
        """Actions recorded per second."""
        return len(self.latencies) / self.seconds


async def _phase(served: Served, loaded: bool, seconds: float, audits: int,
                 watchers: int) -> Phase:
    statuses: Counter[int] = Counter()
    opened: list[int] = []
    answered: list[int] = []
    load: list[asyncio.Task[None]] = []
    if loaded:
        load += [asyncio.create_task(audit_loop(served.port, served.long_match, statuses,
                                                answered)) for _ in range(audits)]
        load += [asyncio.create_task(watcher(served.port, served.long_match, opened))
                 for _ in range(watchers)]
        await under_way(lambda: len(answered) == audits and len(opened) == watchers)
    cpu_before, started = cpu_seconds(served.pid) or 0.0, time.perf_counter()
    statuses_before = statuses.copy()
    times = await seat(served.port, served.steps[served.done:], seconds)
    elapsed = time.perf_counter() - started
    cpu = (cpu_seconds(served.pid) or 0.0) - cpu_before
    during = statuses - statuses_before
    for task in load:
        task.cancel()
    await asyncio.gather(*load, return_exceptions=True)
    served.done += len(times)
    return Phase(times, elapsed, cpu / elapsed * 100, during, len(opened))


def run_phase(served: Served, loaded: bool, seconds: float, audits: int,
              watchers: int) -> Phase:
    """One phase on ``served``, then the server left to come to rest."""
    phase = asyncio.run(_phase(served, loaded, seconds, audits, watchers))
    at_rest(served.pid)
    return phase


# ----- the run --------------------------------------------------------------------------------
def ready_for(served: Served, scripts: list[Script], seconds: float) -> None:
    """Enough actions prepared for a phase of ``seconds``, at twice the fastest rate seen
    (and at least ``RATE_FLOOR``: one server process now records faster than 466 a second,
    which ran the first warm-up out of actions)."""
    needed = int(max(served.fastest, RATE_FLOOR) * 2 * seconds) + 200
    add_steps(served, scripts, needed - (len(served.steps) - served.done))


def timed_phase(served: Served, scripts: list[Script], loaded: bool, seconds: float,
                audits: int, watchers: int) -> Phase:
    """One phase, its actions prepared before."""
    ready_for(served, scripts, seconds)
    phase = run_phase(served, loaded, seconds, audits, watchers)
    served.fastest = max(served.fastest, phase.rate)
    return phase


def measure(servers: list[Served], scripts: list[Script], seconds: float, repeats: int,
            audits: int, watchers: int) -> dict[str, dict[str, list[Phase]]]:
    """Every server's phases, interleaved: in each repeat, every server's alone and loaded
    phases, the order of both flipping every repeat."""
    for served in servers:  # warm: connections, caches (not counted)
        timed_phase(served, scripts, False, WARM_UP, 0, 0)
    results: dict[str, dict[str, list[Phase]]] = {
        s.name: {p: [] for p in PHASES} for s in servers}
    for repeat in range(repeats):
        order = servers if repeat % 2 == 0 else servers[::-1]
        phases = PHASES if repeat % 2 == 0 else PHASES[::-1]
        for served in order:
            for name in phases:
                results[served.name][name].append(timed_phase(
                    served, scripts, name == "loaded", seconds, audits, watchers))
    return results


def report(results: dict[str, dict[str, list[Phase]]]) -> None:
    """The medians, then the ratios next to issue 41's targets."""
    print(f"{'server':<30} {'phase':<7} {'actions/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'worst ms':>8} {'CPU %':>6} {'audits 200/429/503':>19} {'watchers':>8}")
    for name, phases in results.items():
        for phase_name, runs in phases.items():
            med = [statistics.median(values) for values in (
                [p.rate for p in runs], [percentile(p.latencies, 50) for p in runs],
                [percentile(p.latencies, 99) for p in runs], [max(p.latencies) for p in runs],
                [p.server_cpu for p in runs])]
            audits = "/".join(str(int(statistics.median(p.audits[s] for p in runs)))
                              for s in (200, 429, 503))
            watching = int(statistics.median(p.watchers for p in runs))
            print(f"{name:<30} {phase_name:<7} {med[0]:9.1f} {med[1]:7.1f} {med[2]:7.1f} "
                  f"{med[3]:8.1f} {med[4]:6.0f} {audits:>19} {watching:>8}")
    for name, phases in results.items():
        ratios = [loaded.rate / alone.rate
                  for alone, loaded in zip(phases["alone"], phases["loaded"])]
        p99s = [percentile(p.latencies, 99) for p in phases["loaded"]]
        ratio, p99 = statistics.median(ratios), statistics.median(p99s)
        print(f"{name}: recording beside the load x{ratio:.2f} of alone "
              f"(runs {', '.join(f'x{r:.2f}' for r in ratios)}), "
              f"{'met' if ratio >= TARGET_RATIO else 'NOT MET'} (target >= x{TARGET_RATIO}); "
              f"p99 beside the load {p99:.1f} ms (runs {', '.join(f'{p:.1f}' for p in p99s)}), "
              f"{'met' if p99 <= TARGET_P99_MS else 'NOT MET'} "
              f"(target <= {TARGET_P99_MS:.0f} ms)")


def main() -> None:
    """Parse the arguments, measure, print."""
    stop_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of under a minute")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds a phase")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--audits", type=int, default=4, help="anonymous audit loops")
    parser.add_argument("--watchers", type=int, default=300, help="anonymous live watchers")
    parser.add_argument("--events", type=int, default=1500, help="events of the long match")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another Kiroku tree, measured beside this one")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.repeats, args.watchers, args.events = 4.0, 1, 100, 300
    began = time.perf_counter()
    print(f"Kiroku recording under load (python {sys.version.split()[0]}, {os.cpu_count()} "
          f"cores): one seat, alone and beside {args.audits} anonymous audit loops on a "
          f"{args.events + 1}-event match and {args.watchers} anonymous live watchers of it; "
          f"{args.seconds:g} s a phase, medians of {args.repeats} run(s); load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    scripts = [playout_script(seed) for seed in range(4)]
    trees = [(tree_name(BENCH.parent, "this tree"), BENCH.parent)]
    if args.baseline is not None:
        trees.append((tree_name(args.baseline.resolve(), "baseline"),
                      args.baseline.resolve()))
    with tempfile.TemporaryDirectory() as tmp:
        with _servers(trees, Path(tmp), args.events) as servers:
            results = measure(servers, scripts, args.seconds, args.repeats, args.audits,
                              args.watchers)
    report(results)
    print(f"({time.perf_counter() - began:.0f} s in all)")


@contextmanager
def _servers(trees: list[tuple[str, Path]], folder: Path, events: int) -> Iterator[list[Served]]:
    """A server for each tree, each on a store of its own."""
    if len(trees) == 1:
        with tree_server(trees[0][0], trees[0][1], folder / "0", events) as one:
            yield [one]
        return
    (first, first_tree), (second, second_tree) = trees[:2]
    with tree_server(first, first_tree, folder / "0", events) as a, \
            tree_server(second, second_tree, folder / "1", events) as b:
        yield [a, b]


if __name__ == "__main__":
    main()
