"""Quests, their rewards and the grail quest (クエストについて L114-135; G4, G7, G8; grail OQ-4,
OQ-9, OQ-24, OQ-26, OQ-27, OQ-34)."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.errors import IllegalAction
from engine.grail.basics import (
    change_valor,
    draw_court,
    end_grail,
    own_warrior,
    owner_of,
    reveal_quest,
    win,
)
from engine.grail.combat import start_combat
from engine.grail.field import fits
from engine.grail.model import GRAIL_QUESTS, GRAIL_VALOR, Claim, GrailAttempt, GrailState, Side
from engine.grail.reasons import GrailReason as R
from engine.grail.turn import enter_phase


def _victory_challenge_of_another(state: GrailState, seat: int) -> bool:
    return any(s != seat and kings for s, kings in state.victory_challenges.items())


def attempt_quest(state: GrailState, seat: int, warrior_id: str, quest: str, claim: bool,
                  chance: Chance) -> None:
    """A warrior attempts any player's active quest (L115-116): a combat quest is a mortal
    combat with the quest defending (討伐クエスト L147-153); another is achieved on the claim
    (G8) and fails without it (OQ-24). In a grail attempt, only the grail knight, on an
    eligible quest (OQ-26)."""
    if state.grail is None:
        enter_phase(state, seat, "challenge")
    else:
        _grail_may_go_on(state, seat)
    warrior = own_warrior(state, seat, warrior_id)
    if quest not in state.active_quest.values():
        raise IllegalAction(R.NOT_ACTIVE_QUEST, f"{quest} is not an active quest.")
    grail = state.grail
    if grail is not None:
        if warrior.card != grail.knight:
            raise IllegalAction(R.GRAIL_KNIGHT_ONLY, "Only the grail knight quests now.")
        if quest not in grail.eligible:
            raise IllegalAction(R.GRAIL_QUEST_NOT_ELIGIBLE, "That quest was not there when the "
                                "grail quest began, nor revealed by it (L131).")
        state.grail_heal = None  # the attempt goes on: the heal window closes (L133)
    elif warrior.acted:
        raise IllegalAction(R.ALREADY_ACTED, f"{state.card(warrior.card).name} has acted this "
                            "turn.")
    warrior.acted = True
    definition = state.card(quest)
    if definition.combat_quest:
        start_combat(state, "quest", Side(seat=seat, fighter=warrior.card),
                     Side(seat=owner_of(quest), fighter=quest, quest=True))
        return
    if claim:
        state.claims.append(Claim(seat=seat, what="quest", about=quest, by=warrior.card))
        quest_achieved(state, seat, warrior.card, quest, alive=True, chance=chance)
    else:
        quest_failed(state, warrior.card, quest)


def quest_achieved(state: GrailState, seat: int, warrior_id: str, quest: str, *, alive: bool,
                   chance: Chance, wounded: bool = False) -> None:
    """L125-126: the quest to its owner's quest discard, the owner's next quest revealed. Then
    the reward (G4), if the warrior lived; in a grail attempt no reward, and the grail goes on
    unless the knight was mortally wounded (L133)."""
    owner = owner_of(quest)
    state.quest_discard[owner].append(quest)
    state.active_quest[owner] = None
    revealed = reveal_quest(state, owner, chance)
    grail = state.grail
    if grail is None:
        if alive:
            state.reward_due = warrior_id
            state.reward_value = state.card(quest).valor
        return
    grail.eligible = [q for q in grail.eligible if q != quest]
    if revealed is not None:
        grail.eligible.append(revealed)  # OQ-26, even the same card back from a reshuffle
    if wounded or not alive:
        end_grail(state)  # L133: a mortal wound fails the grail, even on an achieved quest
        return
    grail.successes += 1
    if grail.successes < GRAIL_QUESTS and not state.card(quest).combat_quest:
        state.grail_heal = grail.knight  # L133: its heal after an achievement with no combat
    if grail.successes >= GRAIL_QUESTS:
        knight = state.warrior(grail.knight)
        end_grail(state)
        if knight is not None and knight.valor >= GRAIL_VALOR:
            _grail_won(state, seat, knight.card, knight.valor)


def _grail_won(state: GrailState, seat: int, knight: str, valor: int) -> None:
    """L135, G7: the third success with the knight 健在 at valor 12 or more wins at once. When
    a quest of the attempt was achieved on a claim still open to dispute (G8), the win is a
    match-ending claim (OQ-22): play ends at once, and the match stays open to dispute until
    the others accept or a judge rules (engine.grail.claims)."""
    open_claims = [c for c in state.claims if c.seat == seat and c.what == "quest"
                   and c.by == knight and not c.ruled]
    if not open_claims:
        win(state, seat, "grail", f"{state.card(knight).name} achieved the grail quest with "
            f"valor {valor} (G7)")
        return
    state.victory_claim = Claim(seat=seat, what="grail", about=open_claims[-1].about,
                                by=knight)
    state.accepted = []


def quest_failed(state: GrailState, warrior_id: str, quest: str) -> None:
    """L134, G7: a defeat in a grail attempt costs the knight that quest's valor and ends the
    attempt; a normal quest's failure has no other effect (OQ-24)."""
    if state.grail is None:
        return
    end_grail(state)
    knight = state.warrior(warrior_id)
    if knight is not None:
        change_valor(state, knight, -state.card(quest).valor)


def take_quest_reward(state: GrailState, seat: int, mode: str, cards: list[str],
                      chance: Chance) -> None:
    """G4: the valor gained taken in exactly one way: as valor; as rewards from hand, their
    values at most the valor gained (OQ-9: at least one); or spent whole on one court draw
    (OQ-4: not from an empty deck)."""
    warrior_id = state.reward_due
    if warrior_id is None or owner_of(warrior_id) != seat:
        raise IllegalAction(R.NO_REWARD_DUE, "No quest reward of this seat waits to be taken.")
    warrior = own_warrior(state, seat, warrior_id)
    value = state.reward_value
    if mode == "rewards":
        _check_rewards(state, seat, warrior_id, cards, value)
        for card in cards:
            state.hands[seat].remove(card)
            warrior.attached.append(card)
    elif cards:
        raise IllegalAction(R.MALFORMED_REWARD, "Cards are named only for the rewards mode.")
    elif mode == "draw":
        if not state.court[seat]:
            raise IllegalAction(R.DECK_EMPTY, "The court deck is empty: take valor or rewards.")
        draw_court(state, seat, chance)
    else:
        warrior.valor += value
    state.reward_due, state.reward_value = None, 0


def _check_rewards(state: GrailState, seat: int, warrior_id: str, cards: list[str],
                   value: int) -> None:
    if not cards:
        raise IllegalAction(R.NO_REWARDS_CHOSEN, "Name the reward cards (grail OQ-9).")
    if len(set(cards)) != len(cards):
        raise IllegalAction(R.MALFORMED_REWARD, "A card is named twice.")
    for card in cards:
        if card not in state.hands[seat]:
            raise IllegalAction(R.CARD_NOT_IN_HAND, f"{card} is not in seat {seat}'s hand.")
        if state.card(card).type != "reward":
            raise IllegalAction(R.NOT_A_REWARD, f"{state.card(card).name} is not a reward.")
    total = sum(state.card(c).value for c in cards)
    if total > value:
        raise IllegalAction(R.OVER_VALOR, f"The rewards are worth {total}; the quest gave "
                            f"{value} (G4).")
    warrior = own_warrior(state, seat, warrior_id)
    placed = list(warrior.attached)
    try:
        for card in cards:
            fits(state, warrior, card)
            warrior.attached.append(card)
    finally:
        warrior.attached = placed


def start_grail_quest(state: GrailState, seat: int, knight_id: str) -> None:
    """G7, L127-131: a knight or king with valor 12 or more, not yet acted, no other player's
    victory challenge pending; the eligible quests are the active quests now."""
    enter_phase(state, seat, "challenge")
    knight = own_warrior(state, seat, knight_id)
    if not state.card(knight.card).is_knight:
        raise IllegalAction(R.NOT_A_KNIGHT, "Only a knight or king seeks the grail (一般戦士 "
                            "L266).")
    if knight.valor < GRAIL_VALOR:
        raise IllegalAction(R.VALOR_BELOW_12, f"{state.card(knight.card).name} has valor "
                            f"{knight.valor}; the grail needs {GRAIL_VALOR}.")
    if knight.acted:
        raise IllegalAction(R.ALREADY_ACTED, f"{state.card(knight.card).name} has acted.")
    if _victory_challenge_of_another(state, seat):
        raise IllegalAction(R.VICTORY_CHALLENGE_PENDING, "Another player's victory challenge "
                            "is pending (L129).")
    knight.acted = True
    state.grail = GrailAttempt(seat=seat, knight=knight.card,
                               eligible=[q for q in state.active_quest.values() if q])


def abandon_grail_quest(state: GrailState, seat: int) -> None:
    """OQ-27: between quests; a failure that costs no valor."""
    if state.grail is None or state.grail.seat != seat:
        raise IllegalAction(R.NO_GRAIL_QUEST, "No grail quest of this seat is between quests.")
    _grail_may_go_on(state, seat)
    end_grail(state)


def may_heal_between_quests(state: GrailState, seat: int, warrior_id: str) -> bool:
    """Whether ``seat``'s ``warrior_id`` may heal now between the quests of its grail attempt
    (``heal_between_quests``): it is the grail knight whose window is open, with normal damage
    to heal (OQ-29: nothing else to heal outside a combat)."""
    knight = state.warrior(warrior_id)
    return state.grail is not None and state.grail_heal == warrior_id and \
        state.combat is None and knight is not None and knight.owner == seat and \
        knight.damage > 0


def heal_between_quests(state: GrailState, seat: int, warrior_id: str) -> None:
    """L133 (達成ごとに1名声値で治療可能), grail OQ-29 (healing only at the end of a combat and
    after each achieved grail quest): a grail quest achieved with no combat (a claimed one)
    opens a heal window for the grail knight. It stays open while the attempt waits between
    quests, for one heal, and closes with the knight's next ``attempt_quest`` or
    ``abandon_grail_quest``, or when the attempt ends otherwise. After the third success the
    final check (L135) comes at once: there is no window then. A combat quest's heal is the
    combat's own, at its end (E2). The heal costs 1 valor: the knight's normal damage goes,
    permanent damage stays; at 0 valor it is destroyed and the attempt ends (OQ-29, OQ-30).
    While a claim is disputed, it waits for the ruling (``decision_pending``)."""
    if not may_heal_between_quests(state, seat, warrior_id):
        raise IllegalAction(R.NOTHING_TO_HEAL, "That warrior may not heal now: only the grail "
                            "knight with damage, once, right after a quest achieved with no "
                            "combat (L133).")
    _grail_may_go_on(state, seat)
    knight = own_warrior(state, seat, warrior_id)
    state.grail_heal = None
    knight.damage = 0
    change_valor(state, knight, -1)


def _grail_may_go_on(state: GrailState, seat: int) -> None:
    """Between the grail knight's quests nothing else is pending (a combat, a disputed claim
    waiting for its ruling)."""
    if seat != state.active or state.combat is not None or state.honour_offer is not None \
            or state.reward_due is not None or any(
                c.disputed_by is not None and not c.ruled for c in state.claims):
        raise IllegalAction(R.DECISION_PENDING, "The grail quest waits: a combat or a "
                            "disputed claim is not settled.")
