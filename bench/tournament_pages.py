"""Issue 42's figures: what a tournament's public pages cost a server at 1,024 players and 9
rounds (512 tables a round, best of 3), cold and warm, and how many people watching the event
page one core can serve.

    python bench/tournament_pages.py [--quick] [--players 1024] [--rounds 9] [--repeats 5]
                                     [--polls 20] [--rebuild]

The event is built through the service directly (no HTTP) on an SQLite file: the players
registered from a players file (``register_file``), a decklist each, then every round paired
by a simple Swiss pairer (players sorted by match points, ties in random order, each paired
with the next one they have not met; a bye for the lowest-ranked player without one when the
count is odd) and every table's best-of-3 series played out by concessions: about half 2-0,
the rest 2-1, and one table in fifty stopped at 1-1 with a judge's entered draw (``"game_wins":
[1, 1]``, time called). Building the full event takes minutes (progress is printed), so the
built store is kept under the temporary folder, keyed by the parameters, and reused by the next
run (``--rebuild`` builds it anew; ``--quick`` always builds its own).

A real server is then started on a copy of that store (``kiroku serve``'s way: ``serving(
create_app(Kiroku.open(...)))`` under uvicorn, ``http_load.kiroku_server``), and each read is
timed from this process over HTTP on localhost, as medians of ``--repeats``:

- cold: the first request a freshly started server answers (a new server for every request
  timed; the store file is in the operating system's cache, the server's caches are empty);
- warm: the same request again on a server that has answered it before, on a keep-alive
  connection.

The reads: the tournament, its players, the standings (JSON and ``?format=csv``), the last
round's view (every table with its games) and ``results.csv``; then what the public event
page (``replay/web/event.js``) fetches:

- one page load: ``/events/{id}`` (the HTML), then at once its two style sheets and
  ``event.js``, then ``common.js`` (which ``event.js`` imports), then ``/tournaments/{id}``,
  then at once the current round, the standings and the players, then ``/games`` (for the
  game's title; the page keeps it);
- one poll, every 5 s while the page is visible: ``/tournaments/{id}``, then at once the
  current round, the standings and the players.

Fetches the page makes at once are sent at once here, each on its own connection, as a
browser does; a page load or a poll is timed from its first request to its last answer, with
the bytes of every answer (headers and body: the server compresses nothing). The server's CPU
time for one poll (user + system, from /proc, over ``--polls`` polls) gives how many watchers,
each polling every 5 s, one core would sustain at that cost.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any
from uuid import UUID

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from http_load import cpu_seconds, kiroku_server, whole_answer  # noqa: E402

from bench import free_port  # noqa: E402
from ledger.catalog import sample_decks  # noqa: E402
from ledger.identity import Identity  # noqa: E402
from replay import tournaments as events  # noqa: E402
from replay.pairings import Pairing  # noqa: E402
from replay.service import Kiroku  # noqa: E402

ORGANISER = Identity.operator("bench")
BEST_OF = 3
POLL_SECONDS = 5.0  # event.js's POLL_MS
SEED = 2026
ENTERED_DRAWS = 0.02  # the share of tables stopped at 1-1 with a judge's entered draw
TWO_NIL = 0.5  # of the rest, the share won 2-0 (the others 2-1)
CACHE = Path(tempfile.gettempdir()) / "kiroku-bench-tournament-pages"
BROWSER = "Accept-Encoding: gzip, deflate, br\r\nUser-Agent: bench\r\n"


# ----- building the event ---------------------------------------------------------------------
@dataclass
class Built:
    """A built event: its store file, its tournament, how long building took and at which
    commit it was built."""

    db: Path
    tournament_id: str
    seconds: float
    commit: str
    tables: int  # tables played in all
    games: int  # games (matches) played in all
    entered: int  # tables whose draw a judge entered


def players_file(players: int) -> bytes:
    """A players file as an organiser exports it: a name and a player number each."""
    lines = ["Name,Player ID"] + [f"Player {n:04d},{100000 + n}" for n in range(1, players + 1)]
    return ("\n".join(lines) + "\n").encode()


def swiss(standings: Sequence[dict[str, Any]], met: set[frozenset[str]], had_bye: set[str],
          rng: random.Random) -> list[Pairing]:
    """The next round: players by match points (ties at random), each paired with the next
    one they have not met (else the next one), a bye for the lowest-ranked player without one
    when the count is odd."""
    order = sorted((row for row in standings if not row["dropped"]),
                   key=lambda row: (-row["match_points"], rng.random()))
    ids = [row["player_id"] for row in order]
    pairings = []
    if len(ids) % 2:
        bye = next((p for p in reversed(ids) if p not in had_bye), ids[-1])
        ids.remove(bye)
        had_bye.add(bye)
        pairings.append(Pairing(None, (bye,)))
    table = 0
    while ids:
        first = ids.pop(0)
        other = next((p for p in ids if frozenset((first, p)) not in met), ids[0])
        ids.remove(other)
        met.add(frozenset((first, other)))
        table += 1
        pairings.append(Pairing(table, (first, other)))
    return pairings


def concede(kiroku: Kiroku, match_id: str, seat: int) -> None:
    """Seat ``seat`` concedes the game (the other seat wins it)."""
    kiroku.record(UUID(match_id), {"type": "concede", "seat": seat},
                  recorded_by=ORGANISER.recorded_by)


def play_table(kiroku: Kiroku, tid: UUID, round_number: int, table: dict[str, Any],
               rng: random.Random) -> tuple[int, bool]:
    """Play a table's series out by concessions; the games played, and whether a judge
    entered its result (a draw at 1-1)."""
    winner = rng.choice((1, 2))
    loser = 3 - winner
    number = table["table"]

    def next_game() -> str:
        view = events.next_game(kiroku, ORGANISER, tid, round_number, number)
        return str(view["current_match_id"])

    draw = rng.random()
    concede(kiroku, table["match_id"], loser)  # game 1: the winner's
    if draw < ENTERED_DRAWS:
        concede(kiroku, next_game(), winner)  # game 2: the other player's, then time
        players = table["players"]
        events.enter_result(kiroku, ORGANISER, tid, round_number, number, [], True,
                            "time called at 1-1", game_wins=[1] * len(players))
        return 2, True
    if rng.random() < TWO_NIL:
        concede(kiroku, next_game(), loser)
        return 2, False
    concede(kiroku, next_game(), winner)
    concede(kiroku, next_game(), loser)
    return 3, False


def build(db: Path, players: int, rounds: int) -> Built:
    """The event on a new SQLite file ``db``: registered, decklists in, every round paired
    and played."""
    started = time.perf_counter()
    kiroku = Kiroku.open(f"sqlite:///{db}")
    tid = UUID(events.create(kiroku, ORGANISER, name="Bench Open 1024", game="worldgainer",
                             best_of=BEST_OF)["tournament_id"])
    registered = events.register_file(kiroku, ORGANISER, tid, players_file(players))
    decks = [dict(d.cards) for d in sample_decks("worldgainer").values()]
    for n, player in enumerate(registered):
        events.submit_decklist(kiroku, ORGANISER, tid, player["player_id"], decks[n % len(decks)])
    print(f"  {players} players registered with decklists "
          f"({time.perf_counter() - started:.0f} s)", flush=True)
    rng = random.Random(SEED)
    met: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    tables = games = entered = 0
    for round_number in range(1, rounds + 1):
        at = time.perf_counter()
        pairings = swiss(events.standings_of(kiroku, tid)["standings"], met, had_bye, rng)
        made = events.pair(kiroku, ORGANISER, tid, pairings)
        paired = time.perf_counter() - at
        for n, table in enumerate(made["tables"], start=1):
            played, by_judge = play_table(kiroku, tid, round_number, table, rng)
            tables, games, entered = tables + 1, games + played, entered + by_judge
            if n % 128 == 0 and n < len(made["tables"]):
                print(f"    round {round_number}: {n} of {len(made['tables'])} tables played",
                      flush=True)
        print(f"  round {round_number}: {len(made['tables'])} tables paired in {paired:.1f} s, "
              f"played in {time.perf_counter() - at - paired:.1f} s "
              f"({time.perf_counter() - started:.0f} s in all)", flush=True)
    kiroku.close()
    return Built(db, str(tid), time.perf_counter() - started, commit(), tables, games, entered)


def commit() -> str:
    """The commit of this tree (with ``+`` when files differ from it), or ``unknown``."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=BENCH.parent,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=BENCH.parent, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def built_event(folder: Path, players: int, rounds: int, cached: bool, rebuild: bool) -> Built:
    """The event, built into ``folder`` (or, when ``cached``, reused from the cache folder
    when there, else built there first), copied into ``folder`` for the servers."""
    work = folder / "event.db"
    if not cached:
        print(f"building the event: {players} players, {rounds} rounds ...", flush=True)
        return build(work, players, rounds)
    key = CACHE / f"p{players}-r{rounds}-bo{BEST_OF}-s{SEED}"
    meta = key / "event.json"
    if rebuild or not meta.exists():
        shutil.rmtree(key, ignore_errors=True)
        key.mkdir(parents=True)
        print(f"building the event: {players} players, {rounds} rounds (kept in {key}) ...",
              flush=True)
        made = build(key / "event.db", players, rounds)
        meta.write_text(json.dumps({**asdict(made), "db": str(made.db)}))
    else:
        print(f"reusing the event built before in {key} (--rebuild builds it anew)", flush=True)
    made = Built(**{**json.loads(meta.read_text()), "db": key / "event.db"})
    # the servers may write (read models): they run on a copy, with the store's keys file
    for kept in (made.db, made.db.with_name(made.db.name + ".keys")):
        if kept.exists():
            shutil.copyfile(kept, work.with_name(kept.name))
    made.db = work
    return made


# ----- HTTP -----------------------------------------------------------------------------------
@dataclass
class Answer:
    """One answer: its status, its bytes on the wire (headers and body) and its body."""

    status: int
    wire: int
    body: bytes


def get(socks: Sequence[socket.socket], paths: Sequence[str], accept: str) -> list[Answer]:
    """``GET`` each path on its own connection, all sent at once (as a browser sends the
    fetches a page makes together), then every answer read whole."""
    for sock, path in zip(socks, paths):
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: {accept}\r\n"
                     f"{BROWSER}\r\n".encode())
    answers = []
    for sock in socks[:len(paths)]:
        data = b""
        while (answer := whole_answer(data)) is None:
            chunk = sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            data += chunk
        status, body, rest = answer
        if rest:
            raise RuntimeError(f"{len(rest)} bytes after an answer")
        if status != 200:
            raise RuntimeError(f"{status}: {body[:300]!r}")
        answers.append(Answer(status, len(data), body))
    return answers


class Browser:
    """A browser tab's keep-alive connections to the server (six, as browsers open)."""

    def __init__(self, port: int) -> None:
        self.socks = []
        for _ in range(6):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.socks.append(sock)

    def api(self, *paths: str) -> list[Answer]:
        """The page's ``api()`` fetches, made at once."""
        return get(self.socks, paths, "application/json")

    def files(self, *paths: str) -> list[Answer]:
        """Pages, scripts and style sheets, fetched at once."""
        return get(self.socks, paths, "*/*")

    def close(self) -> None:
        """Close the connections."""
        for sock in self.socks:
            sock.close()


@dataclass
class Fetched:
    """A page load or a poll: every answer, the seconds it took, the server's CPU seconds."""

    answers: list[Answer]
    seconds: float
    server_cpu: float | None

    @property
    def wire(self) -> int:
        """Bytes of every answer, headers and body."""
        return sum(a.wire for a in self.answers)


class Event:
    """The event's reads against one running server."""

    def __init__(self, port: int, pid: int, tournament_id: str, rounds: int) -> None:
        self.port, self.pid, self.tid, self.rounds = port, pid, tournament_id, rounds
        base = f"/tournaments/{tournament_id}"
        self.reads: dict[str, str] = {
            "tournament": base,
            "players": f"{base}/players",
            "standings (JSON)": f"{base}/standings",
            "standings (CSV)": f"{base}/standings?format=csv",
            f"round {rounds} (all its tables)": f"{base}/rounds/{rounds}",
            "results.csv": f"{base}/results.csv",
        }

    def timed(self, work: Callable[[Browser], list[Answer]]) -> Fetched:
        """``work`` on a new tab's connections, timed, with the server's CPU time."""
        tab = Browser(self.port)
        try:
            cpu = cpu_seconds(self.pid)
            start = time.perf_counter()
            answers = work(tab)
            seconds = time.perf_counter() - start
            after = cpu_seconds(self.pid)
        finally:
            tab.close()
        return Fetched(answers, seconds, None if cpu is None or after is None else after - cpu)

    def read(self, name: str) -> Fetched:
        """One of ``reads``."""
        return self.timed(lambda tab: tab.api(self.reads[name]))

    def poll(self, tab: Browser) -> list[Answer]:
        """What event.js's ``refresh`` fetches: the tournament, then at once the current
        round, the standings and the players."""
        base = f"/tournaments/{self.tid}"
        first = tab.api(base)
        latest = json.loads(first[0].body)["rounds"]
        return first + tab.api(f"{base}/rounds/{latest}", f"{base}/standings",
                               f"{base}/players")

    def page_load(self, tab: Browser) -> list[Answer]:
        """What opening /events/{id} fetches, in the browser's order."""
        answers = tab.files(f"/events/{self.tid}")
        answers += tab.files("/static/app.css", "/static/event.css", "/static/event.js")
        answers += tab.files("/static/common.js")
        answers += self.poll(tab)
        return answers + tab.api("/games")


def ready(port: int, process: subprocess.Popen[bytes]) -> None:
    """Wait until the server answers (a static file: nothing of the event is read)."""
    for _ in range(600):
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode})")
        try:
            tab = Browser(port)
        except OSError:
            time.sleep(0.05)
            continue
        try:
            tab.files("/static/app.css")
        finally:
            tab.close()
        return
    raise RuntimeError("the server did not start")


# ----- measuring ------------------------------------------------------------------------------
@dataclass
class Figures:
    """One line of the table: cold and warm runs of one read, page load or poll."""

    cold: list[Fetched]
    warm: list[Fetched]

    @staticmethod
    def ms(runs: list[Fetched]) -> float:
        """Median milliseconds."""
        return statistics.median(r.seconds for r in runs) * 1000

    @staticmethod
    def cpu_ms(runs: list[Fetched]) -> float | None:
        """Mean server CPU milliseconds (None without /proc): /proc counts in clock ticks
        (10 ms), too coarse for a median of single requests."""
        found = [r.server_cpu for r in runs if r.server_cpu is not None]
        return statistics.fmean(found) * 1000 if found else None


def measure(db: Path, tid: str, rounds: int, repeats: int, cold_repeats: int, polls: int
            ) -> tuple[dict[str, Figures], list[float]]:
    """Every read, page load and poll, cold (``cold_repeats`` servers each) then warm
    (``repeats`` times on one server); and the server's CPU seconds per poll over ``polls``
    polls of a warm server, in batches."""
    names = [*Event(0, 0, tid, rounds).reads, "one page load", "one poll"]
    cold: dict[str, list[Fetched]] = {name: [] for name in names}
    for repeat in range(cold_repeats):
        for name in names:
            port = free_port()
            with kiroku_server(BENCH.parent, db, port, 1) as process:
                ready(port, process)
                event = Event(port, process.pid, tid, rounds)
                if name == "one page load":
                    cold[name].append(event.timed(event.page_load))
                elif name == "one poll":
                    cold[name].append(event.timed(event.poll))
                else:
                    cold[name].append(event.read(name))
        print(f"  cold, repeat {repeat + 1} of {cold_repeats} done", flush=True)
    figures: dict[str, Figures] = {}
    port = free_port()
    with kiroku_server(BENCH.parent, db, port, 1) as process:
        ready(port, process)
        event = Event(port, process.pid, tid, rounds)
        for name in names:
            work: Callable[[], Fetched] = (
                partial(event.timed, event.page_load) if name == "one page load" else
                partial(event.timed, event.poll) if name == "one poll" else
                partial(event.read, name))
            work()  # once before: warm
            figures[name] = Figures(cold[name], [work() for _ in range(repeats)])
        per_poll = []
        batch = max(1, polls // 4)
        for _ in range(max(1, polls // batch)):
            before = cpu_seconds(process.pid)
            for _ in range(batch):
                event.timed(event.poll)
            after = cpu_seconds(process.pid)
            if before is not None and after is not None:
                per_poll.append((after - before) / batch)
    return figures, per_poll


def size(runs: list[Fetched]) -> str:
    """The bytes of a run's answers (every run's are the same)."""
    return f"{runs[-1].wire:,}"


def report(figures: dict[str, Figures], per_poll: list[float], built: Built, players: int,
           rounds: int, repeats: int, cold_repeats: int) -> None:
    """The table, the bytes each fetch of a page load takes, and the watchers per core."""
    print()
    print(f"{players} players, {rounds} rounds, best of {BEST_OF}: {built.tables:,} tables, "
          f"{built.games:,} games ({built.entered} draws entered by a judge); built in "
          f"{built.seconds:.0f} s at {built.commit}; medians of {cold_repeats} cold, "
          f"{repeats} warm; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"{'read':<28} {'cold ms':>9} {'warm ms':>9} {'CPU cold':>9} {'CPU warm':>9} "
          f"{'bytes':>11}")
    for name, f in figures.items():
        cpus = [f.cpu_ms(f.cold), f.cpu_ms(f.warm)]
        print(f"{name:<28} {f.ms(f.cold):9.1f} {f.ms(f.warm):9.1f} "
              + " ".join(f"{'n/a' if c is None else f'{c:.0f}':>9}" for c in cpus)
              + f" {size(f.warm):>11}")
    print("(ms: medians from the first request sent to the last answer read; CPU: the server's "
          "CPU ms, user + system from /proc, mean of the runs; bytes: every answer, headers "
          "and body)")
    load = figures["one page load"].warm[-1].answers
    print("one page load fetches: " + ", ".join(f"{a.wire:,}" for a in load) + " bytes "
          "(the HTML, app.css, event.css, event.js, common.js, the tournament, the round, the "
          "standings, the players, /games); one poll: the tournament, the round, the standings, "
          "the players")
    if per_poll:
        cpu = statistics.median(per_poll)
        print(f"server CPU per poll: {cpu * 1000:.1f} ms (batches: "
              f"{', '.join(f'{c * 1000:.1f}' for c in per_poll)}); one core sustains "
              f"{POLL_SECONDS / cpu:.1f} watchers polling every {POLL_SECONDS:.0f} s")
    else:
        print("server CPU per poll: n/a (no /proc)")


def main() -> None:
    """Parse the arguments, build (or reuse) the event, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="32 players, 3 rounds, 2 repeats warm and 1 cold: a smoke run")
    parser.add_argument("--players", type=int, default=None, help="default 1024")
    parser.add_argument("--rounds", type=int, default=None, help="default 9")
    parser.add_argument("--repeats", type=int, default=None, help="default 5")
    parser.add_argument("--polls", type=int, default=None,
                        help="polls over which the server's CPU per poll is read (default 20)")
    parser.add_argument("--rebuild", action="store_true",
                        help="build the event anew instead of reusing the one kept")
    args = parser.parse_args()
    players = args.players or (32 if args.quick else 1024)
    rounds = args.rounds or (3 if args.quick else 9)
    repeats = args.repeats or (2 if args.quick else 5)
    polls = args.polls or (4 if args.quick else 20)
    started = time.perf_counter()
    print(f"Tournament pages (python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"{datetime.date.today()}, commit {commit()})", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        built = built_event(Path(tmp), players, rounds, cached=not args.quick,
                            rebuild=args.rebuild)
        print("measuring: cold (a new server for each) and warm ...", flush=True)
        cold_repeats = 1 if args.quick and args.repeats is None else repeats
        figures, per_poll = measure(built.db, built.tournament_id, rounds, repeats,
                                    cold_repeats, polls)
    report(figures, per_poll, built, players, rounds, repeats, cold_repeats)
    print(f"({time.perf_counter() - started:.1f} s in all)")


if __name__ == "__main__":
    main()
