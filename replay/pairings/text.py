"""The bytes of an uploaded file as text: UTF-8 (with or without a byte-order mark), UTF-16 with
a byte-order mark, or Windows-1252 (what Excel writes as "CSV" on a Western Windows), else a
refusal that says so; never a traceback.

Order: a UTF-8 or UTF-16 byte-order mark decides; without one, a NUL byte means binary (or
UTF-16 without a mark) and is refused; then strict UTF-8; then strict Windows-1252, kept only
when it yields no control character. Every text, however decoded, is refused if it holds a
control character other than tab, line feed and carriage return.
"""

from __future__ import annotations

import codecs
import re

from replay.pairings.common import MAX_PAIRINGS_BYTES, PairingsRejected

BOM = "\ufeff"
MAX_RAW_BYTES = 4 * MAX_PAIRINGS_BYTES  # UTF-16 doubles a text; nothing larger is decoded
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_NOT_TEXT = "the file is not text in UTF-8, UTF-16 or Windows-1252"
_SAVE_AGAIN = "save it again as CSV UTF-8"


def decode(data: bytes) -> str:
    """The text of ``data`` (byte-order mark removed), or ``PairingsRejected`` saying why not."""
    if len(data) > MAX_RAW_BYTES:
        raise PairingsRejected(f"the file is larger than {MAX_PAIRINGS_BYTES} characters")
    if data.startswith(codecs.BOM_UTF8):
        text = _strict(data[len(codecs.BOM_UTF8):], "utf-8", "UTF-8")
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _strict(data, "utf-16", "UTF-16")
    elif b"\x00" in data:
        raise PairingsRejected(
            f"{_NOT_TEXT}: it holds NUL bytes (byte {data.index(0)}), so it is binary, or UTF-16"
            f" without a byte-order mark; {_SAVE_AGAIN}")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = _windows_1252(data)
    check_text(text)
    return text.removeprefix(BOM)


def check_text(text: str) -> None:
    """A decoded text within the size limit and free of control characters."""
    if len(text) > MAX_PAIRINGS_BYTES:
        raise PairingsRejected(f"the file is larger than {MAX_PAIRINGS_BYTES} characters")
    found = _CONTROL.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise PairingsRejected(
            f"line {line}: the file holds a control character (U+{ord(found.group()):04X}),"
            " so it is not a text file")


def _strict(data: bytes, codec: str, name: str) -> str:
    """``data`` decoded by ``codec`` with no replacement, or a refusal naming the byte."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        raise PairingsRejected(
            f"{_NOT_TEXT}: it starts like {name} but byte {exc.start} is not {name};"
            f" {_SAVE_AGAIN}") from None


def _windows_1252(data: bytes) -> str:
    """``data`` as Windows-1252 when that gives text, else the refusal for a file not text."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise PairingsRejected(
            f"{_NOT_TEXT}: byte {exc.start} (0x{data[exc.start]:02X}) is none of them;"
            f" {_SAVE_AGAIN}") from None
    found = _CONTROL.search(text)
    if found is not None:
        raise PairingsRejected(
            f"{_NOT_TEXT}: byte {found.start()} (0x{data[found.start()]:02X}) is a control"
            f" character; {_SAVE_AGAIN}")
    return text
