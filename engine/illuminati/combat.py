"""Attack arithmetic (攻撃判定): the attack and defence totals with every term named, and I4.

The terms are kept as labelled lines so that views and transcripts can show the calculation a
judge would do by hand (docs/games/illuminati.md has a worked example).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.chance import Chance
from engine.illuminati.model import (
    Attack,
    IlluminatiState,
    Kind,
    Node,
    card_of,
    opposed_pairs,
    shared,
    shared_pairs,
)
from engine.illuminati.structure import depth

SAME_ILLUMINATI = 5  # 自分と同じイルミナティを使用する対戦相手の攻撃対象への攻撃
AGENT_BONUS = 3  # イルミナティのエージェント
ALIGNMENT_STEP = 4  # I2
PARENT_ALIGNMENT = 4  # I3
DEPTH_BONUS = {1: 10, 2: 5}  # I3
GROUP_AGENT = {"attack": 10, "defend": 6}
FUMBLE = 11  # I4: a roll of 11 or 12 always fails
DIE_SIDES = 6


@dataclass
class Tally:
    """Both sides of an attack, term by term."""

    attack: list[tuple[str, int]] = field(default_factory=list)
    defence: list[tuple[str, int]] = field(default_factory=list)

    @property
    def attack_total(self) -> int:
        """Sum of the attack terms."""
        return sum(v for _, v in self.attack)

    @property
    def defence_total(self) -> int:
        """Sum of the defence terms."""
        return sum(v for _, v in self.defence)

    @property
    def achieved(self) -> int:
        """I4: attack total minus defence total."""
        return self.attack_total - self.defence_total


def power_of(st: IlluminatiState, instance: str) -> int:
    """Current power: printed power plus card-text changes (never below 0)."""
    node = _node(st, instance)
    mod = node.power_mod if node is not None else 0
    return max(0, st.card(instance).power + mod)


def global_power_of(st: IlluminatiState, instance: str) -> int | None:
    """Current global power, or None for a card printed without one."""
    printed = st.card(instance).global_power
    if printed is None:
        return None
    node = _node(st, instance)
    mod = node.power_mod if node is not None else 0
    return max(0, printed + mod)


def resistance_of(st: IlluminatiState, instance: str) -> int:
    """Current resistance: printed plus card-text changes (never below 0)."""
    node = _node(st, instance)
    mod = node.resistance_mod if node is not None else 0
    return max(0, (st.card(instance).resistance or 0) + mod)


def _node(st: IlluminatiState, instance: str) -> Node | None:
    for p in st.seats_state:
        node = p.structure.get(instance)
        if node is not None:
            return node
    return None


def illuminati_name(st: IlluminatiState, seat: int) -> str | None:
    """The name of the Illuminati ``seat`` plays."""
    ill = st.player(seat).illuminati
    return None if ill is None else st.card(ill).name


def tally(st: IlluminatiState, attack: Attack) -> Tally:
    """Every term of both totals for ``attack`` as things stand."""
    result = Tally()
    result.attack += _attack_terms(st, attack)
    result.defence += _defence_terms(st, attack)
    for s in attack.attack_support:
        result.attack.append((_support_label(st, s.card, s.basis, s.seat), s.value))
    for s in attack.defence_support:
        result.defence.append((_support_label(st, s.card, s.basis, s.seat), s.value))
    return result


def _support_label(st: IlluminatiState, card: str, basis: str, seat: int) -> str:
    name = st.card(card).name
    words = {"power": "power (alignment)", "global": "global power", "adjacent":
             "power (adjacent)", "self": "power (target's own token)", "agent": "agent"}
    return f"{name} {words.get(basis, basis)} [seat {seat}]"


def _attack_terms(st: IlluminatiState, attack: Attack) -> list[tuple[str, int]]:
    attacker = st.card(attack.attacker)
    target = st.card(attack.target)
    if attack.power_kind == "global":
        terms = [(f"{attacker.name} global power", global_power_of(st, attack.attacker) or 0)]
    else:
        terms = [(f"{attacker.name} power", power_of(st, attack.attacker))]
    same = shared_pairs(attacker.alignments, target.alignments)
    opp = opposed_pairs(attacker.alignments, target.alignments)
    sign = 1 if attack.purpose == "control" else -1
    if same:
        terms.append((f"{same} shared alignment(s) (I2)", sign * ALIGNMENT_STEP * same))
    if opp:
        terms.append((f"{opp} opposed alignment(s) (I2)", -sign * ALIGNMENT_STEP * opp))
    defender = attack.target_seat
    if defender is not None and defender != attack.seat:
        mine, theirs = illuminati_name(st, attack.seat), illuminati_name(st, defender)
        if mine is not None and mine == theirs:
            terms.append(("same Illuminati as the target's", SAME_ILLUMINATI))
        if theirs in _agent_names(st, attack.seat):
            terms.append((f"agent of {theirs}", AGENT_BONUS))
    return terms


def _defence_terms(st: IlluminatiState, attack: Attack) -> list[tuple[str, int]]:
    target = st.card(attack.target)
    if attack.purpose == "control":
        terms = [(f"{target.name} resistance", resistance_of(st, attack.target))]
    else:
        terms = [(f"{target.name} power", power_of(st, attack.target))]
    defender = attack.target_seat
    if defender is None:
        return terms
    holder = st.player(defender)
    steps = depth(holder, attack.target)
    if steps in DEPTH_BONUS:
        where = "directly under" if steps == 1 else "two steps below"
        terms.append((f"{where} its Illuminati (I3)", DEPTH_BONUS[steps]))
    parent = holder.structure[attack.target].parent
    if attack.purpose == "control" and parent is not None:
        parent_card = st.card(parent)
        if any(shared(a, b) for a in target.alignments for b in parent_card.alignments):
            terms.append((f"shares an alignment with its parent {parent_card.name} (I3)",
                          PARENT_ALIGNMENT))
    if defender != attack.seat:
        attacker_ill = illuminati_name(st, attack.seat)
        if attacker_ill in _agent_names(st, defender):
            terms.append((f"agent of {attacker_ill}", AGENT_BONUS))
    return terms


def _agent_names(st: IlluminatiState, seat: int) -> set[str]:
    return {st.card(a).name for a in st.player(seat).agents
            if st.cards[card_of(a)].kind == Kind.ILLUMINATI}


def roll_2d6(chance: Chance, kind: str) -> int:
    """The sum of two six-sided dice, each recorded as a ``kind`` outcome (I4's attack roll,
    I10's turn-order roll)."""
    return chance.roll(kind, DIE_SIDES) + chance.roll(kind, DIE_SIDES)


def succeeds(achieved: int, roll: int) -> bool:
    """I4: a roll of 11 or 12 always fails; otherwise success iff achieved >= roll."""
    return roll < FUMBLE and achieved >= roll


def instant_succeeds(st: IlluminatiState, plot: str, target: str) -> bool:
    """I5: an instant attack succeeds iff the plot's printed power >= the target's printed
    power (no support, no dice)."""
    return st.card(plot).power >= st.card(target).power
