"""A players file (a registration list from a spreadsheet or a pairing program): its name and
id columns found by their usual headers, any encoding a pairings file may have, and refusals
naming the line."""

from __future__ import annotations

import pytest

from replay.pairings import PairingsRejected, PlayerEntry, read_players


def test_a_name_and_an_id_column() -> None:
    text = "Name,External ID,Email\r\nAiko,1001,a@example.com\r\nBen,,\r\n"
    assert read_players(text.encode()) == [PlayerEntry("Aiko", "1001"), PlayerEntry("Ben", None)]


def test_first_and_last_names_are_joined() -> None:
    text = "First Name;Last Name;DCI\nAiko;Tanaka;7001\n"
    assert read_players(text.encode()) == [PlayerEntry("Aiko Tanaka", "7001")]


def test_a_pokemon_id_column_and_windows_1252() -> None:
    data = "Player Name\tPokemon ID\nJosé Núñez\t4242\n".encode("cp1252")
    assert read_players(data) == [PlayerEntry("José Núñez", "4242")]


def test_utf16_with_its_mark() -> None:
    data = "Name,ID\r\n佐藤,9\r\n".encode("utf-16")
    assert read_players(data) == [PlayerEntry("佐藤", "9")]


def test_a_header_without_a_name_names_what_it_accepts() -> None:
    with pytest.raises(PairingsRejected, match=r"line 1: the header needs a name column "
                       r"\(Name, Player.*found 'Points', 'Deck'"):
        read_players(b"Points,Deck\n3,x\n")


def test_a_row_without_a_name_is_refused() -> None:
    with pytest.raises(PairingsRejected, match="line 3: no name"):
        read_players(b"Name,ID\nAiko,1\n,2\n")


def test_an_id_twice_is_refused() -> None:
    with pytest.raises(PairingsRejected, match="line 3: id '1' is already on line 2"):
        read_players(b"Name,ID\nAiko,1\nBen,1\n")


def test_a_name_twice_without_ids_is_refused() -> None:
    with pytest.raises(PairingsRejected, match="the name 'aiko' .* is already on line 2"):
        read_players(b"Name\nAiko\naiko\n")


def test_binary_is_refused_with_a_sentence() -> None:
    with pytest.raises(PairingsRejected, match="not text in UTF-8, UTF-16 or Windows-1252"):
        read_players(b"\x00\x01\x02")


def test_a_header_alone_is_refused() -> None:
    with pytest.raises(PairingsRejected, match="no players"):
        read_players(b"Name,ID\n")
