"""Matches: created by an organiser with one credential per seat; listed and summed up for
anyone; a seat's credential reissued by a judge."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal
from uuid import UUID

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from engine.core.contract import MAX_DECK_CARDS
from engine.registry import get_game
from ledger.catalog import Deck, sample_deck
from ledger.errors import Forbidden
from ledger.identity import NAME_LIMIT
from ledger.matchlist import MatchQuery
from replay import access
from replay.api.limits import Plain
from replay.api.shapes import MatchCreated, MatchListed, MatchSummary, Receipt, SeatCredential
from replay.api.wire import (
    PAGE_HEADERS,
    CallerDep,
    KirokuDep,
    MatchId,
    MatchText,
    audience_of,
    kiroku_of,
    page_headers,
    respond,
)

router = APIRouter(tags=["matches"])


class MatchCreate(BaseModel):
    """A new match. Decks are sample deck names or {card id: copies} lists."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(default="worldgainer", max_length=40)
    players: list[Annotated[str, Field(max_length=NAME_LIMIT)]] = Field(max_length=16)
    decks: list[Annotated[str, Field(max_length=64)]
                | dict[Annotated[str, Field(max_length=120)],
                       Annotated[int, Field(ge=1, le=MAX_DECK_CARDS)]]] = Field(
        max_length=16, description="Per seat: a sample deck's name or {card id: copies}.")
    cards: dict[Annotated[str, Field(max_length=120)], dict[str, Plain]] | None = Field(
        default=None, description="Card definitions by id; the game's sample set when omitted.")
    options: dict[Annotated[str, Field(max_length=60)], Plain] = Field(
        default_factory=dict, description="Regulation options, including decklists "
        "(closed/open), spectators (live, delayed, refused) and spectator_delay.")
    replay_policy: str = Field(
        default="open", max_length=20, description="open: after the end everyone sees "
        "everything; closed: hidden information stays hidden.")
    setup_outcomes: list[Plain] | None = Field(
        default=None, description="Chance outcomes of setup seen at a physical table; seats "
                                  "of such a match may enter their own outcomes later.")


@router.post("/matches", status_code=201, response_model=MatchCreated)
def create_match(request: Request, kiroku: KirokuDep, caller: CallerDep,
                 body: MatchCreate) -> Response:
    """Create a match (decks checked first). The answer's ``seats`` hold each seat's
    credential, shown this once: hand each player theirs."""
    by = access.organiser(caller, "Creating a match")
    get_game(body.game)  # an unknown game is a 404 before anything else
    decks = [sample_deck(body.game, d) if isinstance(d, str) else
             Deck(body.game, "", "inline", d) for d in body.decks]
    match_id = kiroku.new_match(body.game, body.players, decks, cards=body.cards,
                                options=body.options, recorded_by=by.recorded_by,
                                replay_policy=body.replay_policy,
                                setup_outcomes=body.setup_outcomes)
    return respond(request, {**kiroku.summary(kiroku.audience(match_id, by)),
                             "seats": kiroku.seat_credentials(match_id, by),
                             "receipt": kiroku.recorder.receipt(match_id)}, 201)


@router.get("/matches", response_model=list[MatchListed],
            responses={200: {"headers": PAGE_HEADERS}})
def list_matches(request: Request, kiroku: KirokuDep,
                 game: Annotated[str | None, Query(max_length=40)] = None,
                 player: Annotated[str | None, Query(max_length=80, description=(
                     "A part of a player's name."))] = None,
                 tournament: UUID | None = None,
                 round: Annotated[int | None, Query(ge=1, le=1000)] = None,
                 table: Annotated[int | None, Query(ge=1, le=10_000)] = None,
                 status: Annotated[Literal["live", "ended"] | None, Query(description=(
                     "live: no result yet; ended: it has one."))] = None,
                 since: Annotated[date | None, Query(description=(
                     "Created on this UTC day or later (YYYY-MM-DD)."))] = None,
                 until: Annotated[date | None, Query(description=(
                     "Created on this UTC day or earlier (YYYY-MM-DD)."))] = None,
                 order: Annotated[Literal["oldest", "newest"], Query(description=(
                     "oldest first (the default) or newest first."))] = "oldest",
                 offset: Annotated[int, Query(ge=0, le=10_000_000, description=(
                     "Skip this many matches of the filtered list."))] = 0,
                 limit: Annotated[int | None, Query(ge=1, le=1000, description=(
                     "At most this many (all of them when left out)."))] = None,
                 simulated: Annotated[bool, Query(description=(
                     "List the simulated matches (random playouts) instead."))] = False
                 ) -> Response:
    """Every match, oldest first (``order=newest``: newest first), with its status and its
    tournament, round and table; filtered by game, player, tournament, round, table, status
    and creation day; ``offset`` and ``limit`` page it. Simulated matches are listed apart.
    The ``X-Total-Count`` header says how many matches the filters select, and ``Link``
    gives the ``next`` and ``prev`` pages of a paged list."""
    matches, total = kiroku.match_page(MatchQuery(
        game=game, player=player, tournament_id=tournament, round=round, table=table,
        simulated=simulated, status=status, since=since, until=until,
        newest_first=order == "newest", offset=offset, limit=limit))
    return respond(request, matches, headers=page_headers(request, offset, limit,
                                                          len(matches), total))


@router.get("/matches/{match_id}", response_model=MatchSummary)
def get_match(request: Request, match_id: MatchText) -> Response:
    """A match's summary: players, options, where it stands (as of the last position the
    caller may see: a delayed spectator's stays delayed), result, seed commitment."""
    kiroku = kiroku_of(request)  # the service, the caller and the ids: wire.kiroku_of says why
    return respond(request, kiroku.summary(audience_of(request, match_id)))


@router.get("/matches/{match_id}/receipt", response_model=Receipt)
def receipt(request: Request, kiroku: KirokuDep, caller: CallerDep,
            match_id: MatchId) -> Response:
    """A signed receipt for the match's head as it stands, for its seats and judges to keep:
    ``kiroku audit verify --receipts`` later proves no event up to it was removed or changed.
    """
    if kiroku.audience(match_id, caller).viewer.role == "spectator":
        raise Forbidden("seats_and_judges_only", "Receipts are for the match's seats and its "
                        "judges; a spectator's proof is an export.")
    return respond(request, kiroku.recorder.receipt(match_id))


@router.post("/matches/{match_id}/seats/{seat}/credential", status_code=201,
             response_model=SeatCredential)
def reissue_seat(request: Request, kiroku: KirokuDep, caller: CallerDep, match_id: MatchId,
                 seat: Annotated[int, Path(ge=1, le=64)]) -> Response:
    """A new credential for a seat (a lost or shared device); its earlier ones stop working."""
    by = access.staff(caller, "Reissuing a seat's credential")
    return respond(request, kiroku.reissue_seat(match_id, seat, by), 201)
