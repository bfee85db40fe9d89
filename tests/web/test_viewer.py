"""The web replay viewer in a real browser (Debian's Chromium through Playwright) against a
real server: every game's board, stepping by keys, what a seat's credential shows, following a
live match, the offline /docs and the match list. No page may ask another host for anything."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from engine.registry import get_game
from tests.replay.conftest import Server
from tests.web.conftest import Watched, golden_matches

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _match_of(server: Server, game: str) -> dict[str, Any]:
    with server.client() as anonymous:
        found = anonymous.get("/matches", params={"game": game}).json()
    assert found, f"no {game} match"
    return dict(found[0])


def _positions(server: Server, match_id: str) -> int:
    with server.client() as anonymous:
        return int(anonymous.get(f"/matches/{match_id}/state").json()["positions"])


def _board_at(watched: Watched, position: int) -> None:
    """Wait for the board at ``position`` and the timeline marking it."""
    watched.page.wait_for_selector(f"#board[data-position='{position}']", timeout=20_000)
    watched.page.wait_for_selector(f"#entries li.current[data-position='{position}']",
                                   timeout=20_000)


def _board_says(watched: Watched, text: str) -> None:
    watched.page.wait_for_function(
        "text => document.querySelector('#board-body').innerText.includes(text)", arg=text)


def _new_match(server: Server, players: list[str]) -> dict[str, Any]:
    with server.client(server.organiser_token) as organiser:
        answer = organiser.post("/matches", json={
            "game": "worldgainer", "players": players,
            "decks": ["solar_vanguard", "pleiades_bloom"]})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def _sign_in(watched: Watched, token: str) -> None:
    watched.page.fill("#token", token)
    watched.page.click("#sign-in")


@pytest.mark.parametrize("game", sorted(golden_matches()))
def test_every_game_s_board_renders_at_the_start_the_middle_and_the_end(
        web: Server, watched: Watched, game: str) -> None:
    match = _match_of(web, game)
    last = _positions(web, match["match_id"])
    title = get_game(game).title
    for position in (0, last // 2, last):
        watched.page.goto(f"{web.base}/watch/{match['match_id']}#at={position}")
        _board_at(watched, position)
        assert title in watched.page.inner_text("#board-heading")
        assert f"Position {position} of {last}" in watched.page.inner_text("#board")
        assert watched.page.get_attribute("#board", "aria-live") == "polite"
        assert watched.page.locator("#entries li").count() > position
        assert watched.page.locator("#entries li.current").count() == 1
    watched.assert_clean()


def test_keys_step_through_positions_and_the_hash_follows(web: Server, watched: Watched) -> None:
    match = _match_of(web, "worldgainer")
    last = _positions(web, match["match_id"])
    page = watched.page
    page.goto(f"{web.base}/watch/{match['match_id'][:8]}#at=5")  # a prefix names the match
    _board_at(watched, 5)
    for key, position in (("ArrowRight", 6), ("ArrowRight", 7), ("ArrowLeft", 6),
                          ("End", last), ("Home", 0)):
        page.keyboard.press(key)
        _board_at(watched, position)
        page.wait_for_function(f"() => window.location.hash === '#at={position}'")
    page.keyboard.press("ArrowDown")  # the next turn's start
    page.wait_for_function("() => document.querySelector('#board').dataset.position !== '0'")
    turn_start = int(page.get_attribute("#board", "data-position") or 0)
    with web.client() as anonymous:
        turns = [anonymous.get(f"/matches/{match['match_id']}/state",
                               params={"at": p}).json()["state"]["turn"]
                 for p in (turn_start - 1, turn_start)]
    assert turns[0] < turns[1], "ArrowDown lands on the first position of a turn"
    page.click("#entries li[data-position='3'] button")  # a timeline entry
    _board_at(watched, 3)
    assert page.locator("#entries li.undone s").count() > 0  # this match has undone actions
    watched.assert_clean()


def test_jump_to_a_turn_lands_on_its_first_position(web: Server, watched: Watched) -> None:
    match = _match_of(web, "worldgainer")
    with web.client() as anonymous:
        turns = [anonymous.get(f"/matches/{match['match_id']}/state", params={"at": p})
                 .json()["state"]["turn"] for p in range(_positions(web, match["match_id"]) + 1)]
    wanted = turns[-1]
    first = turns.index(wanted)
    page = watched.page
    page.goto(f"{web.base}/watch/{match['match_id']}#at=0")
    _board_at(watched, 0)
    page.fill("#turn-input", str(wanted))
    page.click("#turn-go")
    _board_at(watched, first)
    page.fill("#turn-input", str(wanted + 50))
    page.click("#turn-go")
    page.wait_for_selector(f"#message:has-text('Turn {wanted + 50} is not reached')")
    assert page.get_attribute("#board", "data-position") == str(first)
    watched.assert_clean()


def test_a_seat_does_not_see_the_other_seat_s_hand(web: Server, watched: Watched) -> None:
    created = _new_match(web, ["Sora", "Tomo"])
    match_id = created["match_id"]
    seat_one = next(s["token"] for s in created["seats"] if s["seat"] == 1)
    with web.client(web.organiser_token) as judge, web.client(seat_one) as seat:
        judge_seats = judge.get(f"/matches/{match_id}/state").json()["state"]["seats"]
        own_view = seat.get(f"/matches/{match_id}/state").json()
    other_hand = {card["name"] for card in judge_seats[1]["hand"]}
    own_text = str(own_view)
    hidden = {name for name in other_hand if name not in own_text}
    assert hidden, "the other seat holds cards seat 1 cannot know"

    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}")
    _board_at(watched, 0)
    _sign_in(watched, seat_one)
    page.wait_for_selector("text=Signed in as Sora")
    _board_says(watched, "Seen as seat:1")
    assert "token" not in page.url and seat_one not in page.url
    kept = page.evaluate("JSON.stringify([sessionStorage, localStorage, document.cookie])")
    assert seat_one not in kept, "the session cookie is HttpOnly: no script reads the token"
    shown = page.inner_text("body") + page.content()
    assert [name for name in hidden if name in shown] == []
    own_hand = {card["name"] for card in own_view["state"]["seats"][0]["hand"]}
    assert all(name in shown for name in own_hand), "the seat sees its own hand"
    assert page.is_hidden("#viewer-label"), "a seat gets no viewer choice"
    watched.assert_clean()


def test_a_judge_chooses_the_viewer_and_a_refusal_is_a_message(web: Server,
                                                               watched: Watched) -> None:
    created = _new_match(web, ["Uma", "Vic"])
    match_id = created["match_id"]
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}")
    _board_at(watched, 0)
    _sign_in(watched, web.organiser_token)
    page.wait_for_selector("#viewer-label:not([hidden])")
    page.select_option("#viewer", "seat:2")
    _board_says(watched, "Seen as seat:2")
    assert page.evaluate("window.location.hash") == "#at=0&as=seat:2"
    page.click("#sign-out")  # a spectator now; a link naming a position past the end
    page.wait_for_selector("text=Not signed in")  # (the session is ended by a request)
    page.goto(f"{web.base}/watch/{match_id}#at=99")
    page.wait_for_selector("#message:not(:empty)")
    assert "Position 99" in page.inner_text("#message")
    watched.external and pytest.fail(f"requests to other hosts: {watched.external}")


def test_following_a_live_match_moves_to_the_new_last_position(web: Server,
                                                               watched: Watched) -> None:
    created = _new_match(web, ["Wren", "Xia"])
    match_id = created["match_id"]
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}")
    _board_at(watched, 0)
    page.check("#follow")
    to_act = created["to_act"][0]
    with web.client(web.organiser_token) as organiser:
        answer = organiser.post(f"/matches/{match_id}/actions",
                                json={"action": {"type": "end_turn", "seat": to_act}})
    assert answer.status_code == 201, answer.text
    _board_at(watched, 1)
    assert page.evaluate("window.location.hash") == "#at=1"
    assert page.locator("#entries li[data-position='1']").count() == 1
    watched.assert_clean()


def test_docs_render_swagger_ui_from_this_server_only(web: Server, watched: Watched) -> None:
    page = watched.page
    page.goto(f"{web.base}/docs")
    page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
    assert page.locator(".swagger-ui .opblock").count() > 20
    assert "/matches/{match_id}/state" in page.inner_text("body")
    watched.assert_clean()
    schema = httpx.get(f"{web.base}/openapi.json").json()
    assert not {"/", "/watch/{match}", "/docs"} & set(schema["paths"])


def test_the_match_list_shows_matches_and_filters_by_player(web: Server,
                                                             watched: Watched) -> None:
    created = _new_match(web, ["Yuki Listed", "Zane"])
    page = watched.page
    page.goto(f"{web.base}/")
    page.wait_for_selector("#matches tbody tr")
    assert page.locator(f"tr[data-match='{created['match_id']}']").count() == 1
    assert page.locator("#matches tbody tr").count() > 1
    assert "World Gainer" in page.inner_text("#matches")
    page.fill("#player", "yuki list")
    page.click("#filters button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#matches tbody tr').length === 1")
    row = page.locator("#matches tbody tr")
    assert "Yuki Listed vs Zane" in row.inner_text() and "in progress" in row.inner_text()
    assert re.search(r"player=yuki", page.url)
    row.locator("a").click()
    _board_at(watched, 0)
    assert created["match_id"] in page.url
    page.goto(f"{web.base}/?player=nobody-at-all")
    page.wait_for_selector("text=No match matches these filters.")
    watched.assert_clean()
