"""Heavy reads (issue 41): a match's events, transcript, export and audit are kept per match
version and audience, and a kept answer is the fresh one, byte for byte; a new action makes a
new one; one viewer's is never another's; and the bounds on heavy reads answer the documented
error body with Retry-After (503 ``server_busy``, 429 ``rate_limited``), never a 500.

In process (Starlette's test client over ``create_app``), so that the service's work can be
counted and held up; no timing is asserted."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import msgpack
import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from engine.core.viewer import Viewer
from ledger.identity import Role
from replay.api import create_app
from replay.api.heavy import HeavyReads
from replay.service import Kiroku

DECKS = ["solar_vanguard", "pleiades_bloom"]
KEPT_READS = ("events", "transcript", "audit", "export?format=jsonl", "export")


@dataclass
class Served:
    """A service, its application in a test client, and the organiser's token."""

    kiroku: Kiroku
    app: FastAPI
    client: TestClient
    organiser: str

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        """GET ``path`` with ``token`` as the bearer credential (none: a spectator)."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.client.get(path, headers=headers)

    def match(self, turns: int, **options: Any) -> tuple[str, dict[int, str]]:
        """A World Gainer match created over HTTP, ``turns`` turns ended by its seats; its id
        and its seats' tokens."""
        created = self.client.post("/matches", headers=self._organiser(), json={
            "players": ["Ann", "Ben"], "decks": DECKS, "replay_policy": "closed",
            "options": {"first_player": 1, **options}}).json()
        seats = {s["seat"]: s["token"] for s in created["seats"]}
        for turn in range(turns):
            self.end_turn(created["match_id"], seats, 1 + turn % 2)
        return created["match_id"], seats

    def end_turn(self, match_id: str, seats: dict[int, str], seat: int) -> None:
        """Seat ``seat`` ends its turn."""
        answer = self.client.post(f"/matches/{match_id}/actions", json={
            "action": {"type": "end_turn", "seat": seat}},
            headers={"authorization": f"Bearer {seats[seat]}"})
        assert answer.status_code == 201, answer.text

    def forget(self, reads: HeavyReads | None = None) -> None:
        """Nothing kept from now on (or ``reads`` instead): the next answer is made fresh.

        Unless told otherwise, each caller may take the whole server: on a loaded machine (a
        full collection of the test process's heap during a fresh answer) that answer's time
        would otherwise spend a caller's share, and its next read be rate limited, which is
        the subject of the tests that pass their own bounds, not of the others."""
        self.app.state.heavy = reads or HeavyReads(share=1.0)

    def _organiser(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.organiser}"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    kiroku = Kiroku.open(f"sqlite:///{tmp_path / 'kiroku.db'}")
    organiser = kiroku.credentials.issue(Role.ORGANISER, "Org", issued_by="test")[1]
    app = create_app(kiroku)
    try:
        with TestClient(app) as client:
            served = Served(kiroku, app, client, organiser)
            served.forget()
            yield served
    finally:
        kiroku.close()


def _counted(monkeypatch: pytest.MonkeyPatch, kiroku: Kiroku, name: str) -> list[int]:
    """Count the calls of the service's method ``name`` (each appends to the list)."""
    calls: list[int] = []
    method = getattr(kiroku, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return method(*args, **kwargs)

    monkeypatch.setattr(kiroku, name, counting)
    return calls


def _unsigned(export: bytes) -> bytes:
    """A JSON-lines export without its receipt's signing time and signature (a fresh
    export is signed anew; a kept one carries the receipt signed when it was made)."""
    header, _, records = export.partition(b"\n")
    fields = json.loads(header)
    for name in ("signed_at", "signature"):
        fields["receipt"].pop(name)
    return json.dumps(fields).encode() + b"\n" + records


def test_a_kept_answer_is_the_fresh_one_byte_for_byte(
        served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, seats = served.match(4)
    made = {name: _counted(monkeypatch, served.kiroku, name)
            for name in ("records", "transcript", "audit_seen", "export")}
    for read, making in zip(KEPT_READS, ("records", "transcript", "audit_seen", "export",
                                         "export")):
        made[making].clear()
        for token in (None, seats[1], served.organiser):
            first = served.get(f"/matches/{match_id}/{read}", token)
            again = served.get(f"/matches/{match_id}/{read}", token)
            assert first.status_code == 200, first.text
            assert again.content == first.content and again.headers == first.headers
            served.forget()
            fresh = served.get(f"/matches/{match_id}/{read}", token)
            if read == "export?format=jsonl":
                assert _unsigned(fresh.content) == _unsigned(first.content)
            elif read != "export":  # msgpack: signed anew as well, compared as JSON lines
                assert fresh.content == first.content, read
        # made once for each viewer, then once more after each forget: never when kept
        assert len(made[making]) == 3 * 2, read


def test_a_kept_answer_is_what_the_service_answers(served: Served) -> None:
    match_id, seats = served.match(3)
    seat = served.kiroku.credentials.authenticate(seats[2])
    audience = served.kiroku.audience(UUID(match_id), seat)
    for _ in range(2):  # made, then kept
        assert served.get(f"/matches/{match_id}/events", seats[2]).content == JSONResponse(
            served.kiroku.records(audience)).body
        assert served.get(f"/matches/{match_id}/transcript", seats[2]).content == (
            JSONResponse({"match_id": match_id,
                          "lines": served.kiroku.transcript(audience)}).body)
        assert served.get(f"/matches/{match_id}/audit").json() == (
            served.kiroku.audit_seen(audience).to_dict())


def test_a_new_action_makes_a_new_answer(served: Served) -> None:
    match_id, seats = served.match(2)
    before = {read: served.get(f"/matches/{match_id}/{read}", seats[1]).content
              for read in KEPT_READS}
    served.end_turn(match_id, seats, 1)
    after = {read: served.get(f"/matches/{match_id}/{read}", seats[1]).content
             for read in KEPT_READS}
    for read in KEPT_READS:
        assert after[read] != before[read], read
    served.forget()
    assert served.get(f"/matches/{match_id}/transcript", seats[1]).content == (
        after["transcript"])
    assert json.loads(after["audit"])["events"] == json.loads(before["audit"])["events"] + 1


def test_a_kept_answer_is_never_another_viewers(served: Served) -> None:
    match_id, seats = served.match(5, spectators="delayed", spectator_delay=2)
    organiser = served.kiroku.credentials.authenticate(served.organiser)
    readers: dict[str, Callable[[], httpx.Response]] = {}
    fresh: dict[str, Any] = {}
    for name, token, caller, viewer in (
            ("seat 1", seats[1], served.kiroku.credentials.authenticate(seats[1]), ""),
            ("seat 2", seats[2], served.kiroku.credentials.authenticate(seats[2]), ""),
            ("spectator", None, None, ""),
            ("judge as seat 1", served.organiser, organiser, "seat:1")):
        query = f"?viewer={viewer}" if viewer else ""
        for read in ("events", "transcript"):
            readers[f"{name} {read}"] = (
                lambda read=read, token=token, query=query: served.get(
                    f"/matches/{match_id}/{read}{query}", token))
        audience = served.kiroku.audience(UUID(match_id), caller,
                                          Viewer.parse(viewer) if viewer else None)
        fresh[f"{name} events"] = served.kiroku.records(audience)
        fresh[f"{name} transcript"] = {"match_id": match_id,
                                       "lines": served.kiroku.transcript(audience)}
    for _ in range(2):  # in turn, each made then kept after the others
        for name, read in readers.items():
            assert read().json() == fresh[name], name
    assert fresh["seat 1 events"] != fresh["seat 2 events"]
    assert len(fresh["spectator events"]) < len(fresh["seat 1 events"])  # the delay holds
    assert fresh["judge as seat 1 events"] == fresh["seat 1 events"]
    audits = {token: served.get(f"/matches/{match_id}/audit", token).json()["events"]
              for token in (None, seats[1])}
    assert audits[None] < audits[seats[1]]  # a delayed spectator's audit stops at its horizon


def _held(monkeypatch: pytest.MonkeyPatch, kiroku: Kiroku) -> tuple[threading.Event,
                                                                      threading.Event]:
    """Make the service's transcripts wait until released: (started, release)."""
    started, release = threading.Event(), threading.Event()
    transcript = kiroku.transcript

    def held(*args: Any, **kwargs: Any) -> Any:
        started.set()
        assert release.wait(30)
        return transcript(*args, **kwargs)

    monkeypatch.setattr(kiroku, "transcript", held)
    return started, release


def _refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json() == {"code": code, "reason": code, "message": answer.json()["message"],
                             "details": {}}
    assert int(answer.headers["retry-after"]) >= 1


def test_a_heavy_read_that_finds_no_place_is_answered_server_busy(
        served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, seats = served.match(2)
    served.forget(HeavyReads(at_once=1, longest_wait=0.2))
    started, release = _held(monkeypatch, served.kiroku)
    first: list[httpx.Response] = []
    reading = threading.Thread(target=lambda: first.append(
        served.get(f"/matches/{match_id}/transcript", served.organiser)))
    reading.start()
    try:
        assert started.wait(30)
        _refused(served.get(f"/matches/{match_id}/transcript", seats[1]), 503, "server_busy")
        _refused(served.get(f"/matches/{match_id}/events"), 503, "server_busy")
        # a read whose answer is kept needs no place; recording needs none either
        served.end_turn(match_id, seats, 1)
    finally:
        release.set()
        reading.join(30)
    assert first[0].status_code == 200, first[0].text
    assert served.get(f"/matches/{match_id}/transcript", seats[1]).status_code == 200


def test_a_caller_past_its_share_is_answered_rate_limited(served: Served) -> None:
    match_id, seats = served.match(2)
    served.forget(HeavyReads(share=0.001, burst=0.0, longest_wait=0.5))
    assert served.get(f"/matches/{match_id}/transcript", seats[1]).status_code == 200
    # even a kept answer is charged: its next read is a second or more away
    _refused(served.get(f"/matches/{match_id}/transcript", seats[1]), 429, "rate_limited")
    _refused(served.get(f"/matches/{match_id}/study", seats[1]), 429, "rate_limited")
    # every other caller has a share of its own
    assert served.get(f"/matches/{match_id}/transcript", seats[2]).status_code == 200
    assert served.get(f"/matches/{match_id}/transcript").status_code == 200
    # the OpenAPI document says so
    document = served.app.openapi()
    responses = document["paths"]["/matches/{match_id}/transcript"]["get"]["responses"]
    assert {"429", "503"} <= set(responses)


def test_a_kept_answer_keeps_the_format_asked_for(served: Served) -> None:
    match_id, _ = served.match(2)
    as_json = served.get(f"/matches/{match_id}/events")
    for _ in range(2):
        packed = served.client.get(f"/matches/{match_id}/events",
                                   headers={"accept": "application/msgpack"})
        assert packed.headers["content-type"] == "application/msgpack"
        assert msgpack.unpackb(packed.content) == as_json.json()
    assert served.get(f"/matches/{match_id}/events").content == as_json.content
