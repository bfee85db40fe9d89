"""msgpack storage encoding for eventsourcing (a custom Transcoder).

Every stored record starts with one format byte (``FORMAT``) so the encoding can evolve: a reader
meeting an unknown format byte fails loudly instead of misreading. Extension types keep UUIDs,
datetimes, tuples and engine states exact.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import msgpack
from eventsourcing.persistence import Transcoder

from engine.core.contract import GameState
from engine.registry import get_game

FORMAT = 1
_UUID, _DATETIME, _TUPLE, _STATE = 1, 2, 3, 4


class UnknownStorageFormat(ValueError):
    """A stored record was written in a format this version cannot read."""


def _default(obj: Any) -> msgpack.ExtType:
    if isinstance(obj, uuid.UUID):
        return msgpack.ExtType(_UUID, obj.bytes)
    if isinstance(obj, datetime):
        return msgpack.ExtType(_DATETIME, obj.isoformat().encode())
    if isinstance(obj, tuple):
        return msgpack.ExtType(_TUPLE, _pack(list(obj)))
    if isinstance(obj, GameState):
        data = get_game(obj.game).state_to_data(obj)
        return msgpack.ExtType(_STATE, _pack([obj.game, data]))
    raise TypeError(f"cannot store a {type(obj).__name__} with the msgpack transcoder")


def _ext_hook(code: int, data: bytes) -> Any:
    if code == _UUID:
        return uuid.UUID(bytes=data)
    if code == _DATETIME:
        return datetime.fromisoformat(data.decode())
    if code == _TUPLE:
        return tuple(_unpack(data))
    if code == _STATE:
        game, state = _unpack(data)
        return get_game(game).state_from_data(state)
    return msgpack.ExtType(code, data)


def _pack(obj: Any) -> bytes:
    return msgpack.packb(obj, default=_default, use_bin_type=True, strict_types=True)


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, ext_hook=_ext_hook, raw=False, strict_map_key=False)


class MsgpackTranscoder(Transcoder):
    """eventsourcing Transcoder writing versioned msgpack."""

    def encode(self, obj: Any) -> bytes:
        """Encode an event's or snapshot's fields."""
        return bytes([FORMAT]) + _pack(obj)

    def decode(self, data: bytes) -> Any:
        """Decode what ``encode`` wrote."""
        if not data or data[0] != FORMAT:
            raise UnknownStorageFormat(f"stored record has format byte {data[:1]!r}, "
                                       f"this version reads {FORMAT}")
        return _unpack(data[1:])
