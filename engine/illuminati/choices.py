"""The combinatorial choices of Illuminati, described whole (see engine.core.legality).

The legal-action listing names one representative (or none) of these; here is the space a client
builds every legal action from: which cards a discard or a gift may take, who a gift may go to,
which tokens pay for a plot draw, which plots go under the deck at the end of a turn (I7), which
cards a link may join, and, in a match that records the table's reveal, each seat's candidates.
"""

from __future__ import annotations

from engine.core.legality import Choice
from engine.illuminati import structure
from engine.illuminati.model import SETUP_PHASES, IlluminatiState, Kind
from engine.illuminati.timing import by_seats, still_to_choose
from engine.illuminati.turn import (
    GOAL_LIMIT,
    GROUP_TOKENS_PER_PLOT,
    PLOT_HAND_LIMIT,
    plots_over_limit,
)


def choice_space(st: IlluminatiState, seat: int) -> list[Choice]:
    """Every combinatorial choice open to ``seat`` now."""
    if st.phase in SETUP_PHASES:
        return [] if by_seats(st) else _table_reveal(st)
    out = _hand_choices(st, seat) + _plot_payment(st, seat)
    if seat == st.active and st.phase == "main" and st.attack is None:
        out += _hand_limit(st, seat) + _links(st, seat)
    return out


def _hand_choices(st: IlluminatiState, seat: int) -> list[Choice]:
    p = st.player(seat)
    hand = tuple(sorted(p.plot_hand + p.group_hand))
    if not hand:
        return []
    others = tuple(s for s in st.in_play() if s != seat)
    out = [Choice("discard", "cards", "sequence", hand, description="Any cards from your "
                  "hand; plots go under your plot deck in the order given, others to discard.")]
    if others:
        out += [Choice("give_cards", "to", "one_of", others, description="Another player."),
                Choice("give_cards", "cards", "subset", hand, description="Any cards from your "
                       "hand.")]
    return out


def _plot_payment(st: IlluminatiState, seat: int) -> list[Choice]:
    p = st.player(seat)
    holders = tuple(c for c, n in p.structure.items() if n.tokens) + tuple(
        r.card for r in p.resources if r.tokens)
    if not holders or not p.plot_deck.size():
        return []
    return [Choice("draw_plot", "pay", "subset", holders, most=GROUP_TOKENS_PER_PLOT,
                   description=f"A paid plot draw: your Illuminati (or an Action resource) "
                   f"alone, or {GROUP_TOKENS_PER_PLOT} different groups, one token each.")]


def _hand_limit(st: IlluminatiState, seat: int) -> list[Choice]:
    need = plots_over_limit(st, seat)
    if not need:
        return []
    return [Choice("end_turn", "plots_to_bottom", "sequence", tuple(st.player(seat).plot_hand),
                   least=need,
                   most=need, description=f"I7: {need} plot(s) under your plot deck, in order, "
                   f"leaving at most {PLOT_HAND_LIMIT} plots and {GOAL_LIMIT} goal card.")]


def _links(st: IlluminatiState, seat: int) -> list[Choice]:
    p = st.player(seat)
    table = tuple([*p.structure, *(r.card for r in p.resources), *p.agents, *p.plots])
    if len(table) < 2:
        return []
    return [Choice("link", field, "one_of", table, description="Two different cards of yours "
                   "on the table, not linked yet.") for field in ("a", "b")]


def _table_reveal(st: IlluminatiState) -> list[Choice]:
    kind = Kind.ILLUMINATI if st.phase == "choose_illuminati" else Kind.GROUP
    action = "reveal_illuminati" if kind == Kind.ILLUMINATI else "reveal_groups"
    on_table = structure.names_on_table(st)
    out = []
    for seat in still_to_choose(st):
        p = st.player(seat)
        deck = p.plot_deck.shuffled if kind == Kind.ILLUMINATI else p.group_deck.shuffled
        cards = tuple(sorted({c for c in deck if st.card(c).kind == kind
                              and st.card(c).name not in on_table}))
        out.append(Choice(action, f"choices.{seat}", "one_of", cards,
                          description=f"Seat {seat}'s card, revealed with everyone's."))
    return out
