"""Anytime actions (いつでもできる行動): discarding and giving cards from hand.

The paid plot draw is an anytime action too; it shares its handler with the free draw of the
beginning of the turn (turn.draw_plot).
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.illuminati import actions as act
from engine.illuminati.model import IlluminatiState, owner_of
from engine.illuminati.zones import hand_cards, require_other, take_from_plot_hand, to_discard


def discard(st: IlluminatiState, a: act.Discard, chance: Chance) -> None:
    """Plots (and anything else of the plot hand) go under the plot deck in the order given;
    groups and resources to the discard pile."""
    p = st.player(a.seat)
    taken = hand_cards(st, a.seat, a.cards)
    for card in taken:
        if card in p.plot_hand:
            take_from_plot_hand(st, a.seat, card)
            st.player(owner_of(card)).plot_deck.bottom.append(card)
        else:
            p.group_hand.remove(card)
            to_discard(st, card)


def give_cards(st: IlluminatiState, a: act.GiveCards, chance: Chance) -> None:
    """Cards from hand to another player's hand (plots to the plot hand, others to the group
    hand)."""
    require_other(st, a.seat, a.to)
    p, r = st.player(a.seat), st.player(a.to)
    for card in hand_cards(st, a.seat, a.cards):
        if card in p.plot_hand:
            take_from_plot_hand(st, a.seat, card)
            r.plot_hand.append(card)
        else:
            p.group_hand.remove(card)
            r.group_hand.append(card)
