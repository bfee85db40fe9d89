"""How a bench names the checkouts it measures side by side (``--baseline TREE``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def tree_name(tree: Path, role: str) -> str:
    """``role`` (``this tree``, ``baseline``) with the tree's short commit, and ``changed``
    where its tracked files differ from that commit; ``role`` alone outside a git checkout.
    Two checkouts of one commit, one of them changed, never print as one tree (their
    figures would be taken for one tree's and their medians merged)."""
    found = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True)
    commit = found.stdout.strip()
    if not commit:
        return role
    changed = subprocess.run(["git", "-C", str(tree), "status", "--porcelain",
                              "--untracked-files=no"], capture_output=True, text=True)
    return f"{role} ({commit}{', changed' if changed.stdout.strip() else ''})"


def measured_in(tree: Path, script: str, *args: str) -> dict[str, Any]:
    """What the bench ``script`` (its ``__file__``) measures as ``--worker`` (with ``args``)
    in a process running ``tree``'s code: the last line it prints, as JSON. The script reads
    ``KIROKU_TREE`` for whose code to import."""
    command = [sys.executable, str(Path(script).resolve()), "--worker", *args]
    env = {**os.environ, "KIROKU_TREE": str(tree), "PYTHONPATH": str(tree)}
    out = subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True,
                         text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))
