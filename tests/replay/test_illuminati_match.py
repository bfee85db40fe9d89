"""An Illuminati match through the whole stack (recorder, undo, views, audit, export/import),
on SQLite and PostgreSQL alike: nothing outside engine/ knows which game it is."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from uuid import UUID

from engine import JUDGE, Viewer, get_game
from replay.service import Kiroku

RULES = get_game("illuminati")
DECKS = ["paper_trail", "boardroom_shadows", "strange_frequencies"]


def _play_until(kiroku: Kiroku, match_id: UUID, stop: str, rng: random.Random) -> dict[str, Any]:
    """Record random legal actions (attacks first) until an action of type ``stop`` is taken."""
    for _ in range(2000):
        state = kiroku.recorder.get_match(match_id).state
        seat = rng.choice(RULES.to_act(state))
        options = [a.model_dump(mode="json") for a in RULES.legal_actions(state, seat)]
        wanted = [a for a in options if a["type"] == stop]
        action = wanted[0] if wanted else rng.choice(options)
        kiroku.record(match_id, action, recorded_by="test")
        if action["type"] == stop:
            return action
    raise AssertionError(f"no {stop} action came up")


def test_simulated_matches_audit_clean_and_reimport(kiroku: Kiroku, tmp_path: Path) -> None:
    ids = kiroku.simulate("illuminati", 2, seed=5, players=3, options={"turn_limit": 4})
    for match_id in ids:
        summary = kiroku.summary(kiroku.seen_by(match_id))
        assert summary["result"] is not None
        report = kiroku.audit(match_id)
        assert report.ok, report.failure
        assert report.actions == summary["positions"]
    other = Kiroku.open(f"sqlite:///{tmp_path}/other.db")
    try:
        moved = other.import_match(kiroku.export(kiroku.seen_by(ids[0]), "msgpack")).match_id
        assert moved == ids[0] and other.audit(moved).ok
        assert other.transcript(other.seen_by(moved)) == kiroku.transcript(kiroku.seen_by(ids[0]))
    finally:
        other.close()


def test_undo_of_a_paid_attack_gives_the_token_back(kiroku: Kiroku) -> None:
    match_id = kiroku.new_match("illuminati", ["Ann", "Ben", "Cy"], DECKS)
    rng = random.Random(3)
    _play_until(kiroku, match_id, "attack", rng)
    before = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)
    paid = _play_until(kiroku, match_id, "pay_attack", rng)
    assert paid["type"] == "pay_attack"
    assert kiroku.view(kiroku.seen_by(match_id, JUDGE), None)["state"]["attack"][
        "stage"] == "support"
    kiroku.undo(match_id, 1, reason="paid with the wrong card", recorded_by="judge")
    after = kiroku.view(kiroku.seen_by(match_id, JUDGE), None)
    assert after["digest"] == before["digest"]
    assert after["state"]["attack"]["stage"] == "declared"
    lines = kiroku.transcript(kiroku.seen_by(match_id))
    assert any("pays for the attack" in line and "undone" in line.lower() for line in lines)


def test_views_hide_hands_and_decks_but_show_every_structure(kiroku: Kiroku) -> None:
    match_id = kiroku.new_match("illuminati", ["Ann", "Ben", "Cy"], DECKS)
    _play_until(kiroku, match_id, "begin_main", random.Random(1))
    for seat in (1, 2, 3):
        seats = kiroku.view(kiroku.seen_by(match_id, Viewer("seat", seat)), None)["state"]["seats"]
        for other in seats:
            mine = other["seat"] == seat
            assert isinstance(other["plot_hand"], list) == mine
            assert isinstance(other["group_hand"], list) == mine
            assert other["group_deck"] is None and other["plot_deck"] is None
            assert other["power_structure"]["arrows"]
            assert other["groups"] >= 1


def test_discards_and_gifts_are_named_only_to_those_involved(kiroku: Kiroku) -> None:
    match_id = kiroku.new_match("illuminati", ["Ann", "Ben", "Cy"], DECKS)
    _play_until(kiroku, match_id, "begin_main", random.Random(2))
    state = kiroku.recorder.get_match(match_id).state
    hand = state.player(2).group_hand  # type: ignore[attr-defined]
    kiroku.record(match_id, {"type": "discard", "seat": 2, "cards": [hand[0]]},
                  recorded_by="Ben")
    kiroku.record(match_id, {"type": "give_cards", "seat": 2, "to": 3, "cards": [hand[1]]},
                  recorded_by="Ben")

    def last_two(viewer: Viewer) -> list[list[Any]]:
        return [r["action"]["cards"] for r in kiroku.records(kiroku.seen_by(match_id, viewer))[-2:]]

    assert last_two(JUDGE) == [[hand[0]], [hand[1]]]
    assert last_two(Viewer("seat", 2)) == [[hand[0]], [hand[1]]]
    assert last_two(Viewer("seat", 3)) == [[None], [hand[1]]]
    assert last_two(Viewer("seat", 1)) == [[None], [None]]
    assert last_two(Viewer("spectator")) == [[None], [None]]
    spectator_lines = kiroku.transcript(kiroku.seen_by(match_id, Viewer("spectator")))
    assert spectator_lines[-1].endswith("gives 1 card(s) to seat 3.")
