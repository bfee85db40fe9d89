"""Setup (§事前準備, §開始準備, §ゲーム開始時基本設定): 40 cards or more (C5), ten each, the first
player (edge OQ7), influence 0."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.chance import Chance
from engine.core.contract import MatchConfig, Options
from engine.core.errors import SetupError
from engine.edge.model import DECK_MIN, OPENING_HAND, Card, EdgeState
from engine.edge.reasons import EdgeReason as R


def check_decks(decks: Sequence[Mapping[str, int]], cards: Mapping[str, Card]) -> None:
    """C5: at least 40 cards; nothing else (「構築条件: 特になし」)."""
    for seat, deck in enumerate(decks, start=1):
        size = sum(deck.values())
        if size < DECK_MIN:
            raise SetupError(R.DECK_UNDER_MINIMUM, f"Seat {seat}'s deck has {size} cards; it "
                             f"needs at least {DECK_MIN}.", seat=seat)


def instances(seat: int, deck: Mapping[str, int]) -> list[str]:
    """Every card of a deck list as an instance ``<card id>@<seat>.<n>`` (copies numbered in
    the list's order, never the shuffle's)."""
    listed = [c for c, n in sorted(deck.items()) for _ in range(n)]
    return [f"{c}@{seat}.{i}" for i, c in enumerate(listed, start=1)]


def initial_state(config: MatchConfig, options: Options, cards: dict[str, Card],
                  chance: Chance) -> EdgeState:
    """Each deck shuffled (picks as drawn, C1), ten cards each, the first player."""
    seats = list(range(1, len(config.players) + 1))
    state = EdgeState(game="edge", players=list(config.players), options=options.recorded(),
                      cards=cards, starting_players=len(seats))
    for seat, deck in zip(seats, config.decks):
        state.decks[seat] = instances(seat, deck)
        state.hands[seat], state.dead[seat] = [], []
        state.conspiracies[seat], state.permanents[seat] = [], []
        state.influence[seat] = 0
    for seat in seats:
        for _ in range(OPENING_HAND):
            card = chance.draw("draw", state.decks[seat], seat)
            state.decks[seat].remove(card)
            state.hands[seat].append(card)
    first = getattr(options, "first_player", None)
    if first is not None and first > len(seats):
        raise SetupError(R.BAD_OPTION, f"first_player {first}: there are {len(seats)} seats.")
    state.first_player = first or chance.choose_seat("first_player", seats)
    state.turn = 1
    return state
