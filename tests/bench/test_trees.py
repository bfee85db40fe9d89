"""bench/trees.py: how a bench run against ``--baseline TREE`` names each checkout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from trees import tree_name  # noqa: E402


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(folder), "-c", "user.name=bench",
                           "-c", "user.email=bench@example.org", *args],
                          check=True, capture_output=True, text=True)
    return done.stdout.strip()


def _checkout(folder: Path) -> str:
    """A repository of one commit holding one file; its short commit."""
    folder.mkdir()
    _git(folder, "init", "-q")
    (folder / "rules.py").write_text("RULE = 1\n")
    _git(folder, "add", "rules.py")
    _git(folder, "commit", "-q", "-m", "one")
    return _git(folder, "rev-parse", "--short", "HEAD")


def test_a_clean_checkout_is_named_by_its_role_and_commit(tmp_path: Path) -> None:
    commit = _checkout(tmp_path / "tree")
    assert tree_name(tmp_path / "tree", "baseline") == f"baseline ({commit})"


def test_a_changed_checkout_says_so(tmp_path: Path) -> None:
    commit = _checkout(tmp_path / "tree")
    (tmp_path / "tree" / "rules.py").write_text("RULE = 2\n")
    assert tree_name(tmp_path / "tree", "baseline") == f"baseline ({commit}, changed)"


def test_an_untracked_file_is_not_a_change(tmp_path: Path) -> None:
    commit = _checkout(tmp_path / "tree")
    (tmp_path / "tree" / "scratch.txt").write_text("notes\n")
    assert tree_name(tmp_path / "tree", "this tree") == f"this tree ({commit})"


def test_two_checkouts_of_one_commit_one_changed_never_share_a_name(tmp_path: Path) -> None:
    _checkout(tmp_path / "tree")
    _git(tmp_path / "tree", "worktree", "add", "-q", str(tmp_path / "other"), "HEAD")
    (tmp_path / "other" / "rules.py").write_text("RULE = 2\n")
    assert tree_name(tmp_path / "tree", "baseline") != tree_name(tmp_path / "other",
                                                                 "baseline")


def test_outside_a_checkout_the_role_alone(tmp_path: Path) -> None:
    assert tree_name(tmp_path, "baseline") == "baseline"
