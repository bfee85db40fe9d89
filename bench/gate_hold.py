"""Issue 43's write-gate figure: how long a commit holds an SQLite file's write gate in the
default server while clients record, and the same commits in a process doing nothing else.

    python bench/gate_hold.py [--quick] [--clients 16] [--requests 200] [--repeats 3]
                              [--workers N] [--threads N]

Every write to a Kiroku SQLite file passes the file's gate (``ledger.writegate``), one
process and one thread at a time, so the time each commit holds it is what the worker
processes' recording leans on next to their CPU (docs/architecture.md, "The write gate on
SQLite").

- the server: ``kiroku serve`` as bench/http_load.py starts it (its default worker
  processes, or ``--workers``; ``--threads`` sets ``KIROKU_THREADS``), with bench/gate_hook
  on its ``PYTHONPATH``: each of its processes times every pass of the gate
  (``gate_probe``: when a write asked, how long it waited, how long it held the gate, how
  many saves the group commit took in) and writes it to a folder of this bench's;
- the load: http_load's POST phase, ``--clients`` clients on keep-alive connections, each
  recording its own World Gainer matches (known playouts, every action legal) one request
  after the other; a warm-up, then ``--repeats`` phases of ``--requests`` each;
- alone: the same playouts recorded in this process through ``Kiroku.record``, one action
  at a time on one thread, on a file of its own, the probe installed here: the same commits
  with nothing else running.

Printed for each phase and for alone: actions a second, the answers' p50 and p99 (ms), the
commits' saves on average, the gate's hold (p50, mean, p99, ms), the wait for it (p50, mean),
and the share of the phase the gate was held. Only the commits of saves count (other writes,
the match list's and the credentials', pass the gate too and are left out). Nothing is
asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
PROBE = BENCH / "gate_hook"
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(PROBE))

import gate_probe  # noqa: E402
from http_load import (  # noqa: E402
    WARM_UP,
    Client,
    kiroku_server,
    organiser_of,
    prepare,
    run_phase,
    wait_ready,
    workers_of,
)
from scale import percentile, record_rate, scripts  # noqa: E402

from bench import free_port, playout_script  # noqa: E402
from replay.threads import threads_setting  # noqa: E402


@dataclass(frozen=True)
class Pass:
    """One commit of saves through the gate, as the probe wrote it (seconds)."""

    asked: float
    wait: float
    hold: float
    saves: int


@dataclass(frozen=True)
class Measured:
    """One phase: its actions a second and latencies (ms, None alone), its commits."""

    name: str
    rate: float
    latencies: list[float] | None
    passes: list[Pass]
    wall: float


def passes_in(folder: Path, since: float, until: float) -> list[Pass]:
    """The commits of saves the probe wrote in ``folder`` that asked between ``since`` and
    ``until``."""
    found = []
    for path in folder.glob("*.txt"):
        for line in path.read_text().splitlines():
            asked, wait, hold, saves = line.split()
            one = Pass(float(asked), float(wait), float(hold), int(saves))
            if one.saves and since <= one.asked <= until:
                found.append(one)
    return found


def probed_server(db: Path, port: int, folder: Path, workers: int | None,
                  threads: int | None) -> Any:
    """This tree's ``kiroku serve`` on ``db`` with the probe in each of its processes."""
    env = {"PYTHONPATH": str(PROBE), "KIROKU_GATE_PROBE": str(folder)}
    if threads:
        env["KIROKU_THREADS"] = str(threads)
    return kiroku_server(BENCH.parent, db, port, workers, env)


def served(folder: Path, clients: int, per_phase: int, repeats: int, workers: int | None,
           threads: int | None) -> tuple[list[Measured], int]:
    """The server's phases, and its worker processes."""
    db, probed = folder / "served.db", folder / "probe"
    probed.mkdir()
    count = workers_of(BENCH.parent, db, workers)
    organiser = organiser_of(BENCH.parent, db)
    port = free_port()
    measured = []
    with probed_server(db, port, probed, workers, threads) as process:
        wait_ready(port, "/games", process)
        plays = [playout_script(seed) for seed in range(min(clients, 16))]
        work: list[Client] = prepare(port, organiser, plays, clients,
                                     WARM_UP + per_phase * repeats)
        for repeat in range(-1, repeats):
            n = WARM_UP if repeat < 0 else per_phase
            lanes = [[s.request for s in c.steps[c.done:c.done + n]] for c in work]
            since = time.monotonic()
            phase = run_phase(port, process.pid, lanes, 201)
            until = time.monotonic()
            for c in work:
                c.done += n
            if repeat >= 0:  # each pass's line is written before its save returns
                measured.append(Measured(f"served, phase {repeat + 1}", phase.rate,
                                         phase.latencies, passes_in(probed, since, until),
                                         until - since))
    return measured, count


def alone(folder: Path, matches: int) -> Measured:
    """The same kind of commits in this process, one action at a time, nothing else running."""
    probed = folder / "alone-probe"
    probed.mkdir()
    gate_probe.install(str(probed))  # in this process only, from here on
    since = time.monotonic()
    rate = record_rate(f"sqlite:///{folder / 'alone.db'}",
                       scripts("worldgainer", matches, seed=3), threads=1)[0]
    until = time.monotonic()
    return Measured("alone, one thread", rate, None, passes_in(probed, since, until),
                    until - since)


def line(m: Measured) -> str:
    """One row of the table."""
    if not m.passes:
        return f"{m.name:<20} {m.rate:8.0f}  (no commit of a save was timed)"
    holds = sorted(p.hold * 1000 for p in m.passes)
    waits = [p.wait * 1000 for p in m.passes]
    saves = sum(p.saves for p in m.passes)
    latency = ("      -       -" if m.latencies is None else
               f"{statistics.median(m.latencies):7.1f} {percentile(m.latencies, 99):7.1f}")
    return (f"{m.name:<20} {m.rate:8.0f} {latency} {len(m.passes):8d} "
            f"{saves / len(m.passes):6.2f} {statistics.median(holds):6.2f} "
            f"{statistics.mean(holds):6.2f} {percentile(holds, 99):6.2f} "
            f"{statistics.median(waits):6.2f} {statistics.mean(waits):6.2f} "
            f"{sum(holds) / 1000 / m.wall * 100:6.0f}")


def main() -> None:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=None,
                        help="actions a client records each phase (default 200, --quick 10)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None,
                        help="kiroku serve --workers (default: its own default)")
    parser.add_argument("--threads", type=int, default=None,
                        help="KIROKU_THREADS for the server (default: its own default)")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    per_phase = args.requests or (10 if args.quick else 200)
    print(f"The write gate's hold (python {sys.version.split()[0]}, {os.cpu_count()} cores): "
          f"{args.clients} clients recording, {per_phase} actions each a phase; load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        phases, workers = served(Path(tmp), args.clients, per_phase, repeats, args.workers,
                                 args.threads)
        quiet = alone(Path(tmp), 5 if args.quick else 60)
    print(f"kiroku serve: {workers} worker process(es) of "
          f"{args.threads or threads_setting()} thread(s)")
    print(f"{'':<20} {'act/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'commits':>8} {'saves':>6} "
          f"{'hold50':>6} {'mean':>6} {'p99':>6} {'wait50':>6} {'mean':>6} {'held %':>6}")
    for m in [*phases, quiet]:
        print(line(m))
    print("(act/s: actions recorded a second, while every client was at work for a phase; "
          "saves: a commit's on average; hold, wait: the gate's, ms; held %: of the phase's "
          "wall time, the commits of saves one after the other)")


if __name__ == "__main__":
    main()
