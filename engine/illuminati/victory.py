"""Victory (勝利条件) and elimination (プレイヤーの脱落について).

The basic goal is counted by the engine (I1); a special goal or a goal card is a claim the others
may dispute and a judge rules on (C3). Claims are settled at the end of the turn. A player with
no group left is out at once (I8); the last player standing wins.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.contract import MatchResult
from engine.illuminati import actions as act
from engine.illuminati import structure
from engine.illuminati.attacks import finish_attack
from engine.illuminati.model import SETUP_PHASES, Claim, IlluminatiState, Node
from engine.illuminati.reasons import IlluminatiReason as R
from engine.illuminati.timing import next_turn
from engine.illuminati.zones import illegal, in_hand, to_discard

GOAL_GROUPS_FEW = 12  # I1: 2-3 players
GOAL_GROUPS_FOUR = 11  # I1: 4 players
GOAL_GROUPS_MANY = 10  # I1: 5+ players


# ----- goals (勝利条件)  --------------------------------------------------------------------
def goal_groups(st: IlluminatiState) -> int:
    """I1: 12 groups for 2-3 players, 11 for 4, 10 for 5+, unless ``goal_groups`` is set."""
    chosen = st.options.get("goal_groups")
    if chosen:
        return int(chosen)
    n = len(st.players)
    return GOAL_GROUPS_FEW if n <= 3 else GOAL_GROUPS_FOUR if n == 4 else GOAL_GROUPS_MANY


def scores(st: IlluminatiState) -> dict[int, int]:
    """Groups in each power structure (I1: the Illuminati is not counted)."""
    if st.phase in SETUP_PHASES:
        return {s: 0 for s in st.seats()}
    return {s: len(structure.groups_in(st.player(s))) for s in st.seats()}


# ----- claims  -------------------------------------------------------------------------------
def declare_victory(st: IlluminatiState, a: act.DeclareVictory, chance: Chance) -> None:
    """A claim settled at the end of the turn; the basic goal must be met when declared."""
    if any(c.seat == a.seat for c in st.claims):
        raise illegal(R.ALREADY_DECLARED, "You have already declared victory this turn.")
    card = None
    if a.goal == "basic":
        have, need = len(structure.groups_in(st.player(a.seat))), goal_groups(st)
        if have < need:
            raise illegal(R.GOAL_NOT_MET, f"You control {have} groups; the basic goal "
                          f"needs {need} (I1).")
    elif a.goal == "goal_card":
        if a.card is None:
            raise illegal(R.GOAL_CARD_NEEDED, "Name the goal card you play.")
        card = in_hand(st, a.seat, a.card, "plot")
        if not st.card(card).is_goal():
            raise illegal(R.NOT_A_GOAL, f"{st.card(card).name} is not a goal card.")
        if card not in st.player(a.seat).revealed:
            st.player(a.seat).revealed.append(card)
    st.claims.append(Claim(seat=a.seat, goal=a.goal, card=card))


def _claim_of(st: IlluminatiState, seat: int) -> Claim:
    """The claim ``seat`` declared this turn."""
    claim = next((c for c in st.claims if c.seat == seat), None)
    if claim is None:
        raise illegal(R.NO_CLAIM, f"Seat {seat} has not declared victory this turn.")
    return claim


def dispute(st: IlluminatiState, a: act.DisputeClaim, chance: Chance) -> None:
    """Another player disputes a special-goal or goal-card claim; a judge must then rule."""
    claim = _claim_of(st, a.claimant)
    if a.claimant == a.seat:
        raise illegal(R.OWN_CLAIM, "You cannot dispute your own claim.")
    if claim.goal == "basic":
        raise illegal(R.CLAIM_CHECKED, "The basic goal is counted by the rules, not "
                      "claimed; there is nothing to dispute.")
    if claim.ruling is not None or a.seat in claim.disputed_by:
        raise illegal(R.ALREADY_DISPUTED, "This claim is already disputed or ruled on.")
    claim.disputed_by.append(a.seat)


def rule_claim(st: IlluminatiState, a: act.RuleClaim, chance: Chance) -> None:
    """A judge upholds or rejects a disputed claim; a rejected goal card goes back to the
    hand face up (ゴール)."""
    claim = _claim_of(st, a.seat)
    if not claim.disputed_by or claim.ruling is not None:
        raise illegal(R.NOT_DISPUTED, "Only a disputed claim that has not been ruled on "
                      "needs a ruling.")
    if a.upheld:
        claim.ruling = "upheld"
    else:
        st.claims.remove(claim)


def settle_claims(st: IlluminatiState) -> None:
    """End of turn: a basic goal still met wins; an undisputed or upheld claim wins."""
    winners = []
    for claim in st.claims:
        if claim.seat in st.eliminated:
            continue
        if claim.goal == "basic":
            if len(structure.groups_in(st.player(claim.seat))) < goal_groups(st):
                continue
        winners.append(claim)
    st.claims = []
    if winners:
        seats = sorted({c.seat for c in winners})
        what = "; ".join(f"seat {c.seat}: {c.goal.replace('_', ' ')}" for c in winners)
        st.result = MatchResult(winners=seats, losers=[s for s in st.seats()
                                                       if s not in seats],
                                reason="victory", detail=what)


# ----- elimination (プレイヤーの脱落について, I8)  -----------------------------------------------
def check_eliminations(st: IlluminatiState) -> None:
    """I8: a player with no group left in the power structure is out at once."""
    if st.phase in SETUP_PHASES or st.result is not None:
        return
    # (an elimination adds only that seat to st.eliminated: the seats after it are unaffected)
    for seat, p in enumerate(st.seats_state, start=1):
        if seat not in st.eliminated and not structure.has_groups(p):
            eliminate(st, seat, "no group left in the power structure (I8)")
            if st.result is not None:
                return


def eliminate(st: IlluminatiState, seat: int, why: str) -> None:
    """``seat`` is out; the last player standing wins, else play goes on without it."""
    was_active = st.active == seat
    st.eliminated.append(seat)
    st.claims = [c for c in st.claims if c.seat != seat]
    remaining = st.in_play()
    if len(remaining) == 1:
        st.result = MatchResult(winners=remaining, losers=[s for s in st.seats()
                                                           if s not in remaining],
                                reason="last_player_standing",
                                detail=f"seat {seat} eliminated: {why}")
        return
    _after_elimination(st, seat, was_active)


def conceded(st: IlluminatiState, seat: int) -> None:
    """A concession (C4) in a game of 3+: play goes on in turn order."""
    st.claims = [c for c in st.claims if c.seat != seat]
    if st.phase in SETUP_PHASES:
        return
    _after_elimination(st, seat, st.active == seat)


def _after_elimination(st: IlluminatiState, seat: int, was_active: bool) -> None:
    """After ``seat`` leaves: an attack it made or was the target of ends (any other attack
    asks everyone to pass again), its cards leave the table, and its turn passes on."""
    attack = st.attack
    if attack is not None:
        if seat in (attack.seat, attack.target_seat):
            finish_attack(st, attack)  # its attacker or its target leaves the game
        else:
            attack.passed = []
    _leave_table(st, seat)
    if was_active:
        st.active = seat
        next_turn(st)


def _leave_table(st: IlluminatiState, seat: int) -> None:
    """An eliminated player's cards leave the table for their owners' discard piles: groups
    (which would otherwise block their names for everyone), loose groups, resources, agents
    and permanent plots. The Illuminati stays as the empty root."""
    p = st.player(seat)
    for card in structure.groups_in(p) + p.loose + [r.card for r in p.resources] + \
            p.agents + p.plots:
        to_discard(st, card)
    if p.illuminati is not None:
        p.structure = {p.illuminati: Node(card=p.illuminati)}
    p.loose, p.resources, p.agents, p.plots, p.links = [], [], [], [], []
