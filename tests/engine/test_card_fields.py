"""Action fields that name cards (``engine.core.actions.card_field``): every one is marked, and
no legal action names a card its acting seat cannot know (``Ruleset.refusal_for`` answers any
action naming such a card with ``card_not_seen``)."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from engine import Viewer, games
from engine.core.actions import NAMES_CARDS, Action, Adjust, Concede
from engine.core.contract import Ruleset
from tests.support import playout
from tests.toygame import BlindBid

CONFORMING = [*games(), BlindBid()]  # every registered game, and the toy game of the guide
SEEDS = range(3)

# (action type, field) of the text fields that name no card; "*" holds the kernel's actions.
NOT_CARDS: dict[str, set[tuple[str, str]]] = {
    "*": {("adjust", "reason"), ("adjust", "move.from_zone"), ("adjust", "move.to_zone"),
          ("adjust", "counter.name"), ("adjust", "turn.phase"), ("adjust", "modifier.stat")},
    "worldgainer": {("gain", "field"),  # a square, M1-1
                    ("gain", "payment.field")},
    "illuminati": {("use_resource", "note"), ("rule_claim", "reason")},
    "kami": {("set_territory", "hex"), ("replace_territory", "hex"), ("summon_unit", "hex"),
             ("equip_option", "hex"), ("activate_ability", "hex"), ("move_unit", "from_hex"),
             ("move_unit", "to_hex"), ("teleport_unit", "from_hex")},
    "grail": {("rule_claim", "reason"), ("end_combat", "reason")},
    "edge": {("play_whammy", "note"), ("declare_attack", "los_override"),  # card text
             ("resolve_combat", "attacker_reason"), ("resolve_combat", "target_reason"),
             ("claim_card_victory", "reason"), ("rule_claim", "reason")},
    "blindbid": set(),
}


def _player_counts(ruleset: Ruleset) -> list[int]:
    return sorted({ruleset.min_players, min(ruleset.max_players, ruleset.min_players + 1)})


def _is_text(annotation: Any) -> bool:
    """Whether a field of this type holds text: ``str``, optional, or a list or dict of it
    (``Literal`` choices and enums are not free text)."""
    if annotation is str:
        return True
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_is_text(a) for a in args)
    if origin in (list, tuple, set, frozenset):
        return any(_is_text(a) for a in args if a is not Ellipsis)
    if origin is dict:
        return _is_text(args[1])
    return False


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _models_in(arg)


def _text_fields(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, bool]]:
    """(dotted field name, marked) for every text field of ``model`` and the models it holds."""
    for name, info in model.model_fields.items():
        if _is_text(info.annotation):
            extra = info.json_schema_extra
            yield prefix + name, isinstance(extra, dict) and bool(extra.get(NAMES_CARDS))
        for inner in dict.fromkeys(_models_in(info.annotation)):
            yield from _text_fields(inner, f"{prefix}{name}.")


@pytest.mark.parametrize("ruleset", CONFORMING, ids=lambda r: r.game_id)
def test_every_text_field_is_a_card_field_or_known_not_to_be(ruleset: Ruleset) -> None:
    allowed = NOT_CARDS["*"] | NOT_CARDS[ruleset.game_id]
    unmarked = []
    models: tuple[type[Action], ...] = (*ruleset.actions, Concede, Adjust)
    for model in models:
        kind = str(model.model_fields["type"].default)
        unmarked += [(kind, name) for name, marked in _text_fields(model)
                     if not marked and (kind, name) not in allowed]
    assert not unmarked, f"mark these with card_field, or list them in NOT_CARDS: {unmarked}"


@pytest.mark.parametrize("ruleset", CONFORMING, ids=lambda r: r.game_id)
def test_no_legal_action_names_a_card_its_seat_cannot_know(ruleset: Ruleset) -> None:
    named = 0
    for players in _player_counts(ruleset):
        for seed in SEEDS:
            for position, state in enumerate(playout(ruleset, seed, players)["states"]):
                for seat in state.seats():
                    known = ruleset.known_cards(state, Viewer("seat", seat))
                    for action in ruleset.legal_actions(state, seat):
                        if action.judges_only:
                            continue  # a judge records it, and knows every card
                        cards = ruleset.named_cards(action)
                        unknown = [(f, c) for f, c in cards if c not in known]
                        assert not unknown, (players, seed, position, seat, action, unknown)
                        named += len(cards)
    assert named  # the playouts did name cards
