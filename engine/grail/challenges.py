"""The challenge phase's challenges (チャレンジ(Challenge)フェイズ L89-97): honour (名誉チャレンジ
L161-174; G2), mortal (抹殺チャレンジ L154-160) and victory (勝利チャレンジ L182-188; G8); grail
OQ-16, OQ-19, OQ-20, OQ-23, OQ-30."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.grail.basics import change_valor, find_warrior, own_warrior
from engine.grail.combat import start_combat
from engine.grail.model import Claim, GrailState, HonourOffer, Side, Warrior
from engine.grail.reasons import GrailReason as R
from engine.grail.turn import enter_phase

RUDE_GAP = 3  # G2: target valor at least 3 below the challenger's
RUDE_COST = 2  # G2
DECLINE_COST = 2  # L167-168
MORTAL_COST = 2  # L156-157


def _challenger(state: GrailState, seat: int, warrior_id: str) -> Warrior:
    enter_phase(state, seat, "challenge")
    warrior = own_warrior(state, seat, warrior_id)
    if warrior.acted:
        raise IllegalAction(R.ALREADY_ACTED, f"{state.card(warrior.card).name} has acted this "
                            "turn.")
    return warrior


def _target(state: GrailState, seat: int, target_id: str) -> Warrior:
    target = find_warrior(state, target_id)
    if target.owner == seat:
        raise IllegalAction(R.OWN_TARGET, "Challenge another player's warrior (L161).")
    return target


def is_rude(state: GrailState, challenger: Warrior, target: Warrior) -> bool:
    """G2: the target is neither knight nor king, or its valor is at least 3 below the
    challenger's."""
    return not state.card(target.card).is_knight or \
        target.valor <= challenger.valor - RUDE_GAP


def challenge_honour(state: GrailState, seat: int, challenger_id: str, target_id: str) -> None:
    """A knight or king challenges; a rude challenge costs it 2 valor at once (G2), unless the
    target is a king under a victory challenge (L185, OQ-19). At 0 it is destroyed and the
    challenge ends (OQ-30); else the target's controller answers."""
    challenger = _challenger(state, seat, challenger_id)
    if not state.card(challenger.card).is_knight:
        raise IllegalAction(R.NOT_A_KNIGHT, "Only a knight or king makes an honour challenge "
                            "(L163).")
    target = _target(state, seat, target_id)
    challenger.acted = True
    waived = target.card in state.victory_challenges.get(target.owner, [])
    if is_rude(state, challenger, target) and not waived:
        change_valor(state, challenger, -RUDE_COST)
        if state.warrior(challenger.card) is None:
            return
    state.honour_offer = HonourOffer(challenger=challenger.card, target=target.card)


def answer_honour(state: GrailState, seat: int, accept: bool, champion: str | None) -> None:
    """L167-169: declining costs a knight or king 2 valor (a general warrior declines free, 一般
    戦士 L269); accepting starts a duel; a king may name a champion from his own field (王
    L285-286), who fights while the results fall on the king (OQ-16)."""
    offer = state.honour_offer
    if offer is None:
        raise IllegalAction(R.NO_HONOUR_CHALLENGE, "No honour challenge waits for an answer.")
    target = find_warrior(state, offer.target)
    if target.owner != seat:
        raise IllegalAction(R.NOT_YOUR_DECISION, f"Seat {target.owner} answers.")
    king = state.card(target.card).kind == "king"
    if champion is not None and (not accept or not king):
        raise IllegalAction(R.NO_CHAMPION, "Only a king who accepts names a champion.")
    under_challenge = target.card in state.victory_challenges.get(seat, [])
    if not accept and under_challenge and \
            state.options.get("victory_challenge_decline") == "forbidden":
        raise IllegalAction(R.MUST_ACCEPT, "A king under a victory challenge may not decline "
                            "(grail OQ-20).")
    state.honour_offer = None
    if not accept:
        if state.card(target.card).is_knight:
            change_valor(state, target, -DECLINE_COST)
        return
    fighter = target.card
    if champion is not None:
        stand_in = own_warrior(state, seat, champion)
        if stand_in is target:
            raise IllegalAction(R.NO_CHAMPION, "A champion is another warrior of the king's.")
        fighter = stand_in.card
    challenger = state.warrior(offer.challenger)
    if challenger is None:  # gone meanwhile (an event, a judge): no duel
        return
    start_combat(state, "honour", Side(seat=challenger.owner, fighter=challenger.card),
                 Side(seat=seat, fighter=fighter,
                      for_king=target.card if champion is not None else None))


def challenge_mortal(state: GrailState, seat: int, challenger_id: str, target_id: str) -> None:
    """L154-160: any warrior attacks another player's warrior; a knight or king pays 2 valor (a
    general warrior nothing, 一般戦士 L270); no declining, no champion (OQ-18)."""
    challenger = _challenger(state, seat, challenger_id)
    target = _target(state, seat, target_id)
    challenger.acted = True
    if state.card(challenger.card).is_knight:
        change_valor(state, challenger, -MORTAL_COST)
        if state.warrior(challenger.card) is None:
            return
    start_combat(state, "mortal", Side(seat=seat, fighter=challenger.card),
                 Side(seat=target.owner, fighter=target.card))


def declare_victory_challenge(state: GrailState, seat: int, king_id: str) -> None:
    """L182-188, G8: a king with an alternate victory claims its condition met; it is pending
    until this seat's next draw phase. Not while another player's is pending (L184); another
    of one's own kings may (OQ-23)."""
    king = _challenger(state, seat, king_id)
    definition = state.card(king.card)
    if definition.kind != "king" or not definition.alt_victory:
        raise IllegalAction(R.NO_ALT_VICTORY, f"{definition.name} has no alternate victory.")
    if any(s != seat and kings for s, kings in state.victory_challenges.items()):
        raise IllegalAction(R.VICTORY_CHALLENGE_PENDING, "Another player's victory challenge is "
                            "pending (L184).")
    king.acted = True
    state.victory_challenges.setdefault(seat, []).append(king.card)
    state.claims.append(Claim(seat=seat, what="victory_challenge", about=king.card))
