"""Deck construction (事前準備, C5) and setup (開始準備): the Illuminati revealed together, the
opening plot hand, the initial groups chosen round by round (I9), the opening group hand and turn
order by 2d6 (I10)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.chance import Chance
from engine.core.contract import Action, MatchConfig, Options
from engine.core.errors import SetupError
from engine.illuminati import actions as act
from engine.illuminati import combat, structure
from engine.illuminati.model import (
    GROUP_KINDS,
    PLOT_KINDS,
    SETUP_PHASES,
    Deck,
    IlluminatiState,
    Kind,
    Node,
    Player,
    card_of,
    find,
    owner_of,
)
from engine.illuminati.timing import require_phase
from engine.illuminati.zones import draw, illegal

DECK_SIZE = 45  # plot deck and group deck together
OPENING_PLOTS = 3
OPENING_GROUPS = 6


# ----- deck construction (事前準備, C5)  ---------------------------------------------------
def check_decks(decks: Sequence[Mapping[str, int]], cards: Mapping[str, Any]) -> None:
    """Plot deck and group deck together exactly 45 cards, with 1+ Illuminati and 1+ group."""
    for seat, deck in enumerate(decks, start=1):
        size = sum(deck.values())
        if size != DECK_SIZE:
            raise SetupError("deck_size", f"Seat {seat}'s plot and group decks have {size} "
                             f"cards together; exactly {DECK_SIZE} are required.", seat=seat)
        kinds = Counter(cards[cid].kind for cid in deck for _ in range(deck[cid]))
        if not kinds[Kind.ILLUMINATI]:
            raise SetupError("no_illuminati", f"Seat {seat}'s plot deck has no Illuminati "
                             "card to start with.", seat=seat)
        if not kinds[Kind.GROUP]:
            raise SetupError("no_groups", f"Seat {seat}'s group deck has no group card to "
                             "start with.", seat=seat)


def instances(seat: int, deck: Mapping[str, int]) -> list[str]:
    """Instance ids for the cards of ``seat``'s deck list (see model's docstring)."""
    out = []
    for cid in sorted(deck):
        out += [f"{cid}@{seat}" if k == 1 else f"{cid}@{seat}.{k}"
                for k in range(1, deck[cid] + 1)]
    return out


# ----- setup (開始準備)  ---------------------------------------------------------------
def new_state(game: str, config: MatchConfig, options: Options,
              cards: dict[str, Any]) -> IlluminatiState:
    """Every seat's cards in its two decks, before anything is revealed."""
    players = []
    for seat, deck in enumerate(config.decks, start=1):
        mine = instances(seat, deck)
        plots = [c for c in mine if cards[card_of(c)].kind in PLOT_KINDS]
        groups = [c for c in mine if cards[card_of(c)].kind in GROUP_KINDS]
        players.append(Player(plot_deck=Deck(shuffled=plots), group_deck=Deck(shuffled=groups)))
    return IlluminatiState(game=game, players=list(config.players),
                           options=options.model_dump(), cards=dict(cards),
                           seats_state=players, order=[])


def require_done(st: IlluminatiState, action: Action) -> None:
    """Only the setup reveals are open until setup is finished."""
    if st.phase in SETUP_PHASES and not isinstance(
            action, act.RevealIlluminati | act.RevealGroups):
        raise illegal("setup_not_done", "Setup is not finished: reveal the Illuminati and "
                      "the initial groups first.")


def reveal_illuminati(st: IlluminatiState, a: act.RevealIlluminati, chance: Chance) -> None:
    """Every player's face-down Illuminati is revealed together; then 3 plots each."""
    require_phase(st, "choose_illuminati")
    chosen = _choices(st.in_play(), a.choices)
    for seat, ref in chosen.items():
        p = st.player(seat)
        card = find(p.plot_deck.shuffled, ref, seat)
        if card is None or st.card(card).kind != Kind.ILLUMINATI:
            raise illegal("not_an_illuminati", f"Seat {seat}'s plot deck has no Illuminati "
                          f"card {ref!r}.")
        p.plot_deck.shuffled.remove(card)
        p.illuminati = card
        p.structure[card] = Node(card=card)
    for seat in st.in_play():
        for _ in range(min(OPENING_PLOTS, st.player(seat).plot_deck.size())):
            draw(st, seat, "plot", chance)
    st.phase = "choose_groups"
    st.setup_round = 1


def reveal_groups(st: IlluminatiState, a: act.RevealGroups, chance: Chance) -> None:
    """I9: one round of the initial-group choice; duplicated names are set aside."""
    require_phase(st, "choose_groups")
    waiting = [s for s in st.in_play() if st.player(s).initial_group is None]
    chosen = _choices(waiting, a.choices)
    on_table = structure.names_on_table(st)
    picked: dict[int, str] = {}
    for seat, ref in chosen.items():
        card = find(st.player(seat).group_deck.shuffled, ref, seat)
        if card is None or st.card(card).kind != Kind.GROUP:
            raise illegal("not_a_group", f"Seat {seat}'s group deck has no group card "
                          f"{ref!r}.")
        if st.card(card).name in on_table:
            raise illegal("group_on_table", f"{st.card(card).name} is already on the table; "
                          f"seat {seat} must choose another group.")
        picked[seat] = card
    names = Counter(st.card(c).name for c in picked.values())
    for seat, card in picked.items():
        p = st.player(seat)
        p.group_deck.shuffled.remove(card)
        if names[st.card(card).name] > 1:
            st.set_aside.append(card)
            continue
        p.initial_group = card
        assert p.illuminati is not None
        arrow = structure.resolve_arrow(st, p, p.illuminati, None)
        p.structure[card] = Node(card=card, parent=p.illuminati, arrow=arrow)
    if any(st.player(s).initial_group is None for s in st.in_play()):
        st.setup_round += 1
        return
    _finish_setup(st, chance)


def _finish_setup(st: IlluminatiState, chance: Chance) -> None:
    """Set-aside groups go home (I9), 6 groups each, then turn order by 2d6 (I10)."""
    for card in st.set_aside:
        st.player(owner_of(card)).group_deck.shuffled.append(card)
    for seat in st.in_play():
        st.player(seat).group_deck.shuffled.sort()
    st.set_aside = []
    for seat in st.in_play():
        for _ in range(min(OPENING_GROUPS, st.player(seat).group_deck.size())):
            draw(st, seat, "group", chance)
    st.order = roll_order(st.in_play(), chance)
    st.active = st.order[0]
    st.phase = "beginning"
    st.step = "plot"


def _choices(seats: list[int], choices: Mapping[int, str]) -> dict[int, str]:
    """Every seat still choosing reveals at once, and no other seat."""
    if sorted(choices) != sorted(seats):
        raise illegal("choices_incomplete", "Every seat still choosing must reveal at once: "
                      f"expected seats {seats}, got {sorted(choices)}.")
    return dict(choices)


def roll_order(seats: list[int], chance: Chance) -> list[int]:
    """I10: each player rolls 2d6, highest first; ties re-roll among the tied players only."""
    totals = {s: combat.roll_2d6(chance, f"order_roll:{s}") for s in seats}
    order: list[int] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [s for s in seats if totals[s] == total]
        order += tied if len(tied) == 1 else roll_order(tied, chance)
    return order
