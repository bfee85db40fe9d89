"""Illuminati attacks (各攻撃の処理): totals (I2, I3 and the document's modifiers), supports,
agents, the roll (I4), instant attacks (I5), consequences and aborting.

Sources: rules document 000 (各攻撃の処理, 属性について, エージェントについて) and rulings I2-I5
(RULINGS.md). Every total below is worked out by hand in a comment and compared with
``combat.tally``. Unless a test says otherwise, seat 1 plays Alpha Lodge and seat 2 Beta Cabal
(neither has an alignment), each seat's home group hangs from its Illuminati's top arrow, and a
target "at depth 3" hangs under two alignment-free fillers (so neither I3 term applies).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import JUDGE
from engine.core.chance import NoChance, SuppliedChance
from engine.core.effects import CardMoved
from engine.illuminati.effects import AttackResolved
from engine.illuminati.model import IlluminatiState
from tests.engine.illuminati.helpers import (
    G,
    attack,
    chain,
    declare,
    ill,
    play,
    put,
    refused,
    resolve,
    support,
    table,
    tally,
    totals,
)


def at_depth(st: IlluminatiState, seat: int, card: str, depth: int, first: int = 1) -> str:
    """Hang ``card`` ``depth`` steps below ``seat``'s Illuminati, under fillers f01, f02, ...
    (from ``first``), and return its instance id."""
    fillers = [f"f{n:02d}" for n in range(first, first + depth - 1)]
    return chain(st, seat, *fillers, card)[-1]


def duel(attacker: str, target: str, depth: int = 3, *, n: int = 2,
         ills: list[str] | None = None) -> IlluminatiState:
    """Seat 1's ``attacker`` (under its Illuminati, holding a token) and seat 2's ``target`` at
    ``depth``; seat 1 is in its main phase."""
    st = table(n, ills=ills)
    put(st, 1, attacker, tokens=1)
    at_depth(st, 2, target, depth)
    return st


def control(st: IlluminatiState, attacker: str, target: str, **extra: Any) -> IlluminatiState:
    return attack(st, attacker, target, "control", **extra)


def destroy(st: IlluminatiState, attacker: str, target: str, **extra: Any) -> IlluminatiState:
    return attack(st, attacker, target, "destroy", **extra)


# ----- I2: alignments -------------------------------------------------------------------------
def test_i2_control_plus_4_per_shared_alignment() -> None:
    """I2: Civil Rights Board (power 6; government, liberal) controlling City Council (liberal,
    government; resistance 5) shares two alignments."""
    st = control(duel("govlib", "libgov"), "govlib@1", "libgov@2")
    assert totals(st) == (14, 5)  # attack 6 + 4 + 4; defence resistance 5
    assert ("2 shared alignment(s) (I2)", 8) in tally(st).attack


def test_i2_control_minus_4_per_opposed_pair() -> None:
    """I2: Civil Rights Board (government, liberal) controlling Old Money Club (corporate,
    conservative; resistance 5): two opposed pairs."""
    st = control(duel("govlib", "corpcon"), "govlib@1", "corpcon@2")
    assert totals(st) == (-2, 5)  # attack 6 - 4 - 4; defence resistance 5


def test_i2_destroy_minus_4_per_shared_alignment() -> None:
    """I2: destroying City Council (power 2) with Civil Rights Board: two shared, -4 each."""
    st = destroy(duel("govlib", "libgov"), "govlib@1", "libgov@2")
    assert totals(st) == (-2, 2)  # attack 6 - 4 - 4; defence power 2


def test_i2_destroy_plus_4_per_opposed_pair() -> None:
    """I2: destroying Old Money Club (power 4) with Civil Rights Board: two opposed, +4 each."""
    st = destroy(duel("govlib", "corpcon"), "govlib@1", "corpcon@2")
    assert totals(st) == (14, 4)  # attack 6 + 4 + 4; defence power 4


@pytest.mark.parametrize(("purpose", "defence"), [("control", 5), ("destroy", 5)])
def test_i2_criminal_opposes_nothing(purpose: str, defence: int) -> None:
    """I2 "Criminal opposes nothing": Pickpockets Guild (power 4; criminal) against Everything
    Club (every alignment but criminal and fanatic; power 5, resistance 5): no term at all."""
    st = attack(duel("crim", "allsorts"), "crim@1", "allsorts@2", purpose)
    assert totals(st) == (4, defence)  # attack 4; defence resistance 5 / power 5
    assert len(tally(st).attack) == 1


@pytest.mark.parametrize(("purpose", "expected"), [("control", (8, 5)), ("destroy", (0, 3))])
def test_i2_criminal_is_shared_with_criminal(purpose: str, expected: tuple[int, int]) -> None:
    """I2: Criminal is an ordinary shared alignment: Pickpockets Guild (power 4) against
    Smugglers Ring (criminal; power 3, resistance 5)."""
    st = attack(duel("crim", "crim2"), "crim@1", "crim2@2", purpose)
    assert totals(st) == expected  # control 4 + 4 vs 5; destroy 4 - 4 vs power 3


@pytest.mark.parametrize(("purpose", "expected"), [("control", (-1, 2)), ("destroy", (7, 5))])
def test_i2_two_fanatic_cards_are_opposed_and_never_shared(purpose: str,
                                                           expected: tuple[int, int]) -> None:
    """I2 "Fanatic is never shared: two Fanatic cards are opposed": Doomsday Choir (power 3)
    against Flat Sky Society (power 5, resistance 2), both fanatic."""
    st = attack(duel("fan", "fan2"), "fan@1", "fan2@2", purpose)
    assert totals(st) == expected  # control 3 - 4 vs 2; destroy 3 + 4 vs power 5


# ----- I3: the defender's position ----------------------------------------------------------
@pytest.mark.parametrize(("depth", "defence"), [(1, 14), (2, 9), (3, 4), (4, 4)])
def test_i3_depth_bonus(depth: int, defence: int) -> None:
    """I3: Plain Folk (resistance 4) directly under its Illuminati +10, two below +5, deeper 0;
    Control Tower (power 7) attacks."""
    st = control(duel("tall", "plain", depth), "tall@1", "plain@2")
    assert totals(st) == (7, defence)  # 4 + 10 / 4 + 5 / 4 + 0 / 4 + 0


def test_i3_control_plus_4_when_the_target_shares_an_alignment_with_its_parent() -> None:
    """I3: Tax Office (government; resistance 4) under Census Bureau (government), depth 3."""
    st = table()
    put(st, 1, "tall", tokens=1)
    chain(st, 2, "f01", "gov2", "gov")
    st = control(st, "tall@1", "gov@2")
    assert totals(st) == (7, 8)  # attack 7; defence 4 + 4


def test_i3_parent_alignment_bonus_is_for_control_only() -> None:
    """I3 "Control attack only": destroying the same Tax Office (power 5) gets no +4."""
    st = table()
    put(st, 1, "tall", tokens=1)
    chain(st, 2, "f01", "gov2", "gov")
    st = destroy(st, "tall@1", "gov@2")
    assert totals(st) == (7, 5)  # attack 7; defence power 5


def test_i3_parent_alignment_bonus_never_for_fanatic() -> None:
    """I3 "a non-Fanatic alignment": Doomsday Choir (fanatic; resistance 3) under Flat Sky
    Society (fanatic) gets no +4."""
    st = table()
    put(st, 1, "tall", tokens=1)
    chain(st, 2, "f01", "fan2", "fan")
    st = control(st, "tall@1", "fan@2")
    assert totals(st) == (7, 3)  # attack 7; defence resistance 3


def test_i3_the_illuminati_is_a_parent_too() -> None:
    """I3: Tax Office (government; resistance 4) directly under Government Lodge (government):
    both the depth bonus and the parent alignment bonus."""
    st = table(ills=["alpha", "govill"])
    put(st, 1, "tall", tokens=1)
    put(st, 2, "gov")
    st = control(st, "tall@1", "gov@2")
    assert totals(st) == (7, 18)  # attack 7; defence 4 + 10 + 4


# ----- the document's other modifiers ---------------------------------------------------------
def test_same_illuminati_plus_5() -> None:
    """各攻撃の処理 "自分と同じイルミナティを使用する対戦相手の攻撃対象への攻撃: +5": both seats
    play Alpha Lodge; Control Tower (power 7) against Plain Folk (resistance 4)."""
    st = control(duel("tall", "plain", ills=["alpha", "alpha"]), "tall@1", "plain@2")
    assert totals(st) == (12, 4)  # attack 7 + 5; defence 4


def test_illuminati_agent_plus_3_for_the_attacker() -> None:
    """エージェントについて: seat 1 has an agent of Beta Cabal, which seat 2 plays: +3."""
    st = duel("tall", "plain")
    st.player(1).agents = ["beta@1"]
    st = control(st, "tall@1", "plain@2")
    assert totals(st) == (10, 4)  # attack 7 + 3; defence 4


def test_illuminati_agent_plus_3_for_the_defender() -> None:
    """各攻撃の処理 "自分が配置したエージェントと、同じイルミナティを使用する相手の攻撃要員から
    の攻撃: +3": seat 2 has an agent of Alpha Lodge, which attacks it."""
    st = duel("tall", "plain")
    st.player(2).agents = ["alpha@2"]
    st = control(st, "tall@1", "plain@2")
    assert totals(st) == (7, 7)  # attack 7; defence 4 + 3


@pytest.mark.parametrize(("purpose", "defence"), [("control", 2), ("destroy", 7)])
def test_base_value_is_resistance_for_control_and_power_for_destroy(purpose: str,
                                                                   defence: int) -> None:
    """各攻撃の処理 "支配目的: 抵抗値 / 破壊目的: パワー値": Control Tower (power 7, resistance
    2) attacked by Plain Folk (power 3)."""
    st = attack(duel("plain", "tall"), "plain@1", "tall@2", purpose)
    assert totals(st) == (3, defence)


def test_global_power_is_used_when_chosen() -> None:
    """各攻撃の処理 "いずれか任意の側を使用する": Satellite Network (power 6, global 4)."""
    st = duel("globe", "plain")
    assert totals(control(st, "globe@1", "plain@2", power="global")) == (4, 4)
    assert totals(control(st, "globe@1", "plain@2")) == (6, 4)


def test_global_power_of_a_card_without_one_is_refused() -> None:
    """Control Tower has no global power (no_global_power)."""
    st = duel("tall", "plain")
    refused(st, {"type": "attack", "seat": 1, "attacker": "tall@1", "target": "plain@2",
                 "purpose": "control", "power": "global"}, "no_global_power")


# ----- supports (攻撃支援・抵抗支援) ----------------------------------------------------------
def supported(purpose: str = "control") -> IlluminatiState:
    """Control Tower (power 7) of seat 1 attacks Tax Office (government; power 5, resistance 4)
    at depth 3 of seat 2; paid, waiting for supports."""
    st = duel("tall", "gov")
    return attack(st, "tall@1", "gov@2", purpose)


def test_support_power_of_a_group_sharing_an_alignment_for_control() -> None:
    """攻撃支援 "支配目的での攻撃対象と同一属性を持つグループ": Census Bureau (government,
    power 3) adds its power and spends its token."""
    st = supported()
    bureau = put(st, 1, "gov2", tokens=1)
    st = support(st, 1, bureau)
    assert totals(st) == (10, 4)  # attack 7 + 3; defence 4
    assert st.player(1).structure[bureau].tokens == 0


def test_support_power_of_a_group_with_an_opposed_alignment_for_destroy() -> None:
    """攻撃支援 "破壊目的での攻撃対象と対立属性を持つグループ": Widget Corp (corporate, power 4)
    against Tax Office (government)."""
    st = supported("destroy")
    corp = put(st, 1, "corp", tokens=1)
    st = support(st, 1, corp)
    assert totals(st) == (11, 5)  # attack 7 + 4; defence power 5


def test_support_power_needs_the_right_alignment() -> None:
    """Widget Corp (opposed) cannot add power to a control attack, Census Bureau (shared) not to
    a destroy attack, Plain Folk (none) to neither (no_power_support)."""
    for purpose, card in (("control", "corp"), ("destroy", "gov2"), ("control", "plain")):
        st = supported(purpose)
        helper = put(st, 1, card, tokens=1)
        refused(st, {"type": "support", "seat": 1, "card": helper, "side": "attack"},
                "no_power_support")


def test_support_global_power_from_any_group() -> None:
    """攻撃支援 / 抵抗支援 "属性に関わらず任意のグループ...グローバルパワー": Satellite Network
    (global 4, no alignment) helps either side."""
    st = supported()
    globe = put(st, 1, "globe", tokens=1)
    assert totals(support(st, 1, globe, "attack", "global")) == (11, 4)  # 7 + 4; 4
    st = supported()
    globe = put(st, 2, "globe", tokens=1)
    assert totals(support(st, 2, globe, "defend", "global")) == (7, 8)  # 7; 4 + 4


def test_support_global_power_of_a_card_without_one_is_refused() -> None:
    """Plain Folk has no global power (no_global_power)."""
    st = supported()
    folk = put(st, 1, "plain", tokens=1)
    refused(st, {"type": "support", "seat": 1, "card": folk, "side": "attack", "use": "global"},
            "no_global_power")


def test_support_by_the_target_itself_adds_its_power() -> None:
    """抵抗支援 "攻撃対象自身: ...パワー値分の値を、防御力に加算" (power, even against a control
    attack); the token is spent, so a second support is refused (no_token)."""
    st = duel("tall", "gov")
    st.player(2).structure["gov@2"].tokens = 1
    st = control(st, "tall@1", "gov@2")
    st = support(st, 2, "gov@2", "defend")
    assert totals(st) == (7, 9)  # attack 7; defence resistance 4 + power 5
    assert st.player(2).structure["gov@2"].tokens == 0
    refused(st, {"type": "support", "seat": 2, "card": "gov@2", "side": "defend"}, "no_token")


def test_support_by_the_parent_and_a_child_of_the_target() -> None:
    """抵抗支援 "攻撃対象に隣接する...グループ(親子)": Filler 02 (parent) and Filler 03 (child),
    power 1 each, defend Tax Office; Filler 01 (grandparent, no alignment) cannot."""
    st = duel("tall", "gov")
    f03 = put(st, 2, "f03", "gov@2")
    for card in ("f01@2", "f02@2", f03):
        st.player(2).structure[card].tokens = 1
    st = control(st, "tall@1", "gov@2")
    refused(st, {"type": "support", "seat": 2, "card": "f01@2", "side": "defend"},
            "no_power_support")
    st = support(st, 2, "f02@2", "defend")
    st = support(st, 2, f03, "defend")
    assert totals(st) == (7, 6)  # attack 7; defence 4 + 1 + 1


def test_support_by_the_illuminati_next_to_the_target() -> None:
    """抵抗支援 "攻撃対象に隣接するイルミナティ": Beta Cabal (power 9) defends Tax Office hanging
    directly from it."""
    st = duel("tall", "gov", depth=1)
    st.player(2).structure[ill(st, 2)].tokens = 1
    st = support(control(st, "tall@1", "gov@2"), 2, "illuminati", "defend")
    assert totals(st) == (7, 23)  # attack 7; defence 4 + 10 (depth 1) + 9


def test_support_defence_by_a_group_sharing_an_alignment() -> None:
    """抵抗支援 "攻撃対象と同一属性を持つグループ": Census Bureau (government, power 3), not next
    to Tax Office, defends it."""
    st = supported()
    bureau = put(st, 2, "gov2", tokens=1)
    assert totals(support(st, 2, bureau, "defend")) == (7, 7)  # 7; 4 + 3


def test_group_agent_plus_10_attacking_and_plus_6_defending() -> None:
    """攻撃支援 "グループのエージェント: 攻撃力 +10"; 抵抗支援 "防御力 +6": seat 1 plays its
    copy of Tax Office for the attack, seat 3 its copy for the defence."""
    st = duel("tall", "gov", n=3)
    st.player(1).group_hand = ["gov@1"]
    st.player(3).group_hand = ["gov@3"]
    st = control(st, "tall@1", "gov@2")
    st = play(st, {"type": "agent", "seat": 1, "card": "gov@1", "side": "attack"})
    st = play(st, {"type": "agent", "seat": 3, "card": "gov@3", "side": "defend"})
    assert totals(st) == (17, 10)  # attack 7 + 10; defence 4 + 6
    assert st.player(1).group_hand == [] and st.player(3).group_hand == []


def test_group_agent_only_one_per_side() -> None:
    """攻撃支援 "1回の攻撃で 1枚まで": seat 3's second attacking agent is refused."""
    st = duel("tall", "gov", n=3)
    st.player(1).group_hand = ["gov@1"]
    st.player(3).group_hand = ["gov@3"]
    st = control(st, "tall@1", "gov@2")
    st = play(st, {"type": "agent", "seat": 1, "card": "gov@1", "side": "attack"})
    refused(st, {"type": "agent", "seat": 3, "card": "gov@3", "side": "attack"},
            "agent_already_played")


def test_group_agent_not_for_a_group_of_your_own_structure() -> None:
    """エージェントについて "自分の権力構造図に存在するカードと同一カードは...使用できない":
    seat 2 cannot defend its own Tax Office with its second copy."""
    st = supported()
    st.player(2).group_hand = ["gov@2.2"]
    refused(st, {"type": "agent", "seat": 2, "card": "gov@2.2", "side": "defend"},
            "agent_of_own_group")


def test_group_agent_not_for_your_own_hand_group() -> None:
    """エージェントについて "エージェントとして使用できるのは、場に存在する対戦相手の...グループ
    と同一のカード": seat 1 attacks its own Plain Folk from hand; that is no opponent's group,
    so seat 1's second copy cannot be its attacking agent."""
    st = attack(hand_target(), "giant@1", "plain@1")
    st.player(1).group_hand = ["plain@1.2"]
    refused(st, {"type": "agent", "seat": 1, "card": "plain@1.2", "side": "attack"},
            "agent_of_own_group")


def test_group_agent_must_be_a_copy_of_the_target() -> None:
    """Only a card of the target's name is its agent (not_an_agent)."""
    st = supported()
    st.player(1).group_hand = ["gov2@1"]
    refused(st, {"type": "agent", "seat": 1, "card": "gov2@1", "side": "attack"}, "not_an_agent")


def test_support_needs_a_token() -> None:
    """攻撃支援 "アクショントークンを 1つ消費することで": a group without a token cannot help."""
    st = supported()
    bureau = put(st, 1, "gov2")
    refused(st, {"type": "support", "seat": 1, "card": bureau, "side": "attack"}, "no_token")


def test_a_support_reopens_the_passing_round() -> None:
    """The dice wait until every player still in the game has passed after the last support:
    seat 1 passed, seat 2 supports, so seat 1 is asked again."""
    st = supported()
    bureau = put(st, 2, "gov2", tokens=1)
    st = play(st, {"type": "pass", "seat": 1})
    assert G.to_act(st) == [2]
    st = support(st, 2, bureau, "defend")
    assert G.to_act(st) == [1, 2]


# ----- I4: the roll ---------------------------------------------------------------------------
@pytest.mark.parametrize("dice", [(5, 6), (6, 6)])
def test_i4_a_roll_of_11_or_12_always_fails(dice: tuple[int, int]) -> None:
    """I4: World Bank (power 30) against Plain Folk (resistance 4): achieved 26, still a roll of
    11 or 12 fails."""
    st = control(duel("giant", "plain"), "giant@1", "plain@2")
    assert tally(st).achieved == 26  # 30 - 4
    st = resolve(st, dice)
    assert "plain@2" in st.player(2).structure
    assert "plain@2" not in st.player(1).structure


def test_i4_achieved_equal_to_the_roll_succeeds() -> None:
    """I4 "succeeds iff achieved >= roll": achieved 3 (7 - 4), roll 1 + 2 = 3."""
    st = control(duel("tall", "plain"), "tall@1", "plain@2")
    assert tally(st).achieved == 3  # 7 - 4
    st = resolve(st, (1, 2))
    assert st.player(1).structure["plain@2"].parent == "tall@1"


def test_i4_achieved_one_below_the_roll_fails() -> None:
    """I4: achieved 3, roll 2 + 2 = 4: fails."""
    st = control(duel("tall", "plain"), "tall@1", "plain@2")
    st = resolve(st, (2, 2))
    assert "plain@2" in st.player(2).structure


# ----- I5: instant attacks ------------------------------------------------------------------
def instant(target: str, power_mod: int = 0) -> IlluminatiState:
    """Seat 1 holds Hired Assassin (instant attack, power 5); ``target`` hangs directly under
    seat 2's Illuminati (where an ordinary attack would meet +10)."""
    st = table()
    put(st, 2, target)
    st.player(2).structure[f"{target}@2"].power_mod = power_mod
    st.player(1).plot_hand = ["hit5@1"]
    return play(st, {"type": "instant_attack", "seat": 1, "plot": "hit5@1",
                     "target": f"{target}@2"}, NoChance())


def test_i5_instant_attack_destroys_when_plot_power_reaches_target_power() -> None:
    """I5: power 5 against Tax Office (power 5): destroyed, no support and no dice (NoChance);
    the plot is discarded."""
    st = instant("gov")
    assert "gov@2" not in st.player(2).structure
    assert st.player(1).destroyed == ["gov@2"]
    assert st.player(1).discard == ["hit5@1"] and st.player(1).plot_hand == []
    assert st.attack is None


def test_i5_instant_attack_fails_against_more_power() -> None:
    """I5: power 5 against Control Tower (power 7): nothing happens but the plot is spent."""
    st = instant("tall")
    assert "tall@2" in st.player(2).structure
    assert st.player(1).destroyed == [] and st.player(1).discard == ["hit5@1"]


def test_i5_instant_attack_compares_printed_power() -> None:
    """I5 "the target's printed power": Control Tower (printed 7) reduced to 2 still resists a
    power-5 instant attack."""
    st = instant("tall", power_mod=-5)
    assert "tall@2" in st.player(2).structure


# ----- consequences (攻撃後の処理) -------------------------------------------------------------
def test_destroy_sends_the_target_to_the_attackers_pile_and_the_rest_to_owners_hands() -> None:
    """攻撃後の処理 "破壊目的: 攻撃側の破壊の山...下流部分にカードがある場合は、すべてそれぞれ
    持ち主の手札に": Tax Office goes to seat 1's destroyed pile; the fillers below it go to seat
    2's hand and Pickpockets Guild (owned by seat 3) to seat 3's hand."""
    st = table(3)
    put(st, 1, "giant", tokens=1)
    gov = put(st, 2, "gov")
    put(st, 2, "f01", gov, "right")
    put(st, 2, "f02", "f01@2", "right")
    put(st, 2, "crim@3", gov, "bottom")
    st = destroy(st, "giant@1", gov)
    assert totals(st) == (30, 15)  # attack 30; defence power 5 + 10 (depth 1)
    st = resolve(st, (1, 1))
    assert st.player(1).destroyed == ["gov@2"]
    assert sorted(st.player(2).group_hand) == ["f01@2", "f02@2"]
    assert st.player(3).group_hand == ["crim@3"]
    assert set(st.player(2).structure) == {"beta@2", "d02@2"}


def test_control_moves_the_subtree_to_the_chosen_arrow_without_tokens() -> None:
    """攻撃後の処理 "支配目的: ...接続関係がそのままの状態でグループごと配置...アクショントークン
    は、すべて取り除かれる": Tax Office and its two fillers hang from World Bank's left arrow."""
    st = table()
    put(st, 1, "giant", tokens=1)
    gov = put(st, 2, "gov", tokens=1)
    put(st, 2, "f01", gov, "bottom", tokens=1)
    put(st, 2, "f02", "f01@2", "left", tokens=1)
    st = attack(st, "giant@1", gov, "control", arrow="left")
    st = resolve(st, (1, 1))
    nodes = st.player(1).structure
    assert (nodes["gov@2"].parent, nodes["gov@2"].arrow) == ("giant@1", "left")
    assert (nodes["f01@2"].parent, nodes["f01@2"].arrow) == ("gov@2", "bottom")
    assert (nodes["f02@2"].parent, nodes["f02@2"].arrow) == ("f01@2", "left")
    assert all(nodes[c].tokens == 0 for c in ("gov@2", "f01@2", "f02@2"))
    assert set(st.player(2).structure) == {"beta@2", "d02@2"}


def test_control_needs_a_free_arrow_on_the_attacker() -> None:
    """攻撃の宣言 "支配目的で攻撃する場合は、攻撃要員が持つ支配する側の支配矢印が 1つ以上空いて
    いる必要": Lonely Hermit has no arrow (no_free_arrow)."""
    st = duel("leaf", "plain")
    refused(st, {"type": "attack", "seat": 1, "attacker": "leaf@1", "target": "plain@2",
                 "purpose": "control"}, "no_free_arrow")


def hand_target() -> IlluminatiState:
    """Seat 1: World Bank with a token, Plain Folk in its group hand."""
    st = table()
    put(st, 1, "giant", tokens=1)
    st.player(1).group_hand = ["plain@1"]
    return st


def test_control_of_a_hand_group_places_it_loose_and_abort_returns_it() -> None:
    """攻撃の宣言 "手札から場の空いている箇所に一時配置"; "攻撃を中止した場合、手札から出した
    グループカードは...手札に戻る"."""
    st = declare(hand_target(), "giant@1", "plain@1")
    assert st.player(1).loose == ["plain@1"] and st.player(1).group_hand == []
    st = play(st, {"type": "abort_attack", "seat": 1})
    assert st.player(1).loose == [] and st.player(1).group_hand == ["plain@1"]
    assert st.attack is None and st.player(1).structure["giant@1"].tokens == 1


def test_control_of_a_hand_group_succeeds_without_position_bonuses() -> None:
    """A loose hand group defends with its resistance only; on success it joins the structure
    under the attacker."""
    st = attack(hand_target(), "giant@1", "plain@1")
    assert totals(st) == (30, 4)  # attack 30; defence resistance 4
    st = resolve(st, (1, 1))
    assert st.player(1).structure["plain@1"].parent == "giant@1"
    assert st.player(1).loose == []


def test_a_failed_hand_attack_leaves_the_group_loose_until_end_of_turn() -> None:
    """ターン終了 "攻撃対象として出した手札のグループカードが支配されないまま場に残っている
    場合、捨て札として破棄される"."""
    st = resolve(attack(hand_target(), "giant@1", "plain@1"), (6, 6))
    assert st.player(1).loose == ["plain@1"]
    st = play(st, {"type": "end_turn", "seat": 1})
    assert st.player(1).loose == [] and st.player(1).discard == ["plain@1"]


def test_a_hand_group_already_attacked_stays_loose_on_abort() -> None:
    """"(既に別の攻撃を受けていない限りは)手札に戻る": after a failed attack, a second attack on
    the loose group is aborted and the group stays loose."""
    st = resolve(attack(hand_target(), "giant@1", "plain@1"), (6, 6))
    st.player(1).structure["giant@1"].tokens = 1
    st = declare(st, "giant@1", "plain@1")
    st = play(st, {"type": "abort_attack", "seat": 1})
    assert st.player(1).loose == ["plain@1"] and st.player(1).group_hand == []


def test_attack_plot_and_agents_are_discarded_after_the_attack() -> None:
    """攻撃後の処理 "今回の攻撃で使用したプロットカードやエージェントなどを、すべて捨て札":
    Alpha Lodge (no token) attacks with Midnight Raid; seat 1 plays its Tax Office agent."""
    st = duel("plain", "gov")
    st.player(1).plot_hand = ["raid@1"]
    st.player(1).group_hand = ["gov@1"]
    st = control(st, "illuminati", "gov@2", plot="raid@1")
    assert st.player(1).plot_hand == []
    st = play(st, {"type": "agent", "seat": 1, "card": "gov@1", "side": "attack"})
    assert totals(st) == (20, 4)  # attack Alpha Lodge 10 + agent 10; defence 4
    st = resolve(st, (6, 6))
    assert sorted(st.player(1).discard) == ["gov@1", "raid@1"]


def test_only_the_illuminati_or_a_group_holding_a_token_attacks() -> None:
    """攻撃の宣言 "イルミナティまたはアクショントークンを保有しているグループ"."""
    st = duel("plain", "gov")
    st.player(1).structure["plain@1"].tokens = 0
    refused(st, {"type": "attack", "seat": 1, "attacker": "plain@1", "target": "gov@2",
                 "purpose": "control"}, "attacker_has_no_token")


def test_own_group_may_be_attacked_only_to_destroy() -> None:
    """攻撃の宣言 "自分の権力構造図にあるいずれかのグループ 1つ(破壊目的のみ)"."""
    st = duel("tall", "plain")
    refused(st, {"type": "attack", "seat": 1, "attacker": "tall@1", "target": "d01@1",
                 "purpose": "control"}, "own_group")
    st = destroy(st, "tall@1", "d01@1")
    assert st.attack is not None and st.attack.target_seat == 1


# ----- aborting (攻撃の中止) ------------------------------------------------------------------
def test_abort_before_paying_changes_nothing() -> None:
    """攻撃の宣言 "アクショントークンを取り除いたりプロットカードを使用するまでは、途中で攻撃の
    中止を宣言できる"."""
    st = duel("tall", "plain")
    st = play(declare(st, "tall@1", "plain@2"), {"type": "abort_attack", "seat": 1})
    assert st.attack is None
    assert st.player(1).structure["tall@1"].tokens == 1


def test_abort_after_paying_is_refused() -> None:
    """Once paid the attack goes on (attack_stage)."""
    st = control(duel("tall", "plain"), "tall@1", "plain@2")
    refused(st, {"type": "abort_attack", "seat": 1}, "attack_stage")
    assert st.player(1).structure["tall@1"].tokens == 0


def test_i4_the_resolved_attack_is_an_effect_with_its_totals_roll_and_verdict() -> None:
    """What the rules decided at the roll is reported, not recomputed: achieved 3 (7 - 4),
    roll 1 + 2 = 3, succeeds; the controlled group moves under the attacker."""
    st = control(duel("tall", "plain"), "tall@1", "plain@2")
    for seat in G.to_act(st)[:-1]:
        st = play(st, {"type": "pass", "seat": seat})
    step = G.step(st, {"type": "pass", "seat": G.to_act(st)[-1]}, SuppliedChance([1, 2]))
    (resolved,) = [e for e in step.effects if isinstance(e, AttackResolved)]
    assert (resolved.attack_total, resolved.defence_total, resolved.achieved) == (7, 4, 3)
    assert (resolved.dice, resolved.roll, resolved.succeeded) == ((1, 2), 3, True)
    assert dict(resolved.attack_terms) and dict(resolved.defence_terms)
    moved = [e for e in step.effects if isinstance(e, CardMoved) and e.card == "plain@2"]
    assert [(m.source.seat, m.target.seat) for m in moved if m.source and m.target] == [(2, 1)]
    line = G.describe({"type": "pass", "seat": 2}, [], JUDGE, st, step.effects)
    assert "attack 7 - defence 4 = 3; roll 1+2 = 3 (3 >= 3): it succeeds." in line
