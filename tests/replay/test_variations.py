"""What-if lines (issue 13): branching from a live position or from another line, played by
the same rules with the variation's own chance, taken back without erasing, and kept from
anyone the match's hidden cards are kept from."""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

import pytest

from engine.core.errors import IllegalAction
from engine.registry import get_game
from ledger.errors import Forbidden
from ledger.identity import Identity
from ledger.variations import VariationNotFound, VariationRefused
from replay import variations as lines
from replay.service import Kiroku

JUDGE_ID = Identity.operator("Judge Jun")
WORLDGAINER = get_game("worldgainer")


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _match(kiroku: Kiroku, policy: str = "open", turns: int = 4) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1},
                                replay_policy=policy)
    for turn in range(turns):
        seat = 1 + turn % 2
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")
    return match_id


def _seat(kiroku: Kiroku, match_id: UUID, seat: int) -> Identity:
    token = kiroku.seat_credentials(match_id, JUDGE_ID)[seat - 1]["token"]
    return kiroku.credentials.authenticate(token)


def _start(kiroku: Kiroku, match_id: UUID, by: Identity = JUDGE_ID, position: int | None = 2,
           visibility: str = "private") -> UUID:
    made = lines.start(kiroku, kiroku.audience(match_id, by), position, None, None, "what if",
                       visibility)
    return UUID(made["variation_id"])


def test_a_line_is_played_by_the_rules_and_leaves_the_match_alone(kiroku: Kiroku) -> None:
    match_id = _match(kiroku)
    before = kiroku.records(kiroku.seen_by(match_id))
    variation = _start(kiroku, match_id)
    state = lines.state_of(kiroku, kiroku.variations.get(variation))
    assert WORLDGAINER.digest(state) == kiroku.view(
        kiroku.seen_by(match_id, JUDGE_ID.viewer_of(match_id)), 2)["digest"]
    lines.play(kiroku, JUDGE_ID, variation, {"type": "end_turn", "seat": 1}, None)
    with pytest.raises(IllegalAction):
        lines.play(kiroku, JUDGE_ID, variation, {"type": "end_turn", "seat": 1}, None)
    read = lines.read(kiroku, JUDGE_ID, variation, None)
    assert read["position"] == 1 and read["to_act"] == [2]
    assert len(kiroku.variations.get(variation).line) == 1
    assert kiroku.records(kiroku.seen_by(match_id)) == before


def test_a_variation_stays_where_it_branched_after_the_match_is_undone(
        kiroku: Kiroku) -> None:
    match_id = _match(kiroku, turns=4)
    variation = _start(kiroku, match_id, position=3)
    at_branch = lines.read(kiroku, JUDGE_ID, variation, 0)["digest"]
    kiroku.undo(match_id, None, to_position=1, reason="backup", recorded_by="judge")
    kiroku.record(match_id, {"type": "end_turn", "seat": 2}, recorded_by="P2")
    assert lines.read(kiroku, JUDGE_ID, variation, 0)["digest"] == at_branch


def test_lines_nest_and_take_back_keeps_the_history(kiroku: Kiroku) -> None:
    match_id = _match(kiroku)
    outer = _start(kiroku, match_id)
    lines.play(kiroku, JUDGE_ID, outer, {"type": "end_turn", "seat": 1}, None)
    inner = UUID(lines.start(kiroku, kiroku.audience(match_id, JUDGE_ID), None, outer, 1,
                             "deeper", "private")["variation_id"])
    assert lines.read(kiroku, JUDGE_ID, inner, 0)["digest"] == lines.read(
        kiroku, JUDGE_ID, outer, 1)["digest"]
    lines.play(kiroku, JUDGE_ID, inner, {"type": "end_turn", "seat": 2}, None)
    lines.take_back(kiroku, JUDGE_ID, outer, 1)
    assert kiroku.variations.get(outer).line == []
    assert lines.read(kiroku, JUDGE_ID, inner, 1)["position"] == 1  # still from where it was
    with pytest.raises(VariationRefused):
        lines.take_back(kiroku, JUDGE_ID, outer, 1)


def test_a_seat_of_a_live_match_is_refused_rather_than_shown_hidden_cards(
        kiroku: Kiroku) -> None:
    match_id = _match(kiroku)
    with pytest.raises(Forbidden, match="cards you may not see") as refused:
        _start(kiroku, match_id, by=_seat(kiroku, match_id, 1))
    assert refused.value.code == "forbidden"


def test_after_an_open_replay_anyone_branches_and_public_lines_are_read_by_all(
        kiroku: Kiroku) -> None:
    match_id = _match(kiroku, policy="open")
    ann = _seat(kiroku, match_id, 1)
    judges = _start(kiroku, match_id, visibility="public")
    # the match is on: nobody else reads
    assert lines.listing(kiroku, kiroku.audience(match_id, None)) == []
    with pytest.raises(Forbidden):
        lines.read(kiroku, ann, judges, None)
    kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="P2")
    mine = _start(kiroku, match_id, by=ann, visibility="private")
    lines.play(kiroku, ann, mine, {"type": "end_turn", "seat": 1}, None)
    assert {v["variation_id"]
            for v in lines.listing(kiroku, kiroku.audience(match_id, None))} == {str(judges)}
    assert str(mine) in {v["variation_id"]
                         for v in lines.listing(kiroku, kiroku.audience(match_id, ann))}
    with pytest.raises(Forbidden):
        lines.play(kiroku, _seat(kiroku, match_id, 2), mine, {"type": "end_turn", "seat": 2},
                   None)


def test_a_closed_replay_keeps_variations_to_the_judges(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, policy="closed")
    kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="P2")
    _start(kiroku, match_id, visibility="public")
    assert lines.listing(kiroku, kiroku.audience(match_id, None)) == []
    with pytest.raises(Forbidden):
        _start(kiroku, match_id, by=_seat(kiroku, match_id, 1))


def test_chance_comes_from_the_variations_own_seed_or_the_table(kiroku: Kiroku) -> None:
    match_id = _match(kiroku, turns=0)
    seeded, other = _start(kiroku, match_id, position=0), _start(kiroku, match_id, position=0)
    for variation in (seeded, other):
        lines.play(kiroku, JUDGE_ID, variation, {"type": "end_turn", "seat": 1}, None)
    one, two = (kiroku.variations.get(v).line[0] for v in (seeded, other))
    assert one["chance_source"] == two["chance_source"] == "seed"
    table = _start(kiroku, match_id, position=0)
    with pytest.raises(IllegalAction):
        lines.play(kiroku, JUDGE_ID, table, {"type": "end_turn", "seat": 1}, ["NO-SUCH-CARD"])
    assert kiroku.variations.get(table).line == []


def test_unknown_variations_and_positions(kiroku: Kiroku) -> None:
    match_id = _match(kiroku)
    with pytest.raises(VariationNotFound):
        lines.read(kiroku, JUDGE_ID, UUID(int=0), None)
    with pytest.raises(VariationRefused):
        _start(kiroku, match_id, position=40)
    with pytest.raises(VariationRefused):
        lines.read(kiroku, JUDGE_ID, _start(kiroku, match_id), 3)
