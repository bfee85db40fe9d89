"""Tournaments (issue 14): who may run, enter and read an event, and what each reader sees.

======================  ==========================================================
organiser               creates tournaments, names their staff, sets the decklist
                        deadline, registers players, locks lists, pairs rounds
                        (by hand or from a pairing program's CSV), finishes them
the tournament's judges amend a locked decklist with a reason, enter a table's
(and head judge)        result with a reason, read every decklist and the disputes
                        of every table, take and rule them; the head judge rules
                        on their appeals
a registered player     submits their own decklist until the lock, reads it
anyone                  the tournament, its players, rounds, standings and results;
                        other players' decklists only under the ``open`` decklist
                        policy or once the tournament is finished
======================  ==========================================================

Standings are computed from the tables' results (``replay.standings``); a table's result is its
match's (the game's own end, or a judge's ruling that ends it), else one a judge entered.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, ParamSpec, TypeVar
from uuid import UUID, uuid4

from eventsourcing.domain import Aggregate

from engine.core.errors import SetupError
from engine.registry import get_game
from ledger.catalog import Deck, sample_card_set
from ledger.disputes import Dispute
from ledger.errors import ConcurrentAppend, Forbidden
from ledger.identity import NAME_LIMIT, Identity, Role
from ledger.mapper import Sealed
from ledger.recorder import REPLAY_POLICIES, now
from ledger.tournaments import (
    DECKLIST_POLICIES,
    REASON_LIMIT,
    TIEBREAKER_PROFILES,
    Tournament,
    TournamentRefused,
)
from ledger.tournaments import NAME_LIMIT as TOURNAMENT_NAME_LIMIT
from replay import access
from replay import disputes as hearing
from replay.access import Caller
from replay.audience import Audience
from replay.pairings import (
    MAX_TABLE,
    Pairing,
    PairingsRejected,
    match_results_csv,
    read_pairings,
    read_players,
    results_csv,
    tdf_results,
)
from replay.pairings import standings_csv as standings_file
from replay.series import BEST_OF, Series, max_games, series_of, wins_needed
from replay.service import Kiroku
from replay.standings import TableResult, games_of, points_of, standings, tiebreakers

STATUSES = ("not_started", "in_progress", "awaiting_ruling", "result")
APPEND_ATTEMPTS = 20  # each clash means another command was saved: some command always progresses

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _retrying(command: Callable[_P, _R]) -> Callable[_P, _R]:
    """A command that runs again, from a fresh read of the tournament, when another command
    was appended to its stream first (``ConcurrentAppend``): a tournament is one stream, so
    eight tables starting their next game in one second, or players submitting their lists at
    once, clash in its version though not in their meaning, and each run checks everything
    again against the tournament as it then stands (a table whose next game a tablemate just
    started is refused ``game_in_progress``). Pairing a round, creating, finishing and naming
    the staff do not retry: two of those at once are two organisers' decisions, and the second
    is told."""

    @functools.wraps(command)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        for _ in range(APPEND_ATTEMPTS - 1):
            try:
                return command(*args, **kwargs)
            except ConcurrentAppend:
                continue
        return command(*args, **kwargs)

    return run



# ----- the organiser's commands ----------------------------------------------------------------
def create(kiroku: Kiroku, caller: Caller, *, name: str, game: str,
           options: Mapping[str, Any] | None = None, decklists: str = "closed",
           replay_policy: str = "open", deadline: str | None = None,
           judges: Sequence[UUID] = (), head_judge: UUID | None = None, best_of: int = 1,
           tiebreakers: str = "mtr") -> dict[str, Any]:
    """A new tournament (organisers only): its game and regulation options (checked now, as a
    match's would be), its decklist and replay policies, its decklist deadline (not one already
    past), its staff, its matches' length (best of 1, 3 or 5 games) and its tie-breakers."""
    by = access.organiser(caller, "Creating a tournament")
    ruleset = get_game(game)
    if best_of not in BEST_OF:
        raise TournamentRefused("bad_best_of", "A tournament's matches are best of "
                                f"{', '.join(map(str, BEST_OF))} games.")
    if tiebreakers not in TIEBREAKER_PROFILES:
        raise TournamentRefused("bad_tiebreakers", "The tie-breakers are one of "
                                f"{', '.join(TIEBREAKER_PROFILES)}.")
    if decklists not in DECKLIST_POLICIES:
        raise TournamentRefused("bad_policy", f"The decklist policy is one of "
                                f"{', '.join(DECKLIST_POLICIES)}.")
    if replay_policy not in REPLAY_POLICIES:
        raise TournamentRefused("bad_policy", f"The replay policy is one of "
                                f"{', '.join(REPLAY_POLICIES)}.")
    regulation = {**(options or {}), "decklists": decklists}
    ruleset.parse_options(regulation)  # SetupError bad_option names what is wrong
    staff, head = _staff(kiroku, judges, head_judge)
    tournament = kiroku.tournaments.create(
        name=_text(name, "A tournament's name", TOURNAMENT_NAME_LIMIT), game=game,
        options=regulation, decklists=decklists, replay_policy=replay_policy,
        deadline=_future(deadline), judges=staff, head_judge=head,
        created_by=by.recorded_by, recorded_at=now(), best_of=best_of,
        tiebreakers=tiebreakers)
    return shown(tournament)


def change_staff(kiroku: Kiroku, caller: Caller, tournament_id: UUID, judges: Sequence[UUID],
                 head_judge: UUID | None) -> dict[str, Any]:
    """Name the tournament's judges and head judge anew (organisers only)."""
    by = access.organiser(caller, "Naming a tournament's staff")
    tournament = kiroku.tournaments.get(tournament_id)
    staff, head = _staff(kiroku, judges, head_judge)
    kiroku.tournaments.append(tournament, Tournament.StaffChanged, judges=staff,
                              head_judge=head, by=by.recorded_by, recorded_at=now())
    return shown(tournament)


def set_deadline(kiroku: Kiroku, caller: Caller, tournament_id: UUID,
                 deadline: str | None) -> dict[str, Any]:
    """Move (or clear) the moment the decklists lock (organisers only, before the lock; never
    to a moment already past: ``lock`` locks them now)."""
    by = access.organiser(caller, "Setting the decklist deadline")
    tournament = _open(kiroku, tournament_id)
    _not_locked(tournament)
    kiroku.tournaments.append(tournament, Tournament.DeadlineSet, deadline=_future(deadline),
                              by=by.recorded_by, recorded_at=now())
    return shown(tournament)


def register(kiroku: Kiroku, caller: Caller, tournament_id: UUID, name: str,
             external_id: str | None = None) -> dict[str, Any]:
    """Register a player (organisers only; a late entry once rounds are on); the answer holds
    the player's credential, shown this once: with it the player signs in, submits and reads
    their decklist and plays their matches."""
    return _register(kiroku, caller, tournament_id, [(name, external_id)])[0]


def register_file(kiroku: Kiroku, caller: Caller, tournament_id: UUID,
                  data: bytes) -> list[dict[str, Any]]:
    """Register every player of a players file (``replay.pairings.read_players``: a name
    column, an optional id column), all in one save or none; each answer holds the player's
    credential, shown this once."""
    access.organiser(caller, "Registering players")
    try:
        entries = read_players(data)
    except PairingsRejected as exc:
        raise TournamentRefused("bad_players_file", f"The players file cannot be read: "
                                f"{exc}") from None
    return _register(kiroku, caller, tournament_id,
                     [(e.name, e.external_id) for e in entries])


@_retrying
def _register(kiroku: Kiroku, caller: Caller, tournament_id: UUID,
              entries: Sequence[tuple[str, str | None]]) -> list[dict[str, Any]]:
    """Register players, each with a player credential, in one save: the registrations and
    their credentials, or nothing."""
    by = access.organiser(caller, "Registering a player")
    tournament = _open(kiroku, tournament_id)
    taken = {p["external_id"] for p in tournament.players.values() if p["external_id"]}
    made: list[_Entry] = []
    for name, external_id in entries:
        name = _text(name, "A player's name", NAME_LIMIT)
        if external_id is not None:
            external_id = _text(external_id, "An external id", 64)
            if external_id in taken:
                raise TournamentRefused("duplicate_player", f"A player with external id "
                                        f"{external_id!r} is registered already.")
            taken.add(external_id)
        player_id = uuid4()
        credential, token = kiroku.credentials.prepare(
            Role.PLAYER, name, issued_by=str(by.credential_id), tournament_id=tournament.id,
            player_id=player_id)
        made.append(_Entry({"player_id": str(player_id), "name": name,
                            "external_id": external_id, "credential_id": str(credential.id)},
                           credential, token))
    for entry in made[:-1]:
        tournament.trigger_event(Tournament.PlayerRegistered, **entry.registered,
                                 by=by.recorded_by, recorded_at=now())
    kiroku.tournaments.append(tournament, Tournament.PlayerRegistered,
                              *(m.credential for m in made), **made[-1].registered,
                              by=by.recorded_by, recorded_at=now())
    return [{**_player(tournament, m.registered["player_id"]), "token": m.token} for m in made]


@dataclass(frozen=True)
class _Entry:
    """A player being registered: their PlayerRegistered fields, their credential (unsaved)
    and its token."""

    registered: dict[str, Any]
    credential: Aggregate
    token: str


@_retrying
def submit_decklist(kiroku: Kiroku, caller: Caller, tournament_id: UUID, player: str,
                    deck: Mapping[str, int]) -> dict[str, Any]:
    """A player's decklist, checked against the game's construction rules (C5) now; the
    player themself or the organisers, until the lists lock, or, for a late entry (a player
    registered without a list), their first list after the lock."""
    tournament = _open(kiroku, tournament_id)
    player_id = _player_id(tournament, player)
    identity = access.signed_in(caller, "Submitting a decklist")
    if not (identity.role == Role.ORGANISER or identity.player_id == UUID(player_id)):
        raise Forbidden("not_your_decklist", "A player submits their own decklist (or an "
                        "organiser enters it for them).")
    if player_id in tournament.decklists:
        _not_locked(tournament)
    checked = _checked(tournament, deck)
    kiroku.tournaments.append(tournament, Tournament.DecklistSubmitted, player_id=player_id,
                              deck=checked, by=identity.recorded_by, recorded_at=now())
    return decklist_of(tournament, player_id)


def lock(kiroku: Kiroku, caller: Caller, tournament_id: UUID) -> dict[str, Any]:
    """Lock every decklist now (organisers only); pairing the first round does it too."""
    by = access.organiser(caller, "Locking the decklists")
    tournament = _open(kiroku, tournament_id)
    if not tournament.locked:
        kiroku.tournaments.append(tournament, Tournament.DecklistsLocked,
                                  reason="locked by an organiser", by=by.recorded_by,
                                  recorded_at=now())
    return shown(tournament)


@_retrying
def amend_decklist(kiroku: Kiroku, caller: Caller, tournament_id: UUID, player: str,
                   deck: Mapping[str, int], reason: str) -> dict[str, Any]:
    """A judge's amendment of a locked list, with the reason (the tournament's judges and the
    organisers); it applies to the rounds paired from now on."""
    tournament = _open(kiroku, tournament_id)
    judge = access.tournament_judge(caller, tournament, "Amending a decklist")
    player_id = _player_id(tournament, player)
    if not tournament.locked_at(now()):
        raise TournamentRefused("decklists_not_locked", "The lists are not locked yet: the "
                                "player may still submit a new one.")
    checked = _checked(tournament, deck)
    kiroku.tournaments.append(tournament, Tournament.DecklistAmended, player_id=player_id,
                              deck=checked, reason=_text(reason, "A reason", REASON_LIMIT),
                              by=judge.recorded_by, recorded_at=now())
    return decklist_of(tournament, player_id)


def pair(kiroku: Kiroku, caller: Caller, tournament_id: UUID,
         pairings: Sequence[Pairing]) -> dict[str, Any]:
    """Pair the next round (organisers only): each table's match is created with the players'
    registered decks and the tournament's regulation, and each seat gets its credential (shown
    this once). Every table is checked before anything is made, and the round is one save: the
    tournament's RoundPaired with every table's match, seed, seating and seat credentials, or
    nothing (an organiser who paired the same round at the same time gets ConcurrentAppend)."""
    by = access.organiser(caller, "Pairing a round")
    tournament = _open(kiroku, tournament_id)
    tables, byes = _resolved(tournament, pairings)
    ruleset = get_game(tournament.game)
    cards = sample_card_set(tournament.game).cards
    for table, players in tables:
        _check_table(ruleset, tournament, cards, table, players)
    round_number = len(tournament.rounds) + 1
    if not tournament.locked:
        tournament.trigger_event(Tournament.DecklistsLocked,
                                 reason=f"round {round_number} paired", by=by.recorded_by,
                                 recorded_at=now())
    made = [_table_made(kiroku, by, tournament, round_number, table, players, cards)
            for table, players in tables]
    kiroku.tournaments.append(tournament, Tournament.RoundPaired,
                              *(a for m in made for a in m.aggregates),
                              sealed={k: v for m in made for k, v in m.sealed.items()},
                              round=round_number,
                              tables=[m.listed for m in made], byes=byes, by=by.recorded_by,
                              recorded_at=now())
    answer = round_view(kiroku, tournament_id, round_number)
    seats = {m.listed["table"]: m.seats for m in made}
    for entry in answer["tables"]:
        entry["seats"] = seats[entry["table"]]
    return answer


@dataclass(frozen=True)
class _TableMade:
    """A table of a round being paired, nothing of it saved yet: its entry in RoundPaired,
    the aggregates that store it (match, sealed seed, seating, seat credentials) and each
    seat's credential as the answer shows it."""

    listed: dict[str, Any]
    aggregates: tuple[Aggregate, ...]
    seats: list[dict[str, Any]]
    sealed: Sealed  # which seeds sealed its match's creation (``Recorder.save``)


def _table_made(kiroku: Kiroku, by: Identity, tournament: Tournament, round_number: int,
                table: int, players: list[str], cards: Mapping[str, Any]) -> _TableMade:
    """A table's match with the players' registered decks, its seating and its seat
    credentials, prepared for the round's one save."""
    names = [tournament.players[p]["name"] for p in players]
    match = _game_match(kiroku, by, tournament, players, cards)
    seating = kiroku.tournaments.seat(match.match_id, tournament, round_number, table, players)
    credentials = kiroku.prepare_seat_credentials(match.match_id, names, by)
    return _TableMade({"table": table, "players": players, "match_id": str(match.match_id)},
                      (*match.aggregates, seating, *credentials.credentials), credentials.seats,
                      match.sealed)


def _game_match(kiroku: Kiroku, by: Identity, tournament: Tournament, players: Sequence[str],
                cards: Mapping[str, Any]) -> Any:
    """A game's match (unsaved) with the players' registered decks (an amended list from the
    next game on) and the tournament's regulation."""
    return kiroku.prepare_match(
        tournament.game, [tournament.players[p]["name"] for p in players],
        [Deck(tournament.game, "", "decklist", tournament.decklists[p]) for p in players],
        cards=cards, options=tournament.options, recorded_by=by.recorded_by,
        replay_policy=tournament.replay_policy)


@_retrying
def next_game(kiroku: Kiroku, caller: Caller, tournament_id: UUID, round_number: int,
              table: int) -> dict[str, Any]:
    """Start the next game of a table's best-of-N match: a new match of the same players in
    the same seats (a seat's credential and a player's sign-in play it as they played the
    first), saved in one save with the tournament's SeriesGameStarted. A player seated at the
    table, the tournament's judges or the organisers; only once the last game has a result and
    none of the table's games waits for a ruling, and not once the series is decided."""
    tournament = _open(kiroku, tournament_id)
    seated = tournament.table(round_number, table)
    by = _at_the_table(kiroku, caller, tournament, seated)
    if any(kiroku.disputes.unruled(UUID(g)) for g in seated["games"]):
        raise TournamentRefused("awaiting_ruling", "A call at this table waits for a judge's "
                                "ruling; the next game starts once it is ruled.")
    if (round_number, table) in tournament.entered:
        raise TournamentRefused("series_over", "A judge entered this table's result; its "
                                "match is over.")
    series = _series(kiroku, tournament, seated)
    if series.decided:
        raise TournamentRefused("series_over", f"This table's match is over "
                                f"({_score(series)}).")
    if series.playing:
        raise TournamentRefused("game_in_progress", f"Game {len(seated['games'])} has no "
                                "result yet; the next game starts when it ends.")
    cards = sample_card_set(tournament.game).cards
    match = _game_match(kiroku, by, tournament, seated["players"], cards)
    game = len(seated["games"]) + 1
    seating = kiroku.tournaments.seat(match.match_id, tournament, round_number, table,
                                      list(seated["players"]), game)
    kiroku.tournaments.append(tournament, Tournament.GameStarted, *match.aggregates, seating,
                              sealed=match.sealed, round=round_number, table=table, game=game,
                              match_id=str(match.match_id), by=by.recorded_by,
                              recorded_at=now())
    return _table_view(kiroku, tournament, round_number, tournament.table(round_number, table))


def _at_the_table(kiroku: Kiroku, caller: Caller, tournament: Tournament,
                  seated: Mapping[str, Any]) -> Identity:
    """The caller if it plays at the table (a player's sign-in, or a seat credential of one
    of the table's games) or is the tournament's judge or an organiser; Forbidden otherwise."""
    identity = access.signed_in(caller, "Starting the next game")
    if identity.is_staff and (identity.role == Role.ORGANISER or
                              tournament.is_judge(identity.credential_id)):
        return identity
    as_seat = kiroku.seated(identity, UUID(seated["games"][-1]))
    if as_seat is not None and as_seat.match_id is not None and as_seat.seat is not None and (
            str(as_seat.match_id) in seated["games"]):
        return identity
    raise Forbidden("not_your_table", "The next game of a table is started by its players or "
                    "the tournament's judges.")


@_retrying
def drop(kiroku: Kiroku, caller: Caller, tournament_id: UUID, player: str,
         reason: str) -> dict[str, Any]:
    """Drop a player (organisers and the tournament's judges): they are not paired again and
    stay in the standings with the results they had; a table already paired plays on."""
    tournament = _open(kiroku, tournament_id)
    by = access.tournament_judge(caller, tournament, "Dropping a player")
    player_id = _player_id(tournament, player)
    if player_id in tournament.dropped:
        raise TournamentRefused("dropped", f"{_label(tournament, player_id)} has dropped "
                                "already.")
    kiroku.tournaments.append(tournament, Tournament.PlayerDropped, player_id=player_id,
                              reason=_text(reason, "A reason", REASON_LIMIT),
                              by=by.recorded_by, recorded_at=now())
    return _player(tournament, player_id)


def pair_file(kiroku: Kiroku, caller: Caller, tournament_id: UUID, data: bytes,
              round_number: int | None = None, filename: str | None = None) -> dict[str, Any]:
    """Pair the next round from a pairing program's file (``replay.pairings``: Melee, TopDeck,
    AetherHub, Endstep, TOM ``.tdf``, Limitless JSON, any CSV with a table and player
    columns; UTF-8, UTF-16 or Windows-1252). Of a file of several rounds, the round asked
    for, else the one this tournament pairs next if the file holds it, else its latest."""
    access.organiser(caller, "Pairing a round")
    upcoming = len(kiroku.tournaments.get(tournament_id).rounds) + 1
    try:
        read = read_pairings(data, round=round_number, filename=filename)
        if round_number is None and upcoming in read.rounds and read.round != upcoming:
            read = read_pairings(data, round=upcoming, filename=filename)
    except PairingsRejected as exc:
        raise TournamentRefused("bad_pairings", f"The pairings file cannot be read: {exc}") \
            from None
    return pair(kiroku, caller, tournament_id, read.pairings)


@_retrying
def enter_result(kiroku: Kiroku, caller: Caller, tournament_id: UUID, round_number: int,
                 table: int, winners: Sequence[str], drawn: bool, reason: str,
                 game_wins: Sequence[int] | None = None,
                 game_draws: int = 0) -> dict[str, Any]:
    """A judge's result for a table whose match its games have not decided (a no-show, an
    intentional draw, time called at 1-1, a game finished on paper), with the game wins per
    seat where they are known and the reason; a series its games decided always stands, and a
    later entry for the table replaces an earlier one (both stay in the history)."""
    tournament = _open(kiroku, tournament_id)
    judge = access.tournament_judge(caller, tournament, "Entering a result")
    seated = tournament.table(round_number, table)
    series = _series(kiroku, tournament, seated)
    if series.decided:
        raise TournamentRefused("match_has_result", "This table's match has a result of its "
                                f"own ({_score(series)}); a judge changes a game's result by "
                                "a ruling in that game.")
    ids = [_player_id(tournament, w) for w in winners]
    if drawn == bool(ids) or any(w not in seated["players"] for w in ids):
        raise TournamentRefused("bad_result", "A result names winners who sat at the table, "
                                "or says it was drawn (not both).")
    wins = _game_wins(tournament, seated, ids, drawn, game_wins, game_draws)
    kiroku.tournaments.append(tournament, Tournament.ResultEntered, round=round_number,
                              table=table, winners=ids, drawn=drawn,
                              reason=_text(reason, "A reason", REASON_LIMIT),
                              by=judge.recorded_by, recorded_at=now(), game_wins=wins,
                              game_draws=game_draws)
    return round_view(kiroku, tournament_id, round_number)


def _game_wins(tournament: Tournament, seated: Mapping[str, Any], winners: Sequence[str],
               drawn: bool, game_wins: Sequence[int] | None, game_draws: int) -> list[int] | None:
    """An entered result's game wins per seat, checked against it: no more than a best-of-N
    match's wins needed, nor more games than Kiroku starts in one, the winners with the most,
    a draw with equal wins."""
    if game_wins is None:
        if game_draws:
            raise TournamentRefused("bad_result", "Drawn games come with the game wins.")
        return None
    players = seated["players"]
    if len(game_wins) != len(players) or any(w < 0 for w in game_wins) or game_draws < 0:
        raise TournamentRefused("bad_result", f"Game wins are one count per seat "
                                f"({len(players)}), none negative.")
    needed = wins_needed(tournament.best_of)
    if max(game_wins) > needed or sum(game_wins) + game_draws > max_games(tournament.best_of):
        raise TournamentRefused("bad_result", f"A best-of-{tournament.best_of} match ends at "
                                f"{needed} game wins, after at most "
                                f"{max_games(tournament.best_of)} games.")
    most = max(game_wins)
    leaders = {players[s] for s, w in enumerate(game_wins) if w == most}
    if (drawn and len(leaders) != len(players)) or (not drawn and leaders != set(winners)):
        raise TournamentRefused("bad_result", "The game wins do not give this result: the "
                                "winners have the most game wins, a draw equal ones.")
    return list(game_wins)


def finish(kiroku: Kiroku, caller: Caller, tournament_id: UUID) -> dict[str, Any]:
    """End the tournament (organisers only): nothing more is registered or paired, and every
    decklist becomes public."""
    by = access.organiser(caller, "Finishing a tournament")
    tournament = _open(kiroku, tournament_id)
    kiroku.tournaments.append(tournament, Tournament.Finished, by=by.recorded_by,
                              recorded_at=now())
    return shown(tournament)


# ----- reading ---------------------------------------------------------------------------------
def shown(tournament: Tournament) -> dict[str, Any]:
    """What anyone may know of a tournament."""
    return {"tournament_id": str(tournament.id), "name": tournament.name,
            "game": tournament.game, "options": dict(tournament.options),
            "decklists": tournament.decklist_policy,
            "replay_policy": tournament.replay_policy, "deadline": tournament.deadline,
            "decklists_locked": tournament.locked_at(now()),
            "judges": [dict(j) for j in tournament.judges],
            "head_judge": dict(tournament.head_judge) if tournament.head_judge else None,
            "created_by": dict(tournament.created_by), "created_at": tournament.created_at,
            "players": len(tournament.players), "rounds": len(tournament.rounds),
            "best_of": tournament.best_of, "tiebreakers": tournament.tiebreakers,
            "dropped": len(tournament.dropped), "finished": tournament.finished}


def read(kiroku: Kiroku, tournament_id: UUID) -> dict[str, Any]:
    """A tournament, for anyone."""
    return shown(kiroku.tournaments.read(tournament_id))


def listing(kiroku: Kiroku, game: str | None = None, name: str | None = None,
            player: str | None = None) -> list[dict[str, Any]]:
    """Every tournament, oldest first, filtered by game, by a part of its name, and by a part
    of a registered player's name or an external id."""
    found = []
    for tournament_id in kiroku.tournaments.all_ids():
        tournament = kiroku.tournaments.read(tournament_id)
        if game and tournament.game != game:
            continue
        if name and name.casefold() not in tournament.name.casefold():
            continue
        if player and not _players_matching(tournament, player):
            continue
        found.append(shown(tournament))
    return found


def players(kiroku: Kiroku, tournament_id: UUID, name: str | None = None) -> list[dict[str, Any]]:
    """The registered players, in registration order, filtered by a part of the name or an
    external id; whether each has a decklist, never its cards."""
    tournament = kiroku.tournaments.read(tournament_id)
    chosen = _players_matching(tournament, name) if name else list(tournament.players)
    return [_player(tournament, p) for p in chosen]


def disputes_of(kiroku: Kiroku, caller: Caller, tournament_id: UUID,
                round_number: int | None = None, table: int | None = None,
                status: str | None = None) -> list[dict[str, Any]]:
    """The disputes of the tournament's matches, by round and table, for its judges and the
    organisers (the head judge's docket), filtered by round, table and status."""
    tournament = kiroku.tournaments.read(tournament_id)
    access.tournament_judge(caller, tournament, "Reading a tournament's disputes")
    found = []
    for paired in tournament.rounds:
        if round_number is not None and paired["round"] != round_number:
            continue
        for seated in paired["tables"]:
            if table is not None and seated["table"] != table:
                continue
            found += [{**hearing.shown(d), "round": paired["round"], "table": seated["table"]}
                      for d in kiroku.disputes.of_match(UUID(seated["match_id"]))
                      if status is None or d.status == status]
    return found


def decklist(kiroku: Kiroku, caller: Caller, tournament_id: UUID, player: str) -> dict[str, Any]:
    """A player's decklist: for the player, the tournament's judges and the organisers; for
    anyone under the open decklist policy or once the tournament is finished."""
    tournament = kiroku.tournaments.read(tournament_id)
    player_id = _player_id(tournament, player)
    access.decklist_reader(caller, tournament, UUID(player_id))
    return decklist_of(tournament, player_id)


def decklist_of(tournament: Tournament, player_id: str) -> dict[str, Any]:
    """A player's decklist with its amendments (for a reader already allowed to see it)."""
    return {**_player(tournament, player_id),
            "deck": dict(tournament.decklists.get(player_id, {})),
            "locked": tournament.locked_at(now()),
            "amendments": [dict(a) for a in tournament.amendments
                           if a["player_id"] == player_id]}


def round_view(kiroku: Kiroku, tournament_id: UUID, round_number: int) -> dict[str, Any]:
    """A round at a glance: every table with its players, its match, its status (not started,
    in progress, awaiting a ruling, result) and result, and the byes."""
    tournament = kiroku.tournaments.read(tournament_id)
    if not 1 <= round_number <= len(tournament.rounds):
        raise TournamentRefused("unknown_round", f"There is no round {round_number} (rounds "
                                f"paired: {len(tournament.rounds)}).")
    paired = tournament.rounds[round_number - 1]
    tables = [_table_view(kiroku, tournament, round_number, t) for t in paired["tables"]]
    return {"tournament_id": str(tournament.id), "round": round_number,
            "paired_at": paired["recorded_at"], "tables": tables,
            "byes": [_player(tournament, p) for p in paired["byes"]],
            "complete": all(t["status"] == "result" for t in tables)}


def standings_of(kiroku: Kiroku, tournament_id: UUID,
                 through: int | None = None) -> dict[str, Any]:
    """The standings after the results so far (or through round ``through``), ordered by the
    tournament's tie-breakers (``replay.standings``: the MTR's or Pokémon's)."""
    tournament = kiroku.tournaments.read(tournament_id)
    results = _results(kiroku, tournament, through)
    rows = standings(list(tournament.players), results, profile=tournament.tiebreakers,
                     dropped=frozenset(tournament.dropped))
    return {"tournament_id": str(tournament.id),
            "through_round": through or len(tournament.rounds),
            "tiebreakers": tiebreakers(tournament.tiebreakers),
            "standings": [{**_player(tournament, row.player_id), **asdict(row)}
                          for row in rows]}


def standings_csv(kiroku: Kiroku, tournament_id: UUID, through: int | None = None) -> str:
    """The standings as CSV, for the pairing program and the wall."""
    table = standings_of(kiroku, tournament_id, through)
    shown = [c for c in table["tiebreakers"] if c not in ("match_points", "registration_order")]
    columns = ["rank", "external_id", "name", "match_points", "wins", "losses", "draws",
               "byes", "game_wins", "game_losses", "game_draws", *shown, "dropped",
               "player_id"]
    return standings_file(table["standings"], columns)


RESULT_COLUMNS = ["round", "table", "external_id", "name", "opponents", "result",
                  "match_points", "game_wins", "game_losses", "game_draws", "player_id"]


def result_rows(kiroku: Kiroku, tournament_id: UUID) -> list[dict[str, Any]]:
    """Every finished table's result, one row per player per round in seat order: W, L, D or
    BYE, the match points it gave and the games won, lost and drawn."""
    tournament = kiroku.tournaments.read(tournament_id)
    rows = []
    for result in _results(kiroku, tournament, None):
        for player_id in result.players:
            opponents = [p for p in result.players if p != player_id]
            won, lost, drawn = games_of(result, player_id)
            rows.append({
                "round": result.round, "table": result.table,
                "external_id": tournament.players[player_id]["external_id"],
                "name": tournament.players[player_id]["name"],
                "opponents": "; ".join(_label(tournament, p) for p in opponents),
                "result": _letter(result, player_id),
                "match_points": points_of(result, player_id), "game_wins": won,
                "game_losses": lost, "game_draws": drawn, "player_id": player_id})
    return rows


def results_csv_of(kiroku: Kiroku, tournament_id: UUID, shape: str = "players") -> str:
    """The results as CSV: one row per player per round (``players``: Kiroku's own, read back
    as a round's pairings), or one line per table with each seat's game wins and the drawn
    games (``tables``: the match-result sheet)."""
    rows = result_rows(kiroku, tournament_id)
    if shape == "tables":
        return match_results_csv(rows)
    return results_csv(rows, RESULT_COLUMNS)


def results_tdf(kiroku: Kiroku, tournament_id: UUID, round_number: int, tdf: bytes) -> str:
    """The organiser's TOM file (``.tdf``) with round ``round_number``'s outcomes set from
    this tournament's results (its players' external ids are TOM's user ids), for TOM to
    open; the file's own text, only those outcomes changed."""
    tournament = kiroku.tournaments.read(tournament_id)
    if not 1 <= round_number <= len(tournament.rounds):
        raise TournamentRefused("unknown_round", f"There is no round {round_number} (rounds "
                                f"paired: {len(tournament.rounds)}).")
    rows = [r for r in result_rows(kiroku, tournament_id) if r["round"] == round_number]
    try:
        return tdf_results(tdf, rows, round=round_number)
    except PairingsRejected as exc:
        raise TournamentRefused("bad_tdf", f"The TOM file cannot take these results: {exc}") \
            from None


# ----- the pieces ----------------------------------------------------------------------------
def _table_view(kiroku: Kiroku, tournament: Tournament, round_number: int,
                seated: Mapping[str, Any]) -> dict[str, Any]:
    """A table as anyone may see it: its players, its series' games (each as a spectator
    sees it), its one status and its result with the game score."""
    games = [_game_view(kiroku, number, UUID(match_id))
             for number, match_id in enumerate(seated["games"], start=1)]
    series = series_of(tournament.best_of, len(seated["players"]),
                       [g.pop("outcome") for g in games])
    result = _table_result(tournament, round_number, seated, series)
    if any(g["awaiting_ruling"] for g in games):
        status = "awaiting_ruling"  # an appeal may still change a result
    elif result is not None:
        status = "result"
    elif any(g["status"] != "not_started" for g in games):
        status = "in_progress"
    else:
        status = "not_started"
    entered = (round_number, seated["table"]) in tournament.entered and not series.decided
    shown_result = None
    if result is not None:
        source = "judge" if entered else next(
            (g["result"]["source"] for g in reversed(games) if g["result"]), "game")
        shown_result = {"winners": [_player(tournament, p) for p in result.winners],
                        "drawn": result.drawn, "source": source,
                        "game_wins": list(result.game_wins), "game_draws": result.game_draws}
    return {"table": seated["table"], "match_id": seated["match_id"],
            "current_match_id": seated["games"][-1],
            "players": [_player(tournament, p) for p in seated["players"]],
            "status": status, "result": shown_result, "positions": games[-1]["positions"],
            "best_of": tournament.best_of, "games": games,
            "game_wins": list(series.game_wins), "game_draws": series.game_draws,
            "next_game": series.next_game and not entered and status != "awaiting_ruling"}


def _game_view(kiroku: Kiroku, number: int, match_id: UUID) -> dict[str, Any]:
    """One game of a series as a spectator sees it (a refused spectator learns no first
    action), with its match's outcome kept for the series. The match is read as cached, not
    copied (a round's page reads every game of the round), and its disputes once."""
    match = kiroku.recorder.match_to_read(match_id)
    public = Audience.of(None, match)
    disputes = kiroku.disputes.of_match(match.id)
    awaiting = any(d.status in ("open", "appealed") for d in disputes)
    outcome = match.result
    if awaiting:
        status = "awaiting_ruling"
    elif outcome is not None:
        status = "result"
    elif public.positions or public.refused:
        status = "in_progress"
    else:
        status = "not_started"
    shown = None
    if outcome is not None:
        source = "ruling" if _ended_by_ruling(disputes, match.version) else "game"
        shown = {"winners": list(outcome["winners"]), "drawn": bool(outcome["drawn"]),
                 "source": source}
    return {"game": number, "match_id": str(match_id), "status": status, "result": shown,
            "positions": public.positions, "awaiting_ruling": awaiting, "outcome": outcome}


def _ended_by_ruling(disputes: Sequence[Dispute], version: int) -> bool:
    """Whether a match standing at ``version`` stands as a ruling's game loss left it
    (``Disputes.ended_by_ruling``, from its disputes as read)."""
    return any(r["applied"].get("penalty") == "game_loss" and r["applied"].get("version")
               == version for d in disputes for r in d.rulings)


def _series(kiroku: Kiroku, tournament: Tournament, seated: Mapping[str, Any],
            outcomes: Mapping[str, Any] | None = None) -> Series:
    """A table's series from its games' results (read from ``outcomes`` by match id where
    given, else from each game's match)."""
    found = [outcomes.get(g) if outcomes is not None else
             kiroku.recorder.get_match(UUID(g)).result for g in seated["games"]]
    return series_of(tournament.best_of, len(seated["players"]), found)


def _score(series: Series) -> str:
    """A series' game score as players say it: 2-1, or 1-1-1 with a drawn game."""
    score = "-".join(map(str, series.game_wins))
    return f"{score}-{series.game_draws}" if series.game_draws else score


def _table_result(tournament: Tournament, round_number: int, seated: Mapping[str, Any],
                  series: Series) -> TableResult | None:
    """The table's result: its series' once its games decide it, else the one a judge
    entered, else None."""
    players = tuple(seated["players"])
    if series.decided:
        return TableResult(round_number, seated["table"], players,
                           tuple(players[s - 1] for s in series.winners), series.drawn,
                           game_wins=series.game_wins, game_draws=series.game_draws,
                           games_played=series.finished)
    entered = tournament.entered.get((round_number, seated["table"]))
    if entered is None:
        return None
    wins = entered.get("game_wins")
    return TableResult(round_number, seated["table"], players, tuple(entered["winners"]),
                       bool(entered["drawn"]), game_wins=tuple(wins) if wins else (),
                       game_draws=int(entered.get("game_draws") or 0))


def _results(kiroku: Kiroku, tournament: Tournament, through: int | None) -> list[TableResult]:
    """Every table's result so far and the byes, the games' results read from the match list
    (one query of the tournament's rows, not one match loaded per game)."""
    outcomes = {m["match_id"]: m["result"]
                for m in kiroku.find_matches(tournament=tournament.id, simulated=None)
                if not (m["result"] or {}).get("entered")}  # a game's own results only
    results = []
    for paired in tournament.rounds[:through]:
        number = paired["round"]
        for seated in paired["tables"]:
            series = _series(kiroku, tournament, seated, outcomes)
            found = _table_result(tournament, number, seated, series)
            if found is not None:
                results.append(found)
        results += [TableResult(number, None, (p,), (p,), bye=True) for p in paired["byes"]]
    return results


def _resolved(tournament: Tournament,
              pairings: Sequence[Pairing]) -> tuple[list[tuple[int, list[str]]], list[str]]:
    """The pairings as player ids: each table's players in seat order, and the byes; every
    player registered, with a decklist, and paired once."""
    if not pairings:
        raise TournamentRefused("bad_pairings", "A round needs at least one table.")
    seen: set[str] = set()
    tables: list[tuple[int, list[str]]] = []
    byes: list[str] = []
    for pairing in pairings:
        ids = [_player_id(tournament, ref) for ref in pairing.players]
        gone = [p for p in ids if p in tournament.dropped]
        if gone:
            names = ", ".join(_label(tournament, p) for p in gone)
            raise TournamentRefused("player_dropped", "These players have dropped and are not "
                                    f"paired again: {names}.")
        again = seen.intersection(ids) | {p for p in ids if ids.count(p) > 1}
        if again:
            raise TournamentRefused("paired_twice", "A player is paired twice in one round: "
                                    f"{', '.join(_label(tournament, p) for p in sorted(again))}.")
        seen.update(ids)
        if pairing.table is None:
            byes.extend(ids)
        elif not 1 <= pairing.table <= MAX_TABLE:
            raise TournamentRefused("bad_pairings", f"Table {pairing.table}: tables are "
                                    f"numbered 1 to {MAX_TABLE}.")
        elif any(t == pairing.table for t, _ in tables):
            raise TournamentRefused("bad_pairings", f"Table {pairing.table} is paired twice.")
        else:
            tables.append((pairing.table, ids))
    missing = [p for _, ids in tables for p in ids if p not in tournament.decklists]
    if missing:
        raise TournamentRefused("no_decklist", "These players have no decklist: "
                                f"{', '.join(_label(tournament, p) for p in sorted(missing))}.")
    return tables, byes


def _check_table(ruleset: Any, tournament: Tournament, cards: Mapping[str, Any], table: int,
                 players: Sequence[str]) -> None:
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        raise TournamentRefused("bad_pairings", f"Table {table} seats {len(players)} players; "
                                f"{ruleset.title} is played by {ruleset.players_text}.")
    try:
        ruleset.check_table([tournament.decklists[p] for p in players], cards,
                            tournament.options)
    except SetupError as exc:
        raise TournamentRefused("decks_cannot_meet", f"Table {table}: {exc.message}") from None


def _checked(tournament: Tournament, deck: Mapping[str, int]) -> dict[str, int]:
    """A decklist checked as one deck of the game (C5)."""
    if not deck or not all(isinstance(c, int) and not isinstance(c, bool)
                           for c in deck.values()):
        raise TournamentRefused("bad_decklist", "A decklist maps card ids to copies, at least "
                                "one card.")
    ruleset = get_game(tournament.game)
    cards = sample_card_set(tournament.game).cards
    try:
        ruleset.check_table([deck], {c: cards[c] for c in deck if c in cards},
                            tournament.options)
    except SetupError as exc:
        message = exc.message.replace("Seat 1's deck", "The decklist")
        raise SetupError.passed_on(exc.reason, message) from None
    return {card: int(count) for card, count in sorted(deck.items())}


def _staff(kiroku: Kiroku, judges: Sequence[UUID],
           head_judge: UUID | None) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The staff as ``{id, name}``: every one an issued, unrevoked judge credential."""
    issued = {i.credential_id: i for i in kiroku.credentials.issued()
              if i.role == Role.JUDGE and not kiroku.credentials.is_revoked(i)}
    wanted = list(dict.fromkeys([*judges, *([head_judge] if head_judge else [])]))
    unknown = [str(j) for j in wanted if j not in issued]
    if unknown:
        raise TournamentRefused("unknown_judge", "Staff are judges' credentials; these are "
                                f"not (or are revoked): {', '.join(unknown)}.")
    staff = [{"id": str(j), "name": issued[j].name} for j in wanted if j != head_judge]
    head = {"id": str(head_judge), "name": issued[head_judge].name} if head_judge else None
    return staff, head


def _open(kiroku: Kiroku, tournament_id: UUID) -> Tournament:
    tournament = kiroku.tournaments.get(tournament_id)
    if tournament.finished:
        raise TournamentRefused("tournament_finished", "The tournament is finished.")
    return tournament


def _not_locked(tournament: Tournament) -> None:
    if tournament.locked_at(now()):
        raise TournamentRefused("decklists_locked", "The decklists are locked: only a judge "
                                "may amend one now, with a reason.")


def _player_id(tournament: Tournament, ref: str) -> str:
    """A player by id, external id or exact display name (case-insensitive), or
    TournamentRefused."""
    ref = str(ref).strip()
    if ref in tournament.players:
        return ref
    by_external = [p for p, e in tournament.players.items() if e["external_id"] == ref]
    by_name = [p for p, e in tournament.players.items()
               if e["name"].casefold() == ref.casefold()]
    found = by_external or by_name
    if len(found) == 1:
        return found[0]
    if not found:
        raise TournamentRefused("unknown_player", f"No registered player is {ref[:80]!r} "
                                "(a player id, external id or display name).")
    raise TournamentRefused("ambiguous_player", f"Several players are named {ref[:80]!r}: "
                            "use their external ids or player ids.")


def _players_matching(tournament: Tournament, part: str) -> list[str]:
    part = part.casefold()
    return [p for p, e in tournament.players.items()
            if part in e["name"].casefold() or part == (e["external_id"] or "").casefold()]


def _player(tournament: Tournament, player_id: str) -> dict[str, Any]:
    entry = tournament.players[player_id]
    return {"player_id": player_id, "name": entry["name"], "external_id": entry["external_id"],
            "has_decklist": player_id in tournament.decklists,
            "dropped": player_id in tournament.dropped}


def _label(tournament: Tournament, player_id: str) -> str:
    entry = tournament.players[player_id]
    return f"{entry['name']} ({entry['external_id']})" if entry["external_id"] else entry["name"]


def _letter(result: TableResult, player_id: str) -> str:
    if result.bye:
        return "BYE"
    if result.drawn:
        return "D"
    return "W" if player_id in result.winners else "L"


def _text(text: str, what: str, limit: int) -> str:
    text = str(text).strip()
    if not 1 <= len(text) <= limit or not text.isprintable():
        raise TournamentRefused("bad_text", f"{what} is 1 to {limit} printable characters.")
    return text


def _moment(text: str | None) -> str | None:
    """An ISO 8601 moment with its time zone, as UTC in the form every ``recorded_at`` has."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(str(text).strip())
    except ValueError:
        raise TournamentRefused("bad_deadline", "A deadline is an ISO 8601 moment with its "
                                "time zone, such as 2026-11-28T09:30:00+09:00.") from None
    if moment.tzinfo is None:
        raise TournamentRefused("bad_deadline", "A deadline needs its time zone, such as "
                                "2026-11-28T09:30:00+09:00 or ...Z.")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _future(text: str | None) -> str | None:
    """A deadline (``_moment``) that is still ahead: one already past would lock the lists
    the moment it is set, with no way back."""
    moment = _moment(text)
    if moment is not None and moment <= now():
        raise TournamentRefused("deadline_passed", f"The deadline {text} has passed already; "
                                "give one ahead, or lock the lists now.")
    return moment

