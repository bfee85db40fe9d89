"""Sealing a match's new events: each event's commitments to the values some viewer may not see,
and its hash (ledger.chain), from the seed of the match's current segment.

A command on a match gets one ``Sealer`` for its match, holding where that match's seeds come
from. The sealer notes, in ``sealed``, which segment's seed derived each event's commitments;
the save hands the notes to the mapper (``MatchMapper.sealing``), which stores each commitment
as that segment and a check instead of deriving them all again to find it (ledger.mapper).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from engine.core.contract import Ruleset
from engine.core.errors import IllegalAction
from ledger.chain import commitments, event_hash, hashed_payload
from ledger.reasons import RecorderReason as R
from ledger.visibility import hidden_paths

# The seed of one segment of the match (1: its own; 2 and on: after reopenings), or None where
# the store holds none (a match imported without it)
SeedOfSegment = Callable[[int], "bytes | None"]


class Sealer:
    """Dates and seals the new events of one match (see the module docstring): ``clock``
    gives the instant each is recorded at (the server's, UTC, ISO 8601)."""

    def __init__(self, match_id: UUID, seed_of: SeedOfSegment,
                 clock: Callable[[], str]) -> None:
        self.match_id = match_id
        self.seed_of = seed_of
        self.now = clock
        self.sealed: dict[tuple[UUID, int], int] = {}  # (match id, version) -> segment

    def seed(self, segment: int) -> bytes | None:
        """The seed of ``segment`` of the match, or None where the store holds none."""
        return self.seed_of(segment)

    def seal(self, name: str, version: int, payload: dict[str, Any], ruleset: Ruleset,
             seats: int, segment: int) -> dict[str, Any]:
        """``payload`` of the match's event ``name`` at ``version`` with its commitments to
        the values some viewer may not see (from the seed of ``segment``) and its hash. A
        match imported without its seed cannot make salts: an event of it that would hide a
        value is refused (``seed_unavailable``), since its hash would reveal it."""
        seed = self.seed_of(segment)
        paths = hidden_paths({"event": name, **payload}, ruleset, seats)
        if paths and seed is None:
            raise IllegalAction(R.SEED_UNAVAILABLE,
                "This match was imported without its secret seed, so a hidden value (a card "
                "drawn, a card put face down) cannot be committed to: record it where the "
                "match was created.")
        sealed = {**payload, "commitments": commitments(seed, self.match_id, version, payload,
                                                        paths) if seed else {}}
        sealed["hash"] = event_hash(name, self.match_id, version, hashed_payload(sealed))
        if sealed["commitments"]:
            self.sealed[(self.match_id, version)] = segment
        return sealed

    def hashed(self, name: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
        """``payload`` of an event that hides nothing, with its hash."""
        return {**payload, "hash": event_hash(name, self.match_id, version, payload)}
