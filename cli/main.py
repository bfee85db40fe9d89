"""The ``kiroku`` command line (click). Every command works on KIROKU_DATABASE_URL or --db."""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import click

from cli import render
from cli.common import JSON_OPTION, find_match, parse_options, print_json, service
from cli.lazy import LazyGroup
from engine.core.errors import ActionError, SetupError
from engine.core.reasons import (
    GENERATED_END,
    by_section,
    generated_by,
    reason_table,
    reasons_met,
    with_generated_table,
)
from engine.core.viewer import Viewer
from engine.registry import games, get_game
from ledger.annotations import SYMBOLS, VISIBILITIES
from ledger.catalog import load_card_set, resolve_deck, sample_card_set
from ledger.errors import ConcurrentAppend
from ledger.identity import Identity, Role
from ledger.settings import database_url
from replay import annotations as annotating
from replay import disputes as hearing
from replay import study as studies
from replay import variations as lines
from replay.audience import Audience
from replay.service import Kiroku
from replay.threads import DEFAULT_THREADS, MOST_THREADS, ThreadsSettingError, threads_setting


def _viewer(text: str) -> Viewer:
    try:
        return Viewer.parse(text)
    except ActionError as exc:
        raise click.BadParameter(exc.message, param_hint="--as") from None


def _as(kiroku: Kiroku, match_id: UUID, viewer: str = "judge") -> Audience:
    """The operator's audience for a match, narrowed to ``--as``."""
    return kiroku.seen_by(match_id, _viewer(viewer))


def _reader(kiroku: Kiroku, match_id: UUID, viewer: str) -> Audience:
    """The audience of whoever reads a match's annotations and disputes as ``--as`` would:
    the judge, no credential, or the seat's team (``annotating.reader_as``)."""
    return kiroku.audience(match_id, annotating.reader_as(_viewer(viewer), match_id))


# imported when asked for (cli.lazy)
LAZY = {"audit": "cli.audit:audit", "tournament": "cli.tournaments:tournament"}


@click.group(cls=LazyGroup, lazy=LAZY)
@click.option("--db", envvar="KIROKU_DATABASE_URL", default=None, show_default=False,
              help="Database URL: sqlite:///file.db (default sqlite:///./kiroku.db) or "
                   "postgresql://user:password@host:port/dbname. Env: KIROKU_DATABASE_URL.")
@click.option("--keys", envvar="KIROKU_KEY_FILE", default=None,
              help="The deployment's key file (seals seeds, signs receipts), shared by every "
                   "server of a deployment and kept apart from the database; created on first "
                   "use. Default: beside an SQLite database, else ./kiroku.keys. "
                   "Env: KIROKU_KEY_FILE.")
@click.pass_context
def main(ctx: click.Context, db: str | None, keys: str | None) -> None:
    """Kiroku (記録): record, replay and audit trading-card-game matches."""
    ctx.obj = {"db": database_url(db), "keys": keys}


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--demo/--no-demo", default=True, show_default=True,
              help="Record one demo match first when the store is empty.")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Server processes on the one store (uvicorn's workers) [default: one per "
                   "core this process may run on, on a database file or PostgreSQL; 1 on an "
                   "in-memory store, which processes cannot share]. On SQLite their writes "
                   "take turns on the file's write gate; on Linux each listens on a socket "
                   "of its own (bench/RESULTS.md).")
@click.option("--threads", type=click.IntRange(1, MOST_THREADS), default=None,
              help=f"Threads each server process runs requests on [default: "
                   f"KIROKU_THREADS, else {DEFAULT_THREADS}]. Few is faster: the work "
                   "holds Python's interpreter lock (bench/RESULTS.md).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, demo: bool, workers: int | None,
          threads: int | None) -> None:
    """Run the HTTP service (OpenAPI docs at /docs)."""
    import uvicorn

    from replay.api import create_app, serving
    from replay.api.connections import (
        HEALTHCHECK_SECONDS,
        HTTP,
        KEEP_ALIVE_SECONDS,
        default_workers,
        in_memory,
        listening_socket,
        run_workers,
    )
    from replay.api.heavy import HeavyShareSettingError, caller_share

    url = ctx.obj["db"]
    try:
        threads = threads_setting(threads)
        caller_share()
    except (ThreadsSettingError, HeavyShareSettingError) as exc:
        raise click.UsageError(str(exc)) from None
    if workers is None:
        workers = default_workers(url)
    elif workers > 1 and in_memory(url):
        raise click.UsageError("--workers needs a database file or PostgreSQL: an in-memory "
                               "store cannot be shared between processes.")
    with service(ctx) as kiroku:
        token = kiroku.credentials.ensure_organiser()
        if token:
            click.echo("First start: the organiser's credential (shown only this once; "
                       "'kiroku credentials issue --role organiser' makes another):\n"
                       f"    {token}\n"
                       "Send it as 'Authorization: Bearer TOKEN'.", err=True)
        if demo:
            made = kiroku.ensure_demo()
            if made:
                click.echo(f"Recorded a demo match {made}: try GET /matches/{made}/transcript")
        click.echo(f"Kiroku on {ctx.obj['db']} at http://{host}:{port} (docs: /docs)"
                   + (f", {workers} worker processes" if workers > 1 else ""))
        if workers == 1:
            uvicorn.run(serving(create_app(kiroku, threads)), host=host, port=port,
                        log_level="info", http=HTTP, timeout_keep_alive=KEEP_ALIVE_SECONDS)
            return
    # each worker opens the store itself, from the environment it inherits
    os.environ["KIROKU_DATABASE_URL"] = url
    os.environ["KIROKU_THREADS"] = str(threads)
    if ctx.obj["keys"]:
        os.environ["KIROKU_KEY_FILE"] = ctx.obj["keys"]
    config = uvicorn.Config("replay.api:create_app_from_environment", factory=True,
                            workers=workers, host=host, port=port, log_level="info", http=HTTP,
                            timeout_worker_healthcheck=HEALTHCHECK_SECONDS,
                            timeout_keep_alive=KEEP_ALIVE_SECONDS)
    try:
        sock = listening_socket(config)
    except OSError as exc:
        raise click.ClickException(f"Cannot listen on {host}:{port}: {exc.strerror or exc}."
                                   ) from None
    run_workers(config, sock)


@main.command("games")
def list_games() -> None:
    """List the games Kiroku knows."""
    for game in games():
        click.echo(f"{game.game_id:<14} {game.title} (rules {game.version}, "
                   f"{game.players_text})")


@main.command()
@click.argument("game")
def actions(game: str) -> None:
    """Print the JSON schema of GAME's actions."""
    try:
        print_json(get_game(game).action_schema())
    except ActionError as exc:
        raise click.ClickException(exc.message) from None


@main.command("cards")
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


@main.command("reasons")
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


@main.group()
def match() -> None:
    """Create, record, undo, show and list matches."""


@match.command("new")
@click.argument("game")
@click.option("--player", "players", multiple=True, required=True, help="Player name, by seat.")
@click.option("--deck", "decks", multiple=True, required=True,
              help="Sample deck name or deck file, by seat.")
@click.option("--cards", type=click.Path(exists=True, dir_okay=False),
              help="Card-set file (default: the game's sample set).")
@click.option("--option", "options", multiple=True, help="Regulation option NAME=VALUE.")
@click.option("--policy", type=click.Choice(["open", "closed"]), default="open",
              show_default=True, help="Replay policy once the match has ended.")
@click.option("--by", "operator", default="operator", show_default=True,
              help="The operator's name in the record (the command line acts as the "
                   "organiser).")
@click.option("--credentials/--no-credentials", "with_credentials", default=False,
              help="Also issue one credential per seat and print their tokens.")
@click.option("--setup-outcome", "setup_outcomes", multiple=True,
              help="A chance outcome of setup seen at a physical table (card id, die value), "
                   "in order. A match set up this way takes every later outcome from the "
                   "table too (--outcome on each action that needs one).")
@click.pass_context
def match_new(ctx: click.Context, game: str, players: tuple[str, ...], decks: tuple[str, ...],
              cards: str | None, options: tuple[str, ...], policy: str, operator: str,
              with_credentials: bool, setup_outcomes: tuple[str, ...]) -> None:
    """Create a match; prints its id (and, with --credentials, each seat's token)."""
    by = Identity.operator(operator)
    with service(ctx) as kiroku:
        card_defs = load_card_set(cards).cards if cards else None
        match_id = kiroku.new_match(game, list(players), list(decks), cards=card_defs,
                                    options=parse_options(options), recorded_by=by.recorded_by,
                                    replay_policy=policy,
                                    setup_outcomes=[_outcome_value(o) for o in setup_outcomes]
                                    if setup_outcomes else None)
        click.echo(str(match_id))
        if with_credentials:
            for seat in kiroku.seat_credentials(match_id, by):
                click.echo(f"seat {seat['seat']} {seat['name']}: {seat['token']}")


@match.command("act")
@click.argument("match_ref")
@click.argument("action")
@click.option("--seat", type=int, default=None,
              help="With a number from 'match legal': the seat it was listed for.")
@click.option("--by", "operator", default="operator", show_default=True,
              help="The operator's name in the record.")
@click.option("--outcome", "outcomes", multiple=True,
              help="A chance outcome seen at the table (card id, die value), in order.")
@click.option("--expect-version", type=int, default=None,
              help="Record only if the match is at this version (with a number from 'match "
                   "legal': the version it printed, required).")
@click.option("--yes", is_flag=True, help="Record a concession without asking.")
@JSON_OPTION
@click.pass_context
def match_act(ctx: click.Context, match_ref: str, action: str, seat: int | None,
              operator: str, outcomes: tuple[str, ...], expect_version: int | None, yes: bool,
              as_json: bool) -> None:
    """Record ACTION on a match: JSON, - for JSON on stdin, or the number 'match legal'
    printed for a seat (with --seat and --expect-version, as it prints them: a number is
    refused if the match moved since). Prints what it did and who is to act."""
    number = _legal_number(action)
    data: Any = None if number is not None else _action_json(action)
    if number is not None and (seat is None or expect_version is None):
        raise click.UsageError(f"{action} is a number from 'match legal': give the seat and "
                               "version it was listed for, --seat SEAT --expect-version "
                               "VERSION (match legal prints the whole command).")
    with service(ctx) as kiroku:
        match_id = find_match(kiroku, match_ref)
        if number is not None:
            assert seat is not None and expect_version is not None
            data = _numbered_action(kiroku, match_id, seat, number, expect_version)
        if isinstance(data, dict) and data.get("type") == "concede" and not yes:
            click.confirm(f"Seat {data.get('seat')} concedes: this ends the match for that "
                          "seat and cannot be taken back. Record it?", abort=True, err=True)
        supplied = [_outcome_value(o) for o in outcomes] if outcomes else None
        done = kiroku.record(match_id, data,
                             recorded_by=Identity.operator(operator).recorded_by,
                             outcomes=supplied, expected_version=expect_version)
        if as_json:
            print_json({"version": done.version, "seq": done.seq, "digest": done.digest,
                        "result": done.result})
            return
        said = kiroku.sentences(_as(kiroku, match_id))
        mine = max((v for v in said if v <= done.version), default=None)
        click.echo(f"#{done.seq} (version {done.version}) {said.get(mine, '') if mine else ''}")
        click.echo(_standing(kiroku, match_id))


def _legal_number(action: str) -> int | None:
    """The number of a legal action as 'match legal' prints it (digits alone), else None."""
    return int(action) if action.strip().isdigit() else None


def _action_json(action: str) -> Any:
    """ACTION read as JSON (from stdin for ``-``)."""
    raw = sys.stdin.read() if action == "-" else action
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint="ACTION") from None


def _numbered_action(kiroku: Kiroku, match_id: UUID, seat: int, number: int,
                     version: int) -> dict[str, Any]:
    """The legal action ``number`` of ``seat``, as 'match legal' listed it at ``version``:
    refused (nothing recorded) if the match is at another version now, whose list may differ,
    or if there is no such number."""
    audience = _as(kiroku, match_id)
    if audience.version != version:
        raise ConcurrentAppend(f"The match is at version {audience.version}, not {version}: "
                               f"the numbers 'match legal' printed at version {version} no "
                               "longer hold, and nothing was recorded. List them again: "
                               f"kiroku match legal {match_id} --seat {seat}")
    found = kiroku.legal_actions(audience, seat)
    if not 1 <= number <= len(found):
        listed = f"it lists 1 to {len(found)}" if found else "it lists none"
        raise click.BadParameter(f"seat {seat} has no legal action {number} at version "
                                 f"{version} ({listed}); nothing was recorded.",
                                 param_hint="ACTION")
    return found[number - 1]


def _standing(kiroku: Kiroku, match_id: UUID) -> str:
    """Where a match stands now, in words: who is to act, or its result; and the score."""
    data = kiroku.summary(_as(kiroku, match_id))
    players = data["players"]
    ended = render.result_text(data["result"], players)
    state = ended or (" and ".join(render.seat_name(players, s) for s in data["to_act"])
                      + " to act")
    score = render.scores_text(data["scores"], players)
    return f"Now: {state}." + (f" {score}." if score else "")


def _outcome_value(text: str) -> Any:
    return int(text) if text.lstrip("-").isdigit() else text


@match.command("undo")
@click.argument("match_ref")
@click.option("--to", "to_position", type=click.IntRange(0), default=None,
              help="Back to this position: voids every later action; does nothing if the "
                   "match already stands there (safe to repeat).")
@click.option("-n", "count", default=None, type=click.IntRange(1),
              help="The last N actions, whatever they are (default 1 without --to).")
@click.option("--expect-version", type=int, default=None,
              help="Undo only if the match is at this version.")
@click.option("--reason", required=True)
@click.option("--by", "operator", default="operator", show_default=True,
              help="The operator's name in the record.")
@JSON_OPTION
@click.pass_context
def match_undo(ctx: click.Context, match_ref: str, to_position: int | None,
               count: int | None, expect_version: int | None, reason: str,
               operator: str, as_json: bool) -> None:
    """Go back to a position, or void the last N actions (appends an event; nothing is
    erased)."""
    if count is not None and to_position is not None:
        raise click.BadParameter("give --to or -n, not both", param_hint="--to")
    with service(ctx) as kiroku:
        match_id = find_match(kiroku, match_ref)
        done = kiroku.undo(match_id,
                           count if count is not None or to_position is not None else 1,
                           reason=reason, recorded_by=Identity.operator(operator).recorded_by,
                           expected_version=expect_version, to_position=to_position)
        if as_json:
            print_json({"version": done.version, "digest": done.digest})
            return
        positions = kiroku.summary(_as(kiroku, match_id))["positions"]
        click.echo(f"Undone (version {done.version}): the match stands at position "
                   f"{positions}; the voided actions stay in the record, marked.")
        click.echo(_standing(kiroku, match_id))


@match.command("show")
@click.argument("match_ref")
@JSON_OPTION
@click.pass_context
def match_show(ctx: click.Context, match_ref: str, as_json: bool) -> None:
    """Show a match's summary: players, where it stands, the score, who is to act."""
    with service(ctx) as kiroku:
        data = kiroku.summary(_as(kiroku, find_match(kiroku, match_ref)))
        if as_json:
            print_json(data)
        else:
            render.console().print(render.summary(data, get_game(data["game"])))


@match.command("list")
@click.option("--game", default=None)
@click.option("--player", default=None, help="A part of a player's name.")
@click.option("--tournament", "tournament_id", type=click.UUID, default=None)
@click.option("--round", "round_number", type=click.IntRange(1, 1000), default=None)
@click.option("--table", type=click.IntRange(1, 10_000), default=None)
@click.option("--status", type=click.Choice(["live", "ended"]), default=None)
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Created on this UTC day or later.")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Created on this UTC day or earlier.")
@click.option("--newest", is_flag=True, help="Newest first.")
@click.option("--limit", type=click.IntRange(1, None), default=None, help="At most this many.")
@click.option("--offset", type=click.IntRange(0, None), default=0, help="Skip this many.")
@click.option("--simulated", is_flag=True, help="List the simulated matches instead.")
@click.pass_context
def match_list(ctx: click.Context, game: str | None, player: str | None,
               tournament_id: UUID | None, round_number: int | None,
               table: int | None, status: str | None, since: datetime | None,
               until: datetime | None, newest: bool, limit: int | None, offset: int,
               simulated: bool) -> None:
    """List matches, oldest first (--newest: newest first), with their tournament round and
    table; filtered by game, player, tournament, round, table, status and creation day;
    --limit and --offset page it (simulated ones only with --simulated)."""
    with service(ctx) as kiroku:
        for m in kiroku.find_matches(game=game, player=player, tournament=tournament_id,
                                     round_number=round_number, table=table,
                                     simulated=simulated, status=status,
                                     since=since.date() if since else None,
                                     until=until.date() if until else None,
                                     newest_first=newest, offset=offset, limit=limit):
            result = "in progress"
            if m["result"]:
                result = "drawn" if m["result"]["drawn"] else (
                    f"won by seat {','.join(map(str, m['result']['winners']))} "
                    f"({m['result']['reason']})")
            where = m["tournament"]
            label = f"  {where['tournament'][:24]} R{where['round']} T{where['table']}" \
                if where else ""
            click.echo(f"{m['match_id']}  {m['game']:<12} {' v '.join(m['players']):<30} "
                       f"{m['created_at'][:19]}  {result}{label}")


@match.command("legal")
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
        audience = _as(kiroku, match_id)
        found = kiroku.legal_actions(audience, seat)
        if as_json:
            for action in found:
                click.echo(json.dumps(action))
            return
        if not found:
            click.echo(f"Seat {seat} has no action to take now. {_standing(kiroku, match_id)}")
            return
        render.console().print(render.legal(kiroku.describe_actions(audience, found)))
        click.echo(f"At version {audience.version}. To record one: kiroku match act "
                   f"{match_ref} NUMBER --seat {seat} --expect-version {audience.version}")


@main.command()
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
        audience = _as(kiroku, match_id, viewer)
        view = kiroku.view(audience, position)
        if as_json:
            print_json(view)
            return
        ruleset = get_game(view["game"])
        to_act = kiroku.to_act_at(audience, view["position"])
        render.console().print(render.position(view, ruleset, kiroku.card_names(audience),
                                               to_act))


@main.command()
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
                 if annotated else kiroku.transcript(_as(kiroku, match_id, viewer)))
        for line in lines:
            click.echo(line)


@main.command()
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


@main.command("annotations")
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


@main.group()
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
        for d in hearing.listing(kiroku, _as(kiroku, find_match(kiroku, match_ref))):
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
        reader = annotating.reader_as(_viewer(viewer), match_id)
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


@main.group()
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
                            [_outcome_value(o) for o in outcomes] if outcomes else None)
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
        audience = _as(kiroku, UUID(data["match_id"]))
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
        for v in lines.listing(kiroku, _as(kiroku, find_match(kiroku, match_ref))):
            where = (f"from {v['parent'][:8]} at {v['parent_position']}" if v["parent"]
                     else f"from position {v['from_position']}")
            click.echo(f"{v['variation_id']}  {where:<24} {len(v['line']):>4} action(s)  "
                       f"[{v['visibility']}] {v['name']}")


@main.group()
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


@main.command("export")
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
        data = kiroku.export(_as(kiroku, match_id, viewer), fmt)
    path = Path(output or f"{match_id}.{'kiroku' if fmt == 'msgpack' else 'jsonl'}")
    path.write_bytes(data)
    click.echo(f"wrote {path} ({len(data)} bytes)")


@main.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.pass_context
def import_match(ctx: click.Context, file: str) -> None:
    """Verify and import an exported match (msgpack or JSON lines)."""
    with service(ctx) as kiroku, render.status("verifying and importing"):
        done = kiroku.import_match(Path(file).read_bytes())
        click.echo(f"imported {done.match_id}" if done.stored else
                   f"already stored, with exactly these events: {done.match_id}")


@main.command()
@click.argument("game")
@click.option("-n", "count", default=1, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--players", default=2, show_default=True, type=int)
@click.option("--option", "options", multiple=True, help="Regulation option NAME=VALUE.")
@click.pass_context
def simulate(ctx: click.Context, game: str, count: int, seed: int, players: int,
             options: tuple[str, ...]) -> None:
    """Record N random legal playouts of GAME, labelled as simulated ('match list
    --simulated' lists them); each line as its match is done, with a progress bar."""
    with service(ctx) as kiroku, render.progress() as bar:
        task = bar.add_task(f"simulating {game}", total=count)
        for match_id in kiroku.simulated(game, count, seed, players, parse_options(options)):
            s = kiroku.summary(_as(kiroku, match_id))
            r = s["result"] or {}
            click.echo(f"{match_id}  {s['positions']} actions  {r.get('reason')} "
                       f"winners={r.get('winners')}")
            bar.advance(task)


@main.group()
def credentials() -> None:
    """Issue, list and revoke credentials (the command line acts as the organiser)."""


@credentials.command("issue")
@click.option("--role", type=click.Choice(["judge", "organiser", "commentator"]), required=True,
              help="commentator: reads as a spectator (the delay included), writes public "
                   "annotations and studies.")
@click.option("--name", required=True, help="The display name events recorded with it carry.")
@click.pass_context
def credentials_issue(ctx: click.Context, role: str, name: str) -> None:
    """Issue a credential and print its token (shown only this once)."""
    with service(ctx) as kiroku:
        identity, token = kiroku.credentials.issue(
            Role(role), name, issued_by=str(Identity.operator().credential_id))
        click.echo(f"{identity.credential_id}  {role} {identity.name}\n{token}")


@credentials.command("reissue")
@click.argument("match_ref")
@click.argument("seat", type=click.IntRange(1, 64))
@click.pass_context
def credentials_reissue(ctx: click.Context, match_ref: str, seat: int) -> None:
    """A new credential for SEAT of a match; the seat's earlier ones stop working."""
    with service(ctx) as kiroku:
        made = kiroku.reissue_seat(find_match(kiroku, match_ref), seat, Identity.operator())
        click.echo(f"{made['credential_id']}  seat {made['seat']} {made['name']}\n"
                   f"{made['token']}")


@credentials.command("list")
@click.pass_context
def credentials_list(ctx: click.Context) -> None:
    """Every credential ever issued (tokens are never stored, only their hashes)."""
    with service(ctx) as kiroku:
        for identity in kiroku.credentials.issued():
            where = (f"seat {identity.seat} of {identity.match_id}"
                     if identity.match_id else identity.role.value)
            state = "revoked" if kiroku.credentials.is_revoked(identity) else "active"
            click.echo(f"{identity.credential_id}  {state:<8} {where:<48} {identity.name}")


@credentials.command("revoke")
@click.argument("credential_id", type=click.UUID)
@click.option("--reason", required=True)
@click.option("--yes", is_flag=True, help="Revoke without asking.")
@click.pass_context
def credentials_revoke(ctx: click.Context, credential_id: UUID, reason: str, yes: bool) -> None:
    """Revoke a credential: its token stops working at once."""
    if not yes:
        click.confirm(f"Revoke {credential_id}? Its token stops working at once and cannot be "
                      "restored (a new credential can be issued).", abort=True, err=True)
    with service(ctx) as kiroku:
        kiroku.credentials.revoke(credential_id, reason=reason,
                                  revoked_by=str(Identity.operator().credential_id))
        click.echo(f"revoked {credential_id}")

