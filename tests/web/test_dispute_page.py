"""A dispute heard from the page, in Debian's Chromium against a real server: a seat calls a
judge about the action that led to a position, a judge takes it pausing the match, reads the
evidence and backs the match up; the seat appeals; the head judge (an organiser, outside a
tournament) rules again with a game loss. Each step is checked against the API."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Locator

from tests.replay.conftest import Server
from tests.web.conftest import Watched
from tests.web.test_notes_and_live import _page, _seat_token
from tests.web.test_viewer import _board_at, _new_match, _sign_in

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _played(web: Server, actions: int) -> tuple[dict[str, Any], str]:
    """A new match with ``actions`` ends of turn recorded, and its id."""
    created = _new_match(web, ["Pia", "Quin"])
    match_id = created["match_id"]
    with web.client(web.organiser_token) as organiser:
        for _ in range(actions):
            seat = organiser.get(f"/matches/{match_id}").json()["to_act"][0]
            done = organiser.post(f"/matches/{match_id}/actions",
                                  json={"action": {"type": "end_turn", "seat": seat}})
            assert done.status_code == 201, done.text
    return created, match_id


def _dispute(web: Server, match_id: str) -> dict[str, Any]:
    with web.client(web.organiser_token) as organiser:
        return dict(organiser.get(f"/matches/{match_id}/disputes").json()[0])


def test_a_dispute_from_the_call_through_a_backup_and_an_appeal(
        web: Server, browser: Browser, watched: Watched) -> None:
    created, match_id = _played(web, 3)
    seat_one = _seat_token(created, 1)
    page = watched.page  # seat 1 calls a judge about the action that led to position 3
    page.goto(f"{web.base}/watch/{match_id}#at=3")
    _board_at(watched, 3)
    _sign_in(watched, seat_one)
    page.wait_for_selector("#disputes:not([hidden])")
    assert page.is_hidden("#dispute-pause")  # a seat does not pause a match
    page.fill("#dispute-claim", "that turn ended before I could stun")
    page.check("#dispute-concerns")
    page.click("#dispute-open")
    page.wait_for_selector("#dispute-list li[data-status='open']")
    version = int(page.get_attribute("#entries li[data-position='3']", "data-version") or 0)
    assert _dispute(web, match_id)["concerns"] == [version]
    assert f"about event v{version}" in page.inner_text("#dispute-list")

    with _page(browser) as judge:
        judge.page.goto(f"{web.base}/watch/{match_id}#at=3")
        _board_at(judge, 3)
        _sign_in(judge, web.organiser_token)
        item = judge.page.locator("#dispute-list li[data-status='open']")
        item.wait_for()
        item.locator("input[data-pause]").check()
        item.locator("button.take").click()
        judge.page.wait_for_selector("#dispute-message:has-text('paused')")
        assert _dispute(web, match_id)["pausing"]
        # the pause is an event of the match: the timeline shows it
        judge.page.wait_for_selector("#entries li.note:has-text('match paused by dispute')")
        with web.client() as anyone:
            to_act = anyone.get(f"/matches/{match_id}").json()["to_act"][0]
        with web.client(_seat_token(created, to_act)) as seat:  # the seats wait for the ruling
            refused = seat.post(f"/matches/{match_id}/actions",
                                json={"action": {"type": "end_turn", "seat": to_act}})
        assert refused.status_code == 409 and refused.json()["code"] == "match_paused"
        with web.client(web.organiser_token) as organiser:
            other = organiser.post("/credentials", json={"role": "judge", "name": "Other"}).json()
        with _page(browser) as second:  # a judge who did not take it: no form to rule
            second.page.goto(f"{web.base}/watch/{match_id}#at=3")
            _board_at(second, 3)
            _sign_in(second, other["token"])
            second.page.wait_for_selector("#dispute-list li[data-status='open']")
            assert second.page.locator("#dispute-list form.rule-form").count() == 0
            assert second.page.locator("#dispute-list button.take").count() == 0
            second.assert_clean()
        judge.page.click("#dispute-list details[data-evidence] summary")
        judge.page.wait_for_selector("#dispute-list .evidence-body:has-text('verified')")
        assert f"v{version}" in judge.page.inner_text("#dispute-list .evidence-body")
        form = _ruling(judge, "back up", "the turn was ended by mistake", "backup")
        assert form.locator("input[name='to_position']").is_visible()
        assert form.locator("select[name='seat']").is_hidden()
        form.locator("input[name='to_position']").fill("2")
        form.locator("button.rule").click()
        judge.page.wait_for_selector("#dispute-list li[data-status='ruled']")
        judge.page.wait_for_selector("#entries li.undone")  # the voided action, struck through
        judge.page.wait_for_selector("#entries li.note:has-text('no longer pauses the match')")
        with web.client() as anyone:
            assert anyone.get(f"/matches/{match_id}").json()["positions"] == 2
        judge.assert_clean()

    page.goto(f"{web.base}/watch/{match_id}#at=2")  # the seat appeals
    page.reload()
    _board_at(watched, 2)
    appeal = page.locator("#dispute-list form.appeal-form")
    appeal.wait_for()
    appeal.locator("input[name='reason']").fill("the backup went too far")
    appeal.locator("button").click()
    page.wait_for_selector("#dispute-list li[data-status='appealed']")
    assert "the backup went too far" in page.inner_text("#dispute-list")

    with _page(browser) as head:  # the head judge rules again: a game loss for seat 2
        head.page.goto(f"{web.base}/watch/{match_id}")
        _sign_in(head, web.organiser_token)
        form = _ruling(head, "game loss", "seat 2 ended the turn on purpose", "game_loss")
        assert "On appeal" in form.inner_text()
        form.locator("select[name='seat']").select_option("2")
        form.locator("button.rule").click()
        head.page.wait_for_selector("#dispute-list li[data-status='final']")
        assert "on appeal" in head.page.inner_text("#dispute-list")
        head.assert_clean()
    with web.client() as anyone:
        result = anyone.get(f"/matches/{match_id}").json()["result"]
    assert result and result["losers"] == [2]
    watched.assert_clean()


def test_a_bad_remedy_is_explained_and_nothing_is_ruled(web: Server, watched: Watched) -> None:
    _, match_id = _played(web, 1)
    with web.client(web.organiser_token) as organiser:
        opened = organiser.post(f"/matches/{match_id}/disputes", json={"claim": "check"}).json()
        organiser.post(f"/disputes/{opened['dispute_id']}/take", json={"pause": False})
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}")
    _sign_in(watched, web.organiser_token)
    form = _ruling(watched, "adjust", "fix the count", "adjustment")
    form.locator("textarea[name='action']").fill("not json")
    form.locator("button.rule").click()
    page.wait_for_selector("#dispute-message:has-text('the action must be JSON')")
    form.locator("textarea[name='action']").fill('{"type": "no_such_thing"}')
    form.locator("button.rule").click()
    page.wait_for_selector("#dispute-message:has-text('Not ruled (4')")
    assert _dispute(web, match_id)["status"] == "open"
    assert all("4" in e for e in watched.errors)  # the browser logs the refused request


def test_a_half_typed_ruling_survives_the_match_moving_on(web: Server, watched: Watched) -> None:
    """The dispute list is drawn again whenever the match changes (here a seat's action, the
    match not paused): what the judge was typing stays, remedy fields included."""
    created, match_id = _played(web, 2)
    with web.client(_seat_token(created, 1)) as seat:
        called = seat.post(f"/matches/{match_id}/disputes",
                           json={"claim": "a wrong draw", "position": 2}).json()
    with web.client(web.organiser_token) as organiser:
        taken = organiser.post(f"/disputes/{called['dispute_id']}/take", json={"pause": False})
        assert taken.status_code == 200, taken.text
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}")
    _board_at(watched, 2)
    _sign_in(watched, web.organiser_token)
    page.check("#follow")
    form = _ruling(watched, "warning", "the draw was announced late", "game_loss")
    form.locator("select[name='seat']").select_option("2")
    form.evaluate("node => { node.dataset.drawn = 'before'; }")

    to_act = _to_act(web, match_id)
    with web.client(_seat_token(created, to_act)) as seat:
        done = seat.post(f"/matches/{match_id}/actions",
                         json={"action": {"type": "end_turn", "seat": to_act}})
        assert done.status_code == 201, done.text
    page.wait_for_selector("#dispute-list form.rule-form:not([data-drawn])")  # drawn again
    assert form.locator("input[name='decision']").input_value() == "warning"
    assert form.locator("textarea[name='reasoning']").input_value() == (
        "the draw was announced late")
    assert form.locator("select[name='remedy']").input_value() == "game_loss"
    assert form.locator("select[name='seat']").is_visible()
    assert form.locator("select[name='seat']").input_value() == "2"
    assert form.locator("input[name='to_position']").is_hidden()
    watched.assert_clean()


def _ruling(watched: Watched, decision: str, reasoning: str, remedy: str) -> Locator:
    """The signed-in judge's rule form, its decision, reasoning and remedy filled in."""
    form = watched.page.locator("#dispute-list form.rule-form")
    form.wait_for()
    form.locator("input[name='decision']").fill(decision)
    form.locator("textarea[name='reasoning']").fill(reasoning)
    form.locator("select[name='remedy']").select_option(remedy)
    return form


def _to_act(web: Server, match_id: str) -> int:
    """The seat the match waits on."""
    with web.client() as anyone:
        return int(anyone.get(f"/matches/{match_id}").json()["to_act"][0])
