"""The main phase's other actions (メインフェイズ): moving groups, resources, links
(リンクについて), Illuminati agents (エージェントについて) and plots.

Attacks, the main phase's chief business, are in attacks.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.illuminati import actions as act
from engine.illuminati import combat, structure
from engine.illuminati.model import IlluminatiState, Kind, Link, Player, PlotType, Resource, find
from engine.illuminati.reasons import IlluminatiReason as R
from engine.illuminati.timing import require_main
from engine.illuminati.zones import (
    ILLUMINATI_ALIAS,
    illegal,
    in_hand,
    label,
    own_card,
    put_resource,
    require_other,
    take_from_plot_hand,
    to_discard,
    token_holder,
)


# ----- moving a group  ---------------------------------------------------------------------
def move_group(st: IlluminatiState, a: act.MoveGroup, chance: Chance) -> None:
    """A group and its subtree to a free arrow of the same structure, for one token."""
    require_main(st, a.seat)
    p = st.player(a.seat)
    group = own_card(st, a.seat, a.group)
    if group == p.illuminati:
        raise illegal(R.ILLUMINATI_CANNOT_MOVE, "The Illuminati is the root of the "
                      "structure and cannot move.")
    parent = own_card(st, a.seat, a.parent)
    if parent in structure.subtree(p, group):
        raise illegal(R.MOVE_INTO_ITSELF, f"{st.card(group).name} cannot hang from a card "
                      "below itself.")
    side = structure.resolve_arrow(st, p, parent, a.arrow)
    holder = token_holder(st, a.seat, a.pay)
    holder.tokens -= 1
    node = p.structure[group]
    node.parent, node.arrow = parent, side


# ----- resources  ----------------------------------------------------------------------------
def place_resource(st: IlluminatiState, a: act.PlaceResource, chance: Chance) -> None:
    """A resource from hand to the resource area, once a turn."""
    require_main(st, a.seat)
    if st.resource_placed:
        raise illegal(R.RESOURCE_ALREADY_PLACED, "You have already placed a resource this "
                      "turn.")
    card = in_hand(st, a.seat, a.card, "group")
    if st.card(card).kind != Kind.RESOURCE:
        raise illegal(R.NOT_A_RESOURCE, f"{st.card(card).name} is not a resource.")
    put_resource(st, a.seat, card)
    st.player(a.seat).group_hand.remove(card)
    st.resource_placed = True


def _own_resource(st: IlluminatiState, seat: int, ref: str) -> Resource:
    p = st.player(seat)
    card = find([r.card for r in p.resources], ref, seat)
    if card is None:
        raise illegal(R.NOT_YOUR_RESOURCE, f"{label(st, ref)} is not one of seat "
                      f"{seat}'s resources.")
    return next(r for r in p.resources if r.card == card)


def use_resource(st: IlluminatiState, a: act.UseResource, chance: Chance) -> None:
    """Record that a resource's text was used this turn (its effect is card text, C3)."""
    _own_resource(st, a.seat, a.card).used_turn = st.turn


def give_resource(st: IlluminatiState, a: act.GiveResource, chance: Chance) -> None:
    """An unused resource to another player."""
    require_main(st, a.seat)
    require_other(st, a.seat, a.to)
    res = _unused_resource(st, a.seat, a.card)
    _hand_over(st, a.seat, a.to, res)


def trade_resources(st: IlluminatiState, a: act.TradeResources, chance: Chance) -> None:
    """An unused resource for another player's unused one."""
    require_main(st, a.seat)
    mine = _unused_resource(st, a.seat, a.give)
    for seat in st.in_play():
        if seat == a.seat:
            continue
        if find([r.card for r in st.player(seat).resources], a.take, seat) is not None:
            theirs = _unused_resource(st, seat, a.take)
            _hand_over(st, a.seat, seat, mine)
            _hand_over(st, seat, a.seat, theirs)
            return
    raise illegal(R.NOT_A_RESOURCE, f"No other player has the resource "
                  f"{label(st, a.take)}.")


def _unused_resource(st: IlluminatiState, seat: int, ref: str) -> Resource:
    res = _own_resource(st, seat, ref)
    if res.used_turn == st.turn:
        raise illegal(R.RESOURCE_USED, f"{st.card(res.card).name} was used this turn and "
                      "cannot change hands.")
    return res


def _hand_over(st: IlluminatiState, giver: int, to: int, res: Resource) -> None:
    """A resource changes hands and is linked straight to its new owner's Illuminati."""
    g, r = st.player(giver), st.player(to)
    g.resources.remove(res)
    g.links = [k for k in g.links if res.card not in (k.a, k.b)]
    r.resources.append(Resource(card=res.card, used_turn=res.used_turn))
    assert r.illuminati is not None
    r.links.append(Link(a=r.illuminati, b=res.card))


# ----- links (リンクについて)  --------------------------------------------------------------
def _table_card(st: IlluminatiState, seat: int, ref: str) -> str:
    """One of ``seat``'s cards on the table: structure, resources, agents, permanent plots."""
    p = st.player(seat)
    if ref == ILLUMINATI_ALIAS and p.illuminati:
        return p.illuminati
    zone = [*p.structure, *(r.card for r in p.resources), *p.agents, *p.plots]
    card = find(zone, ref, seat)
    if card is None:
        raise illegal(R.NOT_ON_YOUR_TABLE, f"{label(st, ref)} is not one of your "
                      "cards on the table.")
    return card


def _find_link(p: Player, a: str, b: str) -> Link | None:
    return next((k for k in p.links if {k.a, k.b} == {a, b}), None)


def make_link(st: IlluminatiState, a: act.MakeLink, chance: Chance) -> None:
    """A link marker joining two different cards of the player's on the table."""
    require_main(st, a.seat)
    x, y = _table_card(st, a.seat, a.a), _table_card(st, a.seat, a.b)
    p = st.player(a.seat)
    if x == y:
        raise illegal(R.BAD_LINK, "A link joins two different cards.")
    if _find_link(p, x, y) is not None:
        raise illegal(R.ALREADY_LINKED, "Those two cards are already linked.")
    p.links.append(Link(a=x, b=y))


def move_link(st: IlluminatiState, a: act.MoveLink, chance: Chance) -> None:
    """Once per link per turn; a group linked to a permanent plot stays linked until it is
    destroyed (リンクについて)."""
    require_main(st, a.seat)
    p = st.player(a.seat)
    x, y = _table_card(st, a.seat, a.a), _table_card(st, a.seat, a.b)
    link = _find_link(p, x, y)
    if link is None:
        raise illegal(R.NO_SUCH_LINK, "Those two cards are not linked.")
    old = _table_card(st, a.seat, a.old)
    if old not in (x, y):
        raise illegal(R.BAD_LINK, "The end that moves must be one of the two linked cards.")
    if link.moved_turn == st.turn:
        raise illegal(R.LINK_MOVED, "That link has already moved this turn.")
    if {x, y} & set(p.plots) and {x, y} & set(p.structure):
        raise illegal(R.LINK_FIXED, "A group linked to a permanent plot stays linked until "
                      "the group is destroyed.")
    new = _table_card(st, a.seat, a.new)
    keep = y if old == x else x
    if new == keep or _find_link(p, keep, new) is not None:
        raise illegal(R.BAD_LINK, "The link would join a card to itself or duplicate a "
                      "link.")
    link.a, link.b, link.moved_turn = keep, new, st.turn


# ----- Illuminati agents (エージェントについて)  ------------------------------------------------
def place_agent(st: IlluminatiState, a: act.PlaceAgent, chance: Chance) -> None:
    """An Illuminati agent: not your own Illuminati, one per name, an opponent must play it;
    costs the top card of your plot deck and of your group deck."""
    require_main(st, a.seat)
    p = st.player(a.seat)
    card = in_hand(st, a.seat, a.card, "plot")
    c = st.card(card)
    if c.kind != Kind.ILLUMINATI:
        raise illegal(R.NOT_AN_ILLUMINATI, f"{c.name} is not an Illuminati card.")
    if p.illuminati and c.name == st.card(p.illuminati).name:
        raise illegal(R.OWN_ILLUMINATI, "Your own Illuminati cannot be your agent.")
    if c.name in {st.card(x).name for x in p.agents}:
        raise illegal(R.AGENT_ALREADY_PLACED, f"You already have an agent of {c.name}.")
    if c.name not in {combat.illuminati_name(st, s) for s in st.in_play() if s != a.seat}:
        raise illegal(R.NO_SUCH_OPPONENT, f"No opponent plays {c.name}; an agent must match "
                      "an opponent's Illuminati.")
    if not p.plot_deck.size() or not p.group_deck.size():
        raise illegal(R.CANNOT_PAY, "An Illuminati agent costs the top card of both your "
                      "decks; one of them is empty.")
    _pay_agent_cost(st, p, chance)
    take_from_plot_hand(st, a.seat, card)
    p.agents.append(card)


def _pay_agent_cost(st: IlluminatiState, p: Player, chance: Chance) -> None:
    """The top card of the plot deck, then of the group deck, to the discard pile."""
    for which in ("plot", "group"):
        deck = p.plot_deck if which == "plot" else p.group_deck
        if deck.shuffled:
            top = chance.reveal(f"agent_cost_{which}", deck.shuffled)
            deck.shuffled.remove(top)
        else:
            top = deck.bottom.pop(0)
        to_discard(st, top)


# ----- plots  --------------------------------------------------------------------------------
def play_plot(st: IlluminatiState, a: act.PlayPlot, chance: Chance) -> None:
    """An ordinary or New World Order plot; its effect is card text (C3)."""
    card = in_hand(st, a.seat, a.card, "plot")
    c = st.card(card)
    route = {PlotType.ATTACK: "pay_attack", PlotType.INSTANT_ATTACK: "instant_attack",
             PlotType.GOAL: "declare_victory"}
    if c.kind != Kind.PLOT or c.plot_type in route:
        how = route.get(c.plot_type) if c.plot_type else "place_agent"
        raise illegal(R.WRONG_PLAY, f"{c.name} is played with the {how} action.")
    link = None
    if a.link is not None:
        if not c.permanent or c.plot_type == PlotType.NEW_WORLD_ORDER:
            raise illegal(R.BAD_LINK, f"{c.name} is not a permanent plot that can be linked.")
        link = _table_card(st, a.seat, a.link)
    take_from_plot_hand(st, a.seat, card)
    if c.plot_type == PlotType.NEW_WORLD_ORDER:
        assert c.colour is not None
        older = st.new_world_order.get(c.colour)
        if older is not None:
            to_discard(st, older)
        st.new_world_order[c.colour] = card
    elif c.permanent:
        p = st.player(a.seat)
        p.plots.append(card)
        if link is not None:
            p.links.append(Link(a=link, b=card))
    else:
        to_discard(st, card)
