"""A match with its annotations and variations as a readable, diffable text document, and
back (issue 13): the role PGN plays for chess.

    [Kiroku "study/1"]
    [Match "5d0c…"]
    [Game "worldgainer"]
    [Players "Ann; Ben"]
    [Viewer "seat:1"]
    [Result "*"]

    0. setup
    1. {"seat": 1, "type": "end_turn"}
      ; {"symbols": ["mistake"], "text": "too early", "visibility": "public", ...}
      ( {"name": "what if Ann attacks", "visibility": "public"}
        2. {"action": {...}, "outcomes": []}
        ( {"name": "deeper", "visibility": "private"}
          3. {"action": {...}, "outcomes": []}
        )
      )

One line per live action (``N.`` reaches live position N, as the viewer may see it), then the
annotations of that position (``;``) and the variations branching there (``(`` … ``)``, nested
like PGN's, with their own annotations), each the viewer may read: the one per-viewer filter
decides all of it. Importing a study adds its annotations and variations to the same match, as
the importing credential, after checking every one of them first (a refused one stores nothing
at all).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from engine.core.chance import SuppliedChance
from engine.core.contract import GameState, Ruleset
from engine.core.viewer import SPECTATOR
from engine.registry import get_game
from ledger.errors import ImportRejected
from ledger.identity import Identity
from ledger.match import Match
from replay import annotations as annotating
from replay import variations as lines
from replay.service import Kiroku, spectator_horizon

FORMAT = "study/1"
_HEADER = re.compile(r'^\[(\w+) "(.*)"\]$')
_MOVE = re.compile(r"^(\d+)\. (.+)$")


def export_study(kiroku: Kiroku, caller: Identity | None, match_id: UUID) -> str:
    """The study of a match as ``caller`` may see it."""
    match = kiroku.recorder.get_match(match_id)
    viewer = caller.viewer_of(match_id) if caller is not None else SPECTATOR
    by_version = {r["version"]: r for r in kiroku.records(match_id, viewer)}
    said = kiroku.sentences(match_id, viewer)
    notes = annotating.listing(kiroku, caller, match_id)
    variations = lines.listing(kiroku, caller, match_id)
    for v in variations:
        v["said"] = lines.sentences(kiroku, kiroku.variations.get(UUID(v["variation_id"])),
                                    viewer)
    result = match.result
    out = [f'[Kiroku "{FORMAT}"]', f'[Match "{match_id}"]', f'[Game "{match.game}"]',
           f'[Players "{"; ".join(match.players)}"]', f'[Viewer "{viewer}"]',
           f'[Result "{_result(result)}"]', ""]
    horizon = spectator_horizon(match, viewer)
    for position in range(len(match.live) + 1 if horizon is None else horizon + 1):
        if position == 0:
            out.append("0. setup")
        else:
            version = match.position_version(position)
            out.append(f"{position}. {_json(by_version[version]['action'])}"
                       + _comment(said.get(version)))
        out += [f"  ; {_json(_note(n))}" for n in notes if n["variation"] is None
                and n["position"] == position and not n["withdrawn"]]
        for v in variations:
            if v["parent"] is None and v["from_position"] == position:
                out += _variation(v, variations, notes, "  ")
    return "\n".join(out) + "\n"


def _result(result: dict[str, Any] | None) -> str:
    if not result:
        return "*"
    if result.get("drawn"):
        return f"drawn ({result.get('reason')})"
    winners = ",".join(str(s) for s in result.get("winners", []))
    return f"seat {winners} wins ({result.get('reason')})"


def _comment(sentence: str | None) -> str:
    """The action in words after the machine-readable part (ignored on import)."""
    return f"  # {' '.join(sentence.split())}" if sentence else ""


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _note(note: dict[str, Any]) -> dict[str, Any]:
    return {"text": note["text"], "symbols": [s["name"] for s in note["symbols"]],
            "highlights": note["highlights"], "arrows": note["arrows"],
            "visibility": note["visibility"], "author": note["author"].get("name")}


def _variation(v: dict[str, Any], every: list[dict[str, Any]], notes: list[dict[str, Any]],
               indent: str) -> list[str]:
    out = [f"{indent}( {_json({'name': v['name'], 'visibility': v['visibility']})}"]
    out += _notes_of(v, 0, notes, indent)
    out += _children(v, 0, every, notes, indent)
    start = v["from_position"] if v["parent"] is None else None
    for n, step in enumerate(v["line"], start=1):
        number = (start + n) if start is not None else n
        move = {"action": step["action"], "outcomes": step["outcomes"]}
        out.append(f"{indent}  {number}. {_json(move)}" + _comment(v["said"][n - 1]))
        out += _notes_of(v, n, notes, indent)
        out += _children(v, n, every, notes, indent)
    out.append(f"{indent})")
    return out


def _notes_of(v: dict[str, Any], position: int, notes: list[dict[str, Any]],
              indent: str) -> list[str]:
    return [f"{indent}    ; {_json(_note(n))}" for n in notes
            if n["variation"] == v["variation_id"] and n["position"] == position
            and not n["withdrawn"]]


def _children(v: dict[str, Any], position: int, every: list[dict[str, Any]],
              notes: list[dict[str, Any]], indent: str) -> list[str]:
    return [line for child in every if child["parent"] == v["variation_id"]
            and child["parent_position"] == position
            for line in _variation(child, every, notes, indent + "  ")]


def annotated_transcript(kiroku: Kiroku, caller: Identity | None,
                         match_id: UUID) -> list[str]:
    """The transcript as ``caller`` may see it, with the annotations it may read after the
    line of the position they annotate and, for the match's parties, each dispute after the
    event it was opened at and each ruling after the event its remedy reached."""
    match = kiroku.recorder.get_match(match_id)
    viewer = caller.viewer_of(match_id) if caller is not None else SPECTATOR
    after: dict[int, list[str]] = {}
    for note in annotating.listing(kiroku, caller, match_id):
        if note["variation"] is None and not note["withdrawn"] and note["position"] <= len(
                match.live):
            version = match.position_version(note["position"])
            after.setdefault(version, []).append("      ; " + annotating.line(note))
    if caller is not None and (caller.is_staff or caller.match_id == match_id):
        for dispute in kiroku.disputes.of_match(match_id):
            after.setdefault(dispute.match_version, []).append(
                f"      dispute {str(dispute.id)[:8]} opened by "
                f"{dispute.opened_by.get('name')}: {dispute.claim}")
            for ruling in dispute.rulings:
                at = int(ruling["applied"].get("version", match.version))
                after.setdefault(at, []).append(
                    f"      ruling on {str(dispute.id)[:8]} by {ruling['by'].get('name')}"
                    f"{' (appeal)' if ruling['on_appeal'] else ''}: {ruling['decision']} "
                    f"({ruling['applied']['kind']})")
    out = []
    for text in kiroku.transcript(match_id, viewer):
        out.append(text)
        head = _VERSION.match(text)
        if head:
            out += after.pop(int(head[1]), [])
    return out + [line for version in sorted(after) for line in after[version]]


_VERSION = re.compile(r"^v(\d+)\s")


@dataclass
class _Line:
    """A variation read from a study: where it branches and its moves."""

    name: str
    visibility: str
    position: int
    moves: list[dict[str, Any]] = field(default_factory=list)
    children: list[tuple[int, _Line]] = field(default_factory=list)
    notes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


@dataclass
class _Study:
    match_id: UUID
    notes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    variations: list[_Line] = field(default_factory=list)


def parse_study(text: str) -> _Study:
    """The annotations and variations of a study (ImportRejected for anything malformed)."""
    headers: dict[str, str] = {}
    body = text.splitlines()
    i = 0
    while i < len(body) and body[i].strip():
        found = _HEADER.match(body[i].strip())
        if not found:
            raise ImportRejected(f"line {i + 1}: a header is [Name \"value\"].")
        headers[found[1]] = found[2]
        i += 1
    if headers.get("Kiroku") != FORMAT or "Match" not in headers:
        raise ImportRejected(f'A study starts with [Kiroku "{FORMAT}"] and [Match "…"].')
    try:
        study = _Study(UUID(headers["Match"]))
    except ValueError:
        raise ImportRejected("The Match header is not a match id.") from None
    stack: list[_Line] = []
    position = -1
    for number, raw in enumerate(body[i:], start=i + 1):
        line = raw.strip()
        try:
            position = _read_line(line, study, stack, position)
        except (ValueError, KeyError, TypeError) as exc:
            raise ImportRejected(f"line {number}: {exc}") from None
    if stack:
        raise ImportRejected("A variation is not closed with ')'.")
    return study


def _read_line(line: str, study: _Study, stack: list[_Line], position: int) -> int:
    if not line:
        return position
    if line == ")":
        if not stack:
            raise ValueError("')' closes no variation")
        stack.pop()
        return position
    if line.startswith("( "):
        head = json.loads(line[2:])
        branch = _Line(str(head["name"]), str(head["visibility"]), position)
        if stack:
            stack[-1].children.append((len(stack[-1].moves), branch))
        else:
            study.variations.append(branch)
        stack.append(branch)
        return position
    if line.startswith("; "):
        note = dict(json.loads(line[2:]))
        if stack:
            stack[-1].notes.append((len(stack[-1].moves), note))
        else:
            study.notes.append((position, note))
        return position
    found = _MOVE.match(line)
    if not found:
        raise ValueError("expected 'N. …', '; …', '( …' or ')'")
    if stack:
        stack[-1].moves.append(dict(_leading_json(found[2])))
        return position
    return int(found[1])


def _leading_json(text: str) -> Any:
    """The JSON value a line starts with; what follows may only be a '#' comment."""
    if text.strip() == "setup":
        return {}
    value, end = json.JSONDecoder().raw_decode(text)
    rest = text[end:].strip()
    if rest and not rest.startswith("#"):
        raise ValueError("after the JSON only a '# comment' may follow")
    return value


def import_study(kiroku: Kiroku, caller: Identity, text: str) -> dict[str, Any]:
    """Add a study's annotations and variations to its match, as ``caller``; every one is
    checked before any is stored."""
    study = parse_study(text)
    match = kiroku.recorder.get_match(study.match_id)
    ruleset = get_game(match.game)
    for position, note in study.notes:
        annotating.check(kiroku, caller, match, position, str(note.get("text", "")),
                         note.get("symbols", []), note.get("highlights", []),
                         note.get("arrows", []), str(note.get("visibility")))
    for branch in study.variations:
        lines.may_branch(caller, match)
        if not 0 <= branch.position <= len(match.live):
            raise ImportRejected(f"A variation branches at position {branch.position}, "
                                 f"outside the match (0 to {len(match.live)}).")
        _check_line(ruleset, match, caller, kiroku.recorder.get_match(
            study.match_id, version=match.position_version(branch.position)).state, branch)
    for position, note in study.notes:
        annotating.add(kiroku, caller, study.match_id, position, str(note.get("text", "")),
                       note.get("symbols", []), note.get("highlights", []),
                       note.get("arrows", []), str(note.get("visibility")))
    made = [_store_line(kiroku, caller, study.match_id, branch, None)
            for branch in study.variations]
    return {"match_id": str(study.match_id),
            "annotations": len(study.notes) + sum(_notes_in(b) for b in study.variations),
            "variations": sum(made)}


def _notes_in(branch: _Line) -> int:
    return len(branch.notes) + sum(_notes_in(child) for _, child in branch.children)


def _check_line(ruleset: Ruleset, match: Match, caller: Identity, state: GameState,
                branch: _Line) -> None:
    """Every move of a line is legal where it stands, every annotation of it may be made, and
    so for the lines nested in it."""
    states = [state]
    for move in branch.moves:
        chance = SuppliedChance(move.get("outcomes") or [])
        state = ruleset.apply(state, ruleset.parse_action(move["action"]), chance)
        chance.finish()
        states.append(state)
    for at, note in branch.notes:
        annotating.check_content(str(note.get("text", "")), note.get("symbols", []),
                                 str(note.get("visibility")))
        annotating.check_marks(ruleset, match, states[at], caller.viewer_of(match.id),
                               str(note.get("visibility")), note.get("highlights", []),
                               note.get("arrows", []))
    for at, child in branch.children:
        _check_line(ruleset, match, caller, states[at], child)


def _store_line(kiroku: Kiroku, caller: Identity, match_id: UUID, branch: _Line,
                parent: tuple[UUID, int] | None) -> int:
    made = lines.start(kiroku, caller, match_id, branch.position if parent is None else None,
                       parent[0] if parent else None, parent[1] if parent else None,
                       branch.name, branch.visibility)
    variation = UUID(made["variation_id"])
    count = 1
    count += sum(_store_line(kiroku, caller, match_id, child, (variation, 0))
                 for at, child in branch.children if at == 0)
    for n, move in enumerate(branch.moves, start=1):
        lines.play(kiroku, caller, variation, move["action"], move.get("outcomes") or [])
        count += sum(_store_line(kiroku, caller, match_id, child, (variation, n))
                     for at, child in branch.children if at == n)
    for at, note in branch.notes:
        annotating.add(kiroku, caller, match_id, at, str(note.get("text", "")),
                       note.get("symbols", []), note.get("highlights", []),
                       note.get("arrows", []), str(note.get("visibility")), variation)
    return count
