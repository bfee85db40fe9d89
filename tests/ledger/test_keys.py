"""The deployment's keys (issue 9): seeds sealed at rest, and signed receipts that catch the
truncations and rewrites a database writer could otherwise hide from the audit."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack
import pytest
from click.testing import CliRunner

from cli.main import main
from engine import JUDGE
from engine.core.errors import ActionError
from ledger.chain import event_hash
from ledger.compactrows import stored_stream, stored_topic
from ledger.errors import ImportRejected
from ledger.keys import KeyfileError, Keyring, verify_receipt
from ledger.transcoder import stored_fields
from replay.records import payload_of
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]
SEED = b"\x05" * 32


def _record(kiroku: Kiroku, count: int) -> tuple[UUID, list[dict[str, Any]]]:
    match_id = kiroku.new_match("worldgainer", ["A", "B"], DECKS, options={"first_player": 1},
                                seed=SEED)
    receipts = [kiroku.recorder.receipt(match_id)]
    for _ in range(count):
        seat = kiroku.recorder.get_match(match_id).state.active
        done = kiroku.record(match_id, kiroku.legal_actions(kiroku.seen_by(match_id), seat)[-1],
                             recorded_by="judge")
        receipts.append(done.receipt)
    return match_id, receipts


def _rows(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path)


def _decode(blob: bytes) -> dict[str, Any]:
    return stored_fields(blob)


# ----- seeds at rest ------------------------------------------------------------------------
def test_the_seed_is_sealed_in_the_database(tmp_path: Path) -> None:
    kiroku = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    _record(kiroku, 1)
    kiroku.close()
    with _rows(tmp_path / "k.db") as con:
        blobs = [b for (b,) in con.execute("SELECT state FROM stored_events WHERE topic = ?",
                                           (stored_topic("kiroku:SeedSealed/1"),))]
        everything = b"".join(bytes(b) for (b,) in con.execute("SELECT state FROM stored_events"))
    assert len(blobs) == 1
    assert _decode(blobs[0])["sealed"] is True
    assert SEED.hex().encode() not in everything and SEED not in everything


def test_the_key_file_is_private_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "k.db.keys"
    first = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    key = first.recorder.keyring.public_key
    first.close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    assert again.recorder.keyring.public_key == key
    again.close()


def test_another_key_file_cannot_open_the_seed(tmp_path: Path) -> None:
    kiroku = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    match_id, _ = _record(kiroku, 1)
    kiroku.close()
    stranger = Kiroku.open(f"sqlite:///{tmp_path}/k.db", keys=str(tmp_path / "other.keys"))
    try:
        with pytest.raises(KeyfileError):
            seat = stranger.recorder.get_match(match_id).state.active
            stranger.record(match_id, stranger.legal_actions(stranger.seen_by(match_id), seat)[-1],
                            recorded_by="judge")
    finally:
        stranger.close()


def test_another_key_file_still_reads_and_audits_an_ended_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its events' commitments are derived from the seed its own events revealed
    (ledger.mapper), looked up once: the key file is not needed once a match is over."""
    kiroku = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    (match_id,) = kiroku.simulate("worldgainer", 1, seed=3)
    records = kiroku.records(kiroku.seen_by(match_id))
    kiroku.close()
    stranger = Kiroku.open(f"sqlite:///{tmp_path}/k.db", keys=str(tmp_path / "other.keys"))
    looked_up: list[int] = []
    original = stranger.recorder.seeds._revealed

    def counting(match: UUID, segment: int) -> bytes | None:
        looked_up.append(segment)
        return original(match, segment)

    monkeypatch.setattr(stranger.recorder.seeds, "_revealed", counting)
    try:
        assert stranger.records(stranger.seen_by(match_id)) == records
        assert stranger.audit(match_id).ok
    finally:
        stranger.close()
    assert looked_up == [1]


def test_another_key_file_shows_a_live_match_but_not_its_commitments(tmp_path: Path) -> None:
    """Loading a match or its transcript derives no commitment, so both still show; its
    records, whose commitments only the sealed seed derives while it is on, are a clear
    error."""
    kiroku = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    match_id, _ = _record(kiroku, 3)
    view = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)
    kiroku.close()
    stranger = Kiroku.open(f"sqlite:///{tmp_path}/k.db", keys=str(tmp_path / "other.keys"))
    try:
        assert stranger.view(stranger.seen_by(match_id, JUDGE), None) == view
        # creation and three actions
        assert len(stranger.transcript(stranger.seen_by(match_id))) == 4
        with pytest.raises(KeyfileError, match="another key file"):
            stranger.records(stranger.seen_by(match_id))
        with pytest.raises(KeyfileError):  # the server's keys, not a finding against the match
            stranger.audit(match_id)
    finally:
        stranger.close()


def test_a_damaged_key_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "bad.keys").write_text("{not json")
    with pytest.raises(KeyfileError, match="cannot be read"):
        Keyring.at(tmp_path / "bad.keys")


# ----- receipts -----------------------------------------------------------------------------
def test_every_append_returns_a_receipt_that_verifies(memory_kiroku: Kiroku) -> None:
    match_id, receipts = _record(memory_kiroku, 3)
    key = memory_kiroku.recorder.keyring.public_key
    records = memory_kiroku.records(memory_kiroku.seen_by(match_id))
    for receipt in receipts:
        assert verify_receipt(receipt, key)
        assert records[receipt["version"] - 1]["hash"] == receipt["head"]
    forged = {**receipts[-1], "version": receipts[-1]["version"] + 1}
    assert not verify_receipt(forged, key)
    assert not verify_receipt(receipts[-1], Keyring.ephemeral().public_key)


def test_a_receipt_asked_for_later_signs_its_own_action_not_the_latest(
        memory_kiroku: Kiroku) -> None:
    """Receipts are signed when first read (ledger.recorder.Recorded): one read after more
    actions were recorded still signs the head its own action left, and reads the same
    twice."""
    match_id, _ = _record(memory_kiroku, 0)
    done = []
    for _ in range(3):
        seat = memory_kiroku.recorder.get_match(match_id).state.active
        done.append(memory_kiroku.record(match_id, memory_kiroku.legal_actions(
            memory_kiroku.seen_by(match_id), seat)[-1], recorded_by="judge"))
    assert all("receipt" not in vars(d) for d in done)  # none signed yet
    first = done[0].receipt
    records = memory_kiroku.records(memory_kiroku.seen_by(match_id))
    assert first["version"] == done[0].version < records[-1]["version"]
    assert first["head"] == records[done[0].version - 1]["hash"]
    assert verify_receipt(first, memory_kiroku.recorder.keyring.public_key)
    assert done[0].receipt is first
    assert memory_kiroku.audit(match_id, [first]).ok


def _delete_from(path: Path, match_id: UUID, version: int) -> None:
    with _rows(path) as con:
        con.execute("DELETE FROM stored_events WHERE originator_id = ? AND "
                    "originator_version >= ?", (stored_stream(con, match_id), version))


def test_a_truncated_live_match_passes_the_audit_alone_but_not_with_a_receipt(
        tmp_path: Path) -> None:
    kiroku = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    match_id, receipts = _record(kiroku, 5)
    kiroku.close()
    _delete_from(tmp_path / "k.db", match_id, 6)  # the last event, as issue 9 found
    fresh = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    try:
        assert fresh.audit(match_id).ok, "what the audit cannot see without receipts"
        report = fresh.audit(match_id, receipts)
        assert not report.ok and report.failure is not None
        assert report.failure["reason"] == "truncated"
        assert fresh.audit(match_id, receipts[:-1]).ok  # the receipts up to what is left
    finally:
        fresh.close()


def test_a_rewritten_and_rechained_event_is_caught_by_a_receipt(tmp_path: Path) -> None:
    kiroku = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    match_id, receipts = _record(kiroku, 4)
    record = {**kiroku.records(kiroku.seen_by(match_id))[4], "recorded_by": "someone else"}
    kiroku.close()
    with _rows(tmp_path / "k.db") as con:
        (blob,), = con.execute("SELECT state FROM stored_events WHERE originator_id = ? AND "
                               "originator_version = 5", (stored_stream(con, match_id),))
        fields = _decode(bytes(blob))
        fields["recorded_by"] = record["recorded_by"]
        fields["hash"] = event_hash("ActionRecorded", match_id, 5, payload_of(record))
        con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND "
                    "originator_version = 5",
                    (bytes([1]) + msgpack.packb(fields, use_bin_type=True),
                     stored_stream(con, match_id)))
    fresh = Kiroku.open(f"sqlite:///{tmp_path}/k.db")
    try:
        assert fresh.audit(match_id).ok, "a consistent rewrite of the last event"
        report = fresh.audit(match_id, receipts)
        assert report.failure is not None and report.failure["reason"] == "rewritten"
    finally:
        fresh.close()


def test_an_export_cut_short_is_refused_by_its_own_receipt(memory_kiroku: Kiroku) -> None:
    match_id, _ = _record(memory_kiroku, 4)
    lines = memory_kiroku.export(memory_kiroku.seen_by(match_id, JUDGE),
                                 "jsonl").decode().splitlines()
    header = json.loads(lines[0])
    assert header["receipt"]["version"] == len(lines) - 1
    other = Kiroku.open("sqlite:///:memory:")
    try:
        with pytest.raises(ImportRejected) as refused:
            other.import_match(("\n".join(lines[:-1]) + "\n").encode())
        assert refused.value.details["failure"]["reason"] == "truncated"
        assert other.import_match(("\n".join(lines) + "\n").encode()).stored
    finally:
        other.close()


def test_the_command_line_checks_receipts(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/k.db"
    kiroku = Kiroku.open(db)
    match_id, receipts = _record(kiroku, 3)
    kiroku.close()
    kept = tmp_path / "receipts.jsonl"
    kept.write_text("\n".join(json.dumps(r) for r in receipts) + "\n")
    ok = CliRunner().invoke(main, ["--db", db, "audit", "verify", str(match_id),
                                   "--receipts", str(kept)])
    assert ok.exit_code == 0 and "signed receipt(s) checked" in ok.output, ok.output
    _delete_from(tmp_path / "k.db", match_id, 4)
    cut = CliRunner().invoke(main, ["--db", db, "audit", "verify", str(match_id),
                                    "--receipts", str(kept)])
    assert cut.exit_code == 1 and "truncated" in cut.output, cut.output


def test_an_action_error_is_not_a_receipt(memory_kiroku: Kiroku) -> None:
    match_id, _ = _record(memory_kiroku, 1)
    version = memory_kiroku.recorder.get_match(match_id).version
    with pytest.raises(ActionError):
        memory_kiroku.record(match_id, {"type": "end_turn", "seat": 9}, recorded_by="judge")
    assert memory_kiroku.recorder.receipt(match_id)["version"] == version
