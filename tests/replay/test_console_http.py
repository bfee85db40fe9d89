"""What a seat's page and the judge's console read, over a real server (issue 40): a seat's
turn (its actions in words, the choices behind them, the names of the cards they offer), the
open calls across matches, and what an adjustment may touch, from which a judge's adjustment
is built and recorded."""

from __future__ import annotations

from typing import Any

import httpx

from replay.api.shapes import Adjustable, OpenCall, TurnOut
from tests.replay.conftest import Server
from tests.replay.test_roles_http import error


def _match(client: httpx.Client) -> dict[str, Any]:
    made = client.post("/matches", json={"players": ["Aiko", "Ben"],
                                         "decks": ["solar_vanguard", "pleiades_bloom"],
                                         "options": {"first_player": 1}})
    assert made.status_code == 201, made.text
    return dict(made.json())


def test_a_seat_reads_its_turn_in_words_with_the_choices_behind_it(
        client: httpx.Client, server: Server) -> None:
    made = _match(client)
    match_id, tokens = made["match_id"], {s["seat"]: s["token"] for s in made["seats"]}
    turn = TurnOut.model_validate(server.client(tokens[1]).get(
        f"/matches/{match_id}/turn").json())
    assert (turn.seat, turn.to_act, turn.paused, turn.result) == (1, [1], False, None)
    assert turn.actions and all(a.text and a.action["seat"] == 1 for a in turn.actions)
    legal = server.client(tokens[1]).get(f"/matches/{match_id}/legal").json()
    assert [a.action for a in turn.actions] == legal
    offered = {o for c in turn.choices for o in c.options if isinstance(o, str)}
    assert set(turn.names) <= offered  # (World Gainer offers slots and stuns, no card ids)
    waiting = TurnOut.model_validate(server.client(tokens[2]).get(
        f"/matches/{match_id}/turn").json())
    assert (waiting.seat, waiting.actions) == (2, [])
    error(server.client(tokens[2]).get(f"/matches/{match_id}/turn", params={"seat": 1}), 403,
          "forbidden", "not_your_seat")
    error(server.client().get(f"/matches/{match_id}/turn"), 401, "unauthenticated")
    assert client.get(f"/matches/{match_id}/turn", params={"seat": 1}).json()[
        "actions"] == turn.model_dump()["actions"]


def test_a_tap_sent_again_after_a_lost_answer_records_once(
        client: httpx.Client, server: Server) -> None:
    made = _match(client)
    match_id, token = made["match_id"], made["seats"][0]["token"]
    seat = server.client(token)
    turn = seat.get(f"/matches/{match_id}/turn").json()
    body = {"action": turn["actions"][0]["action"], "expected_version": turn["version"]}
    first = seat.post(f"/matches/{match_id}/actions", json=body)
    again = seat.post(f"/matches/{match_id}/actions", json=body)
    assert (first.status_code, again.status_code) == (201, 200), again.text
    assert again.json()["version"] == first.json()["version"]
    assert again.json()["digest"] == first.json()["digest"]
    assert client.get(f"/matches/{match_id}").json()["version"] == first.json()["version"]
    error(client.post(f"/matches/{match_id}/actions", json=body), 409, "concurrent_append")


def test_a_judge_adjusts_from_what_the_match_says_may_be_touched(
        client: httpx.Client, server: Server) -> None:
    made = _match(client)
    match_id, token = made["match_id"], made["seats"][0]["token"]
    error(server.client(token).get(f"/matches/{match_id}/adjustable"), 403, "forbidden",
          "judges_only")
    error(server.client().get(f"/matches/{match_id}/adjustable"), 403, "forbidden",
          "judges_only")
    shown = Adjustable.model_validate(client.get(f"/matches/{match_id}/adjustable").json())
    hand = next(p for p in shown.places if p.zone == "hand" and p.seat == 1)
    assert len(hand.cards) == 7 and all(c.name != c.id for c in hand.cards)
    target = next(p for p in shown.places if p.seat == 1 and p.zone != "hand"
                  and p.zone != "deck" and not p.cards)
    assert shown.counters and {c.seat for c in shown.counters} <= {None, 1, 2}
    moved = client.post(f"/matches/{match_id}/actions", json={"action": {
        "type": "adjust", "seat": 1, "reason": "card effect",
        "move": {"card": hand.cards[0].id, "from_zone": hand.ref, "to_zone": target.ref,
                 "from_seat": 1, "to_seat": 1}}})
    assert moved.status_code == 201, moved.text
    after = Adjustable.model_validate(client.get(f"/matches/{match_id}/adjustable").json())
    assert hand.cards[0].id in [c.id for p in after.places if p.ref == target.ref
                                and p.seat == 1 for c in p.cards]


def test_the_open_calls_list_each_seats_call_until_it_is_ruled(
        client: httpx.Client, server: Server) -> None:
    made = _match(client)
    match_id, token = made["match_id"], made["seats"][1]["token"]
    called = server.client(token).post(f"/matches/{match_id}/disputes",
                                       json={"claim": "The draw was two cards"})
    assert called.status_code == 201, called.text
    calls = [OpenCall.model_validate(c) for c in client.get("/disputes").json()]
    mine = [c for c in calls if c.match_id == match_id]
    assert [(c.claim, c.players, c.opened_by["seat"]) for c in mine] == [
        ("The draw was two cards", ["Aiko", "Ben"], 2)]
    error(server.client(token).get("/disputes"), 403, "forbidden", "judges_only")
    error(server.client().get("/disputes"), 401, "unauthenticated")
    ruled = client.post(f"/disputes/{mine[0].dispute_id}/rule", json={
        "decision": "no change", "reasoning": "one card was drawn", "remedy": {"kind": "none"}})
    assert ruled.status_code == 200, ruled.text
    assert match_id not in [c["match_id"] for c in client.get("/disputes").json()]
