"""How a bench names the checkouts it measures side by side (``--baseline TREE``)."""

from __future__ import annotations

import subprocess
from pathlib import Path


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
