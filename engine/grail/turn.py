"""The turn (ターン(自分の手番)の進行 L68-99): seven phases in order, never back (OQ-39); the draw
phase with its victory-challenge check (L70) and optional refresh (L72); the end of the turn."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.grail.basics import draw_court, reveal_quest
from engine.grail.model import PHASES, Claim, GrailState
from engine.grail.reasons import GrailReason as R


def decision_pending(state: GrailState) -> str | None:
    """What the game waits on before ordinary play goes on, if anything."""
    if state.combat is not None:
        return "a combat is in progress"
    if state.honour_offer is not None:
        return "an honour challenge waits for its answer"
    if state.reward_due is not None:
        return "a quest reward waits to be taken"
    if state.victory_claim is not None:
        return (f"seat {state.victory_claim.seat}'s victory claim has ended play: it waits for "
                "the others' acceptance or a ruling")
    if any(c.disputed_by is not None and not c.ruled for c in state.claims):
        return "a disputed claim waits for a judge's ruling"
    if state.phase == "draw" and not state.drawn:
        return "the victory challenge waits for its claim"
    if state.grail is not None:
        return "the grail quest goes on: attempt a quest or abandon it"
    return None


def require_turn(state: GrailState, seat: int) -> None:
    """The active seat, with nothing pending (``not_your_turn``, ``decision_pending``)."""
    if seat != state.active:
        raise IllegalAction(R.NOT_YOUR_TURN, f"It is seat {state.active}'s turn.")
    pending = decision_pending(state)
    if pending is not None:
        raise IllegalAction(R.DECISION_PENDING, f"Not now: {pending}.")


def enter_phase(state: GrailState, seat: int, phase: str) -> None:
    """Move on to ``phase`` for an action of it (OQ-39): never back, and never past an unpaid
    upkeep (``upkeep_pending``)."""
    require_turn(state, seat)
    now, target = PHASES.index(state.phase), PHASES.index(phase)
    if target < now:
        raise IllegalAction(R.WRONG_PHASE, f"The {phase} phase is over this turn.")
    if target > PHASES.index("upkeep") and not state.upkeep_paid:
        raise IllegalAction(R.UPKEEP_PENDING, "Upkeep must be paid first (アップキープ L87).")
    state.phase = phase


def begin_turn(state: GrailState, seat: int, chance: Chance) -> None:
    """The draw phase (L69-71): a seat with a pending victory challenge claims first (L70);
    otherwise it draws at once."""
    state.active = seat
    state.phase = "draw"
    state.drawn = False
    state.domain_placed = state.refreshed = state.upkeep_paid = False
    for warrior in state.warriors[seat]:
        warrior.acted = warrior.assigned = False
    if seat not in state.victory_challenges:
        draw_for_turn(state, seat, chance)


def draw_for_turn(state: GrailState, seat: int, chance: Chance) -> None:
    """The draw phase's draw (L71); a seat eliminated by it passes the turn on."""
    state.drawn = True
    draw_court(state, seat, chance)
    if state.result is None and seat in state.eliminated:
        next_turn(state, seat, chance)


def claim_alternate_victory(state: GrailState, seat: int, met: bool, chance: Chance) -> None:
    """G8, L70: the declarer claims its condition still holds and wins at once, play ending
    there, the claim open to dispute until the others accept it or a judge rules (OQ-22,
    engine.grail.claims); or it lets the challenge lapse and draws."""
    if seat != state.active or state.phase != "draw" or state.drawn or \
            seat not in state.victory_challenges:
        raise IllegalAction(R.NO_VICTORY_CHALLENGE, "No victory challenge of this seat waits "
                            "for its claim.")
    kings = state.victory_challenges.pop(seat)
    if met:
        state.victory_claim = Claim(seat=seat, what="alternate_victory", about=kings[0])
        state.accepted = []
        return  # the others accept or dispute (G8); see engine.grail.claims
    draw_for_turn(state, seat, chance)


def refresh_quest(state: GrailState, seat: int, chance: Chance) -> None:
    """L72: once per turn, in the draw phase after the draw: one's active quest to the quest
    discard and a new one revealed."""
    require_turn(state, seat)
    if state.phase != "draw":
        raise IllegalAction(R.WRONG_PHASE, "A quest is refreshed in the draw phase.")
    if state.refreshed:
        raise IllegalAction(R.ALREADY_REFRESHED, "The active quest was refreshed this turn.")
    quest = state.active_quest[seat]
    if quest is None:
        raise IllegalAction(R.NO_ACTIVE_QUEST, f"Seat {seat} has no active quest.")
    state.quest_discard[seat].append(quest)
    state.active_quest[seat] = None
    state.refreshed = True
    reveal_quest(state, seat, chance)


def end_phase(state: GrailState, seat: int) -> None:
    """On to the next phase; from the challenge phase only ``end_turn`` goes on."""
    require_turn(state, seat)
    index = PHASES.index(state.phase)
    if index + 1 >= len(PHASES):
        raise IllegalAction(R.WRONG_PHASE, "The challenge phase ends with end_turn.")
    enter_phase(state, seat, PHASES[index + 1])


def end_turn(state: GrailState, seat: int, chance: Chance) -> None:
    """L98-99: every warrior's normal damage is reset; the next seat in order begins (OQ-2)."""
    require_turn(state, seat)
    if not state.upkeep_paid:
        raise IllegalAction(R.UPKEEP_PENDING, "Upkeep must be paid before the turn ends.")
    next_turn(state, seat, chance)


def _round_start(state: GrailState) -> int:
    """OQ-25: a round starts with the first player's turn (the next seat in play after it, once
    it is out)."""
    order = state.seats()
    start = order.index(state.first_player)
    for step in range(len(order)):
        seat = order[(start + step) % len(order)]
        if seat not in state.eliminated:
            return seat
    return state.first_player


def next_turn(state: GrailState, seat: int, chance: Chance) -> None:
    """Reset the turn and give it to the next seat still in play."""
    for s in state.seats():
        for warrior in state.warriors[s]:
            warrior.damage = 0
    order = state.seats()
    for step in range(1, len(order) + 1):
        nxt = order[(order.index(seat) + step) % len(order)]
        if nxt not in state.eliminated:
            break
    # OQ-22: a claim stays open to dispute until its claimant's next turn
    state.claims = [c for c in state.claims if c.seat != nxt or
                    (c.disputed_by is not None and not c.ruled)]
    state.turn += 1
    limit = state.options.get("turn_limit")
    if limit and state.turn > limit:
        return  # the kernel calls time
    if state.active_quest[nxt] is None:
        reveal_quest(state, nxt, chance)  # OQ-6: retried when a reveal is next due
    if nxt == _round_start(state) or state.options.get("spell_limit") == "per_turn":
        state.spells_cast = []  # OQ-25: a new round of turns
    begin_turn(state, nxt, chance)
