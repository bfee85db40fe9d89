"""A golden match recorded again from the pages alone (issue 40), in Chromium: two phones
signed in by their slips' links tap the match's actions (a listed one, or one built in a
"Choose…" form), enter at the table the draws each may see, and a judge's console records
what only a judge may (a draw the acting seat may not see, an adjustment through its form).
The stored match then has the golden match's actions, positions, result and the judge's
views the golden match keeps.

World Gainer's table-turn-limit match: stuns and gains with chosen payments, table draws,
a judge's adjustment, and the turn limit that ends it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from engine import Viewer, get_game
from tests.replay.conftest import Server
from tests.web.conftest import GOLDEN, Watched, guard
from tests.web.test_signin_page import PHONE

MATCH = GOLDEN / "worldgainer" / "table-turn-limit" / "match.jsonl"


@dataclass
class Golden:
    """The golden match: how it was created and its live actions, in order."""

    created: dict[str, Any]
    live: list[dict[str, Any]]
    result: dict[str, Any]


def _golden() -> Golden:
    records = [json.loads(line) for line in MATCH.read_text("utf-8").splitlines()[1:]]
    voided = {seq for r in records if r["event"] == "ActionsUndone" for seq in r["seqs"]}
    live = [r for r in records if r["event"] == "ActionRecorded" and r["seq"] not in voided]
    ended = next(r for r in records if r["event"] == "MatchEnded")
    return Golden(records[0], live, ended)


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

    def moved_on(self, version: int) -> int:
        """The match's version once a tap made at ``version`` is stored."""
        deadline = time.monotonic() + 20
        while (now := self.version()) == version:
            assert time.monotonic() < deadline, f"nothing was recorded at version {version}"
            time.sleep(0.05)
        return now


@pytest.fixture
def table(browser: Browser, web: Server) -> Iterator[tuple[Golden, Table]]:
    golden = _golden()
    config = golden.created["config"]
    with httpx.Client(base_url=web.base, timeout=30, headers={
            "authorization": f"Bearer {web.organiser_token}"}) as organiser:
        made = organiser.post("/matches", json={
            "game": "worldgainer", "players": config["players"], "decks": config["decks"],
            "cards": config["cards"], "options": config["options"],
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
    """Wait until ``page`` shows the match at ``version`` (as ``seat``'s turn, when given)."""
    where = f"[data-seat='{seat}']" if seat is not None else ""
    page.wait_for_selector(f"body[data-version='{version}']{where}", timeout=20_000)


def _tap(page: Page, action: dict[str, Any]) -> None:
    """Tap ``action``: its listed button, or a "Choose…" form of its kind that builds it."""
    buttons = page.locator(f"#actions button.act[data-type='{action['type']}']")
    for i in range(buttons.count()):
        if json.loads(str(buttons.nth(i).get_attribute("data-action"))) == action:
            buttons.nth(i).click()
            return
    group = page.locator(f"#actions .group[data-type='{action['type']}']")
    for f in range(group.locator("form.choose").count()):
        form = group.locator("form.choose").nth(f)
        field = str(form.get_attribute("data-field"))
        bases = [json.loads(str(buttons.nth(i).get_attribute("data-action")))
                 for i in range(buttons.count())]
        fits = [i for i, b in enumerate(bases)
                if {k: v for k, v in b.items() if k != field}
                == {k: v for k, v in action.items() if k != field}]
        if not fits:
            continue
        group.locator("details.choices summary").nth(f).click()
        form.locator("select.base").select_option(str(fits[0]))
        wanted = action[field] if isinstance(action[field], list) else [action[field]]
        inputs = form.locator("input[data-option]")
        options = [json.loads(str(inputs.nth(i).get_attribute("data-option")))
                   for i in range(inputs.count())]
        for value in wanted:
            inputs.nth(options.index(value)).check()
        form.locator("button[type=submit]").click()
        return
    raise AssertionError(f"no button or form on the page builds {action}")


def _enter(page: Page, values: list[Any]) -> None:
    """Enter each chance outcome the page asks for, in order."""
    for value in values:
        page.wait_for_selector("#outcome-form", timeout=20_000)
        page.select_option("#outcome-value", str(value))
        page.click("#outcome-form button[type=submit]")


def _adjust(page: Page, action: dict[str, Any]) -> None:
    """An adjustment through the console's form (a card moved from a place to a place)."""
    move, seat = action["move"], action["seat"]
    page.click("#adjust-panel summary")
    page.select_option("#adjust-kind", "move")
    source = page.locator("#move-from option", has_text=f"seat {seat} {move['from_zone']} (")
    page.select_option("#move-from", str(source.first.get_attribute("value")))
    page.select_option("#move-card", move["card"])
    target = page.locator("#move-to option", has_text=f"seat {seat} {move['to_zone']} (")
    page.select_option("#move-to", str(target.first.get_attribute("value")))
    page.fill("#adjust-reason", action["reason"])
    page.click("#adjust-form button[type=submit]")
    page.wait_for_selector("text=Adjustment recorded.")
    page.click("#adjust-panel summary")


def test_a_golden_match_is_recorded_again_from_the_pages_alone(
        table: tuple[Golden, Table]) -> None:
    golden, t = table
    rules = get_game("worldgainer")
    judge = _judge_signed_in(t)
    version = t.version()
    for record in golden.live:
        action, values = record["action"], [o["value"] for o in record["outcomes"]]
        seat = action["seat"]
        if action["type"] == "adjust":
            _at(judge, version)
            _adjust(judge, action)
        else:
            own = all(o.enterable_by(Viewer("seat", seat))
                      for o in rules.typed_outcomes(record["outcomes"]))
            if own:
                page = t.seats[seat].page
            else:  # a draw the acting seat may not see: a judge records it
                page = judge
                page.click(f"#seat-tabs button[data-seat='{seat}']")
            _at(page, version, seat)
            _tap(page, action)
            _enter(page, values)
        version = t.moved_on(version)

    expected = json.loads((MATCH.parent / "expected.json").read_text("utf-8"))
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
