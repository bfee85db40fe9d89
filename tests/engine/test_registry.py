"""The registry of games: each shipped game is imported the first time it is asked for (issue
16: a command that meets one game does not import the other four), once, and is the same
ruleset to every caller."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.errors import ActionError
from engine.registry import SHIPPED, games, get_game, register, unregister

ROOT = Path(__file__).resolve().parents[2]


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_game_is_imported_only_when_asked_for() -> None:
    loaded = ("import sys; from engine import get_game; {ask}"
              "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
              "[['engine', g] for g in ('edge', 'grail', 'illuminati', 'kami', 'worldgainer')]"
              " and m.count('.') == 1))")
    assert _fresh(loaded.format(ask="")) == "[]"
    assert _fresh(loaded.format(ask="get_game('worldgainer'); ")) == "['engine.worldgainer']"


def test_every_shipped_game_is_listed_under_its_own_id() -> None:
    assert [g.game_id for g in games()] == sorted(SHIPPED)


def test_a_game_is_one_ruleset_however_many_threads_ask_at_once() -> None:
    code = ("import threading; from engine.registry import get_game; found = []; "
            "ts = [threading.Thread(target=lambda: found.append(get_game('kami'))) "
            "for _ in range(8)]; [t.start() for t in ts]; [t.join() for t in ts]; "
            "print(len({id(r) for r in found}), len(found))")
    assert _fresh(code) == "1 8"
    assert get_game("kami") is get_game("kami")


def test_an_unknown_game_names_every_known_one() -> None:
    with pytest.raises(ActionError) as caught:
        get_game("chess")
    assert caught.value.reason == "unknown_game"
    assert all(game in caught.value.message for game in SHIPPED)


def test_a_shipped_game_can_be_neither_registered_again_nor_removed() -> None:
    with pytest.raises(ValueError):
        register(get_game("edge"))
    with pytest.raises(ValueError):
        unregister("grail")
    assert get_game("grail").game_id == "grail"
