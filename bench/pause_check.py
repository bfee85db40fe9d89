"""What the dispute pause costs a recorded action: the library's recording rate with the check
(one read of the match's docket per seat action) and without it, side by side.

    python bench/pause_check.py [--runs 5] [--matches 20]

Runs alternate in one process on fresh SQLite files (World Gainer random playouts through
``Kiroku.simulate``, the seats' actions recorded as players, so every action is checked);
prints each run's actions per second and the median ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay.service import Kiroku  # noqa: E402


def rate(folder: Path, name: str, matches: int, check: bool) -> float:
    """Actions per second recording ``matches`` random playouts, with or without the check."""
    kiroku = Kiroku.open(f"sqlite:///{folder}/{name}.db")
    if not check:
        kiroku._check_not_paused = lambda match_id, recorded_by: None  # type: ignore[method-assign]
    start = time.perf_counter()
    ids = kiroku.simulate("worldgainer", matches, seed=1)
    elapsed = time.perf_counter() - start
    actions = sum(kiroku.summary(m)["positions"] for m in ids)
    kiroku.close()
    return actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    with_check: list[float] = []
    without: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            without.append(rate(Path(tmp), f"off{run}", args.matches, check=False))
            with_check.append(rate(Path(tmp), f"on{run}", args.matches, check=True))
    print("without the check, actions/s:", ", ".join(f"{r:.0f}" for r in without))
    print("with the check, actions/s:   ", ", ".join(f"{r:.0f}" for r in with_check))
    ratio = statistics.median(with_check) / statistics.median(without)
    print(f"median {statistics.median(with_check):.0f} vs {statistics.median(without):.0f}: "
          f"x{ratio:.2f}")


if __name__ == "__main__":
    main()
