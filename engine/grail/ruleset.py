"""The shell: Quest for the Grail's declarations, options and dispatch to its sections."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import Field

from engine.core.chance import Chance, Outcome
from engine.core.contract import Action, MatchConfig, Options, Ruleset
from engine.core.effects import Effect
from engine.core.errors import IllegalAction
from engine.core.viewer import Viewer
from engine.grail import actions as act
from engine.grail import cards, challenges, claims, combat, field, outcomes, quests, setup, turn
from engine.grail.basics import eliminate
from engine.grail.legal import legal_actions, to_act
from engine.grail.model import PHASES, Card, GrailState
from engine.grail.reasons import GrailReason
from engine.grail.reasons import GrailReason as R
from engine.grail.table import STATS, TALLIES, ZONES
from engine.grail.views import describe, view


class GrailOptions(Options):
    """Quest for the Grail's regulation options (docs/games/grail.md; grail digest section 9)."""

    first_player: int | None = Field(default=None, ge=1, le=8, description="OQ-1: the seat "
                                     "that plays first; a recorded pick when unset.")
    honor_loss: Literal["one", "all"] = Field(default="one", description="G3.")
    assignment_transfer: Literal["both", "receiver"] = Field(default="both",
                                                             description="OQ-7.")
    upkeep_unpaid: Literal["forced_only", "free"] = Field(default="forced_only",
                                                          description="OQ-11.")
    deck_out_multiplayer: Literal["eliminate", "others_win"] = Field(default="eliminate",
                                                                     description="OQ-3.")
    duel_surrender: Literal["once", "stack"] = Field(default="once", description="OQ-14.")
    victory_challenge_decline: Literal["allowed", "forbidden"] = Field(default="allowed",
                                                                       description="OQ-20.")
    spell_limit: Literal["per_round", "per_turn"] = Field(default="per_round",
                                                          description="OQ-25.")
    title_champion: Literal["off", "on"] = Field(default="off", description="OQ-17: whether a "
                                                 "king may name a champion in a title "
                                                 "challenge.")
    max_combat_rounds: int | None = Field(default=None, ge=1, le=1000, description="OQ-31: "
                                          "a combat still going after this many rounds is a "
                                          "draw, nobody wounded.")


Handler = Callable[[GrailState, Any, Chance], None]

HANDLERS: dict[type[Action], Handler] = {
    act.ClaimAlternateVictory: lambda s, a, c: turn.claim_alternate_victory(s, a.seat, a.met,
                                                                            c),
    act.RefreshQuest: lambda s, a, c: turn.refresh_quest(s, a.seat, c),
    act.EndPhase: lambda s, a, c: turn.end_phase(s, a.seat),
    act.PlaceDomain: lambda s, a, c: field.place_domain(s, a.seat, a.card),
    act.DeployWarrior: lambda s, a, c: field.deploy_warrior(s, a.seat, a.card),
    act.AttachCard: lambda s, a, c: field.attach_card(s, a.seat, a.card, a.warrior),
    act.TransferCard: lambda s, a, c: field.transfer_card(s, a.seat, a.card, a.to_warrior),
    act.PayUpkeep: lambda s, a, c: field.pay_upkeep(s, a.seat, list(a.unpaid)),
    act.AttemptQuest: lambda s, a, c: quests.attempt_quest(s, a.seat, a.warrior, a.quest,
                                                           a.claim, c),
    act.TakeQuestReward: lambda s, a, c: quests.take_quest_reward(s, a.seat, a.mode,
                                                                  list(a.cards), c),
    act.StartGrailQuest: lambda s, a, c: quests.start_grail_quest(s, a.seat, a.knight),
    act.AbandonGrailQuest: lambda s, a, c: quests.abandon_grail_quest(s, a.seat),
    act.ChallengeHonour: lambda s, a, c: challenges.challenge_honour(s, a.seat, a.challenger,
                                                                     a.target),
    act.AnswerHonour: lambda s, a, c: challenges.answer_honour(s, a.seat, a.accept,
                                                               a.champion),
    act.ChallengeMortal: lambda s, a, c: challenges.challenge_mortal(s, a.seat, a.challenger,
                                                                     a.target),
    act.DeclareVictoryChallenge: lambda s, a, c: challenges.declare_victory_challenge(
        s, a.seat, a.king),
    act.PlayCombatAction: lambda s, a, c: cards.play_combat_action(s, a.seat, a.card),
    act.CastSpell: lambda s, a, c: cards.cast_spell(s, a.seat, a.card, a.caster),
    act.PlayEvent: lambda s, a, c: cards.play_event(s, a.seat, a.card),
    act.RollRound: lambda s, a, c: _roll(s, a, c),
    act.RequestSurrender: lambda s, a, c: combat.request_surrender(s, a.seat),
    act.Support: lambda s, a, c: combat.support(s, a.seat, a.warrior),
    act.NameChampion: lambda s, a, c: combat.name_champion(s, a.seat, a.champion),
    act.AnswerSurrender: lambda s, a, c: combat.answer_surrender(s, a.seat, a.accept, a.wound),
    act.Heal: lambda s, a, c: outcomes.heal(s, a.seat, a.warrior, c),
    act.FinishCombat: lambda s, a, c: outcomes.finish_combat(s, a.seat, c),
    act.ChooseRewardLoss: lambda s, a, c: outcomes.choose_reward_loss(s, a.seat, a.reward),
    act.EndTurn: lambda s, a, c: turn.end_turn(s, a.seat, c),
    act.AcceptClaim: lambda s, a, c: claims.accept_claim(s, a.seat, c),
    act.Dispute: lambda s, a, c: claims.dispute(s, a.seat, a.claimant),
    act.RuleClaim: lambda s, a, c: claims.rule_claim(s, a.seat, a.upheld, c),
    act.EndCombat: lambda s, a, c: outcomes.end_combat(s, a.seat, c),
}


def _roll(state: GrailState, action: act.RollRound, chance: Chance) -> None:
    combat.roll_round(state, action.seat, list(action.prowess), list(action.strength),
                      list(action.armour), chance)


class Grail(Ruleset[GrailState, GrailOptions]):
    """Quest for the Grail: knights, kings and warriors quest, duel and fight to death for
    valor; a knight of valor 12 who achieves three quests in a row finds the grail."""

    game_id = "grail"
    title = "Quest for the Grail"
    # 1.1: a grail knight heals after a quest achieved with no combat (L133); a participant
    # destroyed mid-combat loses and the combat ends (OQ-30); a match-ending claim (an
    # alternate victory, a grail on claimed quests) ends play at once and is recorded once
    # it can no longer be disputed (OQ-22)
    version = "1.1"
    min_players = 2
    max_players = 4
    state_class = GrailState
    card_model = Card
    options_model = GrailOptions
    actions = act.ACTIONS
    zones = ZONES
    reasons = GrailReason
    tallies = TALLIES
    stats = STATS
    phases = PHASES
    outcome_kinds = act.OUTCOME_KINDS
    setup_consumes = act.SETUP_CONSUMES

    def check_decks(self, decks: Sequence[Any], cards_: Any) -> None:
        """C5 (engine.grail.setup.check_decks)."""
        setup.check_decks(decks, cards_)

    def drawable(self, seat: int, deck: Mapping[str, int]) -> dict[str, str]:
        """A draw is one of the seat's card instances (``CARD@SEAT.N``)."""
        return {instance: instance.split("@", 1)[0] for instance in setup.instances(seat, deck)}

    def _setup(self, config: MatchConfig, options: Options, cards_: dict[str, Any],
               chance: Chance) -> GrailState:
        state = setup.initial_state(config, options, cards_, chance)
        state.first_player = state.active
        turn.begin_turn(state, state.active, chance)
        return state

    def _apply(self, state: GrailState, action: Action, chance: Chance) -> None:
        HANDLERS[type(action)](state, action, chance)

    def _on_eliminated(self, state: GrailState, seat: int, chance: Chance) -> None:
        state.eliminated.remove(seat)  # eliminate() records it again with its consequences
        was_active = state.active == seat
        eliminate(state, seat)  # may close another seat's claim (OQ-22): the match is then over
        if was_active and state.result is None:
            turn.next_turn(state, seat, chance)

    def to_act(self, state: GrailState) -> list[int]:
        """The seats the game waits on (engine.grail.legal.to_act)."""
        return to_act(state)

    def _legal_actions(self, state: GrailState, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def _values(self, state: GrailState) -> dict[str, Any]:
        return {"phase": state.phase, **{f"valor:{w.card}": w.valor for seat in state.seats()
                                         for w in state.warriors[seat]}}

    def _set_phase(self, state: GrailState, phase: str) -> None:
        if state.combat is not None:
            raise IllegalAction(R.BAD_PHASE, "A combat is in progress.")
        state.phase = phase

    def _view(self, state: GrailState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer, self.sees)

    def _describe(self, action: Action, outcomes_: list[Outcome], viewer: Viewer,
                  before: GrailState | None = None, effects: Sequence[Effect] = ()) -> str:
        return describe(action, outcomes_, viewer, before, effects, self.sees)
