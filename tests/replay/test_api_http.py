"""The HTTP service against a real uvicorn server in a subprocess (no in-process TestClient).

One session-scoped server on a temporary SQLite file serves most tests, called as its organiser
(who may do everything; tests/replay/test_roles_http.py checks every other role); the import test
starts a second server on another file, so a match can really travel from one store to another.
"""

from __future__ import annotations

import hashlib
import re
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgpack
import pytest

from tests.replay.conftest import Server, serve

ROOT = Path(__file__).resolve().parents[2]
HEX64 = re.compile(r"^[0-9a-f]{64}$")
DECKS = ["solar_vanguard", "pleiades_bloom"]
MSGPACK = "application/msgpack"

# ----- server fixtures (the server itself: tests/replay/conftest.py) -----------------------------
@pytest.fixture
def second_client(tmp_path: Path) -> Iterator[httpx.Client]:
    """A second server on its own database, as its organiser."""
    for other in serve(tmp_path / "second.db"):
        with other.client(other.organiser_token) as c:
            yield c


# ----- helpers -----------------------------------------------------------------------------------
def new_match(client: httpx.Client, **overrides: Any) -> dict[str, Any]:
    body = {"players": ["Aiko", "Ben"], "decks": DECKS, "options": {"first_player": 1}}
    body.update(overrides)
    resp = client.post("/matches", json=body)
    assert resp.status_code == 201, resp.text
    return resp.json()  # type: ignore[no-any-return]


def summary(client: httpx.Client, match_id: str) -> dict[str, Any]:
    resp = client.get(f"/matches/{match_id}")
    assert resp.status_code == 200, resp.text
    return resp.json()  # type: ignore[no-any-return]


def legal(client: httpx.Client, match_id: str, seat: int) -> list[dict[str, Any]]:
    resp = client.get(f"/matches/{match_id}/legal", params={"seat": seat})
    assert resp.status_code == 200, resp.text
    return resp.json()  # type: ignore[no-any-return]


def first_of(actions: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(a for a in actions if a["type"] == kind)


def choose(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The first gain if any, else the first stun, else end the turn."""
    for kind in ("gain", "stun", "end_turn"):
        for action in actions:
            if action["type"] == kind:
                return action
    raise AssertionError(f"no gain, stun or end_turn among {actions}")


def post_action(client: httpx.Client, match_id: str, action: dict[str, Any],
                **extra: Any) -> httpx.Response:
    return client.post(f"/matches/{match_id}/actions",
                       json={"action": action, **extra})


def events(client: httpx.Client, match_id: str, viewer: str = "judge") -> list[dict[str, Any]]:
    resp = client.get(f"/matches/{match_id}/events", params={"viewer": viewer})
    assert resp.status_code == 200, resp.text
    return resp.json()  # type: ignore[no-any-return]


def transcript(client: httpx.Client, match_id: str, viewer: str = "judge") -> list[str]:
    resp = client.get(f"/matches/{match_id}/transcript", params={"viewer": viewer})
    assert resp.status_code == 200, resp.text
    return resp.json()["lines"]  # type: ignore[no-any-return]


def assert_error(resp: httpx.Response, status: int, code: str,
                 reason: str | None = None) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) >= {"code", "reason", "message", "details"}, body
    assert body["code"] == code, body
    if reason is not None:
        assert body["reason"] == reason, body
    assert body["message"]
    return body  # type: ignore[no-any-return]


def play_to_end(client: httpx.Client, match_id: str, max_steps: int = 400) -> int:
    """Record actions through HTTP until the match ends; returns how many were recorded."""
    for step in range(max_steps):
        info = summary(client, match_id)
        if info["result"] is not None:
            return step
        resp = post_action(client, match_id, choose(legal(client, match_id, info["active"])))
        assert resp.status_code == 201, resp.text
    raise AssertionError(f"the match did not end within {max_steps} actions")


@pytest.fixture(scope="module")
def finished(client: httpx.Client) -> dict[str, Any]:
    """A match played to its end through HTTP."""
    match_id = new_match(client)["match_id"]
    steps = play_to_end(client, match_id)
    return {"match_id": match_id, "steps": steps}


# ----- games and documentation -------------------------------------------------------------------
def test_games_lists_worldgainer(client: httpx.Client) -> None:
    resp = client.get("/games")
    assert resp.status_code == 200
    games = {g["id"]: g for g in resp.json()}
    assert "worldgainer" in games
    assert games["worldgainer"]["players"] == [2, 2]
    assert {"stun", "gain", "end_turn", "concede"} <= set(games["worldgainer"]["actions"])


def test_action_schema_lists_the_action_types(client: httpx.Client) -> None:
    resp = client.get("/games/worldgainer/actions")
    assert resp.status_code == 200
    schema = resp.json()
    assert "$defs" in schema and ("oneOf" in schema or "anyOf" in schema)
    consts = {p["type"].get("const") for d in schema["$defs"].values()
              for p in [d.get("properties", {})] if "type" in p}
    assert {"stun", "gain", "end_turn", "concede", "adjust"} <= consts
    assert client.get("/games/nope/actions").status_code == 404


def test_openapi_and_docs_answer(client: httpx.Client) -> None:
    spec = client.get("/openapi.json")
    assert spec.status_code == 200
    doc = spec.json()
    assert "ErrorBody" in doc["components"]["schemas"]
    assert "/matches/{match_id}/actions" in doc["paths"]
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "text/html" in docs.headers["content-type"]


# ----- creating matches --------------------------------------------------------------------------
def test_create_match(client: httpx.Client) -> None:
    resp = client.post("/matches", json={"players": ["Aiko", "Ben"], "decks": DECKS,
                                         "options": {"first_player": 1}})
    assert resp.status_code == 201, resp.text
    s = resp.json()
    uuid.UUID(s["match_id"])
    assert s["game"] == "worldgainer"
    assert s["players"] == ["Aiko", "Ben"]
    assert s["positions"] == 0
    assert s["version"] == 1
    assert HEX64.match(s["commitment"])
    assert s["seed"] is None
    assert s["result"] is None
    assert s["active"] == 1
    assert s["match_id"] in {m["match_id"] for m in client.get("/matches").json()}


def test_create_match_with_a_bad_deck_is_refused_and_stores_nothing(client: httpx.Client) -> None:
    before = client.get("/matches").json()
    resp = client.post("/matches", json={"players": ["Aiko", "Ben"],
                                         "decks": [{"WGS-001": 3}, "pleiades_bloom"]})
    body = assert_error(resp, 422, "setup_error", "deck_too_small")
    assert body["details"].get("seat") == 1
    assert client.get("/matches").json() == before


def test_create_match_for_an_unknown_game_is_404(client: httpx.Client) -> None:
    resp = client.post("/matches", json={"game": "nope", "players": ["A", "B"], "decks": DECKS})
    assert_error(resp, 404, "game_not_found", "game_not_found")


def test_a_games_sample_decks_are_decklists(client: httpx.Client) -> None:
    decks = {d["name"]: d["cards"] for d in client.get("/games/worldgainer/decks").json()}
    assert {"solar_vanguard", "pleiades_bloom"} <= set(decks)
    assert sum(decks["solar_vanguard"].values()) > 0
    assert_error(client.get("/games/nope/decks"), 404, "game_not_found", "game_not_found")


def test_create_match_without_players_is_malformed(client: httpx.Client) -> None:
    body = assert_error(client.post("/matches", json={"decks": DECKS}), 422, "malformed_request")
    assert "players" in body["message"]


# ----- recording actions -------------------------------------------------------------------------
def test_record_a_legal_action(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    stun = first_of(legal(client, match_id, 1), "stun")
    resp = post_action(client, match_id, stun)
    assert resp.status_code == 201, resp.text
    done = resp.json()
    assert done["match_id"] == match_id
    assert done["version"] == 2
    assert done["seq"] == 1
    assert isinstance(done["digest"], str) and done["digest"]
    assert done["result"] is None
    s = summary(client, match_id)
    assert (s["version"], s["positions"]) == (2, 1)


def test_wrong_seat_is_refused_and_stores_nothing(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    judge = client.get(f"/matches/{match_id}/state", params={"viewer": "judge"}).json()
    card = judge["state"]["seats"][1]["hand"][0]["id"]
    assert legal(client, match_id, 2) == []
    resp = post_action(client, match_id, {"type": "stun", "seat": 2, "card": card})
    assert_error(resp, 422, "illegal_action", "not_your_turn")
    assert summary(client, match_id)["version"] == 1
    assert [e["event"] for e in events(client, match_id)] == ["MatchCreated"]


def test_malformed_action_type(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    resp = post_action(client, match_id, {"type": "fly", "seat": 1})
    assert_error(resp, 422, "malformed_action", "malformed_action")
    assert summary(client, match_id)["version"] == 1


def test_action_on_an_unknown_match_is_404(client: httpx.Client) -> None:
    resp = post_action(client, str(uuid.uuid4()), {"type": "end_turn", "seat": 1})
    assert_error(resp, 404, "match_not_found", "match_not_found")
    assert_error(client.get(f"/matches/{uuid.uuid4()}"), 404, "match_not_found")
    # not the start of an id at all: no such match, not a crash
    assert_error(client.get("/matches/not-a-uuid"), 404, "match_not_found")


def test_stale_expected_version_is_409(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    stun = first_of(legal(client, match_id, 1), "stun")
    assert post_action(client, match_id, stun, expected_version=1).status_code == 201
    end = {"type": "end_turn", "seat": 1}
    body = assert_error(post_action(client, match_id, end, expected_version=1), 409,
                        "concurrent_append", "concurrent_append")
    assert body["details"].get("version") == 2
    assert summary(client, match_id)["version"] == 2
    assert post_action(client, match_id, end, expected_version=2).status_code == 201


def test_racing_clients_append_exactly_once(server: Server, client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    stun = first_of(legal(client, match_id, 1), "stun")
    n = 8
    barrier = threading.Barrier(n)
    statuses: list[int] = []
    lock = threading.Lock()
    # eight judges (one caller's copies of one request are a resend: see test_console_http)
    tokens = iter([client.post("/credentials", json={"role": "judge", "name": f"J{i}"}).json()[
        "token"] for i in range(n)])

    def race() -> None:
        with lock:
            token = next(tokens)
        with server.client(token) as own:
            barrier.wait()
            resp = post_action(own, match_id, stun, expected_version=1)
        with lock:
            statuses.append(resp.status_code)
            if resp.status_code != 201:
                assert resp.json()["code"] == "concurrent_append", resp.text

    threads = [threading.Thread(target=race) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(statuses) == [201] + [409] * (n - 1)
    recorded = [e for e in events(client, match_id) if e["event"] == "ActionRecorded"]
    assert len(recorded) == 1
    assert recorded[0]["action"]["card"] == stun["card"]
    assert summary(client, match_id)["version"] == 2


# ----- undo --------------------------------------------------------------------------------------
def test_undo_appends_and_voids(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    stun = first_of(legal(client, match_id, 1), "stun")
    assert post_action(client, match_id, stun).status_code == 201
    assert summary(client, match_id)["positions"] == 1

    resp = client.post(f"/matches/{match_id}/undo",
                       json={"reason": "wrong card"})
    assert resp.status_code == 201, resp.text
    assert resp.json()["version"] == 3

    state = client.get(f"/matches/{match_id}/state", params={"viewer": "judge"}).json()
    assert state["positions"] == 0 and state["position"] == 0
    assert stun["card"] in [c["id"] for c in state["state"]["seats"][0]["hand"]]
    assert summary(client, match_id)["positions"] == 0

    kinds = [e["event"] for e in events(client, match_id)]
    assert kinds == ["MatchCreated", "ActionRecorded", "ActionsUndone"]
    undone = events(client, match_id)[-1]
    assert undone["seqs"] == [1] and undone["reason"] == "wrong card"

    lines = transcript(client, match_id)
    assert any("#1" in line and line.endswith("[undone]") for line in lines), lines
    assert "undo of 1 action(s) (#1): wrong card" in lines[-1]
    # the legal action is legal again
    assert stun in legal(client, match_id, 1)


def test_undo_needs_a_reason(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    assert post_action(client, match_id, first_of(legal(client, match_id, 1), "stun")
                       ).status_code == 201
    url = f"/matches/{match_id}/undo"
    assert_error(client.post(url, json={}), 422, "malformed_request")
    assert_error(client.post(url, json={"reason": "   "}), 422,
                 "illegal_action", "reason_required")
    assert summary(client, match_id)["version"] == 2


# ----- views -------------------------------------------------------------------------------------
def test_state_as_each_viewer(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    url = f"/matches/{match_id}/state"

    def seats(viewer: str) -> list[dict[str, Any]]:
        resp = client.get(url, params={"at": 0, "viewer": viewer})
        assert resp.status_code == 200, resp.text
        body = resp.json()
        assert body["position"] == 0 and body["viewer"] == viewer
        return body["state"]["seats"]  # type: ignore[no-any-return]

    one = seats("seat:1")
    assert isinstance(one[0]["hand"], list) and len(one[0]["hand"]) == 7
    assert one[1]["hand"] is None and one[1]["hand_count"] == 7
    assert one[0]["deck"] is None and one[1]["deck"] is None

    spectator = seats("spectator")
    assert spectator[0]["hand"] is None and spectator[1]["hand"] is None
    assert [s["hand_count"] for s in spectator] == [7, 7]

    judge = seats("judge")
    assert len(judge[0]["hand"]) == 7 and len(judge[1]["hand"]) == 7
    assert judge[0]["hand"] == one[0]["hand"]

    assert_error(client.get(url, params={"at": 1}), 422, "bad_position", "bad_position")
    assert_error(client.get(url, params={"at": -1}), 422, "malformed_request")
    assert_error(client.get(url, params={"viewer": "bogus"}), 422, "bad_request", "bad_viewer")


def test_state_as_msgpack(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    url = f"/matches/{match_id}/state"
    packed = client.get(url, params={"viewer": "seat:1"}, headers={"accept": MSGPACK})
    assert packed.status_code == 200
    assert packed.headers["content-type"].startswith(MSGPACK)
    as_json = client.get(url, params={"viewer": "seat:1"}).json()
    data = msgpack.unpackb(packed.content, raw=False, strict_map_key=False)
    assert _str_keys(data) == as_json
    # errors come as msgpack too
    err = client.get(url, params={"at": 99}, headers={"accept": MSGPACK})
    assert err.status_code == 422 and err.headers["content-type"].startswith(MSGPACK)
    assert msgpack.unpackb(err.content)["code"] == "bad_position"


def test_state_as_msgpack_decodes_with_default_unpackb(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    url = f"/matches/{match_id}/state"
    packed = client.get(url, headers={"accept": MSGPACK})
    assert msgpack.unpackb(packed.content) == client.get(url).json()


def _str_keys(value: Any) -> Any:
    """What JSON makes of a decoded msgpack value (map keys become strings)."""
    if isinstance(value, dict):
        return {str(k): _str_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_str_keys(v) for v in value]
    return value


def test_events_are_redacted_per_viewer(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    # seat 1 places a stun and ends the turn: seat 2 draws a card
    assert post_action(client, match_id, first_of(legal(client, match_id, 1), "stun")
                       ).status_code == 201
    assert post_action(client, match_id, {"type": "end_turn", "seat": 1}).status_code == 201

    def draws(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = list(evs[0]["setup_outcomes"])
        for e in evs[1:]:
            out += e.get("outcomes", [])
        return [o for o in out if o["kind"] == "draw"]

    judge = draws(events(client, match_id, "judge"))
    assert len([o for o in judge if o["seat"] == 1]) == 7
    assert len([o for o in judge if o["seat"] == 2]) == 8
    assert all(o["value"] is not None and "redacted" not in o for o in judge)

    seat2_events = events(client, match_id, "seat:2")
    seat2 = draws(seat2_events)
    assert [o["seat"] for o in seat2] == [o["seat"] for o in judge]
    for o in seat2:
        if o["seat"] == 1:
            assert o["value"] is None and o["redacted"] is True
        else:
            assert o["value"] is not None and "redacted" not in o
    assert seat2_events[0]["config"]["decks"][0] is None
    assert seat2_events[0]["config"]["decks"][1] is not None
    assert seat2_events[0]["redacted_for"] == "seat:2"

    spectator = draws(events(client, match_id, "spectator"))
    assert all(o["value"] is None and o["redacted"] is True for o in spectator)


# ----- a whole match -----------------------------------------------------------------------------
def test_play_a_match_to_its_end(client: httpx.Client, finished: dict[str, Any]) -> None:
    match_id = finished["match_id"]
    s = summary(client, match_id)
    assert s["result"] is not None
    assert s["result"]["reason"] in ("points", "battlefield", "deck_out")
    assert len(s["result"]["winners"]) == 1
    assert s["positions"] == finished["steps"]
    assert s["seed"] is not None
    assert hashlib.sha256(bytes.fromhex(s["seed"])).hexdigest() == s["commitment"]

    audit = client.get(f"/matches/{match_id}/audit")
    assert audit.status_code == 200
    report = audit.json()
    assert report["ok"] is True, report
    assert report["failure"] is None
    assert report["actions"] == finished["steps"]

    kinds = [e["event"] for e in events(client, match_id)]
    assert kinds[-2:] == ["MatchEnded", "SeedRevealed"]
    assert legal(client, match_id, 1) == [] and legal(client, match_id, 2) == []

    resp = post_action(client, match_id, {"type": "end_turn", "seat": s["active"]})
    assert_error(resp, 422, "illegal_action", "match_over")
    resp = client.post(f"/matches/{match_id}/undo", json={"reason": "x"})
    assert_error(resp, 422, "illegal_action", "match_over")
    assert summary(client, match_id)["version"] == s["version"]


def test_open_replay_policy_shows_everything_after_the_end(client: httpx.Client,
                                                           finished: dict[str, Any]) -> None:
    match_id = finished["match_id"]
    assert events(client, match_id, "seat:2") == events(client, match_id, "judge")


def test_concede_ends_the_match(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    resp = post_action(client, match_id, {"type": "concede", "seat": 1})
    assert resp.status_code == 201, resp.text
    assert resp.json()["result"]["winners"] == [2]
    assert resp.json()["result"]["reason"] == "concession"
    assert client.get(f"/matches/{match_id}/audit").json()["ok"] is True


# ----- export and import -------------------------------------------------------------------------
def _export(client: httpx.Client, match_id: str, viewer: str = "judge") -> bytes:
    resp = client.get(f"/matches/{match_id}/export", params={"viewer": viewer})
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"].startswith(MSGPACK)
    return resp.content


def _import(client: httpx.Client, data: bytes) -> httpx.Response:
    return client.post("/matches/import", content=data,
                       headers={"content-type": "application/octet-stream"})


def test_importing_a_match_already_here_stores_nothing_and_says_so(
        client: httpx.Client, finished: dict[str, Any]) -> None:
    match_id = finished["match_id"]
    before = client.get("/matches").json()
    resp = _import(client, _export(client, match_id))
    assert resp.status_code == 200, resp.text
    assert resp.json()["stored"] is False and resp.json()["match_id"] == match_id
    assert client.get("/matches").json() == before


def test_tampered_export_is_rejected(client: httpx.Client, finished: dict[str, Any]) -> None:
    doc = msgpack.unpackb(_export(client, finished["match_id"]), raw=False)
    target = next(r for r in doc["records"] if r["event"] == "ActionRecorded")
    target["action"]["seat"] = 2 if target["action"]["seat"] == 1 else 1
    body = assert_error(_import(client, msgpack.packb(doc, use_bin_type=True)), 422,
                        "import_rejected")
    assert f"event {target['version']}" in body["message"], body
    assert body["details"]["failure"]["version"] == target["version"]
    assert body["details"]["failure"]["reason"] == "hash_mismatch"


def test_redacted_or_garbage_exports_are_rejected(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    body = assert_error(_import(client, _export(client, match_id, "spectator")), 422,
                        "import_rejected")
    assert "judge" in body["message"]
    assert_error(_import(client, b"\xc1 not a match"), 422, "import_rejected")
    assert_error(_import(client, msgpack.packb({"format": "other"})), 422, "import_rejected")


def test_import_into_another_store(client: httpx.Client, second_client: httpx.Client,
                                   finished: dict[str, Any]) -> None:
    match_id = finished["match_id"]
    resp = _import(second_client, _export(client, match_id))
    assert resp.status_code == 201, resp.text
    imported = resp.json()
    assert imported["match_id"] == match_id
    original = summary(client, match_id)
    for key in ("players", "version", "positions", "commitment", "seed", "result", "created_at"):
        assert imported[key] == original[key], key

    report = second_client.get(f"/matches/{match_id}/audit").json()
    assert report["ok"] is True, report
    assert transcript(second_client, match_id) == transcript(client, match_id)
    assert events(second_client, match_id) == events(client, match_id)
    assert [m["match_id"] for m in second_client.get("/matches").json()] == [match_id]
    # once stored there, importing it again stores nothing
    again = _import(second_client, _export(client, match_id))
    assert again.status_code == 200 and again.json()["stored"] is False


# ----- Illuminati: a 3-player game through the same API ------------------------------------------
ILLUMINATI_DECKS = ["paper_trail", "boardroom_shadows", "strange_frequencies"]


def test_illuminati_match_over_http(client: httpx.Client) -> None:
    """Setup, an attack window open to every seat, views as trees, the end by time, the audit."""
    resp = client.post("/matches", json={"game": "illuminati", "players": ["Ann", "Ben", "Cy"],
                                         "decks": ILLUMINATI_DECKS,
                                         "options": {"turn_limit": 4},
                                         "replay_policy": "closed"})
    assert resp.status_code == 201, resp.text
    match_id = resp.json()["match_id"]
    assert_error(post_action(client, match_id, {"type": "begin_main", "seat": 1}), 422,
                 "illegal_action", "setup_not_done")
    seen_windows = 0
    set_up_at = None
    for _ in range(3000):
        s = summary(client, match_id)
        if s["result"] is not None:
            break
        seat = s["to_act"][0]
        if set_up_at is None and client.get(f"/matches/{match_id}/state").json()[
                "state"]["phase"] == "beginning":
            set_up_at = s["positions"]  # the face-down choices are over: the first turn
        seen_windows += set_up_at is not None and len(s["to_act"]) > 1
        options = legal(client, match_id, seat)
        # prefer attacking and paying, so that support windows open; end turns otherwise
        pick = next((a for kind in ("pay_attack", "pass", "attack", "begin_main", "end_turn")
                     for a in options if a["type"] == kind), options[0])
        resp = post_action(client, match_id, pick)
        assert resp.status_code == 201, resp.text
    s = summary(client, match_id)
    assert s["result"] is not None and s["result"]["reason"] == "turn_limit"
    assert seen_windows > 0, "no attack ever opened a support window to several seats"
    assert set_up_at is not None
    state = client.get(f"/matches/{match_id}/state",
                       params={"at": set_up_at, "viewer": "seat:2"}).json()["state"]
    me, other = state["seats"][1], state["seats"][0]
    assert isinstance(me["plot_hand"], list) and other["plot_hand"] is None
    assert other["plot_deck"] is None
    tree = other["power_structure"]
    assert tree["kind"] == "illuminati" and set(tree["arrows"]) == {"top", "right", "bottom",
                                                                   "left"}
    assert any(child is not None for child in tree["arrows"].values())
    lines = transcript(client, match_id, "spectator")
    assert any("The attack resolves" in line for line in lines)
    report = client.get(f"/matches/{match_id}/audit").json()
    assert report["ok"] is True, report


def test_a_match_that_refuses_spectators_answers_403_to_them(client: httpx.Client) -> None:
    match_id = new_match(client, options={"first_player": 1, "spectators": "refused"})[
        "match_id"]
    for path in ("state", "events", "transcript"):
        resp = client.get(f"/matches/{match_id}/{path}", params={"viewer": "spectator"})
        assert_error(resp, 403, "forbidden", "spectating_refused")
    assert client.get(f"/matches/{match_id}/state", params={"viewer": "seat:1"}).status_code \
        == 200


def test_undo_back_to_a_position_is_idempotent(client: httpx.Client) -> None:
    match_id = new_match(client)["match_id"]
    for _ in range(3):
        seat = summary(client, match_id)["active"]
        assert post_action(client, match_id, choose(legal(client, match_id, seat))).status_code \
            == 201
    url = f"/matches/{match_id}/undo"
    first = client.post(url, json={"to_position": 1, "reason": "backup to after #1"})
    assert first.status_code == 201, first.text
    again = client.post(url, json={"to_position": 1, "reason": "backup to after #1"})
    assert again.status_code == 200 and again.json()["version"] == first.json()["version"]
    assert summary(client, match_id)["positions"] == 1
    assert_error(client.post(url, json={"to_position": 0, "count": 1, "reason": "x"}), 422,
                 "bad_request", "bad_undo")
