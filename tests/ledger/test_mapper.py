"""A match's events are stored without ``prev_hash``, the library's ``timestamp`` and whole
commitments that its seed derives (ledger.mapper), and read back with all three, the chain
unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest

from engine import JUDGE
from ledger.chain import GENESIS, first_break
from ledger.compactrows import stored_topic
from ledger.errors import CorruptRecord
from ledger.mapper import CHECK_BYTES, MatchMapper, instant
from ledger.match import Match, linked
from ledger.transcoder import MsgpackTranscoder
from replay.service import Kiroku
from tests.replay.test_audit import _key, _rows, _tamper
from tests.replay.test_reopen import _conceded, _reopen, _turns

RECORDED_AT = "2026-11-22T01:02:03.000004+00:00"


@pytest.fixture
def played(tmp_path: Path) -> tuple[UUID, str]:
    """A finished World Gainer match on an SQLite file: its id and the store's URL."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    kiroku = Kiroku.open(url)
    (match_id,) = kiroku.simulate("worldgainer", 1, seed=5)
    kiroku.close()
    return match_id, url


@contextmanager
def _fresh(url: str) -> Iterator[Kiroku]:
    """The store read by a new service: nothing cached, as another process reads it."""
    kiroku = Kiroku.open(url)
    try:
        yield kiroku
    finally:
        kiroku.close()


def test_stored_events_hold_neither_prev_hash_nor_timestamp(store_url: str) -> None:
    with _fresh(store_url) as kiroku:
        (match_id,) = kiroku.simulate("worldgainer", 1, seed=5)
    run, table = _rows(store_url)
    key = _key(store_url, match_id)
    rows = run(f"SELECT state FROM {table} WHERE originator_id = %s "
               "ORDER BY originator_version", (key,))
    stored = [MsgpackTranscoder().decode(bytes(row[0])) for row in rows]
    assert len(stored) > 10
    assert all("prev_hash" not in fields and "timestamp" not in fields for fields in stored)
    assert all("hash" in fields and "recorded_at" in fields for fields in stored)


def test_records_link_each_event_to_the_hash_before_it(played: tuple[UUID, str]) -> None:
    match_id, url = played
    with _fresh(url) as kiroku:
        records = kiroku.records(kiroku.seen_by(match_id))
        assert kiroku.audit(match_id).ok
    assert records[0]["prev_hash"] == GENESIS
    assert all(later["prev_hash"] == earlier["hash"]
               for earlier, later in zip(records, records[1:], strict=False))
    assert first_break(records) is None


def test_records_keep_their_field_order(played: tuple[UUID, str]) -> None:
    """``prev_hash`` comes back in its place, before ``hash``, as when it was stored."""
    match_id, url = played
    with _fresh(url) as kiroku:
        action = next(r for r in kiroku.records(kiroku.seen_by(match_id))
                      if r["event"] == "ActionRecorded")
    keys = list(action)
    assert keys.index("prev_hash") == keys.index("hash") - 1
    assert keys.index("prev_hash") == keys.index("recorded_at") + 1


def test_the_library_timestamp_is_the_instant_recorded_at_names(
        played: tuple[UUID, str]) -> None:
    match_id, url = played
    with _fresh(url) as kiroku:
        events = kiroku.recorder.stored_events(match_id)
        match = kiroku.recorder.get_match(match_id)
    assert all(e.timestamp == instant(e.recorded_at) for e in events)
    assert match.modified_on == instant(events[-1].recorded_at)


def _created(timestamp: datetime) -> Match.Created:
    return Match.Created(
        originator_id=uuid4(), originator_version=1, timestamp=timestamp,
        originator_topic="kiroku:Match", game="worldgainer", ruleset_version="1",
        config={}, replay_policy="open", commitment="c", setup_outcomes=[],
        chance_source="seed", digest="d", recorded_by="someone", recorded_at=RECORDED_AT,
        prev_hash=GENESIS, hash="h", commitments={})


def test_a_timestamp_that_differs_from_recorded_at_is_kept() -> None:
    mapper = MatchMapper(MsgpackTranscoder())
    other = datetime(2026, 11, 22, 1, 2, 3, 999, tzinfo=UTC)
    back = mapper.to_domain_event(mapper.to_stored_event(_created(other)))
    assert back.timestamp == other
    same = mapper.to_domain_event(mapper.to_stored_event(_created(instant(RECORDED_AT))))
    assert same.timestamp == instant(RECORDED_AT)


def test_an_event_read_alone_has_no_prev_hash_until_linked() -> None:
    mapper = MatchMapper(MsgpackTranscoder())
    event = mapper.to_domain_event(mapper.to_stored_event(_created(instant(RECORDED_AT))))
    assert event.prev_hash is None
    assert linked([event])[0].prev_hash == GENESIS


def test_only_a_match_from_its_first_event_is_linked(played: tuple[UUID, str]) -> None:
    match_id, url = played
    with _fresh(url) as kiroku:
        later = list(kiroku.recorder.events.get(match_id, gt=1))
    with pytest.raises(ValueError, match="first event"):
        linked(later)


def test_a_stored_prev_hash_is_read_as_it_was_written() -> None:
    """Events stored before ledger.mapper keep their ``prev_hash``: linking never replaces
    it, so a changed one is still found by the audit (tests/replay/test_audit.py)."""
    mapper = MatchMapper(MsgpackTranscoder())
    stored = mapper.to_stored_event(_created(instant(RECORDED_AT)))
    fields = MsgpackTranscoder().decode(stored.state)
    fields["prev_hash"] = "1" * 64
    old = type(stored)(originator_id=stored.originator_id, originator_version=1,
                       topic=stored.topic, state=MsgpackTranscoder().encode(fields))
    assert linked([mapper.to_domain_event(old)])[0].prev_hash == "1" * 64


# ----- commitments derived from the seed (issue 16, storage format 3) -------------------------
def _stored(url: str, match_id: UUID) -> list[dict[str, Any]]:
    """The stored fields of the match's events, in order, as the store holds them."""
    run, table = _rows(url)
    key = _key(url, match_id)
    rows = run(f"SELECT state FROM {table} WHERE originator_id = %s "
               "ORDER BY originator_version", (key,))
    return [MsgpackTranscoder().decode(bytes(row[0])) for row in rows]


def _live(kiroku: Kiroku) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1})
    _turns(kiroku, match_id, 4)  # each draws a card: a hidden value
    return match_id


def test_commitments_are_stored_as_their_seed_and_a_check_and_read_back_whole(
        store_url: str) -> None:
    with _fresh(store_url) as kiroku:
        (match_id,) = kiroku.simulate("worldgainer", 1, seed=5)
    committed = [f["commitments"] for f in _stored(store_url, match_id) if f.get("commitments")]
    assert len(committed) > 10  # the creation's deck lists and cards, and every draw
    assert all(segment == 1 and len(check) == CHECK_BYTES
               for stored in committed for segment, check in stored.values())
    with _fresh(store_url) as kiroku:
        shown = [r["commitments"] for r in kiroku.records(kiroku.seen_by(match_id))
                 if r.get("commitments")]
        report = kiroku.audit(match_id)
    assert [list(c) for c in shown] == [list(c) for c in committed]
    assert all(bytes.fromhex(whole)[:CHECK_BYTES] == stored[path][1]
               for whole_map, stored in zip(shown, committed, strict=True)
               for path, whole in whole_map.items())
    # the hash covers the whole commitments, and after the reveal the audit checks each one
    # against the seed: what is read back is what was recorded
    assert report.ok, report.to_dict()


def test_recording_stores_commitments_derivable_without_deriving_them_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorder has just derived an event's commitments from its segment's seed, and says
    so (``Sealer.sealed``): storing the event does not derive them again to find the segment."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    searched: list[int] = []
    search = MatchMapper._deriving_segment

    def spy(mapper: MatchMapper, match_id: UUID, version: int, fields: Any) -> Any:
        searched.append(version)
        return search(mapper, match_id, version, fields)

    monkeypatch.setattr(MatchMapper, "_deriving_segment", spy)
    with _fresh(url) as kiroku:
        match_id = _conceded(kiroku)  # a creation and four draws from the seed
    committed = [f["commitments"] for f in _stored(url, match_id) if f.get("commitments")]
    assert len(committed) == 5
    assert all(segment == 1 for stored in committed for segment, _ in stored.values())
    assert searched == []
    with _fresh(url) as kiroku:
        assert kiroku.audit(match_id).ok
    assert searched == []  # reading derives each commitment from its stored segment


def test_an_event_saved_outside_a_command_finds_its_segment_by_deriving(
        tmp_path: Path) -> None:
    """Without the recorder's note, the mapper tries each segment's seed, as before: a note
    is never needed for an event to be stored derivable."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    with _fresh(url) as kiroku:
        match_id = _conceded(kiroku)
        recorder = kiroku.recorder
        drawn = next(e for e in recorder.events.get(match_id)
                     if e.originator_version > 1 and getattr(e, "commitments", None))
        stored = recorder.mapper.to_stored_event(drawn)  # no command: no note
    fields = MsgpackTranscoder().decode(stored.state)
    assert {segment for segment, _ in fields["commitments"].values()} == {1}


def test_a_reopened_match_derives_its_later_commitments_from_its_new_seed(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    with _fresh(url) as kiroku:
        match_id = _conceded(kiroku)
        _reopen(kiroku, match_id)
        _turns(kiroku, match_id, 2, first=1)
    stored = _stored(url, match_id)
    segments = [segment for fields in stored if fields.get("commitments")
                for segment, _ in fields["commitments"].values()]
    assert segments[-2:] == [2, 2] and set(segments[:-2]) == {1}
    with _fresh(url) as kiroku:
        assert kiroku.audit(match_id).ok


def test_commitments_no_seed_here_derives_are_stored_whole(tmp_path: Path) -> None:
    with _fresh("sqlite:///:memory:") as origin:
        exported = origin.export(origin.seen_by(_live(origin), JUDGE), "jsonl")
    url = f"sqlite:///{tmp_path / 'k.db'}"
    with _fresh(url) as kiroku:  # imported while on: the seed stays where it was created
        imported = kiroku.import_match(exported).match_id
    committed = [f["commitments"] for f in _stored(url, imported) if f.get("commitments")]
    assert committed and all(type(c) is str and len(c) == 64
                             for stored in committed for c in stored.values())
    with _fresh(url) as kiroku:
        assert kiroku.audit(imported).ok


def test_a_hidden_value_changed_in_the_store_no_longer_reads(store_url: str) -> None:
    """Even with the chain rebuilt around the commitment a server derives for the new value,
    the forged value does not begin with the check stored when it was recorded."""
    with _fresh(store_url) as kiroku:
        match_id = _live(kiroku)
        drawn = next(r for r in kiroku.records(kiroku.seen_by(match_id))
                     if r["event"] == "ActionRecorded")
        seat = drawn["outcomes"][0]["seat"]
        deck = kiroku.recorder.get_match(match_id).state.player(seat).deck  # type: ignore[attr-defined]
    version, card = drawn["version"], drawn["outcomes"][0]["value"]
    other = next(c for c in deck if c != card)  # a draw the rules would have allowed
    _tamper(store_url, match_id, version,
            lambda fields: fields["outcomes"][0].update(value=other))
    with _fresh(store_url) as kiroku:
        report = kiroku.audit(match_id).to_dict()
        with pytest.raises(CorruptRecord):
            kiroku.records(kiroku.seen_by(match_id))
    assert not report["ok"] and report["failure"]["version"] == version
    assert "not the one committed to" in report["failure"]["message"]


def test_an_event_whose_seed_is_gone_is_a_corrupt_record(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    with _fresh(url) as kiroku:
        match_id = _live(kiroku)
    run, table = _rows(url)
    sealed = "kiroku:SeedSealed/1"
    run(f"DELETE FROM {table} WHERE topic = %s",
        (stored_topic(sealed) if url.startswith("sqlite") else sealed,))
    with _fresh(url) as kiroku:
        with pytest.raises(CorruptRecord, match="which this store does not hold"):
            kiroku.records(kiroku.seen_by(match_id))
        report = kiroku.audit(match_id).to_dict()
    assert report["failure"]["version"] == 1 and report["failure"]["reason"] == "unreadable"


def test_an_event_whose_topic_this_build_does_not_know_is_a_corrupt_record(
        store_url: str) -> None:
    """A later build's topic (a code ``ROW_TOPICS`` does not hold yet, on SQLite) or a
    changed row: every read answers CorruptRecord, the audit names the event."""
    with _fresh(store_url) as kiroku:
        match_id = _live(kiroku)
    sqlite = store_url.startswith("sqlite")
    run, table = _rows(store_url)
    run(f"UPDATE {table} SET topic = %s WHERE originator_id = %s AND originator_version = 3",
        ("999" if sqlite else "kiroku:ActionRecorded/9", _key(store_url, match_id)))
    with _fresh(store_url) as kiroku:
        for read in (lambda: kiroku.records(kiroku.seen_by(match_id)),
                     lambda: kiroku.view(kiroku.seen_by(match_id, JUDGE), None),
                     lambda: kiroku.transcript(kiroku.seen_by(match_id))):
            with pytest.raises(CorruptRecord, match="none this build of Kiroku knows"):
                read()
        report = kiroku.audit(match_id).to_dict()
    assert report["failure"]["version"] == 3 and report["failure"]["reason"] == "unreadable"


@pytest.mark.parametrize("stored", [[1], [1, "x" * 8], [0, b"12345678"], [1, b"1234"]],
                         ids=["short", "text check", "segment 0", "short check"])
def test_a_derived_commitment_in_another_form_is_a_corrupt_record(tmp_path: Path,
                                                                    stored: Any) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    with _fresh(url) as kiroku:
        match_id = _live(kiroku)
    version = next(v for v, fields in enumerate(_stored(url, match_id), start=1)
                   if v > 1 and fields.get("commitments"))

    _tamper(url, match_id, version,
            lambda fields: fields.update(commitments=dict.fromkeys(fields["commitments"],
                                                                   stored)))
    with _fresh(url) as kiroku:
        with pytest.raises(CorruptRecord):
            kiroku.records(kiroku.seen_by(match_id))
        report = kiroku.audit(match_id).to_dict()
    assert report["failure"]["version"] == version


def test_whole_and_derived_commitments_of_one_event_both_read(tmp_path: Path) -> None:
    """A creation's commitments, one stored whole and the others derived, read back as
    recorded; one in neither form makes the event a corrupt record."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    with _fresh(url) as kiroku:
        match_id = _live(kiroku)
        whole = kiroku.records(kiroku.seen_by(match_id))[0]["commitments"]
    first, second, *_ = whole

    def one_whole(fields: dict[str, Any]) -> None:
        fields["commitments"][first] = whole[first]

    _tamper(url, match_id, 1, one_whole)
    with _fresh(url) as kiroku:
        assert kiroku.records(kiroku.seen_by(match_id))[0]["commitments"] == whole
        assert kiroku.audit(match_id).ok
    _tamper(url, match_id, 1, lambda fields: fields["commitments"].update({second: 7}))
    with _fresh(url) as kiroku:
        with pytest.raises(CorruptRecord, match="in no form"):
            kiroku.records(kiroku.seen_by(match_id))
