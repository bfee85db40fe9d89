"""Quest for the Grail's actions (digest section 4) and the chance they ask for (C1).

Cards are named by instance id (``<card id>@<seat>.<n>``); warriors on the field by theirs.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.core.actions import card_field
from engine.core.chance import CardDrawn, CardRevealed, DieRolled, OutcomeKind, SeatChosen
from engine.core.contract import Action
from engine.core.zones import CardFlow

Instance = card_field(min_length=3, max_length=60, description="A card instance id (card@seat.n).")
Modifier = Field(default=0, ge=-99, le=99)


class ClaimAlternateVictory(Action):
    """ドロー L70, G8: the pending victory challenge's condition is (or is not) still met."""

    type: Literal["claim_alternate_victory"] = "claim_alternate_victory"
    met: bool
    consumes = ("draw",)


class RefreshQuest(Action):
    """ドロー L72: one's active quest to the quest discard, a new one revealed."""

    type: Literal["refresh_quest"] = "refresh_quest"
    consumes = ("quest",)


class EndPhase(Action):
    """OQ-39: on to the next phase (never back); upkeep cannot be skipped."""

    type: Literal["end_phase"] = "end_phase"


class PlaceDomain(Action):
    """構築 L74: one domain per build phase."""

    type: Literal["place_domain"] = "place_domain"
    card: str = Instance
    card_flows = (CardFlow("card", ("hand",), "field"),)


class DeployWarrior(Action):
    """配備 L76-77, G6: a warrior onto the field; a same-name knight or same-domain king of
    another player starts a title challenge."""

    type: Literal["deploy_warrior"] = "deploy_warrior"
    card: str = Instance
    card_flows = (CardFlow("card", ("hand",), "field"),)


class AttachCard(Action):
    """割り当て L80-82: a vow, a value-0 reward or a companion from hand to an own warrior."""

    type: Literal["attach_card"] = "attach_card"
    card: str = Instance
    warrior: str = Instance
    card_flows = (CardFlow("card", ("hand",), "field"),)


class TransferCard(Action):
    """割り当て L83-84: a reward or companion from one own warrior to another."""

    type: Literal["transfer_card"] = "transfer_card"
    card: str = Instance
    to_warrior: str = Instance


class PayUpkeep(Action):
    """アップキープ L87-88, G5: the warriors left unpaid are destroyed."""

    type: Literal["pay_upkeep"] = "pay_upkeep"
    unpaid: list[str] = card_field(default_factory=list, max_length=60)


class AttemptQuest(Action):
    """クエストについて L115-126: a warrior attempts any player's active quest; a non-combat
    quest is achieved on the claim (G8)."""

    type: Literal["attempt_quest"] = "attempt_quest"
    warrior: str = Instance
    quest: str = Instance
    claim: bool = False
    consumes = ("quest",)


class TakeQuestReward(Action):
    """G4: the valor gained taken as valor, as rewards from hand, or as one court draw."""

    type: Literal["take_quest_reward"] = "take_quest_reward"
    mode: Literal["valor", "rewards", "draw"]
    cards: list[str] = card_field(default_factory=list, max_length=20)
    card_flows = (CardFlow("cards", ("hand",), "field"),)
    consumes = ("draw",)


class StartGrailQuest(Action):
    """G7: a knight or king with valor 12 or more begins the grail quest."""

    type: Literal["start_grail_quest"] = "start_grail_quest"
    knight: str = Instance


class AbandonGrailQuest(Action):
    """OQ-27: the grail attempt ends between quests, a failure with no valor lost."""

    type: Literal["abandon_grail_quest"] = "abandon_grail_quest"


class ChallengeHonour(Action):
    """名誉チャレンジ L161-166, G2: a knight or king challenges another player's warrior."""

    type: Literal["challenge_honour"] = "challenge_honour"
    challenger: str = Instance
    target: str = Instance


class AnswerHonour(Action):
    """名誉チャレンジ L167-169: accept (a king may name a champion) or decline."""

    type: Literal["answer_honour"] = "answer_honour"
    accept: bool
    champion: str | None = card_field(default=None, min_length=3, max_length=60)


class ChallengeMortal(Action):
    """抹殺チャレンジ L154-160: a warrior attacks another player's warrior; no declining."""

    type: Literal["challenge_mortal"] = "challenge_mortal"
    challenger: str = Instance
    target: str = Instance


class DeclareVictoryChallenge(Action):
    """勝利チャレンジ L182-188, G8: a king claims his alternate victory condition is met."""

    type: Literal["declare_victory_challenge"] = "declare_victory_challenge"
    king: str = Instance


class PlayCombatAction(Action):
    """戦闘アクション L344-348: played in a combat's card window; its effect is a declared
    modifier of the next roll or an adjustment (C3)."""

    type: Literal["play_combat_action"] = "play_combat_action"
    card: str = Instance
    card_flows = (CardFlow("card", ("hand",), "court_discard"),)


class CastSpell(Action):
    """呪文 L335-343: through an own caster whose enchanter rating is enough; never in a duel."""

    type: Literal["cast_spell"] = "cast_spell"
    card: str = Instance
    caster: str = Instance
    card_flows = (CardFlow("card", ("hand",), "court_discard"),)


class PlayEvent(Action):
    """イベント L333-334: any time; its effect is an adjustment (C3)."""

    type: Literal["play_event"] = "play_event"
    card: str = Instance
    card_flows = (CardFlow("card", ("hand",), "court_discard"),)


class RollRound(Action):
    """交戦処理 L198-205, G1: both sides roll 2d6, with the modifiers declared for the round
    (OQ-32: claims a judge may overturn)."""

    type: Literal["roll_round"] = "roll_round"
    prowess: list[int] = Field(default_factory=lambda: [0, 0], min_length=2, max_length=2)
    strength: list[int] = Field(default_factory=lambda: [0, 0], min_length=2, max_length=2)
    armour: list[int] = Field(default_factory=lambda: [0, 0], min_length=2, max_length=2)
    consumes = ("die",)


class Support(Action):
    """OQ-28: a warrior not fighting supports its side of a mortal combat with a support
    ability (its effect a declared modifier or an adjustment, C3); on its controller's turn it
    uses that warrior's challenge action."""

    type: Literal["support"] = "support"
    warrior: str = Instance


class NameChampion(Action):
    """OQ-17 (``title_champion: on``): a king in a title challenge names a champion, or none."""

    type: Literal["name_champion"] = "name_champion"
    champion: str | None = card_field(default=None, min_length=3, max_length=60)


class RequestSurrender(Action):
    """交戦処理 L206-208: once per participant per combat, never in a title challenge."""

    type: Literal["request_surrender"] = "request_surrender"


class AnswerSurrender(Action):
    """交戦処理 L208-213: accept (in a mortal combat, wounding or not) or refuse."""

    type: Literal["answer_surrender"] = "answer_surrender"
    accept: bool
    wound: bool = False


class Heal(Action):
    """騎士 L277: at the end of a combat a knight or king pays 1 valor to clear its damage and
    its mortal wound."""

    type: Literal["heal"] = "heal"
    warrior: str = Instance
    consumes = ("quest",)


class FinishCombat(Action):
    """OQ-29: no more healing; the combat's consequences apply."""

    type: Literal["finish_combat"] = "finish_combat"
    consumes = ("quest",)


class ChooseRewardLoss(Action):
    """G3 (``honor_loss: one``): the honour winner picks the reward the loser loses."""

    type: Literal["choose_reward_loss"] = "choose_reward_loss"
    reward: str = Instance


class EndTurn(Action):
    """ターン終了 L98-99: normal damage reset on every warrior; the next seat draws."""

    type: Literal["end_turn"] = "end_turn"
    consumes = ("draw", "quest")


class Dispute(Action):
    """G8: dispute another player's claim; a judge then rules."""

    type: Literal["dispute"] = "dispute"
    calls_judge = True
    claimant: int = Field(ge=1)


class AcceptClaim(Action):
    """G8, OQ-22: accept another player's alternate-victory claim."""

    type: Literal["accept_claim"] = "accept_claim"


class RuleClaim(Action):
    """G8: a judge's ruling on the disputed claim (the acting seat is the claimant's)."""

    type: Literal["rule_claim"] = "rule_claim"
    judges_only = True
    upheld: bool
    reason: str = Field(min_length=3, max_length=300)
    consumes = ("draw",)


class EndCombat(Action):
    """OQ-31: a judge ends a combat that cannot end, as a draw with no mortal wound."""

    type: Literal["end_combat"] = "end_combat"
    judges_only = True
    reason: str = Field(min_length=3, max_length=300)
    consumes = ("quest",)


ACTIONS: tuple[type[Action], ...] = (
    ClaimAlternateVictory, RefreshQuest, EndPhase, PlaceDomain, DeployWarrior, AttachCard,
    TransferCard, PayUpkeep, AttemptQuest, TakeQuestReward, StartGrailQuest, AbandonGrailQuest,
    ChallengeHonour, AnswerHonour, ChallengeMortal, DeclareVictoryChallenge, PlayCombatAction,
    CastSpell, PlayEvent, RollRound, Support, NameChampion,
    RequestSurrender, AnswerSurrender, Heal, FinishCombat,
    ChooseRewardLoss, EndTurn, AcceptClaim, Dispute, RuleClaim, EndCombat)

OUTCOME_KINDS = (
    OutcomeKind("draw", CardDrawn, "a court card a seat draws, seen by that seat"),
    OutcomeKind("quest", CardRevealed, "a quest revealed from a quest deck, public"),
    OutcomeKind("die", DieRolled, "one die of a combat round's 2d6 (two per side), public"),
    OutcomeKind("first_player", SeatChosen, "the seat that plays first, when not regulated"),
)
SETUP_CONSUMES = ("draw", "quest", "first_player")
