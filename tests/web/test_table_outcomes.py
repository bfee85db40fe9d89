"""A match whose chance is entered at the table, recorded from a seat's page (issue 40): the
seat's own draws are entered with a card picker limited to its own deck, one by one, and the
stored action carries them."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser

from engine import Viewer, get_game
from replay.service import Kiroku
from tests.replay.conftest import Server
from tests.web.conftest import guard
from tests.web.test_play_page import _events
from tests.web.test_signin_page import PHONE


def _kami_table_match(web: Server) -> tuple[str, dict[str, object], list[str]]:
    """A Kami match set up from a table (its setup outcomes those of a simulated match), and
    that match's first action with the cards it drew."""
    simulated = Kiroku.open("sqlite:///:memory:")
    try:
        match_id = simulated.simulate("kami", 1, seed=3)[0]
        records = simulated.records(simulated.seen_by(match_id))
    finally:
        simulated.close()
    created, first = records[0], next(r for r in records if r["event"] == "ActionRecorded")
    drawn = [o.value for o in get_game("kami").typed_outcomes(first["outcomes"])]
    assert all(o.enterable_by(Viewer("seat", first["action"]["seat"]))
               for o in get_game("kami").typed_outcomes(first["outcomes"]))
    config = created["config"]
    with httpx.Client(base_url=web.base, timeout=30,
                      headers={"authorization": f"Bearer {web.organiser_token}"}) as organiser:
        made = organiser.post("/matches", json={
            "game": "kami", "players": config["players"], "decks": config["decks"],
            "options": config["options"],
            "setup_outcomes": [o["value"] for o in created["setup_outcomes"]]})
        assert made.status_code == 201, made.text
        table_match = made.json()["match_id"]
        link = organiser.post(f"/matches/{table_match}/links",
                              json={"seats": [first["action"]["seat"]]}).json()[0]["link"]
    return table_match, {"action": first["action"], "link": link}, drawn


def test_a_seat_enters_its_own_draws_from_its_deck(browser: Browser, web: Server) -> None:
    match_id, first, drawn = _kami_table_match(web)
    action = first["action"]
    assert isinstance(action, dict)
    context = browser.new_context(**PHONE)
    try:
        phone = guard(context)
        page = phone.page
        page.goto(str(first["link"]))
        page.wait_for_selector("body[data-version]")
        page.locator(f"#actions .group[data-type='{action['type']}'] button.act").first.click()
        for card in drawn:
            page.wait_for_selector("#outcome-form")
            assert "Which card was drawn?" in page.inner_text("#outcome-form")
            page.select_option("#outcome-value", card)
            page.click("#outcome-form button[type=submit]")
        page.wait_for_function("() => Number(document.body.dataset.version) > 1")
    finally:
        context.close()
    recorded = [e for e in _events(web, match_id) if e.get("event") == "ActionRecorded"]
    assert [e["action"] for e in recorded] == [action]
    assert [o["value"] for o in recorded[0]["outcomes"]] == drawn  # type: ignore[index]
    assert recorded[0]["chance_source"] == "table"
