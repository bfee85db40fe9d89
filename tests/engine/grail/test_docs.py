"""docs/games/grail.md stays true: every action has an example that parses and names real card
instances (its reason codes are checked with every game's, in tests/engine/test_reason_codes.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine import get_game
from ledger.catalog import sample_card_set

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "games" / "grail.md"
NAMED = ("card", "warrior", "to_warrior", "quest", "knight", "challenger", "target", "king",
         "caster", "reward", "champion")


def _examples() -> list[dict[str, object]]:
    block = re.search(r"One example of each:\s*```json\n(.*?)```", PAGE.read_text("utf-8"), re.S)
    assert block is not None
    return [json.loads(line) for line in block.group(1).splitlines() if line.strip()]


def test_every_action_type_has_an_example() -> None:
    shown = {e["type"] for e in _examples()}
    assert set(get_game("grail").action_types()) <= shown


def test_every_example_parses_and_names_sample_cards() -> None:
    rules = get_game("grail")
    cards = set(sample_card_set("grail").cards)
    for example in _examples():
        data = rules.parse_action(example).model_dump()
        named = [data[f] for f in NAMED if isinstance(data.get(f), str)]
        named += list(data.get("cards") or []) + list(data.get("unpaid") or [])
        assert {n.partition("@")[0] for n in named} <= cards, example

