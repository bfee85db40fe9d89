"""The match's secret seed and the seeded chance source it drives (C1, DESIGN "Randomness").

Each match gets 32 random bytes. Only ``commitment(seed)`` (SHA-256) is public until the match
ends and ``SeedRevealed`` publishes the seed. Outcomes are derived, not drawn from a stateful
generator: the n-th outcome of the k-th position of the live line (0 = setup) picks
``options[H(seed, k, n) mod len(options)]`` with ``H`` = SHA-256, so anyone holding the revealed
seed can re-derive every pick, and undoing an action then recording it again gives the same draw:
undo cannot be used to re-roll.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from engine.core.chance import Chance, Outcome


def new_seed() -> bytes:
    """32 bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256 hex digest."""
    return hashlib.sha256(seed).hexdigest()


def derive_index(seed: bytes, position: int, n: int, size: int) -> int:
    """The index picked for the ``n``-th outcome at live ``position`` among ``size`` options."""
    h = hashlib.sha256(seed + b"|" + str(position).encode() + b"|" + str(n).encode()).digest()
    return int.from_bytes(h, "big") % size  # bias below 2**-240 for any realistic size


class SeededChance(Chance):
    """Outcomes derived from the match seed for one position of the live line."""

    def __init__(self, seed: bytes, position: int) -> None:
        super().__init__()
        self._seed = seed
        self._position = position

    def _pick(self, request: Outcome, options: Sequence[Any]) -> Any:
        return options[derive_index(self._seed, self._position, len(self.outcomes), len(options))]
