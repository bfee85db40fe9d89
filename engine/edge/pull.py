"""Pull and paying costs (§コストについて; E7, E8; edge OQ12, OQ22, OQ23).

Pull goes into the reserve when a character or resource cranks to produce it, and remembers its
kind. The payer names how much of each kind pays a cost, exactly; only one 0-cost card per own
turn (whammies have no cost). A dotted cost needs a face-up own card with one of the required
traits when the card data names them; otherwise it is accepted as claimed. A card's pull is its
printed pull with the lasting modifiers card texts give it (C3)."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.core.holdings import modified
from engine.edge.model import Card, EdgeState
from engine.edge.reasons import EdgeReason as R


def pay(state: EdgeState, seat: int, card: Card, from_characters: int,
        from_others: int) -> None:
    """Check and pay ``card``'s printed cost (``insufficient_pull``, ``payment_mismatch``,
    ``zero_cost_limit``, ``cost_condition``)."""
    cost = card.cost or 0
    if from_characters + from_others != cost:
        raise IllegalAction(R.PAYMENT_MISMATCH, f"{card.name} costs {cost}; the payment names "
                            f"{from_characters + from_others} (an exact payment, OQ12).")
    if from_characters > state.character_pull or from_others > state.other_pull:
        raise IllegalAction(R.INSUFFICIENT_PULL, f"The reserve holds {state.character_pull} "
                            f"character pull and {state.other_pull} other pull (E7).")
    if cost == 0 and state.zero_cost_used:
        raise IllegalAction(R.ZERO_COST_LIMIT, "One 0-cost card per turn has been used (E8).")
    if card.cost_requires and not trait_shown(state, seat, card.cost_requires):
        raise IllegalAction(R.COST_CONDITION, f"{card.name}'s dotted cost needs a face-up card of "
                            f"yours with {' or '.join(card.cost_requires)} (OQ22).")
    state.character_pull -= from_characters
    state.other_pull -= from_others
    if cost == 0:
        state.zero_cost_used = True


def trait_shown(state: EdgeState, seat: int, traits: tuple[str, ...]) -> bool:
    """Whether a face-up card of ``seat``'s in play has one of ``traits`` (OQ22)."""
    face_up = [p for p in [*state.conspiracies[seat], *state.permanents[seat]]
               if p.state != "flipped"]
    return any(set(state.card(p.card).traits) & set(traits) for p in face_up)


def pull_of(state: EdgeState, card: str) -> int:
    """The pull ``card`` produces now: its printed pull (0 if none) with its lasting modifiers
    (C3; the ``pull`` stat)."""
    return modified(state.modifiers, card, "pull", state.card(card).pull or 0)
