"""Pokémon TOM (Tournament Operations Manager) ``.tdf`` files: the pairings of a round read, and
a round's results written back.

A ``.tdf`` is XML: ``<tournament>`` holds ``<players>`` (each ``<player userid="...">``, the
userid being the player's Pokémon ID, Kiroku's external id) and ``<pods>`` (one per age
division), each pod ``<rounds><round number="N"><matches><match outcome="...">``. A match seats
``<player1 userid>`` and ``<player2 userid>`` at ``<tablenumber>``; a bye, or a late entrant's
loss, names one ``<player userid>`` at table 0. Outcome codes: 0 not reported, 1 player1 won,
2 player2 won, 3 a tie, 4 and 5 a bye, 8 a late entrant's loss, 10 a double loss.

Sources: the structure and codes as documented and read by public TDF tools (a "TDF File
Parsing" reference in a Pokémon league manager, tcg-manager; a TypeScript TDF reader and writer
whose outcome table also lists 0, 4, 8 and 10; a JavaScript TDF match parser's tests). TOM
itself was not run here.

XML safety: a file declaring a DTD or an entity (``<!DOCTYPE``, ``<!ENTITY``) is refused before
it is parsed, so no entity can expand (the "billion laughs"); an undeclared entity is a parse
error; ``xml.etree`` resolves no external resource.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence

from replay.pairings.common import (
    MAX_FILE_ROWS,
    Claims,
    Pairing,
    PairingsFile,
    PairingsRejected,
    check_name,
    choose_round,
    round_number,
    table_number,
)
from replay.pairings.text import BOM, check_text, decode

BYE_OUTCOMES = frozenset({"4", "5"})
LATE_LOSS = "8"
WIN_1, WIN_2, TIE = "1", "2", "3"
_DTD = re.compile(r"<!\s*(doctype|entity)", re.IGNORECASE)
_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*\?>")
_HTML = re.compile(r"\A\s*(<!doctype\s+html|<html)", re.IGNORECASE)
_DECLARED_ENCODING = re.compile(r"(\A\s*<\?xml[^>]*?\sencoding\s*=\s*[\"'])[^\"']*([\"'])")
_UNPARSED = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>", re.DOTALL)
_MATCH_TAG = re.compile(r"<match(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s*/?>")
_ATTRIBUTE = re.compile(r"\s+([^\s=/>]+)\s*=\s*(\"[^\"]*\"|'[^']*')")


def read_tdf(text: str, wanted: int | None) -> PairingsFile:
    """The pairings of round ``wanted`` (or the latest) of a TOM tournament file."""
    root = tournament_root(text)
    rounds = _rounds(root)
    numbers = sorted({number for number, _, _ in rounds})
    if not numbers:
        raise PairingsRejected("the file has no pairings")
    chosen = choose_round(numbers, wanted)
    claims = Claims("matches")
    pairings: list[Pairing] = []
    unseated: list[str] = []
    for number, element, pod in rounds:
        if number != chosen:
            continue
        for index, match in enumerate(element.findall("matches/match"), 1):
            where = f"match {index} of round {number}{pod}"
            pairing = _pairing(where, match)
            if pairing is None:
                player = _userid(where, match.find("player"))
                claims.player(where, player)
                unseated.append(player)
            else:
                pairings.append(claims.pairing(where, pairing))
    if not pairings:
        raise PairingsRejected(f"round {chosen} of the file has no pairings")
    return PairingsFile("tom", numbers, chosen, pairings, unseated)


def tdf_results(tdf: str | bytes, rows: Sequence[Mapping[str, object]], *, round: int) -> str:
    """The TOM file ``tdf`` with the outcome of round ``round``'s matches set from ``rows``.

    ``rows`` are Kiroku's results rows, one per player (``table``, ``external_id``,
    ``result`` W, L, D or BYE; rows whose ``round`` is another round, and byes, are passed
    over). ``tdf`` is the file as uploaded (bytes, decoded as ``read_pairings`` does) or its
    text. A win and a loss give outcome 1 or 2, two draws 3; byes keep theirs; a match with no
    row keeps its outcome. The file's players must be the rows' external ids, table by table;
    a table the round does not have is refused. The text returned is the file's own text with
    only those ``outcome`` attributes changed (and an XML declaration naming another encoding
    made to name UTF-8): encode it as UTF-8.
    """
    text = decode(tdf) if isinstance(tdf, bytes) else _checked(tdf)
    root = tournament_root(text)
    order = {id(match): index for index, match in enumerate(root.iter("match"))}
    changes: dict[int, str] = {}  # the index of a <match> in the document -> its outcome
    rounds = _rounds(root)
    choose_round(sorted({number for number, _, _ in rounds}), round)
    results = _results_by_table(rows, round)
    seen: set[int] = set()
    for number, element, pod in rounds:
        if number != round:
            continue
        for index, match in enumerate(element.findall("matches/match"), 1):
            if match.find("player") is not None:
                continue
            where = f"match {index} of round {round}{pod}"
            table = table_number(where, match.findtext("tablenumber") or "")
            if table in results:
                seen.add(table)
                seats = [_userid(where, match.find(tag)) for tag in ("player1", "player2")]
                changes[order[id(match)]] = _outcome(table, seats, results[table])
    missing = sorted(set(results) - seen)
    if missing:
        raise PairingsRejected(
            f"the results name table {missing[0]}, which round {round} of the file does not"
            " have")
    return _with_outcomes(_DECLARED_ENCODING.sub(r"\1UTF-8\2", text, count=1), changes,
                          len(order))


def _with_outcomes(text: str, changes: Mapping[int, str], count: int) -> str:
    """``text`` with the outcome of its ``<match>`` start tags number ``changes`` (in document
    order, counting from 0) set; the tags are found in the text itself, outside comments,
    CDATA sections and processing instructions, and must be ``count``, as parsed."""
    unparsed = [found.span() for found in _UNPARSED.finditer(text)]
    starts = [start for start, _ in unparsed]
    tags = [tag for tag in _MATCH_TAG.finditer(text)
            if not _inside(tag.start(), unparsed, starts)]
    if len(tags) != count:
        raise PairingsRejected(
            f"the file's {count} <match> elements could not be found in its text (found"
            f" {len(tags)}); it cannot be written back")
    pieces: list[str] = []
    end = 0
    for index in sorted(changes):
        tag = tags[index]
        pieces += [text[end:tag.start()], _set_outcome(tag.group(), changes[index])]
        end = tag.end()
    return "".join([*pieces, text[end:]])


def _inside(position: int, spans: Sequence[tuple[int, int]], starts: Sequence[int]) -> bool:
    """Whether ``position`` falls within one of the sorted, disjoint ``spans``."""
    at = bisect_right(starts, position) - 1
    return at >= 0 and spans[at][0] <= position < spans[at][1]


def _set_outcome(tag: str, outcome: str) -> str:
    """A ``<match ...>`` start tag with its outcome attribute set (added if it had none)."""
    for attribute in _ATTRIBUTE.finditer(tag):
        if attribute.group(1) == "outcome":
            start, end = attribute.span(2)
            return f"{tag[:start + 1]}{outcome}{tag[end - 1:]}"
    return f'<match outcome="{outcome}"{tag[len("<match"):]}'


def _checked(text: str) -> str:
    """A text given as such: within the limits, free of control characters, no BOM."""
    check_text(text)
    return text.removeprefix(BOM)


def tournament_root(text: str) -> ET.Element:
    """The ``<tournament>`` element of a TOM file, parsed without any DTD."""
    if _HTML.match(text):
        raise PairingsRejected(
            "the file is a web page (HTML), not a pairings export; export the pairings as CSV,"
            " or the TOM file (.tdf)")
    if _DTD.search(text):
        raise PairingsRejected(
            "the XML file declares a DTD or entities (<!DOCTYPE or <!ENTITY); Kiroku reads XML"
            " without them, so that no entity can expand")
    try:
        root = ET.fromstring(_DECLARATION.sub("", text, count=1))
    except ET.ParseError as exc:
        raise PairingsRejected(f"not a valid XML file ({exc})") from None
    if root.tag != "tournament":
        raise PairingsRejected(
            f"an XML file, but not a TOM tournament file (.tdf): its root is <{root.tag}>,"
            " not <tournament>")
    return root


def _rounds(root: ET.Element) -> list[tuple[int, ET.Element, str]]:
    """Every ``<round>`` of every pod with its number and, when the file has several pods
    (age divisions), " of pod N" naming its pod; in file order; the matches counted."""
    found: list[tuple[int, ET.Element, str]] = []
    matches = 0
    pods = root.findall("pods/pod")
    for pod_index, pod in enumerate(pods, 1):
        label = f" of pod {pod_index}" if len(pods) > 1 else ""
        for index, element in enumerate(pod.findall("rounds/round"), 1):
            where = f"round element {index} of pod {pod_index}"
            found.append((round_number(where, element.get("number", "")), element, label))
            matches += len(element.findall("matches/match"))
            if matches > MAX_FILE_ROWS:
                raise PairingsRejected(f"{where}: more than {MAX_FILE_ROWS} matches")
    return found


def _pairing(where: str, match: ET.Element) -> Pairing | None:
    """A match as a pairing: a table of two, or a bye; None for a late entrant's loss."""
    outcome = match.get("outcome", "").strip()
    single = match.find("player")
    if single is not None:
        if outcome in BYE_OUTCOMES:
            return Pairing(None, (_userid(where, single),))
        if outcome == LATE_LOSS:
            return None
        raise PairingsRejected(
            f"{where}: one player with outcome {outcome!r}, neither a bye (4, 5) nor a late"
            " entrant's loss (8)")
    seats = [match.find(tag) for tag in ("player1", "player2")]
    if any(seat is None for seat in seats):
        raise PairingsRejected(
            f"{where}: a match names <player1> and <player2> (a bye, one <player>)")
    players = tuple(_userid(where, seat) for seat in seats)
    return Pairing(table_number(where, match.findtext("tablenumber") or ""), players)


def _userid(where: str, element: ET.Element | None) -> str:
    """The ``userid`` attribute of a player element: the player's Pokémon ID."""
    userid = check_name(where, "" if element is None else element.get("userid", ""))
    if not userid:
        raise PairingsRejected(f"{where}: a player without a userid")
    return userid


def _results_by_table(rows: Sequence[Mapping[str, object]],
                      round: int) -> dict[int, dict[str, str]]:
    """The rows of round ``round`` at a table, as {table: {external id: W, L or D}}."""
    tables: dict[int, dict[str, str]] = {}
    for row in _rows_of(rows, round):
        table = row.get("table")
        letter = str(row.get("result") or "").strip().upper()
        if table is None or table == "" or letter == "BYE":
            continue
        if letter not in ("W", "L", "D"):
            raise PairingsRejected(f"table {table}: result {letter!r} is not W, L, D or BYE")
        number = table_number(f"table {table}", str(table))
        tables.setdefault(number, {})[str(row.get("external_id") or "").strip()] = letter
    return tables


def _rows_of(rows: Sequence[Mapping[str, object]], round: int) -> Iterator[Mapping[str, object]]:
    """The rows of round ``round`` (a row without a round is taken to be of it)."""
    for row in rows:
        number = row.get("round")
        if number is None or number == "" or str(number).strip() == str(round):
            yield row


def _outcome(table: int, seats: Sequence[str], letters: Mapping[str, str]) -> str:
    """TOM's outcome code for the two seats' letters: 1, 2 or 3."""
    if set(letters) != set(seats):
        named = ", ".join(repr(p) for p in sorted(letters))
        raise PairingsRejected(
            f"table {table}: the results name {named} but the file seats {seats[0]!r} and"
            f" {seats[1]!r}")
    pair = (letters[seats[0]], letters[seats[1]])
    codes = {("W", "L"): WIN_1, ("L", "W"): WIN_2, ("D", "D"): TIE}
    if pair not in codes:
        raise PairingsRejected(
            f"table {table}: results {pair[0]} and {pair[1]} are neither a win and a loss nor"
            " a draw")
    return codes[pair]
