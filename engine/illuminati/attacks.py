"""Attacks (各攻撃の処理): declaration, payment, support (攻撃支援・抵抗支援) and agents, the
roll (攻撃判定, I4), what follows (攻撃後の処理), and instant attacks (I5).

The arithmetic of the two totals is combat's; this module moves the cards.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.effects import emit
from engine.core.errors import IllegalAction
from engine.illuminati import actions as act
from engine.illuminati import combat, structure
from engine.illuminati.effects import AttackResolved, InstantAttackResolved
from engine.illuminati.model import (
    Attack,
    IlluminatiState,
    Kind,
    Node,
    Player,
    PlotType,
    Resource,
    Support,
    find,
    opposed,
    owner_of,
    shared,
)
from engine.illuminati.reasons import IlluminatiReason as R
from engine.illuminati.timing import require_main
from engine.illuminati.zones import (
    illegal,
    in_hand,
    label,
    own_card,
    take_from_plot_hand,
    to_discard,
)


# ----- declaration (攻撃の宣言)  --------------------------------------------------------
def declare_attack(st: IlluminatiState, a: act.DeclareAttack, chance: Chance) -> None:
    """The Illuminati or a group holding a token attacks a group to control or destroy it."""
    require_main(st, a.seat)
    p = st.player(a.seat)
    attacker = own_card(st, a.seat, a.attacker)
    if attacker != p.illuminati and p.structure[attacker].tokens < 1:
        raise illegal(R.ATTACKER_HAS_NO_TOKEN, f"{st.card(attacker).name} holds no action "
                      "token; only the Illuminati or a group holding a token can attack.")
    if a.power == "global" and st.card(attacker).global_power is None:
        raise illegal(R.NO_GLOBAL_POWER, f"{st.card(attacker).name} has no global power.")
    target, target_seat, from_hand = _attack_target(st, a)
    if target == attacker:
        raise illegal(R.ATTACKS_ITSELF, "A card cannot attack itself.")
    arrow = None
    if a.purpose == "control":
        arrow = structure.resolve_arrow(st, p, attacker, a.arrow)
    if from_hand:
        p.group_hand.remove(target)
        p.loose.append(target)
    st.attack = Attack(seat=a.seat, attacker=attacker, target=target, purpose=a.purpose,
                       power_kind=a.power, target_seat=target_seat, arrow=arrow,
                       from_hand=from_hand)


def _attack_target(st: IlluminatiState, a: act.DeclareAttack) -> tuple[str, int | None, bool]:
    """(target instance, the seat whose structure holds it or None, placed from hand)."""
    for seat in st.in_play():
        card = find([c for c, n in st.player(seat).structure.items() if n.parent], a.target,
                    seat)
        if card is None:
            continue
        if seat == a.seat and a.purpose == "control":
            raise illegal(R.OWN_GROUP, "You can attack a group of your own structure only "
                          "to destroy it.")
        return card, seat, False
    p = st.player(a.seat)
    loose = find(p.loose, a.target, a.seat)
    hand = find([c for c in p.group_hand if st.card(c).kind == Kind.GROUP], a.target, a.seat)
    if loose is None and hand is None:
        raise illegal(R.NOT_A_TARGET, f"{label(st, a.target)} is not a group in a "
                      "power structure or in your hand.")
    if a.purpose != "control":
        raise illegal(R.HAND_TARGET_CONTROL_ONLY, "A group from your hand can only be "
                      "attacked to control it.")
    if loose is not None:
        return loose, None, False
    assert hand is not None
    if st.card(hand).name in structure.names_on_table(st):
        raise illegal(R.GROUP_ON_TABLE, f"{st.card(hand).name} is already on the table; "
                      "groups are unique.")
    return hand, None, True


def current_attack(st: IlluminatiState, seat: int, stage: str) -> Attack:
    """The attack under way, which must be at ``stage`` (only its attacker pays or aborts)."""
    attack = st.attack
    if attack is None:
        raise illegal(R.NO_ATTACK, "No attack is under way.")
    if attack.stage != stage:
        msg = ("The attack has been paid; it can no longer be changed or aborted."
               if stage == "declared" else "The attack has not been paid yet.")
        raise illegal(R.ATTACK_STAGE, msg)
    if stage == "declared" and seat != attack.seat:
        raise illegal(R.NOT_THE_ATTACKER, f"Only seat {attack.seat} can pay or abort this "
                      "attack.")
    return attack


def pay_attack(st: IlluminatiState, a: act.PayAttack, chance: Chance) -> None:
    """The attacker's token or an attack plot pays; the support window opens."""
    attack = current_attack(st, a.seat, "declared")
    if a.plot is None:
        node = st.player(a.seat).structure[attack.attacker]
        if node.tokens < 1:
            raise illegal(R.NO_TOKEN, f"{st.card(attack.attacker).name} holds no action "
                          "token: pay with an attack plot or abort.")
        node.tokens -= 1
        attack.paid_with = "token"
    else:
        plot = in_hand(st, a.seat, a.plot, "plot")
        if st.card(plot).plot_type != PlotType.ATTACK:
            raise illegal(R.NOT_AN_ATTACK_PLOT, f"{st.card(plot).name} is not an attack "
                          "plot.")
        take_from_plot_hand(st, a.seat, plot)
        attack.paid_with = plot
    attack.stage = "support"
    attack.passed = []


def abort_attack(st: IlluminatiState, a: act.AbortAttack, chance: Chance) -> None:
    """Call the declared attack off; a group placed from hand goes back to it."""
    attack = current_attack(st, a.seat, "declared")
    if attack.from_hand:
        p = st.player(a.seat)
        p.loose.remove(attack.target)
        p.group_hand.append(attack.target)
    st.attack = None


# ----- support (攻撃への攻撃支援・防御支援)  -----------------------------------------------
def support(st: IlluminatiState, a: act.Support, chance: Chance) -> None:
    """Attack support or resistance support: one token of one card (攻撃支援・抵抗支援)."""
    attack = current_attack(st, a.seat, "support")
    card = own_card(st, a.seat, a.card)
    if card == attack.attacker:
        raise illegal(R.ATTACKER_CANNOT_SUPPORT, "The attacking card cannot also support.")
    if card == attack.target and a.side == "attack":
        raise illegal(R.TARGET_CANNOT_SUPPORT, "The target cannot support the attack on "
                      "itself.")
    basis, value = support_value(st, card, a.side, a.use)
    node = st.player(a.seat).structure[card]
    if node.tokens < 1:
        raise illegal(R.NO_TOKEN, f"{st.card(card).name} holds no action token.")
    node.tokens -= 1
    line = attack.attack_support if a.side == "attack" else attack.defence_support
    line.append(Support(seat=a.seat, card=card, basis=basis, value=value))
    attack.passed = []


def support_value(st: IlluminatiState, card: str, side: str, use: str) -> tuple[str, int]:
    """(basis, value) of ``card`` supporting ``side``, or IllegalAction saying why not."""
    basis = support_basis(st, card, side, use)
    if basis is None:
        raise _no_support(st, card, side, use)
    if basis == "global":
        value = combat.global_power_of(st, card)
        assert value is not None  # support_basis checked the printed global power
        return basis, value
    return basis, combat.power_of(st, card)


def support_basis(st: IlluminatiState, card: str, side: str, use: str) -> str | None:
    """What lets ``card`` support ``side`` with ``use``: global, self (the target's own
    token), adjacent (next to the target) or power (alignment); None if nothing does."""
    attack = st.attack
    assert attack is not None
    c, target = st.card(card), st.card(attack.target)
    is_illuminati = c.kind == Kind.ILLUMINATI
    if use == "global":
        if is_illuminati and not st.options.get("illuminati_global_aid"):
            return None
        return None if c.global_power is None else "global"
    if side == "defend":
        if card == attack.target:
            return "self"
        if _adjacent(st, card, attack):
            return "adjacent"
    if not is_illuminati:
        if side == "defend" or attack.purpose == "control":
            if any(shared(x, y) for x in c.alignments for y in target.alignments):
                return "power"
        elif any(opposed(x, y) for x in c.alignments for y in target.alignments):
            return "power"
    return None


def _no_support(st: IlluminatiState, card: str, side: str, use: str) -> IllegalAction:
    """Why ``card`` cannot support ``side`` with ``use`` (support_basis found nothing)."""
    attack = st.attack
    assert attack is not None
    c, target = st.card(card), st.card(attack.target)
    if use == "global":
        if c.kind == Kind.ILLUMINATI and not st.options.get("illuminati_global_aid"):
            return illegal(R.ILLUMINATI_CANNOT_AID, "The rules name groups as the source "
                           "of global-power support (option illuminati_global_aid).")
        return illegal(R.NO_GLOBAL_POWER, f"{c.name} has no global power.")
    need = {"attack": "shares an alignment with" if attack.purpose == "control"
            else "has an alignment opposed to", "defend": "is the target, is next to or "
            "shares an alignment with"}[side]
    return illegal(R.NO_POWER_SUPPORT, f"{c.name} can add its power only if it {need} "
                   f"{target.name}; any group can add its global power.")


def _adjacent(st: IlluminatiState, card: str, attack: Attack) -> bool:
    """Parent or child of the target in the target's structure."""
    if attack.target_seat is None:
        return False
    nodes = st.player(attack.target_seat).structure
    if card not in nodes:
        return False
    return nodes[attack.target].parent == card or nodes[card].parent == attack.target


def play_agent(st: IlluminatiState, a: act.PlayAgent, chance: Chance) -> None:
    """A copy of the target from hand: +10 attacking, +6 defending, one per side."""
    attack = current_attack(st, a.seat, "support")
    card = in_hand(st, a.seat, a.card, "group")
    target = st.card(attack.target)
    if st.card(card).kind != Kind.GROUP or st.card(card).name != target.name:
        raise illegal(R.NOT_AN_AGENT, f"Only a copy of {target.name} is its agent.")
    own_loose = attack.target_seat is None and attack.seat == a.seat
    if attack.target_seat == a.seat or own_loose:
        raise illegal(R.AGENT_OF_OWN_GROUP, "A card of your own power structure cannot be "
                      "used as an agent.")
    line = attack.attack_support if a.side == "attack" else attack.defence_support
    if any(s.basis == "agent" for s in line):
        raise illegal(R.AGENT_ALREADY_PLAYED, f"An agent has already been played for the "
                      f"{'attack' if a.side == 'attack' else 'defence'}.")
    st.player(a.seat).group_hand.remove(card)
    line.append(Support(seat=a.seat, card=card, basis="agent",
                        value=combat.GROUP_AGENT[a.side]))
    attack.passed = []


def pass_support(st: IlluminatiState, a: act.Pass, chance: Chance) -> None:
    """When every player still in the game has passed in a row, the dice are rolled."""
    attack = current_attack(st, a.seat, "support")
    if a.seat in attack.passed:
        raise illegal(R.ALREADY_PASSED, "You have already passed on this attack.")
    attack.passed.append(a.seat)
    if all(s in attack.passed for s in st.in_play()):
        _resolve(st, attack, chance)


# ----- the roll and what follows (攻撃判定, 攻撃後の処理)  -----------------------------------
def _resolve(st: IlluminatiState, attack: Attack, chance: Chance) -> None:
    """I4, then the consequences (攻撃後の処理)."""
    first = len(chance.outcomes)
    roll = combat.roll_2d6(chance, "attack_die")
    dice = tuple(int(o.value) for o in chance.outcomes[first:])
    t = combat.tally(st, attack)
    succeeded = combat.succeeds(t.achieved, roll)
    emit(st, AttackResolved(
        seat=attack.seat, attacker=attack.attacker, target=attack.target,
        purpose=attack.purpose, attack_terms=tuple(t.attack), defence_terms=tuple(t.defence),
        attack_total=t.attack_total, defence_total=t.defence_total, achieved=t.achieved,
        dice=dice, roll=roll, succeeded=succeeded))
    if succeeded:
        if attack.purpose == "destroy":
            _destroy(st, attack.seat, attack.target)
        else:
            _control(st, attack)
    finish_attack(st, attack)


def finish_attack(st: IlluminatiState, attack: Attack) -> None:
    """Used plots and agents go to the discard pile; the attack is over."""
    if attack.paid_with and attack.paid_with != "token":
        to_discard(st, attack.paid_with)
    for s in attack.attack_support + attack.defence_support:
        if s.basis == "agent":
            to_discard(st, s.card)
    st.attack = None


def _destroy(st: IlluminatiState, by: int, target: str) -> None:
    """The target to ``by``'s destroyed pile; every card below it to its owner's hand."""
    seat = structure.holder_of(st, target)
    assert seat is not None
    p = st.player(seat)
    cards, _ = structure.detach(p, target)
    st.player(by).destroyed.append(target)
    for card in cards[1:]:
        st.player(owner_of(card)).group_hand.append(card)
    p.links = [k for k in p.links if k.a not in cards and k.b not in cards]


def _control(st: IlluminatiState, attack: Attack) -> None:
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
        elif _take_linked(loser, me, other):
            me.links.append(link)


def _take_linked(loser: Player, me: Player, card: str) -> bool:
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


# ----- instant attacks (I5)  ---------------------------------------------------------------
def instant_attack(st: IlluminatiState, a: act.InstantAttack, chance: Chance) -> None:
    """I5: no support, no dice; the group is destroyed iff plot power >= its power."""
    require_main(st, a.seat)
    plot = in_hand(st, a.seat, a.plot, "plot")
    if st.card(plot).plot_type != PlotType.INSTANT_ATTACK:
        raise illegal(R.NOT_AN_INSTANT_ATTACK, f"{st.card(plot).name} is not an instant-"
                      "attack plot.")
    target = _structure_group(st, a.target)
    take_from_plot_hand(st, a.seat, plot)
    succeeded = combat.instant_succeeds(st, plot, target)
    emit(st, InstantAttackResolved(seat=a.seat, plot=plot, target=target,
                                   plot_power=st.card(plot).power,
                                   target_power=st.card(target).power, succeeded=succeeded))
    if succeeded:
        _destroy(st, a.seat, target)
    to_discard(st, plot)


def _structure_group(st: IlluminatiState, ref: str) -> str:
    """A group in any power structure still in the game."""
    for seat in st.in_play():
        card = find([c for c, n in st.player(seat).structure.items() if n.parent], ref, seat)
        if card is not None:
            return card
    raise illegal(R.NOT_A_TARGET, f"{label(st, ref)} is not a group in a power "
                  "structure.")
