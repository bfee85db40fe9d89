"""The worked attack calculation of docs/games/illuminati.md, computed by the engine."""

from __future__ import annotations

import copy

from engine import GameState, MatchConfig, SuppliedChance, get_game
from engine.illuminati import combat
from engine.illuminati.model import IlluminatiState, Node
from ledger.catalog import sample_card_set

RULES = get_game("illuminati")
ANN_DECK = {"sealed-envelope": 1, "bottomless-mug": 1, "riverside-city-hall": 1,
            "senator-plinth": 1, "municipal-parking-authority": 1}
BEN_DECK = {"bottomless-mug": 1, "national-bureau-of-forms": 1,
            "municipal-parking-authority": 1, "golden-acres-village": 1}


def _position() -> IlluminatiState:
    """Ann (Sealed Envelope) against Ben (Bottomless Mug), as in the rules page."""
    config = MatchConfig(players=["Ann", "Ben"], decks=[ANN_DECK, BEN_DECK],
                         cards=sample_card_set("illuminati").cards,
                         options={"deck_check": "off"})
    st: GameState = RULES.setup(config, SuppliedChance([]))
    st = RULES.apply(st, {"type": "reveal_illuminati", "seat": 1,
                          "choices": {1: "sealed-envelope", 2: "bottomless-mug"}},
                     SuppliedChance(["bottomless-mug@1"]))
    st = RULES.apply(st, {"type": "reveal_groups", "seat": 1,
                          "choices": {1: "riverside-city-hall", 2: "national-bureau-of-forms"}},
                     SuppliedChance(["municipal-parking-authority@1", "senator-plinth@1",
                                     "golden-acres-village@2", "municipal-parking-authority@2",
                                     6, 6, 1, 1]))
    assert isinstance(st, IlluminatiState)
    st = copy.deepcopy(st)
    ann, ben = st.player(1), st.player(2)
    ann.group_hand.remove("senator-plinth@1")
    ann.structure["senator-plinth@1"] = Node(
        card="senator-plinth@1", parent="riverside-city-hall@1", arrow="right", tokens=1)
    ann.structure["riverside-city-hall@1"].tokens = 1
    ann.plot_hand.remove("bottomless-mug@1")
    ann.agents.append("bottomless-mug@1")
    ben.group_hand.remove("municipal-parking-authority@2")
    ben.structure["municipal-parking-authority@2"] = Node(
        card="municipal-parking-authority@2", parent="national-bureau-of-forms@2", arrow="right")
    ben.structure["national-bureau-of-forms@2"].tokens = 1
    st.phase = "main"
    return st


def test_the_rules_page_example_adds_up() -> None:
    st: GameState = _position()
    steps = [
        {"type": "attack", "seat": 1, "attacker": "riverside-city-hall",
         "target": "municipal-parking-authority", "purpose": "control"},
        {"type": "pay_attack", "seat": 1},
        {"type": "support", "seat": 1, "card": "senator-plinth", "side": "attack"},
        {"type": "agent", "seat": 1, "card": "municipal-parking-authority", "side": "attack"},
        {"type": "support", "seat": 2, "card": "national-bureau-of-forms", "side": "defend"},
    ]
    for step in steps:
        st = RULES.apply(st, step, SuppliedChance([]))
    assert isinstance(st, IlluminatiState) and st.attack is not None
    t = combat.tally(st, st.attack)
    # 5 (City Hall) + 4 (shares Government) + 3 (agent of the Mug) + 3 (Senator) + 10 (agent)
    assert [v for _, v in t.attack] == [5, 4, 3, 3, 10] and t.attack_total == 25
    # 4 (resistance) + 5 (two below) + 4 (shares Government with its parent) + 5 (Bureau)
    assert [v for _, v in t.defence] == [4, 5, 4, 5] and t.defence_total == 18
    assert t.achieved == 7
    st = RULES.apply(st, {"type": "pass", "seat": 1}, SuppliedChance([]))
    st = RULES.apply(st, {"type": "pass", "seat": 2}, SuppliedChance([3, 4]))
    assert isinstance(st, IlluminatiState)
    assert "municipal-parking-authority@2" in st.player(1).structure
    assert st.player(1).structure["municipal-parking-authority@2"].parent == \
        "riverside-city-hall@1"
    assert "municipal-parking-authority@1" in st.player(1).discard
