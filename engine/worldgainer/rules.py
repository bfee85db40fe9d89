"""World Gainer core rules (rules document 004, rulings C1-C5 and W1-W5).

Section names in comments are the document's own headings: ターンの進行 (turn), 配置のルール
(placement), スタンについて (stuns), 属性について (colours), コスト支払いついて (payment).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from engine.core.chance import CardDrawn, Chance, Outcome, SeatChosen
from engine.core.contract import (
    Action,
    Adjust,
    MatchConfig,
    MatchResult,
    Options,
    Ruleset,
)
from engine.core.effects import Effect
from engine.core.errors import IllegalAction, SetupError
from engine.core.legality import Choice
from engine.core.viewer import Viewer
from engine.core.zones import Zone
from engine.worldgainer.actions import (
    ACTIONS,
    OUTCOME_KINDS,
    SETUP_CONSUMES,
    DiscardFieldCard,
    DiscardStun,
    EndTurn,
    ExhaustStun,
    Gain,
    PlaceStun,
)
from engine.worldgainer.model import (
    ALL_FIELDS,
    BATTLEFIELD,
    HAND_SIZE,
    PHASES,
    SLOTS,
    TALLIES,
    ZONES,
    Card,
    Colour,
    Player,
    Square,
    Stun,
    WorldGainerState,
    field_ids,
    janken,
)
from engine.worldgainer.reasons import WorldGainerReason
from engine.worldgainer.reasons import WorldGainerReason as R

MIN_DECK = 40
MAX_COPIES = 3


class WorldGainerOptions(Options):
    """World Gainer regulation options (see docs/games/worldgainer.md)."""

    first_player: Literal[1, 2] | None = Field(
        default=None, description="Seat that plays first; chosen at random (recorded) when unset.")
    victory_points: int = Field(default=15, ge=1, le=1000, description="W4 points threshold.")
    stack_compare: Literal["top", "total"] = Field(
        default="top", description="Stacking on your own square of the same colour needs a cost "
        "above the top card ('top', default) or above the square's total ('total').")


@dataclass(frozen=True)
class Placement:
    """What placing a card on a square would do (before it is done)."""

    effect: Literal["take", "stack", "replace", "capture", "offset", "offset_top"]


@functools.lru_cache(maxsize=1024)
def _stun_payments(ready: tuple[tuple[int, Colour, int], ...]) -> tuple[
        tuple[int, dict[Colour, int], tuple[tuple[int, int], ...]], ...]:
    """Every way to pay with these ready stuns (slot, colour, stun value), each left (0),
    exhausted (1) or discarded (2) (W2), as (total, amount per colour, ((slot, how), ...)),
    cheapest first: by total, then by fewer discards, then in the order the choices are
    enumerated. Depends only on the stuns, so it is computed once per set of stuns."""
    options = []
    for choice in itertools.product((0, 1, 2), repeat=len(ready)):
        amounts: dict[Colour, int] = {}
        used = []
        for (slot, colour, stun), how in zip(ready, choice):
            if how:
                amounts[colour] = amounts.get(colour, 0) + (stun if how == 1 else 1)
                used.append((slot, how))
        total = sum(amounts.values())
        options.append(((total, choice.count(2)), total, amounts, tuple(used)))
    options.sort(key=lambda o: o[0])
    return tuple((total, amounts, used) for _, total, amounts, used in options)


@functools.lru_cache(maxsize=4096)
def _cheapest_payment(ready: tuple[tuple[int, Colour, int], ...], cost: int, colour: Colour,
                      amount: int) -> tuple[tuple[int, int], ...] | None:
    """The first of ``_stun_payments(ready)`` that covers ``cost`` with ``amount`` of it in
    ``colour`` (any colour for yellow, W2); None if none does."""
    for total, amounts, choice in _stun_payments(ready):
        have = total if colour == Colour.YELLOW else amounts.get(colour, 0)
        if total >= cost and have >= amount:
            return choice
    return None


def _priority_gap(st: WorldGainerState, seat: int, field: str) -> list[str]:
    """W3: the squares ``seat`` must hold before taking ``field`` (none: it may)."""
    for tier in (field_ids(seat), BATTLEFIELD, field_ids(_other(seat))):
        if field in tier:
            return []
        missing = [f for f in tier if st.board[f].holder != seat]
        if missing:
            return missing
    return []


def _other(seat: int) -> int:
    return 2 if seat == 1 else 1


def _illegal(reason: R, message: str) -> IllegalAction:
    return IllegalAction(reason, message)


class WorldGainer(Ruleset[WorldGainerState, WorldGainerOptions]):
    """World Gainer TCG: two players race to hold the battlefield or 15 points of cards."""

    game_id = "worldgainer"
    title = "World Gainer"
    version = "1.0"
    min_players = 2
    max_players = 2
    state_class = WorldGainerState
    card_model = Card
    options_model = WorldGainerOptions
    actions = ACTIONS
    zones = ZONES
    reasons = WorldGainerReason
    tallies = TALLIES
    phases = PHASES
    outcome_kinds = OUTCOME_KINDS
    setup_consumes = SETUP_CONSUMES

    # ----- deck construction (C5) ----------------------------------------------------------
    def check_decks(self, decks: Sequence[Mapping[str, int]], cards: Mapping[str, Any]) -> None:
        """40+ cards, both decks the same size, 3 copies of a name at most, uniques once."""
        sizes = [sum(d.values()) for d in decks]
        for seat, (deck, size) in enumerate(zip(decks, sizes), start=1):
            if size < MIN_DECK:
                raise SetupError(R.DECK_TOO_SMALL,
                                 f"Seat {seat}'s deck has {size} cards; at least {MIN_DECK} are "
                                 "required.", seat=seat)
            by_name: Counter[str] = Counter()
            for cid, count in deck.items():
                by_name[cards[cid].name] += count
            for cid in deck:  # a unique card counts by name, across ids (reprints)
                count = by_name[cards[cid].name]
                if cards[cid].unique and count > 1:
                    raise SetupError(R.UNIQUE_CARD, f"Seat {seat}'s deck has {count} copies of "
                                     f"the unique card {cards[cid].name}; only 1 is allowed.",
                                     seat=seat)
            name, most = by_name.most_common(1)[0]
            if most > MAX_COPIES:
                raise SetupError(R.TOO_MANY_COPIES, f"Seat {seat}'s deck has {most} cards named "
                                 f"{name}; at most {MAX_COPIES} are allowed.", seat=seat)
        if len(set(sizes)) > 1:
            raise SetupError(R.DECK_SIZES_DIFFER, "Both decks must have the same number of cards "
                             f"(they have {sizes[0]} and {sizes[1]}).")

    # ----- setup ("開始準備") --------------------------------------------------------------
    def _setup(self, config: MatchConfig, options: WorldGainerOptions, cards: dict[str, Any],
               chance: Chance) -> WorldGainerState:
        players = [Player(deck=sorted(Counter(deck).elements())) for deck in config.decks]
        state = WorldGainerState(
            game=self.game_id, players=list(config.players),
            options=options.recorded(), cards=dict(cards), seats_state=players,
            board={f: Square() for f in ALL_FIELDS})
        for seat in (1, 2):
            for _ in range(HAND_SIZE):
                self._draw(state, seat, chance)
        first = options.first_player or chance.choose_seat("first_player", [1, 2])
        state.first_player = first
        state.active = first
        # W5: the first player skips the draw of the first turn; there are no stuns to ready.
        return state

    # ----- actions -------------------------------------------------------------------------
    def _apply(self, state: WorldGainerState, action: Action, chance: Chance) -> None:
        if action.seat != state.active:
            raise _illegal(R.NOT_YOUR_TURN, f"It is seat {state.active}'s turn, not seat "
                           f"{action.seat}'s.")
        if isinstance(action, PlaceStun):
            self._place_stun(state, action)
        elif isinstance(action, Gain):
            self._gain(state, action)
        elif isinstance(action, EndTurn):
            self._end_turn(state, chance)

    def _place_stun(self, st: WorldGainerState, action: PlaceStun) -> None:
        """Stand-by phase: one card from hand to a free stun slot, once a turn."""
        if st.stun_placed:
            raise _illegal(R.STUN_ALREADY_PLACED, "You have already placed a stun this turn.")
        if st.phase != "standby":
            raise _illegal(R.STANDBY_PHASE_OVER, "The stand-by phase is over: a stun must be "
                           "placed before gaining a field.")
        me = st.player(action.seat)
        self._require_in_hand(st, me, action.card)
        slot = action.slot or self._first_free_slot(me)
        if me.standby[slot - 1] is not None:
            raise _illegal(R.SLOT_TAKEN, f"Stun slot {slot} is already occupied.")
        me.hand.remove(action.card)
        me.standby[slot - 1] = Stun(card=action.card, ready=True)
        st.stun_placed = True
        st.phase = "gain"

    def _first_free_slot(self, me: Player) -> int:
        for i, stun in enumerate(me.standby, start=1):
            if stun is None:
                return i
        raise _illegal(R.STANDBY_FULL, f"All {SLOTS} stun slots are occupied.")

    def _require_in_hand(self, st: WorldGainerState, me: Player, card: str) -> None:
        if card not in me.hand:
            name = st.cards[card].name if card in st.cards else card
            raise _illegal(R.CARD_NOT_IN_HAND, f"{name} is not in your hand.")

    def _gain(self, st: WorldGainerState, action: Gain) -> None:
        """Gain phase: pay the cost, then place the card by the placement rules, then W4."""
        if st.gain_placed:
            raise _illegal(R.GAIN_ALREADY_PLACED, "You have already placed a card on the field "
                           "this turn.")
        if action.field not in st.board:
            raise _illegal(R.NO_SUCH_FIELD, f"There is no square {action.field}; squares are "
                           f"{', '.join(ALL_FIELDS)}.")
        me = st.player(action.seat)
        self._require_in_hand(st, me, action.card)
        card = st.cards[action.card]
        self._pay(st, action.seat, card, action.payment)
        me.hand.remove(action.card)
        self._place(st, action.seat, card, action.field)
        st.gain_placed = True
        st.phase = "gain"
        self._check_victory(st, action.seat)

    # ----- payment (コスト支払い, W2) --------------------------------------------------------
    def _pay(self, st: WorldGainerState, seat: int,
             card: Card, payment: Sequence[ExhaustStun | DiscardStun | DiscardFieldCard]) -> None:
        me = st.player(seat)
        pool: list[tuple[Colour, int]] = []
        used_slots: set[int] = set()
        for source in payment:
            if isinstance(source, (ExhaustStun, DiscardStun)):
                stun = me.standby[source.slot - 1]
                if source.slot in used_slots:
                    raise _illegal(R.STUN_USED_TWICE, f"The stun in slot {source.slot} is "
                                   "named twice in the payment.")
                if stun is None:
                    raise _illegal(R.NO_STUN, f"There is no stun in slot {source.slot}.")
                if not stun.ready:
                    raise _illegal(R.STUN_EXHAUSTED, f"The stun in slot {source.slot} is "
                                   "exhausted; only a ready stun can pay.")
                used_slots.add(source.slot)
                colour = st.cards[stun.card].colour
                if isinstance(source, ExhaustStun):
                    me.standby[source.slot - 1] = Stun(card=stun.card, ready=False)
                    pool.append((colour, st.cards[stun.card].stun))
                else:
                    me.standby[source.slot - 1] = None
                    me.breaks.append(stun.card)
                    pool.append((colour, 1))
            else:
                square = st.board.get(source.field)
                if square is None or square.holder != seat or not square.cards:
                    raise _illegal(R.NO_OWN_FIELD_CARD, f"You hold no card on {source.field} "
                                   "to discard.")
                top = square.cards[-1]
                st.board[source.field] = square.without(square.cards[:-1])
                me.breaks.append(top)
                pool.append((st.cards[top].colour, 1))
        total = sum(amount for _, amount in pool)
        if total < card.cost:
            raise _illegal(R.COST_NOT_PAID, f"{card.name} costs {card.cost}; the payment gives "
                           f"only {total}.")
        need = card.required
        if need.amount:
            have = total if need.colour == Colour.YELLOW else sum(
                amount for colour, amount in pool if colour == need.colour)
            if have < need.amount:
                raise _illegal(R.REQUIRED_COLOUR_NOT_PAID, f"{card.name} needs {need.amount} of "
                               f"its cost in {need.colour}; the payment gives {have}.")

    # ----- placement (配置のルール, W3) ------------------------------------------------------
    def placement(self, st: WorldGainerState, seat: int, card: Card, field: str) -> Placement:
        """What placing ``card`` on ``field`` does now, or IllegalAction saying why not."""
        square = st.board[field]
        if square.holder == seat:
            return self._stacking(st, card, square)
        self._check_priority(st, seat, field)
        if square.holder is None:
            return Placement("take")
        return self._capture(st, card, square)

    def _stacking(self, st: WorldGainerState, card: Card, square: Square) -> Placement:
        """Placing onto a square you already hold (allowed at any time, W3)."""
        top = st.cards[square.cards[-1]]
        duel = janken(card.colour, top.colour)
        if duel == "win":
            return Placement("replace")
        if duel == "lose":
            raise _illegal(R.STACK_COLOUR_LOSES, f"{card.name} ({card.colour}) loses to "
                           f"{top.name} ({top.colour}) and cannot be placed there.")
        compare_total = st.options.get("stack_compare") == "total"
        against = sum(st.cards[c].cost for c in square.cards) if compare_total else top.cost
        if card.cost > against:
            return Placement("stack")
        raise _illegal(R.STACK_COST_TOO_LOW, f"Stacking {card.name} needs a cost above {against}"
                       f"; it costs {card.cost}.")

    def _check_priority(self, st: WorldGainerState, seat: int, field: str) -> None:
        """W3: own my-fields first, then the battlefield, then the opponent's my-fields."""
        missing = _priority_gap(st, seat, field)
        if missing:
            raise _illegal(R.PRIORITY, f"You must hold {', '.join(missing)} before taking "
                           f"{field}.")

    def _capture(self, st: WorldGainerState, card: Card, square: Square) -> Placement:
        """Taking a square the opponent holds: single card, or a stack judged on its total."""
        top = st.cards[square.cards[-1]]
        duel = janken(card.colour, top.colour)
        if duel == "lose":
            raise _illegal(R.CAPTURE_COLOUR_LOSES, f"{card.name} ({card.colour}) loses to "
                           f"{top.name} ({top.colour}).")
        if len(square.cards) == 1:
            if duel == "win" or card.cost > top.cost:
                return Placement("capture")
            if card.cost == top.cost:
                return Placement("offset")
            raise _illegal(R.CAPTURE_COST_TOO_LOW, f"{card.name} costs {card.cost}, not more "
                           f"than {top.name}'s {top.cost}, so it cannot take the square.")
        if duel == "same":
            raise _illegal(R.CAPTURE_SAME_COLOUR_STACK, "A stacked square cannot be taken with "
                           "a card of the same colour.")
        total = sum(st.cards[c].cost for c in square.cards)
        if card.cost > total:
            return Placement("capture")
        if card.cost > top.cost:
            return Placement("offset_top")
        raise _illegal(R.CAPTURE_COST_TOO_LOW, f"{card.name} costs {card.cost}: it needs more "
                       f"than the stack's total {total} to take it, or more than the top card's "
                       f"{top.cost} to offset it.")

    def _place(self, st: WorldGainerState, seat: int, card: Card, field: str) -> None:
        square = st.board[field]
        effect = self.placement(st, seat, card, field).effect
        me, them = st.player(seat), st.player(_other(seat))
        cards, holder = square.cards, square.holder
        if effect in ("take", "stack"):
            cards = (*cards, card.id)
        elif effect in ("replace", "capture"):
            owner = me if effect == "replace" else them
            owner.breaks.extend(reversed(cards))
            cards = (card.id,)
        else:  # offset, offset_top: the hand card and the opponent's top card go
            them.breaks.append(cards[-1])
            cards = cards[:-1]
            me.breaks.append(card.id)
        if effect == "offset":
            holder = None
        elif effect != "offset_top":  # offset_top: the rest of the stack stays theirs
            holder = seat
        st.board[field] = Square(holder=holder, cards=cards)

    # ----- victory (勝利条件, W4, C2/W5) -----------------------------------------------------
    def scores(self, state: WorldGainerState) -> dict[int, int] | None:
        """Points: the costs of each seat's cards on the squares it holds."""
        points = {1: 0, 2: 0}
        for square in state.board.values():
            if square.holder is not None:
                points[square.holder] += sum(state.cards[c].cost for c in square.cards)
        return points

    def _check_victory(self, st: WorldGainerState, placer: int) -> None:
        """W4: right after a placement, all three battlefield squares or enough points win."""
        points = self.scores(st) or {}
        target = int(st.options.get("victory_points", 15))
        for seat in (placer, _other(placer)):
            if all(st.board[f].holder == seat for f in BATTLEFIELD):
                self._win(st, seat, "battlefield", "holds all three battlefield squares")
                return
            if points[seat] >= target:
                self._win(st, seat, "points", f"{points[seat]} points on held squares")
                return

    def _win(self, st: WorldGainerState, seat: int, reason: str, detail: str) -> None:
        st.result = MatchResult(winners=[seat], losers=[_other(seat)], reason=reason,
                                detail=detail)

    # ----- turn (ターンの進行) ---------------------------------------------------------------
    def _end_turn(self, st: WorldGainerState, chance: Chance) -> None:
        """End phase; the next player's draw phase readies their stuns and draws (W5, C2)."""
        st.turn += 1
        limit = st.options.get("turn_limit")
        if limit and st.turn > limit:
            return  # time is called: the contract ends the match on points
        st.active = _other(st.active)
        st.phase = "standby"
        st.stun_placed = False
        st.gain_placed = False
        standby = st.player(st.active).standby
        for slot, stun in enumerate(standby):
            if stun is not None and not stun.ready:
                standby[slot] = Stun(card=stun.card, ready=True)
        self._draw(st, st.active, chance)

    def _draw(self, st: WorldGainerState, seat: int, chance: Chance) -> None:
        if st.result is not None:  # the first failed draw decides; nothing after it counts
            return
        me = st.player(seat)
        if not me.deck:
            st.result = MatchResult(winners=[_other(seat)], losers=[seat], reason="deck_out",
                                    detail=f"seat {seat} had to draw from an empty deck")
            return
        card = chance.draw("draw", me.deck, seat)
        me.deck.remove(card)
        me.hand.append(card)
        me.hand.sort()

    # ----- legal actions -------------------------------------------------------------------
    def _legal_actions(self, state: WorldGainerState, seat: int) -> list[Action]:
        if seat != state.active:
            return []
        me = state.player(seat)
        actions: list[Action] = []
        distinct = sorted(set(me.hand))
        if state.phase == "standby" and not state.stun_placed and None in me.standby:
            actions += [PlaceStun(seat=seat, card=c) for c in distinct]
        if not state.gain_placed:
            fields = self._open_fields(state, seat)
            for cid in distinct:
                card = state.cards[cid]
                payment = self.find_payment(state, seat, card)
                if payment is None:
                    continue
                for field in fields:
                    try:
                        self.placement(state, seat, card, field)
                    except IllegalAction:
                        continue
                    actions.append(Gain(seat=seat, card=cid, field=field,
                                                        payment=payment))
        actions.append(EndTurn(seat=seat))
        return actions

    def _open_fields(self, st: WorldGainerState, seat: int) -> list[str]:
        """The squares W3's priority lets ``seat`` place on now, whatever the card."""
        return [f for f in ALL_FIELDS
                if st.board[f].holder == seat or not _priority_gap(st, seat, f)]

    def _choice_space(self, state: WorldGainerState, seat: int) -> list[Choice]:
        """The stun slot, and the payment of a gain: any ordered selection of sources (W2)."""
        if seat != state.active or not state.player(seat).hand:
            return []
        me = state.player(seat)
        out = []
        free = tuple(i for i, stun in enumerate(me.standby, start=1) if stun is None)
        if state.phase == "standby" and not state.stun_placed and free:
            out.append(Choice("stun", "slot", "one_of", free, description="The stun slot "
                              "(the first free one when omitted)."))
        if not state.gain_placed:
            ready = [i for i, stun in enumerate(me.standby, start=1)
                     if stun is not None and stun.ready]
            sources: list[Any] = [ExhaustStun(slot=i) for i in ready]
            sources += [DiscardStun(slot=i) for i in ready]
            sources += [DiscardFieldCard(field=f) for f in ALL_FIELDS
                        if state.board[f].holder == seat]
            out.append(Choice("gain", "payment", "sequence",
                              tuple(p.model_dump() for p in sources), least=0,
                              description="Any ordered selection of these sources, each stun "
                              "once, that covers the cost and its required colour (W2). The "
                              "listed gains name one cheapest stun payment per card and "
                              "square."))
        return out

    def find_payment(self, st: WorldGainerState, seat: int,
                     card: Card) -> list[ExhaustStun | DiscardStun | DiscardFieldCard] | None:
        """A payment from ready stuns that covers ``card``, wasting as little as possible.

        Each ready stun is left, exhausted or discarded (3^5 choices at most). Field cards are
        never offered here; a player may still name them. None when no stun payment works.
        """
        ready = tuple((i, st.cards[s.card].colour, st.cards[s.card].stun)
                      for i, s in enumerate(st.player(seat).standby, start=1)
                      if s is not None and s.ready)
        choice = _cheapest_payment(ready, card.cost, card.required.colour,
                                   card.required.amount)
        if choice is None:
            return None
        return [ExhaustStun(slot=slot) if how == 1 else DiscardStun(slot=slot)
                for slot, how in choice]

    # ----- adjustments (C3: the zone table's holdings and the tallies below) ---------------
    def _adjusted(self, state: WorldGainerState, action: Adjust) -> None:
        """A card put on a square by card text may win the match (W4)."""
        move = action.move
        if move is not None and move.to_zone.startswith("field:"):
            self._check_victory(state, move.seats(action.seat)[1])

    def _check_address(self, state: WorldGainerState, seat: int, zone: Zone, address: str) -> None:
        """Stun slots are 1-5 and squares are the board's own; other zones have no places."""
        if zone.name == "standby" and address not in [str(i) for i in range(1, SLOTS + 1)]:
            raise _illegal(R.BAD_ZONE, f"Stun slots are 1 to {SLOTS}, not {address!r}.")
        elif zone.name == "field" and address not in ALL_FIELDS:
            raise _illegal(R.BAD_ZONE, f"There is no square {address!r}; squares are "
                           f"{', '.join(ALL_FIELDS)}.")
        elif zone.name not in ("standby", "field"):
            super()._check_address(state, seat, zone, address)

    def _set_phase(self, state: WorldGainerState, phase: str) -> None:
        """A judge's turn change: back to the stand-by phase, or on to the gain phase."""
        state.phase = phase

    # ----- places and values (effects, generic boards) --------------------------------------
    def _values(self, state: WorldGainerState) -> dict[str, Any]:
        out: dict[str, Any] = {"phase": state.phase, "stun_placed": state.stun_placed,
                               "gain_placed": state.gain_placed}
        for fid, square in state.board.items():
            out[f"holder:{fid}"] = square.holder
        for seat in (1, 2):
            for slot, stun in enumerate(state.player(seat).standby, start=1):
                if stun is not None:
                    out[f"stun_ready:{seat}:{slot}"] = stun.ready
        return out

    # ----- views and transcript ------------------------------------------------------------
    def _card_view(self, st: WorldGainerState, cid: str) -> dict[str, Any]:
        c = st.cards[cid]
        return {"id": cid, "name": c.name, "colour": c.colour.value, "cost": c.cost,
                "stun": c.stun}

    def _view(self, state: WorldGainerState, viewer: Viewer) -> dict[str, Any]:
        board = {}
        for fid, square in state.board.items():
            board[fid] = {"holder": square.holder,
                          "cards": [self._card_view(state, c) for c in square.cards],
                          "points": sum(state.cards[c].cost for c in square.cards)}
        seats = []
        for seat in (1, 2):
            p = state.player(seat)
            seats.append({
                "seat": seat,
                "hand_count": len(p.hand),
                "hand": [self._card_view(state, c) for c in p.hand]
                if self.sees(viewer, "hand", seat) else None,
                "deck_count": len(p.deck),
                "deck": list(p.deck) if self.sees(viewer, "deck", seat) else None,
                "standby": [None if s is None else {**self._card_view(state, s.card),
                                                    "ready": s.ready} for s in p.standby],
                "break": [self._card_view(state, c) for c in p.breaks],
            })
        return {"phase": state.phase, "first_player": state.first_player,
                "stun_placed": state.stun_placed, "gain_placed": state.gain_placed,
                "board": board, "seats": seats}

    def _name(self, before: WorldGainerState | None, cid: str) -> str:
        st = before
        if st is not None and cid in st.cards:
            c = st.cards[cid]
            return f"{c.name} ({c.colour.value} {c.cost})"
        return cid

    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: WorldGainerState | None = None, effects: Sequence[Effect] = ()) -> str:
        seat = action.seat
        if isinstance(action, PlaceStun):
            where = f" in slot {action.slot}" if action.slot else ""
            line = f"Seat {seat} places {self._name(before, action.card)} as a stun{where}."
        elif isinstance(action, Gain):
            paid = ", ".join(self._payment_phrase(p) for p in action.payment) or "nothing"
            line = (f"Seat {seat} places {self._name(before, action.card)} on {action.field} "
                    f"(paying {paid}).")
        elif isinstance(action, EndTurn):
            line = f"Seat {seat} ends the turn."
        else:
            line = f"Seat {seat}: {action.model_dump()}"
        return " ".join([line, *self.describe_outcomes(outcomes, viewer, before)])

    def describe_outcomes(self, outcomes: Sequence[Outcome | Mapping[str, Any]],
                          viewer: Viewer, before: WorldGainerState | None = None) -> list[str]:
        """Phrases for chance outcomes (draws, first player), redacted for ``viewer``."""
        phrases = []
        draws: dict[int, list[str | None]] = {}
        for o in self.typed_outcomes(outcomes):
            if isinstance(o, CardDrawn):
                draws.setdefault(o.seat, []).append(
                    self._name(before, o.value) if o.seen_by(viewer) else None)
            elif isinstance(o, SeatChosen):
                phrases.append(f"Seat {o.value} plays first.")
        for seat, cards in draws.items():
            named = [c for c in cards if c]
            if named:
                phrases.append(f"Seat {seat} draws {', '.join(named)}.")
            else:
                n = len(cards)
                phrases.append(f"Seat {seat} draws {'a card' if n == 1 else f'{n} cards'}.")
        return phrases

    @staticmethod
    def _payment_phrase(p: ExhaustStun | DiscardStun | DiscardFieldCard) -> str:
        if isinstance(p, ExhaustStun):
            return f"exhausts stun {p.slot}"
        if isinstance(p, DiscardStun):
            return f"discards stun {p.slot}"
        return f"discards the top card of {p.field}"
