"""What every command shares: the store, errors as one clear line, JSON, options, id
prefixes."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import click

from engine.core.errors import ActionError
from ledger.errors import LedgerError, MatchNotFound
from ledger.settings import SettingsError
from replay.service import Kiroku


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``--option NAME=VALUE`` pairs as a dict (VALUE read as JSON where it is JSON)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r}: write NAME=VALUE", param_hint="--option")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


@contextmanager
def service(ctx: click.Context) -> Iterator[Kiroku]:
    """Open the store, turn domain errors into a clear message and exit status 2."""
    kiroku = None
    try:
        kiroku = Kiroku.open(ctx.obj["db"], keys=ctx.obj["keys"])
        yield kiroku
    except (ActionError, LedgerError, SettingsError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "code", "error")
        click.echo(f"error [{reason}]: {getattr(exc, 'message', exc)}", err=True)
        sys.exit(2)
    finally:
        if kiroku is not None:
            kiroku.close()


def find_match(kiroku: Kiroku, text: str) -> UUID:
    """A match id, or a unique prefix of one."""
    try:
        return UUID(text)
    except ValueError:
        hits = [m.match_id for m in kiroku.list_matches() if str(m.match_id).startswith(text)]
        if len(hits) == 1:
            return hits[0]
        raise MatchNotFound(f"No single match starts with {text!r} ({len(hits)} do).") from None
