"""Plain-data conversion of engine states and the canonical state digest.

States are dataclasses; ``to_data`` turns one into plain dicts, lists and scalars, ``from_data``
rebuilds it from its type hints. The digest is the SHA-256 of the canonical msgpack encoding
(dict keys sorted), so equal states always give equal digests on every machine.
"""

from __future__ import annotations

import dataclasses
import hashlib
import types
import typing
from typing import Any, TypeVar, Union, get_args, get_origin

import msgpack
from pydantic import BaseModel

T = TypeVar("T")


_SCALARS = frozenset({str, int, float, bool, bytes, type(None)})
SCALAR_TYPES = _SCALARS  # the types canonical forms keep as they are (exact types only)
# per class: its dataclass field names, or None for a class that is not a dataclass
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _fields_of(cls: type) -> tuple[str, ...] | None:
    if cls not in _FIELDS:
        _FIELDS[cls] = (tuple(f.name for f in dataclasses.fields(cls))
                        if dataclasses.is_dataclass(cls) else None)
    return _FIELDS[cls]


# per class: the same names sorted, as the canonical encoding orders them
_SORTED_FIELDS: dict[type, tuple[str, ...] | None] = {}


def sorted_fields_of(cls: type) -> tuple[str, ...] | None:
    """The dataclass field names of ``cls`` in canonical (sorted) order, or None for a class
    that is not a dataclass."""
    if cls not in _SORTED_FIELDS:
        names = _fields_of(cls)
        _SORTED_FIELDS[cls] = None if names is None else tuple(sorted(names))
    return _SORTED_FIELDS[cls]


def to_data(obj: Any) -> Any:
    """Recursively convert dataclasses, tuples and dicts into plain msgpack-able data."""
    cls = type(obj)
    if cls in _SCALARS:
        return obj
    if cls is list or cls is tuple:
        return [to_data(x) for x in obj]
    if cls is dict:
        return {k: to_data(v) for k, v in obj.items()}
    names = _fields_of(cls)
    if names is not None:
        return {name: to_data(getattr(obj, name)) for name in names}
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, (list, tuple)):
        return [to_data(x) for x in obj]
    if isinstance(obj, dict):
        return {k: to_data(v) for k, v in obj.items()}
    return obj


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def from_data(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` (dataclass, list[X], tuple[X, ...], dict[K, V], X | None)
    from plain data."""
    try:
        decode = _DECODERS[tp]
    except KeyError:
        made: dict[Any, Decoder] = {}
        decode = _decoder(tp, made)
        _DECODERS.update(made)  # only whole: another thread never finds one half made
    except TypeError:  # a type that cannot be a key: read it as it comes
        return _from_data_by_hints(tp, data)
    return decode(data)


Decoder = typing.Callable[[Any], Any]
# per type: its decoder, which does what ``_from_data_by_hints`` does for that type with the
# type's hints read once (issue 16: reading them at every value was half of decoding a state)
_DECODERS: dict[Any, Decoder] = {}


def _as_is(data: Any) -> Any:
    return data


def _decoder(tp: Any, made: dict[Any, Decoder]) -> Decoder:
    """The decoder of ``tp``, kept or put in ``made`` with those of the types it holds (a
    dataclass's before its fields', so that a type that holds itself finds its own)."""
    if tp in _DECODERS:
        return _DECODERS[tp]
    if tp in made:
        return made[tp]
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        decode = _decoder(args[0], made) if len(args) == 1 else _as_is
    elif origin is list:
        decode = _list_decoder(tp, made)
    elif origin is tuple:
        decode = _tuple_decoder(tp, made)
    elif origin is dict:
        decode = _dict_decoder(tp, made)
    elif isinstance(tp, type) and issubclass(tp, BaseModel):
        decode = _model_decoder(tp)
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp):
        decode = _dataclass_decoder(tp, made)
    else:
        decode = _as_is
    made[tp] = decode
    return decode


def _list_decoder(tp: Any, made: dict[Any, Decoder]) -> Decoder:
    (item,) = get_args(tp)
    each = _decoder(item, made)
    if each is _as_is:
        return lambda data: None if data is None else [x for x in data]
    return lambda data: None if data is None else [
        None if x is None else each(x) for x in data]


def _tuple_decoder(tp: Any, made: dict[Any, Decoder]) -> Decoder:
    """``tuple[X, ...]`` (a frozen value's items, stored as a list); a tuple of other shape is
    read as it is."""
    args = get_args(tp)
    if len(args) != 2 or args[1] is not Ellipsis:
        return _as_is
    each = _decoder(args[0], made)
    if each is _as_is:
        return lambda data: None if data is None else tuple(data)
    return lambda data: None if data is None else tuple(
        None if x is None else each(x) for x in data)


def _dict_decoder(tp: Any, made: dict[Any, Decoder]) -> Decoder:
    _, value = get_args(tp)
    each = _decoder(value, made)
    if each is _as_is:
        return lambda data: None if data is None else {k: v for k, v in data.items()}
    return lambda data: None if data is None else {
        k: None if v is None else each(v) for k, v in data.items()}


def _model_decoder(tp: type[BaseModel]) -> Decoder:
    return lambda data: None if data is None else tp.model_validate(data)


def _dataclass_decoder(tp: type, made: dict[Any, Decoder]) -> Decoder:
    fields: list[tuple[str, Decoder]] = []

    def decode(data: Any) -> Any:
        if data is None:
            return None
        return tp(**{name: each(data[name]) for name, each in fields if name in data})

    made[tp] = decode  # before its fields: one of them may hold this type
    hints = _hints(tp)
    fields.extend((f.name, _decoder(hints[f.name], made)) for f in dataclasses.fields(tp))
    return decode


def _from_data_by_hints(tp: Any, data: Any) -> Any:
    """``from_data`` read from ``tp``'s hints at every value (for a type no decoder keeps)."""
    if data is None:
        return None
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        return from_data(args[0], data) if len(args) == 1 else data
    if origin is list:
        (item,) = get_args(tp)
        return [from_data(item, x) for x in data]
    if origin is tuple and len(get_args(tp)) == 2 and get_args(tp)[1] is Ellipsis:
        return tuple(from_data(get_args(tp)[0], x) for x in data)
    if origin is dict:
        _, value = get_args(tp)
        return {k: from_data(value, v) for k, v in data.items()}
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp.model_validate(data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {f.name: from_data(hints[f.name], data[f.name])
                  for f in dataclasses.fields(tp) if f.name in data}
        return tp(**kwargs)
    return data


def _sorted_dict(data: dict[Any, Any], walk: typing.Callable[[Any], Any]) -> dict[Any, Any]:
    """``data`` with its keys in canonical order (by their ``str()``) and each value that is
    not a scalar through ``walk``: the dict branch of both canonical walks.

    Plain ``str`` keys are sorted as they compare, which is their ``str()`` order, without a
    call of ``str`` each (a third of the time sorting them took; most dicts of positions and
    records have only those). The moment the walk meets any other key (a seat number, a
    ``StrEnum``, a ``str`` subclass), or when the keys do not compare at all (text beside
    numbers), the dict is ordered by ``str()`` instead."""
    out: dict[Any, Any] = {}
    try:
        keys = sorted(data)
    except TypeError:
        keys = [None]
    for key in keys:
        if type(key) is not str:
            return {k: v if type(v) in _SCALARS else walk(v)
                    for k, v in ((k, data[k]) for k in sorted(data, key=str))}
        value = data[key]
        out[key] = value if type(value) in _SCALARS else walk(value)
    return out


def canonical(data: Any) -> Any:
    """Sort dict keys recursively so the encoding does not depend on insertion order."""
    cls = type(data)
    if cls in _SCALARS:
        return data
    # scalars inline, as canonical_data does: a call each was most of hashing an event
    if isinstance(data, dict):
        return _sorted_dict(data, canonical)
    if isinstance(data, (list, tuple)):
        return [x if type(x) in _SCALARS else canonical(x) for x in data]
    return data


def canonical_data(obj: Any) -> Any:
    """``canonical(to_data(obj))`` in one walk: plain data with every dict's keys sorted.

    The branches follow ``to_data``'s, in its order, so each kind of value (subclasses of
    dict and list included) converts as it does there."""
    cls = type(obj)
    if cls in _SCALARS:
        return obj
    if cls is list or cls is tuple:
        # scalars inline: most items are card ids and counters, a call each would dominate
        return [x if type(x) in _SCALARS else canonical_data(x) for x in obj]
    if cls is dict:
        return _sorted_dict(obj, canonical_data)
    names = _SORTED_FIELDS[cls] if cls in _SORTED_FIELDS else sorted_fields_of(cls)
    if names is not None:
        out = {}
        for name in names:
            value = getattr(obj, name)
            kind = type(value)
            if kind in _SCALARS:
                out[name] = value
            elif kind is list or kind is tuple:  # the list branch above, inline: most fields
                # are lists (a frozen value's are tuples)
                out[name] = [x if type(x) in _SCALARS else canonical_data(x) for x in value]
            else:
                out[name] = canonical_data(value)
        return out
    if isinstance(obj, BaseModel):
        return canonical(obj.model_dump(mode="json"))
    if isinstance(obj, (list, tuple)):
        return [canonical_data(x) for x in obj]
    if isinstance(obj, dict):
        # to_data reads a dict subclass through items(), which it may override
        return canonical_data({k: v for k, v in obj.items()})
    return canonical(to_data(obj))


def canonical_bytes(data: Any) -> bytes:
    """The canonical msgpack encoding of plain data."""
    return msgpack.packb(canonical(data), use_bin_type=True)


def digest(data: Any) -> str:
    """SHA-256 hex digest of the canonical msgpack encoding of ``data`` (a state's ``to_data``)."""
    return hashlib.sha256(canonical_bytes(data)).hexdigest()


def canonical_digest(data: Any) -> str:
    """``digest`` of data already in canonical form (a ``canonical_data`` result), which
    ``canonical`` would leave as it is: the same hex, without walking it again."""
    return hashlib.sha256(msgpack.packb(data, use_bin_type=True)).hexdigest()


def digest_format(recorded: str) -> int | None:
    """The position format of a recorded digest (``p2:...`` -> 2), or None for a legacy digest
    (a bare SHA-256 hex of the internal state, recorded before position digests existed)."""
    head, sep, _ = recorded.partition(":")
    if sep and head[:1] == "p" and head[1:].isascii() and head[1:].isdigit():
        return int(head[1:])
    return None
