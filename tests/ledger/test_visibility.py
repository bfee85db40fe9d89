"""The per-viewer filter and the values it hides (ledger.visibility).

``hidden_paths`` looks only at the values the filter replaces, reads each outcome once (an
outcome hidden from some viewer is redacted alike for each) and keeps a value the filter
leaves as it is as the same object. These tests hold
it to the plain definition: the paths at which the record, redacted by a whole deep copy for a
spectator or a seat, differs from the record; and the filter to what it gave before.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from engine import JUDGE, SPECTATOR, Viewer, games, get_game
from engine.core.chance import outcome_from_data
from engine.core.contract import Ruleset
from ledger.visibility import hidden_paths, redact
from replay.service import Kiroku, parse_export
from tests.golden.record import GOLDEN_DIR


def _reference_redact(record: dict[str, Any], viewer: Viewer,
                      ruleset: Ruleset | None) -> dict[str, Any]:
    """The per-viewer filter as it was written before it replaced only what it hides."""
    out = copy.deepcopy(record)
    if viewer.is_judge:
        return out
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
        config = out["config"]
        if config.get("options", {}).get("decklists", "closed") != "open":
            decks = config["decks"]
            seen = [d for i, d in enumerate(decks, start=1) if viewer.sees_seat(i)]
            config["decks"] = [d if viewer.sees_seat(i) else None
                               for i, d in enumerate(decks, start=1)]
            config["cards"] = {cid: card for cid, card in config["cards"].items()
                               if any(cid in deck for deck in seen)}
    if any(key in out for key in ("outcomes", "setup_outcomes")) or out["event"] == "MatchCreated":
        out["redacted_for"] = str(viewer)
    return out


def _paths(plain: Any, seen: Any, path: str) -> Iterator[str]:
    """The dotted paths at which ``seen`` differs from ``plain`` (a dict some of whose keys are
    removed is one value), compared value by value."""
    if isinstance(plain, dict) and isinstance(seen, dict) and plain.keys() <= seen.keys():
        for key, value in plain.items():
            yield from _paths(value, seen[key], f"{path}.{key}" if path else str(key))
    elif isinstance(plain, list) and isinstance(seen, list) and len(plain) == len(seen):
        for i, (a, b) in enumerate(zip(plain, seen)):
            yield from _paths(a, b, f"{path}.{i}")
    elif plain != seen:
        yield path


def _reference_hidden(record: dict[str, Any], ruleset: Ruleset, seats: int) -> list[str]:
    """Every path some viewer but a judge may not see, by redacting whole copies."""
    viewers = [SPECTATOR, *(Viewer("seat", s) for s in range(1, seats + 1))]
    return sorted({p for v in viewers
                   for p in _paths(record, _reference_redact(record, v, ruleset), "")})


def _matches() -> list[list[dict[str, Any]]]:
    """Simulated matches of every game at its fewest and most players, and the golden ones
    (recorded before commitments, with undos, adjustments and table outcomes)."""
    found = []
    kiroku = Kiroku.open("sqlite:///:memory:")
    for ruleset in games():
        for players in sorted({ruleset.min_players, ruleset.max_players}):
            options = {"turn_limit": 6} if ruleset.game_id == "illuminati" else None
            for match_id in kiroku.simulate(ruleset.game_id, 2, seed=5, players=players,
                                            options=options):
                found.append(kiroku.records(kiroku.seen_by(match_id)))
    kiroku.close()
    for path in sorted(GOLDEN_DIR.glob("*/*/match.jsonl")):
        found.append(parse_export(path.read_bytes())[1])
    return found


MATCHES = _matches()


@pytest.mark.parametrize("records", MATCHES, ids=lambda r: f"{r[0]['game']}-{r[0]['match_id']}")
def test_hidden_paths_are_where_a_redacted_copy_differs(records: list[dict[str, Any]]) -> None:
    ruleset = get_game(records[0]["game"])
    seats = len(records[0]["config"]["players"])
    hidden = 0
    for record in records:
        expected = _reference_hidden(record, ruleset, seats)
        assert hidden_paths(record, ruleset, seats) == expected, record["version"]
        hidden += len(expected)
    assert hidden  # every match has a hidden deck list or draw


@pytest.mark.parametrize("records", MATCHES, ids=lambda r: f"{r[0]['game']}-{r[0]['match_id']}")
def test_redact_gives_what_it_gave_before(records: list[dict[str, Any]]) -> None:
    """The same keys in the same order, the same values, and the record left as it was."""
    ruleset = get_game(records[0]["game"])
    seats = len(records[0]["config"]["players"])
    for record in records:
        before = copy.deepcopy(record)
        for viewer in (JUDGE, SPECTATOR, *(Viewer("seat", s) for s in range(1, seats + 1))):
            expected = _reference_redact(record, viewer, ruleset)
            seen = redact(record, viewer, ruleset)
            assert list(seen.items()) == list(expected.items()), (record["version"], viewer)
        assert record == before


@pytest.mark.parametrize("records", MATCHES[:: 3],
                         ids=lambda r: f"{r[0]['game']}-{r[0]['match_id']}")
def test_hidden_paths_of_records_already_redacted(records: list[dict[str, Any]]) -> None:
    """Records as a seat sees them (marked ``redacted_for``, values null) against the plain
    definition too: the mark itself differs for the other viewers."""
    ruleset = get_game(records[0]["game"])
    seats = len(records[0]["config"]["players"])
    for record in records[1:]:  # a redacted creation has no deck lists left to filter
        seen = redact(record, Viewer("seat", 1), ruleset)
        assert hidden_paths(seen, ruleset, seats) == _reference_hidden(seen, ruleset, seats)


def test_a_hidden_value_that_is_already_null_is_no_hidden_path() -> None:
    """A draw whose value is already null hides nothing (the filter leaves it equal)."""
    ruleset = get_game("worldgainer")
    record = {"event": "ActionRecorded", "action": {"type": "end_turn", "seat": 1},
              "outcomes": [{"kind": "draw", "value": None, "seat": 2},
                           {"kind": "draw", "value": "WGS-001", "seat": 2}]}
    assert hidden_paths(record, ruleset, 2) == ["outcomes.1.value"]
    assert hidden_paths(record, ruleset, 2) == _reference_hidden(record, ruleset, 2)
