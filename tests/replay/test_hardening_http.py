"""Every answer carries the hardening headers (replay.api.hardening), against a real server: a
representative of each kind of answer, JSON, pages, static files, the API's document and its
viewer, errors of the routes, of the body limit and of unknown paths, a text route's error and
a live stream's head. An unexpected exception's 500, which no request to a sound server
provokes, is asked of the application in-process, with a route added that fails."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.types import Message

from replay.api import create_app
from replay.api.hardening import HARDENING
from replay.service import Kiroku

UNKNOWN = "00000000-0000-0000-0000-000000000000"
# (method, path, request keywords, the status expected)
ANSWERS: dict[str, tuple[str, str, dict[str, Any], int]] = {
    "JSON": ("GET", "/games", {}, 200),
    "a page": ("GET", "/", {}, 200),
    "a seat's page": ("GET", "/play/abcd", {}, 200),
    "a static file": ("GET", "/static/app.css", {}, 200),
    "a vendored file": ("GET", "/static/vendor/swagger-ui.css", {}, 200),
    "the OpenAPI document": ("GET", "/openapi.json", {}, 200),
    "its viewer": ("GET", "/docs", {}, 200),
    "an unknown path": ("GET", "/no/such/page", {}, 404),
    "an unknown static file": ("GET", "/static/nothing.js", {}, 404),
    "an unknown match": ("GET", f"/matches/{UNKNOWN}", {}, 404),
    "a text route's error": ("GET", f"/matches/{UNKNOWN}/study", {}, 404),
    "a method not allowed": ("DELETE", "/games", {}, 405),
    "a malformed request": ("GET", "/matches", {"params": {"limit": 0}}, 422),
    "an unreadable body": ("POST", "/matches", {"content": b"\xff\xfe\xfd",
                                                "headers": {"content-type":
                                                            "application/json"}}, 400),
    "a body past the limit": ("POST", "/matches", {"json": {"x": "x" * 2_000_000}}, 413),
    "an unknown credential": ("GET", "/me", {"headers": {"authorization": "Bearer nope"}}, 401),
}


def _hardened(response: httpx.Response) -> None:
    for name, value in HARDENING:
        assert response.headers.get_list(name.decode()) == [value.decode()], (
            name, response.status_code, response.headers)


@pytest.mark.parametrize("kind", list(ANSWERS))
def test_every_kind_of_answer_carries_the_hardening_headers(anonymous: httpx.Client,
                                                             kind: str) -> None:
    method, path, keywords, status = ANSWERS[kind]
    response = anonymous.request(method, path, **keywords)
    assert response.status_code == status, response.text
    _hardened(response)


def test_a_live_stream_carries_them_in_its_head(client: httpx.Client,
                                                anonymous: httpx.Client) -> None:
    made = client.post("/matches", json={"players": ["Aiko", "Ben"],
                                         "decks": ["solar_vanguard", "pleiades_bloom"]})
    assert made.status_code == 201, made.text
    with anonymous.stream("GET", f"/matches/{made.json()['match_id']}/live") as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        _hardened(stream)


def test_an_unexpected_exception_s_500_carries_them(tmp_path: Path) -> None:
    kiroku = Kiroku.open(f"sqlite:///{tmp_path / 'k.db'}")
    app = create_app(kiroku)

    def fails() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/fails", fails)
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": "/fails", "raw_path": b"/fails",
             "root_path": "", "query_string": b"", "headers": [], "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 80)}
    try:
        with pytest.raises(RuntimeError, match="a bug"):  # answered, then raised to the server
            asyncio.run(app(scope, receive, send))
    finally:
        kiroku.close()
    head = sent[0]
    assert head["type"] == "http.response.start" and head["status"] == 500
    for header in HARDENING:
        assert header in head["headers"]
