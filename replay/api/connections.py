"""How the server takes its connections: uvicorn's HTTP/1.1 protocol on httptools (the C
parser uvicorn itself picks when it is installed; h11, the pure-Python one, spent a ninth of a
request's server time parsing: issue 43) with Nagle's algorithm off on every connection, in
one process or in each of ``--workers``; and, for ``--workers`` on Linux, a listening socket
of each worker's own, so that the kernel spreads the connections across the workers.

asyncio turns Nagle's algorithm off (``TCP_NODELAY``) only on sockets whose protocol number
says TCP. The listening socket that uvicorn binds itself for ``--workers`` has the protocol
number 0, so every connection a worker accepted kept the algorithm on: an answer written in two
parts (its head, then its body) waited for the client's delayed acknowledgement, about 40 ms on
Linux, and two worker processes served fewer requests than one (issue 16: a bare FastAPI app
answered 357 GETs a second on two workers against 2,108 on one; bench/RESULTS.md).

uvicorn's supervisor gives its workers one listening socket to share. Every worker wakes when
connections arrive, and the first to run accepts all that are waiting (asyncio accepts in a
loop until none is left), so under a burst of clients one worker could hold twelve connections
and the other four, the busy one at 100% and the other a quarter idle (issue 16, ninth part:
GETs 481-504 a second at such splits, 903 at 8/8). With ``SO_REUSEPORT`` each worker listens
on a socket of its own on the one address, and Linux picks the socket for each new connection
by a hash of its addresses: a busy worker no longer takes what another could serve.

The hash keeps no count, though: sixteen keep-alive clients often split ten to six or worse,
and a connection stays with its worker for as long as it lives (issue 43: the two workers at
98/58 % of a core; when the idler one's clients were done, the other served its own alone,
and a fixed load took up to a quarter longer). So the workers also count their
open connections in a table they all map (``ConnectionShares``), and a worker holding more
than its share answers a request with ``Connection: close``, HTTP's own way to end a
keep-alive connection: the client opens its next one, which the kernel hashes again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import socket
import sys
from typing import Any, SupportsIndex

from uvicorn import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.supervisors import Multiprocess

MOST_WORKERS = 64
"""The most server processes ``kiroku serve`` runs (``--workers``' range in cli.main)."""

HEALTHCHECK_SECONDS = 30
"""How long uvicorn's supervisor waits for a worker process to answer its health check before
it kills the worker as hung and starts another (uvicorn's ``timeout_worker_healthcheck``, 5 s
by default). A worker answers from a thread it starts only once Python has started and
imported uvicorn in it; on a loaded machine that took more than 5 s, so every worker was
killed before it answered, and the next one too, for ever (issue 43, seen at a load average
of 12 on 2 cores)."""

KEEP_ALIVE_SECONDS = 75
"""How long an idle keep-alive connection stays open (uvicorn's ``timeout_keep_alive``, 5 s by
default; 75 s is nginx's default). A table's phone records an action every few seconds to a
minute: closed after 5 s idle, it opened a new TCP connection (and, behind a TLS proxy, a new
handshake) for most taps (issue 43: 10 reconnects in 4,000 taps at one tap in 5 s a table).
An idle connection costs the server a socket and a few KiB, never a thread."""

LIVE_STREAM = "/live"
"""How the path of a live stream ends (``GET /matches/{id}/live``, replay.api.live): an
answer that does not end, which a worker over its share does not mark to close; its
connection is out of the worker's count while it streams."""

HTTP = "replay.api.connections:PromptHTTPProtocol"
"""uvicorn's ``http`` setting for this protocol (an import string: workers import it)."""


class PromptHTTPProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, setting ``TCP_NODELAY`` on each TCP connection it is
    given, and ending a live stream when the server stops (``shutdown``); in a worker of
    ``kiroku serve --workers`` (``WorkerShare``), also counting the worker's open
    connections and asking a client to reconnect while the worker holds more than its
    share."""

    counted = False
    """Whether this connection is in its worker's count (``WorkerShare``)."""
    leaving = False
    """Whether this connection was told to close after its answer (``Connection: close``)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        """Nagle's algorithm off, then uvicorn's own handling of the new connection."""
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)  # type: ignore[arg-type]
        if _share is not None:
            _share.opened()
            self.counted = True

    def connection_lost(self, exc: Exception | None) -> None:
        """uvicorn's handling of the closed connection, then the worker's count."""
        super().connection_lost(exc)
        self._uncount()

    def shutdown(self) -> None:
        """uvicorn's start of a graceful shutdown on this connection; a live stream in
        progress is ended as well, its chunked answer closed by its last, empty chunk, and
        the connection with it.

        uvicorn lets every answer in progress finish before its server stops, and waits for
        them without a bound (``timeout_graceful_shutdown``). A live stream lasts up to an
        hour: with a watcher connected, ``kiroku serve`` did not stop on SIGTERM or Ctrl+C,
        and a restart of the workers (SIGHUP) waited on the old workers, the supervisor
        replacing no dead worker meanwhile (issue 43). Ended, the stream's client reconnects
        as after the stream's hour (an ``EventSource`` does by itself), to a worker still
        running or to the server once it is back, and is told where the match stands at
        once. Ended from here, between two of the stream's writes (this runs on the event
        loop, and each chunk is one write), with uvicorn's own end of the connection: its
        loss ends the stream's task as a client leaving does."""
        cycle = self.cycle
        if cycle is None or cycle.response_complete or (
                not cycle.scope["path"].endswith(LIVE_STREAM)):
            super().shutdown()
            return
        if cycle.response_started and cycle.chunked_encoding:
            self.transport.write(b"0\r\n\r\n")
        self.transport.close()

    def handle_websocket_upgrade(self) -> None:
        """Out of the count, then uvicorn's upgrade: the WebSocket protocol it hands the
        connection to is told when it closes, not this one. (Kiroku serves no WebSocket, and
        uvicorn upgrades only with a WebSocket library installed.)"""
        self._uncount()
        super().handle_websocket_upgrade()

    def _uncount(self) -> None:
        if self.counted and _share is not None:
            _share.lost(self.leaving)
            self.counted = False

    def on_headers_complete(self) -> None:
        """uvicorn's start of a request; then, if this worker holds more than its share of
        the connections, its answer will say ``Connection: close`` and uvicorn closes the
        connection once it is sent (as its graceful shutdown does). Only a request started
        at once is marked: one queued behind another (pipelined) would lose those after it.

        A live stream is never marked (its answer lasts up to an hour), and its connection
        leaves the count while it streams: the share is of the connections a worker can
        hand on. Counted, a worker whose streams outnumbered the other's by more than the
        tables' connections would send away every table that reached it, and the tables
        would gather on the other worker, all the recording on one core. The streams,
        hundreds where they are many, are spread by the kernel's hash."""
        started = self.cycle
        super().on_headers_complete()
        cycle = self.cycle
        if _share is None or cycle is started:
            return
        if cycle.scope["path"].endswith(LIVE_STREAM):
            self._uncount()
            return
        if not self.counted:  # a request after a stream ended on the same connection
            _share.opened()
            self.counted = True
        if self.pipeline or not cycle.keep_alive or not _share.over_share():
            return
        cycle.keep_alive = False
        self.leaving = True
        _share.leave()


class ConnectionShares:
    """How many connections each worker of ``kiroku serve --workers`` holds open: a table in
    memory every worker maps (multiprocessing's shared ctypes, made by the supervising process
    and handed to each worker as it is spawned), with a slot for each worker holding its
    process id and its open connections, less those it has told to close.

    Why a count and not the workers' load: the kernel decides where a connection goes by a
    hash, never by load, and a connection told to close lands by that hash again, so the one
    thing a worker can set right is how many it holds. Keep-alive clients of a similar pace
    (the tables of an event, the benches' clients) then spread their work too.

    The table has a slot for twice as many workers as the server starts with. uvicorn's
    supervisor runs more at times: on SIGHUP it restarts its workers, starting each
    replacement before it stops the worker replaced, and SIGTTIN adds a worker (SIGTTOU
    stops one). With a slot for each worker only, a replacement found none free and served
    without a share, and from then on no worker handed a connection on (issue 43). The
    supervisor frees the slots of the workers it has stopped or replaced (``keep_only``,
    every half second), and a slot still held by a dead worker goes to the next worker that
    starts."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")  # uvicorn spawns its workers
        self.slots = 2 * workers
        self.table = context.RawArray("q", 2 * self.slots)
        self.lock = context.Lock()

    def join(self) -> WorkerShare | None:
        """This process's slot in the table: a free one, or that of a worker which has died
        (the worker uvicorn starts in its place takes it over, its count back to 0). None if
        every slot is held by a live process."""
        with self.lock:
            for slot in range(self.slots):
                pid = self.table[2 * slot]
                if pid == 0 or not _alive(pid):
                    self.table[2 * slot] = os.getpid()
                    self.table[2 * slot + 1] = 0
                    return WorkerShare(self, slot)
        return None

    def keep_only(self, workers: set[int]) -> None:
        """Free the slots of processes that are not among ``workers`` (the supervisor's
        workers now): those it has stopped or replaced. Their last counts then count for no
        share, and their slots are free for the next worker to start."""
        with self.lock:
            for slot in range(self.slots):
                if self.table[2 * slot] not in workers:
                    self.table[2 * slot] = self.table[2 * slot + 1] = 0


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs: it exists and, where the system tells (Linux's
    ``/proc``), has not ended. A worker that has died stays a zombie until uvicorn's
    supervisor reaps it, and a zombie still answers signal 0; its last count must not count
    meanwhile, or the living worker would send away connections that only come back."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: alive
        return True
    return not _ended(pid)


def _ended(pid: int) -> bool:
    """Whether process ``pid`` has ended and awaits its parent (its state in ``/proc``: Z, a
    zombie, or X, dead); False where the system has no ``/proc``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            status = stat.read()
    except OSError:  # no /proc here, or the process is gone since signal 0
        return os.path.isdir("/proc/self")
    return status[status.rindex(b")") + 2:][:1] in (b"Z", b"X")


class WorkerShare:
    """One worker's slot in ``ConnectionShares``: it counts the worker's connections as they
    open and close, and tells whether the worker holds more than its share."""

    def __init__(self, shares: ConnectionShares, slot: int) -> None:
        self.table = shares.table
        self.count_at = 2 * slot + 1
        self.pid = os.getpid()
        self.open = 0
        self.leaving = 0

    def opened(self) -> None:
        """A connection was accepted."""
        self.open += 1
        self._publish()

    def lost(self, leaving: bool) -> None:
        """A connection closed (``leaving``: one this worker had told to close)."""
        self.open -= 1
        if leaving:
            self.leaving -= 1
        self._publish()

    def leave(self) -> None:
        """A connection was told to close after its answer: no longer counted."""
        self.leaving += 1
        self._publish()

    def over_share(self) -> bool:
        """Whether this worker holds more connections than its share of all the running
        workers' (rounded up: 9 of 17 is a share of 2 workers, 9 of 16 is not). A worker
        not started yet, or dead and not yet replaced, has no share: while it is away its
        connections come here, and asking them to reconnect would only bring them back. Its
        process is looked for only once this worker seems over its share of the slots held,
        which is rare."""
        table = self.table[:]
        pids = table[::2]
        mine = self.open - self.leaving
        held = len(pids) - pids.count(0) or 1  # this worker's own is freed once it has ended
        if mine <= -(-sum(table[1::2]) // held):
            return False
        running = [count for pid, count in zip(pids, table[1::2])
                   if pid and (pid == self.pid or _alive(pid))]
        return bool(running) and mine > -(-sum(running) // len(running))

    def _publish(self) -> None:
        self.table[self.count_at] = self.open - self.leaving


_share: WorkerShare | None = None
"""This worker's slot in its server's ``ConnectionShares``: set when the worker's listening
socket arrives (``worker_socket``); None in a server of one process."""


def in_memory(url: str) -> bool:
    """Whether ``url`` names an in-memory SQLite store (private to the process opening it)."""
    return url.startswith("sqlite") and ":memory:" in url


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, which
    a container's or ``taskset``'s limit narrows; else every core of the machine)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def default_workers(url: str) -> int:
    """How many server processes ``kiroku serve`` runs on the store at ``url`` unless told:
    one per core (``cores``) on a database file or PostgreSQL, as uvicorn's documentation
    advises for its workers; one on an in-memory store, which no other process can open.
    A process runs Python one thread at a time, so one process uses one core at most
    (issue 43: the default server used half of this machine)."""
    return 1 if in_memory(url) else min(cores(), MOST_WORKERS)


SPREAD_BY_KERNEL = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
"""Whether each worker gets a listening socket of its own: on Linux, whose ``SO_REUSEPORT``
spreads connections across the sockets (BSD's and macOS's give them all to one socket;
Windows has no such option). Elsewhere the workers share uvicorn's one socket, as before."""

_log = logging.getLogger("uvicorn.error")


class WorkerListener(socket.socket):
    """The address ``kiroku serve --workers`` listens on, bound with ``SO_REUSEPORT`` in the
    supervising process, which never listens on it (it holds the port for the workers).

    uvicorn's supervisor sends its sockets to each worker it starts by pickling them
    (multiprocessing's spawn). This one arrives not as a copy of itself but as a new socket,
    the worker's own, bound to the same address with ``SO_REUSEPORT``; the worker's server
    listens on it. A worker started again after one died gets a new one in the same way.
    With ``shares`` set, the worker also takes its slot there (``worker_socket``)."""

    shares: ConnectionShares | None = None

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        """Pickled: how to bind a socket of its own in the process that loads it."""
        if self.shares is None:
            return (bound_with_reuse_port, (self.family, self.getsockname()))
        return (worker_socket, (self.family, self.getsockname(), self.shares))


def worker_socket(family: int, address: Any, shares: ConnectionShares) -> socket.socket:
    """A worker's own listening socket on ``address`` (``bound_with_reuse_port``); its
    connections are counted in its slot of ``shares`` from then on (``PromptHTTPProtocol``)."""
    global _share
    sock = bound_with_reuse_port(family, address)
    _share = shares.join()
    if _share is None:
        _log.warning("Worker %d found no free slot in the connection shares: its "
                     "connections are not shared with the other workers", os.getpid())
    return sock


def bound_with_reuse_port(family: int, address: Any,
                          kind: type[socket.socket] = socket.socket) -> socket.socket:
    """A new TCP socket of class ``kind``, bound to ``address`` with ``SO_REUSEPORT`` (and
    ``SO_REUSEADDR``, as uvicorn binds), inheritable, not yet listening."""
    sock = kind(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def claim_for_workers(family: int, address: Any) -> WorkerListener:
    """The workers' listening address, bound with ``SO_REUSEPORT`` (``WorkerListener``), once
    no other server listens on it. The option lets any socket of the same user that sets it
    join the address, so a second ``kiroku serve --workers`` started on the port by mistake
    (on another store, say) would otherwise take a share of this one's connections, where
    uvicorn's own bind refuses it. A plain socket is bound there first, as uvicorn binds
    (``SO_REUSEADDR``: the closing connections of a server just stopped do not hold the
    port): OSError "Address already in use" if a server listens there. (A server that has
    bound the port but whose workers do not listen yet is not seen.)"""
    probe = socket.socket(family, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(address)
        address = probe.getsockname()  # port 0: the one the system chose
    finally:
        probe.close()
    listener = bound_with_reuse_port(family, address, WorkerListener)
    assert isinstance(listener, WorkerListener)
    return listener


def listening_socket(config: Config) -> socket.socket:
    """The socket ``run_workers`` serves ``config``'s workers on: where ``SPREAD_BY_KERNEL``,
    the address claimed for a socket per worker (``claim_for_workers``), else uvicorn's own
    shared socket. OSError if the address cannot be bound (another server listens there, or
    it is not this machine's)."""
    if not SPREAD_BY_KERNEL:
        return config.bind_socket()
    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    sock = claim_for_workers(family, (config.host, config.port))
    sock.shares = ConnectionShares(config.workers)
    shown = f"[{config.host}]" if family == socket.AF_INET6 else config.host
    _log.info("Listening on http://%s:%d, a socket for each of %d workers (SO_REUSEPORT)",
              shown, sock.getsockname()[1], config.workers)
    return sock


class Supervisor(Multiprocess):
    """uvicorn's supervisor of the worker processes, which also closes its own copy of each
    started worker's end of the health-check pipe.

    Every 0.5 s the supervisor pings each worker over a pipe and waits for the answer up to
    ``HEALTHCHECK_SECONDS``. uvicorn keeps the worker's end open in the supervisor too
    (``Process.child_conn``), so a worker that died between a ping and its answer never
    closed the pipe for the supervisor, and the supervisor waited out the whole 30 s before
    it started another (issue 43: 2 of about 50 killed workers). With its copy closed, the
    pipe ends with the worker, and the wait ends at once. The worker holds its own end from
    its start (multiprocessing passes it at the spawn)."""

    def keep_subprocess_alive(self) -> None:
        """uvicorn's check of every worker (replacing the dead and the hung), after closing
        the supervisor's copy of the pipe end of each worker started since the last one;
        then the connection shares keep the slots of the workers it runs now
        (``ConnectionShares.keep_only``)."""
        for worker in self.processes:
            if worker.process.pid is not None:
                worker.child_conn.close()
        super().keep_subprocess_alive()
        shares = getattr(self.sockets[0], "shares", None) if self.sockets else None
        if isinstance(shares, ConnectionShares):
            shares.keep_only({worker.pid for worker in self.processes
                              if worker.pid is not None})


def run_workers(config: Config, sock: socket.socket) -> None:
    """Serve ``config`` (an import string, ``config.workers`` > 1) on ``sock``
    (``listening_socket``) in uvicorn's worker processes under uvicorn's own supervisor
    (``Supervisor``), as ``uvicorn.run`` does, until a signal ends them; the socket is
    closed then."""
    try:
        Supervisor(config, sockets=[sock]).run()
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
