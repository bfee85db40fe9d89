"""The conspiracy's geometry (§陰謀団について, §場の構成; E6; edge OQ14, OQ15, OQ16): the first
character at (1, 1), 8-adjacency, relative ranks and files, at most 3 ranks, closing up, flipped
cards keeping their cells, and moves."""

from __future__ import annotations

from typing import Any

from engine.edge.model import EdgeState
from tests.engine.edge.helpers import (
    RULES,
    C,
    act,
    adjust,
    build,
    char,
    grid,
    place,
    play,
    refused,
)


def table(*characters: Any, hand: tuple[str, ...] = ("BRUTE@1.9",)) -> Any:
    """Seat 1's operations step with ``characters`` and 5 character pull; a Bruiser (cost 1)
    in hand."""
    return build(characters=characters, hands={1: list(hand)}, character_pull=5)


def put(rank: int, file: int, card: str = "BRUTE@1.9") -> dict[str, Any]:
    """Place the Bruiser (cost 1, paid with 1 character pull) at (rank, file)."""
    return place(1, card, rank, file, chars=1)


def remove(state: EdgeState, card: str) -> EdgeState:
    """A judge takes a character of seat 1 out of its cell and out of play (C3), as card text
    would."""
    cell = "{}.{}".format(*grid(state, 1)[card])
    return play(state, adjust(1, move={"card": card, "from_zone": f"conspiracy:{cell}",
                                       "to_zone": "dead"}))


# ----- placement --------------------------------------------------------------------------------
def test_e6_the_first_character_goes_to_rank_1_file_1() -> None:
    """§陰謀団について, E6 (digest 5.3 rule 1): into an empty conspiracy (2, 1) is refused
    (bad_position); (1, 1) is accepted, and it comes in active (「起立状態で配置される」)."""
    refused(table(), put(2, 1), "bad_position")
    state = play(table(), put(1, 1))
    assert grid(state, 1) == {"BRUTE@1.9": (1, 1)}
    assert char(state, "BRUTE@1.9").state == "active"


def test_e6_adjacency_includes_diagonals() -> None:
    """§陰謀団について (「隣接は 縦・横に加えて、斜めも含む」): with A (1, 1), the Bruiser may go
    diagonally to (2, 2)."""
    state = play(table(C("ENF@1.1", 1, 1)), put(2, 2))
    assert grid(state, 1) == {"ENF@1.1": (1, 1), "BRUTE@1.9": (2, 2)}


def test_e6_a_cell_next_to_no_card_is_refused() -> None:
    """§陰謀団について (「必ず他のカードと隣接」): A (1, 1), B (1, 2), D (2, 3): (3, 1) is inside
    the frame (rank R+1 = 3) but touches no card: not_adjacent."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 1, 2), C("SEER@1.3", 2, 3))
    refused(state, put(3, 1), "not_adjacent")


def test_e6_a_cell_outside_the_frame_is_refused() -> None:
    """Digest 5.3 (0 <= r <= R+1, 0 <= f <= F+1): with A (1, 1) alone, (1, 3) is beyond F+1 = 2:
    bad_position."""
    refused(table(C("ENF@1.1")), put(1, 3), "bad_position")


def test_e6_all_8_neighbours_are_listed() -> None:
    """§陰謀団について, digest 5.3: with A (1, 1), the Bruiser is listed on exactly the 8 cells
    around it in the frame (ranks 0-2 by files 0-2, (1, 1) excluded)."""
    state = table(C("ENF@1.1"))
    cells = {(a.rank, a.file) for a in RULES.legal_actions(state, 1)  # type: ignore[attr-defined]
             if a.type == "place_character"}
    assert cells == {(r, f) for r in range(3) for f in range(3)} - {(1, 1)}


def test_e6_placing_in_front_of_rank_1_renumbers_the_ranks() -> None:
    """E6 (「placing a character in front of rank 1 renumbers everyone back by one」): A (1, 1);
    the Bruiser at rank 0 becomes (1, 1) and A moves to (2, 1)."""
    state = play(table(C("ENF@1.1")), put(0, 1))
    assert grid(state, 1) == {"ENF@1.1": (2, 1), "BRUTE@1.9": (1, 1)}


def test_e6_placing_left_of_file_1_renumbers_the_files() -> None:
    """§陰謀団について (positions are relative; digest 1.2 [inferred] for files): A (1, 1); the
    Bruiser at file 0 becomes (1, 1) and A moves to (1, 2)."""
    state = play(table(C("ENF@1.1")), put(1, 0))
    assert grid(state, 1) == {"ENF@1.1": (1, 2), "BRUTE@1.9": (1, 1)}


def test_e6_never_more_than_three_ranks() -> None:
    """E6 (「ランクは最大 3行までで 4行にさせることができない」): with ranks 1-3 filled in file 1,
    a fourth rank in front (rank 0) or behind (rank 4) is refused (too_many_ranks); a new file
    beside rank 3 is fine."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 2, 1), C("SEER@1.3", 3, 1))
    refused(state, put(0, 1), "too_many_ranks")
    refused(state, put(4, 1), "too_many_ranks")
    assert grid(play(state, put(3, 2)), 1)["BRUTE@1.9"] == (3, 2)


def test_oq15_a_flipped_card_occupies_its_cell_and_counts_for_adjacency() -> None:
    """E6, edge OQ15 (「カードが無くなった訳ではない」): A (1, 1) is flipped; its cell is occupied
    (cell_occupied) and a card may be placed next to it at (2, 1)."""
    state = table(C("ENF@1.1", state="flipped"))
    refused(state, put(1, 1), "cell_occupied")
    assert grid(play(state, put(2, 1)), 1) == {"ENF@1.1": (1, 1), "BRUTE@1.9": (2, 1)}


# ----- closing up --------------------------------------------------------------------------------
def test_e6_an_empty_rank_closes_up() -> None:
    """E6 (「完全にカードが無くなった列や行に限り…詰められる」): A (1, 1), B (2, 1), D (3, 1); B
    leaves: D moves up to (2, 1)."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 2, 1), C("SEER@1.3", 3, 1))
    state = remove(state, "FIX@1.2")
    assert grid(state, 1) == {"ENF@1.1": (1, 1), "SEER@1.3": (2, 1)}


def test_e6_an_empty_file_closes_up() -> None:
    """E6: A (1, 1), B (1, 2), D (1, 3); B leaves: D moves to (1, 2)."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 1, 2), C("SEER@1.3", 1, 3))
    state = remove(state, "FIX@1.2")
    assert grid(state, 1) == {"ENF@1.1": (1, 1), "SEER@1.3": (1, 2)}


def test_e6_holes_and_enclaves_stay() -> None:
    """§陰謀団について (「飛び地状態のキャラクターは飛び地のままで」): A (1, 1), B (1, 2), D (2, 2);
    B leaves: rank 1 still holds A and file 2 still holds D, so D stays at (2, 2) with a hole
    at (1, 2)."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 1, 2), C("SEER@1.3", 2, 2))
    state = remove(state, "FIX@1.2")
    assert grid(state, 1) == {"ENF@1.1": (1, 1), "SEER@1.3": (2, 2)}


def test_e6_a_rank_holding_only_a_flipped_card_does_not_close() -> None:
    """E6 (「a flipped character still occupies its place」): A (1, 1), B (2, 1), flipped F (2, 2),
    D (3, 1); B leaves: rank 2 still holds the flipped F, so D stays at (3, 1)."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 2, 1), C("WARD@1.4", 2, 2, "flipped"),
                  C("SEER@1.3", 3, 1))
    state = remove(state, "FIX@1.2")
    assert grid(state, 1) == {"ENF@1.1": (1, 1), "WARD@1.4": (2, 2), "SEER@1.3": (3, 1)}


def test_oq16_an_emptied_conspiracy_starts_again_at_1_1() -> None:
    """edge OQ16: the only character leaves; the next one must go to (1, 1) (bad_position at
    (2, 1))."""
    state = remove(table(C("ENF@1.1")), "ENF@1.1")
    refused(state, put(2, 1), "bad_position")
    assert grid(play(state, put(1, 1)), 1) == {"BRUTE@1.9": (1, 1)}


# ----- moves -------------------------------------------------------------------------------------
def move(card: str, rank: int, file: int) -> dict[str, Any]:
    return act("move_character", 1, character=card, rank=rank, file=file)


def test_oq14_the_digests_example_c_a_b() -> None:
    """edge OQ14: A r1, B r2, C r3 in one file; moving C in front of A (rank 0) is legal
    (the mover is lifted, 3 ranks after closing up) and gives C, A, B; C is cranked
    (§陰謀団について: moving cranks)."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 2, 1), C("SEER@1.3", 3, 1))
    state = play(state, move("SEER@1.3", 0, 1))
    assert grid(state, 1) == {"SEER@1.3": (1, 1), "ENF@1.1": (2, 1), "FIX@1.2": (3, 1)}
    assert char(state, "SEER@1.3").state == "cranked"


def test_oq14_the_rank_limit_is_judged_on_the_final_formation() -> None:
    """edge OQ14: A r1, B r2, C r3 in file 1 and D (1, 2): moving D in front (rank 0) would
    leave 4 ranks (0-3): too_many_ranks."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 2, 1), C("SEER@1.3", 3, 1),
                  C("WARD@1.4", 1, 2))
    refused(state, move("WARD@1.4", 0, 1), "too_many_ranks")


def test_oq14_the_mover_does_not_count_for_its_own_adjacency() -> None:
    """edge OQ14 (adjacent to another card): A (1, 1), B (1, 2); B to (1, 3) touches only its
    own old cell: not_adjacent."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 1, 2))
    refused(state, move("FIX@1.2", 1, 3), "not_adjacent")


def test_oq14_the_destination_differs_from_the_origin() -> None:
    """edge OQ14: B (1, 2) to (1, 2) is refused (cell_occupied)."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 1, 2))
    refused(state, move("FIX@1.2", 1, 2), "cell_occupied")


def test_oq14_a_move_onto_a_flipped_cell_is_refused() -> None:
    """edge OQ14, OQ15: A (1, 1) flipped, B (1, 2): B to (1, 1) is refused (cell_occupied)."""
    state = table(C("ENF@1.1", 1, 1, "flipped"), C("FIX@1.2", 1, 2))
    refused(state, move("FIX@1.2", 1, 1), "cell_occupied")


def test_digest_6_a_lone_character_cannot_move() -> None:
    """Digest section 6 (「A lone character can never move」): A alone at (1, 1) cannot go to
    (1, 2) or (2, 1) (not_adjacent), and no move is listed."""
    state = table(C("ENF@1.1"))
    refused(state, move("ENF@1.1", 1, 2), "not_adjacent")
    refused(state, move("ENF@1.1", 2, 1), "not_adjacent")
    assert not any(a.type == "move_character" for a in RULES.legal_actions(state, 1))


def test_move_needs_an_active_character() -> None:
    """§陰謀団について (a move cranks the mover): a cranked B cannot move (not_active); a flipped
    one is out of the conspiracy (not_in_conspiracy)."""
    state = table(C("ENF@1.1", 1, 1), C("FIX@1.2", 1, 2, "cranked"), C("SEER@1.3", 2, 1,
                                                                         "flipped"))
    refused(state, move("FIX@1.2", 2, 2), "not_active")
    refused(state, move("SEER@1.3", 2, 2), "not_in_conspiracy")
