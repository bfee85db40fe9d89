"""What a highlight names (issue 40): a card in its place, where a game has several copies of
one card (the field's Archivist, not the hand's), and a place of a zone with places: a square,
a hex, a cell. The refusal for a card a reader may not see is the same as for one that is not
there, so it reveals nothing."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TypeVar
from uuid import UUID

import pytest

from engine import get_game
from engine.core.effects import Place
from ledger.annotations import AnnotationRefused
from ledger.catalog import sample_decks
from ledger.identity import Identity
from replay import annotations as annotating
from replay.service import Kiroku

JUDGE = Identity.operator("Judge Jun")
T = TypeVar("T")
FIELD = ["M1-1", "M1-2", "M1-3", "B-1", "B-2", "B-3", "M2-1", "M2-2", "M2-3"]
HIDDEN = "Highlight only cards every reader of this annotation may see at that position"


@pytest.fixture(scope="module")
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _note(kiroku: Kiroku, match_id: UUID, position: int, highlights: list[str],
          arrows: list[list[str]] | None = None, by: Identity = JUDGE,
          visibility: str = "judges") -> dict[str, object]:
    return annotating.add(kiroku, kiroku.audience(match_id, by), position, "here",
                          [], highlights, arrows or [], visibility)


def _live_until(kiroku: Kiroku, game: str,
                find: Callable[[dict[Place, list[str]]], T | None]) -> tuple[UUID, int, T]:
    """A live match of ``game`` played at random (reproducibly) until ``find`` finds what it
    looks for in the places of its position: the match, the position and what was found."""
    rules = get_game(game)
    for attempt in range(20):
        rng = random.Random(f"marks:{game}:{attempt}")
        match_id = kiroku.new_match(game, ["Ann", "Ben"], list(sample_decks(game))[:2],
                                    seed=f"marks:{game}:{attempt}".encode(),
                                    replay_policy="closed")
        state = kiroku.recorder.get_match(match_id).state
        for _ in range(400):
            seat = rng.choice(rules.to_act(state))
            action = rng.choice(rules.legal_actions(state, seat))
            if action.type == "concede":
                continue
            kiroku.record(match_id, action.model_dump(mode="json"), recorded_by="test")
            state = kiroku.recorder.get_match(match_id).state
            if state.result is not None:
                break
            found = find(rules.places(state))
            if found is not None:
                return match_id, len(kiroku.recorder.get_match(match_id).live), found
    raise AssertionError(f"no {game} position found")


def _seat(kiroku: Kiroku, match_id: UUID, seat: int) -> Identity:
    token = kiroku.seat_credentials(match_id, JUDGE)[seat - 1]["token"]
    return kiroku.credentials.authenticate(token)


def _copy_in_hand_and_on_a_square(
        places: dict[Place, list[str]]) -> tuple[str, Place, int, list[str]] | None:
    return next(((card, place, seat, [a for a in FIELD if card not in places[Place("field",
                                                                                 None, a)]])
                 for place, cards in places.items() if place.zone == "field" and place.address
                 for card in cards for seat in (1, 2) if card in places[Place("hand", seat)]),
                None)


def test_a_card_in_a_hand_and_on_a_square_is_named_in_its_place(kiroku: Kiroku) -> None:
    match_id, position, (card, square, seat, empty) = _live_until(
        kiroku, "worldgainer", _copy_in_hand_and_on_a_square)
    on_field, in_hand = f"field:{square.address}/{card}", f"hand#{seat}/{card}"
    made = _note(kiroku, match_id, position, [on_field, in_hand], [[in_hand, on_field]])
    assert made["highlights"] == [on_field, in_hand]
    other = _seat(kiroku, match_id, 3 - seat)
    for refused, by in ((f"field:{empty[0]}/{card}", JUDGE), (in_hand, other),
                        (f"hand#{seat}/NO-SUCH", other)):
        with pytest.raises(AnnotationRefused, match=HIDDEN):
            _note(kiroku, match_id, position, [refused], by=by)
    assert _note(kiroku, match_id, position, [in_hand], by=_seat(kiroku, match_id, seat))


def test_a_square_is_a_place_of_the_field(kiroku: Kiroku) -> None:
    match_id = kiroku.simulate("worldgainer", 1, seed=3, players=2)[0]
    assert _note(kiroku, match_id, 0, ["field:B-2", "field"])["highlights"] == ["field:B-2",
                                                                                  "field"]
    with pytest.raises(AnnotationRefused, match="There is no place 'field:Z-9'.*M1-1"):
        _note(kiroku, match_id, 0, ["field:Z-9"])
    with pytest.raises(AnnotationRefused, match="zones are"):
        _note(kiroku, match_id, 0, ["tavern:B-2"])


def test_a_hex_is_a_place_of_a_seat_s_field(kiroku: Kiroku) -> None:
    match_id, position, (place, card) = _live_until(kiroku, "kami", lambda places: next(
        ((place, cards[0]) for place, cards in places.items()
         if place.zone == "field" and place.address and cards), None))
    hex_mark = f"field#{place.seat}:{place.address}"
    assert _note(kiroku, match_id, position, [hex_mark, f"{hex_mark}/{card}"])
    with pytest.raises(AnnotationRefused, match="names the seat"):
        _note(kiroku, match_id, position, [f"field:{place.address}"])


def test_a_cell_is_a_place_of_a_conspiracy(kiroku: Kiroku) -> None:
    match_id, position, (place, card) = _live_until(kiroku, "edge", lambda places: next(
        ((place, cards[0]) for place, cards in places.items()
         if place.zone == "conspiracy" and place.address and cards), None))
    cell = f"conspiracy#{place.seat}:{place.address}"
    made = _note(kiroku, match_id, position, [cell, f"{cell}/{card}", card], [[cell, card]])
    assert made["arrows"] == [[cell, card]]
    with pytest.raises(AnnotationRefused, match="There is no place"):
        _note(kiroku, match_id, position, [f"conspiracy#{place.seat}:9.9"])
