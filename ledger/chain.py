"""The hash chain over a match's events (tamper evidence), with salted commitments.

Each event carries ``prev_hash`` (the previous event's ``hash``; 64 zeros for the first; derived
on read, not stored: ledger.mapper) and its own ``hash`` = SHA-256 of the canonical msgpack of
{event name, match id, version, payload}, where the payload is every field the event carries
except ``hash`` itself. Changing any stored byte of meaning, or removing or reordering an event,
breaks the chain at that event or the next.

Values some viewer may not see (a drawn card, another seat's deck list, a card discarded face
down: ``ledger.visibility.hidden_paths``) enter the hash only through salted commitments: the
event stores ``commitments`` = {path: SHA-256(salt || canonical value)}, and the hashed payload
has ``{"commitment": c}`` in place of each such value (and no ``commitments`` field). The salt of
a value is an HMAC of the match's secret seed over the match id, the event version and the path:
nobody can guess a hidden value from the public chain (every candidate would need the salt), and
every viewer can still verify the chain over what it sees, since the commitments are public.
Once the seed is revealed, anyone re-derives the salts and checks each value against its
commitment. Events recorded before commitments existed have none, and hash their plain payload.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from typing import Any
from uuid import UUID

from engine.core.data import canonical, canonical_bytes, canonical_digest

GENESIS = "0" * 64
_ENVELOPE = frozenset({"event", "match_id", "version", "timestamp", "hash", "redacted_for"})


def event_hash(name: str, match_id: UUID | str, version: int,
               payload: Mapping[str, Any]) -> str:
    """The hash of one event; ``payload`` is its hashed payload (see ``hashed_payload``).
    ``match_id`` is the match's UUID or its text, ``str(uuid)`` (a caller hashing many events
    of one match makes that text once)."""
    # canonical({"event", "match", "payload", "version"}) built in its sorted key order
    body = {"event": canonical(name), "match": str(match_id),
            "payload": canonical(payload if type(payload) is dict else dict(payload)),
            "version": canonical(version)}
    return canonical_digest(body)


def salt(seed: bytes, match_id: UUID | str, version: int, path: str) -> bytes:
    """The secret salt of one hidden value, derived from the match's seed; ``match_id`` as in
    ``event_hash``."""
    message = f"kiroku-commitment|{match_id}|{version}|{path}".encode()
    return hmac.new(seed, message, hashlib.sha256).digest()


def commit(salt_bytes: bytes, value: Any) -> str:
    """The public commitment to ``value`` under ``salt_bytes``."""
    return hashlib.sha256(salt_bytes + canonical_bytes(value)).hexdigest()


def commitments(seed: bytes, match_id: UUID | str, version: int, payload: Mapping[str, Any],
                paths: Iterable[str]) -> dict[str, str]:
    """The commitments to the values of ``payload`` at ``paths``; ``match_id`` as in
    ``event_hash``."""
    text = str(match_id)  # once, not for every path (formatting a UUID was a third of a salt)
    return {path: commit(salt(seed, text, version, path), value_at(payload, path))
            for path in paths}


def hashed_payload(record: Mapping[str, Any]) -> dict[str, Any]:
    """What an event's hash covers: the record without its envelope and hash, each committed
    value replaced by ``{"commitment": c}`` and the ``commitments`` field left out. A record
    as any viewer sees it (hidden values ``null``, marked ``redacted``) gives the same payload
    as the full one."""
    payload = {k: v for k, v in record.items() if k not in _ENVELOPE}
    committed = payload.pop("commitments", None) or {}
    if not committed:
        return payload
    for path, c in committed.items():
        payload = _replaced_at(payload, path.split("."), {"commitment": c})
    return payload


def value_at(data: Any, path: str) -> Any:
    """The value at a dotted path (list indexes are numbers)."""
    for key in path.split("."):
        data = data[int(key)] if isinstance(data, list) else data[key]
    return data


def _replaced_at(data: Any, keys: list[str], value: Any) -> Any:
    """A copy of ``data`` with ``value`` at the path ``keys``: only the containers on the path
    are copied, so the record it came from is left as it was."""
    key, rest = keys[0], keys[1:]
    if isinstance(data, list):
        out: Any = list(data)
        index = int(key)
        out[index] = _replaced_at(data[index], rest, value) if rest else value
        return out
    out = dict(data)
    out[key] = _replaced_at(data[key], rest, value) if rest else value
    if not rest:
        out.pop("redacted", None)  # the per-viewer filter's mark beside a hidden value
    return out


def first_break(records: Iterable[Mapping[str, Any]]) -> int | None:
    """The version of the first event whose ``prev_hash`` or ``hash`` does not hold, or None:
    the check any viewer can make over the records it is shown (full or redacted)."""
    prev = GENESIS
    for record in records:
        expected = event_hash(str(record["event"]), UUID(str(record["match_id"])),
                              int(record["version"]), hashed_payload(record))
        if record.get("prev_hash") != prev or record.get("hash") != expected:
            return int(record["version"])
        prev = expected
    return None
