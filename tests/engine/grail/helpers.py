"""Helpers for Quest for the Grail rule tests: hand-made cards, exact positions, checked play.

Tests build the position they need directly (a ``GrailState``): every card is one of the small
hand-made definitions below, named by instance ``<card id>@<seat>.<n>`` (the seat is the owner).
Unless a test says otherwise it is seat 1's turn 3 in a 2-player match, in the challenge phase
with the upkeep paid, every seat holding five filler cards (``ROCK``) in its court deck. The
engine is driven only through ``Grail().apply`` (``play``, ``refused``), ``legal_actions``,
``to_act`` and ``view``.

Chance (C1) is entered as the table would: die values 1-6 (two per side per round, side 0's two
dice first), card instance ids for draws and quest reveals; ``NoChance`` when none is expected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine import IllegalAction
from engine.core.chance import Chance, NoChance, SuppliedChance
from engine.grail import Grail
from engine.grail.model import Card, Combat, GrailState, Warrior, card_of
from tests.support import apply_checked, refused_checked

RULES = Grail()


# ----- card definitions (as a card-set file gives them, without the id) -----------------------
def warrior(name: str, kind: str, *, pro: int, strg: int, end: int, val: int, upkeep: int,
            armour: int = 0, domain: str | None = None, alt_victory: bool = False,
            enchanter: int | None = None) -> dict[str, Any]:
    """A warrior card: PRO, STR, END, VAL, upkeep (and a king's domain)."""
    data: dict[str, Any] = {"name": name, "type": "warrior", "kind": kind, "prowess": pro,
                            "strength": strg, "endurance": end, "valor": val,
                            "upkeep": upkeep, "armour": armour, "alt_victory": alt_victory}
    if domain is not None:
        data["domain"] = domain
    if enchanter is not None:
        data["enchanter"] = enchanter
    return data


def quest(name: str, kind: str = "other", *, val: int, pro: int = 0, strg: int = 0,
          end: int = 0, armour: int = 0) -> dict[str, Any]:
    """A quest: a combat quest (kind knight or creature) has combat stats."""
    return {"name": name, "type": "quest", "kind": kind, "valor": val, "prowess": pro,
            "strength": strg, "endurance": end, "armour": armour}


def reward(name: str, category: str, *, value: int = 0, armour: int = 0) -> dict[str, Any]:
    """A reward card of a category (weapon, armour, shield, horse, vow, combat_experience,
    other)."""
    return {"name": name, "type": "reward", "reward": category, "value": value,
            "armour": armour}


def companion(name: str, *, lady: bool = False, enchanter: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"name": name, "type": "companion", "lady": lady}
    if enchanter is not None:
        data["enchanter"] = enchanter
    return data


#: The cards most tests use (PRO/STR/END/VAL/upkeep in the comments).
CARDS: dict[str, dict[str, Any]] = {
    # domains
    "D-NORTH": {"name": "Northmarch", "type": "domain"},
    "D-SOUTH": {"name": "Sunholt", "type": "domain"},
    # knights and kings
    "KNIGHT": warrior("Sir Alan", "knight", pro=5, strg=4, end=6, val=6, upkeep=1),  # 5/4/6/6/1
    "BORS": warrior("Sir Bors", "knight", pro=4, strg=3, end=7, val=8, upkeep=2),  # 4/3/7/8/2
    "HERO": warrior("Sir Percival", "knight", pro=6, strg=5, end=7, val=12, upkeep=3),
    "IRON": warrior("Sir Iron", "knight", pro=3, strg=2, end=8, val=7, upkeep=1, armour=1),
    "KING-N": warrior("King Ulf of Northmarch", "king", pro=6, strg=5, end=8, val=9, upkeep=2,
                      domain="Northmarch", alt_victory=True),  # 6/5/8/9/2, alternate victory
    "KING-N2": warrior("King Olaf of Northmarch", "king", pro=5, strg=4, end=7, val=7,
                       upkeep=2, domain="Northmarch"),  # 5/4/7/7/2
    "KING-S": warrior("King Hal of Sunholt", "king", pro=5, strg=4, end=8, val=10, upkeep=2,
                      domain="Sunholt", alt_victory=True),  # 5/4/8/10/2, alternate victory
    "KING-W": warrior("King Wulf of Sunholt", "king", pro=5, strg=4, end=8, val=10, upkeep=2,
                      domain="Sunholt"),  # 5/4/8/10/2, no alternate victory
    # general warriors
    "SOLDIER": warrior("Man-at-arms", "warrior", pro=3, strg=3, end=4, val=3, upkeep=1),
    "GUARD": warrior("Gate Guard", "warrior", pro=4, strg=2, end=10, val=4, upkeep=1),
    "PAGE": warrior("Page", "warrior", pro=1, strg=1, end=2, val=1, upkeep=0),
    "MAGE": warrior("Court Wizard", "warrior", pro=2, strg=1, end=3, val=2, upkeep=1,
                    enchanter=3),
    # quests
    "Q-WYVERN": quest("Wyvern", "creature", val=3, pro=4, strg=4, end=4),  # 4/4/4
    "Q-BLACK": quest("Black Knight", "knight", val=4, pro=5, strg=5, end=6, armour=1),
    "Q-RIDDLE": quest("Riddle of the Sphinx", val=2),
    "Q-GROVE": quest("Sacred Grove", val=3),
    "Q-WELL": quest("Wishing Well", val=1),
    "Q-TOWER": quest("Tower of Glass", val=5),
    # rewards: value (armour)
    "SWORD": reward("Sword of Light", "weapon", value=2),
    "AXE": reward("Woodman's Axe", "weapon"),
    "MAIL": reward("Chain Mail", "armour", armour=2),
    "PLATE": reward("Plate Armour", "armour", armour=3),
    "SHIELD": reward("Round Shield", "shield", armour=1),
    "HORSE": reward("Palfrey", "horse"),
    "VOW": reward("Vow of Silence", "vow", value=2),
    "EXP": reward("Battle-hardened", "combat_experience", value=1),
    "GEM": reward("Jewel of the East", "other", value=1),
    "CROWN": reward("Iron Crown", "other", value=3),
    # companions
    "LADY": companion("Lady Elaine", lady=True),
    "LADY-B": companion("Lady Vivien", lady=True),
    "SQUIRE": companion("Squire"),
    "SAGE": companion("Hermit Sage", enchanter=2),
    # one-shot cards
    "FEAST": {"name": "Feast", "type": "event"},
    "BOLT": {"name": "Lightning Bolt", "type": "spell", "spell_rating": 2},
    "FEINT": {"name": "Feint", "type": "combat_action"},
    # filler for court decks and hands
    "ROCK": {"name": "Rumour", "type": "event"},
}


def card_models(cards: Mapping[str, Mapping[str, Any]]) -> dict[str, Card]:
    """The validated card definitions, keyed by id."""
    return {cid: Card.model_validate({**c, "id": cid}) for cid, c in cards.items()}


MODELS = card_models(CARDS)


# ----- positions -----------------------------------------------------------------------------
def owner(instance: str) -> int:
    """The seat in an instance id ``card@seat.n``."""
    return int(instance.partition("@")[2].partition(".")[0])


def W(instance: str, *, valor: int | None = None, damage: int = 0,  # noqa: N802
      permanent: int = 0, attached: Iterable[str] = (), acted: bool = False,
      assigned: bool = False) -> Warrior:
    """A warrior on its owner's field (valor: printed VAL unless given)."""
    printed = int(CARDS[card_of(instance)]["valor"])
    return Warrior(card=instance, owner=owner(instance),
                   valor=printed if valor is None else valor, damage=damage,
                   permanent_damage=permanent, attached=list(attached), acted=acted,
                   assigned=assigned)


def rocks(seat: int, n: int = 5, start: int = 90) -> list[str]:
    """``n`` filler court cards of ``seat``."""
    return [f"ROCK@{seat}.{start + i}" for i in range(n)]


def build(*, players: int = 2, active: int = 1, phase: str = "challenge", turn: int = 3,
          hands: Mapping[int, Sequence[str]] | None = None,
          court: Mapping[int, Sequence[str]] | None = None,
          quests: Mapping[int, Sequence[str]] | None = None,
          active_quest: Mapping[int, str | None] | None = None,
          domains: Mapping[int, Sequence[str]] | None = None,
          warriors: Iterable[Warrior] = (),
          court_discard: Mapping[int, Sequence[str]] | None = None,
          quest_discard: Mapping[int, Sequence[str]] | None = None,
          upkeep_paid: bool | None = None, drawn: bool = True,
          victory_challenges: Mapping[int, Sequence[str]] | None = None,
          options: Mapping[str, Any] | None = None, first_player: int = 1,
          **fields: Any) -> GrailState:
    """An exact position (see the module docstring for the defaults)."""
    seats = list(range(1, players + 1))

    def per_seat(given: Mapping[int, Sequence[str]] | None) -> dict[int, list[str]]:
        return {s: list((given or {}).get(s, [])) for s in seats}

    fielded: dict[int, list[Warrior]] = {s: [] for s in seats}
    for w in warriors:
        fielded[w.owner].append(w)
    return GrailState(
        game="grail", players=[f"P{s}" for s in seats],
        options=RULES.parse_options(dict(options or {})).recorded(), turn=turn, active=active,
        cards=MODELS, phase=phase, first_player=first_player,
        court={s: list((court or {}).get(s, rocks(s))) for s in seats},
        quests=per_seat(quests),
        active_quest={s: (active_quest or {}).get(s) for s in seats},
        hands=per_seat(hands), domains=per_seat(domains), warriors=fielded,
        court_discard=per_seat(court_discard), quest_discard=per_seat(quest_discard),
        removed={s: [] for s in seats}, drawn=drawn,
        upkeep_paid=phase == "challenge" if upkeep_paid is None else upkeep_paid,
        victory_challenges={s: list(k) for s, k in (victory_challenges or {}).items()},
        **fields)


# ----- driving the engine --------------------------------------------------------------------
def act(kind: str, seat: int, **fields: Any) -> dict[str, Any]:
    """An action dict: ``act("deploy_warrior", 1, card="KNIGHT@1.1")``."""
    return {"type": kind, "seat": seat, **fields}


def play(state: GrailState, action: Mapping[str, Any], *outcomes: Any) -> GrailState:
    """Apply a legal action whose chance outcomes are exactly ``outcomes`` (dice, drawn or
    revealed card instances), every one used; with none, NoChance. ``state`` must not change."""
    chance: Chance = SuppliedChance(list(outcomes)) if outcomes else NoChance()
    new = apply_checked(RULES, state, action, chance)
    if isinstance(chance, SuppliedChance):
        chance.finish()
    assert isinstance(new, GrailState)
    return new


def refused(state: GrailState, action: Mapping[str, Any], reason: str,
            *outcomes: Any) -> IllegalAction:
    """Assert ``action`` is refused with ``reason`` and the state is left as it was."""
    chance: Chance = SuppliedChance(list(outcomes)) if outcomes else NoChance()
    return refused_checked(RULES, state, action, reason, chance)


def roll(state: GrailState, seat: int, *dice: int, **modifiers: list[int]) -> GrailState:
    """One combat round (G1) recorded by ``seat``: four dice, side 0's two first."""
    assert len(dice) == 4
    return play(state, act("roll_round", seat, **modifiers), *dice)


def adjust(seat: int, **change: Any) -> dict[str, Any]:
    """A judge's adjustment (C3) with a reason."""
    return {"type": "adjust", "seat": seat, "reason": "card text effect", **change}


def warrior_of(state: GrailState, instance: str) -> Warrior:
    """The warrior on the field (it must be there)."""
    found = state.warrior(instance)
    assert found is not None, f"{instance} is not on the field"
    return found


def on_field(state: GrailState, instance: str) -> bool:
    return state.warrior(instance) is not None


def combat_of(state: GrailState) -> Combat:
    assert state.combat is not None, "no combat in progress"
    return state.combat


def legal_types(state: GrailState, seat: int) -> set[str]:
    """The types of the actions ``seat`` may take now, as listed."""
    return {a.type for a in RULES.legal_actions(state, seat)}
