"""The shell: Kami no Kijutsu's declarations, options and dispatch to its sections."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import Field

from engine.core.chance import Chance, Outcome
from engine.core.contract import Action, Adjust, GameState, MatchConfig, Options, Ruleset
from engine.core.effects import Effect, Place
from engine.core.errors import IllegalAction
from engine.core.viewer import Viewer
from engine.core.zones import Zone
from engine.kami import actions as act
from engine.kami import battle, play, setup, turn
from engine.kami.adjust import adjust
from engine.kami.deck import unseen
from engine.kami.holds import enforce_holds
from engine.kami.legal import legal_actions
from engine.kami.model import HEXES, PHASES, ZONES, Card, KamiState
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


def _state(state: GameState) -> KamiState:
    assert isinstance(state, KamiState)
    return state


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


class Kami(Ruleset):
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
    phases = PHASES
    outcome_kinds = act.OUTCOME_KINDS
    setup_consumes = act.SETUP_CONSUMES

    def check_decks(self, decks: Sequence[Any], cards: Any) -> None:
        """C5 (engine.kami.setup.check_decks)."""
        setup.check_decks(decks, cards)

    def _setup(self, config: MatchConfig, options: Options, cards: dict[str, Any],
               chance: Chance) -> GameState:
        return setup.initial_state(config, options, cards, chance)

    def _apply(self, state: GameState, action: Action, chance: Chance) -> None:
        s = _state(state)
        HANDLERS[type(action)](s, action, chance)
        enforce_holds(s)  # K7: after every action

    def _adjust(self, state: GameState, action: Adjust) -> None:
        adjust(_state(state), action)

    def _kernel_ended(self, state: GameState) -> None:
        """A concession or a time call with a winner reports the spoils too (kami digest 6:
        none on a draw; engine.kami.turn.report_spoils)."""
        turn.report_spoils(_state(state))

    def to_act(self, state: GameState) -> list[int]:
        """The seats still deciding on mulligans, the seat with priority in a battle, else the
        active seat."""
        s = _state(state)
        if s.result is not None:
            return []
        if s.phase == "mulligan":
            return setup.still_deciding(s)
        if s.battle is not None:
            return [s.battle.priority]
        return [s.active]

    def scores(self, state: GameState) -> dict[int, int] | None:
        """VP."""
        return dict(_state(state).vp)

    def _legal_actions(self, state: GameState, seat: int) -> list[Action]:
        return legal_actions(_state(state), seat)

    def _places(self, state: GameState) -> dict[Place, list[str]]:
        s = _state(state)
        out: dict[Place, list[str]] = {}
        for seat in s.seats():
            out[Place("hand", seat)] = list(s.hands[seat])
            out[Place("deck", seat)] = [c for c in s.deck_top[seat] if isinstance(c, str)] + \
                unseen(s, seat)
            out[Place("ap", seat)] = [c for c in s.ap[seat] if isinstance(c, str)]
            out[Place("discard", seat)] = list(s.discard[seat])
            out[Place("forces", seat)] = list(s.forces[seat])
            stack = s.battle.stacks.get(seat, []) if s.battle else []
            out[Place("stack", seat)] = list(stack)
        for hex_id in HEXES:
            place = s.board[hex_id]
            if place.territory is not None and place.territory_owner is not None:
                out.setdefault(Place("field", place.territory_owner, hex_id), []).append(
                    place.territory)
            units = [place.unit] if place.unit else []
            if s.battle is not None and s.battle.hex == hex_id:
                units.append(s.battle.attacker)
            for unit in units:
                out.setdefault(Place("field", unit.owner, hex_id), []).append(unit.card)
                for option in unit.options:
                    out.setdefault(Place("options", option.owner, hex_id), []).append(
                        option.card)
        return out

    def _values(self, state: GameState) -> dict[str, Any]:
        s = _state(state)
        values: dict[str, Any] = {"phase": s.phase}
        for seat in s.seats():
            values[f"vp:{seat}"] = s.vp[seat]
            values[f"ap:{seat}"] = len(s.ap[seat])
        return values

    def _check_address(self, state: GameState, seat: int, zone: Zone, address: str) -> None:
        if zone.address and address not in HEXES:
            raise IllegalAction("bad_zone", f"{zone.name} needs a hex: {zone.name}:A1:2C.")
        super()._check_address(state, seat, zone, address)

    def _set_phase(self, state: GameState, phase: str) -> None:
        s = _state(state)
        if (phase == "battle") != (s.battle is not None):
            raise IllegalAction("bad_phase", "The battle phase is exactly the time a battle is "
                                "open: resolve it (or open one) by recording its actions.")
        s.phase = phase
        turn.settle_hand_limit(s)

    def _view(self, state: GameState, viewer: Viewer) -> dict[str, Any]:
        return view(_state(state), viewer, self.sees)

    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: GameState | None = None, effects: Sequence[Effect] = ()) -> str:
        return describe(action, outcomes, viewer, None if before is None else _state(before),
                        effects, self.sees)
