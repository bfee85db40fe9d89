"""Disputes over a real server (issue 13): a seat calls a judge, the judge pauses the match and
rules, the seat appeals and the organiser rules finally; every refusal with its status and
error body, and nothing stored by one."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from replay.api.shapes import DisputeOut, DisputeRead
from tests.replay.conftest import Server
from tests.replay.test_roles_http import _match, error


@dataclass
class Hearing:
    """One match, a client per role."""

    match_id: str
    organiser: httpx.Client
    judge: httpx.Client
    seat1: httpx.Client
    seat2: httpx.Client
    stranger: httpx.Client
    anonymous: httpx.Client

    def version(self) -> int:
        return int(self.organiser.get(f"/matches/{self.match_id}").json()["version"])


@pytest.fixture
def hearing(server: Server, client: httpx.Client) -> Iterator[Hearing]:
    judge = client.post("/credentials", json={"role": "judge", "name": "Judge Jun"}).json()
    made, other = _match(client), _match(client)
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    clients = {"judge": server.client(judge["token"]), "seat1": server.client(tokens[1]),
               "seat2": server.client(tokens[2]),
               "stranger": server.client(other["seats"][0]["token"]),
               "anonymous": server.client()}
    yield Hearing(made["match_id"], client, **clients)
    for c in clients.values():
        c.close()


def _act(c: httpx.Client, h: Hearing, seat: int) -> httpx.Response:
    return c.post(f"/matches/{h.match_id}/actions",
                  json={"action": {"type": "end_turn", "seat": seat}})


def _open(c: httpx.Client, h: Hearing, **body: Any) -> httpx.Response:
    return c.post(f"/matches/{h.match_id}/disputes",
                  json={"claim": "Ben ended my turn for me", **body})


def test_from_the_call_to_the_final_ruling(hearing: Hearing) -> None:
    h = hearing
    assert _act(h.seat1, h, 1).status_code == 201
    opened = _open(h.seat1, h, concerns=[2])
    assert opened.status_code == 201, opened.text
    url = f"/disputes/{opened.json()['dispute_id']}"
    DisputeOut.model_validate(opened.json())
    taken = h.judge.post(f"{url}/take", json={"pause": True})
    assert taken.status_code == 200 and taken.json()["pausing"], taken.text
    version = h.version()
    error(_act(h.seat2, h, 2), 409, "match_paused")
    assert h.version() == version
    evidence = DisputeRead.model_validate(h.seat1.get(url).json()).evidence.model_dump()
    DisputeRead.model_validate(h.judge.get(url).json())
    assert set(evidence["positions"]) == {"seat:1"}
    assert [e["version"] for e in evidence["events"]] == [2]
    ruled = h.judge.post(f"{url}/rule", json={
        "decision": "Back up to position 0", "reasoning": "Recorded for the wrong seat.",
        "remedy": {"kind": "backup", "to_position": 0}})
    assert ruled.status_code == 200, ruled.text
    assert h.organiser.get(f"/matches/{h.match_id}").json()["positions"] == 0
    assert _act(h.seat1, h, 1).status_code == 201  # no longer paused
    error(h.seat2.post(f"{url}/rule", json={"decision": "x", "reasoning": "y",
                                           "remedy": {"kind": "none"}}), 422,
          "dispute_refused")
    appealed = h.seat2.post(f"{url}/appeal", json={"reason": "I did not act."})
    assert appealed.status_code == 200 and appealed.json()["status"] == "appealed"
    error(h.judge.post(f"{url}/rule", json={"decision": "x", "reasoning": "y",
                                            "remedy": {"kind": "none"}}), 403, "forbidden",
          "organisers_only")
    final = h.organiser.post(f"{url}/rule", json={
        "decision": "Upheld", "reasoning": "The receipts show seat 2's credential.",
        "remedy": {"kind": "penalty", "penalty": "warning", "seat": 2}})
    assert final.status_code == 200 and final.json()["status"] == "final", final.text
    listed = h.seat2.get(f"/matches/{h.match_id}/disputes").json()
    for dispute in (*listed, ruled.json(), appealed.json(), final.json(), taken.json()):
        DisputeOut.model_validate(dispute)
    judges_audit = h.judge.get(f"/matches/{h.match_id}/audit").json()
    assert judges_audit["beside"] == {"ok": True, "variations": 0, "disputes": 1,
                                      "annotations": 0, "failures": []}
    assert "beside" not in h.seat1.get(f"/matches/{h.match_id}/audit").json()
    assert [d["status"] for d in listed] == ["final"]


def test_who_may_not(hearing: Hearing) -> None:
    h = hearing
    error(_open(h.anonymous, h), 401, "unauthenticated")
    error(_open(h.stranger, h), 403, "forbidden", "not_a_party")
    error(_open(h.seat1, h, pause=True), 403, "forbidden", "judges_only")
    error(_open(h.seat1, h, position=50), 422, "dispute_refused")
    error(_open(h.seat1, h, remedy="x"), 422, "malformed_request")
    error(h.anonymous.get(f"/matches/{h.match_id}/disputes"), 403, "forbidden", "not_a_party")
    opened = _open(h.seat1, h).json()
    url = f"/disputes/{opened['dispute_id']}"
    error(h.stranger.get(url), 403, "forbidden", "not_a_party")
    error(h.anonymous.get(url), 403, "forbidden", "not_a_party")
    error(h.seat1.post(f"{url}/take", json={}), 403, "forbidden", "judges_only")
    error(h.seat1.post(f"{url}/rule", json={"decision": "mine", "reasoning": "y",
                                            "remedy": {"kind": "none"}}), 403, "forbidden",
          "judges_only")
    error(h.judge.post(f"{url}/rule", json={"decision": "x", "reasoning": "y",
                                            "remedy": {"kind": "banish"}}), 422,
          "malformed_request")
    version = h.version()
    error(h.judge.post(f"{url}/rule", json={"decision": "x", "reasoning": "y",
                                            "remedy": {"kind": "backup", "to_position": 9}}),
          422, "illegal_action")
    assert h.version() == version and h.judge.get(url).json()["status"] == "open"
    error(h.judge.get("/disputes/00000000-0000-0000-0000-000000000000"), 404,
          "dispute_not_found")


def test_a_dispute_is_found_by_a_prefix_of_its_id_among_those_the_caller_may_read(
        hearing: Hearing) -> None:
    """Dispute ids are typed as match ids are (issue 40): the first characters name the one
    dispute that starts with them, but only among those the caller is a party to, so a
    prefix tells nobody that a dispute they may not read exists."""
    h = hearing
    dispute_id = _open(h.seat1, h).json()["dispute_id"]
    prefix = dispute_id[:6]
    shown = h.seat1.get(f"/disputes/{prefix}")
    assert shown.status_code == 200 and shown.json()["dispute_id"] == dispute_id
    assert h.judge.post(f"/disputes/{dispute_id[:8].upper()}/take", json={}).status_code == 200
    for outsider in (h.stranger, h.anonymous):
        refused, unknown = outsider.get(f"/disputes/{prefix}"), outsider.get("/disputes/ffffff")
        error(refused, 404, "dispute_not_found")
        error(unknown, 404, "dispute_not_found")
        assert refused.json()["message"].replace(prefix, "X") == unknown.json()[
            "message"].replace("ffffff", "X")
    error(h.seat1.get("/disputes/abc"), 422, "malformed_request")  # shorter than 4
    error(h.seat1.get("/disputes/xyz!"), 404, "dispute_not_found")
    error(h.seat1.get("/disputes/zzzz"), 404, "dispute_not_found")
