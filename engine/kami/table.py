"""Kami no Kijutsu's zone table: every zone, who may see it, where its cards are in the state,
and what a judge sets by adjustment (C3: card texts, abilities, force effects, damage that is
not recovered; engine.core.holdings).

Moves: a card between a seat's hand, deck (taken from anywhere in it, put on top), discard pile,
lasting forces, the field (``field:A1:2C``: a unit or a territory of that seat on that hex; a
unit leaving takes its options to their owners' discard piles) and the options on a unit
(``options:A1:2C``: an option of that seat attached to, or detached from, the unit on that hex,
on its own: "destroy target option", "attach from the discard").
Counters: ``vp``, ``ap`` (AP cards back from or onto the deck), ``hand_limit``, ``damage:HEX``,
``lasting_damage:HEX``, ``battle_at`` and ``battle_df`` (the seat's modifiers in the open
battle). Stats: ``at`` and ``df`` of a unit on the field, by lasting modifiers (the end of the
turn, or for good). The holds are checked after every adjustment (K7,
``Kami._adjusted``).
"""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.core.holdings import Holding, Pile, Seat, Stat, Tally
from engine.core.zones import Visibility, Zone
from engine.kami.deck import ap, deck_size, pay, take_top, unseen
from engine.kami.model import AP_LIMIT, HEXES, Attached, KamiState, Unit
from engine.kami.reasons import KamiReason as R


def _seat(seat: Seat) -> int:
    assert seat is not None  # every Kami zone is a seat's
    return seat


class Deck(Holding[KamiState]):
    """A deck of fixed and not yet fixed identities (engine.kami.deck): its known top cards,
    then the pool of identities not fixed yet (of the deck and the AP pile: a judge's view).
    A card taken is found wherever it is; a card put goes on top."""

    def cards(self, state: KamiState, seat: Seat, address: str) -> list[str]:
        """The known top cards, then every identity not fixed yet."""
        seat = _seat(seat)
        return [c for c in state.deck_top[seat] if isinstance(c, str)] + unseen(state, seat)

    def take(self, state: KamiState, seat: Seat, address: str, card: str) -> None:
        """A known top card, else a paid AP card's identity, else one still unfixed."""
        seat = _seat(seat)
        if card in state.deck_top[seat]:
            state.deck_top[seat].remove(card)
            return
        for i, entry in enumerate(state.deck_top[seat]):
            if isinstance(entry, int) and card in state.layers[seat][entry]:
                state.layers[seat][entry].remove(card)  # the judge fixes a paid AP card
                state.deck_top[seat].pop(i)
                return
        under = state.deck_under[seat]
        for run in under:
            if card in state.layers[seat][run.layer]:  # the judge fixes an unfixed deck card
                state.layers[seat][run.layer].remove(card)
                run.count -= 1
                state.deck_under[seat] = [r for r in under if r.count]
                return
        raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{card} is not in seat {seat}'s deck (its "
                            "identity is an AP card's).")

    def put(self, state: KamiState, seat: Seat, address: str, card: str) -> None:
        """On top of the deck."""
        state.deck_top[_seat(seat)].insert(0, card)


class APPile(Holding[KamiState]):
    """The AP pile's known cards (its size is set by the ``ap`` counter, never by a move)."""

    def cards(self, state: KamiState, seat: Seat, address: str) -> list[str]:
        """The identities fixed so far."""
        return [c for c in state.ap[_seat(seat)] if isinstance(c, str)]


class Stack(Holding[KamiState]):
    """The cards a seat used in the open battle (they go with the battle's end)."""

    def cards(self, state: KamiState, seat: Seat, address: str) -> list[str]:
        """Bottom to top."""
        return list(state.battle.stacks.get(_seat(seat), [])) if state.battle else []


def _units(state: KamiState, hex_id: str) -> list[Unit]:
    """The units on a hex: its own, and an attacker in a battle opened there."""
    place = state.board[hex_id]
    units = [place.unit] if place.unit else []
    if state.battle is not None and state.battle.hex == hex_id:
        units.append(state.battle.attacker)
    return units


class Field(Holding[KamiState]):
    """A seat's territories and units on the hexes: a card enters a hex with room for its kind
    (one territory, one unit)."""

    def addresses(self, state: KamiState, seat: Seat) -> list[str]:
        """The hexes where the seat has a card."""
        return [h for h in HEXES if self.cards(state, seat, h)]

    def entries(self, state: KamiState, seat: Seat) -> list[str]:
        """Every hex."""
        return list(HEXES)

    def cards(self, state: KamiState, seat: Seat, address: str) -> list[str]:
        """The seat's territory there, then its units."""
        place = state.board[address]
        out = [place.territory] if place.territory is not None and \
            place.territory_owner == seat else []
        return out + [u.card for u in _units(state, address) if u.owner == seat]

    def take(self, state: KamiState, seat: Seat, address: str, card: str) -> None:
        """A unit (its options to their owners' discard piles) or a territory."""
        place = state.board[address]
        unit = place.unit
        if unit is not None and unit.owner == seat and unit.card == card:
            for option in unit.options:
                state.discard[option.owner].append(option.card)
            place.unit = None
            return
        if place.territory == card and place.territory_owner == seat:
            place.territory, place.territory_owner = None, None
            return
        raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{card} fights in the battle on {address}: "
                            "it leaves the field when the battle ends.")

    def admit(self, state: KamiState, seat: Seat, address: str, card: str) -> None:
        """A hex with room for a unit or a territory of its kind."""
        if address not in HEXES:
            raise IllegalAction(R.BAD_ZONE, f"field needs a hex: field:A1:2C, not {address!r}.")
        place, kind = state.board[address], state.cards[card].kind
        if not ((kind == "unit" and place.unit is None)
                or (kind == "territory" and place.territory is None)):
            raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{address} has no room for that {kind}.")

    def put(self, state: KamiState, seat: Seat, address: str, card: str) -> None:
        """As a unit (no damage, no options) or a territory of the seat."""
        place = state.board[address]
        if state.cards[card].kind == "unit":
            place.unit = Unit(card=card, owner=_seat(seat))
        else:
            place.territory, place.territory_owner = card, seat


class Options(Holding[KamiState]):
    """The options a seat owns on the units of the hexes (kami Q-12: an option keeps its
    owner, who controls it): one is attached to, or detached from, a unit on its own."""

    def addresses(self, state: KamiState, seat: Seat) -> list[str]:
        """The hexes where the seat has an option on a unit."""
        return [h for h in HEXES if self.cards(state, seat, h)]

    def entries(self, state: KamiState, seat: Seat) -> list[str]:
        """The hexes with a unit."""
        return [h for h in HEXES if state.board[h].unit is not None]

    def cards(self, state: KamiState, seat: Seat, address: str) -> list[str]:
        """The seat's options on the units there."""
        return [o.card for u in _units(state, address) for o in u.options if o.owner == seat]

    def take(self, state: KamiState, seat: Seat, address: str, card: str) -> None:
        """Detached from its unit."""
        for unit in _units(state, address):
            for option in unit.options:
                if option.card == card and option.owner == seat:
                    unit.options.remove(option)
                    return

    def admit(self, state: KamiState, seat: Seat, address: str, card: str) -> None:
        """An option, onto a hex's unit."""
        if address not in HEXES or state.board[address].unit is None:
            raise IllegalAction(R.BAD_ZONE, f"There is no unit on {address!r} to attach an "
                                "option to.")
        if state.cards[card].kind != "option":
            raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{card} is not an option.")

    def put(self, state: KamiState, seat: Seat, address: str, card: str) -> None:
        """Attached to the hex's unit, owned by the seat."""
        unit = state.board[address].unit
        assert unit is not None  # admitted
        unit.options.append(Attached(card=card, owner=_seat(seat)))


ZONES: tuple[Zone, ...] = (
    Zone("hand", "seat", False, Visibility.OWNER, description="手札: its owner's, limit 5.",
         holding=Pile(lambda state, seat: state.hands[seat])),
    Zone("deck", "seat", True, Visibility.JUDGES,
         description="デッキ, face down: AP cards paid back on top (K3), then cards whose "
                     "identity is fixed only when drawn, a recorded pick (kami Q-15).",
         holding=Deck()),
    Zone("ap", "seat", True, Visibility.JUDGES, adjustable=False,
         description="AP置場, face down: its size is the seat's AP (0-10); nobody at the table "
                     "sees it; its cards' identities are fixed at a renewal.",
         holding=APPile()),
    Zone("discard", "seat", False, Visibility.EVERYONE,
         description="捨札置場, face up (kami Q-30); every card goes to its owner's.",
         holding=Pile(lambda state, seat: state.discard[seat])),
    Zone("field", "seat", False, Visibility.EVERYONE, address="hex A1:1L-A2:3R",
         description="Territories and units on a hex of the field (§場の構成, K1): "
                     "field:A1:2C of the seat that owns the card.", holding=Field()),
    Zone("options", "seat", False, Visibility.EVERYONE, address="hex A1:1L-A2:3R",
         description="Options attached to the unit on a hex: options:A1:2C of the seat that "
                     "owns the option.", holding=Options()),
    Zone("stack", "seat", True, Visibility.EVERYONE, adjustable=False,
         description="The cards a seat used in the open battle, bottom to top.",
         holding=Stack()),
    Zone("forces", "seat", False, Visibility.EVERYONE,
         description="Forces whose effect lasts some turns (kami Q-18).",
         holding=Pile(lambda state, seat: state.forces[seat])),
)


# ----- what a judge sets (C3) -------------------------------------------------------------
def _set_vp(state: KamiState, seat: int, key: str, value: int) -> None:
    state.vp[seat] = value


def _set_hand_limit(state: KamiState, seat: int, key: str, value: int) -> None:
    state.hand_limit[seat] = value


def _set_ap(state: KamiState, seat: int, key: str, value: int) -> None:
    """AP cards move between the top of the deck and the top of the AP pile, one at a time."""
    more = value - ap(state, seat)
    if more > deck_size(state, seat):
        raise IllegalAction(R.BAD_COUNTER, f"Seat {seat}'s deck has {deck_size(state, seat)} "
                            "card(s) to move onto the AP pile.")
    if more < 0:
        pay(state, seat, -more)
    for _ in range(more):
        state.ap[seat].insert(0, take_top(state, seat))


def _unit(state: KamiState, hex_id: str) -> Unit:
    unit = state.board[hex_id].unit
    assert unit is not None  # the kernel checked the key: a hex with a unit
    return unit


def _hexes_with_units(state: KamiState, seat: int) -> list[str]:
    return [h for h in HEXES if state.board[h].unit is not None]


def _set_damage(state: KamiState, seat: int, hex_id: str, value: int) -> None:
    _unit(state, hex_id).damage = value


def _set_lasting(state: KamiState, seat: int, hex_id: str, value: int) -> None:
    _unit(state, hex_id).lasting_damage = value


def _battle_mods(state: KamiState, name: str) -> dict[int, int]:
    if state.battle is None:
        raise IllegalAction(R.BAD_COUNTER, f"{name} is set during a battle only.")
    return state.battle.at_mod if name == "battle_at" else state.battle.df_mod


def _battle_mod(name: str) -> Tally[KamiState]:
    def get(state: KamiState, seat: int, key: str) -> int:
        return _battle_mods(state, name).get(seat, 0)

    def set_mod(state: KamiState, seat: int, key: str, value: int) -> None:
        _battle_mods(state, name)[seat] = value

    stat = "AT" if name == "battle_at" else "DF"
    return Tally(name, "seat", get, set_mod, -99, 99,
                 description=f"The seat's {stat} modifier in the open battle (a force's effect).")


TALLIES: tuple[Tally[KamiState], ...] = (
    Tally("vp", "seat", lambda state, seat, key: state.vp[seat], _set_vp, 0, 1000,
          description="The seat's victory points."),
    Tally("ap", "seat", lambda state, seat, key: ap(state, seat), _set_ap, 0, AP_LIMIT,
          description="The seat's AP: AP cards move between the deck's top and the AP pile."),
    Tally("hand_limit", "seat", lambda state, seat, key: state.hand_limit[seat],
          _set_hand_limit, 0, 40, description="The seat's hand limit."),
    Tally("damage", "place", lambda state, seat, hex_id: _unit(state, hex_id).damage,
          _set_damage, 0, 99, description="The damage of the unit on a hex (recovered as the "
          "rules recover it).", keys=_hexes_with_units),
    Tally("lasting_damage", "place",
          lambda state, seat, hex_id: _unit(state, hex_id).lasting_damage, _set_lasting, 0, 99,
          description="Damage of the unit on a hex that is never recovered.",
          keys=_hexes_with_units),
    _battle_mod("battle_at"),
    _battle_mod("battle_df"),
)


def _units_on_field(state: KamiState) -> list[str]:
    return [u.card for h in HEXES for u in _units(state, h)]


STATS: tuple[Stat[KamiState], ...] = (
    Stat("at", "A unit's attack (AT), its options' modifiers added.", _units_on_field),
    Stat("df", "A unit's defence (DF), its options' modifiers added.", _units_on_field),
)
