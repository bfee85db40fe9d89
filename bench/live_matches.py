"""Issue 43's "no cliff": CPU per recorded action and memory by the number of live matches.

    python bench/live_matches.py [--quick] [--counts 10,256,257,1000,2000] [--rounds 6]
                                 [--repeats 3] [--baseline TREE]

N matches are live at once in one process, recorded round robin through ``Kiroku.record`` as
the server calls it: one action of each match in turn, as an event's tables send them. Every
match replays a known legal World Gainer playout (``bench/scale.py``'s ``scripts``: the same
seed, decks and actions record the same match again). The first round is left out (it only
brings each match in); the next ``--rounds`` rounds are measured, and with fewer matches than
``--at-least`` actions, batch after batch of N new matches until that many are. Measured: the
process's CPU time (user + system, ``getrusage``; the user share printed too) per action, and
its resident memory (VmRSS) before the matches were created and after the rounds. Each count
runs in a fresh process on an SQLite file of its own, for each tree in turn (this one and
``--baseline``), runs alternating; medians of ``--repeats``. Printed per count: CPU per
action, its ratio to the smallest count's (the target: 1,000 live matches at most x1.2 of 10),
RSS, RSS added per live match (the cache's cost among it), and the objects the garbage
collector tracks at the end with the CPU time of one full collection (which every request waits
for, and which walks the cached matches too).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent


def rss_mib() -> float:
    """This process's resident memory (VmRSS), MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def child(tree: Path, plays_file: Path, count: int, rounds: int, at_least: int,
          db: Path) -> dict[str, float]:
    """One measurement, in this process, with ``tree``'s Kiroku: ``count`` live matches, in
    batches of ``count`` one after the other until ``at_least`` actions are measured."""
    sys.path.insert(0, str(tree))  # the tree measured, imported from it alone
    from ledger.catalog import sample_card_set
    from replay.service import Kiroku

    plays = json.loads(plays_file.read_text())
    kiroku = Kiroku.open(f"sqlite:///{db}")
    cards = dict(sample_card_set("worldgainer").cards)
    before = rss_mib()
    user = system = wall = 0.0
    done = 0
    while done < at_least:
        live = []
        for i in range(count):
            decks, seed, actions = plays[(done + i) % len(plays)]
            match_id = kiroku.recorder.create_match("worldgainer", ["P1", "P2"], decks, cards,
                                                    None, seed=bytes.fromhex(seed))
            live.append((match_id, actions))
        for match_id, actions in live:  # the first round, left out
            kiroku.record(match_id, actions[0], recorded_by="bench")
        began, clock = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        for step in range(1, rounds + 1):
            for match_id, actions in live:
                kiroku.record(match_id, actions[step], recorded_by="bench")
        ended = resource.getrusage(resource.RUSAGE_SELF)
        wall += time.perf_counter() - clock
        user += ended.ru_utime - began.ru_utime
        system += ended.ru_stime - began.ru_stime
        done += count * rounds
    after = rss_mib()
    tracked, clock = len(gc.get_objects()), time.process_time()
    gc.collect()  # a full collection: every request waits while it walks the cache too
    full_gc = time.process_time() - clock
    kiroku.close()
    return {"cpu_us": (user + system) / done * 1e6, "user_us": user / done * 1e6,
            "wall_us": wall / done * 1e6, "rss_before": before, "rss_after": after,
            "batches": done / (count * rounds), "tracked": tracked, "full_gc_ms": full_gc * 1e3}


def measure(tree: Path, plays_file: Path, count: int, rounds: int, at_least: int,
            folder: Path) -> dict[str, float]:
    """One measurement in a fresh process (``child``)."""
    db = folder / f"live-{os.getpid()}-{time.monotonic_ns()}.db"
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                          str(tree), str(plays_file), str(count), str(rounds), str(at_least),
                          str(db)],
                         cwd=tree, capture_output=True, text=True, check=False,
                         env={**os.environ, "PYTHONPATH": str(tree)})
    if out.returncode != 0:
        raise RuntimeError(f"measuring {count} live matches failed:\n{out.stderr}")
    for suffix in ("", "-wal", "-shm", "-open-lock"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def playouts(count: int, rounds: int) -> list[tuple[list[Any], str, list[Any]]]:
    """``count`` legal World Gainer playouts of more than ``rounds`` actions, as (decks,
    seed in hex, actions)."""
    # imported here, not at the top: a measuring child imports its own tree's Kiroku only
    from scale import scripts

    found: list[tuple[list[Any], str, list[Any]]] = []
    seed = 3
    while len(found) < count:
        for _, decks, _options, match_seed, actions in scripts("worldgainer", count, seed):
            if len(actions) > rounds:
                found.append((decks, match_seed.hex(), actions))
        seed += 1
    return found[:count]


def report(trees: list[tuple[str, Path]], counts: list[int],
           results: dict[tuple[str, int], list[dict[str, float]]]) -> None:
    """Print each tree's medians, and the ratios to the smallest count and between trees."""
    for name, _ in trees:
        print(f"\n{name}:")
        print("| live matches | CPU us/action (runs) | x smallest | of it user us "
              "| wall us/action | RSS MiB | RSS added per match KiB | objects tracked "
              "| full gc ms |")
        print("|---|---|---|---|---|---|---|---|---|")
        first = None
        for count in counts:
            runs = results[(name, count)]
            cpu = statistics.median(r["cpu_us"] for r in runs)
            wall = statistics.median(r["wall_us"] for r in runs)
            user = statistics.median(r["user_us"] for r in runs)
            rss = statistics.median(r["rss_after"] for r in runs)
            added = statistics.median((r["rss_after"] - r["rss_before"]) * 1024 / count
                                      for r in runs)
            tracked = statistics.median(r.get("tracked", 0) for r in runs)
            full_gc = statistics.median(r.get("full_gc_ms", 0) for r in runs)
            first = first or cpu
            each = ", ".join(f"{r['cpu_us']:.0f}" for r in runs)
            print(f"| {count:,} | {cpu:.0f} ({each}) "
                  f"| x{cpu / first:.2f} | {user:.0f} | {wall:.0f} | {rss:.0f} | {added:.1f} "
                  f"| {tracked:,.0f} | {full_gc:.0f} |")
    if len(trees) == 2:
        (a, _), (b, _) = trees
        ratios = []
        for count in counts:
            ours = statistics.median(r["cpu_us"] for r in results[(a, count)])
            theirs = statistics.median(r["cpu_us"] for r in results[(b, count)])
            ratios.append(f"{count:,}: x{ours / theirs:.2f}")
        print(f"\nCPU per action, {a} / {b}: {', '.join(ratios)}")


def main() -> None:
    """Parse the arguments, measure, print."""
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        given = sys.argv[2:8]
        print(json.dumps(child(Path(given[0]), Path(given[1]), int(given[2]), int(given[3]),
                               int(given[4]), Path(given[5]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--counts", default="10,256,257,1000,2000")
    parser.add_argument("--rounds", type=int, default=6, help="rounds measured")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--at-least", type=int, default=1200,
                        help="actions measured at the least (fewer live matches: in batches)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another Kiroku tree, measured beside this one")
    args = parser.parse_args()
    if args.quick:
        args.counts, args.rounds, args.repeats, args.at_least = "10,300", 2, 1, 200
    counts = [int(c) for c in args.counts.split(",")]
    trees = [("this tree", BENCH.parent)]
    if args.baseline is not None:
        trees.append((f"baseline {args.baseline}", args.baseline.resolve()))
    began = time.perf_counter()
    print(f"Live matches recorded round robin (python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores): {args.rounds} rounds measured after one, medians of "
          f"{args.repeats}; load average {os.getloadavg()[0]:.1f} at the start")
    results: dict[tuple[str, int], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        plays_file = folder / "plays.json"
        plays_file.write_text(json.dumps(playouts(4 if args.quick else 16, args.rounds + 1)))
        for _ in range(args.repeats):
            for count in counts:
                for name, tree in trees:
                    run = measure(tree, plays_file, count, args.rounds, args.at_least, folder)
                    results.setdefault((name, count), []).append(run)
                    print(f"  {count:,} live, {name}: {run['cpu_us']:.0f} us CPU an action, "
                          f"RSS {run['rss_after']:.0f} MiB", flush=True)
    report(trees, counts, results)
    print(f"({time.perf_counter() - began:.0f} s in all)")


if __name__ == "__main__":
    main()
