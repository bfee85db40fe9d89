"""Tournaments (issue 14): an event with its staff, registered players, locked decklists, rounds
and tables, in a stream of its own beside the matches it creates.

An organiser creates the tournament with its game, the regulation options every match gets, its
decklist policy (``open``/``closed``), its replay policy and its staff (judges, and the head
judge who hears appeals). Players register with a display name and an optional external id (the
player number of the organiser's pairing software); each submits a decklist, checked against the
game's construction rules (C5) when it is submitted, and locked at the organiser's deadline, or
when the first round is paired, whichever comes first. After that only a judge may amend a list,
with a written reason. Pairing a round creates its matches with the registered decks; each
match's seat (``Seating``, its id derived from the match's) says which tournament, round and
table it belongs to and which player sits where, so a match knows its event without a change to
its own record. Results come from the matches themselves (their end, or a judge's ruling), or,
for a table whose match has no result, from a judge's entry with a reason.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Cache
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from ledger.errors import ConcurrentAppend, LedgerError
from ledger.seatings import find_seating, seating_id

DECKLIST_POLICIES = ("closed", "open")
TIEBREAKER_PROFILES = ("mtr", "pokemon")  # replay.standings computes each
NAME_LIMIT = 80
REASON_LIMIT = 500



class TournamentRefused(LedgerError):
    """A tournament command that cannot be carried out as asked; ``reason`` says why."""

    code = "tournament_refused"

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message, **details)
        self.reason = reason


class TournamentNotFound(LedgerError):
    """No tournament has that id."""

    code = "tournament_not_found"


class Tournament(Aggregate):
    """One tournament: its settings, staff, players and decklists, rounds and entered results."""

    TOPIC = "kiroku:Tournament"

    class Created(Aggregate.Created):
        """TournamentCreated: the game, the regulation, the policies and the staff."""

        TOPIC = "kiroku:TournamentCreated/1"
        name: str
        game: str
        options: dict[str, Any]
        decklists: str
        replay_policy: str
        deadline: str | None
        judges: list[dict[str, Any]]
        head_judge: dict[str, Any] | None
        created_by: dict[str, Any]
        recorded_at: str
        best_of: int  # absent from tournaments created before best-of-N: 1
        tiebreakers: str  # absent before tie-breaker profiles: "mtr"

    class StaffChanged(Aggregate.Event):
        """StaffChanged: the judges and the head judge from now on."""

        TOPIC = "kiroku:TournamentStaffChanged/1"
        judges: list[dict[str, Any]]
        head_judge: dict[str, Any] | None
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The new staff."""
            aggregate.judges = [dict(j) for j in self.judges]
            aggregate.head_judge = dict(self.head_judge) if self.head_judge else None

    class DeadlineSet(Aggregate.Event):
        """DecklistDeadlineSet: when the decklists lock."""

        TOPIC = "kiroku:DecklistDeadlineSet/1"
        deadline: str | None
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The new deadline."""
            aggregate.deadline = self.deadline

    class PlayerRegistered(Aggregate.Event):
        """PlayerRegistered: a player's display name, external id and credential."""

        TOPIC = "kiroku:PlayerRegistered/1"
        player_id: str
        name: str
        external_id: str | None
        credential_id: str
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """Registered, without a decklist yet."""
            aggregate.players[self.player_id] = {
                "player_id": self.player_id, "name": self.name,
                "external_id": self.external_id, "credential_id": self.credential_id,
                "registered_at": self.recorded_at}

    class DecklistSubmitted(Aggregate.Event):
        """DecklistSubmitted: a player's list (checked), replacing any earlier one."""

        TOPIC = "kiroku:DecklistSubmitted/1"
        player_id: str
        deck: dict[str, int]
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The player's list until the lock."""
            aggregate.decklists[self.player_id] = dict(self.deck)

    class DecklistsLocked(Aggregate.Event):
        """DecklistsLocked: no player may change a list from now on."""

        TOPIC = "kiroku:DecklistsLocked/1"
        reason: str
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """Locked."""
            aggregate.locked = True

    class DecklistAmended(Aggregate.Event):
        """DecklistAmended: a judge's change to a locked list, with the reason."""

        TOPIC = "kiroku:DecklistAmended/1"
        player_id: str
        deck: dict[str, int]
        reason: str
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The amended list is the player's list for the rounds paired from now on."""
            aggregate.decklists[self.player_id] = dict(self.deck)
            aggregate.amendments.append({"player_id": self.player_id, "reason": self.reason,
                                         "by": dict(self.by), "recorded_at": self.recorded_at})

    class RoundPaired(Aggregate.Event):
        """RoundPaired: the round's tables, each with its players in seat order and its match,
        and the players with a bye."""

        TOPIC = "kiroku:RoundPaired/1"
        round: int
        tables: list[dict[str, Any]]
        byes: list[str]
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The round is on; each table's series starts with its first game."""
            aggregate.rounds.append({"round": self.round,
                                     "tables": [{**t, "games": [t["match_id"]]}
                                                for t in self.tables],
                                     "byes": list(self.byes), "recorded_at": self.recorded_at})

    class GameStarted(Aggregate.Event):
        """SeriesGameStarted: the next game of a table's best-of-N match, a match of its own."""

        TOPIC = "kiroku:SeriesGameStarted/1"
        round: int
        table: int
        game: int
        match_id: str
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The table's series has one game more."""
            for entry in aggregate.rounds[self.round - 1]["tables"]:
                if entry["table"] == self.table:
                    entry["games"].append(self.match_id)

    class PlayerDropped(Aggregate.Event):
        """PlayerDropped: the player leaves the event; not paired again, still in the
        standings with the results they had."""

        TOPIC = "kiroku:PlayerDropped/1"
        player_id: str
        reason: str
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """Dropped after the rounds paired so far."""
            aggregate.dropped[self.player_id] = {
                "reason": self.reason, "after_round": len(aggregate.rounds),
                "by": dict(self.by), "recorded_at": self.recorded_at}

    class ResultEntered(Aggregate.Event):
        """TableResultEntered: a judge's result for a table whose match has none (a no-show,
        an intentional draw, a game finished on paper)."""

        TOPIC = "kiroku:TableResultEntered/1"
        round: int
        table: int
        winners: list[str]
        drawn: bool
        reason: str
        by: dict[str, Any]
        recorded_at: str
        game_wins: list[int] | None = None  # per seat; None before best-of-N (and unknown)
        game_draws: int = 0

        def apply(self, aggregate: Any) -> None:
            """The table's result, unless its series is decided by its games first."""
            aggregate.entered[(self.round, self.table)] = {
                "winners": list(self.winners), "drawn": self.drawn, "reason": self.reason,
                "game_wins": list(self.game_wins) if self.game_wins is not None else None,
                "game_draws": self.game_draws, "by": dict(self.by),
                "recorded_at": self.recorded_at}

    class Finished(Aggregate.Event):
        """TournamentFinished: the event is over; under either policy, decklists become
        public."""

        TOPIC = "kiroku:TournamentFinished/1"
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """Over."""
            aggregate.finished = True

    def __init__(self, name: str, game: str, options: dict[str, Any], decklists: str,
                 replay_policy: str, deadline: str | None, judges: list[dict[str, Any]],
                 head_judge: dict[str, Any] | None, created_by: dict[str, Any],
                 recorded_at: str, best_of: int = 1, tiebreakers: str = "mtr") -> None:
        self.name = name
        self.best_of = best_of
        self.tiebreakers = tiebreakers
        self.game = game
        self.options = dict(options)
        self.decklist_policy = decklists
        self.replay_policy = replay_policy
        self.deadline = deadline
        self.judges = [dict(j) for j in judges]
        self.head_judge = dict(head_judge) if head_judge else None
        self.created_by = dict(created_by)
        self.created_at = recorded_at
        self.players: dict[str, dict[str, Any]] = {}
        self.decklists: dict[str, dict[str, int]] = {}
        self.amendments: list[dict[str, Any]] = []
        self.locked = False
        self.rounds: list[dict[str, Any]] = []
        self.entered: dict[tuple[int, int], dict[str, Any]] = {}
        self.dropped: dict[str, dict[str, Any]] = {}
        self.finished = False

    def locked_at(self, moment: str) -> bool:
        """Whether the decklists are locked at ``moment`` (an ISO time): by the lock, or by the
        deadline having passed."""
        return self.locked or (self.deadline is not None and moment >= self.deadline)

    def is_judge(self, credential_id: UUID) -> bool:
        """Whether the credential is one of this tournament's judges (the head judge too)."""
        ids = {j["id"] for j in self.judges}
        if self.head_judge:
            ids.add(self.head_judge["id"])
        return str(credential_id) in ids

    def player_of(self, credential_id: UUID) -> str | None:
        """The player id a player credential was issued for, if any."""
        return next((p for p, entry in self.players.items()
                     if entry["credential_id"] == str(credential_id)), None)

    def table(self, round_number: int, table: int) -> dict[str, Any]:
        """A table of a round, or TournamentRefused."""
        if not 1 <= round_number <= len(self.rounds):
            raise TournamentRefused("unknown_round", f"There is no round {round_number} "
                                    f"(rounds paired: {len(self.rounds)}).")
        for entry in self.rounds[round_number - 1]["tables"]:
            if entry["table"] == table:
                return dict(entry)
        raise TournamentRefused("unknown_table", f"Round {round_number} has no table {table}.")


class Seating(Aggregate):
    """Where a match sits in a tournament: its tournament, round and table, and its players."""

    TOPIC = "kiroku:Seating"

    class Created(Aggregate.Created):
        """MatchSeated."""

        TOPIC = "kiroku:MatchSeated/1"
        match_id: str
        tournament_id: str
        tournament: str
        round: int
        table: int
        players: list[str]
        game: int = 1  # absent from seatings stored before best-of-N

    def __init__(self, match_id: str, tournament_id: str, tournament: str, round: int,
                 table: int, players: list[str], game: int = 1) -> None:
        self.match_id = match_id
        self.game = game
        self.tournament_id = tournament_id
        self.tournament = tournament
        self.round = round
        self.table = table
        self.players = list(players)

    def labels(self) -> dict[str, Any]:
        """What a match's summary says of its place in the event."""
        return {"tournament_id": self.tournament_id, "tournament": self.tournament,
                "round": self.round, "table": self.table, "game": self.game,
                "players": list(self.players)}

    def same_table(self, other: Seating) -> bool:
        """Whether two games are of one table's series (same event, round and table)."""
        return (self.tournament_id, self.round, self.table) == (
            other.tournament_id, other.round, other.table)


class Tournaments:
    """Tournaments and seatings in an eventsourcing application's store (the Recorder's)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def create(self, **fields: Any) -> Tournament:
        """A new tournament, saved."""
        tournament: Tournament = Tournament._create(Tournament.Created, id=uuid4(), **fields)
        self.app.save(tournament)
        return tournament

    def get(self, tournament_id: UUID) -> Tournament:
        """A tournament for a command to change: its own copy (the library's deep copy of the
        cached one), or TournamentNotFound."""
        return self._found(tournament_id, deepcopy_from_cache=True)

    def read(self, tournament_id: UUID) -> Tournament:
        """A tournament for a reader that changes nothing: the cached one itself, or
        TournamentNotFound. The library's deep copy of it was most of reading it (86% of
        ``GET /tournaments/{id}`` at 1,024 players and 9 rounds), and a page's poll reads it
        four times. The cached tournament is never changed in place (``_fast_forwarded``), so
        a reader's stays as it was read while others are read and saved."""
        return self._found(tournament_id, deepcopy_from_cache=False)

    def _found(self, tournament_id: UUID, deepcopy_from_cache: bool) -> Tournament:
        repository = self.app.repository
        try:
            found: Any = repository.get(tournament_id, projector_func=_fast_forwarded,
                                        deepcopy_from_cache=deepcopy_from_cache)
        except AggregateNotFoundError:
            raise TournamentNotFound(f"No tournament {tournament_id}.") from None
        if not isinstance(found, Tournament):
            raise TournamentNotFound(f"No tournament {tournament_id}.")
        if not deepcopy_from_cache and repository.cache is not None:
            _cache_newer(repository.cache, found)
        return found

    def append(self, tournament: Tournament, event: type[Aggregate.Event],
               *with_it: Aggregate, sealed: dict[Any, int] | None = None,
               **fields: Any) -> None:
        """Append one event to a tournament, saved in one transaction with the aggregates it
        brings (a pairing's matches, seatings and credentials, a registration's credential);
        ``sealed`` says which seeds sealed the matches' events (``Recorder.save``)."""
        tournament.trigger_event(event, **fields)
        try:
            self.app.save(tournament, *with_it, sealed=sealed)
        except IntegrityError:
            raise ConcurrentAppend("Another command changed the tournament at the same "
                                   "moment; reload it and try again.",
                                   tournament_id=str(tournament.id)) from None

    @staticmethod
    def seat(match_id: UUID, tournament: Tournament, round_number: int, table: int,
             players: list[str], game: int = 1) -> Seating:
        """A new (unsaved) seating of a match at a table, as game ``game`` of its series."""
        seating: Seating = Seating._create(
            Seating.Created, id=seating_id(match_id), match_id=str(match_id),
            tournament_id=str(tournament.id), tournament=tournament.name, round=round_number,
            table=table, players=players, game=game)
        return seating

    def seating(self, match_id: UUID) -> Seating | None:
        """Where a match sits, or None for a match outside any tournament."""
        return find_seating(self.app, match_id)

    def all_ids(self) -> Iterator[UUID]:
        """Every tournament's id, oldest first."""
        yield from self.app.streams.every("tournament")

    def history(self, tournament_id: UUID) -> list[Any]:
        """Every event of a tournament, oldest first."""
        return list(self.app.events.get(tournament_id))


def _fast_forwarded(aggregate: Any, events: Iterable[Any]) -> Any:
    """The library's ``project_aggregate`` for a tournament, on a copy of a cached
    ``aggregate`` when there are events to apply: the library fast-forwards a cached aggregate
    in place (events another process appended), which would change a tournament under a
    reader holding it (``Tournaments.read``). The copy is made only when another process
    appended, not on every read; ``_cache_newer`` keeps it."""
    pending = iter(events)
    first = next(pending, None)
    if first is None:
        return aggregate
    if aggregate is not None:
        aggregate = copy.deepcopy(aggregate)
    for event in chain([first], pending):
        aggregate = event.mutate(aggregate)
    return aggregate


def _cache_newer(cache: Cache[UUID, Any], tournament: Tournament) -> None:
    """Keep ``tournament`` in ``cache`` when it is newer than the one there (a copy that
    ``_fast_forwarded`` made): the next reader then has no events to apply. Should a save
    here put a newer one in between, and this older one replace it, the next read
    fast-forwards it again: what is cached is never read past what is stored."""
    try:
        cached = cache.get(tournament.id)
    except KeyError:
        return
    if cached is not tournament and cached.version < tournament.version:
        cache.put(tournament.id, tournament)
