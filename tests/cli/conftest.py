"""What the command-line tests share: a database of their own, and the ``kiroku`` runner."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

from cli import bars
from cli.main import main

SHOWN = bars.progress  # the command line's own progress bar, before a test replaces it


@pytest.fixture(autouse=True)
def _no_ambient_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests name their database; an exported KIROKU_DATABASE_URL must not leak in."""
    monkeypatch.delenv("KIROKU_DATABASE_URL", raising=False)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A fresh SQLite database for the test."""
    return f"sqlite:///{tmp_path / 'k.db'}"


def kiroku(db: str, *args: str, ok: bool = True, input: str | None = None) -> Result:
    """Run ``kiroku --db DB ARGS``; with ``ok`` the command must succeed."""
    result = CliRunner().invoke(main, ["--db", db, *args], input=input)
    if ok:
        assert result.exit_code == 0, (result.output, result.exception)
    return result


@pytest.fixture
def progress_screen(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """What the commands' progress bars draw, on a terminal 100 columns wide (the test's
    runner is not a terminal, so they would draw nothing)."""
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100)
    monkeypatch.setattr(bars, "progress", lambda: SHOWN(terminal))
    return screen
