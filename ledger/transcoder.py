"""msgpack storage encoding for eventsourcing (a custom Transcoder).

Every stored record starts with one format byte so the encoding can evolve: a reader meeting an
unknown format byte fails loudly instead of misreading. Extension types keep UUIDs, datetimes,
tuples and engine states exact.

- Format 1: msgpack.
- Format 2 (written since issue 16): the same msgpack, with hashes and times in their binary
  form, compressed with raw deflate against a fixed dictionary of the events' own words
  (``DICTIONARY``). Each change is exactly reversible: a string is stored in binary form
  only if it reads back identical, so what is decoded, hashed and audited is what format 1
  gave.
- Format 3 (written since the eighth part of issue 16): format 2, with every map whose keys are
  one of ``SHAPES``, in that order, stored as an array of its shape's mark (an extension type
  holding the shape's index) and its values (a stored action no longer spells its field
  names: 30 of a World Gainer action's 223 bytes), and a match event's commitments possibly
  stored as the segment of the seed that derives them and a check (ledger.mapper). A reader
  of formats 1 and 2 refuses it instead of misreading either.
- Formats 4 and 5 (written since the fourteenth part of issue 16): format 3's msgpack with
  every string that is one of ``WORDS`` (a value or a map's key) stored as an extension type
  holding its index in that list, one byte. A record whose msgpack is shorter than
  ``DEFLATE_FROM`` bytes is stored so (format 4), a longer one deflated against the
  dictionary as format 3 is (format 5). Most records are small actions, which the words
  alone make as small as deflate made them (deflate's fixed cost for each record was a
  tenth of recording an action's CPU, and inflating one a tenth of reading it); a match's
  creation and its snapshots are long and still deflated. A reader of formats 1 to 3
  refuses them instead of misreading.
- Format 6 (written since issue 43): a match's creation of a shipped game, format 5's msgpack
  deflated against that game's own dictionary (``CREATION_DICTIONARIES``: ``DICTIONARY``
  then the msgpack of the game's sample card set, as it stood at issue 43), its index after
  the format byte. A creation holds its decks and the definitions of their cards, which
  repeat the sample set's: 1.8-7.3 KB in format 5, 0.65-1.3 KB so, and on a short match a
  tenth to a fifth of the file. A reader of formats 1 to 5 refuses it instead of misreading.
  Since later in issue 43 a match's snapshots are written so too (the position's cards are
  the sample set's: an Illuminati snapshot 1.2 KB instead of 2.0): the same format, so any
  reader of format 6 reads them.
- Formats 7, 8 and 9 (written since the twenty-eighth round of issue 43): formats 4, 5 and 6
  with a credential's id (a UUID's text), a position's digest and a recording time in their
  shortest exact binary forms, who recorded (``recorded_by``: a credential's id, name and
  role) as a shaped map (``TERSE_SHAPES``), and the roles that record as words
  (``TERSE_WORDS``). Every event recorded through a credential names it so: a seat's World
  Gainer action was 202 bytes in format 4, 65 of them its ``recorded_by``, and is 169 in
  format 7 (a scorekeeper's 42 bytes shorter, its role now a word). Each change is exactly
  reversible, as format 2's are. A reader of formats 1 to 6 refuses them instead of
  misreading.

Every format is read, so a store keeps its older records as they were.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
import zlib
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from functools import cache, partial
from pathlib import Path
from typing import Any, cast

import msgpack
from eventsourcing.persistence import Transcoder

import engine
from engine.core.contract import GameState
from engine.registry import get_game

PLAIN, COMPACT, SHAPED, WORDED, WORDED_DEFLATED, CREATION_DEFLATED = 1, 2, 3, 4, 5, 6
TERSE, TERSE_DEFLATED, TERSE_CREATION = 7, 8, 9  # formats 4, 5 and 6 with format 7's forms
FORMAT = TERSE  # what is written (from DEFLATE_FROM bytes on: formats 8 and 9)
READ = (PLAIN, COMPACT, SHAPED, WORDED, WORDED_DEFLATED, CREATION_DEFLATED, TERSE,
        TERSE_DEFLATED, TERSE_CREATION)
_UUID, _DATETIME, _TUPLE, _STATE, _HEX, _INSTANT, _TIME, _SHAPE, _WORD = 1, 2, 3, 4, 5, 6, 7, 8, 9
# format 7's: a UUID's canonical text, a ``recorded_at`` text as microseconds since 1970, and
# from 16 on a digest whose label is the one at (its code - 16) in ``HEX_LABELS``
_UUID_TEXT, _MICROS_TEXT, _LABELLED_HEX = 10, 11, 16
# the labels format 7 stores a digest without: a position's digest names its format, ``pN:``
# (``Ruleset.position_format``: 1 for every game today). Never reorder: a label's code is its
# index here plus 16; a reader meeting a code it does not know refuses the record
HEX_LABELS = tuple(f"p{n}:" for n in range(1, 10))
# The fields of a record a reader wants (``MsgpackTranscoder.decode_fields``): by name, None for
# the whole value, or the fields it wants of a map within
Wanted = Mapping[str, "Wanted | None"]

# The words format 2 is compressed against: event fields and the five games' action and
# outcome vocabulary, taken from recorded matches of every game, the most frequent last
# (deflate reaches the end of its dictionary most cheaply). Format 2 records can only be read
# with exactly these bytes, and formats 4 and 5 store each word as its index here: never
# change this list; a better one is a new format.
WORDS = (
    "organizer", "judge", "head_judge", "table", "action.move.card", "outcomes.0.value", "name",
    "deck_out", "concede", "turn", "hand", "to_seat", "from_seat", "pass_battle", "keep_hand",
    "declare_victory", "to_zone", "play_force", "equip_option", "hidden", "teleport_unit",
    "mulligan", "seqs", "ap_card", "choose_group", "from_zone", "draw_card", "count", "top",
    "renew_deck", "adjust", "gear", "valor", "reveal_illuminati", "choose_illuminati",
    "place_resource", "counter", "discard_to_limit", "reveal_groups", "turn_limit", "left",
    "rewards", "drawn", "agent", "losers", "detail", "heal", "winners", "set_territory", "stun",
    "shift_gear", "host", "instant_attack", "mode", "discard_stun", "gain", "champion",
    "summon_unit", "move_unit", "field", "attach", "crank_character", "reason", "answer_honour",
    "payment", "defender", "accept", "bottom", "discard_unplayable", "link", "cards",
    "challenge_honour", "end_action_phase", "slot", "play_combat_action", "attach_card",
    "claim", "answer_surrender", "exhaust_stun", "declare_attack", "resolve_combat",
    "place_domain", "challenge_mortal", "challenger", "draw_group", "take_quest_reward",
    "begin_main", "play_plot", "move", "play_whammy", "right", "group", "request_surrender",
    "draw_plot", "refresh_quest", "place_permanent", "file", "rank", "attempt_quest", "armour",
    "finish_combat", "unpaid", "quest", "auto_control", "pay", "global", "place_character",
    "deploy_warrior", "warrior", "defend", "character", "plot_draw", "end_operations", "parent",
    "plot", "control", "source", "roll_round", "pay_upkeep", "move_character", "group_draw",
    "from_others", "plots_to_bottom", "die", "generate_pull", "from_characters", "destroy",
    "support", "pay_attack", "draw", "abort_attack", "purpose", "arrow", "target", "end_turn",
    "attack", "card", "attacker", "end_phase", "attack_die", "power", "pass", "seq", "seat",
    "action", "type", "outcomes", "kind", "value", "chance_source", "seed", "digest",
    "recorded_by", "recorded_at", "prev_hash", "hash", "commitments", "timestamp",
    "class_version",
)
DICTIONARY = b"".join(msgpack.packb(word) for word in WORDS)
# Format 7's words beyond those: the roles of the credentials that record (ledger.identity's
# ``Role``: a scorekeeper records every action of a table) that ``WORDS`` does not spell.
# Append only: a word's index is its place in ``WORDS + TERSE_WORDS``.
TERSE_WORDS = ("organiser", "scorekeeper", "player", "commentator")
_EVERY_WORD = WORDS + TERSE_WORDS
# each word as formats 4 to 9 store it (formats 4 to 6 only those of ``WORDS``)
_WORD_MARKS = {word: msgpack.ExtType(_WORD, bytes([index]))
               for index, word in enumerate(_EVERY_WORD)}
# Format 4's msgpack from this many bytes on is deflated (format 5). Shorter ones are
# actions, which deflate makes no smaller once their words are indices (simulated matches of
# the five games: 117 and 147 bytes on average below 192, 122 and 149 deflated); from 256 on
# (creations, snapshots, long actions) it saves a quarter to a half.
DEFLATE_FROM = 256

# Format 6's dictionaries, by their index (the byte after the format byte): each game's file in
# ledger/data, made once (issue 43) as ``(DICTIONARY + _pack(sample_card_set(game).cards,
# compact=True))[-32768:]``, and its SHA-256. Format 6 records can only be read with exactly
# these bytes: never change a file or this list's order; a game's new cards need no new
# dictionary (they are only deflated less), another game is appended.
CREATION_DICTIONARIES: tuple[tuple[str, str], ...] = (
    ("worldgainer", "c9553de681ef4ddd9960196000ae09838bf940a43ea0e4ac64de4558292f59e0"),
    ("illuminati", "8ce61a4a66e7645cdf805b254b2b70c10d62113e2177f06dd862ccab566b0cf7"),
    ("kami", "c711bb289866937176579942f8ff4dd8d07d2c94843434141d779f0ccedb72fe"),
    ("grail", "2155f15dea38ce58d879ae552077516e995f0a15d0a75fa7bebdc25028d79331"),
    ("edge", "075fb7f886d7725a5ac8bea6cd58cb119015a453b710b7d1a9daa58b6036ea4f"),
)


def creation_dictionary(game: str, sha256: str) -> bytes:
    """Format 6's dictionary of ``game``, checked against its SHA-256."""
    data = (Path(__file__).parent / "data" / f"creation-{game}.zdict").read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise UnknownStorageFormat(f"ledger/data/creation-{game}.zdict is not the dictionary "
                                   "format 6 was written with")
    return data


# The maps format 3 stores as their values alone, by their keys in order, each at its fixed
# index: the ledger's own (the fields of a match's events as ledger.mapper stores them, the
# match as its snapshot keeps it, who recorded), the kernel's (engine.core: the adjustment, an
# outcome, a match's configuration), and each shipped game's, which lives beside the game as
# its own data (engine/<game>/data/stored_shapes.json: its actions, outcomes, cards, options
# and state). A shape two games share is declared by both, at the same index. Format 3 records
# can only be read with exactly this table: never change it; a longer one is a new format.
LEDGER_SHAPES: dict[int, tuple[str, ...]] = {
    0: ("originator_topic", "game", "ruleset_version", "config", "replay_policy", "commitment",
        "setup_outcomes", "chance_source", "digest", "recorded_by", "recorded_at", "hash",
        "commitments", "class_version"),
    1: ("seq", "seat", "action", "outcomes", "chance_source", "digest", "recorded_by",
        "recorded_at", "hash", "commitments", "class_version"),
    2: ("count", "seqs", "reason", "digest", "recorded_by", "recorded_at", "hash"),
    3: ("winners", "losers", "reason", "drawn", "detail", "recorded_by", "recorded_at", "hash"),
    4: ("seed", "recorded_by", "recorded_at", "hash"),
    5: ("reason", "recorded_by", "recorded_at", "hash"),
    6: ("reason", "segment", "commitment", "recorded_by", "recorded_at", "hash"),
    7: ("dispute_id", "recorded_by", "recorded_at", "hash"),
    11: ("_created_on", "_modified_on", "commitment", "head_hash", "live", "next_seq", "result",
        "seed", "state"),
    28: ("timestamp", "topic", "state"),
    58: ("timestamp", "originator_topic", "match_id", "seed", "sealed", "class_version"),
    94: ("timestamp", "originator_topic", "match_id", "position", "match_version", "claim",
        "concerns", "pause", "opened_by", "recorded_at"),
    95: ("name", "seat"),
    96: ("timestamp", "dispute_id", "pause"),
}
KERNEL_SHAPES: dict[int, tuple[str, ...]] = {
    8: ("seat", "type", "reason", "move", "counter", "turn"),
    9: ("card", "from_zone", "to_zone", "from_seat", "to_seat"),
    10: ("active", "turn", "phase"),
    12: ("kind", "value", "seat"),
    13: ("seat", "type"),
    14: ("kind", "value"),
    47: ("kind", "value", "hidden"),
    57: ("players", "decks", "cards", "options"),
}
GAMES_WITH_SHAPES = ("worldgainer", "illuminati", "kami", "grail", "edge")


def game_shapes(game_id: str) -> dict[int, tuple[str, ...]]:
    """A shipped game's stored shapes, read from its data file (not from its rules module:
    the transcoder must not import the five games)."""
    path = Path(engine.__file__).parent / game_id / "data" / "stored_shapes.json"
    declared = json.loads(path.read_text("utf-8"))["shapes"]
    return {int(index): tuple(keys) for index, keys in declared.items()}


def compose_shapes(*tables: Mapping[int, tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """One table from the shapes each owner declares: every index declared the same way
    wherever it is declared, and no index missing."""
    merged: dict[int, tuple[str, ...]] = {}
    for table in tables:
        for index, keys in table.items():
            if merged.setdefault(index, keys) != keys:
                raise ValueError(f"stored shape {index} is declared as {merged[index]} "
                                 f"and as {keys}")
    if sorted(merged) != list(range(len(merged))):
        missing = sorted(set(range(max(merged, default=-1) + 1)) - set(merged))
        raise ValueError(f"stored shapes {missing} are declared nowhere")
    return tuple(merged[index] for index in range(len(merged)))


# Format 7's shapes beyond format 3's: who recorded, as ``Identity.recorded_by`` spells it.
# Append only, as format 3's table.
TERSE_SHAPES: dict[int, tuple[str, ...]] = {
    100: ("id", "name", "role"),
}
# Format 3's table (formats 3 to 6 write no other), then format 7's: every format reads both
# (no record of formats 3 to 6 holds format 7's marks)
SHAPES_OF_FORMAT_3: tuple[tuple[str, ...], ...] = compose_shapes(
    LEDGER_SHAPES, KERNEL_SHAPES, *(game_shapes(game) for game in GAMES_WITH_SHAPES))
SHAPES = compose_shapes(dict(enumerate(SHAPES_OF_FORMAT_3)), TERSE_SHAPES)
_SHAPE_INDEX = {keys: index for index, keys in enumerate(SHAPES)}


class _Shape:
    """What a shaped map's first item, its shape's mark, reads as: the shape's keys."""

    __slots__ = ("keys",)

    def __init__(self, keys: tuple[str, ...]) -> None:
        self.keys = keys


# a shaped map is stored as an array: its shape's mark, then its values in order
_MARKS = [msgpack.ExtType(_SHAPE, bytes([index])) for index in range(len(SHAPES))]
_SHAPE_READ = [_Shape(keys) for keys in SHAPES]

# A hash or digest in hex: 64 lowercase digits, after a label of up to 15 characters (``p1:``);
# an instant as ``recorded_at`` writes it (ledger.recorder.now).
_HEX_DIGITS = re.compile(r"[0-9a-f]{64}")
_UUID_DIGITS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_LABEL_CODES = {label: _LABELLED_HEX + index for index, label in enumerate(HEX_LABELS)}
_NOW = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}\+00:00")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_EPOCH_DAY = _EPOCH.toordinal()
# One compressor with the dictionary loaded, copied for each record (a 4 KiB window: records
# are small, and loading the dictionary afresh each time cost more than compressing)
_DEFLATER = zlib.compressobj(6, zlib.DEFLATED, -12, 5, zlib.Z_DEFAULT_STRATEGY, DICTIONARY)


class UnknownStorageFormat(ValueError):
    """A stored record was written in a format this version cannot read."""


_CREATION_INDEX = {game: index for index, (game, _) in enumerate(CREATION_DICTIONARIES)}


@cache
def _creation_zdict(index: int) -> bytes:
    """Format 6's dictionary at ``index``, read when first needed (not by every command)."""
    return creation_dictionary(*CREATION_DICTIONARIES[index])


@cache
def _creation_deflater(index: int) -> Any:
    """A compressor with format 6's dictionary at ``index`` loaded, copied for each record (a
    32 KiB window: the whole of a game's dictionary is in reach)."""
    return zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY,
                            _creation_zdict(index))


def _micros(moment: datetime) -> bytes:
    return ((moment - _EPOCH) // timedelta(microseconds=1)).to_bytes(8, "big", signed=True)


def _moment(data: bytes) -> datetime:
    return _EPOCH + timedelta(microseconds=int.from_bytes(data, "big", signed=True))


def _compact_text(text: str) -> Any:
    """A string as one of ``WORDS``, or in its binary form where it has one (each reads back
    identical)."""
    word = _WORD_MARKS.get(text)
    if word is not None:
        return word
    size = len(text)
    if 64 <= size <= 79:
        if _HEX_DIGITS.fullmatch(text, size - 64):
            label, digits = text[:-64], bytes.fromhex(text[-64:])
            code = _LABEL_CODES.get(label)
            if code is not None:
                return msgpack.ExtType(code, digits)
            return msgpack.ExtType(_HEX, label.encode() + digits)
    elif size == 36:
        if _UUID_DIGITS.fullmatch(text):
            return msgpack.ExtType(_UUID_TEXT, bytes.fromhex(text.replace("-", "")))
    elif size == 32 and text[10] == "T" and _NOW.fullmatch(text):
        return _micros_text(text)
    return text


def _micros_text(text: str) -> Any:
    """A ``recorded_at`` text (``_NOW``) as its microseconds since 1970 (8 bytes), where it
    names a real moment (a 30th of February stays text). It then reads back identical:
    ``_NOW`` fixes every field's width, and ``isoformat`` writes each at that width."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    seconds = ((moment.toordinal() - _EPOCH_DAY) * 86400 + moment.hour * 3600
               + moment.minute * 60 + moment.second)
    micros = seconds * 1_000_000 + moment.microsecond
    return msgpack.ExtType(_MICROS_TEXT, micros.to_bytes(8, "big", signed=True))


def _micros_text_read(data: bytes) -> str:
    """The ``recorded_at`` text ``_micros_text`` stored."""
    since = _MICROSECOND * int.from_bytes(data, "big", signed=True)
    return (_EPOCH + since).isoformat(timespec="microseconds")


def _uuid_text(data: bytes) -> str:
    digits = data.hex()
    return (f"{digits[0:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-"
            f"{digits[20:32]}")


def _time_text(data: bytes) -> str:
    """The ``recorded_at`` string whose digits ``_compact_text`` kept."""
    d = f"{int.from_bytes(data, 'big'):020d}"
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}.{d[14:20]}+00:00"


def _compact(obj: Any) -> Any:
    """``obj`` with its strings as words or in binary form where they have one (a map's keys
    as words where they are one) and its maps of a known shape as their values
    (``SHAPES``)."""
    kind = type(obj)
    if kind is str:
        return _compact_text(obj)
    if kind is dict:
        shape = _SHAPE_INDEX.get(tuple(obj))
        if shape is not None:
            return [_MARKS[shape], *(_compact(value) for value in obj.values())]
        return {_WORD_MARKS.get(key, key): _compact(value) for key, value in obj.items()}
    if kind is list:
        return [_compact(item) for item in obj]
    return obj


def _default(obj: Any, compact: bool) -> msgpack.ExtType:
    if isinstance(obj, uuid.UUID):
        return msgpack.ExtType(_UUID, obj.bytes)
    if isinstance(obj, datetime):
        if compact and obj.tzinfo is UTC:
            return msgpack.ExtType(_INSTANT, _micros(obj))
        return msgpack.ExtType(_DATETIME, obj.isoformat().encode())
    if isinstance(obj, tuple):
        return msgpack.ExtType(_TUPLE, _pack(list(obj), compact))
    if isinstance(obj, GameState):
        data = get_game(obj.game).state_to_data(obj)
        return msgpack.ExtType(_STATE, _pack([obj.game, data], compact))
    raise TypeError(f"cannot store a {type(obj).__name__} with the msgpack transcoder")


def _default_plain(obj: Any) -> msgpack.ExtType:
    return _default(obj, False)


def _default_compact(obj: Any) -> msgpack.ExtType:
    return _default(obj, True)


def _tuple(data: bytes) -> tuple[Any, ...]:
    return tuple(_unpack(data))


def _state(data: bytes) -> GameState:
    game, state = _unpack(data)
    return get_game(game).state_from_data(state)


def _shape(data: bytes) -> _Shape:
    return _SHAPE_READ[data[0]]


def _word(data: bytes) -> str:
    if len(data) != 1 or data[0] >= len(_EVERY_WORD):
        raise UnknownStorageFormat(f"stored record holds word {data.hex()}, which this version "
                                   f"does not know")
    return _EVERY_WORD[data[0]]


def _shaped(items: list[Any]) -> Any:
    """An array as read: the map ``_compact`` stored as its shape's mark and its values, or
    the array itself."""
    if items and type(items[0]) is _Shape:
        return dict(zip(items[0].keys, items[1:], strict=True))
    return items


def _hex_text(data: bytes) -> str:
    return data[:-32].decode() + data[-32:].hex()


def _labelled_hex_text(label: str, data: bytes) -> str:
    """A digest format 7 stored without its label (``HEX_LABELS``)."""
    return label + data.hex()


_READERS: dict[int, Callable[[bytes], Any]] = {
    _HEX: _hex_text, _TIME: _time_text, _INSTANT: _moment,
    _UUID: lambda data: uuid.UUID(bytes=data),
    _DATETIME: lambda data: datetime.fromisoformat(data.decode()),
    _TUPLE: _tuple, _STATE: _state, _SHAPE: _shape, _WORD: _word,
    _UUID_TEXT: _uuid_text, _MICROS_TEXT: _micros_text_read,
    **{code: partial(_labelled_hex_text, label) for label, code in _LABEL_CODES.items()},
}


def _ext_hook(code: int, data: bytes) -> Any:
    reader = _READERS.get(code)
    if reader is None:  # written by a later version: refused, never passed on as it is
        raise UnknownStorageFormat(f"stored record holds extension type {code}, which this "
                                   "version does not know")
    return reader(data)


def _pack(obj: Any, compact: bool = False) -> bytes:
    if compact:
        return msgpack.packb(_compact(obj), default=_default_compact, use_bin_type=True,
                             strict_types=True)
    return msgpack.packb(obj, default=_default_plain, use_bin_type=True, strict_types=True)


def _unpack(data: bytes) -> Any:
    try:
        return msgpack.unpackb(data, ext_hook=_ext_hook, list_hook=_shaped, raw=False,
                               strict_map_key=False)
    except UnknownStorageFormat:
        raise
    except ValueError as exc:  # msgpack's (damaged bytes), or a value that does not read
        raise UnknownStorageFormat(f"stored record does not read: {exc}") from exc


class _NotSkimmed(Exception):
    """A record, or a map within it, that ``_skimmed`` does not read (not a map, nor an
    array of a known shape's mark and its values): it is decoded whole instead."""


# msgpack's first bytes of a map and of an array (fix, 16 and 32 bit sizes)
_MAP_HEADS = frozenset([*range(0x80, 0x90), 0xDE, 0xDF])
_ARRAY_HEADS = frozenset([*range(0x90, 0xA0), 0xDC, 0xDD])


def _skimmed(unpacker: Any, packed: bytes, wanted: Wanted) -> dict[str, Any]:
    """The fields ``wanted`` of the map (or shaped map) at ``unpacker``'s position in
    ``packed``, each read as ``_unpack`` reads it; every other value skipped, not built."""
    head = packed[unpacker.tell()]
    keys: tuple[str, ...] | None = None
    if head in _MAP_HEADS:
        size = unpacker.read_map_header()
    elif head in _ARRAY_HEADS:
        size = unpacker.read_array_header() - 1
        mark = unpacker.unpack() if size >= 0 else None
        if type(mark) is not _Shape or len(mark.keys) != size:
            raise _NotSkimmed
        keys = mark.keys
    else:
        raise _NotSkimmed
    found: dict[str, Any] = {}
    for index in range(size):
        key = unpacker.unpack() if keys is None else keys[index]
        if type(key) is not str or key not in wanted:
            unpacker.skip()
            continue
        inner = wanted[key]
        found[key] = unpacker.unpack() if inner is None else _skimmed(unpacker, packed, inner)
    return found


def _picked(fields: Any, wanted: Wanted) -> Any:
    """The fields ``wanted`` of ``fields`` decoded whole (a value that is not a map as it
    is)."""
    if type(fields) is not dict:
        return fields
    picked: dict[str, Any] = {}
    for key, value in fields.items():
        if type(key) is str and key in wanted:
            inner = wanted[key]
            picked[key] = value if inner is None else _picked(value, inner)
    return picked


def _fields(packed: bytes, wanted: Wanted) -> dict[str, Any]:
    """The fields ``wanted`` of a record's msgpack (``MsgpackTranscoder.decode_fields``)."""
    unpacker = msgpack.Unpacker(ext_hook=_ext_hook, list_hook=_shaped, raw=False,
                                strict_map_key=False)
    unpacker.feed(packed)
    try:
        found = _skimmed(unpacker, packed, wanted)
        if unpacker.tell() == len(packed):
            return found
    except (_NotSkimmed, msgpack.OutOfData, IndexError):
        pass
    except UnknownStorageFormat:
        raise
    except ValueError as exc:  # msgpack's (damaged bytes), or a value that does not read
        raise UnknownStorageFormat(f"stored record does not read: {exc}") from exc
    # not a map, a map within not one, or bytes after it: as ``decode`` reads it (or refuses)
    whole = _unpack(packed)
    if type(whole) is not dict:
        raise UnknownStorageFormat("stored record is not a map of fields")
    return cast(dict[str, Any], _picked(whole, wanted))


def _deflate(data: bytes) -> bytes:
    packer = _DEFLATER.copy()
    return packer.compress(data) + packer.flush()


def _inflate(data: bytes) -> bytes:
    unpacker = zlib.decompressobj(-15, zdict=DICTIONARY)
    return unpacker.decompress(data) + unpacker.flush()


def _inflate_creation(data: bytes) -> bytes:
    """The msgpack of a format 6 or 9 record: its dictionary's index, then raw deflate."""
    if len(data) < 2 or data[1] >= len(CREATION_DICTIONARIES):
        raise UnknownStorageFormat(f"stored record in format {data[0]} names dictionary "
                                   f"{data[1:2].hex() or 'none'}, which this version does not know")
    try:
        unpacker = zlib.decompressobj(-15, zdict=_creation_zdict(data[1]))
        return unpacker.decompress(data[2:]) + unpacker.flush()
    except zlib.error as exc:
        raise UnknownStorageFormat(f"stored record in format {data[0]} does not inflate: "
                                   f"{exc}") from None


def _dictionary_of(obj: Any) -> int | None:
    """The index of the dictionary of the game of a match's creation or of a match's
    snapshot (None: neither, or a game without one). A snapshot holds the match's position,
    whose cards' names and fields the game's card set spells: Illuminati's, whose groups keep
    their texts in the position, deflate to 1.2 KB instead of 2.0 against it (issue 43)."""
    if type(obj) is not dict:
        return None
    game = obj.get("game") if "config" in obj else None
    match = obj.get("state")
    if game is None and type(match) is dict and isinstance(match.get("state"), GameState):
        game = match["state"].game
    return _CREATION_INDEX.get(game) if isinstance(game, str) else None


# each format's first byte, by how its msgpack follows it
_AS_IS = frozenset(bytes([f]) for f in (PLAIN, WORDED, TERSE))
_DEFLATED = frozenset(bytes([f]) for f in (COMPACT, SHAPED, WORDED_DEFLATED, TERSE_DEFLATED))
_DEFLATED_BY_GAME = frozenset(bytes([f]) for f in (CREATION_DEFLATED, TERSE_CREATION))


def payload(data: bytes) -> bytes:
    """The msgpack of a stored record, whatever its format (for tools and tests that look at
    or change stored bytes; format 1 holds what is returned, after its format byte)."""
    first = data[:1]
    if first in _AS_IS:
        return data[1:]
    if first in _DEFLATED:
        try:
            return _inflate(data[1:])
        except zlib.error as exc:
            raise UnknownStorageFormat(f"stored record in format {data[0]} does not inflate: "
                                       f"{exc}") from None
    if first in _DEFLATED_BY_GAME:
        return _inflate_creation(data)
    raise UnknownStorageFormat(f"stored record has format byte {data[:1]!r}, this version "
                               f"reads {', '.join(map(str, READ))}")


def spelled_out(packed: bytes) -> Any:
    """msgpack as maps and lists: its maps of a known shape (``SHAPES``) and its words
    (``WORDS``) spelled out, every other extension type left as it is stored (so that
    packing the result again gives a record that reads back the same)."""
    def hook(code: int, inner: bytes) -> Any:
        if code == _SHAPE:
            return _shape(inner)
        return _word(inner) if code == _WORD else msgpack.ExtType(code, inner)
    return msgpack.unpackb(packed, ext_hook=hook, list_hook=_shaped, raw=False,
                           strict_map_key=False)


def stored_fields(data: bytes) -> Any:
    """A stored record's fields, whatever its format, ``spelled_out`` (for tools and tests
    that look at or change stored bytes: msgpack of what is returned, after format byte 1,
    is a record that reads back the same)."""
    return spelled_out(payload(data))


class MsgpackTranscoder(Transcoder):
    """eventsourcing Transcoder writing versioned msgpack (formats 7, 8 and 9, shaped, with
    words)."""

    def encode(self, obj: Any) -> bytes:
        """Encode an event's or snapshot's fields."""
        packed = _pack(obj, compact=True)
        if len(packed) < DEFLATE_FROM:
            return bytes([TERSE]) + packed
        dictionary = _dictionary_of(obj)
        if dictionary is not None:
            packer = _creation_deflater(dictionary).copy()
            return (bytes([TERSE_CREATION, dictionary]) + packer.compress(packed)
                    + packer.flush())
        return bytes([TERSE_DEFLATED]) + _deflate(packed)

    def decode(self, data: bytes) -> Any:
        """Decode what ``encode`` wrote, or a record of an earlier format."""
        return _unpack(payload(data))

    def decode_fields(self, data: bytes, wanted: Wanted) -> dict[str, Any]:
        """Only the fields ``wanted`` of what ``decode`` reads, each read exactly as it reads
        them; the values not wanted are skipped, never built (a match's creation holds its
        decks and the definitions of their cards, most of its bytes: a reader of its players
        need not build them). A field the record lacks is not in what is returned. The values
        skipped are checked as msgpack, not read: an unknown word or shape among them is not
        refused here, as ``decode`` would (whatever reads the record whole still does)."""
        return _fields(payload(data), wanted)
