"""The leak scanner's refusals: a refusal is a read too, and tells nothing of a hidden card.

Over a real ``kiroku serve``, for every game: a match is recorded part way, then each seat, with
its own credential, posts every action type of the game with every text field of it set, in
turn, to every card id of the set it may not know (hidden from it: another seat's deck list,
a hand, a face-down pile), to every instance id of a card in a place it may not see, and to
ids that exist nowhere. For one action field, every such refusal must be the same bytes: a
card hidden from the asker and a card that does not exist get the same answer, so trying ids
enumerates nothing. No answer may name a card the asker may not know, and nothing is stored.

The same for what a seat enters beside an action: chance outcomes in a match set up from a
physical table (every id as the outcome of an action that needs one), annotations
highlighting a card, and a study importing one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import httpx
import pytest

from engine import SPECTATOR, Viewer, games
from engine.core.actions import NAMES_CARDS
from engine.core.chance import ProbeChance
from engine.core.contract import GameState, Ruleset
from ledger.catalog import Deck
from ledger.fold import Fold
from ledger.identity import Identity
from replay.service import Kiroku
from tests.replay.conftest import Server, served_store
from tests.replay.test_leaks import _Knowledge, _leaks
from tests.support import PLAYOUT_OPTIONS, sample_data

NOWHERE = ("zz-no-such-card", "zz@1.99")  # ids of no card at all, in both shapes
SAMPLE_OTHER_FIELDS = 6  # probes of a text field that does not name cards (ids hidden)


@dataclass
class Tally:
    """What the scanner did, for the closing line of the run."""

    refusals: int = 0
    fields: int = 0
    differing: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    stored: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kiroku, Server]]:
    """A store the tests record in, and a real server reading it."""
    yield from served_store(tmp_path_factory, "refusals")


def _record(kiroku: Kiroku, ruleset: Ruleset, actions: int, seed: int,
            setup_outcomes: list[Any] | None = None) -> UUID:
    """A match of the game's sample decks under closed deck lists, ``actions`` random legal
    actions in (from a physical table when ``setup_outcomes`` are given: the judge enters
    every later outcome from the seeded match these came from)."""
    cards, decks = sample_data(ruleset)
    players = ruleset.min_players
    match_id = kiroku.new_match(
        ruleset.game_id, [f"P{i}" for i in range(1, players + 1)],
        [Deck(ruleset.game_id, "", "", decks[i % len(decks)]) for i in range(players)],
        cards=cards, options=PLAYOUT_OPTIONS.get(ruleset.game_id, {}), replay_policy="closed",
        seed=bytes([seed]) * 32, setup_outcomes=setup_outcomes)
    rng = random.Random(seed)
    for _ in range(actions):
        state = kiroku.recorder.get_match(match_id).state
        if state.result is not None:
            break
        seat = rng.choice(ruleset.to_act(state))
        action = rng.choice(ruleset.legal_actions(state, seat))
        kiroku.record(match_id, action.model_dump(mode="json"), recorded_by="judge")
    return match_id


def _knowledge(kiroku: Kiroku, ruleset: Ruleset, match_id: UUID,
               players: int) -> tuple[_Knowledge, dict[str, str], list[dict[str, Any]]]:
    records = kiroku.records(kiroku.seen_by(match_id))
    knowledge = _Knowledge(ruleset, [SPECTATOR, *(Viewer("seat", s)
                                                  for s in range(1, players + 1))])
    Fold(knowledge).feed_all(records)
    names = {cid: str(c.get("name")) for cid, c in records[0]["config"]["cards"].items()}
    return knowledge, names, records


def _hidden_instances(ruleset: Ruleset, state: GameState, seat: int) -> list[str]:
    """The instance ids of cards in places the seat may not see and does not own."""
    viewer = Viewer("seat", seat)
    shown = {c for place, cards in ruleset.places(state).items()
             if place.seat == seat or ruleset.sees(viewer, place.zone, place.seat)
             for c in cards}
    return sorted({c for cards in ruleset.places(state).values() for c in cards
                   if "@" in c and c not in shown})


def _text_fields(ruleset: Ruleset) -> dict[str, dict[str, tuple[str, bool]]]:
    """By action type: each text field (a string, a list or a mapping of them) with its shape
    (``one``, ``list``, ``map``) and whether it is declared to name cards; judges' actions
    (adjustments, rulings) left out."""
    schema = ruleset.action_schema()
    out: dict[str, dict[str, tuple[str, bool]]] = {}
    for kind, ref in schema["discriminator"]["mapping"].items():
        if ruleset.judges_only(kind):
            continue
        model = schema["$defs"][ref.rsplit("/", 1)[-1]]
        fields: dict[str, tuple[str, bool]] = {}
        for name, prop in model["properties"].items():
            shape = _shape(prop)
            if shape and name != "type":
                fields[name] = (shape, bool(prop.get(NAMES_CARDS)))
        out[kind] = fields
    return out


def _shape(prop: dict[str, Any]) -> str | None:
    options = prop.get("anyOf", [prop])
    for option in options:
        if option.get("type") == "string" and "enum" not in option and "const" not in option:
            return "one"
        if option.get("type") == "array" and option.get("items", {}).get("type") == "string":
            return "list"
        if option.get("type") == "object" and \
                option.get("additionalProperties", {}).get("type") == "string":
            return "map"
    return None


def _template(ruleset: Ruleset, state: GameState, kind: str, seat: int,
              legal: bool) -> dict[str, Any]:
    """An action of ``kind`` by ``seat``: with ``legal``, a legal one where the seat has one
    now (so that only the probed card is wrong), else one built from the schema's required
    fields (for a field that does not name a card, which a legal action would take as it is
    and store)."""
    for action in ruleset.legal_actions(state, seat) if legal else ():
        data = action.model_dump(mode="json")
        if data["type"] == kind:
            return data
    schema = ruleset.action_schema()
    model = schema["$defs"][schema["discriminator"]["mapping"][kind].rsplit("/", 1)[-1]]
    data = {"type": kind, "seat": seat}
    for name in model.get("required", []):
        if name not in data:
            data[name] = _filler(model["properties"][name])
    return data


def _filler(prop: dict[str, Any]) -> Any:
    option = prop.get("anyOf", [prop])[0]
    if "enum" in option:
        return option["enum"][0]
    if "const" in option:
        return option["const"]
    return {"string": "filler", "integer": 1, "boolean": False, "array": [],
            "object": {}}.get(option.get("type", "string"), "filler")


def _set(action: dict[str, Any], name: str, shape: str, value: str,
         seat: int) -> dict[str, Any]:
    other = 2 if seat == 1 else 1
    put: Any = {"one": value, "list": [value], "map": {str(other): value}}[shape]
    return {**action, name: put}


def _scan(client: httpx.Client, url: str, bodies: dict[str, dict[str, Any]],
          hidden: set[str], names: dict[str, str], known: set[str], what: str,
          tally: Tally) -> None:
    """POST each body (by probe id); every answer refused alike, none naming a hidden card.
    An answer may echo the probe as it was written (the asker's own words tell it nothing):
    it is compared, and searched, with the probe put as ``<probe>``."""
    answers: dict[str, tuple[int, str]] = {}
    for probe, body in bodies.items():
        response = client.post(url, json=body)
        text = response.text.replace(json.dumps(probe)[1:-1], "<probe>")
        answers[probe] = (response.status_code, text)
        tally.refusals += 1
        if response.status_code < 400:
            tally.stored.append(f"{what} {probe}: {response.status_code}")
        found = _leaks(text, hidden, names, known)
        if found:
            tally.leaks.append(f"{what} {probe}: names {found} in {text[:200]}")
    distinct = {answer for answer in answers.values()}
    tally.fields += 1
    if len(distinct) > 1:
        by_answer: dict[tuple[int, str], list[str]] = {}
        for probe, answer in answers.items():
            by_answer.setdefault(answer, []).append(probe)
        tally.differing.append(f"{what}: " + " | ".join(
            f"{probes[:3]} -> {answer[0]} {answer[1][:160]}"
            for answer, probes in by_answer.items()))


@pytest.mark.parametrize("ruleset", games(), ids=[g.game_id for g in games()])
def test_no_refusal_tells_a_hidden_card_from_one_that_does_not_exist(
        store: tuple[Kiroku, Server], ruleset: Ruleset) -> None:
    kiroku, running = store
    match_id = _record(kiroku, ruleset, actions=12, seed=5)
    players = ruleset.min_players
    tokens = {s["seat"]: s["token"] for s in kiroku.seat_credentials(match_id,
                                                                       Identity.operator())}
    knowledge, names, _ = _knowledge(kiroku, ruleset, match_id, players)
    state = kiroku.recorder.get_match(match_id).state
    before = kiroku.recorder.get_match(match_id).version
    every = set(names)
    fields = _text_fields(ruleset)
    tally = Tally()
    rng = random.Random(1)
    for seat in range(1, players + 1):
        known = knowledge.known[-1][f"seat:{seat}"]
        hidden = every - known
        probes = sorted(hidden) + _hidden_instances(ruleset, state, seat) + list(NOWHERE)
        assert hidden, f"seat {seat} has no hidden card to try"
        with running.client(tokens[seat]) as client:
            for kind, text_fields in fields.items():
                for name, (shape, names_cards) in text_fields.items():
                    template = _template(ruleset, state, kind, seat, legal=names_cards)
                    tried = probes if names_cards else [
                        *rng.sample(sorted(hidden), min(SAMPLE_OTHER_FIELDS, len(hidden))),
                        *NOWHERE]
                    bodies = {p: {"action": _set(template, name, shape, p, seat)}
                              for p in tried}
                    _scan(client, f"/matches/{match_id}/actions", bodies, hidden, names,
                          known, f"seat {seat} {kind}.{name}", tally)
            _annotations(client, match_id, sorted(hidden) + list(NOWHERE), hidden, names,
                         known, seat, tally)
    assert not tally.differing, "\n".join(tally.differing)
    assert not tally.leaks, "\n".join(tally.leaks)
    assert not tally.stored, tally.stored
    assert kiroku.recorder.get_match(match_id).version == before
    assert tally.refusals > 50 * players and tally.fields > 2 * players
    print(f"{ruleset.game_id}: {tally.refusals} refusals over {tally.fields} fields")


def _annotations(client: httpx.Client, match_id: UUID, probes: list[str], hidden: set[str],
                 names: dict[str, str], known: set[str], seat: int, tally: Tally) -> None:
    """Highlights and arrows of an annotation, directly and in an imported study."""
    url = f"/matches/{match_id}/annotations"
    for visibility in ("private", "public"):
        _scan(client, url, {p: {"text": "probe", "highlights": [p], "visibility": visibility}
                            for p in probes}, hidden, names, known,
              f"seat {seat} annotation ({visibility})", tally)
    studies: dict[str, str] = {}
    for probe in probes:
        note = json.dumps({"text": "probe", "highlights": [probe], "visibility": "team"})
        studies[probe] = f'[Kiroku "study/1"]\n[Match "{match_id}"]\n\n0. setup\n  ; {note}\n'
    answers = {p: client.post("/studies/import", content=text.encode(),
                              headers={"content-type": "text/plain"})
               for p, text in studies.items()}
    tally.refusals += len(answers)
    seen = {p: (r.status_code, r.text.replace(p, "<probe>")) for p, r in answers.items()}
    distinct = set(seen.values())
    tally.fields += 1
    if len(distinct) > 1:
        tally.differing.append(f"seat {seat} study import: {sorted(distinct)[:3]}")
    tally.stored += [f"study {p}" for p, r in answers.items() if r.status_code < 400]
    tally.leaks += [f"study {p}: {text[:200]}" for p, (_, text) in seen.items()
                    if _leaks(text, hidden, names, known)]


@pytest.mark.parametrize("ruleset", games(), ids=[g.game_id for g in games()])
def test_a_seat_enters_only_the_outcomes_it_may_see_and_learns_nothing_from_a_refused_one(
        store: tuple[Kiroku, Server], ruleset: Ruleset) -> None:
    """A match set up from a physical table (the setup outcomes of a seeded one): each seat
    posts, for each of its legal actions that asks chance for something, every id it may not
    know as the outcome; every refusal of one action is the same bytes, and names nothing."""
    kiroku, running = store
    seeded = _record(kiroku, ruleset, actions=0, seed=9)
    setup = kiroku.records(kiroku.seen_by(seeded))[0]["setup_outcomes"]
    match_id = _record(kiroku, ruleset, actions=0, seed=9, setup_outcomes=setup)
    players = ruleset.min_players
    tokens = {s["seat"]: s["token"] for s in kiroku.seat_credentials(match_id,
                                                                       Identity.operator())}
    tally = Tally()
    tried_actions = 0
    for _ in range(40):  # walk on (a judge entering what the seed drew) to actions with chance
        match = kiroku.recorder.get_match(match_id)
        state = match.state
        knowledge, names, _ = _knowledge(kiroku, ruleset, match_id, players)
        for seat in ruleset.to_act(state):
            known = knowledge.known[-1][f"seat:{seat}"]
            hidden = set(names) - known
            chancy = [a.model_dump(mode="json") for a in ruleset.legal_actions(state, seat)
                      if a.consumes]
            with running.client(tokens[seat]) as client:
                for action in chancy[:2]:
                    tried_actions += 1
                    probes = sorted(hidden) + list(NOWHERE)
                    bodies = {p: {"action": action, "outcomes": [p]} for p in probes}
                    _scan(client, f"/matches/{match_id}/actions", bodies, hidden, names, known,
                          f"seat {seat} {action['type']} outcome", tally)
        if tried_actions >= 3 or state.result is not None:
            break
        seat = ruleset.to_act(state)[0]
        action = ruleset.legal_actions(state, seat)[0]
        _advance(kiroku, ruleset, match_id, action.model_dump(mode="json"))
    assert tried_actions, "no action with chance was tried"
    assert not tally.differing, "\n".join(tally.differing)
    assert not tally.leaks, "\n".join(tally.leaks)
    assert not tally.stored, tally.stored
    print(f"{ruleset.game_id}: {tally.refusals} outcome refusals over {tally.fields} actions")


def _advance(kiroku: Kiroku, ruleset: Ruleset, match_id: UUID, action: dict[str, Any]) -> None:
    """Record ``action`` as a judge at the table, entering the outcomes a probing chance picks
    (possible ones, whatever the seed would have drawn)."""
    chance = ProbeChance()
    ruleset.apply(kiroku.recorder.get_match(match_id).state, action, chance)
    kiroku.record(match_id, action, recorded_by="judge",
                  outcomes=[o.value for o in chance.outcomes])
