"""Golden matches recorded again from the pages alone (issue 40), in Chromium: a phone per
seat, signed in by its slip's link, taps the match's actions (a listed one, or one built in a
"Choose…" form) and enters at the table the draws and dice it may see, and a judge's console
records what only a judge may (a draw the acting seat may not see, an adjustment through its
form). The stored match then has the golden match's actions, positions, result and the
judge's views the golden match keeps.

Each game's match set up from a physical table: World Gainer's (stuns and gains with chosen
payments, a judge's adjustment, the turn limit), Kami no Kijutsu's, and the four-player ones
of Illuminati, Quest for the Grail and On the Edge. And the race that made the recording flaky
under load: a tap in flight keeps the page busy through a refresh asked for before it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route

from engine import Viewer, get_game
from tests.replay.conftest import Server
from tests.web.conftest import GOLDEN, Watched, guard
from tests.web.test_signin_page import PHONE

MATCHES = ["worldgainer/table-turn-limit", "kami/table-turn-limit", "illuminati/four-players-table",
           "grail/four-players-table", "edge/four-players-table"]


@dataclass
class Golden:
    """The golden match: how it was created and its live actions, in order."""

    path: Path
    created: dict[str, Any]
    live: list[dict[str, Any]]
    result: dict[str, Any]

    @property
    def game(self) -> str:
        return str(self.created["game"])


def _golden(name: str) -> Golden:
    path = GOLDEN / name / "match.jsonl"
    records = [json.loads(line) for line in path.read_text("utf-8").splitlines()[1:]]
    voided = {seq for r in records if r["event"] == "ActionsUndone" for seq in r["seqs"]}
    live = [r for r in records if r["event"] == "ActionRecorded" and r["seq"] not in voided]
    ended = next(r for r in records if r["event"] == "MatchEnded")
    return Golden(path, records[0], live, ended)


def _as_recorded(golden: Golden) -> dict[str, Any]:
    """The golden match's options, with each option introduced since at the behaviour the
    match was recorded with (its field's default: ``Options.introduced``)."""
    model = get_game(golden.game).options_model
    old = {name: model.model_fields[name].default for name in model.introduced}
    return {**old, **golden.created["config"]["options"]}


@dataclass
class Table:
    """The match on the server, and the pages recording it."""

    match_id: str
    seats: dict[int, Watched]
    judge: Watched
    web: Server

    def version(self) -> int:
        with httpx.Client(base_url=self.web.base, timeout=30, headers={
                "authorization": f"Bearer {self.web.organiser_token}"}) as organiser:
            return int(organiser.get(f"/matches/{self.match_id}").json()["version"])

    def moved_on(self, version: int, page: Page) -> int:
        """The match's version once a tap made at ``version`` on ``page`` is stored.

        It waits in the browser (``wait_for_timeout``), not in ``time.sleep``: the contexts'
        routes (``guard``) run only while Playwright is called, so a request a tap sends after
        its click has returned would otherwise wait, unrouted, until the deadline."""
        deadline = time.monotonic() + 45
        while (now := self.version()) == version:
            if time.monotonic() >= deadline:
                # (a refusal answered before stays in the page, hidden: it is not this tap's)
                shown = page.inner_text("#refusal") if page.is_visible("#refusal") else (
                    "no refusal shown; the page "
                    + page.evaluate("JSON.stringify(document.body.dataset)"))
                raise AssertionError(f"nothing was recorded at version {version}: {shown}")
            page.wait_for_timeout(50)
        return now


@pytest.fixture(params=MATCHES)
def table(request: pytest.FixtureRequest, browser: Browser,
          web: Server) -> Iterator[tuple[Golden, Table]]:
    golden = _golden(request.param)
    config = golden.created["config"]
    with httpx.Client(base_url=web.base, timeout=30, headers={
            "authorization": f"Bearer {web.organiser_token}"}) as organiser:
        made = organiser.post("/matches", json={
            "game": golden.game, "players": config["players"], "decks": config["decks"],
            "cards": config["cards"], "options": _as_recorded(golden),
            "setup_outcomes": [o["value"] for o in golden.created["setup_outcomes"]]})
        assert made.status_code == 201, made.text
        match_id = made.json()["match_id"]
        links = organiser.post(f"/matches/{match_id}/links").json()
    contexts = [browser.new_context(**PHONE) for _ in links]
    desk = browser.new_context(viewport={"width": 1024, "height": 900})
    try:
        seats = {}
        for context, link in zip(contexts, links):
            seats[link["seat"]] = guard(context)
            seats[link["seat"]].page.goto(link["link"])
            seats[link["seat"]].page.wait_for_selector("body[data-version]")
        yield golden, Table(match_id, seats, guard(desk), web)
    finally:
        for context in [*contexts, desk]:
            context.close()


def _judge_signed_in(table: Table) -> Page:
    """The judge's console of the match, signed in by a token typed on the match list."""
    page = table.judge.page
    page.goto(f"{table.web.base}/")
    page.fill("#token", table.web.organiser_token)
    page.click("#sign-in")
    page.wait_for_selector("text=Signed in as organiser")
    page.goto(f"{table.web.base}/play/{table.match_id}")
    page.wait_for_selector("#console:not([hidden])")
    return page


def _at(page: Page, version: int, seat: int | None = None) -> None:
    """Wait until ``page`` shows the match at ``version`` (as ``seat``'s turn, when given),
    at rest: no refresh drawing, and no tap in flight (a refresh asked for before a tap may
    draw the position the tap made while its answer is still on its way; a tap made then is
    dropped)."""
    where = f"[data-seat='{seat}']" if seat is not None else ""
    page.wait_for_selector(
        f"body[data-version='{version}']{where}:not([data-refreshing]):not([data-busy])",
        timeout=20_000)


def _tap(page: Page, action: dict[str, Any]) -> None:
    """Tap ``action``: its listed button, or a "Choose…" form of its kind that builds it."""
    buttons = page.locator(f"#actions button.act[data-type='{action['type']}']")
    for i in range(buttons.count()):
        listed = str(buttons.nth(i).get_attribute("data-action"))
        if json.loads(listed) == action:
            # by its action, not its place in the list: a refresh may redraw the list
            page.locator(f"#actions button.act[data-action={json.dumps(listed)}]").click()
            return
    group = page.locator(f"#actions .group[data-type='{action['type']}']")
    form = group.locator("form.choose")
    assert form.count(), f"no button on the page is {action}, and no form builds it"
    fields = [str(form.locator("fieldset").nth(i).get_attribute("data-field"))
              for i in range(form.locator("fieldset").count())]
    bases = [json.loads(str(buttons.nth(i).get_attribute("data-action")))
             for i in range(buttons.count())]
    fits = [i for i, b in enumerate(bases) if _flat(b, fields) == _flat(action, fields)]
    if fits:
        group.locator("details.choices summary").click()
        form.locator("select.base").select_option(str(fits[0]))
        for field in fields:
            wanted, listed = _get(action, field), _get(bases[fits[0]], field)
            if wanted == listed:
                continue
            inputs = form.locator(f"fieldset[data-field='{field}'] input[data-option]")
            options = [json.loads(str(inputs.nth(i).get_attribute("data-option")))
                       for i in range(inputs.count())]
            for value in wanted if isinstance(wanted, list) else [wanted]:
                inputs.nth(options.index(value)).check()
        form.locator("button[type=submit]").click()
        return
    raise AssertionError(f"no button or form on the page builds {action}")


def _get(data: dict[str, Any], field: str) -> Any:
    """A field of an action by its dotted path (``choices.2``)."""
    value: Any = data
    for key in field.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _flat(data: dict[str, Any], leaving: list[str]) -> dict[str, Any]:
    """An action without the fields its choices set (dotted paths)."""
    out = json.loads(json.dumps(data))
    for field in leaving:
        *path, last = field.split(".")
        at = out
        for key in path:
            at = at.get(key, {}) if isinstance(at, dict) else {}
        if isinstance(at, dict):
            at.pop(last, None)
    return out


def _enter(page: Page, values: list[Any]) -> None:
    """Enter each chance outcome the page asks for, in order."""
    for n, value in enumerate(values, start=1):
        page.wait_for_selector(f"#outcome-form[data-outcome='{n}']", timeout=20_000)
        page.select_option("#outcome-value", str(value))
        page.click("#outcome-form button[type=submit]")


def _place(page: Page, select: str, ref: str, seat: int) -> None:
    """Choose the place ``ref`` of ``seat`` (or the shared one) in a place menu."""
    for where in (f"[data-seat='{seat}']", "[data-seat='']"):
        found = page.locator(f"{select} option[data-ref='{ref}']{where}")
        if found.count():
            page.select_option(select, str(found.first.get_attribute("value")))
            return
    raise AssertionError(f"no place {ref} of seat {seat} in {select}")


def _adjust(page: Page, action: dict[str, Any]) -> None:
    """An adjustment through the console's form: a card moved, or a counter set."""
    seat = action["seat"]
    page.click("#adjust-panel summary")
    if action.get("move"):
        move = action["move"]
        page.select_option("#adjust-kind", "move")
        _place(page, "#move-from", move["from_zone"], move.get("from_seat") or seat)
        page.select_option("#move-card", move["card"])
        _place(page, "#move-to", move["to_zone"], move.get("to_seat") or seat)
    else:
        counter = action["counter"]
        page.select_option("#adjust-kind", "counter")
        named = page.locator(f"#counter-name option[data-name='{counter['name']}']")
        mine = named.and_(page.locator(f"#counter-name option[data-seat='{seat}']"))
        chosen = mine if mine.count() else named
        page.select_option("#counter-name", str(chosen.first.get_attribute("value")))
        page.fill("#counter-value", str(counter["value"]))
    page.fill("#adjust-reason", action["reason"])
    page.click("#adjust-form button[type=submit]")
    page.wait_for_selector("text=Adjustment recorded.")
    page.click("#adjust-panel summary")


def test_a_golden_match_is_recorded_again_from_the_pages_alone(
        table: tuple[Golden, Table]) -> None:
    golden, t = table
    rules = get_game(golden.game)
    judge = _judge_signed_in(t)
    version = t.version()
    for record in golden.live:
        action, values = record["action"], [o["value"] for o in record["outcomes"]]
        seat = action["seat"]
        if action["type"] == "adjust":
            page = judge
            _at(judge, version)
            _adjust(judge, action)
        else:
            own = not rules.judges_only(action["type"]) and all(
                o.enterable_by(Viewer("seat", seat))
                for o in rules.typed_outcomes(record["outcomes"]))
            if own:
                page = t.seats[seat].page
            else:  # a judge's act, or a draw the acting seat may not see: a judge records it
                page = judge
                page.click(f"#seat-tabs button[data-seat='{seat}']")
            _at(page, version, seat)
            _tap(page, action)
            _enter(page, values)
        version = t.moved_on(version, page)

    expected = json.loads((golden.path.parent / "expected.json").read_text("utf-8"))
    with httpx.Client(base_url=t.web.base, timeout=30, headers={
            "authorization": f"Bearer {t.web.organiser_token}"}) as organiser:
        events = organiser.get(f"/matches/{t.match_id}/events").json()
        summary = organiser.get(f"/matches/{t.match_id}").json()
        for position, view in expected["judge_views"].items():
            shown = organiser.get(f"/matches/{t.match_id}/state", params={
                "at": position, "viewer": "judge"}).json()["state"]
            # (a match created today also records the options introduced since: decklists,
            # spectators; the rest of every view is the golden's)
            del shown["options"], view["options"]
            assert shown == view, f"the judge's view at position {position} differs"
    recorded = [e for e in events if e["event"] == "ActionRecorded"]
    assert [e["action"]["type"] for e in recorded] == [r["action"]["type"] for r in golden.live]
    assert [e["action"] for e in recorded if e["action"]["type"] != "adjust"] == [
        r["action"] for r in golden.live if r["action"]["type"] != "adjust"]
    assert (summary["positions"], summary["result"], summary["to_act"]) == (
        expected["positions"], expected["result"], expected["to_act"])
    assert {e["recorded_by"]["role"] for e in recorded} == {"seat", "organiser"}
    for watched in (*t.seats.values(), t.judge):
        assert watched.external == []


def test_a_tap_in_flight_keeps_the_page_busy_through_a_refresh_asked_before_it(
        browser: Browser, web: Server) -> None:
    """The golden recording's flake under load, on purpose: a live notice a little late (its
    stream tells at most every half second) starts a refresh just before a tap; the refresh
    reads the match once the tap is stored and draws the next position while the tap's answer
    is still on its way. The page must not look ready then (its buttons enabled, the page at
    rest): a tap there would be dropped without a word, the first one still in flight."""
    with httpx.Client(base_url=web.base, timeout=30, headers={
            "authorization": f"Bearer {web.organiser_token}"}) as organiser:
        match_id = organiser.post("/matches", json={
            "players": ["Aiko", "Ben"], "decks": ["solar_vanguard", "pleiades_bloom"],
            "options": {"first_player": 1}}).json()["match_id"]
        link = organiser.post(f"/matches/{match_id}/links").json()[0]
    context = browser.new_context(**PHONE)
    try:
        aiko = guard(context)
        page = aiko.page
        held: dict[str, list[Route]] = {"live": [], "turn": [], "actions": []}
        holding = {"turn": False, "actions": False}

        def hold(route: Route) -> None:
            kind = urlparse(route.request.url).path.rsplit("/", 1)[-1]
            if kind == "live" or holding.get(kind):
                held[kind].append(route)  # the live stream speaks only when told below
            else:
                route.fallback()

        page.route(f"**/matches/{match_id}/*", hold)
        page.goto(link["link"])
        _at(page, 1, 1)

        def until_held(kind: str) -> Route:
            for _ in range(400):
                if held[kind]:
                    return held[kind].pop()
                page.wait_for_timeout(25)  # (routes are handled while Playwright is called)
            raise AssertionError(f"the page sent no {kind} request")

        holding.update(turn=True, actions=True)
        until_held("live").fulfill(status=200, content_type="text/event-stream",
                                   body='event: position\ndata: {"version": 1, "positions": 0}\n\n')
        refreshing = until_held("turn")  # the refresh the late notice asked for, held
        page.locator("#actions button.act").first.click()  # the tap, on the page as drawn
        tap = until_held("actions")
        holding.update(turn=False, actions=False)
        answer = tap.fetch()  # the tap is stored (version 2); its answer is held
        assert answer.status == 201, answer.text()
        refreshing.fallback()  # the refresh reads the match after the tap
        page.wait_for_selector("body[data-version='2']:not([data-refreshing])")
        enabled = page.locator("#actions button:enabled, #outcome-area button:enabled")
        assert page.get_attribute("body", "data-busy") is not None and enabled.count() == 0, (
            "the page looks ready while its tap is in flight")

        tap.fulfill(response=answer)
        _at(page, 2, 1)
        assert enabled.count() > 0
        page.locator("#actions button.act").first.click()  # the next tap is recorded
        with httpx.Client(base_url=web.base, timeout=30, headers={
                "authorization": f"Bearer {web.organiser_token}"}) as organiser:
            deadline = time.monotonic() + 20
            while organiser.get(f"/matches/{match_id}").json()["version"] == 2:
                assert time.monotonic() < deadline, "the tap after the answer recorded nothing"
                page.wait_for_timeout(50)
        aiko.assert_clean()
    finally:
        context.close()
