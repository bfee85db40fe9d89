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
from engine.core.viewer import Viewer
from engine.registry import get_game
from ledger.errors import ImportRejected
from ledger.identity import Identity
from ledger.match import Match
from replay import annotations as annotating
from replay import variations as lines
from replay.audience import Audience
from replay.service import Kiroku

FORMAT = "study/1"
_HEADER = re.compile(r'^\[(\w+) "(.*)"\]$')
_MOVE = re.compile(r"^(\d+)\. (.+)$")


def export_study(kiroku: Kiroku, audience: Audience) -> str:
    """The study of a match as the audience may see it."""
    match = audience.match
    by_version = {r["version"]: r for r in kiroku.records(audience)}
    said = kiroku.sentences(audience)
    notes = annotating.listing(kiroku, audience)
    variations = lines.listing(kiroku, audience)
    for v in variations:
        v["said"] = lines.sentences(kiroku, kiroku.variations.get(UUID(v["variation_id"])),
                                    audience)
    result = match.result
    out = [f'[Kiroku "{FORMAT}"]', f'[Match "{match.id}"]', f'[Game "{match.game}"]',
           f'[Players "{"; ".join(match.players)}"]', f'[Viewer "{audience.viewer}"]',
           f'[Result "{_result(result)}"]', ""]
    for position in range(audience.positions + 1):
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


def annotated_transcript(kiroku: Kiroku, audience: Audience) -> list[str]:
    """The transcript as the audience may see it, with the annotations it may read after the
    line of the position they annotate and, for the match's parties reading as themselves,
    each dispute after the event it was opened at and each ruling after the event its remedy
    reached; nothing past its horizon."""
    match = audience.match
    after: dict[int, list[str]] = {}
    for note in annotating.listing(kiroku, audience):
        if note["variation"] is None and not note["withdrawn"] and note["position"] <= \
                audience.positions:
            version = match.position_version(note["position"])
            after.setdefault(version, []).append("      ; " + annotating.line(note))
    if audience.is_party and not audience.narrowed:
        for dispute in kiroku.disputes.of_match(match.id):
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
    for text in kiroku.transcript(audience):
        out.append(text)
        head = _VERSION.match(text)
        if head:
            out += after.pop(int(head[1]), [])
    return out + [line for version in sorted(after) if audience.sees_event(version)
                  for line in after[version]]


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
    """Add a study's annotations and variations to its match, as ``caller`` (one who writes
    beside that match: ``Audience.writer``); every one is checked before any is stored."""
    study = parse_study(text)
    audience = kiroku.audience(study.match_id, caller)
    caller = audience.writer("Importing a study")
    match = audience.match
    ruleset = get_game(match.game)
    for position, note in study.notes:
        annotating.check(kiroku, audience, position, str(note.get("text", "")),
                         note.get("symbols", []), note.get("highlights", []),
                         note.get("arrows", []), str(note.get("visibility")))
    for branch in study.variations:
        lines.may_branch(caller, match)
        if not 0 <= branch.position <= len(match.live):
            raise ImportRejected(f"A variation branches at position {branch.position}, "
                                 f"outside the match (0 to {len(match.live)}).")
        _check_line(ruleset, match, audience.seen_as, kiroku.recorder.get_match(
            study.match_id, version=match.position_version(branch.position)).state, branch)
    for position, note in study.notes:
        annotating.add(kiroku, audience, position, str(note.get("text", "")),
                       note.get("symbols", []), note.get("highlights", []),
                       note.get("arrows", []), str(note.get("visibility")))
    made = [_store_line(kiroku, audience, branch, None) for branch in study.variations]
    return {"match_id": str(study.match_id),
            "annotations": len(study.notes) + sum(_notes_in(b) for b in study.variations),
            "variations": sum(made)}


def _notes_in(branch: _Line) -> int:
    return len(branch.notes) + sum(_notes_in(child) for _, child in branch.children)


def _check_line(ruleset: Ruleset, match: Match, seen_as: Viewer, state: GameState,
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
        annotating.check_marks(ruleset, match, states[at], seen_as,
                               str(note.get("visibility")), note.get("highlights", []),
                               note.get("arrows", []))
    for at, child in branch.children:
        _check_line(ruleset, match, seen_as, states[at], child)


def _store_line(kiroku: Kiroku, audience: Audience, branch: _Line,
                parent: tuple[UUID, int] | None) -> int:
    made = lines.start(kiroku, audience, branch.position if parent is None else None,
                       parent[0] if parent else None, parent[1] if parent else None,
                       branch.name, branch.visibility)
    variation = UUID(made["variation_id"])
    caller = audience.writer("Importing a study")
    count = 1
    count += sum(_store_line(kiroku, audience, child, (variation, 0))
                 for at, child in branch.children if at == 0)
    for n, move in enumerate(branch.moves, start=1):
        lines.play(kiroku, caller, variation, move["action"], move.get("outcomes") or [])
        count += sum(_store_line(kiroku, audience, child, (variation, n))
                     for at, child in branch.children if at == n)
    for at, note in branch.notes:
        annotating.add(kiroku, audience, at, str(note.get("text", "")),
                       note.get("symbols", []), note.get("highlights", []),
                       note.get("arrows", []), str(note.get("visibility")), variation)
    return count
