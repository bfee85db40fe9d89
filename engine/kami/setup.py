"""Setup (開始準備, 事前準備, ゲーム開始時基本設定): deck construction (C5), first player, the
second player's 2 VP, opening hands, and the mulligans each seat decides (K8, kami Q-16)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.core.chance import Chance
from engine.core.contract import MatchConfig, Options
from engine.core.errors import IllegalAction, SetupError
from engine.kami.deck import draw, refill_ap, shuffle_in
from engine.kami.model import (
    DECK_SIZE,
    HAND_LIMIT,
    HEXES,
    MAX_COPIES,
    MULLIGANS,
    OPENING_HAND,
    SECOND_PLAYER_VP,
    Card,
    Hex,
    KamiState,
)
from engine.kami.reasons import KamiReason as R


def check_decks(decks: Sequence[Mapping[str, int]], cards: Mapping[str, Card]) -> None:
    """C5, §事前準備: exactly 40 cards, at most 3 of one name."""
    for seat, deck in enumerate(decks, start=1):
        size = sum(deck.values())
        if size != DECK_SIZE:
            raise SetupError(R.DECK_SIZE, f"Seat {seat}'s deck has {size} cards; a Kami no "
                             f"Kijutsu deck has exactly {DECK_SIZE}.", seat=seat)
        names: Counter[str] = Counter()
        for card, count in deck.items():
            names[cards[card].name] += count
        over = sorted(n for n, k in names.items() if k > MAX_COPIES)
        if over:
            raise SetupError(R.TOO_MANY_COPIES, f"Seat {seat}'s deck has more than "
                             f"{MAX_COPIES} cards named {over[0]}.", seat=seat)


def initial_state(config: MatchConfig, options: Options, cards: dict[str, Card],
                  chance: Chance) -> KamiState:
    """The first player (regulated, else a recorded pick), 2 VP to the second (K8), each
    deck face down, five cards each; then the mulligan phase."""
    seats = (1, 2)
    first = getattr(options, "first_player", None) or chance.choose_seat("first_player",
                                                                          list(seats))
    state = KamiState(
        game="kami", players=list(config.players), options=options.recorded(), cards=cards,
        active=first, first_player=first,
        layers={s: [] for s in seats}, deck_top={s: [] for s in seats},
        deck_under={s: [] for s in seats},
        ap={s: [] for s in seats}, hands={s: [] for s in seats},
        discard={s: [] for s in seats}, forces={s: [] for s in seats},
        vp={s: 0 for s in seats}, mulligans={s: 0 for s in seats},
        kept={s: False for s in seats}, hand_limit={s: HAND_LIMIT for s in seats},
        board={h: Hex() for h in HEXES})
    state.vp[state.other(first)] += SECOND_PLAYER_VP
    for seat, deck in zip(seats, config.decks):  # §開始準備: each deck shuffled
        shuffle_in(state, seat, [c for c, n in sorted(deck.items()) for _ in range(n)])
    for seat in seats:
        for _ in range(OPENING_HAND):
            draw(state, seat, chance)
    return state


def still_deciding(state: KamiState) -> list[int]:
    """The seats that have not kept their hand yet (kami Q-16: in any order)."""
    return [s for s in state.seats() if not state.kept[s]] if state.phase == "mulligan" else []


def _in_mulligan_phase(state: KamiState) -> None:
    """The mulligan phase is on (``wrong_phase``)."""
    if state.phase != "mulligan":
        raise IllegalAction(R.WRONG_PHASE, "Mulligans are over.")


def _not_kept(state: KamiState, seat: int) -> None:
    """``seat`` has not kept its hand yet (``already_kept``, kami Q-31)."""
    if state.kept[seat]:
        raise IllegalAction(R.ALREADY_KEPT, f"Seat {seat} has kept its hand.")


def mulligan(state: KamiState, seat: int, chance: Chance) -> None:
    """K8: the hand back into the deck (shuffled), five new cards, 1 VP to the opponent. A seat
    that has used both mulligans keeps the hand it drew (Q-16); another mulligan from it is
    refused with ``mulligan_limit`` (K8 "up to 2", digest 4.1), checked before ``already_kept``
    so that the seat hears why."""
    _in_mulligan_phase(state)
    if state.mulligans[seat] >= MULLIGANS:
        raise IllegalAction(R.MULLIGAN_LIMIT, f"Seat {seat} has used its {MULLIGANS} "
                            "mulligans (K8).")
    _not_kept(state, seat)
    shuffle_in(state, seat, state.hands[seat])
    state.hands[seat] = []
    for _ in range(OPENING_HAND):
        draw(state, seat, chance)
    state.mulligans[seat] += 1
    state.vp[state.other(seat)] += 1
    if state.mulligans[seat] == MULLIGANS:
        _keep(state, seat, chance)


def keep_hand(state: KamiState, seat: int, chance: Chance) -> None:
    """kami Q-31: the seat keeps its hand."""
    _in_mulligan_phase(state)
    _not_kept(state, seat)
    _keep(state, seat, chance)


def _keep(state: KamiState, seat: int, chance: Chance) -> None:
    state.kept[seat] = True
    if all(state.kept.values()):
        start_turn(state, state.first_player, chance)


def start_turn(state: KamiState, seat: int, chance: Chance) -> None:
    """A turn begins with its action phase and the AP refill (K4)."""
    state.active = seat
    state.phase = "action"
    refill_ap(state, seat, chance)
