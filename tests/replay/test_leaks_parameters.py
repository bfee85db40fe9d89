"""The leak scanner's parameters: every reading route, with every combination of its query
parameters, as every caller.

The routes are the OpenAPI document's own: every GET whose path names a match, or one of the
match's disputes, variations or annotations, and the live stream. Each is called, over a real
``kiroku serve``, with every combination of its query parameters' probe values (``viewer``,
``annotated``, ``at``, ``format``, ``seat``, a window's ``until`` and ``last``) and both answer
formats (JSON and msgpack), by a spectator, each seat and an organiser. What an answer may name
is what the narrower of the caller's view and the asked one may know (an organiser asking for
the spectator's view gets a spectator's answer); a request for a wider view is refused, and its
refusal may name only what the caller may know. A route or a parameter the scanner has no probe
values for fails the test: a new door joins the scanner the day it opens.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

import httpx
import msgpack
import pytest

from engine import JUDGE, SPECTATOR, Viewer, games
from engine.core.contract import Ruleset
from ledger.fold import Fold
from ledger.identity import Identity
from replay import disputes as hearing
from replay.service import Kiroku
from tests.replay.conftest import Server, served_store
from tests.replay.test_leaks import (
    _annotate_hidden_cards,
    _hidden,
    _judges_line,
    _Knowledge,
    _leaks,
    _record_playout,
)

# the probe values of each query parameter of a reading route ("MID", "END": positions of the
# match or line the route reads)
PROBES: dict[str, list[str | None]] = {
    "viewer": [None, "judge", "spectator", "seat:1", "seat:2"],
    "annotated": [None, "true"],
    "at": [None, "0", "MID", "END"],
    "format": [None, "jsonl", "msgpack"],
    "seat": [None, "1", "2"],
    "until": [None, "4"],  # a window of the events (versions)
    "last": [None, "3"],
}
ACCEPTS = ("application/json", "application/msgpack")
IDS = ("{match_id}", "{dispute_id}", "{variation_id}", "{annotation_id}")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kiroku, Server]]:
    """A store the tests record in, and a real server reading it."""
    yield from served_store(tmp_path_factory, "parameters")


def _routes(server: Server) -> dict[str, list[str]]:
    """Every reading route of one match's channels, with its query parameters, from the
    OpenAPI document the server publishes, and the live stream (which the document leaves
    out: it does not end by itself)."""
    spec = httpx.get(f"{server.base}/openapi.json").json()
    routes = {"/matches/{match_id}/live": []}
    for path, operations in spec["paths"].items():
        if "get" in operations and any(name in path for name in IDS):
            routes[path] = [p["name"] for p in operations["get"].get("parameters", [])
                            if p["in"] == "query"]
    return routes


def _allowed(caller: str) -> Viewer:
    return {"spectator": SPECTATOR, "organiser": JUDGE}.get(caller) or Viewer.parse(caller)


def _reader(caller: str, asked: str | None) -> Viewer:
    """Whose knowledge bounds the answer: the asked view where the caller may have it, else
    the caller's own (the request is refused)."""
    allowed = _allowed(caller)
    if asked is None:
        return allowed
    wanted = Viewer.parse(asked)
    return wanted if allowed.is_judge or wanted in (allowed, SPECTATOR) else allowed


def _text(response: httpx.Response) -> str:
    """An answer as text: msgpack decoded to JSON, anything else as it came."""
    if response.headers.get("content-type", "").startswith("application/msgpack"):
        return json.dumps(msgpack.unpackb(response.content, raw=False), default=str)
    return response.text


def _first_event(client: httpx.Client, url: str, headers: dict[str, str]) -> str:
    with client.stream("GET", url, headers=headers) as r:
        if r.status_code != 200:
            r.read()
            return f"{r.status_code} {r.text}"
        lines: list[str] = []
        for line in r.iter_lines():
            lines.append(line)
            if line == "" and any(x.startswith("data:") for x in lines):
                break
        return "\n".join(lines)


def _combinations(params: list[str]) -> Iterator[dict[str, str]]:
    for values in itertools.product(*(PROBES[p] for p in params)):
        yield {p: v for p, v in zip(params, values) if v is not None}


@pytest.mark.parametrize("ruleset", games(), ids=[g.game_id for g in games()])
def test_no_parameter_of_any_reading_route_shows_a_caller_more_than_it_may_know(
        store: tuple[Kiroku, Server], ruleset: Ruleset) -> None:
    kiroku, server = store
    players = ruleset.min_players
    match_id = _record_playout(kiroku, ruleset, players, seed=31, stop=25)
    seats = kiroku.seat_credentials(match_id, Identity.operator())
    tokens: dict[str, str | None] = {"spectator": None, "organiser": server.organiser_token}
    tokens.update({f"seat:{s['seat']}": s["token"] for s in seats})
    callers = {"spectator": None, **{f"seat:{s['seat']}": kiroku.credentials.authenticate(
        s["token"]) for s in seats}}
    _annotate_hidden_cards(kiroku, match_id, callers)
    match = kiroku.recorder.get_match(match_id)
    dispute = hearing.open_dispute(kiroku, Identity.operator("Judge"), match_id, None,
                                   "the whole match", list(range(1, match.version + 1)),
                                   False)["dispute_id"]
    variation = _judges_line(kiroku, ruleset, match_id)
    annotation = next(a for a in kiroku.annotations.of_match(match_id)).id
    line = len(kiroku.variations.get(variation).line)
    full = kiroku.records(kiroku.seen_by(match_id))
    knowledge = _Knowledge(ruleset, [SPECTATOR, *(Viewer("seat", s)
                                                  for s in range(1, players + 1))])
    Fold(knowledge).feed_all(full)
    names = {cid: str(c.get("name")) for cid, c in full[0]["config"]["cards"].items()}
    end = len(knowledge.known) - 1
    ids = {"{match_id}": str(match_id), "{dispute_id}": dispute,
           "{variation_id}": str(variation), "{annotation_id}": str(annotation)}
    routes = _routes(server)
    unprobed = {p for params in routes.values() for p in params if p not in PROBES}
    assert not unprobed, f"reading route parameters without probe values: {unprobed}"
    calls = 0
    for caller, token in tokens.items():
        with server.client(token) as client:
            for path, params in routes.items():
                url = path
                for name, value in ids.items():
                    url = url.replace(name, value)
                last = line if "{variation_id}" in path else end
                for query in _combinations(params):
                    if "at" in query:
                        query["at"] = {"MID": str(last // 2), "END": str(last)}.get(
                            query["at"], query["at"])
                    reader = _reader(caller, query.get("viewer"))
                    hidden = set() if reader.is_judge else _hidden(knowledge, end, reader)
                    known = knowledge.known[end].get(str(reader), set())
                    for accept in ACCEPTS:
                        headers = {"accept": accept}
                        if path.endswith("/live"):
                            text = _first_event(client, url, headers)
                        else:
                            text = _text(client.get(url, params=query, headers=headers))
                        calls += 1
                        found = _leaks(text, hidden, names, known)
                        assert not found, (caller, path, query, accept, found, text[:300])
    assert calls > 200
    print(f"{ruleset.game_id}: {calls} reads of {len(routes)} routes")

