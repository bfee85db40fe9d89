"""Blind Bid's rules, one test each, the expectations worked out by hand.

The sample set's card ``bb-0N`` has value N (bb-01 Pebble 1 ... bb-09 Comet 9).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import JUDGE, SPECTATOR, MatchConfig, SetupError, SuppliedChance, Viewer, games
from engine.core.chance import CardDrawn, NoChance
from engine.core.contract import replace_state
from engine.core.effects import CardMoved
from tests.support import RandomChance, apply_checked, refused_checked, sample_config, sample_data
from tests.toygame import BlindBid
from tests.toygame.model import BlindBidState
from tests.toygame.round import BidsRevealed

RULES = BlindBid()
SEAT1, SEAT2 = Viewer("seat", 1), Viewer("seat", 2)


def _match(players: int = 2, **zones: Any) -> BlindBidState:
    """A match on the sample decks, its zones then set by hand (``hands={1: [...]}``...)."""
    state = RULES.setup(sample_config(RULES, players), RandomChance(random.Random(0)))
    new = replace_state(state, **zones)
    assert isinstance(new, BlindBidState)
    return new


def _bid(seat: int, card: str) -> dict[str, Any]:
    return {"type": "bid", "seat": seat, "card": card}


def _state(state: Any) -> BlindBidState:
    assert isinstance(state, BlindBidState)
    return state


def test_setup_draws_four_cards_each_seen_only_by_their_seat() -> None:
    chance = RandomChance(random.Random(1))
    state = _state(RULES.setup(sample_config(RULES, 3), chance))
    assert [len(state.hands[s]) for s in (1, 2, 3)] == [4, 4, 4]
    assert [len(state.decks[s]) for s in (1, 2, 3)] == [8, 8, 8]
    assert [(o.kind, getattr(o, "seat", None)) for o in chance.outcomes] == \
        [("draw", 1)] * 4 + [("draw", 2)] * 4 + [("draw", 3)] * 4
    assert all(isinstance(o, CardDrawn) for o in chance.outcomes)
    seen = RULES.view(state, SEAT1)["seats"]
    assert [c["id"] for c in seen[0]["hand"]] == state.hands[1]
    assert seen[1]["hand"] is None and seen[1]["hand_count"] == 4
    assert seen[0]["deck"] is None and seen[0]["deck_count"] == 8


def test_a_bid_is_hidden_from_the_others_until_all_have_bid() -> None:
    state = _match(hands={1: ["bb-07", "bb-02"], 2: ["bb-05", "bb-03"]})
    after = _state(apply_checked(RULES, state, _bid(1, "bb-07")))
    assert after.bids == {1: "bb-07"} and after.hands[1] == ["bb-02"]
    assert RULES.to_act(after) == [2]  # the game waits on the seat that has not bid
    assert RULES.view(after, SEAT1)["seats"][0]["bid"]["id"] == "bb-07"
    assert RULES.view(after, SEAT2)["seats"][0]["bid"] == "face down"
    assert RULES.view(after, SPECTATOR)["seats"][0]["bid"] == "face down"
    assert RULES.view(after, SEAT2)["seats"][1]["bid"] is None
    recorded = _bid(1, "bb-07")
    assert RULES.redact_action(recorded, SEAT2)["card"] is None
    assert RULES.redact_action(recorded, SEAT1)["card"] == "bb-07"
    assert RULES.describe(recorded, [], SEAT2, state) == "Seat 1 bids a card face down."
    assert RULES.describe(recorded, [], SEAT1, state) == "Seat 1 bids Telescope (7) face down."


def test_the_last_bid_reveals_every_bid_together_in_the_effect_and_the_line() -> None:
    state = _match(hands={1: ["bb-07"], 2: ["bb-05"]}, decks={1: ["bb-01"], 2: ["bb-02"]})
    state = _state(apply_checked(RULES, state, _bid(1, "bb-07")))
    step = RULES.step(state, _bid(2, "bb-05"), SuppliedChance(["bb-01", "bb-02"]))
    revealed = [e for e in step.effects if isinstance(e, BidsRevealed)]
    assert revealed == [BidsRevealed(bids=((1, "bb-07", 7), (2, "bb-05", 5)), high=7, winner=1)]
    line = RULES.describe(_bid(2, "bb-05"), [{"kind": "draw", "value": "bb-01", "seat": 1},
                                             {"kind": "draw", "value": "bb-02", "seat": 2}],
                          SPECTATOR, state, step.effects)
    assert line == ("Seat 2 bids a card face down. Bids revealed: seat 1 Telescope (7), "
                    "seat 2 Kettle (5); seat 1 wins the round with 7. Seat 1 draws a card. "
                    "Seat 2 draws a card.")
    # the revealed cards moved face up: every viewer is told which
    moved = [e for e in RULES.effects_seen_by(step.effects, SPECTATOR)
             if isinstance(e, CardMoved) and e.target is not None and e.target.zone == "won"]
    assert sorted(str(e.card) for e in moved) == ["bb-05", "bb-07"]


def test_the_single_highest_value_takes_every_bid_card() -> None:
    # 3 seats bid 4, 9, 4: the 9 is the single highest, though the 4s tie with each other
    state = _match(3, hands={1: ["bb-04", "bb-01"], 2: ["bb-09", "bb-01"], 3: ["bb-04", "bb-01"]},
                   decks={1: [], 2: [], 3: []})
    for seat, card in ((2, "bb-09"), (1, "bb-04"), (3, "bb-04")):
        state = _state(apply_checked(RULES, state, _bid(seat, card)))
    assert state.won == {1: [], 2: ["bb-04", "bb-09", "bb-04"], 3: []}
    assert state.discard == [] and state.bids == {}
    assert RULES.scores(state) == {1: 0, 2: 4 + 9 + 4, 3: 0}


def test_a_tied_highest_value_sends_the_bids_to_the_discard_pile() -> None:
    state = _match(3, hands={1: ["bb-08", "bb-01"], 2: ["bb-08", "bb-01"], 3: ["bb-06", "bb-01"]},
                   decks={1: [], 2: [], 3: []})
    for seat, card in ((1, "bb-08"), (2, "bb-08"), (3, "bb-06")):
        state = _state(apply_checked(RULES, state, _bid(seat, card)))
    assert state.won == {1: [], 2: [], 3: []}
    assert state.discard == ["bb-08", "bb-08", "bb-06"]
    step = RULES.step(_match(hands={1: [], 2: ["bb-03"]}, bids={1: "bb-03"},
                             decks={1: ["bb-01"], 2: ["bb-01"]}),
                      _bid(2, "bb-03"), SuppliedChance(["bb-01", "bb-01"]))
    assert [e for e in step.effects if isinstance(e, BidsRevealed)] == \
        [BidsRevealed(bids=((1, "bb-03", 3), (2, "bb-03", 3)), high=3, winner=None)]
    assert RULES.describe(_bid(2, "bb-03"), [], JUDGE, None, step.effects).endswith(
        "Bids revealed: seat 1 bb-03, seat 2 bb-03; 3 is tied: the bids go to the discard pile.")


def test_after_a_round_each_seat_draws_one_card_if_its_deck_is_not_empty() -> None:
    state = _match(hands={1: ["bb-02", "bb-03"], 2: ["bb-04", "bb-05"]},
                   decks={1: ["bb-09", "bb-09"], 2: []})
    state = _state(apply_checked(RULES, state, _bid(1, "bb-02")))
    chance = SuppliedChance(["bb-09"])  # seat 1 draws; seat 2's deck is empty: no draw
    after = _state(apply_checked(RULES, state, _bid(2, "bb-04"), chance))
    chance.finish()
    assert [(o.kind, o.value, getattr(o, "seat", None)) for o in chance.outcomes] == \
        [("draw", "bb-09", 1)]
    assert after.hands == {1: ["bb-03", "bb-09"], 2: ["bb-05"]}
    assert after.decks == {1: ["bb-09"], 2: []}
    assert after.turn == state.turn + 1  # one round is one turn


def test_the_match_ends_when_a_hand_is_empty_at_the_start_of_a_round() -> None:
    # seat 2 bids its last card; decks are empty, so the next round would start with no card
    state = _match(hands={1: ["bb-06", "bb-01"], 2: ["bb-02"]}, decks={1: [], 2: []},
                   won={1: ["bb-03"], 2: ["bb-09"]})
    state = _state(apply_checked(RULES, state, _bid(1, "bb-06")))
    assert RULES.outcome(state) is None
    end = _state(apply_checked(RULES, state, _bid(2, "bb-02")))
    # seat 1 wins the round: 3 + 6 + 2 = 11 points against seat 2's 9
    assert RULES.scores(end) == {1: 11, 2: 9}
    result = RULES.outcome(end)
    assert result is not None and result.reason == "hand_empty"
    assert (result.winners, result.losers, result.drawn) == ([1], [2], False)
    assert RULES.to_act(end) == [] and list(RULES.legal_actions(end, 1)) == []
    refused_checked(RULES, end, _bid(1, "bb-01"), "match_over")


def test_equal_points_at_the_end_are_a_draw() -> None:
    state = _match(hands={1: ["bb-05"], 2: ["bb-05"]}, decks={1: [], 2: []},
                   won={1: ["bb-07"], 2: ["bb-03", "bb-04"]}, bids={1: "bb-05"})
    state = _state(replace_state(state, hands={1: [], 2: ["bb-05"]}))
    end = apply_checked(RULES, state, _bid(2, "bb-05"))  # tied 5s: discarded; 7 points each
    assert RULES.scores(end) == {1: 7, 2: 7}
    result = RULES.outcome(end)
    assert result is not None and result.reason == "hand_empty"
    assert (result.winners, result.losers, result.drawn) == ([], [], True)


def test_the_turn_limit_is_decided_on_points() -> None:
    config = sample_config(RULES, 2, {"turn_limit": 1})
    state = RULES.setup(config, RandomChance(random.Random(2)))
    state = replace_state(state, hands={1: ["bb-08"], 2: ["bb-02"]}, decks={1: ["bb-01"],
                                                                          2: ["bb-01"]})
    state = apply_checked(RULES, state, _bid(1, "bb-08"))
    end = apply_checked(RULES, state, _bid(2, "bb-02"), SuppliedChance(["bb-01", "bb-01"]))
    result = RULES.outcome(end)
    assert result is not None and result.reason == "turn_limit" and result.winners == [1]


def test_legal_actions_are_one_bid_per_distinct_card_for_seats_still_to_bid() -> None:
    state = _match(hands={1: ["bb-05", "bb-02", "bb-05"], 2: ["bb-01", "bb-09"]})
    assert [a.card for a in RULES.legal_actions(state, 1)] == ["bb-02", "bb-05"]
    assert sorted(RULES.to_act(state)) == [1, 2]
    after = apply_checked(RULES, state, _bid(2, "bb-09"))
    assert list(RULES.legal_actions(after, 2)) == []
    assert [a.card for a in RULES.legal_actions(after, 1)] == ["bb-02", "bb-05"]


def test_bids_are_refused_with_their_reasons() -> None:
    state = _match(hands={1: ["bb-05", "bb-02"], 2: ["bb-01", "bb-09"]})
    refused_checked(RULES, state, _bid(1, "bb-09"), "card_not_in_hand")
    after = apply_checked(RULES, state, _bid(1, "bb-05"))
    refused_checked(RULES, after, _bid(1, "bb-02"), "already_bid")
    refused_checked(RULES, after, _bid(3, "bb-02"), "no_such_seat")


def test_deck_construction_is_twelve_cards_at_most_two_of_a_value() -> None:
    cards, decks = sample_data(RULES)
    players = ["A", "B"]
    for deck in decks:
        assert sum(deck.values()) == 12
    short = {c: n for c, n in decks[0].items() if c != "bb-08"}  # low tide's one 8 out: 11
    with pytest.raises(SetupError) as info:
        RULES.setup(MatchConfig(players=players, decks=[short, decks[1]], cards=cards),
                    NoChance())
    assert info.value.reason == "deck_size"
    three = {"bb-01": 3, "bb-02": 2, "bb-03": 2, "bb-04": 2, "bb-05": 2, "bb-06": 1}
    with pytest.raises(SetupError) as info:
        RULES.setup(MatchConfig(players=players, decks=[decks[0], three], cards=cards),
                    NoChance())
    assert info.value.reason == "too_many_copies" and info.value.details == {"seat": 2}
    # two card definitions of one value count together
    twin = {**cards, "bb-01b": {"id": "bb-01b", "name": "Pebble Twin", "value": 1}}
    mixed = {"bb-01": 2, "bb-01b": 1, "bb-02": 2, "bb-03": 2, "bb-04": 2, "bb-05": 2, "bb-06": 1}
    with pytest.raises(SetupError) as info:
        RULES.setup(MatchConfig(players=players, decks=[mixed, decks[1]], cards=twin),
                    NoChance())
    assert info.value.reason == "too_many_copies"
    RULES.setup(MatchConfig(players=players, decks=[three, decks[1]], cards=cards,
                            options={"deck_check": "off"}), RandomChance(random.Random(0)))


def test_judges_move_cards_between_hands_decks_won_and_discard_but_set_no_counter() -> None:
    state = _match(hands={1: ["bb-05"], 2: ["bb-01", "bb-02"]}, won={1: [], 2: ["bb-09"]})
    won_to_won: dict[str, Any] = {"card": "bb-09", "from_zone": "won", "to_zone": "won",
                                  "to_seat": 1}
    move = {"type": "adjust", "seat": 2, "reason": "card effect", "move": won_to_won}
    after = _state(apply_checked(RULES, state, move))
    assert after.won == {1: ["bb-09"], 2: []} and RULES.scores(after) == {1: 9, 2: 0}
    to_discard = {**move, "move": {"card": "bb-01", "from_zone": "hand", "to_zone": "discard"}}
    assert _state(apply_checked(RULES, after, to_discard)).discard == ["bb-01"]
    refused_checked(RULES, state, {**move, "move": {**won_to_won, "card": "bb-08"}},
                    "card_not_in_zone")
    refused_checked(RULES, state, {**move, "move": {**won_to_won, "to_zone": "bid"}},
                    "bad_zone")
    refused_checked(RULES, state, {**move, "move": {**won_to_won, "from_zone": "won:1"}},
                    "bad_zone")
    refused_checked(RULES, state, {"type": "adjust", "seat": 1, "reason": "a counter",
                                   "counter": {"name": "points", "value": 3}}, "bad_counter")


def test_a_judge_emptying_a_hand_at_the_start_of_a_round_ends_the_match() -> None:
    state = _match(hands={1: ["bb-05"], 2: ["bb-01"]}, won={1: [], 2: ["bb-02"]})
    move = {"type": "adjust", "seat": 1, "reason": "card effect",
            "move": {"card": "bb-05", "from_zone": "hand", "to_zone": "deck"}}
    end = RULES.apply(state, move, NoChance())
    result = RULES.outcome(end)
    assert result is not None and result.reason == "hand_empty" and result.winners == [2]


def test_a_concession_voids_the_round_in_progress() -> None:
    state = _match(3, hands={1: ["bb-05"], 2: ["bb-07", "bb-01"], 3: ["bb-03"]})
    state = _state(apply_checked(RULES, state, _bid(1, "bb-05")))
    state = _state(apply_checked(RULES, state, _bid(2, "bb-07")))
    after = _state(apply_checked(RULES, state, {"type": "concede", "seat": 3}))
    # the face-down bids go back to hand unrevealed; seats 1 and 2 bid again
    assert after.bids == {} and after.hands[1] == ["bb-05"] and after.hands[2] == ["bb-01",
                                                                                   "bb-07"]
    assert after.eliminated == [3] and RULES.outcome(after) is None
    assert sorted(RULES.to_act(after)) == [1, 2]
    step = RULES.step(state, {"type": "concede", "seat": 3}, NoChance())
    assert not any(isinstance(e, BidsRevealed) for e in step.effects)
    assert all(e.card is None for e in RULES.effects_seen_by(step.effects, SPECTATOR)
               if isinstance(e, CardMoved))


def test_the_toy_is_registered_only_inside_the_ledger_suite() -> None:
    """tests/ledger/test_games.py registers it for its own module only."""
    assert "blindbid" not in [g.game_id for g in games()]
