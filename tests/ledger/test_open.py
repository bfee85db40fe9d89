"""Several processes opening one PostgreSQL store at once all succeed (issue 9): eventsourcing
re-creates its tables and functions on every open, which raced ('tuple concurrently
updated') until opening took an advisory lock."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OPEN = "import sys; from replay.service import Kiroku; Kiroku.open(sys.argv[1]).close()"


@pytest.mark.parametrize("round_", range(3))
def test_servers_started_together_all_open_the_store(store_url: str, round_: int) -> None:
    if not store_url.startswith("postgres"):
        pytest.skip("SQLite has no tables to race over between processes")
    procs = [subprocess.Popen([sys.executable, "-c", OPEN, store_url], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(8)]
    failures = []
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        if proc.returncode:
            failures.append(err.decode(errors="replace")[-400:])
    assert not failures, failures
