"""Reading stored events in part (issue 43): what the match list reads of a match's creation
and of its end, each field exactly as reading the event whole gives it, in every storage
format, without building the rest; the list's catch-up, which reads them so, writes a
page's tracking once at each end and a match created and ended in one page as one row, and
lists exactly what it listed reading every event whole, one at a time."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError, Notification, Tracking

import ledger.matchlist
from engine.registry import SHIPPED
from ledger.mapper import MatchMapper
from ledger.match import MATCH_TOPICS
from ledger.matchlist import ListedMatch, MatchListProjection, MatchQuery
from ledger.transcoder import (
    COMPACT,
    PLAIN,
    TERSE_CREATION,
    MsgpackTranscoder,
    UnknownStorageFormat,
    Wanted,
    _deflate,
    _pack,
)
from replay.service import Kiroku

CREATED, ENDED = MATCH_TOPICS["created"], MATCH_TOPICS["ended"]
WANTED = MatchListProjection.IN_PART
HASH = hashlib.sha256(b"kiroku").hexdigest()
CREATION: dict[str, Any] = {
    "originator_topic": "kiroku:Match", "game": "kami", "ruleset_version": "1",
    "config": {"players": ["Ann", "Ben"], "decks": [["K-1", "K-2"], ["K-3"]],
               "cards": {"K-1": {"name": "One", "cost": 1}}, "options": {"first_player": 1}},
    "recorded_by": "organizer", "recorded_at": "2026-11-21T19:49:33.381742+00:00",
    "hash": HASH, "class_version": 2,
}


def _picked(fields: Any, wanted: Wanted) -> Any:
    """The fields ``wanted`` of fields read whole."""
    if not isinstance(fields, dict):
        return fields
    picked = {}
    for key, value in fields.items():
        if key in wanted:
            inner = wanted[key]
            picked[key] = value if inner is None else _picked(value, inner)
    return picked


Simulated = tuple[MatchMapper, MatchListProjection, dict[str, list[Notification]]]


@pytest.fixture(scope="module")
def simulated() -> Iterator[Simulated]:
    """The list's mapper and projection, and the notifications of one simulated match of
    each game."""
    kiroku = Kiroku.open("sqlite:///:memory:")
    try:
        stored = {}
        for game in SHIPPED:
            (match_id,) = kiroku.simulate(game, 1, seed=5)
            stored[game] = [n for n in kiroku.recorder.recorder.select_notifications(1, 10**6)
                            if n.originator_id == match_id]
        mapper = kiroku.recorder.repository.event_store.mapper
        assert isinstance(mapper, MatchMapper)
        projection = kiroku.recorder.match_list.projection
        assert isinstance(projection, MatchListProjection)
        yield mapper, projection, stored
    finally:
        kiroku.close()


@pytest.mark.parametrize("game", SHIPPED)
def test_a_match_s_creation_and_end_read_in_part_are_what_reading_them_whole_gives(
        simulated: Simulated, game: str) -> None:
    mapper, projection, stored = simulated
    creation = stored[game][0]
    (end,) = [n for n in stored[game] if n.topic == ENDED]
    assert creation.topic == CREATED
    assert creation.state[0] == TERSE_CREATION  # format 9, against the game's dictionary
    for event in (creation, end):
        whole = vars(mapper.to_domain_event(event))
        assert mapper.fields_of(event, WANTED[event.topic]) == _picked(whole,
                                                                       WANTED[event.topic])
    listed = projection.read(creation, mapper)
    assert isinstance(listed, ListedMatch)
    whole = mapper.to_domain_event(creation)
    assert (listed.match_id, listed.game, listed.players, listed.created_at,
            listed.simulated) == (whole.originator_id, game, whole.config["players"],
                                  whole.recorded_at, True)


@pytest.mark.parametrize("stored", [
    bytes([PLAIN]) + _pack(CREATION),  # format 1: maps with their keys
    bytes([COMPACT]) + _deflate(_pack(CREATION)),  # format 2: the same, deflated
    MsgpackTranscoder().encode(CREATION),  # format 5: shaped maps, words
    MsgpackTranscoder().encode({**CREATION, "config": {**CREATION["config"], "x": 1}}),
    MsgpackTranscoder().encode({**CREATION, "config": None}),  # not a map where one is read
    MsgpackTranscoder().encode({"game": "kami"}),  # fields missing
], ids=["format-1", "format-2", "format-5", "unshaped-config", "no-config", "missing"])
def test_fields_read_in_part_are_read_as_the_whole_record_reads_in_every_format(
        stored: bytes) -> None:
    transcoder = MsgpackTranscoder()
    wanted = WANTED[CREATED]
    assert transcoder.decode_fields(stored, wanted) == _picked(transcoder.decode(stored),
                                                               wanted)


def test_a_damaged_record_read_in_part_is_refused_as_read_whole() -> None:
    transcoder = MsgpackTranscoder()
    short = transcoder.encode({"game": "kami", "winners": [1]})
    for damaged in (short[:-2], short + b"\x01", short[:1], bytes([9]) + short[1:],
                    transcoder.encode([1, 2])):
        with pytest.raises(UnknownStorageFormat):
            transcoder.decode_fields(damaged, WANTED[CREATED])


def test_an_event_of_an_earlier_class_version_is_read_whole(
        simulated: Simulated) -> None:
    """The library upcasts an event stored by an earlier version of its class as it reads
    it; read in part it would not be, so it is not read in part."""
    mapper, projection, stored = simulated
    creation = stored["worldgainer"][0]
    fields = mapper.transcoder.decode(creation.state)
    del fields["class_version"], fields["commitments"]  # as version 1 stored it
    older = Notification(creation.originator_id, creation.originator_version, creation.topic,
                         mapper.transcoder.encode(fields), creation.id)
    assert mapper.fields_of(older, WANTED[CREATED]) is None
    assert mapper.to_domain_event(older).commitments == {}  # type: ignore[attr-defined]
    read = projection.read(older, mapper)
    assert not isinstance(read, ListedMatch)  # the domain event, read whole


@pytest.fixture
def kiroku(store_url: str) -> Iterator[Kiroku]:
    service = Kiroku.open(store_url)
    yield service
    service.close()


def _match(kiroku: Kiroku, players: tuple[str, str]) -> UUID:
    return kiroku.new_match("worldgainer", list(players), ["solar_vanguard", "pleiades_bloom"],
                            options={"first_player": 1})


def _rows(kiroku: Kiroku) -> list[tuple[Any, ...]]:
    view: Any = kiroku.recorder.match_list.view
    with view.datastore.transaction(commit=False) as cursor:
        cursor.execute("SELECT * FROM match_list ORDER BY match_id")
        return [tuple(row) for row in cursor.fetchall()]


def test_a_catch_up_reading_in_part_lists_what_reading_every_event_whole_listed(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Creations and ends read in part, in pages of 3 (a match created and ended in one
    page is one row written with its result; one ended in a later page, an update), a
    reopening read whole: the same rows and position as reading each event whole and
    writing each change alone."""
    kiroku = Kiroku.open(f"sqlite:///{tmp_path}/list.db")
    try:
        ids = [_match(kiroku, (f"P{n}a", f"P{n}b")) for n in range(4)]
        for match_id in ids[::2]:
            kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="P2")
        kiroku.reopen(ids[0], to_position=0, reason="a ruling", recorded_by="judge")
        later = _match(kiroku, ("Late", "Comer"))
        kiroku.record(ids[1], {"type": "concede", "seat": 1}, recorded_by="P1")
        kiroku.simulate("worldgainer", 1, seed=5)
        monkeypatch.setattr(ledger.matchlist, "PAGE", 3)
        mapper = kiroku.recorder.repository.event_store.mapper
        read_whole: list[str] = []
        to_domain_event = mapper.to_domain_event

        def whole(stored: Any) -> Any:
            read_whole.append(stored.topic)
            return to_domain_event(stored)

        monkeypatch.setattr(mapper, "to_domain_event", whole)
        listed = kiroku.find_matches(simulated=None)
        assert read_whole == [MATCH_TOPICS["reopened"]]
        in_part, position = _rows(kiroku), kiroku.recorder.match_list.view.max_tracking_id(
            kiroku.recorder.name)
        assert {m["match_id"] for m in listed} >= {str(i) for i in [*ids, later]}

        view: Any = kiroku.recorder.match_list.view
        with view.datastore.transaction(commit=True) as cursor:
            cursor.execute("DELETE FROM match_list")
            cursor.execute("DELETE FROM tracking WHERE application_name = ?",
                           [kiroku.recorder.name])
        monkeypatch.setattr(MatchListProjection, "IN_PART", {})
        # no batches: each change written alone with its tracking, as before them
        monkeypatch.setattr(ledger.matchlist.MatchListView, "batch",
                            lambda self: nullcontext())
        assert kiroku.find_matches(simulated=None) == listed
        assert _rows(kiroku) == in_part
        assert view.max_tracking_id(kiroku.recorder.name) == position
    finally:
        kiroku.close()


def test_a_batch_writes_its_tracking_at_its_start_and_its_end(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    _match(kiroku, ("Ann", "Ben"))
    kiroku.find_matches()
    view: Any = kiroku.recorder.match_list.view
    name = kiroku.recorder.name
    done = view.max_tracking_id(name)
    written: list[int] = []
    insert = view._insert_tracking

    def counted(cursor: Any, tracking: Tracking) -> None:
        written.append(tracking.notification_id)
        insert(cursor, tracking)

    monkeypatch.setattr(view, "_insert_tracking", counted)
    new, old = UUID(int=8), kiroku.find_matches()[0]["match_id"]
    with view.batch():
        view.match_created(ListedMatch(new, "worldgainer", ["Eve", "Mal"],
                                       "2026-01-01T00:00:00", None, False, None),
                           Tracking(name, done + 1))
        view.result_changed(new, {"winners": [1]}, Tracking(name, done + 2))
        view.result_changed(UUID(old), {"winners": [2]}, Tracking(name, done + 3))
        view.track(Tracking(name, done + 4))
    assert written == [done + 1, done + 4]
    assert view.max_tracking_id(name) == done + 4
    by_id = {m.match_id: m.result for m in view.search(MatchQuery())}
    assert by_id[new] == {"winners": [1]} and by_id[UUID(old)] == {"winners": [2]}


def test_a_batch_another_server_has_passed_within_is_refused_whole(kiroku: Kiroku) -> None:
    """Another server recorded a notification in the middle of this batch's: the batch's
    first tracking is refused, and none of its changes is written."""
    _match(kiroku, ("Ann", "Ben"))
    kiroku.find_matches()
    view: Any = kiroku.recorder.match_list.view
    name = kiroku.recorder.name
    done = view.max_tracking_id(name)
    view.insert_tracking(Tracking(name, done + 2))  # the other server
    fresh = ListedMatch(UUID(int=9), "worldgainer", ["Eve", "Mal"], "2026-01-01T00:00:00",
                        None, False, None)
    with pytest.raises(IntegrityError), view.batch():
        view.match_created(fresh, Tracking(name, done + 1))
        view.track(Tracking(name, done + 3))
    with pytest.raises(IntegrityError), view.batch():  # out of order within: refused too
        view.match_created(fresh, Tracking(name, done + 4))
        view.result_changed(fresh.match_id, {"winners": [1]}, Tracking(name, done + 4))
    assert view.ids_starting("0000") == []
    assert view.max_tracking_id(name) == done + 2
