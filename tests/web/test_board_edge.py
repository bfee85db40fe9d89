"""On the Edge's own board (replay/web/boards/edge.js) in a real Chromium against a real server
holding every golden match of the game: the table's centre and one panel per seat, each seat's
conspiracy (陰謀団) a grid of ranks and files with every character in the cell of its rank and
file, flipped characters face down but named (OQ28), an attack's attacker and target facing each
other, every card of the API's view on the page and nothing a seat may not see."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from replay.service import Kiroku
from tests.replay.conftest import Server, serve
from tests.web.conftest import GOLDEN, ROOT, Watched, card_ids

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MATCHES = sorted(path.parent.name for path in (GOLDEN / "edge").glob("*/match.jsonl"))
REGISTRY = ROOT / "replay" / "web" / "boards" / "index.js"
OWN_BOARD = re.compile(r"""\bedge\s*:\s*own\(\s*["']edge["']\s*\)""")
ZONES = ("hand", "deck", "conspiracy", "field", "dead")
# A conspiracy grid's cells in order: [address, its characters' ids, their attachments' ids].
CELLS = """g => [...document.querySelectorAll(g + ' [data-address]')].map(c => [
  c.dataset.address,
  [...c.querySelectorAll(':scope > .edge-card > .chip[data-card]')].map(x => x.dataset.card),
  [...c.querySelectorAll('.edge-attached .chip[data-card]')].map(x => x.dataset.card)])"""


@pytest.fixture(scope="module")
def edge_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh SQLite file holding every golden match of On the Edge, and their ids by name."""
    db_path = tmp_path_factory.mktemp("edge-board") / "edge.db"
    ids: dict[str, str] = {}
    kiroku = Kiroku.open("sqlite:///" + str(db_path))
    try:
        for name in MATCHES:
            imported = kiroku.import_match((GOLDEN / "edge" / name / "match.jsonl").read_bytes())
            ids[name] = str(imported.match_id)
    finally:
        kiroku.close()
    return db_path, ids


@pytest.fixture(scope="module")
def edge_web(edge_db: tuple[Path, dict[str, str]]) -> Iterator[Server]:
    """The server over that file."""
    yield from serve(edge_db[0])


@pytest.fixture(scope="module")
def matches(edge_web: Server, edge_db: tuple[Path, dict[str, str]]) -> dict[str, tuple[str, int]]:
    """Each golden match's id and last position, by its directory's name."""
    found: dict[str, tuple[str, int]] = {}
    with edge_web.client(edge_web.organiser_token) as judge:
        for name, match_id in edge_db[1].items():
            answer = judge.get(f"/matches/{match_id}/state")
            assert answer.status_code == 200, answer.text
            found[name] = (match_id, int(answer.json()["positions"]))
    return found


@pytest.fixture
def page(watched: Watched) -> Iterator[Page]:
    """The watched page; at the end, no board fell back to the generic one (match.js warns
    when a board does not load or throws) and nothing went wrong in the page."""
    fallbacks: list[str] = []
    watched.page.on("console", lambda m: fallbacks.append(m.text)
                    if m.type == "warning" and "board" in m.text else None)
    yield watched.page
    assert fallbacks == [], f"the edge board fell back to the generic one: {fallbacks}"
    watched.assert_clean()


def _sign_in(page: Page, server: Server) -> None:
    page.fill("#token", server.organiser_token)
    page.click("#sign-in")
    page.wait_for_selector("#viewer-label:not([hidden])", timeout=20_000)


def _open(page: Page, server: Server, match_id: str, position: int,
          viewer: str | None = None) -> None:
    """The board at ``position`` (as ``viewer`` when signed in as a judge), the edge one drawn.
    Another position of the same match for the same viewer is a change of the hash; anything
    else a fresh load of the page (a viewer's change through the hash reloads the timeline, and
    the page then shows the position it was asked for before: a later one must not race it)."""
    url = f"{server.base}/watch/{match_id}"
    hash_ = f"#at={position}" + (f"&as={viewer}" if viewer else "")
    here, _, shown = str(page.evaluate("window.location.href")).partition("#")
    if here != url or dict(re.findall(r"(\w+)=([^&]*)", shown)).get("as") != viewer:
        page.goto("about:blank")
    page.goto(url + hash_)
    page.wait_for_function(
        """([hash, at, viewer]) => window.location.hash === hash
           && document.querySelector('#board').dataset.position === at
           && (!viewer || document.querySelector('#board-body').innerText
                              .includes('Seen as ' + viewer))""",
        arg=[hash_, str(position), viewer or ""], timeout=20_000)
    page.wait_for_selector(".table-edge .edge-seats", timeout=20_000)


def _state(server: Server, match_id: str, position: int, viewer: str | None) -> dict[str, Any]:
    params: dict[str, Any] = {"at": position}
    if viewer:
        params["viewer"] = viewer
    with server.client(server.organiser_token) as judge:
        answer = judge.get(f"/matches/{match_id}/state", params=params)
    assert answer.status_code == 200, answer.text
    return dict(answer.json()["state"])


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _page_chips(page: Page) -> list[str]:
    return [str(x) for x in page.evaluate(
        "() => [...document.querySelectorAll('.table-edge .chip[data-card]')]"
        ".map(c => c.dataset.card)")]


@pytest.fixture(scope="module")
def first(edge_web: Server, matches: dict[str, tuple[str, int]]) -> dict[tuple[str, str], int]:
    """The first position of a match whose judge's view holds a key (not null), searched once:
    an attack declared (combat) and an eliminated seat."""
    wanted = {("six-players-in-progress", "combat"), ("two-players-long", "combat"),
              ("three-players-concession", "eliminated")}
    found: dict[tuple[str, str], int] = {}
    with edge_web.client(edge_web.organiser_token) as judge:
        for name in sorted({n for n, _ in wanted}):
            match_id, last = matches[name]
            keys = {k for n, k in wanted if n == name}
            for position in range(last + 1):
                state = judge.get(f"/matches/{match_id}/state",
                                  params={"at": position}).json()["state"]
                for key in keys - {k for n, k in found if n == name}:
                    if state.get(key):
                        found[(name, key)] = position
                if all((name, k) in found for k in keys):
                    break
    assert set(found) == wanted, f"no such position: {wanted - set(found)}"
    return found


def test_the_board_registry_lists_edge() -> None:
    assert OWN_BOARD.search(REGISTRY.read_text()), \
        "replay/web/boards/index.js must list `edge: own(\"edge\")`"


@pytest.mark.parametrize("name", MATCHES)
def test_the_edge_board_is_drawn_at_the_start_middle_and_end_for_every_viewer(
        edge_web: Server, matches: dict[str, tuple[str, int]], page: Page, name: str) -> None:
    match_id, last = matches[name]
    # a spectator (not signed in), then a judge's credential seeing as the judge and as seat 1
    for viewer in ("spectator", "judge", "seat:1"):
        if viewer == "judge":
            _sign_in(page, edge_web)
        for position in (0, last // 2, last):
            _open(page, edge_web, match_id, position, None if viewer == "spectator" else viewer)
            assert f"Seen as {viewer}" in page.inner_text("#board-body")
            state = _state(edge_web, match_id, position, viewer)
            seats = [s["seat"] for s in state["seats"]]
            shown = page.evaluate(
                "() => [...document.querySelectorAll('.table-edge .edge-seat')]"
                ".map(s => Number(s.dataset.seatPanel))")
            assert sorted(shown) == seats, (viewer, position)
            if viewer == "seat:1":
                assert shown[0] == 1, "the viewing seat's panel comes first"
            for seat in seats:
                grid = f".table-edge [data-zone='conspiracy'][data-seat='{seat}']"
                assert page.locator(grid).count() == 1
            assert page.locator(".table-edge .edge-centre [data-zone='reserve']").count() == 1
            assert page.locator(".table-edge > .top-boxes").count() == 0, "nothing left over"


def test_every_card_of_the_view_is_a_chip_and_a_seat_sees_nothing_more(
        edge_web: Server, matches: dict[str, tuple[str, int]], page: Page) -> None:
    live_id, live_last = matches["six-players-in-progress"]
    long_id, long_last = matches["two-players-long"]
    page.goto(f"{edge_web.base}/watch/{live_id}#at=0")
    page.wait_for_selector("#board[data-position='0']", timeout=20_000)
    _sign_in(page, edge_web)
    cases = [(live_id, live_last // 2, "seat:2"), (live_id, live_last, "seat:3"),
             (live_id, live_last, "spectator"), (live_id, live_last // 2, "judge"),
             (long_id, long_last // 2, "judge"), (long_id, long_last, "seat:1")]
    for match_id, position, viewer in cases:
        state = _state(edge_web, match_id, position, viewer)
        _open(page, edge_web, match_id, position, viewer)
        chips = set(_page_chips(page))
        expected = set(card_ids(state))
        assert expected, (match_id, position, viewer)
        assert expected <= chips, f"missing: {sorted(expected - chips)} ({position}, {viewer})"
        assert chips <= _strings(state), f"not in the view: {sorted(chips - _strings(state))}"
    # a seat of a live match sees its own hand and no other seat's card in hand or deck
    state = _state(edge_web, live_id, live_last, "seat:3")
    _open(page, edge_web, live_id, live_last, "seat:3")
    judge = _state(edge_web, live_id, live_last, "judge")
    hidden = set().union(*(set(card_ids(s["hand"])) | set(card_ids(s["deck"]))
                           for s in judge["seats"] if s["seat"] != 3)) - set(card_ids(state))
    assert hidden, "other seats hold cards seat 3 cannot know"
    assert not hidden & set(_page_chips(page))
    own = set(card_ids(state["seats"][2]["hand"]))
    assert own and own <= set(_page_chips(page))


def test_each_character_sits_in_the_cell_of_its_rank_and_file(
        edge_web: Server, matches: dict[str, tuple[str, int]], page: Page) -> None:
    checked = 0
    for name in ("two-players-long", "three-players-concession", "seven-players-turn-limit"):
        match_id, last = matches[name]
        position = last // 2
        state = _state(edge_web, match_id, position, None)
        _open(page, edge_web, match_id, position)
        for seat in state["seats"]:
            grid = f".table-edge [data-zone='conspiracy'][data-seat='{seat['seat']}']"
            characters = seat["conspiracy"]
            cells = page.evaluate(CELLS, grid)
            if not characters:
                assert cells == []
                continue
            ranks = max(c["rank"] for c in characters)
            files = max(c["file"] for c in characters)
            order = [f"{r}.{f}" for r in range(1, ranks + 1) for f in range(1, files + 1)]
            assert [c[0] for c in cells] == order, "rank 1 first, files in order"
            placed = {address: ids for address, ids, _ in cells if ids}
            expected: dict[str, list[str]] = {}
            for c in characters:
                expected.setdefault(f"{c['rank']}.{c['file']}", []).append(c["id"])
            assert placed == expected, (name, seat["seat"])
            attached = {address: sorted(ids) for address, _, ids in cells if ids}
            assert attached == {f"{c['rank']}.{c['file']}": sorted(a["id"] for a in c["attached"])
                                for c in characters if c["attached"]}
            empty = page.locator(f"{grid} [data-address].edge-cell-empty").count()
            assert empty == ranks * files - len(expected)
            for c in characters:
                cell = page.locator(f"{grid} [data-address='{c['rank']}.{c['file']}']")
                if c["state"] == "cranked":
                    assert "cranked" in cell.inner_text().lower()
            checked += len(characters)
    assert checked >= 5, "the middle positions hold characters"


def test_a_flipped_character_is_face_down_but_named_in_a_variation(
        edge_web: Server, matches: dict[str, tuple[str, int]], page: Page) -> None:
    match_id, last = matches["two-players-long"]
    position = last // 2
    state = _state(edge_web, match_id, position, None)
    seat = next(s for s in state["seats"] if s["conspiracy"])
    character = seat["conspiracy"][0]
    with edge_web.client(edge_web.organiser_token) as judge:
        created = judge.post(f"/matches/{match_id}/variations", json={
            "name": "flipped", "position": position, "visibility": "public"})
        assert created.status_code == 201, created.text
        line = created.json()["variation_id"]
        added = judge.post(f"/variations/{line}/actions", json={"action": {
            "type": "adjust", "seat": seat["seat"], "reason": "card text flips it",
            "counter": {"name": f"state:{character['id']}", "value": 2}}})
        assert added.status_code == 201, added.text
        after = judge.get(f"/variations/{line}", params={"at": 1}).json()["state"]
    flipped = next(c for s in after["seats"] for c in s["conspiracy"] if c["id"] == character["id"])
    assert flipped["state"] == "flipped"
    page.goto(f"{edge_web.base}/watch/{match_id}#at=0")
    page.wait_for_selector("#board[data-position='0']", timeout=20_000)
    _sign_in(page, edge_web)
    page.goto("about:blank")  # a fresh load: nothing of the signing in still under way
    page.goto(f"{edge_web.base}/watch/{match_id}#line={line}&at=1")
    page.wait_for_selector(f"#board[data-line='{line}'][data-position='1']", timeout=20_000)
    page.wait_for_selector(".table-edge .edge-seats", timeout=20_000)
    cell = page.locator(f".table-edge [data-zone='conspiracy'][data-seat='{seat['seat']}'] "
                        f"[data-address='{flipped['rank']}.{flipped['file']}']")
    chip = cell.locator(f".chip[data-card='{character['id']}']")
    assert chip.count() == 1
    assert "edge-flipped" in (chip.get_attribute("class") or "")
    assert character["name"] in chip.inner_text(), "a flipped character stays named (OQ28)"
    assert "flipped" in cell.inner_text().lower()
    others = page.locator(".table-edge .chip.edge-flipped").count()
    assert others == 1, "only the flipped character is face down"


def test_eight_seats_render_with_the_active_seat_marked(
        edge_web: Server, matches: dict[str, tuple[str, int]], page: Page) -> None:
    match_id, last = matches["eight-players-turn-limit"]
    position = last // 2
    state = _state(edge_web, match_id, position, None)
    _open(page, edge_web, match_id, position)
    panels = page.locator(".table-edge .edge-seats > .edge-seat")
    assert panels.count() == 8
    active = page.locator(".table-edge .edge-seat.edge-active")
    assert active.count() == 1
    assert active.get_attribute("data-seat-panel") == str(state["active"])
    assert active.get_attribute("aria-current") == "true"
    for seat in state["seats"]:
        panel = page.locator(f".table-edge .edge-seat[data-seat-panel='{seat['seat']}']")
        assert f"Seat {seat['seat']}" in panel.locator(".edge-seat-name").inner_text()
        assert panel.locator(".edge-influence-value").inner_text() == str(seat["influence"])
        for zone, count in (("hand", seat["hand_count"]), ("deck", seat["deck_count"])):
            title = panel.locator(f"[data-zone='{zone}'] > .zone-title").inner_text()
            assert f"{zone} ({count})" in title
    # readable at 1280 px: no panel wider than its column
    overflow = page.evaluate("() => [...document.querySelectorAll('.table-edge .edge-seat')]"
                             ".filter(p => p.scrollWidth > p.clientWidth + 1).length")
    assert overflow == 0
    columns = page.evaluate("() => new Set([...document.querySelectorAll('.table-edge .edge-seat')]"
                            ".map(p => Math.round(p.getBoundingClientRect().left))).size")
    assert columns >= 2, "panels side by side at 1280 px"
    page.set_viewport_size({"width": 380, "height": 800})
    columns = page.evaluate("() => new Set([...document.querySelectorAll('.table-edge .edge-seat')]"
                            ".map(p => Math.round(p.getBoundingClientRect().left))).size")
    assert columns == 1, "panels stacked at 380 px"
    table = page.evaluate("() => { const t = document.querySelector('.table-edge');"
                          " return [t.scrollWidth, t.clientWidth]; }")
    assert table[0] <= table[1] + 1


def test_an_eliminated_seat_is_greyed(edge_web: Server, matches: dict[str, tuple[str, int]],
                                      first: dict[tuple[str, str], int], page: Page) -> None:
    match_id, _ = matches["three-players-concession"]
    position = first[("three-players-concession", "eliminated")]
    state = _state(edge_web, match_id, position, None)
    _open(page, edge_web, match_id, position)
    out = page.evaluate("() => [...document.querySelectorAll('.table-edge .edge-seat.edge-out')]"
                        ".map(p => Number(p.dataset.seatPanel))")
    assert sorted(out) == sorted(state["eliminated"])
    assert "eliminated" in page.locator(".table-edge .edge-seat.edge-out").first.inner_text()


def test_the_combat_panel_faces_attacker_and_target(
        edge_web: Server, matches: dict[str, tuple[str, int]], first: dict[tuple[str, str], int],
        page: Page) -> None:
    for name in ("six-players-in-progress", "two-players-long"):
        match_id, _ = matches[name]
        position = first[(name, "combat")]
        state = _state(edge_web, match_id, position, None)
        combat = state["combat"]
        _open(page, edge_web, match_id, position)
        panel = page.locator(".table-edge .edge-combat[data-zone='combat']")
        assert panel.count() == 1
        attacker = panel.locator(f".edge-side-attacker .chip[data-card='{combat['attacker']}']")
        target = panel.locator(f".edge-side-target .chip[data-card='{combat['target']}']")
        assert attacker.count() == 1 and target.count() == 1
        assert f"Seat {combat['defender']}" in panel.locator(".edge-side-target").inner_text()
        a, t = attacker.bounding_box(), target.bounding_box()
        assert a and t and a["x"] + a["width"] <= t["x"], "attacker on the left, facing the target"
        said = panel.locator(".visually-hidden").inner_text()
        assert "attacks" in said and f"Seat {combat['defender']}" in said
        # in the grids, the two are marked where they stand
        for role, card in (("attacker", combat["attacker"]), ("target", combat["target"])):
            marked = page.locator(f".table-edge [data-zone='conspiracy'] .edge-card.edge-{role} "
                                  f".chip[data-card='{card}']")
            assert marked.count() == 1
        attacked = page.evaluate("() => [...document.querySelectorAll('.table-edge "
                                 ".edge-badge-attacked')].map(b => Number(b.closest('.edge-seat')"
                                 ".dataset.seatPanel))")
        assert sorted(attacked) == sorted(state["attacked"])
    _open(page, edge_web, match_id, 0)
    assert page.locator(".table-edge .edge-combat").count() == 0


def test_the_table_s_centre_reads_as_the_view(
        edge_web: Server, matches: dict[str, tuple[str, int]], first: dict[tuple[str, str], int],
        page: Page) -> None:
    match_id, _ = matches["six-players-in-progress"]
    position = first[("six-players-in-progress", "combat")]
    state = _state(edge_web, match_id, position, None)
    _open(page, edge_web, match_id, position)
    for kind, value in state["reserve"].items():
        shown = page.locator(f".table-edge [data-zone='reserve'] [data-pull='{kind}']").inner_text()
        assert shown == str(value)
    facts = dict(page.evaluate(
        "() => [...document.querySelectorAll('.table-edge .edge-turn-facts dt')]"
        ".map(dt => [dt.textContent, dt.nextElementSibling.textContent])"))
    assert facts["first player"].startswith(f"Seat {state['first_player']}")
    assert facts["0-cost card used this turn"] == ("yes" if state["zero_cost_used"] else "no")
    assert facts["attacked this turn"] == ", ".join(
        f"Seat {s} · {state['players'][s - 1]['name']}" for s in state["attacked"])
    opener = page.locator(f".table-edge .edge-seat[data-seat-panel='{state['first_player']}']")
    assert "first player" in opener.locator(".edge-badges").inner_text()


def test_zones_carry_data_zone_and_data_seat(
        edge_web: Server, matches: dict[str, tuple[str, int]], page: Page) -> None:
    match_id, last = matches["six-players-in-progress"]
    page.goto(f"{edge_web.base}/watch/{match_id}#at=0")
    page.wait_for_selector("#board[data-position='0']", timeout=20_000)
    _sign_in(page, edge_web)
    for viewer in ("spectator", "seat:1"):
        state = _state(edge_web, match_id, last, viewer)
        _open(page, edge_web, match_id, last, viewer)
        for seat in state["seats"]:
            for zone in ZONES:
                found = page.evaluate(
                    "([z, s]) => { const n = document.querySelectorAll("
                    "`.table-edge [data-zone='${z}'][data-seat='${s}']`);"
                    " return [...n].map(x => [x.getAttribute('role'), x.getAttribute('aria-label'),"
                    " Boolean(x.querySelector(':scope > .zone-title'))]); }", [zone, seat["seat"]])
                assert len(found) == 1, (zone, seat["seat"])
                role, aria, titled = found[0]
                assert role == "group" and aria and zone.split("_")[0] in aria and titled
            hand = page.locator(f".table-edge [data-zone='hand'][data-seat='{seat['seat']}']")
            if seat["hand"] is None:
                assert f"{seat['hand_count']} hidden" in hand.inner_text()
                assert hand.locator(".chip[data-card]").count() == 0
            else:
                assert hand.locator(".chip[data-card]").count() == len(seat["hand"])


def test_no_page_wide_horizontal_scroll_at_380_px(
        edge_web: Server, matches: dict[str, tuple[str, int]], first: dict[tuple[str, str], int],
        page: Page) -> None:
    page.set_viewport_size({"width": 380, "height": 800})
    match_id, last = matches["six-players-in-progress"]
    combat = first[("six-players-in-progress", "combat")]
    for position in (last // 2, combat, last):
        _open(page, edge_web, match_id, position)
        assert page.evaluate("document.documentElement.scrollWidth") <= 380 + 1, position
    # ended matches: the board itself never overflows (the grid scrolls inside its own box)
    for name in ("two-players-long", "three-players-concession", "eight-players-turn-limit"):
        match_id, last = matches[name]
        _open(page, edge_web, match_id, last // 2)
        width = page.evaluate("() => { const t = document.querySelector('.table-edge');"
                              " return [t.scrollWidth, t.clientWidth,"
                              " t.getBoundingClientRect().right]; }")
        assert width[0] <= width[1] + 1 and width[2] <= 380 + 1, (name, width)


ODD_VIEWS = """async () => {
  const { draw } = await import('/static/boards/edge.js');
  const { kit } = await import('/static/board.js');
  const views = [
    {}, {seats: null}, {seats: [null, 3, {seat: 1}]},
    {seats: [{seat: 1, conspiracy: [null, {id: 'X@1.1', name: 'X', rank: 'a'},
                                    {id: 'Y@1.2', name: 'Y', rank: 1, file: 1, attached: null,
                                     state: 'flipped'}],
              field: [null, 'Z'], hand: null, hand_count: 0, deck: [], dead: null,
              extra: {a: 1}, note: 'n'}],
     combat: {attacker: 'Y@1.2', target: 'Q@2.1', defender: null},
     claim: {seat: 1, card: 'Y@1.2', reason: null, accepted: null}, reserve: 5, attacked: null,
     first_player: null, other: [1, 2]},
    {combat: 'weird', claim: 'x', reserve: null, viewer: 'seat:9',
     seats: [{seat: 2, conspiracy: 'nope'}]},
  ];
  return views.map((view) => {
    try { return draw(view, kit).every((node) => node instanceof Node) ? 'ok' : 'not nodes'; }
    catch (error) { return String(error); }
  });
}"""


def test_the_board_never_throws_on_odd_views(
        edge_web: Server, matches: dict[str, tuple[str, int]], page: Page) -> None:
    match_id, _ = matches["four-players-table"]
    _open(page, edge_web, match_id, 0)
    assert page.evaluate(ODD_VIEWS) == ["ok"] * 5
