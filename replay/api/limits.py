"""Bounds on what a request may send: the body's size, and JSON values no game needs (integers
beyond what every store encodes, endless strings, deep nesting). A request past them gets the
usual error body, never a 500, and stores nothing."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from replay.service import MAX_IMPORT_BYTES

MAX_BODY_BYTES = 1024 * 1024
MAX_INT = 2**53  # exact in every JSON reader, far inside msgpack's 64 bits
MAX_STRING = 10_000
MAX_DEPTH = 16


def check_plain(value: Any) -> Any:
    """``value`` if every integer, string and nesting level in it is within bounds; else
    ValueError (a 422 ``malformed_request`` naming the field)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        if isinstance(item, int) and not -MAX_INT <= item <= MAX_INT:
            raise ValueError(f"an integer beyond ±2**53: {str(item)[:20]}...")
        if isinstance(item, str) and len(item) > MAX_STRING:
            raise ValueError(f"a text longer than {MAX_STRING} characters")
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return value


Plain = Annotated[Any, AfterValidator(check_plain)]
"""Any JSON value within the bounds above."""


class BodyLimit:
    """Refuse a request body past its limit (32 MiB for an import, 1 MiB otherwise) with 413,
    whether its length is declared or streamed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_IMPORT_BYTES if scope["path"] == "/matches/import" else MAX_BODY_BYTES
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > limit:
            await _too_large(send, limit)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(send, limit)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = (b'{"code":"payload_too_large","reason":"payload_too_large","message":'
            b'"The request body is larger than ' + str(limit).encode() +
            b' bytes.","details":{}}')
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
