"""Kiroku benchmark: recording throughput, time travel on a long match, stored size.

    python bench/bench.py [--quick] [--engine-only]

Prints (medians of repeated runs, on SQLite files in a temporary folder):
- engine-only actions per CPU second (legal actions, apply, chance; no storage) of random
  playouts of World Gainer (2 players) and Illuminati (4 players, time called after 8 turns),
  with the engine's structural state copier and, side by side in the same process (runs
  interleaved), with the ``copy.deepcopy`` it replaced;
- actions recorded per second through the library (Kiroku.record, random legal playouts);
- actions recorded per second through HTTP (a real uvicorn server, one client, keep-alive);
- milliseconds to get the state at a random position of a 2,000-action match (fresh process
  view, so snapshots are used, not the in-memory cache);
- stored bytes per action (events, and snapshots separately);
- Illuminati (4 players, time called after 8 turns): recorded actions per second, and the state
  at a random position.

The 2,000-action match alternates ``end_turn`` (a draw) with a judge's C3 adjustment returning a
card from hand to deck, so the match goes on past the natural end of a World Gainer game.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import socket
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from processes import started, stop_on_sigterm  # noqa: E402

from engine import JUDGE, MatchConfig, Viewer, get_game  # noqa: E402
from engine.core import contract  # noqa: E402
from ledger.catalog import sample_card_set, sample_decks  # noqa: E402
from ledger.identity import Role  # noqa: E402
from ledger.seed import SeededChance  # noqa: E402
from replay.service import Kiroku  # noqa: E402

DECKS = list(sample_decks("worldgainer"))  # the order simulate() uses


def library_rate(folder: Path, matches: int) -> tuple[float, int]:
    """Actions per second recording random playouts through the library."""
    kiroku = Kiroku.open(f"sqlite:///{folder}/lib.db")
    start = time.perf_counter()
    ids = kiroku.simulate("worldgainer", matches, seed=1)
    elapsed = time.perf_counter() - start
    actions = sum(kiroku.summary(kiroku.seen_by(m))["positions"] for m in ids)
    kiroku.close()
    return actions / elapsed, actions


PlayoutStep = tuple[dict[str, Any], list[Any], bool]
"""An action of a playout, its table outcomes, and whether a judge enters them (not its seat)."""


def playout_script(seed: int) -> tuple[list[Any], list[PlayoutStep]]:
    """A recorded playout as (setup outcomes, [(action, outcomes, judged)]) to replay through
    HTTP: ``judged`` where an outcome is one the acting seat may not enter (another seat's
    draw: a seat enters only the outcomes it may see, else ``outcome_not_yours``), so a
    judge records that action."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    match_id = kiroku.simulate("worldgainer", 1, seed=seed)[0]
    records = kiroku.records(kiroku.seen_by(match_id))
    kiroku.close()
    ruleset = get_game("worldgainer")
    setup = [o["value"] for o in records[0]["setup_outcomes"]]
    steps = [(r["action"], [o["value"] for o in r["outcomes"]],
              not all(o.enterable_by(Viewer("seat", r["action"]["seat"]))
                      for o in ruleset.typed_outcomes(r["outcomes"])))
             for r in records if r["event"] == "ActionRecorded"]
    return setup, steps


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http_rate(folder: Path, matches: int) -> float:
    """Actions per second through a real HTTP server (table outcomes replay known playouts),
    each action sent by its seat with the seat's own credential, or by the organiser where its
    outcomes are not the seat's to enter (another seat's draw)."""
    port = free_port()
    store = Kiroku.open(f"sqlite:///{folder}/http.db")
    organiser = store.credentials.issue(Role.ORGANISER, "bench", issued_by="bench")[1]
    store.close()
    code = ("import uvicorn; from replay.service import Kiroku; from replay.api import create_app;"
            f"uvicorn.run(create_app(Kiroku.open('sqlite:///{folder}/http.db')), "
            f"host='127.0.0.1', port={port}, log_level='warning')")
    with started([sys.executable, "-c", code], Path(__file__).resolve().parent.parent,
                 log=folder / "http-server.log"), \
            httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30,
                         headers={"authorization": f"Bearer {organiser}"}) as client:
        for _ in range(200):
            try:
                client.get("/games")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        scripts = [playout_script(seed) for seed in range(matches)]
        total, start = 0, time.perf_counter()
        for setup, steps in scripts:
            created = client.post("/matches", json={"players": ["A", "B"], "decks": DECKS,
                                                    "setup_outcomes": setup})
            if created.status_code != 201:
                raise RuntimeError(f"create failed: {created.text}")
            match_id = created.json()["match_id"]
            seats = {s["seat"]: {"authorization": f"Bearer {s['token']}"}
                     for s in created.json()["seats"]}
            for action, outcomes, judged in steps:
                r = client.post(f"/matches/{match_id}/actions",
                                headers=None if judged else seats[action["seat"]],
                                json={"action": action, "outcomes": outcomes})
                if r.status_code != 201:
                    raise RuntimeError(f"record failed: {r.text}")
                total += 1
        return total / (time.perf_counter() - start)


def long_match(folder: Path, actions: int) -> tuple[Any, float]:
    """Record a match of ``actions`` live actions; returns its id and the recording rate."""
    kiroku = Kiroku.open(f"sqlite:///{folder}/long.db")
    match_id = kiroku.new_match("worldgainer", ["A", "B"], DECKS, options={"first_player": 1})
    start = time.perf_counter()
    for _ in range(actions // 2):
        state = kiroku.recorder.get_match(match_id).state
        seat = state.active
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="bench")
        nxt = kiroku.recorder.get_match(match_id).state
        card = nxt.player(nxt.active).hand[0]  # type: ignore[attr-defined]
        kiroku.record(match_id, {"type": "adjust", "seat": nxt.active, "reason": "bench: card "
                                 "effect shuffles a card back", "move": {
                                     "card": card, "from_zone": "hand", "to_zone": "deck"}},
                      recorded_by="judge")
    rate = actions / (time.perf_counter() - start)
    kiroku.close()
    return match_id, rate


def position_ms(folder: Path, match_id: Any, samples: int, db: str = "long.db") -> list[float]:
    """Milliseconds per state-at-random-position query on a fresh service (no warm cache)."""
    kiroku = Kiroku.open(f"sqlite:///{folder}/{db}")
    positions = kiroku.summary(kiroku.seen_by(match_id))["positions"]
    rng = random.Random(7)
    times = []
    for _ in range(samples):
        n = rng.randint(0, positions)
        start = time.perf_counter()
        view = kiroku.view(kiroku.seen_by(match_id, JUDGE), n)
        times.append((time.perf_counter() - start) * 1000)
        assert view["position"] == n
    kiroku.close()
    return times


ILLUMINATI_OPTIONS = {"turn_limit": 8}


def engine_rate(game: str, players: int, games: int, options: dict[str, Any]) -> float:
    """Engine-only actions per CPU second over random playouts (seeded; legal actions, apply and
    chance, no storage). CPU time of this process, not wall time: the engine is single-threaded
    and CPU-bound, and CPU time does not count the time other processes on the machine take."""
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
            action = rng.choice(rules.legal_actions(state, seat))
            done += 1
            state = rules.apply(state, action, SeededChance(key, done))
    return done / (time.process_time() - start)


@contextmanager
def state_copier(name: str) -> Iterator[None]:
    """Run ``Ruleset.apply`` with the given state copier: "structural" (engine.core.copying, what
    the engine uses) or "deepcopy" (what it used before), to compare the two side by side."""
    saved = contract.copy_state
    contract.copy_state = copy.deepcopy if name == "deepcopy" else saved  # type: ignore[assignment]
    try:
        yield
    finally:
        contract.copy_state = saved


ENGINE_GAMES = [("World Gainer, 2 players", "worldgainer", 2, {}),
                ("Illuminati, 4 players", "illuminati", 4, ILLUMINATI_OPTIONS),
                ("Kami no Kijutsu, 2 players", "kami", 2, {"turn_limit": 40}),
                ("Quest for the Grail, 3 players", "grail", 3,
                 {"turn_limit": 30, "max_combat_rounds": 20}),
                ("On the Edge, 4 players", "edge", 4, {"turn_limit": 30})]


def engine_rates(repeats: int, quick: bool) -> None:
    """Print engine-only actions per CPU second of both games with both copiers (runs
    interleaved, medians of ``repeats``)."""
    for title, game, players, options in ENGINE_GAMES:
        games = (3 if quick else 20) if game == "worldgainer" else (2 if quick else 6)
        rates: dict[str, list[float]] = {"deepcopy": [], "structural": []}
        for _ in range(repeats):
            for name, runs in rates.items():
                with state_copier(name):
                    runs.append(engine_rate(game, players, games, options))
        before, after = (statistics.median(rates[n]) for n in ("deepcopy", "structural"))
        print(f"engine, {title}: {after:.0f} actions/CPU s (deepcopy {before:.0f}: "
              f"x{after / before:.1f}; runs: {', '.join(f'{x:.0f}' for x in rates['structural'])}"
              f" / {', '.join(f'{x:.0f}' for x in rates['deepcopy'])})")


def illuminati_recorded(folder: Path, matches: int, players: int) -> tuple[float, Any]:
    """Recorded actions per second simulating Illuminati matches; the longest match's id."""
    kiroku = Kiroku.open(f"sqlite:///{folder}/inwo.db")
    start = time.perf_counter()
    ids = kiroku.simulate("illuminati", matches, seed=1, players=players,
                          options=ILLUMINATI_OPTIONS)
    elapsed = time.perf_counter() - start
    sizes = {m: kiroku.summary(kiroku.seen_by(m))["positions"] for m in ids}
    kiroku.close()
    return sum(sizes.values()) / elapsed, max(sizes, key=lambda m: sizes[m])


def stored_bytes(db: Path) -> tuple[int, int, int]:
    """(event bytes, snapshot bytes, recorded actions) in a SQLite store."""
    conn = sqlite3.connect(db)
    events = conn.execute("SELECT COALESCE(SUM(LENGTH(state)), 0) FROM stored_events").fetchone()
    snaps = conn.execute("SELECT COALESCE(SUM(LENGTH(state)), 0) FROM stored_snapshots").fetchone()
    # an action's topic in full, or as its code in a compact table (ledger.compactrows)
    actions = conn.execute("SELECT COUNT(*) FROM stored_events WHERE topic IN "
                           "('kiroku:ActionRecorded/1', '0')").fetchone()
    conn.close()
    return int(events[0]), int(snaps[0]), int(actions[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (CI smoke run)")
    parser.add_argument("--engine-only", action="store_true",
                        help="only the engine-only rates (no storage, no HTTP)")
    args = parser.parse_args()
    stop_on_sigterm()
    repeats = 1 if args.quick else 3
    matches = 3 if args.quick else 10
    long_actions = 400 if args.quick else 2000
    print(f"Kiroku bench (python {sys.version.split()[0]}, {os.cpu_count()} cores), "
          f"medians of {repeats} run(s), engine rates of {1 if args.quick else 7}")
    engine_rates(1 if args.quick else 7, args.quick)
    if args.engine_only:
        return
    with tempfile.TemporaryDirectory() as tmp:
        lib, http = [], []
        for i in range(repeats):
            run = Path(tmp) / f"run{i}"
            run.mkdir()
            rate, _ = library_rate(run, matches)
            lib.append(rate)
            http.append(http_rate(run, matches))
        print(f"library, SQLite:  {statistics.median(lib):8.0f} actions/s "
              f"(runs: {', '.join(f'{x:.0f}' for x in lib)})")
        print(f"HTTP, SQLite:     {statistics.median(http):8.0f} actions/s "
              f"(runs: {', '.join(f'{x:.0f}' for x in http)})")
        folder = Path(tmp)
        match_id, rate = long_match(folder, long_actions)
        print(f"long match:       {long_actions} actions recorded at {rate:.0f} actions/s")
        times = position_ms(folder, match_id, 50 if args.quick else 200)
        print(f"state at random position of a {long_actions}-action match: median "
              f"{statistics.median(times):.1f} ms, p90 "
              f"{statistics.quantiles(times, n=10)[-1]:.1f} ms, max {max(times):.1f} ms")
        events, snaps, actions = stored_bytes(folder / "run0" / "lib.db")
        print(f"stored bytes per action (random playouts): {events / actions:.0f} B events "
              f"+ {snaps / actions:.0f} B snapshots")
        events, snaps, actions = stored_bytes(folder / "long.db")
        print(f"stored bytes per action ({long_actions}-action match): {events / actions:.0f} B "
              f"events + {snaps / actions:.0f} B snapshots")
        recorded_rates = []
        for i in range(repeats):
            run = folder / f"inwo{i}"
            run.mkdir()
            rate, longest = illuminati_recorded(run, 1 if args.quick else 3, 4)
            recorded_rates.append(rate)
        print(f"Illuminati, 4 players: recorded {statistics.median(recorded_rates):.0f} actions/s "
              f"(runs: {', '.join(f'{x:.0f}' for x in recorded_rates)})")
        times = position_ms(folder / f"inwo{repeats - 1}", longest, 20 if args.quick else 100,
                            db="inwo.db")
        print(f"Illuminati state at a random position: median {statistics.median(times):.1f} ms, "
              f"max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
