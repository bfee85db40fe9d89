"""Illuminati's zone table: every zone, who may see it, where its cards are in the state, and
what a judge sets by adjustment (C3: card-text effects entered by a judge, or by agreement;
engine.core.holdings).

Moves: a card between a seat's plot_hand, group_hand, plot_deck, group_deck (taken from
wherever it lies, put into its shuffled part), discard, destroyed, resources, agents, plots,
loose and its power structure: taken from ``structure`` (a group with nothing below it), put at
``structure:PARENT:ARROW`` (or ``structure:PARENT``: its first free arrow). A card leaves a zone
of ``from_seat`` and enters one of ``to_seat`` (both default to ``seat``), so a card can be put
into another player's structure. Cards are named by instance id or, where unambiguous in the
zone, by bare card id; ``illuminati`` is the seat's own Illuminati. The attacker and the target
of an attack under way stay where they are until it is resolved.
Counters: ``tokens:CARD`` (action tokens on a structure card or resource), ``power:CARD`` and
``resistance:CARD`` (the change card text made to a structure card's printed value).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.errors import IllegalAction
from engine.core.holdings import Holding, Seat, Tally
from engine.core.zones import Visibility, Zone, ZoneTable
from engine.illuminati import structure
from engine.illuminati.model import (
    SIDES,
    Deck,
    IlluminatiState,
    Node,
    Player,
    Resource,
    Side,
    card_of,
    find,
)
from engine.illuminati.reasons import IlluminatiReason as R
from engine.illuminati.zones import ILLUMINATI_ALIAS, own_card


def _player(state: IlluminatiState, seat: Seat) -> Player:
    assert seat is not None
    return state.player(seat)


class Cards(Holding[IlluminatiState]):
    """A list of a seat's cards, named by instance id or bare card id (``model.find``); a
    card leaving the plot hand is no longer shown as revealed."""

    def __init__(self, pile: Callable[[Player], list[str]]) -> None:
        self.pile = pile

    def cards(self, state: IlluminatiState, seat: Seat, address: str) -> list[str]:
        """The list's cards."""
        return list(self.pile(_player(state, seat)))

    def find(self, state: IlluminatiState, seat: Seat, address: str, ref: str) -> str | None:
        """An instance, or the seat's own copy of a bare card id first."""
        return find(self.pile(_player(state, seat)), ref, seat)

    def take(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """Out of the list (and of the revealed cards)."""
        p = _player(state, seat)
        self.pile(p).remove(card)
        if card in p.revealed:
            p.revealed.remove(card)

    def put(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """At the end."""
        self.pile(_player(state, seat)).append(card)


class Plots(Cards):
    """Permanent plots on the table, and the attack plot paying an attack under way, which lies
    face up until the attack ends (listed, not moved)."""

    def cards(self, state: IlluminatiState, seat: Seat, address: str) -> list[str]:
        """The permanent plots, then a paying attack plot."""
        out = super().cards(state, seat, address)
        attack = state.attack
        if attack is not None and attack.seat == seat and attack.paid_with not in ("", "token"):
            out.append(attack.paid_with)
        return out


class DeckCards(Holding[IlluminatiState]):
    """A deck: its shuffled part (in id order: unordered) then the cards put under it; a card
    taken is found wherever it lies, a card put goes into the shuffled part."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def _deck(self, state: IlluminatiState, seat: Seat) -> Deck:
        p = _player(state, seat)
        return p.plot_deck if self.kind == "plot" else p.group_deck

    def cards(self, state: IlluminatiState, seat: Seat, address: str) -> list[str]:
        """Shuffled part, then the bottom."""
        deck = self._deck(state, seat)
        return sorted(deck.shuffled) + deck.bottom

    def find(self, state: IlluminatiState, seat: Seat, address: str, ref: str) -> str | None:
        """In the shuffled part first, then under it."""
        deck = self._deck(state, seat)
        return find(deck.shuffled, ref, seat) or find(deck.bottom, ref, seat)

    def take(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """Out of the part that holds it."""
        deck = self._deck(state, seat)
        (deck.shuffled if card in deck.shuffled else deck.bottom).remove(card)

    def put(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """Into the shuffled part."""
        self._deck(state, seat).shuffled.append(card)


class Resources(Holding[IlluminatiState]):
    """A seat's resource area: a resource keeps its tokens and its links while it stays."""

    def cards(self, state: IlluminatiState, seat: Seat, address: str) -> list[str]:
        """The resources, in order."""
        return [r.card for r in _player(state, seat).resources]

    def find(self, state: IlluminatiState, seat: Seat, address: str, ref: str) -> str | None:
        """An instance, or a bare card id."""
        return find(self.cards(state, seat, address), ref, seat)

    def take(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """Out, with its links."""
        p = _player(state, seat)
        p.resources = [r for r in p.resources if r.card != card]
        p.links = [k for k in p.links if card not in (k.a, k.b)]

    def put(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """A new resource, without tokens."""
        _player(state, seat).resources.append(Resource(card=card))


def _hanging(address: str) -> tuple[str, Side | None]:
    """(parent reference, arrow) of ``PARENT:ARROW`` or ``PARENT``."""
    parent, _, arrow = address.partition(":")
    if arrow and arrow not in SIDES:
        raise IllegalAction(R.BAD_ZONE, f"Arrows are {', '.join(SIDES)}, not {arrow!r}.")
    return parent, arrow or None  # type: ignore[return-value]


class Structure(Holding[IlluminatiState]):
    """A seat's power structure (権力構造図): its places are where its cards hang ("" the
    Illuminati, ``PARENT:ARROW`` a group); a judge takes a group with nothing below it from
    ``structure`` (any card of it) and hangs one at ``structure:PARENT:ARROW`` of a free arrow
    (groups are unique on the table)."""

    def addresses(self, state: IlluminatiState, seat: Seat) -> list[str]:
        """Where each of its cards hangs."""
        return sorted({self._at(state, seat, card) for card in _player(state, seat).structure})

    def entries(self, state: IlluminatiState, seat: Seat) -> list[str]:
        """Every free arrow of every card of it."""
        p = _player(state, seat)
        return [f"{card}:{side}" for card in p.structure
                for side in structure.free_arrows(state, p, card)]

    def cards(self, state: IlluminatiState, seat: Seat, address: str) -> list[str]:
        """The cards hanging there."""
        return [c for c in _player(state, seat).structure
                if self._at(state, seat, c) == address]

    def find(self, state: IlluminatiState, seat: Seat, address: str, ref: str) -> str | None:
        """Any card of the structure (``structure`` names the whole of it)."""
        p = _player(state, seat)
        if ref == ILLUMINATI_ALIAS:
            return p.illuminati
        return find(list(p.structure), ref, seat)

    def take(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """A group with nothing below it, with its links."""
        p = _player(state, seat)
        if card == p.illuminati or structure.children(p, card):
            raise IllegalAction(R.BAD_ZONE, "Only a group with nothing below it can be taken "
                                "out of a structure by adjustment.")
        del p.structure[card]
        p.links = [k for k in p.links if card not in (k.a, k.b)]

    def admit(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """``PARENT:ARROW`` names a card of the seat's structure and a side."""
        assert seat is not None
        parent, _ = _hanging(address)
        own_card(state, seat, parent)

    def put(self, state: IlluminatiState, seat: Seat, address: str, card: str) -> None:
        """At that arrow (its first free one if none is named)."""
        assert seat is not None
        parent, arrow = _hanging(address)
        structure.place_group(state, seat, card, own_card(state, seat, parent), arrow)

    @staticmethod
    def _at(state: IlluminatiState, seat: Seat, card: str) -> str:
        node = _player(state, seat).structure[card]
        return f"{node.parent}:{node.arrow}" if node.parent else ""


class Shown(Holding[IlluminatiState]):
    """A zone a judge does not move cards in or out of, listed for effects and boards."""

    def __init__(self, cards: Callable[[IlluminatiState, Seat, str], list[str]],
                 addresses: Callable[[IlluminatiState], list[str]] | None = None) -> None:
        self._cards = cards
        self._addresses = addresses

    def addresses(self, state: IlluminatiState, seat: Seat) -> list[str]:
        """Its places."""
        return self._addresses(state) if self._addresses else [""]

    def cards(self, state: IlluminatiState, seat: Seat, address: str) -> list[str]:
        """The cards there."""
        return self._cards(state, seat, address)


def check_structure_place(state: IlluminatiState, seat: int, address: str) -> None:
    """``PARENT:ARROW`` must name a card in ``seat``'s power structure and, if given, a side."""
    parent, _ = _hanging(address)
    own_card(state, seat, parent)


# 場の構成: every zone, who owns it and who may see its cards. Plot-hand cards a player has
# revealed are shown to everyone (the view's one exception, per card).
ZONES = (
    Zone("plot_hand", "seat", ordered=False, contents=Visibility.OWNER,
         description="Plots, goal cards and Illuminati agents in hand.",
         holding=Cards(lambda p: p.plot_hand)),
    Zone("group_hand", "seat", ordered=False, contents=Visibility.OWNER,
         description="Groups and resources in hand.", holding=Cards(lambda p: p.group_hand)),
    Zone("plot_deck", "seat", ordered=False, contents=Visibility.JUDGES,
         description="Shuffled (each draw a recorded pick, C1), then the cards put under it.",
         holding=DeckCards("plot")),
    Zone("group_deck", "seat", ordered=False, contents=Visibility.JUDGES,
         description="Shuffled (each draw a recorded pick, C1), then the cards put under it.",
         holding=DeckCards("group")),
    Zone("structure", "seat", ordered=False, contents=Visibility.EVERYONE,
         address="PARENT:ARROW",
         description="The power structure (権力構造図): take a card with nothing below it from "
                     "'structure'; put one at 'structure:PARENT:ARROW'.", holding=Structure()),
    Zone("resources", "seat", ordered=True, contents=Visibility.EVERYONE,
         holding=Resources()),
    Zone("agents", "seat", ordered=True, contents=Visibility.EVERYONE,
         holding=Cards(lambda p: p.agents)),
    Zone("plots", "seat", ordered=True, contents=Visibility.EVERYONE,
         description="Permanent plots on the table.", holding=Plots(lambda p: p.plots)),
    Zone("loose", "seat", ordered=True, contents=Visibility.EVERYONE,
         description="Hand groups placed as attack targets.", holding=Cards(lambda p: p.loose)),
    Zone("discard", "seat", ordered=True, contents=Visibility.EVERYONE,
         holding=Cards(lambda p: p.discard)),
    Zone("destroyed", "seat", ordered=True, contents=Visibility.EVERYONE,
         description="The destroyed pile (破壊の山).", holding=Cards(lambda p: p.destroyed)),
    Zone("revealed", "seat", ordered=True, contents=Visibility.EVERYONE, adjustable=False,
         description="Plot-hand cards shown to everyone (a goal card being claimed): still in "
                     "the hand, known to all.",
         holding=Shown(lambda state, seat, _: list(_player(state, seat).revealed))),
    Zone("chosen", "seat", ordered=False, contents=Visibility.OWNER, adjustable=False,
         description="A card laid face down in a simultaneous choice (the Illuminati, an "
                     "initial group), revealed when every player has chosen.",
         holding=Shown(lambda state, seat, _: [state.chosen[seat]]
                       if seat in state.chosen else [])),
    Zone("set_aside", "shared", ordered=True, contents=Visibility.EVERYONE, adjustable=False,
         description="I9: duplicate initial groups, back to their decks after setup.",
         holding=Shown(lambda state, seat, _: list(state.set_aside))),
    Zone("new_world_order", "shared", ordered=False, contents=Visibility.EVERYONE,
         address="colour", adjustable=False,
         description="The New World Order plot in play in each colour.",
         holding=Shown(lambda state, seat, colour: [state.new_world_order[colour]],
                       lambda state: sorted(state.new_world_order))),
)
ZONE_TABLE = ZoneTable(ZONES)


# ----- what a judge sets (C3) -------------------------------------------------------------
def _refs(cards: list[str], with_alias: bool) -> list[str]:
    """How an adjustment may name these cards: instance ids, bare card ids, ``illuminati``."""
    return [*cards, *{card_of(c) for c in cards}, *([ILLUMINATI_ALIAS] if with_alias else [])]


def _token_cards(state: IlluminatiState, seat: int) -> list[str]:
    p = state.player(seat)
    return _refs([r.card for r in p.resources] + list(p.structure), p.illuminati is not None)


def _structure_cards(state: IlluminatiState, seat: int) -> list[str]:
    p = state.player(seat)
    return _refs(list(p.structure), p.illuminati is not None)


def _holder(state: IlluminatiState, seat: int, ref: str) -> Resource | Node:
    """A resource the reference names, else the structure card."""
    p = state.player(seat)
    res = find([r.card for r in p.resources], ref, seat)
    held = next((r for r in p.resources if r.card == res), None)
    return held or p.structure[own_card(state, seat, ref)]


def _set_tokens(state: IlluminatiState, seat: int, ref: str, value: int) -> None:
    _holder(state, seat, ref).tokens = value


def _node(state: IlluminatiState, seat: int, ref: str) -> Node:
    return state.player(seat).structure[own_card(state, seat, ref)]


def _set_power(state: IlluminatiState, seat: int, ref: str, value: int) -> None:
    _node(state, seat, ref).power_mod = value


def _set_resistance(state: IlluminatiState, seat: int, ref: str, value: int) -> None:
    _node(state, seat, ref).resistance_mod = value


TALLIES: tuple[Tally[IlluminatiState], ...] = (
    Tally("tokens", "card", lambda state, seat, ref: _holder(state, seat, ref).tokens,
          _set_tokens, 0, 99, description="Action tokens on a structure card or resource.",
          keys=_token_cards),
    Tally("power", "card", lambda state, seat, ref: _node(state, seat, ref).power_mod,
          _set_power, -99, 99, description="The change card text made to a structure card's "
          "printed power.", keys=_structure_cards),
    Tally("resistance", "card", lambda state, seat, ref: _node(state, seat, ref).resistance_mod,
          _set_resistance, -99, 99, description="The change card text made to a structure "
          "card's printed resistance.", keys=_structure_cards),
)
