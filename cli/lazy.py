"""A click group whose subcommands are imported the first time they are asked for: click's
own pattern for lazily loading subcommands (its documentation's ``LazyGroup``).

``kiroku match show`` then does not import what ``kiroku tournament`` or ``kiroku audit``
need (tournaments, pairings files, standings, worker processes): the command line answers a
scorekeeper at a table sooner (issue 43).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

import click


class LazyGroup(click.Group):
    """A group with subcommands named in ``lazy``: command name -> ``"module:attribute"``."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The group's own commands and the lazy ones, sorted."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A lazy command is imported here, once; the others as click finds them."""
        if cmd_name in self.lazy:
            module, name = self.lazy[cmd_name].split(":")
            command = getattr(import_module(module), name)
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)
