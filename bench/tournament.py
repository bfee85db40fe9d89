"""What a tournament's reads cost as it grows: a Swiss event of N players over R rounds on SQLite,
each table's match ended by a concession (its result from the game), and the time to pair a
round, to read a round view, the standings and the results CSV, cold (a fresh process's service)
and warm (the same service again), as medians.

    python bench/tournament.py [--players 64] [--rounds 6] [--repeats 5]

Pairings are random among players with equal points (no rematch avoidance: enough for timing).
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger.catalog import sample_decks  # noqa: E402
from ledger.identity import Identity  # noqa: E402
from replay import tournaments as events  # noqa: E402
from replay.pairings import Pairing  # noqa: E402
from replay.service import Kiroku  # noqa: E402

ORGANISER = Identity.operator("bench")


def _median_ms(work: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def build(kiroku: Kiroku, players: int, rounds: int) -> tuple[UUID, list[float]]:
    """A tournament with every round played; the seconds each pairing took."""
    tid = UUID(events.create(kiroku, ORGANISER, name="Bench Open", game="worldgainer")
               ["tournament_id"])
    decks = [dict(d.cards) for d in sample_decks("worldgainer").values()]
    ids = []
    for i in range(players):
        player = events.register(kiroku, ORGANISER, tid, f"Player {i + 1}", str(1000 + i))
        events.submit_decklist(kiroku, ORGANISER, tid, player["player_id"], decks[i % 2])
        ids.append(player["player_id"])
    rng = random.Random(2026)
    pairing_seconds = []
    for _ in range(rounds):
        points = {s["player_id"]: s["match_points"]
                  for s in events.standings_of(kiroku, tid)["standings"]}
        order = sorted(ids, key=lambda p: (-points[p], rng.random()))
        tables = [Pairing(n + 1, (order[2 * n], order[2 * n + 1]))
                  for n in range(len(order) // 2)]
        start = time.perf_counter()
        made = events.pair(kiroku, ORGANISER, tid, tables)
        pairing_seconds.append(time.perf_counter() - start)
        for table in made["tables"]:
            kiroku.record(UUID(table["match_id"]), {"type": "concede",
                                                    "seat": rng.choice((1, 2))},
                          recorded_by=ORGANISER.recorded_by)
    return tid, pairing_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        kiroku = Kiroku.open(url)
        tid, pairing = build(kiroku, args.players, args.rounds)
        kiroku.close()
        tables = args.players // 2
        print(f"{args.players} players, {args.rounds} rounds, {tables} tables a round")
        print(f"pair a round ({tables} matches created, seat credentials issued): median "
              f"{statistics.median(pairing) * 1000:.0f} ms")
        reads: dict[str, Callable[[Kiroku], Any]] = {
            "round view": lambda k: events.round_view(k, tid, args.rounds),
            "standings": lambda k: events.standings_of(k, tid),
            "results CSV": lambda k: events.results_csv_of(k, tid),
            "match list of a round": lambda k: k.find_matches(tournament=tid, round_number=1),
        }
        for name, read in reads.items():
            cold = []
            for _ in range(args.repeats):
                fresh = Kiroku.open(url)
                start = time.perf_counter()
                read(fresh)
                cold.append(time.perf_counter() - start)
                fresh.close()
            warm_service = Kiroku.open(url)
            read(warm_service)
            warm = _median_ms(functools.partial(read, warm_service), args.repeats)
            warm_service.close()
            print(f"{name:<22} cold median {statistics.median(cold) * 1000:7.1f} ms   "
                  f"warm median {warm:7.1f} ms")


if __name__ == "__main__":
    main()
