"""Issue 16's figures, side by side in one run: recording against eventsourcing's own save(),
time travel on a long match, stored bytes per action by match length.

    python bench/scale.py [--quick] [--threads 1,4] [--repeats 5]

- ``eventsourcing save()``: the library alone on the same SQLite settings, one trivial event
  per ``save()`` (the store's own speed, the yardstick of the ratios);
- ``recorded``: known playouts (random legal World Gainer and Illuminati matches, scripted
  first) recorded again through ``Kiroku.record``, by 1 and by 4 threads on as many matches,
  each thread in turn with the yardstick so machine noise hits both; with each, the process's
  CPU time per action and the ceiling it sets: one process (one core at a time for Python)
  records at most one action per CPU-time-per-action, printed as a ratio to ``save()``;
- time travel: ``Kiroku.view`` as a judge at distinct random positions of a 2,000-action
  match, with the kept past positions forgotten before each (cold: every position rebuilt
  from storage), then the same positions again (warm), medians and p99;
- bytes per action stored (events and snapshots, SQLite ``LENGTH(state)``) after 500, 1,000
  and 2,000 actions of that match: linear growth keeps the figure flat.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import long_match, stored_bytes  # noqa: E402
from engine import JUDGE  # noqa: E402
from ledger.catalog import sample_card_set  # noqa: E402
from ledger.settings import persistence_env  # noqa: E402
from ledger.writegate import TOPIC as GATED_SQLITE  # noqa: E402
from replay.service import Kiroku  # noqa: E402

Script = tuple[str, list[dict[str, int]], dict[str, Any] | None, bytes, list[dict[str, Any]]]
GAMES = {"worldgainer": (2, None), "illuminati": (4, {"turn_limit": 8})}


class Counter(Aggregate):
    """The yardstick's aggregate: one trivial event per call."""

    @event("Counted")
    def count(self) -> None:
        """Nothing to keep."""


def library_env(url: str) -> dict[str, str]:
    """eventsourcing's settings for ``url`` with the library's own parts: its recorder (one
    commit per save) and, on SQLite, its factory (no write gate)."""
    env = persistence_env(url)
    env.pop("APPLICATION_RECORDER_TOPIC", None)
    if env["PERSISTENCE_MODULE"] == GATED_SQLITE:
        env["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
    return env


def es_rate(url: str, events: int) -> float:
    """Events per second of eventsourcing's own ``save()``, one trivial event per call."""
    env = library_env(url)
    app: Application[UUID] = Application(env=env)
    counter = Counter()
    app.save(counter)
    start = time.perf_counter()
    for _ in range(events):
        counter.count()
        app.save(counter)
    rate = events / (time.perf_counter() - start)
    app.close()
    return rate


def scripts(game: str, count: int, seed: int) -> list[Script]:
    """``count`` random legal playouts as (game, decks, options, match seed, actions)."""
    players, options = GAMES[game]
    kiroku = Kiroku.open("sqlite:///:memory:")
    out: list[Script] = []
    for i, match_id in enumerate(kiroku.simulate(game, count, seed=seed, players=players,
                                                 options=options)):
        match_seed = hashlib.sha256(f"kiroku-simulate:{game}:{seed}:{i}".encode()).digest()
        records = kiroku.records(kiroku.seen_by(match_id))
        decks = list(records[0]["config"]["decks"])
        actions = [r["action"] for r in records if r["event"] == "ActionRecorded"]
        out.append((game, decks, options, match_seed, actions))
    kiroku.close()
    return out


def record_rate(url: str, plays: list[Script], threads: int) -> tuple[float, float]:
    """Actions per second recording ``plays`` again, ``threads`` matches at a time, and the
    process's CPU seconds per action meanwhile (every thread's, the commits' system time
    among them)."""
    kiroku = Kiroku.open(url)
    created = []
    for game, decks, options, seed, _ in plays:
        cards = dict(sample_card_set(game).cards)
        created.append(kiroku.recorder.create_match(
            game, [f"P{s + 1}" for s in range(len(decks))], decks, cards, options, seed=seed))
    work = list(zip(created, (p[4] for p in plays), strict=True))
    lanes = [work[i::threads] for i in range(threads)]

    def run(lane: list[tuple[UUID, list[dict[str, Any]]]]) -> None:
        for match_id, actions in lane:
            for action in actions:
                kiroku.record(match_id, action, recorded_by="bench")

    total = sum(len(p[4]) for p in plays)
    start, cpu = time.perf_counter(), time.process_time()
    workers = [threading.Thread(target=run, args=(lane,)) for lane in lanes]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    rate = total / (time.perf_counter() - start)
    cpu_per_action = (time.process_time() - cpu) / total
    kiroku.close()
    return rate, cpu_per_action


def side_by_side(folder: Path, plays: list[Script], threads: int, repeats: int,
                 label: str) -> None:
    """Print the recording rate and eventsourcing's, runs alternating."""
    ours, theirs, cpus = [], [], []
    for i in range(repeats):
        theirs.append(es_rate(f"sqlite:///{folder}/es-{label}-{threads}-{i}.db", 600))
        rate, cpu = record_rate(f"sqlite:///{folder}/k-{label}-{threads}-{i}.db", plays,
                                threads)
        ours.append(rate)
        cpus.append(cpu)
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"{label}, {threads} thread(s): {a:.0f} actions/s vs eventsourcing save() "
          f"{b:.0f}/s = x{a / b:.2f} (runs {', '.join(f'{x:.0f}' for x in ours)} / "
          f"{', '.join(f'{x:.0f}' for x in theirs)})")
    # One process runs Python on one core at a time (the GIL), so it records at most one
    # action per CPU-time-per-action (its commits' system time included): that ceiling, as a
    # ratio to save(), however many threads wait on the disk meanwhile
    cpu = statistics.median(cpus)
    print(f"  CPU {cpu * 1e6:.0f} us per action (runs "
          f"{', '.join(f'{x * 1e6:.0f}' for x in cpus)}); save() takes {1e6 / b:.0f} us a "
          f"call: at this CPU per action one process records at most x{1 / (cpu * b):.2f} "
          "of save()")


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def time_travel(url: str, match_id: Any, samples: int) -> None:
    """Cold then warm ``view`` at random positions, medians and p99."""
    kiroku = Kiroku.open(url)
    positions = kiroku.summary(kiroku.seen_by(match_id))["positions"]
    picks = random.Random(7).sample(range(positions + 1), min(samples, positions + 1))
    for name in ("cold", "warm"):
        if name == "warm":  # every position kept (the cold pass forgot each before the next)
            for n in picks:
                kiroku.view(kiroku.seen_by(match_id, JUDGE), n)
        times = []
        for n in picks:
            if name == "cold":  # no kept position to start from: rebuilt from storage
                kiroku.recorder.forget_positions()
            start = time.perf_counter()
            kiroku.view(kiroku.seen_by(match_id, JUDGE), n)
            times.append((time.perf_counter() - start) * 1000)
        print(f"time travel, {positions}-action match, {name}: median "
              f"{statistics.median(times):.2f} ms, p99 {percentile(times, 99):.2f} ms, "
              f"max {max(times):.2f} ms ({samples} positions)")
    kiroku.close()


def growth(folder: Path, total: int) -> Any:
    """Record the long match in steps, printing bytes per action at each."""
    match_id = None
    for length in (total // 4, total // 2, total):
        sub = folder / f"grow{length}"
        sub.mkdir()
        match_id, _ = long_match(sub, length)
        events, snaps, actions = stored_bytes(sub / "long.db")
        print(f"stored, {length}-action match: {events / actions:.0f} B events + "
              f"{snaps / actions:.0f} B snapshots = {(events + snaps) / actions:.0f} B/action")
    return match_id, sub


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--threads", default="1,4")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for game in GAMES:
            plays = scripts(game, 4 if args.quick else 8, seed=3)
            for threads in (int(t) for t in args.threads.split(",")):
                side_by_side(folder, plays, threads, repeats, game)
        match_id, sub = growth(folder, 400 if args.quick else 2000)
        time_travel(f"sqlite:///{sub}/long.db", match_id, 40 if args.quick else 300)


if __name__ == "__main__":
    main()
