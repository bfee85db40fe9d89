"""docs/games/illuminati.md stays true: every example action parses and names real cards."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine import get_game
from ledger.catalog import sample_card_set

PAGE = Path(__file__).resolve().parents[3] / "docs" / "games" / "illuminati.md"
CARD_FIELDS = ("card", "attacker", "target", "plot", "group", "parent", "give", "take", "a", "b",
               "old", "new", "link")


def _examples() -> list[dict[str, object]]:
    block = re.search(r"## Actions.*?```json\n(.*?)```", PAGE.read_text("utf-8"), re.S)
    assert block is not None
    return [json.loads(line) for line in block.group(1).splitlines() if line.strip()]


def test_every_action_type_has_an_example() -> None:
    rules = get_game("illuminati")
    shown = {e["type"] for e in _examples()}
    assert set(rules.action_types()) <= shown


def test_every_example_parses_and_names_sample_cards() -> None:
    rules = get_game("illuminati")
    cards = set(sample_card_set("illuminati").cards) | {"illuminati"}
    for example in _examples():
        action = rules.parse_action(example)
        data = action.model_dump()
        named = [data[f] for f in CARD_FIELDS if isinstance(data.get(f), str)]
        named += [c for f in ("pay", "cards", "plots_to_bottom") if isinstance(data.get(f), list)
                  for c in data[f]]
        named += [c for c in (data.get("choices") or {}).values()]
        if isinstance(data.get("pay"), str):
            named.append(data["pay"])
        assert set(named) <= cards, (example, set(named) - cards)
