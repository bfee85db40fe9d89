"""Record the golden matches under tests/data/golden (run by hand, never by the test suite).

    python -m tests.golden.record            # writes the scenarios that have no files yet

Each scenario is recorded for real (a Kiroku store, seeded chance, table outcomes, undo, judge
adjustments) and written as a judge export in the project's JSON-lines format, plus
``expected.json``: the outcome, the audit summary and the judge's view at a few positions.

A golden match, once checked in, is never regenerated: it stands for matches users have stored.
This script refuses to overwrite one. A change that makes a golden match fail is a rules change
(or a bug), and says so; new behaviour gets new golden matches beside the old ones.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

from engine import JUDGE, MatchConfig, get_game
from engine.core.errors import IllegalAction
from ledger.catalog import sample_card_set, sample_decks
from replay.service import Kiroku
from tests.support import RandomChance

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "data" / "golden"
RECORDED_BY = "golden recorder"
JUDGE_NAME = "judge Kato"


@dataclass
class Scenario:
    """One golden match: who plays, and what happens at which live position."""

    game: str
    name: str
    covers: list[str]
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    max_actions: int = 400
    table_setup: bool = False  # setup outcomes entered at the table
    table_every: int = 0  # every n-th action takes its chance outcomes from the table
    undo_at: dict[int, int] = field(default_factory=dict)  # position -> count undone
    adjust_at: list[int] = field(default_factory=list)
    concede_at: dict[int, int] = field(default_factory=dict)  # position -> seat
    stop_at: int | None = None  # leave the match in progress at this position
    view_positions: int = 3  # judge views kept: first, middle(s), last

    @property
    def seed(self) -> bytes:
        """The match's seed: fixed per scenario, so a re-run records the same match."""
        return hashlib.sha256(f"kiroku-golden:{self.game}:{self.name}".encode()).digest()


def _adjust_worldgainer(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A card text sends the acting seat's first hand card to its break zone."""
    hand = view["seats"][seat - 1]["hand"]
    if hand:
        return {"type": "adjust", "seat": seat, "reason": "card text: discard a card",
                "move": {"card": hand[0]["id"], "from_zone": "hand", "to_zone": "break"}}
    return {"type": "adjust", "seat": seat, "reason": "card text: may stun again",
            "counter": {"name": "stun_placed", "value": 0}}


def _adjust_illuminati(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A card text gives the seat's Illuminati 2 tokens (or discards a group-hand card)."""
    me = view["seats"][seat - 1]
    if me["illuminati"]:
        return {"type": "adjust", "seat": seat, "reason": "card text: two extra tokens",
                "counter": {"name": "tokens:illuminati", "value": 2}}
    card = me["group_hand"][0]
    card_id = card["id"] if isinstance(card, dict) else card
    return {"type": "adjust", "seat": seat, "reason": "card text: discard a group",
            "move": {"card": card_id, "from_zone": "group_hand", "to_zone": "discard"}}


def _adjust_kami(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A force's text discards the seat's first hand card (or gives it 1 VP)."""
    hand = view["seats"][seat - 1]["hand"]
    if hand:
        return {"type": "adjust", "seat": seat, "reason": "force text: discard a card",
                "move": {"card": hand[0]["id"], "from_zone": "hand", "to_zone": "discard"}}
    vp = view["seats"][seat - 1]["vp"]
    return {"type": "adjust", "seat": seat, "reason": "ability text: gain 1 VP",
            "counter": {"name": "vp", "value": vp + 1}}


def _adjust_grail(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """An event's text costs the seat's first warrior 1 valor (or moves a hand card to the
    court discard pile)."""
    me = view["seats"][seat - 1]
    if me["warriors"]:
        warrior = me["warriors"][0]
        return {"type": "adjust", "seat": seat, "reason": "event text: -1 valor",
                "counter": {"name": f"valor:{warrior['id']}",
                            "value": max(1, warrior["valor"] - 1)}}
    return {"type": "adjust", "seat": seat, "reason": "event text: discard a card",
            "move": {"card": me["hand"][0]["id"], "from_zone": "hand",
                     "to_zone": "court_discard"}}


def _adjust_edge(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A whammy's text costs the seat 1 influence (or discards a hand card to the dead pile)."""
    me = view["seats"][seat - 1]
    if me["hand"]:
        return {"type": "adjust", "seat": seat, "reason": "whammy text: discard a card",
                "move": {"card": me["hand"][0]["id"], "from_zone": "hand", "to_zone": "dead"}}
    return {"type": "adjust", "seat": seat, "reason": "whammy text: -1 influence",
            "counter": {"name": "influence", "value": me["influence"] - 1}}


ADJUSTERS: dict[str, Callable[[dict[str, Any], int], dict[str, Any]]] = {
    "worldgainer": _adjust_worldgainer, "illuminati": _adjust_illuminati, "kami": _adjust_kami,
    "grail": _adjust_grail, "edge": _adjust_edge}

SCENARIOS = [
    Scenario("worldgainer", "short-concession", ["short", "undo", "concession"],
             undo_at={3: 1}, concede_at={6: 2}),
    Scenario("worldgainer", "long-to-the-end", ["long", "undo", "adjust", "natural end"],
             undo_at={20: 2, 41: 1}, adjust_at=[12, 30], view_positions=4),
    Scenario("worldgainer", "table-turn-limit", ["table setup", "table chance", "turn limit",
                                                 "adjust"],
             options={"turn_limit": 8}, table_setup=True, table_every=3, adjust_at=[5]),
    Scenario("worldgainer", "in-progress", ["live match", "undo", "table chance"],
             table_every=4, undo_at={9: 3}, stop_at=15),
    Scenario("illuminati", "two-players-turn-limit", ["2 players", "turn limit", "undo",
                                                      "adjust"],
             options={"turn_limit": 6}, undo_at={30: 2}, adjust_at=[12, 40]),
    Scenario("illuminati", "three-players-concessions", ["3 players", "concession", "undo"],
             players=3, options={"turn_limit": 10}, undo_at={15: 1},
             concede_at={25: 2, 45: 3}),
    Scenario("illuminati", "four-players-table", ["4 players", "table setup", "table chance",
                                                  "turn limit"],
             players=4, options={"turn_limit": 4}, table_setup=True, table_every=5),
    Scenario("illuminati", "five-players-turn-limit", ["5 players", "turn limit", "adjust"],
             players=5, options={"turn_limit": 3}, adjust_at=[20]),
    Scenario("illuminati", "six-players-in-progress", ["6 players", "live match", "undo"],
             players=6, undo_at={18: 2}, stop_at=40),
    Scenario("illuminati", "two-players-elimination", ["2 players", "elimination (I8)"],
             options={"turn_limit": 24}),
    Scenario("illuminati", "two-players-long-game", ["2 players", "long", "undo", "adjust"],
             options={"turn_limit": 30}, max_actions=900, undo_at={50: 1, 150: 3},
             adjust_at=[80], view_positions=4),
    # recorded with position digests (format p1): these pin the canonical positions themselves
    Scenario("worldgainer", "position-digests", ["position digests p1", "undo", "adjust",
                                                 "table chance"],
             table_every=6, undo_at={10: 2}, adjust_at=[14]),
    Scenario("illuminati", "three-players-position-digests", ["position digests p1", "3 players",
                                                              "undo", "adjust", "turn limit"],
             players=3, options={"turn_limit": 5}, undo_at={25: 1}, adjust_at=[35]),
    Scenario("kami", "short-concession", ["2 players", "short", "undo", "concession",
                                          "position digests p1"],
             undo_at={6: 1}, concede_at={14: 1}),
    Scenario("kami", "declared-victory", ["long", "undo", "adjust", "natural end",
                                          "position digests p1"],
             options={"turn_limit": 60}, undo_at={30: 2}, adjust_at=[20, 50],
             view_positions=4),
    Scenario("kami", "table-turn-limit", ["table setup", "table chance", "turn limit", "adjust"],
             options={"turn_limit": 6, "first_player": 2}, table_setup=True, adjust_at=[12]),
    Scenario("kami", "in-progress", ["live match", "undo", "table chance"],
             table_every=3, undo_at={12: 3}, stop_at=25),
    Scenario("grail", "two-players-long", ["2 players", "long", "undo", "adjust",
                                          "position digests p1"],
             options={"max_combat_rounds": 20}, max_actions=700, undo_at={60: 2},
             adjust_at=[40, 200], view_positions=4),
    Scenario("grail", "three-players-concession", ["3 players", "concession", "undo",
                                                  "turn limit"],
             players=3, options={"max_combat_rounds": 20, "turn_limit": 12},
             undo_at={30: 1}, concede_at={80: 3}),
    Scenario("grail", "four-players-table", ["4 players", "table setup", "table chance",
                                            "turn limit", "adjust"],
             players=4, options={"max_combat_rounds": 20, "turn_limit": 6}, table_setup=True,
             adjust_at=[25]),
    Scenario("grail", "in-progress", ["live match", "undo", "table chance"],
             options={"max_combat_rounds": 20}, table_every=4, undo_at={20: 2}, stop_at=60),
    Scenario("edge", "two-players-long", ["2 players", "long", "undo", "adjust",
                                         "position digests p1"],
             options={"turn_limit": 40}, max_actions=600, undo_at={50: 2}, adjust_at=[30, 150],
             view_positions=4),
    Scenario("edge", "three-players-concession", ["3 players", "concession", "undo",
                                                 "turn limit"],
             players=3, options={"turn_limit": 15}, undo_at={20: 1}, concede_at={60: 2}),
    Scenario("edge", "four-players-table", ["4 players", "table setup", "table chance",
                                           "turn limit", "adjust"],
             players=4, options={"turn_limit": 8}, table_setup=True, adjust_at=[25]),
    Scenario("edge", "five-players-turn-limit", ["5 players", "turn limit"],
             players=5, options={"turn_limit": 10}),
    Scenario("edge", "six-players-in-progress", ["6 players", "live match", "undo"],
             players=6, undo_at={30: 1}, stop_at=80),
    Scenario("edge", "seven-players-turn-limit", ["7 players", "turn limit", "adjust"],
             players=7, options={"turn_limit": 8}, adjust_at=[20]),
    Scenario("edge", "eight-players-turn-limit", ["8 players", "turn limit"],
             players=8, options={"turn_limit": 9}),
]


def _table_outcomes(kiroku: Kiroku, match_id: UUID, action: dict[str, Any],
                    rng: random.Random) -> list[Any]:
    """Outcomes as a physical table would enter them: what a shuffle there happened to give."""
    ruleset = get_game(kiroku.recorder.get_match(match_id).game)
    chance = RandomChance(rng)
    ruleset.apply(kiroku.recorder.get_match(match_id).state, action, chance)
    return [o.value for o in chance.outcomes]


def record(scenario: Scenario, kiroku: Kiroku) -> UUID:
    """Play ``scenario`` into ``kiroku`` and return the match id."""
    rng = random.Random(scenario.seed)
    ruleset = get_game(scenario.game)
    decks = list(sample_decks(scenario.game))
    names = ["Aiko", "Ben", "Chen", "Dana", "Emil", "Fumi", "Goro", "Hana"][:scenario.players]
    chosen = [decks[s % len(decks)] for s in range(scenario.players)]
    setup = None
    if scenario.table_setup:
        probe = RandomChance(random.Random(rng.random()))
        config = MatchConfig(players=names, cards=sample_card_set(scenario.game).cards,
                             decks=[sample_decks(scenario.game)[d].cards for d in chosen],
                             options=scenario.options)
        ruleset.setup(config, probe)
        setup = [o.value for o in probe.outcomes]
    match_id = kiroku.new_match(scenario.game, names, chosen, options=scenario.options,
                                recorded_by=RECORDED_BY, seed=scenario.seed,
                                setup_outcomes=setup)
    done: set[int] = set()
    for _ in range(scenario.max_actions * 2):
        match = kiroku.recorder.get_match(match_id)
        position = len(match.live)
        if match.ended or position >= scenario.max_actions or position == scenario.stop_at:
            break
        if position in scenario.undo_at and position not in done:
            done.add(position)
            kiroku.undo(match_id, scenario.undo_at[position], reason="misrecorded: backed up",
                        recorded_by=JUDGE_NAME)
            continue
        if position in scenario.concede_at and -position not in done:
            done.add(-position)
            kiroku.record(match_id, {"type": "concede", "seat": scenario.concede_at[position]},
                          recorded_by=names[scenario.concede_at[position] - 1])
            continue
        seat = rng.choice(ruleset.to_act(match.state))
        if position in scenario.adjust_at and 1000 + position not in done:
            done.add(1000 + position)
            view = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)["state"]
            kiroku.record(match_id, ADJUSTERS[scenario.game](view, seat),
                          recorded_by=JUDGE_NAME)
            continue
        action = rng.choice(ruleset.legal_actions(match.state, seat)).model_dump(mode="json")
        outcomes = None
        # a match set up from the table takes every later outcome from the table too
        if scenario.table_setup or (scenario.table_every and
                                    (position + 1) % scenario.table_every == 0):
            outcomes = _table_outcomes(kiroku, match_id, action, rng)
        try:
            kiroku.record(match_id, action, recorded_by=names[seat - 1], outcomes=outcomes)
        except IllegalAction as exc:  # a sampled action must be legal: stop loudly
            raise SystemExit(f"{scenario.name}: legal action refused: {exc.message}") from None
    return match_id


def _view_positions(total: int, count: int) -> list[int]:
    if total == 0:
        return [0]
    return sorted({round(total * i / (count - 1)) for i in range(count)})


def write(scenario: Scenario, kiroku: Kiroku, match_id: UUID, target: Path) -> None:
    """Write the export and the expected outcome and views."""
    target.mkdir(parents=True)
    (target / "match.jsonl").write_bytes(kiroku.export(kiroku.seen_by(match_id, JUDGE), "jsonl"))
    summary = kiroku.summary(kiroku.seen_by(match_id))
    audit = kiroku.audit(match_id)
    assert audit.ok, audit.to_dict()
    positions = _view_positions(summary["positions"], scenario.view_positions)
    expected = {
        "game": scenario.game, "scenario": scenario.name, "covers": scenario.covers,
        "ruleset_version": summary["ruleset_version"], "players": summary["players"],
        "positions": summary["positions"], "version": summary["version"],
        "result": summary["result"], "to_act": summary["to_act"],
        "audit": {"ok": audit.ok, "events": audit.events, "actions": audit.actions},
        "judge_views": {str(p): kiroku.view(kiroku.seen_by(match_id, JUDGE), p)["state"]
                        for p in positions},
    }
    (target / "expected.json").write_text(
        json.dumps(expected, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
        encoding="utf-8")


def main() -> int:
    """Record every scenario that has no files yet."""
    with tempfile.TemporaryDirectory() as tmp:
        kiroku = Kiroku.open(f"sqlite:///{tmp}/golden.db")
        try:
            for scenario in SCENARIOS:
                target = GOLDEN_DIR / scenario.game / scenario.name
                if target.exists():
                    print(f"kept      {target.relative_to(GOLDEN_DIR)} (never regenerated)")
                    continue
                match_id = record(scenario, kiroku)
                write(scenario, kiroku, match_id, target)
                print(f"recorded  {target.relative_to(GOLDEN_DIR)}: "
                      f"{kiroku.summary(kiroku.seen_by(match_id))['positions']} positions")
        finally:
            kiroku.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
