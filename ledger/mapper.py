"""How a match's events are stored: without the two fields that the rest of the stream gives.

Every event of a match carries ``prev_hash`` (the hash of the event before it, ledger.chain) and
the library's ``timestamp``. Neither is stored any more (issue 16: together about a fifth of a
stored World Gainer action, 49 of 272 bytes):

- ``prev_hash`` is the previous event's stored ``hash``; a reader that walks the match from its
  first event links each event to the one before it (``ledger.match.linked``). The chain loses
  nothing: an event's hash covers the ``prev_hash`` it was recorded with, so an event changed or
  moved still breaks the chain at the event after it, and one removed leaves a gap in the
  versions, as when the field was stored.
- ``timestamp`` is the instant ``recorded_at`` names (the recorder gives the library that
  instant: ``instant``). It is left out only where the two agree exactly, so a stored event
  whose timestamp differs keeps it.

Events stored before keep both fields and read as they were written. Everything else, and every
other stream (seeds, credentials, annotations, snapshots), is stored as the library stores it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent

from ledger.match import EVENT_NAMES

# the events stored leaner: a match's
_CHAINED = frozenset(EVENT_NAMES)
# the fields a match event declares after ``prev_hash``
_AFTER_PREV_HASH = frozenset({"hash", "commitments"})


def instant(recorded_at: str) -> datetime:
    """The instant a ``recorded_at`` string names (what the library's timestamp is)."""
    return datetime.fromisoformat(recorded_at)


class MatchMapper(Mapper[UUID]):
    """The library's mapper, storing a match's events without ``prev_hash`` and without a
    ``timestamp`` that ``recorded_at`` already says."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        """The stored form of ``domain_event`` (a match's events leaner, see the module): the
        library's own, of a copy of the event without what it leaves out."""
        if type(domain_event) not in _CHAINED:
            return super().to_stored_event(domain_event)
        fields = dict(vars(domain_event))
        fields.pop("prev_hash", None)
        if fields.get("timestamp") == instant(fields["recorded_at"]):
            del fields["timestamp"]
        lean = object.__new__(type(domain_event))
        object.__setattr__(lean, "__dict__", fields)
        return super().to_stored_event(lean)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        """The domain event ``stored_event`` holds. A match event stored without ``prev_hash``
        has it ``None`` until ``ledger.match.linked`` sets it."""
        event = super().to_domain_event(stored_event)
        if type(event) not in _CHAINED:
            return event
        fields = vars(event)
        if "timestamp" not in fields:
            fields["timestamp"] = instant(fields["recorded_at"])
        if "prev_hash" not in fields:
            # in its declared place, before ``hash``, so records keep their field order
            rest = {k: fields.pop(k) for k in list(fields) if k in _AFTER_PREV_HASH}
            fields["prev_hash"] = None
            fields.update(rest)
        return event
