"""The viewer's third slice in Debian's Chromium against a real server: what a step forward
changed (moved cards marked, changed scalars listed), a match's variations as branches of the
timeline (opened, stepped, left, shared by link), and disputes called, taken and ruled from
the page. No page may ask another host for anything."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.replay.conftest import Server
from tests.web.conftest import Watched
from tests.web.test_notes_and_live import _page, _seat_token
from tests.web.test_viewer import _board_at, _match_of, _new_match, _positions, _sign_in

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _places(value: Any, path: tuple[str, ...] = ()) -> Counter[tuple[str, tuple[str, ...]]]:
    """Each card (by id) with the keys of the boxes it lies in (a seat's part by its seat)."""
    found: Counter[tuple[str, tuple[str, ...]]] = Counter()
    if isinstance(value, dict):
        card = value.get("id", value.get("card"))
        if isinstance(value.get("name"), str) and isinstance(card, str):
            found[(card, path)] += 1
            return found
        for key, inner in value.items():
            if key != "options":
                found += _places(inner, (*path, key))
    elif isinstance(value, list):
        for item in value:
            seat = item.get("seat") if isinstance(item, dict) else None
            found += _places(item, (*path[:-1], f"seat {seat}") if isinstance(seat, int) else path)
    return found


def _moved(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    was, now = _places(before), _places(after)
    return {card for (card, path), n in now.items() if n > was.get((card, path), 0)}


def _steps(web: Server, match_id: str) -> tuple[int, set[str], int, Any, Any]:
    """The first step k -> k + 1 that moves a card (with the cards it moved), and the first
    step j -> j + 1 that starts a new turn (with both turns)."""
    last = _positions(web, match_id)
    with web.client() as anonymous:
        states = [anonymous.get(f"/matches/{match_id}/state", params={"at": k}).json()["state"]
                  for k in range(min(last, 30) + 1)]
    moving = next(k for k in range(len(states) - 1) if _moved(states[k], states[k + 1]))
    turning = next(k for k in range(1, len(states) - 1)
                   if states[k]["turn"] != states[k + 1]["turn"])
    return (moving, _moved(states[moving], states[moving + 1]), turning,
            states[turning]["turn"], states[turning + 1]["turn"])


def test_a_step_forward_marks_moved_cards_and_lists_the_turn_change(
        web: Server, watched: Watched) -> None:
    match_id = _match_of(web, "worldgainer")["match_id"]
    k, moved, j, turn, next_turn = _steps(web, match_id)
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}#at={k}")
    _board_at(watched, k)
    assert page.locator("#board-body .chip.changed").count() == 0
    assert page.locator("#changes").count() == 0
    page.keyboard.press("ArrowRight")
    _board_at(watched, k + 1)
    marked = page.eval_on_selector_all(
        "#board-body .chip.changed[data-changed]", "nodes => nodes.map(n => n.dataset.card)")
    assert marked and set(marked) <= moved, (marked, moved)
    page.keyboard.press("ArrowLeft")  # backwards: no marks
    _board_at(watched, k)
    assert page.locator("#board-body .chip.changed").count() == 0
    assert page.locator("#changes").count() == 0
    page.locator(f"#entries li[data-position='{j}'] button").click()  # a jump: no marks
    _board_at(watched, j)
    assert page.locator("#board-body .chip.changed").count() == 0
    assert page.locator("#changes").count() == 0
    page.click("#next")
    _board_at(watched, j + 1)
    assert f"turn {turn} → {next_turn}" in page.inner_text("#changes")
    page.keyboard.press("End")  # a jump: no marks
    _board_at(watched, _positions(web, match_id))
    assert page.locator("#board-body .chip.changed").count() == 0
    assert page.locator("#changes").count() == 0
    watched.assert_clean()


def _variation(web: Server) -> tuple[str, str, str]:
    """A live match with one action on its main line, and the organiser's public variation
    of two actions branching at position 1: (match id, variation id, a seat's token)."""
    created = _new_match(web, ["Cy", "Di"])
    match_id = created["match_id"]
    seat = created["to_act"][0]
    token = _seat_token(created, seat)
    with web.client(web.organiser_token) as judge, web.client(token) as player:
        legal = judge.get(f"/matches/{match_id}/legal", params={"seat": seat}).json()
        recorded = player.post(f"/matches/{match_id}/actions", json={"action": legal[0]})
        assert recorded.status_code == 201, recorded.text
        seat = judge.get(f"/matches/{match_id}").json()["to_act"][0]  # whoever acts next
        legal = judge.get(f"/matches/{match_id}/legal", params={"seat": seat}).json()
        started = judge.post(f"/matches/{match_id}/variations", json={
            "name": "what if", "position": 1, "visibility": "public"})
        assert started.status_code == 201, started.text
        vid = started.json()["variation_id"]
        added = judge.post(f"/variations/{vid}/actions", json={"action": legal[0]})
        assert added.status_code == 201, added.text
        then = judge.get(f"/variations/{vid}").json()["to_act"][0]
        added = judge.post(f"/variations/{vid}/actions",
                           json={"action": {"seat": then, "type": "end_turn"}})
        assert added.status_code == 201, added.text
    return match_id, vid, token


def _in_line(watched: Watched, vid: str, at: int) -> None:
    watched.page.wait_for_selector(f"#board[data-line='{vid}'][data-position='{at}']",
                                   timeout=20_000)
    watched.page.wait_for_selector(f"#entries li.current[data-line='{vid}']", timeout=20_000)


def test_a_judge_opens_a_variation_as_a_branch_steps_it_and_returns(
        web: Server, browser: Browser, watched: Watched) -> None:
    match_id, vid, seat_token = _variation(web)
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}#at=0")
    _board_at(watched, 0)
    _sign_in(watched, web.organiser_token)
    branch = page.locator(f"#entries li.branch[data-line='{vid}']")
    branch.wait_for()
    assert "⎇ what if · 2 actions" in branch.inner_text()
    # the branch follows the entry of the position it starts from
    assert page.locator(f"#entries li[data-position='1'] + li[data-line='{vid}']").count() == 1
    branch.locator("button").click()
    _in_line(watched, vid, 0)
    assert "Variation what if, 0 of 2, from position 1" in page.inner_text("#board")
    assert "line=" + vid in page.url and "at=0" in page.url
    page.keyboard.press("ArrowRight")
    _in_line(watched, vid, 1)
    assert "Variation what if, 1 of 2, from position 1" in page.inner_text("#board")
    page.keyboard.press("ArrowRight")
    _in_line(watched, vid, 2)
    page.keyboard.press("ArrowRight")  # the line's end: nothing further
    page.wait_for_timeout(300)
    assert page.get_attribute("#board", "data-position") == "2"
    page.keyboard.press("ArrowLeft")
    _in_line(watched, vid, 1)
    link = page.url
    page.click("#main-line")
    _board_at(watched, 1)
    assert page.get_attribute("#board", "data-line") is None
    assert "line=" not in page.url
    assert page.is_hidden("#main-line")

    with _page(browser) as other:  # the link opens the variation (the same judge, another tab)
        other.page.goto(f"{web.base}/watch/{match_id}#at=0")
        _board_at(other, 0)
        _sign_in(other, web.organiser_token)
        other.page.locator(f"#entries li.branch[data-line='{vid}']").wait_for()
        other.page.goto(link)
        other.page.reload()
        _in_line(other, vid, 1)
        assert "Variation what if, 1 of 2" in other.page.inner_text("#board")
        other.assert_clean()

    with _page(browser) as seat:  # a seat of the live match may not read the judge's line
        seat.page.goto(f"{web.base}/watch/{match_id}#at=0")
        _board_at(seat, 0)
        _sign_in(seat, seat_token)
        seat.page.wait_for_selector("#note-form:not([hidden])")
        seat.page.wait_for_timeout(300)
        assert seat.page.locator("#entries li.branch").count() == 0
    watched.assert_clean()


def test_a_seat_calls_a_judge_the_organiser_rules_and_the_seat_reads_the_ruling(
        web: Server, browser: Browser, watched: Watched) -> None:
    created = _new_match(web, ["Ed", "Flo"])
    match_id = created["match_id"]
    page = watched.page  # seat 1
    page.goto(f"{web.base}/watch/{match_id}#at=0")
    _board_at(watched, 0)
    _sign_in(watched, _seat_token(created, 1))
    page.wait_for_selector("#disputes:not([hidden])")
    assert "No dispute" in page.inner_text("#dispute-list")
    page.fill("#dispute-claim", "my opponent looked at my hand")
    page.click("#dispute-open")
    page.wait_for_selector("#dispute-list li[data-status='open']")
    assert "my opponent looked at my hand" in page.inner_text("#dispute-list")
    page.wait_for_selector("#entries li[data-position='0'][data-disputed] .dispute-mark")
    assert page.locator("#dispute-list button.take").count() == 0  # a seat cannot take it

    with _page(browser) as organiser:
        organiser.page.goto(f"{web.base}/watch/{match_id}#at=0")
        _board_at(organiser, 0)
        _sign_in(organiser, web.organiser_token)
        item = organiser.page.locator("#dispute-list li[data-status='open']")
        item.wait_for()
        assert "my opponent looked at my hand" in item.inner_text()
        assert "called by Ed (seat 1)" in item.inner_text()
        item.locator("button.take").click()
        form = organiser.page.locator("#dispute-list form.rule-form")
        form.wait_for()
        form.locator("input[name='decision']").fill("warning")
        form.locator("textarea[name='reasoning']").fill("looking at a hand is not allowed")
        form.locator("select[name='remedy']").select_option("warning")
        form.locator("select[name='seat']").select_option("1")
        form.locator("button.rule").click()
        organiser.page.wait_for_selector("#dispute-list li[data-status='ruled']")
        ruled = organiser.page.inner_text("#dispute-list")
        assert "warning for seat 1" in ruled and "looking at a hand" in ruled
        assert "Ruled." in organiser.page.inner_text("#dispute-message")
        organiser.assert_clean()

    page.reload()
    _board_at(watched, 0)
    page.wait_for_selector("#dispute-list li[data-status='ruled']")
    shown = page.inner_text("#dispute-list")
    assert "warning" in shown and "warning for seat 1" in shown and "looking at a hand" in shown
    watched.assert_clean()


def test_a_refused_dispute_is_a_message_and_a_spectator_has_no_dispute_panel(
        web: Server, browser: Browser, watched: Watched) -> None:
    created = _new_match(web, ["Gus", "Hal"])
    match_id = created["match_id"]
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}#at=0")
    _board_at(watched, 0)
    page.wait_for_timeout(300)
    assert page.is_hidden("#disputes")  # a spectator
    _sign_in(watched, _seat_token(created, 2))
    page.wait_for_selector("#disputes:not([hidden])")
    page.evaluate("document.querySelector('#dispute-claim').removeAttribute('required')")
    page.click("#dispute-open")  # an empty claim: the API answers 422
    page.wait_for_selector("#dispute-message:has-text('No judge called (422)')")
    assert all("422" in e for e in watched.errors)
    watched.errors.clear()
    page.click("#sign-out")
    page.wait_for_selector("#disputes[hidden]", state="attached")
    watched.assert_clean()
