"""What Kami no Kijutsu's rules decide that the cards moved do not say (for transcripts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core.effects import Effect


@dataclass(frozen=True)
class BattleResolved(Effect):
    """How a battle ended: each stack's AT (none when it ended without damage), the cards
    destroyed, the seat holding the hex (None if both fell), the VP gained, and why it ended
    without damage (``"defender gone"``, ``"attacker's hold"``)."""

    kind: ClassVar[str] = "battle_resolved"
    hex: str
    attack: tuple[tuple[int, int], ...]  # (seat, AT of its stack)
    destroyed: tuple[str, ...]  # card ids, in the order they were destroyed
    survivor: int | None  # the seat whose unit holds the hex, None if both fell
    vp: tuple[tuple[int, int], ...]  # (seat, VP gained)
    ended_by: str = ""
