"""The ``kiroku`` command line, run in-process with click's CliRunner on temporary SQLite files."""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import msgpack
import pytest
from click.testing import CliRunner

from cli.main import main
from ledger.transcoder import READ, stored_fields
from tests.cli.conftest import kiroku

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
ACTION_TOPIC = "kiroku:ActionRecorded/1"


def new_match(db: str, *extra: str) -> str:
    result = kiroku(db, "match", "new", "worldgainer", "--player", "Aiko", "--player", "Ben",
                    "--deck", "solar_vanguard", "--deck", "pleiades_bloom",
                    "--option", "first_player=1", *extra)
    match_id = result.stdout.strip()
    assert UUID_RE.match(match_id), result.output
    return match_id


def legal(db: str, match_id: str, seat: int) -> list[dict[str, Any]]:
    out = kiroku(db, "match", "legal", match_id, "--seat", str(seat), "--json").stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def act(db: str, match_id: str, action: dict[str, Any]) -> dict[str, Any]:
    out = kiroku(db, "match", "act", match_id, json.dumps(action), "--by", "tester",
                 "--json").stdout
    return json.loads(out)  # type: ignore[no-any-return]


def stun_of(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return next(a for a in actions if a["type"] == "stun")


def play_opening(db: str, match_id: str) -> None:
    """Four actions: each seat places a stun and ends the turn (events v2..v5)."""
    for seat in (1, 2):
        act(db, match_id, stun_of(legal(db, match_id, seat)))
        act(db, match_id, {"type": "end_turn", "seat": seat})


# ----- games ---------------------------------------------------------------------------------
def test_games_lists_worldgainer(db: str) -> None:
    out = kiroku(db, "games").stdout
    assert re.search(r"^worldgainer\s+World Gainer", out, re.MULTILINE), out


def test_actions_prints_the_json_schema(db: str) -> None:
    schema = json.loads(kiroku(db, "actions", "worldgainer").stdout)
    assert "$defs" in schema
    types = {d["properties"]["type"].get("const") for d in schema["$defs"].values()
             if "type" in d.get("properties", {})}
    assert {"stun", "gain", "end_turn", "concede"} <= types
    bad = kiroku(db, "actions", "nope", ok=False)
    assert bad.exit_code != 0 and "Unknown game" in bad.output


# ----- matches -------------------------------------------------------------------------------
def test_match_new_and_list(db: str) -> None:
    match_id = new_match(db)
    uuid.UUID(match_id)
    out = kiroku(db, "match", "list").stdout
    line = next(line for line in out.splitlines() if line.startswith(match_id))
    assert "in progress" in line and "Aiko v Ben" in line
    shown = json.loads(kiroku(db, "match", "show", match_id[:8], "--json").stdout)
    assert shown["match_id"] == match_id and shown["positions"] == 0 and shown["seed"] is None


def test_match_act_records_a_legal_action(db: str) -> None:
    match_id = new_match(db)
    done = act(db, match_id, stun_of(legal(db, match_id, 1)))
    assert done["version"] == 2 and done["seq"] == 1 and done["result"] is None
    assert json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["positions"] == 1


def test_match_act_reads_the_action_from_stdin(db: str) -> None:
    match_id = new_match(db)
    stun = json.dumps(stun_of(legal(db, match_id, 1)))
    out = kiroku(db, "match", "act", match_id, "-", "--by", "tester", "--json",
                 input=stun).stdout
    assert json.loads(out)["version"] == 2


def test_match_act_illegal_action_exits_2(db: str) -> None:
    match_id = new_match(db)
    result = kiroku(db, "match", "act", match_id, '{"type": "end_turn", "seat": 2}',
                    "--by", "tester", ok=False)
    assert result.exit_code == 2
    assert "not_your_turn" in result.stderr
    assert json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["version"] == 1


def test_match_act_bad_json_fails_with_a_message(db: str) -> None:
    match_id = new_match(db)
    result = kiroku(db, "match", "act", match_id, "{not json", "--by", "tester", ok=False)
    assert result.exit_code != 0
    assert "not JSON" in result.output
    malformed = kiroku(db, "match", "act", match_id, '{"type": "fly", "seat": 1}',
                       "--by", "tester", ok=False)
    assert malformed.exit_code == 2 and "malformed_action" in malformed.stderr


def test_match_undo_needs_a_reason(db: str) -> None:
    match_id = new_match(db)
    act(db, match_id, stun_of(legal(db, match_id, 1)))
    missing = kiroku(db, "match", "undo", match_id, "--by", "judge", ok=False)
    assert missing.exit_code != 0 and "--reason" in missing.output
    assert json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["version"] == 2
    done = json.loads(kiroku(db, "match", "undo", match_id, "--reason", "misplay",
                             "--by", "judge", "--json").stdout)
    assert done["version"] == 3
    shown = json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)
    assert shown["positions"] == 0
    lines = kiroku(db, "transcript", match_id, "--as", "judge").stdout.splitlines()
    assert lines[1].endswith("[undone]") and "misplay" in lines[2]


# ----- replay and transcript -----------------------------------------------------------------
def test_replay_at_0_as_seat_1(db: str) -> None:
    match_id = new_match(db)
    act(db, match_id, stun_of(legal(db, match_id, 1)))
    view = json.loads(kiroku(db, "replay", match_id, "--at", "0", "--as", "seat:1",
                             "--json").stdout)
    assert view["position"] == 0 and view["positions"] == 1 and view["viewer"] == "seat:1"
    seats = view["state"]["seats"]
    assert isinstance(seats[0]["hand"], list) and len(seats[0]["hand"]) == 7
    assert seats[1]["hand"] is None and seats[1]["hand_count"] == 7
    bad = kiroku(db, "replay", match_id, "--at", "9", ok=False)
    assert bad.exit_code == 2 and "bad_position" in bad.stderr
    viewer = kiroku(db, "replay", match_id, "--as", "bogus", ok=False)
    assert viewer.exit_code == 2 and "Unknown viewer" in viewer.output


def test_transcript_hides_other_seats_draws(db: str) -> None:
    match_id = new_match(db)
    play_opening(db, match_id)
    judge = kiroku(db, "transcript", match_id, "--as", "judge").stdout
    seat2 = kiroku(db, "transcript", match_id, "--as", "seat:2").stdout
    assert len(judge.splitlines()) == len(seat2.splitlines()) == 5

    judge_phrase = re.search(r"Seat 1 draws [^.]*\(\w+ \d+\)[^.]*\.", judge)
    assert judge_phrase, judge  # the judge sees seat 1's opening hand by name
    assert judge_phrase.group(0) not in seat2
    assert "Seat 1 draws 7 cards." in seat2
    # seat 1's draw at the start of its second turn (v5) is a count for seat 2, a name for judge
    assert seat2.splitlines()[4].endswith("Seat 1 draws a card.")
    assert not judge.splitlines()[4].endswith("Seat 1 draws a card.")
    # seat 2's own draws are named to seat 2
    own = re.search(r"Seat 2 draws [^.]*\(\w+ \d+\)[^.]*\.", judge)
    assert own and own.group(0) in seat2


# ----- simulation ----------------------------------------------------------------------------
def _sim_lines(db: str) -> list[str]:
    out = kiroku(db, "simulate", "worldgainer", "-n", "2", "--seed", "5").stdout
    lines = out.splitlines()
    assert len(lines) == 2, out
    for line in lines:
        assert UUID_RE.match(line.split()[0]) and "winners=[" in line
    return [line.split(None, 1)[1] for line in lines]  # without the (random) match ids


def test_simulate_is_reproducible(tmp_path: Path) -> None:
    first, second = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    lines = _sim_lines(first)
    assert kiroku(first, "match", "list").stdout == ""  # simulated matches are kept apart
    listed = kiroku(first, "match", "list", "--simulated").stdout.splitlines()
    assert len(listed) == 2
    assert all("won by seat" in line and "in progress" not in line for line in listed)
    assert _sim_lines(second) == lines
    assert kiroku(second, "audit", "verify").stdout.endswith("2 verified, 0 failed\n")


# ----- audit ---------------------------------------------------------------------------------
def _tamper(db_file: Path, match_id: str, version: int) -> None:
    """Change the recorded_by of one stored ActionRecorded row, re-encoding it faithfully."""
    con = sqlite3.connect(db_file)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "stored_events" in tables, tables
        rows = con.execute("SELECT originator_id, originator_version, state FROM stored_events "
                           "WHERE topic = ? AND originator_version = ?",
                           (ACTION_TOPIC, version)).fetchall()
        rows = [r for r in rows if str(uuid.UUID(str(r[0]))) == match_id]
        assert len(rows) == 1, rows
        originator_id, _, blob = rows[0]
        assert blob[0] in READ  # the storage format byte
        obj = stored_fields(blob)
        assert obj["recorded_by"]["name"] == "tester"
        assert obj["recorded_by"]["role"] == "organiser"  # the command line acts as organiser
        obj["recorded_by"] = {**obj["recorded_by"], "name": "mallory"}
        new = bytes([1]) + msgpack.packb(obj, use_bin_type=True)
        con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND "
                    "originator_version = ?", (new, originator_id, version))
        con.commit()
    finally:
        con.close()


def test_audit_verify_detects_a_tampered_row(tmp_path: Path, db: str) -> None:
    match_id = new_match(db)
    play_opening(db, match_id)
    other = new_match(db)
    good = kiroku(db, "audit", "verify")
    assert good.exit_code == 0
    assert f"ok      {match_id}" in good.stdout and "2 verified, 0 failed" in good.stdout
    assert kiroku(db, "audit", "verify", match_id).exit_code == 0

    _tamper(tmp_path / "k.db", match_id, 4)

    bad = kiroku(db, "audit", "verify", match_id, ok=False)
    assert bad.exit_code == 1, bad.output
    assert f"FAILED  {match_id}  at event v4 (ActionRecorded): hash_mismatch" in bad.stdout
    assert "0 verified, 1 failed" in bad.stdout
    every = kiroku(db, "audit", "verify", ok=False)
    assert every.exit_code == 1
    assert f"ok      {other}" in every.stdout and "1 verified, 1 failed" in every.stdout


# ----- export and import ---------------------------------------------------------------------
def test_export_then_import_into_another_db(tmp_path: Path, db: str) -> None:
    match_id = new_match(db)
    play_opening(db, match_id)
    path = tmp_path / "m.kiroku"
    out = kiroku(db, "export", match_id, "-o", str(path)).stdout
    assert out.startswith(f"wrote {path}") and path.stat().st_size > 0

    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert kiroku(other, "import", str(path)).stdout.strip() == f"imported {match_id}"
    assert kiroku(other, "audit", "verify", match_id).exit_code == 0
    assert (kiroku(other, "transcript", match_id, "--as", "judge").stdout
            == kiroku(db, "transcript", match_id, "--as", "judge").stdout)
    again = kiroku(other, "import", str(path))
    assert again.stdout.strip() == f"already stored, with exactly these events: {match_id}"

    jsonl = tmp_path / "m.jsonl"
    kiroku(db, "export", match_id, "--format", "jsonl", "-o", str(jsonl))
    third = f"sqlite:///{tmp_path / 'third.db'}"
    assert kiroku(third, "import", str(jsonl)).stdout.strip() == f"imported {match_id}"


def test_import_of_a_garbage_file_is_rejected(tmp_path: Path, db: str) -> None:
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x00\x01 definitely not a match")
    result = kiroku(db, "import", str(garbage), ok=False)
    assert result.exit_code == 2
    assert "import_rejected" in result.stderr
    assert kiroku(db, "match", "list").stdout == ""


# ----- errors --------------------------------------------------------------------------------
def test_unknown_match_id_exits_2(db: str) -> None:
    new_match(db)
    result = kiroku(db, "match", "show", str(uuid.uuid4()), ok=False)
    assert result.exit_code == 2 and "match_not_found" in result.stderr
    prefix = kiroku(db, "transcript", "zzzz", ok=False)
    assert prefix.exit_code == 2 and "match_not_found" in prefix.stderr


def test_unsupported_database_url_exits_2(db: str) -> None:
    result = kiroku("ftp://x", "match", "list", ok=False)
    assert result.exit_code == 2
    assert "Unsupported database URL 'ftp://x'" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_database_url_from_the_environment(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIROKU_DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    runner = CliRunner()
    made = runner.invoke(main, ["match", "new", "worldgainer", "--player", "A", "--player", "B",
                                "--deck", "solar_vanguard", "--deck", "pleiades_bloom"])
    assert made.exit_code == 0, made.output
    assert (tmp_path / "env.db").exists()
    listed = runner.invoke(main, ["match", "list"])
    assert made.stdout.strip() in listed.stdout


def test_illuminati_from_the_command_line(db: str) -> None:
    """The README's Illuminati walkthrough: face-down choices, a refused action, to_act."""
    result = kiroku(db, "match", "new", "illuminati", "--player", "Ann", "--player", "Ben",
                    "--player", "Cy", "--deck", "paper_trail", "--deck", "boardroom_shadows",
                    "--deck", "strange_frequencies")
    match_id = result.stdout.strip()
    for seat, card in ((1, "sealed-envelope"), (2, "bottomless-mug"),
                       (3, "quiet-cartographers")):
        act(db, match_id, {"type": "choose_illuminati", "seat": seat, "card": card})
    refused = kiroku(db, "match", "act", match_id, json.dumps({"type": "begin_main", "seat": 1}),
                     "--by", "tester", ok=False)
    assert refused.exit_code != 0 and "setup_not_done" in refused.output
    for _ in range(10):  # rounds of initial groups until no name is revealed twice (I9)
        for seat in json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["to_act"]:
            act(db, match_id, legal(db, match_id, seat)[0])
        groups = json.loads(kiroku(db, "replay", match_id, "--as", "seat:2",
                                   "--json").stdout)["state"]
        if groups["phase"] == "beginning":
            break
    summary = json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)
    assert summary["to_act"] == [summary["active"]] == groups["order"][:1]
    assert all(s["power_structure"]["kind"] == "illuminati" for s in groups["seats"])
    assert groups["seats"][0]["plot_hand"] is None and groups["seats"][1]["plot_hand"]


def test_annotate_and_list_annotations_as_each_reader(db: str) -> None:
    match_id = new_match(db)
    public = kiroku(db, "annotate", match_id, "--text", "a bold keep", "--symbol",
                    "interesting", "--highlight", "hand#2", "--at", "0").stdout.strip()
    judges = kiroku(db, "annotate", match_id, "--text", "deck count?", "--symbol",
                    "rules_question", "--visibility", "judges",
                    "--by", "Judge Jun").stdout.strip()
    assert UUID_RE.match(public) and UUID_RE.match(judges)
    spectators = kiroku(db, "annotations", match_id).stdout
    assert "!? a bold keep highlights hand#2" in spectators and "deck count" not in spectators
    judge = kiroku(db, "annotations", match_id, "--as", "judge").stdout
    assert "[judges] Judge Jun: ?R deck count?" in judge


def test_annotate_refuses_what_its_readers_may_not_see(db: str) -> None:
    match_id = new_match(db)
    hand = json.loads(kiroku(db, "replay", match_id, "--as", "judge", "--json").stdout)
    card = hand["state"]["seats"][0]["hand"][0]["id"]
    refused = kiroku(db, "annotate", match_id, "--highlight", card, ok=False)
    assert refused.exit_code == 2 and "annotation_refused" in refused.output
    assert kiroku(db, "annotations", match_id, "--as", "judge").stdout == ""
    bad_seat = kiroku(db, "annotations", match_id, "--as", "seat:5", ok=False)
    assert bad_seat.exit_code == 2 and "no seat 5" in bad_seat.output


def test_a_dispute_from_the_command_line(db: str) -> None:
    match_id = new_match(db)
    kiroku(db, "match", "act", match_id, '{"type": "end_turn", "seat": 1}')
    dispute = kiroku(db, "dispute", "open", match_id, "--claim", "ended the wrong turn",
                     "--concerns", "2").stdout.strip()
    assert UUID_RE.match(dispute)
    assert "paused" in kiroku(db, "dispute", "take", dispute, "--pause").stdout
    evidence = json.loads(kiroku(db, "dispute", "show", dispute, "--as", "seat:2",
                                 "--json").stdout)
    readable = kiroku(db, "dispute", "show", dispute).stdout
    assert readable.startswith(f"Dispute {dispute}") and "Audit: ok" in readable
    assert "as seat:1" in readable and "as seat:2" in readable
    assert list(evidence["evidence"]["positions"]) == ["seat:2"]
    ruled = kiroku(db, "dispute", "rule", dispute, "--decision", "Back up",
                   "--reasoning", "Wrong seat.", "--remedy", "backup", "--to", "0").stdout
    assert ruled.startswith("ruled:") and '"to_position": 0' in ruled
    listed = kiroku(db, "dispute", "list", match_id).stdout
    assert "ruled" in listed and "-> Back up" in listed
    bad = kiroku(db, "dispute", "rule", dispute, "--decision", "x", "--reasoning", "y",
                 "--remedy", "adjustment", "--adjust", "{not json", ok=False)
    assert bad.exit_code == 2 and "not JSON" in bad.output


def test_a_variation_from_the_command_line(db: str) -> None:
    match_id = new_match(db)
    line = kiroku(db, "variation", "start", match_id, "--name", "what if", "--at", "0"
                  ).stdout.strip()
    assert UUID_RE.match(line)
    assert "1 action(s)" in kiroku(db, "variation", "play", line,
                                   '{"type": "end_turn", "seat": 1}').stdout
    illegal = kiroku(db, "variation", "play", line, '{"type": "end_turn", "seat": 1}',
                     ok=False)
    assert illegal.exit_code == 2 and "error [" in illegal.output
    shown = json.loads(kiroku(db, "variation", "show", line, "--json").stdout)
    assert kiroku(db, "variation", "show", line).stdout.startswith("Variation ")
    assert shown["position"] == 1 and shown["to_act"] == [2]
    assert "from position 0" in kiroku(db, "variation", "list", match_id).stdout
    assert "0 action(s)" in kiroku(db, "variation", "back", line).stdout
    assert json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["version"] == 1


def test_a_study_from_and_back_to_the_command_line(db: str, tmp_path: Path) -> None:
    match_id = new_match(db)
    kiroku(db, "annotate", match_id, "--text", "opening", "--symbol", "good", "--at", "0")
    kiroku(db, "variation", "start", match_id, "--name", "line", "--visibility", "public")
    text = kiroku(db, "study", "export", match_id).stdout
    assert text.startswith('[Kiroku "study/1"]') and '"text": "opening"' in text
    path = tmp_path / "m.study"
    path.write_text(text, encoding="utf-8")
    done = kiroku(db, "study", "import", str(path)).stdout
    assert "1 annotation(s) and 1 variation(s) added" in done
    path.write_text("[Kiroku \"study/1\"]\n", encoding="utf-8")
    bad = kiroku(db, "study", "import", str(path), ok=False)
    assert bad.exit_code == 2 and "import_rejected" in bad.output


def test_a_ruling_reopens_an_ended_match_from_the_command_line(db: str) -> None:
    match_id = new_match(db)
    kiroku(db, "match", "act", match_id, '{"type": "end_turn", "seat": 1}')
    kiroku(db, "match", "act", match_id, '{"type": "concede", "seat": 2}', "--yes")
    dispute = kiroku(db, "dispute", "open", match_id, "--claim", "misrecorded concession"
                     ).stdout.strip()
    ruled = kiroku(db, "dispute", "rule", dispute, "--decision", "Reopened", "--reasoning",
                   "Ben never conceded.", "--remedy", "reopen", "--to", "1", "--yes").stdout
    assert '"kind": "reopen"' in ruled
    assert json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["result"] is None
    assert "match reopened (seed segment 2" in kiroku(db, "transcript", match_id).stdout
    assert "OK" in kiroku(db, "audit", "verify", match_id).stdout.upper()
