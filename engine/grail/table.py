"""Quest for the Grail's zone table: every zone, who may see it, where its cards are in the
state, and what a judge sets by adjustment (C3: card texts, events, spells, permanent damage;
engine.core.holdings).

Moves: a card between a seat's hand, court deck, quest deck, court and quest discard piles,
removed zone, active quest and field. Into ``active_quest``: a quest, replacing the one there,
which goes to the seat's quest discard as a refresh sends it (ドロー L72); the quest being
fought neither leaves nor is replaced. Out of ``field``: a domain; a warrior, destroyed as the
rules destroy one (``engine.grail.basics.destroy``: its attachments to their owners' court
discard piles, a pending victory challenge void, a combat it fights lost, grail OQ-30) but put
where the move says; or a card attached to a warrior, on its own. Into ``field``: a domain, or
a warrior (printed valor, no damage); into ``field:WARRIOR``: a companion or a reward attached
to that warrior of the seat, as the rules let one attach (ladies, slots, uniqueness:
``engine.grail.field.fits``).
Counters (of a card by its instance id): ``valor:WARRIOR`` (through ``change_valor``: 0
destroys, OQ-30), ``damage:WARRIOR`` or ``damage:QUEST`` (a quest being fought, 討伐クエスト
L153), ``permanent_damage:WARRIOR``; flags ``acted:WARRIOR`` and ``assigned:WARRIOR`` (its
challenge action and assignment operation this turn). Stats: ``prowess``, ``strength``,
``endurance`` and ``armour`` of a warrior on a field or an active combat quest, by lasting
modifiers (the end of the turn, or for good; while the card stays in play).
"""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.core.holdings import Holding, Pile, Seat, Stat, Tally
from engine.core.zones import Visibility, Zone
from engine.grail.basics import change_valor, destroy, fighters
from engine.grail.field import fits
from engine.grail.model import GrailState, Side, Warrior
from engine.grail.reasons import GrailReason as R


def _seat(seat: Seat) -> int:
    assert seat is not None  # every Grail zone is a seat's
    return seat


def _warrior_of(state: GrailState, seat: Seat, instance: str) -> Warrior | None:
    return next((w for w in state.warriors[_seat(seat)] if w.card == instance), None)


class ActiveQuest(Holding[GrailState]):
    """The seat's face-up active quest: one quest, or none (開始準備 L64). A quest put there
    replaces the one there as a refresh does (ドロー L72): that one goes to the seat's quest
    discard pile. The quest being fought neither leaves nor is replaced."""

    def cards(self, state: GrailState, seat: Seat, address: str) -> list[str]:
        """The quest, if any."""
        quest = state.active_quest[_seat(seat)]
        return [quest] if quest else []

    def take(self, state: GrailState, seat: Seat, address: str, card: str) -> None:
        """The place is left empty (OQ-6: retried at the seat's next reveal)."""
        _not_fought(state, card)
        state.active_quest[_seat(seat)] = None

    def admit(self, state: GrailState, seat: Seat, address: str, card: str) -> None:
        """A quest, in place of one not being fought."""
        super().admit(state, seat, address, card)
        if state.card(card).type != "quest":
            raise IllegalAction(R.CARD_NOT_IN_ZONE, f"{state.card(card).name} is not a quest.")
        there = state.active_quest[_seat(seat)]
        if there is not None:
            _not_fought(state, there)

    def put(self, state: GrailState, seat: Seat, address: str, card: str) -> None:
        """The seat's active quest; the one it replaces to the seat's quest discard."""
        s = _seat(seat)
        there = state.active_quest[s]
        if there is not None:
            state.quest_discard[s].append(there)
        state.active_quest[s] = card


def _not_fought(state: GrailState, quest: str) -> None:
    if state.combat is not None and any(s.fighter == quest for s in state.combat.sides):
        raise IllegalAction(R.QUEST_IN_COMBAT, "That quest is being fought: end the combat "
                            "first.")


class Field(Holding[GrailState]):
    """A seat's field (場の構成 L350): one place listing its domains, then each warrior followed
    by what is attached to it; each warrior is also a place a card may be put into
    (``field:WARRIOR``, its attachments)."""

    def entries(self, state: GrailState, seat: Seat) -> list[str]:
        """The field itself, and each of the seat's warriors as a host."""
        return ["", *(w.card for w in state.warriors[_seat(seat)])]

    def cards(self, state: GrailState, seat: Seat, address: str) -> list[str]:
        """The domains, then every warrior with its attachments (a host: its attachments)."""
        if address:
            host = _warrior_of(state, seat, address)
            return list(host.attached) if host is not None else []
        s = _seat(seat)
        return list(state.domains[s]) + [c for w in state.warriors[s]
                                         for c in (w.card, *w.attached)]

    def take(self, state: GrailState, seat: Seat, address: str, card: str) -> None:
        """A warrior is destroyed, all but where its card goes (``destroy``); a domain leaves;
        an attached card is detached from its warrior alone."""
        s = _seat(seat)
        warrior = _warrior_of(state, s, card)
        if warrior is not None:
            destroy(state, warrior, discard=False)
        elif card in state.domains[s]:
            state.domains[s].remove(card)
        else:
            host = next(w for w in state.warriors[s] if card in w.attached)
            host.attached.remove(card)

    def admit(self, state: GrailState, seat: Seat, address: str, card: str) -> None:
        """Onto the field: a warrior or a domain. Onto a warrior: a companion or a reward, as
        the rules let one attach: a lady to a knight or king without one (貴婦人 L300), one
        weapon, armour, shield and horse each (武器や防具 L318), a lady or a reward of value 1
        or more not already in play (基本構成細則 L56-57, OQ-10)."""
        kind = state.card(card).type
        if not address:
            if kind not in ("warrior", "domain"):
                raise IllegalAction(R.CARD_NOT_IN_ZONE, "Only warriors and domains stand on the "
                                    "field by themselves: attach a companion or a reward to a "
                                    "warrior (field:WARRIOR).")
            return
        host = _warrior_of(state, seat, address)
        if host is None:
            raise IllegalAction(R.BAD_ZONE, f"There is no warrior {address} on seat {seat}'s "
                                "field to attach a card to.")
        if kind not in ("companion", "reward"):
            raise IllegalAction(R.NOT_ATTACHABLE, f"{state.card(card).name} is not a companion "
                                "or a reward: only those attach to a warrior.")
        fits(state, host, card)

    def put(self, state: GrailState, seat: Seat, address: str, card: str) -> None:
        """A warrior with its printed valor and no damage, a domain, or an attachment."""
        s = _seat(seat)
        if address:
            host = _warrior_of(state, s, address)
            assert host is not None  # admitted
            host.attached.append(card)
        elif state.card(card).type == "warrior":
            state.warriors[s].append(Warrior(card=card, owner=s, valor=state.card(card).valor))
        else:
            state.domains[s].append(card)


ZONES: tuple[Zone, ...] = (
    Zone("hand", "seat", False, Visibility.OWNER, description="手札: no limit (L40).",
         holding=Pile(lambda state, seat: state.hands[seat])),
    Zone("court", "seat", False, Visibility.JUDGES,
         description="コートデッキ, face down: a draw is a recorded pick (C1).",
         holding=Pile(lambda state, seat: state.court[seat])),
    Zone("quests", "seat", False, Visibility.JUDGES,
         description="クエストデッキ, face down: a reveal is a recorded public pick.",
         holding=Pile(lambda state, seat: state.quests[seat])),
    Zone("active_quest", "seat", False, Visibility.EVERYONE,
         description="The seat's face-up active quest (開始準備 L64).", holding=ActiveQuest()),
    Zone("field", "seat", False, Visibility.EVERYONE, address="warrior instance id",
         description="場: the seat's domains and warriors (with what is attached to them); "
                     "field:WARRIOR is what is attached to that warrior of the seat.",
         holding=Field()),
    Zone("court_discard", "seat", False, Visibility.EVERYONE,
         description="捨て札置き場 of court cards.",
         holding=Pile(lambda state, seat: state.court_discard[seat])),
    Zone("quest_discard", "seat", False, Visibility.EVERYONE,
         description="クエスト専用の捨て札置き場.",
         holding=Pile(lambda state, seat: state.quest_discard[seat])),
    Zone("removed", "seat", False, Visibility.EVERYONE, description="除外空間 (card text only).",
         holding=Pile(lambda state, seat: state.removed[seat])),
)


# ----- what a judge sets (C3) -------------------------------------------------------------
def _warriors(state: GrailState, seat: int) -> list[str]:
    """Every warrior on any field (a judge sets any seat's)."""
    return [w.card for s in state.seats() for w in state.warriors[s]]


def _warrior(state: GrailState, instance: str) -> Warrior:
    warrior = state.warrior(instance)
    assert warrior is not None  # the kernel checked the key
    return warrior


def _quest_side(state: GrailState, instance: str) -> Side | None:
    """The side of the combat in progress that is that quest."""
    if state.combat is None:
        return None
    return next((s for s in state.combat.sides if s.quest and s.fighter == instance), None)


def _valor(state: GrailState, seat: int, instance: str) -> int:
    """A warrior's valor; 0 once it is gone (destroyed at 0)."""
    warrior = state.warrior(instance)
    return 0 if warrior is None else warrior.valor


def _set_valor(state: GrailState, seat: int, instance: str, value: int) -> None:
    """Valor changes as the rules change it: at 0 the warrior is destroyed (L52, OQ-30)."""
    warrior = _warrior(state, instance)
    change_valor(state, warrior, value - warrior.valor)


def _damaged(state: GrailState, seat: int) -> list[str]:
    """The warriors on any field and the quest being fought."""
    quests = [s.fighter for s in state.combat.sides if s.quest] if state.combat else []
    return _warriors(state, seat) + quests


def _damage(state: GrailState, seat: int, instance: str) -> int:
    side = _quest_side(state, instance)
    return side.damage if side is not None else _warrior(state, instance).damage


def _set_damage(state: GrailState, seat: int, instance: str, value: int) -> None:
    side = _quest_side(state, instance)
    if side is not None:
        side.damage = value
    else:
        _warrior(state, instance).damage = value


def _field(name: str, high: int, description: str) -> Tally[GrailState]:
    """A warrior's own counter or flag, set as it is."""
    def get(state: GrailState, seat: int, instance: str) -> int:
        return int(getattr(_warrior(state, instance), name))

    def set_it(state: GrailState, seat: int, instance: str, value: int) -> None:
        warrior = _warrior(state, instance)
        setattr(warrior, name, bool(value) if high == 1 else value)

    return Tally(name, "card", get, set_it, 0, high, description=description, keys=_warriors)


TALLIES: tuple[Tally[GrailState], ...] = (
    Tally("valor", "card", _valor, _set_valor, 0, 999, keys=_warriors,
          description="A warrior's valor (名声値, 基本構成細則 L52): at 0 it is destroyed "
                      "(OQ-30)."),
    Tally("damage", "card", _damage, _set_damage, 0, 99, keys=_damaged,
          description="A warrior's normal damage (reset at the end of the turn, L99), or the "
                      "damage of the quest being fought (reset at the combat's end, L153)."),
    _field("permanent_damage", 99, "A warrior's permanent damage (交戦処理 L204): never "
           "reset by the rules."),
    _field("acted", 1, "Whether a warrior has taken its challenge action this turn (L89)."),
    _field("assigned", 1, "Whether a warrior has had its assignment operation this turn "
           "(L79, OQ-7)."),
)


STATS: tuple[Stat[GrailState], ...] = (
    Stat("prowess", "PRO (武術力): added to the dice for a round's prowess (G1).", fighters),
    Stat("strength", "STR (筋力): the damage of a hit, less the target's armour (G1).",
         fighters),
    Stat("endurance", "END (耐久力): normal plus permanent damage at it is a mortal wound (G1).",
         fighters),
    Stat("armour", "Armour (装甲): the printed armour of the card and of the rewards attached "
         "to a warrior (OQ-33), taken off a hit's strength (G1).", fighters),
)
