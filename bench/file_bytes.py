"""Issue 43's storage figure: the whole SQLite file, bytes an action, every game, short and long.

    python bench/file_bytes.py [--quick] [--short 20] [--long 2000] [--baseline TREE]

For each game, three stores, each a file of its own. Two of them, short and long, are
recorded as matches are at a table (``record_at_a_table``): the organiser's credential
creates each match, a scorekeeper's credential is issued for it, and that credential records
every action (a judge's, where a judge acts), so each event names who recorded it as every
credential does, by its id, name and role, and the credentials are stored too. The third is
simulated, for comparison with earlier rounds:

- short: ``--short`` random legal playouts (those of ``Kiroku.simulate``, what a typical full
  match is), recorded so;
- simulated: the same playouts as ``Kiroku.simulate`` stores them, each event recorded by
  ``"simulator"`` and no credential issued: what this bench measured as "short" until issue
  43's twenty-eighth round, printed to compare with earlier figures (a table's events name
  their credential, and its credentials are stored: its file was 77-105 bytes an action more
  than the simulated one's in storage formats 4 to 6, and is 28-43 more in format 7);
- long: one match of up to ``--long`` actions: random legal actions, passing over any that
  would end the match while another does not (a game whose every action ends it stops there;
  the length reached is printed). World Gainer's playouts end within ~130 actions whatever
  is chosen, so its long match is bench.py's (turns ended, a card shuffled back by a judge).

Each file is measured as it lives, its match list read once (as a served store's first list
read leaves it: the list's read model holds a row a match), after the store is closed and its
WAL checkpointed into it (``PRAGMA wal_checkpoint(TRUNCATE)``), without VACUUM: its size over
the recorded actions (ActionRecorded events; creation, seeds, endings and snapshots all count
in the file). Beside it: the bytes of each table and index (the ``dbstat`` virtual table, whole
pages, so free space inside pages counts), the fixed part (an empty store's file: one page per
table and index), and for the long match time travel, cold (``Kiroku.view`` as a judge at
random positions, kept positions forgotten before each: rebuilt from the store), CPU time,
median and p90. ``--quick`` (CI): World Gainer and Grail, 2 short matches, a 100-action long
one.

With ``--baseline TREE`` (another checkout, such as /tmp/before) the same runs in a process
of that tree's code, games alternating between the trees, and the ratios are printed.
Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from trees import measured_in

# ``KIROKU_TREE``: whose code this process measures (--baseline runs it with another tree)
TREE = Path(os.environ.get("KIROKU_TREE") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(TREE))

from engine import JUDGE  # noqa: E402
from engine.registry import get_game  # noqa: E402
from ledger.catalog import sample_card_set, sample_decks  # noqa: E402
from ledger.identity import Identity, Role  # noqa: E402
from ledger.seed import SeededChance  # noqa: E402
from replay.service import Kiroku  # noqa: E402

GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "worldgainer": (2, {}),
    "illuminati": (4, {"turn_limit": 8}),
    "kami": (2, {"turn_limit": 40}),
    "grail": (3, {"turn_limit": 30, "max_combat_rounds": 20}),
    "edge": (4, {"turn_limit": 30}),
}
ACTION_TOPIC = "kiroku:ActionRecorded/1"
# how a table holds it: in full, or (ledger.compactrows, not imported: a baseline tree may
# not have it) as its code
ACTION_TOPICS = (ACTION_TOPIC, "0")


def checkpointed(db: Path) -> dict[str, Any]:
    """The file's size once its WAL is checkpointed into it, its actions, its pages by
    table and index, and its free pages."""
    con = sqlite3.connect(db)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        actions = con.execute("SELECT COUNT(*) FROM stored_events WHERE topic IN (?, ?)",
                              ACTION_TOPICS).fetchone()[0]
        tables = dict(con.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
        free = con.execute("PRAGMA freelist_count").fetchone()[0]
        page = con.execute("PRAGMA page_size").fetchone()[0]
    finally:
        con.close()
    return {"file": db.stat().st_size, "actions": int(actions), "tables": tables,
            "free": int(free) * int(page), "page": int(page)}


def empty_store(folder: Path) -> int:
    """The bytes of a store with nothing recorded (its tables' first pages)."""
    db = folder / "empty.db"
    Kiroku.open(f"sqlite:///{db}").close()
    return int(checkpointed(db)["file"])


def listed(kiroku: Kiroku) -> None:
    """The match list read, as a server's first list read brings its read model up to date:
    a store that is served holds its rows (until issue 43's twenty-fourth round the files
    were measured without them: 2-6 B an action more on 20 short matches)."""
    kiroku.list_matches()


def simulated_store(folder: Path, game: str, matches: int) -> dict[str, Any]:
    """``matches`` random legal playouts of ``game`` in one store, as ``Kiroku.simulate``
    stores them."""
    db = folder / f"simulated-{game}.db"
    players, options = GAMES[game]
    kiroku = Kiroku.open(f"sqlite:///{db}")
    kiroku.simulate(game, matches, seed=SEED, players=players, options=options)
    listed(kiroku)
    kiroku.close()
    return checkpointed(db)


SEED = 43  # of the short stores' playouts


def playouts(game: str, matches: int) -> list[tuple[dict[str, Any], bytes, list[Any]]]:
    """The playouts ``Kiroku.simulate`` records for ``simulated_store``: each one's
    configuration, seed and actions."""
    players, options = GAMES[game]
    scratch = Kiroku.open("sqlite:///:memory:")
    found = []
    for i, match_id in enumerate(scratch.simulate(game, matches, seed=SEED, players=players,
                                                  options=options)):
        records = scratch.records(scratch.seen_by(match_id))
        seed = hashlib.sha256(f"kiroku-simulate:{game}:{SEED}:{i}".encode()).digest()
        found.append((records[0]["config"], seed,
                      [r["action"] for r in records if r["event"] == "ActionRecorded"]))
    scratch.close()
    return found


def organiser_of(kiroku: Kiroku) -> Identity:
    """An organiser's credential, issued in the store (as a served store's first start
    issues one)."""
    return kiroku.credentials.issue(Role.ORGANISER, "Organiser", issued_by="operator")[0]


def scorekeeper_of(kiroku: Kiroku, organiser: Identity, match_id: Any, table: int) -> Identity:
    """The scorekeeper's credential of ``match_id``'s table, issued by ``organiser``."""
    return kiroku.credentials.issue(Role.SCOREKEEPER, f"Table {table}",
                                    issued_by=str(organiser.credential_id),
                                    match_id=match_id)[0]


def record_at_a_table(kiroku: Kiroku, game: str, matches: int) -> list[Any]:
    """``playouts(game, matches)`` recorded in ``kiroku`` as at a table (see the module);
    their ids."""
    organiser = organiser_of(kiroku)
    made = []
    for table, (config, seed, actions) in enumerate(playouts(game, matches), start=1):
        match_id = kiroku.recorder.create_match(
            game, config["players"], config["decks"], dict(sample_card_set(game).cards),
            config["options"], recorded_by=organiser.recorded_by, seed=seed)
        keeper = scorekeeper_of(kiroku, organiser, match_id, table)
        for action in actions:
            kiroku.record(match_id, action, recorded_by=keeper.recorded_by)
        made.append(match_id)
    return made


def short_store(folder: Path, game: str, matches: int) -> dict[str, Any]:
    """``matches`` random legal playouts of ``game`` recorded at a table, in one store."""
    db = folder / f"short-{game}.db"
    kiroku = Kiroku.open(f"sqlite:///{db}")
    record_at_a_table(kiroku, game, matches)
    listed(kiroku)
    kiroku.close()
    return checkpointed(db)


def _lasting(rules: Any, state: Any, seat: int, rng: random.Random, step: int) -> Any:
    """A random legal action of ``seat`` that does not end the match (tried on the engine
    with a chance of its own), else None."""
    actions = list(rules.legal_actions(state, seat))
    rng.shuffle(actions)
    for action in actions:
        if rules.apply(state, action, SeededChance(bytes(32), step)).result is None:
            return action
    return None


def long_random(kiroku: Kiroku, game: str, length: int) -> Any:
    """A match of ``game`` of up to ``length`` actions, none chosen that ends it, recorded
    at a table."""
    players, options = GAMES[game]
    options = {**options, "turn_limit": 10_000} if "turn_limit" in options else options
    rules, decks = get_game(game), list(sample_decks(game))
    organiser = organiser_of(kiroku)
    match_id = kiroku.new_match(game, [f"P{s + 1}" for s in range(players)],
                                [decks[s % len(decks)] for s in range(players)],
                                options=options, seed=b"43" * 16,
                                recorded_by=organiser.recorded_by)
    keeper = scorekeeper_of(kiroku, organiser, match_id, 1)
    rng = random.Random(43)
    for step in range(1, length + 1):
        state = kiroku.recorder.get_match(match_id).state
        if state.result is not None:
            break
        action = _lasting(rules, state, rng.choice(rules.to_act(state)), rng, step)
        if action is None:
            break
        kiroku.record(match_id, action.model_dump(mode="json"),
                      recorded_by=keeper.recorded_by)
    return match_id


def long_worldgainer(kiroku: Kiroku, length: int) -> Any:
    """bench.py's long World Gainer match: turns ended, a card shuffled back by a judge;
    recorded at a table."""
    decks = list(sample_decks("worldgainer"))[:2]
    organiser = organiser_of(kiroku)
    match_id = kiroku.new_match("worldgainer", ["A", "B"], decks, options={"first_player": 1},
                                seed=b"43" * 16, recorded_by=organiser.recorded_by)
    keeper = scorekeeper_of(kiroku, organiser, match_id, 1)
    judge = kiroku.credentials.issue(Role.JUDGE, "Floor judge",
                                     issued_by=str(organiser.credential_id))[0]
    for _ in range(length // 2):
        state = kiroku.recorder.get_match(match_id).state
        kiroku.record(match_id, {"type": "end_turn", "seat": state.active},
                      recorded_by=keeper.recorded_by)
        nxt = kiroku.recorder.get_match(match_id).state
        card = nxt.player(nxt.active).hand[0]  # type: ignore[attr-defined]
        kiroku.record(match_id, {"type": "adjust", "seat": nxt.active, "reason": "bench: card "
                                 "effect shuffles a card back", "move": {
                                     "card": card, "from_zone": "hand", "to_zone": "deck"}},
                      recorded_by=judge.recorded_by)
    return match_id


def time_travel(db: Path, match_id: Any, samples: int) -> list[float]:
    """CPU milliseconds of cold ``view`` as a judge at random positions of the match (CPU
    time: steadier than wall time on a shared machine, and a view does no waiting)."""
    kiroku = Kiroku.open(f"sqlite:///{db}")
    try:
        positions = kiroku.summary(kiroku.seen_by(match_id))["positions"]
        picks = random.Random(7).sample(range(positions + 1), min(samples, positions + 1))
        times = []
        for n in picks:
            kiroku.recorder.forget_positions()
            start = time.process_time()
            kiroku.view(kiroku.seen_by(match_id, JUDGE), n)
            times.append((time.process_time() - start) * 1000)
    finally:
        kiroku.close()
    return times


def long_store(folder: Path, game: str, length: int, samples: int) -> dict[str, Any]:
    """One long match of ``game`` in a store of its own, and time travel on it."""
    db = folder / f"long-{game}.db"
    kiroku = Kiroku.open(f"sqlite:///{db}")
    match_id = (long_worldgainer(kiroku, length) if game == "worldgainer"
                else long_random(kiroku, game, length))
    listed(kiroku)
    kiroku.close()
    found = checkpointed(db)
    times = time_travel(db, match_id, samples)
    found["travel_ms"] = [statistics.median(times), percentile(times, 90)]
    return found


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def measure(game: str, short: int, length: int, samples: int) -> dict[str, Any]:
    """One game's figures in this process's tree."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        return {"empty": empty_store(folder), "short": short_store(folder, game, short),
                "simulated": simulated_store(folder, game, short),
                "long": long_store(folder, game, length, samples)}


def in_tree(tree: Path, game: str, args: argparse.Namespace) -> dict[str, Any]:
    """``measure`` in a process running ``tree``'s code."""
    return measured_in(tree, __file__, game, "--short", str(args.short), "--long",
                       str(args.long), "--samples", str(args.samples))


KINDS = ("short", "simulated", "long")  # each game's stores, as printed


def per_action(found: dict[str, Any]) -> float:
    """The file's bytes an action."""
    return float(found["file"]) / max(1, int(found["actions"]))


def describe(label: str, kind: str, found: dict[str, Any], empty: int) -> str:
    """One store's line: bytes an action, and its largest tables and indexes."""
    actions = max(1, int(found["actions"]))
    parts = sorted(found["tables"].items(), key=lambda item: -item[1])
    tables = ", ".join(f"{name} {size / actions:.0f}" for name, size in parts[:4])
    travel = found.get("travel_ms")
    when = (f"; time travel cold, CPU median {travel[0]:.1f} ms, p90 {travel[1]:.1f} ms"
            if travel else "")
    beyond = (found["file"] - empty) / actions
    return (f"  {label:9s} {kind:9s} {found['actions']:5d} actions: {per_action(found):4.0f} "
            f"B/action, {beyond:4.0f} beyond the fixed part; file "
            f"{found['file'] / 1024:.0f} KiB (fixed {empty / 1024:.0f} KiB, "
            f"free pages {found['free'] / 1024:.0f} KiB; B/action: {tables}){when}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--short", type=int, default=20, help="short matches a game")
    parser.add_argument("--long", type=int, default=2000, help="actions of the long match")
    parser.add_argument("--samples", type=int, default=100, help="time-travel positions")
    parser.add_argument("--games", default=None, help="comma-separated (default: all five)")
    parser.add_argument("--baseline", type=Path, default=None, help="another tree to compare")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.short, args.long, args.samples = 2, 100, 10
    games = (args.games or ("worldgainer,grail" if args.quick else ",".join(GAMES))).split(",")
    if args.worker:
        print(json.dumps(measure(args.worker, args.short, args.long, args.samples)))
        return
    trees = [("this", TREE)]
    if args.baseline is not None:
        trees.append(("baseline", args.baseline.resolve()))
    print(f"whole SQLite file per recorded action (WAL checkpointed, no VACUUM); "
          f"short: {args.short} random playouts recorded at a table (simulated: the same "
          f"as Kiroku.simulate stores them), long: up to {args.long} actions at a table")
    for i, game in enumerate(games):
        order = trees if i % 2 == 0 else trees[::-1]
        found = {label: in_tree(tree, game, args) for label, tree in order}
        print(game)
        for label, _ in trees:
            for kind in KINDS:
                print(describe(label, kind, found[label][kind], found[label]["empty"]))
        if args.baseline is not None:
            ratios = [per_action(found["this"][k]) / per_action(found["baseline"][k])
                      for k in KINDS]
            travel = (found["this"]["long"]["travel_ms"][0]
                      / found["baseline"]["long"]["travel_ms"][0])
            print(f"  this/baseline: short x{ratios[0]:.2f}, simulated x{ratios[1]:.2f}, "
                  f"long x{ratios[2]:.2f}, time travel x{travel:.2f}")


if __name__ == "__main__":
    main()
