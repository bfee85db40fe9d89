"""One-shot cards (一時的に使用するカード L329-348): events at any time, spells through an own
caster (never in a duel, once per caster per round: grail OQ-25), combat actions in a combat's
card window. Their effects are card text: declared modifiers of the next roll, or a judge's
adjustments (C3). None is played once a victory claim has ended play (grail OQ-22)."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.grail.basics import FORMAL, own_warrior
from engine.grail.combat import participant, require_combat
from engine.grail.model import Card, GrailState
from engine.grail.reasons import GrailReason as R


def _play(state: GrailState, seat: int, card: str, kind: str) -> Card:
    if state.victory_claim is not None:
        raise IllegalAction(R.VICTORY_CLAIMED, f"Seat {state.victory_claim.seat}'s victory "
                            "claim has ended play: only accepting or disputing it remains "
                            "(grail OQ-22).")
    if card not in state.hands[seat]:
        raise IllegalAction(R.CARD_NOT_IN_HAND, f"{card} is not in seat {seat}'s hand.")
    definition = state.card(card)
    if definition.type != kind:
        raise IllegalAction(R.WRONG_CARD_TYPE, f"{definition.name} is not a "
                            f"{kind.replace('_', ' ')}.")
    return definition


def _discard(state: GrailState, seat: int, card: str) -> None:
    state.hands[seat].remove(card)
    state.court_discard[seat].append(card)


def play_event(state: GrailState, seat: int, card: str) -> None:
    """イベント L333-334: any player, any time."""
    _play(state, seat, card, "event")
    _discard(state, seat, card)


def play_combat_action(state: GrailState, seat: int, card: str) -> None:
    """戦闘アクション L347: by a participant's controller in the card window of a round."""
    combat = require_combat(state)
    participant(combat, seat)
    if combat.step != "cards":
        raise IllegalAction(R.WRONG_STEP, "Combat actions are played before a roll.")
    _play(state, seat, card, "combat_action")
    _discard(state, seat, card)


def cast_spell(state: GrailState, seat: int, card: str, caster_id: str) -> None:
    """呪文 L339-342: through an own warrior or companion whose enchanter rating is at least the
    spell's; never while a duel is fought; once per caster per round (OQ-25)."""
    definition = _play(state, seat, card, "spell")
    if state.combat is not None and state.combat.kind in FORMAL:
        raise IllegalAction(R.NO_SPELLS_IN_DUEL, "No spells in a formal combat (呪文 L342).")
    rating = _enchanter(state, seat, caster_id)
    if rating < definition.spell_rating:
        raise IllegalAction(R.ENCHANTER_TOO_LOW, f"The caster's enchanter rating is {rating}; "
                            f"the spell needs {definition.spell_rating}.")
    if caster_id in state.spells_cast:
        raise IllegalAction(R.CASTER_SPENT, "That caster has cast a spell this round.")
    state.spells_cast.append(caster_id)
    _discard(state, seat, card)


def _enchanter(state: GrailState, seat: int, caster_id: str) -> int:
    """The enchanter rating of an own warrior, or of a companion attached to one."""
    for warrior in state.warriors[seat]:
        if warrior.card == caster_id or caster_id in warrior.attached:
            return state.card(caster_id).enchanter or 0
    own_warrior(state, seat, caster_id)  # raises not_your_warrior
    return 0
