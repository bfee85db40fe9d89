"""Helpers for World Gainer rule tests: hand-made cards, exact positions, checked refusals.

Tests build the position they need directly (a ``WorldGainerState``), so each test names every
card it uses and every zone that matters. Nothing here draws at random.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import IllegalAction, get_game
from engine.core.chance import Chance
from engine.worldgainer.model import (
    ALL_FIELDS,
    SLOTS,
    Card,
    Player,
    Square,
    Stun,
    WorldGainerState,
)
from tests.support import apply_checked, refused_checked

G = get_game("worldgainer")


def card(colour: str, cost: int, stun: int = 1, *, required: tuple[str, int] | None = None,
         name: str | None = None, unique: bool = False) -> dict[str, Any]:
    """One card definition (without its id), as a card-set file gives it."""
    data: dict[str, Any] = {"name": name or f"{colour.title()} {cost}", "colour": colour,
                            "cost": cost, "stun": stun, "unique": unique}
    if required is not None:
        data["required"] = {"colour": required[0], "amount": required[1]}
    return data


def build(cards: Mapping[str, Mapping[str, Any]], *,
          hand1: Iterable[str] = (), hand2: Iterable[str] = (),
          deck1: Iterable[str] = (), deck2: Iterable[str] = (),
          break1: Iterable[str] = (), break2: Iterable[str] = (),
          board: Mapping[str, tuple[int, list[str]]] | None = None,
          standby1: Mapping[int, tuple[str, bool]] | None = None,
          standby2: Mapping[int, tuple[str, bool]] | None = None,
          active: int = 1, turn: int = 3, phase: str = "standby",
          stun_placed: bool = False, gain_placed: bool = False,
          options: Mapping[str, Any] | None = None) -> WorldGainerState:
    """An exact position. ``board`` maps a square to (holder, cards bottom first); ``standby``
    maps a slot (1-5) to (card, ready)."""
    def standby(slots: Mapping[int, tuple[str, bool]] | None) -> list[Stun | None]:
        out: list[Stun | None] = [None] * SLOTS
        for slot, (cid, ready) in (slots or {}).items():
            out[slot - 1] = Stun(card=cid, ready=ready)
        return out

    squares = {f: Square() for f in ALL_FIELDS}
    for fid, (holder, on) in (board or {}).items():
        squares[fid] = Square(holder=holder, cards=tuple(on))
    players = [
        Player(deck=sorted(deck1), hand=sorted(hand1), standby=standby(standby1),
               breaks=list(break1)),
        Player(deck=sorted(deck2), hand=sorted(hand2), standby=standby(standby2),
               breaks=list(break2)),
    ]
    return WorldGainerState(
        game="worldgainer", players=["Aiko", "Ben"],
        options=G.parse_options(dict(options or {})).model_dump(),
        turn=turn, active=active,
        cards={cid: Card.model_validate({**c, "id": cid}) for cid, c in cards.items()},
        seats_state=players, board=squares, phase=phase, stun_placed=stun_placed,
        gain_placed=gain_placed, first_player=1)


def snapshot(state: Any) -> Any:
    """Plain data of a state, to compare before and after."""
    return G.state_to_data(state)


def play(state: Any, action: Mapping[str, Any], chance: Chance | None = None) -> Any:
    """Apply a legal action; also check that ``state`` itself was not changed."""
    return apply_checked(G, state, action, chance)


def refused(state: Any, action: Mapping[str, Any], reason: str,
            chance: Chance | None = None) -> IllegalAction:
    """Assert ``action`` is refused with ``reason`` and the state is left exactly as it was."""
    return refused_checked(G, state, action, reason, chance)


def gain(seat: int, cid: str, field: str, *payment: dict[str, Any]) -> dict[str, Any]:
    """A gain action."""
    return {"type": "gain", "seat": seat, "card": cid, "field": field, "payment": list(payment)}


def exhaust(slot: int) -> dict[str, Any]:
    return {"source": "exhaust_stun", "slot": slot}


def discard(slot: int) -> dict[str, Any]:
    return {"source": "discard_stun", "slot": slot}


def discard_field(field: str) -> dict[str, Any]:
    return {"source": "discard_field_card", "field": field}


def square(state: WorldGainerState, fid: str) -> tuple[int | None, list[str]]:
    """(holder, cards bottom first) of one square."""
    sq = state.board[fid]
    return sq.holder, list(sq.cards)
