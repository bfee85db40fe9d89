"""Illuminati's own board (replay/web/boards/illuminati.js) in a real browser: a panel per seat
with its power structure drawn as a tree of control arrows, hands, decks and table zones; the
New World Order and set-aside cards; the attack under way between its two cards. Checked
against the API's view (GET /matches/{id}/state) on every golden Illuminati match."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from replay.service import Kiroku
from tests.replay.conftest import Server, serve
from tests.web.conftest import GOLDEN, Watched, card_ids, guard

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = "illuminati"
MATCHES = {path.parent.name: path for path in sorted((GOLDEN / GAME).glob("*/match.jsonl"))}
SEAT_ZONES = ("structure", "plot_hand", "group_hand", "plot_deck", "group_deck", "resources",
              "agents", "plots", "loose", "discard", "destroyed")


@dataclass
class Table:
    """The server holding every golden Illuminati match, and their ids by golden name."""

    server: Server
    ids: dict[str, str]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    db_path = tmp_path_factory.mktemp("illuminati-board") / "illuminati.db"
    kiroku = Kiroku.open("sqlite:///" + str(db_path))
    try:
        ids = {name: str(kiroku.import_match(path.read_bytes()).match_id)
               for name, path in MATCHES.items()}
    finally:
        kiroku.close()
    for server in serve(db_path):
        yield Table(server, ids)


# ---- helpers ----

def _open(watched: Watched, table: Table, name: str) -> Page:
    """The page of the golden match ``name``, signed in as the organiser (a judge, who may
    choose the viewer)."""
    page = watched.page
    # the page falls back to the generic board with a warning: a fallback is a failure here
    page.on("console", lambda message: watched.errors.append(message.text)
            if message.type == "warning" and "board" in message.text else None)
    page.goto(f"{table.server.base}/watch/{table.ids[name]}#at=0")
    page.wait_for_selector("#board[data-position='0']", timeout=20_000)
    page.fill("#token", table.server.organiser_token)
    page.click("#sign-in")
    page.wait_for_selector("text=Signed in as")
    # the sign-in redraws the board for the judge: let it finish before the hash moves on
    page.wait_for_selector("#viewer-label:not([hidden])")
    page.wait_for_function("""() => {
        const text = document.querySelector('#board-body').innerText;
        return text.includes('Seen as ') && !text.includes('Seen as spectator');
      }""", timeout=20_000)
    return page


def _show(page: Page, table: Table, name: str, position: int, viewer: str) -> None:
    """Go to ``position`` of the golden match ``name`` as ``viewer`` and wait for its board."""
    page.goto(f"{table.server.base}/watch/{table.ids[name]}#at={position}&as={viewer}")
    page.wait_for_function(
        """([position, viewer]) => {
             const board = document.querySelector('#board');
             const body = document.querySelector('#board-body');
             return board && board.dataset.position === String(position) && body &&
                    body.innerText.includes('Seen as ' + viewer) &&
                    body.querySelector('.table-illuminati > .ill-seats') !== null;
           }""", arg=[position, viewer], timeout=20_000)


def _state(table: Table, name: str, position: int, viewer: str) -> dict[str, Any]:
    with table.server.client(table.server.organiser_token) as judge:
        answer = judge.get(f"/matches/{table.ids[name]}/state",
                           params={"at": position, "viewer": viewer})
    assert answer.status_code == 200, answer.text
    return dict(answer.json()["state"])


def _last(table: Table, name: str) -> int:
    with table.server.client(table.server.organiser_token) as judge:
        return int(judge.get(f"/matches/{table.ids[name]}/state").json()["positions"])


def _strings(value: Any) -> set[str]:
    """Every string anywhere in the view (a bare card id among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) | set(value)
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _chips(page: Page) -> set[str]:
    return set(page.eval_on_selector_all(".table-illuminati .chip[data-card]",
                                         "nodes => nodes.map(n => n.dataset.card)"))


def _edges(tree: dict[str, Any] | None) -> set[tuple[str, str, str]]:
    """(parent, child, arrow) for every control arrow of a power structure."""
    if not tree:
        return set()
    found: set[tuple[str, str, str]] = set()
    for arrow, child in (tree.get("arrows") or {}).items():
        if child:
            found.add((tree["card"], child["card"], arrow))
            found |= _edges(child)
    return found


def _nodes(tree: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not tree:
        return []
    return [tree, *[n for child in (tree.get("arrows") or {}).values() for n in _nodes(child)]]


def _page_edges(page: Page, seat: int) -> list[dict[str, str]]:
    return list(page.eval_on_selector_all(
        f"[data-zone='structure'][data-seat='{seat}'] li.ps-node[data-parent]",
        """nodes => nodes.map(n => ({
             parent: n.dataset.parent, arrow: n.dataset.arrow,
             child: n.querySelector(':scope > .ps-row .ps-card .chip[data-card]').dataset.card,
             parentChip: n.parentElement.closest('li.ps-node')
                          .querySelector(':scope > .ps-row .ps-card .chip[data-card]').dataset.card,
             label: n.querySelector(':scope > .ps-row .ps-link').textContent }))"""))


def _middle(table: Table, name: str) -> int:
    return _last(table, name) // 2


# ---- the board is Illuminati's own, at every golden match's start, middle and end ----

@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_board_is_the_game_s_own_at_the_start_middle_and_end(
        table: Table, watched: Watched, name: str) -> None:
    page = _open(watched, table, name)
    last = _last(table, name)
    for viewer in ("judge", "spectator", "seat:1"):
        for position in (0, last // 2, last):
            _show(page, table, name, position, viewer)
            state = _state(table, name, position, viewer)
            seats = [s["seat"] for s in state["seats"]]
            shown = page.eval_on_selector_all(".table-illuminati .ill-seats > section.ill-seat",
                                              "nodes => nodes.map(n => Number(n.dataset.seat))")
            assert shown == seats, f"{name} at {position} as {viewer}"
            for seat in seats:
                assert page.locator(f"[data-zone='structure'][data-seat='{seat}']").count() == 1
            roots = sum(1 for s in state["seats"] if s["power_structure"])
            assert page.locator(".table-illuminati .ps-tree > li.ps-root").count() == roots
            shared = page.locator(".table-illuminati .ill-shared [data-zone='new_world_order']")
            assert shared.count() == 1
            assert page.locator(".table-illuminati [data-zone='seats']").count() == 0, \
                "no generic box of the seats"
    watched.assert_clean()


# ---- every card of the view is a chip; a seat sees no card it was not given ----

@pytest.mark.parametrize("viewer", ["judge", "spectator", "seat:2"])
def test_every_card_of_the_view_is_a_chip_and_no_other(
        table: Table, watched: Watched, viewer: str) -> None:
    page = _open(watched, table, "five-players-turn-limit")
    for name in ("five-players-turn-limit", "six-players-in-progress", "two-players-long-game"):
        position = _middle(table, name)
        _show(page, table, name, position, viewer)
        state = _state(table, name, position, viewer)
        chips = _chips(page)
        assert set(card_ids(state)) - chips == set(), f"{name} at {position} as {viewer}"
        assert chips - _strings(state) == set(), f"{name}: cards the view did not give {viewer}"
    watched.assert_clean()


def test_a_seat_of_a_match_in_progress_sees_counts_of_the_others_hands(
        table: Table, watched: Watched) -> None:
    name = "six-players-in-progress"
    page = _open(watched, table, name)
    position = _middle(table, name)
    _show(page, table, name, position, "seat:2")
    state = _state(table, name, position, "seat:2")
    for seat in state["seats"]:
        hand = page.locator(f"[data-zone='plot_hand'][data-seat='{seat['seat']}']")
        title = hand.locator(".zone-title").inner_text()
        assert title == f"plot hand {seat['plot_hand_count']}"
        if seat["seat"] != 2:
            assert seat["plot_hand"] is None
            assert hand.locator(".chip.blank").count() == seat["plot_hand_count"]
        deck = page.locator(f"[data-zone='group_deck'][data-seat='{seat['seat']}'] .zone-title")
        assert deck.inner_text() == f"group deck {seat['group_deck_count']}"
    watched.assert_clean()


# ---- the power structure: the tree on the page is the view's ----

def test_the_power_structure_trees_are_the_view_s(table: Table, watched: Watched) -> None:
    """At the middle of every golden match: the page's parent→child pairs, each with its arrow,
    are the view's tree, and the text equivalent says the same."""
    page = _open(watched, table, next(iter(MATCHES)))
    for name in MATCHES:
        position = _middle(table, name)
        _show(page, table, name, position, "judge")
        state = _state(table, name, position, "judge")
        compared = 0
        for seat in state["seats"]:
            tree = seat["power_structure"]
            edges = _page_edges(page, seat["seat"])
            assert {(e["parent"], e["child"], e["arrow"]) for e in edges} == _edges(tree), name
            assert len(edges) == len(_edges(tree)), "each arrow drawn once"
            for edge in edges:  # the connector joins the drawn parent and names its arrow
                assert edge["parentChip"] == edge["parent"]
                assert edge["arrow"] in edge["label"]
            if tree:
                zone = f"[data-zone='structure'][data-seat='{seat['seat']}']"
                root = page.locator(f"{zone} li.ps-root > .ps-row .chip[data-card]")
                assert root.get_attribute("data-card") == tree["card"] == seat["illuminati"]["card"]
                names = {n["card"]: n["name"] for n in _nodes(tree)}
                said = page.eval_on_selector_all(f"{zone} .ps-said li",
                                                 "nodes => nodes.map(n => n.textContent)")
                expected = {f"{names[p]} controls {names[c]} by its {a} arrow."
                            for p, c, a in _edges(tree)}
                assert set(said) == (expected or {f"{tree['name']} controls no group yet."})
            compared += len(edges)
        assert compared == sum(seat["groups"] for seat in state["seats"]), name
    watched.assert_clean()


def test_a_card_of_the_tree_shows_its_power_resistance_and_tokens(
        table: Table, watched: Watched) -> None:
    name = "two-players-long-game"
    page = _open(watched, table, name)
    position = _middle(table, name)
    _show(page, table, name, position, "judge")
    state = _state(table, name, position, "judge")
    checked = 0
    for seat in state["seats"]:
        for node in _nodes(seat["power_structure"]):
            card = page.locator(f"[data-zone='structure'][data-seat='{seat['seat']}'] "
                                f"li.ps-node[data-node='{node['card']}'] > .ps-row .ps-card")
            assert card.locator(".ill-power").inner_text().startswith(f"P {node['power']}")
            if node.get("resistance") is not None:
                assert card.locator(".ill-resistance").inner_text() == f"R {node['resistance']}"
            tokens = card.locator(".ill-tokens")
            assert tokens.count() == (1 if node["tokens"] else 0)
            if node["tokens"]:
                assert f"{node['tokens']} token" in tokens.inner_text()
            checked += 1
    assert checked > 4
    watched.assert_clean()


# ---- the attack under way ----

def test_the_attack_panel_joins_the_attacker_to_its_target(table: Table, watched: Watched) -> None:
    name = "five-players-turn-limit"
    page = _open(watched, table, name)
    position = _middle(table, name)
    state = _state(table, name, position, "judge")
    while not state["attack"]:
        position += 1
        state = _state(table, name, position, "judge")
    attack = state["attack"]
    _show(page, table, name, position, "judge")
    panel = page.locator(".table-illuminati .ill-attack")
    assert panel.count() == 1
    attacker = panel.locator(".ill-attack-side")
    target = panel.locator(".ill-defence-side")
    assert attacker.locator(f".chip[data-card='{attack['attacker']}']").count() == 1
    assert target.locator(f".chip[data-card='{attack['target']}']").count() == 1
    assert attacker.locator(".ill-total strong").inner_text() == str(attack["attack_total"])
    assert target.locator(".ill-total strong").inner_text() == str(attack["defence_total"])
    for side, terms in ((attacker, attack["attack_terms"]), (target, attack["defence_terms"])):
        rows = side.locator(".ill-terms li")
        assert rows.count() == len(terms)
        for i, (label, value) in enumerate(terms):
            assert rows.nth(i).locator(".ill-term-name").inner_text() == label
            assert rows.nth(i).locator(".ill-term-value").inner_text() == str(value)
    arrow = panel.locator(".ill-attack-arrow")
    assert arrow.locator(".ill-arrow-head").count() == 1
    assert f"to {attack['purpose']}" in arrow.inner_text()
    label = panel.get_attribute("aria-label") or ""
    assert f"attack {attack['attack_total']} against defence {attack['defence_total']}" in label
    # the two cards are marked where they lie on the table too
    seat = attack["seat"]
    in_tree = page.locator(f"[data-zone='structure'][data-seat='{seat}'] "
                           f".chip[data-card='{attack['attacker']}']")
    assert "ill-attacker" in (in_tree.get_attribute("class") or "")
    marked = page.eval_on_selector_all(
        f".ill-seats .chip[data-card='{attack['target']}']", "nodes => nodes.map(n => n.className)")
    assert marked and all("ill-target" in c for c in marked)
    # and no panel when no attack is under way
    quiet = next(p for p in range(position, -1, -1)
                 if not _state(table, name, p, "judge")["attack"])
    _show(page, table, name, quiet, "judge")
    assert page.locator(".table-illuminati .ill-attack").count() == 0
    assert page.locator(".table-illuminati .chip.ill-attacker").count() == 0
    assert page.locator(".table-illuminati .chip.ill-target").count() == 0
    watched.assert_clean()


# ---- seats: eliminated, active; zones ----

def test_an_eliminated_seat_is_greyed_and_marked(table: Table, watched: Watched) -> None:
    name = "five-players-turn-limit"
    page = _open(watched, table, name)
    position = _last(table, name)
    state = _state(table, name, position, "spectator")
    assert state["eliminated"], "this match ends with a seat eliminated"
    _show(page, table, name, position, "spectator")
    for seat in state["seats"]:
        panel = page.locator(f".ill-seats > section.ill-seat[data-seat='{seat['seat']}']")
        out = seat["seat"] in state["eliminated"]
        assert ("ill-out" in (panel.get_attribute("class") or "")) == out
        assert (panel.locator(".ill-badge-out").count() == 1) == out
        assert ("eliminated" in (panel.get_attribute("aria-label") or "")) == out
    watched.assert_clean()


def test_the_active_seat_s_panel_is_marked(table: Table, watched: Watched) -> None:
    name = "six-players-in-progress"
    page = _open(watched, table, name)
    position = _middle(table, name)
    state = _state(table, name, position, "spectator")
    _show(page, table, name, position, "spectator")
    active = page.eval_on_selector_all(".ill-seats > section.ill-active",
                                       "nodes => nodes.map(n => Number(n.dataset.seat))")
    assert active == [state["active"]]
    panel = page.locator(f".ill-seats > section[data-seat='{state['active']}']")
    assert panel.get_attribute("aria-current") == "true"
    assert panel.locator(".ill-badge-active").inner_text() == "active"
    watched.assert_clean()


def test_zones_carry_data_zone_and_data_seat(table: Table, watched: Watched) -> None:
    name = "six-players-in-progress"
    page = _open(watched, table, name)
    position = _middle(table, name)
    _show(page, table, name, position, "judge")
    state = _state(table, name, position, "judge")
    for seat in state["seats"]:
        for zone in SEAT_ZONES:
            found = page.locator(f"[data-zone='{zone}'][data-seat='{seat['seat']}']")
            assert found.count() == 1, f"{zone}#{seat['seat']}"
            assert found.get_attribute("role") == "group"
            assert found.get_attribute("aria-label")
            assert found.locator(":scope > .zone-title").count() == 1
    for zone in ("new_world_order", "set_aside"):
        found = page.locator(f".table-illuminati [data-zone='{zone}']")
        assert found.count() == 1 and found.get_attribute("data-seat") is None
    watched.assert_clean()


def test_the_new_world_order_shows_each_colour_s_plot(table: Table, watched: Watched) -> None:
    name = "two-players-long-game"
    page = _open(watched, table, name)
    position = _middle(table, name)
    state = _state(table, name, position, "spectator")
    assert state["new_world_order"], "plots in play by the middle of the long game"
    _show(page, table, name, position, "spectator")
    items = page.locator("[data-zone='new_world_order'] .ill-nwo-item")
    assert items.count() == len(state["new_world_order"])
    for i, (colour, card) in enumerate(state["new_world_order"].items()):
        assert items.nth(i).locator(".ill-colour").inner_text() == colour
        assert items.nth(i).locator(".chip[data-card]").get_attribute("data-card") == card["card"]
    watched.assert_clean()


# ---- a phone ----

def test_on_a_phone_nothing_scrolls_sideways(table: Table, browser: Browser) -> None:
    """At 380 px: no page-wide horizontal scroll (the six-seat match in progress, an attack under
    way), and on finished matches no part of the board sticking out of it (their timeline's
    revealed seed, one long word, is the shared stylesheet's to wrap)."""
    context = browser.new_context(viewport={"width": 380, "height": 800})
    try:
        watched = guard(context)
        name = "six-players-in-progress"
        page = _open(watched, table, name)
        for position in (_middle(table, name), _last(table, name)):
            _show(page, table, name, position, "judge")
            page.wait_for_selector("#entries li.current", timeout=20_000)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 380 + 1, f"{name} at {position}: {width} px wide"
        for name in ("two-players-long-game", "five-players-turn-limit"):
            for position in (_middle(table, name), _last(table, name)):
                _show(page, table, name, position, "judge")
                wide = page.evaluate("""() => {
                    const board = document.querySelector('#board');
                    const right = board.getBoundingClientRect().right;
                    return [board.scrollWidth - board.clientWidth,
                            [...board.querySelectorAll('.table-illuminati *')]
                              .filter(n => n.getBoundingClientRect().right > right + 1 &&
                                           !n.closest('.visually-hidden'))
                              .map(n => n.className).slice(0, 5)];
                  }""")
                assert wide == [0, []], f"{name} at {position}: {wide}"
        watched.assert_clean()
    finally:
        context.close()
