"""The command line as a judge at a table uses it (issue 17): readable output by default with
``--json`` for scripts, progress on long work, simulated matches kept apart, errors that say what
to do, and a confirmation before what cannot be taken back. Each test failed on the command line
as it was: JSON everywhere, silence until the end, one list for everything, bare messages."""

from __future__ import annotations

import io
import json
import re
import uuid
from pathlib import Path

import pytest
from click.testing import Result

from engine.registry import games
from tests.cli.conftest import kiroku

UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _match(db: str) -> str:
    return kiroku(db, "match", "new", "worldgainer", "--player", "Aiko", "--player", "Ben",
                  "--deck", "solar_vanguard", "--deck", "pleiades_bloom",
                  "--option", "first_player=1").stdout.strip()


def _refused(result: Result, reason: str) -> str:
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error [{reason}]: "), result.stderr
    return result.stderr


def test_replay_draws_a_board_with_names_and_who_is_to_act(db: str) -> None:
    match_id = _match(db)
    board = kiroku(db, "replay", match_id, "--at", "0", "--as", "seat:1").stdout
    assert board.startswith("World Gainer · match ") and "as seat:1" in board
    assert "seat 1 (Aiko) to act" in board and "Score: seat 1 (Aiko) 0" in board
    hand = json.loads(kiroku(db, "replay", match_id, "--at", "0", "--as", "seat:1",
                             "--json").stdout)["state"]["seats"][0]["hand"]
    assert hand and all(f"{card['name']} [{card['id']}]" in board for card in hand)
    assert not board.lstrip().startswith("{")


GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden"


@pytest.mark.parametrize("game", [g.game_id for g in games()])
def test_every_game_has_a_board(db: str, game: str) -> None:
    recorded = sorted((GOLDEN / game).glob("*/match.jsonl"))[0]  # a golden match of the game
    match_id = kiroku(db, "import", str(recorded)).stdout.split()[-1]
    end = json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["positions"]
    title = next(g.title for g in games() if g.game_id == game)
    for at in sorted({0, end // 2, end}):
        for viewer in ("judge", "spectator", "seat:1"):
            board = kiroku(db, "replay", match_id, "--at", str(at), "--as", viewer).stdout
            assert board.startswith(f"{title} · match") and "Board" in board, board[:300]


def test_match_show_says_the_score_and_who_is_to_act(db: str) -> None:
    match_id = _match(db)
    shown = kiroku(db, "match", "show", match_id[:8]).stdout
    assert "Players: 1. Aiko, 2. Ben" in shown
    assert "seat 1 (Aiko) to act" in shown and "Score: seat 1 (Aiko) 0 · seat 2 (Ben) 0" in shown


def test_legal_actions_are_numbered_sentences_with_card_names(db: str) -> None:
    match_id = _match(db)
    readable = kiroku(db, "match", "legal", match_id, "--seat", "1").stdout
    scripted = kiroku(db, "match", "legal", match_id, "--seat", "1", "--json").stdout
    actions = [json.loads(line) for line in scripted.splitlines()]
    # a header, one line per action, then the version and the command that takes a number
    assert len(readable.splitlines()) == len(actions) + 2
    assert readable.splitlines()[-1] == (f"At version 1. To record one: kiroku match act "
                                         f"{match_id} NUMBER --seat 1 --expect-version 1")
    assert re.search(r"^\s*1\s+Seat 1 places [A-Z][\w ,'-]+ \(", readable, re.MULTILINE)
    assert "ends the turn" in readable


def test_a_seat_the_match_does_not_have_is_an_error(db: str) -> None:
    match_id = _match(db)
    said = _refused(kiroku(db, "match", "legal", match_id, "--seat", "5", ok=False),
                    "bad_seat")
    assert "seats are 1 to 2" in said


def test_acting_says_what_happened_and_who_is_next(db: str) -> None:
    match_id = _match(db)
    done = kiroku(db, "match", "act", match_id, '{"type": "end_turn", "seat": 1}').stdout
    assert done.startswith("#1 (version 2) operator: Seat 1 ends the turn.")
    assert "Now: seat 2 (Ben) to act." in done


def test_a_concession_asks_first(db: str) -> None:
    match_id = _match(db)
    concede = '{"type": "concede", "seat": 2}'
    declined = kiroku(db, "match", "act", match_id, concede, input="n\n", ok=False)
    assert declined.exit_code == 1 and "cannot be taken back" in declined.stderr
    assert json.loads(kiroku(db, "match", "show", match_id, "--json").stdout)["version"] == 1
    accepted = kiroku(db, "match", "act", match_id, concede, input="y\n").stdout
    assert "Now: seat 1 (Aiko) won (concession" in accepted


@pytest.mark.parametrize("args", [
    ["tournament", "finish", "{tournament}"],
    ["tournament", "result", "{tournament}", "1", "1", "--drawn", "--reason", "ID"],
    ["credentials", "revoke", "{judge}", "--reason", "left the event"],
], ids=["finish", "result", "revoke"])
def test_what_cannot_be_taken_back_asks_first(db: str, args: list[str]) -> None:
    judge = kiroku(db, "credentials", "issue", "--role", "judge", "--name", "Jo").stdout.split()[0]
    tournament = kiroku(db, "tournament", "new", "Cup", "--game", "worldgainer").stdout.strip()
    for number, deck in (("1", "solar_vanguard"), ("2", "pleiades_bloom")):
        kiroku(db, "tournament", "register", tournament, f"P{number}", "--external-id", number)
        kiroku(db, "tournament", "decklist", "submit", tournament, number, deck)
    kiroku(db, "tournament", "pair", tournament, "--table", "1:1,2")
    command = [a.format(tournament=tournament, judge=judge) for a in args]
    declined = kiroku(db, *command, input="n\n", ok=False)
    assert declined.exit_code == 1 and "Aborted" in declined.output
    assert kiroku(db, *command, "--yes").exit_code == 0


def test_the_games_say_how_many_players(db: str) -> None:
    listed = kiroku(db, "games").stdout
    assert "World Gainer (rules 1.0, 2 players)" in listed
    assert "Illuminati: New World Order (rules 1.1, 2 to 6 players)" in listed
    assert "2-2 players" not in listed


def test_a_command_maps_card_ids_to_names(db: str) -> None:
    listed = kiroku(db, "cards", "worldgainer", "--deck", "solar_vanguard").stdout
    assert re.search(r"^\s*3\s+WGS-001\s+Zeta Scout Drone\s+red", listed, re.MULTILINE)
    assert listed.rstrip().endswith("card(s) of World Gainer")
    found = json.loads(kiroku(db, "cards", "illuminati", "--find", "lamp", "--json").stdout)
    assert [c["id"] for c in found] == ["lamp-bearers"]


def test_an_ambiguous_id_lists_the_matches_it_could_be(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = [uuid.UUID(f"9ee96012-000{n}-4000-8000-00000000000{n}") for n in range(3)]
    queue = list(chosen)
    monkeypatch.setattr("ledger.recorder.uuid4", lambda: queue.pop(0) if queue else uuid.uuid4())
    for _ in chosen:
        _match(db)
    said = _refused(kiroku(db, "replay", "9ee96012", ok=False), "match_not_found")
    assert all(str(m) in said for m in chosen) and "give more of the id" in said
    assert "3 matches" in said
    short = _refused(kiroku(db, "replay", "9e", ok=False), "match_not_found")
    assert "first 4 or more characters" in short
    assert kiroku(db, "match", "show", "9EE96012-0001").stdout.count(str(chosen[1])) == 1


def test_simulated_matches_are_listed_apart(db: str) -> None:
    real = _match(db)
    simulated = UUID_RE.findall(kiroku(db, "simulate", "worldgainer", "-n", "2").stdout)
    assert UUID_RE.findall(kiroku(db, "match", "list").stdout) == [real]
    assert UUID_RE.findall(kiroku(db, "match", "list", "--simulated").stdout) == simulated


def test_simulation_shows_its_progress(db: str, progress_screen: io.StringIO) -> None:
    out = kiroku(db, "simulate", "worldgainer", "-n", "3").stdout
    assert len(UUID_RE.findall(out)) == 3
    shown = progress_screen.getvalue()
    assert "simulating worldgainer" in shown and "3/3" in shown


def test_an_audit_of_every_match_shows_its_progress(db: str,
                                                    progress_screen: io.StringIO) -> None:
    _match(db)
    _match(db)
    assert kiroku(db, "audit", "verify").stdout.endswith("2 verified, 0 failed\n")
    shown = progress_screen.getvalue()
    assert "verifying" in shown and "2/2" in shown


def test_an_unknown_option_lists_the_options(db: str) -> None:
    said = _refused(kiroku(db, "match", "new", "worldgainer", "--player", "A", "--player", "B",
                           "--deck", "solar_vanguard", "--deck", "pleiades_bloom",
                           "--option", "firstplayer=1", ok=False), "bad_option")
    assert "Unknown regulation option 'firstplayer'" in said and "first_player" in said


def _table_match(db: str, *outcomes: str) -> Result:
    setup = [a for o in outcomes for a in ("--setup-outcome", o)]
    return kiroku(db, "match", "new", "worldgainer", "--player", "A", "--player", "B",
                  "--deck", "solar_vanguard", "--deck", "pleiades_bloom", *setup, ok=False)


def test_a_card_not_in_the_deck_says_so(db: str) -> None:
    said = _refused(_table_match(db, "WGS-011"), "outcome_impossible")  # seat 2's card
    assert "WGS-011 (outcome 1) is not in seat 1's deck" in said and "WGS-001" in said


def test_too_few_setup_outcomes_say_how_many_are_needed(db: str) -> None:
    said = _refused(_table_match(db, "WGS-001"), "outcome_missing")
    assert "outcome 2" in said and "1 was given and" in said and "are needed" in said


def test_an_unreachable_database_is_one_sentence(tmp_path: Path) -> None:
    result = kiroku("postgresql://postgres:secret@127.0.0.1:1/test", "match", "list", ok=False)
    said = _refused(result, "database_unavailable")
    assert said.count("\n") == 1 and "127.0.0.1:1" in said and "secret" not in said
