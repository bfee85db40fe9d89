"""The event hash and the salts (ledger.chain) give the bytes of their defining formulas, whether
the match id is given as a UUID or as its text."""

from __future__ import annotations

import hashlib
import hmac
from collections import OrderedDict
from typing import Any
from uuid import UUID

import pytest

from engine.core.data import canonical_bytes
from ledger.chain import event_hash, hashed_payload, salt
from replay.service import parse_export
from tests.golden.record import GOLDEN_DIR


def _defined_hash(name: str, match_id: UUID, version: int, payload: dict[str, Any]) -> str:
    """The event hash as the chain defines it: SHA-256 of the canonical msgpack of the body."""
    body = {"event": name, "match": str(match_id), "version": version, "payload": dict(payload)}
    return hashlib.sha256(canonical_bytes(body)).hexdigest()


RECORDS = [r for path in sorted(GOLDEN_DIR.glob("*/*/match.jsonl"))
           for r in parse_export(path.read_bytes())[1]]


@pytest.mark.parametrize("game", sorted({str(r["game"]) for r in RECORDS if "game" in r}))
def test_every_golden_event_hashes_as_defined_and_as_recorded(game: str) -> None:
    ids = {r["match_id"] for r in RECORDS if r.get("game") == game}
    records = [r for r in RECORDS if r["match_id"] in ids]
    for record in records:
        match_id = UUID(record["match_id"])
        payload = hashed_payload(record)
        expected = _defined_hash(record["event"], match_id, record["version"], payload)
        assert event_hash(record["event"], match_id, record["version"], payload) == expected
        assert event_hash(record["event"], str(match_id), record["version"],
                          payload) == expected
        assert expected == record["hash"]


def test_a_payload_given_as_another_mapping_hashes_as_its_dict() -> None:
    match_id = UUID(int=7)
    payload = OrderedDict([("seq", 1), ("action", {"type": "end_turn", "seat": 1})])
    assert event_hash("ActionRecorded", match_id, 2, payload) == _defined_hash(
        "ActionRecorded", match_id, 2, dict(payload))


def test_a_salt_is_the_same_from_the_uuid_or_its_text() -> None:
    seed, match_id = b"s" * 32, UUID(int=7)
    expected = hmac.new(seed, f"kiroku-commitment|{match_id}|3|outcomes.0.value".encode(),
                        hashlib.sha256).digest()
    assert salt(seed, match_id, 3, "outcomes.0.value") == expected
    assert salt(seed, str(match_id), 3, "outcomes.0.value") == expected
