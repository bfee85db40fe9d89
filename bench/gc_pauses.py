"""Issue 16's tail latency: how long the garbage collector's full collections stop a Kiroku
server, in one process:

    python bench/gc_pauses.py [--quick] [--matches 40]

A full collection (Python's generation 2) walks every object the collector tracks and holds
the interpreter while it does, so every request waits for it. What it walks, step by step:

- ``started``: the application built as ``kiroku serve`` builds it (``create_app`` over a
  new SQLite store), before and after ``serving`` freezes what was made so far;
- ``after N World Gainer / Illuminati matches``: each match recorded by the simulator and ten
  of its positions viewed as a judge, as a server keeps them (the library's aggregate cache,
  the recorder's kept past positions, creations and seeds, the engine's caches of listed
  actions); printed per match.

Each line gives the objects the collector tracks and the median time of five full
collections (``gc.collect()``). Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import JUDGE  # noqa: E402
from replay.api import create_app, serving  # noqa: E402
from replay.service import Kiroku  # noqa: E402


def full_collection_ms() -> float:
    """The median time of five full collections, in milliseconds."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        gc.collect()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def line(label: str, base: int | None = None, per: int = 0) -> int:
    """Print what a full collection walks now; the count of tracked objects."""
    ms = full_collection_ms()
    tracked = len(gc.get_objects())
    more = "" if base is None or not per else f", {(tracked - base) / per:.0f} per match"
    print(f"{label}: {tracked:,} tracked objects{more}, full collection {ms:.1f} ms")
    return tracked


def play(kiroku: Kiroku, game: str, count: int, players: int) -> None:
    """Record ``count`` simulated matches and view ten positions of each as a judge."""
    for match_id in kiroku.simulate(game, count, seed=11, players=players):
        positions = kiroku.summary(kiroku.seen_by(match_id))["positions"]
        for n in range(0, positions, max(1, positions // 10)):
            kiroku.view(kiroku.seen_by(match_id, JUDGE), n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--matches", type=int, default=40, help="World Gainer matches (a "
                        "quarter as many Illuminati matches of four players)")
    args = parser.parse_args()
    matches = 4 if args.quick else args.matches
    with tempfile.TemporaryDirectory() as tmp:
        kiroku = Kiroku.open(f"sqlite:///{tmp}/kiroku.db")
        app = create_app(kiroku)
        line("started, before serving()")
        serving(app)
        base = line("started, after serving() froze it")
        play(kiroku, "worldgainer", matches, 2)
        after = line(f"after {matches} World Gainer matches", base, matches)
        quarter = max(1, matches // 4)
        play(kiroku, "illuminati", quarter, 4)
        line(f"after {quarter} Illuminati matches more", after, quarter)
        kiroku.close()


if __name__ == "__main__":
    main()
