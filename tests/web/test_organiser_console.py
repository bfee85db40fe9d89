"""The organiser's console in Chromium on a phone (issue 42): an organiser signs in with their
token, creates a tournament (a deadline in the past refused as a sentence), registers players
one by one and from a players file (each new player's sign-in slip shown once), pairs round 1
from the pairing program's file (a bad file refused as a sentence), opens the table slips,
watches a table start without reloading, enters a best-of-3 result, drops a player, downloads
the standings and finishes the tournament. Each step is checked against the API."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from ledger.catalog import sample_decks
from tests.replay.conftest import Server
from tests.web.conftest import Watched, guard
from tests.web.test_signin_page import PHONE, SHOTS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKYO = "Asia/Tokyo"  # the organiser's phone is in Tokyo: a deadline typed there is +09:00


@pytest.fixture
def organiser_phone(browser: Browser) -> Iterator[Watched]:
    """A phone of its own (its own cookies) in Tokyo's time zone."""
    context = browser.new_context(**PHONE, timezone_id=TOKYO)
    try:
        yield guard(context)
    finally:
        context.close()


def _api(web: Server) -> httpx.Client:
    return web.client(web.organiser_token)


def _judge(web: Server, name: str) -> dict[str, Any]:
    with _api(web) as organiser:
        made = organiser.post("/credentials", json={"role": "judge", "name": name})
        assert made.status_code == 201, made.text
        return dict(made.json())


def _sign_in(page: Page, web: Server, path: str) -> None:
    page.goto(f"{web.base}{path}")
    page.wait_for_selector("#signin:not([hidden])")
    page.fill("#organiser-token", web.organiser_token)
    page.press("#organiser-token", "Enter")


def assert_clean_but_refusals(watched: Watched) -> None:
    """No request to another host and no error in the page but the refusals the test asked
    for (the browser notes each 4xx answer in the console)."""
    assert watched.external == []
    others = [e for e in watched.errors if "the server responded with a status of 4" not in e]
    assert others == [], others


def _file(name: str, text: str) -> dict[str, Any]:
    return {"name": name, "mimeType": "text/csv", "buffer": text.encode()}


def _submit_lists(web: Server, tournament_id: str) -> None:
    """Every player submits a list (as their phones would: here the organiser enters them)."""
    decks = sample_decks("worldgainer")
    with _api(web) as organiser:
        players = organiser.get(f"/tournaments/{tournament_id}/players").json()
        for player, deck in zip(players, ["solar_vanguard", "pleiades_bloom"] * 4):
            sent = organiser.put(f"/tournaments/{tournament_id}/players/{player['player_id']}"
                                 "/decklist", json={"deck": dict(decks[deck].cards)})
            assert sent.status_code == 200, sent.text


def test_an_organiser_runs_a_tournament_day_from_a_phone(
        organiser_phone: Watched, web: Server) -> None:
    judge = _judge(web, "Jo Judge")
    page = organiser_phone.page
    _sign_in(page, web, "/events/new")
    page.wait_for_selector("#t-staff label:has-text('Jo Judge')")  # the judges to choose from

    page.fill("#t-name", "Tokyo Regional")
    page.select_option("#t-game", "worldgainer")
    page.select_option("#t-best-of", "3")
    page.select_option("#t-tiebreakers", "mtr")
    page.locator("#t-staff label", has_text="Jo Judge").locator("input").check()
    page.fill("#t-deadline", "2020-01-04T09:30")  # long past: refused, in words
    page.click("#create-submit")
    page.wait_for_selector("#create-refusal:not([hidden])")
    refusal = page.inner_text("#create-refusal")
    assert "deadline" in refusal.lower() and "{" not in refusal, refusal
    page.fill("#t-deadline", "2099-11-28T09:30")
    page.click("#create-submit")
    page.wait_for_url("**/events/*/console#players")
    tournament_id = page.url.split("/events/")[1].split("/")[0]
    with web.client() as anyone:
        made = anyone.get(f"/tournaments/{tournament_id}").json()
    assert made["name"] == "Tokyo Regional" and made["best_of"] == 3
    assert made["tiebreakers"] == "mtr"
    assert made["deadline"].startswith("2099-11-28T00:30:00")  # 09:30 in Tokyo is 00:30 UTC
    assert [j["id"] for j in made["judges"]] == [judge["credential_id"]]

    # players one by one: the name, the id, Enter; each one's sign-in slip shown once
    page.wait_for_selector("#panel-players:not([hidden])")
    for name, number in [("Ann", "1001"), ("Ben", "1002")]:
        page.fill("#p-name", name)
        page.fill("#p-external", number)
        page.press("#p-external", "Enter")
        page.wait_for_selector(f"#link-slips .slip:has-text('{name}') img")
    # a players file without a name column is refused, in words; then the real one
    page.set_input_files("#players-file", _file("players.csv", "Points,Deck\n3,x\n"))
    page.click("#register-file")
    page.wait_for_selector("#register-refusal:not([hidden])")
    assert "name" in page.inner_text("#register-refusal").lower()
    page.set_input_files("#players-file", _file(
        "players.csv", "First Name,Last Name,Player ID\nCho,Sato,1003\nDai,Ito,1004\n"))
    page.click("#register-file")
    page.wait_for_selector("#link-slips .slip:has-text('Dai Ito') img")
    page.wait_for_selector("#register-refusal[hidden]", state="attached")
    assert page.locator("#link-slips .slip").count() == 4
    links = [str(a.get_attribute("href")) for a in page.locator("#link-slips .slip a").all()]
    assert all("/sign-in#code=" in link for link in links)
    page.wait_for_selector("#players li >> nth=3")
    assert "4 players · 0 with a decklist" in page.inner_text("#players-summary")

    _submit_lists(web, tournament_id)  # the players' phones: the console sees the lists come in
    page.wait_for_selector("#players-summary:has-text('4 with a decklist')", timeout=15_000)

    # round 1 from the pairing program's file: a wrong player number is refused in words
    page.click("#tab-round")
    page.wait_for_selector("#pair-panel[open]")
    page.set_input_files("#pairings-file", _file("round1.csv",
                                                 "Table,Player 1,Player 2\n1,1001,9999\n"))
    page.click("#pair-submit")
    page.wait_for_selector("#pair-refusal:not([hidden])")
    assert "9999" in page.inner_text("#pair-refusal")
    page.set_input_files("#pairings-file", _file(
        "round1.csv", "Table,Player 1,Player 2\n1,1001,1002\n2,1003,1004\n"))
    page.click("#pair-submit")
    page.wait_for_selector("#tables .table-card >> nth=1")
    assert "Round 1: 2 tables" in page.inner_text("#round-summary")
    card = page.locator(".table-card[data-table='1']")
    assert "Ann" in card.inner_text() and "Ben" in card.inner_text()

    # the round sheet, and the table slips in a tab of their own (signed in by the session)
    page.click("#print-sheet")
    sheet = page.inner_text("#print-area")
    assert "Tokyo Regional: round 1 pairings" in sheet and "Cho Sato (1003)" in sheet
    with page.context.expect_page() as opened:
        page.click("#slips-link")
    slips = opened.value
    slips.wait_for_selector("#issue:not([hidden])")
    slips.click("#issue")
    slips.wait_for_selector(".slip >> nth=3")
    assert slips.locator(".slip .player").all_inner_texts() == ["Ann", "Ben", "Cho Sato",
                                                                "Dai Ito"]
    slips.close()

    # table 2 starts at the table: its card says so without a reload
    with _api(web) as organiser:
        round_one = organiser.get(f"/tournaments/{tournament_id}/rounds/1").json()
        second = next(t for t in round_one["tables"] if t["table"] == 2)["match_id"]
        seat = organiser.get(f"/matches/{second}").json()["to_act"][0]
        played = organiser.post(f"/matches/{second}/actions",
                                json={"action": {"type": "end_turn", "seat": seat}})
        assert played.status_code == 201, played.text
    page.wait_for_selector(".table-card[data-table='2'][data-status='in_progress']",
                           timeout=15_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "console.png"))

    # table 1's result from its slip: 2-1 to Ann, the winner following the games typed
    card = page.locator(".table-card[data-table='1']")
    card.locator("summary", has_text="Enter the result").click()
    card.locator("input[aria-label='Games won by Ann']").fill("2")
    card.locator("input[aria-label='Games won by Ben']").fill("1")
    assert card.locator("label.choice", has_text="Ann won").locator("input").is_checked()
    card.locator("input[name=reason]").fill("result slip")
    card.locator("button", has_text="Save the result").click()
    page.wait_for_selector(".table-card[data-table='1'][data-status='result']")
    assert "2–1" in page.inner_text(".table-card[data-table='1'] .score")
    with web.client() as anyone:
        table = anyone.get(f"/tournaments/{tournament_id}/rounds/1").json()["tables"][0]
    assert table["result"]["winners"][0]["name"] == "Ann"
    assert table["result"]["game_wins"] == [2, 1] and table["result"]["source"] == "judge"

    # Dai drops, with the reason
    page.click("#tab-players")
    dai = page.locator("#players li", has_text="Dai Ito")
    dai.locator("button.drop").click()
    dai.locator("input[name=reason]").fill("left the event")
    dai.locator("button", has_text="Drop Dai Ito").click()
    page.wait_for_selector("#players li.dropped:has-text('Dai Ito')")
    with web.client() as anyone:
        players = anyone.get(f"/tournaments/{tournament_id}/players").json()
    assert [p["name"] for p in players if p.get("dropped")] == ["Dai Ito"]

    # round 2 from the pairing program's file of every round so far: the round chosen in it
    page.click("#tab-round")
    page.click("#pair-panel summary")
    everything = ("Round,Table,Player,Opponent\n1,1,1001,1002\n1,2,1003,1004\n"
                  "2,1,1001,1003\n2,2,1002,BYE\n")
    page.set_input_files("#pairings-file", _file("all-rounds.csv", everything))
    page.fill("#pairings-round", "5")
    page.click("#pair-submit")
    page.wait_for_selector("#pair-refusal:not([hidden])")
    assert "the file holds rounds 1, 2; round 5 is not among them" in page.inner_text(
        "#pair-refusal")
    page.fill("#pairings-round", "2")
    page.click("#pair-submit")
    page.wait_for_selector("#round-summary:has-text('Round 2: 1 table')")
    assert page.inner_text("#byes") == "Bye: Ben (1002)"
    assert "Ann" in page.inner_text(".table-card[data-table='1']")
    assert "Cho Sato" in page.inner_text(".table-card[data-table='1']")

    # the standings for the pairing program, then the end of the day
    page.click("#tab-event")
    with page.expect_download() as downloaded:
        page.click("#standings-csv")
    rows = list(csv.DictReader(io.StringIO(open(downloaded.value.path(), encoding="utf-8")
                                           .read())))
    points = {row["name"]: row["match_points"] for row in rows}
    assert points == {"Ann": "3", "Ben": "3", "Cho Sato": "0", "Dai Ito": "0"}  # Ben's bye
    assert downloaded.value.suggested_filename == "tokyo-regional-standings.csv"
    page.click("#finish")
    page.wait_for_selector("#finish-confirm:not([hidden])")
    assert "Round 2 is not complete" in page.inner_text("#finish-question")
    page.click("#finish-yes")
    page.wait_for_selector("#finished-banner:not([hidden])")
    with web.client() as anyone:
        assert anyone.get(f"/tournaments/{tournament_id}").json()["finished"] is True
    assert page.is_disabled("#finish")
    assert_clean_but_refusals(organiser_phone)


def test_a_judge_is_offered_the_organiser_sign_in(organiser_phone: Watched,
                                                 web: Server) -> None:
    """A judge's session opens no console: the page says so and offers the organiser's sign-in;
    a wrong token is refused in words."""
    judge = _judge(web, "Kim Judge")
    page = organiser_phone.page
    page.goto(f"{web.base}/events/new")
    page.fill("#organiser-token", judge["token"])
    page.click("#organiser-sign-in")
    page.wait_for_selector("#message:has-text('the console is for organisers')")
    assert page.is_visible("#signin") and page.is_hidden("#create")
    page.fill("#organiser-token", "not-a-token")
    page.click("#organiser-sign-in")
    page.wait_for_selector("#signin-refusal:not([hidden])")
    assert "Unknown or revoked credential" in page.inner_text("#signin-refusal")
