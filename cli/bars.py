"""The progress bar of the commands that work through many matches (``kiroku audit``,
``kiroku simulate``), apart from ``cli.render`` so that the commands a scorekeeper runs at a
table do not import rich's progress module (issue 43)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


def progress(err: Console | None = None) -> Progress:
    """A progress bar on standard error (or ``err``), shown on a terminal only; what a command
    prints to standard output meanwhile appears above the bar."""
    err = err or Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=err, disable=not err.is_terminal,
                    transient=True)
