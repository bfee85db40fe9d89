"""Events as plain records, and the per-viewer filter every output channel goes through.

A record is ``{"event": name, "match_id", "version", "timestamp", **payload}`` where the payload
holds every field the event carries, ``prev_hash`` and ``hash`` included. Records are what the
HTTP API lists, what exports contain and what the audit verifies.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.core.chance import outcome_from_data
from engine.core.contract import Ruleset
from engine.core.viewer import JUDGE, Viewer
from ledger.match import EVENT_NAMES, Match
from ledger.match import to_record as to_record  # re-exported: a domain event as a record

NAME_TO_CLASS = {name: cls for cls, name in EVENT_NAMES.items()}


def payload_of(record: dict[str, Any]) -> dict[str, Any]:
    """The hashed part of a record: everything but the envelope and the hash itself."""
    return {k: v for k, v in record.items()
            if k not in ("event", "match_id", "version", "timestamp", "hash")}


def effective_viewer(viewer: Viewer, ended: bool, policy: str) -> Viewer:
    """After the match ends under the ``open`` replay policy, everyone sees everything."""
    return JUDGE if ended and policy == "open" else viewer


def redact(record: dict[str, Any], viewer: Viewer,
           ruleset: Ruleset | None = None) -> dict[str, Any]:
    """The record as ``viewer`` may see it: hidden outcomes, other seats' decks and the private
    parts of actions (as the game's ``redact_action`` says) removed."""
    if viewer.is_judge:
        return record
    out = copy.deepcopy(record)
    if ruleset is not None and "action" in out:
        action = ruleset.redact_action(out["action"], viewer)
        if action != out["action"]:
            out["action"] = action
            out["redacted_for"] = str(viewer)
    for key in ("outcomes", "setup_outcomes"):
        if key in out:
            out[key] = [o if outcome_from_data(o).seen_by(viewer)
                        else {**o, "value": None, "redacted": True} for o in out[key]]
    if out["event"] == "MatchCreated":
        decks = out["config"]["decks"]
        out["config"]["decks"] = [d if viewer.sees_seat(i) else None
                                  for i, d in enumerate(decks, start=1)]
    if any(key in out for key in ("outcomes", "setup_outcomes")) or out["event"] == "MatchCreated":
        out["redacted_for"] = str(viewer)
    return out


def is_match_event(event: Any) -> bool:
    """Whether a domain event belongs to a Match stream."""
    return type(event) in EVENT_NAMES and isinstance(event, Match.Event | Match.Created)
