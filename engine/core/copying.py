"""Cheap copies of engine states: a structural copier compiled once per type from its type hints.

``Ruleset.apply`` hands the game a private copy of the state to mutate. ``copy.deepcopy`` makes
that copy generically (a memo, a dispatch and a reduce per object); this module makes the same
copy from the state's type hints instead, compiled once per type into small closures:

- immutable values are shared: ``str``, ``int``, ``float``, ``bool``, ``bytes``, ``None``, enums,
  ``Literal`` values, frozen pydantic models, frozen dataclasses of immutable fields, and tuples
  and frozensets of immutable items (and unions of these);
- ``list[X]``, ``dict[K, V]`` and ``set[X]`` are rebuilt, items copied by X's (V's) copier, or
  by a plain ``.copy()`` where the items are immutable; keys are shared;
- dataclasses are rebuilt field by field; fields a class names in ``shared_fields`` (the frozen
  card definitions of a game state) are shared;
- ``Any`` (and unions of mutable types) are copied by the value's runtime type, as above; so is
  a value whose class is not the one its hint declares (a tuple where a list is declared, a
  subclass);
- anything else falls back to ``copy.deepcopy``: hints and classes it does not know (``set`` of
  mutable items, a list subclass, a plain class), and dataclass instances carrying more or fewer
  attributes than their fields.

Immutable leaves are trusted to be what their hints say (a list stored in a field typed ``str``
would be shared); tests/engine/core/test_copying.py walks real states of every game to check
that no mutable object is shared or aliased. Unlike ``deepcopy`` the copy does not preserve
aliasing inside a state: engine states hold none (storage does not either).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import functools
import sys
import threading
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

T = TypeVar("T")
Copier = Callable[[Any], Any]
"""Returns a copy of its argument that shares no mutable object with it."""

_ATOMIC: frozenset[type] = frozenset({str, int, float, bool, bytes, complex, type(None)})
_UNION_ORIGINS: tuple[Any, ...] = (Union, types.UnionType)

# hint -> finished copier; None means values of the hint are immutable and shared
_BY_HINT: dict[Any, Copier | None] = {}
# dataclasses being compiled (by the thread holding _LOCK) -> their placeholder
_PENDING: dict[type, Copier] = {}
_LOCK = threading.RLock()
# runtime class -> copier (for Any and unions); None means shared
_BY_CLASS: dict[type, Copier | None] = {}


def copy_state(obj: T) -> T:
    """A copy of ``obj`` (a game state, or any dataclass instance) that shares no mutable object
    with it, except the fields its class names in ``shared_fields``."""
    copier = copier_for(type(obj))
    return obj if copier is None else copier(obj)


def copier_for(hint: Any) -> Copier | None:
    """The copier of values of type ``hint``, compiled once; None when they are immutable."""
    try:
        return _BY_HINT[hint]
    except KeyError:
        pass
    except TypeError:  # an unhashable hint (Literal of a list, say): not cached
        return _compile(hint)
    with _LOCK:  # servers apply actions on several threads
        if hint in _BY_HINT:
            return _BY_HINT[hint]
        if hint in _PENDING:
            return _PENDING[hint]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            copier = _compile_dataclass(hint)
        else:
            copier = _compile(hint)
        _BY_HINT[hint] = copier
        return copier


def copy_any(value: Any) -> Any:
    """A copy of ``value`` by its runtime type (used for ``Any`` and unions of mutable types)."""
    cls = value.__class__
    if cls in _ATOMIC:
        return value
    try:
        copier = _BY_CLASS[cls]
    except KeyError:
        copier = _BY_CLASS[cls] = _compile_class(cls)
    return value if copier is None else copier(value)


# ----- compiling hints ------------------------------------------------------------------------
def _compile(hint: Any) -> Copier | None:
    """The copier of a hint that is not a dataclass (see the module docstring)."""
    if hint is None:  # as written in a hint, for NoneType
        return None
    if hint is Any or hint is object:
        return copy_any
    if isinstance(hint, type):
        return _compile_class(hint)
    origin, args = get_origin(hint), get_args(hint)
    if origin is typing.Annotated:
        return copier_for(args[0])
    if origin is Literal:
        return None if all(type(a) in _ATOMIC or isinstance(a, enum.Enum) for a in args) \
            else copy.deepcopy
    if origin in _UNION_ORIGINS:
        return _compile_union(args)
    if origin is list:
        return _list_copier(copier_for(args[0]) if args else copy_any)
    if origin is dict:
        return _dict_copier(copier_for(args[1]) if len(args) == 2 else copy_any)
    if origin is set:
        return _copy_flat_set if args and copier_for(args[0]) is None else copy.deepcopy
    if origin in (tuple, frozenset):
        items = [a for a in args if a is not Ellipsis]
        if items and all(copier_for(a) is None for a in items):
            return None
        return copy_any
    return copy.deepcopy


def _compile_class(cls: type) -> Copier | None:
    """The copier of a bare class (a hint without parameters, or a runtime type)."""
    if cls in _ATOMIC or issubclass(cls, enum.Enum):
        return None
    if dataclasses.is_dataclass(cls):
        return copier_for(cls)
    if issubclass(cls, BaseModel):
        return None if cls.model_config.get("frozen") else copy.deepcopy
    if cls is list:
        return _list_copier(copy_any)
    if cls is dict:
        return _dict_copier(copy_any)
    if cls in (tuple, frozenset):
        return _tuple_copier(cls)
    return copy.deepcopy


def _compile_union(args: tuple[Any, ...]) -> Copier | None:
    """``X | None`` copies by X's copier; other unions of mutable types by runtime type."""
    copiers = [copier_for(a) for a in args]
    if all(c is None for c in copiers):
        return None
    rest = [c for a, c in zip(args, copiers) if a is not type(None)]
    if len(rest) == 1 and len(args) == 2 and rest[0] is not None:
        return _optional_copier(rest[0])
    return copy_any


def _compile_dataclass(cls: type) -> Copier | None:
    """The copier of a dataclass (the caller holds ``_LOCK`` and caches it).

    While its fields compile the class has a placeholder, so that a class referring to itself
    compiles: it forwards to the finished copier (mutable classes) or deep-copies (frozen ones,
    which may turn out to be immutable and have no copier).
    """
    frozen = bool(cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    _PENDING[cls] = copy.deepcopy if frozen else _forwarder(cls)
    try:
        names, plan = _field_plan(cls)
    finally:
        del _PENDING[cls]
    if frozen and not plan:
        return None
    if any("__slots__" in vars(k) for k in cls.__mro__):
        return _slots_copier(cls, names, dict(plan))
    flat: list[tuple[str, type]] = []
    calls: list[tuple[str, Copier]] = []
    for name, copier in plan:
        inner = _OPTIONAL.get(copier, copier)  # the instance copier skips None itself
        if inner in _FLAT:
            flat.append((name, _FLAT[inner]))
        else:
            calls.append((name, inner))
    return _dict_instance_copier(cls, len(names), tuple(flat), tuple(calls))


def _field_plan(cls: type) -> tuple[list[str], list[tuple[str, Copier]]]:
    """A dataclass's field names, and the fields to copy (not shared) with their copiers.
    Fields without a resolvable hint are copied by their runtime type."""
    names = [f.name for f in dataclasses.fields(cls)]
    try:
        hints = _field_hints(cls, names)
    except (NameError, TypeError):
        hints = {}
    shared = set(getattr(cls, "shared_fields", ()))
    plan: list[tuple[str, Copier]] = []
    for name in names:
        copier = None if name in shared else copier_for(hints.get(name, Any))
        if copier is not None:
            plan.append((name, copier))
    return names, plan


def _field_hints(cls: type, names: list[str]) -> dict[str, Any]:
    """The type hints of the fields ``names`` of ``cls`` as ``typing.get_type_hints`` finds
    them (Annotated kept: the copier unwraps it), each annotation string evaluated in the
    module of the class that declares it, and once per process: the same few strings
    (``list[str]``) annotate many fields. Anything else (a name only a class body defines, a
    quoted name inside a hint) is left to ``typing.get_type_hints``."""
    wanted = set(names)
    hints: dict[str, Any] = {}
    try:
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).get("__annotations__", {}).items():
                if name in wanted:
                    hints[name] = _evaluate(value, klass.__module__) \
                        if isinstance(value, str) else value
    except Exception:  # the fallback raises what typing raises, as before
        return typing.get_type_hints(cls)
    if any(_unresolved(hint) for hint in hints.values()):
        return typing.get_type_hints(cls)
    return hints


@functools.cache
def _evaluate(annotation: str, module: str) -> Any:
    """An annotation string evaluated in ``module``'s namespace."""
    return eval(annotation, vars(sys.modules[module]))


def _unresolved(hint: Any) -> bool:
    """Whether a hint still holds a name as a string (a forward reference inside it)."""
    if isinstance(hint, str | typing.ForwardRef):
        return True
    return get_origin(hint) is not Literal and any(_unresolved(a) for a in get_args(hint))


# ----- copiers --------------------------------------------------------------------------------
# Per-call work is kept to a minimum: a container of immutable items is copied by its own C
# ``copy`` (inline in a dataclass's copier), items and values by ``map`` or a comprehension with
# the common cases (None, an atomic value) tested inline. Every copier first checks that the
# value is of the class its hint declares, and hands it to copy_any when not.
def _copy_flat_list(xs: Any) -> Any:
    return xs.copy() if xs.__class__ is list else copy_any(xs)


def _copy_flat_dict(d: Any) -> Any:
    return d.copy() if d.__class__ is dict else copy_any(d)


def _copy_flat_set(s: Any) -> Any:
    return s.copy() if s.__class__ is set else copy_any(s)


# copiers of containers of immutable items -> the container class
_FLAT: dict[Copier, type] = {_copy_flat_list: list, _copy_flat_dict: dict, _copy_flat_set: set}
# copiers of ``X | None`` -> X's copier
_OPTIONAL: dict[Copier, Copier] = {}


def _forwarder(cls: type) -> Copier:
    """The placeholder of a mutable dataclass being compiled: calls the finished copier (waiting
    for it when another thread is still compiling)."""
    def forward(value: Any) -> Any:
        copier = copier_for(cls)
        return value if copier is None else copier(value)
    return forward


def _dict_instance_copier(cls: type, fields: int, flat: tuple[tuple[str, Any], ...],
                          calls: tuple[tuple[str, Copier], ...]) -> Copier:
    """Instances keeping their fields in ``__dict__``: copy the dict (sharing immutable fields),
    then copy the containers of immutable items (``flat``: name, class) and call the copiers of
    the other mutable fields (None is left shared)."""
    new: Any = cls.__new__  # object.__new__ unless the class has its own
    # handing the instance its copied dict is cheapest, but a frozen dataclass (or any class
    # with its own __setattr__) refuses even ``__dict__``: those get theirs filled in
    plain = cls.__setattr__ is object.__setattr__
    if not flat and not calls:
        def copy_flat_instance(obj: Any) -> Any:
            old = obj.__dict__
            if obj.__class__ is not cls or len(old) != fields:
                return _odd_instance(obj, cls)
            made = new(cls)
            if plain:
                made.__dict__ = old.copy()
            else:
                made.__dict__.update(old)
            return made
        return copy_flat_instance

    def copy_instance(obj: Any) -> Any:
        old: dict[str, Any] = obj.__dict__
        if obj.__class__ is not cls or len(old) != fields:
            return _odd_instance(obj, cls)
        made = new(cls)
        if plain:
            made.__dict__ = state = old.copy()
        else:
            state = made.__dict__
            state.update(old)
        for name, kind in flat:
            value = old[name]
            state[name] = value.copy() if value.__class__ is kind else copy_any(value)
        for name, copier in calls:
            value = old[name]
            if value is not None:
                state[name] = copier(value)
        return made
    return copy_instance


def _slots_copier(cls: type, names: list[str], plan: dict[str, Copier]) -> Copier:
    """Instances of slotted dataclasses: set each field (bypassing a frozen ``__setattr__``)."""
    new: Any = cls.__new__
    steps = [(name, plan.get(name)) for name in names]

    def copy_instance(obj: Any) -> Any:
        if obj.__class__ is not cls:
            return _odd_instance(obj, cls)
        made = new(cls)
        try:
            for name, copier in steps:
                value = getattr(obj, name)
                object.__setattr__(made, name, value if copier is None else copier(value))
        except AttributeError:  # a field left unset
            return copy.deepcopy(obj)
        return made
    return copy_instance


def _odd_instance(obj: Any, cls: type) -> Any:
    """An instance that is not what the hint ``cls`` says: another class is copied by its own
    runtime type; a dataclass with attributes besides its fields (or missing one) deep-copied."""
    return copy_any(obj) if obj.__class__ is not cls else copy.deepcopy(obj)


def _list_copier(item: Copier | None) -> Copier:
    """The copier of ``list[X]`` given X's copier."""
    if item is None:
        return _copy_flat_list
    if item is copy_any:
        def copy_any_items(xs: Any) -> Any:
            if xs.__class__ is not list:
                return copy_any(xs)
            return [x if x.__class__ in _ATOMIC else copy_any(x) for x in xs]
        return copy_any_items
    inner = _OPTIONAL.get(item)
    if inner is not None:
        def copy_optional_items(xs: Any) -> Any:
            if xs.__class__ is not list:
                return copy_any(xs)
            return [x if x is None else inner(x) for x in xs]
        return copy_optional_items

    def copy_items(xs: Any) -> Any:
        return list(map(item, xs)) if xs.__class__ is list else copy_any(xs)
    return copy_items


def _dict_copier(value: Copier | None) -> Copier:
    """The copier of ``dict[K, V]`` given V's copier (keys are shared)."""
    if value is None:
        return _copy_flat_dict
    if value is copy_any:
        def copy_any_values(d: Any) -> Any:
            if d.__class__ is not dict:
                return copy_any(d)
            return {k: v if v.__class__ in _ATOMIC else copy_any(v) for k, v in d.items()}
        return copy_any_values
    inner = _OPTIONAL.get(value)
    if inner is not None:
        def copy_optional_values(d: Any) -> Any:
            if d.__class__ is not dict:
                return copy_any(d)
            return {k: v if v is None else inner(v) for k, v in d.items()}
        return copy_optional_values

    def copy_values(d: Any) -> Any:
        return dict(zip(d, map(value, d.values()))) if d.__class__ is dict else copy_any(d)
    return copy_values


def _tuple_copier(cls: type) -> Copier:
    """Tuples and frozensets found at run time: shared when every item is, else rebuilt."""
    def copy_items(xs: Any) -> Any:
        items = [copy_any(x) for x in xs]
        if all(a is b for a, b in zip(items, xs)):
            return xs
        return cls(items)
    return copy_items


def _optional_copier(item: Copier) -> Copier:
    """The copier of ``X | None`` given X's copier."""
    def copy_optional(value: Any) -> Any:
        return None if value is None else item(value)
    _OPTIONAL[copy_optional] = item
    return copy_optional
