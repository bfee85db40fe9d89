"""Judges' adjustments (C3): the only way card texts act.

Moves: a card instance between a seat's hand, deck and dead pile, out of its conspiracy or field
(a character or permanent with its attachments to their owners' dead piles, or one attached card
alone), or into play: a character into ``conspiracy:RANK.FILE`` (placement rules), a resource,
environment or secret onto ``field``; a duplicate arriving so goes to the dead pile (OQ6).
Counters: ``influence``, ``character_pull`` and ``other_pull`` (the reserve), and ``state:CARD``
(0 active, 1 cranked, 2 flipped) of a card in play."""

from __future__ import annotations

from engine.core.actions import Adjust, CardMove, CounterChange
from engine.core.errors import IllegalAction
from engine.edge.basics import bury
from engine.edge.conspiracy import check_cell, normalise
from engine.edge.model import CardState, Character, EdgeState, Permanent, owner_of
from engine.edge.operations import host
from engine.edge.turn import blocked

STATES: tuple[CardState, ...] = ("active", "cranked", "flipped")


def adjust(state: EdgeState, action: Adjust) -> None:
    """Apply one adjustment."""
    if action.counter is not None:
        _counter(state, action.seat, action.counter)
        return
    assert action.move is not None  # the kernel handles turn changes
    _move(state, action.seat, action.move)


def _pile(state: EdgeState, seat: int, zone: str) -> list[str]:
    piles = {"hand": state.hands, "deck": state.decks, "dead": state.dead}
    if zone not in piles:
        raise IllegalAction("bad_zone", f"Cards are moved into the hand, deck or dead pile, not "
                            f"{zone}.")
    return piles[zone][seat]


def _move(state: EdgeState, seat: int, move: CardMove) -> None:
    source, target = move.seats(seat)
    zone = move.from_zone.partition(":")[0]
    to_zone, _, address = move.to_zone.partition(":")
    destination = [] if to_zone in ("field", "conspiracy") else _pile(state, target, to_zone)
    card = move.card
    if to_zone in ("field", "conspiracy"):
        _check_arrival(state, target, to_zone, address, card)
    if zone in ("conspiracy", "field"):
        pieces: list[Permanent] = list(state.conspiracies[source]) if zone == "conspiracy" \
            else list(state.permanents[source])
        piece = next((p for p in pieces if p.card == card), None)
        if piece is not None:
            if zone == "conspiracy":
                state.conspiracies[source] = [c for c in state.conspiracies[source]
                                              if c is not piece]
            else:
                state.permanents[source].remove(piece)
            bury(state, piece)
            state.dead[source].remove(card)
            normalise(state, source)
        else:
            holder = next((p for p in [*state.conspiracies[source], *state.permanents[source]]
                           if card in p.attached), None)
            if holder is None:
                raise IllegalAction("card_not_in_zone", f"{card} is not in seat {source}'s "
                                    f"{zone}.")
            holder.attached.remove(card)
    else:
        pile = _pile(state, source, zone)
        if card not in pile:
            raise IllegalAction("card_not_in_zone", f"{card} is not in {zone} of seat {source}.")
        pile.remove(card)
    if to_zone in ("field", "conspiracy"):
        _arrive(state, target, to_zone, address, card)
        return
    destination.append(card)


def _check_arrival(state: EdgeState, seat: int, zone: str, address: str, card: str) -> None:
    kind = state.card(card).type
    if (zone == "conspiracy") != (kind == "character") or kind in ("gear", "condition",
                                                                   "whammy"):
        raise IllegalAction("card_not_in_zone", "Characters go into the conspiracy "
                            "(conspiracy:RANK.FILE); resources, environments and secrets onto "
                            "the field.")
    if zone == "conspiracy":
        rank, _, file = address.partition(".")
        if not (rank.isdigit() and file.isdigit()):
            raise IllegalAction("bad_zone", "Name the cell: conspiracy:RANK.FILE.")
        if not blocked(state, seat, card):
            check_cell(state, seat, int(rank), int(file))


def _arrive(state: EdgeState, seat: int, zone: str, address: str, card: str) -> None:
    """A card put into play by card text (C3); a duplicate goes to the dead pile (OQ6)."""
    if blocked(state, seat, card):
        state.dead[owner_of(card)].append(card)
        return
    if zone == "conspiracy":
        rank, _, file = address.partition(".")
        state.conspiracies[seat].append(Character(card=card, rank=int(rank), file=int(file)))
        normalise(state, seat)
    else:
        state.permanents[seat].append(Permanent(card=card))


def _counter(state: EdgeState, seat: int, change: CounterChange) -> None:
    name, _, card = change.name.partition(":")
    value = change.value
    if name == "influence" and not card:
        state.influence[seat] = value
    elif name in ("character_pull", "other_pull") and not card and value >= 0:
        setattr(state, name, value)
    elif name == "state" and (piece := host(state, card)) is not None and 0 <= value <= 2:
        piece.state = STATES[value]
    else:
        raise IllegalAction("bad_counter", f"Unknown counter or value {change.name}={value}: "
                            "influence, character_pull, other_pull, state:CARD (0 active, "
                            "1 cranked, 2 flipped).")
