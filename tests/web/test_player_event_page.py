"""A tournament player's own page in Chromium (issue 42), on a phone: the player's link signs
the phone in and lands on /events/ID/me; the page submits a decklist typed as lines (showing the
server's refusal of a bad one in its words), shows the current match first with a Play button
that opens the right game as the player's seat, follows the event live (a result, the next
round), starts the next game of a best-of-three, and signs out; without a session it says how
to sign in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.replay.conftest import Server, serve
from tests.web.conftest import Watched, guard
from tests.web.test_event_page import DECKS, FOLD, PLAYERS, Event, make_event, percent
from tests.web.test_signin_page import PHONE, SHOTS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("player-page") / "kiroku.db")


@pytest.fixture
def phone(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(**PHONE)
    try:
        yield guard(context)
    finally:
        context.close()


def _signed_in(phone: Watched, event: Event, name: str) -> Page:
    """The player's phone opens their player link: it lands on their page of the event."""
    link = event.organiser.post(f"{event.url}/players/{event.player_ids[name]}/link")
    assert link.status_code == 201, link.text
    page = phone.page
    page.goto(link.json()["link"])
    page.wait_for_url(f"**/events/{event.tournament_id}/me")
    page.wait_for_selector("body[data-signed-in='yes']")
    assert "#code" not in page.url
    return page


def _updated(page: Page) -> None:
    """Wait for the page's next reading of the event."""
    now = page.evaluate("Number(document.body.dataset.updates)")
    page.wait_for_function("n => Number(document.body.dataset.updates) > n", arg=now,
                           timeout=15000)


def _decklist(event: Event, name: str) -> dict[str, Any]:
    answer = event.organiser.get(f"{event.url}/players/{event.player_ids[name]}/decklist")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_player_signs_in_submits_a_decklist_and_signs_out(server: Server,
                                                            phone: Watched) -> None:
    event = make_event(server, "Deck Cup", PLAYERS[:2], lists=False)
    page = _signed_in(phone, event, "Ann")
    assert page.inner_text("#who") == "Ann · Deck Cup"
    assert page.inner_text("#current-heading") == "Round 1 is not paired yet"
    assert page.inner_text("#deck-state").startswith("No decklist yet.")

    # a line the page cannot read is pointed out before anything is sent
    page.fill("#deck-text", "3 WGS-021\nthree of WGS-022")
    page.click("#deck-submit")
    page.wait_for_selector("#deck-message.refusal")
    assert page.inner_text("#deck-message") == \
        'Line 2 ("three of WGS-022") is not "3 card-id" or "card-id x3".'

    # a list the rules refuse: the server's sentence, as it says it
    wanted = dict(DECKS["solar_vanguard"])
    bad = {**wanted, "WGS-021": 5}
    refused = event.organiser.put(f"{event.url}/players/{event.player_ids['Ann']}/decklist",
                                  json={"deck": bad})
    assert refused.status_code == 422, refused.text
    lines = [f"{n} {card}" if i % 2 else f"{card} x{n}"
             for i, (card, n) in enumerate(sorted(bad.items()))]
    page.fill("#deck-text", "\n".join(lines))
    page.click("#deck-submit")
    page.wait_for_function("m => document.getElementById('deck-message').textContent === m",
                           arg=refused.json()["message"])
    assert page.get_attribute("#deck-message", "class") == "refusal"
    assert _decklist(event, "Ann")["deck"] == {}

    # the list as it should be, typed both ways: submitted, and shown
    lines = [f"{n} {card}" if i % 2 else f"{card} x{n}"
             for i, (card, n) in enumerate(sorted(wanted.items()))]
    page.fill("#deck-text", "\n".join(lines))
    page.click("#deck-submit")
    page.wait_for_selector("text=Your decklist is submitted: 40 cards.")
    assert _decklist(event, "Ann")["deck"] == wanted
    assert page.locator("#deck-list li").all_inner_texts() == \
        [f"{n} {card}" for card, n in sorted(wanted.items())]
    assert page.inner_text("#deck-state") == "40 cards."

    # the lists lock: the form goes, the list stays
    locked = event.organiser.post(f"{event.url}/lock")
    assert locked.status_code == 200, locked.text
    page.reload()
    page.wait_for_selector("body[data-signed-in='yes']")
    page.wait_for_selector("#deck-state:text('locked')")
    assert page.is_hidden("#deck-form")

    page.click("#sign-out")
    page.wait_for_selector("#signed-out:not([hidden])")
    with server.client() as anyone:
        assert anyone.get("/me").json()["role"] == "spectator"
    assert phone.context.cookies() == [] or all(
        c["name"] != "kiroku_session" for c in phone.context.cookies())
    page.reload()
    page.wait_for_selector("#signed-out:not([hidden])")
    assert "player slip" in page.inner_text("#signed-out")
    event.organiser.close()
    assert phone.external == []
    assert [e for e in phone.errors if "status of 422" not in e] == [], \
        "nothing but the refused list's 422 noted in the console"


def test_the_player_plays_the_current_match_as_their_seat_and_follows_the_event(
        server: Server, phone: Watched) -> None:
    event = make_event(server, "Play Cup", PLAYERS[:4])
    event.pair([(1, ["Ann", "Ben"]), (2, ["Cid", "Dee"])], [])
    page = _signed_in(phone, event, "Ben")
    assert page.inner_text("#current-heading") == "Round 1 · Table 1"
    assert page.inner_text("#opponent") == "vs Ann (1001)"
    assert page.inner_text("#series") == "One game (best of 1)"
    play = page.locator("#play")
    assert play.inner_text() == "Play"
    box = play.bounding_box()
    assert box and box["y"] + box["height"] <= FOLD and box["width"] > 300, \
        "a big Play button above the fold"
    assert page.inner_text("#standing-line") == \
        "No result yet: your standing shows after your first match."
    shots = Path(SHOTS)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "player.png"))

    play.click()
    page.wait_for_url(f"**/play/{event.match(1, 1)}")
    page.wait_for_selector("body[data-seat='2']")  # Ben is seat 2 of table 1
    assert page.inner_text("#status").startswith("Waiting for Ann (seat 1)")
    page.go_back()
    page.wait_for_selector("body[data-signed-in='yes']")

    event.concede(1, 1, 1)  # Ann concedes at her table: Ben won, seen live
    page.wait_for_selector("#current[data-status='result']", timeout=15000)
    assert page.inner_text("#series") == "Won 1-0. Round 2 is not paired yet."
    assert page.is_hidden("#play")
    standings = event.read("/standings")
    row = next(r for r in standings["standings"] if r["player_id"] == event.player_ids["Ben"])
    assert row["rank"] == 1
    line = page.inner_text("#standing-line")
    assert line.startswith("1st of 4 · 3 points · 1-0-0")
    assert f"OMW% {percent(row['opponents_match_win'])}" in line

    event.pair([(1, ["Ben", "Dee"]), (2, ["Ann", "Cid"])], [])
    page.wait_for_selector("#current-heading:text('Round 2 · Table 1')", timeout=15000)
    assert page.inner_text("#opponent") == "vs Dee (1004)"
    assert page.locator("#earlier li").all_inner_texts()[0].startswith(
        "Round 1 · Table 1 · vs Ann (1001): Won 1-0")
    page.click("#play")
    page.wait_for_url(f"**/play/{event.match(2, 1)}")
    page.wait_for_selector("body[data-seat='1']")  # seat 1 at their new table
    event.organiser.close()
    phone.assert_clean()


def test_a_best_of_three_starts_its_next_game_from_the_player_s_page(
        server: Server, phone: Watched) -> None:
    event = make_event(server, "Best of Three", PLAYERS[:2], best_of=3)
    event.pair([(1, ["Ann", "Ben"])], [])
    page = _signed_in(phone, event, "Ann")
    assert page.inner_text("#series") == "Game 1 of best of 3"
    assert page.inner_text("#play") == "Play game 1"
    event.concede(1, 1, 2)  # Ben concedes game 1
    page.wait_for_selector("#next-game", timeout=15000)
    assert page.inner_text("#series") == "Game 1 is over: you lead 1-0."
    assert page.inner_text("#next-game") == "Start game 2"
    page.click("#next-game")
    page.wait_for_selector("#play:text('Play game 2')")
    view = event.read("/rounds/1")["tables"][0]
    second = view["games"][1]["match_id"]
    assert view["current_match_id"] == second
    assert page.inner_text("#series") == "Game 2 of best of 3 · you lead 1-0"
    page.click("#play")
    page.wait_for_url(f"**/play/{second}")
    page.wait_for_selector("body[data-seat='1']")
    event.organiser.close()
    phone.assert_clean()


def test_the_page_without_a_session_says_how_to_sign_in(server: Server,
                                                         phone: Watched) -> None:
    event = make_event(server, "Open Door", PLAYERS[:2])
    page = phone.page
    page.goto(f"{server.base}/events/{event.tournament_id}/me")
    page.wait_for_selector("body[data-signed-in='no']")
    text = page.inner_text("#signed-out")
    assert "Scan the QR code on your player slip" in text and "player link" in text
    assert page.get_attribute("#event-link", "href") == f"/events/{event.tournament_id}"
    event.organiser.close()
    phone.assert_clean()


def test_a_failed_reading_keeps_the_page_and_says_since_when(server: Server,
                                                              phone: Watched) -> None:
    """The server stops answering for a while: the player's page keeps what it last showed
    and says since when it is not updated, and why; back on its feet, the page updates."""
    event = make_event(server, "Patchy Wifi", PLAYERS[:2])
    page = _signed_in(phone, event, "Ann")
    shown = page.inner_text("#who")
    busy = {"reason": "busy", "message": "Kiroku is busy: try again shortly."}
    page.route("**/tournaments/**", lambda route: route.fulfill(status=503, json=busy))
    page.evaluate("""() => document.dispatchEvent(new Event('visibilitychange'))""")
    page.wait_for_selector("#updated:text('not updated since')")
    assert "Kiroku is busy" in page.inner_text("#updated")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "player-not-updated-phone.png"))
    assert page.inner_text("#who") == shown
    page.unroute("**/tournaments/**")
    page.evaluate("""() => document.dispatchEvent(new Event('visibilitychange'))""")
    page.wait_for_function("() => document.getElementById('updated').textContent"
                           ".startsWith('updated ')")
    assert phone.external == []  # (its console notes the refused readings)
    event.organiser.close()
