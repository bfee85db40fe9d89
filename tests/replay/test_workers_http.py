"""``kiroku serve --workers 2``: two server processes on one store (an SQLite file, and a
PostgreSQL database whose writers insert side by side), each action still checked, stored once
and in order, and every match listed by either process."""

from __future__ import annotations

import ctypes
import errno
import http.client
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from replay.api import connections
from replay.api.connections import SPREAD_BY_KERNEL
from replay.service import Kiroku
from tests.conftest import POSTGRES_URL, drop_schema, postgres_schema
from tests.replay.conftest import Server, serve
from tests.replay.test_api_http import events, first_of, legal, new_match, post_action, summary

WORKERS = 2


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("workers")
    if request.param == "sqlite":
        yield from serve(folder / "kiroku.db", "--workers", str(WORKERS))
        return
    schema = postgres_schema()
    if schema is None:
        pytest.skip("no PostgreSQL server (set KIROKU_TEST_POSTGRES_URL)")
    try:
        yield from serve(folder / "kiroku.db", "--workers", str(WORKERS),
                         db_url=f"{POSTGRES_URL}?schema={schema}")
    finally:
        drop_schema(schema)


def _threads(n: int, work: Callable[[int], None]) -> None:
    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)


def _server_process(server: Server) -> int:
    """The pid of the ``kiroku serve`` process listening on the server's port (Linux /proc)."""
    port = server.base.rsplit(":", 1)[1]
    for entry in Path("/proc").iterdir():
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in words and port.encode() in words:
            return int(entry.name)
    raise AssertionError("no kiroku serve process")


def _workers(server: Server) -> list[int]:
    """The server's worker processes (not multiprocessing's resource tracker)."""
    pid = _server_process(server)
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()]


def test_the_server_runs_one_process_per_worker(server: Server) -> None:
    assert len(_workers(server)) == WORKERS


def _tcp_nodelay_of_peer(pid: int, peer: tuple[str, int]) -> int | None:
    """TCP_NODELAY of the socket process ``pid`` holds connected to ``peer``, read through a
    copy of its descriptor (Linux ``pidfd_getfd``: socket options belong to the socket, not
    to a descriptor); None if the process holds no such socket."""
    pidfd = os.pidfd_open(pid)
    try:
        for name in os.listdir(f"/proc/{pid}/fd"):
            try:
                if not os.readlink(f"/proc/{pid}/fd/{name}").startswith("socket:"):
                    continue
            except OSError:
                continue
            fd = _LIBC.syscall(_PIDFD_GETFD, pidfd, int(name), 0)
            if fd < 0:
                if ctypes.get_errno() == errno.EBADF:  # closed since it was listed
                    continue
                raise OSError(ctypes.get_errno(), "pidfd_getfd")
            with socket.socket(fileno=fd) as sock:
                if sock.family != socket.AF_INET or sock.type != socket.SOCK_STREAM:
                    continue
                try:
                    if sock.getpeername() == peer:
                        return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                except OSError:  # a listening socket has no peer
                    continue
    finally:
        os.close(pidfd)
    return None


_LIBC = ctypes.CDLL(None, use_errno=True)
_PIDFD_GETFD = 438  # the system call's number, the same on x86-64 and arm64


def test_a_workers_connections_have_nagles_algorithm_off(server: Server) -> None:
    """A worker answers a keep-alive connection without waiting for the client's delayed
    acknowledgement (replay.api.connections): its socket has TCP_NODELAY."""
    host, port = server.base.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request("GET", "/games")
        assert connection.getresponse().read()
        peer = connection.sock.getsockname()
        pid = _server_process(server)
        workers = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        found = [v for v in (_tcp_nodelay_of_peer(int(w), peer) for w in workers)
                 if v is not None]
    finally:
        connection.close()
    assert len(found) == 1 and found[0] != 0, found


def _sockets_by_worker(server: Server, state: str) -> dict[int, set[int]]:
    """The inodes of the TCP sockets on the server's port in ``state`` (/proc/net/tcp's hex
    code: 0A listening, 01 established) that each worker process holds (Linux /proc)."""
    port = int(server.base.rsplit(":", 1)[1])
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == state:
            inodes.add(int(fields[9]))
    found: dict[int, set[int]] = {}
    for worker in _workers(server):
        held = set()
        for name in os.listdir(f"/proc/{worker}/fd"):
            try:
                link = os.readlink(f"/proc/{worker}/fd/{name}")
            except OSError:  # closed since it was listed
                continue
            if link.startswith("socket:[") and int(link[8:-1]) in inodes:
                held.add(int(link[8:-1]))
        found[int(worker)] = held
    return found


def _every_worker_listening(server: Server) -> dict[int, set[int]]:
    """The listening sockets by worker, once every worker listens (the server answered as
    soon as its first did; the others may still be starting)."""
    deadline = time.monotonic() + 30
    while True:
        listening = _sockets_by_worker(server, "0A")
        if all(listening.values()) or time.monotonic() > deadline:
            return listening
        time.sleep(0.1)


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_each_worker_listens_on_a_socket_of_its_own(server: Server) -> None:
    """Not one socket shared, which the first worker to wake empties of every waiting
    connection (replay.api.connections)."""
    listening = _every_worker_listening(server)
    assert len(listening) == WORKERS and all(len(s) == 1 for s in listening.values())
    assert len(set.union(*listening.values())) == WORKERS, listening


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_connections_opened_at_once_reach_every_worker(server: Server) -> None:
    """32 keep-alive connections opened together, as a burst of clients opens them: each
    worker serves some (the kernel picks a worker by a hash of each connection's addresses;
    all on one has a chance of 2 in 2**32)."""
    _every_worker_listening(server)
    host, port = server.base.removeprefix("http://").rsplit(":", 1)
    connections = [http.client.HTTPConnection(host, int(port), timeout=30) for _ in range(32)]
    try:
        for connection in connections:
            connection.connect()
        for connection in connections:
            connection.request("GET", "/games")
            assert connection.getresponse().read()
        served = _sockets_by_worker(server, "01")
        still_open = sum(1 for connection in connections if connection.sock is not None)
    finally:
        for connection in connections:
            connection.close()
    # a worker holding more than its share told some to close after their answer
    assert sum(len(s) for s in served.values()) == still_open
    assert all(served.values()), {w: len(s) for w, s in served.items()}


def _worker_of(server: Server, client_port: int) -> int:
    """The worker holding the server's end of the connection from ``client_port``, once it
    has accepted it (Linux /proc): the established socket from that port to the server's.
    (Matching the client's port alone once found, on a machine that had served many tests,
    a closed connection of another server's from the same port, waiting out its TIME_WAIT
    of up to 60 s with no descriptor: a worker seemed slow to accept.)"""
    port = int(server.base.rsplit(":", 1)[1])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        inode = next((int(fields[9]) for fields in
                      (line.split() for line in
                       Path("/proc/net/tcp").read_text().splitlines()[1:])
                      if int(fields[1].rsplit(":", 1)[1], 16) == port
                      and int(fields[2].rsplit(":", 1)[1], 16) == client_port
                      and fields[3] == "01"), None)
        for worker, held in _sockets_by_worker(server, "01").items():
            if inode in held:
                return worker
        time.sleep(0.01)
    raise AssertionError(f"no worker accepted the connection from port {client_port}")


@contextmanager
def _connections_on(server: Server, worker: int,
                    count: int) -> Iterator[list[http.client.HTTPConnection]]:
    """``count`` keep-alive connections the kernel gave to ``worker`` (those it gave to
    another are closed on the way), closed on leaving."""
    host, port = server.base.removeprefix("http://").rsplit(":", 1)
    kept: list[http.client.HTTPConnection] = []
    try:
        for _ in range(count * 40):
            connection = http.client.HTTPConnection(host, int(port), timeout=30)
            connection.connect()
            if _worker_of(server, connection.sock.getsockname()[1]) != worker:
                connection.close()
                continue
            kept.append(connection)
            if len(kept) == count:
                yield kept
                return
        raise AssertionError(f"the kernel gave worker {worker} {len(kept)} of {count * 40}")
    finally:
        for connection in kept:
            connection.close()


def _held_after_requests(server: Server, connections: list[http.client.HTTPConnection],
                         rounds: int) -> dict[int, int]:
    """How many connections each worker holds after each of ``connections`` sent ``rounds``
    requests, one after the other, opening a new connection whenever an answer said
    ``Connection: close`` (as http.client does by itself)."""
    for _ in range(rounds):
        for connection in connections:
            connection.request("GET", "/games")
            assert connection.getresponse().read()
    return {worker: len(held) for worker, held in _sockets_by_worker(server, "01").items()}


def _spread_from(server: Server, worker: int, count: int) -> list[int]:
    """How many connections each worker holds, fewest first, after ``count`` keep-alive
    connections the kernel gave to ``worker`` sent 40 requests each (``_held_after_requests``)."""
    with _connections_on(server, worker, count) as connections:
        held = _held_after_requests(server, connections, rounds=40)
    return sorted(held.values())


def _head_of_answer(connection: http.client.HTTPConnection, path: str, token: str) -> bytes:
    """The head of the answer to ``GET path`` on ``connection`` (its body left unread)."""
    connection.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: kiroku\r\n"
                            f"Authorization: Bearer {token}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = connection.sock.recv(65536)
        assert chunk, "the server closed the connection"
        head += chunk
    return head.partition(b"\r\n\r\n")[0].lower()


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_a_worker_over_its_share_leaves_a_live_stream_open(server: Server) -> None:
    """A live stream's answer lasts up to an hour: a worker holding more than its share
    does not mark it to close (it marks the next plain request)."""
    with server.client(server.organiser_token) as client:
        match_id = new_match(client)["match_id"]
    busy = min(_every_worker_listening(server))
    with _connections_on(server, busy, 9) as connections:
        stream, plain = connections[0], connections[1]
        assert b"connection: close" not in _head_of_answer(
            stream, f"/matches/{match_id}/live", server.organiser_token)
        assert b"connection: close" in _head_of_answer(
            plain, f"/matches/{match_id}", server.organiser_token)


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_a_workers_live_streams_do_not_send_its_other_connections_away(server: Server) -> None:
    """Streams cannot be handed on, so they are out of the count: a worker holding six
    streams and one plain connection holds no more than its share of what can move.
    Counted, the seven would be over a share of four, and every table reaching that
    worker would be told to reconnect."""
    with server.client(server.organiser_token) as client:
        match_id = new_match(client)["match_id"]
    busy = min(_every_worker_listening(server))
    with _connections_on(server, busy, 7) as connections:
        *streams, plain = connections
        for stream in streams:
            assert b"200 ok" in _head_of_answer(
                stream, f"/matches/{match_id}/live", server.organiser_token)
        assert b"connection: close" not in _head_of_answer(
            plain, f"/matches/{match_id}", server.organiser_token)


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_a_worker_holding_every_connection_hands_half_of_them_on(server: Server) -> None:
    """12 keep-alive clients all hashed to one worker: that worker answers some with
    ``Connection: close`` until each worker holds 6 (replay.api.connections,
    ``ConnectionShares``); without it the 12 stay where the kernel put them."""
    spread = _spread_from(server, min(_every_worker_listening(server)), 12)
    assert spread == [6, 6], spread


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_a_worker_started_again_after_dying_listens_on_a_socket_of_its_own(
        tmp_path: Path) -> None:
    """uvicorn's supervisor replaces a worker that died; the new one binds its own socket
    too, and the service answers through it."""
    with contextmanager(serve)(tmp_path / "kiroku.db", "--workers", str(WORKERS)) as own:
        before = _every_worker_listening(own)
        dead = min(before)
        os.kill(dead, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while dead in _workers(own) or len(_workers(own)) < WORKERS:
            assert time.monotonic() < deadline, "the worker was not replaced"
            time.sleep(0.2)
        after = _every_worker_listening(own)
        assert dead not in after and all(after.values()), after
        assert len(set.union(*after.values())) == WORKERS
        with own.client() as client:
            for _ in range(8):
                assert client.get("/games").status_code == 200
        # the new worker took over its predecessor's count of connections, and hands on
        # what it holds beyond its share
        newcomer = next(worker for worker in after if worker not in before)
        spread = _spread_from(own, newcomer, 8)
        assert spread == [4, 4], spread


def test_a_worker_killed_before_answering_a_health_check_is_replaced_at_once(
        tmp_path: Path) -> None:
    """uvicorn's supervisor pings each worker every 0.5 s and waits up to
    ``HEALTHCHECK_SECONDS`` (30) for the answer; a worker stopped, so that a ping waits on
    it, and then killed is replaced well before that wait would end
    (``replay.api.connections.Supervisor``)."""
    with contextmanager(serve)(tmp_path / "kiroku.db", "--workers", str(WORKERS)) as own:
        stuck = min(_every_worker_listening(own))
        os.kill(stuck, signal.SIGSTOP)
        time.sleep(2)  # a ping or more sent meanwhile, unanswered
        os.kill(stuck, signal.SIGKILL)
        killed = time.monotonic()
        while stuck in _workers(own) or len(_workers(own)) < WORKERS:
            assert time.monotonic() - killed < connections.HEALTHCHECK_SECONDS / 3, (
                "the supervisor waited out its health check on a dead worker")
            time.sleep(0.1)


def _signalled(server: Server, signal_number: int, workers: int) -> dict[int, set[int]]:
    """Send the server's supervisor ``signal_number`` and wait until ``workers`` workers,
    other than those before, listen (a SIGHUP replaces every one); each worker's listening
    sockets."""
    before = set(_every_worker_listening(server))
    os.kill(_server_process(server), signal_number)
    deadline = time.monotonic() + 60  # a restart starts each worker as a server starts
    while True:
        now = set(_workers(server))
        if len(now) == workers and now != before and (
                signal_number != signal.SIGHUP or not now & before):
            return _every_worker_listening(server)
        assert time.monotonic() < deadline, f"workers {sorted(now)} after the signal"
        time.sleep(0.2)


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_workers_restarted_by_sighup_hand_connections_on(tmp_path: Path) -> None:
    """uvicorn's supervisor restarts its workers on SIGHUP, starting each replacement before
    it stops the worker replaced: the replacements take slots in the connection shares too,
    and a worker holding every connection hands half of them on, twice over. (With a slot
    for each worker only, a replacement found none and the 8 stayed where they landed.)"""
    with contextmanager(serve)(tmp_path / "kiroku.db", "--workers", str(WORKERS)) as own:
        for _ in range(2):
            spread = _spread_from(own, min(_signalled(own, signal.SIGHUP, WORKERS)), 8)
            assert spread == [4, 4], spread


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_a_worker_added_by_sigttin_takes_a_share_and_one_removed_leaves_it(
        tmp_path: Path) -> None:
    """SIGTTIN adds a worker: 12 connections on one of three end 4, 4, 4. SIGTTOU stops
    one: the two left share the 12 again, 6 and 6, the stopped worker's last count no
    longer in the share (the supervisor frees its slot)."""
    with contextmanager(serve)(tmp_path / "kiroku.db", "--workers", str(WORKERS)) as own:
        spread = _spread_from(own, min(_signalled(own, signal.SIGTTIN, WORKERS + 1)), 12)
        assert spread == [4, 4, 4], spread
        spread = _spread_from(own, min(_signalled(own, signal.SIGTTOU, WORKERS)), 12)
        assert spread == [6, 6], spread


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_a_second_server_on_the_workers_port_is_refused(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its sockets would set SO_REUSEPORT too, and could join the running server's: it must
    say the port is taken instead, and start no worker. (uvicorn's supervisor is replaced by
    one that only counts its starts, so that a server let through ends this test at once
    instead of serving on.)"""
    _every_worker_listening(server)
    port = server.base.rsplit(":", 1)[1]
    started: list[object] = []

    def counted(config: object, sockets: object) -> _Stopped:
        started.append(sockets)
        return _Stopped()

    monkeypatch.setattr(connections, "Supervisor", counted)
    result = CliRunner().invoke(main, ["--db", f"sqlite:///{tmp_path / 'other.db'}", "serve",
                                       "--no-demo", "--port", port, "--workers", "2"])
    assert started == [] and result.exit_code == 1, result.output
    assert f"Cannot listen on 127.0.0.1:{port}: Address already in use." in result.output
    assert len(_workers(server)) == WORKERS


class _Stopped:
    """A supervisor that serves nothing: ``run`` returns at once."""

    def run(self) -> None:
        """Nothing to run."""


def test_a_port_out_of_range_is_refused_before_the_store_opens(tmp_path: Path) -> None:
    for workers in ("1", "2"):
        result = CliRunner().invoke(main, ["--db", f"sqlite:///{tmp_path / 'k.db'}", "serve",
                                           "--port", "70000", "--workers", workers])
        assert result.exit_code == 2 and "70000 is not in the range 0<=x<=65535" in \
            result.output, result.output
    assert not (tmp_path / "k.db").exists()


def test_matches_recorded_at_once_through_both_processes_are_whole(server: Server) -> None:
    with server.client(server.organiser_token) as client:
        ids = [new_match(client)["match_id"] for _ in range(6)]

    def play(i: int) -> None:
        # a connection of its own per action: the kernel hands each to either process
        for turn in range(4):
            seat = 1 + turn % 2
            with server.client(server.organiser_token) as own:
                resp = post_action(own, ids[i], {"type": "end_turn", "seat": seat})
            assert resp.status_code == 201, resp.text

    _threads(len(ids), play)
    with server.client(server.organiser_token) as client:
        for match_id in ids:
            assert summary(client, match_id)["positions"] == 4
            recorded = [e["seq"] for e in events(client, match_id)
                        if e["event"] == "ActionRecorded"]
            assert recorded == [1, 2, 3, 4]
        listed = {m["match_id"] for m in client.get("/matches").json()}
    assert set(ids) <= listed
    kiroku = Kiroku.open(server.db_url, keys=server.key_file)
    try:
        assert all(kiroku.audit(kiroku.match_ids(i)[0]).ok for i in ids)
    finally:
        kiroku.close()


def test_racing_clients_on_two_processes_append_exactly_once(server: Server) -> None:
    with server.client(server.organiser_token) as client:
        match_id = new_match(client)["match_id"]
        stun = first_of(legal(client, match_id, 1), "stun")
        judges = [client.post("/credentials", json={"role": "judge", "name": f"J{i}"}).json()[
            "token"] for i in range(8)]
    statuses: list[int] = []
    barrier = threading.Barrier(8)

    def race(i: int) -> None:
        with server.client(judges[i]) as own:
            barrier.wait()
            resp = post_action(own, match_id, stun, expected_version=1)
        statuses.append(resp.status_code)

    _threads(8, race)
    assert sorted(statuses) == [201] + [409] * 7
    with server.client(server.organiser_token) as client:
        assert summary(client, match_id)["version"] == 2
    # one caller's copies of one request (a resend after a lost answer) record once: the
    # one that stored it gets 201, the others its answer with 200
    statuses.clear()
    answers: list[str] = []  # what each answer said: a failure shows what the odd one was

    def resend(_: int) -> None:
        with server.client(server.organiser_token) as own:
            barrier.wait()
            resp = post_action(own, match_id, next_action, expected_version=2)
        statuses.append(resp.status_code)
        answers.append(f"{resp.status_code} {resp.text[:300]}")

    with server.client(server.organiser_token) as client:
        next_action = legal(client, match_id, 1)[0]  # whatever seat 1 may do next
    _threads(8, resend)
    assert sorted(statuses) == [200] * 7 + [201], answers
    with server.client(server.organiser_token) as client:
        assert summary(client, match_id)["version"] == 3


def test_two_servers_on_one_postgresql_database_record_and_list_together(
        tmp_path: Path) -> None:
    """Two ``kiroku serve`` commands (not one command's workers) on one PostgreSQL database:
    a match created through one is listed, played and read through the other."""
    schema = postgres_schema()
    if schema is None:
        pytest.skip("no PostgreSQL server (set KIROKU_TEST_POSTGRES_URL)")
    url = f"{POSTGRES_URL}?schema={schema}"
    try:
        with contextmanager(serve)(tmp_path / "first.db", db_url=url) as first, \
                contextmanager(serve)(tmp_path / "second.db", db_url=url) as second:
            token = first.organiser_token
            with first.client(token) as one, second.client(token) as other:
                match_id = new_match(one)["match_id"]
                assert match_id in {m["match_id"] for m in other.get("/matches").json()}
                for turn in range(4):
                    seat = 1 + turn % 2
                    through = (one, other)[turn % 2]
                    resp = post_action(through, match_id, {"type": "end_turn", "seat": seat})
                    assert resp.status_code == 201, resp.text
                assert summary(one, match_id)["positions"] == 4
                assert summary(other, match_id)["version"] == 5
    finally:
        drop_schema(schema)


def test_workers_refuse_an_in_memory_store() -> None:
    result = CliRunner().invoke(main, ["--db", "sqlite:///:memory:", "serve", "--workers", "2",
                                       "--no-demo"])
    assert result.exit_code == 2 and "database file or PostgreSQL" in result.output


def _live_stream_on(server: Server, worker: int, match_id: str) -> http.client.HTTPConnection:
    """A live stream of ``match_id`` held open on ``worker``, its first event read."""
    with _connections_on(server, worker, 1) as held:
        stream = held.pop()  # kept open past the block
    head = _head_of_answer(stream, f"/matches/{match_id}/live", server.organiser_token)
    assert b"200 ok" in head and b"transfer-encoding: chunked" in head, head
    return stream


def _ends_with_last_chunk(stream: http.client.HTTPConnection, seconds: float) -> bool:
    """Whether what the server still sends on ``stream`` until it closes it (within
    ``seconds``) ends with a chunked answer's last, empty chunk (after whole chunks: each
    ends with a line break, as the part read before did)."""
    deadline, rest = time.monotonic() + seconds, b""
    try:
        while (left := deadline - time.monotonic()) > 0:  # keep-alives come every 15 s
            stream.sock.settimeout(left)
            if not (chunk := stream.sock.recv(65536)):
                return (b"\r\n" + rest).endswith(b"\r\n0\r\n\r\n")
            rest += chunk
    except TimeoutError:
        pass
    finally:
        stream.close()
    return False


@pytest.mark.skipif(not SPREAD_BY_KERNEL, reason="a socket per worker on Linux only")
def test_a_restart_of_the_workers_ends_their_live_streams(tmp_path: Path) -> None:
    """A worker being replaced lets its answers in progress finish first, and a live stream
    lasts an hour: the restart (SIGHUP) waited on it, with the supervisor replacing no dead
    worker meanwhile. The streams end at the restart, each with its chunked answer's last
    chunk, and their clients reconnect to the new workers."""
    with contextmanager(serve)(tmp_path / "kiroku.db", "--workers", str(WORKERS)) as own:
        with own.client(own.organiser_token) as client:
            match_id = new_match(client)["match_id"]
        streams = [_live_stream_on(own, worker, match_id)
                   for worker in sorted(_every_worker_listening(own))]
        restarted = _signalled(own, signal.SIGHUP, WORKERS)
        assert all(_ends_with_last_chunk(stream, 30) for stream in streams)
        with own.client(own.organiser_token) as client:
            assert client.get(f"/matches/{match_id}").status_code == 200
        assert set(_every_worker_listening(own)) == set(restarted)


def test_a_server_with_a_live_stream_open_stops_when_told(tmp_path: Path) -> None:
    """``kiroku serve`` in one process, a watcher connected: SIGTERM (as a service manager
    stops it, and as Ctrl+C does) stops it within seconds, where it waited for the stream's
    hour; the stream ends with its last chunk."""
    with contextmanager(serve)(tmp_path / "kiroku.db") as own:
        with own.client(own.organiser_token) as client:
            match_id = new_match(client)["match_id"]
        host, port = own.base.removeprefix("http://").rsplit(":", 1)
        stream = http.client.HTTPConnection(host, int(port), timeout=30)
        stream.connect()
        head = _head_of_answer(stream, f"/matches/{match_id}/live", own.organiser_token)
        assert b"200 ok" in head, head
        process = _server_process(own)
        os.kill(process, signal.SIGTERM)
        assert _ends_with_last_chunk(stream, 30)
        deadline = time.monotonic() + 30
        while Path(f"/proc/{process}").exists() and (
                b"Z" not in Path(f"/proc/{process}/stat").read_bytes().split(b") ")[-1][:1]):
            assert time.monotonic() < deadline, "the server did not stop"
            time.sleep(0.1)
