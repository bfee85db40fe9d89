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


class Pacing:
    """A ``gc.callbacks`` entry: after each full collection, its survivors frozen; everything
    unfrozen for the next full collection once the frozen objects have grown ``rewalk_after``
    times (see the module)."""

    def __init__(self, rewalk_after: float = REWALK_AFTER, floor: int = FLOOR) -> None:
        self.rewalk_after = rewalk_after
        self.floor = floor
        self.after_walk = max(gc.get_freeze_count(), floor)
        self.walking_all = False
        self.walks_of_everything = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        """Called by the collector before and after each collection."""
        if phase != "stop" or info.get("generation") != 2:
            return
        gc.freeze()
        frozen = gc.get_freeze_count()
        if self.walking_all:  # this collection walked everything: the new baseline
            self.walking_all = False
            self.walks_of_everything += 1
            self.after_walk = max(frozen, self.floor)
        elif frozen > self.rewalk_after * self.after_walk:
            gc.unfreeze()  # the next full collection walks everything once
            self.walking_all = True


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
