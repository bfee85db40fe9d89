"""Hidden information (digest section 7, kami Q-15, Q-30): what each viewer sees of a position,
and the transcript lines of draws."""

from __future__ import annotations

from typing import Any

from engine import JUDGE, SPECTATOR, Viewer
from engine.core.chance import SuppliedChance
from engine.kami.model import KamiState
from tests.engine.kami.helpers import RULES, U, act, build, play, play_with, rocks

SEAT_1, SEAT_2 = Viewer("seat", 1), Viewer("seat", 2)


def table() -> KamiState:
    """Seat 1: hand BOLT, SCOUT; pool 8 with AP 3 (deck 5); BLADE in its discard pile. Seat 2:
    hand WARD; pool 4 with AP 1 (deck 3). A unit and a territory on the field."""
    return build(hands={1: ["SCOUT", "BOLT"], 2: ["WARD"]},
                 pool={1: ["GUARD", *rocks(7)], 2: rocks(4)}, ap={1: 3, 2: 1},
                 discard={1: ["BLADE"]}, units={"A1:2C": U("GUARD", 1, damage=1)},
                 territories={"A2:3L": ("T-RED", 2)})


def seats(viewer: Viewer, state: KamiState | None = None) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in RULES.view(state or table(), viewer)["seats"]}


def ids(cards: list[dict[str, Any]] | None) -> list[str] | None:
    return None if cards is None else [c["id"] for c in cards]


def test_view_a_hand_is_seen_by_its_owner_only() -> None:
    """Digest section 7 (Hand: owner all, opponent and spectator count only): seat 1 sees its
    hand; seat 2 and a spectator see only its size."""
    assert ids(seats(SEAT_1)[1]["hand"]) == ["BOLT", "SCOUT"]
    assert ids(seats(SEAT_1)[2]["hand"]) is None
    assert seats(SEAT_2)[1]["hand"] is None and seats(SEAT_2)[1]["hand_count"] == 2
    assert seats(SPECTATOR)[1]["hand"] is None and seats(SPECTATOR)[2]["hand"] is None


def test_view_the_unseen_cards_only_to_judges() -> None:
    """Digest section 7, kami Q-15 (nobody at the table sees the deck or the AP pile, not even
    its owner): the unseen pool is listed to judges only."""
    assert seats(SEAT_1)[1]["unseen"] is None
    assert seats(SEAT_2)[1]["unseen"] is None and seats(SPECTATOR)[1]["unseen"] is None
    assert ids(seats(JUDGE)[1]["unseen"]) == ["GUARD", *rocks(7)]


def test_view_counts_are_public() -> None:
    """Digest section 7 (deck, AP, hand: count for everyone; VP public): seat 1 AP 3, deck
    8 - 3 = 5, hand 2; seat 2 AP 1, deck 4 - 1 = 3, hand 1."""
    for viewer in (SEAT_1, SEAT_2, SPECTATOR, JUDGE):
        view = seats(viewer)
        assert (view[1]["ap"], view[1]["deck_count"], view[1]["hand_count"]) == (3, 5, 2)
        assert (view[2]["ap"], view[2]["deck_count"], view[2]["hand_count"]) == (1, 3, 1)
        assert (view[1]["vp"], view[2]["vp"]) == (0, 0)


def test_view_a_judge_sees_every_hand() -> None:
    """Digest section 7 (judge: all)."""
    view = seats(JUDGE)
    assert ids(view[1]["hand"]) == ["BOLT", "SCOUT"] and ids(view[2]["hand"]) == ["WARD"]


def test_q30_discard_piles_and_the_field_are_public() -> None:
    """kami Q-30: discard piles and the field (units, damage, territories) are face up."""
    for viewer in (SEAT_2, SPECTATOR):
        view = RULES.view(table(), viewer)
        assert ids(view["seats"][0]["discard"]) == ["BLADE"]
        unit = view["board"]["A1:2C"]["unit"]
        assert (unit["id"], unit["owner"], unit["damage"]) == ("GUARD", 1, 1)
        assert view["board"]["A2:3L"]["territory"]["id"] == "T-RED"


def test_view_a_drawn_card_is_named_to_its_seat_only() -> None:
    """Digest section 7 (the card from draw_card: owner sees, others count only), C1: the
    transcript names the card to seat 1 and a judge, not to seat 2."""
    before = table()
    chance = SuppliedChance(["GUARD"])
    after = play(before, act("draw_card", 1), chance)
    action = act("draw_card", 1)
    assert "GUARD" not in RULES.describe(action, chance.outcomes, SEAT_2, before)
    assert "1 card" in RULES.describe(action, chance.outcomes, SEAT_2, before)
    assert "Guard" in RULES.describe(action, chance.outcomes, SEAT_1, before)
    assert "Guard" in RULES.describe(action, chance.outcomes, JUDGE, before)
    assert ids(seats(SEAT_1, after)[1]["hand"]) == ["BOLT", "GUARD", "SCOUT"]


def test_view_mulligan_phase_each_seat_sees_only_its_own_hand() -> None:
    """Digest section 7 (during mulligans, each seat sees only its own hand), kami Q-16."""
    state = build(phase="mulligan", hands={1: ["SCOUT"], 2: ["WARD"]})
    state.kept = {1: False, 2: False}
    assert ids(seats(SEAT_2, state)[2]["hand"]) == ["WARD"]
    assert seats(SEAT_2, state)[1]["hand"] is None
    assert RULES.view(state, SPECTATOR)["to_decide"] == [1, 2]


def test_view_the_hand_limit_discards_are_public_once_discarded() -> None:
    """Digest section 7 (hand-limit discards: public once discarded)."""
    state = build(hands={1: rocks(5) + ["BOLT"]})
    state = play(state, act("end_action_phase", 1))
    state = play_with(state, act("discard_to_limit", 1, cards=["BOLT"]))
    assert ids(seats(SEAT_2, state)[1]["discard"]) == ["BOLT"]


def test_q15_nobody_at_the_table_sees_the_ap_pile() -> None:
    """kami Q-15 (nobody sees AP cards; the engine shows them to judges): after a renewal fixed
    seat 1's 3 AP cards, seats and spectators get the AP count only, judges the cards."""
    state = table()
    state = play_with(state, act("renew_deck", 1), "GUARD", "ROCK", "ROCK")
    for viewer in (SEAT_1, SEAT_2, SPECTATOR):
        assert seats(viewer, state)[1]["ap_pile"] is None and seats(viewer, state)[1]["ap"] == 3
    assert sorted(ids(seats(JUDGE, state)[1]["ap_pile"]) or []) == ["GUARD", "ROCK", "ROCK"]
