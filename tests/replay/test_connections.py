"""The server's connections (replay.api.connections): Nagle's algorithm is off on every TCP
connection, also on one accepted from a listening socket of protocol number 0, which is what
uvicorn binds for ``--workers`` (and where asyncio leaves the algorithm on); and a worker
process given the workers' listening address gets a socket of its own on it; and the workers'
counts of their open connections tell a worker when it holds more than its share."""

from __future__ import annotations

import asyncio
import errno
import os
import pickle
import select
import socket
import subprocess
import sys
from multiprocessing.reduction import ForkingPickler
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from replay.api import connections
from replay.api.connections import (
    HTTP,
    SPREAD_BY_KERNEL,
    ConnectionShares,
    PromptHTTPProtocol,
    WorkerListener,
    WorkerShare,
    bound_with_reuse_port,
    claim_for_workers,
)


async def _app(scope: Any, receive: Any, send: Any) -> None:
    """An ASGI app that is never called: the test only opens a connection."""


def nodelay_after_accepting(protocol_class: type[asyncio.Protocol]) -> int:
    """TCP_NODELAY on a connection accepted from a listening socket made as uvicorn makes it
    for its workers (``socket.socket(family=AF_INET)``, protocol number 0), once
    ``protocol_class`` has been handed it the way asyncio hands a server its connections."""
    listener = socket.socket(family=socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    client = socket.create_connection(listener.getsockname())
    accepted, _ = listener.accept()
    assert accepted.proto == 0  # asyncio turns the algorithm off only where this says TCP
    config = Config(_app, http=HTTP, lifespan="off")
    config.load()

    async def hand_over() -> int:
        loop = asyncio.get_running_loop()
        state = ServerState()
        transport, _ = await loop.connect_accepted_socket(
            lambda: protocol_class(config=config, server_state=state, app_state={}),  # type: ignore[call-arg]
            sock=accepted)
        value = accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        transport.close()
        return value

    try:
        return asyncio.run(hand_over())
    finally:
        client.close()
        listener.close()


def test_uvicorns_own_protocol_leaves_nagle_on_for_a_workers_connection() -> None:
    """The control: this setup reproduces the defect, so the next test is not passed by
    asyncio alone. Should it fail after an upgrade, uvicorn or asyncio turns the algorithm
    off by itself now, and replay.api.connections may go."""
    assert nodelay_after_accepting(HttpToolsProtocol) == 0


def test_kirokus_protocol_turns_nagle_off() -> None:
    assert nodelay_after_accepting(PromptHTTPProtocol) != 0


def test_the_setting_names_the_protocol() -> None:
    config = Config(_app, http=HTTP)
    config.load()
    assert config.http_protocol_class is PromptHTTPProtocol


def test_the_protocol_parses_with_httptools() -> None:
    """uvicorn's C parser, not h11's pure Python (issue 43: a ninth of a request's time)."""
    assert issubclass(PromptHTTPProtocol, HttpToolsProtocol)


linux_only = pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="SO_REUSEPORT spreads "
                                "connections on Linux only")


def _as_a_worker_receives_it(listener: socket.socket) -> socket.socket:
    """``listener`` pickled as uvicorn's supervisor sends it to a worker (multiprocessing's
    pickler), then loaded, as the worker loads it."""
    loaded: socket.socket = pickle.loads(bytes(ForkingPickler.dumps(listener)))
    return loaded


@linux_only
def test_a_worker_gets_a_socket_of_its_own_on_the_workers_address() -> None:
    listener = bound_with_reuse_port(socket.AF_INET, ("127.0.0.1", 0), WorkerListener)
    first, second = (_as_a_worker_receives_it(listener) for _ in range(2))
    try:
        inodes = {os.fstat(s.fileno()).st_ino for s in (listener, first, second)}
        assert len(inodes) == 3  # three sockets, not three descriptors of one
        for own in (first, second):
            assert type(own) is socket.socket
            assert own.getsockname() == listener.getsockname()
            assert own.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) != 0
            assert own.get_inheritable()
    finally:
        for sock in (listener, first, second):
            sock.close()


@linux_only
def test_the_kernel_spreads_connections_across_the_workers_sockets() -> None:
    """Two workers' sockets listening on the address each accept some of 32 connections
    (the kernel picks by a hash of each connection's addresses: all 32 on one socket has a
    chance of 2 in 2**32); the supervisor's socket, never listened on, takes none."""
    listener = bound_with_reuse_port(socket.AF_INET, ("127.0.0.1", 0), WorkerListener)
    workers = [_as_a_worker_receives_it(listener) for _ in range(2)]
    for own in workers:
        own.listen(64)
    clients = [socket.create_connection(listener.getsockname()) for _ in range(32)]
    accepted = {own.fileno(): 0 for own in workers}
    try:
        while sum(accepted.values()) < len(clients):
            ready, _, _ = select.select(workers, [], [], 5)
            assert ready, f"connections left unaccepted: {accepted}"
            for own in ready:
                own.accept()[0].close()
                accepted[own.fileno()] += 1
        assert all(count > 0 for count in accepted.values()), accepted
    finally:
        for sock in [listener, *workers, *clients]:
            sock.close()


@linux_only
def test_a_taken_address_is_an_error_and_leaves_no_socket_open() -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))  # without SO_REUSEPORT: no one may join it
    before = len(os.listdir("/proc/self/fd"))
    try:
        with pytest.raises(OSError):
            bound_with_reuse_port(socket.AF_INET, taken.getsockname(), WorkerListener)
        assert len(os.listdir("/proc/self/fd")) == before
    finally:
        taken.close()


@linux_only
def test_an_address_another_server_listens_on_is_refused_even_with_reuse_port() -> None:
    """Another ``kiroku serve --workers`` (its workers' sockets set ``SO_REUSEPORT`` too)
    listening on the port: a second one must not join it and take some of its connections."""
    other = bound_with_reuse_port(socket.AF_INET, ("127.0.0.1", 0))
    other.listen()
    address = other.getsockname()
    try:
        with pytest.raises(OSError) as refused:
            claim_for_workers(socket.AF_INET, address)
        assert refused.value.errno == errno.EADDRINUSE
    finally:
        other.close()
    claimed = claim_for_workers(socket.AF_INET, address)  # free again
    claimed.close()


@linux_only
def test_port_zero_claims_one_port_for_every_worker() -> None:
    listener = claim_for_workers(socket.AF_INET, ("127.0.0.1", 0))
    own = _as_a_worker_receives_it(listener)
    try:
        assert listener.getsockname()[1] != 0
        assert own.getsockname() == listener.getsockname()
    finally:
        listener.close()
        own.close()


def _a_dead_process() -> int:
    """The process id of a process that has ended."""
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    return int(finished.stdout)


def _holding(shares: ConnectionShares, *counts: int) -> list[WorkerShare]:
    """A slot in ``shares`` for each count, as many connections opened in each."""
    held = []
    for count in counts:
        share = shares.join()
        assert share is not None
        for _ in range(count):
            share.opened()
        held.append(share)
    return held


def test_a_worker_holding_more_than_its_share_is_over_it() -> None:
    more, fewer = _holding(ConnectionShares(2), 10, 6)
    assert more.over_share() and not fewer.over_share()


def test_an_even_split_is_no_worker_over_its_share() -> None:
    first, second = _holding(ConnectionShares(2), 8, 8)
    assert not first.over_share() and not second.over_share()


def test_a_share_of_an_odd_count_is_rounded_up() -> None:
    nine, eight = _holding(ConnectionShares(2), 9, 8)
    assert not nine.over_share() and not eight.over_share()


def test_a_connection_told_to_close_is_no_longer_counted() -> None:
    """Told to close after its answer, it stops counting at once: the worker asks no other
    connection to leave while it waits for that one to close."""
    nine, _ = _holding(ConnectionShares(2), 9, 7)
    assert nine.over_share()
    nine.leave()
    assert not nine.over_share()
    nine.lost(leaving=True)
    assert (nine.open, nine.leaving) == (8, 0) and not nine.over_share()


def test_a_connection_that_closes_by_itself_leaves_the_count() -> None:
    nine, _ = _holding(ConnectionShares(2), 9, 7)
    nine.lost(leaving=False)
    assert not nine.over_share()


def test_a_worker_started_in_place_of_a_dead_one_takes_its_slot_from_zero() -> None:
    shares = ConnectionShares(2)
    _, gone = _holding(shares, 3, 5)
    shares.table[gone.count_at - 1] = _a_dead_process()
    newcomer = shares.join()
    assert newcomer is not None and newcomer.count_at == gone.count_at
    assert shares.table[newcomer.count_at] == 0


def test_no_slot_is_given_while_every_worker_lives() -> None:
    """A slot for twice as many workers as the server started, and none beyond."""
    shares = ConnectionShares(1)
    assert shares.join() is not None and shares.join() is not None
    assert shares.join() is None


def test_a_replacement_started_before_the_worker_it_replaces_stops_has_a_slot() -> None:
    """uvicorn's supervisor restarts workers on SIGHUP by starting each replacement before
    it stops the worker replaced, and adds one on SIGTTIN: while every worker started lives,
    a worker more still gets a slot."""
    shares = ConnectionShares(2)
    assert None not in [shares.join() for _ in range(3)]


def test_a_share_is_of_every_worker_holding_a_slot() -> None:
    """Three workers running where the server started two: 5 of 9 connections is more than
    a third (3), though not more than half."""
    five, two, _ = _holding(ConnectionShares(2), 5, 2, 2)
    assert five.over_share() and not two.over_share()


def test_the_slots_of_workers_the_supervisor_stopped_are_freed() -> None:
    """A worker stopped by SIGTTOU (or replaced by a restart) leaves its last count in the
    table: 30, which would make 12 of 12 connections on the two running workers look under
    a share of 42 in three. The supervisor frees the slots of the workers it no longer runs
    (``keep_only``), and the busy worker is over its share of the two again."""
    shares = ConnectionShares(2)
    busy, _, stopped = _holding(shares, 12, 0, 30)
    shares.table[stopped.count_at - 1] = _a_dead_process()
    shares.keep_only({os.getpid()})
    assert shares.table[stopped.count_at - 1:stopped.count_at + 1] == [0, 0]
    assert busy.over_share()
    assert shares.join() is not None  # the freed slot, for the next worker


def test_a_worker_whose_slot_was_freed_is_over_no_share() -> None:
    """The supervisor frees a slot only once its worker has ended, but a worker finding its
    own slot freed (and no other held) still answers: it asks no client to reconnect."""
    shares = ConnectionShares(1)
    alone, = _holding(shares, 10)
    shares.keep_only(set())
    assert not alone.over_share()


def test_a_worker_not_started_yet_has_no_share() -> None:
    """Until the second worker listens, every connection comes to the first: asking them to
    reconnect would only bring them back."""
    alone, = _holding(ConnectionShares(2), 10)
    assert not alone.over_share()


def test_a_dead_workers_count_is_no_share() -> None:
    """Its clients reconnect to the living worker until its replacement starts."""
    living, other = _holding(ConnectionShares(2), 12, 4)
    assert living.over_share()
    other.table[other.count_at - 1] = _a_dead_process()
    assert not living.over_share()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="a zombie is told apart in /proc")
def test_a_worker_that_died_and_awaits_reaping_has_no_share() -> None:
    """A dead worker stays a zombie until uvicorn's supervisor reaps it, and a zombie still
    answers signal 0: its last count must not count meanwhile."""
    living, other = _holding(ConnectionShares(2), 12, 4)
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        os.waitid(os.P_PID, zombie.pid, os.WEXITED | os.WNOWAIT)  # ended, not reaped
        other.table[other.count_at - 1] = zombie.pid
        assert not living.over_share()
    finally:
        zombie.wait()


async def _answering(scope: Any, receive: Any, send: Any) -> None:
    """An ASGI app answering every request 200 at once (a stream that ends at once too)."""
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


def test_a_connection_is_out_of_the_count_while_it_streams(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A live stream cannot be handed on, so its connection leaves the worker's count; a
    plain request on the same connection after the stream brings it back."""
    share = ConnectionShares(1).join()
    assert share is not None
    monkeypatch.setattr(connections, "_share", share)
    config = Config(_answering, http=HTTP, lifespan="off", access_log=False)
    config.load()
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    accepted, _ = listener.accept()

    async def asked(path: str) -> None:
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(client, f"GET {path} HTTP/1.1\r\nHost: kiroku\r\n\r\n".encode())
        answer = b""
        while not answer.endswith(b"ok"):
            chunk = await loop.sock_recv(client, 65536)
            assert chunk, "the server closed the connection"
            answer += chunk

    async def counts() -> list[int]:
        seen = []
        transport, _ = await asyncio.get_running_loop().connect_accepted_socket(
            lambda: PromptHTTPProtocol(config=config, server_state=ServerState(),  # type: ignore[call-arg]
                                       app_state={}),
            sock=accepted)
        client.setblocking(False)
        seen.append(share.open)
        await asked("/matches/m/live")
        seen.append(share.open)
        await asked("/matches/m")
        seen.append(share.open)
        transport.close()
        await asyncio.sleep(0.05)
        seen.append(share.open)
        return seen

    try:
        assert asyncio.run(counts()) == [1, 0, 1, 0]
    finally:
        client.close()
        listener.close()
