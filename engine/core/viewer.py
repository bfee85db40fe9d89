"""Who is looking: a seat, a spectator or a judge (who sees everything)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import ActionError
from engine.core.reasons import KernelReason as R


@dataclass(frozen=True)
class Viewer:
    """A viewer of a match. ``seat`` is set only for the ``seat`` role."""

    role: str  # "seat" | "spectator" | "judge"
    seat: int | None = None

    @classmethod
    def parse(cls, text: str | int | None) -> Viewer:
        """Read ``judge``, ``spectator``, ``seat:2`` or ``2``; ``None`` means spectator."""
        if text is None:
            return SPECTATOR
        raw = str(text).strip().lower()
        if raw in ("judge", "organizer", "organiser"):
            return JUDGE
        if raw in ("spectator", "public", ""):
            return SPECTATOR
        number = raw.removeprefix("seat:").removeprefix("seat")
        if number.isascii() and number.isdigit() and 1 <= len(number) <= 3 and int(number):
            return cls("seat", int(number))
        raise ActionError(R.BAD_VIEWER,
                          f"Unknown viewer {text!r}: use judge, spectator or a seat like seat:1.")

    def sees_seat(self, seat: int) -> bool:
        """Whether this viewer may see what is private to ``seat``."""
        return self.role == "judge" or (self.role == "seat" and self.seat == seat)

    @property
    def is_judge(self) -> bool:
        """Judges and organisers see everything."""
        return self.role == "judge"

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.role == "seat" else self.role


JUDGE = Viewer("judge")
SPECTATOR = Viewer("spectator")
