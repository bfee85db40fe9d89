"""What every section uses: drawing and deck-out (C2), removing cards to the dead pile with
their attachments, influence, winning, elimination (§勝利条件; edge OQ25)."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.contract import MatchResult
from engine.edge.model import EdgeState, Permanent, owner_of


def draw(state: EdgeState, seat: int, chance: Chance) -> bool:
    """One card into the hand, a recorded pick seen by its seat; an empty deck loses at once
    (C2). Returns whether the seat is still in play."""
    deck = state.decks[seat]
    if not deck:
        lose(state, seat, f"seat {seat} had to draw from an empty deck")
        return False
    card = chance.draw("draw", deck, seat)
    deck.remove(card)
    state.hands[seat].append(card)
    if seat == state.active:
        state.drawn.append(card)
    return True


def bury(state: EdgeState, permanent: Permanent) -> None:
    """A permanent to its owner's dead pile, its attachments to theirs (「付けた対象が場を離れる
    際に一緒に破棄される」, OQ17)."""
    state.dead[owner_of(permanent.card)].append(permanent.card)
    bury_attached(state, permanent)


def bury_attached(state: EdgeState, permanent: Permanent) -> None:
    """What is attached to a permanent leaving the field, to its owners' dead piles (OQ17)."""
    for card in permanent.attached:
        state.dead[owner_of(card)].append(card)
    permanent.attached = []


def win(state: EdgeState, seat: int, reason: str, detail: str) -> None:
    """``seat`` wins the match."""
    state.result = MatchResult(winners=[seat], losers=[s for s in state.seats() if s != seat],
                               reason=reason, detail=detail)


def lose(state: EdgeState, seat: int, detail: str) -> None:
    """Deck-out (C2): with 2 players in play the other wins; with more the seat is eliminated
    and the last one standing wins."""
    others = [s for s in state.in_play() if s != seat]
    if len(others) == 1:
        state.result = MatchResult(winners=others,
                                   losers=[s for s in state.seats() if s not in others],
                                   reason="deck_out", detail=detail)
        return
    eliminate(state, seat)


def eliminate(state: EdgeState, seat: int) -> None:
    """OQ25: every card of the seat leaves the game (its conditions on others' cards too);
    others' attachments on its cards go to their owners' dead piles; a combat it is in is
    cancelled."""
    if seat not in state.eliminated:
        state.eliminated.append(seat)
    for holder in state.seats():
        for p in [*state.conspiracies[holder], *state.permanents[holder]]:
            p.attached = [c for c in p.attached if owner_of(c) != seat]
    for p in [*state.conspiracies[seat], *state.permanents[seat]]:
        for card in p.attached:
            state.dead[owner_of(card)].append(card)
    state.conspiracies[seat] = []
    state.permanents[seat] = []
    combat = state.combat
    if combat is not None and seat in (combat.defender, owner_of(combat.attacker)):
        state.combat = None
    claim = state.claim
    if claim is not None and claim.seat == seat:
        state.claim = None
    elif claim is not None and claim.disputed_by is None and all(
            s in claim.accepted for s in state.in_play() if s != claim.seat):
        state.claim = None  # the last seat to answer is gone: every other one accepted
        win(state, claim.seat, "card_victory", f"seat {claim.seat}'s "
            f"{state.card(claim.card).name}: {claim.reason}")
        return
    alive = state.in_play()
    if len(alive) == 1:
        win(state, alive[0], "last_standing", f"every other player is out (seat {seat} last)")
