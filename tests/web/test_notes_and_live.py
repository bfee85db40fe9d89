"""The viewer's annotations (read by their allowed readers only, drawn on the board, added from
the page), following live by Server-Sent Events (GET /matches/{id}/live) and the embeddable
board, in Debian's Chromium against a real server. No page may ask another host for anything."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.replay.conftest import Server
from tests.web.conftest import Watched, guard
from tests.web.test_viewer import _board_at, _new_match, _sign_in

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@contextmanager
def _page(browser: Browser) -> Iterator[Watched]:
    """Another reader's page (a context of its own: its own sessionStorage)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield guard(context)
    finally:
        context.close()


def _seat_token(created: dict[str, Any], seat: int) -> str:
    return str(next(s["token"] for s in created["seats"] if s["seat"] == seat))


def _open(web: Server, watched: Watched, match_id: str, token: str | None) -> None:
    """The match at position 0, signed in with ``token`` (None: a spectator), its annotations
    listed."""
    page = watched.page
    page.goto(f"{web.base}/watch/{match_id}#at=0")
    _board_at(watched, 0)
    if token:
        _sign_in(watched, token)
        page.wait_for_selector("#note-form:not([hidden])")
    page.wait_for_selector("#note-list li")


def _add(watched: Watched, text: str, visibility: str, symbol: str | None = None) -> None:
    page = watched.page
    page.fill("#note-text", text)
    page.select_option("#note-visibility", visibility)
    if symbol:
        page.check(f"#note-symbols input[value='{symbol}']")
    page.click("#note-add")


def _notes(watched: Watched) -> str:
    return watched.page.inner_text("#note-list")


def test_annotations_show_to_their_readers_only_and_highlight_cards(
        web: Server, browser: Browser, watched: Watched) -> None:
    created = _new_match(web, ["Ada", "Bo"])
    match_id = created["match_id"]
    seat_one, seat_two = _seat_token(created, 1), _seat_token(created, 2)
    with web.client(seat_one) as seat:
        hand = seat.get(f"/matches/{match_id}/state", params={"at": 0}).json()
    card = hand["state"]["seats"][0]["hand"][0]["id"]

    page = watched.page  # seat 1, whose hand card no public annotation may name
    _open(web, watched, match_id, seat_one)
    chip = f"#board-body .chip[data-card='{card}']"
    page.locator(chip).first.click()
    page.wait_for_selector(f"{chip}.picked")
    assert card in page.inner_text("#note-highlights")
    _add(watched, "my plan, for all to see", "public")
    page.wait_for_selector("#note-message:has-text('Not added (422)')")
    assert "my plan" not in _notes(watched)
    assert all("422" in e for e in watched.errors)  # the browser logs the refused request
    watched.errors.clear()
    page.select_option("#note-visibility", "team")
    _add(watched, "seat one's plan", "team", "key_moment")
    page.wait_for_selector("#note-list li[data-visibility='team']")
    assert "seat one's plan" in _notes(watched) and "□" in _notes(watched)
    page.wait_for_selector(f"{chip}[data-highlighted]")
    assert page.locator(f"{chip}.highlighted").count() >= 1
    page.wait_for_selector("#entries li[data-position='0'][data-annotated] .note-mark")
    watched.assert_clean()

    with _page(browser) as organiser:
        _open(web, organiser, match_id, web.organiser_token)
        _add(organiser, "judges: check the deck count", "judges", "rules_question")
        organiser.page.wait_for_selector("#note-list li[data-visibility='judges']")
        _add(organiser, "a public remark", "public")
        organiser.page.wait_for_selector("#note-list li[data-visibility='public']")
        assert "seat one's plan" not in _notes(organiser)  # a seat's team is its seat
        assert "?R" in _notes(organiser)
        organiser.assert_clean()

    for token in (seat_two, None):  # the other seat, a spectator: the public one only
        with _page(browser) as other:
            _open(web, other, match_id, token)
            other.page.wait_for_selector("#note-list li[data-visibility='public']")
            shown = _notes(other) + other.page.content()
            assert "seat one's plan" not in shown and "judges: check" not in shown
            assert other.page.locator("[data-highlighted]").count() == 0
            assert other.page.is_hidden("#note-form") == (token is None)
            other.assert_clean()

    page.reload()  # seat 1 again: its team's and the public one, not the judges'
    page.wait_for_selector("#note-list li[data-visibility='public']")
    assert "seat one's plan" in _notes(watched) and "judges: check" not in _notes(watched)
    watched.assert_clean()


def test_live_answers_an_event_stream_with_the_positions(web: Server) -> None:
    created = _new_match(web, ["Cy", "Dee"])
    with web.client() as spectator:
        with spectator.stream("GET", f"/matches/{created['match_id'][:8]}/live") as answer:
            assert answer.status_code == 200
            assert answer.headers["content-type"].startswith("text/event-stream")
            lines = []
            for line in answer.iter_lines():
                lines.append(line)
                if line == "" and any(x.startswith("data:") for x in lines):
                    break
    assert "event: position" in lines
    data = json.loads(next(x for x in lines if x.startswith("data:"))[5:])
    assert data["positions"] == 0 and data["version"] >= 1
    with web.client() as spectator:
        assert spectator.get("/matches/00000000/live").status_code == 404
        schema = spectator.get("/openapi.json").json()
    assert not {"/matches/{match_id}/live", "/embed/{match}"} & set(schema["paths"])


def _end_turn(web: Server, match_id: str, seat: int) -> None:
    with web.client(web.organiser_token) as organiser:
        answer = organiser.post(f"/matches/{match_id}/actions",
                                json={"action": {"type": "end_turn", "seat": seat}})
    assert answer.status_code == 201, answer.text


def test_a_spectator_follows_live_by_server_sent_events(web: Server, watched: Watched) -> None:
    created = _new_match(web, ["Eve", "Fox"])
    match_id = created["match_id"]
    page = watched.page
    streams: list[str] = []
    page.on("request", lambda r: streams.append(r.url) if r.url.endswith("/live") else None)
    page.goto(f"{web.base}/watch/{match_id}")
    _board_at(watched, 0)
    page.check("#follow")
    page.wait_for_function("() => true")
    _end_turn(web, match_id, created["to_act"][0])
    _board_at(watched, 1)
    assert streams == [f"{web.base}/matches/{match_id}/live"]
    watched.assert_clean()


def test_the_embedded_board_renders_and_follows_live(web: Server, watched: Watched) -> None:
    created = _new_match(web, ["Gil", "Hana"])
    match_id = created["match_id"]
    page = watched.page
    answer = page.goto(f"{web.base}/embed/{match_id[:8]}")
    assert answer is not None and "frame-ancestors *" in answer.headers[
        "content-security-policy"]
    page.wait_for_selector("#board[data-position='0']", timeout=20_000)
    assert "Position 0 of 0" in page.inner_text("#board")
    assert page.locator("#entries, #token, #note-form, .controls").count() == 0
    _end_turn(web, match_id, created["to_act"][0])
    page.wait_for_selector("#board[data-position='1']", timeout=20_000)
    assert "Position 1 of 1" in page.inner_text("#board")
    assert page.url.endswith(f"/embed/{match_id[:8]}")  # no hash, no credential
    watched.assert_clean()


def test_a_signed_in_seat_follows_live_by_the_stream_with_its_credential(
        web: Server, watched: Watched) -> None:
    created = _new_match(web, ["Ivo", "Jun"])
    match_id, seat = created["match_id"], created["to_act"][0]
    token = _seat_token(created, seat)
    page = watched.page
    sent: list[tuple[str, str | None]] = []
    page.on("request", lambda r: sent.append((r.url, r.headers.get("x-kiroku-page"))))
    _open(web, watched, match_id, token)
    summary = f"{web.base}/matches/{match_id}"
    before = [u for u, _ in sent].count(summary)
    page.check("#follow")
    page.wait_for_timeout(2500)  # nothing changes: nothing is asked again (no polling)
    asked = [u for u, _ in sent].count(summary) - before
    with web.client(token) as player:
        assert player.post(f"/matches/{match_id}/actions", json={
            "action": {"type": "end_turn", "seat": seat}}).status_code == 201
    _board_at(watched, 1)
    streams = [(u, auth) for u, auth in sent if u.endswith("/live")]
    assert streams and all(page_header == "1" for _, page_header in streams)  # with the session
    assert all(token not in u for u, _ in sent), "the credential never goes in a URL"
    assert asked == 0, f"{asked} summaries asked while nothing changed"
    watched.assert_clean()


def test_a_live_stream_ends_when_its_credential_is_revoked(web: Server) -> None:
    created = _new_match(web, ["Kit", "Lou"])
    with web.client(web.organiser_token) as organiser:
        judge = organiser.post("/credentials", json={"role": "judge", "name": "Short-lived"}).json()
    with web.client(judge["token"]) as watcher:
        with watcher.stream("GET", f"/matches/{created['match_id']}/live") as answer:
            assert answer.status_code == 200
            lines = answer.iter_lines()
            assert next(lines) == "event: position"
            with web.client(web.organiser_token) as organiser:
                revoked = organiser.post(f"/credentials/{judge['credential_id']}/revoke",
                                         json={"reason": "left the event"})
            assert revoked.status_code == 200, revoked.text
            rest = list(lines)  # the server ends the stream within seconds
    assert "event: revoked" in rest
