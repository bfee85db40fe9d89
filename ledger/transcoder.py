"""msgpack storage encoding for eventsourcing (a custom Transcoder).

Every stored record starts with one format byte so the encoding can evolve: a reader meeting an
unknown format byte fails loudly instead of misreading. Extension types keep UUIDs, datetimes,
tuples and engine states exact.

- Format 1: msgpack.
- Format 2 (written since issue 16): the same msgpack, with hashes and times in their binary
  form, compressed with raw deflate against a fixed dictionary of the events' own words
  (``DICTIONARY``). Each change is exactly reversible: a string is stored in binary form
  only if it reads back identical, so what is decoded, hashed and audited is what format 1
  gave. Both formats are read, so a store keeps its older records as they were.
"""

from __future__ import annotations

import re
import uuid
import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import msgpack
from eventsourcing.persistence import Transcoder

from engine.core.contract import GameState
from engine.registry import get_game

PLAIN, COMPACT = 1, 2
FORMAT = COMPACT  # what is written
_UUID, _DATETIME, _TUPLE, _STATE, _HEX, _INSTANT, _TIME = 1, 2, 3, 4, 5, 6, 7

# The words format 2 is compressed against: event fields and the five games' action and
# outcome vocabulary, taken from recorded matches of every game, the most frequent last
# (deflate reaches the end of its dictionary most cheaply). Format 2 records can only be read
# with exactly these bytes: never change this list; a better one is a new format.
WORDS = (
    "organizer", "judge", "head_judge", "table", "action.move.card", "outcomes.0.value", "name",
    "deck_out", "concede", "turn", "hand", "to_seat", "from_seat", "pass_battle", "keep_hand",
    "declare_victory", "to_zone", "play_force", "equip_option", "hidden", "teleport_unit",
    "mulligan", "seqs", "ap_card", "choose_group", "from_zone", "draw_card", "count", "top",
    "renew_deck", "adjust", "gear", "valor", "reveal_illuminati", "choose_illuminati",
    "place_resource", "counter", "discard_to_limit", "reveal_groups", "turn_limit", "left",
    "rewards", "drawn", "agent", "losers", "detail", "heal", "winners", "set_territory", "stun",
    "shift_gear", "host", "instant_attack", "mode", "discard_stun", "gain", "champion",
    "summon_unit", "move_unit", "field", "attach", "crank_character", "reason", "answer_honour",
    "payment", "defender", "accept", "bottom", "discard_unplayable", "link", "cards",
    "challenge_honour", "end_action_phase", "slot", "play_combat_action", "attach_card",
    "claim", "answer_surrender", "exhaust_stun", "declare_attack", "resolve_combat",
    "place_domain", "challenge_mortal", "challenger", "draw_group", "take_quest_reward",
    "begin_main", "play_plot", "move", "play_whammy", "right", "group", "request_surrender",
    "draw_plot", "refresh_quest", "place_permanent", "file", "rank", "attempt_quest", "armour",
    "finish_combat", "unpaid", "quest", "auto_control", "pay", "global", "place_character",
    "deploy_warrior", "warrior", "defend", "character", "plot_draw", "end_operations", "parent",
    "plot", "control", "source", "roll_round", "pay_upkeep", "move_character", "group_draw",
    "from_others", "plots_to_bottom", "die", "generate_pull", "from_characters", "destroy",
    "support", "pay_attack", "draw", "abort_attack", "purpose", "arrow", "target", "end_turn",
    "attack", "card", "attacker", "end_phase", "attack_die", "power", "pass", "seq", "seat",
    "action", "type", "outcomes", "kind", "value", "chance_source", "seed", "digest",
    "recorded_by", "recorded_at", "prev_hash", "hash", "commitments", "timestamp",
    "class_version",
)
DICTIONARY = b"".join(msgpack.packb(word) for word in WORDS)

# A hash or digest in hex: 64 lowercase digits, after a label of up to 15 characters (``p1:``);
# an instant as ``recorded_at`` writes it (ledger.recorder.now).
_HEX_DIGITS = re.compile(r"[0-9a-f]{64}")
_NOW = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}\+00:00")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# One compressor with the dictionary loaded, copied for each record (a 4 KiB window: records
# are small, and loading the dictionary afresh each time cost more than compressing)
_DEFLATER = zlib.compressobj(6, zlib.DEFLATED, -12, 5, zlib.Z_DEFAULT_STRATEGY, DICTIONARY)


class UnknownStorageFormat(ValueError):
    """A stored record was written in a format this version cannot read."""


def _micros(moment: datetime) -> bytes:
    return ((moment - _EPOCH) // timedelta(microseconds=1)).to_bytes(8, "big", signed=True)


def _moment(data: bytes) -> datetime:
    return _EPOCH + timedelta(microseconds=int.from_bytes(data, "big", signed=True))


def _compact_text(text: str) -> Any:
    """A string in its binary form where it has one (each reads back identical)."""
    size = len(text)
    if 64 <= size <= 79:
        if _HEX_DIGITS.fullmatch(text, size - 64):
            return msgpack.ExtType(_HEX, text[:-64].encode() + bytes.fromhex(text[-64:]))
    elif size == 32 and text[10] == "T" and _NOW.fullmatch(text):
        digits = (text[0:4] + text[5:7] + text[8:10] + text[11:13] + text[14:16]
                  + text[17:19] + text[20:26])
        return msgpack.ExtType(_TIME, int(digits).to_bytes(9, "big"))
    return text


def _time_text(data: bytes) -> str:
    """The ``recorded_at`` string whose digits ``_compact_text`` kept."""
    d = f"{int.from_bytes(data, 'big'):020d}"
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}.{d[14:20]}+00:00"


def _compact(obj: Any) -> Any:
    """``obj`` with its strings in binary form where they have one (map keys stay text)."""
    kind = type(obj)
    if kind is str:
        return _compact_text(obj)
    if kind is dict:
        return {key: _compact(value) for key, value in obj.items()}
    if kind is list:
        return [_compact(item) for item in obj]
    return obj


def _default(obj: Any, compact: bool) -> msgpack.ExtType:
    if isinstance(obj, uuid.UUID):
        return msgpack.ExtType(_UUID, obj.bytes)
    if isinstance(obj, datetime):
        if compact and obj.tzinfo is UTC:
            return msgpack.ExtType(_INSTANT, _micros(obj))
        return msgpack.ExtType(_DATETIME, obj.isoformat().encode())
    if isinstance(obj, tuple):
        return msgpack.ExtType(_TUPLE, _pack(list(obj), compact))
    if isinstance(obj, GameState):
        data = get_game(obj.game).state_to_data(obj)
        return msgpack.ExtType(_STATE, _pack([obj.game, data], compact))
    raise TypeError(f"cannot store a {type(obj).__name__} with the msgpack transcoder")


def _default_plain(obj: Any) -> msgpack.ExtType:
    return _default(obj, False)


def _default_compact(obj: Any) -> msgpack.ExtType:
    return _default(obj, True)


def _tuple(data: bytes) -> tuple[Any, ...]:
    return tuple(_unpack(data))


def _state(data: bytes) -> GameState:
    game, state = _unpack(data)
    return get_game(game).state_from_data(state)


def _hex_text(data: bytes) -> str:
    return data[:-32].decode() + data[-32:].hex()


_READERS: dict[int, Callable[[bytes], Any]] = {
    _HEX: _hex_text, _TIME: _time_text, _INSTANT: _moment,
    _UUID: lambda data: uuid.UUID(bytes=data),
    _DATETIME: lambda data: datetime.fromisoformat(data.decode()),
    _TUPLE: _tuple, _STATE: _state,
}


def _ext_hook(code: int, data: bytes) -> Any:
    reader = _READERS.get(code)
    return msgpack.ExtType(code, data) if reader is None else reader(data)


def _pack(obj: Any, compact: bool = False) -> bytes:
    if compact:
        return msgpack.packb(_compact(obj), default=_default_compact, use_bin_type=True,
                             strict_types=True)
    return msgpack.packb(obj, default=_default_plain, use_bin_type=True, strict_types=True)


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, ext_hook=_ext_hook, raw=False, strict_map_key=False)


def _deflate(data: bytes) -> bytes:
    packer = _DEFLATER.copy()
    return packer.compress(data) + packer.flush()


def _inflate(data: bytes) -> bytes:
    unpacker = zlib.decompressobj(-15, zdict=DICTIONARY)
    return unpacker.decompress(data) + unpacker.flush()


def payload(data: bytes) -> bytes:
    """The msgpack of a stored record, whatever its format (for tools and tests that look at
    or change stored bytes; format 1 holds what is returned, after its format byte)."""
    if data[:1] == bytes([PLAIN]):
        return data[1:]
    if data[:1] == bytes([COMPACT]):
        try:
            return _inflate(data[1:])
        except zlib.error as exc:
            raise UnknownStorageFormat(f"stored record in format 2 does not inflate: "
                                       f"{exc}") from None
    raise UnknownStorageFormat(f"stored record has format byte {data[:1]!r}, this version "
                               f"reads {PLAIN} and {COMPACT}")


class MsgpackTranscoder(Transcoder):
    """eventsourcing Transcoder writing versioned msgpack (format 2, compact)."""

    def encode(self, obj: Any) -> bytes:
        """Encode an event's or snapshot's fields."""
        return bytes([COMPACT]) + _deflate(_pack(obj, compact=True))

    def decode(self, data: bytes) -> Any:
        """Decode what ``encode`` wrote, or a record of format 1."""
        return _unpack(payload(data))
