"""The match list page in a real browser: newest first a page of 50 at a time, filtered by
status, creation day and tournament round and table, the filters and the page in the URL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from replay.service import Kiroku
from tests.replay.conftest import Server, serve
from tests.replay.test_tournaments_http import DECKS, PAIRINGS, PLAYERS
from tests.web.conftest import GOLDEN, Watched

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MADE = 55  # more than a page


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server holding an ended golden match, MADE new live ones and a paired tournament."""
    path = tmp_path_factory.mktemp("list-page") / "list.db"
    kiroku = Kiroku.open("sqlite:///" + str(path))
    try:
        ended = GOLDEN / "worldgainer" / "short-concession" / "match.jsonl"
        kiroku.import_match(ended.read_bytes())
        for n in range(MADE):
            kiroku.new_match("worldgainer", [f"Player {n:02d}", "Rival"],
                             ["solar_vanguard", "pleiades_bloom"])
    finally:
        kiroku.close()
    for server in serve(path):
        _tournament(server)
        yield server


def _tournament(server: Server) -> None:
    with server.client(server.organiser_token) as organiser:
        made = organiser.post("/tournaments", json={"name": "List Open", "game": "worldgainer"})
        assert made.status_code == 201, made.text
        url = f"/tournaments/{made.json()['tournament_id']}"
        for name, number, deck in PLAYERS:
            player = organiser.post(f"{url}/players", json={"name": name, "external_id": number})
            assert player.status_code == 201, player.text
            sent = organiser.put(f"{url}/players/{player.json()['player_id']}/decklist",
                                 json={"deck": DECKS[deck]})
            assert sent.status_code == 200, sent.text
        paired = organiser.post(f"{url}/rounds/csv", content=PAIRINGS,
                                headers={"content-type": "text/csv"})
        assert paired.status_code == 201, paired.text


def _rows(watched: Watched) -> list[str]:
    return list(watched.page.eval_on_selector_all(
        "#matches tbody tr", "rows => rows.map(r => r.dataset.match)"))


def _settled(watched: Watched) -> None:
    watched.page.wait_for_function(
        "() => { const t = document.getElementById('message').textContent;"
        " return t !== '' && !t.startsWith('Loading'); }")


def test_the_list_pages_newest_first_fifty_at_a_time(listed: Server, watched: Watched) -> None:
    with listed.client() as anyone:
        newest = [m["match_id"] for m in anyone.get("/matches", params={"order": "newest"}).json()]
    page = watched.page
    page.goto(f"{listed.base}/")
    _settled(watched)
    assert _rows(watched) == newest[:50]
    assert page.is_disabled("#newer") and page.is_enabled("#older")
    assert page.inner_text("#message") == f"1–50 of {len(newest)}, newest first."
    page.click("#older")
    page.wait_for_function("() => document.querySelectorAll('#matches tbody tr').length < 50")
    assert _rows(watched) == newest[50:]
    assert "offset=50" in page.url and page.is_disabled("#older")
    assert page.inner_text("#message") == f"51–{len(newest)} of {len(newest)}, newest first."
    page.reload()  # the page is in the URL
    _settled(watched)
    assert _rows(watched) == newest[50:]
    watched.assert_clean()


def test_status_filter_shows_only_ended_matches(listed: Server, watched: Watched) -> None:
    page = watched.page
    page.goto(f"{listed.base}/")
    _settled(watched)
    page.select_option("#status", "ended")
    page.wait_for_function("() => document.querySelectorAll('#matches tbody tr').length === 1")
    assert page.get_attribute("#matches tbody tr", "data-status") == "ended"
    assert "status=ended" in page.url
    page.select_option("#status", "live")
    page.wait_for_function("() => document.querySelectorAll('#matches tbody tr').length === 50")
    statuses = page.eval_on_selector_all("#matches tbody tr", "r => r.map(x => x.dataset.status)")
    assert set(statuses) == {"live"}
    assert page.locator("#matches tbody tr .live-badge").count() == 50
    watched.assert_clean()


def test_a_day_range_without_matches_lists_none(listed: Server, watched: Watched) -> None:
    page = watched.page
    page.goto(f"{listed.base}/?since=2001-01-01&until=2001-01-31")
    page.wait_for_selector("text=No match matches these filters.")
    assert page.input_value("#since") == "2001-01-01"
    with listed.client() as anyone:
        day = anyone.get("/matches").json()[0]["created_at"][:10]
    page.fill("#since", day)
    page.fill("#until", day)
    page.click("#filters button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#matches tbody tr').length > 0")
    watched.assert_clean()


def test_a_tournament_s_round_and_table_filter_finds_one_table(listed: Server,
                                                               watched: Watched) -> None:
    page = watched.page
    page.goto(f"{listed.base}/")
    _settled(watched)
    assert page.is_hidden("#round-table")
    page.select_option("#tournament", label="List Open")
    page.wait_for_function("() => document.querySelectorAll('#matches tbody tr').length === 2")
    assert "round 1" in page.inner_text("#matches tbody")
    page.fill("#table", "2")
    page.click("#filters button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('#matches tbody tr').length === 1")
    row = page.inner_text("#matches tbody tr")
    assert "table 2" in row and "Cid vs Dee" in row
    watched.assert_clean()
