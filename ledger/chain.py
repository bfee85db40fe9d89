"""The hash chain over a match's events (tamper evidence).

Each event stores ``prev_hash`` (the previous event's ``hash``; 64 zeros for the first) and its own
``hash`` = SHA-256 of the canonical msgpack of {event name, match id, version, payload}, where the
payload is every field the event carries except ``hash`` itself. Changing any stored byte of
meaning, or removing or reordering an event, breaks the chain at that event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from engine.core.data import canonical_bytes

GENESIS = "0" * 64


def event_hash(name: str, match_id: UUID, version: int, payload: Mapping[str, Any]) -> str:
    """The hash of one event; ``payload`` must include ``prev_hash`` and exclude ``hash``."""
    body = {"event": name, "match": str(match_id), "version": version, "payload": dict(payload)}
    return hashlib.sha256(canonical_bytes(body)).hexdigest()
