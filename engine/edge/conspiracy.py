"""The conspiracy's geometry (§陰謀団について, §場の構成; E5, E6; edge OQ14, OQ15, OQ16).

Characters sit on ranks (rank 1 at the front line) and files; at most 3 ranks, files without
limit. Positions are relative: a rank or file left with no card closes up, and one added in front
of rank 1 (rank 0) or left of file 1 (file 0) renumbers the others. A flipped character keeps its
cell. Every placement is 8-adjacent to another card, the first one at (1, 1).
"""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.edge.model import MAX_RANKS, Character, EdgeState
from engine.edge.reasons import EdgeReason as R


def extent(state: EdgeState, seat: int) -> tuple[int, int]:
    """(ranks, files) of ``seat``'s conspiracy (0, 0 when empty)."""
    chars = state.conspiracies[seat]
    return (max((c.rank for c in chars), default=0), max((c.file for c in chars), default=0))


def at(state: EdgeState, seat: int, rank: int, file: int) -> Character | None:
    """The character in a cell, if any."""
    return next((c for c in state.conspiracies[seat] if (c.rank, c.file) == (rank, file)), None)


def normalise(state: EdgeState, seat: int) -> None:
    """E6: renumber the occupied ranks 1..R and files 1..F, keeping their order."""
    chars = state.conspiracies[seat]
    ranks = {r: i for i, r in enumerate(sorted({c.rank for c in chars}), start=1)}
    files = {f: i for i, f in enumerate(sorted({c.file for c in chars}), start=1)}
    for c in chars:
        c.rank, c.file = ranks[c.rank], files[c.file]


def check_cell(state: EdgeState, seat: int, rank: int, file: int,
               moving: Character | None = None) -> None:
    """Whether a character may go to (rank, file) in the current frame (rank 0 is a new rank in
    front, R+1 a new one behind; the same for files), ``moving`` lifted first (OQ14)."""
    others = [c for c in state.conspiracies[seat] if c is not moving]
    if not others:
        if (rank, file) != (1, 1) and moving is None:
            raise IllegalAction(R.BAD_POSITION, "The first character goes to rank 1, file 1.")
        if moving is not None:
            raise IllegalAction(R.NOT_ADJACENT, "A lone character has no card to move next to.")
        return
    ranks, files = extent(state, seat)
    if not (0 <= rank <= ranks + 1 and 0 <= file <= files + 1):
        raise IllegalAction(R.BAD_POSITION, f"Rank {rank}, file {file} is outside 0..{ranks + 1} "
                            f"by 0..{files + 1}.")
    if moving is not None and (moving.rank, moving.file) == (rank, file):
        raise IllegalAction(R.CELL_OCCUPIED, "That is the character's own cell.")
    if any((c.rank, c.file) == (rank, file) for c in others):
        raise IllegalAction(R.CELL_OCCUPIED, f"Rank {rank}, file {file} holds a card (a flipped "
                            "one still occupies it, E6).")
    if not any(abs(c.rank - rank) <= 1 and abs(c.file - file) <= 1 for c in others):
        raise IllegalAction(R.NOT_ADJACENT, "A character goes next to another card, diagonals "
                            "included (§陰謀団について).")
    if len({c.rank for c in others} | {rank}) > MAX_RANKS:
        raise IllegalAction(R.TOO_MANY_RANKS, f"A conspiracy has at most {MAX_RANKS} ranks (E6).")


def free_cells(state: EdgeState, seat: int,
               moving: Character | None = None) -> list[tuple[int, int]]:
    """The cells (rank, file) of the current frame a character may go to (``check_cell``),
    ``moving`` lifted first."""
    ranks, files = extent(state, seat)
    out = []
    for rank in range(0, ranks + 2):
        for file in range(0, files + 2):
            try:
                check_cell(state, seat, rank, file, moving)
            except IllegalAction:
                continue
            out.append((rank, file))
    return out or ([] if moving else [(1, 1)])


def in_front(state: EdgeState, seat: int, character: Character) -> list[Character]:
    """``seat``'s active characters in lower-numbered ranks of the character's file (E5)."""
    return [c for c in state.conspiracies[seat] if c.file == character.file
            and c.rank < character.rank and c.state == "active"]


def find(state: EdgeState, instance: str) -> tuple[int, Character] | None:
    """The seat and character of a character instance in a conspiracy."""
    for seat in state.seats():
        for c in state.conspiracies[seat]:
            if c.card == instance:
                return seat, c
    return None
