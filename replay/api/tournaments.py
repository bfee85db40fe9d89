"""Tournaments: events with staff, registered players and their decklists, rounds paired by
hand or from a pairing program's CSV, results and standings (``replay.tournaments`` decides
who may do and read what)."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from engine.core.contract import MAX_DECK_CARDS
from ledger.identity import NAME_LIMIT
from ledger.tournaments import NAME_LIMIT as TOURNAMENT_NAME_LIMIT
from ledger.tournaments import REASON_LIMIT
from replay import tournaments as events
from replay.api import errors
from replay.api.limits import Plain
from replay.api.shapes import (
    DecklistOut,
    PlayerOut,
    PlayerRegisteredOut,
    RoundOut,
    StandingsOut,
    TableOut,
    TournamentDispute,
    TournamentOut,
)
from replay.api.wire import CallerDep, KirokuDep, TournamentId, respond
from replay.pairings import Pairing

router = APIRouter(tags=["tournaments"])

PlayerRef = Annotated[str, Field(min_length=1, max_length=80,
                                 description="A player id, external id or display name.")]
Decklist = dict[Annotated[str, Field(max_length=120)],
                Annotated[int, Field(ge=1, le=MAX_DECK_CARDS)]]
RoundNumber = Annotated[int, Path(ge=1, le=1000)]
CSV = "text/csv"
CSV_CONTENT = {CSV: {"schema": {"type": "string"}}}


class CSVResponse(PlainTextResponse):
    """A CSV document."""

    media_type = CSV


class TournamentCreate(BaseModel):
    """A new tournament: its game and regulation, policies, deadline and staff."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=TOURNAMENT_NAME_LIMIT)]
    game: Annotated[str, Field(max_length=40)]
    options: dict[Annotated[str, Field(max_length=60)], Plain] = Field(
        default_factory=dict, description="Regulation options every match of the tournament "
                                          "gets (the game's own, as for a match).")
    decklists: Literal["closed", "open"] = Field(
        default="closed", description="closed: a player sees their own list, judges see all, "
        "everyone sees them once the tournament is finished; open: every list is public.")
    replay_policy: Literal["open", "closed"] = "open"
    deadline: Annotated[str | None, Field(max_length=40, description=(
        "When the decklists lock, ISO 8601 with a time zone; pairing round 1 locks them "
        "too."))] = None
    judges: Annotated[list[UUID], Field(max_length=64, description="Judges' credential "
                                                                   "ids.")] = []
    head_judge: Annotated[UUID | None, Field(description="The judge who hears appeals.")] = None
    best_of: Literal[1, 3, 5] = Field(default=1, description="Games a table's match is the "
                                                             "best of.")
    tiebreakers: Literal["mtr", "pokemon"] = Field(
        default="mtr", description="The standings' tie-breakers: the Magic Tournament Rules' "
        "(match points, OMW%, GW%, OGW%, each percentage floored at 0.33) or Pokémon's (match "
        "points, OWP, OOWP, floored at 25%).")


class Staff(BaseModel):
    """The tournament's judges and head judge from now on."""

    model_config = ConfigDict(extra="forbid")
    judges: Annotated[list[UUID], Field(max_length=64)] = []
    head_judge: UUID | None = None


class Deadline(BaseModel):
    """When the decklists lock (null: no deadline)."""

    model_config = ConfigDict(extra="forbid")
    deadline: Annotated[str | None, Field(max_length=40)]


class Registration(BaseModel):
    """A player to register."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=NAME_LIMIT)]
    external_id: Annotated[str | None, Field(max_length=64, description=(
        "The player's number in the organiser's pairing program."))] = None


class DecklistIn(BaseModel):
    """A decklist: card id to copies."""

    model_config = ConfigDict(extra="forbid")
    deck: Annotated[Decklist, Field(min_length=1, max_length=500)]


class Amendment(DecklistIn):
    """A judge's amendment of a locked list, with the reason."""

    reason: Annotated[str, Field(min_length=1, max_length=REASON_LIMIT)]


class TableIn(BaseModel):
    """One table of a round: its number and its players in seat order."""

    model_config = ConfigDict(extra="forbid")
    table: Annotated[int, Field(ge=1, le=10_000)]
    players: Annotated[list[PlayerRef], Field(min_length=1, max_length=16)]


class Pairings(BaseModel):
    """The next round: its tables, and the players with a bye."""

    model_config = ConfigDict(extra="forbid")
    tables: Annotated[list[TableIn], Field(min_length=1, max_length=5000)]
    byes: Annotated[list[PlayerRef], Field(max_length=5000)] = []


class ResultIn(BaseModel):
    """A judge's result for a table whose match has none."""

    model_config = ConfigDict(extra="forbid")
    winners: Annotated[list[PlayerRef], Field(max_length=16)] = []
    drawn: bool = False
    reason: Annotated[str, Field(min_length=1, max_length=REASON_LIMIT)]
    game_wins: Annotated[list[Annotated[int, Field(ge=0, le=5)]] | None, Field(
        max_length=16, description="Games won per seat, where known (2-1: [2, 1]).")] = None
    game_draws: Annotated[int, Field(ge=0, le=5)] = 0


class DropIn(BaseModel):
    """Why a player drops."""

    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(min_length=1, max_length=REASON_LIMIT)]


@router.post("/tournaments", status_code=201, response_model=TournamentOut)
def create(request: Request, kiroku: KirokuDep, caller: CallerDep,
           body: TournamentCreate) -> Response:
    """Create a tournament (organisers)."""
    return respond(request, events.create(
        kiroku, caller, name=body.name, game=body.game, options=body.options,
        decklists=body.decklists, replay_policy=body.replay_policy, deadline=body.deadline,
        judges=body.judges, head_judge=body.head_judge, best_of=body.best_of,
        tiebreakers=body.tiebreakers), 201)


@router.get("/tournaments", response_model=list[TournamentOut])
def listing(request: Request, kiroku: KirokuDep,
            game: Annotated[str | None, Query(max_length=40)] = None,
            name: Annotated[str | None, Query(max_length=80)] = None,
            player: Annotated[str | None, Query(max_length=80)] = None) -> Response:
    """Every tournament, filtered by game, a part of its name, and a player (a part of the
    name, or the external id)."""
    return respond(request, events.listing(kiroku, game, name, player))


@router.get("/tournaments/{tournament_id}", response_model=TournamentOut)
def read(request: Request, kiroku: KirokuDep, tournament_id: TournamentId) -> Response:
    """A tournament."""
    return respond(request, events.read(kiroku, tournament_id))


@router.post("/tournaments/{tournament_id}/staff", response_model=TournamentOut)
def staff(request: Request, kiroku: KirokuDep, caller: CallerDep, tournament_id: TournamentId,
          body: Staff) -> Response:
    """Name the judges and the head judge (organisers)."""
    return respond(request, events.change_staff(kiroku, caller, tournament_id, body.judges,
                                                body.head_judge))


@router.post("/tournaments/{tournament_id}/deadline", response_model=TournamentOut)
def deadline(request: Request, kiroku: KirokuDep, caller: CallerDep, tournament_id: TournamentId,
             body: Deadline) -> Response:
    """Set when the decklists lock (organisers, before the lock)."""
    return respond(request, events.set_deadline(kiroku, caller, tournament_id, body.deadline))


@router.post("/tournaments/{tournament_id}/lock", response_model=TournamentOut)
def lock(request: Request, kiroku: KirokuDep, caller: CallerDep,
         tournament_id: TournamentId) -> Response:
    """Lock every decklist now (organisers)."""
    return respond(request, events.lock(kiroku, caller, tournament_id))


@router.post("/tournaments/{tournament_id}/finish", response_model=TournamentOut)
def finish(request: Request, kiroku: KirokuDep, caller: CallerDep,
           tournament_id: TournamentId) -> Response:
    """Finish the tournament: every decklist becomes public (organisers)."""
    return respond(request, events.finish(kiroku, caller, tournament_id))


@router.post("/tournaments/{tournament_id}/players", status_code=201,
             response_model=PlayerRegisteredOut)
def register(request: Request, kiroku: KirokuDep, caller: CallerDep, tournament_id: TournamentId,
             body: Registration) -> Response:
    """Register a player (organisers); the answer's ``token`` is the player's credential,
    shown this once."""
    return respond(request, events.register(kiroku, caller, tournament_id, body.name,
                                            body.external_id), 201)


@router.get("/tournaments/{tournament_id}/players", response_model=list[PlayerOut])
def players(request: Request, kiroku: KirokuDep, tournament_id: TournamentId,
            name: Annotated[str | None, Query(max_length=80)] = None) -> Response:
    """The registered players, filtered by a part of the name or an external id."""
    return respond(request, events.players(kiroku, tournament_id, name))


@router.put("/tournaments/{tournament_id}/players/{player}/decklist",
            response_model=DecklistOut)
def submit_decklist(request: Request, kiroku: KirokuDep, caller: CallerDep,
                    tournament_id: TournamentId, player: Annotated[str, Path(max_length=80)],
                    body: DecklistIn) -> Response:
    """Submit a decklist, checked now (the player, or an organiser; until the lock)."""
    return respond(request, events.submit_decklist(kiroku, caller, tournament_id, player,
                                                   body.deck))


@router.get("/tournaments/{tournament_id}/players/{player}/decklist",
            response_model=DecklistOut)
def decklist(request: Request, kiroku: KirokuDep, caller: CallerDep, tournament_id: TournamentId,
             player: Annotated[str, Path(max_length=80)]) -> Response:
    """A player's decklist, for the readers the decklist policy allows."""
    return respond(request, events.decklist(kiroku, caller, tournament_id, player))


@router.post("/tournaments/{tournament_id}/players/{player}/decklist/amend",
             response_model=DecklistOut)
def amend_decklist(request: Request, kiroku: KirokuDep, caller: CallerDep,
                   tournament_id: TournamentId, player: Annotated[str, Path(max_length=80)],
                   body: Amendment) -> Response:
    """Amend a locked decklist, with the reason (the tournament's judges, organisers)."""
    return respond(request, events.amend_decklist(kiroku, caller, tournament_id, player,
                                                  body.deck, body.reason))


@router.post("/tournaments/{tournament_id}/rounds", status_code=201, response_model=RoundOut)
def pair(request: Request, kiroku: KirokuDep, caller: CallerDep, tournament_id: TournamentId,
         body: Pairings) -> Response:
    """Pair the next round (organisers): creates its matches with the registered decks; each
    table's ``seats`` hold the seat credentials, shown this once."""
    pairings = [Pairing(t.table, tuple(t.players)) for t in body.tables]
    pairings += [Pairing(None, (p,)) for p in body.byes]
    return respond(request, events.pair(kiroku, caller, tournament_id, pairings), 201)


@router.post("/tournaments/{tournament_id}/rounds/csv", status_code=201,
             response_model=RoundOut)
def pair_file(request: Request, kiroku: KirokuDep, caller: CallerDep,
              tournament_id: TournamentId,
              data: Annotated[bytes, Body(media_type=CSV, description=(
                  "The pairing program's file as it exported it: a CSV (Melee, TopDeck, "
                  "AetherHub, Endstep, EventLink-like, Kiroku's results.csv), a TOM .tdf or "
                  "Limitless JSON, in UTF-8, UTF-16 or Windows-1252."))],
              round: Annotated[int | None, Query(ge=1, le=1000, description=(
                  "Which round of a file of several rounds (default: the one this "
                  "tournament pairs next, if the file holds it, else its latest)."))] = None,
              filename: Annotated[str | None, Query(max_length=200, description=(
                  "The file's name, whose extension (.tdf, .json, .csv) is checked against "
                  "its content."))] = None) -> Response:
    """Pair the next round from a pairing program's file: a CSV header with a table column
    (``Table``, ``TableNumber``...) and player columns (``Player 1``, ``Player 2``... or
    ``Player``, ``Opponent``), a TOM ``.tdf`` or Limitless JSON; players by external id or
    name, ``BYE`` or a lone player for a bye. A refusal names the line and what it accepts."""
    return respond(request, events.pair_file(kiroku, caller, tournament_id, data, round,
                                             filename), 201)


@router.post("/tournaments/{tournament_id}/players/csv", status_code=201,
             response_model=list[PlayerRegisteredOut])
def register_file(request: Request, kiroku: KirokuDep, caller: CallerDep,
                  tournament_id: TournamentId,
                  data: Annotated[bytes, Body(media_type=CSV, description=(
                      "A players file: a name column (Name, Player, or First Name and Last "
                      "Name) and an optional id column (External ID, ID, Player ID, DCI, "
                      "Pokemon ID...)."))]) -> Response:
    """Register every player of a players file in one save, or none (organisers); each
    answer's ``token`` is that player's credential, shown this once."""
    return respond(request, events.register_file(kiroku, caller, tournament_id, data), 201)


@router.get("/tournaments/{tournament_id}/rounds/{round_number}", response_model=RoundOut)
def round_view(request: Request, kiroku: KirokuDep, tournament_id: TournamentId,
               round_number: RoundNumber) -> Response:
    """A round at a glance: each table's players, match, status and result, and the byes."""
    return respond(request, events.round_view(kiroku, tournament_id, round_number))


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/tables/{table}/result",
             response_model=RoundOut)
def enter_result(request: Request, kiroku: KirokuDep, caller: CallerDep,
                 tournament_id: TournamentId, round_number: RoundNumber,
                 table: Annotated[int, Path(ge=1, le=10_000)], body: ResultIn) -> Response:
    """Enter the result of a table whose match has none, with the reason (the tournament's
    judges, organisers)."""
    return respond(request, events.enter_result(kiroku, caller, tournament_id, round_number,
                                                table, body.winners, body.drawn, body.reason,
                                                body.game_wins, body.game_draws))


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/tables/{table}/games",
             status_code=201, response_model=TableOut)
def next_game(request: Request, kiroku: KirokuDep, caller: CallerDep,
              tournament_id: TournamentId, round_number: RoundNumber,
              table: Annotated[int, Path(ge=1, le=10_000)]) -> Response:
    """Start the next game of a table's best-of-N match, once its last game has a result and
    the match is not decided (a player at the table, the tournament's judges, organisers)."""
    return respond(request, events.next_game(kiroku, caller, tournament_id, round_number,
                                             table), 201)


@router.post("/tournaments/{tournament_id}/players/{player}/drop", response_model=PlayerOut)
def drop(request: Request, kiroku: KirokuDep, caller: CallerDep, tournament_id: TournamentId,
         player: Annotated[str, Path(max_length=80)], body: DropIn) -> Response:
    """Drop a player, with the reason: not paired again, kept in the standings (the
    tournament's judges, organisers)."""
    return respond(request, events.drop(kiroku, caller, tournament_id, player, body.reason))


@router.get("/tournaments/{tournament_id}/disputes", response_model=list[TournamentDispute])
def disputes(request: Request, kiroku: KirokuDep, caller: CallerDep, tournament_id: TournamentId,
             round: Annotated[int | None, Query(ge=1, le=1000)] = None,
             table: Annotated[int | None, Query(ge=1, le=10_000)] = None,
             status: Literal["open", "ruled", "appealed", "final"] | None = None) -> Response:
    """Every dispute of the tournament's matches with its round and table, filtered (the
    tournament's judges, organisers)."""
    return respond(request, events.disputes_of(kiroku, caller, tournament_id, round, table,
                                               status))


@router.get("/tournaments/{tournament_id}/standings", response_model=StandingsOut,
            responses={200: {"content": CSV_CONTENT}})
def standings(request: Request, kiroku: KirokuDep, tournament_id: TournamentId,
              through: Annotated[int | None, Query(ge=1, le=1000)] = None,
              format: Annotated[Literal["json", "csv"], Query()] = "json") -> Response:
    """The standings (through a round, or all so far); ``format=csv`` for the wall and the
    pairing program."""
    if format == "csv":
        return CSVResponse(events.standings_csv(kiroku, tournament_id, through))
    return respond(request, events.standings_of(kiroku, tournament_id, through))


TDF = "application/xml"


class TDFResponse(PlainTextResponse):
    """A TOM tournament file."""

    media_type = TDF


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/results.tdf",
             response_class=TDFResponse,
             responses={200: {"content": {TDF: {"schema": {"type": "string"}}}},
                        **errors.JSON_ERRORS})
def results_tdf(kiroku: KirokuDep, tournament_id: TournamentId, round_number: RoundNumber,
                data: Annotated[bytes, Body(media_type=TDF, description=(
                    "The organiser's TOM file (.tdf) holding the round."))]) -> Response:
    """The TOM file sent with the round's outcomes set from this tournament's results (the
    players' external ids are TOM's user ids), for TOM to open: only those outcomes
    change."""
    return TDFResponse(events.results_tdf(kiroku, tournament_id, round_number, data))


@router.get("/tournaments/{tournament_id}/results.csv", response_class=CSVResponse,
            responses={200: {"content": CSV_CONTENT}, **errors.JSON_ERRORS})
def results(kiroku: KirokuDep, tournament_id: TournamentId,
            shape: Annotated[Literal["players", "tables"], Query(description=(
                "players: one row per player per round (read back as a round's pairings); "
                "tables: one line per table with each seat's game wins and the drawn "
                "games."))] = "players") -> Response:
    """Every result so far as CSV, with the match points and the games."""
    return CSVResponse(events.results_csv_of(kiroku, tournament_id, shape))
