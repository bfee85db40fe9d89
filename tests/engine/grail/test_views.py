"""Hidden information (grail digest section 7; grail OQ-40; C1): what each viewer sees of a
position, and the transcript lines of draws, reveals and dice."""

from __future__ import annotations

from typing import Any

from engine import JUDGE, SPECTATOR, Viewer
from engine.core.chance import SuppliedChance
from engine.grail.model import GrailState
from tests.engine.grail.helpers import RULES, W, act, build, play

SEAT_1, SEAT_2 = Viewer("seat", 1), Viewer("seat", 2)


def table() -> GrailState:
    """Seat 1: hand Sword, Sir Bors; court 5; quest deck 1; Sir Alan (1 damage, a Squire) on
    the field. Seat 2: hand an axe; court 5; a Feast in its court discard."""
    return build(hands={1: ["SWORD@1.5", "BORS@1.6"], 2: ["AXE@2.5"]},
                 quests={1: ["Q-WELL@1.12"]},
                 active_quest={1: "Q-RIDDLE@1.11", 2: "Q-TOWER@2.12"},
                 warriors=[W("KNIGHT@1.1", damage=1, attached=["SQUIRE@1.4"])],
                 court_discard={2: ["FEAST@2.7"]}, quest_discard={2: ["Q-GROVE@2.11"]})


def seats(viewer: Viewer, state: GrailState | None = None) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in RULES.view(state or table(), viewer)["seats"]}


def ids(cards: list[dict[str, Any]] | None) -> list[str] | None:
    return None if cards is None else [c["id"] for c in cards]


def test_view_a_hand_is_seen_by_its_owner_and_judges_only() -> None:
    """Digest 7 (hand contents: owner and judge): seat 1 sees its hand, not seat 2's; seat 2 and
    a spectator see neither's contents; a judge sees both."""
    assert ids(seats(SEAT_1)[1]["hand"]) == ["BORS@1.6", "SWORD@1.5"]
    assert seats(SEAT_1)[2]["hand"] is None
    assert seats(SEAT_2)[1]["hand"] is None and ids(seats(SEAT_2)[2]["hand"]) == ["AXE@2.5"]
    assert seats(SPECTATOR)[1]["hand"] is None and seats(SPECTATOR)[2]["hand"] is None
    assert ids(seats(JUDGE)[2]["hand"]) == ["AXE@2.5"]


def test_view_decks_are_seen_by_judges_only() -> None:
    """Digest 7 (deck order: judge only): neither deck is listed to its own seat, the other seat
    or a spectator; a judge sees seat 1's court (5 Rumours) and quest deck (the Well)."""
    for viewer in (SEAT_1, SEAT_2, SPECTATOR):
        view = seats(viewer)[1]
        assert view["court"] is None and view["quests"] is None
    judge = seats(JUDGE)[1]
    assert ids(judge["quests"]) == ["Q-WELL@1.12"] and len(judge["court"]) == 5


def test_oq40_hand_and_deck_sizes_are_public() -> None:
    """grail OQ-40: every viewer sees hand 2 / 1, court 5 / 5, quest deck 1 / 0."""
    for viewer in (SEAT_1, SEAT_2, SPECTATOR, JUDGE):
        view = seats(viewer)
        assert [(view[s]["hand_count"], view[s]["court_count"], view[s]["quest_count"])
                for s in (1, 2)] == [(2, 5, 1), (1, 5, 0)]


def test_view_the_field_active_quests_and_discards_are_public() -> None:
    """Digest 7 (field, active quests, discard piles: everyone; 開始準備 L64 face up): seat 2
    and a spectator see Sir Alan with his damage and Squire, seat 1's active quest, seat 2's
    discards."""
    for viewer in (SEAT_2, SPECTATOR):
        view = seats(viewer)
        [knight] = view[1]["warriors"]
        assert (knight["id"], knight["valor"], knight["damage"]) == ("KNIGHT@1.1", 6, 1)
        assert ids(knight["attached"]) == ["SQUIRE@1.4"]
        assert view[1]["active_quest"]["id"] == "Q-RIDDLE@1.11"
        assert ids(view[2]["court_discard"]) == ["FEAST@2.7"]
        assert ids(view[2]["quest_discard"]) == ["Q-GROVE@2.11"]


def test_view_a_drawn_card_is_named_to_its_drawer_only() -> None:
    """Digest 7 (a drawn card: owner; the others only that a draw happened), C1: seat 2's draw
    at the start of its turn is named to seat 2 and a judge, not to seat 1."""
    before = table()
    chance = SuppliedChance(["ROCK@2.92"])
    RULES.apply(before, act("end_turn", 1), chance)

    def line(viewer: Viewer) -> str:
        return RULES.describe(act("end_turn", 1), chance.outcomes, viewer, before)

    assert "Seat 2 draws Rumour." in line(SEAT_2) and "Seat 2 draws Rumour." in line(JUDGE)
    assert "Seat 2 draws a card." in line(SEAT_1) and "Rumour" not in line(SPECTATOR)


def test_view_quest_reveals_and_dice_are_public() -> None:
    """Digest 7, 8 (quest reveals and dice: everyone): the refreshed quest is named to seat 2;
    a round's dice are shown to a spectator as each side's total."""
    before = build(phase="draw", active_quest={1: "Q-RIDDLE@1.11"}, quests={1: ["Q-WELL@1.12"]})
    chance = SuppliedChance(["Q-WELL@1.12"])
    RULES.apply(before, act("refresh_quest", 1), chance)
    assert "Quest revealed: Wishing Well." in RULES.describe(act("refresh_quest", 1),
                                                             chance.outcomes, SEAT_2, before)
    state = play(build(warriors=[W("KNIGHT@1.1"), W("GUARD@2.1")]),
                 act("challenge_mortal", 1, challenger="KNIGHT@1.1", target="GUARD@2.1"))
    chance = SuppliedChance([3, 4, 1, 5])
    RULES.apply(state, act("roll_round", 1), chance)
    assert "Dice: 7, 6." in RULES.describe(act("roll_round", 1), chance.outcomes, SPECTATOR,
                                           state)
