"""Variations made and played from the page, in Debian's Chromium against a real server: a judge
starts one at a position, plays the actions the page offers (GET /variations/{id}/legal), takes
one back, branches a nested one inside it and finds both in the tree; a seat of a live match
is told it may not branch; only the line's author or a judge lists its actions."""

from __future__ import annotations

from typing import Any

import pytest

from tests.replay.conftest import Server
from tests.web.conftest import Watched
from tests.web.test_notes_and_live import _seat_token
from tests.web.test_viewer import _board_at, _new_match, _sign_in

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _lines(web: Server, match_id: str) -> list[dict[str, Any]]:
    with web.client(web.organiser_token) as judge:
        return list(judge.get(f"/matches/{match_id}/variations").json())


def _open_signed_in(web: Server, watched: Watched, names: list[str],
                    token: Any = None) -> tuple[dict[str, Any], str]:
    """A new match watched at position 0, signed in with ``token(created)`` (default: the
    organiser's), the branching form shown; returns the created match and its id."""
    created = _new_match(web, names)
    match_id = created["match_id"]
    watched.page.goto(f"{web.base}/watch/{match_id}#at=0")
    _board_at(watched, 0)
    _sign_in(watched, token(created) if token else web.organiser_token)
    watched.page.wait_for_selector("#line-start:not([hidden])")
    return created, match_id


def _play_first(watched: Watched, length: int) -> None:
    page = watched.page
    page.locator("#play-list button").first.click()
    page.wait_for_selector(f"#board[data-position='{length}'][data-line]")


def test_a_judge_starts_plays_takes_back_and_nests_a_variation(web: Server,
                                                               watched: Watched) -> None:
    _, match_id = _open_signed_in(web, watched, ["Ria", "Sol"])
    page = watched.page
    assert "position 0" in page.inner_text("#line-start-where")
    page.fill("#line-name", "what if")
    page.select_option("#line-visibility", "public")
    page.click("#line-begin")
    page.wait_for_selector("#play:not([hidden]) #play-list button")
    (line,) = _lines(web, match_id)
    assert line["name"] == "what if" and line["from_position"] == 0
    with web.client(web.organiser_token) as judge:
        offered = judge.get(f"/variations/{line['variation_id']}/legal").json()
    assert page.locator("#play-list button").count() == len(offered)
    assert page.inner_text("#play-list button >> nth=0") == offered[0]["text"]
    _play_first(watched, 1)
    _play_first(watched, 2)
    assert len(_lines(web, match_id)[0]["line"]) == 2
    page.click("#take-back")
    page.wait_for_selector("#board[data-position='1'][data-line]")
    assert len(_lines(web, match_id)[0]["line"]) == 1
    page.fill("#line-name", "inside it")
    page.click("#line-begin")
    page.wait_for_selector("#line-tree .line-children li[data-variation]")
    nested = next(v for v in _lines(web, match_id) if v["name"] == "inside it")
    assert nested["parent"] == line["variation_id"] and nested["parent_position"] == 1
    # the tree lists the new line before the page has moved onto it: wait for the move
    page.wait_for_selector(f"#line-tree li.current[data-variation='{nested['variation_id']}']")
    assert page.get_attribute("#line-tree li.current", "data-variation") == nested["variation_id"]
    page.click("#main-line")  # back to the parent, at the position it branched from
    page.wait_for_selector(f"#line-tree li.current[data-variation='{line['variation_id']}']")
    assert page.get_attribute("#board", "data-line") == line["variation_id"]
    watched.assert_clean()


def test_a_seat_of_a_live_match_is_told_it_may_not_branch(web: Server,
                                                           watched: Watched) -> None:
    _, match_id = _open_signed_in(web, watched, ["Tam", "Uma"],
                                  lambda created: _seat_token(created, 1))
    page = watched.page
    page.fill("#line-name", "my idea")
    page.click("#line-begin")
    page.wait_for_selector("#line-message:has-text('Not started (403)')")
    assert _lines(web, match_id) == []
    assert all("403" in e for e in watched.errors)  # the browser logs the refused request


def test_only_the_author_or_a_judge_lists_a_line_s_actions(web: Server) -> None:
    created = _new_match(web, ["Vic", "Wes"])
    match_id = created["match_id"]
    with web.client(web.organiser_token) as judge:
        line = judge.post(f"/matches/{match_id}/variations", json={
            "name": "judge's line", "position": 0, "visibility": "public"}).json()
        url = f"/variations/{line['variation_id']}/legal"
        assert judge.get(url, params={"seat": 2}).status_code == 200
        assert judge.get(url, params={"seat": 9}).json()["code"] == "variation_refused"
    with web.client(_seat_token(created, 1)) as seat, web.client() as anyone:
        # a line is played by its author or a judge: a seat lists no action of the judge's
        assert seat.get(url, params={"seat": 1}).json()["reason"] == "not_the_author"
        assert anyone.get(url).status_code == 401
