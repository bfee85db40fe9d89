"""Issue 40's figure: tap-to-acknowledgement at a tournament's tables, Kiroku beside a bare
FastAPI endpoint in the same run.

    python bench/table_taps.py [--quick] [--tables 200] [--interval 2.0] [--taps 8]
                               [--repeats 3]

Two real servers run at once, as bench/http_load.py starts them: Kiroku as ``kiroku serve``
starts it by default (its worker processes, one per core since issue 43) and the bare app
(one SQLite INSERT per POST). Each of ``--tables`` tables records its own World Gainer match
(a known random playout, its chance outcomes entered at the table) the way a seat's page
does: every tap is ``POST /matches/{id}/actions`` with the session cookie and the page's header
(``X-Kiroku-Page: 1``) and the version it was made on (``expected_version``), on the table's
own keep-alive connection; the one tap of a table's seat that enters the other seat's draw goes
with the organiser's credential instead, as a judge would record it. The tables tap at the
pace people do (one tap every ``--interval`` seconds each, the first at a random moment of
the first interval), not as fast as the server answers, so the figure is what a player waits
at a busy event, not a throughput.

A tap's time runs from its first byte sent to its answer's last byte read. A warm-up tap a
table on each server goes first and is not counted. Phases alternate
Kiroku and bare (the order flips every repeat); each phase sends ``--taps`` taps a table. The
load comes from one asyncio loop in this process. Printed: medians over the repeats of the
taps per second reached, p50, p99 and the worst tap, and how many taps were refused
(none should be), for both servers and their ratio. Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from http_load import (  # noqa: E402
    Connection,
    answer_closes,
    bare_server,
    call,
    kiroku_server,
    request,
    wait_ready,
)
from scale import percentile  # noqa: E402

from bench import DECKS, free_port, playout_script  # noqa: E402
from ledger.identity import Role  # noqa: E402
from replay.service import Kiroku  # noqa: E402


@dataclass
class Table:
    """One table's taps, as the bytes of each request, in order."""

    taps: list[bytes]
    done: int = 0
    bare_done: int = 0


@dataclass
class Phase:
    """One phase's figures."""

    rate: float
    p50: float
    p99: float
    worst: float
    refused: int


def tap(path: str, body: dict[str, Any], *, cookie: str | None, token: str | None) -> bytes:
    """The bytes of one tap: a seat's page's POST (the session cookie and the page's header),
    or a judge's (a bearer token)."""
    raw = request("POST", path, token, body)
    if cookie is None:
        return raw
    head, rest = raw.split(b"\r\n", 1)
    return head + (f"\r\nCookie: kiroku_session={cookie}\r\nX-Kiroku-Page: 1\r\n").encode() \
        + rest


def prepare(port: int, organiser: str, tables: int, needed: int) -> list[Table]:
    """Each table's matches (a playout per table, played again as often as needed), created
    over HTTP; each tap carries the version its match stands at."""
    scripts = [playout_script(seed) for seed in range(4)]
    conn = Connection(port)
    out = []
    for t in range(tables):
        setup, actions = scripts[t % len(scripts)]
        taps: list[bytes] = []
        while len(taps) < needed:
            created = call(conn, request("POST", "/matches", organiser, {
                "players": ["A", "B"], "decks": DECKS, "setup_outcomes": setup}), 201)
            seats = {s["seat"]: s["token"] for s in created["seats"]}
            path = f"/matches/{created['match_id']}/actions"
            for n, (action, outcomes, judged) in enumerate(actions):
                body = {"action": action, "outcomes": outcomes, "expected_version": n + 1}
                taps.append(tap(path, body, cookie=None if judged else seats[action["seat"]],
                                token=organiser if judged else None))
        out.append(Table(taps))
    conn.close()
    return out


async def read_answer(reader: asyncio.StreamReader) -> int:
    """Read one HTTP/1.1 answer whole (by its Content-Length); its status."""
    status, _ = await read_answer_closing(reader)
    return status


async def read_answer_closing(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """Read one HTTP/1.1 answer whole (by its Content-Length); its status, and whether it
    said ``Connection: close`` (a worker over its share of the connections: the next
    request goes on a new connection)."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    await reader.readexactly(length)
    return int(head[9:12]), answer_closes(head)


async def _table(port: int, taps: list[bytes], interval: float, times: list[float],
                 refused: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    start = time.perf_counter() + random.uniform(0, interval)
    try:
        for n, raw in enumerate(taps):
            await asyncio.sleep(max(0.0, start + n * interval - time.perf_counter()))
            sent = time.perf_counter()
            writer.write(raw)
            status, closes = await read_answer_closing(reader)
            times.append(time.perf_counter() - sent)
            if status != 201:
                refused.append(status)
            if closes:
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
    finally:
        writer.close()


def run_phase(port: int, lanes: list[list[bytes]], interval: float) -> Phase:
    """Every table taps its lane at its pace; the phase's figures."""
    times: list[float] = []
    refused: list[int] = []

    async def everyone() -> None:
        await asyncio.gather(*(_table(port, lane, interval, times, refused) for lane in lanes))

    began = time.perf_counter()
    asyncio.run(everyone())
    elapsed = time.perf_counter() - began
    ordered = sorted(times)
    return Phase(len(times) / elapsed, percentile(ordered, 50) * 1000,
                 percentile(ordered, 99) * 1000, ordered[-1] * 1000, len(refused))


def measure(folder: Path, tables: int, taps: int, repeats: int, interval: float
            ) -> dict[str, list[Phase]]:
    """Start both servers, prepare the tables, run the phases."""
    db = folder / "kiroku.db"
    setup = Kiroku.open(f"sqlite:///{db}")
    organiser = setup.credentials.issue(Role.ORGANISER, "bench", issued_by="bench")[1]
    setup.close()
    k_port, b_port = free_port(), free_port()
    results: dict[str, list[Phase]] = {"Kiroku": [], "bare": []}
    with kiroku_server(BENCH.parent, db, k_port, None) as k_proc, \
            bare_server(folder / "bare.db", b_port, 1) as b_proc:
        wait_ready(k_port, "/games", k_proc)
        wait_ready(b_port, "/ready", b_proc)
        work = prepare(k_port, organiser, tables, taps * repeats + 1)
        # a warm-up tap a table on each (not counted): connections, caches, the bare table
        run_phase(k_port, [t.taps[:1] for t in work], interval)
        run_phase(b_port, [t.taps[:1] for t in work], interval)
        for t in work:
            t.done = t.bare_done = 1
        for repeat in range(repeats):
            names = ["Kiroku", "bare"] if repeat % 2 == 0 else ["bare", "Kiroku"]
            for name in names:
                if name == "Kiroku":
                    lanes = [t.taps[t.done:t.done + taps] for t in work]
                    for t in work:
                        t.done += taps
                    results[name].append(run_phase(k_port, lanes, interval))
                else:
                    lanes = [t.taps[t.bare_done:t.bare_done + taps] for t in work]
                    for t in work:
                        t.bare_done += taps
                    results[name].append(run_phase(b_port, lanes, interval))
    return results


def report(results: dict[str, list[Phase]], tables: int, interval: float) -> None:
    """Print the medians and the ratios."""
    print(f"{tables} tables, one tap every {interval:g} s each "
          f"({tables / interval:.0f} taps/s offered), {len(results['Kiroku'])} repeats")
    print(f"{'':8} {'taps/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'worst ms':>9} {'refused':>8}")
    medians = {}
    for name, runs in results.items():
        row = [statistics.median(getattr(r, f) for r in runs)
               for f in ("rate", "p50", "p99", "worst")]
        medians[name] = row
        print(f"{name:8} {row[0]:8.1f} {row[1]:8.1f} {row[2]:8.1f} {row[3]:9.1f} "
              f"{sum(r.refused for r in runs):8d}")
    k, b = medians["Kiroku"], medians["bare"]
    print(f"Kiroku / bare: p50 x{k[1] / b[1]:.2f}, p99 x{k[2] / b[2]:.2f}")


def main() -> None:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--taps", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.quick:
        args.tables, args.taps, args.repeats, args.interval = 20, 3, 1, 0.5
    with tempfile.TemporaryDirectory() as tmp:
        results = measure(Path(tmp), args.tables, args.taps, args.repeats, args.interval)
    report(results, args.tables, args.interval)


if __name__ == "__main__":
    main()
