"""Issue 16's PostgreSQL figures: recording throughput by number of writer processes.

    python bench/pg_writers.py [--quick] [--writers 1,2] [--threads 1,4] [--repeats 3]
                               [--matches 32] [--url postgresql://postgres@127.0.0.1:5432/test]

Each run uses a fresh schema on the server (dropped afterwards). ``--writers`` processes
record known legal World Gainer playouts through ``Kiroku.record`` on that one store, each
on matches of its own, with each of ``--threads`` threads per writer in turn (a server's
concurrent requests); the figure is every action recorded divided by the time from the common
start to the last writer's end. With one thread a writer waits for each round trip and
commit, which another writer can fill; with several, one writer process already keeps both
cores of this machine busy (its own and the PostgreSQL server's), which bounds what a second
one can add. Three recorders, runs alternating so machine noise hits each:

- ``table lock``: eventsourcing's own PostgreSQL recorder as it comes (``LOCK TABLE ... IN
  EXCLUSIVE MODE`` and ``NOTIFY`` in every insert: one insert commits at a time);
- ``kiroku, pipelined``: ``ledger.pgwriters.ManyWritersRecorder`` inserting with the
  library's pipelined transaction (``POSTGRES_ENABLE_DB_FUNCTIONS`` off), as before the
  fifteenth part of issue 16;
- ``kiroku``: ``ManyWritersRecorder`` as Kiroku opens it (inserts side by side, each one
  statement calling the recorder's insert function).

It prints actions per second, medians of ``--repeats`` runs, each writer count's ratio to
one writer, and issue 16's target next to Kiroku's figure (2 writers at least 1.6x one, on
this 2-core machine where the PostgreSQL server shares the cores). A list read after each run
checks that every recorded match is listed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scale import Script, scripts  # noqa: E402

from ledger.catalog import sample_card_set  # noqa: E402
from ledger.recorder import Recorder  # noqa: E402
from replay.service import Kiroku  # noqa: E402

URL = "postgresql://postgres@127.0.0.1:5432/test"
RECORDERS = {"table lock": {"APPLICATION_RECORDER_TOPIC":
                            "eventsourcing.postgres:PostgresApplicationRecorder",
                            "POSTGRES_ENABLE_DB_FUNCTIONS": "n"},
             "kiroku, pipelined": {"POSTGRES_ENABLE_DB_FUNCTIONS": "n"},
             "kiroku": {}}


def open_store(url: str, extra: Mapping[str, str]) -> Kiroku:
    """Kiroku on ``url`` with the recorder settings ``extra``."""
    return Kiroku(Recorder.open(url, **extra))


def writer(url: str, extra: Mapping[str, str], plays: list[Script], threads: int,
           go: Event, ready: Any, finished: Any) -> None:
    """One writer process: create its matches, wait for the start, record them all."""
    kiroku = open_store(url, extra)
    work = []
    for game, decks, options, seed, actions in plays:
        cards = dict(sample_card_set(game).cards)
        match_id = kiroku.recorder.create_match(
            game, [f"P{s + 1}" for s in range(len(decks))], decks, cards, options, seed=seed)
        work.append((match_id, actions))
    lanes = [work[i::threads] for i in range(threads)]

    def run(lane: list[tuple[Any, list[dict[str, Any]]]]) -> None:
        for match_id, actions in lane:
            for action in actions:
                kiroku.record(match_id, action, recorded_by="bench")

    ready.put(os.getpid())
    go.wait()
    cpu = time.process_time()
    pool = [threading.Thread(target=run, args=(lane,)) for lane in lanes]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    finished.put((time.monotonic(), time.process_time() - cpu))
    kiroku.close()


def cores_busy() -> tuple[float, float]:
    """CPU seconds the whole machine has spent busy (every process, the PostgreSQL server's
    among them) and in all, from Linux's ``/proc/stat``; (0, 0) elsewhere."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(t) for t in stat.readline().split()[1:]]
    except OSError:
        return 0.0, 0.0
    hz = os.sysconf("SC_CLK_TCK")
    idle = ticks[3] + ticks[4]  # idle and waiting for I/O
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def one_run(base: str, extra: Mapping[str, str], plays: list[Script], writers: int,
            threads: int) -> tuple[float, float, float]:
    """Actions per second of ``writers`` processes recording ``plays`` (split between them)
    on a fresh schema, the writers' CPU seconds per action (every thread's, system time
    among them; the PostgreSQL server's not), and the share of the machine's cores busy
    meanwhile."""
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = f"{base}?schema={schema}"
    try:
        open_store(url, extra).close()  # tables and key file made once, before the writers
        context = multiprocessing.get_context("spawn")
        go, ready, finished = context.Event(), context.Queue(), context.Queue()
        shares = [plays[i::writers] for i in range(writers)]
        procs = [context.Process(target=writer, args=(url, extra, share, threads, go, ready,
                                                      finished)) for share in shares]
        for p in procs:
            p.start()
        for _ in procs:
            ready.get(timeout=300)
        start = time.monotonic()
        busy, total = cores_busy()
        go.set()
        ends = [finished.get(timeout=600) for _ in procs]
        end = max(at for at, _ in ends)
        busy_after, total_after = cores_busy()
        busy_share = (busy_after - busy) / (total_after - total) if total_after > total else 0.0
        for p in procs:
            p.join()
            assert p.exitcode == 0, f"a writer failed ({p.exitcode})"
        check = open_store(url, extra)
        listed = len(check.find_matches(limit=None))
        check.close()
        assert listed == len(plays), f"{listed} of {len(plays)} matches listed"
        actions = sum(len(p[4]) for p in plays)
        return actions / (end - start), sum(cpu for _, cpu in ends) / actions, busy_share
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--writers", default="1,2")
    parser.add_argument("--threads", default="1,4")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--matches", type=int, default=32, help="matches per run")
    parser.add_argument("--url", default=os.environ.get("KIROKU_TEST_POSTGRES_URL", URL))
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    counts = [int(w) for w in args.writers.split(",")]
    threads = [1] if args.quick else [int(t) for t in args.threads.split(",")]
    plays = scripts("worldgainer", 4 if args.quick else args.matches, seed=5)
    print(f"{len(plays)} World Gainer matches, {sum(len(p[4]) for p in plays)} actions")
    with tempfile.TemporaryDirectory() as keys:
        os.environ["KIROKU_KEY_FILE"] = str(Path(keys) / "bench.keys")
        rates: dict[tuple[int, str, int], list[float]] = {}
        cpus: dict[tuple[int, str, int], list[float]] = {}
        busy: dict[tuple[int, str, int], list[float]] = {}
        for _ in range(repeats):
            for each in threads:
                for label, extra in RECORDERS.items():
                    for writers in counts:
                        rate, cpu, share = one_run(args.url, extra, plays, writers, each)
                        busy.setdefault((each, label, writers), []).append(share)
                        rates.setdefault((each, label, writers), []).append(rate)
                        cpus.setdefault((each, label, writers), []).append(cpu)
    for each in threads:
        for label in RECORDERS:
            one = statistics.median(rates[(each, label, counts[0])])
            for writers in counts:
                runs = rates[(each, label, writers)]
                rate = statistics.median(runs)
                print(f"{label}, {writers} writer(s) of {each} thread(s): {rate:.0f} actions/s, "
                      f"x{rate / one:.2f} of {counts[0]}, writers' CPU "
                      f"{statistics.median(cpus[(each, label, writers)]) * 1e6:.0f} us per "
                      f"action, cores {statistics.median(busy[(each, label, writers)]):.0%} "
                      f"busy (runs {', '.join(f'{r:.0f}' for r in runs)})")
    if 1 in counts and 2 in counts:
        for each in threads:
            two = (statistics.median(rates[(each, "kiroku", 2)])
                   / statistics.median(rates[(each, "kiroku", 1)]))
            print(f"target: 2 writers >= x1.6 of one ({each} thread(s) each): x{two:.2f}, "
                  f"{'met' if two >= 1.6 else 'NOT MET'}")


if __name__ == "__main__":
    main()
