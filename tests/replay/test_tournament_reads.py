"""A tournament's pages read the cached tournament and each game's cached match without
copying them (issue 43: the round view had rebuilt every game of a round, and each read deep
copied the tournament), and still answer as the store stands: two servers on one SQLite file,
one recording, the other reading, answer alike."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from engine.registry import get_game
from ledger.catalog import sample_decks
from ledger.identity import Identity
from replay import tournaments as events
from replay.pairings import Pairing
from replay.service import Kiroku

ORG = Identity.operator("TO Tomoko")
DECKS = sample_decks("worldgainer")
SOLAR = dict(DECKS["solar_vanguard"].cards)
BLOOM = dict(DECKS["pleiades_bloom"].cards)


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[Kiroku, Kiroku]]:
    first = Kiroku.open(f"sqlite:///{tmp_path}/kiroku.db")
    second = Kiroku.open(f"sqlite:///{tmp_path}/kiroku.db")
    yield first, second
    first.close()
    second.close()


def _paired(kiroku: Kiroku) -> tuple[UUID, list[UUID]]:
    """A tournament of four players, round 1 paired: its id and its two tables' matches."""
    tid = UUID(events.create(kiroku, ORG, name="Kiroku Cup", game="worldgainer")
               ["tournament_id"])
    for i, name in enumerate(["Aiko", "Ben", "Chie", "Dan"]):
        player = events.register(kiroku, ORG, tid, name, str(1001 + i))
        events.submit_decklist(kiroku, ORG, tid, player["player_id"], SOLAR if i % 2 else BLOOM)
    answer = events.pair(kiroku, ORG, tid, [Pairing(1, ("1001", "1002")),
                                            Pairing(2, ("1003", "1004"))])
    return tid, [UUID(t["match_id"]) for t in answer["tables"]]


def _end_turn(kiroku: Kiroku, match_id: UUID) -> None:
    seat = get_game("worldgainer").to_act(kiroku.recorder.get_match(match_id).state)[0]
    kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=ORG.recorded_by)


def _pages(kiroku: Kiroku, tid: UUID) -> list[Any]:
    """What the event page polls: the tournament, the round, the standings, the players."""
    shown = events.read(kiroku, tid)
    shown.pop("decklists_locked")  # the clock's
    return [shown, events.round_view(kiroku, tid, 1), events.standings_of(kiroku, tid),
            events.players(kiroku, tid)]


def test_the_pages_read_on_one_server_what_another_recorded(
        two_servers: tuple[Kiroku, Kiroku]) -> None:
    recording, reading = two_servers
    tid, (table_1, table_2) = _paired(recording)
    assert _pages(reading, tid) == _pages(recording, tid)
    held = reading.tournaments.read(tid)
    _end_turn(recording, table_1)
    _end_turn(recording, table_1)
    recording.record(table_2, {"type": "concede", "seat": 1}, recorded_by=ORG.recorded_by)
    events.register(recording, ORG, tid, "Eri", "1005")
    pages = _pages(reading, tid)
    assert pages == _pages(recording, tid)
    tables = {t["table"]: t for t in pages[1]["tables"]}
    assert tables[1]["status"] == "in_progress" and tables[1]["positions"] == 2
    assert tables[2]["games"][0]["status"] == "result"
    assert tables[2]["games"][0]["result"]["winners"] == [2]
    assert pages[0]["players"] == 5 and len(pages[3]) == 5
    assert len(held.players) == 4  # the tournament a reader held was not changed under it


def test_the_round_view_reads_the_cached_matches_themselves(
        two_servers: tuple[Kiroku, Kiroku]) -> None:
    kiroku, _ = two_servers
    tid, matches = _paired(kiroku)
    events.round_view(kiroku, tid, 1)
    cache = kiroku.recorder.repository.cache
    assert cache is not None
    cached = [cache.get(m) for m in matches]
    events.round_view(kiroku, tid, 1)
    assert [kiroku.recorder.match_to_read(m) for m in matches] == cached
    assert all(kiroku.recorder.match_to_read(m) is c for m, c in zip(matches, cached))
