"""The leak scanner's pages: the replay viewer, as Chromium shows it to a spectator and to each
seat signed in with its own credential (a session the page opened with it), and each seat's
own page (/play: its actions in words, the choices behind them, its area), names no card its
reader may not know. A tournament's pages (/events/ID, and /events/ID/me of each player
signed in by their player link) name no card of a closed decklist its reader does not hold.

For every game, a match played part way under closed deck lists (with undos and a judge's
adjustment that moves a hand card back to the deck, and every viewer's annotations) is opened
at its start, middle and last position; the whole document the page built (its text, its
attributes, the timeline and transcript it fetched) is searched for every card id and name the
reader could not know at the position shown, as the zone table alone works it out
(``tests.replay.test_leaks``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest
from playwright.sync_api import Browser

from engine import SPECTATOR, Viewer, games
from engine.core.contract import Ruleset
from engine.registry import get_game
from ledger.fold import Fold
from ledger.identity import Identity
from replay.service import Kiroku
from tests.replay.conftest import Server, serve
from tests.replay.test_leaks import _annotate_hidden_cards, _Knowledge, _leaks, _record_playout
from tests.support import sample_data
from tests.web.conftest import Watched, guard
from tests.web.test_viewer import _board_at, _sign_in


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    """A server over one live match per game (by game id)."""
    path: Path = tmp_path_factory.mktemp("pages") / "kiroku.db"
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        matches = {g.game_id: str(_record_playout(kiroku, g, g.min_players, seed=23, stop=20))
                   for g in games()}
    finally:
        kiroku.close()
    for server in serve(path):
        yield server, matches


@pytest.mark.parametrize("ruleset", games(), ids=[g.game_id for g in games()])
def test_no_page_shows_a_reader_a_card_it_may_not_know(
        played: tuple[Server, dict[str, str]], watched: Watched, ruleset: Ruleset) -> None:
    server, matches = played
    match_id = matches[ruleset.game_id]
    kiroku = Kiroku.open(server.db_url)
    try:
        seats = kiroku.seat_credentials(UUID(match_id), Identity.operator())
        tokens = {f"seat:{s['seat']}": s["token"] for s in seats}
        callers = {"spectator": None, **{v: kiroku.credentials.authenticate(t)
                                         for v, t in tokens.items()}}
        _annotate_hidden_cards(kiroku, UUID(match_id), callers)
        records = kiroku.records(kiroku.seen_by(UUID(match_id)))
    finally:
        kiroku.close()
    viewers = [SPECTATOR, *(Viewer("seat", s) for s in range(1, ruleset.min_players + 1))]
    knowledge = _Knowledge(ruleset, viewers)
    Fold(knowledge).feed_all(records)
    names = {cid: str(c.get("name")) for cid, c in records[0]["config"]["cards"].items()}
    end = len(knowledge.known) - 1
    page = watched.page
    scanned = 0
    for viewer in viewers:
        page.goto(f"{server.base}/watch/{match_id}")
        if viewer.seat is not None:
            _sign_in(watched, tokens[str(viewer)])
            page.wait_for_function("seat => document.body.innerText.includes(`seat ${seat}`)",
                                   arg=viewer.seat)
        _board_at(watched, end)  # the page opens at the last position its reader may see
        for position in (0, end // 2, end):  # as a reader steps: by the timeline's entries
            page.click(f"#entries button[data-go='{position}']")
            _board_at(watched, position)
            page.wait_for_load_state("networkidle")
            # the page holds the whole timeline: what the reader may know by the end
            known = knowledge.known[end][str(viewer)]
            hidden = knowledge.every - known
            shown = page.content() + page.inner_text("body")
            found = _leaks(shown, hidden, names, known)
            assert not found, (str(viewer), position, found)
            scanned += bool(hidden)
        if viewer.seat is not None:  # the seat's own page: its actions, forms and pickers
            page.goto(f"{server.base}/play/{match_id}")
            page.wait_for_selector("body[data-version]")  # set once all of it is drawn
            known = knowledge.known[end][str(viewer)]
            shown = page.content() + page.inner_text("body")
            found = _leaks(shown, knowledge.every - known, names, known)
            assert not found, (str(viewer), "play", found)
    assert scanned, "no reader ever had a card hidden from it"
    watched.assert_clean()



def test_no_event_page_shows_a_reader_a_closed_decklist(
        played: tuple[Server, dict[str, str]], browser: Browser) -> None:
    """Under the closed decklist policy, before the tournament is finished, the event's public
    page (as a spectator and as each player) and each player's own page (signed in by their
    player link; their list, standing and matches) name no card of a list the reader does not
    hold, with a round paired, a game won and the next game of the best of three started."""
    server, _ = played
    cards, decks = sample_data(get_game("worldgainer"))
    names = {cid: str(card["name"]) for cid, card in cards.items()}
    with server.client(server.organiser_token) as organiser:
        made = organiser.post("/tournaments", json={
            "name": "Closed Pages Cup", "game": "worldgainer", "best_of": 3}).json()
        tournament_id = made["tournament_id"]
        url = f"/tournaments/{tournament_id}"
        lists, links = {}, {}
        for i, player in enumerate(("Ann", "Ben")):
            registered = organiser.post(f"{url}/players", json={"name": player}).json()
            lists[player] = decks[i % len(decks)]
            assert organiser.put(f"{url}/players/{player}/decklist",
                                 json={"deck": lists[player]}).status_code == 200
            links[player] = organiser.post(
                f"{url}/players/{registered['player_id']}/link").json()["link"]
        paired = organiser.post(f"{url}/rounds", json={"tables": [
            {"table": 1, "players": ["Ann", "Ben"]}]}).json()
        assert organiser.post(f"/matches/{paired['tables'][0]['match_id']}/actions", json={
            "action": {"type": "concede", "seat": 2}}).status_code == 201
        assert organiser.post(f"{url}/rounds/1/tables/1/games").status_code == 201
    every = set(lists["Ann"]) | set(lists["Ben"])
    readers: dict[str, tuple[str | None, set[str]]] = {
        "spectator": (None, set()), "Ann": (links["Ann"], set(lists["Ann"])),
        "Ben": (links["Ben"], set(lists["Ben"]))}
    for reader, (link, own) in readers.items():
        context = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            watched = guard(context)
            page = watched.page
            shown: dict[str, str] = {}
            if link:
                page.goto(link)
                page.wait_for_url(f"**/events/{tournament_id}/me")
                page.wait_for_selector("body[data-signed-in='yes']")
                page.wait_for_selector("#deck-list li")  # the reader's own list is drawn
                page.wait_for_load_state("networkidle")
                shown["/me"] = page.content() + page.inner_text("body")
            page.goto(f"{server.base}/events/{tournament_id}")
            page.wait_for_selector("body[data-updates]")
            page.wait_for_load_state("networkidle")
            shown["event"] = page.content() + page.inner_text("body")
            for channel, text in shown.items():
                assert not _leaks(text, every - own, names, own), (reader, channel)
            watched.assert_clean()
        finally:
            context.close()
