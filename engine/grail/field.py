"""Building, deployment, assignment and upkeep (構築 L73-74, 配備 L75-77, 割り当て L78-85,
アップキープ L86-88; G5, G6; grail OQ-7, OQ-8, OQ-10, OQ-11, OQ-12)."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.grail.basics import destroy, own_warrior
from engine.grail.combat import start_combat
from engine.grail.model import SLOTTED, UNTRANSFERABLE, Card, GrailState, Side, Warrior
from engine.grail.reasons import GrailReason as R
from engine.grail.turn import enter_phase


def _from_hand(state: GrailState, seat: int, card: str) -> Card:
    if card not in state.hands[seat]:
        raise IllegalAction(R.CARD_NOT_IN_HAND, f"{card} is not in seat {seat}'s hand.")
    return state.card(card)


def place_domain(state: GrailState, seat: int, card: str) -> None:
    """構築 L74, 領地 L240-241: one domain per build phase; domains are not unique."""
    enter_phase(state, seat, "build")
    if _from_hand(state, seat, card).type != "domain":
        raise IllegalAction(R.NOT_A_DOMAIN, f"{state.card(card).name} is not a domain.")
    if state.domain_placed:
        raise IllegalAction(R.DOMAIN_ALREADY_PLACED, "A domain was placed this turn.")
    state.hands[seat].remove(card)
    state.domains[seat].append(card)
    state.domain_placed = True


def _rival(state: GrailState, seat: int, card: Card) -> Warrior | None:
    """A knight or king of another player with the same name, or a king of the same domain
    (基本構成細則 L54-55): the one a title challenge is fought against."""
    for other in state.in_play():
        if other == seat:
            continue
        for w in state.warriors[other]:
            there = state.card(w.card)
            if card.is_knight and there.is_knight and there.name == card.name:
                return w
            if card.kind == "king" and there.kind == "king" and there.domain == card.domain:
                return w
    return None


def deploy_warrior(state: GrailState, seat: int, card: str) -> None:
    """配備 L76-77, G6: free of cost; a second knight or king of the same name, or a second king
    of the same domain, on one's own field is refused; against another player's it starts a
    title challenge at once (both defend, formal, no surrender)."""
    enter_phase(state, seat, "deployment")
    definition = _from_hand(state, seat, card)
    if definition.type != "warrior":
        raise IllegalAction(R.NOT_A_WARRIOR, f"{definition.name} is not a warrior.")
    for w in state.warriors[seat]:
        mine = state.card(w.card)
        if definition.is_knight and mine.is_knight and mine.name == definition.name:
            raise IllegalAction(R.DUPLICATE_NAME, f"Seat {seat} already has {mine.name} on "
                                "its field (G6).")
        if definition.kind == "king" and mine.kind == "king" and \
                mine.domain == definition.domain:
            raise IllegalAction(R.DUPLICATE_DOMAIN, f"Seat {seat} already has a king of "
                                f"{definition.domain} (G6).")
    state.hands[seat].remove(card)
    warrior = Warrior(card=card, owner=seat, valor=definition.valor)
    state.warriors[seat].append(warrior)
    rival = _rival(state, seat, definition)
    if rival is not None:
        start_combat(state, "title", Side(seat=rival.owner, fighter=rival.card),
                     Side(seat=seat, fighter=card))


def _assignable(state: GrailState, warrior: Warrior) -> None:
    if warrior.assigned:
        raise IllegalAction(R.ALREADY_ASSIGNED, f"{state.card(warrior.card).name} has had its "
                            "assignment operation this turn (OQ-7).")


def fits(state: GrailState, warrior: Warrior, card: str) -> None:
    """Ladies (貴婦人 L300-302), weapon slots (L318, OQ-8), unique rewards (報酬 L311, OQ-10)."""
    definition = state.card(card)
    kinds = [state.card(c) for c in warrior.attached]
    if definition.type == "companion" and definition.lady:
        if not state.card(warrior.card).is_knight:
            raise IllegalAction(R.LADY_NEEDS_KNIGHT, "A lady goes to a knight or king.")
        if any(k.type == "companion" and k.lady for k in kinds):
            raise IllegalAction(R.ONE_LADY, "That knight already has a lady.")
        if _in_play_named(state, definition.name, card):
            raise IllegalAction(R.UNIQUE_IN_PLAY, f"{definition.name} is in play already.")
    if definition.type == "reward":
        if definition.reward in SLOTTED and any(k.reward == definition.reward for k in kinds):
            raise IllegalAction(R.SLOT_TAKEN, f"That warrior already has a {definition.reward}.")
        if definition.value >= 1 and definition.reward != "combat_experience" and \
                _in_play_named(state, definition.name, card):
            raise IllegalAction(R.UNIQUE_IN_PLAY, f"{definition.name} is in play already.")


def _in_play_named(state: GrailState, name: str, other_than: str) -> bool:
    return any(state.card(c).name == name and c != other_than
               for s in state.seats() for w in state.warriors[s] for c in w.attached)


def attach_card(state: GrailState, seat: int, card: str, warrior_id: str) -> None:
    """割り当て L80-82: a vow, a value-0 reward or a companion from hand to an own warrior."""
    enter_phase(state, seat, "assignment")
    definition = _from_hand(state, seat, card)
    warrior = own_warrior(state, seat, warrior_id)
    _assignable(state, warrior)
    if definition.type == "reward":
        if definition.value >= 1 and definition.reward != "vow":
            raise IllegalAction(R.VALUE_NEEDS_QUEST, f"{definition.name} (value "
                                f"{definition.value}) comes into play only as a quest reward "
                                "(報酬 L310).")
    elif definition.type != "companion":
        raise IllegalAction(R.NOT_ATTACHABLE, f"{definition.name} is not a companion or a "
                            "reward.")
    fits(state, warrior, card)
    state.hands[seat].remove(card)
    warrior.attached.append(card)
    warrior.assigned = True


def transfer_card(state: GrailState, seat: int, card: str, to_id: str) -> None:
    """割り当て L83-84: a reward or companion between one's own warriors; never a vow, combat
    experience or a lady; both warriors use their operation (OQ-7 ``both``)."""
    enter_phase(state, seat, "assignment")
    giver = next((w for w in state.warriors[seat] if card in w.attached), None)
    if giver is None:
        raise IllegalAction(R.NOT_ATTACHED, f"{card} is not attached to a warrior of seat "
                            f"{seat}.")
    receiver = own_warrior(state, seat, to_id)
    if receiver is giver:
        raise IllegalAction(R.SAME_WARRIOR, "Transfer to another warrior.")
    definition = state.card(card)
    if definition.reward in UNTRANSFERABLE or definition.lady:
        raise IllegalAction(R.NOT_TRANSFERABLE, f"{definition.name} cannot be transferred.")
    both = state.options.get("assignment_transfer", "both") == "both"
    for w in ([giver, receiver] if both else [receiver]):
        _assignable(state, w)
    fits(state, receiver, card)
    giver.attached.remove(card)
    receiver.attached.append(card)
    for w in ([giver, receiver] if both else [receiver]):
        w.assigned = True


def upkeep_yield(state: GrailState, seat: int) -> int:
    """G5: each domain yields 1, or 2 when a king on the seat's own field names it (OQ-12:
    computed once, before anything is destroyed)."""
    kings = {state.card(w.card).domain for w in state.warriors[seat]
             if state.card(w.card).kind == "king"}
    return sum(2 if state.card(d).name in kings else 1 for d in state.domains[seat])


def pay_upkeep(state: GrailState, seat: int, unpaid: list[str]) -> None:
    """アップキープ L87-88, G5: the yield is shared among the warriors; the unpaid ones are
    destroyed. Under ``upkeep_unpaid: forced_only`` (OQ-11) no unpaid warrior may fit in what
    is left of the yield."""
    enter_phase(state, seat, "upkeep")
    if state.upkeep_paid:
        raise IllegalAction(R.UPKEEP_PAID, "Upkeep was paid this turn.")
    dropped = [own_warrior(state, seat, w) for w in dict.fromkeys(unpaid)]
    free = [w for w in dropped if state.card(w.card).upkeep == 0]
    if free:
        raise IllegalAction(R.COULD_PAY, f"{state.card(free[0].card).name} costs nothing: it "
                            "is always paid.")
    paid = [w for w in state.warriors[seat] if w not in dropped]
    total = sum(state.card(w.card).upkeep for w in paid)
    income = upkeep_yield(state, seat)
    if total > income:
        raise IllegalAction(R.UPKEEP_EXCEEDS_YIELD, f"The paid warriors cost {total}; the "
                            f"domains yield {income} (G5).")
    if state.options.get("upkeep_unpaid", "forced_only") == "forced_only":
        spare = income - total
        fits = [w for w in dropped if state.card(w.card).upkeep <= spare]
        if fits:
            raise IllegalAction(R.COULD_PAY, f"{state.card(fits[0].card).name} could still be "
                                f"paid from the {spare} left (grail OQ-11).")
    for warrior in dropped:
        destroy(state, warrior)
    state.upkeep_paid = True
    state.phase = "challenge"
