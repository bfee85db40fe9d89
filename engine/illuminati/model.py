"""Illuminati: New World Order data: alignments, cards, power structures and the state.

Section names in comments are the rules document's own (000): 属性について (alignments),
権力構造図について (power structure), 支配矢印について (control arrows), カード構成 (cards),
場の構成 (zones).

Every physical card in a match has an *instance id*, ``<card id>@<owner seat>`` for the first copy
in a deck and ``<card id>@<owner seat>.<n>`` for the n-th: cards change hands and structures in
this game, and "back to its owner's hand" needs the owner. Actions may name a card by its bare
card id where that is unambiguous in the zone it is taken from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.contract import GameState


class Alignment(StrEnum):
    """The ten alignments (属性について)."""

    GOVERNMENT = "government"
    CORPORATE = "corporate"
    LIBERAL = "liberal"
    CONSERVATIVE = "conservative"
    PEACEFUL = "peaceful"
    VIOLENT = "violent"
    STRAIGHT = "straight"
    WEIRD = "weird"
    CRIMINAL = "criminal"
    FANATIC = "fanatic"


_OPPOSITES = {
    Alignment.GOVERNMENT: Alignment.CORPORATE, Alignment.CORPORATE: Alignment.GOVERNMENT,
    Alignment.LIBERAL: Alignment.CONSERVATIVE, Alignment.CONSERVATIVE: Alignment.LIBERAL,
    Alignment.PEACEFUL: Alignment.VIOLENT, Alignment.VIOLENT: Alignment.PEACEFUL,
    Alignment.STRAIGHT: Alignment.WEIRD, Alignment.WEIRD: Alignment.STRAIGHT,
}


def opposed(a: Alignment, b: Alignment) -> bool:
    """Whether two alignments oppose: the four pairs, and Fanatic against every other Fanatic
    card (I2); Criminal opposes nothing."""
    if a == Alignment.FANATIC and b == Alignment.FANATIC:
        return True
    return _OPPOSITES.get(a) == b


def shared(a: Alignment, b: Alignment) -> bool:
    """Whether two alignments count as shared: equal and not Fanatic (I2)."""
    return a == b and a != Alignment.FANATIC


def shared_pairs(mine: list[Alignment], theirs: list[Alignment]) -> int:
    """I2: the number of (mine, theirs) alignment pairs that are shared."""
    return sum(1 for a in mine for b in theirs if shared(a, b))


def opposed_pairs(mine: list[Alignment], theirs: list[Alignment]) -> int:
    """I2: the number of (mine, theirs) alignment pairs that are opposed."""
    return sum(1 for a in mine for b in theirs if opposed(a, b))


class Kind(StrEnum):
    """Card kinds. Illuminati and plots have blue backs (plot deck); groups and resources red
    (group deck)."""

    ILLUMINATI = "illuminati"
    GROUP = "group"
    RESOURCE = "resource"
    PLOT = "plot"


class PlotType(StrEnum):
    """What the core rules do with a plot; everything else a plot does is card text (C3)."""

    ORDINARY = "ordinary"
    ATTACK = "attack"  # pays for an attack instead of an action token
    INSTANT_ATTACK = "instant_attack"  # I5: destroy attack, printed power against printed power
    GOAL = "goal"  # an extra victory condition, one in hand
    NEW_WORLD_ORDER = "new_world_order"  # permanent, unique per colour on the table


Side = Literal["top", "right", "bottom", "left"]
SIDES: tuple[Side, ...] = ("top", "right", "bottom", "left")
SETUP_PHASES = ("choose_illuminati", "choose_groups")
PLOT_KINDS = (Kind.ILLUMINATI, Kind.PLOT)
GROUP_KINDS = (Kind.GROUP, Kind.RESOURCE)


TURN_PHASES = ("beginning", "main")  # what a judge's turn change may set (not the setup)



class Card(BaseModel):
    """An Illuminati: New World Order card definition as found in a card-set file."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
    name: str = Field(min_length=1, max_length=80)
    kind: Kind
    power: int = Field(default=0, ge=0, le=30,
                       description="Power (Illuminati, groups) or an instant attack's power.")
    global_power: int | None = Field(default=None, ge=0, le=30)
    resistance: int | None = Field(default=None, ge=0, le=30, description="Groups only.")
    alignments: list[Alignment] = Field(default_factory=list)
    arrows: list[Side] = Field(default_factory=list,
                               description="Outgoing control arrows (the incoming one of a group "
                                           "is always on top).")
    subtype: str = ""
    unique: bool = Field(default=False, description="Resources: 'Unique' (never placed twice).")
    action: bool = Field(default=False, description="Resources: 'Action' (holds a token).")
    plot_type: PlotType | None = None
    colour: Literal["red", "blue", "yellow"] | None = Field(
        default=None, description="New World Order plots: the colour they are unique in.")
    permanent: bool = Field(default=False, description="Plots that stay on the table once played.")
    goal: str = Field(default="", description="Special goal (Illuminati) or goal card condition.")
    text: str = ""

    @model_validator(mode="after")
    def _kind_fields(self) -> Card:
        if len(set(self.arrows)) != len(self.arrows):
            raise ValueError("an arrow side is listed twice")
        if self.kind == Kind.ILLUMINATI:
            if sorted(self.arrows) != sorted(SIDES):
                raise ValueError("an Illuminati has four outgoing arrows: top, right, bottom, "
                                 "left")
            if self.global_power is None:
                raise ValueError("an Illuminati has a global power")
        elif self.kind == Kind.GROUP:
            if "top" in self.arrows:
                raise ValueError("a group's top side holds its incoming arrow")
            if self.resistance is None:
                raise ValueError("a group has a resistance")
            if self.global_power is not None and self.global_power > self.power:
                raise ValueError("a group's global power cannot exceed its power")
        elif self.arrows:
            raise ValueError(f"a {self.kind.value} card has no control arrows")
        if self.kind == Kind.PLOT:
            if self.plot_type is None:
                raise ValueError("a plot has a plot_type")
            if (self.plot_type == PlotType.NEW_WORLD_ORDER) != (self.colour is not None):
                raise ValueError("New World Order plots, and only they, have a colour")
        elif self.plot_type is not None:
            raise ValueError("only plots have a plot_type")
        return self

    def is_goal(self) -> bool:
        """Whether this is a goal plot (one in hand at most)."""
        return self.kind == Kind.PLOT and self.plot_type == PlotType.GOAL


def card_of(instance: str) -> str:
    """The card id of an instance id (``cia@2.3`` -> ``cia``)."""
    return instance.partition("@")[0]


def owner_of(instance: str) -> int:
    """The owning seat of an instance id (``cia@2.3`` -> 2)."""
    return int(instance.split("@", 1)[1].split(".", 1)[0])


def find(zone: list[str], ref: str, seat: int | None = None) -> str | None:
    """The instance in ``zone`` that ``ref`` names: an instance id, or a bare card id (the
    copy owned by ``seat`` first, then the first in order)."""
    if ref in zone:
        return ref
    if "@" in ref:
        return None
    matches = [c for c in zone if card_of(c) == ref]
    if not matches:
        return None
    own = [c for c in matches if seat is not None and owner_of(c) == seat]
    return sorted(own or matches)[0]


@dataclass
class Node:
    """A card in a power structure: the Illuminati (no parent) or a group under ``parent`` at the
    parent's ``arrow`` side."""

    card: str
    parent: str | None = None
    arrow: Side | None = None
    tokens: int = 0
    power_mod: int = 0  # card-text changes to power, set by adjustment (C3)
    resistance_mod: int = 0


@dataclass
class Resource:
    """A resource, Illuminati agent or permanent plot in a player's resource area."""

    card: str
    tokens: int = 0
    used_turn: int = 0  # the turn its text was last used (give/trade need an unused resource)


@dataclass
class Link:
    """A link marker joining two of a player's cards on the table (リンクについて)."""

    a: str
    b: str
    moved_turn: int = 0


@dataclass
class Deck:
    """A deck: an unordered shuffled part (each draw is a recorded pick, C1) and the cards put
    under it since, in order, top first."""

    shuffled: list[str] = field(default_factory=list)
    bottom: list[str] = field(default_factory=list)

    def size(self) -> int:
        """Cards left."""
        return len(self.shuffled) + len(self.bottom)


@dataclass
class Player:
    """One seat's zones."""

    plot_deck: Deck
    group_deck: Deck
    illuminati: str | None = None
    structure: dict[str, Node] = field(default_factory=dict)
    plot_hand: list[str] = field(default_factory=list)  # plots, goals, Illuminati agents
    group_hand: list[str] = field(default_factory=list)  # groups and resources
    revealed: list[str] = field(default_factory=list)  # plot-hand cards shown to everyone
    resources: list[Resource] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)  # Illuminati agents
    plots: list[str] = field(default_factory=list)  # permanent plots on the table
    loose: list[str] = field(default_factory=list)  # hand groups placed as attack targets
    links: list[Link] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)  # the destroyed pile (破壊の山)
    initial_group: str | None = None
    first_turn_done: bool = False


@dataclass
class Support:
    """One contribution to an attack or a defence."""

    seat: int
    card: str
    basis: str  # power | global | adjacent | self | agent
    value: int


@dataclass
class Attack:
    """The attack in progress (各攻撃の処理)."""

    seat: int
    attacker: str
    target: str
    purpose: Literal["control", "destroy"]
    power_kind: Literal["power", "global"]
    target_seat: int | None  # the structure holding the target; None for a loose hand group
    arrow: Side | None = None  # control: the attacker's free arrow the target will hang from
    stage: Literal["declared", "support"] = "declared"
    paid_with: str = ""  # "token" or the attack plot's instance id
    from_hand: bool = False
    attack_support: list[Support] = field(default_factory=list)
    defence_support: list[Support] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)


@dataclass
class Claim:
    """A victory declaration, settled at the end of the turn."""

    seat: int
    goal: Literal["basic", "special", "goal_card"]
    card: str | None = None
    disputed_by: list[int] = field(default_factory=list)
    ruling: Literal["upheld", "rejected"] | None = None


@dataclass(kw_only=True)
class IlluminatiState(GameState):
    """The whole Illuminati position."""

    shared_fields = ("cards",)  # frozen definitions: copies of the state share them
    cards: dict[str, Card]
    seats_state: list[Player]
    phase: str = "choose_illuminati"  # choose_illuminati, choose_groups, beginning, main
    step: str = "plot"  # beginning of turn: plot, group, control
    order: list[int] = field(default_factory=list)
    setup_round: int = 0
    set_aside: list[str] = field(default_factory=list)  # I9 duplicates, back to decks later
    auto_controlled: bool = False
    resource_placed: bool = False
    group_draw_bought: bool = False
    attack: Attack | None = None
    claims: list[Claim] = field(default_factory=list)
    new_world_order: dict[str, str] = field(default_factory=dict)  # colour -> instance
    unique_placed: list[str] = field(default_factory=list)  # names of Unique resources ever placed
    # a simultaneous choice under way: seat -> the card it laid face down, until all have chosen
    chosen: dict[int, str] = field(default_factory=dict)
    late_fields = ("chosen",)

    def player(self, seat: int) -> Player:
        """The zones of ``seat`` (1-based)."""
        return self.seats_state[seat - 1]

    def card(self, instance: str) -> Card:
        """The card definition of an instance."""
        return self.cards[instance.partition("@")[0]]
