"""Headers every answer of the server carries, whatever made it: a route's JSON, a page, a
static file, an error (the body limit's 413 and an unexpected exception's 500 included), a
live stream, the 404 of an unknown path.

- ``X-Content-Type-Options: nosniff``: a browser takes an answer for the type it is sent as
  (a study's text, a CSV, an export), never a script or a page it guessed from the content.
- ``Referrer-Policy: no-referrer``: no page's address leaves the browser in a ``Referer``,
  to another site or to this one. A sign-in link carries its code in the address
  (``/sign-in#code=...``): in the fragment, which browsers leave out of a ``Referer``, and the
  sign-in page takes it out of the address at once; but had an address ever held a code
  elsewhere, ``same-origin`` would still send it to this server, into the access log of any
  proxy before it, where a code must never be (docs/architecture.md, sign-in links). Kiroku
  reads no ``Referer``, so nothing is lost.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HARDENING = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))
_NAMES = frozenset(name for name, _ in HARDENING)


class HardeningHeaders:
    """Pure ASGI middleware adding ``HARDENING`` to the head of every HTTP answer (in place of
    any the application set itself), without touching its body: a stream stays a stream."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*(h for h in message.get("headers", ())
                                        if h[0].lower() not in _NAMES), *HARDENING]
            await send(message)

        await self.app(scope, receive, hardened)


class HardenedFastAPI(FastAPI):
    """A FastAPI application wrapped whole in ``HardeningHeaders``: outside Starlette's
    ``ServerErrorMiddleware``, which answers an unexpected exception itself and would be
    outside a middleware added with ``add_middleware``."""

    def build_middleware_stack(self) -> ASGIApp:
        """FastAPI's stack, inside ``HardeningHeaders``."""
        return HardeningHeaders(super().build_middleware_stack())
