"""Who the game waits on, and their legal actions. Actions of later phases are legal at once
(implicit advance, grail OQ-39) but only the current phase's are listed, with ``end_phase``;
events, spells and transfers are legal when ``check`` says so but are not listed (card text
decides when they matter); an upkeep lists one payment: the cheapest warriors paid first."""

from __future__ import annotations

from engine.core.contract import Action
from engine.core.errors import IllegalAction
from engine.core.legality import listed
from engine.grail import actions as act
from engine.grail.basics import FORMAL
from engine.grail.claims import disputed, waiting_on
from engine.grail.field import fits, upkeep_yield
from engine.grail.model import GRAIL_VALOR, GrailState, Warrior
from engine.grail.outcomes import losable
from engine.grail.quests import may_heal_between_quests
from engine.grail.turn import decision_pending


def to_act(state: GrailState) -> list[int]:
    """The seats the game waits on."""
    if state.result is not None:
        return []
    claim = disputed(state)
    if claim is not None:
        return [claim.seat]  # a judge rules, recorded for the claimant's seat
    if state.victory_claim is not None:
        return waiting_on(state)
    combat = state.combat
    if combat is not None:
        if combat.step == "champions":
            return sorted({combat.sides[i].seat for i in state.champions_to_name})
        if combat.step == "cards":
            return sorted({s.seat for s in combat.sides if not s.quest})
        if combat.step == "surrender_answer" and combat.surrender_by is not None:
            return [combat.sides[1 - combat.surrender_by].seat]
        if combat.step == "heal":
            return sorted({combat.sides[i].seat for i in combat.heal_pending}) or \
                [combat.sides[0].seat]
        return [_honour_winner(state)]
    if state.honour_offer is not None:
        target = state.warrior(state.honour_offer.target)
        return [target.owner] if target else [state.active]
    if state.reward_due is not None:
        return [int(state.reward_due.partition("@")[2].partition(".")[0])]
    return [state.active]


def _honour_winner(state: GrailState) -> int:
    combat = state.combat
    assert combat is not None and combat.result.startswith("win:")
    return combat.sides[int(combat.result[4:])].seat


def legal_actions(state: GrailState, seat: int) -> list[Action]:
    """The listed actions of ``seat`` now."""
    if seat not in to_act(state):
        return []
    claim = disputed(state)
    if claim is not None:
        return [listed(act.RuleClaim, seat=seat, upheld=up, reason="judge's ruling")
                for up in (True, False)]
    if state.victory_claim is not None:
        return [listed(act.AcceptClaim, seat=seat),
                listed(act.Dispute, seat=seat, claimant=state.victory_claim.seat)]
    if state.combat is not None:
        return _combat(state, seat)
    if state.honour_offer is not None:
        return _honour_answers(state, seat)
    if state.reward_due is not None:
        return _rewards(state, seat)
    if state.phase == "draw" and not state.drawn:
        return [listed(act.ClaimAlternateVictory, seat=seat, met=m) for m in (True, False)]
    if state.grail is not None:
        return _grail(state, seat)
    return _phase(state, seat)


def _combat(state: GrailState, seat: int) -> list[Action]:
    combat = state.combat
    assert combat is not None
    if combat.step == "champions":
        fighters = {s.fighter for s in combat.sides}
        return [listed(act.NameChampion, seat=seat)] + [
            listed(act.NameChampion, seat=seat, champion=w.card)
            for w in state.warriors[seat] if w.card not in fighters]
    if combat.step == "cards":
        out: list[Action] = [listed(act.RollRound, seat=seat)]
        side = next(s for s in combat.sides if s.seat == seat and not s.quest)
        if combat.kind != "title" and combat.round >= 1 and not side.surrender_used:
            out.append(listed(act.RequestSurrender, seat=seat))
        out += [listed(act.PlayCombatAction, seat=seat, card=c)
                for c in sorted(set(state.hands[seat]))
                if state.card(c).type == "combat_action"]
        if combat.kind not in FORMAL:
            fighters = {s.fighter for s in combat.sides}
            out += [listed(act.Support, seat=seat, warrior=w.card) for w in state.warriors[seat]
                    if w.card not in fighters and w.card not in combat.supporters
                    and (seat != state.active or not w.acted)]
        return out
    if combat.step == "surrender_answer":
        wounds = (False,) if combat.kind in FORMAL else (False, True)
        return [listed(act.AnswerSurrender, seat=seat, accept=True, wound=w) for w in wounds] + \
            [listed(act.AnswerSurrender, seat=seat, accept=False)]
    if combat.step == "heal":
        return [listed(act.Heal, seat=seat, warrior=combat.sides[i].fighter)
                for i in combat.heal_pending if combat.sides[i].seat == seat] + \
            [listed(act.FinishCombat, seat=seat)]
    lost = combat.sides[1 - int(combat.result[4:])]
    beaten = state.warrior(lost.for_king or lost.fighter)
    return [listed(act.ChooseRewardLoss, seat=seat, reward=r)
            for r in (losable(state, beaten) if beaten else [])]


def _honour_answers(state: GrailState, seat: int) -> list[Action]:
    offer = state.honour_offer
    assert offer is not None
    out: list[Action] = [listed(act.AnswerHonour, seat=seat, accept=True),
                         listed(act.AnswerHonour, seat=seat, accept=False)]
    if state.card(offer.target).kind == "king":
        out += [listed(act.AnswerHonour, seat=seat, accept=True, champion=w.card)
                for w in state.warriors[seat] if w.card != offer.target]
    return out


def _rewards(state: GrailState, seat: int) -> list[Action]:
    out: list[Action] = [listed(act.TakeQuestReward, seat=seat, mode="valor")]
    if state.court[seat]:
        out.append(listed(act.TakeQuestReward, seat=seat, mode="draw"))
    for card in sorted(set(state.hands[seat])):
        definition = state.card(card)
        warrior = state.warrior(state.reward_due or "")
        if definition.type == "reward" and definition.value <= state.reward_value and \
                warrior is not None and _fits(state, warrior, card):
            out.append(listed(act.TakeQuestReward, seat=seat, mode="rewards", cards=(card,)))
    return out


def _grail(state: GrailState, seat: int) -> list[Action]:
    grail = state.grail
    assert grail is not None
    out: list[Action] = [listed(act.AbandonGrailQuest, seat=seat)]
    if may_heal_between_quests(state, seat, grail.knight):
        out.append(listed(act.Heal, seat=seat, warrior=grail.knight))
    for quest in grail.eligible:
        if quest in state.active_quest.values():
            out.append(listed(act.AttemptQuest, seat=seat, warrior=grail.knight, quest=quest,
                              claim=not state.card(quest).combat_quest))
    return out


def _phase(state: GrailState, seat: int) -> list[Action]:
    if decision_pending(state) is not None:
        return []
    phase = state.phase
    out: list[Action] = []
    if phase != "challenge" and (phase != "upkeep" or state.upkeep_paid):
        out.append(listed(act.EndPhase, seat=seat))
    hand = sorted(set(state.hands[seat]))
    if phase == "draw":
        if not state.refreshed and state.active_quest[seat] is not None:
            out.append(listed(act.RefreshQuest, seat=seat))
    elif phase == "build":
        if not state.domain_placed:
            out += [listed(act.PlaceDomain, seat=seat, card=c) for c in hand
                    if state.card(c).type == "domain"]
    elif phase == "deployment":
        out += [listed(act.DeployWarrior, seat=seat, card=c) for c in hand
                if state.card(c).type == "warrior" and _deployable(state, seat, c)]
    elif phase == "assignment":
        out += _attachments(state, seat, hand)
    elif phase == "upkeep":
        if not state.upkeep_paid:
            out.append(listed(act.PayUpkeep, seat=seat, unpaid=tuple(_unpaid(state, seat))))
    else:
        out.append(listed(act.EndTurn, seat=seat))
        out += _challenges(state, seat)
    return out


def _deployable(state: GrailState, seat: int, card: str) -> bool:
    new = state.card(card)
    for w in state.warriors[seat]:
        mine = state.card(w.card)
        if new.is_knight and mine.is_knight and mine.name == new.name:
            return False
        if new.kind == "king" and mine.kind == "king" and mine.domain == new.domain:
            return False
    return True


def _attachments(state: GrailState, seat: int, hand: list[str]) -> list[Action]:
    out: list[Action] = []
    for card in hand:
        definition = state.card(card)
        if not (definition.type == "companion" or (definition.type == "reward" and (
                definition.value == 0 or definition.reward == "vow"))):
            continue
        for warrior in state.warriors[seat]:
            if not warrior.assigned and _fits(state, warrior, card):
                out.append(listed(act.AttachCard, seat=seat, card=card, warrior=warrior.card))
    return out


def _fits(state: GrailState, warrior: Warrior, card: str) -> bool:
    try:
        fits(state, warrior, card)
    except IllegalAction:
        return False
    return True


def _unpaid(state: GrailState, seat: int) -> list[str]:
    """The cheapest warriors paid first; the rest unpaid (so none of them fits, OQ-11)."""
    spare = upkeep_yield(state, seat)
    unpaid = []
    for warrior in sorted(state.warriors[seat], key=lambda w: (state.card(w.card).upkeep,
                                                                w.card)):
        cost = state.card(warrior.card).upkeep
        if cost <= spare:
            spare -= cost
        else:
            unpaid.append(warrior.card)
    return unpaid


def _challenges(state: GrailState, seat: int) -> list[Action]:
    out: list[Action] = []
    others = [w for s in state.in_play() if s != seat for w in state.warriors[s]]
    quests = [q for q in state.active_quest.values() if q]
    rival_pending = any(s != seat and k for s, k in state.victory_challenges.items())
    for warrior in state.warriors[seat]:
        if warrior.acted:
            continue
        out += _actions_of(state, seat, warrior, others, quests, rival_pending)
    return out


def _actions_of(state: GrailState, seat: int, warrior: Warrior, others: list[Warrior],
                quests: list[str], rival_pending: bool) -> list[Action]:
    card = state.card(warrior.card)
    out: list[Action] = [listed(act.AttemptQuest, seat=seat, warrior=warrior.card, quest=q,
                                claim=not state.card(q).combat_quest) for q in quests]
    out += [listed(act.ChallengeMortal, seat=seat, challenger=warrior.card, target=t.card)
            for t in others]
    if card.is_knight:
        out += [listed(act.ChallengeHonour, seat=seat, challenger=warrior.card, target=t.card)
                for t in others]
        if warrior.valor >= GRAIL_VALOR and not rival_pending:
            out.append(listed(act.StartGrailQuest, seat=seat, knight=warrior.card))
    if card.kind == "king" and card.alt_victory and not rival_pending:
        out.append(listed(act.DeclareVictoryChallenge, seat=seat, king=warrior.card))
    return out
