"""The operations phase and the end phase (§オペレーション(Operations)フェイズ, §ターン終了(End of
Turn)フェイズ): uniqueness (§基本構成細則 › ユニーク処理; edge OQ6), gear and conditions (§ギア,
§コンディション; edge OQ17), whammies (§ワミー; edge OQ21), cranking at will (edge OQ9), the
gear shift (§シフト) and the influence step (§影響力; edge OQ11)."""

from __future__ import annotations

from typing import Any

from tests.engine.edge.helpers import (
    C,
    P,
    act,
    build,
    char,
    legal_types,
    perm,
    place,
    play,
    refused,
)


def attach(seat: int, card: str, host: str, chars: int = 0) -> dict[str, Any]:
    return act("attach", seat, card=card, host=host, from_characters=chars, from_others=0)


def env(seat: int, card: str, chars: int = 0) -> dict[str, Any]:
    return act("place_permanent", seat, card=card, from_characters=chars, from_others=0)


# ----- OQ6: uniqueness ---------------------------------------------------------------------------
def test_oq6_characters_are_unique_by_name_on_the_own_field() -> None:
    """§キャラクター (自軍ユニーク), edge OQ6: with an Enforcer in play, ENF2 (another printing
    named Enforcer) is refused (unique_conflict)."""
    state = build(characters=[C("ENF@1.1")], hands={1: ["ENF2@1.5"]}, character_pull=1)
    refused(state, place(1, "ENF2@1.5", 1, 2, chars=1), "unique_conflict")


def test_oq6_a_flipped_character_still_counts() -> None:
    """edge OQ6, E6: a flipped Enforcer is on the field: ENF2 is refused (unique_conflict)."""
    state = build(characters=[C("ENF@1.1", state="flipped")], hands={1: ["ENF2@1.5"]},
                  character_pull=1)
    refused(state, place(1, "ENF2@1.5", 1, 2, chars=1), "unique_conflict")


def test_oq6_opponents_field_dead_pile_and_hand_do_not_count() -> None:
    """edge OQ6 (「自分の場に」 only): seat 2's Enforcer in play, an Enforcer in seat 1's dead pile
    and another in seat 1's hand do not stop ENF2@1.5."""
    state = build(characters=[C("ENF@2.1")], dead={1: ["ENF@1.3"]},
                  hands={1: ["ENF2@1.5", "ENF@1.4"]}, character_pull=1)
    state = play(state, place(1, "ENF2@1.5", 1, 1, chars=1))
    assert [c.card for c in state.conspiracies[1]] == ["ENF2@1.5"]


def test_oq6_environments_are_unique_by_name() -> None:
    """§環境 (自軍ユニーク), edge OQ6: with Night City in play, CITY2 (also Night City) is refused
    (unique_conflict); Harbour, another name, is placed."""
    state = build(permanents=[P("CITY@1.1")], hands={1: ["CITY2@1.5", "PORT@1.6"]},
                  character_pull=1)
    refused(state, env(1, "CITY2@1.5", 1), "unique_conflict")
    play(state, env(1, "PORT@1.6", 1))


def test_oq6_one_secret_of_any_name() -> None:
    """§シークレット (「シークレット全体で自軍ユニーク」): with The Plan in play, The Plot (another
    name) is refused (unique_conflict); seat 2's secret does not stop seat 1's first."""
    refused(build(permanents=[P("PLAN@1.1")], hands={1: ["PLOT@1.5"]}), env(1, "PLOT@1.5"),
            "unique_conflict")
    state = play(build(permanents=[P("PLAN@2.1")], hands={1: ["PLOT@1.5"]}), env(1, "PLOT@1.5"))
    assert [p.card for p in state.permanents[1]] == ["PLOT@1.5"]


def test_place_checks_the_card_type_and_the_hand() -> None:
    """Digest section 4 (common refusals): a character through place_permanent is
    wrong_card_type; a card not in hand is not_in_hand."""
    state = build(hands={1: ["FIX@1.5"]}, character_pull=1)
    refused(state, env(1, "FIX@1.5", 1), "wrong_card_type")
    refused(state, place(1, "FIX@1.6", 1, 1, chars=1), "not_in_hand")


# ----- OQ17: gear and conditions -----------------------------------------------------------------
def test_oq17_gear_goes_on_an_own_character_flipped_included() -> None:
    """§ギア (「場のキャラクター」), edge OQ17: Knuckles on seat 1's flipped Enforcer is accepted
    (cost 1 paid)."""
    state = build(characters=[C("ENF@1.1", state="flipped")], hands={1: ["KNUCKLES@1.5"]},
                  character_pull=1)
    state = play(state, attach(1, "KNUCKLES@1.5", "ENF@1.1", 1))
    assert char(state, "ENF@1.1").attached == ["KNUCKLES@1.5"]
    assert state.character_pull == 0


def test_gear_never_goes_on_another_players_character_or_a_resource() -> None:
    """§ギア (gear hangs on one of its owner's characters): on seat 2's Fixer or on seat 1's own
    Safehouse it is refused (bad_host)."""
    state = build(characters=[C("FIX@2.1")], permanents=[P("SAFE@1.2")],
                  hands={1: ["KNUCKLES@1.5"]}, character_pull=1)
    refused(state, attach(1, "KNUCKLES@1.5", "FIX@2.1", 1), "bad_host")
    refused(state, attach(1, "KNUCKLES@1.5", "SAFE@1.2", 1), "bad_host")


def test_oq17_a_condition_goes_on_any_card_on_any_field() -> None:
    """§コンディション (「場のいずれかのカード」), edge OQ17: seat 1's Marked on seat 2's Fixer,
    and its 0-cost Curse on seat 2's Safehouse, are accepted."""
    state = build(characters=[C("FIX@2.1")], permanents=[P("SAFE@2.2")],
                  hands={1: ["MARKED@1.5", "CURSE@1.6"]}, character_pull=1)
    state = play(state, attach(1, "MARKED@1.5", "FIX@2.1", 1))
    state = play(state, attach(1, "CURSE@1.6", "SAFE@2.2"))
    assert char(state, "FIX@2.1").attached == ["MARKED@1.5"]
    assert perm(state, "SAFE@2.2").attached == ["CURSE@1.6"]


# ----- OQ21: whammies ----------------------------------------------------------------------------
def test_oq21_an_ordinary_whammy_in_ones_own_operations_phase() -> None:
    """§ワミー, edge OQ21: Sucker Punch in seat 1's operations step goes to seat 1's dead pile."""
    state = play(build(hands={1: ["JAB@1.5"]}), act("play_whammy", 1, card="JAB@1.5"))
    assert state.hands[1] == [] and state.dead[1] == ["JAB@1.5"]


def test_oq21_an_ordinary_whammy_is_refused_at_other_times() -> None:
    """edge OQ21: not in one's own discard step, not in the shift step, and never in another
    player's turn (not_now)."""
    hands = {1: ["JAB@1.5"], 2: ["JAB@2.5"]}
    refused(build(hands=hands, step="discard"), act("play_whammy", 1, card="JAB@1.5"), "not_now")
    refused(build(hands=hands, step="shift"), act("play_whammy", 1, card="JAB@1.5"), "not_now")
    refused(build(hands=hands), act("play_whammy", 2, card="JAB@2.5"), "not_now")


def test_oq21_play_any_time_whammies_from_any_seat_in_any_step() -> None:
    """edge OQ21 (play_any_time): seat 2 plays Ambush in seat 1's discard step and seat 1's
    shift step."""
    for step in ("discard", "shift"):
        state = play(build(hands={2: ["AMBUSH@2.5"]}, step=step),
                     act("play_whammy", 2, card="AMBUSH@2.5"))
        assert state.dead[2] == ["AMBUSH@2.5"]


# ----- OQ9: cranking at will ---------------------------------------------------------------------
def test_oq9_a_character_may_be_cranked_at_will() -> None:
    """§陰謀団について (「任意に屈伸状態にできる」), edge OQ9 (voluntary_crank: on): the Enforcer
    cranks; a second crank is refused (not_active)."""
    state = play(build(characters=[C("ENF@1.1")]), act("crank_character", 1,
                                                          character="ENF@1.1"))
    assert char(state, "ENF@1.1").state == "cranked"
    refused(state, act("crank_character", 1, character="ENF@1.1"), "not_active")


def test_oq9_voluntary_crank_off() -> None:
    """edge OQ9 (voluntary_crank: off): refused (no_voluntary_crank) and not listed."""
    state = build(characters=[C("ENF@1.1")], options={"voluntary_crank": "off"})
    refused(state, act("crank_character", 1, character="ENF@1.1"), "no_voluntary_crank")
    assert "crank_character" not in legal_types(state, 1)


# ----- §シフト, §影響力, OQ11 ------------------------------------------------------------
def shift_table() -> Any:
    """Seat 1's shift step: Enforcer with Knuckles, a Seer (pull 2), a flipped Fixer, a
    Safehouse; seat 2's Warden."""
    return build(step="shift",
                 characters=[C("ENF@1.1", attached=["KNUCKLES@1.5"]), C("SEER@1.2", 1, 2),
                             C("FIX@1.3", 2, 1, "flipped"), C("WARD@2.1")],
                 permanents=[P("SAFE@1.4")])


def test_shift_gear_once_per_turn() -> None:
    """§シフト (「各カードにつき 1ターン 1回まで」): Knuckles to the Seer; back to the Enforcer is
    refused (already_shifted)."""
    state = play(shift_table(), act("shift_gear", 1, gear="KNUCKLES@1.5", to="SEER@1.2"))
    assert char(state, "SEER@1.2").attached == ["KNUCKLES@1.5"]
    assert char(state, "ENF@1.1").attached == []
    refused(state, act("shift_gear", 1, gear="KNUCKLES@1.5", to="ENF@1.1"), "already_shifted")


def test_oq17_shift_to_a_flipped_own_character_but_never_to_anothers() -> None:
    """edge OQ17 (shifting to a flipped own character is allowed), §シフト (between one's own
    characters): to the flipped Fixer is accepted; to seat 2's Warden is bad_host."""
    play(shift_table(), act("shift_gear", 1, gear="KNUCKLES@1.5", to="FIX@1.3"))
    refused(shift_table(), act("shift_gear", 1, gear="KNUCKLES@1.5", to="WARD@2.1"), "bad_host")


def test_shift_is_an_end_phase_step() -> None:
    """Digest section 3 (step 7 follows operations): in the operations step shift_gear is
    refused (wrong_step); end_operations opens the shift step."""
    state = shift_table()
    state.step = "operations"
    refused(state, act("shift_gear", 1, gear="KNUCKLES@1.5", to="SEER@1.2"), "wrong_step")
    assert play(state, act("end_operations", 1)).step == "shift"


def test_oq11_the_first_end_phase_pull_closes_the_shift_step() -> None:
    """edge OQ11: the Seer makes 2 character pull in the shift step: the influence step begins,
    and a shift is now refused (wrong_step)."""
    state = play(shift_table(), act("generate_pull", 1, source="SEER@1.2"))
    assert (state.step, state.character_pull) == ("influence", 2)
    refused(state, act("shift_gear", 1, gear="KNUCKLES@1.5", to="SEER@1.2"), "wrong_step")


def test_oq11_only_characters_produce_pull_in_the_end_phase() -> None:
    """§影響力 (「自分のキャラクターによりプルを発生させる」), edge OQ11: the Safehouse is refused
    (wrong_step) in the shift step and in the influence step."""
    refused(shift_table(), act("generate_pull", 1, source="SAFE@1.4"), "wrong_step")
    state = play(shift_table(), act("generate_pull", 1, source="SEER@1.2"))
    refused(state, act("generate_pull", 1, source="SAFE@1.4"), "wrong_step")


def test_e7_influence_step_pull_converts_at_the_end_of_the_turn() -> None:
    """§影響力, E7: the Seer's 2 character pull in the influence step becomes influence: 0 + 2."""
    state = play(shift_table(), act("generate_pull", 1, source="SEER@1.2"))
    assert play(state, act("end_turn", 1)).influence[1] == 2


def test_operations_end_with_end_operations_no_more_placing() -> None:
    """Digest section 3 (the operations phase lasts until end_operations): in the shift step a
    placement is refused (wrong_step)."""
    state = build(step="shift", hands={1: ["FIX@1.5"]}, character_pull=1)
    refused(state, place(1, "FIX@1.5", 1, 1, chars=1), "wrong_step")
