"""On the Edge's actions (digest section 4) and the chance they ask for (C1).

Cards are named by instance id (``<card id>@<seat>.<n>``). Payments name how much character pull
and how much other pull pay the cost (E7)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from engine.core.actions import card_field
from engine.core.chance import CardDrawn, OutcomeKind, SeatChosen
from engine.core.contract import Action
from engine.core.zones import CardFlow

Instance = card_field(min_length=3, max_length=60, description="A card instance id (card@seat.n).")
Pull = Field(default=0, ge=0, le=99)
Cell = Field(ge=0, le=100)


class DiscardUnplayable(Action):
    """§ディスカード (OQ5): cards uniqueness blocks, face up to the dead pile; as many drawn."""

    type: Literal["discard_unplayable"] = "discard_unplayable"
    cards: list[str] = card_field(min_length=1, max_length=20)
    card_flows = (CardFlow("cards", ("hand",), "dead"),)
    consumes = ("draw",)


class Draw(Action):
    """§ドロー, E2: the draw step; operations follow."""

    type: Literal["draw"] = "draw"
    consumes = ("draw",)


class PlaceCharacter(Action):
    """§陰謀団について, E6: a character into the conspiracy at (rank, file) of the current frame
    (0 and R+1 / F+1 add a rank or file)."""

    type: Literal["place_character"] = "place_character"
    card: str = Instance
    rank: int = Cell
    file: int = Cell
    from_characters: int = Pull
    from_others: int = Pull
    card_flows = (CardFlow("card", ("hand",), "conspiracy"),)


class PlacePermanent(Action):
    """§リソース, §環境, §シークレット: a resource, an environment or the secret onto the field."""

    type: Literal["place_permanent"] = "place_permanent"
    card: str = Instance
    from_characters: int = Pull
    from_others: int = Pull
    card_flows = (CardFlow("card", ("hand",), "field"),)


class Attach(Action):
    """§ギア, §コンディション: gear on an own character, a condition on any card in play."""

    type: Literal["attach"] = "attach"
    card: str = Instance
    host: str = Instance
    from_characters: int = Pull
    from_others: int = Pull
    card_flows = (CardFlow("card", ("hand",), "field"),)


class PlayWhammy(Action):
    """§ワミー, E8, OQ21: no cost; its effect is recorded by adjustments (C3)."""

    type: Literal["play_whammy"] = "play_whammy"
    card: str = Instance
    note: str = Field(default="", max_length=300)
    card_flows = (CardFlow("card", ("hand",), "dead"),)


class MoveCharacter(Action):
    """§陰謀団について, OQ14: crank a character to move it within the conspiracy."""

    type: Literal["move_character"] = "move_character"
    character: str = Instance
    rank: int = Cell
    file: int = Cell


class CrankCharacter(Action):
    """OQ9: crank a character at will (``voluntary_crank: on``)."""

    type: Literal["crank_character"] = "crank_character"
    character: str = Instance


class GeneratePull(Action):
    """E7: crank a character or resource to add its pull to the reserve."""

    type: Literal["generate_pull"] = "generate_pull"
    source: str = Instance


class DeclareAttack(Action):
    """§各攻撃の処理, E4, E5: crank an attacker to attack a target of another player."""

    type: Literal["declare_attack"] = "declare_attack"
    attacker: str = Instance
    defender: int = Field(ge=1)
    target: str = Instance
    los_override: str | None = Field(default=None, min_length=3, max_length=300,
                                     description="OQ20: the card text that lets the target be "
                                                 "aimed at past active characters.")


def _reason(side: str) -> Any:
    return Field(default=None, min_length=3, max_length=300,
                 description=f"Why the {side}'s power changes (the card text): shown to "
                             "everyone with the modifier.")


class ResolveCombat(Action):
    """E3: the powers compare, with the modifiers card texts give for this attack (C3), each
    with its reason if given (edge digest: an amount and a reason, shown to everyone)."""

    type: Literal["resolve_combat"] = "resolve_combat"
    attacker_modifier: int = Field(default=0, ge=-99, le=99)
    target_modifier: int = Field(default=0, ge=-99, le=99)
    attacker_reason: str | None = _reason("attacker")
    target_reason: str | None = _reason("target")

    @field_validator("attacker_reason", "target_reason")
    @classmethod
    def _visible(cls, reason: str | None) -> str | None:
        if reason is not None and (len(reason.strip()) < 3 or not reason.isprintable()):
            raise ValueError("a reason is at least 3 visible, printable characters")
        return reason

    @model_validator(mode="after")
    def _reasons_of_modifiers(self) -> ResolveCombat:
        for side in ("attacker", "target"):
            if getattr(self, f"{side}_reason") is not None and \
                    not getattr(self, f"{side}_modifier"):
                raise ValueError(f"{side}_reason explains a non-zero {side}_modifier")
        return self

    @model_serializer(mode="wrap")
    def _without_no_reason(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Without reasons it is stored as it was before they existed."""
        data: dict[str, Any] = handler(self)
        for key in ("attacker_reason", "target_reason"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


class EndOperations(Action):
    """§ターン終了(End of Turn)フェイズ: on to the shift step."""

    type: Literal["end_operations"] = "end_operations"


class ShiftGear(Action):
    """§シフト: gear to another own character, each gear once per turn."""

    type: Literal["shift_gear"] = "shift_gear"
    gear: str = Instance
    to: str = Instance


class EndTurn(Action):
    """E7: unspent character pull becomes influence; the next player begins."""

    type: Literal["end_turn"] = "end_turn"
    consumes = ("draw",)


class ClaimCardVictory(Action):
    """OQ24: a card's own victory condition claimed; the others accept or dispute."""

    type: Literal["claim_card_victory"] = "claim_card_victory"
    card: str = Instance
    reason: str = Field(min_length=3, max_length=300)


class AcceptClaim(Action):
    """OQ24: accept another player's card-victory claim."""

    type: Literal["accept_claim"] = "accept_claim"


class Dispute(Action):
    """OQ24: dispute the pending claim; a judge rules."""

    type: Literal["dispute"] = "dispute"
    calls_judge = True


class RuleClaim(Action):
    """OQ24: a judge's ruling on the disputed claim (recorded for the claimant's seat)."""

    type: Literal["rule_claim"] = "rule_claim"
    judges_only = True
    upheld: bool
    reason: str = Field(min_length=3, max_length=300)


ACTIONS: tuple[type[Action], ...] = (
    DiscardUnplayable, Draw, PlaceCharacter, PlacePermanent, Attach, PlayWhammy, MoveCharacter,
    CrankCharacter, GeneratePull, DeclareAttack, ResolveCombat, EndOperations, ShiftGear,
    EndTurn, ClaimCardVictory, AcceptClaim, Dispute, RuleClaim)

OUTCOME_KINDS = (
    OutcomeKind("draw", CardDrawn, "a card a seat draws from its deck, seen by that seat"),
    OutcomeKind("first_player", SeatChosen, "the seat that plays first, when not regulated"),
)
SETUP_CONSUMES = ("draw", "first_player")
