"""Where a match sits in a tournament, found without importing the tournaments' module.

A match's summary and its audience ask for its seating (its tournament, round and table), and
most matches have none; the seating's id is derived from the match's id, so finding it is one
read of the store. This module holds that lookup apart from ``ledger.tournaments``, whose
aggregates and event classes a process that reads matches only need not build (issue 43): a
seating that exists is read through the library's repository, whose topic resolution imports
``ledger.tournaments`` then (``ledger.topics``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid5

from eventsourcing.application import AggregateNotFoundError

if TYPE_CHECKING:
    from ledger.tournaments import Seating

SEATINGS = UUID("6b6f7269-6b75-4000-8000-736561746e67")  # the namespace of seating ids
SEATING_TOPIC = "kiroku:Seating"  # ledger.tournaments.Seating.TOPIC


def seating_id(match_id: UUID) -> UUID:
    """The id of a match's seating (derived, so it is found without a search)."""
    return uuid5(SEATINGS, str(match_id))


def find_seating(app: Any, match_id: UUID) -> Seating | None:
    """Where a match sits in ``app``'s store (the Recorder), or None for a match outside any
    tournament."""
    try:
        found: Any = app.repository.get(seating_id(match_id))
    except AggregateNotFoundError:
        return None
    return found if getattr(type(found), "TOPIC", None) == SEATING_TOPIC else None
