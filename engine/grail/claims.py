"""Claims that depend on card text (G8; grail OQ-22): a non-combat quest, a victory challenge
and an alternate victory are taken on the claimant's word, recorded with who claimed them, and
open to dispute by the others; a judge rules. An alternate victory ends the match only once
every other player has accepted it, or a judge has upheld it."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.grail.basics import change_valor, end_grail, win
from engine.grail.model import Claim, GrailState
from engine.grail.turn import draw_for_turn


def accept_claim(state: GrailState, seat: int, chance: Chance) -> None:
    """Accept the pending alternate-victory claim; once all others have, it wins."""
    claim = state.victory_claim
    if claim is None or claim.disputed_by is not None:
        raise IllegalAction("no_claim", "No alternate victory claim waits for acceptance.")
    if seat == claim.seat or seat in state.accepted:
        raise IllegalAction("not_your_decision", "Another player decides.")
    state.accepted.append(seat)
    if set(state.accepted) >= set(s for s in state.in_play() if s != claim.seat):
        _alternate_victory(state, claim)


def waiting_on(state: GrailState) -> list[int]:
    """The seats still to accept or dispute a pending alternate-victory claim."""
    claim = state.victory_claim
    if claim is None or claim.disputed_by is not None:
        return []
    return [s for s in state.in_play() if s != claim.seat and s not in state.accepted]


def _alternate_victory(state: GrailState, claim: Claim) -> None:
    state.victory_claim = None
    win(state, claim.seat, "alternate_victory", f"seat {claim.seat}'s claim of "
        f"{state.card(claim.about).name}'s victory condition (勝利チャレンジ L188, G8)")


def _overturned_quest(state: GrailState, claim: Claim) -> None:
    """OQ-22: a quest claimed but not achieved is, in the claimant's grail attempt still on, a
    defeat (G7: its valor lost, the attempt over); anything else the claim gained the judge
    corrects with adjustments (C3)."""
    grail = state.grail
    if grail is None or grail.seat != claim.seat or grail.knight != claim.by:
        return
    end_grail(state)
    knight = state.warrior(grail.knight)
    if knight is not None:
        change_valor(state, knight, -state.card(claim.about).valor)


def dispute(state: GrailState, seat: int, claimant: int) -> None:
    """G8: dispute the claimant's latest claim (the pending alternate victory, or one made this
    turn); the game waits for a judge's ruling."""
    claim = _latest(state, claimant)
    if claim is None:
        raise IllegalAction("no_claim", f"Seat {claimant} has no claim to dispute.")
    if seat == claimant:
        raise IllegalAction("own_claim", "A player does not dispute their own claim.")
    if claim.disputed_by is not None:
        raise IllegalAction("already_disputed", "That claim is disputed already.")
    claim.disputed_by = seat


def _latest(state: GrailState, claimant: int) -> Claim | None:
    if state.victory_claim is not None and state.victory_claim.seat == claimant:
        return state.victory_claim
    mine = [c for c in state.claims if c.seat == claimant and not c.ruled]
    return mine[-1] if mine else None


def disputed(state: GrailState) -> Claim | None:
    """The claim waiting for a judge's ruling, if any."""
    if state.victory_claim is not None and state.victory_claim.disputed_by is not None:
        return state.victory_claim
    return next((c for c in state.claims if c.disputed_by is not None and not c.ruled), None)


def rule_claim(state: GrailState, seat: int, upheld: bool, chance: Chance) -> None:
    """A judge's ruling on the disputed claim of ``seat``: upheld, it stands (an alternate
    victory wins); overturned, a victory challenge is void, an alternate victory fails and the
    draw follows; a quest's achievement is corrected by the judge's adjustments (C3)."""
    claim = disputed(state)
    if claim is None or claim.seat != seat:
        raise IllegalAction("no_dispute", f"No disputed claim of seat {seat} waits for a "
                            "ruling.")
    claim.ruled = True
    claim.disputed_by = None
    if claim.what == "alternate_victory":
        if upheld:
            _alternate_victory(state, claim)
        else:
            state.victory_claim = None
            draw_for_turn(state, seat, chance)
        return
    if not upheld and claim.what == "quest":
        _overturned_quest(state, claim)
    if not upheld and claim.what == "victory_challenge":
        kings = state.victory_challenges.get(seat, [])
        if claim.about in kings:
            kings.remove(claim.about)
            if not kings:
                del state.victory_challenges[seat]
