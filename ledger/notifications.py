"""Reading the store's notification log by topic, a page at a time: how the lists of
credentials and tournaments find their streams (the match list, and the annotations and
variations of a match, have read models of their own: ledger.matchlist)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

PAGE = 500


def notifications(app: Any, *topics: str) -> Iterator[Any]:
    """Every stored notification of ``topics`` in ``app``'s store, oldest first."""
    start = 1
    while True:
        page = app.recorder.select_notifications(start, PAGE, topics=list(topics))
        yield from page
        if len(page) < PAGE:
            return
        start = page[-1].id + 1


def events(app: Any, *topics: str) -> Iterator[Any]:
    """``notifications`` as domain events."""
    for notification in notifications(app, *topics):
        yield app.mapper.to_domain_event(notification)
