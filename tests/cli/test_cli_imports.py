"""What a command imports (issue 43: ``kiroku match show`` and ``match act`` answer within
0.3 s): a command on an SQLite file imports neither psycopg nor eventsourcing's PostgreSQL
module, the commands it does not run stay unimported (``cli.lazy``), and only the game of
its match is loaded. Each test runs the command in a fresh interpreter, as a user does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cli.conftest import kiroku

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = ("psycopg", "psycopg_pool", "eventsourcing.postgres", "ledger.postgres",
            "ledger.pgwriters")
OTHER_COMMANDS = ("cli.audit", "cli.tournaments", "replay.tournaments", "multiprocessing.pool")


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
        assert not modules & {*POSTGRES, *OTHER_COMMANDS}, (args, modules & {*POSTGRES,
                                                                              *OTHER_COMMANDS})
        games = {m.split(".")[1] for m in modules if m.startswith("engine.")} - {
            "core", "registry"}
        assert games <= {"worldgainer"}, games


def test_the_commands_imported_when_asked_for_still_run(db: str) -> None:
    _match(db)
    modules, said = _imported("--db", db, "audit", "verify", "--jobs", "1")
    assert "cli.audit" in modules and said.endswith("1 verified, 0 failed\n"), said
    modules, said = _imported("--db", db, "tournament", "--help")
    assert "cli.tournaments" in modules and "Run a tournament" in said, said
    _, said = _imported("--help")
    assert "audit" in said and "tournament" in said
