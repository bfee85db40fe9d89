"""Power structures (権力構造図, 支配矢印について): a tree of control arrows under an Illuminati.

Every group hangs from one outgoing arrow of its parent by its own incoming arrow. The document
lays cards out flat but describes the structure as a pyramid ("概念としてはピラミッド"), so only the
arrows are checked, never whether two cards would overlap on a table.
"""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.illuminati.model import SIDES, IlluminatiState, Node, Player, Side
from engine.illuminati.reasons import IlluminatiReason as R


def children(player: Player, card: str) -> dict[Side, str]:
    """The cards hanging from ``card``'s arrows, by side."""
    return {n.arrow: n.card for n in player.structure.values()
            if n.parent == card and n.arrow is not None}


def free_arrows(st: IlluminatiState, player: Player, card: str) -> list[Side]:
    """The outgoing arrows of ``card`` with nothing hanging from them, in side order."""
    taken = children(player, card)
    arrows = st.card(card).arrows
    return [s for s in SIDES if s in arrows and s not in taken]


def taken_arrows(player: Player) -> dict[str, set[Side]]:
    """The outgoing arrows of every card that something hangs from (cards with none are left
    out): ``free_arrows`` for the whole structure in one pass."""
    taken: dict[str, set[Side]] = {}
    for n in player.structure.values():
        if n.parent is not None and n.arrow is not None:
            taken.setdefault(n.parent, set()).add(n.arrow)
    return taken


def free_spots(st: IlluminatiState, player: Player) -> list[tuple[str, Side]]:
    """Every card of the structure with a free outgoing arrow, and its first free one, in
    structure order."""
    taken = taken_arrows(player)
    spots: list[tuple[str, Side]] = []
    for card in player.structure:
        used = taken.get(card, ())
        arrows = st.card(card).arrows
        for side in SIDES:
            if side in arrows and side not in used:
                spots.append((card, side))
                break
    return spots


def depth(player: Player, card: str) -> int:
    """Steps below the Illuminati: 1 for a child of the Illuminati, 2 for a grandchild."""
    steps = 0
    node = player.structure[card]
    while node.parent is not None:
        steps += 1
        node = player.structure[node.parent]
    return steps


def subtree(player: Player, card: str) -> list[str]:
    """``card`` and every card below it, parents before children."""
    found = [card]
    i = 0
    while i < len(found):
        found += sorted(n.card for n in player.structure.values() if n.parent == found[i])
        i += 1
    return found


def below(player: Player) -> dict[str, set[str]]:
    """Each card of the structure with the cards below it (``subtree`` as sets, all at once):
    one pass over the structure, then each card's children."""
    kids: dict[str, list[str]] = {}
    for n in player.structure.values():
        if n.parent is not None:
            kids.setdefault(n.parent, []).append(n.card)
    out: dict[str, set[str]] = {}
    for card in player.structure:
        found, todo = {card}, [card]
        while todo:
            for child in kids.get(todo.pop(), ()):
                if child not in found:
                    found.add(child)
                    todo.append(child)
        out[card] = found
    return out


def groups_in(player: Player) -> list[str]:
    """The groups of the power structure (I1 counts these; the Illuminati is not counted)."""
    return [c for c, n in player.structure.items() if n.parent is not None]


def holder_of(st: IlluminatiState, instance: str) -> int | None:
    """The seat whose power structure holds ``instance``, if any."""
    for seat in st.seats():
        if instance in st.player(seat).structure:
            return seat
    return None


def has_groups(player: Player) -> bool:
    """Whether the power structure holds a group (I8: a player without one is out)."""
    for n in player.structure.values():
        if n.parent is not None:
            return True
    return False


def names_on_table(st: IlluminatiState) -> set[str]:
    """Names of every group in a structure or placed loose: groups are unique on the table."""
    names: set[str] = set()
    for seat in st.seats():
        p = st.player(seat)
        for card, node in p.structure.items():
            if node.parent is not None:
                names.add(st.card(card).name)
        for card in p.loose:
            names.add(st.card(card).name)
    return names


def resolve_arrow(st: IlluminatiState, player: Player, parent: str, arrow: Side | None) -> Side:
    """The arrow of ``parent`` a new child hangs from, or IllegalAction if none is free."""
    free = free_arrows(st, player, parent)
    name = st.card(parent).name
    if arrow is None:
        if not free:
            raise IllegalAction(R.NO_FREE_ARROW, f"{name} has no free control arrow.")
        return free[0]
    if arrow not in st.card(parent).arrows:
        raise IllegalAction(R.NO_SUCH_ARROW, f"{name} has no outgoing control arrow on its "
                            f"{arrow} side.")
    if arrow not in free:
        raise IllegalAction(R.ARROW_TAKEN, f"The {arrow} arrow of {name} already controls "
                            f"{st.card(children(player, parent)[arrow]).name}.")
    return arrow


def place_group(st: IlluminatiState, seat: int, card: str, parent: str,
                arrow: Side | None) -> None:
    """A group into ``seat``'s structure at a free arrow; groups are unique on the table."""
    if st.card(card).name in names_on_table(st):
        raise IllegalAction(R.GROUP_ON_TABLE, f"{st.card(card).name} is already on the table; "
                            "groups are unique.")
    p = st.player(seat)
    side = resolve_arrow(st, p, parent, arrow)
    p.structure[card] = Node(card=card, parent=parent, arrow=side)


def attach(player: Player, cards: list[str], nodes: dict[str, Node], parent: str,
           arrow: Side) -> None:
    """Hang ``cards`` (a subtree, root first, with their old nodes) under ``parent``, keeping
    their inner arrows and dropping every token (a controlled group arrives without tokens)."""
    root = cards[0]
    for card in cards:
        old = nodes[card]
        player.structure[card] = Node(
            card=card, parent=parent if card == root else old.parent,
            arrow=arrow if card == root else old.arrow, tokens=0,
            power_mod=old.power_mod, resistance_mod=old.resistance_mod)


def detach(player: Player, card: str) -> tuple[list[str], dict[str, Node]]:
    """Take ``card`` and its subtree out of the structure; returns them and their nodes."""
    cards = subtree(player, card)
    nodes = {c: player.structure.pop(c) for c in cards}
    return cards, nodes
