"""A tournament's public page in Chromium (issue 42), on a phone: the event's name, game,
format and status, the current round's tables first (players, status, score, a link to watch
each game), the earlier rounds by the round selector, the standings with the event's
tie-breakers and the players, each equal to what the public API answers; the page follows
the event live (a result recorded elsewhere shows without a reload, nothing redrawn that did
not change, the scroll position kept); the match list links a match's tournament to it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from ledger.catalog import sample_decks
from tests.replay.conftest import Server, serve
from tests.web.conftest import Watched, guard
from tests.web.test_signin_page import PHONE, SHOTS

DECKS = {name: dict(deck.cards) for name, deck in sample_decks("worldgainer").items()}
PLAYERS = [("Ann", "1001"), ("Ben", "1002"), ("Cid", "1003"), ("Dee", "1004"),
           ("Eve", "1005"), ("Fay", "1006"), ("Gus", "1007")]
FOLD = 844  # a phone's screen height (PHONE's viewport)


@dataclass
class Event:
    """A tournament paired on a server, and its organiser's client."""

    server: Server
    tournament_id: str
    organiser: httpx.Client
    rounds: dict[int, dict[str, Any]]  # each round's answer when paired (seat tokens in it)
    player_ids: dict[str, str]  # by name

    @property
    def url(self) -> str:
        return f"/tournaments/{self.tournament_id}"

    def match(self, round_number: int, table: int) -> str:
        return str(next(t["match_id"] for t in self.rounds[round_number]["tables"]
                        if t["table"] == table))

    def seat_token(self, round_number: int, table: int, seat: int) -> str:
        entry = next(t for t in self.rounds[round_number]["tables"] if t["table"] == table)
        return str(entry["seats"][seat - 1]["token"])

    def pair(self, tables: list[tuple[int, list[str]]], byes: list[str]) -> None:
        paired = self.organiser.post(f"{self.url}/rounds", json={
            "tables": [{"table": n, "players": p} for n, p in tables], "byes": byes})
        assert paired.status_code == 201, paired.text
        self.rounds[paired.json()["round"]] = paired.json()

    def concede(self, round_number: int, table: int, seat: int) -> None:
        done = self.organiser.post(f"/matches/{self.match(round_number, table)}/actions",
                                   json={"action": {"type": "concede", "seat": seat}})
        assert done.status_code == 201, done.text

    def read(self, path: str) -> Any:
        with self.server.client() as anyone:  # what the public page reads: no credential
            answer = anyone.get(f"{self.url}{path}")
            assert answer.status_code == 200, answer.text
            return answer.json()


def make_event(server: Server, name: str, players: list[tuple[str, str]], *,
               lists: bool = True, **options: Any) -> Event:
    """A World Gainer tournament with ``players`` registered, each with a sample list (none
    without ``lists``)."""
    organiser = server.client(server.organiser_token)
    made = organiser.post("/tournaments", json={
        "name": name, "game": "worldgainer", "options": {"first_player": 1}, **options})
    assert made.status_code == 201, made.text
    event = Event(server, made.json()["tournament_id"], organiser, {}, {})
    decks = sorted(DECKS)
    for n, (player, number) in enumerate(players):
        registered = organiser.post(f"{event.url}/players",
                                    json={"name": player, "external_id": number})
        assert registered.status_code == 201, registered.text
        event.player_ids[player] = registered.json()["player_id"]
        if not lists:
            continue
        sent = organiser.put(f"{event.url}/players/{registered.json()['player_id']}/decklist",
                             json={"deck": DECKS[decks[n % 2]]})
        assert sent.status_code == 200, sent.text
    return event


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("event-page") / "kiroku.db")


@pytest.fixture(scope="module")
def event(server: Server) -> Iterator[Event]:
    """Round 1 over (a win by concession, a judge's draw, a win, a bye); round 2 with a table
    in progress, one awaiting a judge's ruling and one not started, and a bye, whose player
    then drops."""
    e = make_event(server, "Kiroku Open", PLAYERS)
    e.pair([(1, ["Ann", "Ben"]), (2, ["Cid", "Dee"]), (3, ["Eve", "Fay"])], ["Gus"])
    e.concede(1, 1, 2)  # Ann beats Ben
    drawn = e.organiser.post(f"{e.url}/rounds/1/tables/2/result",
                             json={"drawn": True, "reason": "intentional draw"})
    assert drawn.status_code == 200, drawn.text
    e.concede(1, 3, 1)  # Fay beats Eve
    e.pair([(1, ["Ann", "Gus"]), (2, ["Fay", "Cid"]), (3, ["Ben", "Dee"])], ["Eve"])
    match = e.match(2, 1)
    turn = e.organiser.get(f"/matches/{match}/turn", params={"seat": 1}).json()
    moved = e.organiser.post(f"/matches/{match}/actions",
                             json={"action": turn["actions"][0]["action"]})
    assert moved.status_code == 201, moved.text
    with server.client(e.seat_token(2, 2, 1)) as fay:
        called = fay.post(f"/matches/{e.match(2, 2)}/disputes",
                          json={"claim": "My opponent drew an extra card."})
        assert called.status_code == 201, called.text
    dropped = e.organiser.post(f"{e.url}/players/Eve/drop", json={"reason": "went home"})
    assert dropped.status_code == 200, dropped.text
    yield e
    e.organiser.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(**PHONE)
    try:
        yield guard(context)
    finally:
        context.close()


def percent(value: float) -> str:
    """A share as the page writes it: hundredths of a percent, halves rounded up (as
    JavaScript's toFixed rounds the exact value of a double)."""
    return f"{Decimal(value * 100).quantize(Decimal('0.01'), ROUND_HALF_UP)}%"


def _opened(page: Page, base: str, tournament_id: str, fragment: str = "") -> None:
    page.goto(f"{base}/events/{tournament_id}{fragment}")
    page.wait_for_selector("body[data-updates]")


def _updates(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.updates)"))


def _tables(page: Page) -> list[dict[str, Any]]:
    return list(page.eval_on_selector_all("#tables > li", """cards => cards.map(c => ({
        table: Number(c.dataset.table), status: c.dataset.status,
        badge: c.querySelector('.badge').textContent,
        players: [...c.querySelectorAll('.player')].map(p => p.dataset.player),
        won: [...c.querySelectorAll('.player.won')].map(p => p.dataset.player),
        line: c.querySelector('.table-line').textContent,
        watch: [...c.querySelectorAll('a.watch')].map(a => a.getAttribute('href'))}))"""))


def _assert_round(page: Page, view: dict[str, Any]) -> None:
    """The page's tables are the round view's: numbers, players, status, winners, games."""
    shown = _tables(page)
    assert [t["table"] for t in shown] == [t["table"] for t in view["tables"]]
    for card, table in zip(shown, view["tables"]):
        assert card["status"] == table["status"]
        assert card["badge"] == table["status"].replace("_", " ")
        assert card["players"] == [p["player_id"] for p in table["players"]]
        winners = (table["result"] or {}).get("winners", [])
        assert card["won"] == [p["player_id"] for p in winners]
        games = table.get("games") or [{"match_id": table["match_id"]}]
        assert card["watch"] == [f"/watch/{g['match_id']}" for g in games]


def _standings(page: Page) -> list[dict[str, Any]]:
    return list(page.eval_on_selector_all("#standings tbody tr", """rows => rows.map(r => ({
        player: r.dataset.player, rank: r.querySelector('.rank').textContent,
        name: r.querySelector('.name').textContent,
        points: r.querySelector('.points').textContent,
        record: r.querySelector('.record').textContent,
        fields: Object.fromEntries([...r.querySelectorAll('td[data-field]')]
            .map(c => [c.dataset.field, c.textContent]))}))"""))


def _assert_standings(page: Page, standings: dict[str, Any]) -> None:
    """The page's standings are the API's: order, rank, points, record, and each tie-breaker
    the event uses (percentages as 62.04%)."""
    columns = [f for f in standings["tiebreakers"]
               if f not in ("match_points", "registration_order")]
    heads = page.eval_on_selector_all("#standings-head th[data-field]",
                                      "hs => hs.map(h => h.dataset.field)")
    assert heads == columns
    shown = _standings(page)
    assert [r["player"] for r in shown] == [r["player_id"] for r in standings["standings"]]
    for row, want in zip(shown, standings["standings"]):
        assert row["rank"] == str(want["rank"])
        assert row["name"] == want["name"]
        assert row["points"] == str(want["match_points"])
        assert row["record"].startswith(f"{want['wins']}-{want['losses']}-{want['draws']}")
        assert row["fields"] == {f: percent(want[f]) if f.endswith("_win") else str(want[f])
                                 for f in columns}


def test_the_event_page_shows_the_round_the_standings_and_the_players(
        event: Event, phone: Watched) -> None:
    page = phone.page
    _opened(page, event.server.base, event.tournament_id)
    tournament = event.read("")
    assert page.inner_text("#event-name") == "Kiroku Open"
    facts = page.inner_text("#facts")
    assert "World Gainer" in facts and f"best of {tournament.get('best_of', 1)}" in facts
    assert page.inner_text("#event-status") == "Round 2 in progress"
    assert re.fullmatch(r"updated \d\d:\d\d:\d\d", page.inner_text("#updated"))

    # the current round first: its tables above the fold, as the round view says
    round_two = event.read("/rounds/2")
    assert page.inner_text("#round-heading") == "Round 2"
    _assert_round(page, round_two)
    assert [t["status"] for t in round_two["tables"]] == [
        "in_progress", "awaiting_ruling", "not_started"]
    for card in page.locator("#tables > li").all():
        box = card.bounding_box()
        assert box and box["y"] + box["height"] <= FOLD, "the round's tables are above the fold"
    assert page.inner_text("#byes") == "Bye: Eve"
    assert page.inner_text("#tables > li[data-table='2'] .table-line") == \
        "Awaiting a judge's ruling"
    shots = Path(SHOTS)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "event.png"))

    _assert_standings(page, event.read("/standings"))
    players = event.read("/players")
    assert page.eval_on_selector_all("#players li", "ls => ls.map(l => l.dataset.player)") == \
        [p["player_id"] for p in players]
    assert page.inner_text("#players li >> nth=0") == "Ann 1001"
    eve = event.player_ids["Eve"]
    assert [p["player_id"] for p in players if p.get("dropped")] == [eve]
    assert page.eval_on_selector_all("#players li.dropped", "ls => ls.map(l => l.dataset.player)") \
        == [eve]
    assert page.inner_text(f"#standings tr[data-player='{eve}'] .dropped-badge") == "dropped"

    # an earlier round, by its button: results with their scores and how they came about
    page.click("#rounds button[data-round='1']")
    page.wait_for_selector("#round[data-round='1']")
    assert page.inner_text("#round-heading") == "Round 1 of 2"
    assert page.get_attribute("#rounds button[data-round='1']", "aria-pressed") == "true"
    _assert_round(page, event.read("/rounds/1"))
    lines = page.locator("#tables .table-line").all_inner_texts()
    assert lines == ["Ann won 1-0", "Drawn (entered by a judge)", "Fay won 1-0"]
    assert page.inner_text("#byes") == "Bye: Gus"
    assert "#round=1" in page.url
    page.reload()  # the round chosen is in the address
    page.wait_for_selector("#round[data-round='1']")
    page.click("#rounds button[data-round='2']")
    page.wait_for_selector("#round[data-round='2']")
    assert page.inner_text("#round-heading") == "Round 2"
    phone.assert_clean()


def test_the_event_page_follows_a_result_live_without_a_reload(
        server: Server, phone: Watched) -> None:
    live = make_event(server, "Live Cup", [*PLAYERS, ("Hal", "1008")])
    live.pair([(1, ["Ann", "Ben"]), (2, ["Cid", "Dee"]), (3, ["Eve", "Fay"]),
               (4, ["Gus", "Hal"])], [])
    page = phone.page
    _opened(page, server.base, live.tournament_id)
    assert [t["status"] for t in _tables(page)] == ["not_started"] * 4
    # a round of many tables: a player's is found by a part of a name or their number
    page.fill("#find", "hal")
    assert page.eval_on_selector_all("#tables > li:not([hidden])",
                                     "ts => ts.map(t => Number(t.dataset.table))") == [4]
    page.fill("#find", "1003")
    assert page.is_visible("#tables > li[data-table='2']")
    assert page.is_hidden("#tables > li[data-table='4']")
    page.fill("#find", "Zed")
    assert page.inner_text("#found") == 'No table of round 1 seats "Zed".'
    page.fill("#find", "")
    assert page.locator("#tables > li:not([hidden])").count() == 4
    # the reader scrolls down to the standings; what the page drew is marked (a property no
    # redrawing copies), to see whether it is drawn again
    page.evaluate("""() => { window.stayed = true;
        document.querySelector('#tables > li[data-table="1"]').kept = true;
        document.getElementById('standings').scrollIntoView(); }""")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 0
    before = _updates(page)

    live.concede(1, 2, 1)  # Dee wins table 2, recorded on another device
    page.wait_for_selector("#tables > li[data-table='2'][data-status='result']", timeout=15000)
    assert page.inner_text("#tables > li[data-table='2'] .table-line") == "Dee won 1-0"
    assert _updates(page) > before
    assert page.evaluate("window.stayed === true"), "the page was not reloaded"
    assert page.eval_on_selector("#tables > li[data-table='1']", "t => t.kept === true"), \
        "an unchanged table is not drawn again"
    assert page.evaluate("window.scrollY") == scrolled
    assert page.inner_text("#event-status") == "Round 1 in progress"
    _assert_standings(page, live.read("/standings"))
    assert page.inner_text("#standings tbody tr >> nth=0 >> .name") == "Dee"

    for table in (1, 3, 4):  # the round's other results
        live.concede(1, table, 2)
    page.wait_for_selector("#event-status:text('Round 1 complete')", timeout=15000)
    _assert_round(page, live.read("/rounds/1"))
    _assert_standings(page, live.read("/standings"))
    live.organiser.close()
    phone.assert_clean()


def test_the_event_page_stops_reading_while_hidden(server: Server, phone: Watched) -> None:
    quiet = make_event(server, "Quiet Cup", PLAYERS[:2])
    page = phone.page
    _opened(page, server.base, quiet.tournament_id)
    assert page.inner_text("#event-status") == "Registration: 2 players"
    assert page.is_hidden("#round")
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange')); }""")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/tournaments/" in r.url else None)
    page.wait_for_timeout(6500)
    assert asked == [], "a hidden page reads nothing"
    quiet.pair([(1, ["Ann", "Ben"])], [])
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
        document.dispatchEvent(new Event('visibilitychange')); }""")
    page.wait_for_selector("#event-status:text('Round 1 in progress')", timeout=5000)
    quiet.organiser.close()
    phone.assert_clean()


def test_the_match_list_links_a_match_to_its_event(event: Event, phone: Watched) -> None:
    page = phone.page
    page.goto(f"{event.server.base}/?tournament={event.tournament_id}&round=2&table=3")
    page.wait_for_function("() => document.querySelectorAll('#matches tbody tr').length === 1")
    link = page.locator("#matches tbody tr a.event-link")
    assert link.inner_text() == "Kiroku Open"
    link.click()
    page.wait_for_url(f"**/events/{event.tournament_id}")
    page.wait_for_selector("body[data-updates]")
    assert page.inner_text("#event-name") == "Kiroku Open"
    phone.assert_clean()


def test_an_unknown_event_says_so(server: Server, phone: Watched) -> None:
    page = phone.page
    page.goto(f"{server.base}/events/00000000-0000-4000-8000-000000000000")
    page.wait_for_selector("text=Could not show this event")
    assert "tournament" in page.inner_text("#message").lower()
    assert phone.external == []  # (its console notes the refused 404)


def test_a_failed_reading_keeps_the_event_and_says_since_when(server: Server,
                                                               phone: Watched) -> None:
    """The server stops answering for a while: the event page keeps the event it showed and
    says since when it is not updated, and why."""
    patchy = make_event(server, "Patchy Cup", PLAYERS[:2])
    page = phone.page
    _opened(page, server.base, patchy.tournament_id)
    busy = {"reason": "busy", "message": "Kiroku is busy: try again shortly."}
    page.route("**/tournaments/**", lambda route: route.fulfill(status=503, json=busy))
    page.evaluate("""() => document.dispatchEvent(new Event('visibilitychange'))""")
    page.wait_for_selector("#updated:text('not updated since')")
    assert "Kiroku is busy" in page.inner_text("#updated")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "event-not-updated-phone.png"))
    assert page.inner_text("#event-name") == "Patchy Cup"
    assert phone.external == []  # (its console notes the refused readings)
    patchy.organiser.close()
