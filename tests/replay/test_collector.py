"""The garbage collector's pace in a server process (replay.api.collector, issue 43): what
survives a full collection is frozen, so the next walks only what became long-lived since;
cycles left among frozen objects are freed once the frozen heap has doubled; the frozen
objects are counted (a walk of all of them) only when a tally says they may have; and a cached
match the cache lets go is freed without the collector, for every game (what makes freezing
safe for the bulk of a server's heap)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, *args: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """``code`` in a process of its own (a freeze is for the process); its last JSON line."""
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=True, env={**os.environ, **(env or {})})
    seen: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return seen


SURVIVORS = """
import gc, json
from replay.api.collector import pace
pace()
kept = [[i] for i in range(50_000)]  # long-lived: alive through the collection
gc.collect()
tracked_after = len(gc.get_objects())
print(json.dumps({"frozen": gc.get_freeze_count(), "tracked": tracked_after}))
"""


def test_what_survives_a_full_collection_is_frozen() -> None:
    seen = _run(SURVIVORS)
    assert seen["frozen"] >= 50_000  # type: ignore[operator]
    assert seen["tracked"] < 1_000  # type: ignore[operator]


CYCLES = """
import gc, json, weakref
from replay.api.collector import Pacing
gc.collect()
gc.freeze()  # the heap a server starts with, frozen as ``serving`` freezes it
pacing = Pacing(rewalk_after=2.0, floor=1_000)
gc.callbacks.append(pacing)

class Node:
    def __init__(self): self.other = self  # a cycle: only the collector frees it

cycles = [Node() for _ in range(1_000)]
watch = [weakref.ref(node) for node in cycles[:10]]
gc.collect()  # they survive it, alive: frozen
del cycles
gc.collect()
left_while_frozen = sum(ref() is not None for ref in watch)
grown = [[i] for i in range(gc.get_freeze_count() + 10_000)]  # the frozen heap doubles
gc.collect()  # frozen again, and past twice the last walk: unfrozen for the next one
gc.collect()  # walks everything: the cycles are freed
print(json.dumps({"left_while_frozen": left_while_frozen,
                  "left_after_walk": sum(ref() is not None for ref in watch),
                  "walks": pacing.walks_of_everything, "frozen": gc.get_freeze_count()}))
"""


def test_cycles_left_among_frozen_objects_are_freed_once_the_heap_has_doubled() -> None:
    seen = _run(CYCLES)
    assert seen["left_while_frozen"] == 10  # frozen: not walked, not freed (the cost)
    assert seen["left_after_walk"] == 0  # walked once the heap doubled: freed
    assert seen["walks"] == 1
    assert seen["frozen"] >= 30_000  # type: ignore[operator]  # and the survivors frozen again


COUNTED = """
import gc, json
from replay.api.collector import Pacing
gc.collect()
gc.freeze()  # the heap a server starts with, frozen as ``serving`` freezes it
pacing = Pacing(rewalk_after=2.0, floor=10_000)
gc.callbacks.append(pacing)
counted = []
count = gc.get_freeze_count
gc.get_freeze_count = lambda: counted.append(1) or count()  # each walk of the frozen list
kept = []
for _ in range(5):
    kept.append([[i] for i in range(1_000)])  # long-lived: the heap grows, well within twice
    gc.collect()
print(json.dumps({"counted": len(counted), "walks": pacing.walks_of_everything,
                  "frozen": count(), "tally": pacing.tally}))
"""


def test_a_full_collection_does_not_count_the_frozen_objects_while_the_tally_is_in_bound(
        ) -> None:
    """Counting the frozen objects walks all of them with the interpreter held (40 ms at
    530,000): five full collections of a heap that grows within its bound count none."""
    seen = _run(COUNTED)
    assert seen["counted"] == 0
    assert seen["walks"] == 0
    assert seen["tally"] >= seen["frozen"]  # type: ignore[operator]  # never under the count


CHURN = """
import gc, json
from replay.api.collector import Pacing
gc.collect()
gc.freeze()
pacing = Pacing(rewalk_after=2.0, floor=10_000)
gc.callbacks.append(pacing)
start = gc.get_freeze_count()
for _ in range(30):
    batch = [[i] for i in range(pacing.after_walk // 10)]
    gc.collect()  # the batch survives it: frozen
    del batch  # and freed by reference counting: the frozen heap is as it was
print(json.dumps({"counts": pacing.counts, "walks": pacing.walks_of_everything,
                  "grown": gc.get_freeze_count() - start}))
"""


def test_objects_frozen_and_freed_since_bring_a_count_but_no_walk_of_everything() -> None:
    """Thirty batches of a tenth of the heap each, frozen and then freed (a cache that lets
    old matches go for new ones): the tally passes the bound every ten batches or so, the
    count finds the heap as it was, and nothing is walked again; nor is the heap counted at
    every collection."""
    seen = _run(CHURN)
    assert seen["walks"] == 0
    assert 1 <= seen["counts"] <= 5  # type: ignore[operator]
    assert seen["grown"] < 1_000  # type: ignore[operator]


NEAR_BOUND = """
import gc, json
from replay.api.collector import Pacing
gc.collect()
gc.freeze()
pacing = Pacing(rewalk_after=2.0, floor=10_000)
gc.callbacks.append(pacing)
kept = [[i] for i in range(int(pacing.after_walk * 0.9))]
gc.collect()  # the heap at 1.9 times the last walk's: just under its bound
for _ in range(20):
    batch = [[i] for i in range(pacing.after_walk // 20)]
    gc.collect()
    del batch
print(json.dumps({"counts": pacing.counts, "walks": pacing.walks_of_everything}))
"""


def test_a_heap_just_under_its_bound_is_not_counted_at_every_collection() -> None:
    """Twenty small batches frozen and freed on a heap at 1.9 times the last walk's: a count
    at every collection once the tally has passed the bound, but for ``RECOUNT_AFTER``."""
    seen = _run(NEAR_BOUND)
    assert seen["walks"] == 0
    assert 1 <= seen["counts"] <= 6  # type: ignore[operator]


EVICTED = """
import gc, json, sys, weakref
from engine.registry import SHIPPED
from replay.service import Kiroku
kiroku = Kiroku.open("sqlite:///:memory:")
players = {"illuminati": 4, "grail": 3, "edge": 4}
matches = {game: kiroku.simulate(game, 2, seed=5, players=players.get(game, 2))
           for game in SHIPPED}
pushers = kiroku.simulate("worldgainer", 2, seed=6)
repository = kiroku.recorder.repository
gc.collect()
gc.disable()
watch = {}
for game, ids in matches.items():
    for match_id in ids:
        cached = repository.get(match_id, deepcopy_from_cache=False)
        watch.setdefault(game, []).append(weakref.ref(cached))
        del cached
for match_id in pushers:  # the last two watched pushed out too
    repository.get(match_id, deepcopy_from_cache=False)
print(json.dumps({"cache": repository.cache.maxsize, "left": {
    game: sum(ref() is not None for ref in refs) for game, refs in watch.items()}}))
"""


def test_a_match_the_cache_lets_go_is_freed_without_the_collector() -> None:
    """With the collector off and a cache of two matches, every game's matches read through
    it are freed as the cache lets them go: no reference cycle holds a cached match."""
    seen = _run(EVICTED, env={"KIROKU_AGGREGATE_CACHE_MAXSIZE": "2"})
    assert seen["cache"] == 2
    left = seen["left"]
    assert isinstance(left, dict) and len(left) == 5
    assert all(count == 0 for count in left.values()), left


SERVED = """
import gc, json, sys
from replay.api import create_app, serving
from replay.api.collector import Pacing
from replay.service import Kiroku
serving(create_app(Kiroku.open(sys.argv[1])))
print(json.dumps({"pacing": sum(isinstance(c, Pacing) for c in gc.callbacks)}))
"""


def test_a_server_paces_its_collector(tmp_path: Path) -> None:
    seen = _run(SERVED, f"sqlite:///{tmp_path / 'k.db'}")
    assert seen["pacing"] == 1
