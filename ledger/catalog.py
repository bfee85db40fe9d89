"""Card-set and deck files (formats ``kiroku-cardset/1`` and ``kiroku-deck/1``, see docs/).

The engine validates each card definition; this module only reads files and the sample data that
ships inside each game's package (``engine/<game>/data``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from engine.core.errors import SetupError
from engine.core.reasons import KernelReason as R
from engine.registry import get_game

CARDSET_FORMAT = "kiroku-cardset/1"
DECK_FORMAT = "kiroku-deck/1"


@dataclass(frozen=True)
class CardSet:
    """A loaded card set: card definitions by id (without the id key)."""

    game: str
    set_id: str
    name: str
    version: int
    cards: dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Deck:
    """A loaded deck list: card id -> copies."""

    game: str
    set_id: str
    name: str
    cards: dict[str, int]


def _read_json(path: Path | str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SetupError(R.FILE_NOT_FOUND, f"No such file: {path}") from None
    except json.JSONDecodeError as exc:
        raise SetupError(R.BAD_FILE, f"{path} is not valid JSON: {exc}") from None


def parse_card_set(data: Any, origin: str = "card set") -> CardSet:
    """Validate card-set data: format, game, unique ids, every card through its game's model."""
    if not isinstance(data, dict) or data.get("format") != CARDSET_FORMAT:
        raise SetupError(R.BAD_FILE, f"{origin}: not a card set (format must be "
                         f"{CARDSET_FORMAT!r})")
    ruleset = get_game(str(data.get("game")))
    cards: dict[str, dict[str, Any]] = {}
    for raw in data.get("cards") or []:
        card = ruleset.parse_card(raw).model_dump(mode="json")
        cid = card.pop("id")
        if cid in cards:
            raise SetupError(R.BAD_FILE, f"{origin}: card id {cid} appears twice")
        cards[cid] = card
    if not cards:
        raise SetupError(R.BAD_FILE, f"{origin}: the set has no cards")
    return CardSet(ruleset.game_id, str(data.get("set", "")), str(data.get("name", "")),
                   int(data.get("version", 1)), cards)


def parse_deck(data: Any, origin: str = "deck") -> Deck:
    """Validate deck data: format, and a mapping of card id to a positive count."""
    if not isinstance(data, dict) or data.get("format") != DECK_FORMAT:
        raise SetupError(R.BAD_FILE, f"{origin}: not a deck (format must be {DECK_FORMAT!r})")
    cards = data.get("cards")
    if not isinstance(cards, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and v >= 1 for k, v in cards.items()):
        raise SetupError(R.BAD_FILE, f"{origin}: 'cards' must map card ids to counts of 1 or "
                         "more")
    return Deck(str(data.get("game")), str(data.get("set", "")), str(data.get("name", "")),
                dict(cards))


def load_card_set(path: Path | str) -> CardSet:
    """Read and validate a card-set file."""
    return parse_card_set(_read_json(path), str(path))


def load_deck(path: Path | str) -> Deck:
    """Read and validate a deck file."""
    return parse_deck(_read_json(path), str(path))


def _data_dir(game: str) -> Any:
    get_game(game)
    return resources.files(f"engine.{game}").joinpath("data")


def sample_card_set(game: str) -> CardSet:
    """The sample card set shipped with ``game``."""
    folder = _data_dir(game)
    return parse_card_set(json.loads(folder.joinpath("sample_set.json").read_text("utf-8")),
                          f"{game} sample set")


def sample_decks(game: str) -> dict[str, Deck]:
    """The ready decks shipped with ``game``, by file stem (e.g. ``solar_vanguard``)."""
    folder = _data_dir(game).joinpath("decks")
    decks = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            decks[entry.name[:-5]] = parse_deck(json.loads(entry.read_text("utf-8")), entry.name)
    return decks


def sample_deck(game: str, name: str) -> Deck:
    """A sample deck by name only (never a file: what the HTTP service accepts)."""
    samples = sample_decks(game)
    if name not in samples:
        raise SetupError(R.UNKNOWN_DECK, f"No sample deck {name[:64]!r} for {game}; sample "
                         f"decks: {', '.join(samples)}; or send the deck as a list.")
    return samples[name]


def resolve_deck(game: str, ref: str) -> Deck:
    """A deck by sample name (``solar_vanguard``) or by file path."""
    samples = sample_decks(game)
    if ref in samples:
        return samples[ref]
    if Path(ref).exists():
        return load_deck(ref)
    raise SetupError(R.UNKNOWN_DECK, f"No sample deck or file {ref!r}; sample decks for {game}: "
                     f"{', '.join(samples)}.")
