"""Issue 43: the CPU of one poll of the event page's reads in one process, through the service
as the server calls it (no HTTP), on an event bench/tournament_pages.py built.

    python bench/event_poll.py [--quick] [--store FILE] [--polls 5] [--repeats 3]
                               [--baseline TREE]

A poll reads what ``replay/web/event.js`` fetches every 5 s: the tournament, the current
round's view, the standings and the players (``replay.tournaments``' ``read``,
``round_view``, ``standings_of`` and ``players``). Each tree (this one and ``--baseline``)
runs in a fresh process of its own on its own copy of the store: one poll first (cold: the
caches empty), then ``--polls`` polls (warm), each read's CPU time (user + system,
``getrusage``) summed over them; runs alternate between the trees, medians of ``--repeats``.
``--store`` is an ``event.db`` that bench/tournament_pages.py kept (its key file beside it),
built by the baseline's tree when there is one (a newer tree reads an older store); without
it, a small event (16 players, 2 rounds) is built here first, by the baseline's tree if any.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
READS = ("tournament", "round", "standings", "players")


def cpu() -> float:
    """This process's CPU seconds so far, user + system."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def child(tree: Path, db: Path, polls: int) -> dict[str, Any]:
    """One measurement in this process with ``tree``'s Kiroku on the store ``db``."""
    sys.path.insert(0, str(tree))  # the tree measured, imported from it alone
    from replay import tournaments as events
    from replay.service import Kiroku

    began = cpu()
    kiroku = Kiroku.open(f"sqlite:///{db}")
    opened = cpu() - began
    tournament_id = next(iter(kiroku.tournaments.all_ids()))

    def poll() -> dict[str, float]:
        spent = {}
        for name in READS:
            start = cpu()
            if name == "tournament":
                rounds = events.read(kiroku, tournament_id)["rounds"]
            elif name == "round":
                events.round_view(kiroku, tournament_id, rounds)
            elif name == "standings":
                events.standings_of(kiroku, tournament_id)
            else:
                events.players(kiroku, tournament_id)
            spent[name] = (cpu() - start) * 1e3
        return spent

    cold = poll()
    warm = {name: 0.0 for name in READS}
    for _ in range(polls):
        for name, ms in poll().items():
            warm[name] += ms / polls
    kiroku.close()
    return {"opened_ms": opened * 1e3, "cold": cold, "warm": warm}


def measure(tree: Path, store: Path, polls: int, folder: Path) -> dict[str, Any]:
    """One measurement in a fresh process (``child``) on a fresh copy of ``store``."""
    work = folder / f"poll-{time.monotonic_ns()}"
    work.mkdir()
    db = work / "event.db"
    for suffix in ("", "-wal", ".keys"):
        kept = store.with_name(store.name + suffix)
        if kept.exists():
            shutil.copyfile(kept, db.with_name(db.name + suffix))
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(tree),
                          str(db), str(polls)], cwd=tree, capture_output=True, text=True,
                         check=False, env={**os.environ, "PYTHONPATH": str(tree)})
    shutil.rmtree(work, ignore_errors=True)
    if out.returncode != 0:
        raise RuntimeError(f"measuring {tree} failed:\n{out.stderr}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def small_event(folder: Path, tree: Path) -> Path:
    """A 16-player, 2-round event built by ``tree``'s bench/tournament_pages.py (the oldest
    tree measured: a newer one reads what an older one stored, not always the reverse)."""
    out = folder / "small"
    out.mkdir()
    subprocess.run([sys.executable, "-c",
                    "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[2]); "
                    "import tournament_pages as t; t.built_event(Path(sys.argv[1]), 16, 2, "
                    "cached=False, rebuild=True)", str(out), str(tree / "bench")],
                   cwd=tree, check=True, capture_output=True,
                   env={**os.environ, "PYTHONPATH": str(tree)})
    return next(out.rglob("event.db"))


def main() -> None:
    """Parse the arguments, measure, print."""
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child(Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--polls", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another Kiroku tree, measured beside this one")
    args = parser.parse_args()
    if args.quick:
        args.polls, args.repeats = 2, 1
    trees = [("this tree", BENCH.parent)]
    if args.baseline is not None:
        trees.append((f"baseline {args.baseline}", args.baseline.resolve()))
    print(f"One poll of the event page's reads in one process (python "
          f"{sys.version.split()[0]}, {os.cpu_count()} cores): CPU ms, cold then the mean of "
          f"{args.polls} warm polls, medians of {args.repeats}; load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    results: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store.resolve() if args.store else small_event(Path(tmp), trees[-1][1])
        print(f"store: {store}")
        for _ in range(args.repeats):
            for name, tree in trees:
                results[name].append(measure(tree, store, args.polls, Path(tmp)))
    print("| tree | read | cold CPU ms | warm CPU ms |")
    print("|---|---|---|---|")
    totals = {}
    for name, runs in results.items():
        for read in (*READS, "poll"):
            def of(run: dict[str, Any], when: str, read: str = read) -> float:
                return float(sum(run[when].values()) if read == "poll" else run[when][read])
            cold = statistics.median(of(r, "cold") for r in runs)
            warm = statistics.median(of(r, "warm") for r in runs)
            totals[name] = (cold, warm)
            print(f"| {name} | {read} | {cold:.1f} | {warm:.1f} |")
    if len(trees) == 2:
        (a, _), (b, _) = trees
        print(f"\nOne poll, {a} / {b}: cold x{totals[a][0] / totals[b][0]:.2f}, "
              f"warm x{totals[a][1] / totals[b][1]:.2f}")


if __name__ == "__main__":
    main()
