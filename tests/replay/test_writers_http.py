"""Who may write beside a match, over a real server: its seats, its judges and organisers, and
commentators (public annotations and studies, at the positions they may watch); nobody else,
by every route that writes annotations (the annotation itself, a study's import, a variation
of a match open to all)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.replay.conftest import Server


@pytest.fixture(scope="module")
def people(server: Server, client: httpx.Client) -> Iterator[dict[str, Any]]:
    """A delayed live match with its seats, another match's seat, a tournament player, a
    commentator and the organiser."""
    def match(**options: Any) -> dict[str, Any]:
        made = client.post("/matches", json={"game": "worldgainer", "players": ["Ann", "Ben"],
                                             "decks": ["solar_vanguard", "pleiades_bloom"],
                                             "options": {"first_player": 1, **options}})
        assert made.status_code == 201, made.text
        return made.json()

    live = match(spectators="delayed", spectator_delay=2)
    other = match()
    tournament = client.post("/tournaments", json={"name": "Writers Cup",
                                                   "game": "worldgainer"}).json()
    player = client.post(f"/tournaments/{tournament['tournament_id']}/players",
                         json={"name": "Cy"}).json()
    caster = client.post("/credentials", json={"role": "commentator", "name": "Caster"})
    assert caster.status_code == 201, caster.text
    seat = {s["seat"]: s["token"] for s in live["seats"]}
    with server.client(seat[1]) as s1, server.client(seat[2]) as s2:
        for n in range(4):
            mover = s1 if n % 2 == 0 else s2
            assert mover.post(f"/matches/{live['match_id']}/actions", json={
                "action": {"type": "end_turn", "seat": 1 + n % 2}}).status_code == 201
    yield {"match": live["match_id"], "seat1": seat[1], "seat2": seat[2],
           "other seat": other["seats"][0]["token"], "player": player["token"],
           "commentator": caster.json()["token"], "organiser": server.organiser_token}


def _annotate(server: Server, token: str | None, match: str, **body: Any) -> httpx.Response:
    with server.client(token) as c:
        return c.post(f"/matches/{match}/annotations",
                      json={"text": "a note", "visibility": "public", **body})


def _study(server: Server, token: str | None, match: str, visibility: str = "public",
           at: int = 0) -> httpx.Response:
    note = f'{{"text": "from a study", "visibility": "{visibility}"}}'
    text = f'[Kiroku "study/1"]\n[Match "{match}"]\n\n{at}. setup\n  ; {note}\n'
    with server.client(token) as c:
        return c.post("/studies/import", content=text.encode(),
                      headers={"content-type": "text/plain"})


@pytest.mark.parametrize("who", ["seat1", "seat2", "organiser", "commentator"])
def test_the_matchs_seats_staff_and_commentators_write_beside_it(
        server: Server, people: dict[str, Any], who: str) -> None:
    made = _annotate(server, people[who], people["match"], position=1)
    assert made.status_code == 201, made.text
    assert made.json()["author"]["role"] == {"seat1": "seat", "seat2": "seat"}.get(who, who)
    assert _study(server, people[who], people["match"]).status_code == 201


@pytest.mark.parametrize("who", ["player", "other seat"])
def test_nobody_else_writes_beside_it_by_any_route(server: Server, people: dict[str, Any],
                                                    who: str) -> None:
    for answer in (_annotate(server, people[who], people["match"]),
                   _study(server, people[who], people["match"])):
        assert answer.status_code == 403, answer.text
        assert answer.json()["reason"] == "not_your_match"
    with server.client(server.organiser_token) as organiser:
        notes = organiser.get(f"/matches/{people['match']}/annotations").json()
    assert not [n for n in notes if n["author"]["role"] in ("player",)]


def test_without_a_credential_nobody_writes(server: Server, people: dict[str, Any]) -> None:
    assert _annotate(server, None, people["match"]).status_code == 401
    assert _study(server, None, people["match"]).status_code == 401


def test_a_commentator_writes_only_public_annotations(server: Server,
                                                      people: dict[str, Any]) -> None:
    for visibility in ("private", "team", "judges"):
        answer = _annotate(server, people["commentator"], people["match"],
                           visibility=visibility, position=0)
        assert answer.status_code == 403, answer.text
        assert answer.json()["reason"] == "commentators_write_public"
        assert _study(server, people["commentator"], people["match"],
                      visibility).status_code == 403


def test_a_commentator_writes_only_where_it_may_watch_and_is_told_no_more(
        server: Server, people: dict[str, Any]) -> None:
    """Under a delay of 2, four positions in: a commentator sees positions 0 to 2, annotates
    them, and is refused position 3 with the positions it may see, not the match's."""
    assert _annotate(server, people["commentator"], people["match"],
                     position=2).status_code == 201
    past = _annotate(server, people["commentator"], people["match"], position=3)
    assert past.status_code == 422, past.text
    assert past.json()["message"] == "The match has positions 0 to 2."
    latest = _annotate(server, people["commentator"], people["match"])
    assert latest.json()["position"] == 2  # its latest position is its horizon's
