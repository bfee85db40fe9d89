"""Every endpoint against every role, over a real server: who may read and do what, with the
status code and the error body, and nothing stored by a refusal (replay.access)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from ledger.keys import verify_receipt
from tests.replay.conftest import Server, serve

DECKS = ["solar_vanguard", "pleiades_bloom"]


@dataclass
class Cast:
    """One match with a client per role."""

    match_id: str
    organiser: httpx.Client
    judge: httpx.Client
    seat1: httpx.Client
    seat2: httpx.Client
    stranger: httpx.Client  # a seat of another match
    anonymous: httpx.Client
    judge_id: str
    seat_tokens: dict[int, str]

    def all(self) -> dict[str, httpx.Client]:
        return {"organiser": self.organiser, "judge": self.judge, "seat1": self.seat1,
                "seat2": self.seat2, "stranger": self.stranger, "anonymous": self.anonymous}


def _match(organiser: httpx.Client, **options: Any) -> dict[str, Any]:
    resp = organiser.post("/matches", json={"players": ["Aiko", "Ben"], "decks": DECKS,
                                            "options": {"first_player": 1, **options}})
    assert resp.status_code == 201, resp.text
    return resp.json()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def cast(server: Server, client: httpx.Client) -> Iterator[Cast]:
    judge = client.post("/credentials", json={"role": "judge", "name": "Head Judge Hana"})
    assert judge.status_code == 201, judge.text
    made = _match(client)
    other = _match(client)
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    clients = {"judge": server.client(judge.json()["token"]), "seat1": server.client(tokens[1]),
               "seat2": server.client(tokens[2]),
               "stranger": server.client(other["seats"][0]["token"]),
               "anonymous": server.client()}
    yield Cast(match_id=made["match_id"], organiser=client, **clients,
               judge_id=judge.json()["credential_id"], seat_tokens=tokens)
    for c in clients.values():
        c.close()


def error(resp: httpx.Response, status: int, code: str, reason: str | None = None) -> None:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"code", "reason", "message", "details"}, body
    assert body["code"] == code and body["message"], body
    if reason is not None:
        assert body["reason"] == reason, body
    if status == 401:
        assert resp.headers["www-authenticate"] == "Bearer"


def version(cast: Cast) -> int:
    return int(cast.organiser.get(f"/matches/{cast.match_id}").json()["version"])


def legal_of(cast: Cast, seat: int) -> list[dict[str, Any]]:
    resp = cast.judge.get(f"/matches/{cast.match_id}/legal", params={"seat": seat})
    assert resp.status_code == 200, resp.text
    return resp.json()  # type: ignore[no-any-return]


# ----- public -------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/games", "/games/worldgainer/actions", "/matches"])
def test_public_reads_answer_every_role(cast: Cast, path: str) -> None:
    for role, c in cast.all().items():
        assert c.get(path).status_code == 200, role


def test_summary_and_audit_answer_every_role(cast: Cast) -> None:
    for role, c in cast.all().items():
        assert c.get(f"/matches/{cast.match_id}").status_code == 200, role
        assert c.get(f"/matches/{cast.match_id}/audit").json()["ok"] is True, role


def test_me_names_the_credential(cast: Cast) -> None:
    assert cast.anonymous.get("/me").json() == {"role": "spectator"}
    assert cast.judge.get("/me").json()["name"] == "Head Judge Hana"
    me = cast.seat2.get("/me").json()
    assert (me["role"], me["match_id"], me["seat"], me["name"]) == \
        ("seat", cast.match_id, 2, "Ben")
    assert cast.organiser.get("/me").json()["role"] == "organiser"


def test_an_unknown_or_malformed_credential_is_401_everywhere(server: Server) -> None:
    for headers in ({"authorization": "Bearer not-a-token"},
                    {"authorization": "Basic dXNlcjpwYXNz"}, {"authorization": "Bearer " +
                                                               "x" * 500}):
        with httpx.Client(base_url=server.base, headers=headers, timeout=30) as c:
            error(c.get("/games"), 401, "unauthenticated")
            error(c.get("/matches"), 401, "unauthenticated")


def test_only_the_first_start_prints_an_organisers_token(tmp_path: Path) -> None:
    for first in serve(tmp_path / "k.db"):
        assert first.organiser_token
        with first.client(first.organiser_token) as c:
            assert c.get("/me").json()["role"] == "organiser"
    for again in serve(tmp_path / "k.db"):
        assert again.organiser_token == ""
        with again.client(first.organiser_token) as c:
            assert c.get("/me").json()["role"] == "organiser", "the first token still works"


# ----- credentials --------------------------------------------------------------------------------
def test_only_organisers_issue_list_and_revoke_credentials(cast: Cast) -> None:
    body = {"role": "judge", "name": "Floor Judge"}
    error(cast.anonymous.post("/credentials", json=body), 401, "unauthenticated")
    for c in (cast.judge, cast.seat1):
        error(c.post("/credentials", json=body), 403, "forbidden", "organisers_only")
        error(c.get("/credentials"), 403, "forbidden", "organisers_only")
        error(c.post(f"/credentials/{cast.judge_id}/revoke", json={"reason": "x"}), 403,
              "forbidden", "organisers_only")
    listed = cast.organiser.get("/credentials")
    assert listed.status_code == 200
    assert cast.seat_tokens[1] not in listed.text, "a token is never stored or shown again"
    roles = {(c["role"], c["name"]) for c in listed.json()}
    assert {("judge", "Head Judge Hana"), ("seat", "Aiko"), ("seat", "Ben")} <= roles


def test_a_seat_credential_cannot_be_issued_directly(cast: Cast) -> None:
    resp = cast.organiser.post("/credentials", json={"role": "seat", "name": "Aiko"})
    error(resp, 422, "malformed_request")
    error(cast.organiser.post("/credentials", json={"role": "judge", "name": ""}), 422,
          "malformed_request")


def test_a_revoked_credential_stops_working(server: Server, cast: Cast) -> None:
    made = cast.organiser.post("/credentials", json={"role": "judge", "name": "Temp"}).json()
    with server.client(made["token"]) as temp:
        assert temp.get("/me").json()["role"] == "judge"
        revoked = cast.organiser.post(f"/credentials/{made['credential_id']}/revoke",
                                      json={"reason": "left the event"})
        assert revoked.status_code == 200, revoked.text
        error(temp.get("/me"), 401, "unauthenticated")
    listed = {c["credential_id"]: c for c in cast.organiser.get("/credentials").json()}
    assert listed[made["credential_id"]]["revoked"] is True


def test_a_judge_reissues_a_seat_credential_and_the_old_one_stops(server: Server) -> None:
    with server.client(server.organiser_token) as organiser:
        made = _match(organiser)
        match_id, old = made["match_id"], made["seats"][0]["token"]
        judge_token = organiser.post("/credentials", json={"role": "judge",
                                                           "name": "J"}).json()["token"]
    url = f"/matches/{match_id}/seats/1/credential"
    with server.client(judge_token) as judge, server.client(old) as seat, \
            server.client() as anonymous:
        error(seat.post(url), 403, "forbidden", "judges_only")
        error(anonymous.post(url), 401, "unauthenticated")
        error(judge.post(f"/matches/{match_id}/seats/3/credential"), 422, "bad_request",
              "bad_seat")
        resp = judge.post(url)
        assert resp.status_code == 201, resp.text
        assert resp.json()["seat"] == 1 and resp.json()["name"] == "Aiko"
        error(seat.get("/me"), 401, "unauthenticated")
    with server.client(resp.json()["token"]) as fresh:
        assert fresh.get("/me").json()["seat"] == 1


# ----- creating matches ---------------------------------------------------------------------------
def test_only_organisers_create_matches_and_get_one_credential_per_seat(cast: Cast) -> None:
    body = {"players": ["A", "B"], "decks": DECKS}
    before = len(cast.organiser.get("/matches").json())
    error(cast.anonymous.post("/matches", json=body), 401, "unauthenticated")
    for c in (cast.judge, cast.seat1):
        error(c.post("/matches", json=body), 403, "forbidden", "organisers_only")
    assert len(cast.organiser.get("/matches").json()) == before
    made = _match(cast.organiser)
    assert [(s["seat"], s["name"]) for s in made["seats"]] == [(1, "Aiko"), (2, "Ben")]
    assert made["created_by"]["role"] == "organiser"


def test_the_body_cannot_name_the_recorder(cast: Cast) -> None:
    body = {"players": ["A", "B"], "decks": DECKS, "recorded_by": "someone else"}
    error(cast.organiser.post("/matches", json=body), 422, "malformed_request")


# ----- recording ----------------------------------------------------------------------------------
def test_a_seat_records_its_own_actions_under_its_own_name(cast: Cast) -> None:
    stun = next(a for a in legal_of(cast, 1) if a["type"] == "stun")
    before = version(cast)
    url = f"/matches/{cast.match_id}/actions"
    error(cast.anonymous.post(url, json={"action": stun}), 401, "unauthenticated")
    error(cast.seat2.post(url, json={"action": stun}), 403, "forbidden", "not_your_seat")
    error(cast.stranger.post(url, json={"action": stun}), 403, "forbidden", "not_your_seat")
    error(cast.seat1.post(url, json={"action": stun, "recorded_by": "Ben"}), 422,
          "malformed_request")
    assert version(cast) == before, "a refusal stored something"
    resp = cast.seat1.post(url, json={"action": stun})
    assert resp.status_code == 201, resp.text
    last = cast.judge.get(f"/matches/{cast.match_id}/events").json()[-1]
    assert last["recorded_by"]["name"] == "Aiko" and last["recorded_by"]["role"] == "seat"
    lines = cast.judge.get(f"/matches/{cast.match_id}/transcript").json()["lines"]
    assert " Aiko: #" in lines[-1], lines[-1]


def test_a_refusal_for_another_seat_says_nothing_about_the_game(cast: Cast) -> None:
    """Authorisation comes before the rules: any action for another seat, legal or not, real
    card or not, gets the same answer."""
    url = f"/matches/{cast.match_id}/actions"
    answers = set()
    for action in ({"type": "stun", "seat": 2, "card": "WGS-021"},
                   {"type": "stun", "seat": 2, "card": "no-such-card"},
                   {"type": "nonsense", "seat": 2}, {"type": "stun"}):
        resp = cast.seat1.post(url, json={"action": action})
        error(resp, 403, "forbidden", "not_your_seat")
        answers.add(resp.text)
    assert len(answers) == 1


def test_adjustments_and_undo_are_for_judges(cast: Cast) -> None:
    before = version(cast)
    adjust = {"type": "adjust", "seat": 1, "reason": "card effect",
              "counter": {"name": "vp", "value": 3}}
    url = f"/matches/{cast.match_id}"
    error(cast.seat1.post(f"{url}/actions", json={"action": adjust}), 403, "forbidden",
          "judges_only")
    error(cast.seat1.post(f"{url}/undo", json={"reason": "oops"}), 403, "forbidden",
          "judges_only")
    error(cast.anonymous.post(f"{url}/undo", json={"reason": "oops"}), 401, "unauthenticated")
    assert version(cast) == before


def test_a_seat_cannot_choose_the_outcome_of_chance_in_a_seeded_match(cast: Cast) -> None:
    action = legal_of(cast, 1)[0]
    before = version(cast)
    error(cast.seat1.post(f"/matches/{cast.match_id}/actions",
                          json={"action": action, "outcomes": ["WGS-021"]}), 403, "forbidden",
          "outcomes_not_allowed")
    assert version(cast) == before


def test_a_judge_acts_for_any_seat_and_undoes(server: Server, cast: Cast) -> None:
    with server.client(server.organiser_token) as organiser:
        match_id = _match(organiser)["match_id"]
    legal = cast.judge.get(f"/matches/{match_id}/legal", params={"seat": 1}).json()
    resp = cast.judge.post(f"/matches/{match_id}/actions", json={"action": legal[0]})
    assert resp.status_code == 201, resp.text
    resp = cast.judge.post(f"/matches/{match_id}/undo", json={"reason": "backup"})
    assert resp.status_code == 201, resp.text
    last = cast.judge.get(f"/matches/{match_id}/events").json()[-1]
    assert last["recorded_by"]["name"] == "Head Judge Hana"


def test_legal_actions_are_listed_for_ones_own_seat_only(cast: Cast) -> None:
    url = f"/matches/{cast.match_id}/legal"
    mine = cast.seat1.get(url)
    assert mine.status_code == 200 and mine.json() == cast.seat1.get(url, params={
        "seat": 1}).json()
    error(cast.seat1.get(url, params={"seat": 2}), 403, "forbidden", "not_your_seat")
    error(cast.stranger.get(url), 403, "forbidden", "not_your_seat")
    error(cast.anonymous.get(url, params={"seat": 1}), 401, "unauthenticated")
    error(cast.judge.get(url), 422, "bad_request", "seat_required")
    assert cast.judge.get(url, params={"seat": 2}).status_code == 200


# ----- reading ------------------------------------------------------------------------------------
READS = ["state", "events", "transcript", "export"]


@pytest.mark.parametrize("path", READS)
def test_the_credential_decides_the_viewer(cast: Cast, path: str) -> None:
    url = f"/matches/{cast.match_id}/{path}"
    if path == "state":
        seen = {role: c.get(url).json()["viewer"] for role, c in cast.all().items()}
        assert seen == {"organiser": "judge", "judge": "judge", "seat1": "seat:1",
                        "seat2": "seat:2", "stranger": "spectator", "anonymous": "spectator"}
    for role, c in cast.all().items():
        assert c.get(url).status_code == 200, role
        assert c.get(url, params={"viewer": "spectator"}).status_code == 200, role
    error(cast.anonymous.get(url, params={"viewer": "judge"}), 403, "forbidden",
          "viewer_not_allowed")
    error(cast.anonymous.get(url, params={"viewer": "seat:1"}), 403, "forbidden",
          "viewer_not_allowed")
    error(cast.seat1.get(url, params={"viewer": "seat:2"}), 403, "forbidden",
          "viewer_not_allowed")
    error(cast.seat1.get(url, params={"viewer": "judge"}), 403, "forbidden",
          "viewer_not_allowed")
    error(cast.stranger.get(url, params={"viewer": "seat:1"}), 403, "forbidden",
          "viewer_not_allowed")
    assert cast.judge.get(url, params={"viewer": "seat:2"}).status_code == 200


def test_a_seat_sees_its_own_hand_and_not_the_other(cast: Cast) -> None:
    url = f"/matches/{cast.match_id}/state"
    state = cast.seat1.get(url).json()["state"]
    judge = cast.judge.get(url).json()["state"]
    assert state["seats"][0]["hand"] == judge["seats"][0]["hand"]
    assert state["seats"][1]["hand"] != judge["seats"][1]["hand"]


def test_only_judges_take_an_importable_export_and_import(cast: Cast) -> None:
    url = f"/matches/{cast.match_id}/export"
    seat_export = cast.seat1.get(url)
    assert seat_export.status_code == 200
    headers = {"content-type": "application/octet-stream"}
    for c in (cast.seat1, cast.stranger):
        error(c.post("/matches/import", content=seat_export.content, headers=headers), 403,
              "forbidden", "judges_only")
    error(cast.anonymous.post("/matches/import", content=seat_export.content,
                              headers=headers), 401, "unauthenticated")
    error(cast.judge.post("/matches/import", content=seat_export.content, headers=headers),
          422, "import_rejected")


# ----- receipts -----------------------------------------------------------------------------------
def test_receipts_are_signed_by_the_published_key_and_kept_by_seats_and_judges(
        cast: Cast) -> None:
    keys = cast.anonymous.get("/.well-known/kiroku-keys").json()
    assert keys["algorithm"] == "Ed25519"
    url = f"/matches/{cast.match_id}/receipt"
    for role in ("seat1", "judge", "organiser"):
        receipt = cast.all()[role].get(url).json()
        assert verify_receipt(receipt, keys["public_key"]), role
        assert receipt["version"] == version(cast)
    error(cast.anonymous.get(url), 403, "forbidden", "seats_and_judges_only")
    error(cast.stranger.get(url), 403, "forbidden", "seats_and_judges_only")


def test_anyone_can_hold_the_match_against_the_receipts_they_kept(cast: Cast) -> None:
    kept = [cast.seat1.get(f"/matches/{cast.match_id}/receipt").json()]
    report = cast.anonymous.post(f"/matches/{cast.match_id}/audit", json=kept).json()
    assert report["ok"] is True and any("receipt" in n for n in report["notes"])
    forged = [{**kept[0], "head": "0" * 64}]
    report = cast.anonymous.post(f"/matches/{cast.match_id}/audit", json=forged).json()
    assert report["ok"] is False and report["failure"]["reason"] == "bad_receipt"


def test_a_ruling_is_a_judges_act_not_a_players(server: Server, cast: Cast) -> None:
    """A claim's ruling (Illuminati's rule_claim here) is refused to a seat, like an
    adjustment, whatever the claim: a player never rules on their own dispute."""
    with server.client(server.organiser_token) as organiser:
        made = organiser.post("/matches", json={
            "game": "illuminati", "players": ["Ann", "Ben"],
            "decks": ["paper_trail", "boardroom_shadows"]}).json()
    with server.client(made["seats"][0]["token"]) as seat:
        error(seat.post(f"/matches/{made['match_id']}/actions", json={"action": {
            "type": "rule_claim", "seat": 1, "upheld": True, "reason": "I say so"}}),
            403, "forbidden", "judges_only")
