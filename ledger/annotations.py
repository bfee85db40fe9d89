"""Annotations (issue 13, first part): comments on a position of a match, in streams of their
own beside the match (never in its record, whose versions and hash chain stay as they are).

An annotation has an author (an identity), a position, text, symbols in the manner of PGN's NAGs,
highlighted cards or zones and arrows between them, and a visibility chosen by the author:
``private`` (the author), ``team`` (the author's seat, or the judges for a judge), ``judges``
(the judges and the author) or ``public``. Amending or withdrawing appends an event; the history
is kept. Who may see which annotation is decided by ``replay.annotations``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from ledger.errors import LedgerError

SYMBOLS = {"good": "!", "excellent": "!!", "mistake": "?", "blunder": "??",
           "interesting": "!?", "dubious": "?!", "key_moment": "□", "rules_question": "?R"}
VISIBILITIES = ("private", "team", "judges", "public")
TEXT_LIMIT = 2000


class AnnotationRefused(LedgerError):
    """An annotation that cannot be made, amended or withdrawn as asked."""

    code = "annotation_refused"


class AnnotationNotFound(LedgerError):
    """No annotation has that id."""

    code = "annotation_not_found"


class Annotation(Aggregate):
    """One annotation of a position: created, amended, withdrawn."""

    TOPIC = "kiroku:Annotation"

    class Created(Aggregate.Created):
        """AnnotationAdded."""

        TOPIC = "kiroku:AnnotationAdded/1"
        class_version = 2  # 2: annotations of a variation's positions
        match_id: str
        variation: str | None
        position: int
        text: str
        symbols: list[str]
        highlights: list[str]
        arrows: list[list[str]]
        visibility: str
        author: dict[str, Any]
        recorded_at: str

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Recorded before variations could be annotated: one of the match's positions."""
            state["variation"] = None

    class Amended(Aggregate.Event):
        """AnnotationAmended: the new content, by its author."""

        TOPIC = "kiroku:AnnotationAmended/1"
        text: str
        symbols: list[str]
        highlights: list[str]
        arrows: list[list[str]]
        visibility: str
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """The new content replaces the old (the events keep both)."""
            aggregate.text, aggregate.symbols = self.text, list(self.symbols)
            aggregate.highlights, aggregate.arrows = list(self.highlights), list(self.arrows)
            aggregate.visibility = self.visibility
            aggregate.amended = True

    class Withdrawn(Aggregate.Event):
        """AnnotationWithdrawn: by its author or a judge, with a reason."""

        TOPIC = "kiroku:AnnotationWithdrawn/1"
        reason: str
        by: dict[str, Any]
        recorded_at: str

        def apply(self, aggregate: Any) -> None:
            """Withdrawn annotations stay in the history, shown as withdrawn."""
            aggregate.withdrawn = True

    def __init__(self, match_id: str, variation: str | None, position: int, text: str,
                 symbols: list[str], highlights: list[str], arrows: list[list[str]],
                 visibility: str, author: dict[str, Any], recorded_at: str) -> None:
        self.match_id = match_id
        self.variation = variation  # None: a position of the match's live line
        self.position = position
        self.text = text
        self.symbols = list(symbols)
        self.highlights = list(highlights)
        self.arrows = [list(a) for a in arrows]
        self.visibility = visibility
        self.author = dict(author)
        self.recorded_at = recorded_at
        self.amended = False
        self.withdrawn = False


class Annotations:
    """Creating, amending, withdrawing and listing annotations in an eventsourcing application's
    store (the Recorder's)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def add(self, **fields: Any) -> Annotation:
        """A new annotation (fields checked by the caller)."""
        annotation = Annotation._create(Annotation.Created, id=uuid4(), **fields)
        self.app.save(annotation)
        return annotation

    def get(self, annotation_id: UUID) -> Annotation:
        """An annotation, or AnnotationRefused."""
        try:
            found: Any = self.app.repository.get(annotation_id)
        except AggregateNotFoundError:
            raise AnnotationNotFound(f"No annotation {annotation_id}.") from None
        if not isinstance(found, Annotation):
            raise AnnotationNotFound(f"No annotation {annotation_id}.")
        return found

    def amend(self, annotation: Annotation, **content: Any) -> None:
        """Append the new content."""
        annotation.trigger_event(Annotation.Amended, **content)
        self.app.save(annotation)

    def withdraw(self, annotation: Annotation, reason: str, by: dict[str, Any],
                 recorded_at: str) -> None:
        """Append the withdrawal."""
        annotation.trigger_event(Annotation.Withdrawn, reason=reason, by=by,
                                 recorded_at=recorded_at)
        self.app.save(annotation)

    def of_match(self, match_id: UUID) -> Iterator[Annotation]:
        """Every annotation of a match, oldest first, as it stands now."""
        for annotation_id in self.app.streams.of_match(match_id, "annotation"):
            yield self.get(annotation_id)

    def history(self, annotation_id: UUID) -> list[Any]:
        """Every event of an annotation, oldest first."""
        return list(self.app.events.get(annotation_id))
