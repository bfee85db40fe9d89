"""The commands on what lies beside a match: its transcript, annotations, disputes, variations
and studies. ``cli.main`` registers them by name and click imports this module the first time
one is asked for (``cli.lazy``), so that ``kiroku match show`` and ``match act`` do not import
the annotations', disputes' and variations' modules (issue 43)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

import click

from cli import render
from cli.common import (
    JSON_OPTION,
    as_viewer,
    find_match,
    outcome_value,
    print_json,
    seen_as,
    service,
)
from engine.registry import get_game
from ledger.annotations import SYMBOLS, VISIBILITIES
from ledger.identity import Identity
from replay import annotations as annotating
from replay import disputes as hearing
from replay import study as studies
from replay import variations as lines
from replay.audience import Audience
from replay.service import Kiroku


def _reader(kiroku: Kiroku, match_id: UUID, viewer: str) -> Audience:
    """The audience of whoever reads a match's annotations and disputes as ``--as`` would:
    the judge, no credential, or the seat's team (``annotating.reader_as``)."""
    return kiroku.audience(match_id, annotating.reader_as(as_viewer(viewer), match_id))


@click.command()
@click.argument("match_ref")
@click.option("--as", "viewer", default="judge", show_default=True,
              help="judge, spectator or seat:N.")
@click.option("--annotated", is_flag=True,
              help="With the annotations and disputes that viewer may read.")
@click.pass_context
def transcript(ctx: click.Context, match_ref: str, viewer: str, annotated: bool) -> None:
    """Print one line per event, as the viewer may see it."""
    with service(ctx) as kiroku:
        match_id = find_match(kiroku, match_ref)
        lines = (studies.annotated_transcript(kiroku, _reader(kiroku, match_id, viewer))
                 if annotated else kiroku.transcript(seen_as(kiroku, match_id, viewer)))
        for line in lines:
            click.echo(line)


@click.command()
@click.argument("match_ref")
@click.option("--text", default="", help="What the annotation says.")
@click.option("--at", "position", type=int, default=None,
              help="Position (0 = after setup; default: the current one).")
@click.option("--symbol", "symbols", multiple=True,
              type=click.Choice(list(SYMBOLS)), help="A symbol (repeatable).")
@click.option("--highlight", "highlights", multiple=True,
              help="A card id, or a zone as ZONE or ZONE#SEAT (repeatable).")
@click.option("--arrow", "arrows", multiple=True, type=(str, str),
              help="FROM TO: an arrow between two highlights (repeatable).")
@click.option("--visibility", default="public", show_default=True,
              type=click.Choice(list(VISIBILITIES)))
@click.option("--variation", type=click.UUID, default=None,
              help="Annotate a position of this variation (--at counts its actions).")
@click.option("--by", "operator", default="operator", show_default=True,
              help="The author's name (the command line acts as the organiser).")
@click.pass_context
def annotate(ctx: click.Context, match_ref: str, text: str, position: int | None,
             symbols: tuple[str, ...], highlights: tuple[str, ...],
             arrows: tuple[tuple[str, str], ...], visibility: str, variation: UUID | None,
             operator: str) -> None:
    """Annotate a position of a match: text, symbols, highlighted cards or zones, arrows."""
    with service(ctx) as kiroku:
        audience = kiroku.audience(find_match(kiroku, match_ref), Identity.operator(operator))
        made = annotating.add(kiroku, audience, position, text, symbols, highlights,
                              [list(a) for a in arrows], visibility, variation)
        click.echo(made["annotation_id"])


@click.command("annotations")
@click.argument("match_ref")
@click.option("--as", "viewer", default="spectator", show_default=True,
              help="judge, spectator or seat:N: whose readable annotations.")
@click.pass_context
def annotations_list(ctx: click.Context, match_ref: str, viewer: str) -> None:
    """List a match's annotations as a viewer may read them, one per line."""
    with service(ctx) as kiroku:
        match_id = find_match(kiroku, match_ref)
        for note in annotating.listing(kiroku, _reader(kiroku, match_id, viewer)):
            click.echo(annotating.line(note))


@click.group()
def dispute() -> None:
    """Call a judge, read the evidence, rule and appeal (the command line is the organiser).
    DISPUTE is a dispute's id or its first characters (4 or more), as for a match."""


@dispute.command("open")
@click.argument("match_ref")
@click.option("--claim", required=True, help="What is disputed.")
@click.option("--at", "position", type=int, default=None,
              help="Position (default: the current one).")
@click.option("--concerns", multiple=True, type=int, help="An event version (repeatable).")
@click.option("--pause/--no-pause", default=False, show_default=True,
              help="Refuse the seats' actions until the ruling.")
@click.option("--by", "operator", default="operator", show_default=True)
@click.pass_context
def dispute_open(ctx: click.Context, match_ref: str, claim: str, position: int | None,
                 concerns: tuple[int, ...], pause: bool, operator: str) -> None:
    """Open a dispute about a position of a match; prints its id."""
    with service(ctx) as kiroku:
        made = hearing.open_dispute(kiroku, Identity.operator(operator),
                                    find_match(kiroku, match_ref), position, claim, concerns,
                                    pause)
        click.echo(made["dispute_id"])


@dispute.command("list")
@click.argument("match_ref")
@click.pass_context
def dispute_list(ctx: click.Context, match_ref: str) -> None:
    """A match's disputes, one per line."""
    with service(ctx) as kiroku:
        for d in hearing.listing(kiroku, seen_as(kiroku, find_match(kiroku, match_ref))):
            last = d["rulings"][-1]["decision"] if d["rulings"] else ""
            click.echo(f"{d['dispute_id']}  at {d['position']:<4} {d['status']:<9} "
                       f"{'paused ' if d['pausing'] else ''}{d['claim'][:60]}"
                       f"{'  -> ' + last if last else ''}")


@dispute.command("show")
@click.argument("dispute_ref", metavar="DISPUTE")
@click.option("--as", "viewer", default="judge", show_default=True,
              help="judge or seat:N: whose evidence.")
@JSON_OPTION
@click.pass_context
def dispute_show(ctx: click.Context, dispute_ref: str, viewer: str, as_json: bool) -> None:
    """A dispute with its evidence: the claim, the rulings, the events concerned, what each
    seat knew, the audit, and the position as each seat saw it."""
    with service(ctx) as kiroku:
        dispute_id = hearing.find(kiroku, Identity.operator("operator"), dispute_ref)
        found = kiroku.disputes.get(dispute_id)
        match_id = UUID(found.match_id)
        reader = annotating.reader_as(as_viewer(viewer), match_id)
        data = hearing.read(kiroku, reader, dispute_id)
        if as_json:
            print_json(data)
            return
        audience = _reader(kiroku, match_id, viewer)
        ruleset = get_game(audience.match.game)
        names = kiroku.card_names(audience)
    out = render.console()
    out.print(render.dispute(data))
    for seen_by, state in data["evidence"]["positions"].items():
        view = {"match_id": str(match_id), "position": data["position"],
                "positions": data["position"], "viewer": seen_by, "state": state}
        out.print(render.position(view, ruleset, names))


@dispute.command("take")
@click.argument("dispute_ref", metavar="DISPUTE")
@click.option("--pause/--no-pause", default=False, show_default=True)
@click.option("--by", "operator", default="operator", show_default=True)
@click.pass_context
def dispute_take(ctx: click.Context, dispute_ref: str, pause: bool, operator: str) -> None:
    """Take a dispute as its judge (and pause the match for it)."""
    with service(ctx) as kiroku:
        taken = hearing.take(kiroku, Identity.operator(operator),
                             hearing.find(kiroku, Identity.operator(operator), dispute_ref), pause)
        click.echo(f"taken; {'the match is paused' if taken['pausing'] else 'not paused'}")


@dispute.command("rule")
@click.argument("dispute_ref", metavar="DISPUTE")
@click.option("--decision", required=True)
@click.option("--reasoning", required=True)
@click.option("--remedy", type=click.Choice(["none", "backup", "adjustment", "penalty",
                                             "game_ruling", "reopen"]),
              default="none", show_default=True)
@click.option("--to", "to_position", type=int, default=None,
              help="backup or reopen: the position.")
@click.option("--adjust", "adjust", default=None,
              help="adjustment or game_ruling: the judge's action (adjust, rule_claim), JSON.")
@click.option("--penalty", type=click.Choice(["warning", "game_loss"]), default=None)
@click.option("--seat", type=int, default=None, help="penalty: the seat penalised.")
@click.option("--by", "operator", default="operator", show_default=True)
@click.option("--yes", is_flag=True, help="Apply a game loss or a reopening without asking.")
@click.pass_context
def dispute_rule(ctx: click.Context, dispute_ref: str, decision: str, reasoning: str,
                 remedy: str, to_position: int | None, adjust: str | None,
                 penalty: str | None, seat: int | None, operator: str, yes: bool) -> None:
    """Rule on a dispute, applying the remedy to the match (on appeal: the final ruling)."""
    try:
        action = json.loads(adjust) if adjust else None
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint="--adjust") from None
    if not yes and (penalty == "game_loss" or remedy == "reopen"):
        what = (f"a game loss for seat {seat} ends the match" if penalty == "game_loss"
                else f"reopening the ended match at position {to_position} changes its result")
        click.confirm(f"This ruling is final for the match: {what}. Rule?", abort=True,
                      err=True)
    chosen: dict[str, Any] = {"kind": remedy, "to_position": to_position, "penalty": penalty,
                              "seat": seat, "action": action}
    with service(ctx) as kiroku:
        dispute_id = hearing.find(kiroku, Identity.operator(operator), dispute_ref)
        ruled = hearing.rule(kiroku, Identity.operator(operator), dispute_id, decision,
                             reasoning, {k: v for k, v in chosen.items() if v is not None})
        click.echo(f"{ruled['status']}: {json.dumps(ruled['rulings'][-1]['applied'])}")


@dispute.command("appeal")
@click.argument("dispute_ref", metavar="DISPUTE")
@click.option("--reason", required=True)
@click.option("--by", "operator", default="operator", show_default=True)
@click.pass_context
def dispute_appeal(ctx: click.Context, dispute_ref: str, reason: str, operator: str) -> None:
    """Appeal a ruling to the organisers."""
    with service(ctx) as kiroku:
        hearing.appeal(kiroku, Identity.operator(operator),
                       hearing.find(kiroku, Identity.operator(operator), dispute_ref), reason)
        click.echo("appealed")


@click.group()
def variation() -> None:
    """What-if lines from a position, played by the same rules (the command line is a judge)."""


@variation.command("start")
@click.argument("match_ref")
@click.option("--name", required=True)
@click.option("--at", "position", type=int, default=None,
              help="The match position to branch from (default: the current one).")
@click.option("--from", "parent", type=click.UUID, default=None,
              help="Branch from another variation instead...")
@click.option("--from-at", "parent_position", type=int, default=None,
              help="...at this position of it (default: its tip).")
@click.option("--visibility", type=click.Choice(list(lines.VISIBILITIES)), default="private",
              show_default=True)
@click.option("--by", "operator", default="operator", show_default=True)
@click.pass_context
def variation_start(ctx: click.Context, match_ref: str, name: str, position: int | None,
                    parent: UUID | None, parent_position: int | None, visibility: str,
                    operator: str) -> None:
    """Branch a what-if line; prints its id."""
    with service(ctx) as kiroku:
        audience = kiroku.audience(find_match(kiroku, match_ref), Identity.operator(operator))
        made = lines.start(kiroku, audience, position, parent, parent_position, name,
                           visibility)
        click.echo(made["variation_id"])


@variation.command("play")
@click.argument("variation_id", type=click.UUID)
@click.argument("action")
@click.option("--outcome", "outcomes", multiple=True,
              help="A chance outcome entered (default: the variation's own seed).")
@click.pass_context
def variation_play(ctx: click.Context, variation_id: UUID, action: str,
                   outcomes: tuple[str, ...]) -> None:
    """Play ACTION (JSON) at the tip of the line."""
    try:
        parsed = json.loads(action)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint="ACTION") from None
    with service(ctx) as kiroku:
        played = lines.play(kiroku, Identity.operator(), variation_id, parsed,
                            [outcome_value(o) for o in outcomes] if outcomes else None)
        click.echo(f"{len(played['line'])} action(s) in the line")


@variation.command("back")
@click.argument("variation_id", type=click.UUID)
@click.option("--count", type=int, default=1, show_default=True)
@click.pass_context
def variation_back(ctx: click.Context, variation_id: UUID, count: int) -> None:
    """Take back the last actions of the line (its history keeps them)."""
    with service(ctx) as kiroku:
        kept = lines.take_back(kiroku, Identity.operator(), variation_id, count)
        click.echo(f"{len(kept['line'])} action(s) in the line")


@variation.command("show")
@click.argument("variation_id", type=click.UUID)
@click.option("--at", "position", type=int, default=None, help="Default: the tip.")
@JSON_OPTION
@click.pass_context
def variation_show(ctx: click.Context, variation_id: UUID, position: int | None,
                   as_json: bool) -> None:
    """A variation's line and the position after --at of its actions, as a board."""
    with service(ctx) as kiroku:
        data = lines.read(kiroku, Identity.operator(), variation_id, position)
        if as_json:
            print_json(data)
            return
        audience = seen_as(kiroku, UUID(data["match_id"]))
        ruleset = get_game(audience.match.game)
        names = kiroku.card_names(audience)
    click.echo(f"Variation {data['name']!r} ({data['visibility']}) from position "
               f"{data['from_position']} of match {data['match_id'][:8]}: "
               f"{len(data['line'])} action(s)")
    for i, step in enumerate(data["line"], start=1):
        click.echo(f"  {i}. {json.dumps(step['action'])}")
    view = {"match_id": data["match_id"], "position": data["position"],
            "positions": len(data["line"]), "viewer": "judge", "state": data["state"]}
    render.console().print(render.position(view, ruleset, names, data["to_act"]))


@variation.command("list")
@click.argument("match_ref")
@click.pass_context
def variation_list(ctx: click.Context, match_ref: str) -> None:
    """A match's variations, one per line."""
    with service(ctx) as kiroku:
        for v in lines.listing(kiroku, seen_as(kiroku, find_match(kiroku, match_ref))):
            where = (f"from {v['parent'][:8]} at {v['parent_position']}" if v["parent"]
                     else f"from position {v['from_position']}")
            click.echo(f"{v['variation_id']}  {where:<24} {len(v['line']):>4} action(s)  "
                       f"[{v['visibility']}] {v['name']}")


@click.group()
def study() -> None:
    """A match with its annotations and variations as a text document, and back."""


@study.command("export")
@click.argument("match_ref")
@click.option("--as", "viewer", default="judge", show_default=True,
              help="judge, spectator or seat:N: what the study may show.")
@click.pass_context
def study_export(ctx: click.Context, match_ref: str, viewer: str) -> None:
    """Print the study of a match."""
    with service(ctx) as kiroku:
        match_id = find_match(kiroku, match_ref)
        click.echo(studies.export_study(kiroku, _reader(kiroku, match_id, viewer)), nl=False)


@study.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--by", "operator", default="operator", show_default=True)
@click.pass_context
def study_import(ctx: click.Context, path: Path, operator: str) -> None:
    """Add a study's annotations and variations to its match (all checked first)."""
    with service(ctx) as kiroku:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise click.BadParameter("a study is UTF-8 text", param_hint="PATH") from None
        done = studies.import_study(kiroku, Identity.operator(operator), text)
        click.echo(f"{done['annotations']} annotation(s) and {done['variations']} "
                   f"variation(s) added to {done['match_id']}")
