"""A click group whose subcommands are imported the first time they are asked for: click's
own pattern for lazily loading subcommands (its documentation's ``LazyGroup``).

``kiroku match show`` then does not import what ``kiroku tournament`` or ``kiroku audit``
need (tournaments, pairings files, standings, worker processes): the command line answers a
scorekeeper at a table sooner (issue 43). A group's ``--help`` lists each lazy command with
the first sentence of its help, given with it (``Lazy``), and imports none of them: listing
``kiroku serve`` would otherwise import uvicorn and the HTTP application.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, NamedTuple

import click


class Lazy(NamedTuple):
    """A subcommand imported when asked for: where it is (``"module:attribute"``) and the
    first sentence of its help, what a group's listing shows of it (click shortens a help to
    its first sentence; tests/cli/test_cli_imports.py holds the two the same)."""

    target: str
    summary: str


class LazyGroup(click.Group):
    """A group with subcommands named in ``lazy``: command name -> ``Lazy``."""

    def __init__(self, *args: Any, lazy: dict[str, Lazy] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The group's own commands and the lazy ones, sorted."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A lazy command is imported here, once; the others as click finds them."""
        if cmd_name in self.lazy:
            module, name = self.lazy[cmd_name].target.split(":")
            command = getattr(import_module(module), name)
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.lazy[cmd_name].target} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing of the subcommands and their short help (``Group.format_commands``),
        a lazy one's made from its summary as click makes it from a help, not imported."""
        listed: list[tuple[str, click.Command]] = []
        for name in self.list_commands(ctx):
            command = (click.Command(name, help=self.lazy[name].summary) if name in self.lazy
                       else super().get_command(ctx, name))
            if command is not None and not command.hidden:
                listed.append((name, command))
        if listed:
            limit = formatter.width - 6 - max(len(name) for name, _ in listed)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit))
                                    for name, command in listed])
