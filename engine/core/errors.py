"""The one error family every rules engine raises.

``ActionError`` is the base. ``MalformedAction`` means the input could not be read as an action of
this game at all; ``IllegalAction`` means it was read but the rules forbid it now. Both carry a
stable, machine-readable ``reason`` and a sentence a player understands. The reason is a member
of a registry (``engine.core.reasons``: the kernel's or the game's), never a bare string; the
error keeps its plain code. Nothing in here knows about HTTP: the service maps these to status
codes in one place.
"""

from __future__ import annotations

from typing import Any, Self

from engine.core.reasons import KernelReason, Reason


class ActionError(ValueError):
    """Base of every error an engine raises about an action or a match setup."""

    def __init__(self, reason: Reason, message: str, **details: Any) -> None:
        self._hold(reason, message, details)

    @classmethod
    def passed_on(cls, reason: str, message: str, **details: Any) -> Self:
        """An error of this class with a code already given out: another error's, re-worded,
        or one a worker process reported. The one way to build an error from a plain code."""
        error = cls.__new__(cls)  # its class's own __init__ may take other arguments
        error._hold(reason, message, details)
        return error

    def _hold(self, reason: str, message: str, details: dict[str, Any]) -> None:
        super().__init__(message)
        self.reason = str(reason)  # the plain code: a JSON error body shows it as it is
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """The error as data: reason code, message and any details."""
        out: dict[str, Any] = {"reason": self.reason, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class MalformedAction(ActionError):
    """The input is not an action of this game (wrong shape, unknown type, bad field)."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(KernelReason.MALFORMED_ACTION, message, **details)


class IllegalAction(ActionError):
    """A well-formed action that the rules forbid in the current position."""


class SetupError(ActionError):
    """A match cannot be set up as asked (bad deck, unknown card, bad option, bad player count)."""
