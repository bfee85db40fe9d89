"""Group commit on SQLite: commands saved at the same time share one transaction.

eventsourcing's SQLite recorder commits every ``save()`` in its own transaction, and the
commit (the write to the WAL and its sync) is most of what a save costs. With this recorder,
plugged in through eventsourcing's own ``APPLICATION_RECORDER_TOPIC`` setting, the save
that finds no commit under way commits alone, as before; saves that arrive while a commit is
under way queue, and the next of them commits them all in one transaction:

- each save stays atomic: in a group, its events go in under their own SAVEPOINT, and a save
  that breaks a uniqueness constraint (another command appended to that match first) is rolled
  back to its savepoint and refused with the library's ``IntegrityError``, alone; a save that
  commits alone (the usual case of one match recorded at a time) needs no savepoint: its
  transaction is rolled back whole, as the library's recorder does;
- order holds: saves are inserted in the order they queued, and one match's commands are
  serialised by the recorder's per-match lock before they get here;
- across processes on one file, the file's write gate (``ledger.writegate``) lets one commit
  at a time, and the queue is taken once the gate is passed, so what queued meanwhile goes in;
- a save may bring snapshots (``SNAPSHOTS``, the snapshots of the matches it takes across a
  snapshot interval, ledger.recorder): they go into the library's snapshot table in the same
  transaction, under a savepoint of their own, so that a snapshot costs no commit (and sync)
  of its own. A snapshot is a cache: one that cannot be stored is rolled back to its
  savepoint alone and logged, and the save's events commit;
- durability is unchanged: ``save()`` returns (and the action is acknowledged) only after the
  COMMIT that holds its events has returned, under the same SQLite settings (WAL journal,
  the library's ``synchronous`` default). A failed commit fails every save in it, none of
  which was acknowledged.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import (
    SQLiteAggregateRecorder,
    SQLiteCursor,
)

from ledger.compactrows import CompactLog, CompactRows

TOPIC = "ledger.groupcommit:GroupCommitRecorder"
SNAPSHOTS = "kiroku_snapshots"  # the save's keyword: its stored snapshots
_log = logging.getLogger(__name__)


@dataclass
class _Save:
    """One ``insert_events`` call waiting for its commit."""

    events: Sequence[StoredEvent]
    kwargs: dict[str, Any]
    ids: Sequence[int] | None = None
    error: BaseException | None = None
    done: bool = False


class GroupCommitRecorder(CompactLog):
    """eventsourcing's SQLite application recorder, committing concurrent saves together,
    its rows compact (``ledger.compactrows``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._queue: list[_Save] = []
        self._queue_guard = threading.Lock()
        self._committing = threading.Lock()
        self.commits = 0  # transactions committed (the bench reports saves per commit)
        self.saves = 0
        # Kiroku's recorder of snapshots on the same database, once ``snapshots_beside``
        self.snapshots: CompactRows | None = None
        # the last row id converted, and what it became (one tuple: threads read it whole)
        self._last_id: tuple[bytes | str, UUID | str] | None = None

    def convert_originator_id(self, originator_id: Any) -> UUID | str:
        """The library's conversion of a row's id, made once for the rows of one stream in a
        row (every row a stream's read finds has the same id: a UUID each was about 1 % of an
        audit)."""
        last = self._last_id
        if last is not None and last[0] == originator_id:
            return last[1]
        converted = super().convert_originator_id(originator_id)
        self._last_id = (originator_id, converted)
        return converted

    def snapshots_beside(self, recorder: SQLiteAggregateRecorder) -> bool:
        """Store the snapshots saves bring through ``recorder`` (Kiroku's snapshot recorder,
        ``ledger.snapshots``), each in the transaction of the save that brings it: only where
        it writes to this recorder's database, through the same datastore. Whether it does."""
        if recorder.datastore is not self.datastore or not isinstance(recorder, CompactRows):
            return False
        self.snapshots = recorder
        return True

    def insert_events(self, stored_events: Sequence[StoredEvent],
                      **kwargs: Any) -> Sequence[int] | None:
        """Queue the events and return once a commit holding them has returned."""
        save = _Save(stored_events, kwargs)
        with self._queue_guard:
            self._queue.append(save)
        with self._committing:
            if not save.done:
                self._commit_queued()
        if save.error is not None:
            raise save.error
        return save.ids

    def _commit_queued(self) -> None:
        """One transaction for every save queued, each under its own savepoint. The queue is
        taken once the transaction has begun, after the file's write gate (ledger.writegate):
        saves that queued while another process committed go in with this one."""
        batch: list[_Save] | None = None
        try:
            with self.datastore.transaction(commit=True) as cursor:
                self._forget_uncommitted()
                batch = self._take_queue()
                if len(batch) == 1:  # alone: a failure rolls the transaction back
                    save = batch[0]
                    save.ids = self._insert_events(cursor, save.events, **save.kwargs)
                    self._insert_snapshots(cursor, save)
                else:
                    for save in batch:
                        self._insert_one(cursor, save)
            self.commits += 1
            self.saves += len(batch)
            self.promote()
            if self.snapshots is not None:
                self.snapshots.promote()
        except BaseException as exc:  # the commit failed: no save of it is acknowledged
            self._forget_uncommitted()
            if batch is None:  # it failed before it took the queue
                batch = self._take_queue()
            for save in batch:
                if save.error is None:
                    save.error, save.ids = exc, None
        finally:
            for save in batch or ():
                save.done = True

    def _forget_uncommitted(self) -> None:
        self.forget_uncommitted()
        if self.snapshots is not None:
            self.snapshots.forget_uncommitted()

    def _take_queue(self) -> list[_Save]:
        with self._queue_guard:
            batch, self._queue = self._queue, []
        return batch

    def _insert_one(self, cursor: SQLiteCursor, save: _Save) -> None:
        cursor.execute("SAVEPOINT kiroku_save")
        try:
            save.ids = self._insert_events(cursor, save.events, **save.kwargs)
        except sqlite3.IntegrityError as exc:
            cursor.execute("ROLLBACK TO kiroku_save")
            self.forget_uncommitted()  # what the batch's other saves saw is looked up again
            save.error = IntegrityError(exc)
        else:
            self._insert_snapshots(cursor, save)
        cursor.execute("RELEASE kiroku_save")

    def _insert_snapshots(self, cursor: SQLiteCursor, save: _Save) -> None:
        """The save's snapshots, by the library's snapshot recorder, under a savepoint: one
        that cannot be stored is rolled back alone (the save's events stay) and logged."""
        snapshots = save.kwargs.get(SNAPSHOTS)
        if not snapshots or self.snapshots is None:
            return
        cursor.execute("SAVEPOINT kiroku_snapshots")
        try:
            self.snapshots._insert_events(cursor, snapshots)
        except sqlite3.Error:  # the cache is missed, nothing is lost
            cursor.execute("ROLLBACK TO kiroku_snapshots")
            self.snapshots.forget_uncommitted()
            _log.warning("the snapshots of %s were not stored",
                         ", ".join(f"{s.originator_id} at v{s.originator_version}"
                                   for s in snapshots), exc_info=True)
        cursor.execute("RELEASE kiroku_snapshots")
