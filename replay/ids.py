"""Ids as people type them: a whole id, or the first characters of exactly one (the command
line and the HTTP service resolve them alike)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from string import hexdigits
from uuid import UUID

from ledger.errors import LedgerError

MIN_PREFIX = 4
LISTED = 10  # the candidates an ambiguous prefix's error names
UUID_FORM = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"


def resolve_id(text: str, ids: Callable[[], Iterable[UUID]], noun: tuple[str, str],
               not_found: type[LedgerError]) -> UUID:
    """The id ``text`` names: a whole id, or the start of exactly one of ``ids()`` (compared
    with the id's usual lowercase form, as ``kiroku`` on the command line does). Anything else
    is ``not_found``: text that cannot start an id, a prefix no id has, or one several have
    (naming up to ``LISTED`` of them). ``noun`` is the singular and the plural."""
    whole = whole_id(text)
    if whole is not None:
        return whole
    one, many = noun
    prefix = text.lower()
    if not _could_start_an_id(prefix):
        raise not_found(f"{text!r} is not a {one} id: give the whole id, or its first "
                        f"{MIN_PREFIX} or more characters (hex digits, dashes where the id "
                        "has them).", prefix=text)
    hits = [i for i in ids() if str(i).startswith(prefix)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise not_found(f"No {one} id starts with {text!r}.", prefix=text)
    named = [str(h) for h in hits[:LISTED]]
    more = f" and {len(hits) - LISTED} more" if len(hits) > LISTED else ""
    raise not_found(f"{text!r} matches {len(hits)} {many}: {', '.join(named)}{more}; give more "
                    "of the id.", prefix=text, candidates=named, count=len(hits))


def whole_id(text: str) -> UUID | None:
    """The id ``text`` spells out whole (in any form ``uuid.UUID`` reads), or None."""
    try:
        return UUID(text)
    except ValueError:
        return None


def _could_start_an_id(prefix: str) -> bool:
    """Whether ``prefix`` (lowercase) is long enough and could begin an id's usual form."""
    return MIN_PREFIX <= len(prefix) <= len(UUID_FORM) and all(
        c == "-" if form == "-" else c in hexdigits for c, form in zip(prefix, UUID_FORM))
