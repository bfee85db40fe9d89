"""Issue 43's reading figure: what a long match's viewer page fetches when it opens, over HTTP,
cold and warm, server CPU and wall time, side by side with another tree.

    python bench/match_page.py [--quick] [--actions 2000] [--repeats 5] [--baseline TREE]

A real server as ``kiroku serve`` runs it (one process, ``serving(create_app(...))``) on an
SQLite file holding a long World Gainer match (``--actions`` actions: ``end_turn`` and a
judge's adjustment in turn, as ``bench.long_match`` records it, recorded by the tree's own
code). The page's data is what ``replay/web/match.js`` asks for when it opens a match signed
in as its organiser: the summary, then at once the games (``GET /games``, for their titles),
the position, the timeline (events and
transcript, asked with ``last=100`` as this tree's page asks: a tree without windows answers
the whole, as its page asks), the variations, the annotations and the disputes. Measured:

- ``cold``: the first page of a fresh server process (nothing kept in memory);
- ``warm``: the same page again at once (the heavy reads' kept answers, ``replay.api.heavy``);
- ``moved``: the page again after one more action was recorded (a live match: nothing kept
  is for its new version).

Each server is started anew for every repeat, the trees in turn; medians of ``--repeats``:
wall milliseconds from the first request to the last answer, the server's CPU milliseconds
(/proc) and the bytes received. The servers run with ``KIROKU_HEAVY_SHARE=1`` (the page is
read again at once, which a caller's share would refuse). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from processes import started, stop_on_sigterm
from trees import tree_name

BENCH = Path(__file__).resolve().parent
TARGET_MS = 150.0  # issue 43: a 2,000-action match's page data
WINDOW = 100  # the events match.js's timeline asks for first (TIMELINE_STEP)
PHASES = ("cold", "warm", "moved")


@dataclass
class Store:
    """A tree's store: its SQLite file, the long match and the organiser's token."""

    tree: Path
    db: Path
    match_id: str
    token: str


def prepare(tree: Path, folder: Path, actions: int) -> Store:
    """The long match and an organiser's token, recorded into a store of its own by
    ``tree``'s own code."""
    folder.mkdir(parents=True, exist_ok=True)
    code = f"""
import json, sys
from pathlib import Path
sys.path.insert(0, {str(tree / "bench")!r}); sys.path.insert(0, {str(tree)!r})
from bench import long_match
from ledger.identity import Role
from replay.service import Kiroku
match_id, _ = long_match(Path({str(folder)!r}), {actions})
kiroku = Kiroku.open({f"sqlite:///{folder}/long.db"!r})
token = kiroku.credentials.issue(Role.ORGANISER, "bench", issued_by="bench")[1]
kiroku.close()
print(json.dumps([str(match_id), token]))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, check=True,
                         capture_output=True, text=True).stdout
    match_id, token = json.loads(out.strip().splitlines()[-1])
    return Store(tree, folder / "long.db", match_id, token)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def served(store: Store) -> Iterator[tuple[str, int]]:
    """The tree's Kiroku as ``kiroku serve`` runs it in one process, on the store: its base
    URL and process id, once it answers."""
    port = free_port()
    code = (f"import sys; sys.path.insert(0, {str(store.tree)!r}); import uvicorn; "
            "from replay.service import Kiroku; from replay.api import create_app, serving; "
            f"uvicorn.run(serving(create_app(Kiroku.open('sqlite:///{store.db}'))), "
            f"host='127.0.0.1', port={port}, log_level='warning')")
    base = f"http://127.0.0.1:{port}"
    with started([sys.executable, "-c", code], store.tree,
                 {**os.environ, "KIROKU_HEAVY_SHARE": "1"},
                 store.db.with_suffix(".server.log")) as process:
        for _ in range(600):
            if process.poll() is not None:
                raise RuntimeError(f"the server of {store.tree} exited")
            try:
                if httpx.get(f"{base}/openapi.json", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            raise RuntimeError(f"the server of {store.tree} did not start")
        yield base, process.pid


@dataclass
class Read:
    """One page read: wall and server CPU milliseconds, bytes received."""

    wall_ms: float
    cpu_ms: float
    size: int


def page(client: httpx.Client, pool: ThreadPoolExecutor, pid: int, match_id: str) -> Read:
    """Everything the viewer page fetches when it opens the match, as it asks: the summary,
    then the rest at once."""
    m = f"/matches/{match_id}"
    timeline = {"last": WINDOW}
    at_once = [("/games", {}), (f"{m}/state", {}), (f"{m}/events", timeline),
               (f"{m}/transcript", timeline), (f"{m}/variations", {}),
               (f"{m}/annotations", {}), (f"{m}/disputes", {})]
    cpu, start = cpu_seconds(pid), time.perf_counter()
    size = len(_get(client, m, {}))
    size += sum(pool.map(lambda ask: len(_get(client, *ask)), at_once))
    wall = time.perf_counter() - start
    return Read(wall * 1000, (cpu_seconds(pid) - cpu) * 1000, size)


def _get(client: httpx.Client, path: str, params: dict[str, int]) -> bytes:
    answer = client.get(path, params=params)
    if answer.status_code != 200:
        raise RuntimeError(f"{path}: {answer.status_code} {answer.text[:300]}")
    return answer.content


def record_one(client: httpx.Client, match_id: str) -> None:
    """One more action on the long match (its active seat ends the turn, by the organiser)."""
    seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
    answer = client.post(f"/matches/{match_id}/actions",
                         json={"action": {"type": "end_turn", "seat": seat}})
    if answer.status_code != 201:
        raise RuntimeError(f"recording: {answer.status_code} {answer.text[:300]}")


def measure(store: Store) -> dict[str, Read]:
    """Cold, warm and moved page reads on a fresh server over the store."""
    with served(store) as (base, pid), ThreadPoolExecutor(6) as pool, httpx.Client(
            base_url=base, timeout=120, headers={
                "authorization": f"Bearer {store.token}"},
            limits=httpx.Limits(max_connections=6)) as client:
        reads = {"cold": page(client, pool, pid, store.match_id)}
        reads["warm"] = page(client, pool, pid, store.match_id)
        record_one(client, store.match_id)
        reads["moved"] = page(client, pool, pid, store.match_id)
        return reads


def report(name: str, runs: list[dict[str, Read]]) -> dict[str, float]:
    """Print the tree's medians; its median wall milliseconds by phase."""
    walls = {}
    for phase in PHASES:
        wall = statistics.median(r[phase].wall_ms for r in runs)
        cpu = statistics.median(r[phase].cpu_ms for r in runs)
        size = statistics.median(r[phase].size for r in runs)
        walls[phase] = wall
        print(f"{name}, {phase}: {wall:.0f} ms wall, server CPU {cpu:.0f} ms, "
              f"{size / 1024:.0f} KiB")
    return walls


def main() -> None:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--actions", type=int, default=2000, help="actions of the long match")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another Kiroku tree, measured beside this one")
    args = parser.parse_args()
    stop_on_sigterm()
    if args.quick:
        args.actions, args.repeats = 200, 1
    print(f"Kiroku, a {args.actions}-action match's viewer page (python "
          f"{sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}): medians of {args.repeats} fresh server(s) a tree")
    trees = [(tree_name(BENCH.parent, "this tree"), BENCH.parent)]
    if args.baseline is not None:
        trees.append((tree_name(args.baseline.resolve(), "baseline"),
                      args.baseline.resolve()))
    with tempfile.TemporaryDirectory() as tmp:
        stores = [prepare(tree, Path(tmp) / str(n), args.actions)
                  for n, (_, tree) in enumerate(trees)]
        runs: list[list[dict[str, Read]]] = [[] for _ in trees]
        for _ in range(args.repeats):
            for n, store in enumerate(stores):
                runs[n].append(measure(store))
    walls = [report(name, tree_runs) for (name, _), tree_runs in zip(trees, runs)]
    ours = walls[0]["cold"]
    print(f"this tree's cold page {ours:.0f} ms: "
          f"{'met' if ours <= TARGET_MS else 'NOT MET'} (target <= {TARGET_MS:.0f} ms)")
    if len(walls) == 2:
        print("ratios baseline / this tree (wall): " + ", ".join(
            f"{p} x{walls[1][p] / walls[0][p]:.1f}" for p in PHASES))


if __name__ == "__main__":
    main()
