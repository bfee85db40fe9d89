"""Cards in a player's zones (場の構成): finding the card an action names, drawing, discarding.

The small helpers every rulebook section uses. An action names a card by instance id or, where
that is unambiguous in the zone it is taken from, by bare card id (see model); ``illuminati`` names
the acting seat's own Illuminati wherever a card of its power structure is expected.
"""

from __future__ import annotations

from typing import Literal

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.illuminati.model import IlluminatiState, Node, Resource, card_of, find, owner_of
from engine.illuminati.reasons import IlluminatiReason as R

ILLUMINATI_ALIAS = "illuminati"


def illegal(reason: R, message: str) -> IllegalAction:
    """The refusal of an action: a reason code and a sentence for the player."""
    return IllegalAction(reason, message)


def label(st: IlluminatiState, ref: str) -> str:
    """The card name a reference stands for, or the reference itself if it names no card."""
    cid = card_of(ref)
    return st.cards[cid].name if cid in st.cards else ref


def own_card(st: IlluminatiState, seat: int, ref: str) -> str:
    """A card of ``seat``'s power structure (``illuminati`` is its Illuminati)."""
    p = st.player(seat)
    if ref == ILLUMINATI_ALIAS and p.illuminati is not None:
        return p.illuminati
    card = find(list(p.structure), ref, seat)
    if card is None:
        raise illegal(R.NOT_IN_STRUCTURE, f"{label(st, ref)} is not in seat {seat}'s "
                      "power structure.")
    return card


def in_hand(st: IlluminatiState, seat: int, ref: str, hand: Literal["plot", "group"]) -> str:
    """A card of ``seat``'s plot hand or group hand."""
    p = st.player(seat)
    card = find(p.plot_hand if hand == "plot" else p.group_hand, ref, seat)
    if card is None:
        raise illegal(R.CARD_NOT_IN_HAND, f"{label(st, ref)} is not in your {hand} hand.")
    return card


def hand_cards(st: IlluminatiState, seat: int, refs: list[str]) -> list[str]:
    """The cards ``refs`` name in ``seat``'s two hands, each card at most once."""
    p = st.player(seat)
    left = {"plot": list(p.plot_hand), "group": list(p.group_hand)}
    out = []
    for ref in refs:
        card = find(left["plot"], ref, seat) or find(left["group"], ref, seat)
        if card is None:
            raise illegal(R.CARD_NOT_IN_HAND, f"{label(st, ref)} is not in your hand.")
        left["plot" if card in left["plot"] else "group"].remove(card)
        out.append(card)
    return out


def take_from_plot_hand(st: IlluminatiState, seat: int, card: str) -> None:
    """``card`` leaves ``seat``'s plot hand (and stops being revealed)."""
    p = st.player(seat)
    p.plot_hand.remove(card)
    if card in p.revealed:
        p.revealed.remove(card)


def token_holder(st: IlluminatiState, seat: int, ref: str) -> Node | Resource:
    """A card of ``seat``'s holding an action token: a structure card or Action resource."""
    p = st.player(seat)
    res = find([r.card for r in p.resources], ref, seat)
    if ref != ILLUMINATI_ALIAS and res is not None:
        holder: Node | Resource = next(r for r in p.resources if r.card == res)
    else:
        holder = p.structure[own_card(st, seat, ref)]
    if holder.tokens < 1:
        raise illegal(R.NO_TOKEN, f"{label(st, holder.card)} holds no action token.")
    return holder


def draw(st: IlluminatiState, seat: int, which: Literal["plot", "group"], chance: Chance) -> str:
    """Top card of a deck into the hand; no library-out loss, an empty deck just refuses."""
    p = st.player(seat)
    deck = p.plot_deck if which == "plot" else p.group_deck
    if deck.shuffled:
        card = chance.draw(f"{which}_draw", deck.shuffled, seat)
        deck.shuffled.remove(card)
    elif deck.bottom:
        card = deck.bottom.pop(0)
    else:
        raise illegal(R.DECK_EMPTY, f"Seat {seat}'s {which} deck is empty.")
    (p.plot_hand if which == "plot" else p.group_hand).append(card)
    return card


def to_discard(st: IlluminatiState, card: str) -> None:
    """``card`` to its owner's discard pile."""
    st.player(owner_of(card)).discard.append(card)


def put_resource(st: IlluminatiState, seat: int, card: str) -> None:
    """Unique resources can be placed once per match, even after being destroyed."""
    c = st.card(card)
    if c.unique and c.name in st.unique_placed:
        raise illegal(R.UNIQUE_RESOURCE, f"{c.name} is Unique and has already been placed "
                      "in this match.")
    if c.unique:
        st.unique_placed.append(c.name)
    st.player(seat).resources.append(Resource(card=card))


def require_other(st: IlluminatiState, seat: int, to: int) -> None:
    """``to`` must be another player still in the game (the receiver of a gift)."""
    if to == seat or to not in st.in_play():
        raise illegal(R.BAD_RECIPIENT, f"Seat {to} is not another player in the game.")
