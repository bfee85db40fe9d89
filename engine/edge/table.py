"""On the Edge's zone table: every zone, who may see it, where its cards are in the state, and
what a judge sets by adjustment (C3: the only way card texts act; engine.core.holdings).

Moves: a card between a seat's hand, deck and dead pile; a character into a free cell of a
conspiracy (``conspiracy:RANK.FILE`` in the current frame, by the placement rules, E6) or out of
its cell (its attachments to their owners' dead piles, the grid closing up), or from one cell of
its conspiracy to another at once, keeping its state and its attachments (the move rules, OQ14);
a resource, environment or secret onto ``field`` or off it (its attachments to their owners'
dead piles); gear or a condition attached to a card in play (``field:HOST``, OQ17), or detached
from it (out of its host's place: the host's cell, or ``field``). A duplicate arriving in play
goes to its owner's dead pile (先出し生存, OQ6).
Counters: ``influence`` (the seat's; may be negative), ``character_pull`` and ``other_pull``
(the reserve, E7), ``state:CARD`` (0 active, 1 cranked, 2 flipped) of a card in play.
Stats: ``ap`` and ``dp`` of a character in play, ``pull`` of a character or resource in play,
by lasting modifiers (the end of the turn, or for good).
"""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.core.holdings import Holding, Pile, Seat, Stat, Tally
from engine.core.zones import Visibility, Zone
from engine.edge.basics import bury_attached
from engine.edge.conspiracy import check_cell, free_cells, normalise
from engine.edge.model import CardState, Character, EdgeState, Permanent, owner_of
from engine.edge.operations import host
from engine.edge.reasons import EdgeReason as R
from engine.edge.turn import blocked


def _seat(seat: Seat) -> int:
    assert seat is not None  # every On the Edge zone is a seat's
    return seat


def _cell(address: str) -> tuple[int, int]:
    """(rank, file) of a ``RANK.FILE`` address, or IllegalAction ``bad_zone``."""
    rank, dot, file = address.partition(".")
    if not (dot and rank.isdigit() and file.isdigit()):
        raise IllegalAction(R.BAD_ZONE, "Name the cell: conspiracy:RANK.FILE.")
    return int(rank), int(file)


def _address(character: Character) -> str:
    return f"{character.rank}.{character.file}"


class Conspiracy(Holding[EdgeState]):
    """A seat's characters on ranks and files (E6): each occupied cell ``RANK.FILE`` is a place
    holding its character, then what is attached to it."""

    def addresses(self, state: EdgeState, seat: Seat) -> list[str]:
        """The occupied cells."""
        return list(dict.fromkeys(_address(c) for c in state.conspiracies[_seat(seat)]))

    def entries(self, state: EdgeState, seat: Seat) -> list[str]:
        """The free cells a character may be put into in the current frame: rank and file 0
        and R+1, F+1 included (``check_cell``); 1.1 in an empty conspiracy (OQ16)."""
        return [f"{rank}.{file}" for rank, file in free_cells(state, _seat(seat))]

    def cards(self, state: EdgeState, seat: Seat, address: str) -> list[str]:
        """The cell's character, then its attachments."""
        return [card for c in state.conspiracies[_seat(seat)] if _address(c) == address
                for card in (c.card, *c.attached)]

    def take(self, state: EdgeState, seat: Seat, address: str, card: str) -> None:
        """A character leaves the field: its attachments go to their owners' dead piles
        (OQ17) and the grid closes up (E6); an attached card is taken off alone."""
        seat = _seat(seat)
        character = self._at(state, seat, address, card)
        if character.card == card:
            state.conspiracies[seat].remove(character)
            bury_attached(state, character)
            normalise(state, seat)
        else:
            character.attached.remove(card)

    def admit(self, state: EdgeState, seat: Seat, address: str, card: str) -> None:
        """A character, into a cell the placement rules allow (``check_cell``), unless
        uniqueness sends it to the dead pile (OQ6)."""
        if state.card(card).type != "character":
            raise IllegalAction(R.CARD_NOT_IN_ZONE, "Characters go into the conspiracy "
                                "(conspiracy:RANK.FILE); resources, environments and secrets "
                                "onto the field (field); gear and conditions onto a card in "
                                "play (field:HOST).")
        rank, file = _cell(address)
        if not blocked(state, _seat(seat), card):
            check_cell(state, _seat(seat), rank, file)

    def put(self, state: EdgeState, seat: Seat, address: str, card: str) -> None:
        """Active in the cell, the grid renumbered (E6); a duplicate of a character of that
        seat's to its owner's dead pile instead (先出し生存, OQ6)."""
        seat = _seat(seat)
        if blocked(state, seat, card):
            state.dead[owner_of(card)].append(card)
            return
        rank, file = _cell(address)
        state.conspiracies[seat].append(Character(card=card, rank=rank, file=file))
        normalise(state, seat)

    def shift(self, state: EdgeState, seat: int, source: str, target: str, card: str) -> bool:
        """A character from one cell to another of its conspiracy, at once: checked in the
        frame as it stands, with the character lifted (OQ14), then the grid renumbered; it
        keeps its state and its attachments. An attached card is moved as any other."""
        character = self._at(state, seat, source, card)
        if character.card != card:
            return False
        rank, file = _cell(target)
        check_cell(state, seat, rank, file, moving=character)
        character.rank, character.file = rank, file
        normalise(state, seat)
        return True

    @staticmethod
    def _at(state: EdgeState, seat: int, address: str, card: str) -> Character:
        """The character of the cell that is ``card`` or holds it (the kernel found it
        there)."""
        return next(c for c in state.conspiracies[seat] if _address(c) == address
                    and (c.card == card or card in c.attached))


def _field_host(state: EdgeState, seat: int, card: str) -> Permanent | None:
    """The card in play of ``seat`` (a character of its conspiracy, a permanent of its field)
    named ``card``."""
    return next((p for p in [*state.conspiracies[seat], *state.permanents[seat]]
                 if p.card == card), None)


class Field(Holding[EdgeState]):
    """A seat's resources, environments and secret, with what is attached to them, listed as
    one place ``field``; ``field:HOST`` attaches gear or a condition to a card in play of the
    seat (a character of its conspiracy or a permanent of its field, OQ17)."""

    def entries(self, state: EdgeState, seat: Seat) -> list[str]:
        """The field, and every card in play of the seat as a host."""
        seat = _seat(seat)
        return ["", *(p.card for p in [*state.conspiracies[seat], *state.permanents[seat]])]

    def cards(self, state: EdgeState, seat: Seat, address: str) -> list[str]:
        """Each permanent, then what is attached to it."""
        return [card for p in state.permanents[_seat(seat)] for card in (p.card, *p.attached)]

    def take(self, state: EdgeState, seat: Seat, address: str, card: str) -> None:
        """A permanent leaves the field, its attachments to their owners' dead piles (OQ17);
        an attached card is taken off alone."""
        permanents = state.permanents[_seat(seat)]
        for permanent in permanents:
            if permanent.card == card:
                permanents.remove(permanent)
                bury_attached(state, permanent)
                return
            if card in permanent.attached:
                permanent.attached.remove(card)
                return

    def admit(self, state: EdgeState, seat: Seat, address: str, card: str) -> None:
        """Onto ``field``: a resource, an environment or a secret. Onto ``field:HOST``: gear
        on a character of its owner's conspiracy (flipped ones too), a condition on any card
        in play (OQ17)."""
        seat = _seat(seat)
        kind = state.card(card).type
        if not address:
            if kind not in ("resource", "environment", "secret"):
                raise IllegalAction(R.CARD_NOT_IN_ZONE, "Resources, environments and secrets "
                                    "go onto the field (field); characters into the conspiracy "
                                    "(conspiracy:RANK.FILE); gear and conditions onto a card "
                                    "in play (field:HOST).")
            return
        holder = _field_host(state, seat, address)
        if holder is None:
            raise IllegalAction(R.BAD_ZONE, f"{address} is no card in play of seat {seat}: "
                                "field:HOST names a character of its conspiracy or a card of "
                                "its field.")
        if kind not in ("gear", "condition"):
            raise IllegalAction(R.CARD_NOT_IN_ZONE, "Only gear and conditions are attached "
                                "(field:HOST).")
        if kind == "gear" and (not isinstance(holder, Character) or owner_of(card) != seat):
            raise IllegalAction(R.BAD_HOST, "Gear goes on a character in its owner's "
                                "conspiracy (OQ17).")

    def put(self, state: EdgeState, seat: Seat, address: str, card: str) -> None:
        """Attached to the host; or onto the field, active, unless uniqueness sends it to its
        owner's dead pile (先出し生存, OQ6)."""
        seat = _seat(seat)
        holder = _field_host(state, seat, address) if address else None
        if holder is not None:
            holder.attached.append(card)
        elif blocked(state, seat, card):
            state.dead[owner_of(card)].append(card)
        else:
            state.permanents[seat].append(Permanent(card=card))

    def shift(self, state: EdgeState, seat: int, source: str, target: str, card: str) -> bool:
        """A permanent moved onto the field it is on stays as it is, attachments and all; any
        other move takes the card out and puts it in."""
        return source == target == "" and any(p.card == card for p in state.permanents[seat])


def _pile(name: str) -> Pile[EdgeState]:
    return Pile(lambda state, seat: getattr(state, name)[_seat(seat)])


ZONES: tuple[Zone, ...] = (
    Zone("hand", "seat", False, Visibility.OWNER, description="手札: no limit.",
         holding=_pile("hands")),
    Zone("deck", "seat", False, Visibility.JUDGES,
         description="デッキ, face down: a draw is a recorded pick (C1).", holding=_pile("decks")),
    Zone("conspiracy", "seat", False, Visibility.EVERYONE, address="rank.file, e.g. 1.2",
         description="陰謀団: the seat's characters on ranks and files (E6), each with what is "
                     "attached to it; flipped cards are face down but public (OQ28).",
         holding=Conspiracy()),
    Zone("field", "seat", False, Visibility.EVERYONE,
         address="host card in play, e.g. OE-C01@1.1",
         description="場: resources, environments, the secret, and everything attached to them; "
                     "field:HOST attaches gear or a condition to a card in play of the seat.",
         holding=Field()),
    Zone("dead", "seat", False, Visibility.EVERYONE, description="死者の山, face up.",
         holding=_pile("dead")),
)


# ----- what a judge sets (C3) -------------------------------------------------------------
STATES: tuple[CardState, ...] = ("active", "cranked", "flipped")
LIMIT = 999_999  # within an adjustment's counter values (±1,000,000), and refusable above


def _set_influence(state: EdgeState, seat: int, key: str, value: int) -> None:
    state.influence[seat] = value


def _set_pull(name: str) -> Tally[EdgeState]:
    def set_pull(state: EdgeState, seat: int, key: str, value: int) -> None:
        setattr(state, name, value)

    kind = "characters" if name == "character_pull" else "resources (anything but characters)"
    return Tally(name, "match", lambda state, seat, key: int(getattr(state, name)), set_pull,
                 0, LIMIT, description=f"The reserve's pull produced by {kind} (E7).")


def _piece(state: EdgeState, card: str) -> Permanent:
    piece = host(state, card)
    assert piece is not None  # the kernel checked the key: a card in play
    return piece


def _set_state(state: EdgeState, seat: int, card: str, value: int) -> None:
    _piece(state, card).state = STATES[value]


def _in_play(state: EdgeState, seat: int = 0) -> list[str]:
    """Every card in play, in any conspiracy or on any field (attachments aside)."""
    return [p.card for s in state.seats()
            for p in [*state.conspiracies[s], *state.permanents[s]]]


TALLIES: tuple[Tally[EdgeState], ...] = (
    Tally("influence", "seat", lambda state, seat, key: state.influence[seat], _set_influence,
          -LIMIT, LIMIT, description="The seat's influence (may be negative, §影響力)."),
    _set_pull("character_pull"),
    _set_pull("other_pull"),
    Tally("state", "card", lambda state, seat, card: STATES.index(_piece(state, card).state),
          _set_state, 0, 2, description="A card in play: 0 active, 1 cranked, 2 flipped "
          "(flipped only by card text; a flipped character keeps its cell, E6).",
          keys=_in_play),
)


def _characters(state: EdgeState) -> list[str]:
    return [c.card for s in state.seats() for c in state.conspiracies[s]]


def _pull_sources(state: EdgeState) -> list[str]:
    return [card for card in _in_play(state)
            if state.card(card).type in ("character", "resource")]


STATS: tuple[Stat[EdgeState], ...] = (
    Stat("ap", "A character's attack power (AP), compared when it attacks (E3).", _characters),
    Stat("dp", "A character's defence power (DP), compared when it is attacked (E3).",
         _characters),
    Stat("pull", "The pull a character or resource adds to the reserve when cranked for it "
         "(E7); a removed character still costs its printed pull in influence (E3).",
         _pull_sources),
)
