"""A long match on a phone (issue 40): the timeline scrolls in a box of its own, so the page
stays a few screens tall whatever the match's length, and the position shown is in view."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from replay.service import Kiroku
from tests.replay.conftest import Server
from tests.web.conftest import guard
from tests.web.test_signin_page import PHONE, SHOTS


@pytest.fixture
def long_match(web: Server) -> Iterator[tuple[str, int]]:
    """A simulated two-player Illuminati match of some 1,500 actions in the viewer's store."""
    kiroku = Kiroku.open(web.db_url)
    try:
        match_id = kiroku.simulate("illuminati", 1, seed=11, players=2)[0]
        positions = kiroku.summary(kiroku.seen_by(match_id))["positions"]
    finally:
        kiroku.close()
    yield str(match_id), positions


def test_a_long_matchs_page_stays_a_few_screens_tall_on_a_phone(
        browser: Browser, web: Server, long_match: tuple[str, int]) -> None:
    match_id, positions = long_match
    assert positions >= 1000, positions
    context = browser.new_context(**PHONE)
    try:
        phone = guard(context)
        page = phone.page
        middle = positions // 2
        page.goto(f"{web.base}/watch/{match_id}#at={middle}")
        page.wait_for_selector(f"#entries li.current[data-position='{middle}']", timeout=30_000)
        box = page.locator(".timeline").bounding_box()
        current = page.locator("#entries li.current").bounding_box()
        assert box and current
        assert box["height"] <= 0.72 * 844, "the timeline scrolls in a box of its own"
        height = page.evaluate("document.documentElement.scrollHeight")
        entries = page.evaluate("document.getElementById('entries').scrollHeight")
        assert entries > 20 * height / 10 and height < 12 * 844, (
            f"the page is {height} px tall; its timeline alone would be {entries} px")
        assert box["y"] <= current["y"] and current["y"] + current["height"] <= box["y"] + \
            box["height"] + 1, "the position shown is in the timeline's view"
        page.screenshot(path=str(SHOTS / "long-match-phone.png"))
        phone.assert_clean()
    finally:
        context.close()
