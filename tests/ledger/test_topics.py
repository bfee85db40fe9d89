"""Kiroku's topics resolved by name (``ledger.topics``, issue 43): every ``kiroku:`` topic of
the modules a process imports only when it meets them is listed under its module, the topics
the match list names are its classes', and a store written with every kind of event reads
back, event by event, in a process that had imported none of those modules."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from ledger import matchlist, seatings, topics

ROOT = Path(__file__).resolve().parents[2]


def _kiroku_topics(module: Any) -> set[str]:
    """The ``kiroku:`` topics a module's classes (and their nested event classes) define."""
    found: set[str] = set()
    for value in vars(module).values():
        if not isinstance(value, type) or value.__module__ != module.__name__:
            continue
        for cls in (value, *(v for v in vars(value).values() if isinstance(v, type))):
            topic = getattr(cls, "TOPIC", None)
            if isinstance(topic, str) and topic.startswith("kiroku:"):
                found.add(topic.removeprefix("kiroku:"))
    return found


def test_every_topic_of_the_modules_imported_on_demand_is_listed_under_its_module() -> None:
    for name, listed in topics.TOPICS_BY_MODULE.items():
        defined = _kiroku_topics(importlib.import_module(name))
        assert defined, name
        assert set(listed) == defined, (name, set(listed) ^ defined)


def test_the_topics_the_match_list_and_seatings_name_are_their_classes() -> None:
    from ledger.annotations import Annotation
    from ledger.disputes import Dispute
    from ledger.tournaments import Seating, Tournament
    from ledger.variations import Variation

    assert matchlist.ANNOTATION_ADDED == Annotation.Created.TOPIC
    assert matchlist.VARIATION_STARTED == Variation.Created.TOPIC
    assert matchlist.TOURNAMENT_CREATED == Tournament.Created.TOPIC
    assert matchlist.MATCH_SEATED == Seating.Created.TOPIC
    assert matchlist.TABLE_RESULT_ENTERED == Tournament.ResultEntered.TOPIC
    assert matchlist.DISPUTE_OPENED == Dispute.Created.TOPIC
    assert seatings.SEATING_TOPIC == Seating.TOPIC


_READ_EVERY_TOPIC = """
import json, sys
from eventsourcing.utils import resolve_topic
import ledger.match  # registers the namespace, as every reader of a store does
before = sorted(m for m in sys.modules if m in MODULES)
resolved = {t: resolve_topic("kiroku:" + t).__module__ for t in TOPICS}
unknown = None
try:
    resolve_topic("kiroku:NoSuchEvent/1")
except Exception as exc:
    unknown = type(exc).__name__
print(json.dumps({"before": before, "resolved": resolved, "unknown": unknown}))
"""


def test_each_topic_resolves_in_a_process_that_had_not_imported_its_module() -> None:
    code = (f"MODULES = {sorted(topics.TOPICS_BY_MODULE)!r}\n"
            f"TOPICS = {sorted(topics.TOPIC_MODULES)!r}\n" + _READ_EVERY_TOPIC)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)
    said = json.loads(done.stdout)
    assert said["before"] == []
    assert said["resolved"] == topics.TOPIC_MODULES
    assert said["unknown"] == "TopicError"
