"""The shell: On the Edge's declarations, options and dispatch to its sections."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import Field

from engine.core.chance import Chance, Outcome
from engine.core.contract import Action, MatchConfig, Options, Ruleset
from engine.core.effects import Effect
from engine.core.errors import IllegalAction
from engine.core.viewer import Viewer
from engine.core.zones import Zone
from engine.edge import actions as act
from engine.edge import claims, combat, operations, setup, turn
from engine.edge.basics import eliminate
from engine.edge.legal import legal_actions, to_act
from engine.edge.model import STEPS, Card, EdgeState
from engine.edge.reasons import EdgeReason
from engine.edge.reasons import EdgeReason as R
from engine.edge.table import STATS, TALLIES, ZONES
from engine.edge.views import describe, view


class EdgeOptions(Options):
    """On the Edge's regulation options (docs/games/edge.md; edge digest section 9)."""

    draw_per_turn: int = Field(default=1, ge=1, le=5, description="E2, OQ31.")
    first_player: int | None = Field(default=None, ge=1, le=8, description="OQ7: the seat that "
                                     "plays first; a recorded pick when unset.")
    goal_basis: Literal["starting", "remaining"] = Field(default="starting",
                                                         description="OQ8, E1.")
    influence_goal: int | None = Field(default=None, ge=1, le=1000, description="OQ8: "
                                       "overrides the E1 table.")
    voluntary_crank: Literal["on", "off"] = Field(default="on", description="OQ9.")


Handler = Callable[[EdgeState, Any, Chance], None]

HANDLERS: dict[type[Action], Handler] = {
    act.DiscardUnplayable: lambda s, a, c: turn.discard_unplayable(s, a.seat, list(a.cards), c),
    act.Draw: lambda s, a, c: turn.draw_step(s, a.seat, c),
    act.PlaceCharacter: lambda s, a, c: operations.place_character(
        s, a.seat, a.card, a.rank, a.file, a.from_characters, a.from_others),
    act.PlacePermanent: lambda s, a, c: operations.place_permanent(
        s, a.seat, a.card, a.from_characters, a.from_others),
    act.Attach: lambda s, a, c: operations.attach(s, a.seat, a.card, a.host,
                                                  a.from_characters, a.from_others),
    act.PlayWhammy: lambda s, a, c: operations.play_whammy(s, a.seat, a.card),
    act.MoveCharacter: lambda s, a, c: operations.move_character(s, a.seat, a.character,
                                                                 a.rank, a.file),
    act.CrankCharacter: lambda s, a, c: operations.crank_character(s, a.seat, a.character),
    act.GeneratePull: lambda s, a, c: operations.generate_pull(s, a.seat, a.source),
    act.DeclareAttack: lambda s, a, c: combat.declare_attack(s, a.seat, a.attacker, a.defender,
                                                             a.target, a.los_override),
    act.ResolveCombat: lambda s, a, c: combat.resolve_combat(s, a.seat, a.attacker_modifier,
                                                             a.target_modifier),
    act.EndOperations: lambda s, a, c: turn.end_operations(s, a.seat),
    act.ShiftGear: lambda s, a, c: operations.shift_gear(s, a.seat, a.gear, a.to),
    act.EndTurn: lambda s, a, c: turn.end_turn(s, a.seat),
    act.ClaimCardVictory: lambda s, a, c: claims.claim_card_victory(s, a.seat, a.card,
                                                                    a.reason),
    act.AcceptClaim: lambda s, a, c: claims.accept_claim(s, a.seat),
    act.Dispute: lambda s, a, c: claims.dispute(s, a.seat),
    act.RuleClaim: lambda s, a, c: claims.rule_claim(s, a.seat, a.upheld),
}


class Edge(Ruleset[EdgeState, EdgeOptions]):
    """On the Edge: conspirators on ranks and files attack each other's conspiracies and turn
    unspent character pull into influence; the first to start a turn at the goal wins."""

    game_id = "edge"
    title = "On the Edge"
    version = "1.0"
    min_players = 2
    max_players = 8
    state_class = EdgeState
    card_model = Card
    options_model = EdgeOptions
    actions = act.ACTIONS
    zones = ZONES  # where each zone's cards are: the kernel moves a judge's card (C3)
    reasons = EdgeReason
    tallies = TALLIES  # what a judge sets: influence, the reserve, a card's state
    stats = STATS  # AP, DP and pull, by lasting modifiers
    phases = STEPS
    outcome_kinds = act.OUTCOME_KINDS
    setup_consumes = act.SETUP_CONSUMES

    def check_decks(self, decks: Sequence[Any], cards: Any) -> None:
        """C5 (engine.edge.setup.check_decks)."""
        setup.check_decks(decks, cards)

    def drawable(self, seat: int, deck: Mapping[str, int]) -> dict[str, str]:
        """A draw is one of the seat's card instances (``CARD@SEAT.N``)."""
        return {instance: instance.split("@", 1)[0] for instance in setup.instances(seat, deck)}

    def _setup(self, config: MatchConfig, options: Options, cards: dict[str, Any],
               chance: Chance) -> EdgeState:
        state = setup.initial_state(config, options, cards, chance)
        turn.start_turn(state, state.first_player)
        return state

    def _apply(self, state: EdgeState, action: Action, chance: Chance) -> None:
        HANDLERS[type(action)](state, action, chance)

    def _on_eliminated(self, state: EdgeState, seat: int, chance: Chance) -> None:
        eliminate(state, seat)
        if state.result is None and state.active == seat:
            turn.next_turn(state, seat)

    def to_act(self, state: EdgeState) -> list[int]:
        """The seats the game waits on (engine.edge.legal.to_act)."""
        return to_act(state)

    def scores(self, state: EdgeState) -> dict[int, int] | None:
        """Influence (OQ26: the turn limit is won on it)."""
        return dict(state.influence)

    def _legal_actions(self, state: EdgeState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def _values(self, state: EdgeState) -> dict[str, Any]:
        return {"step": state.step, **{f"influence:{seat}": state.influence[seat]
                                   for seat in state.seats()}}

    def _check_address(self, state: EdgeState, seat: int, zone: Zone, address: str) -> None:
        """A cell of the conspiracy is ``RANK.FILE``; a field's host is any card name (the
        holding looks for it)."""
        rank, dot, file = address.partition(".")
        if zone.name == "conspiracy" and address and not (dot and rank.isdigit() and
                                                          file.isdigit()):
            raise IllegalAction(R.BAD_ZONE, f"{zone.name} takes a rank.file address: "
                                f"{zone.name}:1.2.")
        super()._check_address(state, seat, zone, address)

    def _set_phase(self, state: EdgeState, phase: str) -> None:
        state.step = phase

    def _view(self, state: EdgeState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer, self.sees)

    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: EdgeState | None = None, effects: Sequence[Effect] = ()) -> str:
        return describe(action, outcomes, viewer, None if before is None else before,
                        effects, self.sees)
