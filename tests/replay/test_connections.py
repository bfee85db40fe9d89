"""The server's connections (replay.api.connections): Nagle's algorithm is off on every TCP
connection, also on one accepted from a listening socket of protocol number 0, which is what
uvicorn binds for ``--workers`` (and where asyncio leaves the algorithm on)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from replay.api.connections import HTTP, PromptHTTPProtocol


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
    assert nodelay_after_accepting(H11Protocol) == 0


def test_kirokus_protocol_turns_nagle_off() -> None:
    assert nodelay_after_accepting(PromptHTTPProtocol) != 0


def test_the_setting_names_the_protocol() -> None:
    config = Config(_app, http=HTTP)
    config.load()
    assert config.http_protocol_class is PromptHTTPProtocol
