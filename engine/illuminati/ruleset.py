"""Illuminati: New World Order behind the shared contract (rules document 000, rulings C1-C5 and
I1-I10).

This shell only declares the game and routes: each action type goes to its handler in the module
of its rulebook section: setup (開始準備), turn (ターン開始, ターン終了), attacks (各攻撃の処理),
main_phase (メインフェイズ), anytime (いつでもできる行動), victory (勝利条件,
プレイヤーの脱落について). Legal actions, views and adjustments are their own modules'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Literal

from pydantic import Field

from engine.core.chance import Chance, Outcome
from engine.core.contract import (
    Action,
    Adjust,
    MatchConfig,
    Options,
    Ruleset,
)
from engine.core.effects import Effect
from engine.core.errors import IllegalAction
from engine.core.legality import Choice
from engine.core.viewer import Viewer
from engine.core.zones import Zone
from engine.illuminati import actions as act
from engine.illuminati import (
    anytime,
    attacks,
    choices,
    effects,
    legal,
    main_phase,
    setup,
    timing,
    turn,
    victory,
    views,
)
from engine.illuminati.model import TURN_PHASES, Card, IlluminatiState, find
from engine.illuminati.reasons import IlluminatiReason
from engine.illuminati.reasons import IlluminatiReason as R
from engine.illuminati.table import TALLIES, ZONES, check_structure_place

Handler = Callable[[IlluminatiState, Any, Chance], None]

HANDLERS: dict[type[Action], Handler] = {
    act.RevealIlluminati: setup.reveal_illuminati, act.RevealGroups: setup.reveal_groups,
    act.ChooseIlluminati: setup.choose_illuminati, act.ChooseGroup: setup.choose_group,
    act.DrawPlot: turn.draw_plot, act.DrawGroup: turn.draw_group,
    act.AutoControl: turn.auto_control, act.BeginMain: turn.begin_main,
    act.DeclareAttack: attacks.declare_attack, act.PayAttack: attacks.pay_attack,
    act.AbortAttack: attacks.abort_attack, act.Support: attacks.support,
    act.PlayAgent: attacks.play_agent, act.Pass: attacks.pass_support,
    act.InstantAttack: attacks.instant_attack, act.MoveGroup: main_phase.move_group,
    act.PlaceResource: main_phase.place_resource, act.UseResource: main_phase.use_resource,
    act.GiveResource: main_phase.give_resource,
    act.TradeResources: main_phase.trade_resources,
    act.MakeLink: main_phase.make_link, act.MoveLink: main_phase.move_link,
    act.PlaceAgent: main_phase.place_agent, act.PlayPlot: main_phase.play_plot,
    act.Discard: anytime.discard, act.GiveCards: anytime.give_cards,
    act.DeclareVictory: victory.declare_victory, act.DisputeClaim: victory.dispute,
    act.RuleClaim: victory.rule_claim, act.EndTurn: turn.end_turn,
}


class IlluminatiOptions(Options):
    """Illuminati regulation options (see docs/games/illuminati.md)."""

    goal_groups: int | None = Field(
        default=None, ge=1, le=40,
        description="I1: groups needed for the basic goal; by player count when unset "
                    f"(2-3: {victory.GOAL_GROUPS_FEW}, 4: {victory.GOAL_GROUPS_FOUR}, "
                    f"5+: {victory.GOAL_GROUPS_MANY}).")
    tournament_two_player: Literal["auto", "on", "off"] = Field(
        default="auto", description="I6: no Illuminati token on a turn with an automatic "
                                    "control; 'auto' is on in 2-player matches.")
    illuminati_global_aid: bool = Field(
        default=False, description="Whether an Illuminati may add its global power to an attack "
                                   "or a defence (the document names groups only).")
    reveals: Literal["seats", "table"] = Field(
        default="table", description="Setup's simultaneous choices (the Illuminati, the initial "
        "groups): 'seats', each player lays a card face down with choose_illuminati / "
        "choose_group, hidden until all have chosen (new matches); 'table', one action records "
        "the whole table's reveal (matches recorded before Illuminati 1.1).")

    introduced: ClassVar[dict[str, Any]] = {**Options.introduced, "reveals": "seats"}


class Illuminati(Ruleset[IlluminatiState, IlluminatiOptions]):
    """Illuminati: New World Order (TCG 1.2): secret societies build power structures."""

    game_id = "illuminati"
    title = "Illuminati: New World Order"
    version = "1.1"  # 1.1: setup's choices made face down by each seat (option reveals)
    min_players = 2
    max_players = 6
    state_class = IlluminatiState
    card_model = Card
    options_model = IlluminatiOptions
    actions = act.ACTIONS
    zones = ZONES
    reasons = IlluminatiReason
    tallies = TALLIES
    card_aliases = ("illuminati",)  # the acting seat's own Illuminati, wherever a card goes
    outcome_kinds = act.OUTCOME_KINDS
    phases = TURN_PHASES

    # ----- setup -------------------------------------------------------------------------------
    def check_decks(self, decks: Sequence[Mapping[str, int]], cards: Mapping[str, Any]) -> None:
        """Plot deck and group deck together exactly 45 cards, with 1+ Illuminati and 1+ group."""
        setup.check_decks(decks, cards)

    def drawable(self, seat: int, deck: Mapping[str, int]) -> dict[str, str]:
        """A draw is one of the seat's card instances (``CARD@SEAT``, ``CARD@SEAT.K``)."""
        return {instance: instance.split("@", 1)[0] for instance in setup.instances(seat, deck)}

    def _setup(self, config: MatchConfig, options: Options, cards: dict[str, Any],
               chance: Chance) -> IlluminatiState:
        return setup.new_state(self.game_id, config, options, cards)

    # ----- actions -----------------------------------------------------------------------------
    def _apply(self, state: IlluminatiState, action: Action, chance: Chance) -> None:
        setup.require_done(state, action)
        HANDLERS[type(action)](state, action, chance)
        victory.check_eliminations(state)

    def _adjusted(self, state: IlluminatiState, action: Adjust) -> None:
        """The attacker and the target of an attack under way stay where they are until it
        is resolved; a structure an adjustment emptied may eliminate its seat."""
        attack, move = state.attack, action.move
        if attack is not None and move is not None and find(
                [attack.attacker, attack.target], move.card, move.seats(action.seat)[0]):
            raise IllegalAction(R.ATTACK_IN_PROGRESS, "The attacker and the target of the "
                                "attack under way cannot be moved until it is resolved.")
        victory.check_eliminations(state)

    def _check_address(self, state: IlluminatiState, seat: int, zone: Zone, address: str) -> None:
        """``structure:PARENT:ARROW`` names a card of that seat's structure and a side; the
        structure is public, so saying which parent is wrong reveals nothing."""
        if zone.name == "structure" and address:
            check_structure_place(state, seat, address)
        elif zone.name != "structure":
            super()._check_address(state, seat, zone, address)

    def _set_phase(self, state: IlluminatiState, phase: str) -> None:
        """A judge's turn change: the phase, and the beginning-of-turn steps from the start."""
        timing.set_phase(state, phase)

    def _on_eliminated(self, state: IlluminatiState, seat: int, chance: Chance) -> None:
        """A concession (C4) in a game of 3+: play goes on in turn order; during setup's
        face-down choices, the others' choices are revealed if the seat was the last to
        choose."""
        victory.conceded(state, seat)
        setup.after_concession(state, seat, chance)

    def _values(self, state: IlluminatiState) -> dict[str, Any]:
        return effects.values(state)

    def _choice_space(self, state: IlluminatiState, seat: int) -> list[Choice]:
        return choices.choice_space(state, seat)

    def _legal_actions(self, state: IlluminatiState, seat: int) -> list[Action]:
        return legal.legal_actions(state, seat)

    # ----- who is to act, scores ---------------------------------------------------------------
    def to_act(self, state: IlluminatiState) -> list[int]:
        """Seats the game waits on: every unpassed player during attack support, a claimant
        awaiting a ruling, an off-turn holder of two goal cards, else the active player."""
        return timing.to_act(state)

    def scores(self, state: IlluminatiState) -> dict[int, int] | None:
        """Groups in each power structure (I1: the Illuminati is not counted)."""
        return victory.scores(state)

    # ----- what each viewer sees ---------------------------------------------------------------
    def _view(self, state: IlluminatiState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: IlluminatiState | None = None, effects: Sequence[Effect] = ()) -> str:
        return views.describe(action, outcomes, viewer, before,
                              effects)

    def describe_outcomes(self, outcomes: Sequence[Outcome | Mapping[str, Any]],
                          viewer: Viewer, before: IlluminatiState | None = None) -> list[str]:
        """Draws, agent costs, turn-order and attack dice, redacted for ``viewer``."""
        return views.describe_outcomes(self.typed_outcomes(outcomes), viewer,
                                       before)
