"""Kami no Kijutsu's own board (replay/web/boards/kami.js) in a real browser against a real
server holding every kami golden match: the field drawn as two 7-hex areas across a border, each
hex with its address and what stands on it, each seat's side of the table, the open battle and
its stacks, for every viewer; checked against the API's view of the same position."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse
from uuid import UUID

import httpx
import pytest
from playwright.sync_api import Browser, Page, Response

from engine.core.viewer import JUDGE, Viewer
from ledger.fold import Fold, Visitor
from replay.service import Kiroku
from tests.replay.conftest import Server, serve
from tests.web.conftest import GOLDEN, Watched, card_ids, guard

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MATCHES = sorted((GOLDEN / "kami").glob("*/match.jsonl"))
VIEWERS = ("judge", "spectator", "seat:1", "seat:2")
SPOTS = ("1L", "1R", "2L", "2C", "2R", "3L", "3R")
NEIGHBOURS = {  # K1 (engine/kami/model.py)
    "1L": {"1R", "2L", "2C"}, "1R": {"1L", "2R", "2C"}, "2L": {"1L", "3L", "2C"},
    "2R": {"1R", "3R", "2C"}, "3L": {"2L", "3R", "2C"}, "3R": {"2R", "3L", "2C"},
    "2C": {"1L", "1R", "2L", "2R", "3L", "3R"},
}
BATTLE = ("declared-victory", 46)  # seat 2's Ember Sprite attacks A1:1R, Sudden Squall stacked
LIVE = "in-progress"  # not ended: spectators and seats do not see everything

# What the board shows, read from the page in one go.
READ_BOARD = """() => {
  const table = document.querySelector("#board-body .table-kami");
  const cards = (node, selector) => [...node.querySelectorAll(selector)].map((c) => c.dataset.card);
  const parts = (hex, selector) => [...hex.querySelectorAll(selector)].map((z) => ({
    seat: z.dataset.seat ?? null, zone: z.dataset.zone ?? null, hex: z.dataset.hex ?? null,
    cards: cards(z, ":scope > .chip[data-card], :scope > .chips > .chip[data-card]")}));
  const hexes = {};
  for (const hex of table.querySelectorAll(".field .hex[data-hex]")) {
    const box = hex.getBoundingClientRect();
    hexes[hex.dataset.hex] = {
      label: (hex.querySelector(".hex-address") || {}).textContent || "",
      aria: hex.getAttribute("aria-label") || "",
      territory: parts(hex, ".hex-part.territory"),
      unit: parts(hex, ".hex-part.unit:not(.attacker)"),
      attacker: parts(hex, ".hex-part.attacker"),
      options: parts(hex, ".hex-part.hex-options"),
      x: box.left + box.width / 2, y: box.top + box.height / 2, width: box.width,
    };
  }
  const seatOf = (node) => node.dataset.seatArea;
  const count = (selector) => {
    const node = table.querySelector(selector);
    return node ? node.textContent.trim() : null;
  };
  const seats = {};
  for (const area of table.querySelectorAll(".seat-area[data-seat-area]")) {
    const s = seatOf(area);
    seats[s] = {
      y: area.getBoundingClientRect().top,
      vp: count(`.seat-area[data-seat-area='${s}'] .vp .count`),
      ap: count(`[data-zone='ap'][data-seat='${s}'] .count`),
      deck: count(`[data-zone='deck'][data-seat='${s}'] .count`),
      stack: [...table.querySelectorAll(`[data-zone='stack'][data-seat='${s}'] .stack-list > li`)]
        .map((li) => ({card: li.querySelector(".chip[data-card]").dataset.card,
                       top: li.classList.contains("stack-top-card"),
                       y: li.getBoundingClientRect().top})),
      unseenClosed: [...area.querySelectorAll("details.unseen")].every((d) => !d.open),
      unseenCards: cards(area, "details.unseen .chip[data-card]").length,
    };
  }
  const areas = [...table.querySelectorAll(".field .area[data-area]")].map((a) => ({
    area: a.dataset.area, y: a.getBoundingClientRect().top,
    hexes: a.querySelectorAll(".hex").length}));
  const zones = [...table.querySelectorAll("[data-zone]")].map((z) => ({
    zone: z.dataset.zone, seat: z.dataset.seat ?? null, role: z.getAttribute("role"),
    label: z.getAttribute("aria-label") || "",
    title: (z.querySelector(":scope > .zone-title") || {}).textContent || ""}));
  return {
    hexes, seats, areas, zones,
    border: table.querySelectorAll(".field .border-line").length,
    battle: (table.querySelector(".battle-panel .part-title") || {}).textContent || null,
    tableChips: cards(table, ".chip[data-card]"),
    pageChips: cards(document.querySelector("#board-body"), ".chip[data-card]"),
  };
}"""


@dataclass(frozen=True)
class Kami:
    """The server over every kami golden match, by the golden match's directory name."""

    server: Server
    ids: dict[str, str]


@dataclass
class Shot:
    """One position as one viewer: the API's view and what the page drew."""

    match: str
    position: int
    viewer: str
    state: dict[str, Any]
    board: dict[str, Any]


@dataclass
class Shots:
    """Every position the tests read, and what the pages said while drawing them."""

    shots: list[Shot] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    watched: list[Watched] = field(default_factory=list)

    def at(self, match: str, position: int, viewer: str) -> Shot:
        return next(s for s in self.shots
                    if (s.match, s.position, s.viewer) == (match, position, viewer))


@pytest.fixture(scope="module")
def kami(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kami]:
    """A server over a fresh SQLite file holding every kami golden match."""
    db_path = tmp_path_factory.mktemp("kami-board") / "kami.db"
    kiroku = Kiroku.open("sqlite:///" + str(db_path))
    try:
        ids = {path.parent.name: str(kiroku.import_match(path.read_bytes()).match_id)
               for path in MATCHES}
    finally:
        kiroku.close()
    yield from (Kami(server, ids) for server in serve(db_path))


def _api_view(kami: Kami, match_id: str, position: int | None, viewer: str) -> dict[str, Any]:
    """GET /matches/{id}/state as ``viewer`` (a spectator without a credential)."""
    token = None if viewer == "spectator" else kami.server.organiser_token
    params: dict[str, Any] = {} if position is None else {"at": position}
    if viewer != "spectator":
        params["viewer"] = viewer
    with kami.server.client(token) as client:
        answer = client.get(f"/matches/{match_id}/state", params=params)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _last(kami: Kami, match: str, viewer: str) -> int:
    return int(_api_view(kami, kami.ids[match], None, viewer)["positions"])


def _registry(kami: Kami) -> str:
    return httpx.get(f"{kami.server.base}/static/boards/index.js", timeout=10).text


def _lists_kami(registry: str) -> bool:
    return re.search(r"^\s*kami\s*:", registry, re.MULTILINE) is not None


def _page(browser: Browser, shots: Shots, width: int = 1280,
          height: int = 900) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height})
    watched = guard(context)
    shots.watched.append(watched)
    watched.page.on("console", lambda m: shots.warnings.append(m.text)
                    if m.type == "warning" else None)
    return watched.page


def _sign_in_as_organiser(page: Page, kami: Kami, match_id: str) -> None:
    page.goto(f"{kami.server.base}/watch/{match_id}#at=0")
    page.wait_for_selector("#board[data-position='0']", timeout=20_000)
    page.fill("#token", kami.server.organiser_token)
    page.click("#sign-in")
    page.wait_for_selector("#viewer-label:not([hidden])", timeout=20_000)


def _goto(page: Page, kami: Kami, match_id: str, position: int, viewer: str) -> dict[str, Any]:
    """The board at ``position`` as ``viewer`` (a judge's page names the viewer in the hash),
    and the API's answer the page drew it from (GET /matches/{id}/state?at=N&viewer=V)."""
    def asked(response: Response) -> bool:
        url = urlparse(response.url)
        query = parse_qs(url.query)
        return (url.path == f"/matches/{match_id}/state" and query.get("at") == [str(position)]
                and query.get("viewer", ["spectator"]) == [viewer])

    hash_ = f"#at={position}" + ("" if viewer == "spectator" else f"&as={viewer}")
    with page.expect_response(asked, timeout=20_000) as answer:
        page.goto(f"{kami.server.base}/watch/{match_id}{hash_}")
    page.wait_for_selector(f"#board[data-position='{position}']", timeout=20_000)
    page.wait_for_function(
        "text => document.querySelector('#board-body').innerText.includes(text)",
        arg=f"Seen as {viewer}", timeout=20_000)
    page.wait_for_selector("#board-body .table-kami .field", timeout=20_000)
    assert answer.value.status == 200
    return dict(answer.value.json())


@pytest.fixture(scope="module")
def shots(kami: Kami, browser: Browser) -> Iterator[Shots]:
    """The start, middle and end of every kami golden match as a judge, a spectator and each
    seat, and the battle position, drawn once and read back for the tests below."""
    found = Shots()
    spectator = _page(browser, found)
    staff = _page(browser, found)
    try:
        _sign_in_as_organiser(staff, kami, kami.ids[MATCHES[0].parent.name])
        for path in MATCHES:
            match = path.parent.name
            match_id = kami.ids[match]
            # seat 2 everywhere (at the bottom, seat 1's hand hidden); seat 1 on one match
            for viewer in VIEWERS if match == BATTLE[0] else ("judge", "spectator", "seat:2"):
                page = spectator if viewer == "spectator" else staff
                answer = _goto(page, kami, match_id, 0, viewer)
                found.shots.append(Shot(match, 0, viewer, answer["state"],
                                        page.evaluate(READ_BOARD)))
                last = int(answer["positions"])
                extra = {BATTLE[1]} if match == BATTLE[0] else set()
                for position in sorted({last // 2, last} - {0} | extra):
                    answer = _goto(page, kami, match_id, position, viewer)
                    found.shots.append(Shot(match, position, viewer, answer["state"],
                                            page.evaluate(READ_BOARD)))
        yield found
    finally:
        for watched in found.watched:
            watched.context.close()


# ---- the board is the game's own, everywhere ----

def test_the_kami_table_is_drawn_at_the_start_middle_and_end_of_every_match_for_every_viewer(
        shots: Shots) -> None:
    assert len({(s.match, s.viewer) for s in shots.shots}) == len(MATCHES) * 3 + 1
    for shot in shots.shots:
        where = f"{shot.match} at {shot.position} as {shot.viewer}"
        board = shot.board
        assert sorted(a["area"] for a in board["areas"]) == ["1", "2"], where
        assert all(a["hexes"] == 7 for a in board["areas"]), where
        assert board["border"] == 1, where
        assert sorted(board["seats"]) == ["1", "2"], where


def test_no_position_made_the_board_throw_and_fall_back_to_the_generic_one(shots: Shots) -> None:
    assert not [w for w in shots.warnings if "board" in w], shots.warnings
    for watched in shots.watched:
        watched.assert_clean()


def test_every_hex_the_view_names_is_drawn_with_its_address(shots: Shots) -> None:
    for shot in shots.shots:
        where = f"{shot.match} at {shot.position} as {shot.viewer}"
        assert sorted(shot.board["hexes"]) == sorted(shot.state["board"]), where
        for address, hex_ in shot.board["hexes"].items():
            assert hex_["label"] == address, where
            assert hex_["aria"].startswith(f"hex {address}"), where


def test_every_card_of_the_api_s_view_is_a_chip_once(shots: Shots, kami: Kami) -> None:
    # the views the pages drew are the API's: asked again here, the middle of each line agrees
    for match, viewer in {(s.match, s.viewer) for s in shots.shots}:
        line = sorted(s.position for s in shots.shots if (s.match, s.viewer) == (match, viewer))
        middle = line[1]
        asked = _api_view(kami, kami.ids[match], middle, viewer)["state"]
        assert asked == shots.at(match, middle, viewer).state, (match, middle, viewer)
    for shot in shots.shots:
        where = f"{shot.match} at {shot.position} as {shot.viewer}"
        assert Counter(shot.board["tableChips"]) == card_ids(shot.state), where


def test_a_seat_s_page_shows_no_card_the_api_did_not_give_that_seat(shots: Shots) -> None:
    for shot in shots.shots:
        if shot.viewer in ("judge",):
            continue
        given = set(card_ids(shot.state))
        shown = set(shot.board["pageChips"])
        assert shown <= given, f"{shot.match} at {shot.position} as {shot.viewer}: {shown - given}"
    # in the match still going on, the judge's page shows cards the others' pages do not
    last = max(s.position for s in shots.shots if s.match == LIVE)
    judge = Counter(shots.at(LIVE, last, "judge").board["pageChips"])
    for viewer in ("spectator", "seat:2"):
        assert judge - Counter(shots.at(LIVE, last, viewer).board["pageChips"]), viewer


# ---- what stands on the field ----

def _expected_hex(cell: dict[str, Any], battle: dict[str, Any] | None,
                  address: str) -> dict[str, Any]:
    def seat(card: dict[str, Any]) -> str | None:
        return None if card.get("owner") is None else str(card["owner"])

    territory, unit = cell.get("territory"), cell.get("unit")
    attacker = battle["attacker"] if battle and battle["hex"] == address else None
    options: list[tuple[str | None, str]] = []
    for carrier in (unit, attacker):
        for option in (carrier or {}).get("options", []):
            options.append((seat(option), option["id"]))
    return {
        "territory": [(seat(territory), territory["id"])] if territory else [],
        "unit": [(seat(unit), unit["id"])] if unit else [],
        "attacker": [(seat(attacker), attacker["id"])] if attacker else [],
        "options": sorted(options, key=lambda x: (str(x[0]), x[1])),
    }


def _drawn_hex(hex_: dict[str, Any], address: str) -> dict[str, Any]:
    drawn: dict[str, Any] = {}
    for part in ("territory", "unit", "attacker", "options"):
        found: list[tuple[str | None, str]] = []
        for zone in hex_[part]:
            assert zone["zone"] == ("options" if part == "options" else "field")
            assert zone["hex"] == address
            found.extend((zone["seat"], card) for card in zone["cards"])
        drawn[part] = sorted(found, key=lambda x: (str(x[0]), x[1])) if part == "options" else found
    return drawn


def test_each_hex_holds_the_territory_unit_and_options_the_api_says_with_their_owners(
        shots: Shots) -> None:
    middle = [s for s in shots.shots if s.match == BATTLE[0] and s.viewer == "spectator"]
    assert any(any(c["unit"] and c["unit"]["options"] for c in s.state["board"].values())
               for s in middle), "a middle position of this match has an option on a unit"
    for shot in shots.shots:
        for address, cell in shot.state["board"].items():
            where = f"{shot.match} at {shot.position} as {shot.viewer}, {address}"
            assert _drawn_hex(shot.board["hexes"][address], address) == \
                _expected_hex(cell, shot.state.get("battle"), address), where


def test_the_middle_position_s_hexes_match_the_api(shots: Shots, kami: Kami) -> None:
    """A concrete check: the middle of the declared-victory match, hex by hex."""
    last = _last(kami, "declared-victory", "spectator")
    shot = shots.at("declared-victory", last // 2, "spectator")
    state = _api_view(kami, kami.ids["declared-victory"], last // 2, "spectator")["state"]
    golem = state["board"]["A1:1R"]
    assert golem["unit"]["name"] == "Wandering Golem" and golem["territory"]["owner"] == 1
    drawn = shot.board["hexes"]["A1:1R"]
    assert drawn["territory"] == [{"seat": "1", "zone": "field", "hex": "A1:1R",
                                   "cards": [golem["territory"]["id"]]}]
    assert [z["cards"] for z in drawn["unit"]] == [[golem["unit"]["id"]]]
    assert [z["cards"] for z in drawn["options"]] == [[o["id"] for o in golem["unit"]["options"]]]
    assert "Wandering Golem" in drawn["aria"] and "Rusting Curse" in drawn["aria"]
    empty = [a for a, c in state["board"].items() if not c["territory"] and not c["unit"]]
    assert empty and all(shot.board["hexes"][a]["aria"].endswith("empty") for a in empty)


def test_the_open_battle_is_a_panel_and_its_attacker_stands_on_the_hex(shots: Shots) -> None:
    shot = shots.at(BATTLE[0], BATTLE[1], "spectator")
    battle = shot.state["battle"]
    assert battle and battle["hex"] == "A1:1R"
    assert shot.board["battle"] == f"⚔ Battle on {battle['hex']}"
    attacker = shot.board["hexes"]["A1:1R"]["attacker"]
    assert attacker == [{"seat": str(battle["attacker_seat"]), "zone": "field", "hex": "A1:1R",
                         "cards": [battle["attacker"]["id"]]}]
    calm = shots.at(BATTLE[0], 0, "spectator")
    assert calm.state["battle"] is None and calm.board["battle"] is None


def test_adjacent_hexes_touch_and_the_others_do_not(shots: Shots) -> None:
    """The hexes are laid out as K1 says: centres one hex apart exactly for neighbours."""
    for viewer in ("spectator", "seat:2"):
        hexes = shots.at(BATTLE[0], BATTLE[1], viewer).board["hexes"]
        for area in ("A1", "A2"):
            for a in SPOTS:
                for b in SPOTS:
                    if a >= b:
                        continue
                    one, two = hexes[f"{area}:{a}"], hexes[f"{area}:{b}"]
                    apart = math.dist((one["x"], one["y"]), (two["x"], two["y"]))
                    near = abs(apart - one["width"]) < 2
                    assert near == (b in NEIGHBOURS[a]), f"{viewer}: {area}:{a} and {area}:{b}"


def test_the_viewer_s_seat_sits_at_the_bottom_and_the_field_turns_with_it(shots: Shots) -> None:
    for viewer, bottom in (("spectator", "1"), ("judge", "1"), ("seat:1", "1"), ("seat:2", "2")):
        board = shots.at(BATTLE[0], BATTLE[1], viewer).board
        top = "2" if bottom == "1" else "1"
        assert board["seats"][top]["y"] < board["seats"][bottom]["y"], viewer
        areas = {a["area"]: a["y"] for a in board["areas"]}
        assert areas[top] < areas[bottom], viewer
        hexes = board["hexes"]
        # the border lies between the two areas' first rows; each area's 3rd row is its far edge
        assert hexes[f"A{top}:3L"]["y"] < hexes[f"A{top}:1L"]["y"] < hexes[f"A{bottom}:1L"]["y"] \
            < hexes[f"A{bottom}:3L"]["y"], viewer
        # columns are named from seat 1's chair: seat 2 sees left and right reversed
        left_first = hexes["A1:2L"]["x"] < hexes["A1:2C"]["x"] < hexes["A1:2R"]["x"]
        assert left_first == (bottom == "1"), viewer


# ---- each seat's side of the table ----

def test_vp_ap_and_deck_counts_match_the_api(shots: Shots) -> None:
    for shot in shots.shots:
        for seat in shot.state["seats"]:
            drawn = shot.board["seats"][str(seat["seat"])]
            where = f"{shot.match} at {shot.position} as {shot.viewer}, seat {seat['seat']}"
            assert drawn["vp"] == str(seat["vp"]), where
            assert drawn["ap"] == str(seat["ap"]), where
            assert drawn["deck"] == str(seat["deck_count"]), where


def test_the_battle_stack_is_drawn_bottom_to_top_with_the_top_last(shots: Shots) -> None:
    shot = shots.at(BATTLE[0], BATTLE[1], "seat:2")
    stacks = shot.state["battle"]["stacks"]
    assert stacks["2"] and not stacks["1"]
    for seat, cards in stacks.items():
        drawn = shot.board["seats"][seat]["stack"]
        assert [d["card"] for d in drawn] == [c["id"] for c in cards]
        assert [d["top"] for d in drawn] == [i == len(cards) - 1 for i in range(len(cards))]


def test_zones_carry_their_name_seat_and_title_where_the_view_has_them(shots: Shots) -> None:
    for shot in shots.shots:
        where = f"{shot.match} at {shot.position} as {shot.viewer}"
        zones = {(z["zone"], z["seat"]) for z in shot.board["zones"]}
        for seat in shot.state["seats"]:
            s = str(seat["seat"])
            for name in ("hand", "deck", "ap", "discard", "forces"):
                assert (name, s) in zones, f"{where}: {name}#{s}"
            assert (("stack", s) in zones) == bool(shot.state.get("battle")), where
        for cell in shot.state["board"].values():
            for card in (cell["territory"], cell["unit"]):
                if card:
                    assert ("field", str(card["owner"])) in zones, where
        for zone in shot.board["zones"]:
            assert zone["role"] == "group" and zone["label"] and zone["title"], f"{where}: {zone}"


def test_the_judges_unseen_pool_is_collapsed_and_hidden_from_the_others(shots: Shots) -> None:
    last = max(s.position for s in shots.shots if s.match == LIVE)
    judge = shots.at(LIVE, last, "judge")
    for seat in judge.state["seats"]:
        drawn = judge.board["seats"][str(seat["seat"])]
        assert seat["unseen"] and drawn["unseenCards"] == len(seat["unseen"])
        assert drawn["unseenClosed"]
    for viewer in ("spectator", "seat:2"):
        other = shots.at(LIVE, last, viewer)
        assert all(s["unseen"] is None for s in other.state["seats"]), viewer
        assert all(s["unseenCards"] == 0 for s in other.board["seats"].values()), viewer


def test_a_step_forward_marks_only_the_card_that_moved(kami: Kami, browser: Browser) -> None:
    """Position 45 to 46: seat 2 interferes, Sudden Squall goes from its hand to its stack;
    the page's "what changed" (which reads a chip's place from the zones' titles) marks it
    alone, not the cards that stayed on their hexes."""
    found = Shots()
    page = _page(browser, found)
    try:
        match_id = kami.ids[BATTLE[0]]
        _goto(page, kami, match_id, BATTLE[1] - 1, "spectator")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"#board[data-position='{BATTLE[1]}']", timeout=20_000)
        changed = page.evaluate("""() => [...document.querySelectorAll('#board-body .chip.changed')]
          .map((c) => [c.dataset.card, c.dataset.changed])""")
        assert changed == [["KNK-F01", "Seat 2 · battle stack, bottom to top"]]
        found.watched[0].assert_clean()
    finally:
        page.context.close()


# ---- a variation, every position, a phone ----

def test_a_variation_s_deeper_stack_keeps_its_order(kami: Kami, browser: Browser) -> None:
    """A what-if line from the battle: seat 2 interferes twice, seat 1 reinforces."""
    match_id = kami.ids[BATTLE[0]]
    with kami.server.client(kami.server.organiser_token) as judge:
        line = judge.post(f"/matches/{match_id}/variations",
                          json={"name": "two interferences", "position": BATTLE[1] - 1})
        assert line.status_code == 201, line.text
        line_id = line.json()["variation_id"]
        for action in (
                {"type": "interfere", "seat": 2, "card": "KNK-F01"},
                {"type": "pass_battle", "seat": 1},
                {"type": "adjust", "seat": 2, "reason": "a card text",
                 "move": {"card": "KNK-F02", "from_zone": "deck", "to_zone": "hand"}},
                {"type": "interfere", "seat": 2, "card": "KNK-F02"},
                {"type": "adjust", "seat": 1, "reason": "a card text",
                 "counter": {"name": "ap", "value": 2}},
                {"type": "reinforce", "seat": 1, "card": "KNK-U10"}):
            played = judge.post(f"/variations/{line_id}/actions", json={"action": action})
            assert played.status_code == 201, played.text
        state = judge.get(f"/variations/{line_id}").json()["state"]
    stacks = state["battle"]["stacks"]
    assert [c["id"] for c in stacks["2"]] == ["KNK-F01", "KNK-F02"]
    found = Shots()
    page = _page(browser, found)
    try:
        _sign_in_as_organiser(page, kami, match_id)
        page.goto(f"{kami.server.base}/watch/{match_id}#line={line_id}&at=6")
        page.wait_for_selector(f"#board[data-line='{line_id}'][data-position='6']", timeout=20_000)
        board = page.evaluate(READ_BOARD)
        for seat, cards in stacks.items():
            drawn = board["seats"][seat]["stack"]
            assert [d["card"] for d in drawn] == [c["id"] for c in cards], seat
            assert [d["top"] for d in drawn] == [i == len(cards) - 1 for i in range(len(cards))]
            assert [d["y"] for d in drawn] == sorted(d["y"] for d in drawn), "bottom first"
        assert Counter(board["tableChips"]) == card_ids(state)
        assert not found.warnings
        found.watched[0].assert_clean()
    finally:
        page.context.close()


def _all_views(kami: Kami) -> list[dict[str, Any]]:
    """Every live position of every kami golden match as each viewer sees it: the match's
    records folded once (ledger.fold keeps every live position), each position through the
    ruleset's own view, the function the API answers with (what a viewer sees of an ended
    match may be more, never less)."""
    views: list[dict[str, Any]] = []
    kiroku = Kiroku.open(kami.server.db_url)
    try:
        for match_id in kami.ids.values():
            fold = Fold(Visitor()).feed_all(kiroku.records(kiroku.seen_by(UUID(match_id), JUDGE)))
            for position in range(len(fold.live) + 1):
                state = fold.position(position)
                views.extend({**fold.ruleset.view(state, Viewer.parse(viewer)), "viewer": viewer}
                             for viewer in VIEWERS)
    finally:
        kiroku.close()
    return views


def test_no_position_of_any_match_makes_the_board_throw(kami: Kami, browser: Browser) -> None:
    views = _all_views(kami)
    ends = [json.loads((path.parent / "expected.json").read_text())["positions"]
            for path in MATCHES]
    assert len(views) == len(VIEWERS) * sum(last + 1 for last in ends)
    assert any(v["viewer"] == "seat:1" and v["seats"][1]["hand"] is None for v in views)
    found = Shots()
    page = _page(browser, found)
    try:
        page.goto(f"{kami.server.base}/watch/{kami.ids[BATTLE[0]]}#at=0")
        page.wait_for_selector("#board[data-position='0']", timeout=20_000)
        failures = page.evaluate("""async (text) => {
          const views = JSON.parse(text);
          const board = await import("/static/boards/kami.js");
          const { kit } = await import("/static/board.js");
          const failed = [];
          for (const state of views) {
            try {
              const nodes = board.draw(state, kit);
              const hexes = nodes.some((n) => n.querySelector && n.querySelector(".field .hex"));
              if (!hexes) failed.push(`no field as ${state.viewer}`);
            } catch (error) { failed.push(String(error)); }
          }
          return failed;
        }""", json.dumps(views))
        assert failures == []
        found.watched[0].assert_clean()
    finally:
        page.context.close()


def test_a_phone_shows_the_table_without_page_wide_horizontal_scroll(kami: Kami,
                                                                     browser: Browser) -> None:
    found = Shots()
    page = _page(browser, found, width=380, height=800)
    try:
        match_id = kami.ids["in-progress"]
        last = _last(kami, "in-progress", "spectator")
        for position in (last // 2, last):
            _goto(page, kami, match_id, position, "spectator")
            assert page.evaluate("document.documentElement.scrollWidth") <= 380 + 1
        # the battle, the most crowded hex: neither the page nor the board itself overflows
        _goto(page, kami, kami.ids[BATTLE[0]], BATTLE[1], "spectator")
        assert page.evaluate("document.documentElement.scrollWidth") <= 380 + 1
        assert page.evaluate("""() => {
          const board = document.querySelector('#board');
          return board.scrollWidth <= board.clientWidth + 1;
        }""")
        assert page.locator(".table-kami .field .hex").count() == 14
        found.watched[0].assert_clean()
    finally:
        page.context.close()


def test_the_golden_matches_are_all_served(kami: Kami) -> None:
    assert len(kami.ids) == len(MATCHES) >= 4
    assert all(Path(p).exists() for p in MATCHES)


def test_the_registry_lists_the_kami_board(kami: Kami) -> None:
    assert _lists_kami(_registry(kami)), "replay/web/boards/index.js does not list kami"
