"""The deck and the AP pile: AP is cards (§AP(アクションポイント)について, K3, K4).

The deck and the AP pile hold face-down cards nobody at the table sees; the state keeps them as
one pool with two counts (model.KamiState). Paying moves AP cards back on top of the deck, one by
one (K3); the refill moves deck cards onto the AP pile, one by one (K4); a card must come from an
empty deck forces a renewal (K4): the discard pile shuffled into the deck, 5 VP to the opponent.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.kami.model import AP_LIMIT, AP_REFILL, RENEWAL_VP, KamiState


def require_ap(state: KamiState, seat: int, cost: int) -> None:
    """K3: a cost needs that many AP cards (``insufficient_ap``)."""
    if state.ap[seat] < cost:
        raise IllegalAction("insufficient_ap", f"This costs {cost} AP; seat {seat} has "
                            f"{state.ap[seat]}.")


def pay(state: KamiState, seat: int, cost: int) -> None:
    """K3: each AP card paid goes from the top of the AP pile onto the top of the deck."""
    require_ap(state, seat, cost)
    state.ap[seat] -= cost
    state.deck[seat] += cost


def renew(state: KamiState, seat: int) -> bool:
    """K4 (kami Q-14 ``shuffle_all``): the discard pile joins the deck, shuffled; the opponent
    gains 5 VP. With an empty discard pile nothing happens and no VP is given (kami Q-13):
    returns whether the deck was renewed."""
    discard = state.discard[seat]
    if not discard:
        return False
    state.pool[seat].extend(discard)
    state.deck[seat] += len(discard)
    discard.clear()
    state.vp[state.other(seat)] += RENEWAL_VP
    return True


def take_from_deck(state: KamiState, seat: int) -> bool:
    """Make sure a card can be taken from the deck, renewing it if it is empty (K4); False
    when even the discard pile is empty (kami Q-13: the card is simply not taken)."""
    return state.deck[seat] > 0 or (renew(state, seat) and state.deck[seat] > 0)


def draw(state: KamiState, seat: int, chance: Chance) -> bool:
    """The top card of the deck into the hand: a recorded pick from the pool, seen by its
    seat (C1). Renews an empty deck first (K4); False if no card could be drawn."""
    if not take_from_deck(state, seat):
        return False
    card = chance.draw("draw", state.pool[seat], seat)
    state.pool[seat].remove(card)
    state.deck[seat] -= 1
    state.hands[seat].append(card)
    return True


def refill_ap(state: KamiState, seat: int) -> None:
    """K4: at the start of the action phase, deck cards go one at a time onto the AP pile,
    five, or fewer once it holds ten; an empty deck on the way is renewed."""
    for _ in range(min(AP_REFILL, AP_LIMIT - state.ap[seat])):
        if not take_from_deck(state, seat):
            return
        state.deck[seat] -= 1
        state.ap[seat] += 1
