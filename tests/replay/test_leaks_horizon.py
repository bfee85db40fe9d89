"""The leak scanner's horizon: a delayed or refused spectator learns nothing past what it may
see, from any channel, counts and sizes included.

Over a real ``kiroku serve``, every channel a spectator (no credential) and a commentator (who
reads as a spectator, the delay included) can read of one match: every GET route of the
OpenAPI document that names the match, the audit held against receipts, the match list, the
live stream's first event. The answers are taken, then things happen past the reader's horizon
(an action and its undo, a judge's pause and its ruling, a seat's and a judge's public
annotations at the live position, a dispute), and the answers are taken again: every one must
be the same bytes. The organiser's own answers do change, so the events did happen. And the
live stream speaks only when the reader's horizon moves: after all that, its next event is the
one an action within the delay brings.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import httpx
import msgpack
import pytest

from engine.registry import get_game
from ledger.identity import Identity, Role
from replay.service import Kiroku
from tests.replay.conftest import Server, served_store


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kiroku, Server]]:
    """A store the tests record in, and a real server reading it."""
    yield from served_store(tmp_path_factory, "horizon")


def _match(kiroku: Kiroku, actions: int, **options: Any) -> tuple[UUID, dict[int, str]]:
    """A World Gainer match with ``actions`` random legal actions, and its seats' tokens."""
    ruleset = get_game("worldgainer")
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"],
                                ["solar_vanguard", "pleiades_bloom"], replay_policy="closed",
                                options={"first_player": 1, **options})
    rng = random.Random(4)
    for _ in range(actions):
        state = kiroku.recorder.get_match(match_id).state
        seat = ruleset.to_act(state)[0]
        action = rng.choice(ruleset.legal_actions(state, seat))
        kiroku.record(match_id, action.model_dump(mode="json"), recorded_by="P")
    seats = kiroku.seat_credentials(match_id, Identity.operator())
    return match_id, {s["seat"]: s["token"] for s in seats}


def _routes(server: Server) -> list[str]:
    spec = httpx.get(f"{server.base}/openapi.json").json()
    return [path for path, operations in spec["paths"].items()
            if "get" in operations and "{match_id}" in path]


def _first_event(client: httpx.Client, url: str) -> str:
    with client.stream("GET", url) as r:
        if r.status_code != 200:
            r.read()
            return f"{r.status_code} {r.text}"
        for line in r.iter_lines():
            if line.startswith("data:"):
                return line
    return ""


_SIGNED = re.compile(r'"(signed_at|signature)": "[^"]*"')


def _timeless(response: httpx.Response) -> str:
    """An answer's bytes as text (msgpack as JSON), but for the time a receipt in it was
    signed and so its signature: what every request is told anew."""
    if response.headers.get("content-type", "").startswith("application/msgpack"):
        text = json.dumps(msgpack.unpackb(response.content, raw=False), default=str)
    else:
        text = response.text
    return _SIGNED.sub(r'"\1": "…"', text)


def _everything(server: Server, token: str | None, match_id: UUID) -> dict[str, str]:
    """Every channel of the match as the holder of ``token`` reads it (status and bytes)."""
    out: dict[str, str] = {}
    with server.client(token) as client:
        for path in _routes(server):
            url = path.replace("{match_id}", str(match_id))
            for accept in ("application/json", "application/msgpack"):
                r = client.get(url, headers={"accept": accept})
                out[f"{path} {accept}"] = f"{r.status_code} {_timeless(r)}"
        r = client.post(f"/matches/{match_id}/audit", json=[])
        out["POST audit"] = f"{r.status_code} {r.content!r}"
        r = client.get("/matches", params={"order": "newest"})
        out["/matches"] = f"{r.status_code} {r.headers.get('x-total-count')} {r.content!r}"
        out["live"] = _first_event(client, f"/matches/{match_id}/live")
    return out


def _past_the_horizon(kiroku: Kiroku, server: Server, match_id: UUID,
                      tokens: dict[int, str]) -> None:
    """An action and its undo, a paused dispute and its ruling, and public annotations at
    the live position: all past a delayed spectator's horizon."""
    with server.client(server.organiser_token) as judge, \
            server.client(tokens[1]) as seat1, server.client(tokens[2]) as seat2:
        to_act = judge.get(f"/matches/{match_id}").json()["to_act"][0]
        seat = seat1 if to_act == 1 else seat2
        legal = seat.get(f"/matches/{match_id}/legal").json()
        assert seat.post(f"/matches/{match_id}/actions",
                         json={"action": legal[-1]}).status_code == 201
        assert judge.post(f"/matches/{match_id}/undo",
                          json={"count": 1, "reason": "misclick"}).status_code == 201
        opened = judge.post(f"/matches/{match_id}/disputes",
                            json={"claim": "a card was misplayed", "pause": True})
        assert opened.status_code == 201, opened.text
        dispute = opened.json()["dispute_id"]
        assert judge.post(f"/disputes/{dispute}/take", json={}).status_code == 200
        ruled = judge.post(f"/disputes/{dispute}/rule", json={
            "decision": "play on", "reasoning": "no error", "remedy": {"kind": "none"}})
        assert ruled.status_code == 200, ruled.text
        for client in (seat1, judge):
            made = client.post(f"/matches/{match_id}/annotations",
                               json={"text": "the live position", "visibility": "public"})
            assert made.status_code == 201, made.text
        assert seat2.post(f"/matches/{match_id}/disputes",
                          json={"claim": "slow play"}).status_code == 201


def _commentator(kiroku: Kiroku) -> str:
    return kiroku.credentials.issue(Role.COMMENTATOR, "Caster",
                                    issued_by=str(Identity.operator().credential_id))[1]


@pytest.mark.parametrize("options", [{"spectators": "delayed", "spectator_delay": 3},
                                     {"spectators": "refused"}], ids=["delayed", "refused"])
def test_a_held_back_spectator_learns_nothing_past_its_horizon_from_any_channel(
        store: tuple[Kiroku, Server], options: dict[str, Any]) -> None:
    kiroku, server = store
    match_id, tokens = _match(kiroku, 8, **options)
    caster = _commentator(kiroku)
    readers = {"spectator": None, "commentator": caster}
    before = {name: _everything(server, token, match_id) for name, token in readers.items()}
    with server.client(server.organiser_token) as judge:
        version = judge.get(f"/matches/{match_id}").json()["version"]
    _past_the_horizon(kiroku, server, match_id, tokens)
    if options["spectators"] == "refused":  # for refused spectators, the actions too
        _match_moves_on(server, match_id, tokens, 3)
    with server.client(server.organiser_token) as judge:
        assert judge.get(f"/matches/{match_id}").json()["version"] >= version + 4
    for name, token in readers.items():
        after = _everything(server, token, match_id)
        changed = [channel for channel in before[name] if before[name][channel] != after[channel]]
        assert not changed, (name, changed, [(before[name][c][:300], after[c][:300])
                                             for c in changed[:2]])
    assert len(before["spectator"]) > 20


def _match_moves_on(server: Server, match_id: UUID, tokens: dict[int, str], count: int) -> None:
    with server.client(tokens[1]) as seat1, server.client(tokens[2]) as seat2:
        for _ in range(count):
            to_act = seat1.get(f"/matches/{match_id}").json()["to_act"][0]
            seat = seat1 if to_act == 1 else seat2
            legal = seat.get(f"/matches/{match_id}/legal").json()
            assert seat.post(f"/matches/{match_id}/actions",
                             json={"action": legal[-1]}).status_code == 201


def test_the_live_stream_speaks_only_when_the_spectators_horizon_moves(
        store: tuple[Kiroku, Server]) -> None:
    kiroku, server = store
    match_id, tokens = _match(kiroku, 6, spectators="delayed", spectator_delay=3)
    with server.client() as anonymous:
        with anonymous.stream("GET", f"/matches/{match_id}/live") as stream:
            events = (line for line in stream.iter_lines() if line.startswith("data:"))
            first = json.loads(next(events)[5:])
            assert first["positions"] == 3
            _past_the_horizon(kiroku, server, match_id, tokens)
            _match_moves_on(server, match_id, tokens, 1)
            moved = json.loads(next(events)[5:])
    assert moved["positions"] == first["positions"] + 1
    assert moved["version"] == kiroku.recorder.get_match(match_id).position_version(4)
