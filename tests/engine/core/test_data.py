"""The one-walk canonical form (engine.core.data.canonical_data) and the digests built on it.

``canonical_data(x)`` must be exactly ``canonical(to_data(x))`` — same types, same key order —
for every state of random playouts of every game and for made-up awkward values; and
``Ruleset.digest`` / ``legacy_digest`` must give the hex the two-walk formula gave, or every
recorded match would stop verifying.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import hashlib
from collections.abc import ItemsView, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from engine import GameState, games
from engine.core.contract import Ruleset, _without_empty_late_fields, replace_state
from engine.core.data import (
    _from_data_by_hints,
    canonical,
    canonical_data,
    canonical_digest,
    digest,
    from_data,
    to_data,
)
from tests.support import playout
from tests.toygame import BlindBid

RULESETS = [*games(), BlindBid()]
SEEDS = range(3)


def _exact(value: Any) -> Any:
    """``value`` with its types and dict key order made part of equality (``==`` on dicts
    ignores order, and ``1 == 1.0 == True``)."""
    if isinstance(value, dict):
        return (type(value), [(_exact(k), _exact(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value), [_exact(x) for x in value])
    return (type(value), value)


def _assert_same(value: Any) -> None:
    assert _exact(canonical_data(value)) == _exact(canonical(to_data(value)))


def _old_digest(ruleset: Ruleset, state: GameState) -> str:
    """``Ruleset.digest`` as it was computed before the one-walk form."""
    packed = msgpack.packb(canonical(ruleset.position(state)), use_bin_type=True)
    return f"p{ruleset.position_format}:{hashlib.sha256(packed).hexdigest()}"


def _old_legacy_digest(state: GameState) -> str:
    """``Ruleset.legacy_digest`` as it was computed before the one-walk form."""
    return digest(_without_empty_late_fields(state))


@pytest.fixture(scope="module", params=RULESETS, ids=lambda r: r.game_id)
def ruleset(request: pytest.FixtureRequest) -> Ruleset:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def states(ruleset: Ruleset) -> list[GameState]:
    """Every state of a few random playouts, at the fewest and the most players."""
    counts = sorted({ruleset.min_players, ruleset.max_players})
    return [s for seed in SEEDS for n in counts for s in playout(ruleset, seed, n)["states"]]


# ----- game states ---------------------------------------------------------------------------
def test_every_state_decodes_as_its_type_hints_read_at_every_value_decode_it(
        ruleset: Ruleset, states: list[GameState]) -> None:
    for state in states:
        data = to_data(state)
        decoded = from_data(ruleset.state_class, data)
        assert _exact(to_data(decoded)) == _exact(to_data(_from_data_by_hints(
            ruleset.state_class, data)))
        assert decoded == state


def test_canonical_data_of_every_state_is_canonical_of_to_data(states: list[GameState]) -> None:
    for state in states:
        for f in dataclasses.fields(state):
            if f.name not in state.shared_fields:
                _assert_same(getattr(state, f.name))
    # whole states, card definitions (pydantic models, the same all match long) included
    for state in states[::40]:
        _assert_same(state)


def test_digests_are_those_of_the_two_walk_formula(ruleset: Ruleset,
                                                   states: list[GameState]) -> None:
    for state in states:
        assert ruleset.digest(state) == _old_digest(ruleset, state)
    for state in states[::10]:  # the legacy digest covers the card definitions too: slow
        assert ruleset.legacy_digest(state) == _old_legacy_digest(state)


def test_late_fields_are_left_out_only_while_empty(ruleset: Ruleset,
                                                   states: list[GameState]) -> None:
    late = [f for f in dataclasses.fields(states[0]) if f.name in states[0].late_fields]
    for f in late:
        for state in states[::25]:
            empty = replace_state(state, **{f.name: type(getattr(state, f.name))()})
            assert ruleset.digest(empty) == _old_digest(ruleset, empty)
            assert ruleset.legacy_digest(empty) == _old_legacy_digest(empty)
            assert f.name not in ruleset.position(empty)
            sample = [2, 1] if isinstance(getattr(state, f.name), list) else {2: "x", 1: "y"}
            full = replace_state(state, **{f.name: sample})
            assert ruleset.digest(full) == _old_digest(ruleset, full) != ruleset.digest(empty)
            assert ruleset.legacy_digest(full) == _old_legacy_digest(full)


class _PositionOverridden(BlindBid):
    """A game whose position is not the default one (as after a state refactor)."""

    def position(self, state: GameState) -> dict[str, Any]:
        data = super().position(state)
        data["renamed"] = data.pop("turn")
        return data


def test_an_overridden_position_is_the_one_digested() -> None:
    rules, plain = _PositionOverridden(), BlindBid()
    for state in playout(plain, 0)["states"][::5]:
        assert rules.digest(state) == _old_digest(rules, state) != plain.digest(state)


# ----- awkward values ------------------------------------------------------------------------
class Colour(enum.Enum):
    RED = "red"


class Rank(enum.IntEnum):
    ACE = 1


class Model(BaseModel):
    name: str
    tags: tuple[str, ...] = ()
    by_seat: dict[int, int] = {}
    colour: Colour = Colour.RED


@dataclass
class Leaf:
    zeta: int
    alpha: tuple[int, ...]
    mid: dict[Any, Any]


@dataclass(frozen=True)
class Node:
    name: str
    children: list[Leaf] = field(default_factory=list)
    model: Model | None = None
    b: None = None


@dataclass
class Empty:
    pass


class Pair(NamedTuple):
    right: int
    left: str


class ItemsOverridden(dict[Any, Any]):
    """A dict subclass whose items() is not its storage: to_data reads items()."""

    def items(self) -> ItemsView[Any, Any]:
        return {k: f"via-items-{v}" for k, v in super().items()}.items()


class Listish(list[Any]):
    def __iter__(self) -> Iterator[Any]:
        return reversed(list(super().__iter__()))


@dataclass
class DictDataclass(dict[str, Any]):
    """A dataclass that is also a dict: to_data takes its fields, not its items."""

    z: int = 1
    a: int = 2


AWKWARD: list[Any] = [
    None, 0, 1.5, True, "s", b"\x00",
    {3: "c", 1: "a", 10: "ten", 2: "b"},  # int keys sort as strings: 1, 10, 2, 3
    {"b": 1, 2: "two", "1": "str one", 1: "int one", "a": None},  # ties keep insertion order
    {1: "int one", "1": "str one"},
    {(2, 1): "tuple key", (1, 2): [1, (2, 3)], None: "none key"},
    (1, (2, (3, [4, {"z": (5,)}]))),
    [[], {}, (), [{}], Empty()],
    Leaf(zeta=1, alpha=(3, 2), mid={"y": Leaf(0, (), {}), "x": [Node("n")]}),
    Node("root", [Leaf(2, (1,), {5: Model(name="m", by_seat={2: 1, 1: 2})})],
         Model(name="top", tags=("b", "a"))),
    Model(name="alone"),
    [Model(name="in list"), {"k": Model(name="in dict")}],
    Empty(),
    Colour.RED, Rank.ACE, {Rank.ACE: Colour.RED},
    Pair(1, "x"), {"p": [Pair(2, "y")]},
    collections.OrderedDict([("b", 1), ("a", (2,))]),
    collections.defaultdict(list, {2: [1], 1: [(2,)]}),
    ItemsOverridden({"b": 1, "a": 2}),
    Listish([1, (2,), {"b": 1, "a": 2}]),
    DictDataclass(z=3, a=4),
    {"f": frozenset({1}), "s": {2}, "o": object},
]


@pytest.mark.parametrize("value", AWKWARD, ids=lambda v: type(v).__name__)
def test_canonical_data_of_awkward_values_is_canonical_of_to_data(value: Any) -> None:
    _assert_same(value)


KEYS = st.one_of(st.integers(-20, 20), st.text(max_size=3), st.booleans(), st.none())
PLAIN = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.floats(allow_nan=False),
              st.text(max_size=5), st.binary(max_size=3)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(KEYS, inner, max_size=5),
        st.builds(Leaf, st.integers(0, 9), st.lists(st.integers(0, 9), max_size=3).map(tuple),
                  st.dictionaries(KEYS, inner, max_size=3)),
        st.builds(Node, st.text(max_size=3), st.lists(st.builds(Leaf, st.integers(0, 9),
                                                                st.just(()), st.just({})),
                                                      max_size=2)),
    ),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(PLAIN)
def test_canonical_data_is_canonical_of_to_data_on_generated_values(value: Any) -> None:
    _assert_same(value)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(KEYS, PLAIN, max_size=6))
def test_canonical_digest_of_canonical_data_is_the_digest(value: dict[Any, Any]) -> None:
    assert canonical_digest(canonical_data(value)) == digest(to_data(value))


class Renamed(str):
    """A str key whose ``str()`` is another text: keys are ordered by ``str()``."""

    def __str__(self) -> str:
        return "~" + self[::-1]


@pytest.mark.parametrize("value", [
    {"b": 1, "a": 2, "B": 3, "é": 4, "": 5, "a\x00": 6, "\U0001f600": 7},
    {Renamed("ab"): 1, Renamed("ba"): 2, "zz": 3},
    {"a": 0, Renamed("ab"): 1, "zz": 3},  # plain text first, then a key that is not
    {Colour.RED: 1, "blue": 2, Rank.ACE: 3},
    {"1": 1, 1: 2, "0": 3, None: 4, (0, "a"): 5},
    {10: 1, 9: 2, 100: 3},  # numbers: "10" before "9"
], ids=["str", "str-subclass", "str-then-subclass", "enums", "mixed", "numbers"])
def test_keys_are_ordered_by_their_str(value: dict[Any, Any]) -> None:
    """Every key a str or not, the canonical order is ``sorted(keys, key=str)``, stable."""
    assert list(canonical(value)) == sorted(value, key=str)
    assert list(canonical_data(value)) == sorted(value, key=str)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.one_of(st.text(max_size=4), KEYS), st.none(), max_size=8))
def test_generated_keys_are_ordered_by_their_str(value: dict[Any, Any]) -> None:
    assert list(canonical(value)) == sorted(value, key=str)
    assert list(canonical_data(value)) == sorted(value, key=str)


# ----- decoding plain data (from_data) -------------------------------------------------------
@dataclass
class _Node:
    """A type that holds itself, optional values, unions, and lists of lists."""

    name: str
    children: list[_Node] = field(default_factory=list)
    parent: _Node | None = None
    tags: dict[str, list[int]] = field(default_factory=dict)
    either: int | str = 0
    grid: list[list[_Node | None]] = field(default_factory=list)


_NODE_DATA: list[dict[str, Any]] = [
    {"name": "root"},
    {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}],
     "parent": {"name": "p", "parent": None}, "tags": {"x": [1, 2], "y": []},
     "either": "s", "grid": [[None, {"name": "g"}], []]},
    {"name": "n", "children": None, "tags": None, "grid": [None]},
]


@pytest.mark.parametrize("data", _NODE_DATA)
def test_from_data_gives_what_the_type_hints_read_at_every_value_give(
        data: dict[str, Any]) -> None:
    kept = from_data(_Node, data)
    assert kept == _from_data_by_hints(_Node, data)
    assert _exact(to_data(kept)) == _exact(to_data(_from_data_by_hints(_Node, data)))


def test_from_data_rebuilds_a_type_that_holds_itself() -> None:
    node = from_data(_Node, _NODE_DATA[1])
    assert node.children[0].children[0] == _Node("c")
    assert node.parent == _Node("p") and node.grid[0][1] == _Node("g")


def test_the_hints_read_at_every_value_give_a_tuple_hint_a_tuple() -> None:
    # the fallback for hints no decoder keeps reads tuple[X, ...] as the decoders do (which
    # read World Gainer's squares' cards): a tuple, its items rebuilt
    data = [{"name": "a"}, {"name": "b", "children": [{"name": "c"}]}]
    read = _from_data_by_hints(tuple[_Node, ...], data)
    assert type(read) is tuple and read == from_data(tuple[_Node, ...], data)
    assert read[1].children == [_Node("c")]
