"""Kiroku as one object: the recorder (write side) plus time travel, transcripts, audit and
export/import (read side). The CLI and the HTTP service are thin layers over this."""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import json
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgpack
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic, resolve_topic

from engine.core.contract import GameState, Ruleset
from engine.core.effects import Effect
from engine.core.errors import ActionError, SetupError
from engine.core.reasons import KernelReason
from engine.core.viewer import JUDGE, Viewer
from engine.registry import get_game
from ledger.catalog import Deck, resolve_deck, sample_card_set, sample_decks
from ledger.chain import GENESIS
from ledger.errors import Forbidden, ImportRejected, MatchNotFound
from ledger.fold import Fold, LiveAction, Record, Visitor, replay_step
from ledger.identity import Credential, Credentials, Identity, RecordedBy, Role, author_name
from ledger.keys import KeyfileError
from ledger.loading import corrupt_as_such
from ledger.mapper import Derived
from ledger.match import MATCH_TOPICS, Match, commits, link, linked
from ledger.matchlist import SIMULATOR, ListedMatch, MatchQuery
from ledger.recorder import Appending, MatchSummary, NewMatch, Recorded, Recorder, Then, now
from ledger.seatings import find_seating
from replay.access import Caller
from replay.audience import Audience
from replay.audit import AuditReport, check_receipts, verify_records, verify_walked
from replay.reasons import ServiceReason as R
from replay.records import NAME_TO_CLASS, redact, to_record

if TYPE_CHECKING:
    from ledger.annotations import Annotations
    from ledger.disputes import Disputes
    from ledger.signin import SignInLinks
    from ledger.tournaments import Tournaments
    from ledger.variations import Variations

EXPORT_FORMAT = "kiroku-match/1"
_HEX64 = re.compile(r"[0-9a-f]{64}")
MAX_IMPORT_BYTES = 32 * 1024 * 1024
MAX_IMPORT_DEPTH = 32


@dataclass(frozen=True)
class Imported:
    """What an import did: the match, and whether it was stored (False: the identical match
    was already here)."""

    match_id: UUID
    stored: bool


@dataclass(frozen=True)
class SeatCredentials:
    """A match's seat credentials, prepared unsaved (``Kiroku.prepare_seat_credentials``):
    the aggregates to save, and each seat's answer with its token (shown this once)."""

    credentials: tuple[Credential, ...]
    seats: list[dict[str, Any]]


@dataclass(frozen=True)
class Window:
    """Which of a match's events a read asks for: those up to version ``until`` (None: up to
    the last one the audience may see), the last ``last`` of them (None: every one). A long
    match's page reads its last moves first (``GET /matches/{id}/transcript?last=``), then
    earlier ones on demand, instead of the whole match (issue 43)."""

    until: int | None = None
    last: int | None = None

    @property
    def whole(self) -> bool:
        """Whether it asks for every event the audience may see."""
        return self.until is None and self.last is None

    def bounds(self, audience: Audience) -> tuple[int, int]:
        """(after, upto): the window is the events with ``after < version <= upto``."""
        upto = audience.version if self.until is None else min(self.until, audience.version)
        after = 0 if self.last is None else max(0, upto - self.last)
        return after, upto


WHOLE = Window()
MAX_SIMULATED_ACTIONS = 20_000
# The service's parts that a command on a match may never use, by topic (eventsourcing's
# "module:attribute"): each module is imported, and its part built on the recorder, the first
# time the part is used, so that ``kiroku match show`` does not build the event classes of
# tournaments, disputes, annotations, variations and sign-in desks (issue 43).
PARTS = {"annotations": "ledger.annotations:Annotations", "disputes": "ledger.disputes:Disputes",
         "variations": "ledger.variations:Variations",
         "tournaments": "ledger.tournaments:Tournaments", "links": "ledger.signin:SignInLinks"}
DISPUTE_AUTHOR = "ledger.disputes:author"


class Kiroku:
    """The whole service on one event store."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.credentials = Credentials(recorder)

    # the parts named in PARTS, each built when first used
    @cached_property
    def annotations(self) -> Annotations:
        """A match's annotations (``ledger.annotations``)."""
        return self._part("annotations")

    @cached_property
    def disputes(self) -> Disputes:
        """Disputes and their dockets (``ledger.disputes``)."""
        return self._part("disputes")

    @cached_property
    def variations(self) -> Variations:
        """A match's variations (``ledger.variations``)."""
        return self._part("variations")

    @cached_property
    def tournaments(self) -> Tournaments:
        """Tournaments and seatings (``ledger.tournaments``)."""
        return self._part("tournaments")

    @cached_property
    def links(self) -> SignInLinks:
        """Sign-in desks and links (``ledger.signin``), on the service's credentials."""
        return self._part("links", self.credentials)

    def _part(self, name: str, *more: Any) -> Any:
        return resolve_topic(PARTS[name])(self.recorder, *more)

    @classmethod
    def open(cls, url: str | None = None, *, keys: str | None = None) -> Kiroku:
        """Kiroku on the database at ``url`` (default: KIROKU_DATABASE_URL, else SQLite file)
        with the deployment's key file ``keys`` (default: ledger.keys.key_file)."""
        return cls(Recorder.open(url, keys=keys))

    def close(self) -> None:
        """Release database connections."""
        self.recorder.close()

    # ----- recording ---------------------------------------------------------------------------
    def new_match(self, game: str, players: Sequence[str], decks: Sequence[str | Deck],
                  *, cards: Mapping[str, Mapping[str, Any]] | None = None,
                  options: Mapping[str, Any] | None = None, recorded_by: RecordedBy = "organizer",
                  replay_policy: str = "open", seed: bytes | None = None,
                  setup_outcomes: Sequence[Any] | None = None) -> UUID:
        """Create a match from deck names or files; ``cards`` defaults to the sample set."""
        created = self.prepare_match(game, players, decks, cards=cards, options=options,
                                     recorded_by=recorded_by, replay_policy=replay_policy,
                                     seed=seed, setup_outcomes=setup_outcomes)
        self.recorder.save(*created.aggregates, sealed=created.sealed)
        return created.match_id

    def prepare_match(self, game: str, players: Sequence[str], decks: Sequence[str | Deck],
                      *, cards: Mapping[str, Mapping[str, Any]] | None = None,
                      options: Mapping[str, Any] | None = None,
                      recorded_by: RecordedBy = "organizer", replay_policy: str = "open",
                      seed: bytes | None = None,
                      setup_outcomes: Sequence[Any] | None = None) -> NewMatch:
        """``new_match`` without saving: the match and its sealed seed, for the caller to save
        in one save with what goes with them (a round's tables with the round)."""
        card_defs = dict(cards) if cards is not None else sample_card_set(game).cards
        lists = [d.cards if isinstance(d, Deck) else resolve_deck(game, d).cards for d in decks]
        return self.recorder.new_match(game, players, lists, card_defs, options,
                                       recorded_by=recorded_by, replay_policy=replay_policy,
                                       seed=seed, setup_outcomes=setup_outcomes)

    def record(self, match_id: UUID, action: Mapping[str, Any], *, recorded_by: RecordedBy,
               outcomes: Sequence[Any] | None = None, expected_version: int | None = None,
               asker: Viewer = JUDGE, then: Then | None = None) -> Recorded:
        """Record one action (validated by the rules first); a seat's action waits while a
        dispute pauses the match (MatchPaused, ``Recorder.record``). ``asker`` is who asks
        (``Audience.asker``): it enters only the outcomes it may see, and its refusals name
        nothing it may not know. An action that calls a judge is saved with the dispute it
        opens, in one save; ``then`` gives what else is saved with it (a ruling)."""
        return self.recorder.record(match_id, action, recorded_by=recorded_by,
                                    outcomes=outcomes, expected_version=expected_version,
                                    asker=asker, then=self._calling_judge(action, recorded_by,
                                                                          then))

    def _calling_judge(self, action: Mapping[str, Any], recorded_by: RecordedBy,
                       then: Then | None) -> Then:
        """What is saved with an action: a game's own dispute of a claim (Illuminati, Quest
        for the Grail G8, On the Edge OQ24) opens a dispute for a judge, concerning that
        action, filed in the match's docket; the judge's ruling is the game's ``rule_claim``,
        given as the ruling's remedy. And what ``then`` gives."""

        def with_dispute(appending: Appending) -> Sequence[Aggregate]:
            also = list(then(appending)) if then is not None else []
            done = appending.done
            if done.calls_judge is None:
                return also
            position, version = done.calls_judge
            seat = action.get("seat")
            who = dict(recorded_by) if isinstance(recorded_by, Mapping) else {"name": recorded_by}
            dispute, docket = self.disputes.opening(
                match_id=str(done.match_id), position=position, match_version=done.version,
                claim=f"Seat {seat} disputes a claim in the game (the dispute recorded at "
                      f"version {version}); a judge rules on it.", concerns=[version],
                pause=False, opened_by={**who, "seat": seat}, recorded_at=now())
            appending.keep_paused(docket.pausing,
                                  resolve_topic(DISPUTE_AUTHOR)(dispute.opened_by))
            return [*also, dispute, docket]

        return with_dispute

    def seat_credentials(self, match_id: UUID, issued_by: Identity) -> list[dict[str, Any]]:
        """One new credential per seat of a match, tokens included (shown this once)."""
        prepared = self.prepare_seat_credentials(
            match_id, self.recorder.get_match(match_id).players, issued_by)
        self.recorder.save(*prepared.credentials)
        return prepared.seats

    def prepare_seat_credentials(self, match_id: UUID, players: Sequence[str],
                                 issued_by: Identity) -> SeatCredentials:
        """``seat_credentials`` without saving, for a match that may not be saved yet (its
        ``players`` by seat): the credentials to save with it, and each seat's answer."""
        prepared = [self.credentials.prepare(Role.SEAT, name,
                                             issued_by=str(issued_by.credential_id),
                                             match_id=match_id, seat=seat)
                    for seat, name in enumerate(players, start=1)]
        return SeatCredentials(tuple(c for c, _ in prepared),
                               [self._seat_credential(c.identity(), t) for c, t in prepared])

    def reissue_seat(self, match_id: UUID, seat: int, issued_by: Identity) -> dict[str, Any]:
        """A new credential for one seat; the seat's earlier ones stop working."""
        players = self.recorder.get_match(match_id).players
        if not 1 <= seat <= len(players):
            raise ActionError(R.BAD_SEAT, f"There is no seat {seat} in this match "
                              f"({len(players)} players).")
        return self._seat_credential(*self.credentials.reissue_seat(
            match_id, seat, players[seat - 1], issued_by=str(issued_by.credential_id)))

    @staticmethod
    def _seat_credential(identity: Identity, token: str) -> dict[str, Any]:
        return {"seat": identity.seat, "name": identity.name,
                "credential_id": str(identity.credential_id), "token": token}

    def undo(self, match_id: UUID, count: int | None, *, reason: str,
             recorded_by: RecordedBy, expected_version: int | None = None,
             to_position: int | None = None, then: Then | None = None) -> Recorded:
        """Void the last ``count`` actions, or every action after ``to_position`` (an appended
        event; nothing is erased; see Recorder.undo), saved with what ``then`` gives."""
        return self.recorder.undo(match_id, count, reason=reason, recorded_by=recorded_by,
                                  expected_version=expected_version, to_position=to_position,
                                  then=then)

    def reopen(self, match_id: UUID, *, to_position: int, reason: str,
               recorded_by: RecordedBy, then: Then | None = None) -> Recorded:
        """Reopen an ended match under a fresh seed, backed up to ``to_position`` (a judge's
        ruling; see Recorder.reopen), saved with what ``then`` gives."""
        return self.recorder.reopen(match_id, reason=reason, recorded_by=recorded_by,
                                    to_position=to_position, then=then)

    # ----- reading -----------------------------------------------------------------------------
    def list_matches(self) -> list[MatchSummary]:
        """Every match, oldest first."""
        return self.recorder.list_matches()

    def find_matches(self, *, game: str | None = None, player: str | None = None,
                     tournament: UUID | None = None, round_number: int | None = None,
                     table: int | None = None, simulated: bool | None = False,
                     status: str | None = None, since: date | None = None,
                     until: date | None = None, newest_first: bool = False,
                     offset: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The match list by creation time, oldest first (or newest first), each with its
        tournament, round and table if it has them, filtered by game, a part of a player's
        name, tournament, round, table, status (``live`` or ``ended``) and the UTC day it was
        created (``since`` and ``until`` included); simulated matches only when ``simulated``
        asks for them (then only them; None: both); ``offset`` and ``limit`` cut one page of
        it. Read from the match list's read model (ledger.matchlist)."""
        found = self.recorder.find_matches(MatchQuery(
            game=game, player=player, tournament_id=tournament, round=round_number, table=table,
            status=status, since=since, until=until, simulated=simulated,
            newest_first=newest_first, offset=offset, limit=limit))
        return [_listed(m) for m in found]

    def match_page(self, query: MatchQuery) -> tuple[list[dict[str, Any]], int]:
        """The page of the match list ``query`` asks for (as ``find_matches`` lists it) and
        how many matches its filters select on every page."""
        page = self.recorder.match_page(query)
        return [_listed(m) for m in page.matches], page.total

    def match_ids(self, prefix: str) -> list[UUID]:
        """The ids of the matches that start with ``prefix`` (for ids as people type them)."""
        return self.recorder.match_ids(prefix.lower())

    def audience(self, match_id: UUID, caller: Caller,
                 asked: Viewer | None = None) -> Audience:
        """The audience of ``caller`` for a match, read once (``replay.audience``)."""
        return Audience.of(self.seated(caller, match_id), self.recorder.get_match(match_id),
                           asked)

    def seated(self, caller: Caller, match_id: UUID) -> Caller:
        """The caller as it stands in ``match_id``: a tournament player's identity (one
        sign-in for the event) becomes their seat of the match where a round's pairing seated
        them, and a seat's credential of a table's first game its seat of the table's later
        games (one slip plays the whole best-of-N match); any other caller, and a player
        elsewhere, is unchanged."""
        if caller is not None and caller.role == Role.SEAT and caller.match_id is not None \
                and caller.match_id != match_id:
            return self._seat_in_series(caller, match_id)
        if caller is None or caller.role != Role.PLAYER or caller.match_id is not None:
            return caller
        seating = find_seating(self.recorder, match_id)
        if seating is None or seating.tournament_id != str(caller.tournament_id) or (
                str(caller.player_id) not in seating.players):
            return caller
        return dataclasses.replace(caller, match_id=match_id,
                                   seat=seating.players.index(str(caller.player_id)) + 1)

    def _seat_in_series(self, caller: Identity, match_id: UUID) -> Identity:
        """A seat credential of one game of a table's series as the same seat of another game
        of it (the same event, round, table and players); elsewhere unchanged."""
        assert caller.match_id is not None
        asked = find_seating(self.recorder, match_id)
        own = find_seating(self.recorder, caller.match_id) if asked is not None else None
        if asked is None or own is None or not own.same_table(asked) or (
                own.players != asked.players):
            return caller
        return dataclasses.replace(caller, match_id=match_id)

    def seen_by(self, match_id: UUID, viewer: Viewer = JUDGE) -> Audience:
        """The operator's audience (the command line's: an organiser), narrowed to
        ``viewer`` (``--as``)."""
        return self.audience(match_id, Identity.operator(), viewer)

    def summary(self, audience: Audience) -> dict[str, Any]:
        """What anyone may know about a match without seeing a position; where it stands (its
        version, positions, turn, who is to act, the score) as of the last position the
        audience may see, so a delayed spectator learns no more here than from the position
        itself (a spectator of a match that refuses them: as of setup)."""
        match = audience.match
        ruleset = get_game(match.game)
        seating = find_seating(self.recorder, match.id)
        state = self.recorder.position_of(match, audience.positions)
        return {"match_id": str(match.id), "game": match.game,
                "ruleset_version": match.ruleset_version, "players": match.players,
                "options": match.config["options"], "version": audience.version,
                "positions": audience.positions, "created_at": match.created_at,
                "created_by": match.created_by, "replay_policy": match.replay_policy,
                "commitment": match.commitment, "seed": match.seed, "result": match.result,
                "active": state.active, "turn": state.turn,
                "to_act": ruleset.to_act(state),
                "scores": {str(s): v for s, v in (ruleset.scores(state) or {}).items()},
                "tournament": seating.labels() if seating else None,
                # a pause is now: shown to an audience that sees the match as it stands
                "paused": bool(match.pausing) and audience.horizon is None}

    def view(self, audience: Audience, position: int | None) -> dict[str, Any]:
        """The position after ``position`` live actions (None: the latest the audience may
        see) as the audience sees it."""
        match = audience.match
        pos = audience.position(position)
        state = self.recorder.position_of(match, pos)
        ruleset = get_game(match.game)
        viewer = str(audience.viewer)
        return {"match_id": str(match.id), "game": match.game, "position": pos,
                "positions": audience.positions, "version": match.position_version(pos),
                "digest": ruleset.digest(state), "viewer": viewer,
                "state": {**ruleset.view(state, audience.seen_as), "viewer": viewer}}

    def legal_actions(self, audience: Audience, seat: int) -> list[dict[str, Any]]:
        """The game actions ``seat`` may take now (``Audience.legal_seat`` says whose an
        audience may list; ActionError ``bad_seat`` for a seat the match does not have); a
        judge's acts (a table's reveal of every seat's face-down card) only to staff."""
        match = audience.match
        if not 1 <= seat <= len(match.players):
            raise ActionError(R.BAD_SEAT, f"There is no seat {seat} in this match: its seats "
                              f"are 1 to {len(match.players)}.")
        ruleset = get_game(match.game)
        return [a.model_dump(mode="json") for a in ruleset.legal_actions(match.state, seat)
                if audience.is_staff or not ruleset.judges_only(a.type)]

    def turn(self, audience: Audience, seat: int) -> dict[str, Any]:
        """What the match waits for, for a seat's page: the version a tap is made on, who is
        to act, whether a dispute pauses it, and ``seat``'s legal actions each with its
        sentence, with the combinatorial choices behind them (every legal action can be built
        from a listed one and its choices) and the names of the cards they offer that the
        audience may know; in a match whose chance is entered at the table, the deck lists
        the audience may know by name (what draws entered there can be)."""
        match = audience.match
        ruleset = get_game(match.game)
        legal_now = self.legal_actions(audience, seat)
        over = match.state.result is not None
        space = [] if over else [c.to_data() for c in ruleset.legal_actions(
            match.state, seat).choices]
        known = self.card_names(audience)
        offered = {o for c in space for o in c["options"] if isinstance(o, str)}
        return {"match_id": str(match.id), "game": match.game, "seat": seat,
                "version": match.version, "positions": len(match.live),
                "to_act": [] if over else ruleset.to_act(match.state),
                "paused": bool(match.pausing), "result": match.result,
                "actions": [{"type": a["type"], "action": a,
                             "text": ruleset.describe(a, [], audience.seen_as, match.state)}
                            for a in legal_now],
                "choices": space, "names": {o: known[o] for o in sorted(offered) if o in known},
                "table": match.setup_from_table, "decks": self._decks_known(audience, known)}

    @staticmethod
    def _decks_known(audience: Audience, known: Mapping[str, str]) -> dict[str, dict[str, str]]:
        """In a match whose chance is entered at the table: the deck lists the audience may
        know (a seat its own, a judge or scorekeeper every seat's), by name: what a draw
        entered at the table can be."""
        match = audience.match
        if not match.setup_from_table:
            return {}
        seats = range(1, len(match.players) + 1) if audience.seen_as.is_judge else (
            [audience.seat] if audience.seat is not None else [])
        ruleset = get_game(match.game)
        return {str(seat): {draw: known.get(card, card) for draw, card in ruleset.drawable(
                    seat, match.config["decks"][seat - 1]).items()} for seat in seats}

    def describe_actions(self, audience: Audience,
                         actions: Sequence[Mapping[str, Any]]) -> list[str]:
        """Each of a seat's possible actions now in words, as the audience reads them (a line
        of the transcript, before chance decides anything)."""
        match = audience.match
        ruleset = get_game(match.game)
        return [ruleset.describe(a, [], audience.seen_as, match.state) for a in actions]

    def card_names(self, audience: Audience) -> dict[str, str]:
        """The names of the cards the audience may know the definitions of, by card id (to
        label ids a view shows): every card under open deck lists or to a judge, else its
        own deck's and the cards it has seen."""
        created = redact({"event": "MatchCreated", "config": audience.match.config},
                         audience.seen_as)
        return {cid: str(card.get("name", cid))
                for cid, card in created["config"]["cards"].items()}

    def to_act_at(self, audience: Audience, position: int) -> list[int]:
        """The seats to act at a live position the audience may see."""
        match = audience.match
        state = self.recorder.position_of(match, audience.position(position))
        return list(get_game(match.game).to_act(state)) if state.result is None else []

    def records(self, audience: Audience, window: Window = WHOLE) -> list[dict[str, Any]]:
        """Every event of the match (of ``window``) as a record, filtered for the audience (a
        delayed spectator gets the events up to the position it may see)."""
        ruleset = get_game(audience.match.game)
        return [redact(to_record(e), audience.seen_as, ruleset)
                for e in self._seen_events(audience, window=window)]

    def transcript(self, audience: Audience, window: Window = WHOLE) -> list[str]:
        """One line per event (of ``window``), as the audience may see it; undone actions
        stay, marked. A window's lines are the whole transcript's lines of its events."""
        after, upto = window.bounds(audience)
        events = self._seen_events(audience, shown=False, window=window)
        records = [to_record(e) for e in events]
        with corrupt_as_such(audience.match.id):
            if after == 0:
                return transcript_lines(records, audience.seen_as)
            return self._transcript_after(audience, after, records)

    def transcript_window(self, audience: Audience, window: Window) -> dict[str, Any]:
        """A window of the transcript, with where it starts: ``after``, the version of the
        event before its first line, and ``positions_before``, how many of the live positions
        the audience may see now were reached up to that event, so that a page numbers the
        window's positions as it numbers the whole transcript's."""
        after, _ = window.bounds(audience)
        match = audience.match
        lines = self.transcript(audience, window)
        seen = match.live[:audience.positions]
        return {"match_id": str(match.id), "lines": lines, "after": after,
                "positions_before": bisect.bisect_right([e[0] for e in seen], after)}

    def _transcript_after(self, audience: Audience, after: int,
                          records: Sequence[Record]) -> list[str]:
        """The transcript lines of ``records``, the events after version ``after``: the fold
        is resumed at the match as it stood then (loaded from its snapshots, as any past
        version), not replayed from the start."""
        then = self.recorder.get_match(audience.match.id, after)
        writer = _WindowWriter(get_game(then.game), audience.seen_as,
                               lambda version: self.recorder.state_of(then.id, version))
        writer.fold = Fold.resume(writer, then.game, then.config, then.setup_outcomes,
                                  list(then.live), then.state)
        writer.fold.feed_all(records)
        return writer.lines

    def sentences(self, audience: Audience) -> dict[int, str]:
        """Each action in words, as the audience may see it, by event version (the
        transcript's sentences, for documents that quote them)."""
        records = [to_record(e) for e in self._seen_events(audience, shown=False)]
        writer = _TranscriptWriter(get_game(audience.match.game), audience.seen_as)
        with corrupt_as_such(audience.match.id):
            Fold(writer).feed_all(records)
        return writer.sentences

    def _seen_events(self, audience: Audience, *, shown: bool = True,
                     window: Window = WHOLE) -> list[Any]:
        """The match's events up to what the audience may see (spectators under a delay;
        Forbidden while spectators are refused), those of ``window``; with their commitments
        derived where they are ``shown`` (records), else as stored (a transcript never shows
        them, and then needs no seed: ledger.mapper)."""
        audience.watch()
        match_id = audience.match.id
        after, last = window.bounds(audience)
        if after > 0:
            return self._events_between(match_id, after, last, shown)
        events = (self.recorder.stored_events(match_id) if shown
                  else self.recorder.events_as_stored(match_id))
        return [e for e in events if e.originator_version <= last]

    def _events_between(self, match_id: UUID, after: int, upto: int,
                        shown: bool) -> list[Any]:
        """The match's events after version ``after`` up to ``upto``, read from the store
        alone (not the whole match), each linked to the one before it: the event at
        ``after`` is read too, for its hash (``ledger.match.linked``)."""
        if upto <= after:
            return []
        store = self.recorder.events if shown else self.recorder.repository.event_store
        with corrupt_as_such(match_id):
            found = list(store.get(match_id, gt=after - 1, lte=upto))
        if not found or found[0].originator_version != after:
            raise MatchNotFound(f"No match {match_id}.", match_id=str(match_id))
        prev = str(vars(found[0])["hash"])
        for event in found[1:]:
            prev = link(event, prev)
        return found[1:]

    # ----- audit -------------------------------------------------------------------------------
    def audit_seen(self, audience: Audience,
                   receipts: Sequence[dict[str, Any]] = ()) -> AuditReport:
        """The audit of the match as far as the audience may see it: the whole store for
        those who see it as it stands, the events up to its horizon for a delayed spectator
        (the counts, the findings and the notes of that prefix: a prefix of the chain checks on
        its own), Forbidden while spectators are refused. A receipt past its horizon is
        Forbidden too: answering for it would tell whether the match has reached it."""
        audience.watch()
        if not audience.delayed:
            return self.audit(audience.match.id, receipts)
        if any(isinstance(r, Mapping) and isinstance(r.get("version"), int)
               and r["version"] > audience.version for r in receipts):
            raise Forbidden("spectator_delay", "Spectators see this match some positions "
                            f"behind: its audit stands at version {audience.version}.",
                            positions=audience.positions)
        return self.audit(audience.match.id, receipts, upto=audience.version)

    def audit(self, match_id: UUID, receipts: Sequence[dict[str, Any]] = (),
              upto: int | None = None) -> AuditReport:
        """Verify one stored match: readable rows, hash chain, re-projection, seed, and
        against ``receipts`` kept outside the store (truncation and rewrites); with ``upto``,
        only its events up to that version."""
        records: list[dict[str, Any]] = []
        events: list[Any] = []
        stored = self.recorder.recorder.select_events(match_id)
        if upto is not None:
            stored = [row for row in stored if row.originator_version <= upto]
        if not stored or stored[0].topic != MATCH_TOPICS["created"]:
            raise MatchNotFound(f"No match {match_id}.", match_id=str(match_id))
        prev = GENESIS
        derived: Derived = {}  # the commitments derived as the rows are read
        mapper = self.recorder.match_mapper.noting(derived)
        for row in stored:
            try:
                event = mapper.to_domain_event(row)
                prev = link(event, prev)
                records.append(to_record(event))
                events.append(event)
            except KeyfileError:  # this server's keys, not the match: no finding to report
                raise
            except Exception as exc:  # a row that no longer decodes is itself the finding
                report = (verify_walked(records, derived)[0] if records
                          else AuditReport(str(match_id), ok=True, events=0, actions=0))
                if report.ok:
                    report.ok = False
                    report.failure = {"version": row.originator_version, "event": None,
                                      "reason": "unreadable",
                                      "message": f"the stored event cannot be read: {exc}"}
                return report
        report, shared = verify_walked(records, derived)
        check_receipts(report, records, receipts, [self.recorder.keyring.public_key])
        if upto is None:  # a prefix's reader is shown no snapshot: they stand at later versions
            # held to the events just read and the setup just replayed, not read and set up again
            report.notes += self.recorder.snapshot_findings(match_id, events, shared)
        return report

    def audit_all(self) -> list[AuditReport]:
        """Verify every stored match."""
        return [self.audit(m.match_id) for m in self.list_matches()]

    # ----- export / import ---------------------------------------------------------------------
    def export(self, audience: Audience, fmt: str = "msgpack") -> bytes:
        """The whole match as the audience may see it, as a msgpack document or JSON lines
        (header line first); the receipt signs the last event it holds."""
        records = self.records(audience)
        keyring = self.recorder.keyring
        match_id = audience.match.id
        header = {"format": EXPORT_FORMAT, "match_id": str(match_id), "game": records[0]["game"],
                  "viewer": str(audience.viewer), "events": len(records),
                  "receipt": keyring.receipt(match_id, records[-1]["version"],
                                             records[-1]["hash"]),
                  "public_key": keyring.public_key}
        if fmt == "msgpack":
            return msgpack.packb({**header, "records": records}, use_bin_type=True)
        if fmt == "jsonl":
            lines = [json.dumps(header, ensure_ascii=False)]
            lines += [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in records]
            return ("\n".join(lines) + "\n").encode()
        raise ActionError(R.BAD_FORMAT, f"Unknown export format {fmt!r}: use msgpack or jsonl.")

    def import_match(self, data: bytes) -> Imported:
        """Verify an exported match and store it exactly; nothing is stored if it fails.

        Every record must belong to the one match the export names; a match already stored
        here is refused, unless the file holds exactly its events (then nothing is stored and
        the answer says so)."""
        if len(data) > MAX_IMPORT_BYTES:
            raise ImportRejected(f"An export is at most {MAX_IMPORT_BYTES} bytes.")
        header, records = parse_export(data)
        if header.get("viewer") != "judge" or any("redacted_for" in r for r in records):
            raise ImportRejected("Only a full (judge) export can be imported: this one has "
                                 "hidden information removed.")
        try:
            report = verify_records(records)
            events = [_to_event(r) for r in records] if report.ok else []
        except (KeyError, TypeError, ValueError, AttributeError, IndexError,
                RecursionError) as exc:
            raise ImportRejected(f"The export is malformed: {type(exc).__name__}") from None
        if report.ok and isinstance(header.get("receipt"), dict):
            # the file's own signed head: a file cut short or changed fails it
            check_receipts(report, records, [header["receipt"]],
                           [str(header.get("public_key", ""))])
        if not report.ok:
            raise ImportRejected(f"The match failed verification at event "
                                 f"{report.failure and report.failure['version']}: "
                                 f"{report.failure and report.failure['message']}",
                                 failure=report.failure)
        match_id = UUID(str(records[0]["match_id"]))
        if header.get("match_id") not in (None, str(match_id)):
            raise ImportRejected("The export's header names another match than its events.")
        existing = self._stored_records(match_id)
        if existing is not None:
            if _canonical(existing) == _canonical(records):
                return Imported(match_id, stored=False)
            raise ImportRejected(f"Match {match_id} is already stored here with other events; "
                                 "nothing was imported.", match_id=str(match_id))
        try:
            self.recorder.store_as_is(events)  # an import brings no seed: kept whole
        except IntegrityError:
            raise ImportRejected(f"Match {match_id} is already stored here.") from None
        return Imported(match_id, stored=True)

    def _stored_records(self, match_id: UUID) -> list[dict[str, Any]] | None:
        """Every stored event of a match as a judge's records, or None if there is none (or
        the id is some other stream's, such as a credential's)."""
        stored = list(self.recorder.events.get(match_id))
        if not stored:
            return None
        if not isinstance(stored[0], Match.Created):
            raise ImportRejected(f"{match_id} is not a match id here.")
        return [to_record(e) for e in linked(stored)]

    # ----- simulation --------------------------------------------------------------------------
    def simulate(self, game: str, count: int, seed: int, players: int = 2,
                 options: Mapping[str, Any] | None = None,
                 recorded_by: str = SIMULATOR) -> list[UUID]:
        """Record ``count`` random legal playouts as real matches (reproducible from ``seed``),
        labelled as simulated (kept out of match lists unless asked for)."""
        return list(self.simulated(game, count, seed, players, options, recorded_by))

    def simulated(self, game: str, count: int, seed: int, players: int = 2,
                  options: Mapping[str, Any] | None = None,
                  recorded_by: str = SIMULATOR) -> Iterator[UUID]:
        """``simulate``, one match at a time: each id as soon as its match is recorded."""
        ruleset = get_game(game)
        decks = list(sample_decks(game))
        if not decks:
            raise SetupError(KernelReason.UNKNOWN_DECK, f"{game} ships no sample decks")
        for i in range(count):
            rng = random.Random(f"{seed}:{i}")
            names = [f"Sim {s}" for s in range(1, players + 1)]
            chosen = [decks[s % len(decks)] for s in range(players)]
            match_seed = hashlib.sha256(f"kiroku-simulate:{game}:{seed}:{i}".encode()).digest()
            match_id = self.new_match(game, names, chosen, options=options,
                                      recorded_by=recorded_by, seed=match_seed)
            state = self.recorder.get_match(match_id).state
            for _ in range(MAX_SIMULATED_ACTIONS):
                if state.result is not None:
                    break
                seat = rng.choice(ruleset.to_act(state))
                action = rng.choice(ruleset.legal_actions(state, seat))
                self.record(match_id, action.model_dump(mode="json"), recorded_by=recorded_by)
                state = self.recorder.get_match(match_id).state
            yield match_id

    def ensure_demo(self) -> UUID | None:
        """Record one demo match when the store is empty, so there is something to replay."""
        if self.recorder.find_matches(MatchQuery(simulated=None, limit=1)):
            return None
        return self.simulate("worldgainer", 1, seed=2026, recorded_by="kiroku demo")[0]


def _listed(m: ListedMatch) -> dict[str, Any]:
    """A line of the match list as the service shows it."""
    return {"match_id": str(m.match_id), "game": m.game, "players": m.players,
            "created_at": m.created_at, "result": m.result,
            "status": "live" if m.result is None else "ended", "tournament": m.seating,
            "simulated": m.simulated}


def transcript_lines(records: Sequence[dict[str, Any]], viewer: Viewer) -> list[str]:
    """Transcript of a match given as records (judge-level), redacted for ``viewer``."""
    if not records:
        return []
    writer = _TranscriptWriter(get_game(records[0]["game"]), viewer)
    Fold(writer).feed_all(records)
    return writer.lines


class _TranscriptWriter(Visitor):
    """One line per event as ``viewer`` may see it; undone actions are marked when undone."""

    def __init__(self, ruleset: Ruleset, viewer: Viewer) -> None:
        self.ruleset = ruleset
        self.viewer = viewer
        self.lines: list[str] = []
        self._line_of_seq: dict[int, int] = {}
        self._effects: tuple[Effect, ...] = ()
        self.sentences: dict[int, str] = {}  # by event version: who did what, in words

    @staticmethod
    def _head(record: Record) -> str:
        return (f"v{record['version']:<4} {record['recorded_at'][:19]}Z "
                f"{author_name(record['recorded_by'])}:")

    def created(self, record: Record, state: GameState) -> None:
        """The title, the seats and the setup outcomes the viewer may see."""
        seats = ", ".join(f"seat {i} {n}"
                          for i, n in enumerate(record["config"]["players"], start=1))
        extra = self.ruleset.describe_outcomes(record["setup_outcomes"], self.viewer, state)
        self.lines.append(f"{self._head(record)} match created: {self.ruleset.title} "
                          f"({seats}). " + " ".join(extra))

    def apply(self, ruleset: Ruleset, before: GameState, record: Record) -> GameState:
        """Replay with ``step``, keeping what the rules decided for the line (effects)."""
        step = replay_step(ruleset, before, record["action"], record["outcomes"])
        self._effects = step.effects
        return step.state

    def action(self, record: Record, before: GameState, after: GameState,
               position: int) -> None:
        """The action as the viewer may see it, with what the rules decided."""
        text = self.ruleset.describe(record["action"], record["outcomes"], self.viewer, before,
                                     self._effects)
        self._line_of_seq[record["seq"]] = len(self.lines)
        self.lines.append(f"{self._head(record)} #{record['seq']} {text}")
        self.sentences[record["version"]] = f"{author_name(record['recorded_by'])}: {text}"

    def undone(self, record: Record, voided: list[LiveAction], state: GameState) -> None:
        """Mark the voided actions' lines and say what was undone and why."""
        for entry in voided:
            if entry[1] in self._line_of_seq:  # a window's writer has no lines before it
                self.lines[self._line_of_seq[entry[1]]] += " [undone]"
        seqs = ", ".join(f"#{s}" for s in record["seqs"])
        self.lines.append(f"{self._head(record)} undo of {record['count']} action(s) ({seqs}): "
                          f"{record['reason']}")

    def ended(self, record: Record, state: GameState) -> None:
        """The result."""
        if record["drawn"]:
            outcome = "the match is drawn"
        else:
            outcome = " and ".join(f"seat {s}" for s in record["winners"]) + " wins"
        self.lines.append(f"{self._head(record)} match ended: {outcome} "
                          f"({record['reason']}: {record['detail']}).")

    def seed_revealed(self, record: Record) -> None:
        """The published seed."""
        self.lines.append(f"{self._head(record)} seed revealed: {record['seed']}")

    def seed_withheld(self, record: Record) -> None:
        """Why no seed was published."""
        self.lines.append(f"{self._head(record)} seed not revealed here: {record['reason']}")

    def reopened(self, record: Record, state: GameState) -> None:
        """A ruling reopened the match under a fresh seed."""
        self.lines.append(f"{self._head(record)} match reopened (seed segment "
                          f"{record['segment']}, new seed committed: {record['commitment']}): "
                          f"{record['reason']}")

    def paused(self, record: Record) -> None:
        """A dispute paused the match."""
        self.lines.append(f"{self._head(record)} match paused by dispute "
                          f"{record['dispute_id']}: seats wait for the ruling.")

    def resumed(self, record: Record) -> None:
        """A dispute no longer pauses the match."""
        self.lines.append(f"{self._head(record)} dispute {record['dispute_id']} no longer "
                          "pauses the match.")


class _WindowWriter(_TranscriptWriter):
    """The transcript writer of a fold resumed in the middle of a match: an undo back past
    where it was resumed takes the position it returns to from the recorder (``state_of``, by
    the version that reached it), and marks only the lines it wrote."""

    def __init__(self, ruleset: Ruleset, viewer: Viewer,
                 state_of: Callable[[int], GameState]) -> None:
        super().__init__(ruleset, viewer)
        self.state_of = state_of
        self.fold: Fold | None = None

    def restore(self, record: Record, position: int) -> GameState | None:
        """A position before the one the fold resumed at, from the recorder."""
        if self.fold is None or position >= self.fold.first_kept:
            return None
        return self.state_of(1 if position == 0 else self.fold.live[position - 1][0])


def parse_export(data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read a msgpack or JSON-lines export into (header, records); anything else, or anything
    nested deeper than a match ever is, is ImportRejected."""
    try:
        if data[:1] == b"{":
            text = data.decode("utf-8")
            if _depth(text) > MAX_IMPORT_DEPTH:
                raise ValueError(f"nested deeper than {MAX_IMPORT_DEPTH} levels")
            lines = [json.loads(line) for line in text.splitlines() if line.strip()]
            header, records = lines[0], lines[1:]
        else:
            doc = msgpack.unpackb(data, raw=False, strict_map_key=True)
            header, records = doc, doc.get("records", [])
            if _depth(doc) > MAX_IMPORT_DEPTH:
                raise ValueError(f"nested deeper than {MAX_IMPORT_DEPTH} levels")
    except (ValueError, msgpack.UnpackException, IndexError, AttributeError, TypeError,
            RecursionError) as exc:
        raise ImportRejected(f"Not a Kiroku match export: {str(exc)[:200]}") from None
    if not isinstance(header, dict) or header.get("format") != EXPORT_FORMAT:
        raise ImportRejected(f"Not a Kiroku match export (format must be {EXPORT_FORMAT!r}).")
    if not records or not all(isinstance(r, dict) and r.get("event") in NAME_TO_CLASS
                              for r in records):
        raise ImportRejected("The export holds no events, or an unknown kind of event.")
    return header, records


def _depth(data: str | Any) -> int:
    """How deeply a JSON text (counted by its brackets, outside strings) or a decoded document
    is nested, without recursion."""
    if isinstance(data, str):
        deepest = depth = 0
        in_string = escaped = False
        for char in data:
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char in "[{":
                depth += 1
                deepest = max(deepest, depth)
            elif char in "]}":
                depth -= 1
            elif char == "\n":
                depth = 0
        return deepest
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level > MAX_IMPORT_DEPTH:
                break
            values = item.values() if isinstance(item, dict) else item
            stack.extend((v, level + 1) for v in values)
    return deepest


def _canonical(records: Sequence[dict[str, Any]]) -> list[str]:
    return [json.dumps(r, sort_keys=True, ensure_ascii=False, default=str) for r in records]


def _to_event(record: dict[str, Any]) -> Any:
    cls = NAME_TO_CLASS[record["event"]]
    fields = {k: v for k, v in record.items()
              if k not in ("event", "match_id", "version", "timestamp", "redacted_for")}
    unknown = set(fields) - {f.name for f in dataclasses.fields(cls)}
    if unknown:
        raise TypeError(f"unknown field(s) {sorted(unknown)} in {record['event']}")
    fields.update(originator_id=UUID(record["match_id"]), originator_version=record["version"],
                  timestamp=datetime.fromisoformat(record["recorded_at"]))
    if cls is Match.Created:
        fields["originator_topic"] = get_topic(Match)
    if commits(cls):
        fields.setdefault("commitments", {})  # recorded before commitments existed
        if not _whole_commitments(fields["commitments"]):
            raise ValueError(f"commitments of {record['event']} are not 64 hex digits each")
    return cls(**fields)


def _whole_commitments(committed: Any) -> bool:
    """Whether ``committed`` maps paths to whole commitments, as every export shows them: a
    store keeps an import's as they come (ledger.mapper), so any other form would be stored
    as a record no reader could derive again."""
    return isinstance(committed, dict) and all(
        type(path) is str and type(c) is str and _HEX64.fullmatch(c) is not None
        for path, c in committed.items())
