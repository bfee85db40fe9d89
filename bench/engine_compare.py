"""Engine throughput of this tree against an earlier revision, measured side by side.

    python bench/engine_compare.py --baseline 1c354a7 [--repeats 5]

Checks the baseline revision out into a temporary folder (``git archive``), then runs the same
engine-only loop (random legal playouts: legal actions, apply and seeded chance; no storage) for
World Gainer (2 players) and Illuminati (4 players, time called after 8 turns) in fresh
processes, alternating baseline and current runs so machine noise hits both alike. Prints the
median actions per CPU second of each and their ratio. The loop uses only the public contract
both revisions share.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Mapping
from io import BytesIO
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

LOOP = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from engine import MatchConfig, get_game
from ledger.catalog import sample_card_set, sample_decks
from ledger.seed import SeededChance
game, players, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
options = json.loads(sys.argv[5])
rules = get_game(game)
decks = list(sample_decks(game).values())
config = MatchConfig(players=[f"P{i}" for i in range(players)],
                     decks=[decks[i % len(decks)].cards for i in range(players)],
                     cards=sample_card_set(game).cards, options=options)
done, start = 0, time.process_time()
for seed in range(games):
    rng, key = random.Random(seed), bytes([seed]) * 32
    state = rules.setup(config, SeededChance(key, 0))
    while state.result is None:
        seat = rng.choice(rules.to_act(state))
        action = rng.choice(list(rules.legal_actions(state, seat)))
        done += 1
        state = rules.apply(state, action, SeededChance(key, done))
print(done / (time.process_time() - start))
"""

GAMES = [("World Gainer, 2 players", "worldgainer", 2, 12, {}),
         ("Illuminati, 4 players", "illuminati", 4, 4, {"turn_limit": 8})]


def checkout(revision: str, into: Path) -> Path:
    """The tree of ``revision`` extracted into ``into``."""
    data = subprocess.run(["git", "-C", str(HERE), "archive", revision], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def rate(tree: Path, game: str, players: int, games: int, options: Mapping[str, object]) -> float:
    """One run of the loop in a fresh process on ``tree``: actions per CPU second."""
    out = subprocess.run([sys.executable, "-c", LOOP, str(tree), game, str(players), str(games),
                          json.dumps(options)], check=True, capture_output=True, text=True,
                         cwd=tree)
    return float(out.stdout.strip())


def main() -> int:
    """Compare and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="git revision to compare against")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = checkout(args.baseline, Path(tmp))
        for title, game, players, games, options in GAMES:
            runs: dict[str, list[float]] = {"baseline": [], "current": []}
            for _ in range(args.repeats):
                runs["baseline"].append(rate(base, game, players, games, options))
                runs["current"].append(rate(HERE, game, players, games, options))
            before, after = (statistics.median(runs[k]) for k in ("baseline", "current"))
            print(f"engine, {title}: {after:.0f} actions/CPU s, baseline {args.baseline} "
                  f"{before:.0f}: x{after / before:.2f} (medians of {args.repeats})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
