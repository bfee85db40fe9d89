"""The bad inputs issue 9 lists, each over a real server: a 4xx with the documented error body,
never a 500, and nothing stored."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.replay.conftest import Server

DECKS = ["solar_vanguard", "pleiades_bloom"]
BODY = {"code", "reason", "message", "details"}


@pytest.fixture(scope="module")
def live(client: httpx.Client) -> str:
    resp = client.post("/matches", json={"players": ["Aiko", "Ben"], "decks": DECKS,
                                         "options": {"first_player": 1}})
    assert resp.status_code == 201, resp.text
    return str(resp.json()["match_id"])


@pytest.fixture(scope="module")
def raw(server: Server) -> Iterator[httpx.Client]:
    with server.client(server.organiser_token) as c:
        yield c


def refused(resp: httpx.Response, status: int, reason: str | None = None) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == BODY and body["message"], body
    if reason is not None:
        assert body["reason"] == reason, body
    return body  # type: ignore[no-any-return]


def counts(client: httpx.Client, match_id: str) -> tuple[int, int, int]:
    return (len(client.get("/matches").json()), len(client.get("/credentials").json()),
            client.get(f"/matches/{match_id}").json()["version"])


def match_body(**changes: Any) -> dict[str, Any]:
    return {"players": ["Aiko", "Ben"], "decks": DECKS, **changes}


CREATE_CASES = {
    "empty player name": (match_body(players=["", "Ben"]), 422, "bad_player_name"),
    "65-character name": (match_body(players=["A" * 65, "Ben"]), 422, "malformed_request"),
    "NUL in a name": (match_body(players=["Ai\x00ko", "Ben"]), 422, "bad_player_name"),
    "huge option": (match_body(options={"turn_limit": 10**30}), 422, "malformed_request"),
    "option past its range": (match_body(options={"turn_limit": 10**9}), 422, "bad_option"),
    "huge deck count": (match_body(decks=[{"WGS-001": 10**30}, DECKS[1]]), 422,
                        "malformed_request"),
    "3,000,000 copies without a deck check": (
        match_body(decks=[{"WGS-001": 3_000_000}, DECKS[1]], options={"deck_check": "off"}),
        422, "malformed_request"),
    "500 copies without a deck check": (
        match_body(decks=[{"WGS-001": 499, "WGS-002": 2}, DECKS[1]],
                   options={"deck_check": "off"}), 422, "deck_too_large"),
    "empty deck name": (match_body(decks=["", DECKS[1]]), 422, "unknown_deck"),
    "a server file as a deck": (match_body(decks=["/etc/passwd", DECKS[1]]), 422,
                                "unknown_deck"),
    "a directory as a deck": (match_body(decks=["/etc", DECKS[1]]), 422, "unknown_deck"),
    "a device as a deck": (match_body(decks=["/dev/zero", DECKS[1]]), 422, "unknown_deck"),
    "a huge value in a card": (match_body(cards={"x": {"cost": 2**70}}), 422,
                               "malformed_request"),
    "a body that names its recorder": (match_body(recorded_by="x" * 2_000_000), 413,
                                       "payload_too_large"),
}


@pytest.mark.parametrize("case", list(CREATE_CASES))
def test_a_bad_match_is_refused_and_nothing_is_stored(client: httpx.Client, live: str,
                                                      case: str) -> None:
    body, status, reason = CREATE_CASES[case]
    before = counts(client, live)
    resp = refused(client.post("/matches", json=body), status, reason)
    assert counts(client, live) == before, resp


def test_file_paths_cannot_be_told_from_missing_ones(client: httpx.Client) -> None:
    """Over HTTP a deck is a sample name or a list: an existing path and a missing one get
    the same answer, so nobody can probe the server's files."""
    answers = {client.post("/matches", json=match_body(decks=[path, DECKS[1]])).json()[
        "message"].replace(repr(path[:64]), "PATH") for path in ("/etc/passwd", "/no/such")}
    assert len(answers) == 1


@pytest.mark.parametrize("viewer", ["seat:²", "seat:١", "seat:0", "seat:99999",
                                    "x" * 100, "seat:-1"])
def test_a_bad_viewer_is_a_4xx(anonymous: httpx.Client, live: str, viewer: str) -> None:
    resp = anonymous.get(f"/matches/{live}/state", params={"viewer": viewer})
    assert 400 <= resp.status_code < 500, resp.text
    assert set(resp.json()) == BODY


@pytest.mark.parametrize("reason", ["", "   ", "\u200b\u200b\u200b", "oops\x00", "x" * 501])
def test_an_undo_needs_a_visible_reason(client: httpx.Client, live: str, reason: str) -> None:
    before = counts(client, live)
    resp = client.post(f"/matches/{live}/undo", json={"reason": reason})
    assert resp.status_code == 422, resp.text
    assert set(resp.json()) == BODY
    assert counts(client, live) == before


@pytest.mark.parametrize("reason", ["ok", "   \t ", "bad\x07reason"])
def test_an_adjustment_needs_a_visible_reason(client: httpx.Client, live: str,
                                              reason: str) -> None:
    before = counts(client, live)
    resp = client.post(f"/matches/{live}/actions", json={"action": {
        "type": "adjust", "seat": 1, "reason": reason, "counter": {"name": "vp", "value": 1}}})
    refused(resp, 422)
    assert counts(client, live) == before


@pytest.mark.parametrize("name", ["", "x" * 65, "Hana\x00", "\u200b"])
def test_a_credential_needs_a_printable_name(client: httpx.Client, live: str,
                                             name: str) -> None:
    before = counts(client, live)
    resp = client.post("/credentials", json={"role": "judge", "name": name})
    assert resp.status_code == 422, resp.text
    assert set(resp.json()) == BODY
    assert counts(client, live) == before


@pytest.mark.parametrize(("method", "path", "content", "status"), [
    ("GET", "/no/such/route", None, 404),
    ("DELETE", "/games", None, 405),
    ("POST", "/matches", b"\xff\xfe\xfd", 400),
    ("POST", "/matches", b"[" * 100_000 + b"]" * 100_000, 400),
    ("POST", "/matches", b"{", 422),
    ("POST", "/matches/import", b"\x00" * (33 * 1024 * 1024), 413),
])
def test_every_error_uses_the_documented_body(raw: httpx.Client, live: str, method: str,
                                              path: str, content: bytes | None,
                                              status: int) -> None:
    before = counts(raw, live)
    headers = {"content-type": "application/json"} if content is not None else {}
    resp = raw.request(method, path, content=content, headers=headers)
    refused(resp, status)
    assert counts(raw, live) == before


def test_a_store_kept_locked_past_its_timeout_is_a_503_and_nothing_is_stored(
        server: Server, client: httpx.Client, live: str) -> None:
    """Another program (here a plain sqlite3 connection, as the sqlite3 shell would) holds
    the file's write lock past SQLite's 10 s busy timeout: the action is answered with the
    documented body, ``store_unavailable``, never a 500, and is not stored."""
    before = counts(client, live)
    holder = sqlite3.connect(server.db_url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        resp = client.post(f"/matches/{live}/actions",
                           json={"action": {"type": "end_turn", "seat": 1}})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    body = refused(resp, 503, "store_unavailable")
    assert body["code"] == "store_unavailable" and resp.headers["retry-after"] == "1"
    assert counts(client, live) == before
