"""Setup (事前準備 L23-37, 開始準備 L61-65, 開始時基本設定 L38-42): deck construction (C5), the
shuffles, nine cards each, each seat's first active quest, the first player (OQ-1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.core.chance import Chance
from engine.core.contract import MatchConfig, Options
from engine.core.errors import SetupError
from engine.grail.basics import reveal_quest
from engine.grail.model import COURT_MIN, OPENING_HAND, QUEST_COPIES, QUEST_MIN, Card, GrailState
from engine.grail.reasons import GrailReason as R


def check_decks(decks: Sequence[Mapping[str, int]], cards: Mapping[str, Card]) -> None:
    """C5: a court deck of 40 or more cards and no quest (L25-28); a quest deck of 10 or more
    quests with at most 2 of one name (L30-33). A deck list holds both decks."""
    for seat, deck in enumerate(decks, start=1):
        court = sum(n for c, n in deck.items() if cards[c].type != "quest")
        quests = sum(n for c, n in deck.items() if cards[c].type == "quest")
        if court < COURT_MIN:
            raise SetupError(R.COURT_DECK_SIZE, f"Seat {seat}'s court deck has {court} cards; "
                             f"it needs at least {COURT_MIN}.", seat=seat)
        if quests < QUEST_MIN:
            raise SetupError(R.QUEST_DECK_SIZE, f"Seat {seat}'s quest deck has {quests} "
                             f"quests; it needs at least {QUEST_MIN}.", seat=seat)
        names: Counter[str] = Counter()
        for card, count in deck.items():
            if cards[card].type == "quest":
                names[cards[card].name] += count
        over = sorted(n for n, k in names.items() if k > QUEST_COPIES)
        if over:
            raise SetupError(R.TOO_MANY_COPIES, f"Seat {seat}'s quest deck has more than "
                             f"{QUEST_COPIES} quests named {over[0]}.", seat=seat)


def instances(seat: int, deck: Mapping[str, int]) -> list[str]:
    """Every card of a deck list as an instance ``<card id>@<seat>.<n>``."""
    cards = [c for c, n in sorted(deck.items()) for _ in range(n)]
    return [f"{card}@{seat}.{i}" for i, card in enumerate(cards, start=1)]


def initial_state(config: MatchConfig, options: Options, cards: dict[str, Card],
                  chance: Chance) -> GrailState:
    """Both decks of each seat shuffled (picks as drawn, C1), nine cards each, each seat's top
    quest face up, then the first player (regulated, else a recorded pick)."""
    seats = list(range(1, len(config.players) + 1))
    state = GrailState(
        game="grail", players=list(config.players), options=options.recorded(), cards=cards,
        court={}, quests={}, active_quest={}, hands={}, domains={}, warriors={},
        court_discard={}, quest_discard={}, removed={})
    for seat, deck in zip(seats, config.decks):
        every = instances(seat, deck)
        state.court[seat] = [c for c in every if state.card(c).type != "quest"]
        state.quests[seat] = [c for c in every if state.card(c).type == "quest"]
        for zone in (state.hands, state.domains, state.court_discard, state.quest_discard,
                     state.removed):
            zone[seat] = []
        state.warriors[seat] = []
        state.active_quest[seat] = None
    for seat in seats:
        for _ in range(OPENING_HAND):
            card = chance.draw("draw", state.court[seat], seat)
            state.court[seat].remove(card)
            state.hands[seat].append(card)
    for seat in seats:
        reveal_quest(state, seat, chance)
    first = getattr(options, "first_player", None)
    if first is not None and first > len(seats):
        raise SetupError(R.BAD_OPTION, f"first_player {first}: there are {len(seats)} seats.")
    if first is None:
        first = chance.choose_seat("first_player", seats)
    state.active = first
    state.turn = 1
    return state
