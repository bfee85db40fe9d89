"""Helpers for Illuminati rule tests: a hand-made card set, real setups, exact positions.

A match is always started through the real setup actions (``reveal_illuminati`` then
``reveal_groups``) with a seeded chance source; a test then edits a deep copy of that state to
build the exact position it needs (``table``, ``put``, ``chain``, ``fill``) and drives whatever is
under test through ``rules.apply`` (``play``, ``refused``, ``attack``, ``resolve``).

Every seat's deck is 45 cards: its Illuminati, 14 copies of the plot ``memo`` and the 30 deck
groups ``d01``-``d30`` (one each). Seat ``s`` starts with ``d0s`` as its initial group (its
"home" group). Every other card below is never in a deck: tests put instances of it (``gov@2``)
straight into the zone they need, so an instance never exists twice.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine import IllegalAction, MatchConfig, get_game
from engine.core.chance import Chance, SuppliedChance
from engine.illuminati import Illuminati, combat, structure
from engine.illuminati.combat import Tally
from engine.illuminati.model import IlluminatiState, Node, Side
from tests.support import RandomChance, apply_checked, refused_checked

RULES = get_game("illuminati")
assert isinstance(RULES, Illuminati)
G: Illuminati = RULES

ALL_ARROWS = ["top", "right", "bottom", "left"]
GROUP_ARROWS = ["right", "bottom", "left"]


# ----- card definitions -------------------------------------------------------------------------
def illuminati(name: str, power: int, global_power: int, *alignments: str) -> dict[str, Any]:
    """An Illuminati card definition (four outgoing arrows)."""
    return {"name": name, "kind": "illuminati", "power": power, "global_power": global_power,
            "alignments": list(alignments), "arrows": list(ALL_ARROWS),
            "goal": f"{name}'s special goal."}


def group(name: str, power: int, resistance: int, *alignments: str,
          global_power: int | None = None,
          arrows: Sequence[str] = GROUP_ARROWS) -> dict[str, Any]:
    """A group card definition (outgoing arrows right, bottom and left unless given)."""
    data: dict[str, Any] = {"name": name, "kind": "group", "power": power,
                            "resistance": resistance, "alignments": list(alignments),
                            "arrows": list(arrows)}
    if global_power is not None:
        data["global_power"] = global_power
    return data


def plot(name: str, plot_type: str = "ordinary", *, power: int = 0,
         colour: str | None = None) -> dict[str, Any]:
    """A plot card definition."""
    data: dict[str, Any] = {"name": name, "kind": "plot", "plot_type": plot_type,
                            "power": power}
    if colour is not None:
        data["colour"] = colour
        data["permanent"] = True
    return data


def resource(name: str, *, unique: bool = False) -> dict[str, Any]:
    """A resource card definition."""
    return {"name": name, "kind": "resource", "unique": unique}


#: The six Illuminati, none with an alignment (so an Illuminati never adds an I2/I3 term unless a
#: test gives it one); seat s plays ILLUMINATI[s - 1] unless a test says otherwise.
ILLUMINATI = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]

CARDS: dict[str, dict[str, Any]] = {
    "alpha": illuminati("Alpha Lodge", 10, 8),
    "beta": illuminati("Beta Cabal", 9, 7),
    "gamma": illuminati("Gamma Circle", 8, 6),
    "delta": illuminati("Delta Council", 8, 6),
    "epsilon": illuminati("Epsilon Society", 7, 7),
    "zeta": illuminati("Zeta Assembly", 7, 5),
    "govill": illuminati("Government Lodge", 10, 8, "government"),
    # Plots.
    "memo": plot("Misplaced Memo"),
    "raid": plot("Midnight Raid", "attack"),
    "hit5": plot("Hired Assassin", "instant_attack", power=5),
    "ledger": plot("Secret Ledger", "goal"),
    "nwo-red-1": plot("Red Order I", "new_world_order", colour="red"),
    "nwo-red-2": plot("Red Order II", "new_world_order", colour="red"),
    "nwo-blue": plot("Blue Order", "new_world_order", colour="blue"),
    # Groups with alignments (power, resistance).
    "gov": group("Tax Office", 5, 4, "government"),
    "gov2": group("Census Bureau", 3, 6, "government"),
    "govlib": group("Civil Rights Board", 6, 3, "government", "liberal"),
    "libgov": group("City Council", 2, 5, "liberal", "government"),
    "corp": group("Widget Corp", 4, 5, "corporate"),
    "corpcon": group("Old Money Club", 4, 5, "corporate", "conservative"),
    "crim": group("Pickpockets Guild", 4, 4, "criminal"),
    "crim2": group("Smugglers Ring", 3, 5, "criminal"),
    "allsorts": group("Everything Club", 5, 5, "government", "corporate", "liberal",
                      "conservative", "peaceful", "violent", "straight", "weird"),
    "fan": group("Doomsday Choir", 3, 3, "fanatic"),
    "fan2": group("Flat Sky Society", 5, 2, "fanatic"),
    # Groups without alignments.
    "plain": group("Plain Folk", 3, 4),
    "tall": group("Control Tower", 7, 2),
    "globe": group("Satellite Network", 6, 3, global_power=4),
    "zero": group("Mime Troupe", 0, 2),
    "giant": group("World Bank", 30, 30),
    "leaf": group("Lonely Hermit", 2, 2, arrows=[]),
    "onearrow": group("Right Hand", 2, 2, arrows=["right"]),
    # Resources.
    "uniq": resource("Crown Jewels", unique=True),
}
#: The deck groups d01-d30 ("Deck Group 01", ...): power 1, resistance 1, no alignment.
CARDS.update({f"d{n:02d}": group(f"Deck Group {n:02d}", 1, 1) for n in range(1, 31)})
#: Fillers f01-f40 for chains and big structures: power 1, resistance 1, no alignment.
CARDS.update({f"f{n:02d}": group(f"Filler {n:02d}", 1, 1) for n in range(1, 41)})
#: Plain ordinary plots p1-p9 for hands.
CARDS.update({f"p{n}": plot(f"Plot {n}") for n in range(1, 10)})

DECK_GROUPS = [f"d{n:02d}" for n in range(1, 31)]


def deck(ill: str = "alpha", **counts: int) -> dict[str, int]:
    """A legal 45-card deck: ``ill``, 14 memos and d01-d30; ``counts`` override (0 removes)."""
    out: dict[str, int] = {ill: 1, "memo": 14} | {g: 1 for g in DECK_GROUPS}
    out.update(counts)
    return {k: v for k, v in out.items() if v}


def config(decks: Sequence[Mapping[str, int]], **options: Any) -> MatchConfig:
    """A match configuration over the CARDS set, one player per deck."""
    return MatchConfig(players=[f"P{n}" for n in range(1, len(decks) + 1)],
                       decks=[dict(d) for d in decks], cards=CARDS, options=options)


def home(seat: int) -> str:
    """The instance id of ``seat``'s initial group."""
    return f"d{seat:02d}@{seat}"


def start(n: int = 2, *, ills: Sequence[str] | None = None, seed: int = 1,
          **options: Any) -> IlluminatiState:
    """An ``n``-player match set up through the real setup actions with a seeded chance: seat s
    plays ``ills[s - 1]`` (ILLUMINATI by default) and starts with ``d0s``."""
    chosen = list(ills) if ills is not None else ILLUMINATI[:n]
    chance = RandomChance(random.Random(seed))
    st = G.setup(config([deck(ill) for ill in chosen], **options), chance)
    st = G.apply(st, {"type": "reveal_illuminati", "seat": 1,
                      "choices": {s: chosen[s - 1] for s in range(1, n + 1)}}, chance)
    st = G.apply(st, {"type": "reveal_groups", "seat": 1,
                      "choices": {s: f"d{s:02d}" for s in range(1, n + 1)}}, chance)
    assert isinstance(st, IlluminatiState)
    assert st.phase == "beginning"
    return st


def table(n: int = 2, *, ills: Sequence[str] | None = None, active: int = 1,
          phase: str = "main", **options: Any) -> IlluminatiState:
    """A set-up match edited into a bare position: turn order 1, 2, ..., ``active`` to move in
    ``phase``, every hand empty, no token anywhere; each structure holds only its Illuminati and
    the seat's home group (on the Illuminati's top arrow)."""
    st = copy.deepcopy(start(n, ills=ills, **options))
    for seat in st.seats():
        p = st.player(seat)
        p.plot_hand, p.group_hand, p.revealed = [], [], []
        assert p.illuminati is not None
        p.structure = {p.illuminati: Node(card=p.illuminati),
                       home(seat): Node(card=home(seat), parent=p.illuminati, arrow="top")}
    st.order = list(st.seats())
    st.active, st.turn, st.phase, st.step = active, 3, phase, "plot"
    st.auto_controlled = st.resource_placed = st.group_draw_bought = False
    return st


def inst(card: str, seat: int) -> str:
    """An instance id: ``card`` itself if it has an owner, else the copy owned by ``seat``."""
    return card if "@" in card else f"{card}@{seat}"


def ill(st: IlluminatiState, seat: int) -> str:
    """The instance id of ``seat``'s Illuminati."""
    card = st.player(seat).illuminati
    assert card is not None
    return card


def put(st: IlluminatiState, seat: int, card: str, parent: str = "illuminati",
        arrow: Side | None = None, *, tokens: int = 0) -> str:
    """Hang ``card`` (an instance, or a card id owned by ``seat``) in ``seat``'s structure under
    ``parent`` (default its Illuminati) at ``arrow`` (default: the first free one)."""
    p = st.player(seat)
    up = ill(st, seat) if parent == "illuminati" else inst(parent, seat)
    side = arrow or structure.free_arrows(st, p, up)[0]
    assert side in structure.free_arrows(st, p, up), f"{up} {side} is not free"
    card = inst(card, seat)
    p.structure[card] = Node(card=card, parent=up, arrow=side, tokens=tokens)
    return card


def chain(st: IlluminatiState, seat: int, *cards: str, tokens: int = 0) -> list[str]:
    """Hang ``cards`` one under the other, the first under ``seat``'s Illuminati."""
    out: list[str] = []
    parent = "illuminati"
    for card in cards:
        parent = put(st, seat, card, parent, tokens=tokens)
        out.append(parent)
    return out


def fill(st: IlluminatiState, seat: int, total: int, first: int = 1) -> None:
    """Add fillers (f01, f02, ... from ``first``) to ``seat``'s structure, each at the first
    free arrow of the earliest card that has one, until it holds ``total`` groups."""
    p = st.player(seat)
    n = first
    while len(structure.groups_in(p)) < total:
        parent = next(c for c in p.structure if structure.free_arrows(st, p, c))
        put(st, seat, f"f{n:02d}", parent)
        n += 1


def groups(st: IlluminatiState, seat: int) -> int:
    """How many groups ``seat``'s power structure holds (I1's count)."""
    return len(structure.groups_in(st.player(seat)))


# ----- applying actions -------------------------------------------------------------------------
def snapshot(state: Any) -> Any:
    """Plain data of a state, to compare before and after."""
    return G.state_to_data(state)


def play(state: IlluminatiState, action: Mapping[str, Any],
         chance: Chance | None = None) -> IlluminatiState:
    """Apply a legal action; also check that ``state`` itself was not changed."""
    new = apply_checked(G, state, action, chance)
    assert isinstance(new, IlluminatiState)
    return new


def refused(state: IlluminatiState, action: Mapping[str, Any], reason: str,
            chance: Chance | None = None) -> IllegalAction:
    """Assert ``action`` is refused with ``reason`` and the state is left exactly as it was."""
    return refused_checked(G, state, action, reason, chance)


def declare(st: IlluminatiState, attacker: str, target: str, purpose: str = "control", *,
            seat: int = 1, **extra: Any) -> IlluminatiState:
    """Declare an attack (not yet paid)."""
    return play(st, {"type": "attack", "seat": seat, "attacker": attacker, "target": target,
                     "purpose": purpose, **extra})


def attack(st: IlluminatiState, attacker: str, target: str, purpose: str = "control", *,
           seat: int = 1, plot: str | None = None, **extra: Any) -> IlluminatiState:
    """Declare an attack and pay it (the attacker's token, or ``plot``): support stage."""
    st = declare(st, attacker, target, purpose, seat=seat, **extra)
    pay: dict[str, Any] = {"type": "pay_attack", "seat": seat}
    if plot is not None:
        pay["plot"] = plot
    st = play(st, pay)
    assert st.attack is not None and st.attack.stage == "support"
    return st


def support(st: IlluminatiState, seat: int, card: str, side: str = "attack",
            use: str = "power") -> IlluminatiState:
    """One support action."""
    return play(st, {"type": "support", "seat": seat, "card": card, "side": side, "use": use})


def resolve(st: IlluminatiState, dice: tuple[int, int]) -> IlluminatiState:
    """Every seat still to act passes; the last pass rolls ``dice`` (and nothing else)."""
    waiting = G.to_act(st)
    assert waiting, "nobody left to pass"
    for seat in waiting[:-1]:
        st = play(st, {"type": "pass", "seat": seat})
        assert st.attack is not None, "the attack resolved before everyone passed"
    chance = SuppliedChance(list(dice))
    st = play(st, {"type": "pass", "seat": waiting[-1]}, chance)
    chance.finish()
    assert [o.kind for o in chance.outcomes] == ["attack_die", "attack_die"]
    assert st.attack is None
    return st


def tally(st: IlluminatiState) -> Tally:
    """The tally of the attack under way."""
    assert st.attack is not None
    return combat.tally(st, st.attack)


def totals(st: IlluminatiState) -> tuple[int, int]:
    """(attack total, defence total) of the attack under way."""
    t = tally(st)
    return t.attack_total, t.defence_total
