"""Readable renderings for people at a table (rich): a position as a board, a match's summary
with its score and who is to act, legal actions in words, card tables. Every reading command
prints these by default and JSON with ``--json``.

The board is drawn from the game's own view (what the viewer may see, never more): the header
says the game, the position, the turn and phase, who is to act or the result, and the score;
every zone follows as a tree, each card id or instance shown with its name. A game's view is
its zone table, so a new game renders on day one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from cli.words import card_label, result_text, scores_text, seat_name
from engine.core.contract import Ruleset
from engine.core.reasons import Reason

if TYPE_CHECKING:
    from rich.status import Status  # Console.status imports it when a spinner is shown

# keys every game's view has that the header already says (or that only scripts need)
_HEADER_KEYS = {"game", "players", "turn", "active", "eliminated", "options", "result",
                "scores", "viewer", "phase"}


def console() -> Console:
    """The console commands print to: plain text when the output is not a terminal (a pipe,
    a file, a test), at a width that keeps lines whole."""
    return Console(highlight=False, soft_wrap=False, width=110)


def status(what: str) -> Status:
    """A spinner on standard error while one long step runs (a terminal only)."""
    err = Console(stderr=True, quiet=not Console(stderr=True).is_terminal)
    return err.status(what)


def position(view: Mapping[str, Any], ruleset: Ruleset, names: Mapping[str, str],
             to_act: Sequence[int] = ()) -> Group:
    """A position as a board: the header, then every zone the viewer may see."""
    state = view["state"]
    players = state.get("players", [])
    lines = [Text(f"{ruleset.title} · match {view['match_id'][:8]} · position "
                  f"{view['position']} of {view['positions']} · as {view['viewer']}",
                  style="bold")]
    where = [f"Turn {state.get('turn')}"]
    if state.get("phase"):
        where.append(f"phase {state['phase']}")
    ended = result_text(state.get("result"), players)
    if ended:
        where.append(ended)
    elif to_act:
        where.append(" and ".join(seat_name(players, s) for s in to_act) + " to act")
    lines.append(Text(" · ".join(where)))
    score = scores_text(state.get("scores"), players)
    if score:
        lines.append(Text(score))
    board = Tree("Board", guide_style="dim")
    for key, value in state.items():
        if key not in _HEADER_KEYS:
            _branch(board, key, value, names, players)
    return Group(*lines, board)


def _branch(tree: Tree, key: str, value: Any, names: Mapping[str, str],
            players: Sequence[Any], in_list: bool = False) -> None:
    label = key if in_list else _key_label(key, players)
    if isinstance(value, Mapping):
        card = _card_line(value, names)
        if card is not None:
            node = tree.add(Text(f"{label}. {card}" if in_list else f"{label}: {card}"))
            for sub_key, sub_value in value.items():
                if isinstance(sub_value, Mapping) or (
                        isinstance(sub_value, list) and any(isinstance(v, Mapping | list)
                                                            for v in sub_value)):
                    _branch(node, str(sub_key), sub_value, names, players)
            return
        if not value:
            tree.add(Text(f"{label}: —"))
            return
        if len(value) <= 6 and all(_flat(v) for v in value.values()):
            parts = [f"{k.replace('_', ' ')} {_flat_text(v, names)}" for k, v in value.items()
                     if v is not None]
            tree.add(Text(f"{label}: " + " · ".join(parts)))
            return
        if in_list and isinstance(value.get("seat"), int):
            label = seat_name(players, value["seat"])
        node = tree.add(Text(label))
        for sub_key, sub_value in value.items():
            if not (in_list and sub_key == "seat"):
                _branch(node, str(sub_key), sub_value, names, players)
    elif isinstance(value, list):
        if all(not isinstance(v, Mapping | list) for v in value):
            shown = ", ".join(_scalar(v, names) for v in value) or "—"
            tree.add(Text(f"{label} ({len(value)}): {shown}" if value else f"{label}: —"))
        else:
            node = tree.add(Text(f"{label} ({len(value)})"))
            for i, item in enumerate(value, start=1):
                if item is None:
                    node.add(Text(f"{i}. empty"))
                else:
                    _branch(node, str(i), item, names, players, in_list=True)
    elif value is not None:
        tree.add(Text(f"{label}: {_scalar(value, names)}"))


def _flat(value: Any) -> bool:
    """A value that fits on a line: a scalar, or a list of scalars."""
    if isinstance(value, list):
        return all(not isinstance(v, Mapping | list) for v in value)
    return not isinstance(value, Mapping)


def _flat_text(value: Any, names: Mapping[str, str]) -> str:
    if isinstance(value, list):
        return ", ".join(_scalar(v, names) for v in value) if value else "—"
    return _scalar(value, names)


def _card_line(value: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    """A card as a view shows it (its id, under ``id`` or ``card``, and its printed fields) on
    one line: ``Zeta Skirmish Cutter [WGS-003] · colour red · cost 2``; None for anything that
    is not a card. Nested parts (a power structure's arrows) are left to the tree."""
    key = next((k for k in ("id", "card") if isinstance(value.get(k), str)), None)
    if key is None:
        return None
    card = str(value[key])
    head = card_label(card, names)
    if "name" in value and str(value["name"]) not in head:
        head = f"{value['name']} [{card}]"
    rest = [f"{k.replace('_', ' ')} {_cell(v) if isinstance(v, list) else _scalar(v, names)}"
            for k, v in value.items()
            if k not in (key, "name") and v not in (None, [], "") and not isinstance(v, Mapping)
            and not (isinstance(v, list) and any(isinstance(x, Mapping | list) for x in v))]
    return " · ".join([head, *rest])


def _key_label(key: str, players: Sequence[Any]) -> str:
    if key.isdigit() and 1 <= int(key) <= len(players):
        return seat_name(players, int(key))
    return key.replace("_", " ")


def _scalar(value: Any, names: Mapping[str, str]) -> str:
    if value is None:
        return "empty"
    if isinstance(value, str):
        return card_label(value, names)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def summary(data: Mapping[str, Any], ruleset: Ruleset) -> Group:
    """A match's summary: game, players, where it stands, the score and who is to act."""
    players = data["players"]
    lines = [Text(f"{ruleset.title} · match {data['match_id']}", style="bold"),
             Text("Players: " + ", ".join(f"{i}. {p}" for i, p in enumerate(players, 1)))]
    ended = result_text(data.get("result"), players)
    state = (ended or " and ".join(seat_name(players, s) for s in data.get("to_act", []))
             + " to act")
    lines.append(Text(f"Position {data['positions']} (version {data['version']}) · turn "
                      f"{data.get('turn')} · {state}"))
    score = scores_text(data.get("scores"), players)
    if score:
        lines.append(Text(score))
    labels = data.get("tournament")
    if labels:
        lines.append(Text(f"Tournament {labels['tournament']} · round {labels['round']} · "
                          f"table {labels['table']}"))
    lines.append(Text(f"Created {data['created_at'][:19]} by "
                      f"{_author(data.get('created_by'))} · replay policy "
                      f"{data['replay_policy']}"))
    lines.append(Text(f"Seed commitment {data['commitment']}"
                      + (f" · seed {data['seed']}" if data.get("seed") else "")))
    return Group(*lines)


def _author(recorded_by: Any) -> str:
    return str(recorded_by.get("name")) if isinstance(recorded_by, Mapping) else str(recorded_by)


def dispute(data: Mapping[str, Any]) -> Group:
    """A dispute for its judge: the claim and where, its state, the rulings, the events it
    concerns, what each seat knew, and the audit (the positions follow as boards)."""
    lines = [Text(f"Dispute {data['dispute_id']} · {data['status']}"
                  + (" · pausing the match" if data["pausing"] else ""), style="bold"),
             Text(f"Claim at position {data['position']} by {_author(data['opened_by'])}: "
                  f"{data['claim']}")]
    if data.get("judge"):
        lines.append(Text(f"Heard by {_author(data['judge'])}"))
    for ruling in data.get("rulings", []):
        lines.append(Text(f"Ruling{' on appeal' if ruling['on_appeal'] else ''} by "
                          f"{_author(ruling['by'])}: {ruling['decision']} "
                          f"({ruling['remedy'].get('kind')}): {ruling['reasoning']}"))
    if data.get("appeal"):
        lines.append(Text(f"Appealed by {_author(data['appeal']['by'])}: "
                          f"{data['appeal']['reason']}"))
    evidence = data["evidence"]
    for event in evidence["events"]:
        lines.append(Text(f"Event v{event['version']} {event['event']} by "
                          f"{_author(event['recorded_by'])} at {event['recorded_at'][:19]}"
                          + (f": {event['action']}" if event.get("action") else "")))
    for seat, known in evidence["knowledge"].items():
        cards = ", ".join(f"{k['name']} [{k['card']}]" for k in known) or "nothing hidden"
        lines.append(Text(f"{seat} knew: {cards}"))
    audit = evidence["audit"]
    lines.append(Text("Audit: ok" if audit.get("ok") else
                      f"Audit: FAILED {audit.get('failure')}"))
    return Group(*lines)


def legal(sentences: Sequence[str]) -> Table:
    """The legal actions, numbered, in words (the number is what ``match act`` takes)."""
    table = Table(show_header=True, header_style="bold", box=None)
    table.add_column("#", justify="right")
    table.add_column("action")
    for i, sentence in enumerate(sentences, start=1):
        table.add_row(str(i), Text(sentence))
    return table


def cards(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> Table:
    """A card table: one row a card, the given fields as columns."""
    table = Table(show_header=True, header_style="bold", box=None)
    for column in columns:
        table.add_column(column.replace("_", " "))
    for row in rows:
        table.add_row(*(Text(_cell(row.get(c))) for c in columns))
    return table


def reasons(sections: Mapping[str, Sequence[Reason]]) -> Group:
    """A game's reason codes: each section's heading, then its codes with what each means."""
    width = max((len(r.value) for members in sections.values() for r in members), default=0)
    parts: list[Text | Table] = []
    for section, members in sections.items():
        table = Table(show_header=False, box=None, padding=(0, 2, 0, 2))
        table.add_column("code", no_wrap=True, min_width=width)
        table.add_column("meaning")
        for reason in members:
            table.add_row(reason.value, reason.meaning)
        parts += [Text(section, style="bold"), table, Text("")]
    return Group(*parts[:-1])


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)
