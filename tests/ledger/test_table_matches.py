"""A match set up from a physical table takes every later chance outcome from the table
(issue 9): a forgotten outcome is refused, saying what to enter, never drawn from the seed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import main
from engine import JUDGE, Viewer, get_game
from engine.core.contract import MatchConfig
from engine.core.errors import IllegalAction
from ledger.catalog import sample_card_set, sample_decks
from replay.service import Kiroku
from tests.support import RandomChance

DECKS = ["solar_vanguard", "pleiades_bloom"]


def _dealt() -> list[str]:
    """The outcomes of a physical deal (shuffles seen at the table)."""
    config = MatchConfig(players=["A", "B"], cards=sample_card_set("worldgainer").cards,
                         decks=[sample_decks("worldgainer")[d].cards for d in DECKS],
                         options={"first_player": 1})
    chance = RandomChance(random.Random(5))
    get_game("worldgainer").setup(config, chance)
    return [o.value for o in chance.outcomes]


def _table_match(kiroku: Kiroku) -> UUID:
    return kiroku.new_match("worldgainer", ["A", "B"], DECKS, options={"first_player": 1},
                            setup_outcomes=_dealt())


def test_a_forgotten_outcome_is_refused_saying_what_to_enter(memory_kiroku: Kiroku) -> None:
    match_id = _table_match(memory_kiroku)
    version = memory_kiroku.recorder.get_match(match_id).version
    with pytest.raises(IllegalAction) as refused:  # ending the turn draws seat 2 a card
        memory_kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="judge")
    assert refused.value.reason == "outcome_missing"
    assert "from the table" in refused.value.message
    assert memory_kiroku.recorder.get_match(match_id).version == version


def test_the_outcome_seen_at_the_table_is_recorded(memory_kiroku: Kiroku) -> None:
    match_id = _table_match(memory_kiroku)
    state = memory_kiroku.recorder.get_match(match_id).state
    card = state.player(2).deck[0]  # type: ignore[attr-defined]
    memory_kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="judge",
                         outcomes=[card])
    last = memory_kiroku.records(memory_kiroku.seen_by(match_id))[-1]
    assert last["chance_source"] == "table" and last["outcomes"][0]["value"] == card


def test_an_action_without_chance_needs_no_outcome(memory_kiroku: Kiroku) -> None:
    match_id = _table_match(memory_kiroku)
    memory_kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="judge")
    assert memory_kiroku.recorder.get_match(match_id).ended


def test_the_command_line_records_a_physical_table(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/k.db"
    args = ["--db", db, "match", "new", "worldgainer", "--player", "A", "--player", "B",
            "--deck", DECKS[0], "--deck", DECKS[1], "--option", "first_player=1"]
    for outcome in _dealt():
        args += ["--setup-outcome", str(outcome)]
    made = CliRunner().invoke(main, args)
    assert made.exit_code == 0, made.output
    match_id = made.output.strip()
    forgot = CliRunner().invoke(main, ["--db", db, "match", "act", match_id,
                                       json.dumps({"type": "end_turn", "seat": 1})])
    assert forgot.exit_code == 2 and "outcome_missing" in forgot.output


def test_an_impossible_card_names_the_deck_to_a_judge_only(memory_kiroku: Kiroku) -> None:
    """A card that is not in the deck it would be drawn from is refused saying so; a judge
    is told which cards it could have been, a seat (who must not learn another's deck) not:
    seat 1 may not even enter seat 2's draw (``outcome_not_yours``, before the value is
    looked at)."""
    match_id = _table_match(memory_kiroku)
    judge = {"id": "j", "name": "Jo", "role": "judge"}
    seat = {"id": "s", "name": "A", "role": "seat"}
    absent = "WGS-001" if "WGS-001" not in sample_decks("worldgainer")[DECKS[1]].cards \
        else next(c for c in sample_card_set("worldgainer").cards
                  if c not in sample_decks("worldgainer")[DECKS[1]].cards)
    said, reasons = {}, {}
    for who, by, asker in (("judge", judge, JUDGE), ("seat", seat, Viewer("seat", 1))):
        with pytest.raises(IllegalAction) as refused:
            memory_kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by=by,
                                 outcomes=[absent], asker=asker)
        said[who], reasons[who] = refused.value.message, refused.value.reason
    assert f"{absent} (outcome 1) is not in seat 2's deck" in said["judge"]
    assert "can be one of" in said["judge"] and "can be one of" not in said["seat"]
    assert reasons["seat"] == "outcome_not_yours" and absent not in said["seat"]
