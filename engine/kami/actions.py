"""Kami no Kijutsu's actions (digest section 4) and the chance they ask for (C1).

Cards in hand are named by card id; cards on the field by the hex they stand on (between
actions a hex holds at most one unit, §場の構成).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.core.actions import card_field
from engine.core.chance import CardDrawn, HiddenCard, OutcomeKind, SeatChosen
from engine.core.contract import Action
from engine.core.zones import CardFlow

CardId = card_field(min_length=1, max_length=40, description="A card id in the seat's hand.")
HexId = Field(pattern=r"^A[12]:(1L|1R|2L|2C|2R|3L|3R)$", description="A hex, e.g. A1:2C.")


class Mulligan(Action):
    """K8: the whole hand back into the deck, five new cards; the opponent gains 1 VP."""

    type: Literal["mulligan"] = "mulligan"
    consumes = ("draw", "ap_card")


class KeepHand(Action):
    """kami Q-31: this seat keeps its hand; turn 1 starts when both have kept."""

    type: Literal["keep_hand"] = "keep_hand"
    consumes = ("ap_card",)


class DrawCard(Action):
    """K3: pay 1 AP; the AP card goes on top of the deck and is drawn."""

    type: Literal["draw_card"] = "draw_card"
    consumes = ("draw",)


class SetTerritory(Action):
    """§テリトリーカード 設置: a territory from hand onto a hex without one."""

    type: Literal["set_territory"] = "set_territory"
    card: str = CardId
    hex: str = HexId
    card_flows = (CardFlow("card", ("hand",), "field"),)


class ReplaceTerritory(Action):
    """§テリトリーカード 置換: a territory from hand in place of a territory of either player."""

    type: Literal["replace_territory"] = "replace_territory"
    card: str = CardId
    hex: str = HexId
    card_flows = (CardFlow("card", ("hand",), "field"),)


class SummonUnit(Action):
    """§ユニットカード 召喚: a unit onto a hex of one's own area; onto an enemy unit, a battle."""

    type: Literal["summon_unit"] = "summon_unit"
    card: str = CardId
    hex: str = HexId
    card_flows = (CardFlow("card", ("hand",), "field"),)


class EquipOption(Action):
    """§オプションカード: an option onto any unit, own or enemy, in either area."""

    type: Literal["equip_option"] = "equip_option"
    card: str = CardId
    hex: str = HexId
    card_flows = (CardFlow("card", ("hand",), "options"),)


class PlayForce(Action):
    """§フォースカード: a force used (its effect recorded by adjustments, C3); ``lasting`` keeps
    it in play some turns (kami Q-18). The opponent may play an interference force (Q-7)."""

    type: Literal["play_force"] = "play_force"
    card: str = CardId
    lasting: bool = False
    card_flows = (CardFlow("card", ("hand",), "discard"),)


class EndForce(Action):
    """kami Q-18: a lasting force of one's own goes to the discard pile."""

    type: Literal["end_force"] = "end_force"
    card: str = card_field(min_length=1, max_length=40, description="A card in the seat's forces.")


class ActivateAbility(Action):
    """§行動フェイズ, kami Q-17: a unit's or territory's ability at a declared cost; a territory
    may discard itself (pile, パイル). The effect is recorded by adjustments (C3)."""

    type: Literal["activate_ability"] = "activate_ability"
    hex: str = HexId
    source: Literal["unit", "territory"] = "unit"
    cost: int = Field(default=0, ge=0, le=10)
    pile: bool = False


class MoveUnit(Action):
    """§ユニットカード 移動: a unit to an adjacent hex of the same area; onto an enemy, a battle."""

    type: Literal["move_unit"] = "move_unit"
    from_hex: str = HexId
    to_hex: str = HexId


class TeleportUnit(Action):
    """§ユニットカード 転移, K1: a unit to the mirror hex of the other area."""

    type: Literal["teleport_unit"] = "teleport_unit"
    from_hex: str = HexId


class Reinforce(Action):
    """▽ 援軍・干渉使用ステップ: a reinforcement unit on top of one's own battle stack."""

    type: Literal["reinforce"] = "reinforce"
    card: str = CardId
    card_flows = (CardFlow("card", ("hand",), "stack"),)


class Interfere(Action):
    """▽ 援軍・干渉使用ステップ: an interference force on top of one's own battle stack."""

    type: Literal["interfere"] = "interfere"
    card: str = CardId
    card_flows = (CardFlow("card", ("hand",), "stack"),)


class PassBattle(Action):
    """▽ 援軍・干渉使用ステップ: no card; two passes in a row resolve the battle (K5, K6)."""

    type: Literal["pass_battle"] = "pass_battle"


class RenewDeck(Action):
    """K4: the discard pile shuffled into the deck; the opponent gains 5 VP."""

    type: Literal["renew_deck"] = "renew_deck"
    consumes = ("ap_card",)


class EndActionPhase(Action):
    """kami Q-31: the refill phase runs (recovery, invader VP, unit draws)."""

    type: Literal["end_action_phase"] = "end_action_phase"
    consumes = ("draw", "ap_card")


class DiscardToLimit(Action):
    """§補充フェイズ: discard down to the hand limit."""

    type: Literal["discard_to_limit"] = "discard_to_limit"
    cards: list[str] = card_field(min_length=1, max_length=40)
    card_flows = (CardFlow("cards", ("hand",), "discard"),)


class DeclareVictory(Action):
    """§判定フェイズ 勝利宣言, K2: tested at the end of the opponent's next turn."""

    type: Literal["declare_victory"] = "declare_victory"


class DeclareDefeat(Action):
    """§判定フェイズ 敗北宣言: the game ends; the opponent wins."""

    type: Literal["declare_defeat"] = "declare_defeat"


class EndTurn(Action):
    """§判定フェイズ: the end of the turn; a pending declaration is tested (K2), then the other
    seat's AP refill (K4)."""

    type: Literal["end_turn"] = "end_turn"
    consumes = ("ap_card",)


ACTIONS: tuple[type[Action], ...] = (
    Mulligan, KeepHand, DrawCard, SetTerritory, ReplaceTerritory, SummonUnit, EquipOption,
    PlayForce, EndForce, ActivateAbility, MoveUnit, TeleportUnit, Reinforce, Interfere,
    PassBattle, RenewDeck, EndActionPhase, DiscardToLimit, DeclareVictory, DeclareDefeat, EndTurn)

OUTCOME_KINDS = (
    OutcomeKind("draw", CardDrawn, "a card a seat draws from its deck, seen by that seat"),
    OutcomeKind("ap_card", HiddenCard, "at a renewal, an AP-pile card whose identity was not "
                                       "fixed yet; nobody at the table sees it (a judge looks)"),
    OutcomeKind("first_player", SeatChosen, "the seat that plays first, when not regulated"),
)
SETUP_CONSUMES = ("first_player", "draw")
