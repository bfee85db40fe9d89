"""What a command imports (issue 43: ``kiroku match show`` and ``match act`` answer within
0.3 s): a command on an SQLite file imports neither psycopg nor eventsourcing's PostgreSQL
module, the commands it does not run stay unimported (``cli.lazy``), and only the game of
its match is loaded. Each test runs the command in a fresh interpreter, as a user does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cli.lazy import LazyGroup
from cli.main import LAZY, MATCH_LAZY, main, match
from tests.cli.conftest import kiroku
from tests.cli.test_tournament_cli import first_word, register

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = ("psycopg", "psycopg_pool", "eventsourcing.postgres", "ledger.postgres",
            "ledger.pgwriters")
OTHER_COMMANDS = ("cli.audit", "cli.tournaments", "replay.tournaments", "multiprocessing.pool",
                  "cli.notes", "cli.simulate", "cli.bars", "rich.progress", "cli.serving",
                  "uvicorn", "fastapi")
# what lies beside matches: imported when a command or a stored event needs it (ledger.topics,
# replay.service.PARTS), not by a command on a match of a store that holds none (issue 43)
BESIDE = ("ledger.tournaments", "ledger.disputes", "ledger.annotations", "ledger.variations",
          "ledger.signin", "replay.annotations", "replay.disputes", "replay.study",
          "replay.variations")


def _imported(*args: str) -> tuple[set[str], str]:
    """The modules a fresh ``kiroku ARGS`` imported, and what it printed."""
    code = ("import json, sys\nfrom cli.main import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit:\n    pass\nprint(json.dumps(sorted(sys.modules)), "
            "file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    return set(json.loads(done.stderr.splitlines()[-1])), done.stdout


def _match(db: str) -> str:
    return kiroku(db, "match", "new", "worldgainer", "--player", "Aiko", "--player", "Ben",
                  "--deck", "solar_vanguard", "--deck", "pleiades_bloom",
                  "--option", "first_player=1").stdout.strip()


def test_a_match_command_on_sqlite_imports_no_postgresql_nor_other_commands(db: str) -> None:
    match_id = _match(db)
    for args in (["match", "show", match_id], ["match", "legal", match_id, "--seat", "1"],
                 ["match", "act", match_id, '{"type": "end_turn", "seat": 1}']):
        modules, said = _imported("--db", db, *args)
        assert said.strip(), args  # the command ran
        unwanted = {*POSTGRES, *OTHER_COMMANDS, *BESIDE}
        assert not modules & unwanted, (args, modules & unwanted)
        games = {m.split(".")[1] for m in modules if m.startswith("engine.")} - {
            "core", "registry"}
        assert games <= {"worldgainer"}, games


def test_recording_an_action_or_an_undo_imports_no_rich(db: str) -> None:
    """``match act`` and ``match undo`` print sentences (``cli.words``): rich's boards and
    tables, a tenth of the command's start-up, are imported only by the commands that draw
    them (``cli.screens``), which still do."""
    match_id = _match(db)
    for args in (["match", "act", match_id, '{"type": "end_turn", "seat": 1}'],
                 ["match", "undo", match_id, "--reason", "misclick"]):
        modules, said = _imported("--db", db, *args)
        assert "Now: seat" in said, (args, said)
        assert not {m for m in modules if m == "rich" or m.startswith(("rich.", "cli.render",
                                                                        "cli.screens"))}, args
    modules, said = _imported("--db", db, "match", "show", match_id)
    assert {"rich.console", "cli.render", "cli.screens"} <= modules and "Aiko" in said


def test_the_commands_imported_when_asked_for_still_run(db: str) -> None:
    _match(db)
    modules, said = _imported("--db", db, "audit", "verify", "--jobs", "1")
    assert "cli.audit" in modules and said.endswith("1 verified, 0 failed\n"), said
    modules, said = _imported("--db", db, "tournament", "--help")
    assert "cli.tournaments" in modules and "Run a tournament" in said, said
    _, said = _imported("--help")
    assert "audit" in said and "tournament" in said


def test_a_match_command_reads_a_store_that_holds_what_lies_beside_matches(db: str) -> None:
    match_id = _match(db)
    kiroku(db, "annotate", match_id, "--text", "a note", "--at", "0")
    kiroku(db, "dispute", "open", match_id, "--claim", "wrong count")
    kiroku(db, "variation", "start", match_id, "--name", "line", "--at", "0")
    # a fresh process, on a store whose log holds them: the match reads as before
    modules, said = _imported("--db", db, "match", "show", match_id[:8])
    assert f"match {match_id}" in said and "Aiko" in said, said
    assert not modules & {"ledger.tournaments", "cli.notes"}, modules
    _, said = _imported("--db", db, "dispute", "list", match_id)
    assert "wrong count" in said, said


def test_a_seated_match_shows_its_tournament_from_a_fresh_process(db: str,
                                                                  tmp_path: Path) -> None:
    tid = first_word(kiroku(db, "tournament", "new", "Kiroku Cup", "--game", "worldgainer"))
    register(db, tid, "1001", "1002")
    pairings = tmp_path / "round1.csv"
    pairings.write_text("Table,Player 1,Player 1 Decklist,Player 2,Player 2 Decklist\r\n"
                        "1,1001,Solar Vanguard,1002,Pleiades Bloom\r\n", encoding="utf-8")
    kiroku(db, "tournament", "pair", tid, "--csv", str(pairings))
    [line] = kiroku(db, "match", "list", "--tournament", tid).stdout.splitlines()
    match_id = line.split()[0]
    # the seating is read through the library's repository: its topic imports the
    # tournaments' module then (ledger.topics), and the summary names the table as before
    modules, said = _imported("--db", db, "match", "show", match_id, "--json")
    assert json.loads(said)["tournament"]["table"] == 1, said
    assert "ledger.tournaments" in modules and "cli.tournaments" not in modules


def test_help_imports_none_of_the_commands_it_lists() -> None:
    """``kiroku --help`` and ``kiroku match --help`` list the lazy commands from their
    summaries (``cli.lazy.Lazy``): listing ``serve`` imported uvicorn and the HTTP
    application before, and the others their modules."""
    lazy_modules = {lazy.target.split(":")[0] for table in (LAZY, MATCH_LAZY)
                    for lazy in table.values()}
    for args in (["--help"], ["match", "--help"]):
        modules, said = _imported(*args)
        assert said.strip(), args
        assert not modules & (lazy_modules | {"uvicorn", "fastapi", "rich"}), \
            (args, modules & (lazy_modules | {"uvicorn", "fastapi", "rich"}))


@pytest.mark.parametrize("group", [main, match], ids=["kiroku", "match"])
@pytest.mark.parametrize("width", [60, 80, 200])
def test_help_lists_the_lazy_commands_as_click_lists_them_imported(
        group: LazyGroup, width: int) -> None:
    """Each lazy command's summary is the first sentence of its own help: the listing is
    click's own (``Group.format_commands``, which imports every command), at any width."""
    with click.Context(group, info_name="kiroku") as ctx:
        ours, clicks = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
        group.format_commands(ctx, ours)
        click.Group.format_commands(group, ctx, clicks)
    assert ours.getvalue() == clicks.getvalue()
