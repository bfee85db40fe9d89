"""Issue 43's write-gate cost: the CPU a pass of an SQLite file's write gate takes when two
processes write to the file at once, as ``kiroku serve``'s two default workers do.

    python bench/gate_passes.py [--quick] [--passes 4000] [--repeats 5] [--baseline TREE]

Two processes (forked from one that imported the tree's ``ledger.writegate``) pass the gate
of one file ``--passes`` times each, as fast as they can: inside the gate a fixed piece of
work about as long as a commit of a few saves (a sum over 3,000 numbers), and as much again
outside it (the rest of a request), so that each often finds the other holding the file and
waits for it as a server's write does (``WriteGate._take_file``: the file's ``flock`` taken by
a thread that waits in the kernel, the writer waiting for that thread with a timeout).

Printed: the CPU time of both processes over their passes (user and system, from the
kernel's account), per pass, median of ``--repeats`` runs, with each run's figure; the same
work with no gate at all (each process alone on its own file, nothing contended) beside it,
what the passes would cost if the gate cost nothing. With ``--baseline TREE`` (another
checkout, e.g. ``/tmp/before``) its gate is measured in the same way, the trees' runs
alternating, and the ratio of the medians printed. Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from trees import measured_in, tree_name

ROOT = Path(__file__).resolve().parent.parent
# ``KIROKU_TREE``: whose code this process measures (--baseline runs it with another tree)
TREE = Path(os.environ.get("KIROKU_TREE") or ROOT)
sys.path.insert(0, str(TREE))

from ledger.writegate import gate_for  # noqa: E402

FORK = multiprocessing.get_context("fork")
WORK = 3000  # numbers summed inside the gate, and again outside it


def _passes(db: str, passes: int, gated: bool, start: Any, out: Any) -> None:
    """In a forked process: ``passes`` passes of ``db``'s gate (or the work alone), then the
    process's CPU seconds for them."""
    gate = gate_for(db)
    start.wait()
    begun = time.process_time()
    for _ in range(passes):
        if gated:
            with gate.held(10):
                sum(range(WORK))
        else:
            sum(range(WORK))
        sum(range(WORK))
    out.put(time.process_time() - begun)


def one_run(folder: Path, passes: int, gated: bool) -> float:
    """CPU microseconds a pass, two processes on one file (``gated``) or each alone."""
    start, out = FORK.Event(), FORK.Queue()
    files = [folder / "one.db"] * 2 if gated else [folder / "a.db", folder / "b.db"]
    workers = [FORK.Process(target=_passes, args=(str(db), passes, gated, start, out))
               for db in files]
    for worker in workers:
        worker.start()
    time.sleep(0.3)  # both ready before either begins
    start.set()
    spent = [out.get(timeout=600) for _ in workers]
    for worker in workers:
        worker.join(60)
    return sum(spent) / (len(workers) * passes) * 1e6


def measure(passes: int, repeats: int) -> dict[str, list[float]]:
    """Runs of the gate contended and of the work alone, alternating, in this tree."""
    found: dict[str, list[float]] = {"gate": [], "alone": []}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(repeats):
            for kind in ("gate", "alone"):
                folder = Path(tmp) / f"{kind}-{n}"
                folder.mkdir()
                found[kind].append(one_run(folder, passes, kind == "gate"))
    return found


def in_tree(tree: Path, passes: int) -> dict[str, list[float]]:
    """One repeat of ``measure`` in a process running ``tree``'s code."""
    return measured_in(tree, __file__, "--passes", str(passes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--passes", type=int, default=4000, help="passes a process")
    parser.add_argument("--repeats", type=int, default=5, help="runs a tree")
    parser.add_argument("--baseline", type=Path, default=None, help="another tree to compare")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.passes, args.repeats = 300, 1
    if args.worker:
        print(json.dumps(measure(args.passes, 1)))
        return
    trees = [(tree_name(ROOT, "this tree"), ROOT)]
    if args.baseline is not None:
        trees.append((tree_name(args.baseline, "baseline"), args.baseline.resolve()))
    runs: dict[str, dict[str, list[float]]] = {name: {"gate": [], "alone": []}
                                               for name, _ in trees}
    for n in range(args.repeats):
        for name, tree in (trees if n % 2 == 0 else trees[::-1]):
            for kind, values in in_tree(tree, args.passes).items():
                runs[name][kind].extend(values)
    print(f"write gate, two processes on one file, {args.passes} passes each, "
          f"{args.repeats} run(s) a tree; CPU microseconds a pass (both processes)")
    for name, _ in trees:
        gate, alone = runs[name]["gate"], runs[name]["alone"]
        print(f"{name}: through the gate {statistics.median(gate):.1f} (runs "
              f"{', '.join(f'{v:.1f}' for v in gate)}); the work alone "
              f"{statistics.median(alone):.1f}; the gate's own "
              f"{statistics.median(gate) - statistics.median(alone):.1f}")
    if args.baseline is not None:
        (this, _), (base, _) = trees
        ratio = statistics.median(runs[this]["gate"]) / statistics.median(runs[base]["gate"])
        print(f"this tree / baseline, a pass through the gate: x{ratio:.2f}")


if __name__ == "__main__":
    main()
