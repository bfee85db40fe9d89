"""How many threads a Kiroku server process runs requests on (``kiroku serve --threads``,
``KIROKU_THREADS``); the HTTP application applies it (replay.api)."""

from __future__ import annotations

import os

DEFAULT_THREADS = 2
MOST_THREADS = 256


class ThreadsSettingError(ValueError):
    """KIROKU_THREADS is not a number of threads."""


def threads_setting(given: int | None = None) -> int:
    """How many threads a server process runs routes and store calls on: ``given``, else
    ``KIROKU_THREADS``, else ``DEFAULT_THREADS``.

    Few, on purpose. A route is mostly Python holding the interpreter lock; with anyio's
    default of 40 threads, 16 busy clients had 16 threads and the event loop taking turns on
    it: each request cost more CPU, and the p99 of recording was three times what it is on
    two. Two, not one, so that one long request (an import, the audit of a long match) does
    not hold up every seat's action (bench/RESULTS.md, fifth part)."""
    if given is not None:
        return given
    raw = os.environ.get("KIROKU_THREADS")
    if raw is None:
        return DEFAULT_THREADS
    threads = int(raw) if raw.strip().isdigit() else 0
    if not 1 <= threads <= MOST_THREADS:
        raise ThreadsSettingError(f"KIROKU_THREADS is the number of threads a server process "
                                  f"runs requests on, 1 to {MOST_THREADS}, not {raw!r}.")
    return threads
