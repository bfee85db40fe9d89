"""``kiroku tournament``: an organiser's event from creation to the final standings (the command
line acts as the organiser, as everywhere)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import click

from cli import render
from cli.common import JSON_OPTION, parse_options, print_json, service
from ledger.catalog import resolve_deck, sample_card_set
from ledger.identity import Identity
from ledger.tournaments import TIEBREAKER_PROFILES, TournamentNotFound
from replay import tournaments as events
from replay.ids import resolve_id
from replay.pairings import Pairing
from replay.service import Kiroku


@click.group()
def tournament() -> None:
    """Run a tournament: staff, players and decklists, rounds, results, standings."""


def _find(kiroku: Kiroku, text: str) -> UUID:
    """A tournament id, or the first characters (4 or more) of exactly one."""
    return resolve_id(text, kiroku.tournaments.all_ids, ("tournament", "tournaments"),
                      TournamentNotFound)


def _deck(kiroku: Kiroku, tournament_id: UUID, ref: str) -> dict[str, int]:
    """A decklist from a sample deck's name or a deck file."""
    game = kiroku.tournaments.get(tournament_id).game
    return dict(resolve_deck(game, ref).cards)


def _operator(name: str) -> Identity:
    return Identity.operator(name)


@tournament.command("new")
@click.argument("name")
@click.option("--game", required=True, help="The game's id (see 'kiroku games').")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A regulation option every match gets (repeatable).")
@click.option("--decklists", type=click.Choice(["closed", "open"]), default="closed",
              show_default=True, help="Who sees others' decklists before the end.")
@click.option("--replay-policy", type=click.Choice(["open", "closed"]), default="open",
              show_default=True)
@click.option("--deadline", default=None, help="When decklists lock (ISO 8601 with a zone).")
@click.option("--judge", "judges", multiple=True, type=click.UUID,
              help="A judge's credential id (repeatable).")
@click.option("--head-judge", type=click.UUID, default=None,
              help="The judge's credential id who hears appeals.")
@click.option("--best-of", type=click.Choice(["1", "3", "5"]), default="1", show_default=True,
              help="Games a table's match is the best of.")
@click.option("--tiebreakers", type=click.Choice(TIEBREAKER_PROFILES), default="mtr",
              show_default=True, help="mtr: match points, OMW%, GW%, OGW%; pokemon: match "
              "points, OWP, OOWP.")
@click.option("--by", "operator", default="operator", show_default=True)
@click.pass_context
def tournament_new(ctx: click.Context, name: str, game: str, options: tuple[str, ...],
                   decklists: str, replay_policy: str, deadline: str | None,
                   judges: tuple[UUID, ...], head_judge: UUID | None, best_of: str,
                   tiebreakers: str, operator: str) -> None:
    """Create a tournament; prints its id."""
    with service(ctx) as kiroku:
        made = events.create(kiroku, _operator(operator), name=name, game=game,
                             options=parse_options(options), decklists=decklists,
                             replay_policy=replay_policy, deadline=deadline, judges=judges,
                             head_judge=head_judge, best_of=int(best_of),
                             tiebreakers=tiebreakers)
        click.echo(made["tournament_id"])


@tournament.command("list")
@click.option("--game", default=None)
@click.option("--name", default=None, help="A part of the tournament's name.")
@click.option("--player", default=None, help="A part of a player's name, or an external id.")
@click.pass_context
def tournament_list(ctx: click.Context, game: str | None, name: str | None,
                    player: str | None) -> None:
    """The tournaments, one per line."""
    with service(ctx) as kiroku:
        for t in events.listing(kiroku, game, name, player):
            state = "finished" if t["finished"] else f"round {t['rounds']}"
            click.echo(f"{t['tournament_id']}  {t['game']:<12} {t['name'][:40]:<40} "
                       f"{t['players']:>4} players  {state}")


@tournament.command("show")
@click.argument("tournament_ref")
@JSON_OPTION
@click.pass_context
def tournament_show(ctx: click.Context, tournament_ref: str, as_json: bool) -> None:
    """A tournament's settings, staff and progress."""
    with service(ctx) as kiroku:
        t = events.read(kiroku, _find(kiroku, tournament_ref))
    if as_json:
        print_json(t)
        return
    head = t["head_judge"]["name"] if t["head_judge"] else "an organiser"
    judges = ", ".join(j["name"] for j in t["judges"]) or "none named"
    locked = "locked" if t["decklists_locked"] else f"open until {t['deadline'] or 'round 1'}"
    state = "finished" if t["finished"] else f"{t['rounds']} round(s) paired"
    dropped = f" ({t['dropped']} dropped)" if t["dropped"] else ""
    click.echo(f"{t['name']} ({t['game']}) · {t['players']} players{dropped} · {state}\n"
               f"Matches: best of {t['best_of']} · tie-breakers: {t['tiebreakers']}\n"
               f"Judges: {judges} · head judge: {head}\n"
               f"Decklists: {t['decklists']} policy, {locked} · replay policy "
               f"{t['replay_policy']}\n"
               f"Options: {', '.join(f'{k}={v}' for k, v in t['options'].items())}\n"
               f"Id: {t['tournament_id']}")


@tournament.command("staff")
@click.argument("tournament_ref")
@click.option("--judge", "judges", multiple=True, type=click.UUID)
@click.option("--head-judge", type=click.UUID, default=None)
@click.pass_context
def tournament_staff(ctx: click.Context, tournament_ref: str, judges: tuple[UUID, ...],
                     head_judge: UUID | None) -> None:
    """Name the judges and the head judge anew."""
    with service(ctx) as kiroku:
        print_json(events.change_staff(kiroku, _operator("operator"),
                                       _find(kiroku, tournament_ref), judges, head_judge))


@tournament.command("deadline")
@click.argument("tournament_ref")
@click.argument("moment")
@click.pass_context
def tournament_deadline(ctx: click.Context, tournament_ref: str, moment: str) -> None:
    """Set when the decklists lock (ISO 8601 with a zone), or 'none'."""
    with service(ctx) as kiroku:
        done = events.set_deadline(kiroku, _operator("operator"), _find(kiroku, tournament_ref),
                                   None if moment.lower() == "none" else moment)
        click.echo(f"decklists lock at {done['deadline'] or 'the first pairing'}")


@tournament.command("register")
@click.argument("tournament_ref")
@click.argument("name")
@click.option("--external-id", default=None, help="The player's number in the pairing program.")
@click.pass_context
def tournament_register(ctx: click.Context, tournament_ref: str, name: str,
                        external_id: str | None) -> None:
    """Register a player: prints the player id, then their credential's token (shown once)."""
    with service(ctx) as kiroku:
        made = events.register(kiroku, _operator("operator"), _find(kiroku, tournament_ref),
                               name, external_id)
        click.echo(f"{made['player_id']}  {made['name']}\n{made['token']}")


@tournament.command("register-file")
@click.argument("tournament_ref")
@click.argument("players_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
def tournament_register_file(ctx: click.Context, tournament_ref: str,
                             players_file: Path) -> None:
    """Register every player of a players file (a Name column, an optional ID column), all
    or none: prints one line per player, its id, name and token (shown once)."""
    with service(ctx) as kiroku:
        for made in events.register_file(kiroku, _operator("operator"),
                                         _find(kiroku, tournament_ref),
                                         players_file.read_bytes()):
            click.echo(f"{made['player_id']}  {made['external_id'] or '-'}  {made['name']}  "
                       f"{made['token']}")


@tournament.command("players")
@click.argument("tournament_ref")
@click.option("--name", default=None, help="A part of the name, or an external id.")
@click.pass_context
def tournament_players(ctx: click.Context, tournament_ref: str, name: str | None) -> None:
    """The registered players, one per line."""
    with service(ctx) as kiroku:
        for p in events.players(kiroku, _find(kiroku, tournament_ref), name):
            deck = "decklist" if p["has_decklist"] else "no decklist"
            click.echo(f"{p['player_id']}  {p['external_id'] or '-':<10} {p['name']:<30} {deck}")


@tournament.group("decklist")
def decklist() -> None:
    """Submit, show and amend decklists."""


@decklist.command("submit")
@click.argument("tournament_ref")
@click.argument("player")
@click.argument("deck")
@click.pass_context
def decklist_submit(ctx: click.Context, tournament_ref: str, player: str, deck: str) -> None:
    """Enter PLAYER's decklist (a sample deck's name or a deck file), checked now."""
    with service(ctx) as kiroku:
        tid = _find(kiroku, tournament_ref)
        print_json(events.submit_decklist(kiroku, _operator("operator"), tid, player,
                                          _deck(kiroku, tid, deck)))


@decklist.command("show")
@click.argument("tournament_ref")
@click.argument("player")
@JSON_OPTION
@click.pass_context
def decklist_show(ctx: click.Context, tournament_ref: str, player: str, as_json: bool) -> None:
    """PLAYER's decklist, card names beside the ids, with its amendments."""
    with service(ctx) as kiroku:
        tid = _find(kiroku, tournament_ref)
        listed = events.decklist(kiroku, _operator("operator"), tid, player)
        game = kiroku.tournaments.get(tid).game
    if as_json:
        print_json(listed)
        return
    cards = sample_card_set(game).cards
    click.echo(f"{_who(listed)}: {sum(listed['deck'].values())} cards"
               f"{' (locked)' if listed['locked'] else ''}")
    rows = [{"copies": n, "id": cid, "name": cards.get(cid, {}).get("name", "?")}
            for cid, n in listed["deck"].items()]
    render.console().print(render.cards(rows, ["copies", "id", "name"]))
    for amendment in listed["amendments"]:
        click.echo(f"amended {amendment['recorded_at'][:19]} by {amendment['by'].get('name')}: "
                   f"{amendment['reason']}")


@decklist.command("amend")
@click.argument("tournament_ref")
@click.argument("player")
@click.argument("deck")
@click.option("--reason", required=True, help="Why the locked list is amended.")
@click.option("--by", "operator", default="operator", show_default=True)
@click.pass_context
def decklist_amend(ctx: click.Context, tournament_ref: str, player: str, deck: str,
                   reason: str, operator: str) -> None:
    """A judge's amendment of PLAYER's locked list (a sample deck's name or a deck file)."""
    with service(ctx) as kiroku:
        tid = _find(kiroku, tournament_ref)
        print_json(events.amend_decklist(kiroku, _operator(operator), tid, player,
                                         _deck(kiroku, tid, deck), reason))


@tournament.command("lock")
@click.argument("tournament_ref")
@click.pass_context
def tournament_lock(ctx: click.Context, tournament_ref: str) -> None:
    """Lock every decklist now."""
    with service(ctx) as kiroku:
        events.lock(kiroku, _operator("operator"), _find(kiroku, tournament_ref))
        click.echo("decklists locked")


def _table(text: str) -> Pairing:
    number, sep, players = text.partition(":")
    names = tuple(p.strip() for p in players.split(",") if p.strip())
    if not sep or not number.strip().isdigit() or not names:
        raise click.BadParameter(f"{text!r}: write TABLE:PLAYER,PLAYER (players by external "
                                 "id or name)", param_hint="--table")
    return Pairing(int(number), names)


@tournament.command("pair")
@click.argument("tournament_ref")
@click.option("--table", "tables", multiple=True, metavar="N:PLAYER,PLAYER",
              help="A table and its players in seat order (repeatable).")
@click.option("--bye", "byes", multiple=True, help="A player with a bye (repeatable).")
@click.option("--file", "--csv", "pairings_file",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The pairing program's file instead of --table: a CSV (Melee, TopDeck, "
                   "AetherHub, Endstep...), a TOM .tdf or Limitless JSON.")
@click.option("--round", "file_round", type=click.IntRange(1, 1000), default=None,
              help="Which round of a file of several (default: the one paired next).")
@click.pass_context
def tournament_pair(ctx: click.Context, tournament_ref: str, tables: tuple[str, ...],
                    byes: tuple[str, ...], pairings_file: Path | None,
                    file_round: int | None) -> None:
    """Pair the next round: creates its matches and prints each seat's credential (once)."""
    if bool(pairings_file) == bool(tables or byes):
        raise click.UsageError("Give the tables (--table, --bye) or --file FILE.")
    with service(ctx) as kiroku:
        tid = _find(kiroku, tournament_ref)
        if pairings_file is not None:
            made = events.pair_file(kiroku, _operator("operator"), tid,
                                    pairings_file.read_bytes(), file_round,
                                    pairings_file.name)
        else:
            pairings = [_table(t) for t in tables] + [Pairing(None, (b,)) for b in byes]
            made = events.pair(kiroku, _operator("operator"), tid, pairings)
        click.echo(f"round {made['round']}")
        for entry in made["tables"]:
            click.echo(f"table {entry['table']}  match {entry['match_id']}")
            for seat in entry["seats"]:
                click.echo(f"  seat {seat['seat']} {seat['name']}: {seat['token']}")
        for bye in made["byes"]:
            click.echo(f"bye  {_who(bye)}")


def _who(player: dict[str, Any]) -> str:
    return f"{player['name']} ({player['external_id']})" if player["external_id"] \
        else player["name"]


@tournament.command("round")
@click.argument("tournament_ref")
@click.argument("number", type=click.IntRange(1, 1000))
@click.pass_context
def tournament_round(ctx: click.Context, tournament_ref: str, number: int) -> None:
    """A round at a glance: every table's players, status and result."""
    with service(ctx) as kiroku:
        view = events.round_view(kiroku, _find(kiroku, tournament_ref), number)
        for entry in view["tables"]:
            players = " v ".join(_who(p) for p in entry["players"])
            click.echo(f"table {entry['table']:<4} {players:<50} {_status(entry)}")
        for bye in view["byes"]:
            click.echo(f"bye        {_who(bye)}")
        click.echo("round complete" if view["complete"] else "round in progress")


def _status(entry: dict[str, Any]) -> str:
    result = entry["result"]
    score = ""
    if entry.get("best_of", 1) > 1:
        wins = result["game_wins"] if result and result["game_wins"] else entry["game_wins"]
        draws = result["game_draws"] if result else entry["game_draws"]
        score = " " + "-".join(map(str, [*wins, *([draws] if draws else [])]))
    if result is None:
        games = f", game {len(entry['games'])}" if entry.get("best_of", 1) > 1 else ""
        return entry["status"].replace("_", " ") + games + score
    if result["drawn"]:
        return f"drawn{score} ({result['source']})"
    return f"{' and '.join(_who(w) for w in result['winners'])} won{score} ({result['source']})"


@tournament.command("game")
@click.argument("tournament_ref")
@click.argument("round_number", type=click.IntRange(1, 1000))
@click.argument("table", type=click.IntRange(1, 10_000))
@click.pass_context
def tournament_game(ctx: click.Context, tournament_ref: str, round_number: int,
                    table: int) -> None:
    """Start the next game of a table's best-of-N match; prints its match id (the table's
    seat credentials play it)."""
    with service(ctx) as kiroku:
        entry = events.next_game(kiroku, _operator("operator"), _find(kiroku, tournament_ref),
                                 round_number, table)
        click.echo(f"table {table} game {len(entry['games'])}  match "
                   f"{entry['current_match_id']}")


@tournament.command("drop")
@click.argument("tournament_ref")
@click.argument("player")
@click.option("--reason", required=True)
@click.pass_context
def tournament_drop(ctx: click.Context, tournament_ref: str, player: str, reason: str) -> None:
    """Drop a player (id, external id or name): not paired again, kept in the standings."""
    with service(ctx) as kiroku:
        dropped = events.drop(kiroku, _operator("operator"), _find(kiroku, tournament_ref),
                              player, reason)
        click.echo(f"{_who(dropped)} dropped")


def _games(text: str | None, seats: int) -> tuple[list[int] | None, int]:
    """``--games 2-1`` (wins per seat) or ``1-1-1`` (then the drawn games)."""
    if text is None:
        return None, 0
    try:
        counts = [int(part) for part in text.split("-")]
    except ValueError:
        raise click.BadParameter("game wins per seat, then drawn games: 2-1 or 1-1-1",
                                 param_hint="--games") from None
    if len(counts) not in (seats, seats + 1):
        raise click.BadParameter(f"{seats} game counts (one per seat), and the drawn games "
                                 "if any: 2-1 or 1-1-1", param_hint="--games")
    return counts[:seats], (counts[seats] if len(counts) > seats else 0)


@tournament.command("result")
@click.argument("tournament_ref")
@click.argument("round_number", type=click.IntRange(1, 1000))
@click.argument("table", type=click.IntRange(1, 10_000))
@click.option("--winner", "winners", multiple=True, help="A winner (repeatable).")
@click.option("--drawn", is_flag=True, help="The table was drawn.")
@click.option("--reason", required=True)
@click.option("--games", default=None, metavar="W-W[-D]",
              help="The game score: wins per seat, then drawn games (2-1, 1-1-1).")
@click.option("--by", "operator", default="operator", show_default=True)
@click.option("--yes", is_flag=True, help="Enter it without asking.")
@click.pass_context
def tournament_result(ctx: click.Context, tournament_ref: str, round_number: int, table: int,
                      winners: tuple[str, ...], drawn: bool, reason: str, games: str | None,
                      operator: str, yes: bool) -> None:
    """A judge's result for a table whose match its games have not decided (no-show,
    intentional draw, time called...)."""
    if not yes:
        what = "drawn" if drawn else f"won by {' and '.join(winners) or 'nobody'}"
        click.confirm(f"Round {round_number} table {table} {what}: this result counts in the "
                      "standings. Enter it?", abort=True, err=True)
    with service(ctx) as kiroku:
        tid = _find(kiroku, tournament_ref)
        seats = len(kiroku.tournaments.get(tid).table(round_number, table)["players"])
        game_wins, game_draws = _games(games, seats)
        view = events.enter_result(kiroku, _operator(operator), tid, round_number, table,
                                   winners, drawn, reason, game_wins, game_draws)
        entry = next(t for t in view["tables"] if t["table"] == table)
        click.echo(f"table {table}: {_status(entry)}")


@tournament.command("disputes")
@click.argument("tournament_ref")
@click.option("--round", "round_number", type=click.IntRange(1, 1000), default=None)
@click.option("--table", type=click.IntRange(1, 10_000), default=None)
@click.option("--status", type=click.Choice(["open", "ruled", "appealed", "final"]),
              default=None)
@click.pass_context
def tournament_disputes(ctx: click.Context, tournament_ref: str, round_number: int | None,
                        table: int | None, status: str | None) -> None:
    """The disputes of the tournament's tables, one per line (the head judge's docket)."""
    with service(ctx) as kiroku:
        for d in events.disputes_of(kiroku, _operator("operator"),
                                    _find(kiroku, tournament_ref), round_number, table, status):
            click.echo(f"{d['dispute_id']}  R{d['round']} T{d['table']:<4} {d['status']:<9} "
                       f"{'paused ' if d['pausing'] else ''}{d['claim'][:60]}")


@tournament.command("standings")
@click.argument("tournament_ref")
@click.option("--through", type=click.IntRange(1, 1000), default=None,
              help="Through this round (default: every result so far).")
@click.option("--csv", "as_csv", is_flag=True, help="CSV for the pairing program.")
@click.pass_context
def tournament_standings(ctx: click.Context, tournament_ref: str, through: int | None,
                         as_csv: bool) -> None:
    """The standings by the tournament's tie-breakers (MTR: points, OMW%, GW%, OGW%;
    Pokémon: points, OWP, OOWP; see docs/tournaments.md)."""
    with service(ctx) as kiroku:
        tid = _find(kiroku, tournament_ref)
        if as_csv:
            click.echo(events.standings_csv(kiroku, tid, through), nl=False)
            return
        table = events.standings_of(kiroku, tid, through)
        names = _PERCENTAGES[events.read(kiroku, tid)["tiebreakers"]]
        columns = [c for c in table["tiebreakers"] if c in names]
        click.echo(f"{'rank':>4}  {'player':<36} {'pts':>3}  {'W-L-D':<7} " +
                   " ".join(f"{names[c]:>6}" for c in columns))
        for row in table["standings"]:
            record = f"{row['wins']}-{row['losses']}-{row['draws']}"
            dropped = " (dropped)" if row.get("dropped") else ""
            click.echo(f"{row['rank']:>4}  {(_who(row) + dropped)[:36]:<36} "
                       f"{row['match_points']:>3}  {record:<7} " +
                       " ".join(f"{row[c]:>6.1%}" for c in columns))


_PERCENTAGES = {  # the tie-breakers' names in each profile's rules
    "mtr": {"opponents_match_win": "OMW%", "game_win": "GW%", "opponents_game_win": "OGW%"},
    "pokemon": {"opponents_match_win": "OWP", "opponents_opponents_match_win": "OOWP"}}


@tournament.command("results")
@click.argument("tournament_ref")
@click.option("--tables", is_flag=True, help="One line per table with each seat's game wins "
                                             "(the match-result sheet).")
@click.option("--tdf", "tdf_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Write a round's outcomes into this TOM file (printed; "
                                 "needs --round).")
@click.option("--round", "round_number", type=click.IntRange(1, 1000), default=None)
@click.pass_context
def tournament_results(ctx: click.Context, tournament_ref: str, tables: bool,
                       tdf_file: Path | None, round_number: int | None) -> None:
    """Every result so far as CSV: one row per player per round (read back by 'pair
    --file'), or one line per table; or a TOM file with a round's outcomes set."""
    if (tdf_file is None) != (round_number is None):
        raise click.UsageError("--tdf FILE and --round N go together.")
    with service(ctx) as kiroku:
        tid = _find(kiroku, tournament_ref)
        if tdf_file is not None and round_number is not None:
            click.echo(events.results_tdf(kiroku, tid, round_number, tdf_file.read_bytes()),
                       nl=False)
            return
        click.echo(events.results_csv_of(kiroku, tid, "tables" if tables else "players"),
                   nl=False)


@tournament.command("finish")
@click.argument("tournament_ref")
@click.option("--yes", is_flag=True, help="Finish without asking.")
@click.pass_context
def tournament_finish(ctx: click.Context, tournament_ref: str, yes: bool) -> None:
    """Finish the tournament: every decklist becomes public."""
    if not yes:
        click.confirm("Finish the tournament? Nothing more can be paired or entered, and "
                      "every decklist becomes public.", abort=True, err=True)
    with service(ctx) as kiroku:
        events.finish(kiroku, _operator("operator"), _find(kiroku, tournament_ref))
        click.echo("tournament finished")
