"""A judge's view of one event's calls in Chromium (issue 42, /judge?tournament=ID): a seat's call
appears on the phone of a judge of the event without a reload, under its round with its table
and players, newest first; the judge takes and rules it there. An appealed ruling reaches the
head judge's view, not the floor judge's; a judge who is not on the event's staff is told so."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from ledger.catalog import sample_decks
from tests.replay.conftest import Server
from tests.web.conftest import Watched, guard
from tests.web.test_signin_page import PHONE, SHOTS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@dataclass
class Event:
    """A paired round 1 (Ann-Ben at table 1, Cho-Dai at table 2), its floor judge's, head
    judge's and an outsider judge's tokens, and table 2's match."""

    tournament_id: str
    floor: str
    head: str
    outsider: str
    match_id: str


def _judge(organiser: Any, name: str) -> dict[str, Any]:
    made = organiser.post("/credentials", json={"role": "judge", "name": name})
    assert made.status_code == 201, made.text
    return dict(made.json())


@pytest.fixture
def event(web: Server) -> Event:
    decks = sample_decks("worldgainer")
    with web.client(web.organiser_token) as organiser:
        floor, head, outsider = (_judge(organiser, n) for n in ("Flo Floor", "Hana Head", "Oz Out"))
        made = organiser.post("/tournaments", json={
            "name": "Calls Cup", "game": "worldgainer", "options": {"first_player": 1},
            "judges": [floor["credential_id"]], "head_judge": head["credential_id"]})
        assert made.status_code == 201, made.text
        url = f"/tournaments/{made.json()['tournament_id']}"
        lists = ["solar_vanguard", "pleiades_bloom"] * 2
        for name, deck in zip(["Ann", "Ben", "Cho", "Dai"], lists):
            player = organiser.post(f"{url}/players", json={"name": name}).json()["player_id"]
            sent = organiser.put(f"{url}/players/{player}/decklist",
                                 json={"deck": dict(decks[deck].cards)})
            assert sent.status_code == 200, sent.text
        paired = organiser.post(f"{url}/rounds", json={"tables": [
            {"table": 1, "players": ["Ann", "Ben"]}, {"table": 2, "players": ["Cho", "Dai"]}]})
        assert paired.status_code == 201, paired.text
        second = next(t for t in paired.json()["tables"] if t["table"] == 2)["match_id"]
    return Event(made.json()["tournament_id"], floor["token"], head["token"],
                 outsider["token"], second)


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[Watched]]:
    """Three phones, each with its own cookies."""
    contexts = [browser.new_context(**PHONE) for _ in range(3)]
    try:
        yield [guard(c) for c in contexts]
    finally:
        for context in contexts:
            context.close()


def _calls(page: Page, web: Server, event: Event, token: str) -> None:
    """The event's calls, signed in with ``token`` from the page's form."""
    page.goto(f"{web.base}/judge?tournament={event.tournament_id}")
    page.fill("#token", token)
    page.click("#sign-in")
    page.wait_for_selector("#heading:has-text('Calls of Calls Cup')")


def test_a_seats_call_reaches_the_event_s_judge_live_and_the_appeal_its_head_judge(
        phones: list[Watched], web: Server, event: Event) -> None:
    judge, seat, head = phones
    _calls(judge.page, web, event, event.floor)
    judge.page.wait_for_selector("text=No open calls.")

    with web.client(web.organiser_token) as organiser:
        link = organiser.post(f"/matches/{event.match_id}/links", json={"seats": [2]}).json()[0]
    seat.page.goto(link["link"])  # Dai, seat 2 of table 2, calls a judge from the table
    seat.page.wait_for_selector("body[data-version]")
    seat.page.click("#judge summary")
    seat.page.fill("#claim", "Cho drew two cards")
    seat.page.click("#call-form button[type=submit]")

    call = judge.page.locator("section[data-round='1'] li[data-dispute]",
                              has_text="Cho drew two cards")
    call.wait_for(timeout=15_000)  # no reload: the page asks again every few seconds
    assert "Table 2: Cho vs Dai" in call.inner_text()
    assert "Cho drew two cards" in judge.page.inner_text("#notice")
    assert judge.page.locator("section[data-round='1'] h3").inner_text() == "Round 1"
    SHOTS.mkdir(parents=True, exist_ok=True)
    judge.page.screenshot(path=str(SHOTS / "event-calls.png"))
    assert call.locator("a", has_text="Open the match's console").get_attribute("href") \
        == f"/play/{event.match_id}"

    call.locator("button.take").click()
    judge.page.wait_for_selector("li[data-dispute]:has-text('taken by Flo Floor')")
    call.locator("summary", has_text="Rule").click()
    call.locator("input[name=decision]").fill("no infraction")
    call.locator("input[name=reasoning]").fill("Cho drew one card and looked at one")
    call.locator("button", has_text="Rule").click()
    judge.page.wait_for_selector("text=No open calls.")

    with web.client(event.floor) as floor:  # the ruling is appealed to the head judge
        dispute = floor.get(f"/tournaments/{event.tournament_id}/disputes").json()[0]
        appealed = floor.post(f"/disputes/{dispute['dispute_id']}/appeal",
                              json={"reason": "Dai says Cho kept both"})
        assert appealed.status_code == 200, appealed.text
    _calls(head.page, web, event, event.head)
    item = head.page.locator("li[data-status='appealed']", has_text="Cho drew two cards")
    item.wait_for()
    assert "Dai says Cho kept both" in item.inner_text()
    assert item.locator("button.take").count() == 0
    judge.page.wait_for_timeout(4000)  # a poll later the floor judge still has none
    assert judge.page.locator("li[data-dispute]").count() == 0
    judge.assert_clean()
    head.assert_clean()


def test_a_judge_off_the_event_s_staff_is_told_so(phones: list[Watched], web: Server,
                                                 event: Event) -> None:
    page = phones[0].page
    _calls(page, web, event, event.outsider)
    page.wait_for_selector("#message:has-text('judges')")
    assert "this tournament's judges" in page.inner_text("#message")
    assert page.locator("li[data-dispute]").count() == 0
