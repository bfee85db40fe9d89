"""The deck and the AP pile: AP is cards (§AP(アクションポイント)について, K3, K4, kami Q-13,
Q-14, Q-15).

Both are face down and nobody at the table sees them, so a card's identity is fixed only when it
must be (the digest's lazy encoding, section 8b), and a physical table enters only what someone
sees. A shuffle makes a **layer**: a multiset of cards in an unknown order. Per seat the state
keeps every layer made so far (``layers``, by number) and:

- ``deck_top``: the top of the deck, top first: AP cards paid back (K3), each an identity or the
  number of the layer it came from (not fixed yet);
- ``deck_under``: below it, runs of cards of one layer each (``Run``), from top to bottom;
- ``ap``: the AP pile, top first, each an identity or a layer number.

A layer's multiset holds the identities of every card still unfixed that came from it, wherever
that card now lies (deck or AP pile): they are alike to everyone, so fixing one is a recorded
pick from its layer. Drawing an unfixed card is such a pick, seen by its seat (C1).

A renewal under ``renewal: shuffle_all`` (the default, Q-14) shuffles the discard pile with the
whole deck but not with the AP pile: the AP pile's unfixed cards are fixed first, each a recorded
pick nobody at the table sees (judges do; at a physical table a judge looks), then everything
left in the deck and the discard pile make one new layer. Under ``discard_under`` the shuffled
discard pile becomes a new layer under the deck, and nothing needs fixing.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.kami.model import AP_LIMIT, AP_REFILL, RENEWAL_VP, KamiState, Run
from engine.kami.reasons import KamiReason as R

Entry = str | int
"""A card in the deck's top or the AP pile: its identity, or the layer it will be picked from."""


def deck_size(state: KamiState, seat: int) -> int:
    """How many cards ``seat``'s deck holds."""
    return len(state.deck_top[seat]) + sum(run.count for run in state.deck_under[seat])


def ap(state: KamiState, seat: int) -> int:
    """``seat``'s AP: the size of its AP pile (0-10)."""
    return len(state.ap[seat])


def unseen(state: KamiState, seat: int) -> list[str]:
    """Every identity not fixed yet of ``seat``'s deck and AP pile (judges see this pool)."""
    return [card for layer in state.layers[seat] for card in layer]


def require_ap(state: KamiState, seat: int, cost: int) -> None:
    """K3: a cost needs that many AP cards (``insufficient_ap``)."""
    if ap(state, seat) < cost:
        raise IllegalAction(R.INSUFFICIENT_AP, f"This costs {cost} AP; seat {seat} has "
                            f"{ap(state, seat)}.")


def pay(state: KamiState, seat: int, cost: int) -> None:
    """K3: each AP card paid goes from the top of the AP pile onto the top of the deck."""
    require_ap(state, seat, cost)
    for _ in range(cost):
        state.deck_top[seat].insert(0, state.ap[seat].pop(0))


def shuffle_in(state: KamiState, seat: int, cards: list[str]) -> None:
    """``cards`` and the whole deck become one new layer (a mulligan; a renewal, Q-14). The AP
    pile holds no unfixed card here (a renewal fixes them first; a mulligan comes before any
    AP), so every card left in the layers lies in the deck and joins the shuffle."""
    assert not any(isinstance(e, int) for e in state.ap[seat])
    layer = [c for c in state.deck_top[seat] if isinstance(c, str)] + list(cards)
    for old in state.layers[seat]:
        layer += old
        old.clear()
    state.layers[seat].append(sorted(layer))
    state.deck_top[seat] = []
    state.deck_under[seat] = [Run(layer=len(state.layers[seat]) - 1, count=len(layer))] \
        if layer else []


def renew(state: KamiState, seat: int, chance: Chance) -> bool:
    """K4: the discard pile into the deck, shuffled; the opponent gains 5 VP. With an empty
    discard pile nothing happens and no VP is given (Q-13): returns whether it happened."""
    discard = state.discard[seat]
    if not discard:
        return False
    if state.options.get("renewal", "shuffle_all") == "discard_under":
        state.layers[seat].append(sorted(discard))
        state.deck_under[seat].append(Run(layer=len(state.layers[seat]) - 1,
                                          count=len(discard)))
    else:
        pile = state.ap[seat]
        for i, entry in enumerate(pile):
            if isinstance(entry, int):
                layer = state.layers[seat][entry]
                card = chance.hidden_card("ap_card", layer)
                layer.remove(card)
                pile[i] = card
        shuffle_in(state, seat, list(discard))
    discard.clear()
    state.vp[state.other(seat)] += RENEWAL_VP
    return True


def take_from_deck(state: KamiState, seat: int, chance: Chance) -> bool:
    """Make sure a card can be taken from the deck, renewing it if it is empty (K4); False
    when even the discard pile is empty (Q-13: the card is simply not taken)."""
    return deck_size(state, seat) > 0 or (renew(state, seat, chance)
                                           and deck_size(state, seat) > 0)


def take_top(state: KamiState, seat: int) -> Entry:
    """The top card of a non-empty deck, as an identity or its layer."""
    if state.deck_top[seat]:
        return state.deck_top[seat].pop(0)
    run = state.deck_under[seat][0]
    run.count -= 1
    if not run.count:
        state.deck_under[seat].pop(0)
    return run.layer


def draw(state: KamiState, seat: int, chance: Chance) -> bool:
    """The top card of the deck into the hand; an unfixed one is a recorded pick from its
    layer, seen by its seat (C1). Renews an empty deck first (K4); False if no card came."""
    if not take_from_deck(state, seat, chance):
        return False
    entry = take_top(state, seat)
    if isinstance(entry, int):
        layer = state.layers[seat][entry]
        entry = chance.draw("draw", layer, seat)
        layer.remove(entry)
    state.hands[seat].append(entry)
    return True


def refill_ap(state: KamiState, seat: int, chance: Chance) -> None:
    """K4: at the start of the action phase, deck cards go one at a time onto the AP pile,
    five, or fewer once it holds ten; an empty deck on the way is renewed."""
    for _ in range(min(AP_REFILL, AP_LIMIT - ap(state, seat))):
        if not take_from_deck(state, seat, chance):
            return
        state.ap[seat].insert(0, take_top(state, seat))
