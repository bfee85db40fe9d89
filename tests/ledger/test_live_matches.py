"""Issue 43's "no cliff": the recorder's cache holds an event's live matches (past the 256 it
held, every action reloaded its match), its size is a setting, and the tournament and its
round's games are read without the library's deep copy, never changed under a reader. On a
real store, once on SQLite and once on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import pytest

from ledger.identity import Identity
from ledger.recorder import CACHE_SETTING, CACHED_AGGREGATES, Recorder, cache_size
from ledger.settings import SettingsError
from replay import tournaments as events
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]
ORG = Identity.operator("TO Tomoko")


def _end_turn(kiroku: Kiroku, match_id: UUID, seat: int) -> None:
    kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="test")


def test_the_default_cache_holds_an_event_of_2000_live_matches() -> None:
    # a live match brings its seating and two seats' credentials to the cache beside it
    assert CACHED_AGGREGATES >= 2000 * 4
    kiroku = Kiroku.open("sqlite:///:memory:")
    try:
        assert kiroku.recorder.repository.cache is not None
        assert kiroku.recorder.repository.cache.maxsize == CACHED_AGGREGATES
    finally:
        kiroku.close()


def test_past_256_live_matches_no_action_reloads_its_match(
        kiroku: Kiroku, store_reads: Callable[[Kiroku], list[UUID]]) -> None:
    live = [kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS,
                             options={"first_player": 1}) for _ in range(300)]
    for match_id in live:  # round robin, as an event's tables record
        _end_turn(kiroku, match_id, 1)
    reads = store_reads(kiroku)
    for match_id in live:
        _end_turn(kiroku, match_id, 2)
    assert set(reads).isdisjoint(live)


def test_the_cache_size_is_a_setting(store_url: str, monkeypatch: pytest.MonkeyPatch,
                                     store_reads: Callable[[Kiroku], list[UUID]]) -> None:
    monkeypatch.setenv(CACHE_SETTING, "2")
    kiroku = Kiroku.open(store_url)
    try:
        assert kiroku.recorder.repository.cache is not None
        assert kiroku.recorder.repository.cache.maxsize == 2
        live = [kiroku.new_match("worldgainer", ["Ann", "Ben"], DECKS,
                                 options={"first_player": 1}) for _ in range(3)]
        reads = store_reads(kiroku)
        for match_id in live:
            _end_turn(kiroku, match_id, 1)
        assert set(live) <= set(reads)  # each pushed out by the next two, and read again
    finally:
        kiroku.close()


@pytest.mark.parametrize("setting", ["0", "-1", "two", "", " ", "1.5"])
def test_a_bad_cache_size_is_refused_in_one_sentence(monkeypatch: pytest.MonkeyPatch,
                                                     setting: str) -> None:
    monkeypatch.setenv(CACHE_SETTING, setting)
    with pytest.raises(SettingsError, match=f"{CACHE_SETTING}=.*a whole number of at least 1"):
        Recorder.open("sqlite:///:memory:")
    with pytest.raises(SettingsError):
        cache_size(setting)
    assert cache_size(None) == CACHED_AGGREGATES and cache_size("512") == 512


def test_a_match_to_read_is_the_cached_one_and_catches_up_with_another_server(
        servers: tuple[Kiroku, Kiroku, UUID]) -> None:
    first, second, match_id = servers
    read = second.recorder.match_to_read(match_id)
    assert second.recorder.match_to_read(match_id) is read  # no copy
    assert second.recorder.get_match(match_id) is not read  # a command's is its own
    _end_turn(first, match_id, 1)  # recorded through the other server
    assert len(second.recorder.match_to_read(match_id).live) == 1


def _tournament(kiroku: Kiroku) -> UUID:
    made = events.create(kiroku, ORG, name="Kiroku Cup", game="worldgainer")
    return UUID(made["tournament_id"])


def test_a_tournament_to_read_is_the_cached_one_never_changed_under_its_reader(
        store_url: str) -> None:
    first, second = Kiroku.open(store_url), Kiroku.open(store_url)
    try:
        tournament_id = _tournament(first)
        events.register(first, ORG, tournament_id, "Aiko", "1001")
        held = second.tournaments.read(tournament_id)
        assert second.tournaments.read(tournament_id) is held  # no copy
        assert second.tournaments.get(tournament_id) is not held  # a command's is its own
        events.register(first, ORG, tournament_id, "Ben", "1002")  # through the other server
        fresh = second.tournaments.read(tournament_id)
        assert [p["name"] for p in fresh.players.values()] == ["Aiko", "Ben"]
        assert [p["name"] for p in held.players.values()] == ["Aiko"]  # as it was read
        assert second.tournaments.read(tournament_id) is fresh  # kept, caught up
        events.register(second, ORG, tournament_id, "Chie", "1003")  # a command here
        assert len(second.tournaments.read(tournament_id).players) == 3
        assert len(fresh.players) == 2
        assert events.players(first, tournament_id)[-1]["name"] == "Chie"
    finally:
        first.close()
        second.close()
