"""Disputes in the service (issue 13): each remedy applied to the match under the ruling's name,
the pause, appeals to the organiser, refusals that store nothing, and the evidence as each
party may see it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from engine import JUDGE
from engine.core.errors import ActionError
from ledger.catalog import Deck
from ledger.disputes import DisputeNotFound, DisputeRefused, MatchPaused
from ledger.errors import Forbidden
from ledger.identity import Identity, Role
from replay import disputes as hearing
from replay.service import Kiroku

HEAD = Identity.operator("Head Judge Hana")


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


@pytest.fixture
def match_id(kiroku: Kiroku) -> UUID:
    return four_turns(kiroku)


def four_turns(kiroku: Kiroku) -> UUID:
    """A World Gainer match four turns in."""
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1})
    for turn in range(4):
        seat = 1 + turn % 2
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")
    return match_id


def _seat(kiroku: Kiroku, match_id: UUID, seat: int) -> Identity:
    token = kiroku.seat_credentials(match_id, HEAD)[seat - 1]["token"]
    return kiroku.credentials.authenticate(token)


def _judge(kiroku: Kiroku, name: str = "Judge Jun") -> Identity:
    return kiroku.credentials.issue(Role.JUDGE, name, issued_by="test")[0]


def _open(kiroku: Kiroku, match_id: UUID, by: Identity, **extra: Any) -> UUID:
    made = hearing.open_dispute(kiroku, by, match_id, extra.get("position"),
                                extra.get("claim", "Ben drew two cards at v4"),
                                extra.get("concerns", [4]), extra.get("pause", False))
    return UUID(made["dispute_id"])


def _end_turn(kiroku: Kiroku, match_id: UUID, who: Identity) -> None:
    kiroku.record(match_id, {"type": "end_turn", "seat": who.seat},
                  recorded_by=who.recorded_by)


def test_a_seat_calls_a_judge_and_the_ruling_changes_nothing(kiroku: Kiroku,
                                                             match_id: UUID) -> None:
    ann, judge = _seat(kiroku, match_id, 1), _judge(kiroku)
    dispute = _open(kiroku, match_id, ann)
    hearing.take(kiroku, judge, dispute, pause=False)
    version = kiroku.recorder.get_match(match_id).version
    ruled = hearing.rule(kiroku, judge, dispute, "No infraction",
                         "The replay shows one draw.", {"kind": "none"})
    assert ruled["status"] == "ruled" and ruled["rulings"][0]["by"]["name"] == "Judge Jun"
    assert ruled["opened_by"] == {**ann.recorded_by, "seat": 1}
    assert kiroku.recorder.get_match(match_id).version == version


def test_a_backup_voids_the_actions_after_the_position_and_names_the_ruling(
        kiroku: Kiroku, match_id: UUID) -> None:
    dispute = _open(kiroku, match_id, HEAD)
    ruled = hearing.rule(kiroku, HEAD, dispute, "Back up to position 2",
                         "The last two actions were recorded for the wrong seat.",
                         {"kind": "backup", "to_position": 2})
    match = kiroku.recorder.get_match(match_id)
    assert len(match.live) == 2
    assert ruled["rulings"][0]["applied"] == {"kind": "backup", "to_position": 2,
                                              "version": match.version}
    assert f"ruling on dispute {dispute}" in kiroku.transcript(kiroku.seen_by(match_id))[-1]


def test_an_adjustment_is_the_judges_adjust_action(kiroku: Kiroku, match_id: UUID) -> None:
    state = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)["state"]
    card = state["seats"][0]["hand"][0]["id"]
    dispute = _open(kiroku, match_id, HEAD)
    hearing.rule(kiroku, HEAD, dispute, "Card returned", "Drawn by mistake.", {
        "kind": "adjustment", "action": {"type": "adjust", "seat": 1, "move": {
            "card": card, "from_zone": "hand", "to_zone": "deck"}}})
    after = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)["state"]["seats"][0]
    assert after["hand_count"] == state["seats"][0]["hand_count"] - 1
    assert "adjust" in kiroku.records(kiroku.seen_by(match_id))[-1]["action"]["type"]


def test_a_game_loss_ends_the_match_against_the_penalised_seat(kiroku: Kiroku,
                                                               match_id: UUID) -> None:
    dispute = _open(kiroku, match_id, HEAD)
    hearing.rule(kiroku, HEAD, dispute, "Game loss", "Marked cards (second offence).",
                 {"kind": "penalty", "penalty": "game_loss", "seat": 2})
    result = kiroku.summary(kiroku.seen_by(match_id))["result"]
    assert result["winners"] == [1] and result["losers"] == [2]
    assert kiroku.audit(match_id).ok


def test_a_warning_is_recorded_in_the_ruling_only(kiroku: Kiroku, match_id: UUID) -> None:
    version = kiroku.recorder.get_match(match_id).version
    dispute = _open(kiroku, match_id, HEAD)
    ruled = hearing.rule(kiroku, HEAD, dispute, "Warning", "Slow play.",
                         {"kind": "penalty", "penalty": "warning", "seat": 1})
    assert ruled["rulings"][0]["applied"] == {"kind": "penalty", "penalty": "warning",
                                              "seat": 1}
    assert kiroku.recorder.get_match(match_id).version == version


def test_a_paused_match_refuses_the_seats_until_the_ruling(kiroku: Kiroku,
                                                           match_id: UUID) -> None:
    ann, judge = _seat(kiroku, match_id, 1), _judge(kiroku)
    dispute = _open(kiroku, match_id, ann)
    _end_turn(kiroku, match_id, ann)  # a dispute alone does not stop play
    taken = hearing.take(kiroku, judge, dispute, pause=True)
    assert taken["pausing"]
    ben = _seat(kiroku, match_id, 2)
    version = kiroku.recorder.get_match(match_id).version
    with pytest.raises(MatchPaused):
        _end_turn(kiroku, match_id, ben)
    assert kiroku.recorder.get_match(match_id).version == version
    hearing.rule(kiroku, judge, dispute, "Play on", "Nothing wrong.", {"kind": "none"})
    _end_turn(kiroku, match_id, ben)


def test_only_a_judge_pauses(kiroku: Kiroku, match_id: UUID) -> None:
    with pytest.raises(Forbidden, match="Only a judge pauses"):
        _open(kiroku, match_id, _seat(kiroku, match_id, 1), pause=True)
    assert kiroku.disputes.of_match(match_id) == []


def test_an_appeal_goes_to_the_organiser_whose_ruling_is_final(kiroku: Kiroku,
                                                               match_id: UUID) -> None:
    ben, judge = _seat(kiroku, match_id, 2), _judge(kiroku)
    dispute = _open(kiroku, match_id, ben, pause=False)
    hearing.rule(kiroku, judge, dispute, "Game loss", "Drew extra cards.",
                 {"kind": "penalty", "penalty": "warning", "seat": 2})
    appealed = hearing.appeal(kiroku, ben, dispute, "It was a misdeal, not a draw.")
    assert appealed["status"] == "appealed"
    with pytest.raises(Forbidden, match="organiser"):
        hearing.rule(kiroku, judge, dispute, "Upheld", "Still.", {"kind": "none"})
    final = hearing.rule(kiroku, HEAD, dispute, "Overturned", "A misdeal: back up.",
                         {"kind": "backup", "to_position": 3})
    assert final["status"] == "final" and final["rulings"][1]["on_appeal"]
    assert len(kiroku.recorder.get_match(match_id).live) == 3
    with pytest.raises(DisputeRefused):
        hearing.appeal(kiroku, ben, dispute, "Again")


def test_a_judge_rules_only_on_a_dispute_it_took(kiroku: Kiroku, match_id: UUID) -> None:
    dispute = _open(kiroku, match_id, HEAD)
    hearing.take(kiroku, _judge(kiroku, "Judge Jun"), dispute, pause=False)
    with pytest.raises(Forbidden, match="Another judge"):
        hearing.rule(kiroku, _judge(kiroku, "Judge Kei"), dispute, "x", "y",
                     {"kind": "none"})


def test_a_remedy_the_rules_refuse_stores_nothing(kiroku: Kiroku, match_id: UUID) -> None:
    dispute = _open(kiroku, match_id, HEAD)
    version = kiroku.recorder.get_match(match_id).version
    bad = [{"kind": "backup", "to_position": 99}, {"kind": "backup"},
           {"kind": "adjustment", "action": {"type": "end_turn", "seat": 1}},
           {"kind": "penalty", "penalty": "game_loss", "seat": 7}, {"kind": "exile"}]
    for remedy in bad:
        with pytest.raises((DisputeRefused, ActionError)):
            hearing.rule(kiroku, HEAD, dispute, "x", "y", remedy)
    assert kiroku.recorder.get_match(match_id).version == version
    assert kiroku.disputes.get(dispute).status == "open"


def test_an_ended_match_cannot_be_backed_up_yet(kiroku: Kiroku, match_id: UUID) -> None:
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
    dispute = _open(kiroku, match_id, HEAD, concerns=[6])
    with pytest.raises(ActionError):
        hearing.rule(kiroku, HEAD, dispute, "x", "y", {"kind": "backup", "to_position": 2})
    assert kiroku.disputes.get(dispute).rulings == []


def test_who_may_open_and_read(kiroku: Kiroku, match_id: UUID) -> None:
    other = kiroku.new_match("worldgainer", ["Cy", "Di"], ["solar_vanguard",
                             "pleiades_bloom"])
    stranger = _seat(kiroku, other, 1)
    with pytest.raises(Forbidden, match="Only the match's seats"):
        _open(kiroku, match_id, stranger)
    dispute = _open(kiroku, match_id, _seat(kiroku, match_id, 1))
    with pytest.raises(Forbidden):
        hearing.read(kiroku, None, dispute)
    with pytest.raises(Forbidden):
        hearing.read(kiroku, stranger, dispute)
    with pytest.raises(DisputeNotFound):
        hearing.read(kiroku, HEAD, UUID(int=0))
    with pytest.raises(DisputeRefused):
        _open(kiroku, match_id, HEAD, concerns=[99])
    with pytest.raises(DisputeRefused):
        _open(kiroku, match_id, HEAD, claim="   ")


def test_the_evidence_as_each_party_sees_it(kiroku: Kiroku, match_id: UUID) -> None:
    ann = _seat(kiroku, match_id, 1)
    dispute = _open(kiroku, match_id, ann, position=2, concerns=[3, 4])
    _end_turn(kiroku, match_id, ann)  # later actions are not part of the evidence
    judge = hearing.read(kiroku, HEAD, dispute)["evidence"]
    assert set(judge["positions"]) == {"seat:1", "seat:2", "spectator"}
    assert [e["version"] for e in judge["events"]] == [3, 4]
    assert judge["events"][0]["recorded_by"] == "P2" and judge["events"][0]["recorded_at"]
    assert judge["audit"]["ok"]
    hands = {s: {c["id"] for c in judge["positions"][s]["seats"][int(s[-1]) - 1]["hand"]}
             for s in ("seat:1", "seat:2")}
    for seat, hand in hands.items():
        assert hand <= {k["card"] for k in judge["knowledge"][seat]}
    own = hearing.read(kiroku, ann, dispute)["evidence"]
    assert set(own["positions"]) == {"seat:1"} and set(own["knowledge"]) == {"seat:1"}
    assert own["positions"]["seat:1"] == judge["positions"]["seat:1"]


GOLDEN = Path(__file__).parents[1] / "data" / "golden" / "grail" / "three-players-concession"


def _grail_up_to_its_dispute(kiroku: Kiroku) -> tuple[UUID, dict[str, Any]]:
    """The recorded Quest for the Grail match, replayed from its seed up to the moment seat 3
    disputes seat 2's alternate victory (G8); returns the match and the judge's ruling that
    followed."""
    records = [json.loads(line) for line in GOLDEN.joinpath("match.jsonl").open()][1:]
    created = records[0]
    seed = next(r["seed"] for r in records if r["event"] == "SeedRevealed")
    config = created["config"]
    match_id = kiroku.new_match(
        "grail", config["players"], [Deck("grail", "", "", d) for d in config["decks"]],
        cards=config["cards"], options=config["options"], seed=bytes.fromhex(seed))
    chen = _seat(kiroku, match_id, 3)
    ruling: dict[str, Any] = {}
    for record in records[1:]:
        if record["event"] == "ActionsUndone":
            kiroku.undo(match_id, record["count"], reason=record["reason"], recorded_by="judge")
        elif record["event"] == "ActionRecorded":
            if record["action"]["type"] == "rule_claim":
                ruling = record["action"]
                break
            by = chen.recorded_by if record["action"]["type"] == "dispute" else "P"
            kiroku.record(match_id, record["action"], recorded_by=by)
    return match_id, ruling


def test_a_games_own_dispute_calls_a_judge_whose_ruling_is_the_games(kiroku: Kiroku) -> None:
    """Quest for the Grail G8: disputing a claim in the game opens a dispute by itself; the
    judge's ruling gives the game's rule_claim as its remedy, and the match goes on exactly as
    recorded."""
    match_id, ruling = _grail_up_to_its_dispute(kiroku)
    [opened] = kiroku.disputes.of_match(match_id)
    assert opened.opened_by["name"] == "Chen" and opened.opened_by["seat"] == 3
    assert opened.concerns == [kiroku.recorder.get_match(match_id).version]
    judge = _judge(kiroku)
    with pytest.raises(DisputeRefused):
        hearing.rule(kiroku, judge, opened.id, "x", "y", {"kind": "game_ruling", "action": {
            "type": "end_phase", "seat": 1}})
    ruled = hearing.rule(kiroku, judge, opened.id, "Claim upheld" if ruling["upheld"] else
                         "Claim overturned", ruling["reason"],
                         {"kind": "game_ruling", "action": ruling})
    assert ruled["rulings"][0]["applied"]["type"] == "rule_claim"
    expected = [json.loads(line) for line in GOLDEN.joinpath("match.jsonl").open()][1:]
    last = kiroku.records(kiroku.seen_by(match_id))[-1]
    assert last["digest"] == expected[last["version"] - 1]["digest"]
    assert last["recorded_by"]["name"] == "Judge Jun"
