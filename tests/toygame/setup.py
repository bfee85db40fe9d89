"""Setup: deck construction (C5), the decks, the opening hands."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.core.chance import Chance
from engine.core.contract import MatchConfig, Options
from engine.core.errors import SetupError
from tests.toygame.model import DECK_SIZE, MAX_COPIES, OPENING_HAND, BlindBidState, Card
from tests.toygame.reasons import BlindBidReason as R


def check_decks(decks: Sequence[Mapping[str, int]], cards: Mapping[str, Card]) -> None:
    """C5: a deck is exactly 12 cards with at most 2 cards of any one value."""
    for seat, deck in enumerate(decks, start=1):
        size = sum(deck.values())
        if size != DECK_SIZE:
            raise SetupError(R.DECK_SIZE, f"Seat {seat}'s deck has {size} cards; a Blind Bid "
                             f"deck has exactly {DECK_SIZE}.", seat=seat)
        values = Counter[int]()
        for card, count in deck.items():
            values[cards[card].value] += count
        over = sorted(v for v, n in values.items() if n > MAX_COPIES)
        if over:
            raise SetupError(R.TOO_MANY_COPIES, f"Seat {seat}'s deck has more than {MAX_COPIES} "
                             f"cards of value {over[0]}.", seat=seat)


def draw(state: BlindBidState, seat: int, chance: Chance) -> None:
    """``seat`` draws one card at random from its deck into its hand (seen by that seat)."""
    deck = state.decks[seat]
    card = chance.draw("draw", deck, seat)
    deck.remove(card)
    state.hands[seat].append(card)


def initial_state(config: MatchConfig, options: Options, cards: dict[str, Card],
                  chance: Chance) -> BlindBidState:
    """Every seat's deck, then its opening hand of 4 cards drawn at random, seat by seat."""
    seats = range(1, len(config.players) + 1)
    state = BlindBidState(
        game="blindbid", players=list(config.players), options=options.recorded(), cards=cards,
        decks={s: [c for c, n in sorted(deck.items()) for _ in range(n)]
               for s, deck in zip(seats, config.decks)},
        hands={s: [] for s in seats}, won={s: [] for s in seats})
    for seat in seats:
        for _ in range(OPENING_HAND):
            draw(state, seat, chance)
    return state
