"""Where a match's seeds come from: each segment's own seed (1: the match's; 2 and on: after
reopenings), kept sealed in a stream of its own (``MatchSecret``), unsealed once with the
deployment's key file and then kept in memory; or, once a segment has ended, the seed its own
events revealed."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.application import LRUCache
from eventsourcing.persistence import AggregateRecorder, EventStore

from ledger.keys import KeyfileError, Keyring
from ledger.match import MATCH_TOPICS

SEEDS_KEPT = 4096  # unsealed seeds kept in memory, oldest dropped first


def secret_id(match_id: UUID, segment: int = 1) -> UUID:
    """The stream of the seed of segment 1 (the match's own seed) or of a later segment (a
    reopening)."""
    return uuid5(match_id, "kiroku-seed" if segment == 1 else f"kiroku-seed-{segment}")


class SeedKeeper:
    """The seeds of the matches in one store (``events``, read through ``recorder`` for the
    revealed ones), unsealed with ``keyring``."""

    def __init__(self, events: EventStore[UUID], recorder: AggregateRecorder,
                 keyring: Keyring) -> None:
        self.events = events
        self.recorder = recorder
        self.keyring = keyring
        self._seeds: LRUCache[tuple[UUID, int], bytes] = LRUCache(SEEDS_KEPT)

    def keep(self, match_id: UUID, segment: int, seed: bytes) -> None:
        """Keep the seed of a segment just made (before its match is saved: storing the
        match's events derives commitments from it, ledger.mapper)."""
        self._seeds.put((match_id, segment), seed)

    def known(self, match_id: UUID, segment: int) -> bytes | None:
        """The seed of a segment of the match as this store knows it: the one it holds, or,
        where it holds none or its key file does not open it, the seed the match's own events
        revealed when that segment ended (so an ended match still reads). None if neither;
        KeyfileError if only another key file would tell."""
        try:
            held = self.held(match_id, segment)
        except KeyfileError:
            revealed = self._revealed(match_id, segment)
            if revealed is None:
                raise
            return revealed
        return held if held is not None else self._revealed(match_id, segment)

    def held(self, match_id: UUID, segment: int) -> bytes | None:
        """The seed of a segment of the match, unsealed once and then kept in memory (a seed
        never changes; reading and unsealing it was a tenth of every action's cost), or None
        where this store holds none (a match imported without it)."""
        try:
            return self._seeds.get((match_id, segment))
        except KeyError:
            pass
        seed = self._read(match_id, segment)
        if seed is not None:
            self._seeds.put((match_id, segment), seed)
        return seed

    def _revealed(self, match_id: UUID, segment: int) -> bytes | None:
        """The seed that ended ``segment`` of the match revealed, kept like a held one, or
        None (not ended, or withheld). Each segment ends with ``SeedRevealed`` or
        ``SeedWithheld``, in order."""
        ends = [row for row in self.recorder.select_events(match_id)
                if row.topic in (MATCH_TOPICS["seed"], MATCH_TOPICS["withheld"])]
        if not 1 <= segment <= len(ends) or ends[segment - 1].topic != MATCH_TOPICS["seed"]:
            return None
        seed = bytes.fromhex(self.events.mapper.transcoder.decode(ends[segment - 1].state)["seed"])
        self._seeds.put((match_id, segment), seed)
        return seed

    def _read(self, match_id: UUID, segment: int) -> bytes | None:
        # the secret's one event (SeedSealed), read as it is: no snapshot to look for and no
        # aggregate to build (every reader of a match's records reads its seed: ledger.mapper)
        secret: Any = next(iter(self.events.get(secret_id(match_id, segment), limit=1)), None)
        if secret is None:
            return None
        if secret.sealed:
            return self.keyring.unseal(secret.seed, match_id)
        return bytes.fromhex(secret.seed)
