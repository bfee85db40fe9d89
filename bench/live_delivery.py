"""What one live event delivered costs the server: its CPU per recorded action with and without
watchers, side by side in one run (issue 43).

    python bench/live_delivery.py [--quick] [--matches 20] [--watchers 25] [--actions 50]
                                  [--repeats 2] [--baseline TREE]

One server process (``kiroku serve --workers 1``, started as bench/live_watchers.py starts
it) on a fresh SQLite file; ``--matches`` World Gainer matches (``bench.playout_script``),
and one seat connection recording their actions round robin, one at a time, each as soon as
the one before was answered (a few ms apart), ``--actions`` a match. Two phases alternate
(the order flips every repeat): ``alone``, and ``watched`` with ``--watchers`` anonymous
spectators a match following it live (``GET /matches/{id}/live``), listened to by a process
of their own. Every phase records matches of its own.

Printed, for each tree and phase: the server's CPU per recorded action (ms, medians over
``--repeats``), and the difference per delivered event (µs: what the watched phase cost more,
over the watchers a match). Nothing is asserted: it is a measurement. Unlike
bench/live_watchers.py, no table waits on a schedule, so a pause of the server shows in the
wall time, not in a tail latency of a few taps.
"""

from __future__ import annotations

import argparse
import multiprocessing
import selectors
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from http_load import Connection, cpu_seconds  # noqa: E402
from live_watchers import (  # noqa: E402
    Served,
    Table,
    listen,
    new_tables,
    open_watchers,
    tree_servers,
)
from trees import tree_name  # noqa: E402

from bench import playout_script  # noqa: E402

PHASES = ("alone", "watched")
GAP = 0.004  # seconds between an answer and the next action: the watchers' events go out


@dataclass
class Phase:
    """One phase: the actions recorded, the server's CPU for them (s), the wall time (s)."""

    actions: int
    cpu: float
    wall: float


@dataclass
class Tree:
    """A tree's server and its phases."""

    served: Served
    phases: dict[str, list[Phase]] = field(default_factory=lambda: {p: [] for p in PHASES})


def _watch(port: int, tables: list[Table], count: int, ready: Event, stop: Event) -> None:
    chooser = selectors.DefaultSelector()
    open_watchers(port, tables, count, chooser)
    ready.set()
    while not stop.is_set():
        listen(chooser, time.monotonic() + 0.2)


def run_phase(served: Served, watchers: int, matches: int, actions: int) -> Phase:
    """Record ``actions`` actions of each of ``matches`` new matches, watched by
    ``watchers`` streams a match (none for ``alone``); the server's CPU for it."""
    tables = new_tables(served, matches, actions)
    ready, stop = multiprocessing.Event(), multiprocessing.Event()
    listener = None
    if watchers:
        listener = multiprocessing.Process(target=_watch, args=(
            served.watch_port, tables, watchers * matches, ready, stop))
        listener.start()
        if not ready.wait(120):
            raise RuntimeError("the watchers' streams did not open")
    time.sleep(1.0)  # the streams' first events out, the server at rest
    connection = Connection(served.table_port)
    try:
        pid = served.pids[0]
        before, started = cpu_seconds(pid) or 0.0, time.perf_counter()
        for step in range(actions):
            for table in tables:
                status, body = connection.roundtrip(table.steps[step])
                if status not in (200, 201):
                    raise RuntimeError(f"an action was answered {status}: {body[:200]!r}")
                time.sleep(GAP)
        wall = time.perf_counter() - started
        cpu = (cpu_seconds(pid) or 0.0) - before
    finally:
        connection.sock.close()
        stop.set()
        if listener is not None:
            listener.join(10)
            listener.terminate()
    return Phase(actions * matches, cpu, wall)


def _ms(phases: list[Phase]) -> float:
    return statistics.median(p.cpu / p.actions * 1000 for p in phases)


def report(trees: list[Tree], watchers: int) -> None:
    """Each tree's CPU per action alone and watched, and per delivered event."""
    width = max(len("tree"), *(len(tree.served.name) for tree in trees))
    print(f"{'tree':<{width}} {'alone ms/action':>16} {'watched ms/action':>18} "
          f"{'us per delivery':>16} {'wall s (alone, watched)':>24}")
    for tree in trees:
        alone, watched = _ms(tree.phases["alone"]), _ms(tree.phases["watched"])
        walls = [statistics.median(p.wall for p in tree.phases[name]) for name in PHASES]
        print(f"{tree.served.name:<{width}} {alone:>16.2f} {watched:>18.2f} "
              f"{(watched - alone) / watchers * 1000:>16.0f} "
              f"{walls[0]:>11.1f}, {walls[1]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (CI)")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=25, help="watchers a match")
    parser.add_argument("--actions", type=int, default=50, help="actions a match a phase")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--baseline", type=Path, default=None, metavar="TREE",
                        help="another checkout of Kiroku, measured side by side")
    args = parser.parse_args()
    if args.quick:
        args.matches, args.watchers, args.actions, args.repeats = 4, 5, 10, 1
    scripts = [s for s in (playout_script(seed) for seed in range(12))
               if len(s[1]) >= args.actions]
    if not scripts:
        parser.error(f"no playout has {args.actions} actions: fewer --actions")
    named = [(tree_name(BENCH.parent, "after"), BENCH.parent)]
    if args.baseline is not None:
        named.append((tree_name(args.baseline.resolve(), "baseline"), args.baseline.resolve()))
    print(f"{args.matches} matches, {args.actions} actions each a phase, "
          f"{args.watchers} watchers a match when watched, one server process; "
          f"medians of {args.repeats}")
    with tempfile.TemporaryDirectory(prefix="live-delivery-") as folder, ExitStack() as stack:
        trees = [Tree(stack.enter_context(tree_servers(
            name, tree, Path(folder) / str(n), None, 1, scripts)))
            for n, (name, tree) in enumerate(named)]
        for repeat in range(args.repeats):
            order = trees if repeat % 2 == 0 else trees[::-1]
            phases = PHASES if repeat % 2 == 0 else PHASES[::-1]
            for tree in order:
                for name in phases:
                    watchers = args.watchers if name == "watched" else 0
                    tree.phases[name].append(run_phase(tree.served, watchers, args.matches,
                                                       args.actions))
        report(trees, args.watchers)


if __name__ == "__main__":
    main()
