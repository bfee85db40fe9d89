"""Who the game waits on, and their legal actions. Listed: every placement on every cell, move,
crank, pull, attack, gear shift and step; whammies in one's own operations phase (not while an
attack waits). Not listed but legal when ``check`` says so: conditions on other players' cards,
discards of several cards at once, a card-victory claim, and whammies "played any time" by other
seats or during an attack (card text decides when they matter). A payment is listed once:
character pull first, then other pull."""

from __future__ import annotations

from engine.core.contract import Action
from engine.core.legality import listed
from engine.edge import actions as act
from engine.edge.claims import waiting_on
from engine.edge.conspiracy import free_cells, in_front
from engine.edge.model import Card, EdgeState, Permanent
from engine.edge.pull import pull_of, trait_shown
from engine.edge.turn import blocked


def to_act(state: EdgeState) -> list[int]:
    """The seats the game waits on."""
    if state.result is not None:
        return []
    claim = state.claim
    if claim is not None:
        return waiting_on(state) or [claim.seat]
    return [state.active]


def legal_actions(state: EdgeState, seat: int) -> list[Action]:
    """The listed actions of ``seat`` now."""
    if seat not in to_act(state):
        return []
    claim = state.claim
    if claim is not None:
        if claim.disputed_by is not None:
            return [listed(act.RuleClaim, seat=seat, upheld=u, reason="judge's ruling")
                    for u in (True, False)]
        return [listed(act.AcceptClaim, seat=seat), listed(act.Dispute, seat=seat)]
    if state.combat is not None:
        return [listed(act.ResolveCombat, seat=seat)]
    if state.step == "discard":
        out: list[Action] = [listed(act.Draw, seat=seat)]
        if state.decks[seat]:
            out += [listed(act.DiscardUnplayable, seat=seat, cards=(c,))
                    for c in sorted(set(state.hands[seat]))
                    if c not in state.drawn and blocked(state, seat, c)]
        return out
    out = [listed(act.EndTurn, seat=seat)]
    out += _pull_sources(state, seat)
    if state.step == "shift":
        out += _shifts(state, seat)
    if state.step != "operations":
        return out
    out.append(listed(act.EndOperations, seat=seat))
    for card in sorted(set(state.hands[seat])):
        out += _plays(state, seat, card)
    out += _characters(state, seat)
    return out


def _payment(state: EdgeState, card: Card) -> tuple[int, int] | None:
    cost = card.cost or 0
    if cost == 0:
        return None if state.zero_cost_used else (0, 0)
    chars = min(cost, state.character_pull)
    if cost - chars > state.other_pull:
        return None
    return chars, cost - chars


def _plays(state: EdgeState, seat: int, card: str) -> list[Action]:
    definition = state.card(card)
    if definition.type == "whammy":
        return [listed(act.PlayWhammy, seat=seat, card=card)]
    pay = _payment(state, definition)
    if pay is None or blocked(state, seat, card) or (
            definition.cost_requires and not trait_shown(state, seat, definition.cost_requires)):
        return []
    chars, others = pay
    if definition.type == "character":
        return [listed(act.PlaceCharacter, seat=seat, card=card, rank=r, file=f,
                       from_characters=chars, from_others=others)
                for r, f in free_cells(state, seat)]
    if definition.type in ("resource", "environment", "secret"):
        return [listed(act.PlacePermanent, seat=seat, card=card, from_characters=chars,
                       from_others=others)]
    hosts = [c.card for c in state.conspiracies[seat]]
    if definition.type == "condition":
        hosts += [p.card for p in state.permanents[seat]]
    return [listed(act.Attach, seat=seat, card=card, host=h, from_characters=chars,
                   from_others=others) for h in hosts]


def _pull_sources(state: EdgeState, seat: int) -> list[Action]:
    sources: list[Permanent] = [c for c in state.conspiracies[seat] if c.state == "active"]
    if state.step == "operations":
        sources += [p for p in state.permanents[seat] if p.state == "active"]
    return [listed(act.GeneratePull, seat=seat, source=p.card) for p in sources
            if pull_of(state, p.card) > 0]


def _shifts(state: EdgeState, seat: int) -> list[Action]:
    out: list[Action] = []
    for holder in state.conspiracies[seat]:
        for gear in holder.attached:
            if state.card(gear).type == "gear" and gear not in state.shifted:
                out += [listed(act.ShiftGear, seat=seat, gear=gear, to=c.card)
                        for c in state.conspiracies[seat] if c is not holder]
    return out


def _characters(state: EdgeState, seat: int) -> list[Action]:
    out: list[Action] = []
    targets = [(s, c) for s in state.in_play() if s != seat and s not in state.attacked
               for c in state.conspiracies[s]
               if c.state != "flipped" and not in_front(state, s, c)]
    for mine in state.conspiracies[seat]:
        if mine.state != "active":
            continue
        if state.options.get("voluntary_crank", "on") == "on":
            out.append(listed(act.CrankCharacter, seat=seat, character=mine.card))
        out += [listed(act.MoveCharacter, seat=seat, character=mine.card, rank=r, file=f)
                for r, f in free_cells(state, seat, moving=mine)]
        if not in_front(state, seat, mine):
            out += [listed(act.DeclareAttack, seat=seat, attacker=mine.card, defender=s,
                           target=c.card) for s, c in targets]
    return out
