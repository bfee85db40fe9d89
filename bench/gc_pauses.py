"""Issue 16's tail latency, and issue 43's pacing of it: how long the garbage collector's full
collections stop a Kiroku server as it fills up, in one process:

    python bench/gc_pauses.py [--quick] [--matches 40] [--baseline TREE]

A full collection (Python's generation 2) holds the interpreter while it runs, so every
request of the process waits for it. Step by step:

- ``started, before serving()``: the application built as ``kiroku serve`` builds it
  (``create_app`` over a new SQLite store), with the collector as Python leaves it: a full
  collection walks every object it tracks (the median of three);
- ``started, after serving()``: ``serving`` has frozen what start-up made and paces the
  collector (``replay.api.collector``: after each full collection its survivors are frozen);
- ``after N World Gainer / Illuminati matches``: each match recorded by the simulator and ten
  of its positions viewed as a judge, as a server keeps them (the library's aggregate cache,
  the recorder's kept past positions, creations and seeds, the engine's caches of listed
  actions).

After each step of the paced server: the objects frozen and those the collector still walks,
the pause of the first full collection (what became long-lived since the last one, walked and
frozen), and of a full collection with nothing new since (the median of five: what every full
collection costs whatever it finds, the pacing's own work included); and how many of the
paced collections so far walked everything again (the pacing's bound on what freezing may
leave unfreed, about each time the heap doubles). Each pause is
``gc.collect()``'s wall time, its callbacks included.

``--baseline TREE`` (another checkout, such as /tmp/before): the same steps in a process of
that tree's code too, the two trees one after the other, their lines side by side. Nothing
is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from trees import measured_in

# ``KIROKU_TREE``: whose code this process measures (--baseline runs it with another tree)
TREE = Path(os.environ.get("KIROKU_TREE") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(TREE))

from engine import JUDGE  # noqa: E402
from replay.api import collector, create_app, serving  # noqa: E402
from replay.service import Kiroku  # noqa: E402


def collection_ms() -> float:
    """The wall time of one full collection, callbacks included, in milliseconds."""
    start = time.perf_counter()
    gc.collect()
    return (time.perf_counter() - start) * 1000


def step(label: str) -> dict[str, Any]:
    """Where the paced collector stands after a step: frozen and walked objects, the first
    full collection's pause, and that of one finding nothing new (median of five)."""
    walked = len(gc.get_objects())
    first = collection_ms()
    idle = statistics.median(collection_ms() for _ in range(5))
    pacing = collector.pace()  # the one ``serving`` installed
    return {"label": label, "frozen": gc.get_freeze_count(), "walked": walked,
            "first_ms": first, "idle_ms": idle, "rewalks": pacing.walks_of_everything}


def play(kiroku: Kiroku, game: str, count: int, players: int) -> None:
    """Record ``count`` simulated matches and view ten positions of each as a judge."""
    for match_id in kiroku.simulate(game, count, seed=11, players=players):
        positions = kiroku.summary(kiroku.seen_by(match_id))["positions"]
        for n in range(0, positions, max(1, positions // 10)):
            kiroku.view(kiroku.seen_by(match_id, JUDGE), n)


def measure(matches: int) -> dict[str, Any]:
    """Every step, in this process's tree."""
    with tempfile.TemporaryDirectory() as tmp:
        kiroku = Kiroku.open(f"sqlite:///{tmp}/kiroku.db")
        app = create_app(kiroku)
        unpaced = {"walked": len(gc.get_objects()),
                   "ms": statistics.median(collection_ms() for _ in range(3))}
        serving(app)
        steps = [step("started, after serving()")]
        play(kiroku, "worldgainer", matches, 2)
        steps.append(step(f"after {matches} World Gainer matches"))
        quarter = max(1, matches // 4)
        play(kiroku, "illuminati", quarter, 4)
        steps.append(step(f"after {quarter} Illuminati matches more"))
        play(kiroku, "worldgainer", matches, 2)
        steps.append(step(f"after {matches} World Gainer matches more"))
        kiroku.close()
    return {"unpaced": unpaced, "steps": steps}


def in_tree(tree: Path, matches: int) -> dict[str, Any]:
    """``measure`` in a process running ``tree``'s code."""
    return measured_in(tree, __file__, "--matches", str(matches))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--matches", type=int, default=40, help="World Gainer matches a step "
                        "(a quarter as many Illuminati matches of four players)")
    parser.add_argument("--baseline", type=Path, default=None, help="another tree to compare")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    matches = 4 if args.quick else args.matches
    if args.worker:
        print(json.dumps(measure(matches)))
        return
    trees = [("this", TREE)] + ([("baseline", args.baseline.resolve())]
                                if args.baseline is not None else [])
    found = {label: in_tree(tree, matches) for label, tree in trees}
    print("full collections of a server process (gc.collect(), callbacks included)")
    for label, _ in trees:
        unpaced = found[label]["unpaced"]
        print(f"{label}: started, before serving(): {unpaced['walked']:,} objects walked, "
              f"full collection {unpaced['ms']:.1f} ms")
    for i, _ in enumerate(found["this"]["steps"]):
        for label, _ in trees:
            s = found[label]["steps"][i]
            print(f"{label}: {s['label']}: {s['frozen']:,} frozen, {s['walked']:,} walked; "
                  f"first full collection {s['first_ms']:.1f} ms, one finding nothing new "
                  f"{s['idle_ms']:.1f} ms; walks of everything so far {s['rewalks']}")


if __name__ == "__main__":
    main()
