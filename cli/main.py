"""The ``kiroku`` command line (click). Every command works on KIROKU_DATABASE_URL or --db."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Any
from uuid import UUID

import click

from cli.common import (
    JSON_OPTION,
    find_match,
    outcome_value,
    parse_options,
    print_json,
    seen_as,
    service,
    standing,
)
from cli.lazy import Lazy, LazyGroup
from engine.core.errors import ActionError
from engine.registry import games, get_game
from ledger.catalog import load_card_set
from ledger.errors import ConcurrentAppend
from ledger.identity import Identity, Role
from ledger.settings import database_url
from replay.service import Kiroku

# imported when asked for (cli.lazy): the commands a scorekeeper at a table does not run
LAZY = {
    "serve": Lazy("cli.serving:serve", "Run the HTTP service (OpenAPI docs at /docs)."),
    "audit": Lazy("cli.audit:audit", "Verify the audit trail."),
    "tournament": Lazy("cli.tournaments:tournament", "Run a tournament: staff, players and "
                       "decklists, rounds, results, standings."),
    "simulate": Lazy("cli.simulate:simulate", "Record N random legal playouts of GAME, "
                     "labelled as simulated ('match list --simulated' lists them); each line "
                     "as its match is done, with a progress bar."),
    "transcript": Lazy("cli.notes:transcript",
                       "Print one line per event, as the viewer may see it."),
    "annotate": Lazy("cli.notes:annotate", "Annotate a position of a match: text, symbols, "
                     "highlighted cards or zones, arrows."),
    "annotations": Lazy("cli.notes:annotations_list", "List a match's annotations as a viewer "
                        "may read them, one per line."),
    "dispute": Lazy("cli.notes:dispute", "Call a judge, read the evidence, rule and appeal "
                    "(the command line is the organiser)."),
    "variation": Lazy("cli.notes:variation", "What-if lines from a position, played by the "
                      "same rules (the command line is a judge)."),
    "study": Lazy("cli.notes:study",
                  "A match with its annotations and variations as a text document, and back."),
    "cards": Lazy("cli.screens:list_cards", "The cards of GAME's sample set: id, name and "
                  "kind, to read the ids other commands show."),
    "reasons": Lazy("cli.screens:list_reasons", "The reason codes GAME's refusals carry, by "
                    "section, each with what it means: the game's own and the kernel's (match "
                    "creation, any action, adjustments)."),
    "replay": Lazy("cli.screens:replay",
                   "Show the position as a viewer saw it: a board, or JSON."),
    "export": Lazy("cli.screens:export_match", "Export a whole match."),
    "import": Lazy("cli.screens:import_match",
                   "Verify and import an exported match (msgpack or JSON lines)."),
}
# the match commands that draw with rich (cli.screens): 'match act' and 'undo' print sentences
MATCH_LAZY = {
    "show": Lazy("cli.screens:match_show", "Show a match's summary: players, where it stands, "
                 "the score, who is to act."),
    "legal": Lazy("cli.screens:match_legal", "List the actions SEAT may take now, in words, "
                  "numbered for 'match act' at the version printed below them; or as JSON."),
}


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


@main.group(cls=LazyGroup, lazy=MATCH_LAZY)
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
                                    setup_outcomes=[outcome_value(o) for o in setup_outcomes]
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
        supplied = [outcome_value(o) for o in outcomes] if outcomes else None
        done = kiroku.record(match_id, data,
                             recorded_by=Identity.operator(operator).recorded_by,
                             outcomes=supplied, expected_version=expect_version)
        if as_json:
            print_json({"version": done.version, "seq": done.seq, "digest": done.digest,
                        "result": done.result})
            return
        said = kiroku.sentences(seen_as(kiroku, match_id))
        mine = max((v for v in said if v <= done.version), default=None)
        click.echo(f"#{done.seq} (version {done.version}) {said.get(mine, '') if mine else ''}")
        click.echo(standing(kiroku, match_id))


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
    audience = seen_as(kiroku, match_id)
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
        positions = kiroku.summary(seen_as(kiroku, match_id))["positions"]
        click.echo(f"Undone (version {done.version}): the match stands at position "
                   f"{positions}; the voided actions stay in the record, marked.")
        click.echo(standing(kiroku, match_id))


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

