"""Calling a judge: disputes with their evidence, rulings with remedies, appeals (issue 13).

Who does what:

- a seat of the match, or a judge, opens a dispute at a position (default the current one) with
  a claim and the versions of the events it concerns; only a judge may pause the match for it
  (then every seat's action is refused with ``match_paused`` until it is ruled);
- a judge takes it; the judge who took it (or an organiser) rules: a decision, its reasoning,
  and a remedy applied to the match under the ruling's name: ``none``; ``backup`` to a position
  (an undo: the voided actions are kept and marked); ``adjustment`` (a judge's C3 adjustment);
  ``penalty``, a ``warning`` or a ``game_loss`` (the penalised seat's concession, recorded by
  the judge, which sets the result); ``game_ruling``, one of the game's judge's actions (the
  ``rule_claim`` on a claim disputed in the game: the game's own ``dispute`` action opens a
  dispute by itself, ``Kiroku.record``); ``reopen`` an ended match at a position before its
  end (a misrecorded final action, a wrong result): the rest is played under a fresh seed;
- a party (a seat of the match) or a judge appeals a ruling to the head judge: the head judge
  of the match's tournament (``replay.tournaments``) or an organiser, whose ruling on appeal is
  final and may overturn the first with a remedy of its own.

Readers: the match's seats and the staff. The evidence is computed from the record as it stood
when the dispute was opened, through the one per-viewer filter: the events concerned, with who
recorded them and when; the position as each seat saw it (a seat gets its own, a judge every
seat's and the spectators'); the knowledge record (the cards each seat had seen by then that
spectators had not); and the audit status of the match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from engine.core.contract import GameState, Ruleset
from engine.core.errors import ActionError
from engine.core.viewer import SPECTATOR, Viewer
from engine.registry import get_game
from ledger.disputes import (
    CLAIM_LIMIT,
    PENALTIES,
    REMEDIES,
    Dispute,
    DisputeNotFound,
    DisputeRefused,
)
from ledger.errors import ConcurrentAppend, Forbidden, LedgerError
from ledger.fold import Fold, LiveAction, Record, Visitor
from ledger.identity import Identity, Role
from ledger.loading import corrupt_as_such
from ledger.match import Match
from ledger.recorder import Appending, Then, now
from ledger.tournaments import Tournament
from ledger.visibility import redact
from replay import access
from replay.access import Caller
from replay.audience import Audience
from replay.ids import resolve_id
from replay.service import Kiroku


def _printable(text: str, what: str, limit: int) -> str:
    if not text.strip() or len(text) > limit or any(
            ord(c) < 32 and c not in "\n\t" for c in text):
        raise DisputeRefused(f"{what} is 1 to {limit} printable characters.")
    return text


def _party(caller: Identity, match_id: UUID) -> None:
    if not (caller.is_staff or caller.match_id == match_id):
        raise Forbidden("not_a_party", "Only the match's seats and its judges see or call "
                        "its disputes.")


def open_dispute(kiroku: Kiroku, caller: Identity, match_id: UUID, position: int | None,
                 claim: str, concerns: Sequence[int], pause: bool) -> dict[str, Any]:
    """A new dispute by ``caller`` (see the module docstring)."""
    caller = kiroku.seated(caller, match_id) or caller  # a player plays as their seat
    _party(caller, match_id)
    if pause and not caller.is_staff:
        raise Forbidden("judges_only", "Only a judge pauses a match; call one with the "
                        "dispute and ask.")
    match = kiroku.recorder.get_match(match_id)
    at = len(match.live) if position is None else position
    if not 0 <= at <= len(match.live):
        raise DisputeRefused(f"The match has positions 0 to {len(match.live)}.")
    if any(not 1 <= v <= match.version for v in concerns):
        raise DisputeRefused(f"The events of this match are versions 1 to {match.version}.")
    dispute = kiroku.disputes.open(
        match_id=str(match_id), position=at, match_version=match.version,
        claim=_printable(claim, "A claim", CLAIM_LIMIT), concerns=sorted(set(concerns)),
        pause=pause, opened_by=_person(caller, match_id), recorded_at=now())
    return shown(dispute)


def _person(caller: Identity, match_id: UUID) -> dict[str, Any]:
    return {**caller.recorded_by, "seat": caller.seat if caller.match_id == match_id else None}


def take(kiroku: Kiroku, caller: Identity, dispute_id: UUID, pause: bool) -> dict[str, Any]:
    """A judge takes the dispute (and may pause the match for it)."""
    if not caller.is_staff:
        raise Forbidden("judges_only", "A judge takes a dispute.")
    dispute = kiroku.disputes.get(dispute_id)
    _of_the_staff(caller, _tournament_of(kiroku, UUID(dispute.match_id)))
    if dispute.status != "open":
        raise DisputeRefused(f"That dispute is {dispute.status}: only an open one is taken.")
    kiroku.disputes.save(dispute, Dispute.Taken, caller.recorded_by, judge=caller.recorded_by,
                         pause=pause, recorded_at=now())
    return shown(dispute)


def rule(kiroku: Kiroku, caller: Identity, dispute_id: UUID, decision: str, reasoning: str,
         remedy: Mapping[str, Any]) -> dict[str, Any]:
    """The ruling: the remedy is applied to the match and the ruling recorded with what it did,
    in one save (a remedy the rules refuse stores nothing; of two rulings at once, one is
    stored with its remedy and the other stores nothing)."""
    dispute = kiroku.disputes.get(dispute_id)
    on_appeal = dispute.status == "appealed"
    _may_rule(caller, dispute, on_appeal, _tournament_of(kiroku, UUID(dispute.match_id)))
    decision = _printable(decision, "A decision", 200)
    fields = {"decision": decision,
              "reasoning": _printable(reasoning, "The reasoning", CLAIM_LIMIT),
              "remedy": dict(remedy), "on_appeal": on_appeal, "by": caller.recorded_by}
    seen = dispute.version

    def ruled(applied: dict[str, Any]) -> Then:
        """The ruling, saved with its remedy: ``applied`` with the version it left."""

        def then(appending: Appending) -> Sequence[Aggregate]:
            fresh = kiroku.disputes.get(dispute_id)
            if fresh.version != seen:
                raise _ruled_meanwhile(dispute_id)
            docket = kiroku.disputes.changing(
                fresh, Dispute.Ruled, **fields, recorded_at=now(),
                applied={**applied, "version": appending.done.version})
            appending.keep_paused(docket.pausing, caller.recorded_by)
            return [fresh, docket]

        return then

    try:
        applied = _apply(kiroku, caller, dispute, remedy, decision, ruled)
    except (LedgerError, ActionError):
        if kiroku.disputes.get(dispute_id).version != seen:
            raise _ruled_meanwhile(dispute_id) from None
        raise
    if applied is not None:  # a remedy that leaves the match as it is: the ruling alone
        kiroku.disputes.save(dispute, Dispute.Ruled, caller.recorded_by, **fields,
                             applied=applied, recorded_at=now())
    return shown(kiroku.disputes.get(dispute_id))


def _ruled_meanwhile(dispute_id: UUID) -> ConcurrentAppend:
    return ConcurrentAppend("That dispute was ruled or changed at the same time (another "
                            "judge's or an organiser's call); reload it: nothing was applied.",
                            dispute_id=str(dispute_id))


def _of_the_staff(caller: Identity, tournament: Tournament | None) -> None:
    """A tournament's disputes are heard by its own judges (and the organisers)."""
    if tournament is not None:
        access.tournament_judge(caller, tournament, "Hearing a dispute of this tournament")


def _tournament_of(kiroku: Kiroku, match_id: UUID) -> Tournament | None:
    seating = kiroku.tournaments.seating(match_id)
    return kiroku.tournaments.get(UUID(seating.tournament_id)) if seating else None


def _may_rule(caller: Identity, dispute: Dispute, on_appeal: bool,
              tournament: Tournament | None) -> None:
    if on_appeal:
        if not access.head_judge(caller, tournament):
            raise Forbidden("organisers_only", "An appeal is ruled by the tournament's head "
                            "judge or an organiser.")
        return
    if dispute.status != "open":
        raise DisputeRefused(f"That dispute is {dispute.status}: appeal it to rule again.")
    if not caller.is_staff:
        raise Forbidden("judges_only", "A judge rules on a dispute.")
    _of_the_staff(caller, tournament)
    taken_by = (dispute.judge or {}).get("id")
    if caller.role == Role.JUDGE and taken_by not in (None, str(caller.credential_id)):
        raise Forbidden("not_your_dispute", "Another judge has taken this dispute.")


def _apply(kiroku: Kiroku, caller: Identity, dispute: Dispute, remedy: Mapping[str, Any],
           decision: str, ruled: Callable[[dict[str, Any]], Then]) -> dict[str, Any] | None:
    """Apply the remedy to the match, saving the ruling with it (``ruled`` gives what saves
    it, from what the remedy did); None then, else what a remedy that leaves the match as it
    is did (the caller saves the ruling alone)."""
    kind = remedy.get("kind")
    if kind not in REMEDIES:
        raise DisputeRefused(f"A remedy's kind is one of {', '.join(REMEDIES)}.")
    match_id = UUID(dispute.match_id)
    why = f"ruling on dispute {dispute.id}: {decision}"
    by = caller.recorded_by
    if kind == "none":
        return {"kind": "none"}
    if kind in ("backup", "reopen"):
        to = remedy.get("to_position")
        if not isinstance(to, int) or isinstance(to, bool):
            raise DisputeRefused("A backup names the position to return to (to_position)."
                                 if kind == "backup" else "A reopening names the position to "
                                 "back up to (to_position).")
        then = ruled({"kind": kind, "to_position": to})
        if kind == "backup":
            kiroku.undo(match_id, None, to_position=to, reason=why, recorded_by=by, then=then)
        else:
            kiroku.reopen(match_id, to_position=to, reason=why, recorded_by=by, then=then)
        return None
    if kind == "game_ruling":
        action = remedy.get("action")
        ruleset = get_game(kiroku.recorder.creation(match_id).game)
        if not isinstance(action, Mapping) or action.get("type") == "adjust" or \
                not ruleset.judges_only(action.get("type")):
            raise DisputeRefused("A game ruling carries one of the game's judge's actions "
                                 "(rule_claim, for a disputed claim).")
        kiroku.record(match_id, action, recorded_by=by,
                      then=ruled({"kind": "game_ruling", "type": action["type"]}))
        return None
    if kind == "adjustment":
        action = remedy.get("action")
        if not isinstance(action, Mapping) or action.get("type") != "adjust":
            raise DisputeRefused("An adjustment remedy carries a judge's 'adjust' action.")
        kiroku.record(match_id, {**action, "reason": action.get("reason") or why},
                      recorded_by=by, then=ruled({"kind": "adjustment"}))
        return None
    penalty, seat = remedy.get("penalty"), remedy.get("seat")
    if penalty not in PENALTIES or not isinstance(seat, int) or isinstance(seat, bool):
        raise DisputeRefused(f"A penalty is one of {', '.join(PENALTIES)}, with the seat.")
    players = len(kiroku.recorder.creation(match_id).config["players"])
    if not 1 <= seat <= players:
        raise DisputeRefused(f"There is no seat {seat} in this match ({players} players).")
    if penalty == "warning":
        return {"kind": "penalty", "penalty": "warning", "seat": seat}
    kiroku.record(match_id, {"type": "concede", "seat": seat}, recorded_by=by,
                  then=ruled({"kind": "penalty", "penalty": "game_loss", "seat": seat}))
    return None


def appeal(kiroku: Kiroku, caller: Identity, dispute_id: UUID, reason: str) -> dict[str, Any]:
    """A party or a judge appeals a ruling to the organisers (once)."""
    dispute = kiroku.disputes.get(dispute_id)
    caller = kiroku.seated(caller, UUID(dispute.match_id)) or caller
    _party(caller, UUID(dispute.match_id))
    if dispute.status != "ruled":
        raise DisputeRefused(f"That dispute is {dispute.status}: only a ruling not yet "
                             "appealed can be appealed.")
    kiroku.disputes.save(dispute, Dispute.Appealed, caller.recorded_by,
                         reason=_printable(reason, "A reason", 500),
                         by=_person(caller, UUID(dispute.match_id)), recorded_at=now())
    return shown(dispute)


def find(kiroku: Kiroku, caller: Caller, text: str) -> UUID:
    """The dispute ``text`` names: its whole id, or the first characters (4 or more) of
    exactly one of the disputes whose match ``caller`` is a party to, as match ids are typed.
    A prefix finds only disputes the caller may read, so it tells nobody that others exist."""
    prefix = text.lower()
    return resolve_id(text, lambda: [d for d in kiroku.disputes.all_ids()
                                     if str(d).startswith(prefix)
                                     and _is_party(kiroku, caller, d)],
                      ("dispute", "disputes"), DisputeNotFound)


def _is_party(kiroku: Kiroku, caller: Caller, dispute_id: UUID) -> bool:
    audience = kiroku.audience(UUID(kiroku.disputes.get(dispute_id).match_id), caller)
    return audience.is_party and not audience.narrowed


def shown(dispute: Dispute) -> dict[str, Any]:
    """A dispute as its parties read it."""
    return {"dispute_id": str(dispute.id), "match_id": dispute.match_id,
            "position": dispute.position, "match_version": dispute.match_version,
            "claim": dispute.claim, "concerns": list(dispute.concerns),
            "opened_by": dispute.opened_by, "recorded_at": dispute.recorded_at,
            "status": dispute.status, "pausing": dispute.pausing, "judge": dispute.judge,
            "rulings": list(dispute.rulings), "appeal": dispute.appeal}


def read(kiroku: Kiroku, caller: Identity | None, dispute_id: UUID) -> dict[str, Any]:
    """A dispute with its evidence, as ``caller`` may see it."""
    dispute = kiroku.disputes.get(dispute_id)
    audience = kiroku.audience(UUID(dispute.match_id), caller)
    _parties_only(audience)
    return {**shown(dispute), "evidence": evidence(kiroku, dispute, audience)}


def listing(kiroku: Kiroku, audience: Audience) -> list[dict[str, Any]]:
    """The disputes of the audience's match, for its parties."""
    _parties_only(audience)
    return [shown(d) for d in kiroku.disputes.of_match(audience.match.id)]


def _parties_only(audience: Audience) -> None:
    if not audience.is_party or audience.narrowed:
        raise Forbidden("not_a_party", "Only the match's seats and its judges see its "
                        "disputes.")


class _Sightings(Visitor):
    """The live line and, by live position, the cards each viewer had seen so far (what was
    seen stays known after an undo, as after a backup at a real table)."""

    def __init__(self, ruleset: Ruleset, viewers: Sequence[Viewer]) -> None:
        self.ruleset = ruleset
        self.viewers = viewers
        self.states: list[GameState] = []
        self.seen: list[dict[Viewer, set[str]]] = []

    def _see(self, state: GameState) -> None:
        before = self.seen[-1] if self.seen else {v: set() for v in self.viewers}
        places = self.ruleset.places(state).items()
        self.seen.append({v: before[v] | {c.partition("@")[0] for place, cards in places
                                          if self.ruleset.sees(v, place.zone, place.seat)
                                          for c in cards} for v in self.viewers})
        self.states.append(state)

    def created(self, record: Record, state: GameState) -> None:
        """Position 0."""
        self._see(state)

    def action(self, record: Record, before: GameState, after: GameState,
               position: int) -> None:
        """A live action reached ``position``."""
        del self.states[position:], self.seen[position:]
        self._see(after)

    def undone(self, record: Record, voided: list[LiveAction], state: GameState) -> None:
        """The voided positions go; what they showed stays known."""
        kept = self.seen[-1]
        del self.states[len(self.states) - len(voided):]
        del self.seen[len(self.seen) - len(voided):]
        self.seen[-1] = {v: self.seen[-1][v] | kept[v] for v in self.viewers}


def evidence(kiroku: Kiroku, dispute: Dispute, audience: Audience) -> dict[str, Any]:
    """The evidence of a dispute, as the record stood when it was opened, seen by the
    audience (one of the match's parties)."""
    match_id = UUID(dispute.match_id)
    match: Match = audience.match
    viewer = audience.viewer
    ruleset = get_game(match.game)
    records = [r for r in kiroku.records(kiroku.seen_by(match_id)) if r["version"]
               <= dispute.match_version]
    seats = [Viewer("seat", s) for s in range(1, len(match.players) + 1)]
    sightings = _Sightings(ruleset, [SPECTATOR, *seats])
    with corrupt_as_such(match_id):
        Fold(sightings).feed_all(records)
    at = min(dispute.position, len(sightings.states) - 1)
    state = sightings.states[at]
    seen_as = audience.seen_as
    shown_to = seats + [SPECTATOR] if viewer.is_judge else [viewer]
    names = records[0]["config"]["cards"]
    knowledge = {str(s): sorted(sightings.seen[at][s] - sightings.seen[at][SPECTATOR])
                 for s in shown_to if s != SPECTATOR}
    return {
        "events": [redact(r, seen_as, ruleset) for r in records
                   if r["version"] in dispute.concerns],
        "positions": {str(s): ruleset.view(state, seen_as if s == viewer else s)
                      for s in shown_to},
        "knowledge": {seat: [{"card": c, "name": names.get(c, {}).get("name")} for c in cards]
                      for seat, cards in knowledge.items()},
        "audit": kiroku.audit(match_id).to_dict(),
    }
