"""Claims that depend on card text (G8; grail OQ-22): a non-combat quest, a victory challenge,
an alternate victory and a grail won on claimed quests are taken on the claimant's word,
recorded with who claimed them, and open to dispute by the others; a judge rules.

Every claim takes effect at once (OQ-22). A match-ending claim (an alternate victory, or a grail
whose success rests on a claimed quest still open to dispute) ends play at once: the claimant's
victory is decided as of the claim, and nothing of the game goes on (no draw, no turn, no event
or spell) but the others' answers. The match stays open to dispute until a ruling or the
opponents' acceptance (OQ-22): the result is recorded once every other seat in play has
accepted it (or left the match), or a judge upholds it; overturned, the victory is undone and
play goes on. (A result recorded at the claim itself would close the match to any dispute: the
kernel refuses every action once a match has its result.)"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.grail.basics import change_valor, claim_won, end_grail, unanswered
from engine.grail.model import Claim, GrailState
from engine.grail.reasons import GrailReason as R
from engine.grail.turn import draw_for_turn


def accept_claim(state: GrailState, seat: int, chance: Chance) -> None:
    """Accept the pending match-ending claim: this seat will not dispute it (OQ-22); once
    every other seat in play has accepted, the claimant's victory is recorded."""
    claim = state.victory_claim
    if claim is None or claim.disputed_by is not None:
        raise IllegalAction(R.NO_CLAIM, "No victory claim waits for acceptance.")
    if seat == claim.seat or seat in state.accepted:
        raise IllegalAction(R.NOT_YOUR_DECISION, "Another player decides.")
    state.accepted.append(seat)
    if not unanswered(state):
        claim_won(state, claim, "accepted by every other seat")


def waiting_on(state: GrailState) -> list[int]:
    """The seats still to accept or dispute a pending match-ending claim."""
    return unanswered(state)


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


def _overturned_grail(state: GrailState, claim: Claim) -> None:
    """OQ-22 (an overturned non-combat quest is not achieved; in a grail attempt, a defeat),
    G7: the grail is not won; the attempt counts as defeated on the claimed quest (the latest
    of the attempt's open ones): the knight loses that quest's valor value. The attempt's quest
    claims are settled with this ruling; the judge corrects anything else with adjustments
    (C3: another claimed quest found unmet instead). Play goes on in the claimant's turn."""
    state.victory_claim = None
    for quest_claim in state.claims:
        if quest_claim.seat == claim.seat and quest_claim.what == "quest" and \
                quest_claim.by == claim.by:
            quest_claim.ruled = True
    knight = state.warrior(claim.by or "")
    if knight is not None:
        change_valor(state, knight, -state.card(claim.about).valor)


def dispute(state: GrailState, seat: int, claimant: int) -> None:
    """G8: dispute the claimant's latest claim (the pending match-ending claim, or one made
    this turn); the game waits for a judge's ruling. A seat that has accepted the pending
    match-ending claim has closed its own window to dispute it (OQ-22)."""
    claim = _latest(state, claimant)
    if claim is None:
        raise IllegalAction(R.NO_CLAIM, f"Seat {claimant} has no claim to dispute.")
    if seat == claimant:
        raise IllegalAction(R.OWN_CLAIM, "A player does not dispute their own claim.")
    if claim.disputed_by is not None:
        raise IllegalAction(R.ALREADY_DISPUTED, "That claim is disputed already.")
    if claim is state.victory_claim and seat in state.accepted:
        raise IllegalAction(R.ALREADY_ACCEPTED, f"Seat {seat} has accepted that claim.")
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
    """A judge's ruling on the disputed claim of ``seat``: upheld, it stands (a match-ending
    claim's victory is recorded); overturned, a victory challenge is void, an alternate victory
    fails and the draw follows, a grail won on claims is a defeat of the attempt
    (``_overturned_grail``); a quest's achievement is corrected by the judge's adjustments
    (C3)."""
    claim = disputed(state)
    if claim is None or claim.seat != seat:
        raise IllegalAction(R.NO_DISPUTE, f"No disputed claim of seat {seat} waits for a "
                            "ruling.")
    claim.ruled = True
    claim.disputed_by = None
    if claim is state.victory_claim:
        if upheld:
            claim_won(state, claim, "upheld by a judge")
        elif claim.what == "grail":
            _overturned_grail(state, claim)
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
