"""C3 conformance: every game whose zone table says where its cards are (its zones' holdings)
and what a judge may set (its tallies) is adjusted through every place, counter, stat and flag
it declares, and stays whole.

At several positions of random playouts: a judge moves a card into every adjustable place (and
free entry: a grid's empty cells, a host's attachments) of every seat from every other place
until one move succeeds; at least one brings a card into every zone, none loses or doubles a
card, the position it started from is unchanged, and every viewer's view renders. Every tally
takes its lowest and highest values and refuses one past them. A game joins by declaring its
holdings and tallies: nothing else to write.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine import JUDGE, SPECTATOR, Viewer, games
from engine.core.chance import NoChance
from engine.core.contract import GameState, Ruleset
from engine.core.effects import Place
from engine.core.errors import IllegalAction
from engine.core.holdings import Stat, modified
from tests.support import RandomChance, sample_config
from tests.toygame import BlindBid

EVERY = [*games(), BlindBid()]
HELD = [g for g in EVERY if all(z.holding is not None for z in g.zone_table.zones.values())]


def _positions(ruleset: Ruleset[Any], players: int, seed: int,
               every: int = 20) -> list[GameState]:
    """The setup and the position after every ``every`` actions of a random legal playout
    (80 actions at most)."""
    rng = random.Random(seed)
    state = ruleset.setup(sample_config(ruleset, players), RandomChance(rng))
    out = [state]
    for n in range(1, 80):
        if ruleset.outcome(state) is not None:
            break
        seat = rng.choice(ruleset.to_act(state))
        state = ruleset.apply(state, rng.choice(ruleset.legal_actions(state, seat)),
                              RandomChance(rng))
        if n % every == 0:
            out.append(state)
    return out


def _every_card(ruleset: Ruleset[Any], state: GameState) -> Counter[str]:
    return Counter(c for cards in ruleset.places(state).values() for c in cards)


def _ref(place: Place) -> str:
    return f"{place.zone}:{place.address}" if place.address else place.zone


def _move(seat: int, card: str, source: Place, target: Place) -> dict[str, Any]:
    return {"type": "adjust", "seat": seat, "reason": "conformance", "move": {
        "card": card, "from_zone": _ref(source), "to_zone": _ref(target),
        "from_seat": source.seat or seat, "to_seat": target.seat or seat}}


def _targets(ruleset: Ruleset[Any], state: GameState,
             places: dict[Place, list[str]]) -> list[Place]:
    """Every place a card may be put into: the places, and a holding's other entries (a
    grid's free cells, a host's attachments)."""
    out = list(places)
    for zone in ruleset.zone_table.zones.values():
        assert zone.holding is not None
        for seat in (state.seats() if zone.owner == "seat" else [None]):
            out += [Place(zone.name, seat, a) for a in zone.holding.entries(state, seat)
                    if Place(zone.name, seat, a) not in places]
    return out


def _views_render(ruleset: Ruleset[Any], state: GameState) -> None:
    for viewer in (JUDGE, SPECTATOR, *(Viewer("seat", s) for s in state.seats())):
        ruleset.view(state, viewer)


@pytest.mark.parametrize("ruleset", HELD, ids=[g.game_id for g in HELD])
def test_a_judge_moves_a_card_into_every_declared_place_and_nothing_is_lost(
        ruleset: Ruleset[Any]) -> None:
    entered: set[str] = set()
    adjustable = {z.name for z in ruleset.zone_table.zones.values() if z.adjustable}
    for seed in (1, 2):
        for state in _positions(ruleset, ruleset.min_players, seed):
            if state.result is not None:
                continue
            places = ruleset.places(state)
            every = _every_card(ruleset, state)
            sources = [(p, c) for p, cards in places.items() if p.zone in adjustable
                       for c in cards]
            for target in _targets(ruleset, state, places):
                if target.zone not in adjustable:
                    continue
                for source, card in sources:
                    if source == target:
                        continue
                    seat = target.seat or source.seat or 1
                    try:
                        after = ruleset.apply(state, _move(seat, card, source, target),
                                              NoChance())
                    except IllegalAction:
                        continue
                    assert _every_card(ruleset, after) == every, "a card was lost or doubled"
                    _views_render(ruleset, after)
                    # in the zone it was put in (a grid renumbers its cells; a game's rules
                    # may send an arrival on, as a duplicate to the dead pile)
                    if any(card in cards for p, cards in ruleset.places(after).items()
                           if (p.zone, p.seat) == (target.zone, target.seat)):
                        entered.add(target.zone)
                        break
            assert ruleset.places(state) == places, "apply changed its input"
    assert entered == adjustable, f"no move ever entered {adjustable - entered}"


@pytest.mark.parametrize("ruleset", HELD, ids=[g.game_id for g in HELD])
def test_a_judge_sets_every_declared_tally_within_its_bounds(ruleset: Ruleset[Any]) -> None:
    set_somewhere: set[str] = set()
    for state in _positions(ruleset, ruleset.min_players, 3, every=5):
        if state.result is not None:
            continue
        for tally in ruleset.tallies:
            for seat in state.seats():
                keys = list(tally.keys(state, seat))[:2] if tally.keyed else [""]
                for key in keys:
                    name = f"{tally.name}:{key}" if key else tally.name
                    for value in (tally.low, tally.high):
                        counter = {"type": "adjust", "seat": seat, "reason": "conformance",
                                   "counter": {"name": name, "value": value}}
                        try:
                            after = ruleset.apply(state, counter, NoChance())
                        except IllegalAction as refused:  # the rules' own: not now
                            assert refused.reason == "bad_counter", refused.message
                            continue
                        assert tally.get(after, seat, key) == value, (name, value)
                        _views_render(ruleset, after)
                        set_somewhere.add(tally.name)
                    past = {"type": "adjust", "seat": seat, "reason": "conformance",
                            "counter": {"name": name, "value": tally.high + 1}}
                    with pytest.raises(IllegalAction) as refused:
                        ruleset.apply(state, past, NoChance())
                    assert refused.value.reason == "bad_counter"
    assert set_somewhere == {t.name for t in ruleset.tallies}


def test_every_game_and_the_toy_game_says_where_all_its_cards_are() -> None:
    """Every zone of every game has a holding, so the conformance tests above run for all of
    them: a game whose zone forgets one falls out of them, and this says so."""
    assert [g.game_id for g in HELD] == [g.game_id for g in EVERY]


class _Valued(BlindBid):
    """Blind Bid where card text may change the value of a won card for a while."""

    stats = (Stat("value", "What a won card scores.",
                  lambda state: [c for seat in state.seats() for c in state.won[seat]]),)


def _modify(seat: int, **change: Any) -> dict[str, Any]:
    return {"type": "adjust", "seat": seat, "reason": "a card text", "modifier": change}


def test_a_lasting_modifier_is_shown_to_everyone_and_ends_with_the_turn_or_a_judge() -> None:
    rules = _Valued()
    state = _positions(BlindBid(), 2, 5)[0]
    state.won[1] = ["bb-03"]
    week = rules.apply(state, _modify(1, card="bb-03", stat="value", amount=2,
                                      until="end_of_turn"), NoChance())
    good = rules.apply(week, _modify(1, card="bb-03", stat="value", amount=-1), NoChance())
    assert modified(good.modifiers, "bb-03", "value", 3) == 4
    shown = rules.view(good, SPECTATOR)["modifiers"]
    assert [(m["amount"], m["until"], m["reason"]) for m in shown] == [
        (2, "end_of_turn", "a card text"), (-1, "permanent", "a card text")]
    said = rules.describe(_modify(1, card="bb-03", stat="value", amount=2,
                                  until="end_of_turn"), [], SPECTATOR)
    assert said == ("Adjustment for seat 1: gives bb-03 +2 value until the end of the turn "
                    "(reason: a card text).")
    turned = rules.apply(good, {"type": "adjust", "seat": 1, "reason": "a card text",
                                "turn": {"turn": good.turn + 1}}, NoChance())
    assert [m.amount for m in turned.modifiers] == [-1]
    ended = rules.apply(turned, _modify(1, card="bb-03", stat="value", end=True), NoChance())
    assert ended.modifiers == [] and "modifiers" not in rules.view(ended, SPECTATOR)
    given = rules.apply(state, _modify(1, card="bb-03", stat="value", amount=1), NoChance())
    back = rules.apply(given, _modify(1, card="bb-03", stat="value", end=True), NoChance())
    assert rules.digest(back) == rules.digest(state), "none left: the position as it was"


@pytest.mark.parametrize(("change", "reason"), [
    ({"card": "bb-03", "stat": "power", "amount": 1}, "bad_stat"),
    ({"card": "bb-09", "stat": "value", "amount": 1}, "card_not_in_zone"),  # not won
])
def test_a_modifier_names_a_declared_stat_of_a_card_in_play(change: dict[str, Any],
                                                            reason: str) -> None:
    rules = _Valued()
    state = _positions(BlindBid(), 2, 5)[0]
    state.won[1] = ["bb-03"]
    with pytest.raises(IllegalAction) as refused:
        rules.apply(state, _modify(1, **change), NoChance())
    assert refused.value.reason == reason


def test_a_lasting_modifier_ends_when_its_card_leaves_play() -> None:
    """A card that left play and comes back is a new card, without the modifiers it had."""
    rules = _Valued()
    state = _positions(BlindBid(), 2, 5)[0]
    state.won[1] = ["bb-03"]
    given = rules.apply(state, _modify(1, card="bb-03", stat="value", amount=2), NoChance())
    gone = rules.apply(given, {"type": "adjust", "seat": 1, "reason": "a card text", "move": {
        "card": "bb-03", "from_zone": "won", "to_zone": "discard"}}, NoChance())
    assert gone.modifiers == []
    back = rules.apply(gone, {"type": "adjust", "seat": 1, "reason": "a card text", "move": {
        "card": "bb-03", "from_zone": "discard", "to_zone": "won"}}, NoChance())
    assert back.modifiers == [] and "modifiers" not in rules.view(back, SPECTATOR)
