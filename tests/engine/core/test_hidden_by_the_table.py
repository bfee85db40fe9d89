"""The kernel holds what a game shows and refuses to the zone table: a game that forgets to ask
it still names no hidden card (``Ruleset.view``), and a refusal of an action naming a card its
asker cannot see is the same whether the card is hidden or does not exist
(``Ruleset.refusal_for``)."""

from __future__ import annotations

import random
from typing import Any

from engine import JUDGE, SPECTATOR, Viewer
from engine.core.contract import GameState
from engine.core.errors import IllegalAction
from tests.support import RandomChance, sample_config
from tests.toygame import BlindBid
from tests.toygame.model import BlindBidState
from tests.toygame.views import _cards


class _Careless(BlindBid):
    """Blind Bid whose view forgets the zone table: every hand and deck, to everyone."""

    def _view(self, state: GameState, viewer: Viewer) -> dict[str, Any]:
        assert isinstance(state, BlindBidState)
        return {"seats": [{"seat": s, "hand": _cards(state, state.hands[s]),
                           "deck": sorted(state.decks[s])} for s in state.seats()]}


def _dealt(rules: BlindBid) -> BlindBidState:
    state = rules.setup(sample_config(BlindBid(), 2), RandomChance(random.Random(3)))
    assert isinstance(state, BlindBidState)
    return state


def test_a_view_that_forgets_the_zone_table_still_names_no_hidden_card() -> None:
    """Seat 2 sees its own hand: of seat 1's hand it is shown only the cards it holds too (the
    toy game names cards by id alone), of the decks nothing; a spectator nothing."""
    rules = _Careless()
    state = _dealt(rules)
    mine = state.hands[2]
    seen = rules.view(state, Viewer("seat", 2))["seats"]
    assert [c["id"] for c in seen[1]["hand"]] == mine
    assert {c["id"] for c in seen[0]["hand"] if c is not None} <= set(mine)
    assert None in seen[0]["hand"], "some card of seat 1's hand is one seat 2 never sees"
    assert all(card is None or card in mine for card in seen[0]["deck"] + seen[1]["deck"])
    spectator = rules.view(state, SPECTATOR)["seats"]
    assert all(c is None for seat in spectator for c in seat["hand"] + seat["deck"])
    judge = rules.view(state, JUDGE)["seats"]
    assert [c["id"] for c in judge[0]["hand"]] == state.hands[1]


def test_a_refusal_tells_a_hidden_card_from_none_that_exists_in_no_way() -> None:
    """Seat 2 (High Noon) bids a card only seat 1's deck list (Even Keel) holds, then one of
    no deck: the same refusal, naming neither."""
    rules = BlindBid()
    state = _dealt(rules)
    seat2 = Viewer("seat", 2)
    own = set(state.hands[2]) | set(state.decks[2])  # seat 2 knows its own deck list
    hidden = next(c for c in state.hands[1] + state.decks[1] if c not in own)
    answers = []
    for card in (hidden, "no-such-card"):
        action = {"type": "bid", "seat": 2, "card": card}
        try:
            rules.apply(state, action, RandomChance(random.Random(1)))
        except IllegalAction as refused:
            answers.append(rules.refusal_for(refused, state, action, seat2).to_dict())
    assert len(answers) == 2 and answers[0] == answers[1]
    assert answers[0]["reason"] == "card_not_seen"
    assert hidden not in str(answers[0])


def test_a_judge_reads_the_rules_own_refusal() -> None:
    rules = BlindBid()
    state = _dealt(rules)
    action = {"type": "bid", "seat": 1, "card": "no-such-card"}
    try:
        rules.apply(state, action, RandomChance(random.Random(1)))
    except IllegalAction as refused:
        assert rules.refusal_for(refused, state, action, JUDGE) is refused
    else:
        raise AssertionError("a card nobody holds was bid")
