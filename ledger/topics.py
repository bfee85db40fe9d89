"""Kiroku's topics, each module's imported the first time one of its topics is resolved.

Every event and aggregate class of Kiroku has an explicit, versioned topic (``kiroku:Name``,
``kiroku:NameDone/1``), which eventsourcing registers when the class is defined, i.e. when its
module is imported. A process that reads a store therefore had to import every module whose
events the store might hold (tournaments, disputes, annotations, variations, sign-in desks)
before it read anything, though ``kiroku match show`` or ``match act`` meets none of them
(about 60 ms of a command's start: each event class is a dataclass eventsourcing builds at
import; issue 43).

eventsourcing resolves a topic ``module:attribute`` it has not registered by looking the
module up among its registered topics, then the attribute on it (``resolve_topic``). Kiroku
registers one object under the topic ``kiroku``: ``resolve_topic("kiroku:DisputeOpened/1")``
then asks it for the attribute ``DisputeOpened/1``, and it imports the module that defines it
(``TOPIC_MODULES``), whose classes register their own topics as they always did, and answers
with the class the library now has for that topic. Nothing else changes: the library's
resolution, its topic cache, the classes and their topics are as before, and a module already
imported (a server imports them all as it starts) is never asked for.

``tests/ledger/test_topics.py`` checks that every ``kiroku:`` topic of those modules is
listed here under its module, and that each resolves in a process that had not imported it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, cast

from eventsourcing.utils import register_topic, resolve_topic

NAMESPACE = "kiroku"

# module -> the names after "kiroku:" of the topics its classes define
TOPICS_BY_MODULE: dict[str, tuple[str, ...]] = {
    "ledger.annotations": ("Annotation", "AnnotationAdded/1", "AnnotationAmended/1",
                           "AnnotationWithdrawn/1"),
    "ledger.disputes": ("Dispute", "DisputeOpened/1", "DisputeTaken/1", "DisputeRuled/1",
                        "DisputeAppealed/1", "Docket", "DocketStarted/1", "DisputeFiled/1",
                        "DisputeReleased/1", "DisputeHeld/1"),
    "ledger.variations": ("Variation", "VariationStarted/1", "VariationActionPlayed/1",
                          "VariationActionsTakenBack/1"),
    "ledger.tournaments": ("Tournament", "TournamentCreated/1", "TournamentStaffChanged/1",
                           "DecklistDeadlineSet/1", "PlayerRegistered/1",
                           "DecklistSubmitted/1", "DecklistsLocked/1", "DecklistAmended/1",
                           "RoundPaired/1", "SeriesGameStarted/1", "PlayerDropped/1",
                           "TableResultEntered/1", "TournamentFinished/1", "Seating",
                           "MatchSeated/1"),
    "ledger.signin": ("SignInDesk", "SignInDeskOpened/1", "SignInLinkIssued/1", "SignedIn/1"),
}
# name after "kiroku:" -> the module that defines it
TOPIC_MODULES: dict[str, str] = {name: module for module, names in TOPICS_BY_MODULE.items()
                                 for name in names}


class _Namespace:
    """What the topic ``kiroku`` resolves to: each attribute asked for is the class of the
    topic ``kiroku:<attribute>``, its module imported first."""

    def __init__(self) -> None:
        self._imported: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        module = TOPIC_MODULES.get(name)
        if module is None or module in self._imported:
            # not Kiroku's, or its module did not define it: the library says which topic
            raise AttributeError(f"no topic {NAMESPACE}:{name}")
        import_module(module)  # its classes register their topics
        self._imported.add(module)
        return resolve_topic(f"{NAMESPACE}:{name}")


register_topic(NAMESPACE, cast(Any, _Namespace()))
