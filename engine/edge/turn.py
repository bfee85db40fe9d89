"""The turn (§ターン(自分の手番)の進行): the victory check at its start (E1, edge OQ8), uncrank
and unflip (OQ1), the discard exchange (OQ3, OQ5), the draw (E2, OQ31), operations, the gear
shift, the influence step and the end of the turn (E7)."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.edge.basics import draw, win
from engine.edge.model import GOAL_MANY, GOALS, EdgeState
from engine.edge.reasons import EdgeReason as R


def goal(state: EdgeState) -> int:
    """E1: the influence a player needs, by the number of players at the start (``goal_basis:
    starting``, OQ8) or still in play (``remaining``); ``influence_goal`` overrides it."""
    fixed = state.options.get("influence_goal")
    if fixed:
        return int(fixed)
    count = state.starting_players if state.options.get("goal_basis", "starting") == \
        "starting" else len(state.in_play())
    return GOALS.get(count, GOAL_MANY)


def require_turn(state: EdgeState, seat: int, *steps: str) -> None:
    """The turn player, in one of ``steps``, with no combat or claim pending."""
    if seat != state.active:
        raise IllegalAction(R.NOT_YOUR_TURN, f"It is seat {state.active}'s turn.")
    if state.combat is not None or state.claim is not None:
        raise IllegalAction(R.DECISION_PENDING, "An attack or a claim waits to be resolved.")
    if state.step not in steps:
        raise IllegalAction(R.WRONG_STEP, f"Not in the {state.step} step.")


def start_turn(state: EdgeState, seat: int) -> None:
    """Step 0-3: a player at the goal wins at once (E1); then every cranked card of the seat
    becomes active and every flipped one turns face up cranked (characters back in place)."""
    state.active = seat
    state.step = "discard"
    state.drawn, state.attacked, state.shifted = [], [], []
    state.zero_cost_used = False
    if state.influence[seat] >= goal(state):
        win(state, seat, "influence", f"seat {seat} starts its turn with {state.influence[seat]} "
            f"influence (goal {goal(state)}, E1)")
        return
    for p in [*state.conspiracies[seat], *state.permanents[seat]]:
        if p.state == "cranked":
            p.state = "active"
    for p in [*state.conspiracies[seat], *state.permanents[seat]]:
        if p.state == "flipped":
            p.state = "cranked"


def blocked(state: EdgeState, seat: int, card: str) -> bool:
    """Whether uniqueness stops ``seat`` placing ``card`` now (OQ6): a same-name character or
    environment on its field (flipped included), or any secret."""
    definition = state.card(card)
    if definition.type == "secret":
        return any(state.card(p.card).type == "secret" for p in state.permanents[seat])
    if definition.type == "character":
        return any(state.card(c.card).name == definition.name for c in state.conspiracies[seat])
    if definition.type == "environment":
        return any(state.card(p.card).name == definition.name for p in state.permanents[seat])
    return False


def discard_unplayable(state: EdgeState, seat: int, cards: list[str], chance: Chance) -> None:
    """§ディスカード (OQ3, OQ5): cards uniqueness blocks, never ones drawn this turn, face up to
    the dead pile; as many drawn. Repeatable; not more than the deck holds."""
    require_turn(state, seat, "discard")
    if len(set(cards)) != len(cards):
        raise IllegalAction(R.MALFORMED_DISCARD, "A card is named twice.")
    for card in cards:
        if card not in state.hands[seat]:
            raise IllegalAction(R.NOT_IN_HAND, f"{card} is not in seat {seat}'s hand.")
        if card in state.drawn:
            raise IllegalAction(R.DRAWN_THIS_TURN, "A card drawn this turn cannot be discarded.")
        if not blocked(state, seat, card):
            raise IllegalAction(R.NOT_UNPLAYABLE, f"{state.card(card).name} can be placed: only "
                                "cards uniqueness blocks are discarded.")
    if len(cards) > len(state.decks[seat]):
        raise IllegalAction(R.DECK_TOO_SMALL, "The deck cannot replace that many (OQ5).")
    for card in cards:
        state.hands[seat].remove(card)
        state.dead[seat].append(card)
    for _ in cards:
        draw(state, seat, chance)  # the deck holds enough (deck_too_small above)


def draw_step(state: EdgeState, seat: int, chance: Chance) -> None:
    """E2: draw ``draw_per_turn`` cards (an empty deck loses, C2, OQ31); operations follow."""
    require_turn(state, seat, "discard")
    for _ in range(int(state.options.get("draw_per_turn", 1))):
        if not draw(state, seat, chance):
            if state.result is None:
                next_turn(state, seat)  # eliminated during its own turn: no conversion (OQ25)
            return
    state.step = "operations"


def end_operations(state: EdgeState, seat: int) -> None:
    """§ターン終了(End of Turn)フェイズ: on to the shift step."""
    require_turn(state, seat, "operations")
    state.step = "shift"


def end_turn(state: EdgeState, seat: int) -> None:
    """E7: unspent character pull becomes influence 1:1, all other pull is lost; the next seat
    in play begins (its start-of-turn steps run here)."""
    require_turn(state, seat, "operations", "shift", "influence")
    state.influence[seat] += state.character_pull
    next_turn(state, seat)


def next_turn(state: EdgeState, seat: int) -> None:
    """The reserve empties; the next seat in play starts its turn (or time is called)."""
    state.character_pull = state.other_pull = 0
    order = state.seats()
    nxt = next(order[(order.index(seat) + step) % len(order)] for step in range(1, len(order) + 1)
               if order[(order.index(seat) + step) % len(order)] not in state.eliminated)
    state.turn += 1
    limit = state.options.get("turn_limit")
    if limit and state.turn > limit:
        return  # the kernel calls time on influence (OQ26)
    start_turn(state, nxt)
