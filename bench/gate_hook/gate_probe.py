"""The write gate's probe (bench/gate_hold.py, through this folder's sitecustomize): each
pass of Kiroku's SQLite write gate (``ledger.writegate.WriteGate.held``) timed in the process
that makes it, one line per pass appended to ``<folder>/<pid>.txt``: when the write asked for
the gate, how long it waited for it, how long it held it (until the file's lock and the
thread lock were let go), and how many saves the group commit took in while holding it (0
for writes other than saves: the match list, credentials). A pass whose write failed is not
written. Times are ``time.monotonic()``, one clock for every process of the machine. Writing
a line costs a few microseconds after the gate is let go, before the save returns; nothing
else changes."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ledger import groupcommit, writegate

_counted = threading.local()  # saves taken in by the current thread's pass of the gate
_lines = threading.Lock()


def install(folder: str) -> None:
    """Time every pass of the gate in this process, from now on, into ``folder``."""
    held = writegate.WriteGate.held
    take_queue = groupcommit.GroupCommitRecorder._take_queue
    path = os.path.join(folder, f"{os.getpid()}.txt")

    @contextmanager
    def timed(gate: writegate.WriteGate, timeout: float) -> Iterator[None]:
        asked = time.monotonic()
        with held(gate, timeout):
            got = time.monotonic()
            _counted.saves = 0
            yield
        let_go = time.monotonic()
        line = f"{asked:.6f} {got - asked:.6f} {let_go - got:.6f} {_counted.saves}\n"
        with _lines, open(path, "a") as out:
            out.write(line)

    def counted(recorder: Any) -> list[Any]:
        batch: list[Any] = take_queue(recorder)
        _counted.saves = getattr(_counted, "saves", 0) + len(batch)
        return batch

    writegate.WriteGate.held = timed  # type: ignore[method-assign,assignment]
    groupcommit.GroupCommitRecorder._take_queue = counted  # type: ignore[method-assign]
