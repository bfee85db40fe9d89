"""A tap sent twice records once (issue 40): an action sent again on the version it was made
on, by the same credential, after the first was stored, gets the first one's answer and stores
nothing; anything else on a stale version is still a conflict."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from ledger.errors import ConcurrentAppend
from replay.service import Kiroku

ANN = {"id": "c-ann", "name": "Ann", "role": "seat"}
JUDGE = {"id": "c-judge", "name": "Kato", "role": "judge"}


def _match(kiroku: Kiroku) -> tuple[Any, dict[str, Any]]:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"],
                                ["solar_vanguard", "pleiades_bloom"],
                                options={"first_player": 1}, seed=b"resend" * 6)
    state = kiroku.recorder.get_match(match_id).state
    action = get_game("worldgainer").legal_actions(state, 1)[0].model_dump(mode="json")
    return match_id, action


def test_a_resend_gets_the_first_answer_and_stores_nothing(kiroku: Kiroku) -> None:
    match_id, action = _match(kiroku)
    version = kiroku.recorder.get_match(match_id).version
    first = kiroku.record(match_id, action, recorded_by=ANN, expected_version=version)
    again = kiroku.record(match_id, action, recorded_by=ANN, expected_version=version)
    assert (again.version, again.seq, again.digest, again.head) == (
        first.version, first.seq, first.digest, first.head)
    assert kiroku.recorder.get_match(match_id).version == first.version


def test_another_action_or_another_author_on_a_stale_version_is_a_conflict(
        kiroku: Kiroku) -> None:
    match_id, action = _match(kiroku)
    version = kiroku.recorder.get_match(match_id).version
    kiroku.record(match_id, action, recorded_by=ANN, expected_version=version)
    with pytest.raises(ConcurrentAppend):
        kiroku.record(match_id, action, recorded_by=JUDGE, expected_version=version)
    other = {"type": "concede", "seat": 1}
    with pytest.raises(ConcurrentAppend):
        kiroku.record(match_id, other, recorded_by=ANN, expected_version=version)
    assert kiroku.recorder.get_match(match_id).version == version + 1
