"""The match list's filters and pages (issue 15's list page reads them): status, the UTC day
of creation, newest first, offset and limit; through the service, the HTTP API and the CLI."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from replay.service import Kiroku
from tests.replay.conftest import Server, serve

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
STORED = ["worldgainer/in-progress", "worldgainer/short-concession", "kami/declared-victory",
          "kami/in-progress"]


def _fill(kiroku: Kiroku) -> None:
    for name in STORED:
        kiroku.import_match((GOLDEN / name / "match.jsonl").read_bytes())


@pytest.fixture
def kiroku(tmp_path: Path) -> Iterator[Kiroku]:
    opened = Kiroku.open("sqlite:///" + str(tmp_path / "list.db"))
    _fill(opened)
    try:
        yield opened
    finally:
        opened.close()


def _days(kiroku: Kiroku) -> list[str]:
    return [m["created_at"][:10] for m in kiroku.find_matches()]


def test_status_live_lists_matches_without_a_result(kiroku: Kiroku) -> None:
    live = kiroku.find_matches(status="live")
    assert live and all(m["result"] is None and m["status"] == "live" for m in live)
    assert len(live) == 2


def test_status_ended_lists_matches_with_a_result(kiroku: Kiroku) -> None:
    ended = kiroku.find_matches(status="ended")
    assert len(ended) == 2 and all(m["result"] is not None for m in ended)


def test_the_list_is_in_creation_order_and_newest_first_reverses_it(kiroku: Kiroku) -> None:
    oldest = [m["created_at"] for m in kiroku.find_matches()]
    assert oldest == sorted(oldest)
    assert [m["created_at"] for m in kiroku.find_matches(newest_first=True)] == oldest[::-1]


def test_a_day_range_keeps_the_matches_created_within_it(kiroku: Kiroku) -> None:
    day = date.fromisoformat(min(_days(kiroku)))
    assert len(kiroku.find_matches(since=day, until=day)) == _days(kiroku).count(day.isoformat())
    assert kiroku.find_matches(since=day + timedelta(days=400)) == []
    assert kiroku.find_matches(until=day - timedelta(days=1)) == []
    assert len(kiroku.find_matches(since=day)) == len(STORED)


def test_offset_and_limit_cut_one_page_of_the_filtered_list(kiroku: Kiroku) -> None:
    every = [m["match_id"] for m in kiroku.find_matches(newest_first=True)]
    pages = [[m["match_id"] for m in kiroku.find_matches(newest_first=True, offset=o, limit=3)]
             for o in (0, 3, 6)]
    assert pages == [every[:3], every[3:6], []]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("list") / "list.db"
    opened = Kiroku.open("sqlite:///" + str(path))
    _fill(opened)
    opened.close()
    yield from serve(path)


def test_http_filters_by_status_and_pages_newest_first(server: Server) -> None:
    with server.client() as anyone:
        every = anyone.get("/matches", params={"order": "newest"}).json()
        page = anyone.get("/matches", params={"order": "newest", "limit": 2, "offset": 1})
        ended = anyone.get("/matches", params={"status": "ended"}).json()
    assert page.status_code == 200
    assert [m["match_id"] for m in page.json()] == [m["match_id"] for m in every[1:3]]
    assert {m["status"] for m in ended} == {"ended"} and len(ended) == 2


def test_http_says_how_many_matches_the_filters_select_and_links_the_pages(
        server: Server) -> None:
    with server.client() as anyone:
        middle = anyone.get("/matches", params={"order": "newest", "limit": 2, "offset": 1})
        last = anyone.get("/matches", params={"order": "newest", "limit": 2, "offset": 3})
        whole = anyone.get("/matches")
        ended = anyone.get("/matches", params={"status": "ended", "limit": 1})
        nobody = anyone.get("/matches", params={"player": "no such player"})
    assert middle.headers["x-total-count"] == last.headers["x-total-count"] == str(len(STORED))
    links = middle.headers["link"]
    assert 'offset=3>; rel="next"' in links and 'offset=0>; rel="prev"' in links
    assert "order=newest" in links and "limit=2" in links
    assert len(last.json()) == 1 and 'rel="next"' not in last.headers["link"]
    assert whole.headers["x-total-count"] == "4" and "link" not in whole.headers
    assert ended.headers["x-total-count"] == "2" and len(ended.json()) == 1
    assert nobody.headers["x-total-count"] == "0" and nobody.json() == []


@pytest.mark.parametrize("params", [{"status": "paused"}, {"since": "yesterday"},
                                    {"until": "2026-13-01"}, {"limit": 0}, {"offset": -1},
                                    {"order": "random"}, {"limit": 100_000}])
def test_http_refuses_a_bad_filter_with_the_documented_error(
        server: Server, params: dict[str, object]) -> None:
    with server.client() as anyone:
        answer = anyone.get("/matches", params=params)
    assert answer.status_code == 422
    assert answer.json()["code"] == "malformed_request"


def test_cli_lists_live_matches_newest_first_with_a_limit(kiroku: Kiroku, tmp_path: Path) -> None:
    kiroku.close()
    url = "sqlite:///" + str(tmp_path / "list.db")
    result = CliRunner().invoke(main, ["--db", url, "match", "list", "--status", "live",
                                       "--newest", "--limit", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "in progress" in lines[0]
    refused = CliRunner().invoke(main, ["--db", url, "match", "list", "--since", "21/11/2026"])
    assert refused.exit_code != 0
