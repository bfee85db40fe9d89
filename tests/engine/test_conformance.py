"""The conformance suite every game joins: it speaks only the shared contract (engine/ only;
the ledger's suite over every game is tests/ledger/test_games.py).

For each game: random legal playouts reach an end; apply never mutates its input; replaying the
stored outcomes gives the same digests; illegal actions carry a reason; legal actions and apply
agree; effects account for every change; chance outcomes are declared; views never leak another
seat's hidden cards; concession and the turn limit end a match.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engine import SPECTATOR, MatchConfig, Viewer, games
from engine.core.chance import ReplayChance
from engine.core.contract import Ruleset
from engine.core.copying import copy_state
from engine.core.effects import CardMoved, MatchEnded, ValueChanged
from engine.core.errors import ActionError, IllegalAction
from tests.support import MAX_ACTIONS, PLAYOUT_OPTIONS, RandomChance, playout, sample_config
from tests.toygame import BlindBid

CONFORMING = [*games(), BlindBid()]  # every registered game, and the toy game of the guide
PLAYOUTS = 12


def _config(ruleset: Ruleset, players: int) -> MatchConfig:
    return sample_config(ruleset, players, PLAYOUT_OPTIONS.get(ruleset.game_id, {}))


@pytest.fixture(scope="module", params=CONFORMING, ids=lambda r: r.game_id)
def ruleset(request: pytest.FixtureRequest) -> Ruleset:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def playouts(ruleset: Ruleset) -> list[dict[str, Any]]:
    return [playout(ruleset, seed) for seed in range(PLAYOUTS)]


def test_random_playouts_reach_an_end(ruleset: Ruleset, playouts: list[dict[str, Any]]) -> None:
    for log in playouts:
        result = ruleset.outcome(log["final"])
        assert result is not None
        assert result.reason
        assert result.drawn or result.winners


def test_replaying_stored_outcomes_gives_the_same_digests(
        ruleset: Ruleset, playouts: list[dict[str, Any]]) -> None:
    for log in playouts:
        chance = ReplayChance(log["setup"])
        state = ruleset.setup(log["config"], chance)
        chance.finish()
        assert ruleset.digest(state) == ruleset.digest(log["states"][0])
        for i, (action, outcomes) in enumerate(log["actions"], start=1):
            chance = ReplayChance(outcomes)
            state = ruleset.apply(state, action, chance)
            chance.finish()
            assert ruleset.digest(state) == ruleset.digest(log["states"][i])


def test_applying_in_place_reaches_the_same_positions(
        ruleset: Ruleset, playouts: list[dict[str, Any]]) -> None:
    """``apply_in_place`` (rebuilding positions) changes and returns the state it is given,
    and reaches the position ``apply`` reached, action after action."""
    for log in playouts:
        state = copy_state(log["states"][0])
        for i, (action, outcomes) in enumerate(log["actions"], start=1):
            chance = ReplayChance(outcomes)
            assert ruleset.apply_in_place(state, action, chance) is state
            chance.finish()
            assert ruleset.digest(state) == ruleset.digest(log["states"][i])


def test_every_illegal_action_carries_a_reason(ruleset: Ruleset,
                                               playouts: list[dict[str, Any]]) -> None:
    """Take legal actions and break them (wrong seat, after the end): each refusal has a reason."""
    log = playouts[1]
    refused = []
    for state, (action, _) in list(zip(log["states"], log["actions"]))[:40]:
        wrong_seat = {**action, "seat": (action["seat"] % len(state.players)) + 1}
        try:
            ruleset.apply(state, wrong_seat, RandomChance(random.Random(0)))
        except IllegalAction as exc:
            assert exc.reason and exc.message
            refused.append(exc.reason)
    # games with out-of-turn actions may accept a few, but the turn order must refuse most
    assert len(refused) > len(log["actions"][:40]) // 2
    with pytest.raises(IllegalAction) as info:
        ruleset.apply(log["final"], log["actions"][-1][0], RandomChance(random.Random(0)))
    assert info.value.reason == "match_over"
    with pytest.raises(ActionError) as malformed:
        ruleset.apply(log["states"][0], {"type": "no_such_action", "seat": 1},
                      RandomChance(random.Random(0)))
    assert malformed.value.reason == "malformed_action"


def test_views_hide_what_the_zone_table_hides(ruleset: Ruleset,
                                              playouts: list[dict[str, Any]]) -> None:
    """No card of a place a viewer may not see appears in that viewer's view, unless the same
    card id is also somewhere the viewer may see (copies of a card share an id in some games);
    and the views of the table do show what is hidden from others."""
    hidden_somewhere = 0
    for state in playouts[2]["states"][1::9]:
        places = ruleset.places(state)
        for viewer in [SPECTATOR, *(Viewer("seat", s) for s in state.seats())]:
            seen = {c for p, cards in places.items() if ruleset.sees(viewer, p.zone, p.seat)
                    for c in cards}
            hidden = {c for p, cards in places.items()
                      if not ruleset.sees(viewer, p.zone, p.seat) for c in cards} - seen
            text = json.dumps(ruleset.view(state, viewer))
            leaked = sorted(c for c in hidden if f'"{c}"' in text)
            assert not leaked, (str(viewer), leaked)
            hidden_somewhere += bool(hidden)
    assert hidden_somewhere


def test_concession_ends_a_two_player_match(ruleset: Ruleset,
                                            playouts: list[dict[str, Any]]) -> None:
    state = playouts[0]["states"][2]
    after = ruleset.apply(state, {"type": "concede", "seat": 1}, RandomChance(random.Random(0)))
    result = ruleset.outcome(after)
    assert result is not None and result.reason == "concession" and 1 in result.losers


def test_turn_limit_ends_the_match(ruleset: Ruleset) -> None:
    config = _config(ruleset, ruleset.min_players)
    config = config.model_copy(update={"options": {**config.options, "turn_limit": 2}})
    ended_by_time = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = ruleset.setup(config, RandomChance(rng))
        for _ in range(MAX_ACTIONS):
            if ruleset.outcome(state):
                break
            assert state.turn <= 2
            action = rng.choice(ruleset.legal_actions(state, rng.choice(ruleset.to_act(state))))
            state = ruleset.apply(state, action, RandomChance(rng))
        result = ruleset.outcome(state)
        assert result is not None
        ended_by_time += result.reason == "turn_limit"
    assert ended_by_time > 0


def _applies(ruleset: Ruleset, state: Any, action: dict[str, Any]) -> bool:
    try:
        ruleset.apply(state, action, RandomChance(random.Random(1)))
    except IllegalAction:
        return False
    return True


def test_legal_actions_and_apply_agree(ruleset: Ruleset,
                                       playouts: list[dict[str, Any]]) -> None:
    """Every listed action applies; for actions listed elsewhere (other seats, neighbouring
    positions) ``in legal_actions`` says exactly what ``apply`` does, and ``check`` raises the
    reason ``apply`` raises."""
    agreed = refused = 0
    for log in playouts[:4]:
        states = log["states"]
        for i in range(0, len(states) - 1, max(1, len(states) // 15)):
            state = states[i]
            if ruleset.outcome(state) is not None:
                continue
            pool: list[dict[str, Any]] = []
            for j in (i - 1, i, i + 1):
                if 0 <= j < len(states) and ruleset.outcome(states[j]) is None:
                    for seat in states[j].in_play():
                        pool += [a.model_dump(mode="json") for a in
                                 list(ruleset.legal_actions(states[j], seat))[:12]]
            for seat in ruleset.to_act(state):
                legal = ruleset.legal_actions(state, seat)
                assert len(legal) == len(list(legal)) > 0
                for action in legal:
                    assert action in legal and _applies(ruleset, state, action.model_dump())
            for action in pool:
                in_legal = action in ruleset.legal_actions(state, action["seat"])
                assert in_legal == _applies(ruleset, state, action), (i, action)
                agreed += 1
                if not in_legal:
                    refused += 1
                    with pytest.raises(IllegalAction) as checked:
                        ruleset.check(state, action)
                    with pytest.raises(IllegalAction) as applied:
                        ruleset.apply(state, action, RandomChance(random.Random(1)))
                    assert checked.value.reason == applied.value.reason
    assert agreed > 50 and refused > 5, (agreed, refused)


def test_membership_is_exact_not_a_list_lookup(ruleset: Ruleset,
                                               playouts: list[dict[str, Any]]) -> None:
    """A legal action that is not one of the listed representatives is still ``in`` the view;
    another seat's action, garbage and a malformed action are not."""
    state = playouts[0]["states"][3]
    seat = ruleset.to_act(state)[0]
    legal = ruleset.legal_actions(state, seat)
    concede = {"type": "concede", "seat": seat}
    assert concede not in list(legal.__iter__()) and concede in legal
    assert {"type": "concede", "seat": seat % len(state.players) + 1} not in legal
    assert {"type": "no_such_action", "seat": seat} not in legal
    assert "concede" not in legal
    for choice in legal.choices:
        assert choice.action in legal.sampled and choice.options is not None


def test_effects_account_for_every_change(ruleset: Ruleset,
                                         playouts: list[dict[str, Any]]) -> None:
    """Replaying with ``step``: moving the reported cards turns the places before into the
    places after, the reported values are exactly the changed ones, and a step leaves nothing
    of its bookkeeping on the states."""
    log = playouts[0]
    state = log["states"][0]
    for action, outcomes in log["actions"]:
        step = ruleset.step(state, action, ReplayChance(outcomes))
        places = {p: Counter(cards) for p, cards in ruleset.places(state).items()}
        for e in step.effects:
            if isinstance(e, CardMoved):
                if e.source is not None:
                    places[e.source][e.card] -= 1
                if e.target is not None:
                    places.setdefault(e.target, Counter())[e.card] += 1
        after = ruleset.places(step.state)
        assert {p: +c for p, c in places.items() if +c} == {
            p: Counter(cards) for p, cards in after.items() if cards}
        changed = {e.name: e.after for e in step.effects if isinstance(e, ValueChanged)}
        old, new = ruleset.values(state), ruleset.values(step.state)
        assert changed == {k: new.get(k) for k in set(old) | set(new) if old.get(k) != new.get(k)}
        assert "_effects" not in vars(step.state) and "_effects" not in vars(state)
        state = step.state
    assert isinstance(step.effects[-1], MatchEnded)


def test_effects_name_hidden_cards_only_to_those_who_may_see_them(
        ruleset: Ruleset, playouts: list[dict[str, Any]]) -> None:
    log = playouts[0]
    hidden = shown = 0
    for state, (action, outcomes) in list(zip(log["states"], log["actions"]))[:60]:
        step = ruleset.step(state, action, ReplayChance(outcomes))
        for viewer in [SPECTATOR, *(Viewer("seat", s) for s in state.seats())]:
            for effect in ruleset.effects_seen_by(step.effects, viewer):
                if not isinstance(effect, CardMoved):
                    continue
                ends = [p for p in (effect.source, effect.target) if p is not None]
                visible = any(ruleset.sees(viewer, p.zone, p.seat) for p in ends)
                assert (effect.card is not None) == visible
                hidden += not visible
                shown += visible
    assert hidden and shown


def test_every_chance_outcome_is_declared_with_its_type(ruleset: Ruleset,
                                                       playouts: list[dict[str, Any]]) -> None:
    """C1 documented: each outcome an action asks for is a kind its model lists in
    ``consumes``, of the type the game's ``outcome_kinds`` says (so the schema tells a
    physical table what to enter)."""
    kinds = {k.kind: k.type for k in ruleset.outcome_kinds}
    models = {m.model_fields["type"].default: m for m in ruleset.actions}
    for log in playouts[:4]:
        for o in log["setup"]:
            family = o.kind.split(":", 1)[0]
            assert family in ruleset.setup_consumes and type(o) is kinds[family], o
        for action, outcomes in log["actions"]:
            model = models.get(action["type"])
            for o in outcomes:
                family = o.kind.split(":", 1)[0]
                assert model is not None and family in model.consumes, (action["type"], o)
                assert type(o) is kinds[family], o
                assert ruleset.typed_outcomes([o.to_data()]) == [o]
