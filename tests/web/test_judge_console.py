"""The judge's console in Chromium (issue 40): a seat's call reaches the judge's open calls
live, the judge takes it and rules from there; on a match's console the judge acts for any
seat, undoes to a position with a reason, adjusts through a form built from the zone table (no
JSON), and pauses and resumes the match, with a banner on the seat's page."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser

from tests.replay.conftest import Server
from tests.web.conftest import Watched, guard
from tests.web.test_play_page import _actions, _events, _version
from tests.web.test_signin_page import PHONE, SHOTS


@pytest.fixture
def table(browser: Browser, web: Server) -> Iterator[tuple[str, Watched, Watched]]:
    """A new match, its seat 2 on a phone signed in by its link, and a judge's page signed in
    with the organiser's token."""
    with httpx.Client(base_url=web.base, timeout=30,
                      headers={"authorization": f"Bearer {web.organiser_token}"}) as organiser:
        made = organiser.post("/matches", json={
            "players": ["Aiko", "Ben"], "decks": ["solar_vanguard", "pleiades_bloom"],
            "options": {"first_player": 1}})
        match_id = made.json()["match_id"]
        link = organiser.post(f"/matches/{match_id}/links", json={"seats": [2]}).json()[0]
    phone = browser.new_context(**PHONE)
    desk = browser.new_context(viewport={"width": 1024, "height": 900})
    try:
        ben, judge = guard(phone), guard(desk)
        ben.page.goto(link["link"])
        ben.page.wait_for_selector("body[data-version]")
        judge.page.goto(f"{web.base}/judge")
        judge.page.fill("#token", web.organiser_token)
        judge.page.click("#sign-in")
        judge.page.wait_for_selector("text=Signed in as organiser")
        yield match_id, ben, judge
    finally:
        phone.close()
        desk.close()


def test_a_seats_call_reaches_the_judge_live_and_is_ruled_there(
        table: tuple[str, Watched, Watched], web: Server) -> None:
    match_id, ben, judge = table
    ben.page.click("#judge summary")
    ben.page.fill("#claim", "Aiko played out of turn")
    ben.page.click("#call-form button[type=submit]")
    judge.page.wait_for_selector("#notice:not([hidden])", timeout=15_000)
    assert "Aiko played out of turn" in judge.page.inner_text("#notice")
    call = judge.page.locator("li", has_text="Aiko played out of turn")
    call.locator("button.take-pause").click()
    judge.page.wait_for_selector("text=the match is paused")
    ben.page.wait_for_selector("#banner:not([hidden])", timeout=15_000)
    judge.page.screenshot(path=str(SHOTS / "judge-calls.png"))
    call = judge.page.locator("li", has_text="Aiko played out of turn")
    call.locator("summary", has_text="Rule").click()
    call.locator("input[name=decision]").fill("out of turn")
    call.locator("input[name=reasoning]").fill("Aiko played in Ben's turn")
    call.locator("select[name=remedy]").select_option(label="a warning to Aiko (seat 1)")
    call.locator("button", has_text="Rule").click()
    judge.page.wait_for_selector("text=No open calls.")
    ben.page.wait_for_selector("#banner[hidden]", state="attached", timeout=15_000)
    with httpx.Client(base_url=web.base, timeout=30, headers={
            "authorization": f"Bearer {web.organiser_token}"}) as organiser:
        ruled = organiser.get(f"/matches/{match_id}/disputes").json()[0]
    assert ruled["rulings"][0]["remedy"] == {"kind": "penalty", "penalty": "warning",
                                             "seat": 1}  # the accused seat, not the caller


def test_a_judge_acts_undoes_adjusts_and_pauses_from_the_match_console(
        table: tuple[str, Watched, Watched], web: Server) -> None:
    match_id, ben, judge = table
    page = judge.page
    page.goto(f"{web.base}/play/{match_id}")
    page.wait_for_selector("#console:not([hidden])")
    page.wait_for_selector("#seat-tabs button[aria-pressed=true]")
    for _ in range(3):  # for whichever seat is to act
        before = _version(page)
        to_act = page.inner_text("#status")
        if "to act: you act for them" not in to_act:
            page.locator("#seat-tabs button[aria-pressed=false]").first.click()
            page.wait_for_selector("#actions button.act")
        page.locator("#actions button.act").first.click()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert len(_actions(web, match_id)) == 3

    page.click("#undo-panel summary")
    page.fill("#undo-to", "1")
    page.fill("#undo-reason", "a misclick at the table")
    page.click("#undo-form button[type=submit]")
    page.wait_for_selector("text=Undone back to position 1.")
    undone = [e for e in _events(web, match_id) if e.get("event") == "ActionsUndone"]
    assert len(undone) == 1 and undone[0]["reason"] == "a misclick at the table"

    page.click("#adjust-panel summary")
    page.select_option("#adjust-kind", "move")
    hand = page.locator("#move-from option", has_text="seat 1 hand").first.get_attribute("value")
    page.select_option("#move-from", str(hand))
    card = page.locator("#move-card option").first
    name = card.inner_text()
    to = page.locator("#move-to option", has_text="seat 1 discard")
    if not to.count():
        to = page.locator("#move-to option", has_text="seat 1").last
    page.select_option("#move-to", str(to.first.get_attribute("value")))
    page.fill("#adjust-reason", "card effect: discard a card")
    page.click("#adjust-form button[type=submit]")
    page.wait_for_selector("text=Adjustment recorded.")
    adjust = _actions(web, match_id)[-1]
    assert adjust["type"] == "adjust" and adjust["reason"] == "card effect: discard a card"
    assert adjust["move"]["card"] and name
    page.screenshot(path=str(SHOTS / "judge-console.png"), full_page=True)

    page.click("#pause-panel summary")
    page.fill("#pause-reason", "deck check")
    page.click("#pause")
    page.wait_for_selector("#banner:not([hidden])")
    ben.page.wait_for_selector("#banner:not([hidden])", timeout=15_000)
    replay = ben.context.new_page()  # every page of the match says so, the replay's too
    replay.goto(f"{web.base}/watch/{match_id}")
    replay.wait_for_selector("#paused-banner:not([hidden])", timeout=15_000)
    page.click("#resume")
    page.wait_for_selector("text=The match is resumed.")
    ben.page.wait_for_selector("#banner[hidden]", state="attached", timeout=15_000)
    replay.check("#follow")
    replay.wait_for_selector("#paused-banner[hidden]", state="attached", timeout=15_000)
    judge.assert_clean()
