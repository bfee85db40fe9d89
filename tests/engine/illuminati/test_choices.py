"""The choice spaces of Illuminati's combinatorial actions: every action built from one is legal
where the space is unconstrained, and the listed representatives fall inside it."""

from __future__ import annotations

import random

from engine import get_game
from engine.illuminati.model import IlluminatiState
from tests.engine.illuminati.helpers import config, deck
from tests.support import RandomChance, playout

G = get_game("illuminati")


def _space(st: IlluminatiState, seat: int, action: str, field: str) -> tuple[object, ...]:
    return next(c.options for c in G.legal_actions(st, seat).choices
                if (c.action, c.field) == (action, field))


def test_any_subset_of_the_hand_may_be_discarded_or_given() -> None:
    rng = random.Random(4)
    log = playout(G, 4, 3)
    checked = 0
    for st in log["states"][10::4]:
        for seat in st.in_play():
            if not (st.player(seat).plot_hand or st.player(seat).group_hand) or st.attack:
                continue
            hand = list(_space(st, seat, "discard", "cards"))
            cards = rng.sample(hand, rng.randint(1, len(hand)))
            assert {"type": "discard", "seat": seat, "cards": cards} in G.legal_actions(st, seat)
            to = rng.choice(_space(st, seat, "give_cards", "to"))
            gift = {"type": "give_cards", "seat": seat, "to": to, "cards": cards}
            assert gift in G.legal_actions(st, seat)
            checked += 1
    assert checked > 5


def test_the_table_reveal_lists_each_seats_candidates() -> None:
    """In a match that records the table's reveal, the one action's space is every seat's
    Illuminati candidates."""
    st = G.setup(config([deck("alpha"), deck("beta")]), RandomChance(random.Random(1)))
    spaces = {c.field: c.options for c in G.legal_actions(st, 1).choices}
    assert spaces == {"choices.1": ("alpha@1",), "choices.2": ("beta@2",)}
