"""Issue 43's command-line figure: how long a scorekeeper waits for ``kiroku --help``,
``kiroku match show``, ``kiroku match legal`` and ``kiroku match act`` on an SQLite store.

    python bench/cli_speed.py [--quick] [--repeats 9] [--baseline TREE] [--no-bytecode]

- each command is a fresh process, as typed at a shell: ``python -c 'from cli.main import
  main; main()' ARGS`` in the tree's folder (what the ``kiroku`` script runs), its wall time
  from start to exit (interpreter, imports, opening the store, the work, the output) and its
  CPU time (user and system, from the kernel's account of the finished child);
- the store: a World Gainer match created by the tree's own command line in a temporary
  folder, a store per tree; ``match legal`` lists the actions of the seat to act, and
  ``match act`` records one of them (the seat's end of turn), so each run of act records;
- bytecode: compiled once, before the timed runs, into a folder of the bench's own
  (``PYTHONPYCACHEPREFIX``), as installing the package compiles it; ``--no-bytecode``
  measures with the environment's settings instead (with ``PYTHONDONTWRITEBYTECODE`` set,
  every run compiles Kiroku's modules again);
- ``--baseline TREE``: the same commands on another checkout (e.g. ``/tmp/before``), the two
  trees' runs interleaved so that the machine's load falls on both alike, and the ratio of
  their medians printed.

Each figure is the median of ``--repeats`` runs, with the target (0.3 s for ``match show``
and ``match act``) beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from trees import tree_name

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.3  # seconds, wall, for match show and match act (issue 43)
COMMANDS = ("--help", "match show", "match legal", "match act")
TARGETED = ("match show", "match act")


@dataclass
class Tree:
    """A checkout to time, with its own store and its runs' figures."""

    name: str
    path: Path
    db: str
    env: dict[str, str]
    match_id: str = ""
    walls: dict[str, list[float]] = field(default_factory=dict)
    cpus: dict[str, list[float]] = field(default_factory=dict)

    def run(self, *args: str) -> tuple[str, float, float]:
        """``kiroku --db DB ARGS`` in a fresh process: its output, wall and CPU seconds."""
        command = [sys.executable, "-c", "from cli.main import main; main()", *args]
        if args[:1] != ("--help",):
            command[3:3] = ["--db", self.db]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=self.path, env=self.env, capture_output=True,
                              text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{self.name}: kiroku {' '.join(args)} failed "
                             f"({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return done.stdout, wall, cpu

    def timed(self, label: str, *args: str) -> str:
        """Run and note the figures under ``label``; the output."""
        out, wall, cpu = self.run(*args)
        self.walls.setdefault(label, []).append(wall)
        self.cpus.setdefault(label, []).append(cpu)
        return out


def environment(folder: Path, bytecode: bool) -> dict[str, str]:
    """The commands' environment: no ambient store, bytecode kept in ``folder``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("KIROKU_DATABASE_URL", "KIROKU_KEY_FILE", "PYTHONPATH")}
    env["COLUMNS"] = "100"
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "bytecode")
    return env


def prepare(tree: Tree) -> None:
    """The tree's match, created by its own command line; every command run once untimed
    (compiling bytecode, warming the file cache)."""
    tree.match_id = tree.run("match", "new", "worldgainer", "--player", "Aiko", "--player",
                             "Ben", "--deck", "solar_vanguard", "--deck", "pleiades_bloom",
                             "--option", "first_player=1")[0].strip()
    tree.run("--help")
    tree.run("match", "show", tree.match_id)
    tree.run("match", "legal", tree.match_id, "--seat", "1")
    tree.run("audit", "verify", tree.match_id)
    tree.run("tournament", "--help")


def one_round(tree: Tree) -> None:
    """Each command timed once: help, show, legal of the seat to act, act (its end of turn,
    chosen untimed from the JSON listing)."""
    tree.timed("--help", "--help")
    tree.timed("match show", "match", "show", tree.match_id)
    summary = json.loads(tree.run("match", "show", tree.match_id, "--json")[0])
    seat = int(summary["to_act"][0])
    tree.timed("match legal", "match", "legal", tree.match_id, "--seat", str(seat))
    listed = [json.loads(line) for line in tree.run(
        "match", "legal", tree.match_id, "--seat", str(seat), "--json")[0].splitlines()]
    action = next((a for a in listed if a.get("type") == "end_turn"), listed[-1])
    tree.timed("match act", "match", "act", tree.match_id, json.dumps(action))


def report(trees: list[Tree]) -> None:
    """One line per command: each tree's medians, the ratio to the baseline, the target."""
    for label in COMMANDS:
        parts = []
        for tree in trees:
            wall = statistics.median(tree.walls[label])
            cpu = statistics.median(tree.cpus[label])
            parts.append(f"{tree.name} {wall:.3f} s wall, {cpu:.3f} s CPU "
                         f"(runs {', '.join(f'{w:.2f}' for w in tree.walls[label])})")
        line = f"kiroku {label}: " + "; ".join(parts)
        if len(trees) == 2:
            base, this = trees
            walls = statistics.median(this.walls[label]) / statistics.median(base.walls[label])
            cpus = statistics.median(this.cpus[label]) / statistics.median(base.cpus[label])
            line += f"; x{walls:.2f} wall, x{cpus:.2f} CPU of the baseline"
        if label in TARGETED:
            wall = statistics.median(trees[-1].walls[label])
            line += f"; target {TARGET} s: {'met' if wall <= TARGET else 'NOT met'}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (one round)")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout to time side by side (e.g. /tmp/before)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="leave bytecode to the environment's settings")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = environment(folder, not args.no_bytecode)
        trees = [Tree(tree_name(ROOT, "this tree"), ROOT, f"sqlite:///{folder}/this.db", env)]
        if args.baseline is not None:
            base = args.baseline.resolve()
            trees.insert(0, Tree(tree_name(base, "baseline"), base,
                                 f"sqlite:///{folder}/baseline.db", env))
        for tree in trees:
            prepare(tree)
        for _ in range(repeats):
            for tree in trees:
                one_round(tree)
        print(f"{repeats} run(s) a command, {os.cpu_count()} core(s), bytecode "
              f"{'left to the environment' if args.no_bytecode else 'compiled beforehand'}")
        report(trees)


if __name__ == "__main__":
    main()
