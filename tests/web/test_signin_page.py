"""The seat hand-off in Chromium (issue 40): a judge issues a match's slips from the slips page,
a phone opens a slip's link and lands on its match signed in as its seat (the code gone from the
address, the session in a cookie no script can read, kept after the tab closes), and the spent
link signs no second phone in."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from ledger.catalog import sample_decks
from tests.replay.conftest import Server
from tests.web.conftest import Watched, guard

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
SHOTS = Path(os.environ.get("KIROKU_SHOTS", "/tmp/kiroku-shots"))


@pytest.fixture
def phone(browser: Browser) -> Iterator[Watched]:
    """A phone-sized page of its own (its own cookies)."""
    context = browser.new_context(**PHONE)
    try:
        yield guard(context)
    finally:
        context.close()


def _new_match(web: Server) -> str:
    with httpx.Client(base_url=web.base, timeout=30,
                      headers={"authorization": f"Bearer {web.organiser_token}"}) as organiser:
        made = organiser.post("/matches", json={
            "players": ["Aiko", "Ben"], "decks": ["solar_vanguard", "pleiades_bloom"],
            "options": {"first_player": 1}})
        assert made.status_code == 201, made.text
        return str(made.json()["match_id"])


def _issue_slips(watched: Watched, web: Server, match_id: str) -> list[str]:
    """The judge's page: sign in with a token, issue the match's slips; their links."""
    return _slips(watched, web, f"match={match_id}", ["Aiko", "Ben"], "slips.png")


def _slips(watched: Watched, web: Server, query: str, players: list[str],
           shot: str) -> list[str]:
    """The slips page of ``query``: signed in with a token, the slips issued (one per player
    named, in order, each with its QR code drawn); their links."""
    page = watched.page
    page.goto(f"{web.base}/slips?{query}")
    page.fill("#token", web.organiser_token)
    page.click("#sign-in")
    page.wait_for_selector("#issue:not([hidden])")
    page.click("#issue")
    page.wait_for_selector(f".slip >> nth={len(players) - 1}")
    assert page.locator(".slip .player").all_inner_texts() == players
    page.wait_for_function("() => [...document.querySelectorAll('.slip img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / shot), full_page=True)
    return [str(a.get_attribute("href")) for a in page.locator(".slip .link a").all()]


def test_a_phone_signs_in_from_its_slip_and_stays_signed_in(
        watched: Watched, phone: Watched, browser: Browser, web: Server) -> None:
    match_id = _new_match(web)
    links = _issue_slips(watched, web, match_id)
    assert all("/sign-in#code=" in link for link in links)

    page = phone.page
    page.goto(links[0])
    page.wait_for_url(f"**/play/{match_id}")
    page.wait_for_selector("text=Signed in as Aiko")
    assert "#code" not in page.url and links[0].split("#code=")[1] not in page.url
    assert "kiroku_session" not in page.evaluate("document.cookie"), "no script reads it"
    assert page.evaluate("JSON.stringify(sessionStorage) + JSON.stringify(localStorage)") \
        == "{}{}"
    page.screenshot(path=str(SHOTS / "phone-signed-in.png"))

    page.close()  # the tab closes; the phone opens the match again later
    again = phone.context.new_page()
    again.goto(f"{web.base}/watch/{match_id}")
    again.wait_for_selector("text=Signed in as Aiko (seat, seat 1")

    other = browser.new_context(**PHONE)
    try:
        second = guard(other)
        second.page.goto(links[0])
        second.page.wait_for_selector("text=This link did not sign you in")
        assert "used already" in second.page.inner_text("#message")
        assert "#code" not in second.page.url
        assert second.external == []  # (its console notes the refused 401)
    finally:
        other.close()
    watched.assert_clean()


def test_issuing_new_slips_makes_the_printed_ones_worthless(
        watched: Watched, phone: Watched, web: Server) -> None:
    match_id = _new_match(web)
    old = _issue_slips(watched, web, match_id)
    watched.page.click("#issue")
    watched.page.wait_for_function(
        "old => document.querySelector('.slip .link a').href !== old", arg=old[0])
    phone.page.goto(old[1])
    phone.page.wait_for_selector("text=This link did not sign you in")
    assert "not valid" in phone.page.inner_text("#message")


def test_a_spectator_cannot_issue_slips(phone: Watched, web: Server) -> None:
    match_id = _new_match(web)
    phone.page.goto(f"{web.base}/slips?match={match_id}")
    phone.page.wait_for_selector("text=Sign in as a judge to issue slips")
    assert phone.page.is_hidden("#issue")
    phone.assert_clean()


def test_a_round_s_slips_are_printed_and_a_table_signs_in_from_one(
        watched: Watched, phone: Watched, web: Server) -> None:
    """The organiser prints a whole round's slips (/slips?tournament=ID&round=N): one per seat
    of every table, with the event, round, table and player; a slip's link signs its phone in
    to that table's match as its seat."""
    with httpx.Client(base_url=web.base, timeout=30, headers={
            "authorization": f"Bearer {web.organiser_token}"}) as organiser:
        made = organiser.post("/tournaments", json={"name": "Slip Cup", "game": "worldgainer",
                                                    "options": {"first_player": 1}})
        assert made.status_code == 201, made.text
        tournament_id = made.json()["tournament_id"]
        names = ["Ann", "Ben", "Cho", "Dai"]
        for name, deck in zip(names, ["solar_vanguard", "pleiades_bloom"] * 2):
            player = organiser.post(f"/tournaments/{tournament_id}/players",
                                    json={"name": name}).json()["player_id"]
            sent = organiser.put(f"/tournaments/{tournament_id}/players/{player}/decklist",
                                 json={"deck": dict(sample_decks("worldgainer")[deck].cards)})
            assert sent.status_code == 200, sent.text
        paired = organiser.post(f"/tournaments/{tournament_id}/rounds", json={"tables": [
            {"table": 3, "players": ["Ann", "Ben"]}, {"table": 4, "players": ["Cho", "Dai"]}]})
        assert paired.status_code == 201, paired.text
        matches = {t["table"]: t["match_id"] for t in paired.json()["tables"]}
    links = _slips(watched, web, f"tournament={tournament_id[:8]}&round=1", names,
                   "round-slips.png")
    assert watched.page.locator(".slip h3").all_inner_texts() == [
        "Slip Cup · round 1 · table 3"] * 2 + ["Slip Cup · round 1 · table 4"] * 2
    phone.page.goto(links[3])  # Dai, seat 2 of table 4
    phone.page.wait_for_url(f"**/play/{matches[4]}")
    phone.page.wait_for_selector("text=Signed in as Dai")
    phone.page.wait_for_selector("body[data-seat='2']")
    watched.assert_clean()
