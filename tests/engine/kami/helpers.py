"""Helpers for Kami no Kijutsu rule tests: hand-made cards, exact positions, checked refusals.

Tests build the position they need directly (a ``KamiState``): every card they use is one of the
small hand-made definitions below (or one a test adds), and every zone that matters is named.
The deck and the AP pile hold cards whose identity is fixed only when needed (kami Q-15,
engine/kami/deck.py): ``build`` takes each seat's unseen cards as one shuffled layer and the AP
count; the AP cards and the deck (``len(pool) - ap``) both come out of that layer. The engine is
driven only through ``Kami().apply`` (``play``, ``refused``), ``legal_actions`` and ``view``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine import JUDGE, IllegalAction, MatchConfig
from engine.core.chance import Chance, NoChance, SuppliedChance
from engine.kami import Kami
from engine.kami.model import HEXES, Attached, Card, Hex, KamiState, Run, Unit
from tests.support import apply_checked, refused_checked

RULES = Kami()


# ----- card definitions (as a card-set file gives them, without the id) -----------------------
def territory(name: str, *, set_cost: int = 1, replace_cost: int = 2,
              support: Mapping[str, int] | None = None) -> dict[str, Any]:
    """A territory: its two costs and its support icons."""
    return {"name": name, "kind": "territory", "set_cost": set_cost,
            "replace_cost": replace_cost, "support": dict(support or {})}


def unit(name: str, *, cost: int = 1, at: int = 1, df: int = 1, vp: int = 1,
         move: int | None = 1, teleport: int | None = 2,
         hold: Mapping[str, int] | None = None, support: Mapping[str, int] | None = None,
         reinforcement: bool = False, reinforce_cost: int | None = None) -> dict[str, Any]:
    """A unit (``move``/``teleport`` None: it cannot do that, kami Q-20)."""
    data: dict[str, Any] = {"name": name, "kind": "unit", "cost": cost, "at": at, "df": df,
                            "vp": vp, "hold": dict(hold or {}), "support": dict(support or {}),
                            "reinforcement": reinforcement}
    if move is not None:
        data["move_cost"] = move
    if teleport is not None:
        data["teleport_cost"] = teleport
    if reinforce_cost is not None:
        data["reinforce_cost"] = reinforce_cost
    return data


def option(name: str, *, cost: int = 1, at_mod: int = 0, df_mod: int = 0, vp: int = 0,
           hold: Mapping[str, int] | None = None) -> dict[str, Any]:
    """An option: its modifiers, its VP and its hold."""
    return {"name": name, "kind": "option", "cost": cost, "at_mod": at_mod, "df_mod": df_mod,
            "vp": vp, "hold": dict(hold or {})}


def force(name: str, *, cost: int = 1, interference: bool = False,
          hold: Mapping[str, int] | None = None) -> dict[str, Any]:
    """A force, with or without interference (干渉)."""
    return {"name": name, "kind": "force", "cost": cost, "interference": interference,
            "hold": dict(hold or {})}


#: The cards most tests use. Every cost differs from the others where a test checks which one
#: was paid.
CARDS: dict[str, dict[str, Any]] = {
    # territories: set cost, replace cost, support
    "T-RED": territory("Red Shrine", set_cost=1, replace_cost=3, support={"red": 2}),
    "T-BLUE": territory("Blue Spring", set_cost=2, replace_cost=4, support={"blue": 2}),
    "T-BLACK": territory("Black Barrow", set_cost=1, replace_cost=2, support={"black": 1}),
    # plain units, no hold: AT, DF, VP as named
    "SOLDIER": unit("Soldier", cost=2, at=3, df=3, vp=2, move=1, teleport=2),
    "GUARD": unit("Guard", cost=1, at=1, df=4, vp=1, move=1, teleport=3),
    "SCOUT": unit("Scout", cost=1, at=1, df=1, vp=1, move=1, teleport=1),
    "STATUE": unit("Statue", cost=1, at=0, df=2, vp=1, move=None, teleport=None),
    # reinforcements (援軍)
    "SHIELD": unit("Shield Bearer", cost=3, at=1, df=2, vp=1, reinforcement=True,
                   reinforce_cost=1),
    "SPEAR": unit("Spear Bearer", cost=2, at=2, df=1, vp=2, reinforcement=True),
    # options
    "BLADE": option("Blade", cost=1, at_mod=2, vp=1),
    "CURSE": option("Curse", cost=1, df_mod=-1, vp=2),
    # forces
    "BOLT": force("Bolt", cost=1),
    "WARD": force("Ward", cost=2, interference=True),
    # filler for hands and decks
    "ROCK": unit("Rock", cost=9, at=0, df=1, vp=0),
}


def card_models(cards: Mapping[str, Mapping[str, Any]]) -> dict[str, Card]:
    """The validated card definitions, keyed by id."""
    return {cid: Card.model_validate({**c, "id": cid}) for cid, c in cards.items()}


# ----- positions -----------------------------------------------------------------------------
def U(card: str, owner: int, *, damage: int = 0, lasting: int = 0,  # noqa: N802
      options: Iterable[tuple[str, int]] = ()) -> Unit:
    """A unit on the field: its card, owner, damage and its options as (card, owner)."""
    return Unit(card=card, owner=owner, damage=damage, lasting_damage=lasting,
                options=[Attached(card=c, owner=o) for c, o in options])


def build(cards: Mapping[str, Mapping[str, Any]] | None = None, *,
          hands: Mapping[int, Sequence[str]] | None = None,
          pool: Mapping[int, Sequence[str]] | None = None,
          ap: Mapping[int, int] | None = None,
          discard: Mapping[int, Sequence[str]] | None = None,
          forces: Mapping[int, Sequence[str]] | None = None,
          vp: Mapping[int, int] | None = None,
          units: Mapping[str, Unit] | None = None,
          territories: Mapping[str, tuple[str, int]] | None = None,
          hand_limit: Mapping[int, int] | None = None,
          phase: str = "action", active: int = 1, turn: int = 3,
          options: Mapping[str, Any] | None = None) -> KamiState:
    """An exact position. ``pool`` is each seat's unseen cards (deck and AP pile together,
    none of them fixed yet, kami Q-15), ``ap`` how many of them are AP cards; the deck holds
    the rest."""
    seats = (1, 2)
    pools = {s: list((pool or {}).get(s, [])) for s in seats}
    aps = {s: (ap or {}).get(s, 0) for s in seats}
    assert all(aps[s] <= len(pools[s]) for s in seats), "AP cards come out of the pool"
    board = {h: Hex() for h in HEXES}
    for hex_id, (card, owner) in (territories or {}).items():
        board[hex_id] = Hex(territory=card, territory_owner=owner)
    for hex_id, placed in (units or {}).items():
        board[hex_id].unit = placed
    return KamiState(
        game="kami", players=["Aiko", "Ben"],
        options=RULES.parse_options(dict(options or {})).recorded(),
        turn=turn, active=active, cards=card_models(cards or CARDS), phase=phase,
        first_player=1, layers={s: [sorted(pools[s])] for s in seats},
        deck_top={s: [] for s in seats},
        deck_under={s: [Run(layer=0, count=len(pools[s]) - aps[s])] if len(pools[s]) > aps[s]
                    else []
                    for s in seats},
        ap={s: [0] * aps[s] for s in seats},
        hands={s: list((hands or {}).get(s, [])) for s in seats},
        discard={s: list((discard or {}).get(s, [])) for s in seats},
        forces={s: list((forces or {}).get(s, [])) for s in seats},
        vp={s: (vp or {}).get(s, 0) for s in seats},
        mulligans={s: 0 for s in seats}, kept={s: True for s in seats},
        hand_limit={s: (hand_limit or {}).get(s, 5) for s in seats}, board=board)


def rocks(n: int) -> list[str]:
    """``n`` filler cards, for a pool or a hand whose contents do not matter."""
    return ["ROCK"] * n


# ----- setup ---------------------------------------------------------------------------------
def config(decks: Sequence[Mapping[str, int]], cards: Mapping[str, Mapping[str, Any]],
           **options: Any) -> MatchConfig:
    """A two-seat match config on hand-made decks."""
    return MatchConfig(players=["Aiko", "Ben"], decks=[dict(d) for d in decks],
                       cards={k: dict(v) for k, v in cards.items()}, options=options)


# ----- driving the engine --------------------------------------------------------------------
def play(state: KamiState, action: Mapping[str, Any], chance: Chance | None = None) -> KamiState:
    """Apply a legal action (NoChance unless given); ``state`` itself must not change."""
    new = apply_checked(RULES, state, action, chance if chance is not None else NoChance())
    assert isinstance(new, KamiState)
    return new


def play_with(state: KamiState, action: Mapping[str, Any], *cards: str) -> KamiState:
    """Apply an action whose chance outcomes are exactly ``cards``, in that order: the cards
    drawn, and at a renewal the AP-pile cards fixed (kami Q-15); every one must be used."""
    chance = SuppliedChance(list(cards))
    new = play(state, action, chance)
    chance.finish()
    return new


def refused(state: KamiState, action: Mapping[str, Any], reason: str,
            chance: Chance | None = None) -> IllegalAction:
    """Assert ``action`` is refused with ``reason`` and the state is left as it was."""
    return refused_checked(RULES, state, action, reason, chance)


def act(kind: str, seat: int, **fields: Any) -> dict[str, Any]:
    """An action dict: ``act("summon_unit", 1, card="SOLDIER", hex="A1:2C")``."""
    return {"type": kind, "seat": seat, **fields}


def adjust(seat: int, **change: Any) -> dict[str, Any]:
    """A judge's adjustment (C3) with a reason."""
    return {"type": "adjust", "seat": seat, "reason": "card text effect", **change}


def _seat_view(state: KamiState, seat: int) -> dict[str, Any]:
    seats = RULES.view(state, JUDGE)["seats"]
    return next(v for v in seats if v["seat"] == seat)


def ap_count(state: KamiState, seat: int) -> int:
    """A seat's AP (the size of its AP pile), as every view shows it."""
    return int(_seat_view(state, seat)["ap"])


def deck_count(state: KamiState, seat: int) -> int:
    """How many cards a seat's deck holds, as every view shows it."""
    return int(_seat_view(state, seat)["deck_count"])


def ap_counts(state: KamiState) -> dict[int, int]:
    return {s: ap_count(state, s) for s in (1, 2)}


def deck_counts(state: KamiState) -> dict[int, int]:
    return {s: deck_count(state, s) for s in (1, 2)}


def unseen(state: KamiState, seat: int) -> list[str]:
    """The ids of a seat's cards whose identity nobody at the table knows yet (kami Q-15), as
    a judge's view lists them, sorted."""
    return [c["id"] for c in _seat_view(state, seat)["unseen"]]


def unit_on(state: KamiState, hex_id: str) -> tuple[str, int] | None:
    """(card, owner) of the unit on a hex, or None."""
    placed = state.board[hex_id].unit
    return None if placed is None else (placed.card, placed.owner)


def territory_on(state: KamiState, hex_id: str) -> tuple[str, int] | None:
    """(card, owner) of the territory on a hex, or None."""
    place = state.board[hex_id]
    if place.territory is None:
        return None
    assert place.territory_owner is not None
    return place.territory, place.territory_owner


def legal_types(state: KamiState, seat: int) -> set[str]:
    """The types of the actions ``seat`` may take now, as listed."""
    return {a.type for a in RULES.legal_actions(state, seat)}
