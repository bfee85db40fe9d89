"""A player's turn: its beginning (ターン開始: the free draws, automatic control, action tokens
I6) and its end (ターン終了: loose groups discarded, the plot hand limit I7, victory claims
settled, the next player).

Paid plot draws are anytime actions (いつでもできる行動) and share the free draw's handler.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.illuminati import actions as act
from engine.illuminati import combat, structure
from engine.illuminati.model import IlluminatiState, Kind, Node, owner_of
from engine.illuminati.reasons import IlluminatiReason as R
from engine.illuminati.timing import next_turn, require_main, require_phase, require_turn
from engine.illuminati.victory import eliminate, settle_claims
from engine.illuminati.zones import (
    ILLUMINATI_ALIAS,
    draw,
    hand_cards,
    illegal,
    in_hand,
    own_card,
    put_resource,
    take_from_plot_hand,
    to_discard,
    token_holder,
)

PLOT_HAND_LIMIT = 5  # I7
GOAL_LIMIT = 1  # goal cards in hand off one's own turn
GROUP_TOKENS_PER_PLOT = 2  # a paid plot draw: one Illuminati token or this many group tokens


# ----- beginning of turn (ターン開始)  -------------------------------------------------------
def draw_plot(st: IlluminatiState, a: act.DrawPlot, chance: Chance) -> None:
    """The free plot draw, or a draw paid with tokens at any time."""
    if not a.pay:
        require_turn(st, a.seat)
        if st.phase != "beginning" or st.step != "plot":
            raise illegal(R.FREE_DRAW_USED, "The free plot draw is only at the beginning of "
                          "your turn, before the group draw; pay with tokens instead.")
        st.step = "group"
    else:
        _pay_plot_draw(st, a.seat, a.pay)
    draw(st, a.seat, "plot", chance)


def _pay_plot_draw(st: IlluminatiState, seat: int, pay: list[str]) -> None:
    """One Illuminati token (or an Action resource's) or two group tokens per card."""
    holders = [token_holder(st, seat, ref) for ref in pay]
    p = st.player(seat)
    kinds = [("group" if isinstance(h, Node) and h.card != p.illuminati else "illuminati")
             for h in holders]
    if len({h.card for h in holders}) != len(holders):
        raise illegal(R.BAD_PAYMENT, "Each paying card gives one token.")
    if kinds not in (["illuminati"], ["group"] * GROUP_TOKENS_PER_PLOT):
        raise illegal(R.BAD_PAYMENT, "A plot card costs one token of your Illuminati (or of "
                      "an Action resource) or two tokens of your groups.")
    for h in holders:
        h.tokens -= 1


def draw_group(st: IlluminatiState, a: act.DrawGroup, chance: Chance) -> None:
    """Free at the beginning of the turn; once in the main phase for one token."""
    require_turn(st, a.seat)
    if st.phase == "beginning" and a.pay is None:
        if st.step not in ("plot", "group"):
            raise illegal(R.FREE_DRAW_USED, "The free group draw has been taken or passed.")
        st.step = "control"
    else:
        require_main(st, a.seat)
        if a.pay is None:
            raise illegal(R.PAYMENT_NEEDED, "A group draw in the main phase costs one "
                          "action token: name the card that pays.")
        if st.group_draw_bought:
            raise illegal(R.GROUP_DRAW_USED, "You have already bought a group draw this "
                          "turn.")
        holder = token_holder(st, a.seat, a.pay)
        holder.tokens -= 1
        st.group_draw_bought = True
    draw(st, a.seat, "group", chance)


def auto_control(st: IlluminatiState, a: act.AutoControl, chance: Chance) -> None:
    """A group or resource from hand, without a token; then the tokens and the main phase."""
    require_turn(st, a.seat)
    require_phase(st, "beginning")
    card = in_hand(st, a.seat, a.card, "group")
    if st.card(card).kind == Kind.RESOURCE:
        if a.parent is not None or a.arrow is not None:
            raise illegal(R.RESOURCE_HAS_NO_ARROW, f"{st.card(card).name} is a resource: it "
                          "goes to the resource area, not on an arrow.")
        put_resource(st, a.seat, card)
    else:
        parent = own_card(st, a.seat, a.parent or ILLUMINATI_ALIAS)
        structure.place_group(st, a.seat, card, parent, a.arrow)
    st.player(a.seat).group_hand.remove(card)
    st.auto_controlled = True
    _start_main(st)


def begin_main(st: IlluminatiState, a: act.BeginMain, chance: Chance) -> None:
    """End the beginning of the turn without an automatic control."""
    require_turn(st, a.seat)
    require_phase(st, "beginning")
    _start_main(st)


def _tournament_rule(st: IlluminatiState) -> bool:
    """Whether I6's two-player tournament rule is in force (option tournament_two_player)."""
    rule = st.options.get("tournament_two_player", "auto")
    return rule == "on" or (rule == "auto" and len(st.players) == 2)


def _start_main(st: IlluminatiState) -> None:
    """I6: a token to the Illuminati and to each group (and Action resource) holding none;
    none to a group whose power was reduced to 0, none to the Illuminati on an automatic-
    control turn under the two-player tournament rule."""
    p = st.player(st.active)
    for node in p.structure.values():
        if node.tokens:
            continue
        if node.parent is None:
            if not (st.auto_controlled and _tournament_rule(st)):
                node.tokens = 1
        elif st.card(node.card).power == 0 or combat.power_of(st, node.card) > 0:
            node.tokens = 1
    for res in p.resources:
        if st.card(res.card).action and not res.tokens:
            res.tokens = 1
    st.phase = "main"


# ----- end of turn (ターン終了)  ------------------------------------------------------------
def end_turn(st: IlluminatiState, a: act.EndTurn, chance: Chance) -> None:
    """Loose groups are discarded, I7 applied, claims settled; then the next player begins."""
    require_main(st, a.seat)
    if any(c.disputed_by and c.ruling is None for c in st.claims):
        raise illegal(R.CLAIM_DISPUTED, "A victory claim is disputed: a judge must rule on "
                      "it (rule_claim) before the turn can end.")
    _hand_limit(st, a.seat, a.plots_to_bottom)
    p = st.player(a.seat)
    for card in p.loose:
        to_discard(st, card)
    p.loose = []
    p.first_turn_done = True
    settle_claims(st)
    if st.result is not None:
        return
    for seat in st.in_play():
        goals = [c for c in st.player(seat).plot_hand if st.card(c).is_goal()]
        if seat != a.seat and len(goals) > GOAL_LIMIT:
            eliminate(st, seat, "held more than one goal card off turn")
    if st.result is None:
        next_turn(st)


def plots_over_limit(st: IlluminatiState, seat: int) -> int:
    """I7: how many plots must go under the plot deck at the end of the turn, so that at most
    5 plots and 1 goal card remain."""
    p = st.player(seat)
    goals = sum(1 for c in p.plot_hand if st.card(c).is_goal())
    return max(len(p.plot_hand) - PLOT_HAND_LIMIT, goals - GOAL_LIMIT, 0)


def _hand_limit(st: IlluminatiState, seat: int, refs: list[str]) -> None:
    """I7: the excess over 5 plots (and over 1 goal card) goes under the plot deck in the
    order the player gives."""
    p = st.player(seat)
    goals = sum(1 for c in p.plot_hand if st.card(c).is_goal())
    need = plots_over_limit(st, seat)
    cards = hand_cards(st, seat, refs)
    if any(c not in p.plot_hand for c in cards):
        raise illegal(R.NOT_A_PLOT, "Only cards of the plot hand go under the plot deck.")
    left = [c for c in p.plot_hand if c not in cards]
    left_goals = sum(1 for c in left if st.card(c).is_goal())
    if len(cards) != need or len(left) > PLOT_HAND_LIMIT or left_goals > GOAL_LIMIT:
        raise illegal(R.HAND_LIMIT, f"You hold {len(p.plot_hand)} plot cards ({goals} "
                      f"goals); put exactly {need} under the plot deck so that at most "
                      f"{PLOT_HAND_LIMIT} plots and {GOAL_LIMIT} goal remain (I7).")
    for card in cards:
        take_from_plot_hand(st, seat, card)
        st.player(owner_of(card)).plot_deck.bottom.append(card)
