"""Variations over a real server (issue 13): a judge branches and plays a line on a live match
while seats and spectators are refused or see nothing; errors with their bodies; nothing
stored by a refusal."""

from __future__ import annotations

import httpx

from replay.api.shapes import VariationOut, VariationRead
from tests.replay.conftest import Server
from tests.replay.test_roles_http import _match, error


def test_variations_of_a_live_match_are_the_judges(server: Server,
                                                   client: httpx.Client) -> None:
    judge_token = client.post("/credentials", json={"role": "judge", "name": "Judge Jun"}
                              ).json()["token"]
    made = _match(client)
    match_id = made["match_id"]
    with server.client(judge_token) as judge, server.client(made["seats"][0]["token"]) as ann, \
            server.client() as anonymous:
        started = judge.post(f"/matches/{match_id}/variations",
                             json={"name": "what if Ann passes", "position": 0,
                                   "visibility": "public"})
        assert started.status_code == 201, started.text
        url = f"/variations/{started.json()['variation_id']}"
        VariationOut.model_validate(started.json())
        played = judge.post(f"{url}/actions", json={"action": {"type": "end_turn", "seat": 1}})
        VariationOut.model_validate(played.json())
        assert played.status_code == 201 and len(played.json()["line"]) == 1, played.text
        error(judge.post(f"{url}/actions", json={"action": {"type": "end_turn", "seat": 1}}),
              422, "illegal_action")
        error(judge.post(f"{url}/actions", json={"action": {"type": "end_turn", "seat": 2},
                                                 "extra": 1}), 422, "malformed_request")
        shown = VariationRead.model_validate(judge.get(url, params={"at": 1}).json()
                                             ).model_dump()
        assert shown["position"] == 1 and shown["to_act"] == [2]
        assert len(judge.get(url).json()["line"]) == 1
        error(ann.post(f"/matches/{match_id}/variations", json={"name": "mine"}), 403,
              "forbidden", "variation_needs_hidden_information")
        error(anonymous.post(f"/matches/{match_id}/variations", json={"name": "x"}), 401,
              "unauthenticated")
        for outsider in (ann, anonymous):
            assert outsider.get(f"/matches/{match_id}/variations").json() == []
            error(outsider.get(url), 403, "forbidden", "variation_not_readable")
        error(ann.post(f"{url}/actions", json={"action": {"type": "end_turn", "seat": 2}}),
              403, "forbidden", "not_the_author")
        back = judge.post(f"{url}/take-back", json={"count": 1})
        assert back.status_code == 200 and back.json()["line"] == []
        error(judge.post(f"{url}/take-back", json={"count": 1}), 422, "variation_refused")
        error(judge.get("/variations/00000000-0000-0000-0000-000000000000"), 404,
              "variation_not_found")
        assert client.get(f"/matches/{match_id}").json()["version"] == 1
