"""Whose turn it is and when an action may be taken (全体の基本進行, ターン).

The phase and turn checks the rulebook sections share, the seats the game waits on, and the
passing of the turn to the next player in turn order.
"""

from __future__ import annotations

from engine.illuminati.model import SETUP_PHASES, IlluminatiState
from engine.illuminati.reasons import IlluminatiReason as R
from engine.illuminati.zones import illegal

PHASE_WORDS = {"choose_illuminati": "choosing Illuminati", "choose_groups":
               "choosing initial groups", "beginning": "the beginning of a turn",
               "main": "a main phase"}


def require_phase(st: IlluminatiState, phase: str) -> None:
    """Refuse an action outside ``phase``."""
    if st.phase != phase:
        raise illegal(R.WRONG_PHASE, f"This can only be done during "
                      f"{PHASE_WORDS.get(phase, phase)}; it is now "
                      f"{PHASE_WORDS.get(st.phase, st.phase)}.")


def require_turn(st: IlluminatiState, seat: int) -> None:
    """Refuse an action of anyone but the active player."""
    if seat != st.active:
        raise illegal(R.NOT_YOUR_TURN, f"It is seat {st.active}'s turn, not seat {seat}'s.")


def require_main(st: IlluminatiState, seat: int) -> None:
    """Own turn, main phase, no attack under way."""
    require_turn(st, seat)
    no_attack(st)
    if st.phase == "beginning":
        raise illegal(R.BEGINNING_OF_TURN, "Finish the beginning of your turn first "
                      "(begin_main places your action tokens).")


def no_attack(st: IlluminatiState) -> None:
    """Refuse an action while an attack is under way."""
    if st.attack is not None:
        raise illegal(R.ATTACK_IN_PROGRESS, "An attack is under way; finish it first.")


def to_act(st: IlluminatiState) -> list[int]:
    """Seats the game waits on: every unpassed player during attack support, a claimant
    awaiting a ruling, an off-turn holder of two goal cards, else the active player."""
    if st.result is not None:
        return []
    alive = st.in_play()
    if st.phase in SETUP_PHASES:
        return choosing(st) if by_seats(st) else alive[:1]
    if st.attack is not None and st.attack.stage == "support":
        return [s for s in alive if s not in st.attack.passed]
    waiting = [c.seat for c in st.claims if c.disputed_by and c.ruling is None]
    if waiting:
        return waiting
    return [st.active]


def by_seats(st: IlluminatiState) -> bool:
    """Whether each seat makes its own setup choice face down (option ``reveals``)."""
    return st.options.get("reveals", "table") == "seats"


def still_to_choose(st: IlluminatiState) -> list[int]:
    """The seats the current setup choice is for: everyone for the Illuminati, the seats
    without an initial group in each round of I9."""
    alive = st.in_play()
    if st.phase == "choose_illuminati":
        return alive
    return [s for s in alive if st.player(s).initial_group is None]


def choosing(st: IlluminatiState) -> list[int]:
    """The seats still to lay their choice face down."""
    return [s for s in still_to_choose(st) if s not in st.chosen]


def next_turn(st: IlluminatiState) -> None:
    """The next player in turn order still in the game begins."""
    alive = [s for s in st.order if s not in st.eliminated]
    later = [s for s in st.order[st.order.index(st.active) + 1:] if s in alive]
    st.active = (later or alive)[0]
    st.turn += 1
    st.phase, st.step = "beginning", "plot"
    st.auto_controlled = st.resource_placed = st.group_draw_bought = False


def set_phase(st: IlluminatiState, phase: str) -> None:
    """A judge's turn change (C3): the beginning of a turn starts again from its first step."""
    st.phase = phase
    if phase == "beginning":
        st.step = "plot"
