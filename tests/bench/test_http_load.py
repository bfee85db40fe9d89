"""bench/http_load.py's raw-socket client: it reads ``Connection: close`` in an answer and
sends its next request on a new connection, as any HTTP/1.1 client does (a worker of
``kiroku serve --workers`` over its share of the connections answers so)."""

from __future__ import annotations

import socket
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from http_load import Connection, answer_closes, request  # noqa: E402

CLOSING = b"HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 5\r\n\r\nfirst"
KEPT = b"HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nsecond"


def test_an_answer_saying_close_is_read_as_closing() -> None:
    assert answer_closes(CLOSING)
    assert not answer_closes(KEPT)


def test_a_body_naming_the_header_is_not_the_header() -> None:
    assert not answer_closes(b"HTTP/1.1 200 OK\r\ncontent-length: 21\r\n\r\n"
                             b"\r\nconnection: close\r\n")


def _serve_twice(listener: socket.socket, peers: list[int]) -> None:
    """Answer one request on each of two connections: the first answer says close."""
    for answer in (CLOSING, KEPT):
        conn, peer = listener.accept()
        with conn:
            peers.append(peer[1])
            while b"\r\n\r\n" not in conn.recv(65536):
                pass
            conn.sendall(answer)
            if answer is KEPT:
                conn.recv(1)  # until the client closes


def test_the_next_request_goes_on_a_new_connection() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        peers: list[int] = []
        server = threading.Thread(target=_serve_twice, args=(listener, peers))
        server.start()
        client = Connection(listener.getsockname()[1])
        try:
            assert client.roundtrip(request("GET", "/a")) == (200, b"first")
            assert client.roundtrip(request("GET", "/b")) == (200, b"second")
        finally:
            client.close()
        server.join(timeout=10)
    assert client.reconnects == 1
    assert len(set(peers)) == 2  # two connections, from two ports
