"""Helpers for On the Edge rule tests: hand-made cards, exact positions, checked play.

Tests build the position they need directly (an ``EdgeState``): every card is one of the small
hand-made definitions below, named by instance ``<card id>@<seat>.<n>`` (the seat is the owner).
Unless a test says otherwise it is seat 1's turn 3 of a 2-player match, in the operations step,
with an empty reserve, no influence, empty hands and five filler cards (``FILL``) in each deck.
The engine is driven only through ``Edge().apply`` (``play``, ``refused``), ``legal_actions``,
``to_act`` and ``view``.

Chance (C1) is entered as the table would: card instance ids for draws, seat numbers for the
first-player pick; ``NoChance`` when none is expected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine import IllegalAction
from engine.core.chance import Chance, NoChance, SuppliedChance
from engine.edge import Edge
from engine.edge.model import Card, Character, EdgeState, Permanent
from tests.support import apply_checked, refused_checked

RULES = Edge()


def character(name: str, *, cost: int, ap: int, dp: int, pull: int | None = None,
              traits: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
    """A character card: cost, AP, DP, printed pull."""
    data: dict[str, Any] = {"name": name, "type": "character", "cost": cost, "ap": ap, "dp": dp,
                            "traits": list(traits), **extra}
    if pull is not None:
        data["pull"] = pull
    return data


#: The cards the tests use (cost, AP/DP, pull in the comments).
CARDS: dict[str, dict[str, Any]] = {
    # characters
    "ENF": character("Enforcer", cost=2, ap=4, dp=3, traits=["Brute"]),  # 2, 4/3, no pull
    "ENF2": character("Enforcer", cost=1, ap=3, dp=3),  # another printing of the same name
    "FIX": character("Fixer", cost=1, ap=2, dp=2, pull=1, traits=["Agent"]),  # 1, 2/2, pull 1
    "SEER": character("Seer", cost=2, ap=1, dp=3, pull=2, traits=["Mystic"]),  # 2, 1/3, pull 2
    "WARD": character("Warden", cost=3, ap=3, dp=5, pull=1),  # 3, 3/5, pull 1
    "PROPHET": character("Prophet", cost=0, ap=1, dp=1, pull=1),  # 0, 1/1, pull 1
    "BRUTE": character("Bruiser", cost=1, ap=3, dp=2),  # 1, 3/2
    "BOSS": character("Boss", cost=2, ap=3, dp=3, pull=3),  # 2, 3/3, pull 3
    "WALKER": character("Edge Walker", cost=1, ap=5, dp=4, pull=2, cost_dot=True,
                        cost_requires=["Agent"]),  # dotted 1: an Agent of yours
    "DOTTY": character("Dotty", cost=1, ap=1, dp=1, cost_dot=True),  # dotted, no requirement
    # resources, environments, secrets
    "SAFE": {"name": "Safehouse", "type": "resource", "cost": 0, "pull": 1},
    "DEN": {"name": "Smuggler's Den", "type": "resource", "cost": 0, "pull": 2},
    "CITY": {"name": "Night City", "type": "environment", "cost": 1},
    "CITY2": {"name": "Night City", "type": "environment", "cost": 1},
    "PORT": {"name": "Harbour", "type": "environment", "cost": 1},
    "PLAN": {"name": "The Plan", "type": "secret", "cost": 0},
    "PLOT": {"name": "The Plot", "type": "secret", "cost": 0},
    # attachments
    "KNUCKLES": {"name": "Brass Knuckles", "type": "gear", "cost": 1},
    "COAT": {"name": "Warded Coat", "type": "gear", "cost": 1},
    "MARKED": {"name": "Marked", "type": "condition", "cost": 1},
    "CURSE": {"name": "Curse", "type": "condition", "cost": 0},
    # whammies
    "JAB": {"name": "Sucker Punch", "type": "whammy"},
    "AMBUSH": {"name": "Ambush", "type": "whammy", "play_any_time": True},
    # filler for decks
    "FILL": {"name": "Rumour", "type": "whammy"},
}


def card_models(cards: Mapping[str, Mapping[str, Any]]) -> dict[str, Card]:
    """The validated card definitions, keyed by id."""
    return {cid: Card.model_validate({**c, "id": cid}) for cid, c in cards.items()}


MODELS = card_models(CARDS)


# ----- positions -----------------------------------------------------------------------------
def C(instance: str, rank: int = 1, file: int = 1, state: str = "active",  # noqa: N802
      attached: Iterable[str] = ()) -> Character:
    """A character in its owner's conspiracy at (rank, file)."""
    return Character(card=instance, rank=rank, file=file, state=state,  # type: ignore[arg-type]
                     attached=list(attached))


def P(instance: str, state: str = "active", attached: Iterable[str] = ()) -> Permanent:  # noqa: N802
    """A resource, environment or secret on its owner's field."""
    return Permanent(card=instance, state=state, attached=list(attached))  # type: ignore[arg-type]


def owner(instance: str) -> int:
    """The seat in an instance id ``card@seat.n``."""
    return int(instance.partition("@")[2].partition(".")[0])


def fills(seat: int, n: int = 5, start: int = 90) -> list[str]:
    """``n`` filler deck cards of ``seat``."""
    return [f"FILL@{seat}.{start + i}" for i in range(n)]


def build(*, players: int = 2, active: int = 1, step: str = "operations", turn: int = 3,
          hands: Mapping[int, Sequence[str]] | None = None,
          decks: Mapping[int, Sequence[str]] | None = None,
          characters: Iterable[Character] = (), permanents: Iterable[Permanent] = (),
          dead: Mapping[int, Sequence[str]] | None = None,
          influence: Mapping[int, int] | None = None,
          options: Mapping[str, Any] | None = None, starting_players: int | None = None,
          **fields: Any) -> EdgeState:
    """An exact position (see the module docstring for the defaults)."""
    seats = list(range(1, players + 1))
    conspiracies: dict[int, list[Character]] = {s: [] for s in seats}
    for c in characters:
        conspiracies[owner(c.card)].append(c)
    fielded: dict[int, list[Permanent]] = {s: [] for s in seats}
    for p in permanents:
        fielded[owner(p.card)].append(p)
    return EdgeState(
        game="edge", players=[f"P{s}" for s in seats],
        options=RULES.parse_options(dict(options or {})).recorded(), turn=turn, active=active,
        cards=MODELS, step=step,
        starting_players=players if starting_players is None else starting_players,
        decks={s: list((decks or {}).get(s, fills(s))) for s in seats},
        hands={s: list((hands or {}).get(s, [])) for s in seats},
        conspiracies=conspiracies, permanents=fielded,
        dead={s: list((dead or {}).get(s, [])) for s in seats},
        influence={s: (influence or {}).get(s, 0) for s in seats}, **fields)


# ----- driving the engine --------------------------------------------------------------------
def act(kind: str, seat: int, **fields: Any) -> dict[str, Any]:
    """An action dict: ``act("place_character", 1, card="ENF@1.1", rank=1, file=1)``."""
    return {"type": kind, "seat": seat, **fields}


def play(state: EdgeState, action: Mapping[str, Any], *outcomes: Any) -> EdgeState:
    """Apply a legal action whose chance outcomes are exactly ``outcomes`` (drawn card
    instances), every one used; with none, NoChance. ``state`` must not change."""
    chance: Chance = SuppliedChance(list(outcomes)) if outcomes else NoChance()
    new = apply_checked(RULES, state, action, chance)
    if isinstance(chance, SuppliedChance):
        chance.finish()
    assert isinstance(new, EdgeState)
    return new


def refused(state: EdgeState, action: Mapping[str, Any], reason: str,
            *outcomes: Any) -> IllegalAction:
    """Assert ``action`` is refused with ``reason`` and the state is left as it was."""
    chance: Chance = SuppliedChance(list(outcomes)) if outcomes else NoChance()
    return refused_checked(RULES, state, action, reason, chance)


def adjust(seat: int, **change: Any) -> dict[str, Any]:
    """A judge's adjustment (C3) with a reason."""
    return {"type": "adjust", "seat": seat, "reason": "card text effect", **change}


def place(seat: int, card: str, rank: int, file: int, chars: int = 0,
          others: int = 0) -> dict[str, Any]:
    """place_character with a payment (character pull, other pull)."""
    return act("place_character", seat, card=card, rank=rank, file=file,
               from_characters=chars, from_others=others)


def grid(state: EdgeState, seat: int) -> dict[str, tuple[int, int]]:
    """``seat``'s conspiracy as {card instance: (rank, file)}."""
    return {c.card: (c.rank, c.file) for c in state.conspiracies[seat]}


def char(state: EdgeState, instance: str) -> Character:
    """The character in a conspiracy (it must be there)."""
    for chars in state.conspiracies.values():
        for c in chars:
            if c.card == instance:
                return c
    raise AssertionError(f"{instance} is in no conspiracy")


def perm(state: EdgeState, instance: str) -> Permanent:
    """The permanent on a field (it must be there)."""
    for ps in state.permanents.values():
        for p in ps:
            if p.card == instance:
                return p
    raise AssertionError(f"{instance} is on no field")


def legal_types(state: EdgeState, seat: int) -> set[str]:
    """The types of the actions ``seat`` may take now, as listed."""
    return {a.type for a in RULES.legal_actions(state, seat)}
