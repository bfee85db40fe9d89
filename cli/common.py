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

from cli.words import result_text, scores_text, seat_name
from engine.core.errors import ActionError
from engine.core.viewer import Viewer
from ledger.errors import LedgerError, MatchNotFound
from ledger.settings import SettingsError
from replay.audience import Audience
from replay.ids import resolve_id
from replay.service import Kiroku

JSON_OPTION = click.option("--json", "as_json", is_flag=True,
                           help="Print JSON (for scripts) instead of the readable rendering.")


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
    """A match id, or the first characters (4 or more) of exactly one, as over HTTP."""
    return resolve_id(text, lambda: kiroku.match_ids(text),
                      ("match", "matches"), MatchNotFound)


def as_viewer(text: str) -> Viewer:
    """``--as``: judge, spectator or seat:N, or a usage error naming the option."""
    try:
        return Viewer.parse(text)
    except ActionError as exc:
        raise click.BadParameter(exc.message, param_hint="--as") from None


def seen_as(kiroku: Kiroku, match_id: UUID, viewer: str = "judge") -> Audience:
    """The operator's audience for a match, narrowed to ``--as``."""
    return kiroku.seen_by(match_id, as_viewer(viewer))


def standing(kiroku: Kiroku, match_id: UUID) -> str:
    """Where a match stands now, in words: who is to act, or its result; and the score."""
    data = kiroku.summary(seen_as(kiroku, match_id))
    players = data["players"]
    ended = result_text(data["result"], players)
    state = ended or (" and ".join(seat_name(players, s) for s in data["to_act"])
                      + " to act")
    score = scores_text(data["scores"], players)
    return f"Now: {state}." + (f" {score}." if score else "")


def outcome_value(text: str) -> Any:
    """An ``--outcome`` as entered: a whole number where it is one, else the text."""
    return int(text) if text.lstrip("-").isdigit() else text
