"""World Gainer's own board in the web viewer (replay/web/boards/worldgainer.js), in Debian's
Chromium against a real server holding every golden World Gainer match: the 3x3 field with its
nine squares in their rows (seat 2's home row at the far end, the viewing seat's side nearest),
each square's holder, points and stack as the API's view has them, the stand-by slots with
exhausted stuns marked, every zone with data-zone/data-seat, every card of the view as a chip,
and no page-wide horizontal scroll on a phone. No page may ask another host for anything, nor
log an error (the board never threw and fell back to the generic one)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from replay.service import Kiroku
from tests.replay.conftest import Server, serve
from tests.web.conftest import GOLDEN, Watched, card_ids

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = "worldgainer"
ROWS = {"M1": ["M1-1", "M1-2", "M1-3"], "B": ["B-1", "B-2", "B-3"],
        "M2": ["M2-1", "M2-2", "M2-3"]}
SEAT_ZONES = ("standby", "hand", "deck", "break")


def _golden() -> dict[str, Path]:
    """Every golden World Gainer match, by its directory's name."""
    return {path.parent.name: path for path in sorted((GOLDEN / GAME).glob("*/match.jsonl"))}


MATCHES = _golden()


def _match_id(name: str) -> str:
    head = json.loads(MATCHES[name].read_text().splitlines()[0])
    return str(head["match_id"])


@pytest.fixture(scope="module")
def wg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server over a fresh SQLite file holding every golden World Gainer match."""
    db_path = tmp_path_factory.mktemp("worldgainer-board") / "worldgainer.db"
    kiroku = Kiroku.open("sqlite:///" + str(db_path))
    try:
        for path in MATCHES.values():
            kiroku.import_match(path.read_bytes())
    finally:
        kiroku.close()
    yield from serve(db_path)


def _state(server: Server, match_id: str, at: int, viewer: str) -> dict[str, Any]:
    with server.client(server.organiser_token) as judge:
        answer = judge.get(f"/matches/{match_id}/state", params={"at": at, "viewer": viewer})
    assert answer.status_code == 200, answer.text
    return dict(answer.json()["state"])


def _positions(server: Server, match_id: str) -> int:
    with server.client(server.organiser_token) as judge:
        return int(judge.get(f"/matches/{match_id}/state").json()["positions"])


def _signed_in(watched: Watched, server: Server, match_id: str) -> None:
    """Open the match and sign in as the organiser (a judge, who may choose the viewer)."""
    page = watched.page
    page.goto(f"{server.base}/watch/{match_id}#at=0")
    page.wait_for_selector("#board[data-position='0']", timeout=20_000)
    page.fill("#token", server.organiser_token)
    page.click("#sign-in")
    page.wait_for_selector("#viewer-label:not([hidden])", timeout=20_000)


def _show(watched: Watched, server: Server, match_id: str, at: int, viewer: str) -> None:
    """Go to position ``at`` seen as ``viewer`` and wait for World Gainer's board to draw it."""
    watched.page.goto(f"{server.base}/watch/{match_id}#at={at}&as={viewer}")
    watched.page.wait_for_selector(
        f"#board[data-position='{at}'] .table-{GAME} .wg-table[data-viewer='{viewer}']",
        timeout=20_000)


def _deck_ids(state: dict[str, Any]) -> set[str]:
    """The card ids a view lists in decks (a judge's only)."""
    return {card for part in state.get("seats") or [] for card in (part.get("deck") or [])}


def _chips(page: Page) -> Counter[str]:
    ids = page.eval_on_selector_all("#board-body .chip[data-card]",
                                    "nodes => nodes.map(n => n.dataset.card)")
    return Counter(str(i) for i in ids)


def _rows(page: Page) -> list[tuple[str, list[str]]]:
    """The field's rows from the top of the screen down, each with its squares left to right."""
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        ".wg-field .wg-row", """rows => rows.map(r => ({
            row: r.dataset.row, top: r.getBoundingClientRect().top,
            squares: [...r.querySelectorAll('[data-zone="field"][data-square]')]
              .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
              .map(s => s.dataset.square)}))""")
    return [(r["row"], r["squares"]) for r in sorted(rows, key=lambda r: float(r["top"]))]


def _sides(page: Page) -> list[str]:
    """The seats whose areas are drawn, from the top of the screen down."""
    sides: list[dict[str, Any]] = page.eval_on_selector_all(
        ".wg-side", "nodes => nodes.map(n => ({seat: n.dataset.sideSeat, "
                    "top: n.getBoundingClientRect().top}))")
    return [str(s["seat"]) for s in sorted(sides, key=lambda s: float(s["top"]))]


# ---- the board is World Gainer's, wherever and for whomever ----

@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_field_is_drawn_at_the_start_middle_and_end_for_judge_spectator_and_seat(
        wg: Server, watched: Watched, name: str) -> None:
    match_id = _match_id(name)
    last = _positions(wg, match_id)
    _signed_in(watched, wg, match_id)
    page = watched.page
    for at in (0, last // 2, last):
        for viewer in ("judge", "spectator", "seat:1"):
            _show(watched, wg, match_id, at, viewer)
            squares = page.eval_on_selector_all(
                ".wg-field [data-zone='field'][data-square]",
                "nodes => nodes.map(n => [n.dataset.square, n.querySelector("
                "':scope > .zone-title').textContent, n.hasAttribute('data-seat')])")
            assert sorted(s[0] for s in squares) == sorted(sum(ROWS.values(), []))
            assert all(square == title and not seated for square, title, seated in squares)
            assert page.locator(".wg-side").count() == 2
            assert page.locator("#board-body [data-zone='board']").count() == 0, "generic board"
    watched.assert_clean()


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_every_card_of_the_api_view_is_a_chip_and_a_seat_sees_no_other(
        wg: Server, watched: Watched, name: str) -> None:
    page = watched.page
    match_id = _match_id(name)
    last = _positions(wg, match_id)
    _signed_in(watched, wg, match_id)
    shown_as = [(last // 2, viewer) for viewer in ("judge", "spectator", "seat:1", "seat:2")]
    for at, viewer in [*shown_as, (last, "seat:2")]:
        state = _state(wg, match_id, at, viewer)
        _show(watched, wg, match_id, at, viewer)
        wanted = card_ids(state)
        shown = _chips(page)
        missing = wanted - shown
        assert not missing, f"at {at} as {viewer}: not on the page {dict(missing)}"
        if viewer.startswith("seat:"):
            extra = set(shown) - set(wanted) - _deck_ids(state)
            assert not extra, f"at {at} as {viewer}: ids the API did not give {extra}"
    watched.assert_clean()


# ---- the table's own facts, against the API's view ----

def test_the_grid_has_the_nine_squares_in_their_rows_seat_2_s_home_row_at_the_top(
        wg: Server, watched: Watched) -> None:
    match_id = _match_id("position-digests")
    _signed_in(watched, wg, match_id)
    _show(watched, wg, match_id, 11, "spectator")
    assert _rows(watched.page) == [("M2", ROWS["M2"]), ("B", ROWS["B"]), ("M1", ROWS["M1"])]
    assert _sides(watched.page) == ["2", "1"]
    watched.assert_clean()


def test_seen_as_seat_2_the_table_turns_seat_2_s_side_nearest(wg: Server,
                                                               watched: Watched) -> None:
    match_id = _match_id("position-digests")
    _signed_in(watched, wg, match_id)
    _show(watched, wg, match_id, 11, "seat:2")
    assert _rows(watched.page) == [("M1", ROWS["M1"]), ("B", ROWS["B"]), ("M2", ROWS["M2"])]
    assert _sides(watched.page) == ["1", "2"]
    _show(watched, wg, match_id, 12, "seat:1")
    assert _rows(watched.page) == [("M2", ROWS["M2"]), ("B", ROWS["B"]), ("M1", ROWS["M1"])]
    assert _sides(watched.page) == ["2", "1"]
    watched.assert_clean()


def test_each_square_s_holder_points_and_stack_top_first_match_the_api(
        wg: Server, watched: Watched) -> None:
    match_id = _match_id("position-digests")
    at = _positions(wg, match_id) // 2  # 11: seat 2 holds a stack of two on M2-2
    state = _state(wg, match_id, at, "spectator")
    board = state["board"]
    assert any(len(square["cards"]) > 1 for square in board.values()), "a stack to look at"
    players = {p["seat"]: p["name"] for p in state["players"]}
    _signed_in(watched, wg, match_id)
    _show(watched, wg, match_id, at, "spectator")
    page = watched.page
    for name, square in board.items():
        node = page.locator(f".wg-field [data-zone='field'][data-square='{name}']")
        holder = square["holder"]
        assert node.get_attribute("data-holder") == ("" if holder is None else str(holder))
        facts = node.locator(".wg-square-facts").inner_text()
        assert (f"Seat {holder} · {players[holder]}" if holder else "no holder") in facts
        assert f"{square['points']} pts" in facts
        top_first = [card["id"] for card in reversed(square["cards"])]
        assert node.locator(".wg-stack > li .chip[data-card]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.card)") == top_first
        if top_first:
            top = node.locator(".wg-stack > li").first
            assert "wg-top" in (top.get_attribute("class") or "")
            assert "top card" in (top.locator(".chip").get_attribute("title") or "")
            assert node.locator(".wg-stack > li.wg-top").count() == 1
            assert "wg-seat-" + str(holder) in (node.get_attribute("class") or "")
        else:
            assert node.locator(".wg-empty").inner_text() == "empty"
    watched.assert_clean()


def test_exhausted_stand_by_cards_are_turned_and_say_so(wg: Server, watched: Watched) -> None:
    match_id = _match_id("in-progress")
    at = _positions(wg, match_id) // 2  # 7: each seat's stun in slot 1 is exhausted
    seats = _state(wg, match_id, at, "spectator")["seats"]
    assert any(stun and not stun["ready"] for part in seats for stun in part["standby"])
    _signed_in(watched, wg, match_id)
    _show(watched, wg, match_id, at, "spectator")
    page = watched.page
    for part in seats:
        zone = page.locator(f"[data-zone='standby'][data-seat='{part['seat']}']")
        slots = zone.locator("li.wg-slot")
        assert slots.count() == len(part["standby"]) == 5
        for i, stun in enumerate(part["standby"]):
            slot = slots.nth(i)
            assert slot.get_attribute("data-slot") == str(i + 1)
            if stun is None:
                assert slot.locator(".chip.blank").count() == 1
                continue
            chip = slot.locator(f".chip[data-card='{stun['id']}']")
            said = slot.locator(".visually-hidden").all_inner_texts()
            if stun["ready"]:
                assert "wg-exhausted" not in (slot.get_attribute("class") or "")
                assert "exhausted" not in (chip.get_attribute("class") or "")
                assert any("ready" in text for text in said)
            else:
                assert "wg-exhausted" in (slot.get_attribute("class") or "")
                assert "exhausted" in (chip.get_attribute("class") or "").split()
                assert "exhausted" in (chip.get_attribute("title") or "")
                assert any("exhausted" in text for text in said)
                turned = chip.evaluate("n => getComputedStyle(n).transform")
                assert turned not in ("none", ""), "an exhausted stun is drawn turned"
    watched.assert_clean()


def test_zones_carry_data_zone_and_data_seat_with_titles(wg: Server, watched: Watched) -> None:
    match_id = _match_id("long-to-the-end")
    at = _positions(wg, match_id) // 2
    _signed_in(watched, wg, match_id)
    _show(watched, wg, match_id, at, "judge")
    page = watched.page
    for seat in (1, 2):
        for zone in SEAT_ZONES:
            found = page.evaluate(
                """([zone, seat]) => [...document.querySelectorAll(
                     `[data-zone='${zone}'][data-seat='${seat}']`)].map(n => [
                     n.getAttribute('role'), n.getAttribute('aria-label'),
                     (n.querySelector(':scope > .zone-title') || {}).textContent])""",
                [zone, seat])
            assert len(found) == 1, (zone, seat, found)
            role, label, title = found[0]
            assert role == "group" and label and title, (zone, seat, found)
    assert page.locator("[data-zone='field']:not([data-seat])").count() == 9
    assert page.locator("[data-zone='field'][data-seat]").count() == 0
    watched.assert_clean()


def test_hidden_zones_show_their_counts_and_the_judge_s_deck_ids_are_collapsed(
        wg: Server, watched: Watched) -> None:
    match_id = _match_id("in-progress")
    at = _positions(wg, match_id) // 2
    _signed_in(watched, wg, match_id)
    page = watched.page
    seen = _state(wg, match_id, at, "seat:1")["seats"]
    _show(watched, wg, match_id, at, "seat:1")
    other = page.locator("[data-zone='hand'][data-seat='2']")
    assert seen[1]["hand"] is None
    assert f"hand ({seen[1]['hand_count']})" in other.locator(".zone-title").inner_text()
    assert other.locator(".chip").count() == 0
    for part in seen:
        deck = page.locator(f"[data-zone='deck'][data-seat='{part['seat']}']")
        assert f"deck ({part['deck_count']})" in deck.inner_text()
        assert deck.locator(".chip").count() == 0
    judged = _state(wg, match_id, at, "judge")["seats"]
    _show(watched, wg, match_id, at, "judge")
    for part in judged:
        details = page.locator(f"[data-zone='deck'][data-seat='{part['seat']}'] details")
        assert details.get_attribute("open") is None, "deck ids start collapsed"
        assert Counter(details.locator(".chip[data-card]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.card)")) == Counter(part["deck"])
    watched.assert_clean()


def test_the_break_zone_keeps_its_order_and_the_turn_s_flags_are_facts(
        wg: Server, watched: Watched) -> None:
    match_id = _match_id("long-to-the-end")
    last = _positions(wg, match_id)
    state = _state(wg, match_id, last, "spectator")
    assert any(part["break"] for part in state["seats"])
    _signed_in(watched, wg, match_id)
    _show(watched, wg, match_id, last, "spectator")
    page = watched.page
    for part in state["seats"]:
        shown = page.locator(f"[data-zone='break'][data-seat='{part['seat']}'] .chip[data-card]")
        assert shown.evaluate_all("nodes => nodes.map(n => n.dataset.card)") == [
            card["id"] for card in part["break"]]
    facts = page.locator(".wg-turn-facts").inner_text()
    first = state["first_player"]
    players = {p["seat"]: p["name"] for p in state["players"]}
    assert f"Seat {first} · {players[first]}" in facts
    for flag in ("stun_placed", "gain_placed"):
        label = flag.replace("_", " ") + " this turn"
        assert label in facts
        expected = "yes" if state[flag] else "no"
        assert page.locator(".wg-turn-facts dt", has_text=label).locator(
            "xpath=following-sibling::dd[1]").inner_text() == expected
    watched.assert_clean()


def test_a_variation_s_position_is_drawn_on_world_gainer_s_board(wg: Server,
                                                                  watched: Watched) -> None:
    match_id = _match_id("in-progress")
    with wg.client(wg.organiser_token) as judge:
        started = judge.post(f"/matches/{match_id}/variations",
                             json={"name": "what if", "position": 5, "visibility": "public"})
        assert started.status_code == 201, started.text
        vid = started.json()["variation_id"]
        seat = judge.get(f"/variations/{vid}").json()["to_act"][0]
        ended = judge.post(f"/variations/{vid}/actions",
                           json={"action": {"type": "end_turn", "seat": seat}})
        assert ended.status_code == 201, ended.text
        line = judge.get(f"/variations/{vid}", params={"at": 1}).json()
    _signed_in(watched, wg, match_id)
    page = watched.page
    page.goto(f"{wg.base}/watch/{match_id}#line={vid}&at=1")
    page.wait_for_selector(f"#board[data-line='{vid}'][data-position='1'] .wg-table",
                           timeout=20_000)
    assert len(_rows(page)) == 3
    assert not card_ids(line["state"]) - _chips(page)
    watched.assert_clean()


def test_a_phone_width_has_no_page_wide_horizontal_scroll(wg: Server, watched: Watched) -> None:
    page = watched.page
    page.set_viewport_size({"width": 380, "height": 800})
    _signed_in(watched, wg, _match_id("in-progress"))
    for name in ("in-progress", "long-to-the-end", "position-digests"):  # stacks, long names
        match_id = _match_id(name)
        at = _positions(wg, match_id) * 2 // 3
        _show(watched, wg, match_id, at, "judge")
        board = page.evaluate(
            "() => { const t = document.querySelector('.table-worldgainer');"
            " return [t.scrollWidth, t.clientWidth]; }")
        assert board[0] <= board[1] + 1, f"{name}: the board overflows {board}"
        right = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('#board-body *')]"
            ".filter(n => !n.closest('.visually-hidden'))"
            ".map(n => n.getBoundingClientRect().right))")
        assert right <= 380 + 1, f"{name}: the board reaches {right}px"
        if name == "in-progress":  # the others' timelines end with a long revealed seed
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 380 + 1, f"{name}: the page scrolls sideways ({width}px)"
    watched.assert_clean()


def test_odd_or_sparse_views_are_drawn_without_throwing(wg: Server, watched: Watched) -> None:
    page = watched.page
    page.goto(f"{wg.base}/watch/{_match_id('in-progress')}#at=0")
    page.wait_for_selector(f"#board[data-position='0'] .table-{GAME} .wg-table", timeout=20_000)
    odd = [
        {},
        {"game": GAME, "board": None, "seats": None, "viewer": "seat:2"},
        {"game": GAME, "board": {"M1-1": None, "B-2": {"holder": 7}, "X-9": {"cards": []}},
         "seats": [None, {"seat": 1}, {"seat": 3, "hand": None}, "x"], "first_player": 2},
        {"game": GAME, "board": {"B-1": {"holder": 2, "cards": [{"id": "A", "name": "Ace"}],
                                         "points": None, "glow": True}},
         "seats": [{"seat": 2, "hand": [], "hand_count": 0, "deck": [], "standby": [None, 5],
                    "break": None, "extra": {"note": "kept"}}], "mystery": [1, 2]},
    ]
    drawn = page.evaluate(
        """async (views) => {
             const { kit } = await import('/static/board.js');
             const board = await import('/static/boards/worldgainer.js');
             return views.map((v) => {
               const box = document.createElement('div');
               box.append(...board.draw(v, kit));
               return [box.querySelectorAll('[data-square]').length, box.textContent];
             });
           }""", odd)
    assert [squares for squares, _ in drawn] == [9, 9, 10, 9]
    assert "kept" in drawn[3][1] and "mystery" in drawn[3][1] and "glow" in drawn[3][1]
    watched.assert_clean()
