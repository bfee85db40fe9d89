"""Issue 43's past positions in one process: what a judge's view of a position that is not the
latest costs the service (``Kiroku.view``), without HTTP, read three ways, side by side with
another tree.

    python bench/past_positions.py [--quick] [--matches 40] [--repeats 3] [--baseline TREE]

The store is one SQLite file of ``--matches`` random World Gainer playouts (``Kiroku.simulate``,
seed 1) for each tree, recorded by that tree's code (an older tree cannot read what a newer
one stores: compact rows, issue 43) and copied for each run: the same playouts, the same
positions, under other match ids. Each run is a fresh process
of one tree (``--child``), the trees in turn, and reads, as a judge, with the collector off (a
full collection of 100-490 ms otherwise decides the figures of a process without the server's
pacing):

- ``at random``: positions drawn at random from every match's, nothing kept first (3,000, or
  300 with ``--quick``), as ``bench/http_load.py``'s GET phase asks for them;
- ``forward``: each of the first 20 matches' positions from its first to its last, as a viewer
  steps through a replay;
- ``back``: the same from the last to the first, as a viewer steps back.

Each reading starts with nothing kept (``Recorder.forget_positions``). Printed: the median over
``--repeats`` of each run's mean microseconds a position (CPU time of the process), and the
ratio of this tree to the baseline. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

from trees import tree_name

from replay.service import Kiroku  # a run's tree's own: its folder is first on PYTHONPATH

BENCH = Path(__file__).resolve().parent
READINGS = ("at random", "forward", "back")
STEPPED_MATCHES = 20


def prepare(tree: Path, db: Path, matches: int) -> None:
    """Record the store with ``tree``'s code (a child process, so the tree's own modules)."""
    script = ("import sys; sys.path.insert(0, sys.argv[1]); from replay.service import Kiroku; "
              "k = Kiroku.open('sqlite:///' + sys.argv[2]); "
              "k.simulate('worldgainer', int(sys.argv[3]), seed=1); k.close()")
    subprocess.run([sys.executable, "-c", script, str(tree), str(db), str(matches)],
                   check=True)


def child(db: Path, samples: int) -> dict[str, float]:
    """In a fresh process of the tree on ``sys.path``: the mean CPU µs a position of each
    reading."""
    kiroku = Kiroku.open(f"sqlite:///{db}")
    ids = kiroku.recorder.match_ids("")
    counts = {m: kiroku.summary(kiroku.seen_by(m))["positions"] for m in ids}
    rng = random.Random(7)
    randomly = [(m, rng.randint(0, counts[m])) for m in rng.choices(ids, k=samples)]
    stepped = sorted(ids)[:STEPPED_MATCHES]
    forward = [(m, n) for m in stepped for n in range(counts[m] + 1)]
    readings = {"at random": randomly, "forward": forward, "back": forward[::-1]}

    def timed(positions: list[tuple[UUID, int]]) -> float:
        kiroku.recorder.forget_positions()
        start = time.process_time()
        for match_id, position in positions:
            view = kiroku.view(kiroku.seen_by(match_id), position)
            if view["position"] != position:
                raise RuntimeError(f"asked for {position}, got {view['position']}")
        return (time.process_time() - start) / len(positions) * 1e6

    gc.disable()
    return {name: timed(positions) for name, positions in readings.items()}


def run_child(tree: Path, db: Path, samples: int) -> dict[str, float]:
    """One run of ``tree`` on ``db``, in a process of its own."""
    out = subprocess.run([sys.executable, __file__, "--child", str(db), "--samples",
                          str(samples)], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def measure(trees: list[Path], matches: int, samples: int, repeats: int,
            progress: Callable[[str], None]) -> list[list[dict[str, float]]]:
    """Every tree's runs, the trees in turn each repeat, each on its own copy of the store
    it recorded."""
    runs: list[list[dict[str, float]]] = [[] for _ in trees]
    with tempfile.TemporaryDirectory() as tmp:
        stores = [Path(tmp) / f"store-{n}.db" for n in range(len(trees))]
        for tree, store in zip(trees, stores):
            prepare(tree, store, matches)
        for repeat in range(repeats):
            for n, tree in enumerate(trees):
                copy = Path(tmp) / f"run-{repeat}-{n}.db"
                shutil.copy(stores[n], copy)
                runs[n].append(run_child(tree, copy, samples))
                progress(".")
    return runs


def main() -> None:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another Kiroku tree, measured beside this one")
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--samples", type=int, default=3000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child, args.samples)))
        return
    if args.quick:
        args.matches, args.repeats, args.samples = 4, 1, 300
    trees = [BENCH.parent] + ([args.baseline.resolve()] if args.baseline else [])
    names = [tree_name(BENCH.parent, "this tree")] + (
        [tree_name(trees[1], "baseline")] if args.baseline else [])
    print(f"Kiroku, past positions in one process (python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}): {args.matches} "
          f"World Gainer matches, medians of {args.repeats} run(s) a tree, CPU µs a position")
    runs = measure(trees, args.matches, args.samples, args.repeats,
                   lambda dot: print(dot, end="", flush=True))
    print()
    medians = [{r: statistics.median(run[r] for run in tree_runs) for r in READINGS}
               for tree_runs in runs]
    print(f"{'tree':<28}" + "".join(f"{r:>12}" for r in READINGS))
    for name, tree_runs, median in zip(names, runs, medians):
        print(f"{name:<28}" + "".join(f"{median[r]:>12.0f}" for r in READINGS)
              + "   runs: " + "; ".join(", ".join(f"{run[r]:.0f}" for run in tree_runs)
                                        for r in READINGS))
    if len(medians) == 2:
        print("this tree / baseline: " + ", ".join(
            f"{r} x{medians[0][r] / medians[1][r]:.2f}" for r in READINGS))


if __name__ == "__main__":
    main()
