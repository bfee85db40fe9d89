"""The rules-engine contract every game implements (docs/adding-a-game.md is its guide).

A game is a ``Ruleset`` subclass: it declares its id, version, player range, card model, regulation
options, action models, zone table and chance outcome kinds, and implements the ``_setup``,
``_apply``, ``_adjust``, ``_legal_actions``, ``_places``, ``_view`` and ``_describe`` hooks. The
public methods here add what is common to every game: parsing and validating input, deck checks
(C5), concession (C4), a judge's adjustment (C3), the ``turn_limit`` option, legality as a view
(``legal_actions``, ``check``), effects (``step``), redaction from the zone table, the canonical
position and its digest, and the rule that ``apply`` never changes its input.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Generic, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypeVar

from engine.core.actions import NAMES_CARDS, Action, Adjust, Concede, ModifierChange, TurnChange
from engine.core.chance import (
    Chance,
    Outcome,
    OutcomeKind,
    ProbeChance,
    SuppliedChance,
    outcome_from_data,
    outcomes_needed,
    shown,
)
from engine.core.copying import copy_state
from engine.core.data import (
    SCALAR_TYPES,
    canonical,
    canonical_data,
    canonical_digest,
    from_data,
    sorted_fields_of,
    to_data,
)
from engine.core.effects import (
    Effect,
    MatchEnded,
    Place,
    changes,
    collect,
    moves,
    take,
)
from engine.core.errors import ActionError, IllegalAction, MalformedAction, SetupError
from engine.core.holdings import Modifier, Stat, Tally, tally_named
from engine.core.legality import Choice, LegalActions
from engine.core.reasons import KernelReason, Reason
from engine.core.reasons import KernelReason as R
from engine.core.viewer import Viewer
from engine.core.zones import Zone, ZoneTable, flow_visible


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
    # lasting modifiers of cards' stats made by card text (C3): a late field of every game
    modifiers: list[Modifier] = field(default_factory=list)
    # fields holding immutable data (frozen card definitions) that copies may share
    shared_fields: ClassVar[tuple[str, ...]] = ()
    # fields added after matches were recorded without them: left out of the position (and of
    # the legacy digest) while empty, so those matches keep their digests
    late_fields: ClassVar[tuple[str, ...]] = ()

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


S = TypeVar("S", bound=GameState)
"""A game's own state (``Ruleset[S]``)."""

MAX_DECK_CARDS = 500  # far above any game's deck; bounds the work a deck_check 'off' allows


class Options(BaseModel):
    """Regulation options every game accepts; games subclass to add their own."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    turn_limit: int | None = Field(
        default=None, ge=1, le=10_000,
        description="A tournament time call: after this many turns the match ends, won on the "
                    "game's own score where it has one, else drawn.")
    deck_check: Literal["on", "off"] = Field(
        default="on", description="C5: check deck construction rules when the match is created.")

    decklists: Literal["closed", "open"] = Field(
        default="closed", description="'closed': each seat sees its own deck list and the card "
        "definitions of its deck only (judges see all, and everyone after the end under the "
        "open replay policy); 'open': every deck list is public.")

    spectators: Literal["live", "delayed", "refused"] = Field(
        default="live", description="While the match is on, spectators see it as it stands "
        "('live'), 'spectator_delay' positions behind ('delayed'), or not at all ('refused'). "
        "After the end the replay policy decides.")
    spectator_delay: int = Field(default=3, ge=1, le=1000, description="With spectators "
                                 "'delayed': how many positions behind they see the match.")

    # options added after matches were recorded without them: name -> the value new matches
    # get. The field's own default is the behaviour of the matches recorded before it.
    introduced: ClassVar[dict[str, Any]] = {"decklists": "closed", "spectators": "live",
                                            "spectator_delay": 3}

    def recorded(self) -> dict[str, Any]:
        """The options as a match's state holds them: an introduced option a recorded match
        never set is left out, so its state, views and digests stay as they were."""
        data = self.model_dump()
        for name in self.introduced:
            if name not in self.model_fields_set:
                data.pop(name, None)
        return data


OptionsT = TypeVar("OptionsT", bound=Options, default=Options)
"""A game's own regulation options (``Ruleset[S, OptionsT]``; plain ``Options`` where omitted)."""

class MatchConfig(BaseModel):
    """What a match is set up from: players, their decks, the card definitions, options."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    players: list[Annotated[str, Field(min_length=1, max_length=64)]]
    decks: list[dict[str, int]]
    cards: dict[str, dict[str, Any]]
    options: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One applied action: the new state and what it did (see engine.core.effects)."""

    state: GameState
    effects: tuple[Effect, ...]


def _summarise(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "action"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


_WHOLE_NUMBER_ERRORS = {"int_type", "int_parsing", "int_from_float", "int_parsing_size"}
_NUMBER_ERRORS = {"float_type", "float_parsing", "finite_number"}
_BOUND_ERRORS = {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}


def _bounds(metadata: Sequence[Any], ctx: Mapping[str, Any]) -> str:
    """A field's numeric bounds in words (``from 1 to 1000``, ``at least 1``), from its
    constraints, else from the error's context."""
    found = dict(ctx)
    for constraint in metadata:  # annotated_types.Ge, Gt, Le, Lt
        for name in ("ge", "gt", "le", "lt"):
            if getattr(constraint, name, None) is not None:
                found[name] = getattr(constraint, name)
    low: Any = found.get("ge", found.get("gt"))
    high: Any = found.get("le", found.get("lt"))
    low_open, high_open = "ge" not in found and "gt" in found, "le" not in found and "lt" in found
    if low is not None and high is not None and not low_open and not high_open:
        return f" from {low} to {high}"
    words = [f"{'above' if low_open else 'at least'} {low}" if low is not None else "",
             f"{'below' if high_open else 'at most'} {high}" if high is not None else ""]
    return " " + " and ".join(w for w in words if w) if any(words) else ""


def _allowed(item: Mapping[str, Any], field_info: Any) -> str:
    """What a regulation option allows, in plain words, from a pydantic error's type and
    context (and the option's own constraints); empty where there is no plain way to say it."""
    kind, ctx = str(item["type"]), item.get("ctx") or {}
    metadata = getattr(field_info, "metadata", None) or []
    if kind in ("literal_error", "enum"):
        return str(ctx.get("expected", ""))
    if kind in _WHOLE_NUMBER_ERRORS or (kind in _BOUND_ERRORS and
                                        isinstance(item.get("input"), int)):
        return "a whole number" + _bounds(metadata, ctx)
    if kind in _NUMBER_ERRORS or kind in _BOUND_ERRORS:
        return "a number" + _bounds(metadata, ctx)
    if kind in ("bool_type", "bool_parsing"):
        return "true or false"
    if kind in ("string_type", "string_too_short", "string_too_long"):
        low, high = ctx.get("min_length"), ctx.get("max_length")
        if kind == "string_too_short":
            return f"text of at least {low} character{'' if low == 1 else 's'}"
        if kind == "string_too_long":
            return f"text of at most {high} character{'' if high == 1 else 's'}"
        return "text"
    return ""


class Ruleset(ABC, Generic[S, OptionsT]):
    """One game's rules behind the shared contract, generic in the game's state ``S`` and its
    options ``OptionsT``: a game is ``class MyGame(Ruleset[MyState, MyOptions])``, and its hooks
    take ``MyState`` and ``MyOptions`` (the ledger, which holds any game's, uses
    ``Ruleset[Any]``)."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_class: ClassVar[type[GameState]]
    card_model: ClassVar[type[BaseModel]]
    options_model: type[OptionsT]  # the game's options model, set on the game's class
    actions: ClassVar[tuple[type[Action], ...]]
    zones: ClassVar[tuple[Zone, ...]]
    phases: ClassVar[tuple[str, ...]] = ()  # what a judge's turn change may set
    outcome_kinds: ClassVar[tuple[OutcomeKind, ...]] = ()  # every chance request of the game
    setup_consumes: ClassVar[tuple[str, ...]] = ()  # outcome kinds setup asks for, in order
    position_format: ClassVar[int] = 1  # bumped when what a position holds changes
    # words an action may put for a card of the acting seat's own (Illuminati's
    # ``illuminati``): always known to the asker, so never refused as unseen
    card_aliases: ClassVar[tuple[str, ...]] = ()
    # the counters, stats and flags a judge may set by adjustment (C3, engine.core.holdings)
    tallies: ClassVar[tuple[Tally[Any], ...]] = ()
    # the stats of cards in play that card text changes for a while (lasting modifiers)
    stats: ClassVar[tuple[Stat[Any], ...]] = ()
    # every reason code the game raises, with its meaning (engine.core.reasons); the kernel's
    # own codes stand for a game that declares none
    reasons: ClassVar[type[Reason]] = KernelReason

    def __init__(self) -> None:
        models: tuple[type[Action], ...] = (*self.actions, Concede, Adjust)
        # a union over a runtime tuple of models: only typing.Union can be built that way
        union = Annotated[Union[models], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007
        self._adapter: TypeAdapter[Any] = TypeAdapter(union)
        self._models: dict[str, type[Action]] = {
            str(m.model_fields["type"].default): m for m in models}
        self._card_fields: dict[str, tuple[str, ...]] = {
            kind: tuple(name for name, f in m.model_fields.items()
                        if isinstance(f.json_schema_extra, dict)
                        and f.json_schema_extra.get(NAMES_CARDS))
            for kind, m in self._models.items()}
        self.zone_table = ZoneTable(self.zones)

    # ----- input -------------------------------------------------------------------------
    def parse_action(self, data: Action | Mapping[str, Any]) -> Action:
        """Validate raw action data into this game's action model, or raise MalformedAction."""
        if isinstance(data, Action):
            if type(data) is self._models.get(str(getattr(data, "type", ""))):
                return data  # already validated, and frozen
            data = data.model_dump()
        try:
            return self._adapter.validate_python(data)  # type: ignore[no-any-return]
        except ValidationError as exc:
            raise MalformedAction(f"Not a valid {self.game_id} action: {_summarise(exc)}",
                                  errors=_json_errors(exc)) from None

    def action_schema(self) -> dict[str, Any]:
        """JSON schema of every action of this game (a discriminated union on ``type``); each
        action's ``x-outcomes`` lists the chance outcomes it may need, in order, so a physical
        table knows what to enter."""
        schema = self._adapter.json_schema()
        for model in self._models.values():
            entry = schema.get("$defs", {}).get(model.__name__)
            if entry is not None:
                entry["x-outcomes"] = self.outcomes_consumed(model.consumes)
        return schema

    def outcomes_consumed(self, kinds: Sequence[str]) -> list[dict[str, str]]:
        """``kinds`` (outcome kind families) with their types and meanings."""
        known = {k.kind: k for k in self.outcome_kinds}
        return [{"kind": k, "outcome": known[k].type.__name__,
                 "description": known[k].description} for k in kinds]

    def typed_outcomes(self, outcomes: Sequence[Outcome | Mapping[str, Any]]) -> list[Outcome]:
        """Stored outcomes as this game's typed outcomes."""
        types = {k.kind: k.type for k in self.outcome_kinds}
        return [outcome_from_data(o, types) for o in outcomes]

    def judges_only(self, action_type: object) -> bool:
        """Whether actions of ``action_type`` are a judge's (an adjustment, a ruling)."""
        model = self._models.get(str(action_type))
        return model is not None and model.judges_only

    def calls_judge(self, action_type: object) -> bool:
        """Whether actions of ``action_type`` dispute a claim, so that a judge must rule (the
        service opens a dispute for it)."""
        model = self._models.get(str(action_type))
        return model is not None and model.calls_judge

    def action_types(self) -> list[str]:
        """The action type names, game actions first."""
        models: tuple[type[Action], ...] = (*self.actions, Concede, Adjust)
        return [str(m.model_fields["type"].default) for m in models]

    def new_match_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options of a match created now: the introduced options' new values, unless the
        organiser chose otherwise."""
        return {**self.options_model.introduced, **options}

    @property
    def players_text(self) -> str:
        """The player range in words: ``2 players``, ``2 to 6 players``."""
        low, high = self.min_players, self.max_players
        if low == high:
            return f"{low} player{'' if low == 1 else 's'}"
        return f"{low} to {high} players"

    def option_names(self) -> list[str]:
        """The regulation options of this game: its own first, then those every game has, each
        group in the order it is declared."""
        common = list(Options.model_fields)
        own = [name for name in self.options_model.model_fields if name not in common]
        return own + [name for name in common if name in self.options_model.model_fields]

    def parse_options(self, data: Mapping[str, Any]) -> OptionsT:
        """Validate regulation options, or raise SetupError (``bad_option``) naming the bad
        option and saying what it allows, in a sentence a player understands."""
        try:
            return self.options_model.model_validate(dict(data))
        except ValidationError as exc:
            message = " ".join(dict.fromkeys(self._option_problem(item)
                                             for item in exc.errors()[:3]))
            raise SetupError(R.BAD_OPTION, message) from None

    def _option_problem(self, item: Mapping[str, Any]) -> str:
        """One sentence for one pydantic error about the regulation options."""
        loc = item.get("loc") or ()
        name = str(loc[0]) if loc else ""
        if item["type"] == "extra_forbidden":
            return (f"Unknown regulation option {name!r} for {self.title}; the options are: "
                    f"{', '.join(self.option_names())}.")
        allowed = _allowed(item, self.options_model.model_fields.get(name))
        if name and allowed:
            value = item.get("input")
            given = repr(value) if isinstance(value, str) else shown(value)
            return f"Regulation option {name!r} must be {allowed}, not {given}."
        where = ".".join(str(p) for p in loc)
        return f"Invalid regulation option{f' {where!r}' if where else 's'}: {item['msg']}."

    def parse_card(self, data: Mapping[str, Any]) -> Any:
        """Validate one card definition of this game."""
        try:
            return self.card_model.model_validate(dict(data))
        except ValidationError as exc:
            card = data.get("id", "?")
            raise SetupError(R.BAD_CARD, f"Card {card}: {_summarise(exc)}") from None

    # ----- the contract ------------------------------------------------------------------
    def setup(self, config: MatchConfig, chance: Chance) -> S:
        """The state after setup (shuffles, opening hands, first player), all chance recorded."""
        n = len(config.players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError(R.PLAYER_COUNT, f"{self.title} is played by {self.players_text}, "
                             f"not {n}.")
        if len(config.decks) != n:
            raise SetupError(R.DECK_COUNT, f"{n} players need {n} decks, got {len(config.decks)}.")
        options = self.parse_options(config.options)
        cards = {cid: self.parse_card({**c, "id": cid}) for cid, c in config.cards.items()}
        self._check_table(config.decks, cards, options)
        try:
            return self._setup(config, options, cards, chance)
        except IllegalAction as exc:
            if exc.reason != R.OUTCOME_MISSING or not isinstance(chance, SuppliedChance):
                raise
            given = chance.supplied
            needed = outcomes_needed(lambda c: self._setup(config, options, cards, c), given)
            raise IllegalAction(R.OUTCOME_MISSING, _setup_short(chance.missing, given, needed),
                                **exc.details) from None

    def check_table(self, decks: Sequence[Mapping[str, int]],
                    cards: Mapping[str, Mapping[str, Any]], options: Mapping[str, Any]) -> None:
        """C5 before a match exists: the decks that are to meet (one deck alone for a list
        submitted to a tournament) name known cards, stay within the size bound and, with
        ``deck_check`` on, keep the game's construction rules; SetupError otherwise."""
        parsed = {cid: self.parse_card({**c, "id": cid}) for cid, c in cards.items()}
        self._check_table(decks, parsed, self.parse_options(options))

    def _check_table(self, decks: Sequence[Mapping[str, int]], cards: Mapping[str, Any],
                     options: OptionsT) -> None:
        for i, deck in enumerate(decks, start=1):
            unknown = sorted(set(deck) - set(cards))
            if unknown:
                raise SetupError(R.UNKNOWN_CARD, f"Seat {i}'s deck names unknown cards: "
                                 f"{', '.join(unknown[:5])}.", seat=i)
            if any(count < 1 for count in deck.values()):
                raise SetupError(R.BAD_DECK, f"Seat {i}'s deck has a count below 1.", seat=i)
            if sum(deck.values()) > MAX_DECK_CARDS:
                raise SetupError(R.DECK_TOO_LARGE, f"Seat {i}'s deck has more than "
                                 f"{MAX_DECK_CARDS} cards, even without a deck check.", seat=i)
        if options.deck_check == "on":
            self.check_decks(decks, cards)

    def drawable(self, seat: int, deck: Mapping[str, int]) -> dict[str, str]:
        """What a draw from ``seat``'s deck list ``deck`` can be, as a table enters it, each
        with its card id: the card ids themselves (a game whose cards are instances gives
        those). Known to the seat from its own list: never the deck's order."""
        return {card: card for card in sorted(deck)}

    def check_decks(self, decks: Sequence[Mapping[str, int]], cards: Mapping[str, Any]) -> None:
        """C5: raise SetupError(reason = the broken rule) if a deck breaks construction rules."""

    def apply(self, state: S, action: Action | Mapping[str, Any],
              chance: Chance) -> S:
        """The state after ``action``; ``state`` itself is never changed."""
        return self._applied(state, action, chance)[0]

    def apply_in_place(self, state: S, action: Action | Mapping[str, Any],
                       chance: Chance) -> S:
        """``apply`` that changes ``state`` itself instead of a copy of it, and returns it: for
        a caller that owns ``state`` (no one else holds it) and drops the position before,
        as rebuilding positions from stored actions does. The position reached is the same;
        on an error ``state`` is left part-changed and must be dropped."""
        return self._applied(state, action, chance, in_place=True)[0]

    def step(self, state: S, action: Action | Mapping[str, Any],
             chance: Chance) -> Step:
        """``apply``, and what the action did: the effects the game emitted, every card that
        changed place, every value that changed, and the end of the match."""
        new, emitted = self._applied(state, action, chance)
        effects = [*emitted, *moves(self.places(state), self.places(new)),
                   *changes(self.values(state), self.values(new))]
        if new.result is not None and state.result is None:
            r = new.result
            effects.append(MatchEnded(winners=tuple(r.winners), losers=tuple(r.losers),
                                      reason=r.reason, drawn=r.drawn))
        return Step(new, tuple(effects))

    def _applied(self, state: S, action: Action | Mapping[str, Any],
                 chance: Chance, *, in_place: bool = False) -> tuple[S, list[Effect]]:
        act = self.parse_action(action)
        if state.result is not None:
            raise IllegalAction(R.MATCH_OVER, "The match is over; no more actions can be recorded.")
        if act.seat > len(state.players):
            raise IllegalAction(R.NO_SUCH_SEAT, f"There is no seat {act.seat} in this match.")
        if act.seat in state.eliminated:
            raise IllegalAction(R.ELIMINATED, f"Seat {act.seat} has been eliminated.")
        new = state if in_place else copy_state(state)
        collect(new)
        turn = new.turn
        try:
            if isinstance(act, Concede):
                self._concede(new, act.seat, chance)
            elif isinstance(act, Adjust):
                self._adjust_checked(new, act)
            else:
                self._apply(new, act, chance)
            self._check_turn_limit(new)
            if new.turn != turn and new.modifiers:
                self._turn_ended(new)
            if new.modifiers:
                self._modifiers_in_play(new)
        finally:
            emitted = take(new)
        return new, emitted

    def effects_seen_by(self, effects: Sequence[Effect], viewer: Viewer) -> list[Effect]:
        """``effects`` as ``viewer`` may see them (cards in hidden places unnamed)."""
        return [e.seen_by(viewer, self.zone_table) for e in effects]

    def places(self, state: S) -> dict[Place, list[str]]:
        """Every place of the zone table with the cards in it now."""
        return self._places(state)

    def values(self, state: S) -> dict[str, Any]:
        """The values effects report changes of: turn, active seat, eliminated seats, scores,
        and the game's own (``_values``)."""
        out: dict[str, Any] = {"turn": state.turn, "active": state.active,
                               "eliminated": tuple(state.eliminated)}
        for seat, score in (self.scores(state) or {}).items():
            out[f"score:{seat}"] = score
        out.update(self._values(state))
        return out

    def legal_actions(self, state: S, seat: int) -> LegalActions:
        """The game actions ``seat`` may take now (concede and adjust are always open too), as
        a view: iterate it, count it, and ``action in legal`` is an exact legality test."""
        over = state.result is not None or seat in state.eliminated
        actions = [] if over else self._legal_actions(state, seat)
        return LegalActions(actions, seat,
                            lambda: [] if over else self._choice_space(state, seat),
                            lambda a: self.check(state, a), self.parse_action)

    def check(self, state: S, action: Action | Mapping[str, Any]) -> None:
        """Raise the IllegalAction (or MalformedAction) ``apply`` would raise; return None if
        the action is legal. ``state`` is not changed. Chance is probed, not drawn: rules
        decide legality before they consult chance."""
        self.apply(state, action, ProbeChance())

    def to_act(self, state: S) -> list[int]:
        """The seats whose decision the game waits on now (the active seat, unless the game
        opens a window to others, such as support during an attack). Empty once it is over."""
        return [] if state.result is not None else [state.active]

    def view(self, state: S, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see of ``state``: hidden cards are counted, not named. The
        game renders its view (``_view``, asking the zone table which zones to show); the
        kernel then holds the whole of it to the zone table: a card in no place the viewer
        may see is never named, whatever the game renders (a card's rendering naming it, such
        as ``{"id": ...}``, becomes None, and so does a bare id)."""
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
        if state.modifiers:  # on cards in play: everyone sees them, with their reasons
            common["modifiers"] = [to_data(m) for m in state.modifiers]
        common.update(self._view(state, viewer))
        if viewer.is_judge:
            return common
        hidden = self.hidden_cards(state, viewer)
        return _unshown(common, hidden) if hidden else common

    def hidden_cards(self, state: S, viewer: Viewer) -> frozenset[str]:
        """The instance ids and card ids in places ``viewer`` may not see, except those it
        sees in another place (a card id that is both in its hand and in another's)."""
        seen: set[str] = set()
        unseen: set[str] = set()
        for place, cards in self.places(state).items():
            into = seen if self.sees(viewer, place.zone, place.seat) else unseen
            into.update(cards)
            into.update(card.partition("@")[0] for card in cards)
        return frozenset(unseen - seen)

    def sees(self, viewer: Viewer, zone: str, seat: int | None) -> bool:
        """Whether ``viewer`` may see the cards in ``seat``'s ``zone`` (the zone table)."""
        return self.zone_table.sees(viewer, zone, seat)

    def known_cards(self, state: S, viewer: Viewer) -> frozenset[str]:
        """The cards ``viewer`` may know in ``state``, as instance ids and card ids: those in
        every place it may see, and for a seat those in its own places too (it knows its own
        deck list, though not the order of its deck). Judges know every card."""
        known: set[str] = set()
        for place, cards in self.places(state).items():
            if (viewer.seat is not None and place.seat == viewer.seat) or self.sees(
                    viewer, place.zone, place.seat):
                known.update(cards)
                known.update(card.partition("@")[0] for card in cards)
        return frozenset(known)

    def named_cards(self, action: Action | Mapping[str, Any]) -> list[tuple[str, str]]:
        """Each card ``action`` names, as (field, value), from its declared card fields
        (``engine.core.actions.card_field``); values that are not text are left out (the
        action's own validation refuses them)."""
        data = action.model_dump() if isinstance(action, BaseModel) else action
        found: list[tuple[str, str]] = []
        for name in self._card_fields.get(str(data.get("type")), ()):
            value = data.get(name)
            values = (value.values() if isinstance(value, Mapping) else
                      value if isinstance(value, list | tuple) else [value])
            found += [(name, v) for v in values
                      if isinstance(v, str) and v not in self.card_aliases]
        return found

    def refusal_for(self, error: ActionError, state: S,
                    action: Action | Mapping[str, Any], viewer: Viewer) -> ActionError:
        """The refusal of ``action`` in ``state`` as ``viewer`` (who asked) may read it: a
        refusal is a read too. Where the action names a card the viewer cannot know (one
        hidden from it, or one that does not exist: the same to it), every refusal is the one
        ``card_not_seen``, whatever the rules found, so that trying card ids tells nothing.
        Otherwise the rules' own refusal, with any card the viewer cannot know that it names
        (by id or instance) put as "a hidden card", but for the texts the action itself holds
        (an echo of what the asker wrote tells it nothing). Judges read every refusal as it
        is."""
        if viewer.is_judge:
            return error
        known = self.known_cards(state, viewer)
        unseen = [name for name, card in self.named_cards(action) if card not in known]
        if unseen:
            return IllegalAction(R.CARD_NOT_SEEN, "This action names a card you cannot see: "
                                 "name the cards in your hand, your own zones or on the table.",
                                 field=unseen[0])
        hidden = {c for place, cards in self.places(state).items() for card in cards
                  for c in (card, card.partition("@")[0])} - known
        # what the asker wrote is echoed as written: unnaming it would tell it from the rest
        return _unnamed(error, hidden - _texts(action))

    def redact_action(self, action: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """A recorded action as ``viewer`` may see it: the cards of its declared card flows, and
        the card of a judge's move, are ``None`` unless the viewer may see where they came from
        or where they went. Judges see everything."""
        if viewer.is_judge:
            return action
        model = self._models.get(str(action.get("type")))
        if model is Adjust:
            return self._redact_adjust(action, viewer)
        out = action
        for flow in model.card_flows if model is not None else ():
            value = action.get(flow.field)
            if not value or flow_visible(self.zone_table, flow, action, viewer):
                continue
            out = {**out, flow.field: [None] * len(value) if isinstance(value, list) else None}
        return out

    def _move_visible(self, move: Mapping[str, Any], seat: int, viewer: Viewer) -> bool:
        """Whether the card of a judge's move may be named to ``viewer``: they may see the zone
        it left or the zone it entered."""
        from_seat = int(move.get("from_seat") or seat)
        to_seat = int(move.get("to_seat") or seat)
        ends = ((str(move["from_zone"]), from_seat), (str(move["to_zone"]), to_seat))
        return any(name in self.zone_table.zones and self.sees(viewer, name, owner)
                   for name, owner in ((ref.partition(":")[0], owner) for ref, owner in ends))

    def _redact_adjust(self, action: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        move = action.get("move")
        if not move or self._move_visible(move, int(action["seat"]), viewer):
            return action
        return {**action, "move": {**move, "card": None}}

    def outcome(self, state: S) -> MatchResult | None:
        """None while the match goes on; else the result."""
        return state.result

    def describe(self, action: Action | Mapping[str, Any],
                 outcomes: Sequence[Outcome | Mapping[str, Any]],
                 viewer: Viewer, before: S | None = None,
                 effects: Sequence[Effect] = ()) -> str:
        """One transcript line for ``action``, redacted for ``viewer``.

        ``before`` (the position the action was taken in) lets the line name cards;
        ``effects`` (from ``step``) say what the rules decided, so the line never recomputes it.
        """
        act = self.parse_action(action)
        if isinstance(act, Concede):
            return f"Seat {act.seat} concedes."
        if isinstance(act, Adjust):
            return f"Adjustment for seat {act.seat}: {self._adjust_phrase(act, viewer)} " \
                   f"(reason: {act.reason})."
        return self._describe(act, self.typed_outcomes(outcomes), viewer, before,
                              self.effects_seen_by(effects, viewer))

    def describe_outcomes(self, outcomes: Sequence[Outcome | Mapping[str, Any]],
                          viewer: Viewer, before: S | None = None) -> list[str]:
        """Phrases for chance outcomes outside an action (setup), redacted for ``viewer``."""
        typed = self.typed_outcomes(outcomes)
        seen = [o for o in typed if o.seen_by(viewer)]
        hidden = len(typed) - len(seen)
        phrases = [f"{o.kind}: {o.value}" for o in seen]
        return phrases + ([f"{hidden} hidden outcome(s)"] if hidden else [])

    def scores(self, state: S) -> dict[int, int] | None:
        """The game's own running score per seat, or None where it has none."""
        return None

    def position(self, state: S) -> dict[str, Any]:
        """The canonical position the digest is taken over (format ``position_format``).

        It is every field of the game's state as plain data (engine.core.data), card
        definitions excluded: those are fixed by ``MatchCreated``. A refactor that changes the
        state's fields without changing the rules overrides this to keep giving the same
        position; a rules change that changes what a position is bumps ``position_format``.
        The golden matches (tests/golden) fail when either is forgotten. ``digest`` builds this
        default position already canonical in one walk; an override is digested as it returns.
        """
        return _without_empty_late_fields(state, skip=state.shared_fields)

    def digest(self, state: S) -> str:
        """The state digest stored with every recorded action: ``p<format>:<sha256 hex>`` of
        the canonical msgpack of ``position(state)``."""
        if type(self).position is Ruleset.position:
            # the default position, built already canonical in one walk of the state
            data = _canonical_without_empty_late_fields(state, skip=state.shared_fields)
        else:
            data = canonical(self.position(state))
        return f"p{self.position_format}:{canonical_digest(data)}"

    def legacy_digest(self, state: S) -> str:
        """The digest format of matches recorded before position digests (a bare SHA-256 of
        the whole internal state, card definitions included). Reproducible only while the
        internal state keeps the layout it had then; the audit uses it where it can."""
        return canonical_digest(_canonical_without_empty_late_fields(state))

    def state_to_data(self, state: S) -> dict[str, Any]:
        """Plain data for storage and snapshots (the kernel's late fields left out while
        empty: a snapshot keeps the shape it had before them, ``state_from_data`` fills them
        in)."""
        data: dict[str, Any] = to_data(state)
        for name in KERNEL_LATE_FIELDS:
            if not data.get(name):
                data.pop(name, None)
        return data

    def state_from_data(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state stored with ``state_to_data``."""
        return from_data(self.state_class, data)  # type: ignore[no-any-return]

    # ----- common rules --------------------------------------------------------------------
    def _concede(self, state: S, seat: int, chance: Chance) -> None:
        """C4: the conceding seat is eliminated; the last one standing wins."""
        state.eliminated.append(seat)
        remaining = state.in_play()
        if len(remaining) <= 1:
            state.result = MatchResult(winners=remaining, losers=[s for s in state.seats()
                                                                   if s not in remaining],
                                       reason="concession", detail=f"seat {seat} conceded")
            self._kernel_ended(state)
        else:
            self._on_eliminated(state, seat, chance)

    def _on_eliminated(self, state: S, seat: int, chance: Chance) -> None:
        """Games with 3+ players move the turn on when the active seat is eliminated. A game
        overriding this may resolve what the seat's leaving completes (the last face-down
        choice of a simultaneous choice) with ``chance``."""
        if state.active == seat:
            order = state.seats()
            i = order.index(seat)
            for step in range(1, len(order)):
                nxt = order[(i + step) % len(order)]
                if nxt not in state.eliminated:
                    state.active = nxt
                    return

    def _check_turn_limit(self, state: S) -> None:
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
        self._kernel_ended(state)

    def _turn_ended(self, state: S) -> None:
        """The turn number moved on: the lasting modifiers made until the end of the turn
        end."""
        state.modifiers = [m for m in state.modifiers if m.until != "end_of_turn"]

    def _modifiers_in_play(self, state: S) -> None:
        """A lasting modifier lasts while its card is in play with that stat (``Stat.cards``):
        a card that left play is a new card if it comes back, without it (C3)."""
        having = {stat.name: set(stat.cards(state)) for stat in self.stats}
        state.modifiers = [m for m in state.modifiers if m.card in having.get(m.stat, ())]

    def _kernel_ended(self, state: S) -> None:
        """Called once the kernel has ended the match (a concession, time called), with
        ``state.result`` set: a game adds what its rules attach to every ending (Kami no
        Kijutsu's spoils), changing ``state.result`` in place. Nothing by default."""

    def _adjust_phrase(self, act: Adjust, viewer: Viewer) -> str:
        if act.move is not None:
            m = act.move
            card = m.card if self._move_visible(m.model_dump(), act.seat, viewer) else "a card"
            source, target = m.seats(act.seat)
            whose = (lambda s: "" if s == act.seat else f" of seat {s}")  # noqa: E731
            return (f"moves {card} from {m.from_zone}{whose(source)} to "
                    f"{m.to_zone}{whose(target)}")
        if act.counter is not None:
            return f"sets {act.counter.name} to {act.counter.value}"
        if act.modifier is not None:
            mod = act.modifier
            if mod.end:
                return f"ends the lasting modifiers of {mod.card}'s {mod.stat}"
            until = "until the end of the turn" if mod.until == "end_of_turn" else "for good"
            return f"gives {mod.card} {mod.amount:+d} {mod.stat} {until}"
        assert act.turn is not None
        t = act.turn
        parts = [f"seat {t.active} to act" if t.active else "",
                 f"turn {t.turn}" if t.turn else "", f"phase {t.phase}" if t.phase else ""]
        return "sets " + ", ".join(p for p in parts if p)

    def _adjust_checked(self, state: S, act: Adjust) -> None:
        """C3 in the kernel: seats and zone names are checked against the match and the zone
        table before the game looks at any card, so a refusal reveals nothing hidden. A move
        between two zones whose holdings the game declares, and a counter it declares as a
        tally, are the kernel's own (``_move_held``, ``_set_tally``); anything else is the
        game's ``_adjust``."""
        if act.move is not None:
            ends = list(zip(act.move.seats(act.seat), (act.move.from_zone, act.move.to_zone)))
            zones = []
            for seat, ref in ends:
                self._require_seat(state, seat)
                zone, address = self.zone_table.parse(ref)
                self._check_address(state, seat, zone, address)
                zones.append((zone, address))
            if all(zone.holding is not None for zone, _ in zones):
                self._move_held(state, act, zones[0], zones[1])
            else:
                self._adjust(state, act)
        elif act.modifier is not None:
            self._modify(state, act.modifier, act.reason)
        elif act.counter is not None:
            if self.tallies:
                self._set_tally(state, act.seat, act.counter.name, act.counter.value)
            else:
                self._adjust(state, act)
        else:
            assert act.turn is not None
            self._change_turn(state, act.turn)
            return
        self._adjusted(state, act)

    def _move_held(self, state: S, act: Adjust, source: tuple[Zone, str],
                   target: tuple[Zone, str]) -> None:
        """A judge's move between two held zones: the card must be in the place it leaves; it
        is taken out first, then the place it enters is asked whether it admits it on the
        position as the removal left it, and it is put there."""
        move = act.move
        assert move is not None
        (from_zone, from_address), (to_zone, to_address) = source, target
        assert from_zone.holding is not None and to_zone.holding is not None
        leaves, enters = move.seats(act.seat)  # a shared zone's holding may use them too
        holding = from_zone.holding
        if from_address not in holding.addresses(state, leaves) and \
                from_address not in holding.entries(state, leaves):
            raise IllegalAction(R.BAD_ZONE, f"There is no place {move.from_zone!r}"
                                + (f" of seat {leaves}." if from_zone.owner == "seat" else "."))
        card = holding.find(state, leaves, from_address, move.card) \
            if from_address in holding.addresses(state, leaves) else None
        if card is None:
            raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{move.card} is not in {move.from_zone}"
                                + (f" of seat {leaves}." if from_zone.owner == "seat" else "."))
        if from_zone is to_zone and leaves == enters and holding.shift(
                state, leaves, from_address, to_address, card):
            return
        holding.take(state, leaves, from_address, card)
        to_zone.holding.admit(state, enters, to_address, card)
        to_zone.holding.put(state, enters, to_address, card)

    def _set_tally(self, state: S, seat: int, name: str, value: int) -> None:
        """A judge sets a declared counter, stat or flag (``tallies``), within its bounds."""
        tally, key = tally_named(self.tallies, name)
        if key and key not in tally.keys(state, seat):
            raise IllegalAction(R.BAD_COUNTER, f"{key} has no {tally.name} now"
                                + (f" for seat {seat}." if tally.of != "card" else "."))
        if not tally.low <= value <= tally.high:
            raise IllegalAction(R.BAD_COUNTER, f"{tally.reference()} is "
                                f"{'0 or 1' if tally.flag else f'{tally.low} to {tally.high}'}"
                                f", not {value}.")
        tally.set(state, seat, key, value)

    def _modify(self, state: S, change: ModifierChange, reason: str) -> None:
        """A judge gives a card in play a lasting modifier of a stat the game declares
        (``stats``), or ends that stat's modifiers of that card."""
        stat = next((st for st in self.stats if st.name == change.stat), None)
        if stat is None:
            known = ", ".join(st.name for st in self.stats) or "none"
            raise IllegalAction(R.BAD_STAT, f"Unknown stat {change.stat!r}: this game's "
                                f"stats are {known}.")
        if change.card not in stat.cards(state):
            raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{change.card} is not a card in play "
                                f"with {stat.name}.")
        if change.end:
            state.modifiers = [m for m in state.modifiers
                               if (m.card, m.stat) != (change.card, change.stat)]
            return
        state.modifiers = [*state.modifiers, Modifier(change.card, change.stat, change.amount,
                                                      change.until, reason)]

    def _adjusted(self, state: S, act: Adjust) -> None:
        """After a judge's move or counter: what the game derives from the position (a
        victory, a renumbered grid) is brought in step, or IllegalAction if the adjustment
        broke one of its invariants. Nothing by default."""

    def _require_seat(self, state: S, seat: int) -> None:
        if seat > len(state.players):
            raise IllegalAction(R.NO_SUCH_SEAT, f"There is no seat {seat} in this match.")

    def _change_turn(self, state: S, change: TurnChange) -> None:
        """Extra turns and skipped phases: set the active seat, the turn number, the phase."""
        if change.phase is not None and change.phase not in self.phases:
            raise IllegalAction(R.BAD_PHASE, f"Unknown phase {change.phase!r}: "
                                f"{self.title} has " + (", ".join(self.phases) or "no phases")
                                + ".")
        if change.active is not None:
            self._require_seat(state, change.active)
            if change.active in state.eliminated:
                raise IllegalAction(R.ELIMINATED, f"Seat {change.active} has been eliminated.")
            state.active = change.active
        if change.turn is not None:
            state.turn = change.turn
        if change.phase is not None:
            self._set_phase(state, change.phase)

    def _check_address(self, state: S, seat: int, zone: Zone, address: str) -> None:
        """Raise IllegalAction ``bad_zone`` if ``address`` is no place in ``zone`` (a game with
        addressed zones overrides this; it may look only at what everyone can see)."""
        if address and not zone.address:
            raise IllegalAction(R.BAD_ZONE, f"Zone {zone.name} has no places: write "
                                f"{zone.name}, not {zone.name}:{address}.")

    def _set_phase(self, state: S, phase: str) -> None:
        """Set the game's phase (a game with ``phases`` overrides this)."""
        raise IllegalAction(R.BAD_PHASE, f"{self.title} has no phases to set.")

    # ----- hooks for each game -------------------------------------------------------------
    @abstractmethod
    def _setup(self, config: MatchConfig, options: OptionsT, cards: dict[str, Any],
               chance: Chance) -> S:
        """Build the initial state."""

    @abstractmethod
    def _apply(self, state: S, action: Action, chance: Chance) -> None:
        """Apply a game action to ``state`` (a private copy) or raise IllegalAction."""

    def _adjust(self, state: S, action: Adjust) -> None:
        """A C3 adjustment the kernel does not do itself (a move naming a zone without a
        holding, a counter of a game that declares no tallies): apply it to ``state`` (a
        private copy) or raise IllegalAction. The default refuses."""
        if action.counter is not None:
            raise IllegalAction(R.BAD_COUNTER, f"{self.title} has no counters to set.")
        raise IllegalAction(R.BAD_ZONE, "That zone cannot be adjusted: zones are "
                            f"{self.zone_table.vocabulary()}.")

    @abstractmethod
    def _legal_actions(self, state: S, seat: int) -> list[Action]:
        """The legal game actions for ``seat``."""

    def _places(self, state: S) -> dict[Place, list[str]]:
        """Every place of the zone table (zone, seat, address) with its cards, for effects and
        generic boards: read from the zones' holdings (a game whose zones have none says them
        itself)."""
        out: dict[Place, list[str]] = {}
        for zone in self.zone_table.zones.values():
            holding = zone.holding
            if holding is None:
                continue
            for seat in (state.seats() if zone.owner == "seat" else [None]):
                for address in holding.addresses(state, seat):
                    out[Place(zone.name, seat, address)] = holding.cards(state, seat, address)
        return out

    def _values(self, state: S) -> dict[str, Any]:
        """The game's own values whose changes are effects (phase, counters...)."""
        return {}

    def _choice_space(self, state: S, seat: int) -> list[Choice]:
        """The combinatorial choices behind the listed actions (see engine.core.legality);
        a game whose every legal action is listed returns none."""
        return []

    @abstractmethod
    def _view(self, state: S, viewer: Viewer) -> dict[str, Any]:
        """The game-specific part of the view."""

    @abstractmethod
    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: S | None = None, effects: Sequence[Effect] = ()) -> str:
        """A transcript line for a game action."""


def _setup_short(missing: Outcome | None, given: Sequence[Any], needed: int | None) -> str:
    """The refusal of a setup given too few chance outcomes: which one is missing, how many
    were given and, where it does not depend on their values, how many are needed."""
    what = f", {missing.needed()}," if missing is not None else ""
    n = len(given)
    count = "none was given" if not n else f"{n} {'was' if n == 1 else 'were'} given"
    if needed is not None:
        count += f" and {needed} {'is' if needed == 1 else 'are'} needed"
    return (f"Setup needs more chance outcomes than were given: outcome {n + 1}{what} is "
            f"missing; {count}.")


KERNEL_LATE_FIELDS = ("modifiers",)  # fields the kernel added after matches were recorded


def _without_empty_late_fields(state: GameState, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The state as plain data without its empty late fields, nor the fields named in ``skip``
    (never converted: the card definitions are most of a state's bytes)."""
    data: dict[str, Any] = {f.name: to_data(getattr(state, f.name))
                            for f in dataclasses.fields(state) if f.name not in skip}
    for name in (*KERNEL_LATE_FIELDS, *state.late_fields):
        if not data.get(name):
            data.pop(name, None)
    return data


def _canonical_without_empty_late_fields(state: GameState,
                                        skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """``canonical(_without_empty_late_fields(state, skip))`` in one walk of the state."""
    names = sorted_fields_of(type(state))
    assert names is not None, "a game state is a dataclass"
    late = (*KERNEL_LATE_FIELDS, *state.late_fields)
    data: dict[str, Any] = {}
    for name in names:
        if name in skip:
            continue
        value = getattr(state, name)
        if type(value) not in SCALAR_TYPES:  # most fields are counters and flags: no call
            value = canonical_data(value)
        if not value and name in late:
            continue  # empty exactly when to_data's value is: _without_empty_late_fields's test
        data[name] = value
    return data


def _string_keys(scores: dict[int, int] | None) -> dict[str, int] | None:
    """Views are JSON-shaped: seat keys become strings (as JSON and msgpack clients expect)."""
    return None if scores is None else {str(seat): value for seat, value in scores.items()}


def _texts(value: Any) -> set[str]:
    """Every text in ``value`` (an action, as a model or as data), however deeply held."""
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if isinstance(value, str):
        return {value}
    if isinstance(value, Mapping):
        return {t for k, v in value.items() for t in (*_texts(k), *_texts(v))}
    if isinstance(value, list | tuple):
        return {t for v in value for t in _texts(v)}
    return set()


_CARD_KEYS = ("id", "card")  # the keys under which a game's rendering of a card names it


def _unshown(value: Any, hidden: frozenset[str]) -> Any:
    """``value`` (a view) with every card of ``hidden`` unnamed: a bare id becomes None, and so
    does a card's rendering that names one under ``id`` or ``card``; an entry keyed by one
    goes."""
    if isinstance(value, str):
        return None if value in hidden else value
    if isinstance(value, dict):
        if any(isinstance(value.get(k), str) and value[k] in hidden for k in _CARD_KEYS):
            return None
        return {k: _unshown(v, hidden) for k, v in value.items() if k not in hidden}
    if isinstance(value, list):
        return [_unshown(v, hidden) for v in value]
    return value


_WORDS = re.compile(r"[\w@.:-]*\w")  # a card id or instance id as a message writes it


def _unnamed(error: ActionError, hidden: set[str]) -> ActionError:
    """``error`` with every card of ``hidden`` it names (a whole word of its message or of
    its details' text) put as "a hidden card"; ``error`` itself when it names none."""
    def scrub(text: str) -> str:
        return _WORDS.sub(lambda m: "a hidden card" if m[0] in hidden else m[0], text)

    def scrub_value(value: Any) -> Any:
        if isinstance(value, str):
            return scrub(value)
        if isinstance(value, list | tuple):
            return [scrub_value(v) for v in value]
        if isinstance(value, Mapping):
            return {k: scrub_value(v) for k, v in value.items()}
        return value

    message = scrub(error.message)
    details = {k: scrub_value(v) for k, v in error.details.items()}
    if message == error.message and details == error.details:
        return error
    return type(error).passed_on(error.reason, message, **details)


def _json_errors(exc: ValidationError) -> list[dict[str, Any]]:
    return [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"]} for e in exc.errors()[:10]]


def replace_state(state: GameState, **changes: Any) -> GameState:
    """A copy of ``state`` with ``changes`` (used by tests and tools)."""
    return dataclasses.replace(copy_state(state), **changes)
