"""Events as plain records, and the per-viewer filter every output channel goes through.

A record is ``{"event": name, "match_id", "version", **payload}`` where the payload holds every
field the event carries, ``prev_hash`` and ``hash`` included (the hash covers all of it but the
hash itself; the library's unhashed ``timestamp`` is never shown, and an export's is ignored).
Records are what the HTTP API lists, what exports contain and what the audit verifies.
"""

from __future__ import annotations

from typing import Any

from ledger.chain import hashed_payload
from ledger.match import EVENT_NAMES, Match
from ledger.match import to_record as to_record  # re-exported: a domain event as a record
from ledger.visibility import redact as redact  # re-exported: the per-viewer filter

NAME_TO_CLASS = {name: cls for cls, name in EVENT_NAMES.items()}


def payload_of(record: dict[str, Any]) -> dict[str, Any]:
    """The hashed part of a record (see ledger.chain.hashed_payload)."""
    return hashed_payload(record)


def is_match_event(event: Any) -> bool:
    """Whether a domain event belongs to a Match stream."""
    return type(event) in EVENT_NAMES and isinstance(event, Match.Event | Match.Created)
