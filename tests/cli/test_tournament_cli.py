"""``kiroku tournament``: an organiser's event from the command line, run in-process with click's
CliRunner on a temporary SQLite file, from the judges' credentials to the final standings; and
errors as one clear ``error [reason]:`` line with a non-zero exit status."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from click.testing import Result

from tests.cli.conftest import kiroku

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
PLAYERS = {"1001": "Aiko", "1002": "Ben", "1003": "Chie", "1004": "Dan", "1005": "Eri"}
PAIRINGS = (
    "Table,Player 1,Player 1 Decklist,Player 2,Player 2 Decklist\r\n"
    "1,1001,Solar Vanguard,1002,Pleiades Bloom\r\n"
    "2,1003,Solar Vanguard,1004,Pleiades Bloom\r\n"
    ",1005,,BYE,\r\n"
)


def first_word(result: Result) -> str:
    word = result.stdout.split()[0]
    assert UUID_RE.match(word), result.output
    return word


def refused(result: Result, reason: str) -> None:
    """The command failed with exit status 2 and one ``error [reason]:`` line, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error [{reason}]: "), result.stderr
    assert "Traceback" not in result.output


def new_tournament(db: str, *extra: str) -> str:
    return first_word(kiroku(db, "tournament", "new", "Kiroku Cup", "--game", "worldgainer",
                             *extra))


def register(db: str, tournament: str, *external_ids: str) -> None:
    """Register the players with these external ids, with alternating sample decks."""
    for i, external_id in enumerate(external_ids):
        kiroku(db, "tournament", "register", tournament, PLAYERS[external_id],
               "--external-id", external_id)
        kiroku(db, "tournament", "decklist", "submit", tournament, external_id,
               "solar_vanguard" if i % 2 == 0 else "pleiades_bloom")


def test_an_organisers_event_from_start_to_finish(db: str, tmp_path: Path) -> None:
    judge = first_word(kiroku(db, "credentials", "issue", "--role", "judge", "--name", "Jun"))
    head = first_word(kiroku(db, "credentials", "issue", "--role", "judge", "--name", "Hana"))
    tid = new_tournament(db, "--judge", judge, "--head-judge", head)
    shown = json.loads(kiroku(db, "tournament", "show", tid, "--json").stdout)
    assert shown["head_judge"]["name"] == "Hana" and shown["judges"][0]["name"] == "Jun"

    for external_id, name in PLAYERS.items():
        out = kiroku(db, "tournament", "register", tid, name, "--external-id",
                     external_id).stdout.splitlines()
        assert UUID_RE.match(out[0].split()[0]) and out[0].endswith(name)
        assert len(out) == 2 and len(out[1]) >= 40  # the player's token, shown once
    for i, external_id in enumerate(PLAYERS):
        deck = "solar_vanguard" if i % 2 == 0 else "pleiades_bloom"
        submitted = json.loads(kiroku(db, "tournament", "decklist", "submit", tid,
                                      external_id, deck).stdout)
        assert sum(submitted["deck"].values()) == 40
    players = kiroku(db, "tournament", "players", tid).stdout.splitlines()
    assert len(players) == 5 and all(line.endswith(" decklist") for line in players)

    csv_file = tmp_path / "round1.csv"
    csv_file.write_text(PAIRINGS, encoding="utf-8")
    paired = kiroku(db, "tournament", "pair", tid, "--csv", str(csv_file)).stdout
    assert paired.startswith("round 1\n")
    assert len(re.findall(r"^  seat [12] \w+: \S{40,}$", paired, re.MULTILINE)) == 4
    assert "bye  Eri (1005)" in paired

    round_one = kiroku(db, "tournament", "round", tid, "1").stdout.splitlines()
    assert [line.split()[1] for line in round_one[:2]] == ["1", "2"]
    assert all(line.endswith("not started") for line in round_one[:2])
    assert round_one[2:] == ["bye        Eri (1005)", "round in progress"]

    listed = kiroku(db, "match", "list", "--tournament", tid, "--table", "1").stdout
    [line] = listed.splitlines()
    assert "Aiko v Ben" in line and line.endswith("Kiroku Cup R1 T1")
    match_id = line.split()[0]
    assert len(kiroku(db, "match", "list", "--tournament", tid).stdout.splitlines()) == 2
    kiroku(db, "match", "act", match_id, '{"type":"concede","seat":2}', "--yes")
    drawn = kiroku(db, "tournament", "result", tid, "1", "2", "--drawn", "--yes", "--reason",
                   "intentional draw").stdout
    assert drawn.strip() == "table 2: drawn (judge)"

    done = kiroku(db, "tournament", "round", tid, "1").stdout.splitlines()
    assert done[0].endswith("Aiko (1001) won (game)") and done[1].endswith("drawn (judge)")
    assert done[-1] == "round complete"

    standings = kiroku(db, "tournament", "standings", tid).stdout.splitlines()
    assert standings[0].split() == ["rank", "player", "pts", "W-L-D", "OMW%", "GW%", "OGW%"]
    ranked = [(line.split()[0], line.split()[1], line.split()[3]) for line in standings[1:]]
    assert ranked == [("1", "Aiko", "3"), ("2", "Eri", "3"), ("3", "Chie", "1"),
                      ("3", "Dan", "1"), ("5", "Ben", "0")]

    as_csv = kiroku(db, "tournament", "standings", tid, "--csv").stdout
    rows = list(csv.DictReader(io.StringIO(as_csv)))
    assert as_csv.splitlines()[0].startswith("rank,external_id,name,match_points,")
    assert [r["external_id"] for r in rows] == ["1001", "1005", "1003", "1004", "1002"]

    results = list(csv.DictReader(io.StringIO(kiroku(db, "tournament", "results", tid).stdout)))
    assert {r["external_id"]: r["result"] for r in results} == \
        {"1001": "W", "1002": "L", "1003": "D", "1004": "D", "1005": "BYE"}

    assert kiroku(db, "tournament", "finish", tid,
                  "--yes").stdout.strip() == "tournament finished"
    listed_events = kiroku(db, "tournament", "list").stdout
    assert "Kiroku Cup" in listed_events and listed_events.rstrip().endswith("finished")
    refused(kiroku(db, "tournament", "register", tid, "Late Lou", ok=False),
            "tournament_finished")


def test_an_unknown_player_in_a_pairing_is_one_error_line(db: str) -> None:
    tid = new_tournament(db)
    register(db, tid, "1001", "1002")
    refused(kiroku(db, "tournament", "pair", tid, "--table", "1:1001,9999", ok=False),
            "unknown_player")
    assert kiroku(db, "match", "list").stdout == ""
    assert json.loads(kiroku(db, "tournament", "show", tid, "--json").stdout)["rounds"] == 0


def test_a_decklist_after_the_lock_is_one_error_line(db: str) -> None:
    tid = new_tournament(db)
    register(db, tid, "1001")
    assert kiroku(db, "tournament", "lock", tid).stdout.strip() == "decklists locked"
    refused(kiroku(db, "tournament", "decklist", "submit", tid, "1001", "pleiades_bloom",
                   ok=False), "decklists_locked")
    shown = json.loads(kiroku(db, "tournament", "decklist", "show", tid, "1001",
                              "--json").stdout)
    assert shown["locked"] and sum(shown["deck"].values()) == 40


def test_an_illegal_decklist_is_one_error_line(db: str, tmp_path: Path) -> None:
    tid = new_tournament(db)
    kiroku(db, "tournament", "register", tid, "Aiko", "--external-id", "1001")
    small = tmp_path / "small.json"
    small.write_text(json.dumps({"format": "kiroku-deck/1", "game": "worldgainer",
                                 "name": "Tiny", "cards": {"WGS-021": 3}}), encoding="utf-8")
    refused(kiroku(db, "tournament", "decklist", "submit", tid, "1001", str(small), ok=False),
            "deck_too_small")


def test_pair_needs_the_tables_or_a_csv(db: str) -> None:
    tid = new_tournament(db)
    result = kiroku(db, "tournament", "pair", tid, ok=False)
    assert result.exit_code == 2
    assert "Give the tables (--table, --bye) or --file FILE." in result.output
    assert "Traceback" not in result.output


def test_a_judges_amendment_by_the_command_line(db: str) -> None:
    tid = new_tournament(db)
    register(db, tid, "1001", "1002")
    kiroku(db, "tournament", "pair", tid, "--table", "1:1001,1002")
    amended = json.loads(kiroku(db, "tournament", "decklist", "amend", tid, "1001",
                                "pleiades_bloom", "--reason", "wrong deck registered").stdout)
    assert [a["reason"] for a in amended["amendments"]] == ["wrong deck registered"]
    round_two = kiroku(db, "tournament", "pair", tid, "--table", "1:1002,1001").stdout
    assert round_two.startswith("round 2\n")


def test_a_table_zero_is_refused(db: str) -> None:
    tid = new_tournament(db)
    register(db, tid, "1001", "1002")
    result = kiroku(db, "tournament", "pair", tid, "--table", "0:1001,1002", ok=False)
    assert result.exit_code == 2
    assert kiroku(db, "match", "list").stdout == ""


def test_the_head_judges_docket_by_the_command_line(db: str) -> None:
    tid = new_tournament(db)
    register(db, tid, "1001", "1002")
    kiroku(db, "tournament", "pair", tid, "--table", "1:1001,1002")
    match_id = first_word(kiroku(db, "match", "list", "--tournament", tid, "--table", "1"))
    dispute = kiroku(db, "dispute", "open", match_id, "--claim", "a missed trigger").stdout
    docket = kiroku(db, "tournament", "disputes", tid, "--status", "open").stdout
    assert docket.startswith(dispute.strip()) and " R1 T1 " in docket
    assert "a missed trigger" in docket
    assert kiroku(db, "tournament", "disputes", tid, "--round", "2").stdout == ""


def _pair_two_tables(db: str, tid: str) -> dict[int, str]:
    """Pair round 1 (1001 v 1002, 1003 v 1004); each table's first match id."""
    out = kiroku(db, "tournament", "pair", tid, "--table", "1:1001,1002",
                 "--table", "2:1003,1004").stdout
    return {int(m.group(1)): m.group(2)
            for m in re.finditer(r"^table (\d+)\s+match (\S+)", out, re.MULTILINE)}


def test_a_best_of_three_table_by_the_command_line(db: str) -> None:
    tid = new_tournament(db, "--best-of", "3")
    register(db, tid, "1001", "1002", "1003", "1004")
    matches = _pair_two_tables(db, tid)
    kiroku(db, "match", "act", matches[1], '{"type": "concede", "seat": 2}', "--by", "Jun", "--yes")
    started = kiroku(db, "tournament", "game", tid, "1", "1").stdout
    assert started.startswith("table 1 game 2  match ")
    game_two = started.split()[-1]
    kiroku(db, "match", "act", game_two, '{"type": "concede", "seat": 2}', "--by", "Jun", "--yes")
    shown = kiroku(db, "tournament", "round", tid, "1").stdout
    assert "Aiko (1001) won 2-0 (game)" in shown
    assert "Matches: best of 3 · tie-breakers: mtr" in kiroku(db, "tournament", "show",
                                                              tid).stdout
    refused(kiroku(db, "tournament", "game", tid, "1", "1", ok=False), "series_over")


def test_a_result_with_its_game_score_and_a_drop(db: str) -> None:
    tid = new_tournament(db, "--best-of", "3")
    register(db, tid, "1001", "1002", "1003", "1004")
    _pair_two_tables(db, tid)
    kiroku(db, "tournament", "result", tid, "1", "2", "--drawn", "--games", "1-1-1",
           "--reason", "time", "--yes")
    assert "drawn 1-1-1 (judge)" in kiroku(db, "tournament", "round", tid, "1").stdout
    bad = kiroku(db, "tournament", "result", tid, "1", "1", "--winner", "1001", "--games",
                 "2", "--reason", "x", "--yes", ok=False)
    assert bad.exit_code == 2 and "2 game counts" in bad.output
    kiroku(db, "tournament", "drop", tid, "1004", "--reason", "went home")
    standings = kiroku(db, "tournament", "standings", tid).stdout
    assert "Dan (1004) (dropped)" in standings
    refused(kiroku(db, "tournament", "pair", tid, "--table", "1:1001,1004", ok=False),
            "player_dropped")


def test_a_deadline_in_the_past_is_one_error_line(db: str) -> None:
    refused(kiroku(db, "tournament", "new", "Late Cup", "--game", "worldgainer",
                   "--deadline", "2020-01-01T09:00:00+09:00", ok=False), "deadline_passed")


def test_players_and_pairings_files_in_any_encoding(db: str, tmp_path: Path) -> None:
    tid = new_tournament(db)
    players = tmp_path / "players.csv"
    players.write_bytes("Name,ID\r\nAiko,1001\r\nBen,1002\r\nChloé,1003\r\nDan,1004\r\n"
                        .encode("utf-16"))
    lines = kiroku(db, "tournament", "register-file", tid, str(players)).stdout.splitlines()
    assert [line.split()[1:3] for line in lines] == [["1001", "Aiko"], ["1002", "Ben"],
                                                     ["1003", "Chloé"], ["1004", "Dan"]]
    for i, number in enumerate(("1001", "1002", "1003", "1004")):
        kiroku(db, "tournament", "decklist", "submit", tid, number,
               "solar_vanguard" if i % 2 == 0 else "pleiades_bloom")
    pairings = tmp_path / "round.csv"
    pairings.write_bytes("Table,Player 1,Player 2\r\n1,Aiko,Ben\r\n2,Chloé,Dan\r\n"
                         .encode("cp1252"))
    assert kiroku(db, "tournament", "pair", tid, "--file", str(pairings)).stdout.startswith(
        "round 1")
    shown = kiroku(db, "tournament", "round", tid, "1").stdout
    assert "Chloé (1003) v Dan (1004)" in shown
    binary = tmp_path / "round2.csv"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    refused(kiroku(db, "tournament", "pair", tid, "--file", str(binary), ok=False),
            "bad_pairings")


def test_a_round_from_a_tom_file_and_its_outcomes_back(db: str, tmp_path: Path) -> None:
    tom = Path(__file__).parent.parent / "data" / "pairings" / "tom.tdf"
    tid = new_tournament(db)
    players = tmp_path / "players.csv"
    ids = ("3865580", "4268713", "5124501", "4672166", "4842326", "5599533")
    players.write_text("Name,POP ID\n" + "".join(f"P{n},{n}\n" for n in ids))
    kiroku(db, "tournament", "register-file", tid, str(players))
    for i, number in enumerate(ids):
        kiroku(db, "tournament", "decklist", "submit", tid, number,
               "solar_vanguard" if i % 2 == 0 else "pleiades_bloom")
    kiroku(db, "tournament", "pair", tid, "--file", str(tom))
    kiroku(db, "tournament", "result", tid, "1", "1", "--winner", "4268713", "--reason",
           "no-show", "--yes")
    written = kiroku(db, "tournament", "results", tid, "--tdf", str(tom), "--round", "1")
    changed = [new.strip() for old, new in zip(tom.read_text().splitlines(),
                                               written.stdout.splitlines(), strict=True)
               if old != new]
    assert changed == ['<match outcome="2">']  # table 1 of round 1: seat 2 won
    usage = kiroku(db, "tournament", "results", tid, "--tdf", str(tom), ok=False)
    assert usage.exit_code == 2 and "--tdf FILE and --round N go together" in usage.output
