"""The garbage collector's pace in a server process: a full collection walks only what became
long-lived since the last one (issue 43).

CPython's collector walks every object it tracks in a full (generation 2) collection, and
holds the interpreter while it does: every request of the process waits. A server's
long-lived objects are mostly its cached matches (about 90 objects each; eventsourcing's cache
holds up to 16,384) and its live streams, so the pauses grew with the event: measured in a
worker with 2,000 watchers and 200 tables, six full collections in a minute took 29, 32, 77,
132, 184 and 213 ms as the tracked objects grew from 41,000 to 427,000, and **found no
garbage** (every one collected 0 objects). A table whose tap arrived during one waited for it:
the tables' p99 went from 17 to 238 ms.

``serving`` already moves what start-up made out of the collector's reach (``gc.freeze``).
``Pacing`` does the same after every full collection, with Python's own mechanism: what
survived it is alive at that moment, and is frozen, so the next full collection walks only
the objects that became long-lived since. What it costs: a frozen object that later becomes
part of an unreachable reference cycle is not freed until it is walked again. Kiroku's cached
matches are freed by reference counting when the cache lets them go (no cycles:
``tests/replay/test_collector.py`` checks it for every game), and the young generations are
still collected as before; what remains (a stream's objects that end in a cycle, say) is
bounded: once the frozen objects are ``REWALK_AFTER`` times as many as after the last walk of
everything, they are unfrozen, the next full collection walks everything once (one long pause
when the heap has doubled, not at every quarter of its growth) and frees what had leaked, and
its survivors are frozen again.

How many are frozen is not asked after every full collection: ``gc.get_freeze_count()``
walks the whole list of frozen objects while it holds the interpreter, which took 12 to 36 ms
after each full collection of a server with 2,000 watchers (100,000 to 310,000 frozen
objects), as long as the collection itself, and grows with the cache (``bench/gc_pauses.py``:
a full collection finding nothing new cost 40-50 ms at 530,000 frozen objects, all of it
the count).
``Pacing`` keeps a tally instead: each full collection adds its survivors (the objects the
collector tracks then, ``gc.get_objects()``: as many as it has just walked). Frozen objects
freed since are not taken off, so the tally is at least the frozen count, and only once the
tally passes the bound is the frozen list counted: past the bound as well, everything is
walked next; else the tally starts again from the count. A count that found the heap just
under its bound puts the next one off until the tally has grown by a quarter of the last
walk's objects (``RECOUNT_AFTER``), so that a heap that stays there is not counted at every
collection: the walk of everything then comes at most that many frozen objects past the
bound.
"""

from __future__ import annotations

import gc
import threading
from typing import Any

REWALK_AFTER = 2.0
"""Frozen objects, as a multiple of those frozen after the last walk of everything, past which
the next full collection walks everything again."""

FLOOR = 200_000
"""The fewest frozen objects counted as the last walk's (a process just started has few, and
would walk everything again at every doubling of a small heap)."""

RECOUNT_AFTER = 0.25
"""After a count of the frozen objects that found them within the bound: the fewest objects
frozen before the next count, as a share of those frozen after the last walk of everything."""


class Pacing:
    """A ``gc.callbacks`` entry: after each full collection, its survivors frozen; everything
    unfrozen for the next full collection once the frozen objects have grown ``rewalk_after``
    times (see the module)."""

    def __init__(self, rewalk_after: float = REWALK_AFTER, floor: int = FLOOR) -> None:
        self.rewalk_after = rewalk_after
        self.floor = floor
        self.after_walk = max(gc.get_freeze_count(), floor)  # counted once, as installed
        self.tally = self.after_walk  # at least the frozen objects (see the module)
        self.count_past = self.bound  # the tally past which they are counted
        self.counts = 0  # times the frozen objects were counted after a collection
        self.walking_all = False
        self.walks_of_everything = 0

    @property
    def bound(self) -> float:
        """The frozen objects past which the next full collection walks everything."""
        return self.rewalk_after * self.after_walk

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        """Called by the collector before and after each collection."""
        if phase != "stop" or info.get("generation") != 2:
            return
        # what this collection walked and left, and the few made since (its callbacks'): all
        # that ``freeze`` moves
        survivors = len(gc.get_objects())
        gc.freeze()
        if self.walking_all:  # this collection walked everything: the new baseline
            self.walking_all = False
            self.walks_of_everything += 1
            self.after_walk = self.tally = max(survivors, self.floor)
            self.count_past = self.bound
            return
        self.tally += survivors
        if self.tally > self.count_past:
            self._count()

    def _count(self) -> None:
        """The frozen objects counted, now that the tally says they may be past the bound:
        past it, everything unfrozen for the next full collection to walk; else the tally
        set to the count, and the next count put off until the tally has grown by at least
        ``RECOUNT_AFTER`` of the last walk's objects."""
        self.counts += 1
        frozen = gc.get_freeze_count()
        if frozen > self.bound:
            gc.unfreeze()  # the next full collection walks everything once
            self.walking_all = True
            return
        self.tally = frozen
        self.count_past = max(self.bound, frozen + RECOUNT_AFTER * self.after_walk)


_installed: Pacing | None = None
_guard = threading.Lock()


def pace() -> Pacing:
    """Install ``Pacing`` in this process's collector (once; the one installed if it is)."""
    global _installed
    with _guard:
        if _installed is None:
            _installed = Pacing()
            gc.callbacks.append(_installed)
        return _installed


def stop_pacing() -> None:
    """Remove the installed ``Pacing``, if any, and unfreeze what it froze (tests)."""
    global _installed
    with _guard:
        if _installed is not None:
            gc.callbacks.remove(_installed)
            _installed = None
            gc.unfreeze()
