"""The audit figure (issues 16 and 43): actions verified per second on World Gainer matches, in
one process and by ``kiroku audit verify`` over every match.

    python bench/audit_speed.py [--quick] [--matches 2000] [--jobs 1,default] [--repeats 5]
                                [--baseline TREE] [--no-bytecode]

- the matches: random legal World Gainer playouts (bench/scale.py's ``scripts``) recorded again
  through ``Kiroku.record`` on an SQLite file in a temporary folder, so that each ends sealed
  by its revealed seed and the audit re-derives every seeded outcome;
- ``verify_records``: the audit alone on records already read, one process;
- ``Kiroku.audit``: every match verified in this process as the service does it (rows read and
  decoded, chain, commitments, re-projection, digests, seed, snapshots);
- ``kiroku audit verify``: the command line over every match, a fresh process each run (its
  interpreter start and imports included in the wall time, and shown apart: the same command
  on an empty store, and the rate beyond it), with each ``--jobs`` asked for (``default``: no
  option, the command's own default); its bytecode compiled once, by an untimed run, into a
  folder of the bench's own (``PYTHONPYCACHEPREFIX``), as installing the package compiles it
  and as ``bench/cli_speed.py`` times commands; ``--no-bytecode`` leaves it to the
  environment's settings (with ``PYTHONDONTWRITEBYTECODE`` set, every run compiles Kiroku's
  modules again, about 0.1 s);
- ``--baseline TREE``: the command-line runs also made by another checkout (e.g.
  ``/tmp/before``), each run of one tree followed by the other's, and the ratio of their
  medians printed. Each tree audits an archive it recorded itself, of the same playouts
  (an older tree may not read what a newer one stores).

Each figure is the median of ``--repeats`` runs, with the target (issue 43: 15,000 actions/s
on 2 cores over a 2,000-match archive, start-up included) beside it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from uuid import UUID

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scale import record_rate, scripts  # noqa: E402

from replay.audit import verify_records  # noqa: E402
from replay.service import Kiroku  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TARGET = 15_000  # actions verified per second, start-up included (issue 43)


def record_by(tree: Path, url: str, matches: int) -> None:
    """The same playouts as ``record``, recorded at ``url`` by ``tree``'s own code."""
    code = ("import sys; sys.path.insert(0, 'bench'); from scale import record_rate, scripts; "
            f"record_rate({url!r}, scripts('worldgainer', {matches}, seed=3), threads=1)")
    subprocess.run([sys.executable, "-c", code], cwd=tree, check=True, capture_output=True)


def record(url: str, matches: int) -> tuple[list[UUID], float]:
    """Record ``matches`` World Gainer playouts at ``url``; their ids and the recording rate."""
    rate = record_rate(url, scripts("worldgainer", matches, seed=3), threads=1)[0]
    kiroku = Kiroku.open(url)
    ids = [m.match_id for m in kiroku.list_matches()]
    kiroku.close()
    return ids, rate


def verdict(rate: float) -> str:
    """The rate against the target, said plainly."""
    return f"target {TARGET:,}: {'met' if rate >= TARGET else 'NOT met'}"


def runs(values: list[float], fmt: str = ".0f") -> str:
    """Every run's figure, for the reader to see the spread."""
    return ", ".join(format(v, fmt) for v in values)


def time_records(url: str, ids: list[UUID], repeats: int) -> tuple[list[float], int]:
    """Actions per second of ``verify_records`` on records read beforehand, and the actions."""
    kiroku = Kiroku.open(url)
    every = [kiroku.records(kiroku.seen_by(m)) for m in ids]
    kiroku.close()
    verify_records(every[0])  # what the first audit of a process prepares once (copiers)
    rates, actions = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        reports = [verify_records(records) for records in every]
        elapsed = time.perf_counter() - start
        assert all(r.ok for r in reports), [r.failure for r in reports if not r.ok]
        actions = sum(r.actions for r in reports)
        rates.append(actions / elapsed)
    return rates, actions


def time_service(url: str, ids: list[UUID], repeats: int) -> list[float]:
    """Actions per second of ``Kiroku.audit`` over every match, a fresh service each run."""
    rates = []
    for _ in range(repeats):
        kiroku = Kiroku.open(url)
        start = time.perf_counter()
        reports = [kiroku.audit(m) for m in ids]
        elapsed = time.perf_counter() - start
        kiroku.close()
        assert all(r.ok for r in reports), [r.failure for r in reports if not r.ok]
        rates.append(sum(r.actions for r in reports) / elapsed)
    return rates


def environment(bytecode: Path | None) -> dict[str, str]:
    """The commands' environment: no ambient store; bytecode kept in ``bytecode`` if given."""
    env = {k: v for k, v in os.environ.items() if k != "KIROKU_DATABASE_URL"}
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    return env


def time_command(url: str, jobs: str, matches: int, env: dict[str, str],
                 tree: Path = ROOT) -> float:
    """Wall seconds of ``tree``'s ``kiroku audit verify`` over every match, which must all
    pass."""
    command = [sys.executable, "-c", "from cli.main import main; main()", "--db", url,
               "audit", "verify"] + ([] if jobs == "default" else ["--jobs", jobs])
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or not done.stdout.endswith(f"{matches} verified, 0 failed\n"):
        raise SystemExit(f"audit verify failed ({done.returncode}):\n{done.stdout[-2000:]}"
                         f"{done.stderr[-2000:]}")
    return elapsed


def report_command(url: str, empty: str, jobs: str, matches: int, actions: int,
                   repeats: int, env: dict[str, str],
                   baseline: tuple[Path, str] | None = None) -> None:
    """Print the command's wall time and actions per second (medians), and its wall time on
    an empty store (interpreter start, imports, opening the store, starting workers); with
    ``baseline`` (a tree and its own archive of the same playouts), that tree's wall time,
    run for run, and the ratio."""
    walls, idle, based = [], [], []
    # untimed: each tree's bytecode compiled and files cached, each on a store it made itself
    time_command(empty, jobs, 0, env)
    if baseline is not None:
        time_command(baseline[1], jobs, matches, env, baseline[0])
    for _ in range(repeats):
        walls.append(time_command(url, jobs, matches, env))
        idle.append(time_command(empty, jobs, 0, env))
        if baseline is not None:
            based.append(time_command(baseline[1], jobs, matches, env, baseline[0]))
    wall, start = statistics.median(walls), statistics.median(idle)
    beyond = (f"beyond the empty store's run, {actions / (wall - start):,.0f} actions/s"
              if wall - start >= 0.1 else "too little beyond the empty store's run to tell")
    label = "" if jobs == "default" else f" --jobs {jobs}"
    print(f"kiroku audit verify{label} ({os.cpu_count()} core(s)): {wall:.2f} s wall, "
          f"{actions / wall:,.0f} actions/s ({verdict(actions / wall)}), of which "
          f"{start:.2f} s on an empty store (runs {runs(walls, '.2f')} s); {beyond}")
    if based and baseline is not None:
        base = statistics.median(based)
        print(f"  baseline {baseline[0]}: {base:.2f} s wall, {actions / base:,.0f} actions/s (runs "
              f"{runs(based, '.2f')} s); this tree x{base / wall:.2f} its rate")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    # many matches, as an event's store holds: the command's start (interpreter, imports,
    # workers) is then a small part of its run, as it is for the user
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--jobs", default="1,default",
                        help="the --jobs of each command-line run ('default': none given)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout whose audit verify runs beside (/tmp/before)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="leave the commands' bytecode to the environment's settings")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    matches = 16 if args.quick else args.matches
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/audit.db"
        ids, rate = record(url, matches)
        rates, actions = time_records(url, ids, repeats)
        print(f"recorded {len(ids)} World Gainer matches, {actions} actions "
              f"({rate:.0f} actions/s recording)")
        best = statistics.median(rates)
        print(f"verify_records, 1 process: {best:,.0f} actions/s ({verdict(best)}) "
              f"(runs {runs(rates)})")
        served = time_service(url, ids, repeats)
        best = statistics.median(served)
        print(f"Kiroku.audit, 1 process: {best:,.0f} actions/s ({verdict(best)}) "
              f"(runs {runs(served)})")
        empty = f"sqlite:///{tmp}/empty.db"
        baseline = None
        if args.baseline is not None:
            baseline = (args.baseline.resolve(), f"sqlite:///{tmp}/baseline.db")
            record_by(*baseline, matches)
        env = environment(None if args.no_bytecode else Path(tmp) / "bytecode")
        print(f"command-line runs: bytecode "
              f"{'left to the environment' if args.no_bytecode else 'compiled beforehand'}")
        for jobs in args.jobs.split(","):
            report_command(url, empty, jobs, len(ids), actions, repeats, env, baseline)


if __name__ == "__main__":
    main()
