"""World Gainer core rules, one test per rule and per ruling.

Sources: rules document 004 (World Gainer TCG, /work/shared/rules/004_*.txt; its Japanese section
headings are cited) and rulings C1-C5 and W1-W5 (RULINGS.md), which win over the document.
The rules page these tests pin is docs/games/worldgainer.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import JUDGE, SPECTATOR, IllegalAction, MalformedAction, MatchConfig, SetupError, Viewer
from engine.core.chance import NoChance, SuppliedChance
from engine.worldgainer.actions import EndTurn, Gain, PlaceStun
from engine.worldgainer.model import Colour, Stun, janken
from tests.engine.worldgainer.helpers import (
    G,
    build,
    card,
    discard,
    discard_field,
    exhaust,
    gain,
    play,
    refused,
    snapshot,
    square,
)

# ----- the cards every test below uses ----------------------------------------------------------
# Plain cards: the id is the colour's initial and the cost ("R3" = red, cost 3); each has stun
# value 1 and no required colour.
CARDS: dict[str, dict[str, Any]] = {
    f"{c[0].upper()}{cost}": card(c, cost) for c in ("red", "blue", "green", "yellow")
    for cost in range(1, 7)
}
CARDS.update({
    # Stun fodder: cost 1, stun value 2 or 3, in each colour ("S3B" = blue, stun value 3).
    "S2R": card("red", 1, stun=2, name="Red Stun Two"),
    "S3B": card("blue", 1, stun=3, name="Blue Stun Three"),
    "S3Y": card("yellow", 1, stun=3, name="Yellow Stun Three"),
    # A yellow cost-0 card with stun value 10: pays anything without a required colour.
    "PAY": card("yellow", 0, stun=10, name="Power Cell"),
    # Required colours (W2): cost 3 of which 2 must be red / 2 must be "yellow" (any colour).
    "RR2": card("red", 3, required=("red", 2), name="Red Elite"),
    "YY2": card("yellow", 3, required=("yellow", 2), name="Yellow Elite"),
    "RR1": card("red", 1, required=("red", 1), name="Red Adept"),
})

#: Seat 1 holds its three my-field squares with one R1 each (3 points), so W3 lets it play on.
MY_FIELDS = {"M1-1": (1, ["R1"]), "M1-2": (1, ["R1"]), "M1-3": (1, ["R1"])}
#: Slot 1 of seat 1's stand-by holds the Power Cell, ready.
POWER = {1: ("PAY", True)}


def paid(cid: str, field: str, seat: int = 1) -> dict[str, Any]:
    """Gain ``cid`` on ``field``, paying by exhausting the Power Cell in slot 1."""
    return gain(seat, cid, field, exhaust(1))


# ----- C5: deck construction ------------------------------------------------------------------
# Filler: 14 green cost-1 cards with distinct names, for legal 40-card decks.
FILLER = {f"F{n:02d}": card("green", 1, name=f"Filler {n:02d}") for n in range(1, 15)}


def forty(**extra: int) -> dict[str, int]:
    """A legal 40-card deck (F01-F13 three each, F14 once), with ``extra`` counts overriding."""
    deck = {f"F{n:02d}": 3 for n in range(1, 14)} | {"F14": 1}
    deck.update(extra)
    return {k: v for k, v in deck.items() if v}


def setup(decks: list[dict[str, int]], cards: dict[str, dict[str, Any]] | None = None,
          chance: Any = None, **options: Any) -> Any:
    config = MatchConfig(players=["Aiko", "Ben"], decks=decks, cards=cards or FILLER,
                         options=options)
    seven = ["F02"] * 3 + ["F03"] * 3 + ["F04"]  # every deck below holds these
    return G.setup(config, chance or SuppliedChance(seven * 2))


def setup_refused(reason: str, decks: list[dict[str, int]],
                  cards: dict[str, dict[str, Any]] | None = None, **options: Any) -> SetupError:
    with pytest.raises(SetupError) as info:
        setup(decks, cards, **options)
    assert info.value.reason == reason, info.value.message
    return info.value


def test_c5_deck_of_fewer_than_40_cards_is_refused() -> None:
    """C5, 事前準備 "デッキ枚数: 40枚以上": a 39-card deck is refused, naming the seat."""
    error = setup_refused("deck_too_small", [forty(), forty(F14=0)], first_player=1)
    assert error.details == {"seat": 2}


def test_c5_decks_of_different_sizes_are_refused() -> None:
    """C5, 構築条件 "対戦相手と同一枚数であること": 41 cards against 40 is refused."""
    setup_refused("deck_sizes_differ", [forty(F14=2), forty()], first_player=1)


def test_c5_four_copies_of_one_card_are_refused() -> None:
    """C5, 構築条件 "同名カードはデッキに3枚まで": four copies of F01 are refused."""
    error = setup_refused("too_many_copies", [forty(F01=4, F14=0), forty()], first_player=1)
    assert error.details == {"seat": 1}


def test_c5_copies_are_counted_by_name_across_card_ids() -> None:
    """C5, 同名カード: two ids with one name (a reprint) count together: 2 + 2 is four copies."""
    cards = FILLER | {"TW-A": card("red", 2, name="Twin"), "TW-B": card("red", 2, name="Twin")}
    deck = forty(F01=0, F14=0) | {"TW-A": 2, "TW-B": 2}
    assert sum(deck.values()) == 40
    setup_refused("too_many_copies", [deck, deck], cards, first_player=1)


def test_c5_three_copies_of_a_name_are_accepted() -> None:
    """C5: three copies (here 2 + 1 under two ids of one name) are allowed."""
    cards = FILLER | {"TW-A": card("red", 2, name="Twin"), "TW-B": card("red", 2, name="Twin")}
    deck = forty(F01=0, F14=0) | {"TW-A": 2, "TW-B": 1, "F14": 1}
    assert sum(deck.values()) == 40
    state = setup([deck, deck], cards, first_player=1)
    assert state.result is None


def test_c5_unique_card_twice_is_refused() -> None:
    """C5, 構築条件 "ユニークカードはデッキに各1枚のみ": two copies of a unique card are refused."""
    cards = FILLER | {"UNQ": card("blue", 4, name="The One", unique=True)}
    deck = forty(F01=0, F14=2) | {"UNQ": 2}
    assert sum(deck.values()) == 40
    setup_refused("unique_card", [deck, forty()], cards, first_player=1)


def test_c5_unique_card_under_two_ids_is_refused() -> None:
    """C5, ユニークカード: a unique card's two ids (one name) may not both be in the deck."""
    cards = FILLER | {"UNQ-A": card("blue", 4, name="The One", unique=True),
                      "UNQ-B": card("blue", 4, name="The One", unique=True)}
    deck = forty(F01=0, F14=2) | {"UNQ-A": 1, "UNQ-B": 1}
    setup_refused("unique_card", [deck, forty()], cards, first_player=1)


def test_c5_deck_check_off_accepts_any_deck() -> None:
    """C5 "unless the match is created with deck_check: off": 7 cards, 5 copies, a unique twice."""
    cards = FILLER | {"UNQ": card("blue", 4, name="The One", unique=True)}
    decks = [{"F01": 5, "UNQ": 2}, {"F02": 7}]
    chance = SuppliedChance(["F01"] * 5 + ["UNQ"] * 2 + ["F02"] * 7)
    state = setup(decks, cards, chance, deck_check="off", first_player=1)
    assert state.player(1).hand == ["F01"] * 5 + ["UNQ"] * 2
    assert state.player(2).hand == ["F02"] * 7
    assert state.result is None


@pytest.mark.parametrize("deck_check", ["on", "off"])
def test_c5_unknown_card_is_always_refused(deck_check: str) -> None:
    """A deck naming a card missing from the card set is refused even with deck_check off."""
    error = setup_refused("unknown_card", [forty(F14=0) | {"NOPE": 1}, forty()],
                          deck_check=deck_check, first_player=1)
    assert error.details == {"seat": 1}


# ----- setup (開始準備) and the draw phase (W5, ターンの進行) ---------------------------------
HAND_1 = ["F01"] * 3 + ["F02"] * 3 + ["F03"]
HAND_2 = ["F04"] * 3 + ["F05"] * 3 + ["F06"]


def test_setup_deals_seven_cards_each_as_recorded_draws() -> None:
    """開始時基本設定 "開始手札: 7枚"; C1: every draw is a recorded pick, private to its seat."""
    chance = SuppliedChance(HAND_1 + HAND_2)
    state = setup([forty(), forty()], chance=chance, first_player=2)
    chance.finish()
    assert state.player(1).hand == HAND_1
    assert state.player(2).hand == HAND_2
    assert len(state.player(1).deck) == len(state.player(2).deck) == 33
    assert state.player(1).deck.count("F03") == 2
    assert chance.stored()[0] == {"kind": "draw", "value": "F01", "seat": 1}
    assert chance.stored()[7] == {"kind": "draw", "value": "F04", "seat": 2}
    assert len(chance.outcomes) == 14  # the option chose the first player: no pick
    assert (state.first_player, state.active, state.turn, state.phase) == (2, 2, 1, "standby")
    assert all(sq.holder is None and not sq.cards for sq in state.board.values())
    assert state.result is None


def test_setup_first_player_is_a_recorded_pick_without_the_option() -> None:
    """開始準備 "先攻・後攻を決定する"; C1: the first player is a recorded public pick."""
    chance = SuppliedChance(HAND_1 + HAND_2 + [2])
    state = setup([forty(), forty()], chance=chance)
    chance.finish()
    assert chance.stored()[-1] == {"kind": "first_player", "value": 2}
    assert (state.first_player, state.active) == (2, 2)


def test_w5_first_player_skips_the_first_draw_and_the_second_player_draws() -> None:
    """W5, "ファーストドロー制限: 有り": seat 1 keeps 7 cards on turn 1; seat 2 draws on its turn."""
    state = setup([forty(), forty()], chance=SuppliedChance(HAND_1 + HAND_2), first_player=1)
    assert len(state.player(1).hand) == 7
    chance = SuppliedChance(["F07"])
    state = play(state, {"type": "end_turn", "seat": 1}, chance)
    assert chance.stored() == [{"kind": "draw", "value": "F07", "seat": 2}]
    assert (state.turn, state.active) == (2, 2)
    assert state.player(1).hand == HAND_1
    assert state.player(2).hand == sorted(HAND_2 + ["F07"])
    chance = SuppliedChance(["F08"])
    state = play(state, {"type": "end_turn", "seat": 2}, chance)
    assert (state.turn, state.active) == (3, 1)
    assert state.player(1).hand == sorted(HAND_1 + ["F08"])


def test_draw_phase_readies_the_new_active_players_stuns() -> None:
    """ドローフェイズ "スタンバイにあるスタンをすべて待機状態にする", then one card is drawn."""
    state = build(CARDS, deck2=["R1"], standby1={1: ("S3Y", False)},
                  standby2={1: ("S3B", False), 4: ("S2R", False)},
                  stun_placed=True, gain_placed=True, phase="gain")
    state = play(state, {"type": "end_turn", "seat": 1}, SuppliedChance(["R1"]))
    assert state.player(2).standby[0] == Stun(card="S3B", ready=True)
    assert state.player(2).standby[3] == Stun(card="S2R", ready=True)
    assert state.player(1).standby[0] == Stun(card="S3Y", ready=False)
    assert state.player(2).hand == ["R1"] and state.player(2).deck == []
    assert (state.active, state.phase, state.stun_placed, state.gain_placed) == (
        2, "standby", False, False)


# ----- stuns (スタンについて, スタンバイフェイズ) -------------------------------------------------
def test_stun_is_placed_from_hand_ready_in_the_first_free_slot() -> None:
    """スタンバイフェイズ: a hand card goes to a stun slot; project choice: it is ready at once."""
    state = build(CARDS, hand1=["S3B", "R2"], standby1={1: ("R1", False)})
    state = play(state, {"type": "stun", "seat": 1, "card": "S3B", "slot": None})
    assert state.player(1).standby[1] == Stun(card="S3B", ready=True)
    assert state.player(1).hand == ["R2"]
    assert (state.stun_placed, state.phase) == (True, "gain")


def test_stun_placed_this_turn_can_pay_this_turn() -> None:
    """Project choice (document silent): a new stun is ready, so it pays a gain at once."""
    state = build(CARDS, hand1=["S3B", "R3"])
    state = play(state, {"type": "stun", "seat": 1, "card": "S3B", "slot": 3})
    assert state.player(1).standby[2] == Stun(card="S3B", ready=True)
    state = play(state, gain(1, "R3", "M1-1", exhaust(3)))
    assert square(state, "M1-1") == (1, ["R3"])
    assert state.player(1).standby[2] == Stun(card="S3B", ready=False)


def test_stun_only_once_per_turn() -> None:
    """スタンバイフェイズ "1ターンに1回のみ": a second stun is refused."""
    state = build(CARDS, hand1=["R1", "R2"])
    state = play(state, {"type": "stun", "seat": 1, "card": "R1"})
    refused(state, {"type": "stun", "seat": 1, "card": "R2"}, "stun_already_placed")


def test_stun_only_before_the_gain() -> None:
    """ターンの進行: the stand-by phase comes before the gain phase; no stun after a gain."""
    state = build(CARDS, hand1=["R1", "R2"], standby1=POWER)
    state = play(state, paid("R1", "M1-1"))
    refused(state, {"type": "stun", "seat": 1, "card": "R2"}, "standby_phase_over")


def test_stun_slot_already_taken() -> None:
    """スタンバイ "各マスにカードを1枚ずつ": a named occupied slot is refused."""
    state = build(CARDS, hand1=["R1"], standby1={2: ("R2", True)})
    refused(state, {"type": "stun", "seat": 1, "card": "R1", "slot": 2}, "slot_taken")


def test_stun_standby_holds_five_at_most() -> None:
    """スタンについて "スタンを5枚まで配置できる": with five stuns a sixth is refused."""
    state = build(CARDS, hand1=["R1"], standby1={n: ("R2", True) for n in range(1, 6)})
    refused(state, {"type": "stun", "seat": 1, "card": "R1"}, "standby_full")


def test_stun_card_must_be_in_hand() -> None:
    """スタンバイフェイズ "手札から": a card not in the hand cannot become a stun."""
    state = build(CARDS, hand1=["R1"], hand2=["R2"])
    refused(state, {"type": "stun", "seat": 1, "card": "R2"}, "card_not_in_hand")


# ----- payment (コスト支払い, W2) -------------------------------------------------------------
def test_w2_exhausting_a_stun_yields_its_stun_value() -> None:
    """W2: exhausting a ready stun yields its stun value (3 pays a cost-3 card); it stays put."""
    state = build(CARDS, hand1=["R3"], standby1={1: ("S3B", True)})
    state = play(state, gain(1, "R3", "M1-1", exhaust(1)))
    assert square(state, "M1-1") == (1, ["R3"])
    assert state.player(1).standby[0] == Stun(card="S3B", ready=False)
    assert state.player(1).hand == [] and state.player(1).breaks == []
    assert state.gain_placed is True


def test_w2_discarding_a_stun_yields_one_whatever_its_value() -> None:
    """W2, スタンについて "破棄した場合に得られるコストは固定で1ポイント"."""
    state = build(CARDS, hand1=["R1", "R2"], standby1={1: ("S3B", True)})
    refused(state, gain(1, "R2", "M1-1", discard(1)), "cost_not_paid")
    state = play(state, gain(1, "R1", "M1-1", discard(1)))
    assert square(state, "M1-1") == (1, ["R1"])
    assert state.player(1).standby[0] is None
    assert state.player(1).breaks == ["S3B"]


@pytest.mark.parametrize("source", [exhaust(1), discard(1)])
def test_w2_an_exhausted_stun_cannot_pay(source: dict[str, Any]) -> None:
    """W2 "a ready stun": an exhausted stun can be neither exhausted nor discarded to pay."""
    state = build(CARDS, hand1=["R1"], standby1={1: ("S3B", False)})
    refused(state, gain(1, "R1", "M1-1", source), "stun_exhausted")


def test_w2_an_empty_stun_slot_cannot_pay() -> None:
    """W2: a payment naming an empty slot is refused."""
    state = build(CARDS, hand1=["R1"], standby1={1: ("S3B", True)})
    refused(state, gain(1, "R1", "M1-1", exhaust(2)), "no_stun")


def test_w2_discarding_your_only_field_card_yields_one_and_empties_the_square() -> None:
    """W2 "destroying one of your own cards on the field yields 1 ... empties that field"."""
    state = build(CARDS, hand1=["G1"], board={"M1-1": (1, ["R1"]), "M1-2": (1, ["R2"])})
    state = play(state, gain(1, "G1", "M1-3", discard_field("M1-1")))
    assert square(state, "M1-1") == (None, [])
    assert square(state, "M1-3") == (1, ["G1"])
    assert state.player(1).breaks == ["R1"]


def test_w2_discarding_from_a_stack_takes_its_top_card() -> None:
    """Project choice: the field card used as payment is the top card of a stack."""
    state = build(CARDS, hand1=["G1"], board={"M1-1": (1, ["R2", "R4"])})
    state = play(state, gain(1, "G1", "M1-2", discard_field("M1-1")))
    assert square(state, "M1-1") == (1, ["R2"])
    assert state.player(1).breaks == ["R4"]


def test_w2_a_discarded_field_card_pays_in_its_colour() -> None:
    """W2 "yields 1 of that card's colour": a red card pays a red requirement, a blue one not."""
    state = build(CARDS, hand1=["RR1"], board={"M1-1": (1, ["R1"]), "M1-2": (1, ["B1"])})
    refused(state, gain(1, "RR1", "M1-3", discard_field("M1-2")), "required_colour_not_paid")
    state = play(state, gain(1, "RR1", "M1-3", discard_field("M1-1")))
    assert square(state, "M1-3") == (1, ["RR1"])


@pytest.mark.parametrize("field", ["M2-1", "M1-2", "Z-9"])
def test_w2_only_your_own_field_cards_can_pay(field: str) -> None:
    """W2 "one of your own cards on the field": opponent's, empty or unknown squares cannot pay."""
    state = build(CARDS, hand1=["R1"], board={"M2-1": (2, ["B1"])})
    refused(state, gain(1, "R1", "M1-1", discard_field(field)), "no_own_field_card")


def test_w2_payment_short_of_the_cost_is_refused() -> None:
    """コスト支払い "記載値分のコストを支払う必要がある": 2 does not pay a cost of 3."""
    state = build(CARDS, hand1=["R3"], standby1={1: ("S2R", True)})
    refused(state, gain(1, "R3", "M1-1", exhaust(1)), "cost_not_paid")
    refused(state, gain(1, "R3", "M1-1"), "cost_not_paid")


def test_w2_required_colour_must_be_paid_in_that_colour() -> None:
    """W2 "A required-colour amount must be covered by cost of that colour": 3 blue fails 2 red;
    2 red + 1 blue pays it."""
    state = build(CARDS, hand1=["RR2"], standby1={1: ("S3B", True), 2: ("S2R", True)})
    refused(state, gain(1, "RR2", "M1-1", exhaust(1)), "required_colour_not_paid")
    state = play(state, gain(1, "RR2", "M1-1", exhaust(2), discard(1)))
    assert square(state, "M1-1") == (1, ["RR2"])
    assert state.player(1).standby[0] is None
    assert state.player(1).standby[1] == Stun(card="S2R", ready=False)


def test_w2_yellow_requirement_is_covered_by_any_colour() -> None:
    """W2 "a yellow requirement may be covered by any colour": 3 blue pays 2 yellow required."""
    state = build(CARDS, hand1=["YY2"], standby1={1: ("S3B", True)})
    state = play(state, gain(1, "YY2", "M1-1", exhaust(1)))
    assert square(state, "M1-1") == (1, ["YY2"])


def test_w2_yellow_cost_does_not_cover_a_red_requirement() -> None:
    """W2: only the requirement is wild when yellow; yellow cost is not red cost."""
    state = build(CARDS, hand1=["RR2"], standby1={1: ("S3Y", True)})
    refused(state, gain(1, "RR2", "M1-1", exhaust(1)), "required_colour_not_paid")


@pytest.mark.parametrize("second", [exhaust(1), discard(1)])
def test_w2_a_stun_pays_only_once(second: dict[str, Any]) -> None:
    """W2: one stun is one source; naming slot 1 twice (to make 2 + 2) is refused."""
    state = build(CARDS, hand1=["R4"], standby1={1: ("S2R", True)})
    refused(state, gain(1, "R4", "M1-1", exhaust(1), second), "stun_used_twice")
    refused(state, gain(1, "R4", "M1-1", discard(1), second), "stun_used_twice")


def test_w2_surplus_is_lost() -> None:
    """手番を跨ぐカード外コスト蓄積: 無し: paying 10 for a cost-1 card leaves nothing over."""
    state = build(CARDS, hand1=["R1", "R2"], standby1=POWER)
    state = play(state, paid("R1", "M1-1"))
    state.gain_placed = False  # even with a second gain allowed, no cost is left to pay it
    refused(state, gain(1, "R2", "M1-2"), "cost_not_paid")


# ----- placement priority (配置のルール, W3) --------------------------------------------------
def test_w3_battlefield_only_after_all_own_my_fields() -> None:
    """W3, 配置のルール "自分のマイフィールドをすべて獲得した後でなければバトルフィールドへ配置
    することはできない"."""
    state = build(CARDS, hand1=["R1"], standby1=POWER,
                  board={"M1-1": (1, ["R1"]), "M1-2": (1, ["R1"])})
    refused(state, paid("R1", "B-2"), "priority")
    state = play(state, paid("R1", "M1-3"))
    assert square(state, "M1-3") == (1, ["R1"])


def test_w3_battlefield_open_once_own_my_fields_are_held() -> None:
    """W3: with M1-1..M1-3 held, any battlefield square may be taken (order among them free)."""
    state = build(CARDS, hand1=["R1"], standby1=POWER, board=MY_FIELDS)
    state = play(state, paid("R1", "B-3"))
    assert square(state, "B-3") == (1, ["R1"])


def test_w3_opponent_my_field_only_after_the_battlefield() -> None:
    """W3: the opponent's my-fields come last: refused while B-3 is not held."""
    board = MY_FIELDS | {"B-1": (1, ["R1"]), "B-2": (1, ["R1"])}
    state = build(CARDS, hand1=["R1"], standby1=POWER, board=board)
    refused(state, paid("R1", "M2-1"), "priority")


def test_w3_opponent_my_field_taken_after_the_battlefield() -> None:
    """W3: holding all six squares before it, M2-2 may be taken (victory is checked again)."""
    board = MY_FIELDS | {f: (1, ["R1"]) for f in ("B-1", "B-2", "B-3")}
    state = build(CARDS, hand1=["R1"], standby1=POWER, board=board)
    state = play(state, paid("R1", "M2-2"))
    assert square(state, "M2-2") == (1, ["R1"])
    assert state.result is not None and state.result.reason == "battlefield"


def test_w3_stacking_on_a_held_square_is_allowed_any_time() -> None:
    """W3 "Stacking onto a field you already hold is allowed at any time" (own my-fields open)."""
    state = build(CARDS, hand1=["R3"], standby1=POWER, board={"B-1": (1, ["R2"])})
    state = play(state, paid("R3", "B-1"))
    assert square(state, "B-1") == (1, ["R2", "R3"])


def test_w3_a_vacated_own_square_must_be_retaken_first() -> None:
    """配置のルール "優先度が高いフィールドに空きが出来た場合、その際獲得が優先される", and squares
    already held stay held ("既に獲得した優先度の低いフィールドは変化無く維持される")."""
    board = {"M1-2": (1, ["R1"]), "M1-3": (1, ["R1"]), "B-1": (1, ["R1"])}
    state = build(CARDS, hand1=["R1"], standby1=POWER, board=board)
    refused(state, paid("R1", "B-2"), "priority")
    state = play(state, paid("R1", "M1-1"))
    assert square(state, "M1-1") == (1, ["R1"]) and square(state, "B-1") == (1, ["R1"])


def test_w3_an_own_my_field_held_by_the_opponent_is_retaken_first() -> None:
    """配置のルール "自分のマイフィールドが相手に獲得された場合、その奪還が最優先される"."""
    board = {"M1-1": (2, ["B2"]), "M1-2": (1, ["R1"]), "M1-3": (1, ["R1"])}
    state = build(CARDS, hand1=["R3"], standby1=POWER, board=board)
    refused(state, paid("R3", "B-1"), "priority")
    state = play(state, paid("R3", "M1-1"))
    assert square(state, "M1-1") == (1, ["R3"])
    assert state.player(2).breaks == ["B2"]


def test_w3_discard_your_only_card_as_payment_then_place_there() -> None:
    """配置のルール "事前に従来のカードをコストとして消費して空きを作ってから配置すれば...普通に
    配置可能": a blue card cannot stack on red, but can take the square its payment emptied."""
    state = build(CARDS, hand1=["B1"], board={"M1-1": (1, ["R3"])}, standby1=POWER)
    refused(state, paid("B1", "M1-1"), "stack_colour_loses")
    state = play(state, gain(1, "B1", "M1-1", discard_field("M1-1")))
    assert square(state, "M1-1") == (1, ["B1"])
    assert state.player(1).breaks == ["R3"]


def test_w3_payment_is_made_before_priority_is_judged() -> None:
    """W2 then W3: emptying an own my-field to pay reopens it, so the battlefield is closed."""
    state = build(CARDS, hand1=["R1"], board=MY_FIELDS)
    refused(state, gain(1, "R1", "B-1", discard_field("M1-1")), "priority")


# ----- W1: the colour duel ---------------------------------------------------------------------
R, G_, B, Y = Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW


@pytest.mark.parametrize(("mine", "theirs", "result"), [
    (R, B, "win"), (B, G_, "win"), (G_, R, "win"),
    (B, R, "lose"), (G_, B, "lose"), (R, G_, "lose"),
    (Y, R, "win"), (Y, G_, "win"), (Y, B, "win"),
    (R, Y, "lose"), (G_, Y, "lose"), (B, Y, "lose"),
    (R, R, "same"), (G_, G_, "same"), (B, B, "same"), (Y, Y, "same"),
])
def test_w1_colour_duel(mine: Colour, theirs: Colour, result: str) -> None:
    """W1: red rock, green paper, blue scissors; yellow beats all; yellow v yellow is same."""
    assert janken(mine, theirs) == result


@pytest.mark.parametrize(("attacker", "defender"), [
    ("R1", "B6"), ("B1", "G6"), ("G1", "R6"), ("Y1", "R6"), ("Y1", "G6"), ("Y1", "B6")])
def test_w1_winning_colour_captures_on_the_board(attacker: str, defender: str) -> None:
    """W1 applied: red beats blue, blue beats green, green beats red, yellow beats all."""
    state = build(CARDS, hand1=[attacker], standby1=POWER,
                  board=MY_FIELDS | {"B-1": (2, [defender])})
    state = play(state, paid(attacker, "B-1"))
    assert square(state, "B-1") == (1, [attacker])
    assert state.player(2).breaks == [defender]


@pytest.mark.parametrize(("attacker", "defender"), [
    ("B6", "R1"), ("G6", "B1"), ("R6", "G1"), ("R6", "Y1"), ("G6", "Y1"), ("B6", "Y1")])
def test_w1_losing_colour_cannot_capture(attacker: str, defender: str) -> None:
    """W1 applied: "属性ジャンケンで負ける場合: 奪えない" even at a much higher cost."""
    state = build(CARDS, hand1=[attacker], standby1=POWER,
                  board=MY_FIELDS | {"B-1": (2, [defender])})
    refused(state, paid(attacker, "B-1"), "capture_colour_loses")


def test_w1_yellow_against_yellow_is_same_colour() -> None:
    """W1 "yellow against yellow is same colour": equal costs offset."""
    state = build(CARDS, hand1=["Y3"], standby1=POWER, board=MY_FIELDS | {"B-1": (2, ["Y3"])})
    state = play(state, paid("Y3", "B-1"))
    assert square(state, "B-1") == (None, [])


# ----- stacking on your own square (配置のルール, 自分が既に獲得しているフィールド) -------------
def test_stacking_winning_colour_replaces_the_old_cards() -> None:
    """配置のルール "属性ジャンケンで勝つ場合: 従来のカードを破棄することで、配置できる": the whole
    stack goes to your break (top first)."""
    state = build(CARDS, hand1=["G1"], standby1=POWER, board={"M1-1": (1, ["R2", "R3"])})
    state = play(state, paid("G1", "M1-1"))
    assert square(state, "M1-1") == (1, ["G1"])
    assert state.player(1).breaks == ["R3", "R2"]


def test_stacking_same_colour_higher_cost_stacks() -> None:
    """配置のルール 同属性 "コスト値が従来カードより大きい場合: 従来のカードの上に重ねて配置"."""
    state = build(CARDS, hand1=["R3"], standby1=POWER, board={"M1-1": (1, ["R2"])})
    state = play(state, paid("R3", "M1-1"))
    assert square(state, "M1-1") == (1, ["R2", "R3"])
    assert state.player(1).breaks == []
    assert G.scores(state) == {1: 5, 2: 0}


@pytest.mark.parametrize("cid", ["R3", "R2"])
def test_stacking_same_colour_equal_or_lower_cost_is_refused(cid: str) -> None:
    """配置のルール 同属性 "コスト値が従来カード以下の場合: 配置すること自体ができない"."""
    state = build(CARDS, hand1=[cid], standby1=POWER, board={"M1-1": (1, ["R3"])})
    refused(state, paid(cid, "M1-1"), "stack_cost_too_low")


def test_stacking_losing_colour_is_refused() -> None:
    """配置のルール "属性ジャンケンで負ける場合: 配置すること自体ができない"."""
    state = build(CARDS, hand1=["B4"], standby1=POWER, board={"M1-1": (1, ["R1"])})
    refused(state, paid("B4", "M1-1"), "stack_colour_loses")


def test_stacking_compares_with_the_top_card_by_default() -> None:
    """Project choice stack_compare=top: R4 stacks on R2+R3 (4 > top 3 though not > total 5)."""
    state = build(CARDS, hand1=["R4"], standby1=POWER, board={"M1-1": (1, ["R2", "R3"])})
    state = play(state, paid("R4", "M1-1"))
    assert square(state, "M1-1") == (1, ["R2", "R3", "R4"])


def test_stacking_compare_total_option() -> None:
    """Regulation option stack_compare=total: the new card must cost more than the whole stack."""
    board = {"M1-1": (1, ["R2", "R3"])}
    state = build(CARDS, hand1=["R4", "R5", "R6"], standby1=POWER, board=board,
                  options={"stack_compare": "total"})
    refused(state, paid("R4", "M1-1"), "stack_cost_too_low")
    refused(state, paid("R5", "M1-1"), "stack_cost_too_low")
    state = play(state, paid("R6", "M1-1"))
    assert square(state, "M1-1") == (1, ["R2", "R3", "R6"])


# ----- capture of a single card (相手が単独のカードの場合) ---------------------------------------
def test_capture_single_winning_colour_takes_regardless_of_cost() -> None:
    """相手が単独 "属性ジャンケンで勝つ場合: コスト値に関わらず...奪うことができる"; the taken card
    goes to its owner's break ("フィールドを奪われた相手のカードは、そのまま破棄される")."""
    state = build(CARDS, hand1=["G1"], standby1=POWER, board=MY_FIELDS | {"B-1": (2, ["R6"])})
    state = play(state, paid("G1", "B-1"))
    assert square(state, "B-1") == (1, ["G1"])
    assert state.player(2).breaks == ["R6"] and state.player(1).breaks == []


def test_capture_single_same_colour_higher_cost_takes() -> None:
    """相手が単独, 同属性 "コスト値が相手より大きい場合: 奪うことができる"."""
    state = build(CARDS, hand1=["R4"], standby1=POWER, board=MY_FIELDS | {"B-1": (2, ["R3"])})
    state = play(state, paid("R4", "B-1"))
    assert square(state, "B-1") == (1, ["R4"])
    assert state.player(2).breaks == ["R3"]


def test_capture_single_same_colour_equal_cost_offsets() -> None:
    """相手が単独, 同属性 "コスト値が同じ場合: 相殺(双方のカードとも破棄)...誰にも獲得されていない"."""
    state = build(CARDS, hand1=["R3"], standby1=POWER, board=MY_FIELDS | {"B-1": (2, ["R3"])})
    state = play(state, paid("R3", "B-1"))
    assert square(state, "B-1") == (None, [])
    assert state.player(1).breaks == ["R3"]
    assert state.player(2).breaks == ["R3"]
    assert state.player(1).hand == []
    assert state.gain_placed is True


def test_capture_single_same_colour_lower_cost_is_refused() -> None:
    """相手が単独, 同属性 "コスト値が相手より小さい場合: 奪えない"."""
    state = build(CARDS, hand1=["R2"], standby1=POWER, board=MY_FIELDS | {"B-1": (2, ["R3"])})
    refused(state, paid("R2", "B-1"), "capture_cost_too_low")


def test_capture_single_losing_colour_is_refused() -> None:
    """相手が単独 "属性ジャンケンで負ける場合: 奪えない"."""
    state = build(CARDS, hand1=["B6"], standby1=POWER, board=MY_FIELDS | {"B-1": (2, ["R1"])})
    refused(state, paid("B6", "B-1"), "capture_colour_loses")


# ----- capture of a stack (相手が重なったカードの場合): opponent's R2 under R3, total 5, top 3 --
STACK = MY_FIELDS | {"B-1": (2, ["R2", "R3"])}


def test_capture_stack_winning_colour_above_the_total_takes_it() -> None:
    """相手が重なった, 勝つ "コスト値が相手(のコスト合計)より大きい場合: 奪うことができる"."""
    state = build(CARDS, hand1=["G6"], standby1=POWER, board=STACK)
    state = play(state, paid("G6", "B-1"))
    assert square(state, "B-1") == (1, ["G6"])
    assert state.player(2).breaks == ["R3", "R2"]
    assert state.player(1).breaks == []


@pytest.mark.parametrize("cid", ["G4", "G5"])
def test_capture_stack_winning_colour_above_the_top_offsets_the_top(cid: str) -> None:
    """相手が重なった, 勝つ, 合計以下で "一番上のカードより大きい場合: 相殺(手札のカードとフィールドの
    相手の1番上のカードを破棄)...そのフィールド自体は相手が獲得したまま"."""
    state = build(CARDS, hand1=[cid], standby1=POWER, board=STACK)
    state = play(state, paid(cid, "B-1"))
    assert square(state, "B-1") == (2, ["R2"])
    assert state.player(1).breaks == [cid]
    assert state.player(2).breaks == ["R3"]
    assert state.player(1).hand == []
    assert state.result is None


@pytest.mark.parametrize("cid", ["G3", "G1"])
def test_capture_stack_winning_colour_not_above_the_top_is_refused(cid: str) -> None:
    """相手が重なった, 勝つ "コスト値が相手の一番上のカード以下の場合: 奪えない"."""
    state = build(CARDS, hand1=[cid], standby1=POWER, board=STACK)
    refused(state, paid(cid, "B-1"), "capture_cost_too_low")


def test_capture_stack_same_colour_is_refused() -> None:
    """相手が重なった "同属性の場合: 奪えない", even above the stack's total."""
    state = build(CARDS, hand1=["R6"], standby1=POWER, board=STACK)
    refused(state, paid("R6", "B-1"), "capture_same_colour_stack")


def test_capture_stack_losing_colour_is_refused() -> None:
    """相手が重なった "属性ジャンケンで負ける場合: 奪えない"."""
    state = build(CARDS, hand1=["B6"], standby1=POWER, board=STACK)
    refused(state, paid("B6", "B-1"), "capture_colour_loses")


# ----- victory (勝利条件, W4; C2/W5) -------------------------------------------------------------
def test_w4_holding_all_three_battlefield_squares_wins_at_once() -> None:
    """W4, 勝利条件 "バトルフィールド3マスをすべて獲得する": checked right after the placement."""
    board = MY_FIELDS | {"B-1": (1, ["R1"]), "B-2": (1, ["R1"])}
    state = build(CARDS, hand1=["R1"], standby1=POWER, board=board)
    state = play(state, paid("R1", "B-3"))
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason) == (
        [1], [2], "battlefield")
    assert G.outcome(state) == state.result
    assert G.legal_actions(state, 1) == [] and G.legal_actions(state, 2) == []


def test_w4_fifteen_points_win_with_stacks_counted_whole() -> None:
    """W4, 勝利条件 "獲得したフィールド上の自カードのコスト合計が15ポイント以上": 5 + (2+4) + 4."""
    board = {"M1-1": (1, ["R5"]), "M1-2": (1, ["R2", "R4"]), "B-1": (2, ["B6"])}
    state = build(CARDS, hand1=["R3", "R4"], standby1=POWER, board=board)
    short = play(state, paid("R3", "M1-3"))
    assert G.scores(short) == {1: 14, 2: 6} and short.result is None
    won = play(state, paid("R4", "M1-3"))
    assert G.scores(won) == {1: 15, 2: 6}
    assert won.result is not None
    assert (won.result.winners, won.result.losers, won.result.reason) == ([1], [2], "points")


def test_w4_victory_points_option() -> None:
    """Regulation option victory_points (default 15): at 10, R5 + R5 wins."""
    state = build(CARDS, hand1=["R5"], standby1=POWER, board={"M1-1": (1, ["R5"])},
                  options={"victory_points": 10})
    state = play(state, paid("R5", "M1-2"))
    assert state.result is not None
    assert (state.result.winners, state.result.reason) == ([1], "points")


def test_c2_w5_drawing_from_an_empty_deck_loses() -> None:
    """C2/W5, 勝利条件 "相手のデッキが尽きる(引くべき時に引けない)": seat 2 cannot draw, seat 1 wins."""
    state = build(CARDS, deck2=[])
    state = play(state, {"type": "end_turn", "seat": 1}, NoChance())
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason) == (
        [1], [2], "deck_out")


def test_c2_drawing_the_last_card_is_not_a_loss() -> None:
    """C2: only a draw from an empty deck loses; drawing the last card is fine."""
    state = build(CARDS, deck2=["G2"])
    state = play(state, {"type": "end_turn", "seat": 1}, SuppliedChance(["G2"]))
    assert state.result is None and state.player(2).deck == []


# ----- turn order and the match's end ----------------------------------------------------------
def test_gain_only_once_per_turn() -> None:
    """ゲインフェイズ "1ターンに1回のみ": a second gain is refused."""
    state = build(CARDS, hand1=["R1", "R2"], standby1={1: ("PAY", True), 2: ("PAY", True)})
    state = play(state, paid("R1", "M1-1"))
    refused(state, gain(1, "R2", "M1-2", exhaust(2)), "gain_already_placed")


def test_gain_card_must_be_in_hand_and_square_must_exist() -> None:
    """配置のルール "手札のカード1枚をフィールド上の1マスに配置": card in hand, a real square."""
    state = build(CARDS, hand1=["R1"], hand2=["R2"], standby1=POWER)
    refused(state, paid("R2", "M1-1"), "card_not_in_hand")
    refused(state, paid("R1", "B-4"), "no_such_field")


@pytest.mark.parametrize("action", [
    {"type": "stun", "seat": 2, "card": "B1"},
    gain(2, "B1", "M2-1"),
    {"type": "end_turn", "seat": 2},
])
def test_only_the_active_seat_plays(action: dict[str, Any]) -> None:
    """ターン(自分の手番): stuns, gains and ending the turn belong to the active seat."""
    state = build(CARDS, hand2=["B1"])
    refused(state, action, "not_your_turn")


@pytest.mark.parametrize("action", [
    {"type": "end_turn", "seat": 2},
    {"type": "concede", "seat": 2},
    {"type": "adjust", "seat": 1, "reason": "late fix",
     "counter": {"name": "gain_placed", "value": 0}},
])
def test_no_action_after_the_result(action: dict[str, Any]) -> None:
    """Once the match has a result, every action is refused with match_over."""
    board = MY_FIELDS | {"B-1": (1, ["R1"]), "B-2": (1, ["R1"])}
    state = play(build(CARDS, hand1=["R1"], standby1=POWER, board=board), paid("R1", "B-3"))
    state.active = 2  # even a seat that would be on turn
    refused(state, action, "match_over")


@pytest.mark.parametrize("seat", [1, 2])
def test_c4_a_seat_may_concede_at_any_time(seat: int) -> None:
    """C4: the conceding seat loses at once, on its turn or not; the other seat wins."""
    state = build(CARDS, active=1)
    state = play(state, {"type": "concede", "seat": seat})
    other = 3 - seat
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason) == (
        [other], [seat], "concession")
    assert state.eliminated == [seat]


def test_turn_limit_ends_the_match_on_points() -> None:
    """Regulation option turn_limit: after turn 2 (each seat's turn counts) time is called and
    the higher score wins (reason turn_limit)."""
    state = build(CARDS, turn=1, deck2=["G1"], board={"M1-1": (1, ["R3"])},
                  options={"turn_limit": 2})
    state = play(state, {"type": "end_turn", "seat": 1}, SuppliedChance(["G1"]))
    assert state.result is None and (state.turn, state.active) == (2, 2)
    state = play(state, {"type": "end_turn", "seat": 2}, NoChance())  # no draw: time is up
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason,
            state.result.drawn) == ([1], [2], "turn_limit", False)


def test_turn_limit_with_equal_points_is_a_draw() -> None:
    """Regulation option turn_limit: equal points when time is called: a drawn match."""
    state = build(CARDS, turn=2, active=2, board={"M1-1": (1, ["R3"]), "M2-1": (2, ["B3"])},
                  options={"turn_limit": 2})
    state = play(state, {"type": "end_turn", "seat": 2}, NoChance())
    assert state.result is not None
    assert (state.result.winners, state.result.losers, state.result.reason,
            state.result.drawn) == ([], [], "turn_limit", True)


# ----- C3: manual adjustments ------------------------------------------------------------------
def adjust(seat: int, **change: Any) -> dict[str, Any]:
    return {"type": "adjust", "seat": seat, "reason": "card text: Dimension effect", **change}


def move(cid: str, from_zone: str, to_zone: str) -> dict[str, Any]:
    return {"move": {"card": cid, "from_zone": from_zone, "to_zone": to_zone}}


def test_c3_adjust_moves_a_card_between_zones() -> None:
    """C3: a recorded move; placing by adjustment skips payment and priority (the effect's text
    rules), and any seat may record it, on turn or not."""
    state = build(CARDS, hand1=["R3"], standby1={2: ("S3B", True)}, active=2)
    state = play(state, adjust(1, **move("R3", "hand", "field:B-2")))
    assert square(state, "B-2") == (1, ["R3"]) and state.player(1).hand == []
    state = play(state, adjust(1, **move("S3B", "standby:2", "break")))
    assert state.player(1).standby[1] is None and state.player(1).breaks == ["S3B"]
    state = play(state, adjust(1, **move("R3", "field:B-2", "deck")))
    assert square(state, "B-2") == (None, []) and state.player(1).deck == ["R3"]
    state = play(state, adjust(1, **move("S3B", "break", "standby:5")))
    assert state.player(1).standby[4] == Stun(card="S3B", ready=True)


def test_c3_adjust_onto_the_field_checks_victory() -> None:
    """C3 with W4: a card moved onto the field by adjustment is a placement for victory."""
    board = {"B-1": (1, ["R1"]), "B-2": (1, ["R1"])}
    state = build(CARDS, hand1=["R1"], board=board)
    state = play(state, adjust(1, **move("R1", "hand", "field:B-3")))
    assert state.result is not None and state.result.reason == "battlefield"


def test_c3_adjust_counters() -> None:
    """C3: counters stun_ready:N, gain_placed and stun_placed (0 or 1)."""
    state = build(CARDS, hand1=["R1", "R2"], standby1={1: ("PAY", True), 3: ("S3B", True)})
    state = play(state, adjust(1, counter={"name": "stun_ready:3", "value": 0}))
    assert state.player(1).standby[2] == Stun(card="S3B", ready=False)
    state = play(state, paid("R1", "M1-1"))
    state = play(state, adjust(1, counter={"name": "stun_ready:1", "value": 1}))
    state = play(state, adjust(1, counter={"name": "gain_placed", "value": 0}))
    state = play(state, paid("R2", "M1-2"))  # a second gain, as the card's effect allows
    assert square(state, "M1-2") == (1, ["R2"])
    state = play(state, adjust(1, counter={"name": "stun_placed", "value": 1}))
    assert state.stun_placed is True


def test_c3_adjust_stun_placed_zero_allows_another_stun_before_the_gain() -> None:
    """C3: resetting stun_placed (an effect granting a second stun) reopens the stand-by phase;
    after the gain it stays closed."""
    state = build(CARDS, hand1=["R1", "R2", "R3"], standby1=POWER)
    state = play(state, {"type": "stun", "seat": 1, "card": "R1"})
    state = play(state, adjust(1, counter={"name": "stun_placed", "value": 0}))
    assert (state.stun_placed, state.phase) == (False, "standby")
    state = play(state, {"type": "stun", "seat": 1, "card": "R2"})
    assert [s.card for s in state.player(1).standby if s] == ["PAY", "R1", "R2"]
    state = play(state, paid("R3", "M1-1"))
    state = play(state, adjust(1, counter={"name": "stun_placed", "value": 0}))
    assert state.phase == "gain"


@pytest.mark.parametrize(("change", "reason"), [
    (move("R1", "graveyard", "hand"), "bad_zone"),
    (move("R1", "hand", "standby:6"), "bad_zone"),
    (move("R1", "hand", "field:X-1"), "bad_zone"),
    (move("R2", "hand", "break"), "card_not_in_zone"),  # R2 is seat 2's
    (move("R1", "standby:1", "hand"), "card_not_in_zone"),
    (move("B1", "field:M2-1", "hand"), "card_not_in_zone"),  # seat 2's square
    (move("ZZZ", "hand", "break"), "card_not_in_zone"),  # no such card anywhere
    (move("R1", "hand", "field:M2-1"), "square_held"),
    (move("R1", "hand", "standby:2"), "slot_taken"),
    ({"counter": {"name": "score", "value": 3}}, "bad_counter"),
    ({"counter": {"name": "gain_placed", "value": 2}}, "bad_counter"),
    ({"counter": {"name": "stun_ready:4", "value": 1}}, "bad_counter"),  # no stun there
    ({"counter": {"name": "stun_ready:9", "value": 1}}, "bad_counter"),  # no slot 9
])
def test_c3_adjust_errors(change: dict[str, Any], reason: str) -> None:
    """C3: a move names the seat's own zones and a card really there; counters are named ones."""
    state = build(CARDS, hand1=["R1"], hand2=["R2"], standby1={2: ("S3B", True)},
                  board={"M2-1": (2, ["B1"])})
    refused(state, adjust(1, **change), reason)


def test_c3_adjust_needs_a_reason_and_one_change() -> None:
    """C3 "with a written reason": an adjustment without one, or with two changes, is malformed."""
    state = build(CARDS, hand1=["R1"])
    for bad in ({"type": "adjust", "seat": 1, **move("R1", "hand", "break")},
                {**adjust(1, **move("R1", "hand", "break")),
                 "counter": {"name": "gain_placed", "value": 1}}):
        with pytest.raises(MalformedAction):
            G.apply(state, bad, NoChance())


def test_c3_adjust_is_described_in_the_transcript() -> None:
    """C3 "shown as such in every transcript"; a hand-to-deck move hides the card from others."""
    act = adjust(1, **move("R1", "hand", "deck"))
    assert G.describe(act, [], JUDGE) == ("Adjustment for seat 1: moves R1 from hand to deck "
                                          "(reason: card text: Dimension effect).")
    assert "moves a card from hand to deck" in G.describe(act, [], Viewer("seat", 2))


# ----- views and transcripts (hidden information) ---------------------------------------------
def _view_state() -> Any:
    return build(CARDS, hand1=["R1", "R2"], hand2=["B1"], deck1=["G1"], deck2=["G2", "G3"])


def test_view_a_seat_sees_its_own_hand_only() -> None:
    """Hidden information: seat 1 sees its hand; of seat 2 it sees only the count."""
    seats = G.view(_view_state(), Viewer("seat", 1))["seats"]
    assert [c["id"] for c in seats[0]["hand"]] == ["R1", "R2"]
    assert seats[0]["hand"][0] == {"id": "R1", "name": "Red 1", "colour": "red", "cost": 1,
                                   "stun": 1}
    assert seats[1]["hand"] is None and seats[1]["hand_count"] == 1
    assert seats[0]["deck"] is None and seats[1]["deck"] is None
    assert (seats[0]["deck_count"], seats[1]["deck_count"]) == (1, 2)


def test_view_a_spectator_sees_no_hand() -> None:
    """Hidden information: spectators see counts only."""
    seats = G.view(_view_state(), SPECTATOR)["seats"]
    assert [s["hand"] for s in seats] == [None, None]
    assert [s["hand_count"] for s in seats] == [2, 1]


def test_view_a_judge_sees_hands_and_decks() -> None:
    """Judges see everything, decks included."""
    seats = G.view(_view_state(), JUDGE)["seats"]
    assert [c["id"] for c in seats[1]["hand"]] == ["B1"]
    assert seats[0]["deck"] == ["G1"] and seats[1]["deck"] == ["G2", "G3"]


def test_describe_names_a_drawn_card_only_to_its_seat_and_judges() -> None:
    """C1 outcomes in the transcript: the draw is private to the drawing seat."""
    before = build(CARDS, deck2=["G2"])
    chance = SuppliedChance(["G2"])
    action = {"type": "end_turn", "seat": 1}
    play(before, action, chance)
    named = "Seat 1 ends the turn. Seat 2 draws Green 2 (green 2)."
    hidden = "Seat 1 ends the turn. Seat 2 draws a card."
    assert G.describe(action, chance.outcomes, Viewer("seat", 2), before) == named
    assert G.describe(action, chance.outcomes, JUDGE, before) == named
    assert G.describe(action, chance.outcomes, Viewer("seat", 1), before) == hidden
    assert G.describe(action, chance.outcomes, SPECTATOR, before) == hidden


# ----- legal actions -----------------------------------------------------------------------------
def test_legal_actions_offer_one_stun_payment_per_card_and_square_and_all_apply() -> None:
    """legal_actions: each offered gain is legal and paid by stuns only (project choice)."""
    state = build(CARDS, hand1=["R1", "R3", "B6"], deck2=["G1"],
                  standby1={1: ("S3B", True), 2: ("S2R", False)})
    actions = G.legal_actions(state, 1)
    gains = [a for a in actions if isinstance(a, Gain)]
    pairs = [(a.card, a.field) for a in gains]
    assert sorted(pairs) == sorted((c, f) for c in ("R1", "R3") for f in ("M1-1", "M1-2", "M1-3"))
    assert all(p.source in ("exhaust_stun", "discard_stun") for a in gains for p in a.payment)
    assert [p.model_dump() for p in gains[0].payment] == [discard(1)]  # R1: 1 exactly, no waste
    assert sorted(a.card for a in actions if isinstance(a, PlaceStun)) == ["B6", "R1", "R3"]
    assert isinstance(actions[-1], EndTurn)
    assert G.legal_actions(state, 2) == []
    for action in actions:
        chance = SuppliedChance(["G1"]) if isinstance(action, EndTurn) else NoChance()
        play(state, action.model_dump(), chance)


def test_apply_never_changes_its_input() -> None:
    """The contract: apply returns a new state, even for a capture that touches both seats."""
    state = build(CARDS, hand1=["G6"], standby1=POWER, board=STACK)
    before = snapshot(state)
    after = G.apply(state, paid("G6", "B-1"), NoChance())
    assert snapshot(state) == before and snapshot(after) != before


def test_illegal_action_carries_reason_and_message() -> None:
    """Errors: IllegalAction has a stable reason code and a sentence."""
    state = build(CARDS, hand1=["R2"], standby1=POWER, board=MY_FIELDS | {"B-1": (2, ["R3"])})
    error = refused(state, paid("R2", "B-1"), "capture_cost_too_low")
    assert isinstance(error, IllegalAction)
    assert error.to_dict()["reason"] == "capture_cost_too_low" and "R" in error.message
