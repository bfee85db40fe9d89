"""One entry for every pairings file: decode the bytes, tell the format from the content (the
file name's extension as a hint), read the round asked for."""

from __future__ import annotations

from pathlib import PurePath

from replay.pairings.common import Pairing, PairingsFile, PairingsRejected
from replay.pairings.csv_files import read_csv
from replay.pairings.limitless import read_limitless
from replay.pairings.text import BOM, check_text, decode
from replay.pairings.tom import read_tdf

_XML_SUFFIXES = frozenset({".tdf", ".xml"})
_JSON_SUFFIXES = frozenset({".json"})


def read_pairings(data: bytes, *, round: int | None = None,
                  filename: str | None = None) -> PairingsFile:
    """The pairings of round ``round`` (default: the latest the file holds) of an uploaded file.

    The bytes are decoded (UTF-8, UTF-16 with a byte-order mark, Windows-1252); a text starting
    with ``<`` is read as a TOM ``.tdf``, one starting with ``[`` or ``{`` as Limitless JSON,
    anything else as CSV. A ``.tdf``/``.xml`` or ``.json`` ``filename`` whose content does not
    start that way is refused. Every failure is ``PairingsRejected`` with a sentence.
    """
    return read_text(decode(data), round=round, filename=filename)


def read_text(text: str, *, round: int | None = None,
              filename: str | None = None) -> PairingsFile:
    """``read_pairings`` for a text already decoded."""
    check_text(text)
    text = text.removeprefix(BOM)
    start = text.lstrip()[:1]
    suffix = PurePath(filename).suffix.casefold() if filename else ""
    if start == "<":
        return read_tdf(text, round)
    if start in ("[", "{"):
        return read_limitless(text, round)
    if suffix in _XML_SUFFIXES:
        raise PairingsRejected(
            f"the file is named {filename!r} but is not XML: a TOM file (.tdf) starts with"
            " <?xml or <tournament")
    if suffix in _JSON_SUFFIXES:
        raise PairingsRejected(
            f"the file is named {filename!r} but is not JSON: Limitless pairings start with [")
    return read_csv(text, round)


def parse_pairings(text: str) -> list[Pairing]:
    """The pairings of a pairings file's text, its latest round if it holds several;
    ``PairingsRejected`` when unreadable (what Kiroku's callers used before ``read_pairings``).
    """
    return read_text(text).pairings
