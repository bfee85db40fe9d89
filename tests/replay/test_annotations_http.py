"""Annotations over a real server (issue 13, first part): who may write and read each, what an
annotation may highlight, amendments and withdrawals kept as history, and the match's own
record untouched."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from replay.api.shapes import AnnotationEvent, AnnotationOut
from tests.replay.conftest import Server
from tests.replay.test_roles_http import _match, error


@dataclass
class Table:
    """One match, a client per role, and a card of each seat's hand (seen by the judge)."""

    match_id: str
    organiser: httpx.Client
    judge: httpx.Client
    seat1: httpx.Client
    seat2: httpx.Client
    stranger: httpx.Client
    anonymous: httpx.Client
    hand: dict[int, list[str]]

    @property
    def url(self) -> str:
        return f"/matches/{self.match_id}/annotations"


@pytest.fixture(scope="module")
def table(server: Server, client: httpx.Client) -> Iterator[Table]:
    judge = client.post("/credentials", json={"role": "judge", "name": "Judge Jun"}).json()
    made, other = _match(client), _match(client)
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    state = client.get(f"/matches/{made['match_id']}/state").json()["state"]
    hand = {s["seat"]: [c["id"] for c in s["hand"]] for s in state["seats"]}
    clients = {"judge": server.client(judge["token"]), "seat1": server.client(tokens[1]),
               "seat2": server.client(tokens[2]),
               "stranger": server.client(other["seats"][0]["token"]),
               "anonymous": server.client()}
    yield Table(made["match_id"], client, hand=hand, **clients)
    for c in clients.values():
        c.close()


def _add(c: httpx.Client, table: Table, **body: Any) -> httpx.Response:
    return c.post(table.url, json={"text": "note", **body})


def _ids(c: httpx.Client, table: Table) -> set[str]:
    resp = c.get(table.url)
    assert resp.status_code == 200, resp.text
    return {a["annotation_id"] for a in resp.json()}


def _version(table: Table) -> int:
    return int(table.organiser.get(f"/matches/{table.match_id}").json()["version"])


def test_a_seat_annotates_its_own_hand_for_itself_alone(table: Table) -> None:
    card = table.hand[1][0]
    resp = _add(table.seat1, table, text="keep this for turn 3", symbols=["key_moment"],
                highlights=[card, "hand#1"], arrows=[[card, "hand#1"]], visibility="team")
    assert resp.status_code == 201, resp.text
    made = AnnotationOut.model_validate(resp.json()).model_dump(exclude_none=True)
    assert made["author"]["role"] == "seat" and made["author"]["seat"] == 1
    assert made["symbols"] == [{"name": "key_moment", "mark": "□"}]
    assert made["position"] == 0 and made["highlights"] == [card, "hand#1"]
    assert made["annotation_id"] in _ids(table.seat1, table)
    for other in (table.seat2, table.anonymous, table.stranger, table.judge, table.organiser):
        assert made["annotation_id"] not in _ids(other, table)


def test_the_author_is_the_credential_never_the_body(table: Table) -> None:
    resp = _add(table.seat1, table, author={"name": "Head Judge"})
    error(resp, 422, "malformed_request")


def test_a_public_annotation_cannot_show_a_hidden_card(table: Table) -> None:
    before = _ids(table.seat1, table)
    own = _add(table.seat1, table, highlights=[table.hand[1][0]], visibility="public")
    error(own, 422, "annotation_refused")
    others = _add(table.seat1, table, highlights=[table.hand[2][0]], visibility="private")
    absent = _add(table.seat1, table, highlights=["NO-SUCH-CARD"], visibility="private")
    error(others, 422, "annotation_refused")
    error(absent, 422, "annotation_refused")
    assert others.json()["message"] == absent.json()["message"]  # no oracle on the other hand
    assert _ids(table.seat1, table) == before


def test_a_judges_annotation_of_a_hand_is_read_by_judges_only(table: Table) -> None:
    resp = _add(table.judge, table, text="check the draw", symbols=["rules_question"],
                highlights=[table.hand[2][0]], visibility="judges")
    assert resp.status_code == 201, resp.text
    made = resp.json()["annotation_id"]
    assert made in _ids(table.judge, table) and made in _ids(table.organiser, table)
    for other in (table.seat1, table.seat2, table.anonymous, table.stranger):
        assert made not in _ids(other, table)


def test_a_public_annotation_is_read_by_everyone(table: Table) -> None:
    resp = _add(table.seat2, table, text="bold opening", symbols=["interesting", "good"],
                highlights=["break#2"], visibility="public")
    assert resp.status_code == 201, resp.text
    made = resp.json()["annotation_id"]
    for reader in (table.seat1, table.seat2, table.anonymous, table.stranger, table.judge):
        assert made in _ids(reader, table)


def test_amending_and_withdrawing_keep_the_history(table: Table) -> None:
    made = _add(table.seat1, table, text="first thought", visibility="public").json()
    url = f"/annotations/{made['annotation_id']}"
    error(table.seat2.post(f"{url}/amend", json={"text": "mine now"}), 403, "forbidden",
          "not_the_author")
    amended = table.seat1.post(f"{url}/amend", json={"text": "second thought",
                                                     "symbols": ["dubious"],
                                                     "visibility": "public"})
    assert amended.status_code == 200, amended.text
    assert amended.json()["text"] == "second thought" and amended.json()["amended"]
    error(table.seat2.post(f"{url}/withdraw", json={"reason": "spam"}), 403, "forbidden",
          "not_the_author")
    withdrawn = table.judge.post(f"{url}/withdraw", json={"reason": "off topic"})
    assert withdrawn.status_code == 200, withdrawn.text
    shown = [a for a in table.anonymous.get(table.url).json()
             if a["annotation_id"] == made["annotation_id"]]
    assert shown and shown[0]["withdrawn"] and "text" not in shown[0]
    AnnotationOut.model_validate(shown[0])
    error(table.seat1.post(f"{url}/amend", json={"text": "again"}), 422,
          "annotation_refused")
    history = table.seat1.get(f"{url}/history").json()
    for event in history:
        AnnotationEvent.model_validate(event)
    assert [e["event"] for e in history] == ["AnnotationAdded", "AnnotationAmended",
                                             "AnnotationWithdrawn"]
    assert history[0]["text"] == "first thought" and history[2]["reason"] == "off topic"
    assert history[2]["by"]["name"] == "Judge Jun"
    error(table.seat2.get(f"{url}/history"), 403, "forbidden", "not_the_author")


def test_who_may_not_annotate(table: Table) -> None:
    error(_add(table.anonymous, table), 401, "unauthenticated")
    error(_add(table.stranger, table), 403, "forbidden", "not_your_match")
    error(_add(table.judge, table, position=99), 422, "annotation_refused")
    error(_add(table.judge, table, symbols=["brilliant"]), 422, "malformed_request")
    error(_add(table.judge, table, highlights=["hand#9"]), 422, "annotation_refused")
    error(_add(table.judge, table, highlights=["hand#1"], arrows=[["hand#1", "deck#1"]]),
          422, "annotation_refused")
    error(table.judge.post("/annotations/00000000-0000-0000-0000-000000000000/amend",
                           json={"text": "x"}), 404, "annotation_not_found")
    error(table.judge.get("/matches/00000000-0000-0000-0000-000000000000/annotations"), 404,
          "match_not_found")


def test_annotations_never_touch_the_match_record(table: Table) -> None:
    version = _version(table)
    audit = table.anonymous.get(f"/matches/{table.match_id}/audit").json()
    _add(table.judge, table, text="after the audit", visibility="public")
    assert _version(table) == version == 1
    assert table.anonymous.get(f"/matches/{table.match_id}/audit").json() == audit
    assert audit["ok"]
