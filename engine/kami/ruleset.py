"""The shell: Kami no Kijutsu's declarations, options and dispatch to its sections."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import Field

from engine.core.chance import Chance, Outcome
from engine.core.contract import Action, Adjust, MatchConfig, Options, Ruleset
from engine.core.effects import Effect
from engine.core.errors import IllegalAction
from engine.core.viewer import Viewer
from engine.core.zones import Zone
from engine.kami import actions as act
from engine.kami import battle, play, setup, turn
from engine.kami.holds import enforce_holds
from engine.kami.legal import legal_actions
from engine.kami.model import HEXES, PHASES, Card, KamiState
from engine.kami.reasons import KamiReason
from engine.kami.reasons import KamiReason as R
from engine.kami.table import STATS, TALLIES, ZONES
from engine.kami.views import describe, view


class KamiOptions(Options):
    """Kami no Kijutsu's regulation options (docs/games/kami.md; kami digest 9.2)."""

    first_player: Literal[1, 2] | None = Field(
        default=None, description="Seat that plays first; a recorded pick when unset.")
    refill_vp: Literal["both", "active"] = Field(
        default="both", description="kami Q-1: who scores 2 VP per invader in a refill phase.")
    declaration_requires_condition: Literal["on", "off"] = Field(
        default="on", description="kami Q-2: a victory is declared only with the conditions.")
    option_vp_to: Literal["opponent_of_option_owner", "opponent_of_unit_owner"] = Field(
        default="opponent_of_option_owner", description="kami Q-6: who gains a destroyed "
                                                        "option's VP.")
    hold_colourless: Literal["additional", "overlapping"] = Field(
        default="additional", description="kami Q-10: colourless hold on top of coloured.")
    renewal: Literal["shuffle_all", "discard_under"] = Field(
        default="shuffle_all", description="kami Q-14: a renewal shuffles the discard pile with "
        "the whole deck, or puts it, shuffled, under the deck.")
    spoils: Literal["off", "on"] = Field(
        default="off", description="§戦利品ルール: the spoils' value is reported at the end.")


Handler = Callable[[KamiState, Any, Chance], None]

HANDLERS: dict[type[Action], Handler] = {
    act.Mulligan: lambda s, a, c: setup.mulligan(s, a.seat, c),
    act.KeepHand: lambda s, a, c: setup.keep_hand(s, a.seat, c),
    act.DrawCard: lambda s, a, c: play.draw_card(s, a.seat, c),
    act.SetTerritory: lambda s, a, c: play.set_territory(s, a.seat, a.card, a.hex),
    act.ReplaceTerritory: lambda s, a, c: play.replace_territory(s, a.seat, a.card, a.hex),
    act.SummonUnit: lambda s, a, c: play.summon_unit(s, a.seat, a.card, a.hex),
    act.EquipOption: lambda s, a, c: play.equip_option(s, a.seat, a.card, a.hex),
    act.PlayForce: lambda s, a, c: play.play_force(s, a.seat, a.card, a.lasting),
    act.EndForce: lambda s, a, c: play.end_force(s, a.seat, a.card),
    act.ActivateAbility: lambda s, a, c: play.activate_ability(s, a.seat, a.hex, a.source,
                                                               a.cost, a.pile),
    act.MoveUnit: lambda s, a, c: play.move_unit(s, a.seat, a.from_hex, a.to_hex),
    act.TeleportUnit: lambda s, a, c: play.teleport_unit(s, a.seat, a.from_hex),
    act.Reinforce: lambda s, a, c: battle.reinforce(s, a.seat, a.card),
    act.Interfere: lambda s, a, c: battle.interfere(s, a.seat, a.card),
    act.PassBattle: lambda s, a, c: battle.pass_battle(s, a.seat),
    act.RenewDeck: lambda s, a, c: play.renew_deck(s, a.seat, c),
    act.EndActionPhase: lambda s, a, c: turn.end_action_phase(s, a.seat, c),
    act.DiscardToLimit: lambda s, a, c: turn.discard_to_limit(s, a.seat, list(a.cards)),
    act.DeclareVictory: lambda s, a, c: turn.declare_victory(s, a.seat),
    act.DeclareDefeat: lambda s, a, c: turn.declare_defeat(s, a.seat),
    act.EndTurn: lambda s, a, c: turn.end_turn(s, a.seat, c),
}


class Kami(Ruleset[KamiState, KamiOptions]):
    """Kami no Kijutsu (神の記述): two players summon units onto two 7-hex areas, paying with
    AP cards from their own decks; VP come from invaders and battles, and a declared victory
    must hold to the end of the opponent's next turn."""

    game_id = "kami"
    title = "Kami no Kijutsu"
    version = "1.1"  # 1.1: the spoils are reported for a concession and a time call too
    min_players = 2
    max_players = 2
    state_class = KamiState
    card_model = Card
    options_model = KamiOptions
    actions = act.ACTIONS
    zones = ZONES
    reasons = KamiReason
    tallies = TALLIES
    stats = STATS
    phases = PHASES
    outcome_kinds = act.OUTCOME_KINDS
    setup_consumes = act.SETUP_CONSUMES

    def check_decks(self, decks: Sequence[Any], cards: Any) -> None:
        """C5 (engine.kami.setup.check_decks)."""
        setup.check_decks(decks, cards)

    def _setup(self, config: MatchConfig, options: Options, cards: dict[str, Any],
               chance: Chance) -> KamiState:
        return setup.initial_state(config, options, cards, chance)

    def _apply(self, state: KamiState, action: Action, chance: Chance) -> None:
        HANDLERS[type(action)](state, action, chance)
        enforce_holds(state)  # K7: after every action

    def _adjusted(self, state: KamiState, action: Adjust) -> None:
        """K7: the holds are checked after every adjustment; a hand-limit step a judge's
        change has settled ends."""
        enforce_holds(state)
        turn.settle_hand_limit(state)

    def _kernel_ended(self, state: KamiState) -> None:
        """A concession or a time call with a winner reports the spoils too (kami digest 6:
        none on a draw; engine.kami.turn.report_spoils)."""
        turn.report_spoils(state)

    def to_act(self, state: KamiState) -> list[int]:
        """The seats still deciding on mulligans, the seat with priority in a battle, else the
        active seat."""
        if state.result is not None:
            return []
        if state.phase == "mulligan":
            return setup.still_deciding(state)
        if state.battle is not None:
            return [state.battle.priority]
        return [state.active]

    def scores(self, state: KamiState) -> dict[int, int] | None:
        """VP."""
        return dict(state.vp)

    def _legal_actions(self, state: KamiState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def _values(self, state: KamiState) -> dict[str, Any]:
        values: dict[str, Any] = {"phase": state.phase}
        for seat in state.seats():
            values[f"vp:{seat}"] = state.vp[seat]
            values[f"ap:{seat}"] = len(state.ap[seat])
        return values

    def _check_address(self, state: KamiState, seat: int, zone: Zone, address: str) -> None:
        if zone.address and address not in HEXES:
            raise IllegalAction(R.BAD_ZONE, f"{zone.name} needs a hex: {zone.name}:A1:2C.")
        super()._check_address(state, seat, zone, address)

    def _set_phase(self, state: KamiState, phase: str) -> None:
        if (phase == "battle") != (state.battle is not None):
            raise IllegalAction(R.BAD_PHASE, "The battle phase is exactly the time a battle is "
                                "open: resolve it (or open one) by recording its actions.")
        state.phase = phase
        turn.settle_hand_limit(state)

    def _view(self, state: KamiState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer, self.sees)

    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: KamiState | None = None, effects: Sequence[Effect] = ()) -> str:
        return describe(action, outcomes, viewer, before,
                        effects, self.sees)
