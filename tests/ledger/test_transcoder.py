"""The storage encoding (ledger.transcoder): formats 3 and 7 are compact and exactly
reversible, and a store's records of earlier formats still read."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import inspect
import pkgutil
import sqlite3
import sys
from datetime import UTC, datetime, timedelta, timezone
from enum import Enum
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack
import pytest
from pydantic import BaseModel

from engine.registry import SHIPPED
from ledger.compactrows import stored_topic
from ledger.transcoder import (
    COMPACT,
    DEFLATE_FROM,
    DICTIONARY,
    GAMES_WITH_SHAPES,
    PLAIN,
    SHAPED,
    SHAPES,
    SHAPES_OF_FORMAT_3,
    TERSE,
    TERSE_DEFLATED,
    TERSE_SHAPES,
    TERSE_WORDS,
    WORDED,
    WORDS,
    MsgpackTranscoder,
    UnknownStorageFormat,
    _deflate,
    _pack,
    compose_shapes,
    game_shapes,
    payload,
    stored_fields,
)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from bench import long_match, stored_bytes  # noqa: E402

HASH = hashlib.sha256(b"kiroku").hexdigest()
AWKWARD = [
    HASH, f"p1:{HASH}", HASH.upper(), HASH + "0", HASH[:-1], f"{'x' * 16}{HASH}",
    f"é:{HASH}", f"\n{HASH}",
    "2026-11-21T19:49:33.381742+00:00", "2026-02-30T19:49:33.381742+00:00",
    "2026-11-21T19:49:33.381742+01:00", "2026-11-21T19:49:33+00:00",
    "0001-01-01T00:00:00.000000+00:00", "9999-12-31T23:59:59.999999+00:00", "", "end_turn",
    "2026-11-21T19:49:33.000000+00:00", "1969-12-31T23:59:59.999999+00:00",
    "c6374285-dc39-4741-a7ee-14853718eba5", "C6374285-DC39-4741-A7EE-14853718EBA5",
    "c6374285dc394741a7ee14853718eba5", "{c6374285-dc39-4741-a7ee-14853718eba}",
    "c6374285-dc39-4741-a7ee-14853718ebaz", "c6374285_dc39-4741-a7ee-14853718eba5",
    f"p1:{HASH.upper()}", f"p2:{HASH}", f"p1{HASH}", "organiser", "Organiser",
]


@pytest.mark.parametrize("text", AWKWARD)
def test_every_string_reads_back_as_it_was_written(text: str) -> None:
    transcoder = MsgpackTranscoder()
    fields = {"value": text, "nested": [{"k": text}], "pair": (text, 1)}
    assert transcoder.decode(transcoder.encode(fields)) == fields


@pytest.mark.parametrize("moment", [
    datetime(2026, 11, 21, 19, 49, 33, 381742, tzinfo=UTC),
    datetime(2026, 11, 21, 19, 49, 33, tzinfo=timezone(timedelta(hours=9))),
    datetime(2026, 11, 21, 19, 49, 33),
    datetime(1, 1, 1, tzinfo=UTC),
])
def test_instants_keep_their_value_and_their_zone(moment: datetime) -> None:
    transcoder = MsgpackTranscoder()
    back = transcoder.decode(transcoder.encode({"timestamp": moment}))["timestamp"]
    assert back == moment and back.tzinfo == moment.tzinfo


def test_a_format_1_record_still_reads() -> None:
    fields: dict[str, Any] = {"id": UUID(int=5), "hash": HASH, "at": datetime(2026, 1, 1,
                                                                              tzinfo=UTC)}
    old = bytes([PLAIN]) + _pack(fields)
    assert MsgpackTranscoder().decode(old) == fields
    assert payload(old) == old[1:]


def test_a_format_2_record_still_reads() -> None:
    fields = {"seq": 3, "action": {"seat": 1, "type": "end_turn"}, "hash": HASH}
    old = bytes([COMPACT]) + _deflate(_pack(fields))
    assert MsgpackTranscoder().decode(old) == fields


ACTION = {"seq": 7, "seat": 2, "action": {"seat": 2, "type": "end_turn"},
          "outcomes": [{"kind": "draw", "value": "WGS-001", "seat": 1}], "chance_source": "seed",
          "digest": f"p1:{HASH}", "recorded_by": "Ann", "recorded_at": AWKWARD[6],
          "hash": HASH, "commitments": {"outcomes.0.value": [1, b"12345678"]},
          "class_version": 2}


def test_a_map_of_a_known_shape_is_stored_as_its_values_and_reads_back() -> None:
    stored = MsgpackTranscoder().encode(ACTION)
    assert stored[0] == TERSE
    assert tuple(ACTION) in SHAPES and tuple(ACTION["action"]) in SHAPES
    assert b"chance_source" not in payload(stored) and b"Ann" in payload(stored)
    assert MsgpackTranscoder().decode(stored) == ACTION
    assert stored_fields(stored)["action"] == ACTION["action"]


def test_words_are_stored_as_their_index_values_and_keys_alike() -> None:
    fields = {"outcomes.0.value": "end_turn", "note": ["seed", "not a word"]}
    stored = MsgpackTranscoder().encode(fields)
    assert stored[0] == TERSE
    for word in ("end_turn", "seed", "outcomes.0.value"):
        assert word.encode() not in stored
    assert b"not a word" in stored and b"note" in stored
    back = MsgpackTranscoder().decode(stored)
    assert back == fields and list(back) == list(fields)
    assert stored_fields(stored) == fields  # spelled out for tools, words and all


def test_a_long_record_is_deflated_and_a_short_one_is_not() -> None:
    short = MsgpackTranscoder().encode(ACTION)
    notes = {"notes": ["the same note"] * DEFLATE_FROM}
    long = MsgpackTranscoder().encode(notes)
    assert short[0] == TERSE and payload(short) == short[1:]
    assert long[0] == TERSE_DEFLATED and len(long) < DEFLATE_FROM
    assert MsgpackTranscoder().decode(long) == notes


# Written by the last version to write format 3 (2492914): ACTION, and shaped maps in a tuple
FORMAT_3_ACTION = bytes.fromhex(
    "039b738583919d69f2150e5e26b8b7264eb9c2c1030e8be5e1eec1ba0606868c60db8f2bb316185ac51d7e6e"
    "38452c42e675e6b2672117ab39ee944e7460dbf4f04df6c9a361660b444d173be6e501551e5e4950e5710556"
    "424a1a31ea9f498c47380c8d8c4d4ccdcc2d9800")
FORMAT_3_PAIR = bytes.fromhex("036b04ba29b3e8b838f3a4c957387819c12e9c0864f281c362613200")


def test_a_format_3_record_still_reads() -> None:
    assert FORMAT_3_ACTION[0] == SHAPED
    assert MsgpackTranscoder().decode(FORMAT_3_ACTION) == ACTION
    assert stored_fields(FORMAT_3_ACTION)["action"] == ACTION["action"]
    assert MsgpackTranscoder().decode(FORMAT_3_PAIR) == {
        "pair": ({"seat": 1, "type": "pass"}, [{"kind": "draw", "value": "c"}])}


@pytest.mark.parametrize("code", [12, 15, 25, 127])
def test_an_extension_type_this_version_does_not_know_is_refused(code: int) -> None:
    unknown = bytes([TERSE]) + msgpack.packb({"digest": msgpack.ExtType(code, b"\x01" * 32)})
    with pytest.raises(UnknownStorageFormat, match=f"extension type {code}"):
        MsgpackTranscoder().decode(unknown)


@pytest.mark.parametrize("form", [1, 2, 9])
def test_every_position_digest_format_is_stored_without_its_label(form: int) -> None:
    stored = MsgpackTranscoder().encode({"digest": f"p{form}:{HASH}"})
    assert f"p{form}:".encode() not in stored
    assert MsgpackTranscoder().decode(stored) == {"digest": f"p{form}:{HASH}"}


def test_a_word_this_version_does_not_know_is_refused() -> None:
    beyond = len(WORDS + TERSE_WORDS)
    unknown = bytes([TERSE]) + msgpack.packb({"type": msgpack.ExtType(9, bytes([beyond]))})
    with pytest.raises(UnknownStorageFormat):
        MsgpackTranscoder().decode(unknown)


# Written by the last version to write format 4 (ab48db0): an action a scorekeeper's
# credential recorded
RECORDED = {**ACTION, "recorded_by": {"id": "c6374285-dc39-4741-a7ee-14853718eba5",
                                      "name": "Ann", "role": "scorekeeper"},
            "recorded_at": "2026-11-21T19:49:33.381742+00:00"}
FORMAT_4_RECORDED = bytes.fromhex(
    "049cd40801070293d4080d02d409869194d4080cd40981a75747532d30303101d40996c7230570313a5ec3e7"
    "319416581ceb69a6e654d17b08dc75914006b2e1ec6bc9c55636a0153583a26964d92463363337343238352d"
    "646333392d343734312d613765652d313438353337313865626135d40906a3416e6ea4726f6c65ab73636f72"
    "656b6565706572c7090701192df660f7246a6ec720055ec3e7319416581ceb69a6e654d17b08dc7591400"
    "6b2e1ec6bc9c55636a0153581d409059201c408313233343536373802")


def test_a_format_4_record_still_reads() -> None:
    assert FORMAT_4_RECORDED[0] == WORDED
    assert MsgpackTranscoder().decode(FORMAT_4_RECORDED) == RECORDED
    assert stored_fields(FORMAT_4_RECORDED)["recorded_by"] == RECORDED["recorded_by"]


def test_who_recorded_a_digest_and_a_time_are_stored_in_their_binary_forms() -> None:
    stored = MsgpackTranscoder().encode(RECORDED)
    assert stored[0] == TERSE and tuple(RECORDED["recorded_by"]) in TERSE_SHAPES.values()
    for spelled in (b"c6374285", b"p1:", b"2026", b"scorekeeper", b"role"):
        assert spelled not in stored
    # the id in 16 bytes (20 fewer), the digest without its label (3), the time in 8 bytes
    # (2), the map as an array of its shape's mark and values (8), the role a word (9)
    assert len(stored) == len(FORMAT_4_RECORDED) - 20 - 3 - 2 - 8 - 9
    assert MsgpackTranscoder().decode(stored) == RECORDED
    spelled = stored_fields(stored)["recorded_by"]  # for tools: shapes and words spelled out
    assert (spelled["name"], spelled["role"]) == ("Ann", "scorekeeper")


@pytest.mark.parametrize("role", ["organiser", "judge", "seat", "scorekeeper"])
def test_every_role_that_records_is_a_word(role: str) -> None:
    stored = MsgpackTranscoder().encode({"recorded_by": {**RECORDED["recorded_by"],
                                                         "role": role}})
    assert role.encode() not in stored


def test_shaped_maps_inside_lists_and_tuples_read_back() -> None:
    fields = {"pair": ({"seat": 1, "type": "pass"}, [{"kind": "draw", "value": "c"}]),
              "lists": [[{"seat": 2, "type": "end_turn"}], [], [[]]]}
    assert MsgpackTranscoder().decode(MsgpackTranscoder().encode(fields)) == fields


def test_the_same_keys_in_another_order_are_a_map_that_keeps_its_order() -> None:
    reordered = {"type": "end_turn", "seat": 2}
    back = MsgpackTranscoder().decode(MsgpackTranscoder().encode({"action": reordered}))
    assert list(back["action"].items()) == list(reordered.items())


def test_the_shapes_of_format_3_never_change() -> None:
    # format 3 records read only with exactly this table: a longer one is a new format
    assert hashlib.sha256(msgpack.packb(SHAPES_OF_FORMAT_3)).hexdigest() == (
        "a3ce832f4b395c48455089487f13e7fcb2c8f8d9e456a32684033bdb7b19a02a")


def test_format_7_reads_format_3s_shapes_then_its_own() -> None:
    assert SHAPES[:len(SHAPES_OF_FORMAT_3)] == SHAPES_OF_FORMAT_3
    assert SHAPES[len(SHAPES_OF_FORMAT_3):] == (("id", "name", "role"),)


def test_every_shipped_game_declares_its_stored_shapes_beside_it() -> None:
    assert set(GAMES_WITH_SHAPES) == set(SHIPPED)
    for game in GAMES_WITH_SHAPES:
        assert (ROOT / "engine" / game / "data" / "stored_shapes.json").is_file()


def _fields_of_package(package: str) -> list[list[str]]:
    """The field names, in order, of every dataclass and pydantic model of ``engine.<package>``,
    and the values of its enumerations (a map keyed by them, such as Kami's colours)."""
    found = []
    for module in pkgutil.iter_modules(importlib.import_module(f"engine.{package}").__path__):
        loaded = importlib.import_module(f"engine.{package}.{module.name}")
        for item in vars(loaded).values():
            if not inspect.isclass(item) or item.__module__ != loaded.__name__:
                continue
            if dataclasses.is_dataclass(item):
                found.append([f.name for f in dataclasses.fields(item)])
            elif issubclass(item, BaseModel):
                found.append(list(item.model_fields))
            elif issubclass(item, Enum):
                found.append([str(member.value) for member in item])
    return found


def _in_order(keys: tuple[str, ...], fields: list[str]) -> bool:
    remaining = iter(fields)
    return all(key in remaining for key in keys)


@pytest.mark.parametrize("game", GAMES_WITH_SHAPES)
def test_a_games_stored_shapes_are_the_fields_of_its_own_models(game: str) -> None:
    # a shape is some model's fields in order (fields left out are those a record drops
    # when empty), so a game's shapes file cannot describe another game's records
    models = _fields_of_package(game) + _fields_of_package("core")
    strays = {index: keys for index, keys in game_shapes(game).items()
              if not any(_in_order(keys, fields) for fields in models)}
    assert not strays


def test_shapes_are_composed_only_when_every_owner_agrees_and_none_is_missing() -> None:
    assert compose_shapes({0: ("a",)}, {0: ("a",), 1: ("b", "c")}) == (("a",), ("b", "c"))
    with pytest.raises(ValueError, match="declared as"):
        compose_shapes({0: ("a",)}, {0: ("b",)})
    with pytest.raises(ValueError, match=r"\[1\] are declared nowhere"):
        compose_shapes({0: ("a",)}, {2: ("b",)})


def test_a_record_of_an_unknown_format_or_damaged_is_refused() -> None:
    stored = MsgpackTranscoder().encode({"hash": HASH})
    with pytest.raises(UnknownStorageFormat):
        MsgpackTranscoder().decode(bytes([10]) + stored[1:])
    with pytest.raises(UnknownStorageFormat):
        MsgpackTranscoder().decode(stored[:1] + b"\xff" * 8)


def test_the_dictionary_of_format_2_never_changes() -> None:
    # format 2 records read only with these exact bytes: a better dictionary is a new format
    assert hashlib.sha256(DICTIONARY).hexdigest() == (
        "87f18c4ff3892d278c82851c78a995e79ea688ca356f59d03e00d972ade6dd25")
    assert msgpack.unpackb(msgpack.packb("organizer")) == "organizer"


def test_a_long_match_stores_under_half_of_what_format_1_did(tmp_path: Path) -> None:
    long_match(tmp_path, 200)
    con = sqlite3.connect(tmp_path / "long.db")
    try:
        stored = [bytes(row[0]) for row in con.execute("SELECT state FROM stored_events "
                                                       "WHERE topic = ?",
                                                       (stored_topic("kiroku:ActionRecorded/1"),))]
    finally:
        con.close()
    compact = sum(map(len, stored))
    plain = sum(len(_pack(MsgpackTranscoder().decode(blob))) + 1 for blob in stored)
    assert len(stored) == 200 and compact * 2 < plain


def test_a_long_match_stores_at_most_200_bytes_an_action(tmp_path: Path) -> None:
    """Issue 16's storage target, events and snapshots together, on the benchmark's
    2,000-action match (bench/bench.py prints the same figure)."""
    long_match(tmp_path, 2000)
    events, snapshots, actions = stored_bytes(tmp_path / "long.db")
    assert actions == 2000 and (events + snapshots) / actions <= 200
