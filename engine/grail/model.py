"""Quest for the Grail's cards and state (imports nothing of the game; its zone table is
engine.grail.table).

Sources: the document 002 (cited by its headings and lines, [戦士(Warrior)カード L247]), rulings
C1-C5 and G1-G8, and the digest's open questions adopted by X1 (grail OQ-n).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.contract import GameState

COURT_MIN = 40  # 事前準備 コートデッキ L25
QUEST_MIN = 10  # 事前準備 クエストデッキ L30
QUEST_COPIES = 2  # L33, counted by name (INFERRED)
OPENING_HAND = 9  # 開始時基本設定 L40
GRAIL_VALOR = 12  # クエストについて L128, G7
GRAIL_QUESTS = 3  # G7

PHASES = ("draw", "build", "deployment", "assignment", "upkeep", "challenge")

WarriorKind = Literal["warrior", "knight", "king"]
RewardKind = Literal["weapon", "armour", "shield", "horse", "vow", "combat_experience", "other"]
SLOTTED = ("weapon", "armour", "shield", "horse")  # 武器や防具 L318: one of each per warrior
UNTRANSFERABLE = ("vow", "combat_experience")  # 誓約 L324, 戦闘経験 L328


class Card(BaseModel):
    """One card definition (カード構成 L220-348); texts are for people only (C3)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    type: Literal["quest", "domain", "warrior", "companion", "reward", "event", "spell",
                  "combat_action"]
    text: str = Field(default="", max_length=600)
    # warriors (戦士 L253-256) and combat quests
    kind: WarriorKind | Literal["creature", "other"] | None = Field(
        default=None, description="warrior: warrior/knight/king; quest: knight/creature/other.")
    prowess: int = Field(default=0, ge=0, le=99)
    strength: int = Field(default=0, ge=0, le=99)
    endurance: int = Field(default=0, ge=0, le=99)
    valor: int = Field(default=0, ge=0, le=99, description="Warrior: VAL; quest: its value.")
    upkeep: int = Field(default=0, ge=0, le=20, description="Warrior: upkeep cost (維持コスト).")
    armour: int = Field(default=0, ge=0, le=20, description="Printed armour (OQ-33).")
    domain: str | None = Field(default=None, max_length=80, description="King: his domain.")
    alt_victory: bool = Field(default=False, description="King: 固有の勝利条件 (王 L288).")
    enchanter: int | None = Field(default=None, ge=0, le=20, description="魔力値.")
    # companions and rewards
    lady: bool = False
    value: int = Field(default=0, ge=0, le=20, description="Reward: 価値.")
    reward: RewardKind | None = None
    spell_rating: int = Field(default=0, ge=0, le=20, description="Spell: rating required.")

    @model_validator(mode="after")
    def _fields_of_its_type(self) -> Card:
        if self.type == "warrior" and self.kind not in ("warrior", "knight", "king"):
            raise ValueError("a warrior's kind is warrior, knight or king")
        if self.type == "quest" and self.kind not in ("knight", "creature", "other"):
            raise ValueError("a quest's kind is knight, creature or other")
        if self.kind == "king" and not self.domain:
            raise ValueError("a king names his domain (王 L281)")
        if self.type == "reward" and self.reward is None:
            raise ValueError("a reward has a category")
        if self.reward == "combat_experience" and self.value != 1:
            raise ValueError("combat experience has value 1 (戦闘経験 L326)")
        return self

    @property
    def is_knight(self) -> bool:
        """Knights and kings (王 L279: a king is a kind of knight)."""
        return self.type == "warrior" and self.kind in ("knight", "king")

    @property
    def combat_quest(self) -> bool:
        """A quest fought as a mortal combat (討伐クエスト L147)."""
        return self.type == "quest" and self.kind in ("knight", "creature")


def card_of(instance: str) -> str:
    """The card id of a card instance (``<card id>@<seat>.<n>``)."""
    return instance.partition("@")[0]


@dataclass(kw_only=True)
class Warrior:
    """A warrior on the field with its counters and attachments (基本構成細則 L51-52)."""

    card: str  # the instance id
    owner: int
    valor: int
    damage: int = 0
    permanent_damage: int = 0
    attached: list[str] = field(default_factory=list)  # companions and rewards, instance ids
    acted: bool = False  # its challenge action this turn
    assigned: bool = False  # its assignment operation this turn (OQ-7)


@dataclass(kw_only=True)
class Side:
    """One participant of a combat: a warrior (by instance id) or a quest."""

    seat: int  # the controller (a quest's owner)
    fighter: str  # warrior or quest instance id
    quest: bool = False
    damage: int = 0  # a quest's damage (reset at the end, 討伐クエスト L153)
    wounded: bool = False
    was_wounded: bool = False  # at the result (E1), before any healing
    surrender_used: bool = False
    for_king: str | None = None  # the king a champion fights for (王 L285-287)


@dataclass(kw_only=True)
class Combat:
    """A combat in progress (各戦闘の処理 L189-219): its kind, the two sides, the round, and the
    step it waits on."""

    kind: Literal["quest", "mortal", "honour", "title"]
    sides: list[Side] = field(default_factory=list)
    round: int = 0
    step: Literal["champions", "cards", "surrender_answer", "heal", "honour_reward"] = "cards"
    surrender_by: int | None = None  # side index asking
    result: str = ""  # "", "win:0", "win:1", "draw" once fixed (E1)
    surrendered: bool = False  # the result came from an accepted surrender
    heal_pending: list[int] = field(default_factory=list)  # side indexes that may still heal
    supporters: list[str] = field(default_factory=list)  # warriors that supported (OQ-28)


@dataclass(kw_only=True)
class GrailAttempt:
    """A grail quest in progress (G7)."""

    seat: int
    knight: str
    successes: int = 0
    eligible: list[str] = field(default_factory=list)  # quest instance ids


@dataclass(kw_only=True)
class HonourOffer:
    """An honour challenge waiting on the target's answer (名誉チャレンジ L167)."""

    challenger: str
    target: str


@dataclass(kw_only=True)
class Claim:
    """A claim that depends on card text (G8): who made it, what it was, whether disputed."""

    seat: int
    what: Literal["quest", "victory_challenge", "alternate_victory", "grail"]
    about: str  # the quest (for a grail: the attempt's latest claimed quest), or the king
    by: str | None = None  # the warrior that claimed the quest (for a grail: the knight)
    disputed_by: int | None = None
    ruled: bool = False


@dataclass(kw_only=True)
class GrailState(GameState):
    """A Quest for the Grail position. Seat-owned zones are dicts keyed by seat number; every
    court and quest card is an instance ``<card id>@<seat>.<n>``."""

    cards: dict[str, Card] = field(default_factory=dict)
    phase: str = "draw"  # one of PHASES
    court: dict[int, list[str]] = field(default_factory=dict)  # unordered: draws are picks
    quests: dict[int, list[str]] = field(default_factory=dict)  # unordered: reveals are picks
    active_quest: dict[int, str | None] = field(default_factory=dict)
    hands: dict[int, list[str]] = field(default_factory=dict)
    domains: dict[int, list[str]] = field(default_factory=dict)
    warriors: dict[int, list[Warrior]] = field(default_factory=dict)
    court_discard: dict[int, list[str]] = field(default_factory=dict)
    quest_discard: dict[int, list[str]] = field(default_factory=dict)
    removed: dict[int, list[str]] = field(default_factory=dict)
    drawn: bool = False  # this turn's draw is done (after a pending victory claim, L70)
    domain_placed: bool = False
    refreshed: bool = False
    upkeep_paid: bool = False
    combat: Combat | None = None
    grail: GrailAttempt | None = None
    honour_offer: HonourOffer | None = None
    reward_due: str | None = None  # the warrior that achieved a normal quest (G4)
    reward_value: int = 0
    victory_challenges: dict[int, list[str]] = field(default_factory=dict)  # seat -> kings
    claims: list[Claim] = field(default_factory=list)  # this turn's, open to dispute (G8)
    # a match-ending claim (an alternate victory, a grail won on claimed quests): play is over,
    # the result waits for the others' acceptance or a ruling (OQ-22)
    victory_claim: Claim | None = None
    accepted: list[int] = field(default_factory=list)  # seats that accepted it
    first_player: int = 1
    spells_cast: list[str] = field(default_factory=list)  # casters this round (OQ-25)
    # the combat's king sides still to name a champion (OQ-17 ``title_champion: on``); a late
    # field, left out of positions while empty
    champions_to_name: list[int] = field(default_factory=list)
    # the grail knight that may heal now, between the quests of its attempt, having just
    # achieved a non-combat one (L133, OQ-29); a late field, left out of positions while None
    grail_heal: str | None = None

    shared_fields = ("cards",)
    late_fields = ("champions_to_name", "grail_heal")

    def card(self, instance: str) -> Card:
        """The definition of a card instance."""
        return self.cards[card_of(instance)]

    def warrior(self, instance: str) -> Warrior | None:
        """The warrior on any field with that instance id."""
        for seat in self.seats():
            for w in self.warriors[seat]:
                if w.card == instance:
                    return w
        return None

