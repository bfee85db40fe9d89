"""Import under attack (issue 9): a file may only ever create the one match it names, a match
already here is never written into, and every malformed file is ``import_rejected`` with nothing
stored."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID, uuid4

import msgpack
import pytest

from engine import JUDGE
from ledger.chain import event_hash
from ledger.errors import ImportRejected
from ledger.identity import Role
from replay.records import payload_of
from replay.service import MAX_IMPORT_DEPTH, Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]


def _live_match(kiroku: Kiroku, actions: int = 6) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS,
                                options={"first_player": 1}, seed=b"\x07" * 32)
    for _ in range(actions):
        state = kiroku.recorder.get_match(match_id).state
        seat = state.active
        action = kiroku.legal_actions(kiroku.seen_by(match_id), seat)[-1]
        kiroku.record(match_id, action, recorded_by="judge")
    return match_id


def _jsonl(records: list[dict[str, Any]], match_id: str) -> bytes:
    header = {"format": "kiroku-match/1", "match_id": match_id, "game": "worldgainer",
              "viewer": "judge", "events": len(records)}
    return ("\n".join(json.dumps(x) for x in [header, *records]) + "\n").encode()


def _rechain(records: list[dict[str, Any]], match_id: str) -> list[dict[str, Any]]:
    """``records`` moved to ``match_id`` with a hash chain that verifies."""
    prev = "0" * 64
    out = []
    for record in records:
        moved = {**record, "match_id": match_id, "prev_hash": prev}
        moved["hash"] = prev = event_hash(moved["event"], UUID(match_id), moved["version"],
                                          payload_of(moved))
        out.append(moved)
    return out


def test_an_export_cannot_append_to_another_match(memory_kiroku: Kiroku) -> None:
    """The attack of issue 9: the victim's history re-chained under a new id, then one record
    of the victim's own at its next version."""
    kiroku = memory_kiroku
    victim = _live_match(kiroku)
    history = kiroku.records(kiroku.seen_by(victim, JUDGE))
    before = len(history)
    fresh = str(uuid4())
    forged = _rechain(history, fresh)
    extra = {**history[-1], "version": before + 1, "seq": history[-1]["seq"] + 1,
             "recorded_by": "head judge", "prev_hash": forged[-1]["hash"]}
    extra["hash"] = event_hash(extra["event"], victim, extra["version"], payload_of(extra))
    with pytest.raises(ImportRejected) as refused:
        kiroku.import_match(_jsonl([*forged, extra], fresh))
    assert refused.value.details["failure"]["reason"] == "foreign_record"
    assert len(kiroku.records(kiroku.seen_by(victim, JUDGE))) == before
    assert UUID(fresh) not in {m.match_id for m in kiroku.list_matches()}


def test_a_match_already_here_is_never_written_into(memory_kiroku: Kiroku) -> None:
    kiroku = memory_kiroku
    match_id = _live_match(kiroku, actions=2)
    early = kiroku.export(kiroku.seen_by(match_id, JUDGE), "jsonl")
    seat = kiroku.recorder.get_match(match_id).state.active
    kiroku.record(match_id, kiroku.legal_actions(kiroku.seen_by(match_id), seat)[-1],
                  recorded_by="judge")
    now = kiroku.export(kiroku.seen_by(match_id, JUDGE), "jsonl")
    # (an export's header is signed at the second)
    stored = kiroku.records(kiroku.seen_by(match_id, JUDGE))
    with pytest.raises(ImportRejected, match="already stored here with other events"):
        kiroku.import_match(early)
    assert kiroku.records(kiroku.seen_by(match_id, JUDGE)) == stored
    same = kiroku.import_match(now)
    assert (same.match_id, same.stored) == (match_id, False)
    assert kiroku.records(kiroku.seen_by(match_id, JUDGE)) == stored


def test_an_id_of_another_kind_of_stream_is_refused(memory_kiroku: Kiroku) -> None:
    kiroku = memory_kiroku
    match_id = _live_match(kiroku, actions=1)
    identity, _ = kiroku.credentials.issue(Role.JUDGE, "Judge", issued_by="test")
    records = _rechain(kiroku.records(kiroku.seen_by(match_id, JUDGE)), str(identity.credential_id))
    with pytest.raises(ImportRejected, match="not a match id"):
        kiroku.import_match(_jsonl(records, str(identity.credential_id)))


def _one_record_changed(kiroku: Kiroku, change: Any) -> bytes:
    """A fresh match's export, re-chained under a new id after ``change(records)``."""
    match_id = _live_match(kiroku, actions=2)
    records = kiroku.records(kiroku.seen_by(match_id, JUDGE))
    change(records)
    fresh = str(uuid4())
    return _jsonl(_rechain(records, fresh), fresh)


@pytest.mark.parametrize("case", ["deep", "timestamp", "extra_field", "header_mismatch",
                                  "not_utf8", "deep_msgpack", "bad_config",
                                  "commitment_as_stored", "commitment_not_hex"])
def test_every_malformed_file_is_import_rejected(memory_kiroku: Kiroku, case: str) -> None:
    kiroku = memory_kiroku
    if case == "deep":
        data = b'{"format": "kiroku-match/1"}\n' + b"[" * 100_000 + b"]" * 100_000
    elif case == "timestamp":
        data = _one_record_changed(kiroku, lambda rs: rs[1].update(recorded_at="yesterday"))
    elif case == "extra_field":
        data = _one_record_changed(kiroku, lambda rs: rs[1].update(surprise=1))
    elif case == "header_mismatch":
        records = kiroku.records(kiroku.seen_by(_live_match(kiroku, actions=1), JUDGE))
        data = _jsonl(records, str(uuid4()))
    elif case == "not_utf8":
        data = b'{"format": "kiroku-match/1"}\n\xff\xfe'
    elif case == "deep_msgpack":
        nested: Any = 1
        for _ in range(MAX_IMPORT_DEPTH + 5):
            nested = [nested]
        data = msgpack.packb({"format": "kiroku-match/1", "records": nested})
    elif case == "commitment_as_stored":  # the form a store keeps a derived one in
        data = _one_record_changed(kiroku, lambda rs: rs[0].update(
            commitments=dict.fromkeys(rs[0]["commitments"], [1, "0011223344556677"])))
    elif case == "commitment_not_hex":
        data = _one_record_changed(kiroku, lambda rs: rs[0].update(
            commitments=dict.fromkeys(rs[0]["commitments"], "z" * 64)))
    else:
        data = _one_record_changed(kiroku, lambda rs: rs[0].update(config={"players": 3},
                                                                   commitments={}))
    matches = len(kiroku.list_matches())
    with pytest.raises(ImportRejected):
        kiroku.import_match(data)
    assert len(kiroku.list_matches()) == matches
