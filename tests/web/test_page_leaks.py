"""The leak scanner's pages: the replay viewer, as Chromium shows it to a spectator and to each
seat signed in with its own credential (a session the page opened with it), and each seat's
own page (/play: its actions in words, the choices behind them, its area), names no card its
reader may not know.

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

from engine import SPECTATOR, Viewer, games
from engine.core.contract import Ruleset
from ledger.fold import Fold
from ledger.identity import Identity
from replay.service import Kiroku
from tests.replay.conftest import Server, serve
from tests.replay.test_leaks import _annotate_hidden_cards, _Knowledge, _leaks, _record_playout
from tests.web.conftest import Watched
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

