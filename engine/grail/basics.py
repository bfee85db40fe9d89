"""The basic rules every section uses (基本構成細則 L44-59): drawing and deck-out (C2), quest
reveals and reshuffles (L236, OQ-5), valor and destruction at 0 (L52, OQ-30), a combat's result
(戦闘の終了 L215-217, E1), which the destruction of a participant also fixes (OQ-30), winning."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.contract import MatchResult
from engine.core.errors import IllegalAction
from engine.grail.model import Claim, Combat, GrailState, Side, Warrior
from engine.grail.reasons import GrailReason as R

FORMAL = ("honour", "title")  # 決闘: everything heals afterwards (L142)


def draw_court(state: GrailState, seat: int, chance: Chance) -> None:
    """One court card into the hand, a recorded pick seen by its seat; an empty court deck
    loses (C2, 勝利条件 L21)."""
    deck = state.court[seat]
    if not deck:
        lose(state, seat, "deck_out", f"seat {seat} had to draw from an empty court deck")
        return
    card = chance.draw("draw", deck, seat)
    deck.remove(card)
    state.hands[seat].append(card)


def reveal_quest(state: GrailState, seat: int, chance: Chance) -> str | None:
    """A new active quest for ``seat``: a public pick from its quest deck, the quest discard
    shuffled in first when the deck is empty (L236, OQ-5); None if there is no quest card at
    all (OQ-6)."""
    deck = state.quests[seat]
    if not deck:
        deck.extend(state.quest_discard[seat])
        state.quest_discard[seat].clear()
    if not deck:
        state.active_quest[seat] = None
        return None
    card = chance.reveal("quest", deck)
    deck.remove(card)
    state.active_quest[seat] = card
    return card


def owner_of(instance: str) -> int:
    """The seat that owns a card instance (``card@seat.n``)."""
    return int(instance.partition("@")[2].partition(".")[0])


def find_warrior(state: GrailState, instance: str) -> Warrior:
    """A warrior on the field, or ``not_on_field``."""
    found = state.warrior(instance)
    if found is None:
        raise IllegalAction(R.NOT_ON_FIELD, f"{instance} is not a warrior on the field.")
    return found


def own_warrior(state: GrailState, seat: int, instance: str) -> Warrior:
    """One of ``seat``'s warriors, or ``not_your_warrior``."""
    found = state.warrior(instance)
    if found is None or found.owner != seat:
        raise IllegalAction(R.NOT_YOUR_WARRIOR, f"{instance} is not a warrior of seat {seat}.")
    return found


def destroy(state: GrailState, warrior: Warrior, *, discard: bool = True) -> None:
    """A warrior leaves the field: it and everything attached to it go to its owner's court
    discard pile (仲間 L297, 報酬 L313); a king's pending victory challenge is void (L187).
    ``discard=False``: a judge's move takes it off the field (C3) and puts the warrior card
    itself where the move says; all the rest is the same (its attachments to the discard, a
    participant's loss, OQ-30)."""
    state.warriors[warrior.owner] = [w for w in state.warriors[warrior.owner]
                                     if w is not warrior]
    if discard:
        state.court_discard[warrior.owner].append(warrior.card)
    for card in warrior.attached:
        state.court_discard[owner_of(card)].append(card)
    warrior.attached = []
    offer = state.honour_offer
    if offer is not None and warrior.card in (offer.challenger, offer.target):
        state.honour_offer = None  # the challenge ends with its warrior gone
    kings = state.victory_challenges.get(warrior.owner, [])
    if warrior.card in kings:
        kings.remove(warrior.card)
        if not kings:
            del state.victory_challenges[warrior.owner]
    if state.grail is not None and state.grail.knight == warrior.card:
        end_grail(state)  # G7: nobody is left to go on (or to be 健在 at the end, L135)
    _side_destroyed(state, warrior.card)


def fighters(state: GrailState) -> list[str]:
    """The cards in play with combat stats (PRO, STR, END, armour), those a judge's lasting
    modifier may change (C3): every warrior on a field (戦士 L253-255) and every active quest
    fought as a combat (討伐クエスト L147; カード構成 L228-229)."""
    warriors = [w.card for seat in state.seats() for w in state.warriors[seat]]
    return warriors + [q for q in state.active_quest.values()
                       if q is not None and state.card(q).combat_quest]


def end_grail(state: GrailState) -> None:
    """The grail attempt is over (G7), and with it any heal window between its quests (L133)."""
    state.grail = None
    state.grail_heal = None


def _side_destroyed(state: GrailState, instance: str) -> None:
    """OQ-30 ("a participant destroyed mid-combat loses that combat, and the combat ends"): a
    side's warrior (its fighter, or the king a champion fights for, OQ-16) leaving the field
    before the combat's result is fixed, however it leaves (its valor brought to 0 by a
    refusal's cost or a judge's adjustment, a judge's move off the field), loses at once,
    whatever the state, as a surrenderer does [L217]; the combat goes to its end (healing for
    the other side, then the consequences of its kind)."""
    combat = state.combat
    if combat is None or combat.result:
        return
    index = next((i for i, side in enumerate(combat.sides)
                  if instance in (side.fighter, side.for_king)), None)
    if index is None:
        return
    combat.surrender_by = None
    state.champions_to_name = []
    fix_result(state, combat, surrendered=index)


def fix_result(state: GrailState, combat: Combat, surrendered: int | None = None) -> None:
    """E1 (戦闘の終了 L215-217): a surrender (or a destruction, OQ-30) loses; else the one side
    free of a mortal wound wins; both wounded is a draw. A king under a victory challenge whose
    side loses is discarded at once, before healing (L186, OQ-21). Then the heal window, if
    anyone may heal (mortal combats, knights and kings)."""
    if surrendered is not None:
        combat.result = f"win:{1 - surrendered}"
        combat.surrendered = True
    else:
        free = [i for i, s in enumerate(combat.sides) if not s.wounded]
        combat.result = f"win:{free[0]}" if len(free) == 1 else "draw"
    for side in combat.sides:
        side.was_wounded = side.wounded
    _victory_challenge_losses(state, combat)
    combat.heal_pending = [] if combat.kind in FORMAL else [
        i for i, s in enumerate(combat.sides) if not s.quest and _healable(state, s)]
    combat.step = "heal"


def loser(combat: Combat) -> int | None:
    """The index of the side that lost, None for a draw or no result yet."""
    if combat.result.startswith("win:"):
        return 1 - int(combat.result[4:])
    return None


def _victory_challenge_losses(state: GrailState, combat: Combat) -> None:
    lost = loser(combat)
    if lost is None:
        return
    side = combat.sides[lost]
    king = side.for_king or side.fighter
    seat = owner_of(king)
    if king in state.victory_challenges.get(seat, []):
        warrior = state.warrior(king)
        if warrior is not None:
            destroy(state, warrior)


def _healable(state: GrailState, side: Side) -> bool:
    warrior = state.warrior(side.fighter)
    return warrior is not None and state.card(warrior.card).is_knight and (
        warrior.damage > 0 or side.wounded)


def change_valor(state: GrailState, warrior: Warrior, delta: int) -> None:
    """Valor changes at once and stays (L52); it never goes below 0 and a warrior at 0 is
    destroyed at once (OQ-30)."""
    warrior.valor = max(0, warrior.valor + delta)
    if warrior.valor == 0 and state.warrior(warrior.card) is warrior:
        destroy(state, warrior)


def win(state: GrailState, seat: int, reason: str, detail: str) -> None:
    """``seat`` wins the match."""
    state.result = MatchResult(winners=[seat], losers=[s for s in state.seats() if s != seat],
                               reason=reason, detail=detail)


def claim_won(state: GrailState, claim: Claim, how: str) -> None:
    """A match-ending claim (an alternate victory, or a grail won on claimed quests) is closed
    without being overturned (grail OQ-22, G8): the victory it took at once is recorded, its
    claimant winning as of the claim: ``alternate_victory`` (勝利チャレンジ L188) or ``grail``
    (G7). ``how`` says what closed it."""
    state.victory_claim = None
    if claim.what == "grail":
        knight = state.card(claim.by or claim.about).name
        win(state, claim.seat, "grail", f"{knight} achieved the grail quest (G7) on claimed "
            f"quests, the claim {how} (G8)")
        return
    win(state, claim.seat, "alternate_victory", f"seat {claim.seat}'s claim of "
        f"{state.card(claim.about).name}'s victory condition (勝利チャレンジ L188, G8)")


def unanswered(state: GrailState) -> list[int]:
    """The seats still to accept or dispute the pending match-ending claim: every other seat
    in play that has not accepted it (none while it is disputed: a judge rules)."""
    claim = state.victory_claim
    if claim is None or claim.disputed_by is not None:
        return []
    return [s for s in state.in_play() if s != claim.seat and s not in state.accepted]


def lose(state: GrailState, seat: int, reason: str, detail: str) -> None:
    """``seat`` loses: in 2 players the other wins; with more it is eliminated (OQ-3
    ``deck_out_multiplayer: eliminate``, or ``others_win``: the match ends)."""
    others = [s for s in state.in_play() if s != seat]
    if len(others) == 1 or state.options.get("deck_out_multiplayer") == "others_win":
        state.result = MatchResult(winners=others, losers=[seat], reason=reason, detail=detail)
        return
    eliminate(state, seat)


def eliminate(state: GrailState, seat: int) -> None:
    """OQ-37: all the seat's cards leave the game; its combat ends with no result, its grail
    attempt, victory challenge and claims are void; the turn passes on if it was active. A
    match-ending claim of another seat that nobody is left to answer is closed: its claimant
    wins (OQ-22)."""
    state.eliminated.append(seat)
    if state.combat is not None and any(s.seat == seat for s in state.combat.sides):
        state.combat = None  # before its warriors go: no result (not OQ-30's loss)
        state.champions_to_name = []
    for warrior in list(state.warriors[seat]):
        destroy(state, warrior)
    quest = state.active_quest[seat]
    if quest is not None:
        state.quest_discard[seat].append(quest)
    state.active_quest[seat] = None
    state.victory_challenges.pop(seat, None)
    if state.grail is not None and state.grail.seat == seat:
        end_grail(state)
    offer = state.honour_offer
    if offer is not None and seat in (owner_of(offer.challenger), owner_of(offer.target)):
        state.honour_offer = None
    if state.reward_due is not None and owner_of(state.reward_due) == seat:
        state.reward_due, state.reward_value = None, 0
    if state.victory_claim is not None and state.victory_claim.seat == seat:
        state.victory_claim = None
    state.claims = [c for c in state.claims if c.seat != seat]
    claim = state.victory_claim
    if claim is not None and claim.disputed_by is None and not unanswered(state):
        claim_won(state, claim, "left undisputed by every other seat")  # OQ-22
