"""Snapshots are a cache, never evidence: a match's snapshot is used only if it agrees with the
events it stands for (issue 9). Views and new actions are computed from snapshots, so a changed
snapshot would otherwise be trusted, and the audit would blame the next legitimate event.

A match's snapshot at version v is trusted when its chain head is the hash of event v and its
position has the digest last recorded at or before v (in the digest's own format, where this
build can reproduce it). Anything else, or a snapshot that cannot be read, is ignored (the match
is rebuilt from its events) and remembered in ``rejected``, which the audit reports.

Checking a snapshot decodes it; the match it decoded to is what the rebuild starts from
(``CheckedSnapshot``), so a snapshot is decoded once per use, not twice. The audit, which has
read the match's events and set it up already, hands both over (``Given``): its check of a
snapshot reads nothing else from the store.

On SQLite, snapshots are stored in a table with rowids (``SQLiteSnapshotRecorder``), not the
library's WITHOUT ROWID table, whose rows of more than a quarter of a page spill into an
overflow page each (issue 43).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, EventStore, InfrastructureFactory, Mapper
from eventsourcing.sqlite import SQLiteFactory

from engine.core.data import digest_format
from engine.registry import get_game
from ledger.compactrows import CompactRows
from ledger.match import Creation, Match


@dataclass(frozen=True)
class Given:
    """A match's events already read (all of them, in order) and what its creation fixed:
    what the audit, which has read and verified both, holds a snapshot to instead of reading
    them from the store again."""

    events: Sequence[Any]
    creation: Callable[[UUID], Creation]

    def near(self, version: int) -> list[Any]:
        """The events after ``version - 3`` up to ``version``, by their versions (what the
        store gives a snapshot's check): where they are, in a match with no gap, or found
        among all of them in one with a gap (whose audit has failed already)."""
        window = list(self.events[max(0, version - 3):version])
        if [e.originator_version for e in window] == list(range(max(1, version - 2),
                                                                version + 1)):
            return window
        return [e for e in self.events if version - 3 < e.originator_version <= version]


@dataclass(frozen=True)
class CheckedSnapshot:
    """A stored snapshot that agrees with its events, with the match its check decoded:
    projecting it (the library calls ``mutate``) hands out a copy of that match instead of
    decoding the snapshot again (issue 16: decoding was a third of rebuilding from one)."""

    originator_id: UUID
    originator_version: int
    match: Any

    def mutate(self, _: None) -> Any:
        """The match at the snapshot's version (a copy: the caller folds later events into it;
        ``Match.__deepcopy__`` copies its lists and shares its state, which the fold copies
        before replaying onto it)."""
        return copy.deepcopy(self.match)


class CheckedSnapshots(EventStore[UUID]):
    """The snapshot store, trusting a match's snapshot only if its events agree."""

    def __init__(self, mapper: Mapper[UUID], recorder: AggregateRecorder,
                 events: EventStore[UUID],
                 creation: Callable[[UUID], Creation] | None = None) -> None:
        super().__init__(mapper, recorder)
        self.events = events  # read with their commitments as stored (ledger.mapper)
        self.creation = creation  # what a snapshot leaves out (ledger.match.MatchSnapshot)
        self.rejected: dict[tuple[UUID, int], str] = {}

    def get(self, originator_id: UUID, *, gt: int | None = None, lte: int | None = None,
            desc: bool = False, limit: int | None = None) -> Iterator[Any]:
        """The stored snapshots that agree with the events (see the module docstring), each
        as a ``CheckedSnapshot``; as many as ``limit`` asks for where enough agree (the
        repository asks for the latest one: an ignored one is passed over for the one before
        it)."""
        checked: list[CheckedSnapshot] = []
        while limit is None or len(checked) < limit:
            rows = self.recorder.select_events(originator_id, gt=gt, lte=lte, desc=desc,
                                               limit=limit)
            for row in rows:
                aggregate, problem = self._read_row(row)
                if problem is None:
                    checked.append(CheckedSnapshot(originator_id, row.originator_version,
                                                   aggregate))
                else:
                    self.rejected[(originator_id, row.originator_version)] = problem
            if limit is None or len(rows) < limit:
                break
            if desc:
                lte = rows[-1].originator_version - 1
            else:
                gt = rows[-1].originator_version
        return iter(checked[:limit])

    def findings(self, match_id: UUID, given: Given | None = None) -> list[tuple[int, str]]:
        """Each stored snapshot of the match that is ignored, by version, and why (held to
        the events ``given``, where the caller has read them)."""
        found = []
        for row in self.recorder.select_events(match_id):
            problem = self._read_row(row, given)[1]
            if problem is not None:
                found.append((row.originator_version, problem))
        return found

    def _read_row(self, row: Any, given: Given | None = None) -> tuple[Any, str | None]:
        """The aggregate the stored snapshot ``row`` decodes to, and why it disagrees with
        the events (None if it agrees): a snapshot that no longer decodes is only ignored."""
        try:
            snapshot = self.mapper.to_domain_event(row)
        except Exception as exc:  # a snapshot is a cache: one that cannot be read is ignored
            return None, f"it cannot be read ({type(exc).__name__})"
        return self._read(snapshot, given)

    def trusted(self, snapshot: Any, given: Given | None = None) -> bool:
        """Whether ``snapshot`` may stand for its match's events (remembering why not): the
        stored ones, or those ``given``."""
        problem = self.problem(snapshot, given)
        if problem is not None:
            self.rejected[(snapshot.originator_id, snapshot.originator_version)] = problem
        return problem is None

    def problem(self, snapshot: Any, given: Given | None = None) -> str | None:
        """Why ``snapshot`` disagrees with the events (the stored ones, or those ``given``),
        or None."""
        return self._read(snapshot, given)[1]

    def _read(self, snapshot: Any, given: Given | None = None) -> tuple[Any, str | None]:
        """The aggregate ``snapshot`` decodes to, and why it disagrees with the events (None
        if it agrees)."""
        creation = given.creation if given is not None else self.creation
        try:
            restore = getattr(snapshot, "restore", None)
            if restore is None:  # not a match's
                return snapshot.mutate(None), None
            aggregate = restore(creation(snapshot.originator_id) if creation else None)
        except Exception as exc:  # a snapshot that no longer decodes is only ignored
            return None, f"it cannot be read ({type(exc).__name__})"
        if not isinstance(aggregate, Match):
            return aggregate, None
        return aggregate, self._disagreement(aggregate, snapshot.originator_id,
                                             snapshot.originator_version, given)

    def _disagreement(self, aggregate: Match, match_id: UUID, version: int,
                      given: Given | None = None) -> str | None:
        """Why the match that the snapshot of ``match_id`` at ``version`` decoded to disagrees
        with the events (the stored ones, or those ``given``)."""
        if given is not None:
            events = given.near(version)
        else:  # only hashes and digests are compared: commitments as stored
            events = list(self.events.get(match_id, gt=max(0, version - 3), lte=version))
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


SNAPSHOTS_TABLE = "stored_snapshots"


class SQLiteSnapshotRecorder(CompactRows):
    """eventsourcing's SQLite recorder of snapshots, creating its table with rowids, its rows
    compact (``ledger.compactrows``).

    The library creates ``stored_snapshots`` WITHOUT ROWID: a b-tree of its primary key,
    whose cells keep at most about a quarter of a page (1,002 of 4,096 bytes) and spill the
    rest of a row into an overflow page of its own. A snapshot of an Illuminati, Grail or Edge
    match is 1-2.5 KB, so each took a leaf cell and a 4 KB overflow page, mostly empty: 180 B
    an action of a 450 B/action file (issue 43). A table with rowids keeps a row of up to
    4,061 bytes in its leaf, and its rows, appended in rowid order, fill their pages. The
    columns, the primary key and so every statement of the library are the same, so a file
    created with the library's table (before issue 43) is read and written as it is: its
    table is kept (``CREATE TABLE IF NOT EXISTS``). The table is ``CompactRows``' own
    (``ledger.compactrows.rows_table``)."""


def snapshot_recorder(factory: InfrastructureFactory[Any]) -> AggregateRecorder:
    """The recorder of a store's snapshots: on SQLite a ``SQLiteSnapshotRecorder`` (its
    table created as the library creates its own, where the settings let it), elsewhere the
    library's own."""
    if not isinstance(factory, SQLiteFactory):
        return factory.aggregate_recorder(purpose="snapshots")
    recorder = SQLiteSnapshotRecorder(factory.datastore, events_table_name=SNAPSHOTS_TABLE)
    if factory.env_create_table():
        recorder.create_table()
    return recorder
