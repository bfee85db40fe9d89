"""The structural state copier (engine.core.copying) that ``Ruleset.apply`` uses.

A copy must equal its original as plain data, share no mutable object with it (so mutating any
list, dict or dataclass of the copy never changes the original), and share the frozen card
definitions. Checked on every state of random playouts of every game, and on made-up dataclasses
for the hint forms the games do not use yet (and the deep-copy fallback).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import sys
import threading
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from engine import GameState, games, get_game
from engine.core import copying
from engine.core.contract import Ruleset, replace_state
from engine.core.copying import copier_for, copy_any, copy_state
from engine.core.data import from_data, to_data
from engine.core.holdings import Modifier
from engine.edge.model import CardClaim, EdgeState
from engine.grail.model import Claim as GrailClaim
from engine.grail.model import GrailAttempt, GrailState, HonourOffer
from engine.illuminati.model import Claim, IlluminatiState, Link
from tests.engine.test_conformance import playout

# (game, players): every game at its minimum, Illuminati also at four (attacks with support)
TABLES = [(g.game_id, g.min_players) for g in games()] + [("illuminati", 4)]
IMMUTABLE = (str, int, float, bool, bytes, type(None), enum.Enum)


def _mutables(value: Any, path: str = "state") -> Iterator[tuple[str, Any]]:
    """Every mutable object reachable from ``value`` (lists, dicts, sets, instances of dataclasses
    that are not frozen and of other classes), with its path; fields named in ``shared_fields``
    are not entered."""
    if isinstance(value, IMMUTABLE):
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            yield path, value
        shared = getattr(value, "shared_fields", ())
        for f in dataclasses.fields(value):
            if f.name not in shared:
                yield from _mutables(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (list, set)):
        yield path, value
        for i, item in enumerate(value):
            yield from _mutables(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _mutables(item, f"{path}[{key!r}]")
    elif isinstance(value, (tuple, frozenset)):
        for i, item in enumerate(value):
            yield from _mutables(item, f"{path}[{i}]")
    else:  # another object (only the made-up types below hold any)
        assert hasattr(value, "__dict__"), f"{path} holds a {type(value).__name__}"
        yield path, value
        for key, item in vars(value).items():
            yield from _mutables(item, f"{path}.{key}")


def _assert_independent(original: Any, copied: Any) -> None:
    """The copy equals the original as plain data and shares no mutable object with it; nor
    does the original alias one object in two places (which a structural copy would split)."""
    assert type(copied) is type(original)
    assert to_data(copied) == to_data(original)
    mine = dict(_mutables(original))
    seen: dict[int, str] = {}
    for path, obj in mine.items():
        assert id(obj) not in seen, f"{path} is the same object as {seen[id(obj)]}"
        seen[id(obj)] = path
    for path, obj in _mutables(copied):
        assert id(obj) not in seen, f"the copy shares {path} with the original ({seen[id(obj)]})"


def _mutate_everything(value: Any) -> None:
    """Change every list, dict, set and dataclass reachable from ``value`` (shared fields apart)."""
    found = [obj for _, obj in _mutables(value)]
    for obj in found:
        if isinstance(obj, list):
            obj.append("mutated")
            obj[0] = "mutated"
        elif isinstance(obj, set):
            obj.add("mutated")
        elif isinstance(obj, dict):
            obj["mutated"] = "mutated"
    for obj in found:
        if dataclasses.is_dataclass(obj):
            shared = getattr(obj, "shared_fields", ())
            for f in dataclasses.fields(obj):
                if f.name not in shared:
                    setattr(obj, f.name, "mutated")
        elif not isinstance(obj, (list, set, dict)):
            for key in list(vars(obj)):
                setattr(obj, key, "mutated")


@pytest.fixture(scope="module", params=TABLES, ids=[f"{g}-{n}p" for g, n in TABLES])
def states(request: pytest.FixtureRequest) -> list[GameState]:
    game, players = request.param
    rules: Ruleset = get_game(game)
    found: list[GameState] = []
    for seed in (701, 702):
        found += playout(rules, seed, players)["states"]
    if game == "illuminati":
        found.append(_with_claim_and_link(found[len(found) // 2]))
    if game == "grail":
        found.append(_with_grail_and_claims(found[len(found) // 2]))
    if game == "edge":
        made: EdgeState = copy_state(found[len(found) // 2])
        made.claim = CardClaim(seat=1, card="s@1.1", reason="card text", accepted=[2])
        found.append(made)
    modified = copy_state(found[-1])  # card text's lasting modifiers (C3): by hand
    modified.modifiers = [Modifier("x@1.1", "power", 2, "end_of_turn", "card text")]
    found.append(modified)
    return found


def _with_grail_and_claims(state: Any) -> GrailState:
    """Random play seldom seeks the grail or claims an alternate victory: added by hand."""
    made: GrailState = copy_state(state)
    made.grail = GrailAttempt(seat=1, knight="k@1.1", eligible=["q@1.2"])
    made.victory_claim = GrailClaim(seat=1, what="alternate_victory", about="k@1.1")
    made.claims.append(GrailClaim(seat=2, what="quest", about="q@2.1", disputed_by=1))
    made.honour_offer = HonourOffer(challenger="a@1.1", target="b@2.1")
    return made


def _with_claim_and_link(state: Any) -> IlluminatiState:
    """Random play neither declares victory nor links cards: a state with both, added by hand."""
    made: IlluminatiState = copy_state(state)
    made.claims.append(Claim(seat=1, goal="goal_card", card="x@1", disputed_by=[2]))
    made.seats_state[0].links.append(Link(a="a@1", b="b@1", moved_turn=made.turn))
    return made


def test_a_copy_equals_its_original_and_shares_no_mutable_object(
        states: list[GameState]) -> None:
    for state in states[::2] + [states[-1]]:
        _assert_independent(state, copy_state(state))


def test_mutating_every_part_of_a_copy_leaves_the_original_unchanged(
        states: list[GameState]) -> None:
    for state in states[1::2] + [states[-1]]:
        before = to_data(state)
        copied = copy_state(state)
        _mutate_everything(copied)
        assert to_data(state) == before


def test_copies_share_the_card_definitions(states: list[GameState]) -> None:
    for state in states[::10]:
        copied = copy_state(state)
        assert state.shared_fields
        for name in state.shared_fields:
            assert getattr(copied, name) is getattr(state, name)


def test_the_playouts_reach_every_kind_of_object_a_state_holds(states: list[GameState]) -> None:
    """The checks above only mean something for the kinds of objects the states actually held:
    every dataclass a game state's hints can reach turns up in these playouts (a frozen one,
    shared by copies, too: what it holds must be immutable, which the checks walk into)."""
    seen = {type(obj) for state in states for obj in _dataclass_instances(state)}
    declared = _dataclasses_in(type(states[0]))
    assert declared <= seen, f"never seen in a playout: {declared - seen}"


def test_a_state_read_back_from_its_data_copies_independently(states: list[GameState]) -> None:
    """A state rebuilt from its stored data (a snapshot's) holds what its hints say: a frozen
    value's items come back as a tuple, not as the list they are stored as, so a copy that
    shares the value shares nothing mutable."""
    for state in states[::7] + [states[-1]]:
        restored = from_data(type(state), to_data(state))
        assert to_data(restored) == to_data(state)
        _assert_independent(restored, copy_state(restored))


def _dataclass_instances(value: Any) -> Iterator[Any]:
    """Every dataclass instance reachable from ``value``, frozen ones included (shared fields
    apart)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        shared = getattr(value, "shared_fields", ())
        for f in dataclasses.fields(value):
            if f.name not in shared:
                yield from _dataclass_instances(getattr(value, f.name))
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _dataclass_instances(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _dataclass_instances(item)


def test_replace_state_copies_too(states: list[GameState]) -> None:
    state = states[len(states) // 2]
    before = to_data(state)
    changed = replace_state(state, turn=state.turn + 1)
    assert changed.turn == state.turn + 1
    _mutate_everything(changed)
    assert to_data(state) == before


def test_field_hints_are_what_typing_finds(states: list[GameState]) -> None:
    """The copier evaluates annotation strings itself (once each); the hints must be
    typing.get_type_hints' for every dataclass a state holds and for the made-up ones."""
    for cls in _dataclasses_in(type(states[0])) | {Everything, Loose, Tree, SubTree, Slotted}:
        names = [f.name for f in dataclasses.fields(cls)]
        expected = typing.get_type_hints(cls)
        assert copying._field_hints(cls, names) == {n: expected[n] for n in names}, cls


def _dataclasses_in(hint: Any, found: set[type] | None = None) -> set[type]:
    """The dataclasses a type hint can reach (shared fields apart)."""
    found = set() if found is None else found
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hint in found:
            return found
        found.add(hint)
        hints = typing.get_type_hints(hint)
        shared = getattr(hint, "shared_fields", ())
        for f in dataclasses.fields(hint):
            if f.name not in shared:
                _dataclasses_in(hints[f.name], found)
    for arg in typing.get_args(hint):
        _dataclasses_in(arg, found)
    return found


# ----- made-up types: the hint forms the games do not use, and the fallbacks ------------------
class Colour(enum.Enum):
    RED = "red"


class Opaque:
    """A class the copier does not understand: deep-copied."""

    def __init__(self, items: list[int]) -> None:
        self.items = items

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.items == self.items


@dataclass(frozen=True)
class Point:
    x: int
    y: int


@dataclass(frozen=True)
class Bag:
    items: list[int]


@dataclass
class Tree:
    name: str
    children: list[Tree] = field(default_factory=list)
    parent_name: str | None = None


@dataclass(slots=True)
class Slotted:
    items: list[str]
    n: int = 0


@dataclass
class SubTree(Tree):
    extra: list[int] = field(default_factory=list)


class Names(list[str]):
    """A list subclass: deep-copied, keeping its class."""


@dataclass
class Loose:
    names: list[str]
    more: list[str]
    table: dict[str, int]
    tree: Tree
    trees: list[Tree]


@dataclass
class Everything:
    shared_fields = ("table",)
    table: dict[str, list[int]]
    colour: Colour
    mode: Literal["a", "b"]
    point: Point
    bag: Bag
    tree: Tree
    slotted: Slotted
    maybe: Tree | None
    tags: set[str]
    frozen_tags: frozenset[str]
    pairs: tuple[tuple[int, str], ...]
    nested: tuple[list[int], ...]
    either: list[int] | dict[str, int]
    grid: list[list[Point | None]]
    named: dict[str, Tree | None]
    anything: Any
    opaque: Opaque
    unhinted: list[Any] = field(default_factory=list)


def _everything() -> Everything:
    leaf = Tree("leaf", parent_name="root")
    return Everything(
        table={"x": [1]}, colour=Colour.RED, mode="a", point=Point(1, 2), bag=Bag([1, 2]),
        tree=Tree("root", [leaf, Tree("other", [Tree("deep")])]), slotted=Slotted(["s"], 1),
        maybe=Tree("m"), tags={"a"}, frozen_tags=frozenset({"b"}), pairs=((1, "x"),),
        nested=([1], [2, 3]), either={"k": 1}, grid=[[Point(0, 0), None], []],
        named={"t": Tree("n", [Tree("c")]), "none": None},
        anything={"list": [1, [2]], "tree": Tree("any"), "tuple": ([3],), "n": 4},
        opaque=Opaque([5]), unhinted=[[1], {"a": [2]}, Tree("u")])


def test_every_hint_form_copies_independently() -> None:
    original = _everything()
    copied = copy_state(original)
    assert copied == original
    assert copied.table is original.table  # shared field
    assert copied.point is original.point and copied.pairs is original.pairs  # immutable
    assert copied.frozen_tags is original.frozen_tags
    assert copied.bag is not original.bag and copied.bag.items is not original.bag.items
    assert copied.opaque is not original.opaque and copied.opaque.items is not original.opaque.items
    assert copied.nested is not original.nested and copied.nested[0] is not original.nested[0]
    assert copied.anything["tuple"][0] is not original.anything["tuple"][0]
    for path, obj in _mutables(copied):
        assert all(obj is not mine for _, mine in _mutables(original)), path


def test_values_that_are_not_what_their_hint_says_are_copied_by_their_own_type() -> None:
    noted: Any = Tree("noted")
    noted.note = [1]  # an attribute that is not a field
    odd: dict[str, Any] = {"names": Names(["a"]), "more": ("b", "c"), "table": None,
                           "tree": SubTree("sub", extra=[1]), "trees": [noted]}
    original = Loose(**odd)
    copied: Any = copy_state(original)
    assert to_data(copied) == to_data(original)
    assert type(copied.names) is Names and copied.names is not original.names
    assert copied.more is original.more  # a tuple of strings where a list is declared
    assert copied.table is None
    assert type(copied.tree) is SubTree and copied.tree.extra is not odd["tree"].extra
    assert copied.trees[0].note == [1] and copied.trees[0].note is not noted.note
    for path, obj in _mutables(copied):
        assert all(obj is not mine for _, mine in _mutables(original)), path


def test_immutable_hints_have_no_copier() -> None:
    immutable: list[Any] = [str, int, bool, None, Colour, Literal["a", "b"], Point,
                            tuple[int, ...], tuple[Point, str], frozenset[str], str | None,
                            Point | None]
    mutable: list[Any] = [list[str], dict[str, int], set[str], Bag, Tree, Tree | None, Any]
    for hint in immutable:
        assert copier_for(hint) is None, hint
    for hint in mutable:
        assert copier_for(hint) is not None, hint
    assert copy_any(Colour.RED) is Colour.RED


def test_real_states_are_copied_without_the_deepcopy_fallback(states: list[GameState]) -> None:
    calls = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        calls += event == "call" and frame.f_code is copy.deepcopy.__code__

    sys.setprofile(profile)
    try:
        for state in states[::5]:
            copy_state(state)
    finally:
        sys.setprofile(None)
    assert calls == 0


def test_threads_compiling_a_new_type_at_once_all_copy_it() -> None:
    @dataclass
    class Fresh:
        items: list[int]
        children: list[Tree]

    original = Fresh([1, 2], [Tree("a", [Tree("b")])])
    barrier, copies = threading.Barrier(8), []

    def work() -> None:
        barrier.wait()
        copies.append(copy_state(original))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(copies) == 8
    for copied in copies:
        assert copied == original and copied.children[0] is not original.children[0]
