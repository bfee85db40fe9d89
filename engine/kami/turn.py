"""The refill and judgment phases, and every way the game ends (○ 補充フェイズ, ○ 判定フェイズ,
§勝利条件; K2, kami Q-1, Q-2, Q-3, Q-19, Q-22)."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.contract import MatchResult
from engine.core.errors import IllegalAction
from engine.kami.deck import draw
from engine.kami.model import HEXES, INVADER_VP, VICTORY_VP, Declaration, KamiState, area_of
from engine.kami.play import require_action_phase
from engine.kami.reasons import KamiReason as R
from engine.kami.setup import start_turn


def end_action_phase(state: KamiState, seat: int, chance: Chance) -> None:
    """The refill phase: (a) every unit recovers its normal damage; (b) 2 VP per unit standing
    in the enemy area, to both seats (Q-1 ``refill_vp: both``) or the active one; (c) the active
    seat draws one card per own unit in its own area (an empty deck is renewed, K4); then the
    hand limit, or the judgment phase."""
    require_action_phase(state, seat)
    for hex_id in HEXES:
        unit = state.board[hex_id].unit
        if unit is not None:
            unit.damage = 0
    scorers = state.seats() if state.options.get("refill_vp", "both") == "both" else [seat]
    for scorer in scorers:
        state.vp[scorer] += INVADER_VP * _units_in(state, scorer, state.other(scorer))
    for _ in range(_units_in(state, seat, seat)):
        if not draw(state, seat, chance):
            break
    state.phase = "hand_limit" if _excess(state, seat) else "judgment"


def _units_in(state: KamiState, seat: int, area: int) -> int:
    """How many of ``seat``'s units stand in ``area``."""
    units = [state.board[h].unit for h in HEXES if area_of(h) == area]
    return sum(1 for unit in units if unit is not None and unit.owner == seat)


def _excess(state: KamiState, seat: int) -> int:
    return max(0, len(state.hands[seat]) - state.hand_limit[seat])


def settle_hand_limit(state: KamiState) -> None:
    """The hand-limit step ends by itself once nothing is over the limit (a judge raised the
    limit or moved a card out of the hand)."""
    if state.phase == "hand_limit" and not _excess(state, state.active):
        state.phase = "judgment"


def discard_to_limit(state: KamiState, seat: int, cards: list[str]) -> None:
    """§補充フェイズ: exactly the excess cards, from the hand, face up to the discard pile."""
    if state.phase != "hand_limit" or seat != state.active:
        raise IllegalAction(R.WRONG_PHASE, "Cards are discarded to the hand limit at the end of "
                            "one's own refill phase.")
    excess = _excess(state, seat)
    if len(cards) != excess:
        raise IllegalAction(R.WRONG_DISCARD_COUNT, f"Discard exactly {excess} card(s) to reach "
                            f"the hand limit of {state.hand_limit[seat]}.")
    hand = list(state.hands[seat])
    for card in cards:
        if card not in hand:
            raise IllegalAction(R.CARD_NOT_IN_HAND, f"{card} is not in seat {seat}'s hand.")
        hand.remove(card)
    state.hands[seat] = hand
    state.discard[seat].extend(cards)
    state.phase = "judgment"


def _require_judgment(state: KamiState, seat: int) -> None:
    if state.phase != "judgment" or seat != state.active:
        raise IllegalAction(R.WRONG_PHASE, "This is done in one's own judgment phase.")


def victory_conditions(state: KamiState, seat: int) -> bool:
    """§勝利条件: VP >= 10 and more VP than the opponent."""
    return state.vp[seat] >= VICTORY_VP and state.vp[seat] > state.vp[state.other(seat)]


def declare_victory(state: KamiState, seat: int) -> None:
    """K2: tested at the end of the opponent's next turn. Refused while the opponent's own is
    pending (Q-3), twice in a turn, and without the conditions now (Q-2, unless
    ``declaration_requires_condition: off``)."""
    _require_judgment(state, seat)
    refusal = victory_refusal(state, seat)
    if refusal is not None:
        raise refusal
    state.declaration = Declaration(seat=seat, turn=state.turn)


def victory_refusal(state: KamiState, seat: int) -> IllegalAction | None:
    """Why ``seat`` may not declare victory now (None: it may)."""
    if state.declaration is not None:
        reason = R.ALREADY_DECLARED if state.declaration.seat == seat else \
            R.DECLARATION_PENDING
        return IllegalAction(reason, "A victory declaration is already pending.")
    if state.options.get("declaration_requires_condition", "on") == "on" and \
            not victory_conditions(state, seat):
        return IllegalAction(R.VICTORY_CONDITIONS_NOT_MET, f"Seat {seat} needs at least "
                             f"{VICTORY_VP} VP and more than its opponent to declare victory.")
    return None


def declare_defeat(state: KamiState, seat: int) -> None:
    """§判定フェイズ 敗北宣言: the game ends at once; the opponent wins."""
    _require_judgment(state, seat)
    _end(state, state.other(seat), "defeat_declared", f"seat {seat} declared defeat")


def end_turn(state: KamiState, seat: int, chance: Chance) -> None:
    """The end of the turn: the opponent's pending declaration is tested (K2); the turn limit
    (Q-19); else the other seat's turn begins with its AP refill (K4)."""
    _require_judgment(state, seat)
    pending = state.declaration
    if pending is not None and pending.seat != seat:
        declarer = pending.seat
        if victory_conditions(state, declarer):
            _end(state, declarer, "victory_held", f"seat {declarer}'s declaration held "
                 f"({state.vp[declarer]} VP to {state.vp[seat]})")
        else:
            _end(state, seat, "victory_broken", f"seat {declarer}'s declaration was broken "
                 f"({state.vp[declarer]} VP to {state.vp[seat]})")
        return
    state.turn += 1
    limit = state.options.get("turn_limit")
    if limit and state.turn > limit:
        return  # the kernel calls time on scores
    start_turn(state, state.other(seat), chance)


def _end(state: KamiState, winner: int, reason: str, detail: str) -> None:
    """The game ends with ``winner``, and the spoils are reported (``report_spoils``)."""
    state.result = MatchResult(winners=[winner], losers=[state.other(winner)], reason=reason,
                               detail=detail)
    report_spoils(state)


def report_spoils(state: KamiState) -> None:
    """§1ゲーム終了時の処理, §戦利品ルールについて (kami digest 6 "Spoils"): under ``spoils: on``
    every ending with a winner (the game's own, a concession, a time call) ends its detail with
    the spoils' value: the VP difference if the winner has more VP, else 1. There are no spoils
    on a draw."""
    result = state.result
    if result is None or result.drawn or len(result.winners) != 1 or \
            state.options.get("spoils") != "on":
        return
    winner = result.winners[0]
    lead = state.vp[winner] - state.vp[state.other(winner)]
    result.detail += f"; spoils value {lead if lead > 0 else 1}"
