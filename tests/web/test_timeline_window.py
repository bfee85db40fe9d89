"""A long match's timeline (issue 43): the viewer reads the match's last events first, not the
whole match, numbers their positions as the whole timeline does, shows earlier events on
demand, and reaches back by itself to a position opened before its window."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from replay.service import Kiroku
from tests.replay.conftest import Server
from tests.web.conftest import Watched

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
WINDOW = 100  # match.js's TIMELINE_STEP


@pytest.fixture(scope="module")
def long_match(web: Server) -> Iterator[str]:
    """A World Gainer match of 150 actions (ends of turn, and a judge's adjustment after each
    so that no deck runs out) and an undo of 4 of them, in the viewer's store."""
    kiroku = Kiroku.open(web.db_url)
    try:
        match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"],
                                    ["solar_vanguard", "pleiades_bloom"],
                                    options={"first_player": 1})
        for _ in range(75):
            seat = kiroku.recorder.get_match(match_id).state.active
            kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by="test")
            state: Any = kiroku.recorder.get_match(match_id).state
            kiroku.record(match_id, {"type": "adjust", "seat": state.active, "reason": "test",
                                     "move": {"card": state.player(state.active).hand[0],
                                              "from_zone": "hand", "to_zone": "deck"}},
                          recorded_by="judge")
        kiroku.undo(match_id, 4, reason="misread", recorded_by="judge")
    finally:
        kiroku.close()
    yield str(match_id)


def _numbered(server: Server, match_id: str) -> dict[int, int]:
    """Each live action's position by its event version, as the whole timeline numbers it."""
    with server.client() as anonymous:
        events = anonymous.get(f"/matches/{match_id}/events").json()
    voided = {s for e in events if e["event"] == "ActionsUndone" for s in e["seqs"]}
    live = [e["version"] for e in events
            if e["event"] == "ActionRecorded" and e["seq"] not in voided]
    return {version: n for n, version in enumerate(live, start=1)}


def _shown(watched: Watched) -> dict[int, int]:
    """The timeline's live entries: position by event version."""
    pairs = watched.page.eval_on_selector_all(
        "#entries li[data-version]",
        "items => items.map(i => [Number(i.dataset.version), Number(i.dataset.position)])")
    return {version: position for version, position in pairs}


def test_the_timeline_reads_the_last_events_then_earlier_ones(
        web: Server, watched: Watched, long_match: str) -> None:
    numbered = _numbered(web, long_match)
    positions = max(numbered.values())
    page = watched.page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/transcript" in r.url
            or "/events" in r.url else None)
    page.goto(f"{web.base}/watch/{long_match}")
    page.wait_for_selector(f"#entries li.current[data-position='{positions}']", timeout=20_000)
    shown = _shown(watched)
    assert shown and len(page.locator("#entries > li").all()) <= WINDOW + 1
    assert shown == {v: p for v, p in numbered.items() if v in shown}
    assert all(f"last={WINDOW}" in url for url in asked), asked
    assert page.locator("#entries li[data-position='0']").count() == 0
    while page.locator("button[data-earlier]").count():
        before = len(shown)
        page.click("button[data-earlier]")
        page.wait_for_function(
            "n => document.querySelectorAll('#entries li[data-version]').length > n",
            arg=before, timeout=20_000)
        shown = _shown(watched)
    assert shown == numbered
    assert page.locator("#entries li[data-position='0']").count() == 1
    assert page.locator("#entries li.undone").count() == 4
    watched.assert_clean()


def test_a_position_before_the_window_is_brought_into_the_timeline(
        web: Server, watched: Watched, long_match: str) -> None:
    watched.page.goto(f"{web.base}/watch/{long_match}#at=3")
    watched.page.wait_for_selector("#board[data-position='3']", timeout=20_000)
    watched.page.wait_for_selector("#entries li.current[data-position='3']", timeout=20_000)
    assert _shown(watched) == {v: p for v, p in _numbered(web, long_match).items()
                               if v in _shown(watched)}
    watched.page.keyboard.press("End")
    watched.page.wait_for_selector("#entries li.current[data-version]", timeout=20_000)
    watched.assert_clean()
