"""``kiroku match act`` takes the number ``kiroku match legal`` printed (issue 43): the legal
action of that number for that seat at the version legal printed, and nothing else. A number
from a list the match has moved past, one the list does not have, or one without its seat and
version is refused, with a non-zero exit status, and nothing is recorded."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import Result

from tests.cli.conftest import kiroku


def _match(db: str) -> str:
    return kiroku(db, "match", "new", "worldgainer", "--player", "Aiko", "--player", "Ben",
                  "--deck", "solar_vanguard", "--deck", "pleiades_bloom",
                  "--option", "first_player=1").stdout.strip()


def _version(db: str, match_id: str) -> int:
    return int(json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["version"])


def _listed(db: str, match_id: str, seat: int) -> tuple[list[str], list[dict[str, object]]]:
    """What legal prints for ``seat``: its lines, and its actions as JSON, in order."""
    lines = kiroku(db, "match", "legal", match_id, "--seat", str(seat)).stdout.splitlines()
    scripted = kiroku(db, "match", "legal", match_id, "--seat", str(seat), "--json").stdout
    return lines, [json.loads(line) for line in scripted.splitlines()]


def _act(db: str, match_id: str, *args: str) -> Result:
    return kiroku(db, "match", "act", match_id, *args, ok=False)


def test_the_number_legal_printed_records_that_action(db: str, tmp_path: Path) -> None:
    match_id = _match(db)
    lines, actions = _listed(db, match_id, 1)
    assert lines[-1].endswith(f"kiroku match act {match_id} NUMBER --seat 1 "
                              "--expect-version 1")
    number = next(i for i, a in enumerate(actions, start=1) if a["type"] != "end_turn")
    said = lines[number].split(None, 1)[1].strip()  # its sentence, after its number
    done = kiroku(db, "match", "act", match_id, str(number), "--seat", "1",
                  "--expect-version", "1", "--json").stdout
    assert json.loads(done)["version"] == 2
    transcript = kiroku(db, "transcript", match_id).stdout
    assert said.rstrip(".") in transcript, (said, transcript)
    # the stored action is exactly the one legal listed under that number
    kiroku(db, "export", match_id, "--format", "jsonl", "-o", str(tmp_path / "m.jsonl"))
    events = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    recorded = [e for e in events if e.get("event") == "ActionRecorded"]
    assert [e["action"] for e in recorded] == [actions[number - 1]]


def test_a_number_from_before_the_match_moved_is_refused(db: str) -> None:
    match_id = _match(db)
    _, actions = _listed(db, match_id, 1)
    end = actions.index({"type": "end_turn", "seat": 1}) + 1
    kiroku(db, "match", "act", match_id, str(end), "--seat", "1", "--expect-version", "1")
    again = _act(db, match_id, "1", "--seat", "1", "--expect-version", "1")
    assert again.exit_code == 2
    assert again.stderr.startswith("error [concurrent_append]: The match is at version 2, "
                                   "not 1"), again.stderr
    assert "nothing was recorded" in again.stderr
    assert _version(db, match_id) == 2


def test_a_number_the_list_does_not_have_is_refused(db: str) -> None:
    match_id = _match(db)
    _, actions = _listed(db, match_id, 1)
    for number in (len(actions) + 1, 0):
        refused = _act(db, match_id, str(number), "--seat", "1", "--expect-version", "1")
        assert refused.exit_code == 2
        assert (f"seat 1 has no legal action {number} at version 1 (it lists 1 to "
                f"{len(actions)})") in refused.output
    waiting = _act(db, match_id, "1", "--seat", "2", "--expect-version", "1")
    assert waiting.exit_code == 2 and "(it lists none)" in waiting.output
    assert _version(db, match_id) == 1


def test_a_number_needs_the_seat_and_version_legal_printed(db: str) -> None:
    match_id = _match(db)
    for missing in (["--seat", "1"], ["--expect-version", "1"], []):
        refused = _act(db, match_id, "1", *missing)
        assert refused.exit_code == 2
        assert "--seat SEAT --expect-version VERSION" in refused.output
    assert _version(db, match_id) == 1


def test_a_number_for_a_seat_the_match_does_not_have_is_an_error(db: str) -> None:
    match_id = _match(db)
    refused = _act(db, match_id, "1", "--seat", "5", "--expect-version", "1")
    assert refused.exit_code == 2 and refused.stderr.startswith("error [bad_seat]: ")
    assert _version(db, match_id) == 1
