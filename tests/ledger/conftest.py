"""Fixtures of the ledger's tests: two services on one store, as two servers are."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import pytest

from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]


@pytest.fixture
def servers(store_url: str) -> Iterator[tuple[Kiroku, Kiroku, UUID]]:
    """Two services on one store (as two servers are), and a match both have cached."""
    first, second = Kiroku.open(store_url), Kiroku.open(store_url)
    try:
        match_id = first.new_match("worldgainer", ["Ann", "Ben"], DECKS,
                                   options={"first_player": 1})
        second.recorder.get_match(match_id)  # cached here at version 1
        yield first, second, match_id
    finally:
        first.close()
        second.close()


@pytest.fixture
def store_reads(monkeypatch: pytest.MonkeyPatch) -> Callable[[Kiroku], list[UUID]]:
    """``watch(kiroku)``: from now on, the ids of the streams ``kiroku`` reads events of."""

    def watch(kiroku: Kiroku) -> list[UUID]:
        reads: list[UUID] = []
        select = kiroku.recorder.recorder.select_events

        def counted(originator_id: UUID, **kwargs: Any) -> Any:
            reads.append(originator_id)
            return select(originator_id, **kwargs)

        monkeypatch.setattr(kiroku.recorder.recorder, "select_events", counted)
        return reads

    return watch
