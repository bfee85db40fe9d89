"""Variations (issue 13): what-if lines from a position of a match, in streams of their own.

A variation starts from a live position of its match (fixed by the version of the event that
reached it, so a later undo of the match does not move it) or from a position inside another
variation (nesting, as PGN's variations nest; fixed by that variation's version, so taking
back its line does not move the branch either), and holds a line of actions validated by the
same rules, with chance outcomes entered or drawn from the variation's own fresh seed (never the
match's). Adding and taking back actions append events; nothing is erased. Who may branch and
read is decided by ``replay.variations``.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from ledger.errors import LedgerError


class VariationRefused(LedgerError):
    """A variation cannot be made or extended as asked."""

    code = "variation_refused"


class VariationNotFound(LedgerError):
    """No variation has that id."""

    code = "variation_not_found"


class Variation(Aggregate):
    """One what-if line."""

    TOPIC = "kiroku:Variation"

    class Created(Aggregate.Created):
        """VariationStarted: where it branches, its seed, by whom."""

        TOPIC = "kiroku:VariationStarted/1"
        match_id: str
        from_position: int
        from_version: int
        parent: str | None
        parent_version: int | None
        parent_position: int | None
        name: str
        visibility: str
        seed: str
        author: dict[str, Any]
        recorded_at: str

    class Played(Aggregate.Event):
        """VariationActionPlayed: one more action at the line's tip."""

        TOPIC = "kiroku:VariationActionPlayed/1"
        action: dict[str, Any]
        outcomes: list[Any]
        chance_source: str
        digest: str
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The line grows by one action."""
            aggregate.line.append({"action": dict(self.action), "outcomes": list(self.outcomes),
                                   "chance_source": self.chance_source,
                                   "digest": self.digest})

    class TakenBack(Aggregate.Event):
        """VariationActionsTakenBack: the last actions of the line no longer stand."""

        TOPIC = "kiroku:VariationActionsTakenBack/1"
        count: int
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The line is shorter (the events keep what was taken back)."""
            del aggregate.line[len(aggregate.line) - self.count:]

    def __init__(self, match_id: str, from_position: int, from_version: int,
                 parent: str | None, parent_version: int | None, parent_position: int | None,
                 name: str, visibility: str, seed: str, author: dict[str, Any],
                 recorded_at: str) -> None:
        self.match_id = match_id
        self.from_position = from_position
        self.from_version = from_version
        self.parent = parent
        self.parent_version = parent_version
        self.parent_position = parent_position
        self.name = name
        self.visibility = visibility
        self.seed = seed
        self.author = dict(author)
        self.recorded_at = recorded_at
        self.line: list[dict[str, Any]] = []


class Variations:
    """Variations in an eventsourcing application's store (the Recorder's)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def start(self, **fields: Any) -> Variation:
        """A new, empty variation."""
        variation = Variation._create(Variation.Created, id=uuid4(), **fields)
        self.app.save(variation)
        return variation

    def get(self, variation_id: UUID, version: int | None = None) -> Variation:
        """A variation (as it stood at ``version`` if given), or VariationNotFound."""
        try:
            found: Any = self.app.repository.get(variation_id, version=version)
        except AggregateNotFoundError:
            raise VariationNotFound(f"No variation {variation_id}.") from None
        if not isinstance(found, Variation):
            raise VariationNotFound(f"No variation {variation_id}.")
        return found

    def append(self, variation: Variation, event: type[Aggregate.Event], **fields: Any) -> None:
        """Append one event to a variation."""
        variation.trigger_event(event, **fields)
        self.app.save(variation)

    def of_match(self, match_id: UUID) -> list[Variation]:
        """Every variation of a match, oldest first."""
        return [self.get(variation_id)
                for variation_id in self.app.streams.of_match(match_id, "variation")]
