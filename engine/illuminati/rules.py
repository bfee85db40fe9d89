"""Illuminati: New World Order core rules (rules document 000, rulings C1-C5 and I1-I10).

Section names in comments are the document's own headings: 開始準備 (setup), ターン開始 (beginning
of turn), メインフェイズ (main phase), 各攻撃の処理 (attacks), ターン終了 (end of turn),
いつでもできる行動 (anytime actions), リンクについて (links), エージェントについて (agents),
プレイヤーの脱落について (elimination), 勝利条件 (victory).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, cast

from pydantic import Field

from engine.core.chance import Chance, Outcome
from engine.core.contract import (
    Action,
    Adjust,
    GameState,
    MatchConfig,
    MatchResult,
    Options,
    Ruleset,
)
from engine.core.errors import IllegalAction, SetupError
from engine.core.viewer import Viewer
from engine.illuminati import actions as act
from engine.illuminati import combat, structure
from engine.illuminati.model import (
    GROUP_KINDS,
    PHASES,
    SETUP_PHASES,
    ZONES,
    Attack,
    Card,
    Claim,
    Deck,
    IlluminatiState,
    Kind,
    Link,
    Node,
    Player,
    PlotType,
    Resource,
    card_of,
    find,
    opposed,
    owner_of,
    shared,
)

DECK_SIZE = 45
OPENING_PLOTS = 3
OPENING_GROUPS = 6
PLOT_HAND_LIMIT = 5  # I7
GOAL_LIMIT = 1
ILLUMINATI_ALIAS = "illuminati"


class IlluminatiOptions(Options):
    """Illuminati regulation options (see docs/games/illuminati.md)."""

    goal_groups: int | None = Field(
        default=None, ge=1, le=40,
        description="I1: groups needed for the basic goal; by player count when unset "
                    "(2-3: 12, 4: 11, 5+: 10).")
    tournament_two_player: Literal["auto", "on", "off"] = Field(
        default="auto", description="I6: no Illuminati token on a turn with an automatic "
                                    "control; 'auto' is on in 2-player matches.")
    illuminati_global_aid: bool = Field(
        default=False, description="Whether an Illuminati may add its global power to an attack "
                                   "or a defence (the document names groups only).")


def _illegal(reason: str, message: str) -> IllegalAction:
    return IllegalAction(reason, message)


def instances(seat: int, deck: Mapping[str, int]) -> list[str]:
    """Instance ids for the cards of ``seat``'s deck list (see model's docstring)."""
    out = []
    for cid in sorted(deck):
        out += [f"{cid}@{seat}" if k == 1 else f"{cid}@{seat}.{k}"
                for k in range(1, deck[cid] + 1)]
    return out


class Illuminati(Ruleset):
    """Illuminati: New World Order (TCG 1.2): secret societies build power structures."""

    game_id = "illuminati"
    title = "Illuminati: New World Order"
    version = "1.0"
    min_players = 2
    max_players = 6
    state_class = IlluminatiState
    card_model = Card
    options_model = IlluminatiOptions
    actions = act.ACTIONS
    zones = ZONES
    phases = PHASES

    def __init__(self) -> None:
        super().__init__()
        self._handlers: dict[type[Action], Callable[..., None]] = {
            act.RevealIlluminati: self._reveal_illuminati, act.RevealGroups: self._reveal_groups,
            act.DrawPlot: self._draw_plot, act.DrawGroup: self._draw_group,
            act.AutoControl: self._auto_control, act.BeginMain: self._begin_main,
            act.DeclareAttack: self._declare_attack, act.PayAttack: self._pay_attack,
            act.AbortAttack: self._abort_attack, act.Support: self._support,
            act.PlayAgent: self._play_agent, act.Pass: self._pass,
            act.InstantAttack: self._instant_attack, act.MoveGroup: self._move_group,
            act.PlaceResource: self._place_resource, act.UseResource: self._use_resource,
            act.GiveResource: self._give_resource, act.TradeResources: self._trade_resources,
            act.MakeLink: self._make_link, act.MoveLink: self._move_link,
            act.PlaceAgent: self._place_agent, act.PlayPlot: self._play_plot,
            act.Discard: self._discard, act.GiveCards: self._give_cards,
            act.DeclareVictory: self._declare_victory, act.DisputeClaim: self._dispute,
            act.RuleClaim: self._rule_claim, act.EndTurn: self._end_turn,
        }

    # ----- deck construction (事前準備, C5)  -----------------------------
    def check_decks(self, decks: Sequence[Mapping[str, int]], cards: Mapping[str, Any]) -> None:
        """Plot deck and group deck together exactly 45 cards, with 1+ Illuminati and 1+ group."""
        for seat, deck in enumerate(decks, start=1):
            size = sum(deck.values())
            if size != DECK_SIZE:
                raise SetupError("deck_size", f"Seat {seat}'s plot and group decks have {size} "
                                 f"cards together; exactly {DECK_SIZE} are required.", seat=seat)
            kinds = Counter(cards[cid].kind for cid in deck for _ in range(deck[cid]))
            if not kinds[Kind.ILLUMINATI]:
                raise SetupError("no_illuminati", f"Seat {seat}'s plot deck has no Illuminati "
                                 "card to start with.", seat=seat)
            if not kinds[Kind.GROUP]:
                raise SetupError("no_groups", f"Seat {seat}'s group deck has no group card to "
                                 "start with.", seat=seat)

    # ----- setup (開始準備)  ---------------------------------------------
    def _setup(self, config: MatchConfig, options: Options, cards: dict[str, Any],
               chance: Chance) -> GameState:
        players = []
        for seat, deck in enumerate(config.decks, start=1):
            mine = instances(seat, deck)
            plots = [c for c in mine if cards[card_of(c)].kind in (Kind.ILLUMINATI, Kind.PLOT)]
            groups = [c for c in mine if cards[card_of(c)].kind in GROUP_KINDS]
            players.append(Player(plot_deck=Deck(shuffled=plots), group_deck=Deck(shuffled=groups)))
        return IlluminatiState(game=self.game_id, players=list(config.players),
                               options=options.model_dump(), cards=dict(cards),
                               seats_state=players, order=[])

    def _reveal_illuminati(self, st: IlluminatiState, a: act.RevealIlluminati,
                           chance: Chance) -> None:
        """Every player's face-down Illuminati is revealed together; then 3 plots each."""
        self._require_phase(st, "choose_illuminati")
        chosen = self._choices(st, a.choices, st.in_play())
        for seat, ref in chosen.items():
            p = st.player(seat)
            card = find(p.plot_deck.shuffled, ref, seat)
            if card is None or st.card(card).kind != Kind.ILLUMINATI:
                raise _illegal("not_an_illuminati", f"Seat {seat}'s plot deck has no Illuminati "
                               f"card {ref!r}.")
            p.plot_deck.shuffled.remove(card)
            p.illuminati = card
            p.structure[card] = Node(card=card)
        for seat in st.in_play():
            for _ in range(min(OPENING_PLOTS, st.player(seat).plot_deck.size())):
                self._draw(st, seat, "plot", chance)
        st.phase = "choose_groups"
        st.setup_round = 1

    def _reveal_groups(self, st: IlluminatiState, a: act.RevealGroups, chance: Chance) -> None:
        """I9: one round of the initial-group choice; duplicated names are set aside."""
        self._require_phase(st, "choose_groups")
        waiting = [s for s in st.in_play() if st.player(s).initial_group is None]
        chosen = self._choices(st, a.choices, waiting)
        on_table = structure.names_on_table(st)
        picked: dict[int, str] = {}
        for seat, ref in chosen.items():
            card = find(st.player(seat).group_deck.shuffled, ref, seat)
            if card is None or st.card(card).kind != Kind.GROUP:
                raise _illegal("not_a_group", f"Seat {seat}'s group deck has no group card "
                               f"{ref!r}.")
            if st.card(card).name in on_table:
                raise _illegal("group_on_table", f"{st.card(card).name} is already on the table; "
                               f"seat {seat} must choose another group.")
            picked[seat] = card
        names = Counter(st.card(c).name for c in picked.values())
        for seat, card in picked.items():
            p = st.player(seat)
            p.group_deck.shuffled.remove(card)
            if names[st.card(card).name] > 1:
                st.set_aside.append(card)
                continue
            p.initial_group = card
            assert p.illuminati is not None
            arrow = structure.resolve_arrow(st, p, p.illuminati, None)
            p.structure[card] = Node(card=card, parent=p.illuminati, arrow=arrow)
        if any(st.player(s).initial_group is None for s in st.in_play()):
            st.setup_round += 1
            return
        self._finish_setup(st, chance)

    def _finish_setup(self, st: IlluminatiState, chance: Chance) -> None:
        """Set-aside groups go home (I9), 6 groups each, then turn order by 2d6 (I10)."""
        for card in st.set_aside:
            st.player(owner_of(card)).group_deck.shuffled.append(card)
        for seat in st.in_play():
            st.player(seat).group_deck.shuffled.sort()
        st.set_aside = []
        for seat in st.in_play():
            for _ in range(min(OPENING_GROUPS, st.player(seat).group_deck.size())):
                self._draw(st, seat, "group", chance)
        st.order = roll_order(st.in_play(), chance)
        st.active = st.order[0]
        st.phase = "beginning"
        st.step = "plot"

    def _choices(self, st: IlluminatiState, choices: Mapping[int, str],
                 seats: list[int]) -> dict[int, str]:
        if sorted(choices) != sorted(seats):
            raise _illegal("choices_incomplete", "Every seat still choosing must reveal at once: "
                           f"expected seats {seats}, got {sorted(choices)}.")
        return dict(choices)

    # ----- dispatch -------------------------------------------------------------------------
    def _apply(self, state: GameState, action: Action, chance: Chance) -> None:
        st = cast(IlluminatiState, state)
        if st.phase in SETUP_PHASES and not isinstance(
                action, act.RevealIlluminati | act.RevealGroups):
            raise _illegal("setup_not_done", "Setup is not finished: reveal the Illuminati and "
                           "the initial groups first.")
        self._handlers[type(action)](st, action, chance)
        self._after(st)

    def _require_phase(self, st: IlluminatiState, phase: str) -> None:
        if st.phase != phase:
            words = {"choose_illuminati": "choosing Illuminati", "choose_groups":
                     "choosing initial groups", "beginning": "the beginning of a turn",
                     "main": "a main phase"}
            raise _illegal("wrong_phase", f"This can only be done during "
                           f"{words.get(phase, phase)}; it is now {words.get(st.phase, st.phase)}.")

    def _require_turn(self, st: IlluminatiState, seat: int) -> None:
        if seat != st.active:
            raise _illegal("not_your_turn", f"It is seat {st.active}'s turn, not seat {seat}'s.")

    def _require_main(self, st: IlluminatiState, seat: int) -> None:
        """Own turn, main phase, no attack under way."""
        self._require_turn(st, seat)
        self._no_attack(st)
        if st.phase == "beginning":
            raise _illegal("beginning_of_turn", "Finish the beginning of your turn first "
                           "(begin_main places your action tokens).")

    def _no_attack(self, st: IlluminatiState) -> None:
        if st.attack is not None:
            raise _illegal("attack_in_progress", "An attack is under way; finish it first.")

    # ----- cards and zones ------------------------------------------------------------------
    def _draw(self, st: IlluminatiState, seat: int, which: Literal["plot", "group"],
              chance: Chance) -> str:
        """Top card of a deck into the hand; no library-out loss, an empty deck just refuses."""
        p = st.player(seat)
        deck = p.plot_deck if which == "plot" else p.group_deck
        if deck.shuffled:
            card = str(chance.pick(f"{which}_draw", deck.shuffled, seat=seat))
            deck.shuffled.remove(card)
        elif deck.bottom:
            card = deck.bottom.pop(0)
        else:
            raise _illegal("deck_empty", f"Seat {seat}'s {which} deck is empty.")
        (p.plot_hand if which == "plot" else p.group_hand).append(card)
        return card

    def _own_card(self, st: IlluminatiState, seat: int, ref: str) -> str:
        """A card of ``seat``'s power structure (``illuminati`` is its Illuminati)."""
        p = st.player(seat)
        if ref == ILLUMINATI_ALIAS and p.illuminati is not None:
            return p.illuminati
        card = find(list(p.structure), ref, seat)
        if card is None:
            raise _illegal("not_in_structure", f"{self._label(st, ref)} is not in seat {seat}'s "
                           "power structure.")
        return card

    def _in_hand(self, st: IlluminatiState, seat: int, ref: str,
                 hand: Literal["plot", "group"]) -> str:
        p = st.player(seat)
        card = find(p.plot_hand if hand == "plot" else p.group_hand, ref, seat)
        if card is None:
            raise _illegal("card_not_in_hand", f"{self._label(st, ref)} is not in your "
                           f"{hand} hand.")
        return card

    def _label(self, st: IlluminatiState, ref: str) -> str:
        cid = card_of(ref)
        return st.cards[cid].name if cid in st.cards else ref

    def _token_holder(self, st: IlluminatiState, seat: int, ref: str) -> Node | Resource:
        """A card of ``seat``'s holding an action token: a structure card or Action resource."""
        p = st.player(seat)
        res = find([r.card for r in p.resources], ref, seat)
        if ref != ILLUMINATI_ALIAS and res is not None:
            holder: Node | Resource = next(r for r in p.resources if r.card == res)
        else:
            holder = p.structure[self._own_card(st, seat, ref)]
        if holder.tokens < 1:
            raise _illegal("no_token", f"{self._label(st, holder.card)} holds no action token.")
        return holder

    def _to_discard(self, st: IlluminatiState, card: str) -> None:
        st.player(owner_of(card)).discard.append(card)

    # ----- beginning of turn (ターン開始)  --------------------------------
    def _draw_plot(self, st: IlluminatiState, a: act.DrawPlot, chance: Chance) -> None:
        """The free plot draw, or a draw paid with tokens at any time."""
        if not a.pay:
            self._require_turn(st, a.seat)
            if st.phase != "beginning" or st.step != "plot":
                raise _illegal("free_draw_used", "The free plot draw is only at the beginning of "
                               "your turn, before the group draw; pay with tokens instead.")
            st.step = "group"
        else:
            self._pay_plot_draw(st, a.seat, a.pay)
        self._draw(st, a.seat, "plot", chance)

    def _pay_plot_draw(self, st: IlluminatiState, seat: int, pay: list[str]) -> None:
        """One Illuminati token (or an Action resource's) or two group tokens per card."""
        holders = [self._token_holder(st, seat, ref) for ref in pay]
        p = st.player(seat)
        kinds = [("group" if isinstance(h, Node) and h.card != p.illuminati else "illuminati")
                 for h in holders]
        if len({h.card for h in holders}) != len(holders):
            raise _illegal("bad_payment", "Each paying card gives one token.")
        if kinds not in (["illuminati"], ["group", "group"]):
            raise _illegal("bad_payment", "A plot card costs one token of your Illuminati (or of "
                           "an Action resource) or two tokens of your groups.")
        for h in holders:
            h.tokens -= 1

    def _draw_group(self, st: IlluminatiState, a: act.DrawGroup, chance: Chance) -> None:
        """Free at the beginning of the turn; once in the main phase for one token."""
        self._require_turn(st, a.seat)
        if st.phase == "beginning" and a.pay is None:
            if st.step not in ("plot", "group"):
                raise _illegal("free_draw_used", "The free group draw has been taken or passed.")
            st.step = "control"
        else:
            self._require_main(st, a.seat)
            if a.pay is None:
                raise _illegal("payment_needed", "A group draw in the main phase costs one "
                               "action token: name the card that pays.")
            if st.group_draw_bought:
                raise _illegal("group_draw_used", "You have already bought a group draw this "
                               "turn.")
            holder = self._token_holder(st, a.seat, a.pay)
            holder.tokens -= 1
            st.group_draw_bought = True
        self._draw(st, a.seat, "group", chance)

    def _auto_control(self, st: IlluminatiState, a: act.AutoControl, chance: Chance) -> None:
        """A group or resource from hand, without a token; then the tokens and the main phase."""
        self._require_turn(st, a.seat)
        self._require_phase(st, "beginning")
        card = self._in_hand(st, a.seat, a.card, "group")
        if st.card(card).kind == Kind.RESOURCE:
            if a.parent is not None or a.arrow is not None:
                raise _illegal("resource_has_no_arrow", f"{st.card(card).name} is a resource: it "
                               "goes to the resource area, not on an arrow.")
            self._put_resource(st, a.seat, card)
        else:
            parent = self._own_card(st, a.seat, a.parent or ILLUMINATI_ALIAS)
            self._place_group(st, a.seat, card, parent, a.arrow)
        st.player(a.seat).group_hand.remove(card)
        st.auto_controlled = True
        self._start_main(st)

    def _place_group(self, st: IlluminatiState, seat: int, card: str, parent: str,
                     arrow: Any) -> None:
        """A group into ``seat``'s structure at a free arrow; groups are unique on the table."""
        if st.card(card).name in structure.names_on_table(st):
            raise _illegal("group_on_table", f"{st.card(card).name} is already on the table; "
                           "groups are unique.")
        p = st.player(seat)
        side = structure.resolve_arrow(st, p, parent, arrow)
        p.structure[card] = Node(card=card, parent=parent, arrow=side)

    def _begin_main(self, st: IlluminatiState, a: act.BeginMain, chance: Chance) -> None:
        self._require_turn(st, a.seat)
        self._require_phase(st, "beginning")
        self._start_main(st)

    def _tournament_rule(self, st: IlluminatiState) -> bool:
        rule = st.options.get("tournament_two_player", "auto")
        return rule == "on" or (rule == "auto" and len(st.players) == 2)

    def _start_main(self, st: IlluminatiState) -> None:
        """I6: a token to the Illuminati and to each group (and Action resource) holding none;
        none to a group whose power was reduced to 0, none to the Illuminati on an automatic-
        control turn under the two-player tournament rule."""
        p = st.player(st.active)
        for node in p.structure.values():
            if node.tokens:
                continue
            if node.parent is None:
                if not (st.auto_controlled and self._tournament_rule(st)):
                    node.tokens = 1
            elif st.card(node.card).power == 0 or combat.power_of(st, node.card) > 0:
                node.tokens = 1
        for res in p.resources:
            if st.card(res.card).action and not res.tokens:
                res.tokens = 1
        st.phase = "main"

    # ----- attacks (各攻撃の処理)  -----------------------------------------
    def _declare_attack(self, st: IlluminatiState, a: act.DeclareAttack, chance: Chance) -> None:
        self._require_main(st, a.seat)
        p = st.player(a.seat)
        attacker = self._own_card(st, a.seat, a.attacker)
        if attacker != p.illuminati and p.structure[attacker].tokens < 1:
            raise _illegal("attacker_has_no_token", f"{st.card(attacker).name} holds no action "
                           "token; only the Illuminati or a group holding a token can attack.")
        if a.power == "global" and st.card(attacker).global_power is None:
            raise _illegal("no_global_power", f"{st.card(attacker).name} has no global power.")
        target, target_seat, from_hand = self._attack_target(st, a)
        if target == attacker:
            raise _illegal("attacks_itself", "A card cannot attack itself.")
        arrow = None
        if a.purpose == "control":
            arrow = structure.resolve_arrow(st, p, attacker, a.arrow)
        if from_hand:
            p.group_hand.remove(target)
            p.loose.append(target)
        st.attack = Attack(seat=a.seat, attacker=attacker, target=target, purpose=a.purpose,
                           power_kind=a.power, target_seat=target_seat, arrow=arrow,
                           from_hand=from_hand)

    def _attack_target(self, st: IlluminatiState,
                       a: act.DeclareAttack) -> tuple[str, int | None, bool]:
        """(target instance, the seat whose structure holds it or None, placed from hand)."""
        for seat in st.in_play():
            card = find([c for c, n in st.player(seat).structure.items() if n.parent], a.target,
                        seat)
            if card is None:
                continue
            if seat == a.seat and a.purpose == "control":
                raise _illegal("own_group", "You can attack a group of your own structure only "
                               "to destroy it.")
            return card, seat, False
        p = st.player(a.seat)
        loose = find(p.loose, a.target, a.seat)
        in_hand = find([c for c in p.group_hand if st.card(c).kind == Kind.GROUP], a.target,
                       a.seat)
        if loose is None and in_hand is None:
            raise _illegal("not_a_target", f"{self._label(st, a.target)} is not a group in a "
                           "power structure or in your hand.")
        if a.purpose != "control":
            raise _illegal("hand_target_control_only", "A group from your hand can only be "
                           "attacked to control it.")
        if loose is not None:
            return loose, None, False
        assert in_hand is not None
        if st.card(in_hand).name in structure.names_on_table(st):
            raise _illegal("group_on_table", f"{st.card(in_hand).name} is already on the table; "
                           "groups are unique.")
        return in_hand, None, True

    def _pay_attack(self, st: IlluminatiState, a: act.PayAttack, chance: Chance) -> None:
        attack = self._current_attack(st, a.seat, "declared")
        if a.plot is None:
            node = st.player(a.seat).structure[attack.attacker]
            if node.tokens < 1:
                raise _illegal("no_token", f"{st.card(attack.attacker).name} holds no action "
                               "token: pay with an attack plot or abort.")
            node.tokens -= 1
            attack.paid_with = "token"
        else:
            plot = self._in_hand(st, a.seat, a.plot, "plot")
            if st.card(plot).plot_type != PlotType.ATTACK:
                raise _illegal("not_an_attack_plot", f"{st.card(plot).name} is not an attack "
                               "plot.")
            self._take_from_plot_hand(st, a.seat, plot)
            attack.paid_with = plot
        attack.stage = "support"
        attack.passed = []

    def _current_attack(self, st: IlluminatiState, seat: int, stage: str) -> Attack:
        attack = st.attack
        if attack is None:
            raise _illegal("no_attack", "No attack is under way.")
        if attack.stage != stage:
            msg = ("The attack has been paid; it can no longer be changed or aborted."
                   if stage == "declared" else "The attack has not been paid yet.")
            raise _illegal("attack_stage", msg)
        if stage == "declared" and seat != attack.seat:
            raise _illegal("not_the_attacker", f"Only seat {attack.seat} can pay or abort this "
                           "attack.")
        return attack

    def _abort_attack(self, st: IlluminatiState, a: act.AbortAttack, chance: Chance) -> None:
        attack = self._current_attack(st, a.seat, "declared")
        if attack.from_hand:
            p = st.player(a.seat)
            p.loose.remove(attack.target)
            p.group_hand.append(attack.target)
        st.attack = None

    def _support(self, st: IlluminatiState, a: act.Support, chance: Chance) -> None:
        """Attack support or resistance support: one token of one card (攻撃支援・抵抗支援)."""
        attack = self._current_attack(st, a.seat, "support")
        card = self._own_card(st, a.seat, a.card)
        if card == attack.attacker:
            raise _illegal("attacker_cannot_support", "The attacking card cannot also support.")
        if card == attack.target and a.side == "attack":
            raise _illegal("target_cannot_support", "The target cannot support the attack on "
                           "itself.")
        basis, value = self.support_value(st, a.seat, card, a.side, a.use)
        node = st.player(a.seat).structure[card]
        if node.tokens < 1:
            raise _illegal("no_token", f"{st.card(card).name} holds no action token.")
        node.tokens -= 1
        line = attack.attack_support if a.side == "attack" else attack.defence_support
        line.append(combat_support(a.seat, card, basis, value))
        attack.passed = []

    def support_value(self, st: IlluminatiState, seat: int, card: str, side: str,
                      use: str) -> tuple[str, int]:
        """(basis, value) of ``card`` supporting ``side``, or IllegalAction saying why not."""
        attack = st.attack
        assert attack is not None
        c, target = st.card(card), st.card(attack.target)
        is_illuminati = c.kind == Kind.ILLUMINATI
        if use == "global":
            if is_illuminati and not st.options.get("illuminati_global_aid"):
                raise _illegal("illuminati_cannot_aid", "The rules name groups as the source "
                               "of global-power support (option illuminati_global_aid).")
            value = combat.global_power_of(st, card)
            if value is None:
                raise _illegal("no_global_power", f"{c.name} has no global power.")
            return "global", value
        power = combat.power_of(st, card)
        if side == "defend":
            if card == attack.target:
                return "self", power
            if self._adjacent(st, card, attack):
                return "adjacent", power
        if not is_illuminati:
            if side == "defend" or attack.purpose == "control":
                if any(shared(x, y) for x in c.alignments for y in target.alignments):
                    return "power", power
            elif any(opposed(x, y) for x in c.alignments for y in target.alignments):
                return "power", power
        need = {"attack": "shares an alignment with" if attack.purpose == "control"
                else "has an alignment opposed to", "defend": "is the target, is next to or "
                "shares an alignment with"}[side]
        raise _illegal("no_power_support", f"{c.name} can add its power only if it {need} "
                       f"{target.name}; any group can add its global power.")

    def _adjacent(self, st: IlluminatiState, card: str, attack: Attack) -> bool:
        """Parent or child of the target in the target's structure."""
        if attack.target_seat is None:
            return False
        nodes = st.player(attack.target_seat).structure
        if card not in nodes:
            return False
        return nodes[attack.target].parent == card or nodes[card].parent == attack.target

    def _play_agent(self, st: IlluminatiState, a: act.PlayAgent, chance: Chance) -> None:
        """A copy of the target from hand: +10 attacking, +6 defending, one per side."""
        attack = self._current_attack(st, a.seat, "support")
        card = self._in_hand(st, a.seat, a.card, "group")
        target = st.card(attack.target)
        if st.card(card).kind != Kind.GROUP or st.card(card).name != target.name:
            raise _illegal("not_an_agent", f"Only a copy of {target.name} is its agent.")
        own_loose = attack.target_seat is None and attack.seat == a.seat
        if attack.target_seat == a.seat or own_loose:
            raise _illegal("agent_of_own_group", "A card of your own power structure cannot be "
                           "used as an agent.")
        line = attack.attack_support if a.side == "attack" else attack.defence_support
        if any(s.basis == "agent" for s in line):
            raise _illegal("agent_already_played", f"An agent has already been played for the "
                           f"{'attack' if a.side == 'attack' else 'defence'}.")
        st.player(a.seat).group_hand.remove(card)
        line.append(combat_support(a.seat, card, "agent", combat.GROUP_AGENT[a.side]))
        attack.passed = []

    def _pass(self, st: IlluminatiState, a: act.Pass, chance: Chance) -> None:
        """When every player still in the game has passed in a row, the dice are rolled."""
        attack = self._current_attack(st, a.seat, "support")
        if a.seat in attack.passed:
            raise _illegal("already_passed", "You have already passed on this attack.")
        attack.passed.append(a.seat)
        if all(s in attack.passed for s in st.in_play()):
            self._resolve(st, attack, chance)

    def _resolve(self, st: IlluminatiState, attack: Attack, chance: Chance) -> None:
        """I4, then the consequences (攻撃後の処理)."""
        roll = chance.roll("attack_die", 6) + chance.roll("attack_die", 6)
        if combat.succeeds(combat.tally(st, attack).achieved, roll):
            if attack.purpose == "destroy":
                self._destroy(st, attack.seat, attack.target)
            else:
                self._control(st, attack)
        self._finish_attack(st, attack)

    def _finish_attack(self, st: IlluminatiState, attack: Attack) -> None:
        """Used plots and agents go to the discard pile; the attack is over."""
        if attack.paid_with and attack.paid_with != "token":
            self._to_discard(st, attack.paid_with)
        for s in attack.attack_support + attack.defence_support:
            if s.basis == "agent":
                self._to_discard(st, s.card)
        st.attack = None

    def _destroy(self, st: IlluminatiState, by: int, target: str) -> None:
        """The target to ``by``'s destroyed pile; every card below it to its owner's hand."""
        seat = structure.holder_of(st, target)
        assert seat is not None
        p = st.player(seat)
        cards, _ = structure.detach(p, target)
        st.player(by).destroyed.append(target)
        for card in cards[1:]:
            st.player(owner_of(card)).group_hand.append(card)
        p.links = [k for k in p.links if k.a not in cards and k.b not in cards]

    def _control(self, st: IlluminatiState, attack: Attack) -> None:
        """The target and its subtree to the attacker's arrow, all tokens removed; cards linked
        to them come along."""
        me = st.player(attack.seat)
        assert attack.arrow is not None
        if attack.target_seat is None:
            me.loose.remove(attack.target)
            me.structure[attack.target] = Node(card=attack.target, parent=attack.attacker,
                                               arrow=attack.arrow)
            return
        loser = st.player(attack.target_seat)
        cards, nodes = structure.detach(loser, attack.target)
        structure.attach(me, cards, nodes, attack.attacker, attack.arrow)
        for link in [k for k in loser.links if k.a in cards or k.b in cards]:
            loser.links.remove(link)
            other = link.b if link.a in cards else link.a
            if other in cards:
                me.links.append(link)
            elif self._take_linked(st, loser, me, other):
                me.links.append(link)

    def _take_linked(self, st: IlluminatiState, loser: Player, me: Player, card: str) -> bool:
        """A resource or permanent plot linked to a controlled group changes hands with it."""
        res = next((r for r in loser.resources if r.card == card), None)
        if res is not None:
            loser.resources.remove(res)
            me.resources.append(Resource(card=res.card, used_turn=res.used_turn))
            return True
        if card in loser.plots:
            loser.plots.remove(card)
            me.plots.append(card)
            return True
        return False

    def _instant_attack(self, st: IlluminatiState, a: act.InstantAttack, chance: Chance) -> None:
        """I5: no support, no dice; the group is destroyed iff plot power >= its power."""
        self._require_main(st, a.seat)
        plot = self._in_hand(st, a.seat, a.plot, "plot")
        if st.card(plot).plot_type != PlotType.INSTANT_ATTACK:
            raise _illegal("not_an_instant_attack", f"{st.card(plot).name} is not an instant-"
                           "attack plot.")
        target = self._structure_group(st, a.target)
        self._take_from_plot_hand(st, a.seat, plot)
        if combat.instant_succeeds(st, plot, target):
            self._destroy(st, a.seat, target)
        self._to_discard(st, plot)

    def _structure_group(self, st: IlluminatiState, ref: str) -> str:
        for seat in st.in_play():
            card = find([c for c, n in st.player(seat).structure.items() if n.parent], ref, seat)
            if card is not None:
                return card
        raise _illegal("not_a_target", f"{self._label(st, ref)} is not a group in a power "
                       "structure.")

    # ----- other main-phase actions (メインフェイズ)  -----------------------
    def _move_group(self, st: IlluminatiState, a: act.MoveGroup, chance: Chance) -> None:
        """A group and its subtree to a free arrow of the same structure, for one token."""
        self._require_main(st, a.seat)
        p = st.player(a.seat)
        group = self._own_card(st, a.seat, a.group)
        if group == p.illuminati:
            raise _illegal("illuminati_cannot_move", "The Illuminati is the root of the "
                           "structure and cannot move.")
        parent = self._own_card(st, a.seat, a.parent)
        if parent in structure.subtree(p, group):
            raise _illegal("move_into_itself", f"{st.card(group).name} cannot hang from a card "
                           "below itself.")
        side = structure.resolve_arrow(st, p, parent, a.arrow)
        holder = self._token_holder(st, a.seat, a.pay)
        holder.tokens -= 1
        node = p.structure[group]
        node.parent, node.arrow = parent, side

    def _place_resource(self, st: IlluminatiState, a: act.PlaceResource, chance: Chance) -> None:
        self._require_main(st, a.seat)
        if st.resource_placed:
            raise _illegal("resource_already_placed", "You have already placed a resource this "
                           "turn.")
        card = self._in_hand(st, a.seat, a.card, "group")
        if st.card(card).kind != Kind.RESOURCE:
            raise _illegal("not_a_resource", f"{st.card(card).name} is not a resource.")
        self._put_resource(st, a.seat, card)
        st.player(a.seat).group_hand.remove(card)
        st.resource_placed = True

    def _put_resource(self, st: IlluminatiState, seat: int, card: str) -> None:
        """Unique resources can be placed once per match, even after being destroyed."""
        c = st.card(card)
        if c.unique and c.name in st.unique_placed:
            raise _illegal("unique_resource", f"{c.name} is Unique and has already been placed "
                           "in this match.")
        if c.unique:
            st.unique_placed.append(c.name)
        st.player(seat).resources.append(Resource(card=card))

    def _own_resource(self, st: IlluminatiState, seat: int, ref: str) -> Resource:
        p = st.player(seat)
        card = find([r.card for r in p.resources], ref, seat)
        if card is None:
            raise _illegal("not_your_resource", f"{self._label(st, ref)} is not one of seat "
                           f"{seat}'s resources.")
        return next(r for r in p.resources if r.card == card)

    def _use_resource(self, st: IlluminatiState, a: act.UseResource, chance: Chance) -> None:
        self._own_resource(st, a.seat, a.card).used_turn = st.turn

    def _give_resource(self, st: IlluminatiState, a: act.GiveResource, chance: Chance) -> None:
        self._require_main(st, a.seat)
        self._require_other(st, a.seat, a.to)
        res = self._unused_resource(st, a.seat, a.card)
        self._hand_over(st, a.seat, a.to, res)

    def _trade_resources(self, st: IlluminatiState, a: act.TradeResources,
                         chance: Chance) -> None:
        self._require_main(st, a.seat)
        mine = self._unused_resource(st, a.seat, a.give)
        for seat in st.in_play():
            if seat == a.seat:
                continue
            if find([r.card for r in st.player(seat).resources], a.take, seat) is not None:
                theirs = self._unused_resource(st, seat, a.take)
                self._hand_over(st, a.seat, seat, mine)
                self._hand_over(st, seat, a.seat, theirs)
                return
        raise _illegal("not_a_resource", f"No other player has the resource "
                       f"{self._label(st, a.take)}.")

    def _unused_resource(self, st: IlluminatiState, seat: int, ref: str) -> Resource:
        res = self._own_resource(st, seat, ref)
        if res.used_turn == st.turn:
            raise _illegal("resource_used", f"{st.card(res.card).name} was used this turn and "
                           "cannot change hands.")
        return res

    def _hand_over(self, st: IlluminatiState, giver: int, to: int, res: Resource) -> None:
        """A resource changes hands and is linked straight to its new owner's Illuminati."""
        g, r = st.player(giver), st.player(to)
        g.resources.remove(res)
        g.links = [k for k in g.links if res.card not in (k.a, k.b)]
        r.resources.append(Resource(card=res.card, used_turn=res.used_turn))
        assert r.illuminati is not None
        r.links.append(Link(a=r.illuminati, b=res.card))

    def _require_other(self, st: IlluminatiState, seat: int, to: int) -> None:
        if to == seat or to not in st.in_play():
            raise _illegal("bad_recipient", f"Seat {to} is not another player in the game.")

    def _table_card(self, st: IlluminatiState, seat: int, ref: str) -> str:
        """One of ``seat``'s cards on the table: structure, resources, agents, permanent plots."""
        p = st.player(seat)
        if ref == ILLUMINATI_ALIAS and p.illuminati:
            return p.illuminati
        zone = [*p.structure, *(r.card for r in p.resources), *p.agents, *p.plots]
        card = find(zone, ref, seat)
        if card is None:
            raise _illegal("not_on_your_table", f"{self._label(st, ref)} is not one of your "
                           "cards on the table.")
        return card

    def _find_link(self, p: Player, a: str, b: str) -> Link | None:
        return next((k for k in p.links if {k.a, k.b} == {a, b}), None)

    def _make_link(self, st: IlluminatiState, a: act.MakeLink, chance: Chance) -> None:
        self._require_main(st, a.seat)
        x, y = self._table_card(st, a.seat, a.a), self._table_card(st, a.seat, a.b)
        p = st.player(a.seat)
        if x == y:
            raise _illegal("bad_link", "A link joins two different cards.")
        if self._find_link(p, x, y) is not None:
            raise _illegal("already_linked", "Those two cards are already linked.")
        p.links.append(Link(a=x, b=y))

    def _move_link(self, st: IlluminatiState, a: act.MoveLink, chance: Chance) -> None:
        """Once per link per turn; a group linked to a permanent plot stays linked until it is
        destroyed (リンクについて)."""
        self._require_main(st, a.seat)
        p = st.player(a.seat)
        x, y = self._table_card(st, a.seat, a.a), self._table_card(st, a.seat, a.b)
        link = self._find_link(p, x, y)
        if link is None:
            raise _illegal("no_such_link", "Those two cards are not linked.")
        old = self._table_card(st, a.seat, a.old)
        if old not in (x, y):
            raise _illegal("bad_link", "The end that moves must be one of the two linked cards.")
        if link.moved_turn == st.turn:
            raise _illegal("link_moved", "That link has already moved this turn.")
        if {x, y} & set(p.plots) and {x, y} & set(p.structure):
            raise _illegal("link_fixed", "A group linked to a permanent plot stays linked until "
                           "the group is destroyed.")
        new = self._table_card(st, a.seat, a.new)
        keep = y if old == x else x
        if new == keep or self._find_link(p, keep, new) is not None:
            raise _illegal("bad_link", "The link would join a card to itself or duplicate a "
                           "link.")
        link.a, link.b, link.moved_turn = keep, new, st.turn

    def _place_agent(self, st: IlluminatiState, a: act.PlaceAgent, chance: Chance) -> None:
        """An Illuminati agent: not your own Illuminati, one per name, an opponent must play it;
        costs the top card of your plot deck and of your group deck."""
        self._require_main(st, a.seat)
        p = st.player(a.seat)
        card = self._in_hand(st, a.seat, a.card, "plot")
        c = st.card(card)
        if c.kind != Kind.ILLUMINATI:
            raise _illegal("not_an_illuminati", f"{c.name} is not an Illuminati card.")
        if p.illuminati and c.name == st.card(p.illuminati).name:
            raise _illegal("own_illuminati", "Your own Illuminati cannot be your agent.")
        if c.name in {st.card(x).name for x in p.agents}:
            raise _illegal("agent_already_placed", f"You already have an agent of {c.name}.")
        if c.name not in {combat.illuminati_name(st, s) for s in st.in_play() if s != a.seat}:
            raise _illegal("no_such_opponent", f"No opponent plays {c.name}; an agent must match "
                           "an opponent's Illuminati.")
        if not p.plot_deck.size() or not p.group_deck.size():
            raise _illegal("cannot_pay", "An Illuminati agent costs the top card of both your "
                           "decks; one of them is empty.")
        for which in ("plot", "group"):
            deck = p.plot_deck if which == "plot" else p.group_deck
            if deck.shuffled:
                top = str(chance.pick(f"agent_cost_{which}", deck.shuffled))
                deck.shuffled.remove(top)
            else:
                top = deck.bottom.pop(0)
            self._to_discard(st, top)
        self._take_from_plot_hand(st, a.seat, card)
        p.agents.append(card)

    def _play_plot(self, st: IlluminatiState, a: act.PlayPlot, chance: Chance) -> None:
        """An ordinary or New World Order plot; its effect is card text (C3)."""
        card = self._in_hand(st, a.seat, a.card, "plot")
        c = st.card(card)
        route = {PlotType.ATTACK: "pay_attack", PlotType.INSTANT_ATTACK: "instant_attack",
                 PlotType.GOAL: "declare_victory"}
        if c.kind != Kind.PLOT or c.plot_type in route:
            how = route.get(c.plot_type) if c.plot_type else "place_agent"
            raise _illegal("wrong_play", f"{c.name} is played with the {how} action.")
        link = None
        if a.link is not None:
            if not c.permanent or c.plot_type == PlotType.NEW_WORLD_ORDER:
                raise _illegal("bad_link", f"{c.name} is not a permanent plot that can be linked.")
            link = self._table_card(st, a.seat, a.link)
        self._take_from_plot_hand(st, a.seat, card)
        if c.plot_type == PlotType.NEW_WORLD_ORDER:
            assert c.colour is not None
            older = st.new_world_order.get(c.colour)
            if older is not None:
                self._to_discard(st, older)
            st.new_world_order[c.colour] = card
        elif c.permanent:
            p = st.player(a.seat)
            p.plots.append(card)
            if link is not None:
                p.links.append(Link(a=link, b=card))
        else:
            self._to_discard(st, card)

    def _take_from_plot_hand(self, st: IlluminatiState, seat: int, card: str) -> None:
        p = st.player(seat)
        p.plot_hand.remove(card)
        if card in p.revealed:
            p.revealed.remove(card)

    # ----- anytime actions (いつでもできる行動)  ------------------------------
    def _discard(self, st: IlluminatiState, a: act.Discard, chance: Chance) -> None:
        """Plots (and anything else of the plot hand) go under the plot deck in the order given;
        groups and resources to the discard pile."""
        p = st.player(a.seat)
        taken = self._hand_cards(st, a.seat, a.cards)
        for card in taken:
            if card in p.plot_hand:
                self._take_from_plot_hand(st, a.seat, card)
                st.player(owner_of(card)).plot_deck.bottom.append(card)
            else:
                p.group_hand.remove(card)
                self._to_discard(st, card)

    def _hand_cards(self, st: IlluminatiState, seat: int, refs: list[str]) -> list[str]:
        p = st.player(seat)
        left = {"plot": list(p.plot_hand), "group": list(p.group_hand)}
        out = []
        for ref in refs:
            card = find(left["plot"], ref, seat) or find(left["group"], ref, seat)
            if card is None:
                raise _illegal("card_not_in_hand", f"{self._label(st, ref)} is not in your hand.")
            left["plot" if card in left["plot"] else "group"].remove(card)
            out.append(card)
        return out

    def _give_cards(self, st: IlluminatiState, a: act.GiveCards, chance: Chance) -> None:
        self._require_other(st, a.seat, a.to)
        p, r = st.player(a.seat), st.player(a.to)
        for card in self._hand_cards(st, a.seat, a.cards):
            if card in p.plot_hand:
                self._take_from_plot_hand(st, a.seat, card)
                r.plot_hand.append(card)
            else:
                p.group_hand.remove(card)
                r.group_hand.append(card)

    # ----- victory (勝利条件)  -------------------------------------------
    def goal_groups(self, st: IlluminatiState) -> int:
        """I1: 12 groups for 2-3 players, 11 for 4, 10 for 5+, unless ``goal_groups`` is set."""
        chosen = st.options.get("goal_groups")
        if chosen:
            return int(chosen)
        n = len(st.players)
        return 12 if n <= 3 else 11 if n == 4 else 10

    def scores(self, state: GameState) -> dict[int, int] | None:
        """Groups in each power structure (I1: the Illuminati is not counted)."""
        st = cast(IlluminatiState, state)
        if st.phase in SETUP_PHASES:
            return {s: 0 for s in st.seats()}
        return {s: len(structure.groups_in(st.player(s))) for s in st.seats()}

    def _declare_victory(self, st: IlluminatiState, a: act.DeclareVictory,
                         chance: Chance) -> None:
        if any(c.seat == a.seat for c in st.claims):
            raise _illegal("already_declared", "You have already declared victory this turn.")
        card = None
        if a.goal == "basic":
            have, need = len(structure.groups_in(st.player(a.seat))), self.goal_groups(st)
            if have < need:
                raise _illegal("goal_not_met", f"You control {have} groups; the basic goal "
                               f"needs {need} (I1).")
        elif a.goal == "goal_card":
            if a.card is None:
                raise _illegal("goal_card_needed", "Name the goal card you play.")
            card = self._in_hand(st, a.seat, a.card, "plot")
            if not st.card(card).is_goal():
                raise _illegal("not_a_goal", f"{st.card(card).name} is not a goal card.")
            if card not in st.player(a.seat).revealed:
                st.player(a.seat).revealed.append(card)
        st.claims.append(Claim(seat=a.seat, goal=a.goal, card=card))

    def _claim_of(self, st: IlluminatiState, seat: int) -> Claim:
        claim = next((c for c in st.claims if c.seat == seat), None)
        if claim is None:
            raise _illegal("no_claim", f"Seat {seat} has not declared victory this turn.")
        return claim

    def _dispute(self, st: IlluminatiState, a: act.DisputeClaim, chance: Chance) -> None:
        claim = self._claim_of(st, a.claimant)
        if a.claimant == a.seat:
            raise _illegal("own_claim", "You cannot dispute your own claim.")
        if claim.goal == "basic":
            raise _illegal("claim_checked", "The basic goal is counted by the rules, not "
                           "claimed; there is nothing to dispute.")
        if claim.ruling is not None or a.seat in claim.disputed_by:
            raise _illegal("already_disputed", "This claim is already disputed or ruled on.")
        claim.disputed_by.append(a.seat)

    def _rule_claim(self, st: IlluminatiState, a: act.RuleClaim, chance: Chance) -> None:
        """A judge upholds or rejects a disputed claim; a rejected goal card goes back to the
        hand face up (ゴール)."""
        claim = self._claim_of(st, a.seat)
        if not claim.disputed_by or claim.ruling is not None:
            raise _illegal("not_disputed", "Only a disputed claim that has not been ruled on "
                           "needs a ruling.")
        if a.upheld:
            claim.ruling = "upheld"
        else:
            st.claims.remove(claim)

    def _settle_claims(self, st: IlluminatiState) -> None:
        """End of turn: a basic goal still met wins; an undisputed or upheld claim wins."""
        winners = []
        for claim in st.claims:
            if claim.seat in st.eliminated:
                continue
            if claim.goal == "basic":
                if len(structure.groups_in(st.player(claim.seat))) < self.goal_groups(st):
                    continue
            winners.append(claim)
        st.claims = []
        if winners:
            seats = sorted({c.seat for c in winners})
            what = "; ".join(f"seat {c.seat}: {c.goal.replace('_', ' ')}" for c in winners)
            st.result = MatchResult(winners=seats, losers=[s for s in st.seats()
                                                           if s not in seats],
                                    reason="victory", detail=what)

    # ----- end of turn (ターン終了)  --------------------------------------
    def _end_turn(self, st: IlluminatiState, a: act.EndTurn, chance: Chance) -> None:
        self._require_main(st, a.seat)
        if any(c.disputed_by and c.ruling is None for c in st.claims):
            raise _illegal("claim_disputed", "A victory claim is disputed: a judge must rule on "
                           "it (rule_claim) before the turn can end.")
        self._hand_limit(st, a.seat, a.plots_to_bottom)
        p = st.player(a.seat)
        for card in p.loose:
            self._to_discard(st, card)
        p.loose = []
        p.first_turn_done = True
        self._settle_claims(st)
        if st.result is not None:
            return
        for seat in st.in_play():
            goals = [c for c in st.player(seat).plot_hand if st.card(c).is_goal()]
            if seat != a.seat and len(goals) > GOAL_LIMIT:
                self._eliminate(st, seat, "held more than one goal card off turn")
        if st.result is None:
            self._next_turn(st)

    def _hand_limit(self, st: IlluminatiState, seat: int, refs: list[str]) -> None:
        """I7: the excess over 5 plots (and over 1 goal card) goes under the plot deck in the
        order the player gives."""
        p = st.player(seat)
        goals = sum(1 for c in p.plot_hand if st.card(c).is_goal())
        need = max(len(p.plot_hand) - PLOT_HAND_LIMIT, goals - GOAL_LIMIT, 0)
        cards = self._hand_cards(st, seat, refs)
        if any(c not in p.plot_hand for c in cards):
            raise _illegal("not_a_plot", "Only cards of the plot hand go under the plot deck.")
        left = [c for c in p.plot_hand if c not in cards]
        left_goals = sum(1 for c in left if st.card(c).is_goal())
        if len(cards) != need or len(left) > PLOT_HAND_LIMIT or left_goals > GOAL_LIMIT:
            raise _illegal("hand_limit", f"You hold {len(p.plot_hand)} plot cards ({goals} "
                           f"goals); put exactly {need} under the plot deck so that at most "
                           f"{PLOT_HAND_LIMIT} plots and {GOAL_LIMIT} goal remain (I7).")
        for card in cards:
            self._take_from_plot_hand(st, seat, card)
            st.player(owner_of(card)).plot_deck.bottom.append(card)

    def _next_turn(self, st: IlluminatiState) -> None:
        """The next player in turn order still in the game begins."""
        alive = [s for s in st.order if s not in st.eliminated]
        later = [s for s in st.order[st.order.index(st.active) + 1:] if s in alive]
        st.active = (later or alive)[0]
        st.turn += 1
        st.phase, st.step = "beginning", "plot"
        st.auto_controlled = st.resource_placed = st.group_draw_bought = False

    # ----- elimination (プレイヤーの脱落について, I8)  ---------------------------
    def _after(self, st: IlluminatiState) -> None:
        """I8: a player with no group left in the power structure is out at once."""
        if st.phase in SETUP_PHASES or st.result is not None:
            return
        for seat in st.in_play():
            if not structure.groups_in(st.player(seat)):
                self._eliminate(st, seat, "no group left in the power structure (I8)")
                if st.result is not None:
                    return

    def _eliminate(self, st: IlluminatiState, seat: int, why: str) -> None:
        was_active = st.active == seat
        st.eliminated.append(seat)
        st.claims = [c for c in st.claims if c.seat != seat]
        remaining = st.in_play()
        if len(remaining) == 1:
            st.result = MatchResult(winners=remaining, losers=[s for s in st.seats()
                                                               if s not in remaining],
                                    reason="last_player_standing",
                                    detail=f"seat {seat} eliminated: {why}")
            return
        self._after_elimination(st, seat, was_active)

    def _after_elimination(self, st: IlluminatiState, seat: int, was_active: bool) -> None:
        attack = st.attack
        if attack is not None:
            if seat in (attack.seat, attack.target_seat):
                self._finish_attack(st, attack)  # its attacker or its target leaves the game
            else:
                attack.passed = []
        self._leave_table(st, seat)
        if was_active:
            st.active = seat
            self._next_turn(st)

    def _leave_table(self, st: IlluminatiState, seat: int) -> None:
        """An eliminated player's cards leave the table for their owners' discard piles: groups
        (which would otherwise block their names for everyone), loose groups, resources, agents
        and permanent plots. The Illuminati stays as the empty root."""
        p = st.player(seat)
        for card in structure.groups_in(p) + p.loose + [r.card for r in p.resources] + \
                p.agents + p.plots:
            self._to_discard(st, card)
        if p.illuminati is not None:
            p.structure = {p.illuminati: Node(card=p.illuminati)}
        p.loose, p.resources, p.agents, p.plots, p.links = [], [], [], [], []

    def _on_eliminated(self, state: GameState, seat: int) -> None:
        """A concession (C4) in a game of 3+: play goes on in turn order."""
        st = cast(IlluminatiState, state)
        st.claims = [c for c in st.claims if c.seat != seat]
        if st.phase in SETUP_PHASES:
            return
        self._after_elimination(st, seat, st.active == seat)

    # ----- who is to act --------------------------------------------------------------------
    def to_act(self, state: GameState) -> list[int]:
        """Seats the game waits on: every unpassed player during attack support, a claimant
        awaiting a ruling, an off-turn holder of two goal cards, else the active player."""
        st = cast(IlluminatiState, state)
        if st.result is not None:
            return []
        alive = st.in_play()
        if st.phase in SETUP_PHASES:
            return alive[:1]
        if st.attack is not None and st.attack.stage == "support":
            return [s for s in alive if s not in st.attack.passed]
        waiting = [c.seat for c in st.claims if c.disputed_by and c.ruling is None]
        if waiting:
            return waiting
        return [st.active]

    # ----- adjustments (C3) ------------------------------------------------------------------
    def _adjust(self, state: GameState, action: Adjust) -> None:
        from engine.illuminati.adjust import adjust

        st = cast(IlluminatiState, state)
        adjust(self, st, action)
        self._after(st)

    # ----- legal actions, views and transcripts live in their own modules ---------------------
    def _legal_actions(self, state: GameState, seat: int) -> list[Action]:
        from engine.illuminati.legal import legal_actions

        return legal_actions(self, cast(IlluminatiState, state), seat)

    def _view(self, state: GameState, viewer: Viewer) -> dict[str, Any]:
        from engine.illuminati.views import view

        return view(self, cast(IlluminatiState, state), viewer)

    def _describe(self, action: Action, outcomes: list[Outcome], viewer: Viewer,
                  before: GameState | None = None) -> str:
        from engine.illuminati.views import describe

        return describe(self, action, outcomes, viewer, cast(IlluminatiState | None, before))

    def describe_outcomes(self, outcomes: Sequence[Outcome], viewer: Viewer,
                          before: GameState | None = None) -> list[str]:
        """Draws, agent costs, turn-order and attack dice, redacted for ``viewer``."""
        from engine.illuminati.views import describe_outcomes

        return describe_outcomes(self, outcomes, viewer, cast(IlluminatiState | None, before))


def combat_support(seat: int, card: str, basis: str, value: int) -> Any:
    """A support record (see model.Support)."""
    from engine.illuminati.model import Support as SupportRecord

    return SupportRecord(seat=seat, card=card, basis=basis, value=value)


def roll_order(seats: list[int], chance: Chance) -> list[int]:
    """I10: each player rolls 2d6, highest first; ties re-roll among the tied players only."""
    totals = {s: chance.roll(f"order_roll:{s}", 6) + chance.roll(f"order_roll:{s}", 6)
              for s in seats}
    order: list[int] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [s for s in seats if totals[s] == total]
        order += tied if len(tied) == 1 else roll_order(tied, chance)
    return order
