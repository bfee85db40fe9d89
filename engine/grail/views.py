"""What each viewer sees of a position (grail digest section 7), and transcript lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.chance import Outcome
from engine.core.contract import Action
from engine.core.effects import Effect
from engine.core.viewer import Viewer
from engine.grail import actions as act
from engine.grail.model import Combat, GrailState, Warrior

Sees = Callable[[Viewer, str, int | None], bool]
"""The ruleset's ``sees(viewer, zone, seat)``: the zone table's one rule."""


def _card(state: GrailState, instance: str) -> dict[str, Any]:
    c = state.card(instance)
    return {"id": instance, "card": c.id, "name": c.name, "type": c.type}


def _cards(state: GrailState, cards: Sequence[str]) -> list[dict[str, Any]]:
    return [_card(state, c) for c in cards]


def _warrior(state: GrailState, w: Warrior) -> dict[str, Any]:
    return {**_card(state, w.card), "kind": state.card(w.card).kind, "valor": w.valor,
            "damage": w.damage, "permanent_damage": w.permanent_damage,
            "attached": _cards(state, w.attached), "acted": w.acted, "assigned": w.assigned}


def _combat(state: GrailState, combat: Combat) -> dict[str, Any]:
    return {"kind": combat.kind, "round": combat.round, "step": combat.step,
            "result": combat.result or None,
            "sides": [{**_card(state, s.fighter), "seat": s.seat, "quest": s.quest,
                       "quest_damage": s.damage if s.quest else None, "wounded": s.wounded,
                       "surrender_used": s.surrender_used,
                       "for_king": s.for_king} for s in combat.sides]}


def view(state: GrailState, viewer: Viewer, sees: Sees) -> dict[str, Any]:
    """Hands to their owner; decks counted (judges see them); everything else to all."""
    seats = []
    for s in state.seats():
        quest = state.active_quest[s]
        seats.append({
            "seat": s, "hand_count": len(state.hands[s]),
            "hand": _cards(state, sorted(state.hands[s])) if sees(viewer, "hand", s) else None,
            "court_count": len(state.court[s]), "quest_count": len(state.quests[s]),
            "court": _cards(state, sorted(state.court[s])) if sees(viewer, "court", s)
            else None,
            "quests": _cards(state, sorted(state.quests[s])) if sees(viewer, "quests", s)
            else None,
            "active_quest": None if quest is None else _card(state, quest),
            "domains": _cards(state, state.domains[s]),
            "warriors": [_warrior(state, w) for w in state.warriors[s]],
            "court_discard": _cards(state, state.court_discard[s]),
            "quest_discard": _cards(state, state.quest_discard[s]),
            "removed": _cards(state, state.removed[s]),
            "victory_challenge": list(state.victory_challenges.get(s, []))})
    grail = state.grail
    return {
        "phase": state.phase, "seats": seats,
        "combat": None if state.combat is None else _combat(state, state.combat),
        "grail": None if grail is None else {"seat": grail.seat, "knight": grail.knight,
                                             "successes": grail.successes,
                                             "eligible": [q for q in grail.eligible
                                                          if _public(state, q)]},
        "honour_offer": None if state.honour_offer is None else {
            "challenger": state.honour_offer.challenger, "target": state.honour_offer.target},
        "reward_due": None if state.reward_due is None else {
            "warrior": state.reward_due, "value": state.reward_value},
        "claims": [{"seat": c.seat, "what": c.what,
                    "about": c.about if _public(state, c.about) else None,
                    "disputed_by": c.disputed_by} for c in state.claims],
        "victory_claim": None if state.victory_claim is None else _victory_claim(state)}


def _victory_claim(state: GrailState) -> dict[str, Any]:
    """The pending match-ending claim (OQ-22): an alternate victory names its ``king``; a grail
    won on claimed quests its ``knight`` and the ``quest`` the claim rests on."""
    claim = state.victory_claim
    assert claim is not None
    named = {"knight": claim.by, "quest": claim.about} if claim.what == "grail" else \
        {"king": claim.about}
    return {"seat": claim.seat, "what": claim.what, **named,
            "disputed_by": claim.disputed_by, "accepted": list(state.accepted)}


def _throw(before: GrailState | None, index: int, total: int) -> str:
    """A side's dice; a quest's are thrown by a player not questing (OQ-36): the questing
    seat's opponent, or with 3+ players the next seat in turn order."""
    combat = before.combat if before is not None else None
    if before is None or combat is None or not combat.sides[index].quest:
        return str(total)
    questing = combat.sides[0].seat
    order = [s for s in before.seats() if s not in before.eliminated]
    thrower = order[(order.index(questing) + 1) % len(order)]
    return f"{total} (the quest's, thrown by seat {thrower})"


def _public(state: GrailState, instance: str) -> bool:
    """Whether a card lies where everyone sees it (a quest reshuffled back into its deck no
    longer does)."""
    return instance in state.active_quest.values() or any(
        instance in pile[s] for s in state.seats()
        for pile in (state.quest_discard, state.court_discard, state.removed, state.domains)) \
        or any(instance == w.card or instance in w.attached
               for s in state.seats() for w in state.warriors[s])


def _name(before: GrailState | None, instance: str | None) -> str:
    if instance is None:
        return "a card"
    if before is None or instance.partition("@")[0] not in before.cards:
        return instance
    return before.card(instance).name


def describe(action: Action, outcomes: Sequence[Outcome], viewer: Viewer,
             before: GrailState | None, effects: Sequence[Effect], sees: Sees) -> str:
    """The action, the dice, the quests revealed, and the draws (named only to the drawer)."""
    parts = [f"Seat {action.seat} {_phrase(action, before)}."]
    dice = [int(o.value) for o in outcomes if o.kind == "die"]
    if dice:
        pairs = [dice[i] + dice[i + 1] for i in range(0, len(dice) - 1, 2)]
        parts.append("Dice: " + ", ".join(_throw(before, i, p) for i, p in enumerate(pairs))
                     + ".")
    for outcome in outcomes:
        if outcome.kind == "quest":
            parts.append(f"Quest revealed: {_name(before, str(outcome.value))}.")
        elif outcome.kind == "draw":
            seat = getattr(outcome, "seat", action.seat)
            drawn = _name(before, str(outcome.value)) if outcome.seen_by(viewer) else "a card"
            parts.append(f"Seat {seat} draws {drawn}.")
    return " ".join(parts)


def _phrase(action: Action, before: GrailState | None) -> str:
    f = action.__dict__  # the action's fields
    name = (lambda field: _name(before, f.get(field)))  # noqa: E731
    phrases: dict[type[Action], Callable[[], str]] = {
        act.ClaimAlternateVictory: lambda: "claims the victory condition holds"
        if f["met"] else "lets the victory challenge lapse",
        act.RefreshQuest: lambda: "refreshes the active quest",
        act.EndPhase: lambda: "ends the phase",
        act.PlaceDomain: lambda: f"places the domain {name('card')}",
        act.DeployWarrior: lambda: f"deploys {name('card')}",
        act.AttachCard: lambda: f"attaches {name('card')} to {name('warrior')}",
        act.TransferCard: lambda: f"transfers {name('card')} to {name('to_warrior')}",
        act.PayUpkeep: lambda: "pays upkeep" + (
            f", leaving unpaid {', '.join(_name(before, w) for w in f['unpaid'])}"
            if f["unpaid"] else ""),
        act.AttemptQuest: lambda: f"sends {name('warrior')} on {name('quest')}",
        act.TakeQuestReward: lambda: f"takes the quest reward as {f['mode']}",
        act.StartGrailQuest: lambda: f"sends {name('knight')} on the grail quest",
        act.AbandonGrailQuest: lambda: "abandons the grail quest",
        act.ChallengeHonour: lambda: f"challenges {name('target')} with "
                                     f"{name('challenger')} to an honour duel",
        act.AnswerHonour: lambda: "accepts the honour challenge"
        if f["accept"] else "declines the honour challenge",
        act.ChallengeMortal: lambda: f"attacks {name('target')} with {name('challenger')}",
        act.DeclareVictoryChallenge: lambda: f"declares a victory challenge with "
                                             f"{name('king')}",
        act.PlayCombatAction: lambda: f"plays the combat action {name('card')}",
        act.CastSpell: lambda: f"casts {name('card')} through {name('caster')}",
        act.PlayEvent: lambda: f"plays the event {name('card')}",
        act.RollRound: lambda: "rolls the round",
        act.RequestSurrender: lambda: "asks to surrender",
        act.Support: lambda: f"supports with {name('warrior')}",
        act.NameChampion: lambda: f"names {name('champion')} champion"
        if f["champion"] else "names no champion",
        act.AnswerSurrender: lambda: "accepts the surrender"
        if f["accept"] else "refuses the surrender",
        act.Heal: lambda: f"heals {name('warrior')} for 1 valor",
        act.FinishCombat: lambda: "finishes the combat",
        act.ChooseRewardLoss: lambda: f"takes {name('reward')} from the loser",
        act.EndTurn: lambda: "ends the turn",
        act.AcceptClaim: lambda: "accepts the claim",
        act.Dispute: lambda: f"disputes seat {f['claimant']}'s claim",
        act.RuleClaim: lambda: "has the claim " + (
            "upheld" if f["upheld"] else "overturned") + " by a judge",
        act.EndCombat: lambda: "has the combat ended by a judge as a draw",
    }
    return phrases[type(action)]()
