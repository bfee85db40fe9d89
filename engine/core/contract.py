"""The rules-engine contract every game implements (see docs/architecture.md).

A game is a ``Ruleset`` subclass: it declares its id, version, player range, card model, regulation
options and action models, and implements the ``_setup``, ``_apply``, ``_legal_actions``, ``_view``,
``_describe`` and ``_adjust`` hooks. The public methods here add what is common to every game:
parsing and validating input, deck checks (C5), concession (C4), manual adjustment (C3), the
``turn_limit`` regulation option, and the rule that ``apply`` never mutates its input.
"""

from __future__ import annotations

import copy
import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from engine.core.chance import Chance, Outcome
from engine.core.copying import copy_state
from engine.core.data import digest, from_data, to_data
from engine.core.errors import IllegalAction, MalformedAction, SetupError
from engine.core.viewer import Viewer, outcome_visible


@dataclass(kw_only=True)
class MatchResult:
    """How a match ended: winning and losing seats, the reason code, and whether it was drawn."""

    winners: list[int]
    losers: list[int]
    reason: str
    drawn: bool = False
    detail: str = ""


@dataclass(kw_only=True)
class GameState:
    """Fields every game's state has. Games subclass it with their own zones and counters."""

    game: str
    players: list[str]
    options: dict[str, Any]
    turn: int = 1
    active: int = 1
    eliminated: list[int] = field(default_factory=list)
    result: MatchResult | None = None
    # fields holding immutable data (frozen card definitions) that copies may share
    shared_fields: ClassVar[tuple[str, ...]] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        for name in self.shared_fields:
            value = getattr(self, name)
            memo[id(value)] = value
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            setattr(new, key, copy.deepcopy(value, memo))
        return new

    def seats(self) -> list[int]:
        """All seat numbers, 1-based."""
        return list(range(1, len(self.players) + 1))

    def in_play(self) -> list[int]:
        """Seats not eliminated."""
        return [s for s in self.seats() if s not in self.eliminated]


class Action(BaseModel):
    """Base of every action: who acts. Subclasses add ``type`` (the discriminator) and fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: int = Field(ge=1, description="The acting seat, numbered from 1.")


class Concede(Action):
    """C4: the seat concedes; in a two-player match the opponent wins."""

    type: Literal["concede"] = "concede"


class CardMove(BaseModel):
    """Move one card between two of the seat's zones (zone names are the game's own)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    card: str
    from_zone: str
    to_zone: str


class CounterChange(BaseModel):
    """Set one of the game's adjustable counters to a value."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    value: int


class Adjust(Action):
    """C3: a judge's (or both players') manual adjustment for a card effect, with a reason."""

    type: Literal["adjust"] = "adjust"
    reason: str = Field(min_length=3, description="Why, in words: shown in every transcript.")
    move: CardMove | None = None
    counter: CounterChange | None = None

    @model_validator(mode="after")
    def _one_change(self) -> Adjust:
        if (self.move is None) == (self.counter is None):
            raise ValueError("an adjustment is exactly one of 'move' or 'counter'")
        return self


class Options(BaseModel):
    """Regulation options every game accepts; games subclass to add their own."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    turn_limit: int | None = Field(
        default=None, ge=1,
        description="A tournament time call: after this many turns the match ends, won on the "
                    "game's own score where it has one, else drawn.")
    deck_check: Literal["on", "off"] = Field(
        default="on", description="C5: check deck construction rules when the match is created.")


class MatchConfig(BaseModel):
    """What a match is set up from: players, their decks, the card definitions, options."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    players: list[Annotated[str, Field(min_length=1, max_length=64)]]
    decks: list[dict[str, int]]
    cards: dict[str, dict[str, Any]]
    options: dict[str, Any] = Field(default_factory=dict)


def _summarise(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "action"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


class Ruleset(ABC):
    """One game's rules behind the shared contract."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_class: ClassVar[type[GameState]]
    card_model: ClassVar[type[BaseModel]]
    options_model: ClassVar[type[Options]] = Options
    actions: ClassVar[tuple[type[Action], ...]]
    position_format: ClassVar[int] = 1  # bumped when what a position holds changes

    def __init__(self) -> None:
        models = (*self.actions, Concede, Adjust)
        # a union over a runtime tuple of models: only typing.Union can be built that way
        union = Annotated[Union[models], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007
        self._adapter: TypeAdapter[Any] = TypeAdapter(union)

    # ----- input -------------------------------------------------------------------------
    def parse_action(self, data: Action | Mapping[str, Any]) -> Action:
        """Validate raw action data into this game's action model, or raise MalformedAction."""
        if isinstance(data, Action):
            data = data.model_dump()
        try:
            return self._adapter.validate_python(data)  # type: ignore[no-any-return]
        except ValidationError as exc:
            raise MalformedAction(f"Not a valid {self.game_id} action: {_summarise(exc)}",
                                  errors=_json_errors(exc)) from None

    def action_schema(self) -> dict[str, Any]:
        """JSON schema of every action of this game (a discriminated union on ``type``)."""
        return self._adapter.json_schema()

    def action_types(self) -> list[str]:
        """The action type names, game actions first."""
        models: tuple[type[Action], ...] = (*self.actions, Concede, Adjust)
        return [str(m.model_fields["type"].default) for m in models]

    def parse_options(self, data: Mapping[str, Any]) -> Options:
        """Validate regulation options, or raise SetupError naming the bad option."""
        try:
            return self.options_model.model_validate(dict(data))
        except ValidationError as exc:
            message = f"Invalid regulation option: {_summarise(exc)}"
            raise SetupError("bad_option", message) from None

    def parse_card(self, data: Mapping[str, Any]) -> Any:
        """Validate one card definition of this game."""
        try:
            return self.card_model.model_validate(dict(data))
        except ValidationError as exc:
            card = data.get("id", "?")
            raise SetupError("bad_card", f"Card {card}: {_summarise(exc)}") from None

    # ----- the contract ------------------------------------------------------------------
    def setup(self, config: MatchConfig, chance: Chance) -> GameState:
        """The state after setup (shuffles, opening hands, first player), all chance recorded."""
        n = len(config.players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError("player_count", f"{self.title} is played by {self.min_players}"
                             f"-{self.max_players} players, not {n}.")
        if len(config.decks) != n:
            raise SetupError("deck_count", f"{n} players need {n} decks, got {len(config.decks)}.")
        options = self.parse_options(config.options)
        cards = {cid: self.parse_card({**c, "id": cid}) for cid, c in config.cards.items()}
        for i, deck in enumerate(config.decks, start=1):
            unknown = sorted(set(deck) - set(cards))
            if unknown:
                raise SetupError("unknown_card", f"Seat {i}'s deck names unknown cards: "
                                 f"{', '.join(unknown[:5])}.", seat=i)
            if any(count < 1 for count in deck.values()):
                raise SetupError("bad_deck", f"Seat {i}'s deck has a count below 1.", seat=i)
        if options.deck_check == "on":
            self.check_decks(config.decks, cards)
        return self._setup(config, options, cards, chance)

    def check_decks(self, decks: Sequence[Mapping[str, int]], cards: Mapping[str, Any]) -> None:
        """C5: raise SetupError(reason = the broken rule) if a deck breaks construction rules."""

    def apply(self, state: GameState, action: Action | Mapping[str, Any],
              chance: Chance) -> GameState:
        """The state after ``action``; ``state`` itself is never changed."""
        act = self.parse_action(action)
        if state.result is not None:
            raise IllegalAction("match_over", "The match is over; no more actions can be recorded.")
        if act.seat > len(state.players):
            raise IllegalAction("no_such_seat", f"There is no seat {act.seat} in this match.")
        if act.seat in state.eliminated:
            raise IllegalAction("eliminated", f"Seat {act.seat} has been eliminated.")
        new = copy_state(state)
        if isinstance(act, Concede):
            self._concede(new, act.seat)
        elif isinstance(act, Adjust):
            self._adjust(new, act)
        else:
            self._apply(new, act, chance)
        self._check_turn_limit(new)
        return new

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """The game actions ``seat`` may take now (concede and adjust are always open too)."""
        if state.result is not None or seat in state.eliminated:
            return []
        return self._legal_actions(state, seat)

    def to_act(self, state: GameState) -> list[int]:
        """The seats whose decision the game waits on now (the active seat, unless the game
        opens a window to others, such as support during an attack). Empty once it is over."""
        return [] if state.result is not None else [state.active]

    def view(self, state: GameState, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see of ``state``: hidden cards are counted, not named."""
        common: dict[str, Any] = {
            "game": self.game_id,
            "players": [{"seat": s, "name": n} for s, n in zip(state.seats(), state.players)],
            "turn": state.turn,
            "active": state.active,
            "eliminated": list(state.eliminated),
            "options": dict(state.options),
            "result": to_data(state.result),
            "scores": _string_keys(self.scores(state)),
            "viewer": str(viewer),
        }
        common.update(self._view(state, viewer))
        return common

    def redact_action(self, action: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """A recorded action as ``viewer`` may see it: games hide the cards of private choices
        (a discard under a deck, a gift between two players). Judges see everything."""
        return action

    def outcome(self, state: GameState) -> MatchResult | None:
        """None while the match goes on; else the result."""
        return state.result

    def describe(self, action: Action | Mapping[str, Any], outcomes: Sequence[Outcome],
                 viewer: Viewer, before: GameState | None = None) -> str:
        """One transcript line for ``action``, redacted for ``viewer``.

        ``before`` (the position the action was taken in) lets the line name cards.
        """
        act = self.parse_action(action)
        if isinstance(act, Concede):
            return f"Seat {act.seat} concedes."
        if isinstance(act, Adjust):
            if act.move is not None:
                m = act.move
                card = m.card if self._move_visible(m, act.seat, viewer) else "a card"
                what = f"moves {card} from {m.from_zone} to {m.to_zone}"
            else:
                assert act.counter is not None
                what = f"sets {act.counter.name} to {act.counter.value}"
            return f"Adjustment for seat {act.seat}: {what} (reason: {act.reason})."
        return self._describe(act, list(outcomes), viewer, before)

    def describe_outcomes(self, outcomes: Sequence[Outcome], viewer: Viewer,
                          before: GameState | None = None) -> list[str]:
        """Phrases for chance outcomes outside an action (setup), redacted for ``viewer``."""
        seen = self.visible_outcomes(outcomes, viewer)
        hidden = len(outcomes) - len(seen)
        phrases = [f"{o['kind']}: {o['value']}" for o in seen]
        return phrases + ([f"{hidden} hidden outcome(s)"] if hidden else [])

    def scores(self, state: GameState) -> dict[int, int] | None:
        """The game's own running score per seat, or None where it has none."""
        return None

    def position(self, state: GameState) -> dict[str, Any]:
        """The canonical position the digest is taken over (format ``position_format``).

        It is every field of the game's state as plain data (engine.core.data), card
        definitions excluded: those are fixed by ``MatchCreated``. A refactor that changes the
        state's fields without changing the rules overrides this to keep giving the same
        position; a rules change that changes what a position is bumps ``position_format``.
        The golden matches (tests/golden) fail when either is forgotten.
        """
        data: dict[str, Any] = to_data(state)
        for name in state.shared_fields:
            data.pop(name, None)
        return data

    def digest(self, state: GameState) -> str:
        """The state digest stored with every recorded action: ``p<format>:<sha256 hex>`` of
        the canonical msgpack of ``position(state)``."""
        return f"p{self.position_format}:{digest(self.position(state))}"

    def legacy_digest(self, state: GameState) -> str:
        """The digest format of matches recorded before position digests (a bare SHA-256 of
        the whole internal state, card definitions included). Reproducible only while the
        internal state keeps the layout it had then; the audit uses it where it can."""
        return digest(to_data(state))

    def state_to_data(self, state: GameState) -> dict[str, Any]:
        """Plain data for storage and snapshots."""
        return to_data(state)  # type: ignore[no-any-return]

    def state_from_data(self, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state stored with ``state_to_data``."""
        return from_data(self.state_class, data)  # type: ignore[no-any-return]

    # ----- common rules --------------------------------------------------------------------
    def _concede(self, state: GameState, seat: int) -> None:
        """C4: the conceding seat is eliminated; the last one standing wins."""
        state.eliminated.append(seat)
        remaining = state.in_play()
        if len(remaining) <= 1:
            state.result = MatchResult(winners=remaining, losers=[s for s in state.seats()
                                                                   if s not in remaining],
                                       reason="concession", detail=f"seat {seat} conceded")
        else:
            self._on_eliminated(state, seat)

    def _on_eliminated(self, state: GameState, seat: int) -> None:
        """Games with 3+ players move the turn on when the active seat is eliminated."""
        if state.active == seat:
            order = state.seats()
            i = order.index(seat)
            for step in range(1, len(order)):
                nxt = order[(i + step) % len(order)]
                if nxt not in state.eliminated:
                    state.active = nxt
                    return

    def _check_turn_limit(self, state: GameState) -> None:
        limit = state.options.get("turn_limit")
        if state.result is not None or not limit or state.turn <= limit:
            return
        scores = self.scores(state)
        alive = state.in_play()
        if scores:
            best = max(scores[s] for s in alive)
            top = [s for s in alive if scores[s] == best]
        else:
            top = alive
        drawn = len(top) != 1
        state.result = MatchResult(
            winners=[] if drawn else top,
            losers=[] if drawn else [s for s in alive if s not in top],
            reason="turn_limit", drawn=drawn, detail=f"time called after turn {limit}")

    def _move_visible(self, move: CardMove, seat: int, viewer: Viewer) -> bool:
        """Whether a card moved by an adjustment may be named to ``viewer``."""
        private = self.private_zones()
        if move.from_zone in private and move.to_zone in private:
            return viewer.sees_seat(seat)
        return True

    def private_zones(self) -> set[str]:
        """Zone names whose contents only their owner (and judges) may see."""
        return {"hand", "deck"}

    # ----- hooks for each game -------------------------------------------------------------
    @abstractmethod
    def _setup(self, config: MatchConfig, options: Options, cards: dict[str, Any],
               chance: Chance) -> GameState:
        """Build the initial state."""

    @abstractmethod
    def _apply(self, state: GameState, action: Action, chance: Chance) -> None:
        """Apply a game action to ``state`` (a private copy) or raise IllegalAction."""

    @abstractmethod
    def _adjust(self, state: GameState, action: Adjust) -> None:
        """Apply a C3 adjustment to ``state`` (a private copy) or raise IllegalAction."""

    @abstractmethod
    def _legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """The legal game actions for ``seat``."""

    @abstractmethod
    def _view(self, state: GameState, viewer: Viewer) -> dict[str, Any]:
        """The game-specific part of the view."""

    @abstractmethod
    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: GameState | None = None) -> str:
        """A transcript line for a game action."""

    # small shared helper for games
    @staticmethod
    def visible_outcomes(outcomes: Sequence[Outcome], viewer: Viewer) -> list[Outcome]:
        """The outcomes ``viewer`` may see, in order."""
        return [o for o in outcomes if outcome_visible(o, viewer)]


def _string_keys(scores: dict[int, int] | None) -> dict[str, int] | None:
    """Views are JSON-shaped: seat keys become strings (as JSON and msgpack clients expect)."""
    return None if scores is None else {str(seat): value for seat, value in scores.items()}


def _json_errors(exc: ValidationError) -> list[dict[str, Any]]:
    return [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"]} for e in exc.errors()[:10]]


def replace_state(state: GameState, **changes: Any) -> GameState:
    """A copy of ``state`` with ``changes`` (used by tests and tools)."""
    return dataclasses.replace(copy_state(state), **changes)
