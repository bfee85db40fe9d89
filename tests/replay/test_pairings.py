"""Pairings files in (the shapes pairing programs export, several rounds, any common encoding),
results and standings out (injection-safe, fixed decimals, TOM's .tdf written back)."""

from __future__ import annotations

import codecs
import json
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from replay.pairings import (
    MAX_PAIRINGS_BYTES,
    Pairing,
    PairingsFile,
    PairingsRejected,
    fixed,
    match_results_csv,
    parse_pairings,
    read_pairings,
    results_csv,
    standings_csv,
    tdf_results,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "pairings"
RESULTS_COLUMNS = ["round", "table", "external_id", "name", "opponents", "result",
                   "match_points", "player_id"]


def rejected(text: str, match: str) -> None:
    """``parse_pairings(text)`` raises PairingsRejected with a message matching ``match``."""
    with pytest.raises(PairingsRejected, match=match):
        parse_pairings(text)


def refused(data: bytes, match: str, **kwargs: object) -> None:
    """``read_pairings(data, **kwargs)`` raises PairingsRejected matching ``match``."""
    with pytest.raises(PairingsRejected, match=match):
        read_pairings(data, **kwargs)  # type: ignore[arg-type]


def fixture(name: str) -> bytes:
    """A pairing program's export, as stored under tests/data/pairings."""
    return (DATA / name).read_bytes()


# ----- one-round CSV (what Kiroku read before) ------------------------------------------------
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


def test_a_semicolon_separated_file_is_read() -> None:
    assert parse_pairings("Table;Player 1;Player 2\r\n1;Alice;Bob\r\n") == \
        [Pairing(1, ("Alice", "Bob"))]


def test_the_header_refusal_names_the_accepted_headers_and_those_found() -> None:
    rejected("Foo,Bar\n1,a\n",
             r"^line 1: the header needs a table column \(one of Table, Table #, TableNumber, "
             r"Table Number, Table No\) and player columns \(Player, Opponent, Player 1, "
             r"Player 2, \.\.\., Seat 1, \.\.\.\); found 'Foo', 'Bar'$")


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
    rejected("Table,Player 1,Player 2\n1,Alice,alice\n", r"^line 2: .*'alice'.*this line$")


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


# ----- decoding ------------------------------------------------------------------------------
ACCENTED = "Table,Player 1,Player 2\r\n1,Chloé Dubois,Jürgen Müller\r\n2,Señor Peña,Zoë Ågren\r\n"
ACCENTED_PAIRINGS = [Pairing(1, ("Chloé Dubois", "Jürgen Müller")),
                     Pairing(2, ("Señor Peña", "Zoë Ågren"))]


@pytest.mark.parametrize("encoded", [
    ACCENTED.encode("utf-8"),
    codecs.BOM_UTF8 + ACCENTED.encode("utf-8"),
], ids=["utf-8", "utf-8 with a BOM"])
def test_utf8_is_read_with_or_without_a_byte_order_mark(encoded: bytes) -> None:
    assert read_pairings(encoded).pairings == ACCENTED_PAIRINGS


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_a_byte_order_mark_is_read(codec: str) -> None:
    mark = {"utf-16": b"", "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}
    assert read_pairings(mark[codec] + ACCENTED.encode(codec)).pairings == ACCENTED_PAIRINGS


def test_windows_1252_is_read_when_the_file_is_not_utf8() -> None:
    encoded = (ACCENTED + "3,Œdipe “Ed” Roi,Bob\r\n").encode("cp1252")
    assert read_pairings(encoded).pairings == \
        [*ACCENTED_PAIRINGS, Pairing(3, ("Œdipe “Ed” Roi", "Bob"))]


def test_bytes_that_are_no_known_text_are_refused_with_a_sentence() -> None:
    refused(b"Table,Player 1,Player 2\r\n1,\x81\x8d,b\r\n",
            r"^the file is not text in UTF-8, UTF-16 or Windows-1252: byte 27 \(0x81\)")


def test_a_binary_file_is_refused_for_its_nul_bytes() -> None:
    refused(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", r"^the file is not text .*NUL bytes")


def test_utf16_without_a_byte_order_mark_is_refused_for_its_nul_bytes() -> None:
    refused(ACCENTED.encode("utf-16-le"), r"NUL bytes .*UTF-16 without a byte-order mark")


def test_a_byte_order_mark_followed_by_something_else_is_refused() -> None:
    refused(codecs.BOM_UTF8 + b"Table,\xff\xfe", r"starts like UTF-8 but byte 6 is not UTF-8")


def test_a_control_character_in_a_text_is_refused() -> None:
    refused(b"Table,Player 1,Player 2\n1,a\x07,b\n", r"^line 2: .*control character \(U\+0007\)")


def test_bytes_far_over_the_size_limit_are_not_decoded() -> None:
    refused(b"x" * (4 * MAX_PAIRINGS_BYTES + 1), r"^the file is larger than")


# ----- the programs' exports -----------------------------------------------------------------
def test_a_melee_export() -> None:
    read = read_pairings(fixture("melee.csv"), filename="melee.csv")
    assert read == PairingsFile(
        format="melee", rounds=[], round=None,
        pairings=[Pairing(1, ("Aiko Arai", "Ben Brandt")),
                  Pairing(2, ("Chloé Dubois", "Dan O'Neil")),
                  Pairing(3, ("Eri Endō", "Farid Haddad")),
                  Pairing(None, ("Gina Gómez",))])


def test_melees_tablenumber_header_is_accepted() -> None:
    assert parse_pairings("TableNumber,Player1,Player2\r\n4,a,b\r\n") == [Pairing(4, ("a", "b"))]


def test_a_one_round_file_is_the_round_the_caller_names() -> None:
    read = read_pairings(fixture("melee.csv"), round=3)
    assert (read.rounds, read.round) == ([], 3)


def test_a_topdeck_export_of_four_player_pods() -> None:
    read = read_pairings(fixture("topdeck.csv"))
    assert (read.format, read.rounds, read.round) == ("topdeck", [1, 2], 2)
    assert read.pairings == [
        Pairing(1, ("Chie Chiba", "Eri Endo", "Fumi Fujii", "Ichiro Ito")),
        Pairing(2, ("Aiko Arai", "Goro Goto", "Hana Hara", "Dan Doi")),
        Pairing(None, ("Ben Brandt",)),
    ]


def test_an_aetherhub_export_drops_the_points_in_player_cells() -> None:
    read = read_pairings(fixture("aetherhub.csv"), round=2)
    assert (read.format, read.rounds, read.round) == ("aetherhub", [1, 2, 3], 2)
    assert read.pairings == [Pairing(1, ("Aiko Arai", "Chie Chiba")),
                             Pairing(2, ("Eri Endo", "Dan Doi")),
                             Pairing(None, ("Ben Brandt",))]


def test_an_endstep_export_is_read_for_its_latest_round_by_default() -> None:
    read = read_pairings(fixture("endstep.csv"))
    assert (read.format, read.rounds, read.round) == ("endstep", [1, 2, 3], 3)
    assert read.pairings == [Pairing(1, ("1001", "1003")), Pairing(2, ("1004", "1002"))]


def test_each_round_of_a_file_of_several_can_be_read() -> None:
    rounds = [read_pairings(fixture("endstep.csv"), round=n).pairings for n in (1, 2, 3)]
    assert [[p.players for p in pairings] for pairings in rounds] == [
        [("1001", "1002"), ("1003", "1004")],
        [("1001", "1004"), ("1002", "1003")],
        [("1001", "1003"), ("1004", "1002")],
    ]


def test_parse_pairings_reads_the_latest_round_of_a_file_of_several() -> None:
    assert parse_pairings(fixture("endstep.csv").decode()) == \
        [Pairing(1, ("1001", "1003")), Pairing(2, ("1004", "1002"))]


def test_a_table_number_is_checked_for_reuse_within_its_round_only() -> None:
    text = b"Round,Table,Player 1,Player 2\n1,1,a,b\n2,1,a,c\n2,1,b,d\n"
    assert read_pairings(text, round=1).pairings == [Pairing(1, ("a", "b"))]
    refused(text, r"^line 4: table 1 is already on line 3$", round=2)


def test_a_player_twice_in_one_round_of_several_is_refused() -> None:
    refused(b"Round,Table,Player 1,Player 2\n1,1,a,b\n1,2,c,A\n", r"^line 3: player 'A' .*line 2$")


def test_a_round_the_file_does_not_hold_is_refused() -> None:
    refused(fixture("endstep.csv"), r"^the file holds rounds 1, 2, 3; round 5 is not among them$",
            round=5)


@pytest.mark.parametrize("wanted", [0, -1])
def test_a_round_below_one_is_refused(wanted: int) -> None:
    refused(fixture("endstep.csv"), r"is not a round number", round=wanted)


@pytest.mark.parametrize(("cell", "message"), [
    ("Top 8", r"^line 3: round 'Top 8' is not a number$"),
    ("", r"^line 3: no round number$"),
    ("1001", r"^line 3: round 1001 is not between 1 and 1000$"),
])
def test_a_round_cell_that_is_no_round_number_is_refused(cell: str, message: str) -> None:
    refused(f"Round,Table,Player 1,Player 2\n1,1,a,b\n{cell},1,a,b\n".encode(), message)


def test_only_the_rows_of_the_round_read_are_checked() -> None:
    text = b"Round,Table,Player 1,Player 2\n1,X,a,b\n1,2,c,c\n2,1,a,c\n"
    assert read_pairings(text, round=2).pairings == [Pairing(1, ("a", "c"))]
    refused(text, r"^line 2: table 'X' is not a number$", round=1)


# ----- Pokémon TOM (.tdf) --------------------------------------------------------------------
TOM_ROUND_1 = [Pairing(1, ("3865580", "4268713")), Pairing(2, ("5124501", "4672166")),
               Pairing(None, ("4842326",))]
TOM_ROUND_2 = [Pairing(1, ("3865580", "4842326")), Pairing(2, ("4672166", "4268713")),
               Pairing(3, ("5124501", "5599533"))]


def test_a_tom_file_is_read_for_its_latest_round() -> None:
    assert read_pairings(fixture("tom.tdf"), filename="cup.tdf") == \
        PairingsFile("tom", [1, 2], 2, TOM_ROUND_2)


def test_a_tom_bye_is_a_pairing_and_a_late_entrants_loss_is_unseated() -> None:
    read = read_pairings(fixture("tom.tdf"), round=1)
    assert (read.pairings, read.unseated) == (TOM_ROUND_1, ["5599533"])


def _tdf(matches: str, pods: int = 1) -> bytes:
    """A small TOM file whose every pod holds round 1 with ``matches``."""
    pod = f'<pod category="2"><rounds><round number="1"><matches>{matches}</matches></round>' \
          "</rounds></pod>"
    return f'<?xml version="1.0" encoding="UTF-8"?><tournament><pods>{pod * pods}</pods>' \
           "</tournament>".encode()


def _match(outcome: int, table: int, *userids: str) -> str:
    """One TOM ``<match>``: player1 and player2, or a single player."""
    tags = ["player"] if len(userids) == 1 else ["player1", "player2"]
    seats = "".join(f'<{tag} userid="{u}"/>' for tag, u in zip(tags, userids))
    return f'<match outcome="{outcome}">{seats}<tablenumber>{table}</tablenumber></match>'


def test_the_matches_of_every_tom_pod_are_read() -> None:
    juniors = f'<pod category="0"><rounds><round number="1"><matches>{_match(0, 1, "1", "2")}' \
              "</matches></round></rounds></pod>"
    masters = f'<pod category="2"><rounds><round number="1"><matches>{_match(0, 9, "3", "4")}' \
              "</matches></round></rounds></pod>"
    data = f"<tournament><pods>{juniors}{masters}</pods></tournament>".encode()
    assert read_pairings(data).pairings == [Pairing(1, ("1", "2")), Pairing(9, ("3", "4"))]


def test_tom_pods_sharing_a_table_number_in_a_round_are_refused() -> None:
    data = _tdf(_match(0, 1, "1", "2"), pods=2)
    refused(data, r"^match 1 of round 1 of pod 2: table 1 is already on match 1 of round 1 of"
                  r" pod 1$")


def test_an_xml_entity_bomb_is_refused_before_it_expands() -> None:
    lol = "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 10))
    bomb = f'<?xml version="1.0"?><!DOCTYPE tournament [<!ENTITY l0 "lol">{lol}]>' \
           "<tournament>&l9;</tournament>"
    started = time.monotonic()
    refused(bomb.encode(), r"declares a DTD or entities")
    assert time.monotonic() - started < 1


def test_an_external_entity_is_refused() -> None:
    data = b'<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><tournament>&x;</tournament>'
    refused(data, r"declares a DTD or entities")


def test_an_undeclared_entity_is_not_valid_xml() -> None:
    refused(b"<tournament>&x;</tournament>", r"^not a valid XML file \(undefined entity")


def test_an_xml_file_that_is_not_a_tom_tournament_is_refused() -> None:
    refused(b"<rss><channel/></rss>", r"not a TOM tournament file \(\.tdf\): its root is <rss>")


def test_a_web_page_is_refused_as_such() -> None:
    refused(b"<!DOCTYPE html><html><body><table></table></body></html>", r"a web page \(HTML\)")


def test_a_tom_single_player_that_is_no_bye_nor_late_loss_is_refused() -> None:
    refused(_tdf(_match(1, 0, "1")), r"^match 1 of round 1: one player with outcome '1'")


def test_a_tom_match_with_one_of_its_two_seats_is_refused() -> None:
    data = _tdf('<match outcome="0"><player1 userid="1"/><tablenumber>1</tablenumber></match>')
    refused(data, r"^match 1 of round 1: a match names <player1> and <player2>")


def test_a_tom_match_at_table_zero_is_refused() -> None:
    refused(_tdf(_match(0, 0, "1", "2")), r"^match 1 of round 1: table 0 is not between")


def test_a_file_named_tdf_that_is_not_xml_is_refused() -> None:
    refused(b"Table,Player 1,Player 2\n1,a,b\n", r"named 'cup\.tdf' but is not XML",
            filename="cup.tdf")


# ----- Limitless (JSON) ----------------------------------------------------------------------
def test_a_limitless_export_with_byes_without_player2() -> None:
    read = read_pairings(fixture("limitless.json"), round=2)
    assert (read.format, read.rounds) == ("limitless", [1, 2, 3])
    assert read.pairings == [Pairing(1, ("ash", "dawn")), Pairing(2, ("misty", "brock")),
                             Pairing(None, ("gary",))]


def test_a_limitless_bye_may_have_a_null_player2() -> None:
    data = json.dumps([{"round": 1, "table": 1, "player1": "a", "player2": None}]).encode()
    assert read_pairings(data).pairings == [Pairing(None, ("a",))]


def test_a_limitless_match_without_a_table_is_refused() -> None:
    data = json.dumps([{"round": 4, "phase": 2, "match": "T4-1", "player1": "a",
                        "player2": "b"}]).encode()
    refused(data, r"^entry 1: the match of 'a' and 'b' has no table number$")


def test_a_limitless_round_number_in_two_phases_is_refused() -> None:
    data = json.dumps([{"round": 1, "phase": 1, "table": 1, "player1": "a", "player2": "b"},
                       {"round": 1, "phase": 2, "table": 1, "player1": "a", "player2": "b"}])
    refused(data.encode(), r"^round 1 appears in phases 1 and 2")


@pytest.mark.parametrize(("data", "message"), [
    (b'{"pairings": []}', r"^a JSON file, but not Limitless pairings"),
    (b"[1, 2", r"^not a valid JSON file"),
    (b"[" * 100_000, r"^not a valid JSON file"),
    (b'[{"round": NaN}]', r"^not a valid JSON file"),
    (b'[{"round": true, "player1": "a"}]', r"^entry 1: round True is not a whole number$"),
    (b'[{"round": 1, "player1": 7}]', r"^entry 1: player1 7 is not a player's username$"),
    (b"[]", r"^the file has no pairings$"),
])
def test_json_that_is_not_limitless_pairings_is_refused(data: bytes, message: str) -> None:
    refused(data, message)


# ----- Kiroku's own results.csv, read back ----------------------------------------------------
def _results_rows() -> list[dict[str, object]]:
    """Two rounds of results as Kiroku writes them: one row per player, seat order."""
    def row(rnd: int, table: int | None, ext: str, result: str) -> dict[str, object]:
        return {"round": rnd, "table": table, "external_id": ext, "name": f"Player {ext}",
                "opponents": "", "result": result, "match_points": 3 if result in "W BYE" else 0,
                "player_id": f"id-{ext}"}
    return [row(1, 1, "1001", "W"), row(1, 1, "1002", "L"), row(1, 2, "1003", "D"),
            row(1, 2, "1004", "D"), row(1, None, "1005", "BYE"),
            row(2, 1, "1001", "L"), row(2, 1, "1003", "W"), row(2, 2, "1005", "W"),
            row(2, 2, "1004", "L"), row(2, None, "1002", "BYE")]


def test_kirokus_results_csv_is_read_back_as_a_rounds_pairings() -> None:
    written = results_csv(_results_rows(), RESULTS_COLUMNS).encode()
    read = read_pairings(written, round=1)
    assert (read.format, read.rounds, read.round) == ("kiroku", [1, 2], 1)
    assert read.pairings == [Pairing(1, ("id-1001", "id-1002")),
                             Pairing(2, ("id-1003", "id-1004")),
                             Pairing(None, ("id-1005",))]
    assert read_pairings(written).pairings == [Pairing(1, ("id-1001", "id-1003")),
                                               Pairing(2, ("id-1005", "id-1004")),
                                               Pairing(None, ("id-1002",))]


def test_a_results_table_with_a_single_player_is_refused() -> None:
    rows = [r for r in _results_rows() if r["external_id"] != "1002" or r["round"] != 1]
    refused(results_csv(rows, RESULTS_COLUMNS).encode(),
            r"^line 2: table 1 has a single player \('id-1001'\)", round=1)


# ----- writers -------------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "places", "text"), [
    (0.5, 4, "0.5000"), (0.62037, 4, "0.6204"), (2 / 3, 4, "0.6667"), (1, 4, "1.0000"),
    (0, 4, "0.0000"), (-0.00001, 4, "0.0000"), (0.5, 2, "0.50"), (1 / 3, 0, "0"),
])
def test_fixed_writes_a_fixed_number_of_decimals(value: float, places: int, text: str) -> None:
    assert fixed(value, places) == text


@pytest.mark.parametrize("value", [float("nan"), float("inf"), True, "0.5"])
def test_fixed_refuses_what_is_not_a_finite_number(value: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        fixed(value)  # type: ignore[arg-type]


def test_standings_csv_writes_fractions_at_four_decimals() -> None:
    rows = [{"rank": 1, "external_id": "1001", "name": "Aiko", "match_points": 9, "wins": 3,
             "losses": 0, "draws": 0, "byes": 0, "opponents_match_win": 0.5,
             "opponents_opponents_match_win": 0.62037037, "player_id": "p1"},
            {"rank": 2, "name": "Ben", "opponents_match_win": 0,
             "opponents_opponents_match_win": 1.0}]
    lines = standings_csv(rows).split("\r\n")
    assert lines[0] == ("rank,external_id,name,match_points,wins,losses,draws,byes,"
                        "opponents_match_win,opponents_opponents_match_win,player_id")
    assert lines[1] == "1,1001,Aiko,9,3,0,0,0,0.5000,0.6204,p1"
    assert lines[2] == "2,,Ben,,,,,,0.0000,1.0000,"


def test_standings_csv_defuses_formula_like_names() -> None:
    assert standings_csv([{"name": "=HYPERLINK(1)"}], ["name"]) == "name\r\n'=HYPERLINK(1)\r\n"


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


def test_match_results_csv_writes_one_line_per_table() -> None:
    assert match_results_csv(_results_rows()[:5]).split("\r\n") == [
        "Round,Table,Player 1,Player 2,Player 1 Wins,Player 2 Wins,Draws",
        "1,1,1001,1002,1,0,0",
        "1,2,1003,1004,0,0,1",
        "1,,1005,BYE,2,,0",
        "",
    ]


def test_match_results_csv_writes_the_games_of_a_best_of_three() -> None:
    rows = [{"round": 1, "table": 1, "external_id": "1001", "result": "W", "game_wins": 2,
             "game_draws": 1},
            {"round": 1, "table": 1, "external_id": "1002", "result": "L", "game_wins": 0,
             "game_draws": 1}]
    assert match_results_csv(rows).split("\r\n")[1] == "1,1,1001,1002,2,0,1"


def test_match_results_csv_is_read_back_as_the_rounds_pairings() -> None:
    written = match_results_csv(_results_rows()).encode()
    assert read_pairings(written, round=2).pairings == [Pairing(1, ("1001", "1003")),
                                                        Pairing(2, ("1005", "1004")),
                                                        Pairing(None, ("1002",))]


# ----- TOM results written back ---------------------------------------------------------------
def _tom_results(round_number: int) -> list[dict[str, object]]:
    """Kiroku results rows for round 2 of tom.tdf: a win for each seat and a draw."""
    letters = {"3865580": "W", "4842326": "L", "4672166": "L", "4268713": "W",
               "5124501": "D", "5599533": "D"}
    tables = {"3865580": 1, "4842326": 1, "4672166": 2, "4268713": 2, "5124501": 3, "5599533": 3}
    return [{"round": round_number, "table": tables[p], "external_id": p, "result": letter}
            for p, letter in letters.items()]


def _outcomes(tdf: str, round_number: int) -> list[str]:
    """The outcome attribute of each match of a round of a TOM file."""
    root = ET.fromstring(tdf.split("?>", 1)[1])
    return [m.get("outcome", "") for r in root.iter("round") if r.get("number") == str(round_number)
            for m in r.iter("match")]


def test_a_rounds_results_are_written_back_into_the_tom_file() -> None:
    written = tdf_results(fixture("tom.tdf"), _tom_results(2), round=2)
    assert _outcomes(written, 2) == ["1", "2", "3"]
    assert _outcomes(written, 1) == ["1", "2", "5", "8"]


def test_writing_back_changes_nothing_but_those_outcomes() -> None:
    original = fixture("tom.tdf").decode()
    written = tdf_results(original, _tom_results(2), round=2)
    changed = [(a, b) for a, b in zip(original.split("\r\n"), written.split("\r\n")) if a != b]
    assert changed == [('\t\t\t\t\t\t<match outcome="0">', '\t\t\t\t\t\t<match outcome="1">'),
                       ('\t\t\t\t\t\t<match outcome="0">', '\t\t\t\t\t\t<match outcome="2">'),
                       ('\t\t\t\t\t\t<match outcome="0">', '\t\t\t\t\t\t<match outcome="3">')]
    assert len(written) == len(original)


def test_writing_back_finds_matches_by_their_tags_not_by_text_in_comments() -> None:
    match = ("<match note='a>b outcome=\"x\"'><player1 userid=\"1\"/><player2 userid=\"2\"/>"
             "<tablenumber>1</tablenumber></match>")
    text = ('<?xml version="1.0" encoding="UTF-16"?>\n<!-- <match outcome="0"> -->\n'
            + _tdf(match).decode().split("?>", 1)[1])
    written = tdf_results(text.encode("utf-16"), [{"table": 1, "external_id": "1", "result": "L"},
                                                  {"table": 1, "external_id": "2", "result": "W"}],
                          round=1)
    assert written.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!-- <match outcome="0">')
    assert "<match outcome=\"2\" note='a>b outcome=\"x\"'>" in written


def test_a_tom_file_written_back_reads_the_same_pairings() -> None:
    written = tdf_results(fixture("tom.tdf"), _tom_results(2), round=2).encode()
    for number, pairings in ((1, TOM_ROUND_1), (2, TOM_ROUND_2)):
        assert read_pairings(written, round=number).pairings == pairings
    assert read_pairings(written, round=1).unseated == ["5599533"]


def test_results_naming_other_players_than_the_tom_file_are_refused() -> None:
    rows = [{**row, "external_id": "9999999"} if row["external_id"] == "4842326" else row
            for row in _tom_results(2)]
    with pytest.raises(PairingsRejected, match=r"^table 1: the results name '3865580', "
                                               r"'9999999' but the file seats '3865580' and "
                                               r"'4842326'$"):
        tdf_results(fixture("tom.tdf"), rows, round=2)


def test_results_for_a_table_the_tom_round_lacks_are_refused() -> None:
    rows = [*_tom_results(2), {"round": 2, "table": 7, "external_id": "1", "result": "W"}]
    with pytest.raises(PairingsRejected, match=r"table 7, which round 2 of the file does not"):
        tdf_results(fixture("tom.tdf"), rows, round=2)


def test_results_for_a_round_the_tom_file_lacks_are_refused() -> None:
    with pytest.raises(PairingsRejected, match=r"^the file holds rounds 1, 2; round 3 is not"):
        tdf_results(fixture("tom.tdf"), _tom_results(3), round=3)


def test_two_wins_at_one_tom_table_are_refused() -> None:
    rows = [{**row, "result": "W"} for row in _tom_results(2)]
    with pytest.raises(PairingsRejected, match=r"^table 1: results W and W are neither"):
        tdf_results(fixture("tom.tdf"), rows, round=2)
