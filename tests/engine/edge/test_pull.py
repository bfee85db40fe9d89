"""Pull and costs (§コストについて; E7, E8; edge OQ2, OQ10, OQ12, OQ13, OQ22, OQ23, OQ27):
producing pull by kind, exact payment, the end-of-turn conversion, the 0-cost limit and dotted
costs."""

from __future__ import annotations

from tests.engine.edge.helpers import (
    RULES,
    C,
    P,
    act,
    adjust,
    build,
    char,
    perm,
    place,
    play,
    refused,
)


def pull(seat: int, source: str) -> dict[str, object]:
    return act("generate_pull", seat, source=source)


# ----- E7: producing pull, by kind --------------------------------------------------------------
def test_e7_a_character_produces_character_pull() -> None:
    """E7, §コストについて: the Seer (pull 2) cranks: 2 character pull, 0 other."""
    state = play(build(characters=[C("SEER@1.1")]), pull(1, "SEER@1.1"))
    assert (state.character_pull, state.other_pull) == (2, 0)
    assert char(state, "SEER@1.1").state == "cranked"


def test_oq2_a_resource_produces_other_pull() -> None:
    """E7, edge OQ2 (「リザーブ」 read as resource): the Den (pull 2) cranks: 2 other pull."""
    state = play(build(permanents=[P("DEN@1.1")]), pull(1, "DEN@1.1"))
    assert (state.character_pull, state.other_pull) == (0, 2)
    assert perm(state, "DEN@1.1").state == "cranked"


def test_e7_a_source_produces_once_per_turn() -> None:
    """Digest section 3 (each character and resource cranks at most once per turn): a cranked
    Seer or Den is refused (not_active)."""
    state = build(characters=[C("SEER@1.1", state="cranked")],
                  permanents=[P("DEN@1.2", "cranked")])
    refused(state, pull(1, "SEER@1.1"), "not_active")
    refused(state, pull(1, "DEN@1.2"), "not_active")


def test_e7_a_card_without_pull_produces_none() -> None:
    """§キャラクター (「一部のカードはプルの値を持ち」): the Enforcer has no pull (no_pull)."""
    refused(build(characters=[C("ENF@1.1")]), pull(1, "ENF@1.1"), "no_pull")


def test_oq10_only_the_turn_player_produces_pull() -> None:
    """edge OQ10: in seat 1's turn, seat 2's Seer cannot produce pull (not_your_turn)."""
    refused(build(characters=[C("SEER@2.1")]), pull(2, "SEER@2.1"), "not_your_turn")


def test_oq10_pull_comes_from_ones_own_cards() -> None:
    """E7: seat 1 cannot crank seat 2's Seer for pull (no_such_card)."""
    refused(build(characters=[C("SEER@2.1")]), pull(1, "SEER@2.1"), "no_such_card")


# ----- OQ12: exact payment, named by kind --------------------------------------------------------
def test_oq12_the_payment_is_exact() -> None:
    """edge OQ12: the Fixer costs 1; paying 2 (overpay) or 0 is refused (payment_mismatch)."""
    state = build(hands={1: ["FIX@1.5"]}, character_pull=3)
    refused(state, place(1, "FIX@1.5", 1, 1, chars=2), "payment_mismatch")
    refused(state, place(1, "FIX@1.5", 1, 1), "payment_mismatch")


def test_e7_the_payer_names_which_pull_pays() -> None:
    """E7, edge OQ12: with 0 character and 2 other pull, the Enforcer (2) paid with character
    pull is refused (insufficient_pull); paid with other pull it is placed: 2 - 2 = 0 left."""
    state = build(hands={1: ["ENF@1.5"]}, other_pull=2)
    refused(state, place(1, "ENF@1.5", 1, 1, chars=2), "insufficient_pull")
    state = play(state, place(1, "ENF@1.5", 1, 1, others=2))
    assert (state.character_pull, state.other_pull) == (0, 0)


def test_e7_a_split_payment() -> None:
    """E7: the Warden (3) paid 1 character + 2 other from 2 + 2: 1 character pull is left."""
    state = build(hands={1: ["WARD@1.5"]}, character_pull=2, other_pull=2)
    state = play(state, place(1, "WARD@1.5", 1, 1, chars=1, others=2))
    assert (state.character_pull, state.other_pull) == (1, 0)


# ----- E7: the end of the turn -------------------------------------------------------------------
def test_e7_only_unspent_character_pull_becomes_influence() -> None:
    """E7, §影響力: seat 1 at 5 ends its turn with 3 character and 4 other pull: 5 + 3 = 8; the
    other 4 is lost and the reserve empties."""
    state = play(build(influence={1: 5}, character_pull=3, other_pull=4), act("end_turn", 1))
    assert state.influence[1] == 8
    assert (state.character_pull, state.other_pull) == (0, 0)


def test_e7_spent_character_pull_does_not_convert() -> None:
    """E7: the Seer makes 2 character pull, 1 pays for a Fixer; end of turn: 0 + 1 = 1."""
    state = build(characters=[C("SEER@1.1")], hands={1: ["FIX@1.5"]})
    state = play(state, pull(1, "SEER@1.1"))
    state = play(state, place(1, "FIX@1.5", 1, 2, chars=1))
    state = play(state, act("end_turn", 1))
    assert state.influence[1] == 1


def test_oq13_pull_of_a_character_that_died_still_converts() -> None:
    """edge OQ13: the Seer makes 2 character pull, then leaves play (a judge's move, as a card
    text would): the 2 still converts at the end of the turn (0 + 2 = 2)."""
    state = play(build(characters=[C("SEER@1.1")]), pull(1, "SEER@1.1"))
    state = play(state, adjust(1, move={"card": "SEER@1.1", "from_zone": "conspiracy:1.1",
                                        "to_zone": "dead"}))
    assert state.character_pull == 2
    assert play(state, act("end_turn", 1)).influence[1] == 2


# ----- E8, OQ23: the 0-cost limit ----------------------------------------------------------------
def test_e8_one_zero_cost_card_per_turn() -> None:
    """E8, §コストについて (「自ターンごとに…1枚だけ」): the Prophet (cost 0) is placed; then the
    Safehouse (cost 0) is refused (zero_cost_limit)."""
    state = build(hands={1: ["PROPHET@1.5", "SAFE@1.6"]})
    state = play(state, place(1, "PROPHET@1.5", 1, 1))
    assert state.zero_cost_used
    refused(state, act("place_permanent", 1, card="SAFE@1.6"), "zero_cost_limit")


def test_e8_whammies_have_no_cost_and_no_limit() -> None:
    """E8, §ワミー (「コスト概念を持たない」, 「可能であれば何枚でも」): after a 0-cost Safehouse,
    two whammies are played; both go to the dead pile and the 0-cost allowance is untouched by
    them."""
    state = build(hands={1: ["SAFE@1.6", "JAB@1.7", "JAB@1.8"]})
    state = play(state, act("play_whammy", 1, card="JAB@1.7"))
    assert not state.zero_cost_used
    state = play(state, act("place_permanent", 1, card="SAFE@1.6"))
    state = play(state, act("play_whammy", 1, card="JAB@1.8"))
    assert state.dead[1] == ["JAB@1.7", "JAB@1.8"]


def test_oq23_a_card_with_a_cost_does_not_use_the_allowance() -> None:
    """E8, edge OQ23 (printed cost): a Fixer (cost 1) does not use the 0-cost allowance; a
    Prophet (0) may still follow."""
    state = build(hands={1: ["FIX@1.5", "PROPHET@1.6"]}, character_pull=1)
    state = play(state, place(1, "FIX@1.5", 1, 1, chars=1))
    assert not state.zero_cost_used
    play(state, place(1, "PROPHET@1.6", 1, 2))


# ----- OQ22: dotted costs ------------------------------------------------------------------------
def test_oq22_cost_requires_needs_a_face_up_own_card_with_the_trait() -> None:
    """§コストについて (“.” costs), edge OQ22: the Edge Walker needs an Agent of yours face up:
    with none, or only a flipped Fixer (Agent), or only seat 2's Fixer, it is refused
    (cost_condition); with a face-up Fixer of seat 1 it is placed."""
    for characters in ([C("ENF@1.1")], [C("FIX@1.1", state="flipped")],
                       [C("ENF@1.1"), C("FIX@2.1")]):
        refused(build(characters=characters, hands={1: ["WALKER@1.5"]}, character_pull=1),
                place(1, "WALKER@1.5", 1, 2, chars=1), "cost_condition")
    state = play(build(characters=[C("FIX@1.1")], hands={1: ["WALKER@1.5"]}, character_pull=1),
                 place(1, "WALKER@1.5", 1, 2, chars=1))
    assert char(state, "WALKER@1.5").state == "active"


def test_oq22_a_dotted_cost_without_requirement_is_accepted_as_claimed() -> None:
    """edge OQ22 (no cost_requires: accept): Dotty (dotted 1) is placed into an empty
    conspiracy."""
    state = play(build(hands={1: ["DOTTY@1.5"]}, character_pull=1),
                 place(1, "DOTTY@1.5", 1, 1, chars=1))
    assert [c.card for c in state.conspiracies[1]] == ["DOTTY@1.5"]


# ----- OQ27: things come into play active --------------------------------------------------------
def test_oq27_a_new_resource_produces_pull_at_once() -> None:
    """edge OQ27 (active, no summoning sickness, 「召喚酔い: 無し」): a Safehouse just placed cranks
    for 1 other pull the same turn; a Fixer just placed cranks for 1 character pull."""
    state = build(hands={1: ["SAFE@1.5", "FIX@1.6"]})
    state = play(state, act("place_permanent", 1, card="SAFE@1.5"))
    state = play(state, pull(1, "SAFE@1.5"))
    state = play(state, place(1, "FIX@1.6", 1, 1, others=1))
    state = play(state, pull(1, "FIX@1.6"))
    assert (state.character_pull, state.other_pull) == (1, 0)


# ----- C3: a lasting pull modifier ---------------------------------------------------------------
def test_c3_a_lasting_pull_modifier_counts_when_pull_is_produced() -> None:
    """E7, C3 (a stat changed by card text): the Seer (pull 2) with +1 pull makes 3 character
    pull; the Safehouse (pull 1) with +2 makes 3 other pull; the Enforcer (no pull) with +1 pull
    is listed as a source and makes 1; the Fixer (pull 1) at -1 makes none (no_pull)."""
    state = build(characters=[C("SEER@1.1"), C("ENF@1.2", 1, 2), C("FIX@1.4", 1, 3)],
                  permanents=[P("SAFE@1.3")])
    for card, amount in (("SEER@1.1", 1), ("SAFE@1.3", 2), ("ENF@1.2", 1), ("FIX@1.4", -1)):
        state = play(state, adjust(1, modifier={"card": card, "stat": "pull",
                                                "amount": amount}))
    sources = {a.source for a in RULES.legal_actions(state, 1)  # type: ignore[attr-defined]
               if a.type == "generate_pull"}
    assert sources == {"SEER@1.1", "SAFE@1.3", "ENF@1.2"}
    refused(state, pull(1, "FIX@1.4"), "no_pull")
    for card in sources:
        state = play(state, pull(1, card))
    assert (state.character_pull, state.other_pull) == (3 + 1, 3)
