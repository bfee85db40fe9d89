"""Issue 16's question for SQLite: do more processes record faster on one file? Side by side
in one run, each figure a whole run's actions over its wall time:

    python bench/sqlite_processes.py [--quick] [--repeats 3] [--threads 2]

- ``save()``: eventsourcing's own ``save()`` of one trivial event per call (the library's own
  recorder, as ``scale.py``'s yardstick), by one process and by two on one file;
- ``Kiroku``: known World Gainer playouts recorded again through ``Kiroku.record`` by one
  process of ``2 x --threads`` threads, then by two processes of ``--threads`` threads each,
  on one file, every process on its own matches; and by two processes again on the library's
  own SQLite factory, without the write gate (``ledger.writegate``), as Kiroku wrote before it.
  There one process's save can meet the other's lock past SQLite's busy timeout ("database is
  locked", what the write gate is for): that save is sent again, and the count of actions'
  saves sent again is printed with the figure;
- each Kiroku figure's ratio to ``save()`` by one process: issue 16's target for many matches
  recorded at once is at least x1.0;
- ``CPU per action``: one thread recording the same playouts on an in-memory store, where a
  commit costs almost nothing: what an action costs apart from its commit.

Every process imports, opens the store and creates its matches first, then all start at one
moment. Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import multiprocessing
import queue
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import OperationalError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale import Counter, Script, library_env, scripts  # noqa: E402

from ledger.catalog import sample_card_set  # noqa: E402
from ledger.recorder import Recorder  # noqa: E402
from replay.service import Kiroku  # noqa: E402

Result = tuple[float, float, int, int]  # started, ended (time.time()), actions, locked saves
TIMEOUT = 300  # seconds a process may take to report
T = TypeVar("T")
LIBRARY_SQLITE = "eventsourcing.sqlite"  # the library's own factory: no write gate


def unlocked(save: Callable[[], T]) -> tuple[T, int]:
    """What ``save`` gives, sent again while it is refused with "database is locked" (a
    refused save stores nothing, and leaves the recorder's cached match as it was), with the
    number of refusals."""
    locked = 0
    while True:
        try:
            return save(), locked
        except OperationalError as exc:
            if "locked" not in str(exc):
                raise
            locked += 1


def created(kiroku: Kiroku, plays: list[Script]) -> list[tuple[UUID, list[dict[str, Any]]]]:
    """Each playout's match created afresh, with the actions to record in it."""
    out = []
    for game, decks, options, seed, actions in plays:
        match_id, _ = unlocked(partial(
            kiroku.recorder.create_match, game, [f"P{s + 1}" for s in range(len(decks))],
            decks, dict(sample_card_set(game).cards), options, seed=seed))
        out.append((match_id, actions))
    return out


def record(kiroku: Kiroku, work: list[tuple[UUID, list[dict[str, Any]]]], threads: int) -> int:
    """Record ``work`` by ``threads`` threads, each on its own matches; the number of saves
    refused with "database is locked" and sent again (``unlocked``)."""
    locked = [0] * threads

    def run(lane: list[tuple[UUID, list[dict[str, Any]]]], slot: int) -> None:
        for match_id, actions in lane:
            for action in actions:
                locked[slot] += unlocked(partial(kiroku.record, match_id, action,
                                                 recorded_by="bench"))[1]

    workers = [threading.Thread(target=run, args=(work[i::threads], i)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(locked)


def kiroku_process(url: str, plays: list[Script], threads: int, module: str | None,
                   start: Any, results: Any) -> None:
    """One recording process: open (with ``module`` as eventsourcing's persistence module if
    given, else Kiroku's), create its matches, wait for the others, record."""
    extra = {} if module is None else {"PERSISTENCE_MODULE": module}
    kiroku = Kiroku(Recorder.open(url, **extra))
    work = created(kiroku, plays)
    start.wait()
    began = time.time()
    locked = record(kiroku, work, threads)
    results.put((began, time.time(), sum(len(a) for _, a in work), locked))
    kiroku.close()


def save_process(url: str, calls: int, start: Any, results: Any) -> None:
    """One process of the library's own ``save()``, one trivial event per call."""
    env = library_env(url)  # the library's own recorder and factory
    app: Application[UUID] = Application(env=env)
    counter = Counter()
    app.save(counter)
    start.wait()
    began = time.time()
    for _ in range(calls):
        counter.count()
        app.save(counter)
    results.put((began, time.time(), calls, 0))
    app.close()


def together(target: Any, args: list[tuple[Any, ...]]) -> tuple[float, int]:
    """Run ``target`` in one process per ``args``, started at one moment; actions per second
    of them all over the wall time from the first start to the last end, and their saves
    refused as locked."""
    context = multiprocessing.get_context("fork")
    start = context.Barrier(len(args))
    results = context.Queue()
    processes = [context.Process(target=target, args=(*a, start, results)) for a in args]
    for p in processes:
        p.start()
    done: list[Result] = []
    deadline = time.monotonic() + TIMEOUT
    while len(done) < len(processes):
        try:
            done.append(results.get(timeout=1))
        except queue.Empty:
            if any(p.exitcode for p in processes) or time.monotonic() > deadline:
                for p in processes:
                    p.kill()
                raise RuntimeError("a process failed or gave no result in time (see above)"
                                   ) from None
    for p in processes:
        p.join()
    rate = sum(r[2] for r in done) / (max(r[1] for r in done) - min(r[0] for r in done))
    return rate, sum(r[3] for r in done)


def cpu_per_action(plays: list[Script]) -> float:
    """CPU seconds per action recording ``plays`` by one thread on an in-memory store."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    work = created(kiroku, plays)
    cpu = time.process_time()
    record(kiroku, work, 1)
    spent = time.process_time() - cpu
    kiroku.close()
    return spent / sum(len(a) for _, a in work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2, help="threads per Kiroku process "
                        "when two record (one process alone has twice as many)")
    parser.add_argument("--playouts", type=int, default=48,
                        help="World Gainer playouts recorded in each run")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    plays = scripts("worldgainer", 4 if args.quick else args.playouts, seed=3)
    calls = 100 if args.quick else 600
    rows: dict[str, list[float]] = {}
    locks: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeats):
            url = f"sqlite:///{tmp}/%s-{i}.db"
            for name in ("k1", "k2", "u2"):  # each store exists before the processes open it
                Kiroku.open(url % name).close()
            for name in ("s1", "s2"):  # (the library's open has no lock: two at once race)
                Application(env=library_env(url % name)).close()
            figures = {
                "save(), 1 process": together(save_process, [(url % "s1", calls)]),
                "save(), 2 processes": together(save_process, [(url % "s2", calls // 2)] * 2),
                f"Kiroku, 1 process of {2 * args.threads} threads": together(
                    kiroku_process, [(url % "k1", plays, 2 * args.threads, None)]),
                f"Kiroku, 2 processes of {args.threads} threads": together(
                    kiroku_process, [(url % "k2", plays[p::2], args.threads, None)
                                     for p in (0, 1)]),
                f"Kiroku, 2 processes of {args.threads} threads, no write gate": together(
                    kiroku_process, [(url % "u2", plays[p::2], args.threads, LIBRARY_SQLITE)
                                     for p in (0, 1)]),
            }
            for name, (rate, locked) in figures.items():
                rows.setdefault(name, []).append(rate)
                locks[name] = locks.get(name, 0) + locked
    print(f"SQLite, one file, World Gainer ({len(plays)} playouts), medians of {repeats} run(s):")
    yardstick = rows["save(), 1 process"]
    for name, rates in rows.items():
        ratio = "" if name.startswith("save()") else (
            f", x{statistics.median(r / s for r, s in zip(rates, yardstick)):.2f} of save() "
            "by one process")
        print(f"  {name}: {statistics.median(rates):.0f} actions/s (runs "
              f"{', '.join(f'{r:.0f}' for r in rates)}){ratio}"
              + (f"; {locks[name]} save(s) met \"database is locked\" and were sent again"
                 if locks[name] else ""))
    cpus = [cpu_per_action(plays) for _ in range(repeats)]
    print(f"  CPU per action on an in-memory store, one thread: "
          f"{statistics.median(cpus) * 1e6:.0f} us (runs "
          f"{', '.join(f'{c * 1e6:.0f}' for c in cpus)})")


if __name__ == "__main__":
    main()
