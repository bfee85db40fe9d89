"""Several processes opening one new store at once all succeed. eventsourcing creates (or
re-creates) its tables on every open, which raced: on PostgreSQL 'tuple concurrently updated'
(issue 9) until opening took an advisory lock; on a new SQLite file the library's
IntegrityError for its migration's tracking record, in about four runs of ten with three
processes (issue 16), until opening took a lock on the file beside the database."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# each process imports Kiroku, says so, and opens the store when told: all at once
OPEN = ("import sys; from replay.service import Kiroku; print('ready', flush=True); "
        "sys.stdin.readline(); Kiroku.open(sys.argv[1]).close()")


@pytest.mark.parametrize("round_", range(3))
def test_servers_started_together_all_open_the_store(store_url: str, round_: int) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", OPEN, store_url], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
             for _ in range(8)]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
    failures = []
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        if proc.returncode:
            failures.append(err.decode(errors="replace")[-400:])
    assert not failures, failures
