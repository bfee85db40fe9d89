"""Illuminati: New World Order actions (the vocabulary of docs/games/illuminati.md).

Cards are named by instance id (``lamp-bearers@2``) or, where unambiguous in the zone they are
taken from, by bare card id (``lamp-bearers``). ``illuminati`` names the acting seat's own
Illuminati wherever a card of its power structure is expected.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.core.actions import card_field
from engine.core.chance import CardDrawn, CardRevealed, DieRolled, OutcomeKind
from engine.core.contract import Action
from engine.core.zones import CardFlow
from engine.illuminati.model import Side

CardRef = card_field(min_length=1, max_length=60)


# ----- setup (開始準備)  -------------------------------------------------
class RevealIlluminati(Action):
    """All players reveal the Illuminati they laid face down, together (one action per table).
    It names every seat's face-down card, which no one seat may know: a judge's (or the
    organiser's) to record."""

    judges_only = True
    consumes = ("plot_draw",)
    type: Literal["reveal_illuminati"] = "reveal_illuminati"
    choices: dict[int, str] = card_field(
        description="Seat -> the Illuminati card from its plot deck.")


class ChooseIlluminati(Action):
    """Lay your Illuminati face down (開始準備). Nobody else sees it until every player has
    chosen; the last choice reveals them all together, then 3 plots each are drawn."""

    card_flows = (CardFlow("card", ("plot_deck",), "chosen"),)
    consumes = ("plot_draw",)
    type: Literal["choose_illuminati"] = "choose_illuminati"
    card: str = card_field(min_length=1, max_length=60,
                           description="An Illuminati card from your plot deck.")


class ChooseGroup(Action):
    """Lay your initial group face down (I9). When every player still choosing has chosen,
    all are revealed; duplicated names are set aside and those players choose again."""

    card_flows = (CardFlow("card", ("group_deck",), "chosen"),)
    consumes = ("group_draw", "order_roll")
    type: Literal["choose_group"] = "choose_group"
    card: str = card_field(min_length=1, max_length=60,
                           description="A group card from your group deck.")


class RevealGroups(Action):
    """One round of the simultaneous initial-group choice (I9): every seat still without a
    group reveals one; duplicated names are set aside and those seats choose again. It names
    every seat's face-down card: a judge's to record, as ``reveal_illuminati``."""

    judges_only = True
    consumes = ("group_draw", "order_roll")
    type: Literal["reveal_groups"] = "reveal_groups"
    choices: dict[int, str] = card_field(description="Seat -> a group card from its group deck.")


# ----- beginning of turn ---------------------------------------------------------------------
class DrawPlot(Action):
    """Draw a plot card: free once at the beginning of your turn; otherwise (at any time) paid
    with one token of your Illuminati (or an Action resource) or two tokens of your groups."""

    consumes = ("plot_draw",)
    type: Literal["draw_plot"] = "draw_plot"
    pay: list[str] = card_field(default_factory=list, max_length=2,
                                description="Cards whose token pays; empty for the free draw.")


class DrawGroup(Action):
    """Draw a group-deck card: free at the beginning of your turn, or once in the main phase for
    one token."""

    consumes = ("group_draw",)
    type: Literal["draw_group"] = "draw_group"
    pay: str | None = card_field(default=None,
                                 description="Card whose token pays (main phase).")


class AutoControl(Action):
    """Automatic control at the beginning of your turn: a group from hand onto a free arrow of
    your structure, or a resource from hand to your resource area. No token needed."""

    type: Literal["auto_control"] = "auto_control"
    card: str = CardRef
    parent: str | None = card_field(default=None,
                                    description="Groups: the card to hang it from.")
    arrow: Side | None = Field(default=None, description="Groups: the parent's free arrow; the "
                               "first free one when omitted.")


class BeginMain(Action):
    """End the beginning of the turn: action tokens are placed (I6) and the main phase starts."""

    type: Literal["begin_main"] = "begin_main"


# ----- attacks (各攻撃の処理)  ---------------------------------------------
class DeclareAttack(Action):
    """Declare an attack to control or destroy; it can still be aborted until it is paid."""

    type: Literal["attack"] = "attack"
    attacker: str = card_field(description="Your Illuminati or a group of yours holding a token.")
    target: str = card_field(description="A group in a structure, or (control only) in your hand.")
    purpose: Literal["control", "destroy"]
    power: Literal["power", "global"] = Field(
        default="power", description="Which of the attacker's power values to use.")
    arrow: Side | None = Field(default=None, description="Control: the attacker's free arrow "
                               "the target will hang from; the first free one when omitted.")


class PayAttack(Action):
    """Start the declared attack by removing the attacker's token or playing an attack plot."""

    type: Literal["pay_attack"] = "pay_attack"
    plot: str | None = card_field(default=None, description="An attack plot from hand; the "
                                  "attacker's token when omitted.")


class AbortAttack(Action):
    """Call off the declared attack before it is paid."""

    type: Literal["abort_attack"] = "abort_attack"


class Support(Action):
    """Spend one token of one of your cards to add to the attack or to the defence."""

    type: Literal["support"] = "support"
    card: str = CardRef
    side: Literal["attack", "defend"]
    use: Literal["power", "global"] = Field(
        default="power", description="'power' where the rules allow it (alignment, adjacency, "
                                     "the target itself); 'global' from any group.")


class PlayAgent(Action):
    """Play a group agent (a copy of the target) from hand: +10 attacking, +6 defending."""

    type: Literal["agent"] = "agent"
    card: str = CardRef
    side: Literal["attack", "defend"]


class Pass(Action):
    """Done supporting this attack; when every player has passed, the dice are rolled."""

    consumes = ("attack_die",)
    type: Literal["pass"] = "pass"


class InstantAttack(Action):
    """I5: an instant-attack plot destroys a group if its power is at least the group's."""

    type: Literal["instant_attack"] = "instant_attack"
    plot: str = CardRef
    target: str = CardRef


# ----- other main-phase actions ---------------------------------------------------------------
class MoveGroup(Action):
    """Move a group with everything under it to another free arrow of your structure (1 token)."""

    type: Literal["move"] = "move"
    group: str = CardRef
    parent: str = CardRef
    arrow: Side | None = None
    pay: str = card_field(description="The card of your structure whose token pays.")


class PlaceResource(Action):
    """Place a resource from hand in your resource area (once a turn, main phase)."""

    type: Literal["place_resource"] = "place_resource"
    card: str = CardRef


class UseResource(Action):
    """Record that a resource's text was used this turn (its effect is card text, C3)."""

    type: Literal["use_resource"] = "use_resource"
    card: str = CardRef
    note: str = Field(default="", max_length=200)


class GiveResource(Action):
    """Give one of your unused resources to another player (it links to their Illuminati)."""

    type: Literal["give_resource"] = "give_resource"
    card: str = CardRef
    to: int = Field(ge=1)


class TradeResources(Action):
    """Swap one of your unused resources for another player's unused one."""

    type: Literal["trade_resources"] = "trade_resources"
    give: str = CardRef
    take: str = CardRef


class MakeLink(Action):
    """Link two of your cards on the table (your turn)."""

    type: Literal["link"] = "link"
    a: str = CardRef
    b: str = CardRef


class MoveLink(Action):
    """Move one end of a link to another of your cards (once per link per turn)."""

    type: Literal["move_link"] = "move_link"
    a: str = CardRef
    b: str = CardRef
    old: str = card_field(description="The end that moves (a or b).")
    new: str = card_field(description="The card it moves to.")


class PlaceAgent(Action):
    """Place an Illuminati agent from your plot hand; costs the top card of each of your decks."""

    consumes = ("agent_cost_plot", "agent_cost_group")
    type: Literal["place_agent"] = "place_agent"
    card: str = CardRef


class PlayPlot(Action):
    """Play a plot from hand (its effect is card text, C3): ordinary and New World Order plots."""

    type: Literal["play_plot"] = "play_plot"
    card: str = CardRef
    link: str | None = card_field(default=None,
                                  description="Permanent plots: a card to link it to.")


# ----- anytime actions (いつでもできる行動)  ----------------------------------
class Discard(Action):
    """Discard from hand: plots go under your plot deck in the order given, others to discard."""

    # the record hides them all: plots go face down under the deck (groups then show in the
    # discard pile)
    card_flows = (CardFlow("cards", ("plot_hand", "group_hand"), "plot_deck"),)
    type: Literal["discard"] = "discard"
    cards: list[str] = card_field(min_length=1)


class GiveCards(Action):
    """Give cards from your hand to another player."""

    card_flows = (CardFlow("cards", ("plot_hand", "group_hand"), "group_hand",
                           to_seat_field="to"),)
    type: Literal["give_cards"] = "give_cards"
    to: int = Field(ge=1)
    cards: list[str] = card_field(min_length=1)


# ----- victory (勝利条件)  -----------------------------------------------
class DeclareVictory(Action):
    """Declare victory; it is settled at the end of the turn. The basic goal is checked by the
    engine; a special goal or goal card is a claim (C3) the others may dispute."""

    type: Literal["declare_victory"] = "declare_victory"
    goal: Literal["basic", "special", "goal_card"]
    card: str | None = card_field(default=None,
                                  description="goal_card: the goal card from hand.")


class DisputeClaim(Action):
    """Dispute another player's special-goal or goal-card claim; a judge then rules."""

    type: Literal["dispute"] = "dispute"
    calls_judge = True
    claimant: int = Field(ge=1)


class RuleClaim(Action):
    """A judge's ruling on the disputed claim of ``seat`` (the claimant)."""

    type: Literal["rule_claim"] = "rule_claim"
    judges_only = True
    upheld: bool
    reason: str = Field(min_length=3, max_length=300)


class EndTurn(Action):
    """End the turn: loose hand groups are discarded, the plot hand limit applied (I7), victory
    declarations settled, and the next player begins."""

    card_flows = (CardFlow("plots_to_bottom", ("plot_hand",), "plot_deck"),)
    type: Literal["end_turn"] = "end_turn"
    plots_to_bottom: list[str] = card_field(
        default_factory=list, description="I7: the excess plots, in the order they go under "
                                          "the plot deck.")


ACTIONS: tuple[type[Action], ...] = (
    RevealIlluminati, RevealGroups, DrawPlot, DrawGroup, AutoControl, BeginMain,
    DeclareAttack, PayAttack, AbortAttack, Support, PlayAgent, Pass, InstantAttack,
    MoveGroup, PlaceResource, UseResource, GiveResource, TradeResources, MakeLink, MoveLink,
    PlaceAgent, PlayPlot, Discard, GiveCards, DeclareVictory, DisputeClaim, RuleClaim, EndTurn,
    ChooseIlluminati, ChooseGroup,
)

# C1: what chance decides in Illuminati, and what a physical table enters for it
OUTCOME_KINDS = (
    OutcomeKind("plot_draw", CardDrawn, "A card a seat draws from its plot deck (3 each after "
                "the Illuminati reveal, then draw_plot)."),
    OutcomeKind("group_draw", CardDrawn, "A card a seat draws from its group deck (6 each when "
                "setup ends, then draw_group)."),
    OutcomeKind("order_roll", DieRolled, "I10: each die of a seat's 2d6 for turn order "
                "(order_roll:SEAT), tied seats rolling again among themselves."),
    OutcomeKind("agent_cost_plot", CardRevealed, "The plot-deck card discarded as an "
                "Illuminati agent's cost."),
    OutcomeKind("agent_cost_group", CardRevealed, "The group-deck card discarded as an "
                "Illuminati agent's cost."),
    OutcomeKind("attack_die", DieRolled, "I4: each die of the attack's 2d6, rolled when the "
                "last player passes."),
)
