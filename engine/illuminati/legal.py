"""Legal actions for Illuminati.

Every kind of action open to the seat is listed, with its parameters spelled out wherever they
are a small set (attacks, supports, placements, moves). Where the choices are combinatorial (which
cards to discard or give, which two groups pay a plot draw, which link to make, the simultaneous
setup reveals) one representative is listed; any other legal choice is still accepted by apply.
Special-goal and goal-card claims are never listed: only the claimant knows the card text is met
(C3), so they are the player's to make, not the engine's to suggest.
"""

from __future__ import annotations

import functools
import hashlib

from engine.core.chance import ChanceError, NoChance
from engine.core.contract import Action
from engine.core.copying import copy_state
from engine.core.errors import IllegalAction
from engine.core.legality import listed, lister
from engine.illuminati import actions as act
from engine.illuminati import structure
from engine.illuminati.attacks import support_basis
from engine.illuminati.main_phase import place_agent
from engine.illuminati.model import (
    SETUP_PHASES,
    Card,
    IlluminatiState,
    Kind,
    Player,
    PlotType,
    card_of,
)
from engine.illuminati.timing import by_seats, to_act
from engine.illuminati.turn import GOAL_LIMIT, GROUP_TOKENS_PER_PLOT, plots_over_limit
from engine.illuminati.victory import goal_groups

REVEAL_OPTIONS = 6

# the actions listed by the thousand, built by position (see legality.lister)
_DECLARE = lister(act.DeclareAttack, "seat", "attacker", "target", "purpose")
_MOVE = lister(act.MoveGroup, "seat", "group", "parent", "arrow", "pay")
_PLACE = lister(act.AutoControl, "seat", "card", "parent", "arrow")
_INSTANT = lister(act.InstantAttack, "seat", "plot", "target")
_PLAY = lister(act.PlayPlot, "seat", "card")
_PASS = lister(act.Pass, "seat")


def legal_actions(st: IlluminatiState, seat: int) -> list[Action]:
    """The actions ``seat`` may take now (see the module docstring for what is listed)."""
    if st.phase in SETUP_PHASES:
        return _setup(st, seat)
    claims = [c for c in st.claims if c.disputed_by and c.ruling is None]
    # as to_act says: support windows first, then a disputed claim, then the declared attack
    if st.attack is not None and (st.attack.stage == "support" or not claims):
        return _attack(st, seat) + _anytime(st, seat)
    if claims:
        return [listed(act.RuleClaim, seat=c.seat, upheld=up, reason="judge's ruling")
                for c in claims if c.seat == seat for up in (True, False)]
    out = _anytime(st, seat)
    if seat != st.active:
        return out
    if st.phase == "beginning":
        return _beginning(st, seat) + out
    return _main(st, seat) + out


def _setup(st: IlluminatiState, seat: int) -> list[Action]:
    if seat not in to_act(st):
        return []
    if by_seats(st):
        return _own_choices(st, seat)
    if st.phase == "choose_illuminati":
        pools = {s: sorted({c for c in st.player(s).plot_deck.shuffled
                            if st.card(c).kind == Kind.ILLUMINATI}) for s in st.in_play()}
        cls: type[act.RevealIlluminati] | type[act.RevealGroups] = act.RevealIlluminati
    else:
        on_table = structure.names_on_table(st)
        pools = {s: sorted({c for c in st.player(s).group_deck.shuffled
                            if st.card(c).kind == Kind.GROUP and st.card(c).name not in on_table})
                 for s in st.in_play() if st.player(s).initial_group is None}
        cls = act.RevealGroups
    if not all(pools.values()):
        return []
    out: list[Action] = []
    for k in range(REVEAL_OPTIONS):
        choices = {s: pool[_spread(k, s) % len(pool)] for s, pool in pools.items()}
        option = cls(seat=seat, choices=choices)
        if option not in out:
            out.append(option)
    return out


def _spread(k: int, seat: int) -> int:
    """A deterministic, well-mixed index so that the listed reveals differ seat by seat."""
    return int.from_bytes(hashlib.sha256(f"{k}:{seat}".encode()).digest()[:4], "big")


def _anytime(st: IlluminatiState, seat: int) -> list[Action]:
    """A paid plot draw when tokens allow it, and victory declarations."""
    out: list[Action] = []
    p = st.player(seat)
    groups = structure.groups_in(p)
    if p.plot_deck.size():
        pay = _plot_payment(p, groups)
        if pay:
            out.append(listed(act.DrawPlot, seat=seat, pay=tuple(pay)))
    if len(groups) >= goal_groups(st) and not any(c.seat == seat for c in st.claims):
        out.append(listed(act.DeclareVictory, seat=seat, goal="basic"))
    return out


def _plot_payment(p: Player, groups: list[str]) -> list[str]:
    """The tokens a paid plot draw takes: the Illuminati's, else the first two groups'."""
    if p.illuminati and p.structure[p.illuminati].tokens:
        return [p.illuminati]
    paying = [c for c in groups if p.structure[c].tokens]
    need = GROUP_TOKENS_PER_PLOT
    return paying[:need] if len(paying) >= need else []


def _token_card(p: Player) -> str | None:
    return next((c for c, n in p.structure.items() if n.tokens), None)


def _beginning(st: IlluminatiState, seat: int) -> list[Action]:
    p = st.player(seat)
    out: list[Action] = []
    if st.step == "plot" and p.plot_deck.size():
        out.append(listed(act.DrawPlot, seat=seat))
    if st.step in ("plot", "group") and p.group_deck.size():
        out.append(listed(act.DrawGroup, seat=seat))
    on_table = structure.names_on_table(st)
    spots = structure.free_spots(st, p)
    for card in sorted(set(p.group_hand)):
        c = st.card(card)
        if c.kind == Kind.RESOURCE:
            if _placeable(st, c):
                out.append(listed(act.AutoControl, seat=seat, card=card))
        elif c.name not in on_table:
            out += [_PLACE(seat, card, parent, arrow) for parent, arrow in spots]
    out.append(listed(act.BeginMain, seat=seat))
    return out


def _own_choices(st: IlluminatiState, seat: int) -> list[Action]:
    """Every card the seat may lay face down now, one per card id (all of them are listed)."""
    if st.phase == "choose_illuminati":
        cards = {card_of(c) for c in st.player(seat).plot_deck.shuffled
                 if st.card(c).kind == Kind.ILLUMINATI}
        return [listed(act.ChooseIlluminati, seat=seat, card=c) for c in sorted(cards)]
    on_table = structure.names_on_table(st)
    cards = {card_of(c) for c in st.player(seat).group_deck.shuffled
             if st.card(c).kind == Kind.GROUP and st.card(c).name not in on_table}
    return [listed(act.ChooseGroup, seat=seat, card=c) for c in sorted(cards)]


def _placeable(st: IlluminatiState, card: Card) -> bool:
    """A resource that may be placed: Unique ones once per match."""
    return card.kind == Kind.RESOURCE and not (card.unique and card.name in st.unique_placed)


def _main(st: IlluminatiState, seat: int) -> list[Action]:
    out = _attacks(st, seat)
    p = st.player(seat)
    token = _token_card(p)
    if token is not None:
        if not st.group_draw_bought and p.group_deck.size():
            out.append(listed(act.DrawGroup, seat=seat, pay=token))
        out += _moves(st, seat, token)
    if not st.resource_placed:
        out += [listed(act.PlaceResource, seat=seat, card=c) for c in sorted(set(p.group_hand))
                if _placeable(st, st.card(c))]
    for card in sorted(set(p.plot_hand)):
        out += _plot_plays(st, seat, card)
    out.append(listed(act.EndTurn, seat=seat, plots_to_bottom=tuple(_excess(st, seat))))
    return out


def _attacks(st: IlluminatiState, seat: int) -> list[Action]:
    p = st.player(seat)
    attackers = [c for c, n in p.structure.items()
                 if n.tokens or (n.parent is None and _attack_plot_in_hand(st, p))]
    if not attackers:
        return []
    targets = _targets(st, seat)
    out: list[Action] = []
    for attacker in attackers:
        free = bool(structure.free_arrows(st, p, attacker))
        out += _declarations(seat, attacker, free, targets)
    return out


def _attack_plot_in_hand(st: IlluminatiState, p: Player) -> bool:
    """Whether an attack plot could pay for an attack by the Illuminati."""
    return any(st.card(c).plot_type == PlotType.ATTACK for c in p.plot_hand)


@functools.lru_cache(maxsize=1 << 12)
def _declarations(seat: int, attacker: str, free: bool,
                  targets: tuple[tuple[str, str], ...]) -> tuple[Action, ...]:
    """The attacks ``attacker`` may declare on ``targets`` (control only with a free arrow).
    Positions that differ elsewhere share these, so they are worked out once."""
    return tuple(_DECLARE(seat, attacker, target, purpose) for purpose, target in targets
                 if target != attacker and (free or purpose != "control"))


def _targets(st: IlluminatiState, seat: int) -> tuple[tuple[str, str], ...]:
    """What ``seat`` may attack, as (purpose, target): every structure group to destroy (and
    to control unless it is its own), then its hand groups not on the table and its loose
    groups to control."""
    p = st.player(seat)
    targets: list[tuple[str, str]] = []
    for other, q in enumerate(st.seats_state, start=1):
        if other in st.eliminated:
            continue
        for card, node in q.structure.items():
            if node.parent is not None:
                targets.append(("destroy", card))
                if other != seat:
                    targets.append(("control", card))
    hand = [c for c in sorted(set(p.group_hand)) if st.card(c).kind == Kind.GROUP]
    if hand:
        on_table = structure.names_on_table(st)
        targets += [("control", c) for c in hand if st.card(c).name not in on_table]
    targets += [("control", c) for c in p.loose]
    return tuple(targets)


def _moves(st: IlluminatiState, seat: int, token: str) -> list[Action]:
    p = st.player(seat)
    spots = structure.free_spots(st, p)
    below = structure.below(p)
    return [_MOVE(seat, group, parent, arrow, token) for group in structure.groups_in(p)
            for parent, arrow in spots if parent not in below[group]]


def _plot_plays(st: IlluminatiState, seat: int, card: str) -> list[Action]:
    c = st.card(card)
    if c.kind == Kind.ILLUMINATI:
        option = listed(act.PlaceAgent, seat=seat, card=card)
        return [option] if _accepted(st, option) else []
    if c.plot_type == PlotType.INSTANT_ATTACK:
        return [_INSTANT(seat, card, t)
                for other in st.in_play() for t in structure.groups_in(st.player(other))]
    if c.plot_type in (PlotType.ORDINARY, PlotType.NEW_WORLD_ORDER):
        return [_PLAY(seat, card)]
    return []


def _accepted(st: IlluminatiState, action: act.PlaceAgent) -> bool:
    """Whether the place_agent handler accepts ``action`` (its checks are many), tried on a copy
    of the state; chance is never consulted because the copy is thrown away at the first
    request."""
    try:
        place_agent(copy_state(st), action, NoChance())
    except IllegalAction:
        return False
    except ChanceError:
        return True
    return True


def _excess(st: IlluminatiState, seat: int) -> list[str]:
    """I7: a valid choice of plots to put under the deck (goals first, then the newest)."""
    need = plots_over_limit(st, seat)
    if not need:
        return []
    p = st.player(seat)
    goals = [c for c in p.plot_hand if st.card(c).is_goal()]
    kept = goals[:GOAL_LIMIT]
    order = goals[GOAL_LIMIT:] + [c for c in reversed(p.plot_hand) if c not in goals] + kept
    return order[:need]


def _attack(st: IlluminatiState, seat: int) -> list[Action]:
    attack = st.attack
    assert attack is not None
    p = st.player(seat)
    if attack.stage == "declared":
        if seat != attack.seat:
            return []
        out: list[Action] = [listed(act.AbortAttack, seat=seat)]
        if p.structure[attack.attacker].tokens:
            out.append(listed(act.PayAttack, seat=seat))
        out += [listed(act.PayAttack, seat=seat, plot=c) for c in sorted(set(p.plot_hand))
                if st.card(c).plot_type == PlotType.ATTACK]
        return out
    if seat in attack.passed:
        return []
    out = [_PASS(seat)]
    for card, node in p.structure.items():
        if not node.tokens or card == attack.attacker:
            continue
        for side in ("attack", "defend"):
            if side == "attack" and card == attack.target:
                continue
            for use in ("power", "global"):
                if support_basis(st, card, side, use) is None:
                    continue
                out.append(listed(act.Support, seat=seat, card=card, side=side,  # type: ignore[arg-type]
                                       use=use))  # type: ignore[arg-type]
    if attack.target_seat != seat:
        out += _agents(st, seat)
    return out


def _agents(st: IlluminatiState, seat: int) -> list[Action]:
    """A group agent (a copy of the target from hand) for each side that has none yet."""
    attack = st.attack
    assert attack is not None
    sides = [side for side, line in (("attack", attack.attack_support),
                                     ("defend", attack.defence_support))
             if not any(s.basis == "agent" for s in line)]
    if not sides:
        return []
    name = st.card(attack.target).name
    agents = sorted({c for c in st.player(seat).group_hand if st.card(c).name == name})
    if not agents:
        return []
    return [listed(act.PlayAgent, seat=seat, card=agents[0], side=side) for side in sides]
