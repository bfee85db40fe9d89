"""Snapshots are a cache, never evidence: a match's snapshot is used only if it agrees with the
events it stands for (issue 9). Views and new actions are computed from snapshots, so a changed
snapshot would otherwise be trusted, and the audit would blame the next legitimate event.

A match's snapshot at version v is trusted when its chain head is the hash of event v and its
position has the digest last recorded at or before v (in the digest's own format, where this
build can reproduce it). Anything else, or a snapshot that cannot be read, is ignored (the match
is rebuilt from its events) and remembered in ``rejected``, which the audit reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, EventStore, Mapper

from engine.core.data import digest_format
from engine.registry import get_game
from ledger.mapper import commitments_as_stored
from ledger.match import CREATIONS, Creation, Match


class CheckedSnapshots(EventStore[UUID]):
    """The snapshot store, trusting a match's snapshot only if its events agree."""

    def __init__(self, mapper: Mapper[UUID], recorder: AggregateRecorder,
                 events: EventStore[UUID],
                 creation: Callable[[UUID], Creation] | None = None) -> None:
        super().__init__(mapper, recorder)
        self.events = events
        self.creation = creation  # what a snapshot leaves out (ledger.match.CREATIONS)
        self.rejected: dict[tuple[UUID, int], str] = {}

    def get(self, originator_id: UUID, *, gt: int | None = None, lte: int | None = None,
            desc: bool = False, limit: int | None = None) -> Iterator[Any]:
        """The stored snapshots that agree with the events (see the module docstring)."""
        found = list(super().get(originator_id, gt=gt, lte=lte, desc=desc, limit=limit))
        return iter([s for s in found if self.trusted(s)])

    def trusted(self, snapshot: Any) -> bool:
        """Whether ``snapshot`` may stand for its match's events (remembering why not)."""
        problem = self.problem(snapshot)
        if problem is not None:
            self.rejected[(snapshot.originator_id, snapshot.originator_version)] = problem
        return problem is None

    def problem(self, snapshot: Any) -> str | None:
        """Why ``snapshot`` disagrees with the events, or None."""
        token = CREATIONS.set(self.creation) if self.creation is not None else None
        try:
            aggregate = snapshot.mutate(None)
        except Exception as exc:  # a snapshot that no longer decodes is only ignored
            return f"it cannot be read ({type(exc).__name__})"
        finally:
            if token is not None:
                CREATIONS.reset(token)
        if not isinstance(aggregate, Match):
            return None
        version = snapshot.originator_version
        with commitments_as_stored():  # only hashes and digests are compared
            events = list(self.events.get(snapshot.originator_id, gt=max(0, version - 3),
                                          lte=version))
        if not events or events[-1].originator_version != version:
            return f"there is no event at its version {version}"
        if aggregate.head_hash != getattr(events[-1], "hash", None):
            return "its chain head is not the hash of the event it stands for"
        recorded = next((e.digest for e in reversed(events) if hasattr(e, "digest")), None)
        ruleset = get_game(aggregate.game)
        if recorded is None:
            return "no digest to check it against"
        fmt = digest_format(recorded)
        if fmt is None:
            actual = ruleset.legacy_digest(aggregate.state)
        elif fmt == ruleset.position_format:
            actual = ruleset.digest(aggregate.state)
        else:
            return "its digest format cannot be reproduced by this build"
        if actual != recorded:
            return "its position is not the one the events recorded"
        return None
