"""A whole tournament day from pages alone (issue 42's "done when"): an organiser at the desk,
a head judge, a floor judge and 16 players, each in a browser of their own (phones for the
players and judges), run a three-round best-of-three World Gainer event, while a spectator
keeps the public event page open on the wall.

Every step is a click or a key in a page: the organiser creates "Kiroku Day" with its staff in
the console, registers the players from a players file, and each player's phone opens the
sign-in link the console shows once and lands on the player's page, where the player pastes a
decklist. Each round the organiser pairs the round from the pairing program's file, opens the
table slips, and every player's page shows their match; at each table the players open their
game from Play, the seat to act plays the first action it is offered, the loser concedes, and
between games a player presses "Start game N". Scores include 2-0 and 2-1 series, a series
ended 1-1-1 when time is called in game 3 and an intentional draw, both entered from the
console. In round 2 a player calls a judge from the table; the floor judge sees the call
without a reload, takes it and rules it, and the table plays on. After each round the wall's
standings change without a reload, and equal the API's and an independent computation from
the Magic Tournament Rules' text (tests/replay/test_standings_mtr.py) fed the series the test
recorded; the organiser finishes the event from the console.

Outside the pages: the two judges' credentials (the console chooses judges among the judges'
credentials but does not issue them), the pairings file of each round, made by a simple Swiss
pairer here from the standings the wall shows (as a pairing program would) and written to disk
for the console's file input, and reading the API to compare."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.replay.conftest import Server, serve
from tests.replay.test_standings_mtr import Played, mtr_standings
from tests.web.conftest import Watched, guard
from tests.web.test_event_page import percent
from tests.web.test_signin_page import PHONE, SHOTS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LAPTOP = {"viewport": {"width": 1280, "height": 900}}
EVENT = "Kiroku Day"
ROUNDS = 3
WAIT = 20_000  # a page asks again every 5 s (the judge's calls every 3 s), on a busy machine
PLAYERS = [("Aiko Abe", "1001"), ("Ben Baker", "1002"), ("Chie Chen", "1003"),
           ("Dai Doi", "1004"), ("Emi Endo", "1005"), ("Finn Ford", "1006"),
           ("Gen Goto", "1007"), ("Hiro Hall", "1008"), ("Ines Ito", "1009"),
           ("Jay Jones", "1010"), ("Kei Kato", "1011"), ("Lena Lund", "1012"),
           ("Mio Mori", "1013"), ("Noah Nash", "1014"), ("Omi Oda", "1015"),
           ("Pia Park", "1016")]
DECKS = ["solar_vanguard", "pleiades_bloom"]  # alternately, in registration order
CLAIM = "My opponent drew two cards instead of one."

# The standings table of the public page, row by row, as the page writes it.
SHOWN_STANDINGS = """() => [...document.querySelectorAll('#standings tbody tr')].map(r => [
    r.querySelector('.name').textContent, r.querySelector('.rank').textContent,
    r.querySelector('.points').textContent, r.querySelector('.record').textContent,
    ...['opponents_match_win', 'game_win', 'opponents_game_win'].map(
        f => r.querySelector(`td[data-field="${f}"]`).textContent)])"""


@dataclass
class Player:
    """A player with a phone of their own."""

    name: str
    number: str
    phone: Watched

    @property
    def page(self) -> Page:
        return self.phone.page


@dataclass
class Table:
    """A table of a round: its seats, who wins each game (a seat's index, None for a game
    still on when the organiser enters the table's result), the result the organiser enters
    (game wins of seats 1 and 2, drawn games) and why, and whether a seat calls a judge."""

    number: int
    seats: tuple[Player, Player]
    winners: list[int | None]
    entered: tuple[int, int, int] | None = None
    reason: str = ""
    call: bool = False
    actor: Page | None = None  # the page that plays the game's first action
    version: int = 0

    def score(self) -> tuple[int, int, int]:
        """The series' game score: seat 1's wins, seat 2's wins, drawn games."""
        return self.entered or (self.winners.count(0), self.winners.count(1), 0)


def plan(round_: int, number: int, seats: tuple[Player, Player]) -> Table:
    """What happens at a table: mostly 2-0, one 2-1 series a round, a judge called in round 2,
    time called at 1-1 in round 2's game 3 (the series drawn 1-1-1) and round 3's top table
    drawing intentionally (0-0)."""
    w = (round_ + number) % 2  # the seat that wins the series
    if (round_, number) == (3, 1):
        return Table(number, seats, [], (0, 0, 0), "intentional draw")
    if (round_, number) == (2, 4):
        return Table(number, seats, [0, 1, None], (1, 1, 1), "time called in game 3")
    if (round_, number) in {(1, 1), (2, 2), (3, 5)}:
        return Table(number, seats, [w, 1 - w, w])
    return Table(number, seats, [w, w], call=(round_, number) == (2, 3))


def swiss(order: list[str], met: dict[str, set[str]]) -> list[tuple[str, str]]:
    """A pairing program's Swiss round: down the standings, each player against the highest
    placed player below them they have not met (backing up when the rest cannot be paired)."""

    def pair(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            if other in met[first]:
                continue
            tail = pair(others[:i] + others[i + 1:])
            if tail is not None:
                return [(first, other), *tail]
        return None

    paired = pair(order)
    assert paired is not None, "no Swiss pairing without a rematch"
    return paired


def version(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.version)"))


def rows_of_api(standings: dict[str, Any]) -> list[list[str]]:
    """The API's standings as the page should write them."""
    return [[r["name"], str(r["rank"]), str(r["match_points"]),
             f"{r['wins']}-{r['losses']}-{r['draws']}",
             percent(r["opponents_match_win"]), percent(r["game_win"]),
             percent(r["opponents_game_win"])] for r in standings["standings"]]


def rows_of_mtr(history: dict[str, list[Played]]) -> list[list[str]]:
    """The independent MTR computation's standings, written as the page writes them."""
    lines = mtr_standings([name for name, _ in PLAYERS], history)
    return [[e.player, str(e.rank), str(e.match_points), "-".join(map(str, e.record[:3])),
             percent(e.opponents_match_win), percent(e.game_win),
             percent(e.opponents_game_win)] for e in lines]


@dataclass
class Day:
    """The people of the day, each at their page, and what the test recorded."""

    server: Server
    files: Path
    organiser: Watched
    wall: Watched
    floor: Watched
    head: Watched
    players: list[Player]
    tournament_id: str = ""
    met: dict[str, set[str]] = field(default_factory=dict)  # by player number
    history: dict[str, list[Played]] = field(default_factory=dict)

    @property
    def desk(self) -> Page:
        return self.organiser.page

    def by_number(self, number: str) -> Player:
        return next(p for p in self.players if p.number == number)

    def watch(self, page: Page) -> None:
        """A page the organiser opens in another tab: its errors count too."""
        page.on("console", lambda m: self.organiser.errors.append(m.text)
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.organiser.errors.append(str(e)))

    # ---- before round 1 ----

    def create(self) -> None:
        desk = self.desk
        desk.goto(f"{self.server.base}/events/new")
        desk.wait_for_selector("#signin:not([hidden])")
        desk.fill("#organiser-token", self.server.organiser_token)
        desk.press("#organiser-token", "Enter")
        desk.wait_for_selector("#t-staff .judge:has-text('Hana Head')")
        desk.fill("#t-name", EVENT)
        desk.select_option("#t-game", "worldgainer")
        desk.select_option("#t-best-of", "3")
        desk.select_option("#t-tiebreakers", "mtr")
        desk.locator("#t-staff .judge", has_text="Flo Floor").locator("input[type=checkbox]") \
            .check()
        desk.locator("#t-staff .judge", has_text="Hana Head").locator("input[type=radio]") \
            .check()
        desk.click("#create-submit")
        desk.wait_for_url("**/events/*/console#players")
        self.tournament_id = desk.url.split("/events/")[1].split("/")[0]
        with self.server.client() as anyone:
            made = anyone.get(f"/tournaments/{self.tournament_id}").json()
        assert (made["name"], made["game"], made["best_of"], made["tiebreakers"]) == (
            EVENT, "worldgainer", 3, "mtr")
        assert [j["name"] for j in made["judges"]] == ["Flo Floor"]
        assert made["head_judge"]["name"] == "Hana Head"

    def open_the_wall(self) -> None:
        page = self.wall.page
        page.goto(f"{self.server.base}/events/{self.tournament_id}")
        page.wait_for_selector("body[data-updates]")
        expect(page.locator("#event-name")).to_have_text(EVENT)
        page.evaluate("window.stayed = true")  # gone if the page is ever loaded again

    def judges_sign_in(self, tokens: dict[str, str]) -> None:
        for judge, token in ((self.floor, tokens["floor"]), (self.head, tokens["head"])):
            page = judge.page
            page.goto(f"{self.server.base}/judge?tournament={self.tournament_id}")
            page.fill("#token", token)
            page.click("#sign-in")
            page.wait_for_selector(f"#heading:has-text('Calls of {EVENT}')")
            page.wait_for_selector("text=No open calls.")

    def register(self) -> dict[str, str]:
        """The players file, registered from the console: each player's sign-in link."""
        players = self.files / "players.csv"
        players.write_text("Name,ID\n" + "".join(f"{n},{x}\n" for n, x in PLAYERS),
                           encoding="utf-8")
        desk = self.desk
        desk.set_input_files("#players-file", str(players))
        desk.click("#register-file")
        desk.wait_for_selector(f"#link-slips .slip >> nth={len(PLAYERS) - 1}")
        expect(desk.locator("#event-message")).to_have_text(
            f"{len(PLAYERS)} sign-in links issued.", timeout=WAIT)
        links = dict(desk.eval_on_selector_all("#link-slips .slip", """slips => slips.map(s =>
            [s.querySelector('.player').textContent, s.querySelector('.link a').href])"""))
        assert sorted(links) == sorted(n for n, _ in PLAYERS)
        assert all("/sign-in#code=" in link for link in links.values())
        expect(desk.locator("#players-summary")).to_contain_text(
            f"{len(PLAYERS)} players · 0 with a decklist")
        return links

    def players_sign_in(self, links: dict[str, str]) -> None:
        for player in self.players:  # each phone opens its own link
            player.page.goto(links[player.name])
        for player in self.players:
            player.page.wait_for_url(f"**/events/{self.tournament_id}/me")
            player.page.wait_for_selector("body[data-signed-in='yes']")
            expect(player.page.locator("#who")).to_have_text(f"{player.name} · {EVENT}")
            expect(player.page.locator("#current-heading")).to_have_text(
                "Round 1 is not paired yet")

    def submit_decklists(self) -> None:
        with self.server.client() as anyone:
            decks = {d["name"]: d["cards"] for d in anyone.get("/games/worldgainer/decks").json()}
        for n, player in enumerate(self.players):  # pasted as lines "3 WGS-001"
            pasted = "\n".join(f"{copies} {card}" for card, copies in
                               decks[DECKS[n % 2]].items())
            player.page.fill("#deck-text", pasted)
            player.page.click("#deck-submit")
        for player in self.players:  # sixteen lists at once: none refused as simultaneous
            expect(player.page.locator("#deck-message")).to_have_text(
                "Your decklist is submitted: 40 cards.", timeout=WAIT)
        expect(self.desk.locator("#players-summary")).to_contain_text(
            f"{len(PLAYERS)} with a decklist", timeout=WAIT)

    # ---- a round ----

    def pair(self, round_: int) -> list[Table]:
        """The pairing program pairs the round from the standings on the wall; the organiser
        pairs it from the file in the console."""
        shown = self.wall.page.eval_on_selector_all(
            "#standings tbody tr", "rows => rows.map(r => r.querySelector('.ext').textContent)")
        order = [s.strip() for s in shown]
        assert sorted(order) == sorted(x for _, x in PLAYERS)
        pairs = swiss(order, {x: self.met.get(x, set()) for x in order})
        path = self.files / f"round{round_}.csv"
        path.write_text("Table,Player 1,Player 2\n" + "".join(
            f"{n},{a},{b}\n" for n, (a, b) in enumerate(pairs, start=1)), encoding="utf-8")
        desk = self.desk
        desk.click("#tab-round")
        if not desk.eval_on_selector("#pair-panel", "d => d.open"):
            desk.click("#pair-panel summary")
        desk.set_input_files("#pairings-file", str(path))
        desk.click("#pair-submit")
        expect(desk.locator("#round-summary")).to_have_text(
            f"Round {round_}: 8 tables · 8 not started", timeout=WAIT)
        tables = [plan(round_, n, (self.by_number(a), self.by_number(b)))
                  for n, (a, b) in enumerate(pairs, start=1)]
        for a, b in pairs:
            self.met.setdefault(a, set()).add(b)
            self.met.setdefault(b, set()).add(a)
        return tables

    def slips(self, round_: int, tables: list[Table]) -> None:
        """The table slips, printed: one per seat of each of the 8 tables."""
        with self.desk.context.expect_page() as opened:
            self.desk.click("#slips-link")
        slips = opened.value
        self.watch(slips)
        # signed in by the console's session (the button is there before the page knows)
        slips.wait_for_selector("#account .who:has-text('(organiser)')")
        slips.click("#issue")
        slips.wait_for_selector(".slip >> nth=15")
        shown = slips.eval_on_selector_all(".slip", """s => s.map(x => [x.dataset.table,
            x.querySelector('h3').textContent, x.querySelector('.player').textContent])""")
        assert shown == [[str(t.number), f"{EVENT} · round {round_} · table {t.number}", p.name]
                         for t in tables for p in t.seats]
        slips.wait_for_selector("#print:not([hidden])")
        slips.click("#print")
        slips.close()

    def matches_shown(self, round_: int, tables: list[Table]) -> None:
        """Every player's page shows their table and opponent, without a reload."""
        for table in tables:
            for i, player in enumerate(table.seats):
                other = table.seats[1 - i]
                expect(player.page.locator("#current-heading")).to_have_text(
                    f"Round {round_} · Table {table.number}", timeout=WAIT)
                expect(player.page.locator("#opponent")).to_have_text(
                    f"vs {other.name} ({other.number})")

    def enter_result(self, table: Table) -> None:
        """The organiser enters a table's result from the console, with its game score."""
        assert table.entered
        card = self.desk.locator(f".table-card[data-table='{table.number}']")
        card.locator("details.result-entry summary").click()
        for player, wins in zip(table.seats, table.entered[:2]):
            card.locator(f"input[aria-label='Games won by {player.name}']").fill(str(wins))
        card.locator("input[name='game-draws']").fill(str(table.entered[2]))
        drawn = card.locator("label.choice", has_text="Drawn").locator("input")
        if table.entered[0] or table.entered[1]:
            assert drawn.is_checked(), "equal game wins pick a draw"
        else:
            drawn.check()  # no game played: the draw is chosen
        card.locator("input[name=reason]").fill(table.reason)
        card.locator("button", has_text="Save the result").click()
        self.desk.wait_for_selector(
            f".table-card[data-table='{table.number}'][data-status='result']")
        expect(self.desk.locator(f".table-card[data-table='{table.number}'] .table-result")) \
            .to_contain_text("entered by a judge")

    def judge_call(self, round_: int, table: Table) -> None:
        """A seat calls a judge from the table; the floor judge sees it without a reload,
        takes it and rules it; the table plays on."""
        caller = table.seats[1]
        caller.page.click("#judge summary")
        caller.page.fill("#claim", CLAIM)
        caller.page.click("#call-form button[type=submit]")
        caller.page.wait_for_selector("text=A judge has been called.")
        card = f".table-card[data-table='{table.number}']"
        self.desk.wait_for_selector(f"{card}[data-status='awaiting_ruling']", timeout=WAIT)
        expect(self.desk.locator(f"{card} .badge")).to_have_text("judge call · game 1")
        self.wall.page.wait_for_selector(
            f"#tables > li[data-table='{table.number}'][data-status='awaiting_ruling']",
            timeout=WAIT)
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.desk.screenshot(path=str(SHOTS / "tournament-day-console.png"))

        floor = self.floor.page
        call = floor.locator(f"section[data-round='{round_}'] li[data-dispute]", has_text=CLAIM)
        call.wait_for(timeout=WAIT)
        first, second = table.seats
        assert f"Table {table.number}: {first.name} vs {second.name}" in call.inner_text()
        assert CLAIM in floor.inner_text("#notice")
        self.head.page.locator("li[data-dispute]", has_text=CLAIM).wait_for(timeout=WAIT)
        floor.screenshot(path=str(SHOTS / "tournament-day-call.png"))
        call.locator("button.take").click()
        floor.wait_for_selector("li[data-dispute]:has-text('taken by Flo Floor')")
        call.locator("summary", has_text="Rule").click()
        call.locator("input[name=decision]").fill("no infraction")
        call.locator("input[name=reasoning]").fill(
            "One card was drawn; the other was the top card looked at, and put back.")
        call.locator("select[name=remedy]").select_option("none")
        call.locator("button", has_text="Rule").click()
        floor.wait_for_selector("text=No open calls.")
        self.desk.wait_for_selector(f"{card}[data-status='in_progress']", timeout=WAIT)
        with self.server.client() as anyone:
            view = anyone.get(f"/tournaments/{self.tournament_id}/rounds/{round_}").json()
        assert next(t for t in view["tables"] if t["table"] == table.number)["status"] \
            == "in_progress"

    def play(self, round_: int, tables: list[Table]) -> None:
        """Each table's games, played game by game at every table at once."""
        for table in tables:
            if table.entered and not table.winners:  # a draw agreed before any game
                self.enter_result(table)
        for game in (1, 2, 3):
            at = [t for t in tables if len(t.winners) >= game]
            if not at:
                break
            if game > 1:  # the last game's loser starts the next from their page
                for table in at:
                    last = table.winners[game - 2]
                    assert last is not None
                    starter = table.seats[1 - last].page
                    button = starter.locator("#next-game")
                    expect(button).to_have_text(f"Start game {game}", timeout=WAIT)
                    if (round_, game) == (1, 2) and table is at[0]:
                        expect(starter.locator("#series")).to_have_text(
                            "Game 1 is over: you trail 0-1.")
                        starter.screenshot(path=str(SHOTS / "tournament-day-player.png"))
                    button.click()
                for table in at:
                    last = table.winners[game - 2]
                    assert last is not None
                    starter = table.seats[1 - last].page
                    expect(starter.locator("#play")).to_have_text(f"Play game {game}",
                                                                   timeout=WAIT)
            for table in at:
                for player in table.seats:
                    expect(player.page.locator("#play")).to_have_text(
                        f"Play game {game}", timeout=WAIT)
                    player.page.click("#play")
            for table in at:
                for seat, player in enumerate(table.seats, start=1):
                    player.page.wait_for_url("**/play/*")
                    player.page.wait_for_selector(
                        f"body[data-seat='{seat}'][data-version]:not([data-refreshing])")
                assert table.seats[0].page.url == table.seats[1].page.url, "one game"
            for table in at:  # the seat to act plays the first action it is offered
                acting = [p.page for p in table.seats
                          if p.page.locator("#actions button.act").count()]
                assert len(acting) == 1, "one seat acts first"
                table.actor = acting[0]
                table.version = version(table.actor)
                table.actor.locator("#actions button.act").first.click()
            for table in at:
                assert table.actor is not None
                table.actor.wait_for_function(
                    "v => Number(document.body.dataset.version) > v", arg=table.version)
                if table.call and game == 1:
                    self.judge_call(round_, table)
            for table in at:  # the game's loser concedes; time is called at the others
                winner = table.winners[game - 1]
                if winner is None:
                    self.enter_result(table)
                    continue
                loser = table.seats[1 - winner].page
                loser.click("#concede")
                loser.click("#concede-yes")
            for table in at:
                winner = table.winners[game - 1]
                for player in table.seats:
                    if winner is not None:
                        won = table.seats[winner]
                        expect(player.page.locator("#status")).to_contain_text(
                            f"is over: won by {won.name} (seat {winner + 1})", timeout=WAIT)
                    player.page.go_back()
                    player.page.wait_for_selector("body[data-signed-in='yes']")

    def round_over(self, round_: int, tables: list[Table]) -> None:
        """Every page says how the round ended; the wall's standings follow, as the API's and
        the MTR computation's."""
        with self.server.client() as anyone:
            view = anyone.get(f"/tournaments/{self.tournament_id}/rounds/{round_}").json()
        assert view["complete"]
        for table, answer in zip(tables, view["tables"]):
            first, second = table.seats
            assert [p["name"] for p in answer["players"]] == [first.name, second.name]
            wins, losses, draws = table.score()
            assert (answer["result"]["game_wins"], answer["result"]["game_draws"]) == (
                [wins, losses], draws)
            assert answer["result"]["source"] == ("judge" if table.entered else "game")
            self.history.setdefault(first.name, []).append(Played(second.name, wins, losses,
                                                                  draws))
            self.history.setdefault(second.name, []).append(Played(first.name, losses, wins,
                                                                   draws))
            for mine, theirs, player in ((wins, losses, first), (losses, wins, second)):
                said = "Won" if mine > theirs else "Lost" if mine < theirs else "Drawn"
                score = f" {mine}-{theirs}{f'-{draws}' if draws else ''}" \
                    if mine or theirs or draws else ""
                how = " (entered by a judge)" if table.entered else ""
                expect(player.page.locator("#series")).to_have_text(
                    f"{said}{score}{how}. Round {round_ + 1} is not paired yet.", timeout=WAIT)
        expect(self.desk.locator("#round-summary")).to_have_text(
            f"Round {round_}: 8 tables · 8 done · complete", timeout=WAIT)
        wall = self.wall.page
        expect(wall.locator("#event-status")).to_have_text(f"Round {round_} complete",
                                                           timeout=WAIT)
        lines = []  # the wall's tables: the winner's games first
        for table in tables:
            wins, losses, draws = table.score()
            score = "-".join(map(str, sorted((wins, losses), reverse=True)
                                 + ([draws] if draws else [])))
            if wins == losses:
                lines.append(f"Drawn{f' {score}' if wins or draws else ''} (entered by a judge)")
            else:
                lines.append(f"{table.seats[0 if wins > losses else 1].name} won {score}")
        expect(wall.locator("#tables .table-line")).to_have_text(lines)
        self.standings_agree(round_)

    def standings_agree(self, round_: int) -> None:
        """The wall's standings (read again by the page itself, no reload) equal the API's,
        which equal the independent MTR computation's."""
        with self.server.client() as anyone:
            standings = anyone.get(f"/tournaments/{self.tournament_id}/standings").json()
        assert standings["through_round"] == round_
        assert standings["tiebreakers"][:4] == ["match_points", "opponents_match_win",
                                                "game_win", "opponents_game_win"]
        api = rows_of_api(standings)
        assert api == rows_of_mtr(self.history)
        wall = self.wall.page
        wall.wait_for_function(f"want => JSON.stringify(({SHOWN_STANDINGS})()) === "
                               "JSON.stringify(want)", arg=api, timeout=WAIT)
        expect(wall.locator("#standings-caption")).to_contain_text(f"After round {round_}.")
        assert wall.evaluate("window.stayed === true"), "the wall's page was never reloaded"

    def finish(self) -> None:
        desk = self.desk
        desk.click("#tab-event")
        desk.click("#finish")
        expect(desk.locator("#finish-question")).to_have_text(
            f"Finish {EVENT}? Every decklist becomes public.")
        desk.click("#finish-yes")
        desk.wait_for_selector("#finished-banner:not([hidden])")
        with self.server.client() as anyone:
            assert anyone.get(f"/tournaments/{self.tournament_id}").json()["finished"] is True
        expect(self.wall.page.locator("#event-status")).to_have_text(
            f"Finished after {ROUNDS} rounds", timeout=WAIT)
        for player in self.players:
            expect(player.page.locator("#series")).to_contain_text("The event is finished.",
                                                                   timeout=WAIT)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve(tmp_path_factory.mktemp("tournament-day") / "kiroku.db")


@pytest.fixture
def people(browser: Browser) -> Iterator[dict[str, Any]]:
    """A browser context of each person's own: the organiser's laptop, the wall's screen,
    the judges' and the players' phones."""
    contexts: list[BrowserContext] = []

    def own(**kind: Any) -> Watched:
        context = browser.new_context(**kind)
        contexts.append(context)
        return guard(context)

    try:
        yield {"organiser": own(**LAPTOP), "wall": own(**LAPTOP), "floor": own(**PHONE),
               "head": own(**PHONE), "players": [own(**PHONE) for _ in PLAYERS]}
    finally:
        for context in contexts:
            context.close()


def test_a_tournament_day_run_from_pages_alone(server: Server, people: dict[str, Any],
                                              tmp_path: Path) -> None:
    tokens = {}
    with server.client(server.organiser_token) as organiser:  # the judges' credentials
        for role, name in (("floor", "Flo Floor"), ("head", "Hana Head")):
            made = organiser.post("/credentials", json={"role": "judge", "name": name})
            assert made.status_code == 201, made.text
            tokens[role] = made.json()["token"]
    day = Day(server, tmp_path, people["organiser"], people["wall"], people["floor"],
              people["head"], [Player(name, number, phone) for (name, number), phone
                               in zip(PLAYERS, people["players"])])
    SHOTS.mkdir(parents=True, exist_ok=True)

    day.create()
    day.open_the_wall()
    day.judges_sign_in(tokens)
    day.players_sign_in(day.register())
    day.submit_decklists()

    for round_ in range(1, ROUNDS + 1):
        tables = day.pair(round_)
        day.slips(round_, tables)
        day.matches_shown(round_, tables)
        day.play(round_, tables)
        day.round_over(round_, tables)

    day.finish()
    day.standings_agree(ROUNDS)
    day.wall.page.screenshot(path=str(SHOTS / "tournament-day-standings.png"), full_page=True)
    scores = {t for rows in day.history.values() for t in
              {(r.won, r.lost, r.drawn) for r in rows}}
    assert {(2, 0, 0), (2, 1, 0), (1, 1, 1), (0, 0, 0)} <= scores

    # no request to another host, no error in any page: eight tables starting their next game
    # in one second, or sixteen lists submitted at once, are each recorded (the server runs a
    # command again when another was saved first), none refused
    for watched in [day.organiser, day.wall, day.floor, day.head,
                    *(p.phone for p in day.players)]:
        assert watched.external == []
        assert watched.errors == []
