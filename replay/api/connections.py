"""How the server takes its connections: uvicorn's HTTP/1.1 protocol with Nagle's algorithm
off on every connection, in one process or in each of ``--workers``.

asyncio turns Nagle's algorithm off (``TCP_NODELAY``) only on sockets whose protocol number
says TCP. The listening socket that uvicorn binds itself for ``--workers`` has the protocol
number 0, so every connection a worker accepted kept the algorithm on: an answer written in two
parts (its head, then its body) waited for the client's delayed acknowledgement, about 40 ms on
Linux, and two worker processes served fewer requests than one (issue 16: a bare FastAPI app
answered 357 GETs a second on two workers against 2,108 on one; bench/RESULTS.md).
"""

from __future__ import annotations

import asyncio
import socket

from uvicorn.protocols.http.h11_impl import H11Protocol

HTTP = "replay.api.connections:PromptHTTPProtocol"
"""uvicorn's ``http`` setting for this protocol (an import string: workers import it)."""


class PromptHTTPProtocol(H11Protocol):
    """uvicorn's h11 protocol, setting ``TCP_NODELAY`` on each TCP connection it is given."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        """Nagle's algorithm off, then uvicorn's own handling of the new connection."""
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)  # type: ignore[arg-type]
