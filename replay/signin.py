"""Sign-in links and sessions (issue 40): the seat hand-off at a table, and one sign-in for an
event's player.

A judge issues a link for a seat of a match (or every seat of a match, or of a round's tables),
or an organiser for a tournament's player; the player opens it on a phone and is signed in
(``ledger.signin``). A player's session plays each of the player's paired matches as their
seat: ``Kiroku.seated`` resolves it, for the one match a request is about, to the seat the
pairing gave them, so the audience, ``recorded_by`` and every right follow from the identity.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from engine.core.errors import ActionError
from ledger.identity import Identity, Role
from ledger.signin import Scope
from ledger.tournaments import Tournament, TournamentRefused
from replay import access
from replay.access import Caller
from replay.reasons import ServiceReason as R
from replay.service import Kiroku


def _labels(kiroku: Kiroku, match_id: UUID) -> dict[str, Any]:
    """Where a match sits, for its slips: event, round and table (empty outside one)."""
    seating = kiroku.tournaments.seating(match_id)
    if seating is None:
        return {}
    return {"tournament": seating.tournament, "tournament_id": seating.tournament_id,
            "round": seating.round, "table": seating.table}


def _issuer(kiroku: Kiroku, caller: Caller, match_id: UUID, what: str) -> Identity:
    """A tournament match's links are issued by its tournament's judges and the organisers;
    any other match's by any judge or organiser."""
    seating = kiroku.tournaments.seating(match_id)
    if seating is None:
        return access.staff(caller, what)
    return access.tournament_judge(
        caller, kiroku.tournaments.get(UUID(seating.tournament_id)), what)


def seat_links(kiroku: Kiroku, caller: Caller, match_id: UUID, seats: list[int] | None = None,
               *, valid_hours: int, revoke_sessions: bool = False,
               scorekeeper: bool = False) -> list[dict[str, Any]]:
    """A new sign-in link for each of ``seats`` of a match (all its seats by default), with
    what its slip prints: event, round, table, player and seat; or, with ``scorekeeper``, one
    link for the match's scorekeeper (one device that records both seats). Each older link of
    the same scope stops working; with ``revoke_sessions`` so do the sessions older links
    opened (a lost phone)."""
    by = _issuer(kiroku, caller, match_id, "Issuing sign-in links")
    players = kiroku.recorder.get_match(match_id).players
    chosen = seats or list(range(1, len(players) + 1))
    for seat in chosen:
        if not 1 <= seat <= len(players):
            raise ActionError(R.BAD_SEAT, f"There is no seat {seat} in this match: its seats "
                              f"are 1 to {len(players)}.")
    labels = _labels(kiroku, match_id)
    if scorekeeper:
        name = f"scorekeeper: {' vs '.join(players)}"[:64]
        return [{"match_id": str(match_id), "seat": None, "name": name, **labels,
                 **kiroku.links.issue(Scope(Role.SCOREKEEPER, name, match_id=match_id),
                                      issued_by=by, valid_hours=valid_hours,
                                      revoke_sessions=revoke_sessions)}]
    return [{"match_id": str(match_id), "seat": seat, "name": players[seat - 1], **labels,
             **kiroku.links.issue(Scope(Role.SEAT, players[seat - 1], match_id=match_id,
                                        seat=seat), issued_by=by, valid_hours=valid_hours,
                                  revoke_sessions=revoke_sessions)}
            for seat in chosen]


def round_links(kiroku: Kiroku, caller: Caller, tournament_id: UUID, round_number: int, *,
                valid_hours: int) -> list[dict[str, Any]]:
    """A new sign-in link for every seat of every table of a round, table by table (the
    round's slips)."""
    tournament = kiroku.tournaments.get(tournament_id)
    access.tournament_judge(caller, tournament, "Issuing a round's sign-in links")
    if not 1 <= round_number <= len(tournament.rounds):
        raise TournamentRefused("unknown_round", f"There is no round {round_number} (rounds "
                                f"paired: {len(tournament.rounds)}).")
    links = []
    for table in tournament.rounds[round_number - 1]["tables"]:
        links += seat_links(kiroku, caller, UUID(table["match_id"]), valid_hours=valid_hours)
    return links


def player_link(kiroku: Kiroku, caller: Caller, tournament_id: UUID, player_id: UUID, *,
                valid_hours: int, revoke_sessions: bool = False) -> dict[str, Any]:
    """A new sign-in link for a tournament's player: one sign-in for the whole event, that
    plays each of their paired matches as their seat."""
    tournament = kiroku.tournaments.get(tournament_id)
    by = access.tournament_judge(caller, tournament, "Issuing a player's sign-in link")
    entry = tournament.players.get(str(player_id))
    if entry is None:
        raise TournamentRefused("unknown_player", f"No player {player_id} is registered to "
                                "this tournament.")
    scope = Scope(Role.PLAYER, entry["name"], tournament_id=tournament_id, player_id=player_id)
    return {"tournament": tournament.name, "tournament_id": str(tournament_id),
            "player_id": str(player_id), "name": entry["name"],
            **kiroku.links.issue(scope, issued_by=by, valid_hours=valid_hours,
                                 revoke_sessions=revoke_sessions)}


def my_matches(kiroku: Kiroku, caller: Identity) -> list[dict[str, Any]]:
    """Where the caller plays: a seat's or a scorekeeper's match (every game of its table's
    series, for a seat of a tournament table), or every game of every paired match of a
    tournament player (newest first), each with its seat, round, table and game."""
    if caller.match_id is not None:  # a seat's, or a scorekeeper's (every seat: no seat)
        seating = kiroku.tournaments.seating(caller.match_id)
        if seating is None or caller.role != Role.SEAT:
            return [{"match_id": str(caller.match_id), "seat": caller.seat,
                     **_labels(kiroku, caller.match_id)}]
        event = kiroku.tournaments.get(UUID(seating.tournament_id))
        table = event.table(seating.round, seating.table)
        return _games(event, seating.round, table, caller.seat)[::-1]
    if caller.role != Role.PLAYER or caller.tournament_id is None:
        return []
    tournament: Tournament = kiroku.tournaments.get(caller.tournament_id)
    mine = []
    for number, paired in enumerate(tournament.rounds, start=1):
        for table in paired["tables"]:
            if str(caller.player_id) in table["players"]:
                seat = table["players"].index(str(caller.player_id)) + 1
                mine += _games(tournament, number, table, seat)
    return mine[::-1]


def _games(tournament: Tournament, round_number: int, table: dict[str, Any],
           seat: int | None) -> list[dict[str, Any]]:
    """Each game of a table's series as a match its seat plays, first game first."""
    return [{"match_id": match_id, "tournament": tournament.name,
             "tournament_id": str(tournament.id), "round": round_number,
             "table": table["table"], "game": game, "seat": seat}
            for game, match_id in enumerate(table["games"], start=1)]
