"""The actions every game shares: the base ``Action``, concession (C4) and a judge's adjustment
(C3) with its four kinds of change: a card moved between seats' zones, a counter, the turn, a
lasting modifier of a card's stat."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticUndefined

from engine.core.zones import CardFlow

NAMES_CARDS = "x-card"
"""The JSON-schema mark of an action field whose value names cards (``card_field``)."""


def card_field(default: Any = PydanticUndefined, **constraints: Any) -> Any:
    """A field of an action that names cards: a card id or instance id, a list of them, or a
    mapping whose values are. The kernel judges a refusal of the action by it (a card the
    asker cannot know gets the same refusal as one that does not exist, ``Ruleset.refusal_for``)
    and the JSON schema marks it ``x-card``, so a form can offer a card picker."""
    extra = {NAMES_CARDS: True}
    return Field(default, json_schema_extra=extra, **constraints)  # type: ignore[arg-type]


class Action(BaseModel):
    """Base of every action: who acts. Subclasses add ``type`` (the discriminator) and fields.

    ``card_flows`` declares the fields that name cards moving between zones, so the kernel can
    hide them from viewers who may see neither end (see engine.core.zones.CardFlow).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    card_flows: ClassVar[tuple[CardFlow, ...]] = ()
    consumes: ClassVar[tuple[str, ...]] = ()  # outcome kinds it may ask chance for, in order
    judges_only: ClassVar[bool] = False  # a judge's act (a ruling), never a player's
    calls_judge: ClassVar[bool] = False  # a player's dispute of a claim: a judge must rule

    seat: int = Field(ge=1, description="The acting seat, numbered from 1.")


class Concede(Action):
    """C4: the seat concedes; in a two-player match the opponent wins."""

    type: Literal["concede"] = "concede"


class CardMove(BaseModel):
    """Move one card from a zone of one seat to a zone of another (or the same) seat.

    Zone references are the game's zone table (``kiroku actions GAME`` lists them); the seats
    default to the adjusted seat, so a card can be put onto a field or a structure the
    opponent holds, or into their hand, as card texts do at real tables."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    card: str = card_field(min_length=1, max_length=80)
    from_zone: str = Field(min_length=1, max_length=120)
    to_zone: str = Field(min_length=1, max_length=120)
    from_seat: int | None = Field(default=None, ge=1, description="Whose zone the card leaves "
                                  "(default: the adjusted seat).")
    to_seat: int | None = Field(default=None, ge=1, description="Whose zone the card enters "
                                "(default: the adjusted seat).")

    def seats(self, seat: int) -> tuple[int, int]:
        """(from seat, to seat) for an adjustment of ``seat``."""
        return (self.from_seat or seat, self.to_seat or seat)


class CounterChange(BaseModel):
    """Set one of the game's adjustable counters to a value."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1, max_length=120)
    value: int = Field(ge=-1_000_000, le=1_000_000)


class ModifierChange(BaseModel):
    """Give a card in play a lasting modifier of one of its stats (card text: "+2 AP until the
    end of the turn"), or end every lasting modifier of that stat of that card (``end``). The
    adjustment's reason is shown with it to everyone."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    card: str = card_field(min_length=1, max_length=80)
    stat: str = Field(min_length=1, max_length=40, description="One of the game's stats.")
    amount: int = Field(default=0, ge=-99, le=99)
    until: Literal["end_of_turn", "permanent"] = Field(
        default="permanent", description="end_of_turn: it ends when the turn does.")
    end: bool = Field(default=False, description="End the card's lasting modifiers of that "
                                                 "stat instead.")

    @model_validator(mode="after")
    def _something(self) -> ModifierChange:
        if not self.end and self.amount == 0:
            raise ValueError("a modifier changes a stat by a non-zero amount (or ends: true)")
        return self


class TurnChange(BaseModel):
    """Set whose turn it is, the turn number and the phase (extra turns, skipped phases)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    active: int | None = Field(default=None, ge=1, description="The seat whose turn it is.")
    turn: int | None = Field(default=None, ge=1, le=1_000_000)
    phase: str | None = Field(default=None, min_length=1, max_length=40,
                              description="One of the game's phases.")

    @model_validator(mode="after")
    def _something(self) -> TurnChange:
        if self.active is None and self.turn is None and self.phase is None:
            raise ValueError("a turn change sets at least one of active, turn, phase")
        return self


class Adjust(Action):
    """C3: a judge's (or both players') manual adjustment for a card effect, with a reason."""

    type: Literal["adjust"] = "adjust"
    judges_only = True
    reason: str = Field(min_length=3, max_length=500,
                        description="Why, in words: shown in every transcript.")
    move: CardMove | None = None
    counter: CounterChange | None = None
    turn: TurnChange | None = None
    modifier: ModifierChange | None = None

    @field_validator("reason")
    @classmethod
    def _visible(cls, reason: str) -> str:
        if len(reason.strip()) < 3 or not reason.isprintable():
            raise ValueError("a reason is at least 3 visible, printable characters")
        return reason

    @model_serializer(mode="wrap")
    def _without_no_modifier(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """An adjustment of another kind is stored as it was before modifiers existed."""
        data: dict[str, Any] = handler(self)
        if data.get("modifier") is None:
            data.pop("modifier", None)
        return data

    @model_validator(mode="after")
    def _one_change(self) -> Adjust:
        if sum(x is not None for x in (self.move, self.counter, self.turn,
                                       self.modifier)) != 1:
            raise ValueError("an adjustment is exactly one of 'move', 'counter', 'turn' or "
                             "'modifier'")
        return self
