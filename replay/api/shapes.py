"""The response body of every JSON route, for the OpenAPI document (the routes answer through
``wire.respond``, JSON or msgpack; the HTTP tests validate real answers against these models,
which forbid unknown fields, so the document cannot drift). What a game alone decides (a
position's ``state``, a record's fields, a match's ``options``, an action) stays a free-form
object."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Symbol(_Shape):
    """A PGN-style symbol: its name and its mark."""

    name: str
    mark: str


class AnnotationOut(_Shape):
    """An annotation as its readers see it (a withdrawn one without its content)."""

    annotation_id: str
    match_id: str
    variation: str | None
    position: int
    author: dict[str, Any]
    visibility: Literal["private", "team", "judges", "public"]
    recorded_at: str
    amended: bool
    withdrawn: bool
    text: str | None = None
    symbols: list[Symbol] | None = None
    highlights: list[str] | None = None
    arrows: list[list[str]] | None = None


class AnnotationEvent(BaseModel):
    """One event of an annotation's history (its fields depend on the event)."""

    model_config = ConfigDict(extra="allow")
    version: int
    event: Literal["AnnotationAdded", "AnnotationAmended", "AnnotationWithdrawn"]


class LineStep(_Shape):
    """One action of a variation's line."""

    action: dict[str, Any]
    outcomes: list[Any]
    chance_source: Literal["seed", "table"]
    digest: str


class VariationOut(_Shape):
    """A what-if line."""

    variation_id: str
    match_id: str
    name: str
    from_position: int
    parent: str | None
    parent_position: int | None
    visibility: Literal["private", "public"]
    author: dict[str, Any]
    recorded_at: str
    line: list[LineStep]


class LineOption(_Shape):
    """An action a seat may take at the tip of a variation, and what it would say."""

    action: dict[str, Any]
    text: str


class VariationRead(VariationOut):
    """A variation with one of its positions, as the reader sees it."""

    position: int
    digest: str
    to_act: list[int]
    state: dict[str, Any]


class Ruling(_Shape):
    """A ruling with what its remedy did to the match."""

    decision: str
    reasoning: str
    remedy: dict[str, Any]
    applied: dict[str, Any]
    on_appeal: bool
    by: dict[str, Any]
    recorded_at: str


class DisputeOut(_Shape):
    """A dispute as its parties read it."""

    dispute_id: str
    match_id: str
    position: int
    match_version: int
    claim: str
    concerns: list[int]
    opened_by: dict[str, Any]
    recorded_at: str
    status: Literal["open", "ruled", "appealed", "final"]
    pausing: bool
    judge: dict[str, Any] | None
    rulings: list[Ruling]
    appeal: dict[str, Any] | None


class KnownCard(_Shape):
    """A card a seat had seen that spectators had not."""

    card: str
    name: str | None


class Evidence(_Shape):
    """What the record says, as it stood when the dispute was opened, filtered for the reader."""

    events: list[dict[str, Any]]
    positions: dict[str, dict[str, Any]]
    knowledge: dict[str, list[KnownCard]]
    audit: dict[str, Any]


class DisputeRead(DisputeOut):
    """A dispute with its evidence."""

    evidence: Evidence


class StudyImported(_Shape):
    """What an imported study added."""

    match_id: str
    annotations: int
    variations: int


class StaffMember(_Shape):
    """A judge of a tournament: the credential's id and display name."""

    id: str
    name: str


class TournamentOut(_Shape):
    """A tournament as anyone may know it."""

    tournament_id: str
    name: str
    game: str
    options: dict[str, Any]
    decklists: Literal["closed", "open"]
    replay_policy: Literal["open", "closed"]
    deadline: str | None
    decklists_locked: bool
    judges: list[StaffMember]
    head_judge: StaffMember | None
    created_by: dict[str, Any]
    created_at: str
    players: int
    rounds: int
    best_of: Literal[1, 3, 5] = Field(description="Games a table's match is the best of.")
    tiebreakers: Literal["mtr", "pokemon"] = Field(
        description="How the standings break ties: the Magic Tournament Rules' (match "
                    "points, OMW%, GW%, OGW%) or Pokémon's (match points, OWP, OOWP).")
    dropped: int = Field(description="How many players have dropped.")
    finished: bool


class PlayerOut(_Shape):
    """A registered player (never their decklist's cards)."""

    player_id: str
    name: str
    external_id: str | None
    has_decklist: bool
    dropped: bool = False


class PlayerRegisteredOut(PlayerOut):
    """A new player with their credential's token, shown this once."""

    token: str


class Amendment(_Shape):
    """A judge's amendment of a locked decklist."""

    player_id: str
    reason: str
    by: dict[str, Any]
    recorded_at: str


class DecklistOut(PlayerOut):
    """A player's decklist, for the readers allowed to see it."""

    deck: dict[str, int]
    locked: bool
    amendments: list[Amendment]


class SeatCredential(_Shape):
    """A seat's credential for its match, shown once when the round is paired."""

    seat: int
    name: str
    credential_id: str
    token: str


class TableResultOut(_Shape):
    """A table's result and where it came from: the game's own end, a judge's ruling in the
    match, or a result a judge entered for the table."""

    winners: list[PlayerOut]
    drawn: bool
    source: Literal["game", "ruling", "judge"]
    game_wins: list[int] = Field(description="Games won per seat (empty when a judge's "
                                             "entry did not say).")
    game_draws: int


class GameResultOut(_Shape):
    """One game's result: its winners by seat, or drawn, and where it came from."""

    winners: list[int]
    drawn: bool
    source: Literal["game", "ruling"]


class SeriesGameOut(_Shape):
    """One game of a table's best-of-N match: a recorded match of its own."""

    game: int
    match_id: str
    status: Literal["not_started", "in_progress", "awaiting_ruling", "result"]
    result: GameResultOut | None
    positions: int
    awaiting_ruling: bool


class TableOut(_Shape):
    """A table of a round: one status for its whole best-of-N match, everywhere it shows."""

    table: int
    match_id: str = Field(description="Its first game's match.")
    current_match_id: str = Field(description="Its latest game's match.")
    players: list[PlayerOut]
    status: Literal["not_started", "in_progress", "awaiting_ruling", "result"]
    result: TableResultOut | None
    positions: int = Field(description="The latest game's positions, as a spectator sees it.")
    best_of: int
    games: list[SeriesGameOut]
    game_wins: list[int] = Field(description="Games won so far per seat.")
    game_draws: int
    next_game: bool = Field(description="Whether the next game may start now.")
    seats: list[SeatCredential] | None = None


class RoundOut(_Shape):
    """A round at a glance."""

    tournament_id: str
    round: int
    paired_at: str
    tables: list[TableOut]
    byes: list[PlayerOut]
    complete: bool


class StandingOut(PlayerOut):
    """One line of the standings."""

    rank: int
    match_points: int
    played: int
    wins: int
    losses: int
    draws: int
    byes: int
    match_win: float
    opponents_match_win: float
    opponents_opponents_match_win: float
    game_wins: int
    game_losses: int
    game_draws: int
    game_win: float
    opponents_game_win: float


class StandingsOut(_Shape):
    """The standings, with the tie-breakers in the order they apply."""

    tournament_id: str
    through_round: int
    tiebreakers: list[str]
    standings: list[StandingOut]


class MatchListed(_Shape):
    """One line of the match list."""

    match_id: str
    game: str
    players: list[str]
    created_at: str
    result: dict[str, Any] | None
    status: Literal["live", "ended"] = Field(description="Ended once the match has a result.")
    tournament: dict[str, Any] | None
    simulated: bool = False


class TournamentDispute(DisputeOut):
    """A dispute of a tournament's match, with its round and table."""

    round: int
    table: int


class GameOut(_Shape):
    """A registered game."""

    id: str
    title: str
    version: str
    players: list[int] = Field(description="The fewest and the most players.")
    actions: list[str] = Field(description="Its action types, game actions first.")


class SampleDeckOut(_Shape):
    """A sample deck of a game: its name and its list (card id to copies)."""

    name: str
    cards: dict[str, int]


class SigningKey(_Shape):
    """The public key that signs this deployment's receipts and exports."""

    algorithm: Literal["Ed25519"]
    public_key: str
    key_id: str


class SeatPlayed(_Shape):
    """A match the caller plays, as which seat (none: its scorekeeper records every seat),
    and where it sits in an event."""

    match_id: str
    seat: int | None
    tournament: str | None = None
    tournament_id: str | None = None
    round: int | None = None
    table: int | None = None
    game: int | None = Field(default=None, description="Which game of the table's best-of-N "
                                                        "match.")


class CallerOut(_Shape):
    """Who the caller is: ``{"role": "spectator"}`` alone without a credential. ``plays``
    lists the matches a seat's or a tournament player's credential plays (newest first),
    ``session`` whether it came from a session cookie rather than a bearer token."""

    role: Literal["spectator", "organiser", "judge", "seat", "player", "commentator",
                  "scorekeeper"]
    credential_id: str | None = None
    name: str | None = None
    match_id: str | None = None
    seat: int | None = None
    tournament_id: str | None = None
    player_id: str | None = None
    plays: list[SeatPlayed] = []
    session: bool = False


class SignInLinkOut(_Shape):
    """A new sign-in link, shown this once: for a seat of a match (``match_id``, ``seat``),
    its scorekeeper (``match_id`` alone) or a tournament's player (``player_id``), with what
    its slip prints. ``link`` opens the sign-in page with the code in its fragment; ``qr`` is
    the same link as a QR code (an SVG data URL)."""

    name: str
    code: str
    link: str
    qr: str
    expires_at: str
    sessions_revoked: int
    match_id: str | None = None
    seat: int | None = None
    player_id: str | None = None
    tournament: str | None = None
    tournament_id: str | None = None
    round: int | None = None
    table: int | None = None


class CredentialOut(_Shape):
    """A credential ever issued (never its token)."""

    credential_id: str
    role: Literal["organiser", "judge", "seat", "player", "commentator", "scorekeeper"]
    name: str
    match_id: str | None
    seat: int | None
    revoked: bool


class CredentialIssued(_Shape):
    """A judge's or organiser's new credential, its token shown this once."""

    credential_id: str
    role: Literal["judge", "organiser", "commentator"]
    name: str
    token: str


class CredentialRevoked(_Shape):
    """A revoked credential."""

    credential_id: str
    revoked: bool


class Receipt(_Shape):
    """A signed receipt for the event ``head`` at ``version`` of a match."""

    format: str
    match_id: str
    version: int
    head: str
    signed_at: str
    key_id: str
    signature: str


class MatchSummary(_Shape):
    """What anyone may know about a match without seeing a position."""

    match_id: str
    game: str
    ruleset_version: str
    players: list[str]
    options: dict[str, Any]
    version: int
    positions: int
    created_at: str
    created_by: str | dict[str, Any] = Field(description="The credential's id, name and role; a "
                                             "name alone for a match made by the operator.")
    replay_policy: Literal["open", "closed"]
    commitment: str
    seed: str | None = Field(description="Revealed once the match is over.")
    result: dict[str, Any] | None
    active: int | None
    turn: int | None
    to_act: list[int]
    scores: dict[str, int] = Field(default_factory=dict, description="The game's own running "
                                   "score by seat, where it keeps one.")
    tournament: dict[str, Any] | None = Field(description="Its tournament, round and table.")
    paused: bool = Field(default=False, description="A judge's dispute pauses it now (told to "
                         "an audience that sees the match as it stands; a delayed spectator "
                         "learns it when its view catches up).")


class MatchCreated(MatchSummary):
    """A new match, with each seat's credential (shown this once) and a receipt."""

    seats: list[SeatCredential]
    receipt: Receipt


class MatchImported(MatchSummary):
    """An imported match: ``stored`` false when exactly this match was already here."""

    stored: bool


class ActionRecorded(_Shape):
    """A recorded action: the match's new version, the position's digest, a receipt."""

    match_id: str
    version: int
    seq: int
    digest: str
    result: dict[str, Any] | None
    receipt: Receipt


class ActionsUndone(_Shape):
    """The match after an undo."""

    match_id: str
    version: int
    digest: str
    receipt: Receipt


class PositionOut(_Shape):
    """A position as the viewer sees it (``state`` is the game's own)."""

    match_id: str
    game: str
    position: int
    positions: int
    version: int
    digest: str
    viewer: str
    state: dict[str, Any]


class EventRecord(BaseModel):
    """One event of a match as a record, filtered for the viewer (its other fields depend on
    the event)."""

    model_config = ConfigDict(extra="allow")
    event: str
    match_id: str
    version: int
    recorded_by: str | dict[str, Any] = Field(description="The credential's id, name and "
                                              "role; a name alone for the service's own events "
                                              "and the operator's.")
    recorded_at: str
    prev_hash: str
    hash: str


class TranscriptOut(_Shape):
    """A match's transcript, one line per event (of a window: with where it starts)."""

    match_id: str
    lines: list[str]
    after: int | None = Field(default=None, description="A window's: the version of the "
                              "event before its first line.")
    positions_before: int | None = Field(default=None, description="A window's: the live "
                                         "positions reached up to ``after``.")


class AuditFailure(_Shape):
    """The first thing that failed the audit."""

    version: Any = Field(description="The event's version (a receipt's, as it was given).")
    event: str | None
    reason: str
    message: str


class BesideFinding(_Shape):
    """A variation, dispute or annotation that failed its audit."""

    stream: str
    id: str
    reason: str
    message: str


class BesideAudit(_Shape):
    """The audit of a match's variations, disputes and annotations."""

    ok: bool
    variations: int
    disputes: int
    annotations: int
    failures: list[BesideFinding]


class AuditOut(_Shape):
    """An audit report: versions and reasons, never a hidden value (``beside`` for judges)."""

    match_id: str
    ok: bool
    events: int
    actions: int
    failure: AuditFailure | None
    notes: list[str]
    drift: dict[str, Any] | None
    beside: BesideAudit | None = None


class TurnAction(_Shape):
    """One legal action: its type, its data (what to post), and its sentence."""

    type: str
    action: dict[str, Any]
    text: str


class TurnChoice(_Shape):
    """The whole space of one combinatorial choice behind a listed action
    (``engine.core.legality.Choice``): ``action``'s ``field`` takes ``kind`` of ``options``."""

    action: str
    field: str
    kind: Literal["subset", "sequence", "one_of"]
    options: list[Any]
    least: int
    most: int | None
    description: str


class TurnOut(_Shape):
    """What a match waits for, for a seat's page."""

    match_id: str
    game: str
    seat: int
    version: int
    positions: int
    to_act: list[int]
    paused: bool
    result: dict[str, Any] | None
    actions: list[TurnAction]
    choices: list[TurnChoice]
    names: dict[str, str]
    table: bool = Field(description="Chance is entered at the table (draws, dice).")
    decks: dict[str, dict[str, str]] = Field(
        description="In a table match: the deck lists the caller may know, by seat, each card "
                    "by name (what a draw entered at the table can be).")


class OpenCall(DisputeOut):
    """A dispute waiting for a judge, with its match's players, game and seating."""

    players: list[str]
    game: str
    tournament: dict[str, Any] | None


class NamedCard(_Shape):
    """A card by its id and name."""

    id: str
    name: str


class AdjustablePlace(_Shape):
    """A place of the zone table and the cards in it; ``ref`` is how ``adjust`` names it
    (``from_zone``/``to_zone``), with ``seat`` as ``from_seat``/``to_seat``."""

    zone: str
    seat: int | None
    address: str
    ref: str
    label: str
    cards: list[NamedCard]


class AdjustableCounter(_Shape):
    """A counter ``adjust`` may set (``counter.name``, for seat ``seat``), its value now and
    its bounds (0 and 1: a flag)."""

    name: str
    of: Literal["seat", "match", "card", "place"]
    seat: int | None
    key_name: str | None
    value: int
    low: int
    high: int
    description: str


class AdjustableStat(_Shape):
    """A stat lasting modifiers change, and the cards that have it now."""

    name: str
    description: str
    cards: list[NamedCard]


class Adjustable(_Shape):
    """What an adjustment of a match may touch now."""

    match_id: str
    game: str
    version: int
    positions: int
    seats: list[int]
    places: list[AdjustablePlace]
    counters: list[AdjustableCounter]
    stats: list[AdjustableStat]
    phases: list[str]
