"""audit verify catches tampering with stored rows, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from typing import Any
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

import msgpack
import pytest

from engine import JUDGE, Viewer
from engine.worldgainer.model import WorldGainerState
from ledger import chain
from ledger.chain import event_hash
from ledger.compactrows import stored_stream
from ledger.errors import CorruptRecord, MatchNotFound
from ledger.seedkeeper import secret_id
from ledger.transcoder import stored_fields
from replay import audit
from replay.records import payload_of
from replay.service import Kiroku, transcript_lines

ACTION_TOPIC = "kiroku:ActionRecorded/1"


def _rows(url: str) -> tuple[Callable[[str, tuple[Any, ...]], list[Any]], str]:
    """A query function on the store behind ``url`` and its events table's name."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        conn = sqlite3.connect(parts.path[1:], isolation_level=None)

        def run_sqlite(sql: str, args: tuple[Any, ...]) -> list[Any]:
            return conn.execute(sql.replace("%s", "?"), args).fetchall()

        return run_sqlite, "stored_events"
    import psycopg

    schema = parse_qs(parts.query)["schema"][0]
    pg = psycopg.connect(url.split("?")[0], autocommit=True)

    def run_pg(sql: str, args: tuple[Any, ...]) -> list[Any]:
        cur = pg.execute(sql, args)
        return cur.fetchall() if cur.description else []

    return run_pg, f"{schema}.kiroku_events"


def _key(url: str, match_id: UUID) -> Any:
    """What the store behind ``url`` keys the match's rows by: on SQLite its stream number
    (ledger.compactrows), on PostgreSQL its id."""
    if not url.startswith("sqlite"):
        return match_id
    with closing(sqlite3.connect(urlsplit(url).path[1:])) as con:
        return stored_stream(con, match_id)


def cut_last_event(url: str, match_id: UUID) -> int:
    """Delete the match's last stored event (any storage format); the version left last."""
    run, table = _rows(url)
    key = _key(url, match_id)
    (last,), = run(f"SELECT MAX(originator_version) FROM {table} WHERE originator_id = %s",
                   (key,))
    run(f"DELETE FROM {table} WHERE originator_id = %s AND originator_version = %s",
        (key, last))
    return int(last) - 1


def _decode(blob: bytes) -> dict[str, Any]:
    return stored_fields(bytes(blob))


def _encode(fields: dict[str, Any]) -> bytes:
    return bytes([1]) + msgpack.packb(fields, use_bin_type=True)


def _tamper(url: str, match_id: UUID, version: int,
            change: Callable[[dict[str, Any]], None]) -> None:
    run, table = _rows(url)
    key = _key(url, match_id)
    (blob,), = run(f"SELECT state FROM {table} WHERE originator_id = %s AND "
                   "originator_version = %s", (key, version))
    fields = _decode(blob)
    change(fields)
    run(f"UPDATE {table} SET state = %s WHERE originator_id = %s AND originator_version = %s",
        (_encode(fields), key, version))


@pytest.fixture
def finished(store_url: str) -> tuple[str, UUID]:
    kiroku = Kiroku.open(store_url)
    match_id = kiroku.simulate("worldgainer", 1, seed=21)[0]
    assert kiroku.audit(match_id).ok
    kiroku.close()
    return store_url, match_id


def _audit(url: str, match_id: UUID) -> dict[str, Any]:
    fresh = Kiroku.open(url)  # a new process's view: nothing cached
    try:
        return fresh.audit(match_id).to_dict()
    finally:
        fresh.close()


def test_a_changed_action_is_named_by_version(finished: tuple[str, UUID]) -> None:
    url, match_id = finished
    _tamper(url, match_id, 5, lambda f: f.update(recorded_by="someone else"))
    report = _audit(url, match_id)
    assert not report["ok"]
    assert report["failure"]["version"] == 5 and report["failure"]["reason"] == "hash_mismatch"
    assert report["events"] == 4


def test_a_rehashed_forgery_is_caught_by_re_projection(finished: tuple[str, UUID]) -> None:
    """A forger who recomputes this event's hash still breaks the next event, whose hash
    covers the hash it followed (its ``prev_hash``, linked on read: ledger.mapper)."""
    url, match_id = finished
    store = Kiroku.open(url)
    try:
        records = store.records(store.seen_by(match_id))
    finally:
        store.close()
    target = next(r for r in records if r["event"] == "ActionRecorded" and r["version"] > 3)

    def forge(fields: dict[str, Any]) -> None:
        fields["recorded_by"] = "forger"
        record = {**target, "recorded_by": "forger"}
        fields["hash"] = event_hash("ActionRecorded", match_id, target["version"],
                                    payload_of(record))

    _tamper(url, match_id, target["version"], forge)
    report = _audit(url, match_id)
    assert report["failure"]["version"] == target["version"] + 1
    assert report["failure"]["reason"] == "hash_mismatch"
    assert "the event before it" in report["failure"]["message"]


def test_a_changed_stored_prev_hash_breaks_the_chain(finished: tuple[str, UUID]) -> None:
    """Rows written before prev_hash was derived on read keep theirs, and it is checked."""
    url, match_id = finished
    _tamper(url, match_id, 5, lambda f: f.update(prev_hash="1" * 64))
    report = _audit(url, match_id)
    assert report["failure"]["version"] == 5
    assert report["failure"]["reason"] == "chain_broken"


def test_a_consistently_rehashed_change_of_outcome_fails_the_seed_check() -> None:
    """Even rewriting every later hash cannot hide a changed draw: the seed gives another card,
    and (in a match whose events commit to hidden values) the revealed seed's salts show that the
    recorded draw is not the one committed to when it was recorded."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    match_id = kiroku.simulate("worldgainer", 1, seed=8)[0]
    records = kiroku.records(kiroku.seen_by(match_id))

    def swap_two_opening_draws(created: dict[str, Any]) -> None:
        draws = created["setup_outcomes"]
        i = 0
        j = next(k for k in range(1, 7) if draws[k]["value"] != draws[0]["value"])
        draws[i]["value"], draws[j]["value"] = draws[j]["value"], draws[i]["value"]

    forged = _rechain(records, lambda r: r["event"] == "MatchCreated", swap_two_opening_draws)
    from replay.audit import verify_records

    report = verify_records(forged)
    assert not report.ok and report.failure is not None
    assert report.failure == {**report.failure, "version": 1,
                              "reason": "commitment_mismatch"}
    for record in forged:
        record.pop("commitments", None)  # as a match recorded before commitments
    forged = _rechain(forged, lambda r: False, lambda r: None)
    report = verify_records(forged)
    assert report.failure is not None
    assert report.failure == {**report.failure, "version": 1,
                              "reason": "seed_outcomes_mismatch"}


def test_a_commitment_is_derived_once_by_the_audit_of_a_stored_match(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: reading a stored match derives its commitments from the seed the store holds,
    and the audit held each to the revealed seed by deriving it again. Derived from that very
    seed, it is the same sum: each salt is now made once."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    match_id = kiroku.simulate("worldgainer", 1, seed=8)[0]
    committed = sum(len(r.get("commitments") or {})
                    for r in kiroku.records(kiroku.seen_by(match_id)))
    fresh = Kiroku(kiroku.recorder)
    fresh.recorder.forget_positions()
    salts: list[str] = []
    made = chain.salt

    def counted(seed: bytes, match: Any, version: int, path: str) -> bytes:
        salts.append(f"{version}:{path}")
        return made(seed, match, version, path)

    monkeypatch.setattr(chain, "salt", counted)
    monkeypatch.setattr(audit, "salt", counted)
    report = fresh.audit(match_id)
    assert report.ok, report.failure
    assert committed > 20 and sorted(salts) == sorted(set(salts)) and len(salts) == committed


def test_a_commitment_derived_from_another_seed_is_derived_again() -> None:
    """Only a commitment noted as derived from the revealed seed itself is taken as checked: a
    changed opening draw, noted as derived from some other seed, is still found."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    match_id = kiroku.simulate("worldgainer", 1, seed=8)[0]
    records = kiroku.records(kiroku.seen_by(match_id))

    def swap_two_opening_draws(created: dict[str, Any]) -> None:
        draws = created["setup_outcomes"]
        j = next(k for k in range(1, 7) if draws[k]["value"] != draws[0]["value"])
        draws[0]["value"], draws[j]["value"] = draws[j]["value"], draws[0]["value"]

    forged = _rechain(records, lambda r: r["event"] == "MatchCreated", swap_two_opening_draws)
    noted = {(1, path): b"\x00" * 32 for path in forged[0]["commitments"]}
    report, _ = audit.verify_walked(forged, noted)
    assert (report.failure or {}).get("reason") == "commitment_mismatch"
    seed = bytes.fromhex(next(r["seed"] for r in records if r["event"] == "SeedRevealed"))
    trusted = {(1, path): seed for path in forged[0]["commitments"]}
    # noted as derived from the revealed seed, the commitments are taken as checked (what the
    # note means); the draws re-derived from that seed still find the swap
    report, _ = audit.verify_walked(forged, trusted)
    assert (report.failure or {}).get("reason") == "seed_outcomes_mismatch"


def _rechain(records: list[dict[str, Any]], which: Callable[[dict[str, Any]], bool],
             change: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    import copy

    out = copy.deepcopy(records)
    prev = "0" * 64
    for r in out:
        if which(r):
            change(r)
        r["prev_hash"] = prev
        r["hash"] = event_hash(r["event"], UUID(r["match_id"]), r["version"], payload_of(r))
        prev = r["hash"]
    return out


def test_a_deleted_event_breaks_the_chain(finished: tuple[str, UUID]) -> None:
    url, match_id = finished
    run, table = _rows(url)
    key = _key(url, match_id)
    run(f"DELETE FROM {table} WHERE originator_id = %s AND originator_version = %s", (key, 7))
    report = _audit(url, match_id)
    assert (report["failure"]["version"], report["failure"]["reason"]) == (8, "version_gap")


def test_an_unreadable_row_is_reported(finished: tuple[str, UUID]) -> None:
    url, match_id = finished
    run, table = _rows(url)
    key = _key(url, match_id)
    run(f"UPDATE {table} SET state = %s WHERE originator_id = %s AND originator_version = %s",
        (b"\x01\xc1garbage", key, 3))
    report = _audit(url, match_id)
    assert report["failure"]["version"] == 3 and report["failure"]["reason"] == "unreadable"


def test_audit_of_an_untouched_match_re_derives_seeded_outcomes(finished: tuple[str, UUID]) -> None:
    url, match_id = finished
    report = _audit(url, match_id)
    assert report["ok"] and report["notes"] == [] and report["actions"] > 10


def _worldgainer(kiroku: Kiroku, match_id: UUID) -> WorldGainerState:
    state = kiroku.recorder.get_match(match_id).state
    assert isinstance(state, WorldGainerState)
    return state


def test_transcript_redacts_draws_for_the_opponent() -> None:
    kiroku = Kiroku.open("sqlite:///:memory:")
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1},
                                replay_policy="closed")
    kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="Ann")
    drawn = kiroku.records(kiroku.seen_by(match_id))[-1]["outcomes"][0]["value"]
    name = _worldgainer(kiroku, match_id).cards[drawn].name
    as_ben = kiroku.transcript(kiroku.seen_by(match_id, Viewer.parse("seat:2")))
    as_ann = kiroku.transcript(kiroku.seen_by(match_id, Viewer.parse("seat:1")))
    assert name in as_ben[-1] and name not in as_ann[-1] and "draws a card" in as_ann[-1]
    assert transcript_lines(kiroku.records(kiroku.seen_by(match_id)), JUDGE)[-1] == as_ben[-1]
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="Ann")
    closed = kiroku.transcript(kiroku.seen_by(match_id, Viewer.parse("seat:1")))
    assert name not in closed[1], "closed policy keeps hidden cards hidden after the end"


@pytest.mark.parametrize("garbage", [
    b"\x01\xc1garbage",  # format 1, not msgpack
    b"\x04\xc1garbage",  # format 4, not msgpack
    b"\x04" + msgpack.packb([msgpack.ExtType(9, b"\xff")]),  # a word no version knows
    b"\x07" + msgpack.packb([msgpack.ExtType(40, b"\xff")]),  # an extension no version knows
    b"\x05garbage",  # format 5, does not inflate
])
def test_reading_a_match_with_an_unreadable_row_is_a_clear_error(
        finished: tuple[str, UUID], garbage: bytes) -> None:
    url, match_id = finished
    run, table = _rows(url)
    key = _key(url, match_id)
    opened = Kiroku.open(url)
    last = opened.recorder.get_match(match_id).version  # read after any snapshot
    opened.close()
    run(f"UPDATE {table} SET state = %s WHERE originator_id = %s AND originator_version = %s",
        (garbage, key, last))
    fresh = Kiroku.open(url)
    try:
        with pytest.raises(CorruptRecord) as info:
            fresh.view(fresh.seen_by(match_id, JUDGE), None)
        assert "audit verify" in info.value.message
    finally:
        fresh.close()


def test_an_id_that_is_not_a_match_is_not_found(memory_kiroku: Kiroku) -> None:
    """The seed's own stream has a derivable id; audit must not treat it as a match."""
    match_id = memory_kiroku.simulate("worldgainer", 1, seed=2)[0]
    with pytest.raises(MatchNotFound):
        memory_kiroku.audit(secret_id(match_id))
    with pytest.raises(MatchNotFound):
        memory_kiroku.records(memory_kiroku.seen_by(secret_id(match_id)))


def test_event_records_hide_the_card_of_a_judges_hidden_move() -> None:
    """A hand -> deck adjustment names its card only to that seat and judges, in /events and
    in exports as in transcripts (the zone table decides)."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1},
                                replay_policy="closed")
    card = _worldgainer(kiroku, match_id).player(1).hand[0]
    kiroku.record(match_id, {"type": "adjust", "seat": 1, "reason": "card text: shuffle back",
                             "move": {"card": card, "from_zone": "hand", "to_zone": "deck"}},
                  recorded_by="judge")
    for viewer in ("seat:2", "spectator"):
        record = kiroku.records(kiroku.seen_by(match_id, Viewer.parse(viewer)))[-1]
        assert record["action"]["move"]["card"] is None
        assert record["redacted_for"] == viewer
        exported = kiroku.export(kiroku.seen_by(match_id, Viewer.parse(viewer)),
                                 "jsonl").splitlines()[-1]
        assert card.encode() not in exported
    assert kiroku.records(kiroku.seen_by(match_id, Viewer.parse("seat:1")))[-1]["action"][
        "move"]["card"] == card


def test_a_deleted_seed_reveal_is_a_truncation(finished: tuple[str, UUID]) -> None:
    """Deleting SeedRevealed would skip the seed check: a MatchEnded without it fails."""
    url, match_id = finished
    cut_last_event(url, match_id)
    report = _audit(url, match_id)
    assert report["ok"] is False
    assert report["failure"]["reason"] == "seed_not_revealed"


def test_an_imported_live_match_ends_with_its_seed_withheld(memory_kiroku: Kiroku) -> None:
    """A match imported while on has no seed here: it can still end (a concession), and the
    trail says the seed stays with the store that created it."""
    origin = memory_kiroku
    match_id = origin.new_match("worldgainer", ["A", "B"], ["solar_vanguard", "pleiades_bloom"],
                                options={"first_player": 1})
    other = Kiroku.open("sqlite:///:memory:")
    try:
        other.import_match(origin.export(origin.seen_by(match_id, JUDGE), "jsonl"))
        done = other.record(match_id, {"type": "concede", "seat": 1}, recorded_by="judge")
        assert done.result is not None and done.result["winners"] == [2]
        records = other.records(other.seen_by(match_id))
        assert [r["event"] for r in records[-2:]] == ["MatchEnded", "SeedWithheld"]
        report = other.audit(match_id)
        assert report.ok, report.failure
        assert any("seed withheld" in note for note in report.notes)
        assert "seed not revealed here" in other.transcript(other.seen_by(match_id))[-1]
    finally:
        other.close()
