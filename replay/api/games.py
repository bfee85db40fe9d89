"""The games Kiroku knows and their actions' schemas (public)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from engine.registry import games, get_game
from ledger.catalog import sample_decks
from ledger.keys import key_id
from replay.api.shapes import GameOut, SampleDeckOut, SigningKey
from replay.api.wire import KirokuDep, respond

router = APIRouter(tags=["games"])


@router.get("/games", response_model=list[GameOut])
def list_games(request: Request) -> Response:
    """The registered games."""
    return respond(request, [{"id": g.game_id, "title": g.title, "version": g.version,
                              "players": [g.min_players, g.max_players],
                              "actions": g.action_types()} for g in games()])


@router.get("/.well-known/kiroku-keys", tags=["audit"], response_model=SigningKey)
def keys(request: Request, kiroku: KirokuDep) -> Response:
    """The public key that signs this deployment's receipts and exports."""
    key = kiroku.recorder.keyring.public_key
    return respond(request, {"algorithm": "Ed25519", "public_key": key, "key_id": key_id(key)})


@router.get("/games/{game}/actions", response_model=dict[str, Any])
def action_schema(request: Request, game: str) -> Response:
    """JSON schema of the game's actions; 404 ``game_not_found`` (naming the known games) for
    an unknown game."""
    return respond(request, get_game(game).action_schema())


@router.get("/games/{game}/decks", response_model=list[SampleDeckOut])
def decks(request: Request, game: str) -> Response:
    """The game's sample decks, each as a decklist (card id to copies) a player may submit;
    404 ``game_not_found`` for an unknown game."""
    get_game(game)
    return respond(request, [{"name": name, "cards": dict(deck.cards)}
                             for name, deck in sorted(sample_decks(game).items())])
