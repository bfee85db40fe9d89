"""The per-viewer filter of a match's event records, and the values it hides.

Every channel that shows events (``/events``, exports, transcripts' sources) goes through
``redact``. The recorder uses the same filter to find the values some viewer may not see
(``hidden_paths``): those enter the hash chain through salted commitments (ledger.chain).
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from engine.core.chance import Outcome, outcome_from_data
from engine.core.contract import Ruleset
from engine.core.viewer import JUDGE, SPECTATOR, Viewer


def effective_viewer(viewer: Viewer, ended: bool, policy: str) -> Viewer:
    """After the match ends under the ``open`` replay policy, everyone sees everything."""
    return JUDGE if ended and policy == "open" else viewer


def redact(record: dict[str, Any], viewer: Viewer,
           ruleset: Ruleset | None = None) -> dict[str, Any]:
    """The record as ``viewer`` may see it: hidden outcomes, other seats' decks and the private
    parts of actions (as the game's ``redact_action`` says) removed. The commitments stay: they
    let the viewer verify the hash chain over what it sees."""
    if viewer.is_judge:
        return record
    return _redacted(copy.deepcopy(record), viewer, ruleset)


def _redacted(record: dict[str, Any], viewer: Viewer, ruleset: Ruleset | None) -> dict[str, Any]:
    """``redact`` without copying what it leaves as it is: it replaces the record's top-level
    values (and the deck lists of a copy of its config), never changes them in place."""
    replaced, marked = _replaced(record, viewer, ruleset, {})
    if marked:
        replaced["redacted_for"] = str(viewer)
    return {**record, **replaced}


def _replaced(record: dict[str, Any], viewer: Viewer, ruleset: Ruleset | None,
              parsed: dict[str, list[Outcome]]) -> tuple[dict[str, Any], bool]:
    """The top-level values ``_redacted`` puts in place of the record's, by key (a key left
    out keeps the record's own value, the same object), and whether it marks the record
    ``redacted_for`` the viewer. ``parsed`` keeps each outcome list read as typed outcomes,
    for the next viewer of the same record."""
    out: dict[str, Any] = {}
    marked = False
    if ruleset is not None and "action" in record:
        action = ruleset.redact_action(record["action"], viewer)
        if action != record["action"]:
            out["action"] = action
            marked = True
    for key in ("outcomes", "setup_outcomes"):
        if key in record:
            marked = True
            stored = record[key]
            typed = parsed.get(key)
            if typed is None:
                typed = parsed[key] = [outcome_from_data(o) for o in stored]
            if typed and not all(o.seen_by(viewer) for o in typed):
                out[key] = [o if t.seen_by(viewer) else _unseen(o)
                            for o, t in zip(stored, typed)]
    if record["event"] == "MatchCreated":
        marked = True
        out["config"] = dict(record["config"])
        _redact_deck_lists(out["config"], viewer)
    return out, marked


def _redact_deck_lists(config: dict[str, Any], viewer: Viewer) -> None:
    """Under closed deck lists (the default), a seat sees its own deck list and the definitions
    of the cards in it; other seats' lists and the cards only they hold are removed."""
    if config.get("options", {}).get("decklists", "closed") == "open":
        return
    decks = config["decks"]
    seen = [d for i, d in enumerate(decks, start=1) if viewer.sees_seat(i)]
    config["decks"] = [d if viewer.sees_seat(i) else None for i, d in enumerate(decks, start=1)]
    config["cards"] = {cid: card for cid, card in config["cards"].items()
                       if any(cid in deck for deck in seen)}


def hidden_paths(record: dict[str, Any], ruleset: Ruleset, seats: int) -> list[str]:
    """The values of ``record`` that some viewer but a judge may not see, as dotted paths
    (``outcomes.2.value``, ``action.cards.0``, ``config.decks.1``): exactly what ``redact``
    removes for one of the seats or a spectator."""
    found: list[str] = []
    viewers = _viewers(seats)
    if "action" in record:
        action = record["action"]
        for viewer in viewers:
            seen = ruleset.redact_action(action, viewer)
            if seen != action:  # as ``_replaced`` tells a redacted action
                _differences(action, seen, "action", found)
    for key in ("outcomes", "setup_outcomes"):
        # an outcome some viewer may not see is redacted alike for every such viewer
        for i, stored in enumerate(record.get(key, ())):
            typed = outcome_from_data(stored)
            if not all(typed.seen_by(viewer) for viewer in viewers):
                _differences(stored, _unseen(stored), f"{key}.{i}", found)
    if record["event"] == "MatchCreated":
        for viewer in viewers:
            config = dict(record["config"])
            _redact_deck_lists(config, viewer)
            _differences(record["config"], config, "config", found)
    if "redacted_for" in record:  # a record redacted already: marked again for each viewer
        for viewer in viewers:
            if _marked(record, ruleset, viewer):
                _differences(record["redacted_for"], str(viewer), "redacted_for", found)
    return sorted(set(found))


def _unseen(outcome: dict[str, Any]) -> dict[str, Any]:
    """A stored outcome as a viewer who may not see its value is shown it (``_replaced``)."""
    return {**outcome, "value": None, "redacted": True}


def _marked(record: dict[str, Any], ruleset: Ruleset, viewer: Viewer) -> bool:
    """Whether ``_redacted`` marks ``record`` as redacted for ``viewer``."""
    return ("outcomes" in record or "setup_outcomes" in record
            or record["event"] == "MatchCreated"
            or ("action" in record
                and ruleset.redact_action(record["action"], viewer) != record["action"]))


@functools.lru_cache(maxsize=64)
def _viewers(seats: int) -> tuple[Viewer, ...]:
    """Everyone but a judge at a table of ``seats``: a spectator, then each seat (viewers are
    frozen, so one tuple serves every record)."""
    return (SPECTATOR, *(Viewer("seat", s) for s in range(1, seats + 1)))


def _differences(plain: Any, seen: Any, path: str, found: list[str]) -> None:
    """Append to ``found`` the paths at which ``seen`` differs from ``plain``."""
    if plain is seen:  # what ``_redacted`` leaves as it is stays the same object
        return
    # a dict some of whose keys are removed is one hidden value: its paths name no hidden key
    if isinstance(plain, dict) and isinstance(seen, dict) and plain.keys() <= seen.keys():
        for key, value in plain.items():
            other = seen.get(key)
            if value is not other:
                _differences(value, other, f"{path}.{key}", found)
    elif isinstance(plain, list) and isinstance(seen, list) and len(plain) == len(seen):
        for i, (a, b) in enumerate(zip(plain, seen)):
            if a is not b:
                _differences(a, b, f"{path}.{i}", found)
    elif plain != seen:
        found.append(path)
