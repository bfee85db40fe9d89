"""Ledger errors (no HTTP here: the service maps them to status codes in one place)."""

from __future__ import annotations

from typing import Any


class LedgerError(Exception):
    """Base of ledger errors; ``code`` is stable and machine-readable."""

    code = "ledger_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class MatchNotFound(LedgerError):
    """No match has that id."""

    code = "match_not_found"


class ConcurrentAppend(LedgerError):
    """Another writer appended to the match first; reload and retry."""

    code = "concurrent_append"


class MatchPaused(LedgerError):
    """The match is paused by an open dispute: a judge must rule first."""

    code = "match_paused"


class CorruptRecord(LedgerError):
    """A stored event can no longer be read; ``kiroku audit verify`` names it."""

    code = "corrupt_record"


class BadPosition(LedgerError):
    """A position outside the match's live line."""

    code = "bad_position"


class Forbidden(LedgerError):
    """The caller asked for more than it may see or do; ``reason`` says what."""

    code = "forbidden"

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message, **details)
        self.reason = reason


class ImportRejected(LedgerError):
    """An imported match failed verification; nothing was stored."""

    code = "import_rejected"
