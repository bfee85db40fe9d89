"""A match's events are stored without ``prev_hash`` and the library's ``timestamp``
(ledger.mapper), and read back with both, the chain unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID, uuid4

import pytest

from ledger.chain import GENESIS, first_break
from ledger.mapper import MatchMapper, instant
from ledger.match import Match, linked
from ledger.transcoder import MsgpackTranscoder
from replay.service import Kiroku
from tests.replay.test_audit import _rows

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
    key = match_id.hex if store_url.startswith("sqlite") else match_id
    rows = run(f"SELECT state FROM {table} WHERE originator_id = %s "
               "ORDER BY originator_version", (key,))
    stored = [MsgpackTranscoder().decode(bytes(row[0])) for row in rows]
    assert len(stored) > 10
    assert all("prev_hash" not in fields and "timestamp" not in fields for fields in stored)
    assert all("hash" in fields and "recorded_at" in fields for fields in stored)


def test_records_link_each_event_to_the_hash_before_it(played: tuple[UUID, str]) -> None:
    match_id, url = played
    with _fresh(url) as kiroku:
        records = kiroku.records(match_id)
        assert kiroku.audit(match_id).ok
    assert records[0]["prev_hash"] == GENESIS
    assert all(later["prev_hash"] == earlier["hash"]
               for earlier, later in zip(records, records[1:], strict=False))
    assert first_break(records) is None


def test_records_keep_their_field_order(played: tuple[UUID, str]) -> None:
    """``prev_hash`` comes back in its place, before ``hash``, as when it was stored."""
    match_id, url = played
    with _fresh(url) as kiroku:
        action = next(r for r in kiroku.records(match_id) if r["event"] == "ActionRecorded")
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
