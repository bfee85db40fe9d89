"""The commands that draw with rich (``cli.render``): a match's summary and its legal actions
as a table, a replayed position as a board, a game's cards and reason codes, and export and
import with their spinner. Imported when asked for (``cli.lazy``): ``kiroku match act`` and
``match undo``, which print sentences (``cli.words``), do not import rich (issue 43: a
scorekeeper's recorded action within 0.3 s). Each command's name, options and help are those
``kiroku --help`` has always listed."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cli import render
from cli.common import JSON_OPTION, find_match, print_json, seen_as, service, standing
from engine.core.errors import ActionError, SetupError
from engine.core.reasons import (
    GENERATED_END,
    by_section,
    generated_by,
    reason_table,
    reasons_met,
    with_generated_table,
)
from engine.registry import get_game
from ledger.catalog import resolve_deck, sample_card_set


@click.command("cards")
@click.argument("game")
@click.option("--deck", default=None, help="Only the cards of this sample deck (or deck file), "
                                          "with their copies.")
@click.option("--find", default=None, help="Only cards whose id or name contains this text.")
@JSON_OPTION
def list_cards(game: str, deck: str | None, find: str | None, as_json: bool) -> None:
    """The cards of GAME's sample set: id, name and kind, to read the ids other commands show."""
    try:
        ruleset = get_game(game)
        cards = sample_card_set(game).cards
        copies = dict(resolve_deck(game, deck).cards) if deck else None
    except (ActionError, SetupError) as exc:
        raise click.ClickException(exc.message) from None
    rows = [{"id": cid, "copies": copies.get(cid) if copies else None, **card}
            for cid, card in cards.items() if copies is None or cid in copies]
    if find:
        rows = [r for r in rows if find.casefold() in f"{r['id']} {r['name']}".casefold()]
    if as_json:
        print_json(rows)
        return
    kind = next((k for k in ("kind", "type", "colour") if rows and k in rows[0]), None)
    columns = [*(["copies"] if copies else []), "id", "name", *([kind] if kind else [])]
    render.console().print(render.cards(rows, columns))
    click.echo(f"{len(rows)} card(s) of {ruleset.title}")


@click.command("reasons")
@click.argument("game")
@click.option("--markdown", is_flag=True,
              help="Print the rules page's reason-code tables, exactly as the page holds them.")
@click.option("--write-docs", "page", default=None,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Write the tables into this rules page, between its generated-by comments.")
@JSON_OPTION
def list_reasons(game: str, markdown: bool, page: Path | None, as_json: bool) -> None:
    """The reason codes GAME's refusals carry, by section, each with what it means: the
    game's own and the kernel's (match creation, any action, adjustments)."""
    try:
        ruleset = get_game(game)
    except ActionError as exc:
        raise click.ClickException(exc.message) from None
    table = reason_table(ruleset.reasons)
    if page is not None:
        _write_reason_table(page, ruleset.game_id, table)
        return
    if markdown:
        click.echo(table, nl=False)
        return
    met = reasons_met(ruleset.reasons)
    if as_json:
        print_json([{"code": r.value, "section": r.section, "meaning": r.meaning} for r in met])
        return
    render.console().print(render.reasons(by_section(met)))


def _write_reason_table(page: Path, game_id: str, table: str) -> None:
    """Replace the generated reason-code tables of the rules page ``page``."""
    written = with_generated_table(page.read_text("utf-8"), game_id, table)
    if written is None:
        raise click.ClickException(f"{page} has no block between {generated_by(game_id)} and "
                                   f"{GENERATED_END} to write the tables into.")
    page.write_text(written, "utf-8")
    click.echo(f"Wrote the reason codes of {game_id} into {page}.")


@click.command("show")
@click.argument("match_ref")
@JSON_OPTION
@click.pass_context
def match_show(ctx: click.Context, match_ref: str, as_json: bool) -> None:
    """Show a match's summary: players, where it stands, the score, who is to act."""
    with service(ctx) as kiroku:
        data = kiroku.summary(seen_as(kiroku, find_match(kiroku, match_ref)))
        if as_json:
            print_json(data)
        else:
            render.console().print(render.summary(data, get_game(data["game"])))


@click.command("legal")
@click.argument("match_ref")
@click.option("--seat", type=int, required=True)
@click.option("--json", "as_json", is_flag=True,
              help="One JSON action per line (to pass to 'match act').")
@click.pass_context
def match_legal(ctx: click.Context, match_ref: str, seat: int, as_json: bool) -> None:
    """List the actions SEAT may take now, in words, numbered for 'match act' at the version
    printed below them; or as JSON."""
    with service(ctx) as kiroku:
        match_id = find_match(kiroku, match_ref)
        audience = seen_as(kiroku, match_id)
        found = kiroku.legal_actions(audience, seat)
        if as_json:
            for action in found:
                click.echo(json.dumps(action))
            return
        if not found:
            click.echo(f"Seat {seat} has no action to take now. {standing(kiroku, match_id)}")
            return
        render.console().print(render.legal(kiroku.describe_actions(audience, found)))
        click.echo(f"At version {audience.version}. To record one: kiroku match act "
                   f"{match_ref} NUMBER --seat {seat} --expect-version {audience.version}")


@click.command()
@click.argument("match_ref")
@click.option("--at", "position", type=int, default=None, help="Position (0 = after setup).")
@click.option("--as", "viewer", default="judge", show_default=True,
              help="judge, spectator or seat:N (the command line acts as the organiser, who "
                   "sees what a judge sees).")
@JSON_OPTION
@click.pass_context
def replay(ctx: click.Context, match_ref: str, position: int | None, viewer: str,
           as_json: bool) -> None:
    """Show the position as a viewer saw it: a board, or JSON."""
    with service(ctx) as kiroku:
        match_id = find_match(kiroku, match_ref)
        audience = seen_as(kiroku, match_id, viewer)
        view = kiroku.view(audience, position)
        if as_json:
            print_json(view)
            return
        ruleset = get_game(view["game"])
        to_act = kiroku.to_act_at(audience, view["position"])
        render.console().print(render.position(view, ruleset, kiroku.card_names(audience),
                                               to_act))


@click.command("export")
@click.argument("match_ref")
@click.option("--format", "fmt", type=click.Choice(["msgpack", "jsonl"]), default="msgpack",
              show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="File to write (default: MATCH.kiroku or MATCH.jsonl).")
@click.option("--as", "viewer", default="judge", show_default=True,
              help="Only a judge export can be imported again.")
@click.pass_context
def export_match(ctx: click.Context, match_ref: str, fmt: str, output: str | None,
                 viewer: str) -> None:
    """Export a whole match."""
    with service(ctx) as kiroku, render.status("exporting"):
        match_id = find_match(kiroku, match_ref)
        data = kiroku.export(seen_as(kiroku, match_id, viewer), fmt)
    path = Path(output or f"{match_id}.{'kiroku' if fmt == 'msgpack' else 'jsonl'}")
    path.write_bytes(data)
    click.echo(f"wrote {path} ({len(data)} bytes)")


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.pass_context
def import_match(ctx: click.Context, file: str) -> None:
    """Verify and import an exported match (msgpack or JSON lines)."""
    with service(ctx) as kiroku, render.status("verifying and importing"):
        done = kiroku.import_match(Path(file).read_bytes())
        click.echo(f"imported {done.match_id}" if done.stored else
                   f"already stored, with exactly these events: {done.match_id}")
