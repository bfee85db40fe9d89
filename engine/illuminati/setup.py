"""Deck construction (事前準備, C5) and setup (開始準備): the Illuminati revealed together, the
opening plot hand, the initial groups chosen round by round (I9), the opening group hand and turn
order by 2d6 (I10)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
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
from engine.illuminati.reasons import IlluminatiReason as R
from engine.illuminati.timing import by_seats, choosing, require_phase, still_to_choose
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
            raise SetupError(R.DECK_SIZE, f"Seat {seat}'s plot and group decks have {size} "
                             f"cards together; exactly {DECK_SIZE} are required.", seat=seat)
        kinds = Counter(cards[cid].kind for cid in deck for _ in range(deck[cid]))
        if not kinds[Kind.ILLUMINATI]:
            raise SetupError(R.NO_ILLUMINATI, f"Seat {seat}'s plot deck has no Illuminati "
                             "card to start with.", seat=seat)
        if not kinds[Kind.GROUP]:
            raise SetupError(R.NO_GROUPS, f"Seat {seat}'s group deck has no group card to "
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
                           options=options.recorded(), cards=dict(cards),
                           seats_state=players, order=[])


SETUP_ACTIONS = (act.RevealIlluminati, act.RevealGroups, act.ChooseIlluminati, act.ChooseGroup)


def require_done(st: IlluminatiState, action: Action) -> None:
    """Only the setup choices are open until setup is finished."""
    if st.phase in SETUP_PHASES and not isinstance(action, SETUP_ACTIONS):
        raise illegal(R.SETUP_NOT_DONE, "Setup is not finished: reveal the Illuminati and "
                      "the initial groups first.")


# ----- each seat chooses face down (reveals: seats) ------------------------------------------
def choose_illuminati(st: IlluminatiState, a: act.ChooseIlluminati, chance: Chance) -> None:
    """A seat lays its Illuminati face down; the last one to choose reveals them all."""
    require_phase(st, "choose_illuminati")
    _require_choosing(st, a.seat)
    _lay_face_down(st, a.seat, _illuminati_in_deck(st, a.seat, a.card), _reveal_illuminati,
                   chance)


def choose_group(st: IlluminatiState, a: act.ChooseGroup, chance: Chance) -> None:
    """A seat lays an initial group face down; the last one to choose reveals the round."""
    require_phase(st, "choose_groups")
    _require_choosing(st, a.seat)
    _lay_face_down(st, a.seat, _group_in_deck(st, a.seat, a.card), _reveal_groups, chance)


Reveal = Callable[[IlluminatiState, Mapping[int, str], Chance], None]


def _lay_face_down(st: IlluminatiState, seat: int, card: str, reveal: Reveal,
                   chance: Chance) -> None:
    """Keep the choice hidden until every seat has chosen; the last choice reveals them all."""
    st.chosen[seat] = card
    _reveal_when_all_chosen(st, reveal, chance)


def _reveal_when_all_chosen(st: IlluminatiState, reveal: Reveal, chance: Chance) -> None:
    if st.chosen and not choosing(st):
        chosen, st.chosen = dict(st.chosen), {}
        reveal(st, chosen, chance)


def after_concession(st: IlluminatiState, seat: int, chance: Chance) -> None:
    """A seat that concedes takes back its face-down choice; if the others had all chosen,
    theirs are revealed now."""
    if st.phase not in SETUP_PHASES or not by_seats(st):
        return
    st.chosen.pop(seat, None)
    reveal = _reveal_illuminati if st.phase == "choose_illuminati" else _reveal_groups
    _reveal_when_all_chosen(st, reveal, chance)


def _require_choosing(st: IlluminatiState, seat: int) -> None:
    if not by_seats(st):
        raise illegal(R.REVEAL_BY_TABLE, "This match records the table's reveal in one action "
                      "(option reveals: table): use reveal_illuminati or reveal_groups.")
    if seat in st.chosen:
        raise illegal(R.ALREADY_CHOSEN, "You have already chosen; every choice is revealed "
                      "when all players have chosen.")
    if seat not in still_to_choose(st):
        raise illegal(R.NOT_CHOOSING, f"Seat {seat} has nothing to choose now.")


# ----- one action records the table's reveal (reveals: table) --------------------------------
def reveal_illuminati(st: IlluminatiState, a: act.RevealIlluminati, chance: Chance) -> None:
    """Every player's face-down Illuminati is revealed together; then 3 plots each."""
    require_phase(st, "choose_illuminati")
    _require_table(st)
    chosen = _choices(st.in_play(), a.choices)
    _reveal_illuminati(st, {s: _illuminati_in_deck(st, s, ref) for s, ref in chosen.items()},
                       chance)


def reveal_groups(st: IlluminatiState, a: act.RevealGroups, chance: Chance) -> None:
    """I9: one round of the initial-group choice; duplicated names are set aside."""
    require_phase(st, "choose_groups")
    _require_table(st)
    chosen = _choices(still_to_choose(st), a.choices)
    _reveal_groups(st, {s: _group_in_deck(st, s, ref) for s, ref in chosen.items()}, chance)


def _require_table(st: IlluminatiState) -> None:
    if by_seats(st):
        raise illegal(R.CHOOSE_BY_SEAT, "In this match each player chooses face down "
                      "(choose_illuminati, choose_group); the last choice reveals them all.")


# ----- the reveal ------------------------------------------------------------------------
def _illuminati_in_deck(st: IlluminatiState, seat: int, ref: str) -> str:
    card = find(st.player(seat).plot_deck.shuffled, ref, seat)
    if card is None or st.card(card).kind != Kind.ILLUMINATI:
        raise illegal(R.NOT_AN_ILLUMINATI, f"Seat {seat}'s plot deck has no Illuminati "
                      f"card {ref!r}.")
    return card


def _group_in_deck(st: IlluminatiState, seat: int, ref: str) -> str:
    card = find(st.player(seat).group_deck.shuffled, ref, seat)
    if card is None or st.card(card).kind != Kind.GROUP:
        raise illegal(R.NOT_A_GROUP, f"Seat {seat}'s group deck has no group card {ref!r}.")
    if st.card(card).name in structure.names_on_table(st):
        raise illegal(R.GROUP_ON_TABLE, f"{st.card(card).name} is already on the table; "
                      f"seat {seat} must choose another group.")
    return card


def _reveal_illuminati(st: IlluminatiState, chosen: Mapping[int, str], chance: Chance) -> None:
    for seat, card in chosen.items():
        p = st.player(seat)
        p.plot_deck.shuffled.remove(card)
        p.illuminati = card
        p.structure[card] = Node(card=card)
    for seat in st.in_play():
        for _ in range(min(OPENING_PLOTS, st.player(seat).plot_deck.size())):
            draw(st, seat, "plot", chance)
    st.phase = "choose_groups"
    st.setup_round = 1


def _reveal_groups(st: IlluminatiState, picked: Mapping[int, str], chance: Chance) -> None:
    """I9: groups whose name another seat chose too are set aside; the others go under their
    Illuminati. Another round if anyone is left without a group, else setup ends."""
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
        raise illegal(R.CHOICES_INCOMPLETE, "Every seat still choosing must reveal at once: "
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
