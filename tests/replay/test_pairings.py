"""Pairings CSV in (the shapes pairing software exports), results CSV out (injection-safe)."""

from __future__ import annotations

import pytest

from replay.pairings import (
    MAX_PAIRINGS_BYTES,
    Pairing,
    PairingsRejected,
    parse_pairings,
    results_csv,
)


def rejected(text: str, match: str) -> None:
    """``parse_pairings(text)`` raises PairingsRejected with a message matching ``match``."""
    with pytest.raises(PairingsRejected, match=match):
        parse_pairings(text)


def test_melee_like_header_ignores_the_decklist_column() -> None:
    text = (
        "Table,Player 1,Player 1 Decklist,Player 2\n"
        "1,Alice Aoki,https://melee.gg/Decklist/View/1,Bob Baba\n"
        "2, Chika Chiba ,https://melee.gg/Decklist/View/2,Daisuke Doi\n"
    )
    assert parse_pairings(text) == [
        Pairing(table=1, players=("Alice Aoki", "Bob Baba")),
        Pairing(table=2, players=("Chika Chiba", "Daisuke Doi")),
    ]


def test_eventlink_like_header() -> None:
    text = "Table,Player,Opponent,Points\n3,1001,1002,3-0\n4,1003,1004,0-3\n"
    assert parse_pairings(text) == [
        Pairing(table=3, players=("1001", "1002")),
        Pairing(table=4, players=("1003", "1004")),
    ]


def test_header_variants_are_case_and_space_insensitive() -> None:
    text = " TABLE NUMBER ,seat 1,Player#2,Seat  3\n7,a,b,c\n"
    assert parse_pairings(text) == [Pairing(table=7, players=("a", "b", "c"))]


def test_bom_and_crlf_are_accepted() -> None:
    text = "\ufeffTable,Player 1,Player 2\r\n1,Alice,Bob\r\n\r\n2,Chika,Daisuke\r\n"
    assert parse_pairings(text) == [
        Pairing(table=1, players=("Alice", "Bob")),
        Pairing(table=2, players=("Chika", "Daisuke")),
    ]


def test_a_bye_row_has_no_table() -> None:
    text = "Table,Player 1,Player 2\n1,Alice,Bob\n,Chika,BYE\n99,,Daisuke\n"
    assert parse_pairings(text) == [
        Pairing(table=1, players=("Alice", "Bob")),
        Pairing(table=None, players=("Chika",)),
        Pairing(table=None, players=("Daisuke",)),
    ]


def test_missing_table_column_is_rejected_naming_the_headers() -> None:
    rejected("Round,Player 1,Player 2\n1,a,b\n", r"'Round', 'Player 1', 'Player 2'")


def test_missing_player_columns_are_rejected_naming_the_headers() -> None:
    rejected("Table,Player 1 Decklist,Points\n1,x,3\n", r"'Table', 'Player 1 Decklist'")


def test_a_row_without_players_is_rejected() -> None:
    rejected("Table,Player 1,Player 2\n1,a,b\n2,bye,\n", r"^line 3: no players$")


def test_a_table_that_is_not_a_number_is_rejected() -> None:
    rejected("Table,Player 1,Player 2\n1,a,b\nA,c,d\n", r"^line 3: table 'A' is not a number$")


@pytest.mark.parametrize("table", ["0", "10001", "", "-1", "1.5"])
def test_a_table_outside_one_to_ten_thousand_is_rejected(table: str) -> None:
    rejected(f"Table,Player 1,Player 2\n{table},a,b\n", r"^line 2: ")


def test_a_table_number_used_twice_is_rejected() -> None:
    rejected("Table,Player 1,Player 2\n1,a,b\n01,c,d\n", r"^line 3: table 1 .*line 2")


def test_a_player_on_two_rows_is_rejected_case_insensitively() -> None:
    rejected("Table,Player 1,Player 2\n1,Alice,Bob\n2,carol,ALICE\n", r"^line 3: .*'ALICE'.*line 2")


def test_a_player_twice_on_one_row_is_rejected() -> None:
    rejected("Table,Player 1,Player 2\n1,Alice,alice\n", r"^line 2: .*'alice'")


def test_a_file_over_the_size_limit_is_rejected() -> None:
    rejected("Table,Player 1,Player 2\n" + "x" * MAX_PAIRINGS_BYTES, "larger than")


def test_more_than_five_thousand_rows_is_rejected() -> None:
    rows = "".join(f"{n},a{n},b{n}\n" for n in range(1, 5002))
    rejected("Table,Player 1,Player 2\n" + rows, r"^line 5002: more than 5000 rows")


def test_five_thousand_rows_are_accepted() -> None:
    rows = "".join(f"{n},a{n},b{n}\n" for n in range(1, 5001))
    assert len(parse_pairings("Table,Player 1,Player 2\n" + rows)) == 5000


def test_a_cell_over_two_hundred_characters_is_rejected() -> None:
    rejected(f"Table,Player 1,Player 2\n1,{'a' * 201},b\n", r"^line 2: a cell is longer")


def test_text_that_is_not_csv_is_rejected() -> None:
    rejected('Table,Player 1,Player 2\n1,"Alice,Bob\n', r"not a valid CSV file")
    rejected('Table,Player 1,Player 2\n1,"Alice"x,Bob\n', r"not a valid CSV file")


@pytest.mark.parametrize("text", ["", "\n\n", "Table,Player 1,Player 2\n", "\ufeff\r\n,,\r\n"])
def test_a_file_without_pairings_is_rejected(text: str) -> None:
    rejected(text, r"^the file has no pairings$")


def test_results_csv_writes_a_header_and_crlf_rows() -> None:
    rows: list[dict[str, object]] = [
        {"table": 1, "player": "Alice", "points": 3, "note": None},
        {"table": 2},
    ]
    assert results_csv(rows, ["table", "player", "points", "note"]) == (
        "table,player,points,note\r\n1,Alice,3,\r\n2,,,\r\n"
    )


def test_results_csv_defuses_formula_like_text() -> None:
    cells = ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx", "ok"]
    rows = [{"cell": cell} for cell in cells]
    lines = results_csv(rows, ["cell"]).split("\r\n")
    assert lines[1:6] == ["'=1+1", "'+cmd", "'-2+3", "'@SUM(A1)", "'\tx"]
    assert lines[6:8] == ['"\'\rx"', "ok"]


def test_results_csv_keeps_numbers_as_numbers() -> None:
    rows = [{"delta": -3, "omw": -0.5, "text": "-3"}]
    assert results_csv(rows, ["delta", "omw", "text"]) == "delta,omw,text\r\n-3,-0.5,'-3\r\n"
