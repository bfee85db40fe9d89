"""Hidden information (edge digest section 7; edge OQ28; C1): what each viewer sees of a
position."""

from __future__ import annotations

from typing import Any

from engine import JUDGE, SPECTATOR, Viewer
from engine.edge.model import EdgeState
from tests.engine.edge.helpers import RULES, C, P, build

SEAT_1, SEAT_2 = Viewer("seat", 1), Viewer("seat", 2)


def table() -> EdgeState:
    """Seat 1: hand Fixer, Jab; deck 5; Enforcer (1, 1) with Knuckles, a flipped Seer (2, 1),
    The Plan (secret); 3 influence, 2 character pull. Seat 2: hand an Ambush; a dead Warden."""
    return build(hands={1: ["FIX@1.5", "JAB@1.6"], 2: ["AMBUSH@2.5"]},
                 characters=[C("ENF@1.1", attached=["KNUCKLES@1.7"]),
                             C("SEER@1.2", 2, 1, "flipped")],
                 permanents=[P("PLAN@1.3")], dead={2: ["WARD@2.4"]}, influence={1: 3},
                 character_pull=2)


def seats(viewer: Viewer, state: EdgeState | None = None) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in RULES.view(state or table(), viewer)["seats"]}


def ids(cards: list[dict[str, Any]] | None) -> list[str] | None:
    return None if cards is None else [c["id"] for c in cards]


def test_view_a_hand_is_seen_by_its_owner_only() -> None:
    """Digest 7 (hand: owner; judges see all): seat 1 sees its hand, not seat 2's; seat 2 and a
    spectator do not see seat 1's; a judge sees both."""
    assert ids(seats(SEAT_1)[1]["hand"]) == ["FIX@1.5", "JAB@1.6"]
    assert seats(SEAT_1)[2]["hand"] is None
    assert seats(SEAT_2)[1]["hand"] is None and ids(seats(SEAT_2)[2]["hand"]) == ["AMBUSH@2.5"]
    assert seats(SPECTATOR)[1]["hand"] is None
    assert ids(seats(JUDGE)[2]["hand"]) == ["AMBUSH@2.5"]


def test_view_decks_are_seen_by_judges_only() -> None:
    """Digest 7, C1 (nobody sees the deck's order; the judge does): no seat sees a deck, its own
    included; a judge sees seat 1's five cards."""
    for viewer in (SEAT_1, SEAT_2, SPECTATOR):
        assert seats(viewer)[1]["deck"] is None
    assert len(seats(JUDGE)[1]["deck"]) == 5


def test_view_counts_influence_and_reserve_are_public() -> None:
    """Digest 7 (reserve, influence, dead piles, deck and hand counts: all): every viewer sees
    hands 2 / 1, decks 5 / 5, influence 3 / 0, reserve 2 character pull, seat 2's dead Warden."""
    for viewer in (SEAT_1, SEAT_2, SPECTATOR, JUDGE):
        view = RULES.view(table(), viewer)
        by_seat = {s["seat"]: s for s in view["seats"]}
        assert [(by_seat[s]["hand_count"], by_seat[s]["deck_count"], by_seat[s]["influence"])
                for s in (1, 2)] == [(2, 5, 3), (1, 5, 0)]
        assert view["reserve"] == {"character": 2, "other": 0}
        assert ids(by_seat[2]["dead"]) == ["WARD@2.4"]


def test_oq28_flipped_identities_and_the_secret_are_public() -> None:
    """edge OQ28, digest 7 (field: all; flipped cards' identity public): seat 2 and a spectator
    see seat 1's flipped Seer by name at (2, 1), the Enforcer with its Knuckles, and The Plan."""
    for viewer in (SEAT_2, SPECTATOR):
        seat1 = seats(viewer)[1]
        seer = next(c for c in seat1["conspiracy"] if c["id"] == "SEER@1.2")
        assert (seer["name"], seer["state"], seer["rank"], seer["file"]) == \
            ("Seer", "flipped", 2, 1)
        enforcer = next(c for c in seat1["conspiracy"] if c["id"] == "ENF@1.1")
        assert ids(enforcer["attached"]) == ["KNUCKLES@1.7"]
        assert [(p["id"], p["name"]) for p in seat1["field"]] == [("PLAN@1.3", "The Plan")]
