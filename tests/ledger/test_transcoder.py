"""The storage encoding (ledger.transcoder): format 2 is compact and exactly reversible, and a
store's format 1 records still read."""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack
import pytest

from ledger.transcoder import (
    DICTIONARY,
    PLAIN,
    MsgpackTranscoder,
    UnknownStorageFormat,
    _pack,
    payload,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench import long_match  # noqa: E402

HASH = hashlib.sha256(b"kiroku").hexdigest()
AWKWARD = [
    HASH, f"p1:{HASH}", HASH.upper(), HASH + "0", HASH[:-1], f"{'x' * 16}{HASH}",
    f"é:{HASH}", f"\n{HASH}",
    "2026-11-21T19:49:33.381742+00:00", "2026-02-30T19:49:33.381742+00:00",
    "2026-11-21T19:49:33.381742+01:00", "2026-11-21T19:49:33+00:00",
    "0001-01-01T00:00:00.000000+00:00", "9999-12-31T23:59:59.999999+00:00", "", "end_turn",
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


def test_a_record_of_an_unknown_format_or_damaged_is_refused() -> None:
    stored = MsgpackTranscoder().encode({"hash": HASH})
    with pytest.raises(UnknownStorageFormat):
        MsgpackTranscoder().decode(bytes([9]) + stored[1:])
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
                                                       "WHERE topic LIKE '%ActionRecorded%'")]
    finally:
        con.close()
    compact = sum(map(len, stored))
    plain = sum(len(_pack(MsgpackTranscoder().decode(blob))) + 1 for blob in stored)
    assert len(stored) == 200 and compact * 2 < plain
