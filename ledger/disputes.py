"""Disputes and rulings (issue 13): a call for a judge about a position of a match, in a stream
of its own beside the match, and each match's docket of them.

A dispute is opened by a seat of the match or a judge, with a claim and the versions of the
events it concerns; a judge takes it; the ruling is an event with the decision, its reasoning
and a remedy (applied to the match by ``replay.disputes``: none, a backup, an adjustment, a
penalty); a party may appeal to an organiser (the head judge), whose ruling is final and may
overturn the first. The docket (one aggregate per match, its id derived from the match's) lists
the match's disputes and says whether one of them pauses the match; the match's own stream
holds the pause too (MatchPaused, MatchResumed), saved with the docket, and a seat's action is
checked against that.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from uuid import UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from ledger.errors import LedgerError
from ledger.errors import MatchPaused as MatchPaused  # re-exported: where disputes are

REMEDIES = ("none", "backup", "adjustment", "penalty", "game_ruling", "reopen")
PENALTIES = ("warning", "game_loss")
CLAIM_LIMIT = 2000

_DOCKETS = UUID("6b6f7269-6b75-4000-8000-646f636b6574")


class DisputeRefused(LedgerError):
    """A dispute cannot be opened, taken, ruled or appealed as asked."""

    code = "dispute_refused"


class DisputeNotFound(LedgerError):
    """No dispute has that id."""

    code = "dispute_not_found"


class Dispute(Aggregate):
    """One dispute: opened, taken by a judge, ruled, perhaps appealed and ruled again."""

    TOPIC = "kiroku:Dispute"

    class Created(Aggregate.Created):
        """DisputeOpened: the claim, where, about which events, by whom."""

        TOPIC = "kiroku:DisputeOpened/1"
        match_id: str
        position: int
        match_version: int
        claim: str
        concerns: list[int]
        pause: bool
        opened_by: dict[str, Any]
        recorded_at: str

    class Taken(Aggregate.Event):
        """DisputeTaken: the judge who will rule."""

        TOPIC = "kiroku:DisputeTaken/1"
        judge: dict[str, Any]
        pause: bool
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The judge hears it (and may pause the match until the ruling)."""
            aggregate.judge = dict(self.judge)
            aggregate.pause = aggregate.pause or self.pause

    class Ruled(Aggregate.Event):
        """DisputeRuled: the decision, its reasoning, the remedy and what it did to the match."""

        TOPIC = "kiroku:DisputeRuled/1"
        decision: str
        reasoning: str
        remedy: dict[str, Any]
        applied: dict[str, Any]
        on_appeal: bool
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """A first ruling closes the dispute unless appealed; a ruling on appeal is final."""
            aggregate.rulings.append({
                "decision": self.decision, "reasoning": self.reasoning,
                "remedy": dict(self.remedy), "applied": dict(self.applied),
                "on_appeal": self.on_appeal, "by": dict(self.by),
                "recorded_at": self.recorded_at})
            aggregate.status = "final" if self.on_appeal else "ruled"

    class Appealed(Aggregate.Event):
        """DisputeAppealed: a party asks the organiser (head judge) to rule again."""

        TOPIC = "kiroku:DisputeAppealed/1"
        reason: str
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The dispute waits for the organiser's ruling."""
            aggregate.appeal = {"reason": self.reason, "by": dict(self.by),
                                "recorded_at": self.recorded_at}
            aggregate.status = "appealed"

    def __init__(self, match_id: str, position: int, match_version: int, claim: str,
                 concerns: list[int], pause: bool, opened_by: dict[str, Any],
                 recorded_at: str) -> None:
        self.match_id = match_id
        self.position = position
        self.match_version = match_version
        self.claim = claim
        self.concerns = list(concerns)
        self.pause = pause
        self.opened_by = dict(opened_by)
        self.recorded_at = recorded_at
        self.judge: dict[str, Any] | None = None
        self.rulings: list[dict[str, Any]] = []
        self.appeal: dict[str, Any] | None = None
        self.status = "open"

    @property
    def pausing(self) -> bool:
        """Whether the dispute holds its match: asked for, and not ruled yet."""
        return self.pause and self.status in ("open", "appealed")


class Docket(Aggregate):
    """A match's disputes, and whether one of them pauses it."""

    TOPIC = "kiroku:Docket"

    class Created(Aggregate.Created):
        """DocketStarted: the match's first dispute."""

        TOPIC = "kiroku:DocketStarted/1"
        match_id: str

    class Filed(Aggregate.Event):
        """DisputeFiled: a dispute joins the docket."""

        TOPIC = "kiroku:DisputeFiled/1"
        dispute_id: str
        pause: bool

        def apply(self, aggregate: Any) -> None:
            """Listed; pausing until ruled if asked."""
            aggregate.disputes.append(self.dispute_id)
            if self.pause:
                aggregate.pausing.append(self.dispute_id)

    class Released(Aggregate.Event):
        """DisputeReleased: a ruled dispute no longer pauses the match."""

        TOPIC = "kiroku:DisputeReleased/1"
        dispute_id: str

        def apply(self, aggregate: Any) -> None:
            """The match may go on (unless another dispute still holds it)."""
            aggregate.pausing.remove(self.dispute_id)

    class Held(Aggregate.Event):
        """DisputeHeld: an appeal pauses the match again, as its dispute did."""

        TOPIC = "kiroku:DisputeHeld/1"
        dispute_id: str

        def apply(self, aggregate: Any) -> None:
            """Paused until the organiser rules."""
            aggregate.pausing.append(self.dispute_id)

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.disputes: list[str] = []
        self.pausing: list[str] = []


@lru_cache(maxsize=4096)
def docket_id(match_id: UUID) -> UUID:
    """The id of a match's docket (derived, so it is found without a search; asked on every
    seat's action, so the derivation is kept)."""
    return uuid5(_DOCKETS, str(match_id))


class Disputes:
    """Disputes and dockets in an eventsourcing application's store (the Recorder's)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def open(self, **fields: Any) -> Dispute:
        """A new dispute, filed in its match's docket (saved together, atomically, with the
        match's pause in step)."""
        dispute, docket = self.opening(**fields)
        self.app.save_with_pause(UUID(fields["match_id"]), docket.pausing,
                                 author(fields["opened_by"]), dispute, docket)
        return dispute

    def opening(self, **fields: Any) -> tuple[Dispute, Docket]:
        """``open`` without saving: the new dispute and its match's docket, which files it,
        to save together with what goes with them (the action that calls the dispute)."""
        dispute = Dispute._create(Dispute.Created, id=uuid4(), **fields)
        docket = self.docket(UUID(fields["match_id"]), create=True)
        docket.trigger_event(Docket.Filed, dispute_id=str(dispute.id), pause=dispute.pause)
        return dispute, docket

    def get(self, dispute_id: UUID) -> Dispute:
        """A dispute, or DisputeNotFound."""
        try:
            found: Any = self.app.repository.get(dispute_id)
        except AggregateNotFoundError:
            raise DisputeNotFound(f"No dispute {dispute_id}.") from None
        if not isinstance(found, Dispute):
            raise DisputeNotFound(f"No dispute {dispute_id}.")
        return found

    def all_ids(self) -> list[UUID]:
        """Every dispute's id, oldest first (the store-wide index of disputes)."""
        return list(self.app.dispute_streams.every("dispute"))

    def docket(self, match_id: UUID, create: bool = False) -> Docket:
        """The match's docket (an empty, unsaved one when it has none yet)."""
        try:
            found: Any = self.app.repository.get(docket_id(match_id))
            return found  # type: ignore[no-any-return]
        except AggregateNotFoundError:
            docket: Docket = Docket._create(Docket.Created, id=docket_id(match_id),
                                            match_id=str(match_id))
            return docket

    def of_match(self, match_id: UUID) -> list[Dispute]:
        """The match's disputes, oldest first."""
        return [self.get(UUID(d)) for d in self.docket(match_id).disputes]

    def unruled(self, match_id: UUID) -> bool:
        """Whether a dispute of the match waits for a ruling (open, or appealed)."""
        return any(d.status in ("open", "appealed") for d in self.of_match(match_id))

    def ended_by_ruling(self, match_id: UUID, version: int) -> bool:
        """Whether the match, standing at ``version``, stands as a ruling's game loss left it
        (so its result is the ruling's; a game loss later overturned, and the game played on,
        is not)."""
        return any(r["applied"].get("penalty") == "game_loss"
                   and r["applied"].get("version") == version
                   for d in self.of_match(match_id) for r in d.rulings)

    def save(self, dispute: Dispute, event: type[Aggregate.Event], acting: dict[str, Any],
             **fields: Any) -> None:
        """Append an event to a dispute by ``acting`` (an identity's ``recorded_by``), and keep
        the docket's pause, and the match's, in step with it (the match's in the same save,
        recorded by ``acting``: ``Recorder.save_with_pause``)."""
        docket = self.changing(dispute, event, **fields)
        self.app.save_with_pause(UUID(dispute.match_id), docket.pausing, acting, dispute,
                                 docket)

    def changing(self, dispute: Dispute, event: type[Aggregate.Event],
                 **fields: Any) -> Docket:
        """``save`` without saving: the event appended to the dispute, and the match's docket
        with its pause in step, to save together with what goes with them (a ruling's
        remedy); the match's pause is brought in step with ``Docket.pausing`` in that save."""
        was_pausing = dispute.pausing
        dispute.trigger_event(event, **fields)
        docket = self.docket(UUID(dispute.match_id))
        # as the docket stands: read after the dispute, it may hold another command's change
        # already (that command's save then refuses this one's, on the dispute's version)
        held = str(dispute.id) in docket.pausing
        if was_pausing and not dispute.pausing and held:
            docket.trigger_event(Docket.Released, dispute_id=str(dispute.id))
        elif dispute.pausing and not was_pausing and not held:
            docket.trigger_event(Docket.Held, dispute_id=str(dispute.id))
        return docket

    def history(self, dispute_id: UUID) -> list[Any]:
        """Every event of a dispute, oldest first."""
        return list(self.app.events.get(dispute_id))


def author(person: dict[str, Any]) -> dict[str, Any]:
    """A party of a dispute as the author of a match's event: the identity, without the seat
    the dispute notes beside it."""
    return {k: v for k, v in person.items() if k != "seat"}
