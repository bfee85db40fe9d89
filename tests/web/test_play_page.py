"""A seat's page in Chromium (issue 40): two phones signed in from their slips record a match
by tapping its actions in words, a tap on a position that moved on records nothing, a double tap
records once, a concession asks first, and a paused match shows its banner."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.replay.conftest import Server
from tests.web.conftest import Watched, guard
from tests.web.test_signin_page import PHONE, SHOTS

PAGE = {"x-kiroku-page": "1"}


@pytest.fixture
def phones(browser: Browser, web: Server) -> Iterator[tuple[str, Watched, Watched]]:
    """A new World Gainer match, and a phone signed in by each seat's link."""
    with httpx.Client(base_url=web.base, timeout=30,
                      headers={"authorization": f"Bearer {web.organiser_token}"}) as organiser:
        made = organiser.post("/matches", json={
            "players": ["Aiko", "Ben"], "decks": ["solar_vanguard", "pleiades_bloom"],
            "options": {"first_player": 1}})
        match_id = made.json()["match_id"]
        links = organiser.post(f"/matches/{match_id}/links").json()
    contexts = [browser.new_context(**PHONE) for _ in links]
    try:
        pages = [guard(context) for context in contexts]
        for watched, link in zip(pages, links):
            watched.page.goto(link["link"])
            watched.page.wait_for_url(f"**/play/{match_id}")
            watched.page.wait_for_selector("body[data-version]")
        yield match_id, pages[0], pages[1]
    finally:
        for context in contexts:
            context.close()


def _events(web: Server, match_id: str) -> list[dict[str, object]]:
    with httpx.Client(base_url=web.base, timeout=30, headers={
            "authorization": f"Bearer {web.organiser_token}"}) as judge:
        return list(judge.get(f"/matches/{match_id}/events").json())


def _actions(web: Server, match_id: str) -> list[dict[str, object]]:
    return [e["action"] for e in _events(web, match_id)  # type: ignore[misc]
            if e.get("event") == "ActionRecorded"]


def _version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def _tap_first(page: Page) -> None:
    before = _version(page)
    page.locator("#actions button.act").first.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


def test_two_phones_record_a_match_by_tapping_its_actions(
        phones: tuple[str, Watched, Watched], web: Server) -> None:
    match_id, aiko, ben = phones
    assert aiko.page.inner_text("#status").startswith("Your turn: Aiko (seat 1)")
    assert ben.page.inner_text("#status").startswith("Waiting for Aiko (seat 1)")
    assert ben.page.locator("#actions button.act").count() == 0
    actions_box = aiko.page.locator("#actions").bounding_box()
    assert actions_box and actions_box["y"] < 844, "the seat's actions are above the fold"
    aiko.page.screenshot(path=str(SHOTS / "play-phone.png"))

    tapped = []
    for _ in range(10):
        with httpx.Client(base_url=web.base, timeout=30, headers={
                "authorization": f"Bearer {web.organiser_token}"}) as judge:
            summary = judge.get(f"/matches/{match_id}").json()
        mover = aiko if summary["to_act"] == [1] else ben
        mover.page.wait_for_selector(f"body[data-version='{summary['version']}']")
        sentence = mover.page.locator("#actions button.act").first.inner_text()
        _tap_first(mover.page)
        tapped.append(sentence)
    recorded = _actions(web, match_id)
    assert len(recorded) == 10
    assert all(sentence for sentence in tapped)
    aiko.assert_clean()
    ben.assert_clean()


def test_a_double_tap_records_once_and_a_stale_tap_records_nothing(
        phones: tuple[str, Watched, Watched], web: Server) -> None:
    match_id, aiko, _ = phones
    button = aiko.page.locator("#actions button.act").first
    before = _version(aiko.page)
    button.dblclick()
    aiko.page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    aiko.page.wait_for_timeout(500)
    assert len(_actions(web, match_id)) == 1

    # the page shows a position (its live stream cut: it does not hear of what follows);
    # another device records first; the tap made on the old position records nothing
    aiko.page.route("**/live", lambda route: route.abort())
    aiko.page.reload()
    aiko.page.wait_for_selector("#actions button.act")
    with httpx.Client(base_url=web.base, timeout=30, headers={
            "authorization": f"Bearer {web.organiser_token}"}) as judge:
        turn = judge.get(f"/matches/{match_id}/turn", params={"seat": 1}).json()
        assert judge.post(f"/matches/{match_id}/actions", json={
            "action": turn["actions"][-1]["action"]}).status_code == 201
    count = len(_actions(web, match_id))
    aiko.page.locator("#actions button.act").first.click()
    aiko.page.wait_for_selector("text=The match moved on before your tap arrived")
    assert len(_actions(web, match_id)) == count


def test_a_concession_asks_first(phones: tuple[str, Watched, Watched], web: Server) -> None:
    match_id, _, ben = phones
    ben.page.click("#concede")
    ben.page.wait_for_selector("#concede-confirm:not([hidden])")
    ben.page.click("#concede-no")
    assert _actions(web, match_id) == []
    ben.page.click("#concede")
    ben.page.click("#concede-yes")
    ben.page.wait_for_selector("text=The match is over: won by Aiko (seat 1)")
    assert _actions(web, match_id) == [{"type": "concede", "seat": 2}]


def test_a_seat_calls_a_judge_and_a_pause_shows_a_banner(
        phones: tuple[str, Watched, Watched], web: Server) -> None:
    match_id, aiko, ben = phones
    ben.page.click("#judge summary")
    ben.page.fill("#claim", "My opponent drew two cards")
    ben.page.click("#call-form button[type=submit]")
    ben.page.wait_for_selector("text=A judge has been called.")
    with httpx.Client(base_url=web.base, timeout=30, headers={
            "authorization": f"Bearer {web.organiser_token}"}) as judge:
        disputes = judge.get(f"/matches/{match_id}/disputes").json()
        assert [d["claim"] for d in disputes] == ["My opponent drew two cards"]
        taken = judge.post(f"/disputes/{disputes[0]['dispute_id']}/take", json={"pause": True})
        assert taken.status_code == 200, taken.text
    aiko.page.wait_for_selector("#banner:not([hidden])")
    assert "Paused" in aiko.page.inner_text("#banner")


def test_a_best_of_three_goes_on_from_the_seats_page(browser: Browser, web: Server) -> None:
    """Two phones signed in from a best-of-three table's slips: when game 1 ends, the loser's
    page offers game 2 and opens it as the same seat; the winner's page then leads there; after
    game 2 both pages say who won the match 2-0."""
    with httpx.Client(base_url=web.base, timeout=30,
                      headers={"authorization": f"Bearer {web.organiser_token}"}) as organiser:
        made = organiser.post("/tournaments", json={
            "name": "Seat Page Bo3", "game": "worldgainer", "best_of": 3,
            "options": {"first_player": 1}})
        url = f"/tournaments/{made.json()['tournament_id']}"
        for name, deck in (("Aiko", "solar_vanguard"), ("Ben", "pleiades_bloom")):
            player = organiser.post(f"{url}/players", json={"name": name}).json()
            decks = {d["name"]: d["cards"] for d in organiser.get(
                "/games/worldgainer/decks").json()}
            assert organiser.put(f"{url}/players/{player['player_id']}/decklist",
                                 json={"deck": decks[deck]}).status_code == 200
        paired = organiser.post(f"{url}/rounds", json={"tables": [
            {"table": 1, "players": ["Aiko", "Ben"]}]}).json()
        game_one = paired["tables"][0]["match_id"]
        links = organiser.post(f"{url}/rounds/1/links").json()
    contexts = [browser.new_context(**PHONE) for _ in links]
    try:
        aiko, ben = (guard(context).page for context in contexts)
        for page, link in zip((aiko, ben), sorted(links, key=lambda s: s["seat"])):
            page.goto(link["link"])
            page.wait_for_url(f"**/play/{game_one}")
            page.wait_for_selector("body[data-version]")
        ben.click("#concede")
        ben.click("#concede-yes")
        ben.wait_for_selector("#next-game")
        assert ben.inner_text("#series").startswith("Best of 3: 1-0.")
        assert ben.inner_text("#status").startswith("Game 1 is over: won by Aiko")
        SHOTS.mkdir(parents=True, exist_ok=True)
        ben.screenshot(path=str(SHOTS / "play-next-game.png"))
        ben.click("#next-game")
        ben.wait_for_url(lambda u: "/play/" in u and game_one not in u)
        ben.wait_for_selector("body[data-version]")
        game_two = ben.url.rsplit("/", 1)[1]
        assert ben.evaluate("document.body.dataset.seat") == "2"
        aiko.wait_for_selector("#next-game-link")  # Aiko's page of game 1 leads to game 2
        aiko.click("#next-game-link")
        aiko.wait_for_url(f"**/play/{game_two}")
        aiko.wait_for_selector("body[data-version]")
        assert aiko.evaluate("document.body.dataset.seat") == "1"
        ben.click("#concede")
        ben.click("#concede-yes")
        for page in (aiko, ben):
            page.wait_for_selector("#series >> text=Aiko won the match 2-0.")
    finally:
        for context in contexts:
            context.close()
