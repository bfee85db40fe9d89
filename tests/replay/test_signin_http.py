"""Sign-in links and sessions over a real server (issue 40): a seat signs in from its slip's
link into an HttpOnly cookie session, a link signs in once, a new link revokes the old one,
cookie changes need the page's header, and a tournament player's one sign-in plays each of
their paired matches as their seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from ledger.catalog import sample_decks
from replay.api.shapes import CallerOut, SignInLinkOut
from tests.replay.conftest import Server
from tests.replay.test_roles_http import error

PAGE = {"x-kiroku-page": "1"}
DECKS = {name: dict(deck.cards) for name, deck in sample_decks("worldgainer").items()}


def _match(organiser: httpx.Client) -> str:
    made = organiser.post("/matches", json={"players": ["Aiko", "Ben"],
                                            "decks": ["solar_vanguard", "pleiades_bloom"],
                                            "options": {"first_player": 1}})
    assert made.status_code == 201, made.text
    return str(made.json()["match_id"])


def _links(client: httpx.Client, match_id: str, **body: Any) -> list[SignInLinkOut]:
    issued = client.post(f"/matches/{match_id}/links", json=body)
    assert issued.status_code == 201, issued.text
    return [SignInLinkOut.model_validate(link) for link in issued.json()]


@pytest.fixture
def phone(server: Server) -> Iterator[httpx.Client]:
    """A browser's view of the server: no Authorization header, cookies kept."""
    with httpx.Client(base_url=server.base, timeout=30) as browser:
        yield browser


def _sign_in(phone: httpx.Client, code: str) -> CallerOut:
    opened = phone.post("/sessions", json={"code": code}, headers=PAGE)
    assert opened.status_code == 201, opened.text
    return CallerOut.model_validate(opened.json())


def _events(client: httpx.Client, match_id: str) -> int:
    return len(client.get(f"/matches/{match_id}/events").json())


def test_a_judge_prints_a_link_per_seat_and_the_seat_signs_in_with_it(
        client: httpx.Client, phone: httpx.Client, server: Server) -> None:
    match_id = _match(client)
    links = _links(client, match_id)
    assert [(link.seat, link.name) for link in links] == [(1, "Aiko"), (2, "Ben")]
    first = links[0]
    assert first.link == f"{server.base}/sign-in#code={first.code}"
    assert first.qr.startswith("data:image/svg+xml")
    assert "svg" in unquote(first.qr)

    me = _sign_in(phone, first.code)
    assert (me.role, me.seat, me.match_id, me.session) == ("seat", 1, match_id, True)
    assert [(p.match_id, p.seat) for p in me.plays] == [(match_id, 1)]
    cookie = phone.cookies.get("kiroku_session")
    assert cookie and cookie not in first.link  # a session's own token, not the link's code
    header = next(v for k, v in phone.post("/sessions", json={"code": links[1].code},
                                             headers=PAGE).headers.multi_items()
                  if k == "set-cookie")
    assert "HttpOnly" in header and "SameSite=strict" in header and "Max-Age=" in header

    with httpx.Client(base_url=server.base, timeout=30) as seat_one:
        _ = seat_one  # a second browser for seat 1 cannot reuse the spent link
        error(seat_one.post("/sessions", json={"code": first.code}, headers=PAGE), 401,
              "unauthenticated")


def test_a_link_signs_in_once_and_a_new_one_replaces_it(
        client: httpx.Client, phone: httpx.Client, server: Server) -> None:
    match_id = _match(client)
    old = _links(client, match_id, seats=[1])[0]
    _sign_in(phone, old.code)
    assert phone.get("/me").json()["seat"] == 1
    again = phone.post("/sessions", json={"code": old.code}, headers=PAGE)
    error(again, 401, "unauthenticated")
    assert "used already" in again.json()["message"]

    new = _links(client, match_id, seats=[1], revoke_sessions=True)[0]
    assert new.sessions_revoked == 1
    assert phone.get("/me").json() == {"role": "spectator"}, "the lost phone is signed out"
    with httpx.Client(base_url=server.base, timeout=30) as other:
        error(other.post("/sessions", json={"code": old.code}, headers=PAGE), 401,
              "unauthenticated")
        assert _sign_in(other, new.code).seat == 1


def test_a_cookie_change_needs_the_pages_header_and_stores_nothing_without_it(
        client: httpx.Client, phone: httpx.Client) -> None:
    match_id = _match(client)
    _sign_in(phone, _links(client, match_id, seats=[1])[0].code)
    legal = phone.get(f"/matches/{match_id}/legal").json()
    action = legal[0]
    before = _events(client, match_id)
    refused = phone.post(f"/matches/{match_id}/actions", json={"action": action})
    error(refused, 403, "forbidden", "page_header_missing")
    assert _events(client, match_id) == before
    done = phone.post(f"/matches/{match_id}/actions", json={"action": action}, headers=PAGE)
    assert done.status_code == 201, done.text
    last = client.get(f"/matches/{match_id}/events").json()[-1]
    assert last["recorded_by"]["role"] == "seat"
    assert last["recorded_by"]["id"] == phone.get("/me").json()["credential_id"]


def test_opening_a_session_needs_the_pages_header_and_one_secret(
        client: httpx.Client, phone: httpx.Client) -> None:
    match_id = _match(client)
    code = _links(client, match_id, seats=[2])[0].code
    error(phone.post("/sessions", json={"code": code}), 403, "forbidden", "page_header_missing")
    assert _sign_in(phone, code).seat == 2, "the refused attempt did not spend the link"
    for body in ({}, {"code": code, "token": "x" * 43}, {"code": ""}, {"code": "x" * 201}):
        error(phone.post("/sessions", json=body, headers=PAGE), 422, "malformed_request")
    for bad in ("nonsense", "A" * 22 + ".short", "A" * 22 + "." + "B" * 32,
                code.replace(".", ".Z")):
        error(phone.post("/sessions", json={"code": bad}, headers=PAGE), 401,
              "unauthenticated")


def test_signing_out_clears_the_cookie_and_ends_a_links_session(
        client: httpx.Client, phone: httpx.Client, server: Server) -> None:
    match_id = _match(client)
    _sign_in(phone, _links(client, match_id, seats=[1])[0].code)
    token = phone.cookies["kiroku_session"]
    error(phone.delete("/sessions/current"), 403, "forbidden", "page_header_missing")
    signed_out = phone.delete("/sessions/current", headers=PAGE)
    assert (signed_out.status_code, signed_out.json()) == (200, {"role": "spectator"})
    assert "kiroku_session" not in phone.cookies
    error(server.client(token).get("/me"), 401, "unauthenticated")


def test_a_typed_token_becomes_a_session_and_stays_valid_after_signing_out(
        client: httpx.Client, phone: httpx.Client, server: Server) -> None:
    judge = client.post("/credentials", json={"role": "judge", "name": "Jun"}).json()
    opened = phone.post("/sessions", json={"token": judge["token"]}, headers=PAGE)
    assert opened.status_code == 201 and opened.json()["role"] == "judge"
    assert phone.delete("/sessions/current", headers=PAGE).status_code == 200
    assert server.client(judge["token"]).get("/me").json()["role"] == "judge"
    error(phone.post("/sessions", json={"token": "not-a-token"}, headers=PAGE), 401,
          "unauthenticated")


def test_only_judges_issue_links_and_the_seat_must_exist(
        client: httpx.Client, server: Server) -> None:
    match_id = _match(client)
    seat_token = client.post("/matches", json={
        "players": ["C", "D"], "decks": ["solar_vanguard", "pleiades_bloom"]}).json()[
        "seats"][0]["token"]
    error(server.client().post(f"/matches/{match_id}/links"), 401, "unauthenticated")
    error(server.client(seat_token).post(f"/matches/{match_id}/links"), 403, "forbidden",
          "judges_only")
    error(client.post(f"/matches/{match_id}/links", json={"seats": [3]}), 422,
          "bad_request", "bad_seat")
    error(client.post(f"/matches/{match_id}/links", json={"valid_hours": 0}), 422,
          "malformed_request")


def _event(client: httpx.Client) -> tuple[str, dict[str, str], dict[str, str]]:
    made = client.post("/tournaments", json={"name": "Table Cup", "game": "worldgainer",
                                             "options": {"first_player": 1}})
    assert made.status_code == 201, made.text
    url = f"/tournaments/{made.json()['tournament_id']}"
    ids, tokens = {}, {}
    for name, deck in (("Ann", "solar_vanguard"), ("Ben", "pleiades_bloom")):
        registered = client.post(f"{url}/players", json={"name": name}).json()
        ids[name], tokens[name] = registered["player_id"], registered["token"]
        with httpx.Client(base_url=str(client.base_url), headers={
                "authorization": f"Bearer {tokens[name]}"}) as player:
            sent = player.put(f"{url}/players/{ids[name]}/decklist", json={"deck": DECKS[deck]})
            assert sent.status_code == 200, sent.text
    return url, ids, tokens


def test_a_players_one_sign_in_plays_each_paired_match_as_their_seat(
        client: httpx.Client, phone: httpx.Client, server: Server) -> None:
    url, ids, tokens = _event(client)
    link = client.post(f"{url}/players/{ids['Ben']}/link")
    assert link.status_code == 201, link.text
    me = _sign_in(phone, SignInLinkOut.model_validate(link.json()).code)
    assert (me.role, me.name, me.player_id, me.plays) == ("player", "Ben", ids["Ben"], [])

    rounds = []
    for seats in (["Ann", "Ben"], ["Ben", "Ann"]):
        paired = client.post(f"{url}/rounds", json={"tables": [{"table": 1,
                                                                "players": seats}]})
        assert paired.status_code == 201, paired.text
        rounds.append(paired.json()["tables"][0]["match_id"])
    plays = CallerOut.model_validate(phone.get("/me").json()).plays
    assert [(p.match_id, p.seat, p.round, p.table) for p in plays] == [
        (rounds[1], 1, 2, 1), (rounds[0], 2, 1, 1)]

    state = phone.get(f"/matches/{rounds[1]}/state").json()
    assert state["viewer"] == "seat:1"
    action = phone.get(f"/matches/{rounds[1]}/legal").json()[0]
    done = phone.post(f"/matches/{rounds[1]}/actions", json={"action": action}, headers=PAGE)
    assert done.status_code == 201, done.text
    recorded = client.get(f"/matches/{rounds[1]}/events").json()[-1]["recorded_by"]
    assert (recorded["role"], recorded["name"]) == ("player", "Ben")
    # the registration's own token plays the same way: no new token per round
    assert server.client(tokens["Ann"]).get(f"/matches/{rounds[0]}/state").json()[
        "viewer"] == "seat:1"
    error(phone.post(f"/matches/{rounds[0]}/actions", json={"action": {
        "type": "concede", "seat": 1}}, headers=PAGE), 403, "forbidden")


def test_a_link_for_a_player_not_registered_is_refused_and_nothing_is_issued(
        client: httpx.Client) -> None:
    url, ids, _ = _event(client)
    tournament = client.get(url).json()
    stranger = "00000000-0000-4000-8000-000000000000"
    error(client.post(f"{url}/players/{stranger}/link"), 422, "tournament_refused",
          "unknown_player")
    error(client.post(f"{url}/players/not-an-id/link"), 422, "malformed_request")
    assert client.get(url).json() == tournament
    assert client.post(f"{url}/players/{ids['Ann']}/link").status_code == 201


def test_a_rounds_slips_have_a_link_for_every_seat_of_every_table(
        client: httpx.Client) -> None:
    url, _, _ = _event(client)
    paired = client.post(f"{url}/rounds", json={"tables": [{"table": 7,
                                                            "players": ["Ann", "Ben"]}]})
    assert paired.status_code == 201, paired.text
    slips = client.post(f"{url}/rounds/1/links")
    assert slips.status_code == 201, slips.text
    shown = [SignInLinkOut.model_validate(s) for s in slips.json()]
    assert [(s.table, s.round, s.seat, s.name, s.tournament) for s in shown] == [
        (7, 1, 1, "Ann", "Table Cup"), (7, 1, 2, "Ben", "Table Cup")]
    error(client.post(f"{url}/rounds/2/links"), 422, "tournament_refused", "unknown_round")


def _match_reads(server: Server) -> list[str]:
    """Every reading route of a match that needs no other id, from the OpenAPI document."""
    spec = httpx.get(f"{server.base}/openapi.json").json()
    return [path for path, operations in spec["paths"].items()
            if "get" in operations and path.startswith("/matches/{match_id}")
            and path.count("{") == 1]


SIGNED_NOW = ("/matches/{match_id}/receipt", "/matches/{match_id}/export")


def _reads(client: httpx.Client, paths: list[str], match_id: str) -> dict[str, Any]:
    """Each route's status and answer (a receipt's or an export's status only: each is
    signed afresh, at the time it is asked for)."""
    answers = {}
    for path in paths:
        answer = client.get(path.replace("{match_id}", match_id))
        answers[path] = (answer.status_code, "" if path in SIGNED_NOW else answer.text)
    return answers


def test_a_session_reads_exactly_what_its_seats_token_reads(
        client: httpx.Client, phone: httpx.Client, server: Server) -> None:
    # the leak scanner (test_leaks_parameters) proves what a seat's token may read; a session,
    # by a seat's link or by a player's one sign-in, is the same audience on every route
    url, ids, tokens = _event(client)
    paired = client.post(f"{url}/rounds", json={"tables": [{"table": 1,
                                                            "players": ["Ann", "Ben"]}]})
    table = paired.json()["tables"][0]
    match_id, seat_token = table["match_id"], table["seats"][1]["token"]
    action = server.client(table["seats"][0]["token"]).get(f"/matches/{match_id}/legal").json()
    assert client.post(f"/matches/{match_id}/actions",
                       json={"action": action[0]}).status_code == 201
    paths = _match_reads(server)
    assert len(paths) >= 8, paths
    expected = _reads(server.client(seat_token), paths, match_id)
    assert "/matches/{match_id}/state" in expected and expected[
        "/matches/{match_id}/state"][0] == 200

    _sign_in(phone, _links(client, match_id, seats=[2])[0].code)
    assert _reads(phone, paths, match_id) == expected
    link = client.post(f"{url}/players/{ids['Ben']}/link").json()
    with httpx.Client(base_url=server.base, timeout=30) as player_phone:
        _sign_in(player_phone, link["code"])
        assert _reads(player_phone, paths, match_id) == expected
    assert _reads(server.client(tokens["Ben"]), paths, match_id) == expected


def test_a_scorekeeper_records_both_seats_of_its_match_and_nothing_else(
        client: httpx.Client, phone: httpx.Client, server: Server) -> None:
    match_id, other = _match(client), _match(client)
    links = _links(client, match_id, scorekeeper=True)
    assert [(link.seat, link.match_id) for link in links] == [(None, match_id)]
    me = _sign_in(phone, links[0].code)
    assert (me.role, [(p.match_id, p.seat) for p in me.plays]) == (
        "scorekeeper", [(match_id, None)])
    assert phone.get(f"/matches/{match_id}/state").json()["viewer"] == "judge"
    assert phone.get(f"/matches/{other}/state").json()["viewer"] == "spectator"
    error(phone.get(f"/matches/{match_id}/turn"), 422, "bad_request", "seat_required")
    for _ in range(4):  # whichever seat is to act, from the one device
        seat = client.get(f"/matches/{match_id}").json()["to_act"][0]
        turn = phone.get(f"/matches/{match_id}/turn", params={"seat": seat}).json()
        done = phone.post(f"/matches/{match_id}/actions", headers=PAGE, json={
            "action": turn["actions"][0]["action"], "expected_version": turn["version"]})
        assert done.status_code == 201, done.text
    recorded = [e["recorded_by"]["role"] for e in client.get(
        f"/matches/{match_id}/events").json() if e["event"] == "ActionRecorded"]
    assert recorded == ["scorekeeper"] * 4
    before = len(client.get(f"/matches/{match_id}/events").json())
    error(phone.post(f"/matches/{match_id}/undo", headers=PAGE,
                     json={"count": 1, "reason": "oops"}), 403, "forbidden", "judges_only")
    error(phone.post(f"/matches/{match_id}/actions", headers=PAGE, json={"action": {
        "type": "adjust", "seat": 1, "reason": "card effect", "turn": {"turn": 3}}}), 403,
        "forbidden", "judges_only")
    error(phone.get(f"/matches/{match_id}/adjustable"), 403, "forbidden", "judges_only")
    error(phone.post(f"/matches/{other}/actions", headers=PAGE, json={"action": {
        "type": "concede", "seat": 1}}), 403, "forbidden", "not_your_seat")
    assert len(client.get(f"/matches/{match_id}/events").json()) == before
    # it reads its match as a judge does, no more: what only staff read (the audit of what
    # lies beside the match, what an adjustment may touch) it does not
    paths = [p for p in _match_reads(server) if not p.endswith(("/audit", "/adjustable"))]
    assert _reads(phone, paths, match_id) == _reads(client, paths, match_id)
    audit = client.get(f"/matches/{match_id}/audit").json()
    del audit["beside"]
    assert phone.get(f"/matches/{match_id}/audit").json() == audit
