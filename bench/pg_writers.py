"""Issue 16's PostgreSQL figures: recording throughput by number of writer processes.

    python bench/pg_writers.py [--quick] [--writers 1,2] [--threads 1,4] [--repeats 3]
                               [--matches 32] [--window 3]
                               [--recorders "table lock,pipelined,kiroku"]
                               [--url postgresql://postgres@127.0.0.1:5432/test]

Each run uses a fresh schema on the server (dropped afterwards). ``--writers`` processes
record known legal World Gainer playouts through ``Kiroku.record`` on that one store, each
on matches of its own, with each of ``--threads`` threads per writer in turn (a server's
concurrent requests). The figure is the actions recorded in a ``--window`` of seconds from
the common start, during which every writer records throughout (each is given the
``--matches`` playouts as many times over as it could record in the window). With
``--window 0`` the writers split the playouts between them instead, and the figure runs to
the last writer's end; it then counts the time one writer spends alone after the other has
finished, which is noise in a ratio of a few percent a run.

With one thread a writer waits for each round trip and commit, which another writer can
fill; with several, one writer process already keeps both cores of this machine busy (its
own and the PostgreSQL server's), which bounds what a second one can add. Each line also
gives the writers' CPU per action and how busy the machine's cores were (Linux). Three
recorders, runs alternating so machine noise hits each:

- ``table lock``: eventsourcing's own PostgreSQL recorder as it comes (``LOCK TABLE ... IN
  EXCLUSIVE MODE`` and ``NOTIFY`` in every insert: one insert commits at a time);
- ``pipelined``: ``ledger.pgwriters.ManyWritersRecorder`` inserting with the
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
             "pipelined": {"POSTGRES_ENABLE_DB_FUNCTIONS": "n"},
             "kiroku": {}}
# Actions a second no writer reaches on this machine: each writer is given this many for every
# second of the window, so that none runs out before the window ends.
ENOUGH_PER_SECOND = 3000


def open_store(url: str, extra: Mapping[str, str]) -> Kiroku:
    """Kiroku on ``url`` with the recorder settings ``extra``."""
    return Kiroku(Recorder.open(url, **extra))


def writer(url: str, extra: Mapping[str, str], plays: list[Script], threads: int,
           go: Event, stop: Event, ready: Any, finished: Any) -> None:
    """One writer process: create its matches, wait for the start, record them until they
    are all recorded or ``stop`` is set. Reports when it ended, its CPU seconds meanwhile,
    the actions it recorded, and whether it ran out of matches before ``stop``."""
    kiroku = open_store(url, extra)
    work = []
    for game, decks, options, seed, actions in plays:
        cards = dict(sample_card_set(game).cards)
        match_id = kiroku.recorder.create_match(
            game, [f"P{s + 1}" for s in range(len(decks))], decks, cards, options, seed=seed)
        work.append((match_id, actions))
    lanes = [work[i::threads] for i in range(threads)]
    recorded = [0] * threads

    def run(lane_no: int) -> None:
        for match_id, actions in lanes[lane_no]:
            for action in actions:
                if stop.is_set():
                    return
                kiroku.record(match_id, action, recorded_by="bench")
                recorded[lane_no] += 1

    ready.put(os.getpid())
    go.wait()
    cpu = time.process_time()
    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    finished.put((time.monotonic(), time.process_time() - cpu, sum(recorded),
                  not stop.is_set()))
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
            threads: int, window: float) -> tuple[float, float, float]:
    """Actions per second of ``writers`` processes recording on a fresh schema, the writers'
    CPU seconds per action (every thread's, system time among them; the PostgreSQL server's
    not), and the share of the machine's cores busy meanwhile.

    With a ``window`` (seconds), every writer has ``plays`` many times over, and the figure
    is the actions recorded in that window, all writers running throughout. Without one
    (0), the writers split ``plays`` and the figure runs to the last writer's end."""
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = f"{base}?schema={schema}"
    if window:
        copies = 1 + int(window * ENOUGH_PER_SECOND) // sum(len(p[4]) for p in plays)
        shares = [plays * copies] * writers
    else:
        shares = [plays[i::writers] for i in range(writers)]
    try:
        open_store(url, extra).close()  # tables and key file made once, before the writers
        context = multiprocessing.get_context("spawn")
        go, stop, ready, finished = (context.Event(), context.Event(), context.Queue(),
                                     context.Queue())
        procs = [context.Process(target=writer, args=(url, extra, share, threads, go, stop,
                                                      ready, finished)) for share in shares]
        for p in procs:
            p.start()
        for _ in procs:
            ready.get(timeout=300)
        start = time.monotonic()
        busy, total = cores_busy()
        go.set()
        if window:
            time.sleep(window)
            stop.set()
            end = time.monotonic()
            busy_after, total_after = cores_busy()
        ends = [finished.get(timeout=600) for _ in procs]
        if not window:
            end = max(at for at, *_ in ends)
            busy_after, total_after = cores_busy()
        busy_share = (busy_after - busy) / (total_after - total) if total_after > total else 0.0
        for p in procs:
            p.join()
            assert p.exitcode == 0, f"a writer failed ({p.exitcode})"
        assert not (window and any(ran_out for *_, ran_out in ends)), \
            "a writer ran out of matches within the window: raise ENOUGH_PER_SECOND"
        check = open_store(url, extra)
        listed = len(check.find_matches(limit=None))
        check.close()
        assert listed == sum(map(len, shares)), f"{listed} of {sum(map(len, shares))} listed"
        actions = sum(count for _, _, count, _ in ends)
        return (actions / (end - start), sum(cpu for _, cpu, _, _ in ends) / actions,
                busy_share)
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
    parser.add_argument("--window", type=float, default=3.0,
                        help="seconds every writer records for (0: until the matches, "
                             "split between the writers, are all recorded)")
    parser.add_argument("--recorders", default=",".join(RECORDERS),
                        help="which of the recorders, by label, comma-separated")
    parser.add_argument("--url", default=os.environ.get("KIROKU_TEST_POSTGRES_URL", URL))
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    counts = [int(w) for w in args.writers.split(",")]
    threads = [1] if args.quick else [int(t) for t in args.threads.split(",")]
    chosen = {label: RECORDERS[label] for label in args.recorders.split(",")}
    plays = scripts("worldgainer", 4 if args.quick else args.matches, seed=5)
    print(f"{len(plays)} World Gainer matches, {sum(len(p[4]) for p in plays)} actions")
    with tempfile.TemporaryDirectory() as keys:
        os.environ["KIROKU_KEY_FILE"] = str(Path(keys) / "bench.keys")
        rates: dict[tuple[int, str, int], list[float]] = {}
        cpus: dict[tuple[int, str, int], list[float]] = {}
        busy: dict[tuple[int, str, int], list[float]] = {}
        for _ in range(repeats):
            for each in threads:
                for label, extra in chosen.items():
                    for writers in counts:
                        rate, cpu, share = one_run(args.url, extra, plays, writers, each,
                                                   0.5 if args.quick else args.window)
                        busy.setdefault((each, label, writers), []).append(share)
                        rates.setdefault((each, label, writers), []).append(rate)
                        cpus.setdefault((each, label, writers), []).append(cpu)
    for each in threads:
        for label in chosen:
            one = statistics.median(rates[(each, label, counts[0])])
            for writers in counts:
                runs = rates[(each, label, writers)]
                rate = statistics.median(runs)
                print(f"{label}, {writers} writer(s) of {each} thread(s): {rate:.0f} actions/s, "
                      f"x{rate / one:.2f} of {counts[0]}, writers' CPU "
                      f"{statistics.median(cpus[(each, label, writers)]) * 1e6:.0f} us per "
                      f"action, cores {statistics.median(busy[(each, label, writers)]):.0%} "
                      f"busy (runs {', '.join(f'{r:.0f}' for r in runs)})")
    if 1 in counts and 2 in counts and "kiroku" in chosen:
        for each in threads:
            two = (statistics.median(rates[(each, "kiroku", 2)])
                   / statistics.median(rates[(each, "kiroku", 1)]))
            print(f"target: 2 writers >= x1.6 of one ({each} thread(s) each): x{two:.2f}, "
                  f"{'met' if two >= 1.6 else 'NOT MET'}")


if __name__ == "__main__":
    main()
