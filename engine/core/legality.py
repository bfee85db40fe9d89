"""Legal actions as a view, in the manner of python-chess's ``legal_moves``.

``ruleset.legal_actions(state, seat)`` iterates and counts the actions the game enumerates, and
``action in legal`` is an exact legality test: it asks ``Ruleset.check``, which raises the same
IllegalAction as ``apply``. Where a choice is combinatorial (any subset of a hand, any payment
that covers a cost) the game enumerates one representative per kind of choice and describes the
whole space in ``choices``, so a client can build every legal action.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

from engine.core.errors import ActionError


@dataclass(frozen=True)
class Choice:
    """The whole space of one combinatorial choice: action ``action``'s ``field`` takes
    ``kind`` of ``options`` (``subset``: any selection, ``sequence``: any ordered selection,
    ``one_of``: exactly one), between ``least`` and ``most`` of them."""

    action: str
    field: str
    kind: Literal["subset", "sequence", "one_of"]
    options: tuple[Any, ...]
    least: int = 1
    most: int | None = None
    description: str = ""

    def to_data(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {"action": self.action, "field": self.field, "kind": self.kind,
                "options": list(self.options), "least": self.least, "most": self.most,
                "description": self.description}


@functools.lru_cache(maxsize=1 << 16)
def listed(model: type[Any], **fields: Any) -> Any:
    """A listed action, built once per distinct value: actions are frozen models, so the same
    action offered at many positions is one shared object (validation is the costly part of
    listing). Every field must be hashable; lists go through the model as usual (pass them as
    tuples). The model's own validator is called directly: what ``model(**fields)`` and
    ``model_validate`` run, without their Python wrappers (a third of the cost)."""
    return model.__pydantic_validator__.validate_python(fields)


def lister(model: type[Any], *names: str) -> Callable[..., Any]:
    """``listed`` for one model and one set of fields, given by position in the order of
    ``names``: ``lister(Move, "seat", "to")(1, "b2")`` is ``listed(Move, seat=1, to="b2")``
    (built once per distinct value too). For the actions a game lists by the thousand: a
    positional key is half the cost of a keyword one to look up."""
    @functools.lru_cache(maxsize=1 << 14)
    def build(*values: Any) -> Any:
        return model.__pydantic_validator__.validate_python(dict(zip(names, values)))
    return build


class LegalActions(Sequence[Any]):
    """The legal actions of one seat at one position: a sequence of the enumerated actions
    (concede and adjust are always open too and not listed), with an exact ``in``."""

    def __init__(self, actions: Sequence[Any], seat: int,
                 choices: Callable[[], Sequence[Choice]],
                 check: Callable[[Any], None], parse: Callable[[Any], Any]) -> None:
        self._actions = list(actions)
        self.seat = seat
        self._choices = choices
        self._check = check
        self._parse = parse

    @functools.cached_property
    def choices(self) -> tuple[Choice, ...]:
        """The combinatorial choices behind the listed actions (worked out when asked for)."""
        return tuple(self._choices())

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self._actions[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._actions)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions(seat={self.seat}, {self._actions!r})"

    def __contains__(self, action: object) -> bool:
        """Whether ``action`` (a model or its data) is legal for this seat now."""
        if not isinstance(action, Mapping) and not hasattr(action, "model_dump"):
            return False
        try:
            parsed = self._parse(action)
            if parsed.seat != self.seat:
                return False
            self._check(parsed)
        except ActionError:
            return False
        return True

    @property
    def sampled(self) -> list[str]:
        """The action types listed by one representative (their space is in ``choices``)."""
        return sorted({c.action for c in self.choices})
