"""Annotations made and kept from the page, in Debian's Chromium against a real server: arrows
drawn over the board between the cards (or zones) they join, an arrow made on the page, a card
picked by keyboard, a zone picked by its title, one's own annotation amended and withdrawn."""

from __future__ import annotations

from typing import Any

import pytest

from tests.replay.conftest import Server
from tests.web.conftest import Watched
from tests.web.test_notes_and_live import _add, _open, _seat_token
from tests.web.test_viewer import _new_match

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _hand(web: Server, created: dict[str, Any], seat: int) -> list[str]:
    """The distinct card ids in a seat's opening hand (a hand may hold two copies of a card,
    and choosing a card again on the board takes it back out of the highlights)."""
    with web.client(_seat_token(created, seat)) as player:
        state = player.get(f"/matches/{created['match_id']}/state", params={"at": 0}).json()
    return list(dict.fromkeys(card["id"] for card in state["state"]["seats"][seat - 1]["hand"]))


def _annotations(web: Server, token: str, match_id: str) -> list[dict[str, Any]]:
    with web.client(token) as reader:
        return list(reader.get(f"/matches/{match_id}/annotations").json())


def test_an_annotation_s_arrow_is_drawn_between_its_two_cards(web: Server,
                                                               watched: Watched) -> None:
    created = _new_match(web, ["Arrow", "Target"])
    match_id, token = created["match_id"], _seat_token(created, 1)
    first, second = _hand(web, created, 1)[:2]
    with web.client(token) as seat:
        made = seat.post(f"/matches/{match_id}/annotations", json={
            "position": 0, "text": "this one, then that", "visibility": "team",
            "highlights": [first, second], "arrows": [[first, second]]})
    assert made.status_code == 201, made.text
    _open(web, watched, match_id, token)
    page = watched.page
    # attached, not "visible": a vertical line has no width
    line = page.wait_for_selector(f"svg.arrow-layer line[data-arrow='{first}→{second}']",
                                  state="attached")
    assert line is not None
    ends = page.evaluate("""([a, b]) => {
        const line = document.querySelector('svg.arrow-layer line.arrow');
        const frame = document.getElementById('board-body').getBoundingClientRect();
        const at = (id) => {
            const r = document.querySelector(`.chip[data-card='${id}']`).getBoundingClientRect();
            return [r.left + r.width / 2 - frame.left, r.top + r.height / 2 - frame.top];
        };
        return {from: at(a), to: at(b), x1: +line.getAttribute('x1'), y1: +line.getAttribute('y1'),
                x2: +line.getAttribute('x2'), y2: +line.getAttribute('y2')};
    }""", [first, second])
    assert abs(ends["x1"] - ends["from"][0]) < 2 and abs(ends["y1"] - ends["from"][1]) < 2
    assert abs(ends["x2"] - ends["to"][0]) < 2 and abs(ends["y2"] - ends["to"][1]) < 2
    assert f"{first} → {second}" in page.inner_text("#note-list")  # the arrow in words
    watched.assert_clean()


def test_an_arrow_made_on_the_page_is_saved_with_the_annotation(web: Server,
                                                                  watched: Watched) -> None:
    created = _new_match(web, ["Maker", "Other"])
    match_id, token = created["match_id"], _seat_token(created, 1)
    first, second = _hand(web, created, 1)[:2]
    _open(web, watched, match_id, token)
    page = watched.page
    assert page.is_disabled("#note-arrow")
    page.locator(f"#board-body .chip[data-card='{first}']").first.click()
    page.locator(f"#board-body .chip[data-card='{second}']").first.click()
    page.click("#note-arrow")
    # a card chosen on the board is named in its place: this copy, in seat 1's hand
    first, second = f"hand#1/{first}", f"hand#1/{second}"
    page.wait_for_selector(f"svg.arrow-layer line.draft[data-arrow='{first}→{second}']",
                           state="attached")
    _add(watched, "from here to there", "team")
    page.wait_for_selector("#note-message:has-text('Annotation added.')")
    saved = _annotations(web, token, match_id)
    assert [n["arrows"] for n in saved] == [[[first, second]]]
    page.wait_for_selector(f"svg.arrow-layer line.note[data-arrow='{first}→{second}']",
                           state="attached")
    watched.assert_clean()


def test_a_card_is_picked_by_keyboard_and_a_zone_by_its_title(web: Server,
                                                               watched: Watched) -> None:
    created = _new_match(web, ["Keys", "Board"])
    match_id, token = created["match_id"], _seat_token(created, 1)
    card = _hand(web, created, 1)[0]
    _open(web, watched, match_id, token)
    page = watched.page
    chip = page.locator(f"#board-body .chip[data-card='{card}']").first
    assert chip.get_attribute("tabindex") == "0"
    chip.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#board-body .chip[data-card='{card}'].picked")
    zone = page.locator("#board-body [data-zone='hand'][data-seat='1']").first
    zone.locator(":scope > .zone-title, :scope > .box-title").first.click()
    page.wait_for_function("() => document.getElementById('note-highlights').textContent"
                           ".includes('hand#1')")
    _add(watched, "the whole hand", "private")
    page.wait_for_selector("#note-message:has-text('Annotation added.')")
    assert _annotations(web, token, match_id)[0]["highlights"] == [f"hand#1/{card}", "hand#1"]
    watched.assert_clean()


def test_one_s_own_annotation_is_amended_and_withdrawn_from_the_page(web: Server,
                                                                     watched: Watched) -> None:
    created = _new_match(web, ["Author", "Reader"])
    match_id, token = created["match_id"], _seat_token(created, 1)
    with web.client(token) as seat:
        made = seat.post(f"/matches/{match_id}/annotations", json={
            "position": 0, "text": "first thought", "visibility": "team"}).json()
    with web.client(web.organiser_token) as judge:
        judge.post(f"/matches/{match_id}/annotations", json={
            "position": 0, "text": "a judge's note", "visibility": "public"})
    _open(web, watched, match_id, token)
    page = watched.page
    page.wait_for_selector(f"#note-list li[data-annotation='{made['annotation_id']}']")
    assert page.locator("#note-list button[data-edit]").count() == 1  # not the judge's
    page.click(f"#note-list button[data-edit='{made['annotation_id']}']")
    assert page.input_value("#note-text") == "first thought"
    assert page.inner_text("#note-form-title") == "Amend your annotation"
    page.fill("#note-text", "second thought")
    page.check("#note-symbols input[value='dubious']")
    page.click("#note-add")
    page.wait_for_selector("#note-message:has-text('Annotation amended.')")
    page.wait_for_selector("#note-list li:has-text('second thought')")
    assert "amended" in page.inner_text(f"#note-list li[data-annotation='{made['annotation_id']}']")
    page.click(f"#note-list button[data-withdraw='{made['annotation_id']}']")
    page.fill(f"#withdraw-{made['annotation_id']}", "I was wrong")
    page.click(f"form[data-withdrawing='{made['annotation_id']}'] button[type=submit]")
    page.wait_for_selector(f"#note-list li.withdrawn[data-annotation='{made['annotation_id']}']")
    mine = next(n for n in _annotations(web, token, match_id)
                if n["annotation_id"] == made["annotation_id"])
    assert mine["withdrawn"] and mine["amended"]
    with web.client(token) as seat:
        history = seat.get(f"/annotations/{made['annotation_id']}/history").json()
    assert [e.get("text") for e in history if e.get("text")][:2] == ["first thought",
                                                                     "second thought"]
    watched.assert_clean()


def _judge_moves_a_copy_to_a_square(web: Server, match_id: str, card: str, square: str) -> None:
    """A judge's adjustment puts a copy of ``card`` from seat 1's deck on ``square``."""
    with web.client(web.organiser_token) as judge:
        moved = judge.post(f"/matches/{match_id}/actions", json={"action": {
            "type": "adjust", "seat": 1, "reason": "a copy on the field, for the test",
            "move": {"card": card, "from_zone": "deck", "to_zone": f"field:{square}"}}})
    assert moved.status_code == 201, moved.text


def test_an_arrow_points_at_the_copy_it_names_and_a_square_is_picked(
        web: Server, watched: Watched) -> None:
    """In the judge's view the same card is in the hand, the deck and on a square: an arrow to
    the square's copy is drawn to it, not to the hand's (issue 40); clicking a square picks
    the square, not the whole field."""
    created = _new_match(web, ["Copy", "Other"])
    match_id = created["match_id"]
    with web.client(web.organiser_token) as judge:
        state = judge.get(f"/matches/{match_id}/state", params={"viewer": "judge"}).json()
    deck = {c if isinstance(c, str) else c["id"] for c in state["state"]["seats"][0]["deck"]}
    card = next(c for c in _hand(web, created, 1) if c in deck)
    _judge_moves_a_copy_to_a_square(web, match_id, card, "M1-2")
    on_square, in_hand = f"field:M1-2/{card}", f"hand#1/{card}"
    with web.client(web.organiser_token) as judge:
        made = judge.post(f"/matches/{match_id}/annotations", json={
            "position": 1, "text": "the copy on the field", "visibility": "judges",
            "highlights": [in_hand, on_square], "arrows": [[in_hand, on_square]]})
    assert made.status_code == 201, made.text
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}#at=1")
    page.fill("#token", web.organiser_token)
    page.click("#sign-in")
    line = page.wait_for_selector(f"svg.arrow-layer line[data-arrow='{in_hand}→{on_square}']",
                                  state="attached")
    assert line is not None
    ends = page.evaluate("""(id) => {
        const line = document.querySelector('svg.arrow-layer line.arrow');
        const frame = document.getElementById('board-body').getBoundingClientRect();
        const centre = (node) => {
            const r = node.getBoundingClientRect();
            return [r.left + r.width / 2 - frame.left, r.top + r.height / 2 - frame.top];
        };
        const square = document.querySelector(`[data-address='M1-2'] .chip[data-card='${id}']`);
        const hand = document.querySelector(
            `[data-zone='hand'][data-seat='1'] .chip[data-card='${id}']`);
        return {square: centre(square), hand: centre(hand),
                to: [+line.getAttribute('x2'), +line.getAttribute('y2')],
                from: [+line.getAttribute('x1'), +line.getAttribute('y1')]};
    }""", card)
    for end, at in (("to", "square"), ("from", "hand")):
        assert abs(ends[end][0] - ends[at][0]) < 2 and abs(ends[end][1] - ends[at][1]) < 2
    # the hand's copies (a hand may hold two) and the square's are lit; the deck's (if one is
    # left there) are not
    lit = page.locator("#board-body .chip[data-highlighted]")
    in_hand = page.locator(
        f"#board-body [data-zone='hand'][data-seat='1'] .chip[data-card='{card}']")
    assert lit.count() == in_hand.count() + 1
    assert page.locator("#board-body [data-zone='deck'] .chip[data-highlighted]").count() == 0
    page.locator("#board-body [data-address='B-2'] > .zone-title").click()
    page.wait_for_function("() => document.getElementById('note-highlights').textContent"
                           ".includes('field:B-2')")
    _add(watched, "the border's middle square", "judges")
    page.wait_for_selector("#note-message:has-text('Annotation added.')")
    mine = [n for n in _annotations(web, web.organiser_token, match_id)
            if n.get("text") == "the border's middle square"]
    assert [n["highlights"] for n in mine] == [["field:B-2"]]
    page.wait_for_selector("#board-body [data-address='B-2'][data-highlighted]")
    assert page.locator("#board-body [data-zone='field'][data-highlighted]").count() == 1
    watched.assert_clean()
