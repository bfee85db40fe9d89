"""The leak scanner: no channel that shows a match names a card its viewer may not know.

For every game, random playouts with several player counts are recorded for real. At many
positions, for every viewer (each seat and a spectator; after the end under the closed replay
policy), every reading channel is called: the service, the command line, and every HTTP
endpoint of a real server, called with the seat's own credential (or none, as a spectator) so
that the credential decides the viewer, including the refusals a seat gets when it asks for
more. Each whole output is searched for the card ids (and card names) the viewer cannot know.
What a viewer may know is worked out from the zone table alone, independently of the channels:
the cards it has seen in a place it may see at any position so far, and its own deck list.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import main
from engine import JUDGE, SPECTATOR, Viewer, games
from engine.core.contract import GameState, Ruleset
from engine.core.errors import ActionError
from engine.registry import get_game
from ledger.catalog import Deck
from ledger.fold import Fold, Record, Visitor
from ledger.identity import Identity
from replay import annotations as annotating
from replay import disputes as hearing
from replay import study as studies
from replay import variations as lines
from replay.service import Kiroku
from tests.replay.conftest import Server, serve
from tests.support import PLAYOUT_OPTIONS, sample_data

CASES = [(g, n) for g in games()
         for n in sorted({g.min_players, min(g.max_players, 3), min(g.max_players, 4),
                          min(g.max_players, 6)})]


def _card_id(instance: str) -> str:
    return instance.partition("@")[0]


class _Knowledge(Visitor):
    """What each viewer may know at each live position: every card it could see so far."""

    def __init__(self, ruleset: Ruleset, viewers: list[Viewer]) -> None:
        self.ruleset = ruleset
        self.viewers = viewers
        self.known: list[dict[str, set[str]]] = []  # by live position, by viewer
        self.every: set[str] = set()

    def _see(self, state: GameState) -> None:
        before = self.known[-1] if self.known else {str(v): set() for v in self.viewers}
        now = {}
        for viewer in self.viewers:
            seen = set(before[str(viewer)])
            for place, cards in self.ruleset.places(state).items():
                self.every.update(_card_id(c) for c in cards)
                if self.ruleset.sees(viewer, place.zone, place.seat):
                    seen.update(_card_id(c) for c in cards)
            now[str(viewer)] = seen
        self.known.append(now)

    def created(self, record: Record, state: GameState) -> None:
        for deck in record["config"]["decks"]:
            self.every.update(deck)
        self._see(state)
        for i, deck in enumerate(record["config"]["decks"], start=1):
            self.known[0][f"seat:{i}"].update(deck)  # a seat knows its own deck list

    def action(self, record: Record, before: GameState, after: GameState,
               position: int) -> None:
        del self.known[position:]
        self._see(after)

    def undone(self, record: Record, voided: list[Any], state: GameState) -> None:
        """What was seen stays known after an undo, as after a backup at a real table."""
        kept = self.known[-1]
        del self.known[len(self.known) - len(voided):]
        self.known[-1] = {v: self.known[-1][v] | kept[v] for v in kept}


def _record_playout(kiroku: Kiroku, ruleset: Ruleset, players: int, seed: int,
                    stop: int | None) -> UUID:
    cards, decks = sample_data(ruleset)
    match_id = kiroku.new_match(
        ruleset.game_id, [f"P{i}" for i in range(1, players + 1)],
        [Deck(ruleset.game_id, "", "", decks[i % len(decks)]) for i in range(players)],
        cards=cards, options=PLAYOUT_OPTIONS.get(ruleset.game_id, {}), replay_policy="closed",
        seed=bytes([seed]) * 32)
    rng = random.Random(seed)
    for n in range(3000):
        match = kiroku.recorder.get_match(match_id)
        if match.ended or n == stop:
            break
        if n and n % 17 == 0 and match.live:
            kiroku.undo(match_id, 1, reason="backup", recorded_by="judge")
            continue
        if n % 23 == 11 and _hand_to_deck(kiroku, ruleset, match_id, match.state):
            continue
        seat = rng.choice(ruleset.to_act(match.state))
        action = rng.choice(ruleset.legal_actions(match.state, seat))
        kiroku.record(match_id, action.model_dump(mode="json"), recorded_by=f"P{seat}")
    return match_id


def _hand_to_deck(kiroku: Kiroku, ruleset: Ruleset, match_id: UUID, state: GameState) -> bool:
    """A judge's adjustment that moves a card nobody else may see (a hand card back into the
    deck): its record names the card, which only the judge's records may show."""
    for place, cards in ruleset.places(state).items():
        if place.zone == "hand" and place.seat is not None and cards:
            try:
                kiroku.record(match_id, {"type": "adjust", "seat": place.seat,
                                         "reason": "card drawn by mistake", "move": {
                                             "card": _card_id(cards[0]), "from_zone": "hand",
                                             "to_zone": "deck"}}, recorded_by="judge")
            except ActionError:
                return False
            return True
    return False


def _hidden(knowledge: _Knowledge, position: int, viewer: Viewer) -> set[str]:
    return knowledge.every - knowledge.known[position][str(viewer)]


def _leaks(text: str, hidden: set[str], names: dict[str, str], known: set[str]) -> list[str]:
    known_names = {names[c] for c in known if c in names}
    found = [c for c in hidden if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)]
    shown = text  # a hidden name inside a known card's longer name is no leak ("Sunholt" in
    for name in sorted(known_names, key=len, reverse=True):  # "King Berenger of Sunholt")
        shown = shown.replace(name, "")
    found += [names[c] for c in hidden if c in names and names[c] not in known_names
              and names[c] in shown]
    return sorted(found)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kiroku, str, Server]]:
    """The store the playouts are recorded in, and a real server reading it."""
    path = tmp_path_factory.mktemp("leaks") / "kiroku.db"
    service = Kiroku.open(f"sqlite:///{path}")
    for server in serve(path):
        yield service, server.db_url, server
    service.close()


def _http(server: Server, token: str | None, match_id: UUID, positions: list[int],
          viewer: Viewer, dispute: UUID, variation: UUID) -> dict[str, str]:
    """Every HTTP reading channel, as the holder of ``token`` (None: a spectator) calls it,
    including what it is answered when it asks for more than it may."""
    url = f"/matches/{match_id}"
    out: dict[str, str] = {}
    with server.client(token) as c:
        for at in positions:
            out[f"http state at {at}"] = c.get(f"{url}/state", params={"at": at}).text
        for path in ("events", "transcript", "export?format=jsonl", "audit", ""):
            out[f"http {path or 'summary'}"] = c.get(f"{url}/{path}".rstrip("/")).text
        out["http /matches"] = c.get("/matches").text
        out["http annotations"] = c.get(f"{url}/annotations").text
        out["http disputes"] = c.get(f"{url}/disputes").text
        out["http dispute with evidence"] = c.get(f"/disputes/{dispute}").text
        out["http dispute by a prefix"] = c.get(f"/disputes/{str(dispute)[:6]}").text
        out["http variations"] = c.get(f"{url}/variations").text
        out["http variation"] = c.get(f"/variations/{variation}").text
        out["http variation legal"] = c.get(f"/variations/{variation}/legal").text
        out["http variation legal of another seat"] = c.get(
            f"/variations/{variation}/legal", params={"seat": 1 if viewer.seat != 1 else 2}).text
        out["http study"] = c.get(f"{url}/study").text
        out["http annotated transcript"] = c.get(f"{url}/transcript",
                                                 params={"annotated": "true"}).text
        out["http receipt"] = c.get(f"{url}/receipt").text
        out["http keys"] = c.get("/.well-known/kiroku-keys").text
        out["http me"] = c.get("/me").text
        with c.stream("GET", f"{url}/live") as r:  # the first event of the live stream
            lines: list[str] = []
            for line in r.iter_lines():
                lines.append(line)
                if line == "" and any(x.startswith("data:") for x in lines):
                    break
        out["http live"] = "\n".join(lines)
        out["http asks for the judge's view"] = c.get(f"{url}/state",
                                                      params={"viewer": "judge"}).text
        other = 1 if viewer.seat != 1 else 2
        out["http legal of another seat"] = c.get(f"{url}/legal", params={"seat": other}).text
        out["http acts for another seat"] = c.post(f"{url}/actions", json={
            "action": {"type": "pass", "seat": other}}).text
        out["http adjusts a card"] = c.post(f"{url}/actions", json={"action": {
            "type": "adjust", "seat": other, "reason": "probe",
            "move": {"card": "x", "from_zone": "hand", "to_zone": "nowhere"}}}).text
        if viewer.seat is not None:
            out["http legal"] = c.get(f"{url}/legal").text
    assert all(text for text in out.values())
    return out


@pytest.mark.parametrize(("ruleset", "players"), CASES,
                         ids=[f"{g.game_id}-{n}p" for g, n in CASES])
@pytest.mark.parametrize("stop", [None, 25], ids=["ended", "live"])
def test_no_channel_names_a_card_its_viewer_may_not_know(
        store: tuple[Kiroku, str, Server], ruleset: Ruleset, players: int,
        stop: int | None) -> None:
    kiroku, url, server = store
    match_id = _record_playout(kiroku, ruleset, players, seed=11 + players, stop=stop)
    tokens: dict[str, str | None] = {"spectator": None}
    tokens.update({f"seat:{s['seat']}": s["token"]
                   for s in kiroku.seat_credentials(match_id, Identity.operator())})
    viewers = [SPECTATOR, *(Viewer("seat", s) for s in range(1, players + 1))]
    callers = {"spectator": None, **{seat: kiroku.credentials.authenticate(token)
                                     for seat, token in tokens.items() if token}}
    _annotate_hidden_cards(kiroku, match_id, callers)
    match = kiroku.recorder.get_match(match_id)
    dispute = UUID(hearing.open_dispute(  # its evidence: every event, every seat's view
        kiroku, Identity.operator("Judge"), match_id, None, "the whole match",
        list(range(1, match.version + 1)), False)["dispute_id"])
    variation = _judges_line(kiroku, ruleset, match_id)
    full = kiroku.records(kiroku.seen_by(match_id, JUDGE))
    knowledge = _Knowledge(ruleset, viewers)
    Fold(knowledge).feed_all(full)
    names = {cid: str(card.get("name")) for cid, card in full[0]["config"]["cards"].items()}
    end = len(knowledge.known) - 1
    positions = sorted({0, end // 3, 2 * end // 3, end})
    scanned = 0
    for viewer in viewers:
        for position in positions:
            hidden = _hidden(knowledge, position, viewer)
            known = knowledge.known[position][str(viewer)]
            view = json.dumps(kiroku.view(kiroku.seen_by(match_id, viewer), position))
            assert not _leaks(view, hidden, names, known), (str(viewer), position)
            scanned += bool(hidden)
        hidden = _hidden(knowledge, end, viewer)
        known = knowledge.known[end][str(viewer)]
        audience = kiroku.audience(match_id, callers[str(viewer)])
        channels = {
            "events": json.dumps(kiroku.records(kiroku.seen_by(match_id, viewer))),
            "transcript": "\n".join(kiroku.transcript(kiroku.seen_by(match_id, viewer))),
            "export": kiroku.export(kiroku.seen_by(match_id, viewer), "jsonl").decode(),
            "summary": json.dumps(kiroku.summary(kiroku.seen_by(match_id))),
            "annotations": json.dumps(annotating.listing(kiroku, audience)),
            "cli replay": _cli(url, "replay", str(match_id), "--as", str(viewer)),
            "cli transcript": _cli(url, "transcript", str(match_id), "--as", str(viewer)),
        }
        channels.update(_http(server, tokens[str(viewer)], match_id, positions, viewer,
                              dispute, variation))
        channels["study"] = studies.export_study(kiroku, audience)
        channels["annotated transcript"] = "\n".join(
            studies.annotated_transcript(kiroku, audience))
        channels["variations"] = json.dumps(lines.listing(kiroku, audience))
        reader = callers[str(viewer)]
        if reader is not None:
            channels["dispute"] = json.dumps(hearing.read(kiroku, reader, dispute))
        if viewer.seat is not None:
            channels["legal"] = json.dumps(kiroku.legal_actions(kiroku.seen_by(match_id),
                                                                viewer.seat))
            channels["cli legal"] = _cli(url, "match", "legal", str(match_id), "--seat",
                                         str(viewer.seat))
        for channel, text in channels.items():
            assert not _leaks(text, hidden, names, known), (channel, str(viewer))
    assert scanned, "no viewer ever had anything hidden: the scanner checked nothing"


def _annotate_hidden_cards(kiroku: Kiroku, match_id: UUID,
                           callers: dict[str, Identity | None]) -> None:
    """Annotations that would leak if shown to the wrong reader: the judge's, for judges,
    highlighting every card spectators cannot see; each seat's own, for its team and in
    private, highlighting the cards only it can see."""
    match = kiroku.recorder.get_match(match_id)
    at = len(match.live)
    public = annotating.known_cards(kiroku, kiroku.seen_by(match_id, SPECTATOR), at)
    judge = Identity.operator("Judge")
    hidden = sorted(annotating.known_cards(kiroku, kiroku.seen_by(match_id, JUDGE), at)
                    - public)[:20]
    annotating.add(kiroku, kiroku.audience(match_id, judge), None,
                   f"judges: {' '.join(hidden)}", [], hidden, [], "judges")
    for name, identity in callers.items():
        if identity is None:
            continue
        own = sorted(annotating.known_cards(
            kiroku, kiroku.seen_by(match_id, identity.viewer_of(match_id)), at) - public)[:20]
        for visibility in ("team", "private"):
            annotating.add(kiroku, kiroku.audience(match_id, identity), None,
                           f"{name}: {' '.join(own)}", ["key_moment"], own, [], visibility)


def _judges_line(kiroku: Kiroku, ruleset: Ruleset, match_id: UUID) -> UUID:
    """A public what-if line by a judge from a middle position, a few actions long: every
    card it touches is the judge's to see."""
    judge = Identity.operator("Judge")
    match = kiroku.recorder.get_match(match_id)
    variation = UUID(lines.start(kiroku, kiroku.audience(match_id, judge),
                                 len(match.live) // 2, None, None, "what if",
                                 "public")["variation_id"])
    rng = random.Random(7)
    for _ in range(6):
        state = lines.state_of(kiroku, kiroku.variations.get(variation))
        if ruleset.outcome(state) is not None:
            break
        seat = rng.choice(ruleset.to_act(state))
        action = rng.choice(ruleset.legal_actions(state, seat))
        lines.play(kiroku, judge, variation, action.model_dump(mode="json"), None)
    line = kiroku.variations.get(variation)
    state = lines.state_of(kiroku, line)
    as_judge = kiroku.seen_by(match_id, JUDGE).seen_as
    as_spectator = kiroku.seen_by(match_id, SPECTATOR).seen_as
    hidden = sorted(annotating.cards_seen(ruleset, state, as_judge)
                    - annotating.cards_seen(ruleset, state, as_spectator))[:20]
    annotating.add(kiroku, kiroku.audience(match_id, judge), len(line.line), "on the line", [],
                   hidden, [], "judges", variation)
    return variation


def _cli(url: str, *args: str) -> str:
    result = CliRunner().invoke(main, ["--db", url, *args])
    assert result.exit_code == 0, (args, result.output)
    return result.output


def test_the_scanner_finds_a_leak() -> None:
    """The scanner's own check: a hidden card id (or its instance id) in an output is reported,
    so is the name of a hidden card unless a known card shares it, and a longer id that merely
    contains a hidden one is not mistaken for it."""
    text = json.dumps({"hand": ["WGS-011", "lamp-bearers@2"], "name": "Solar Union Cadet"})
    names = {"WGS-011": "Gear Smith", "WGS-021": "Solar Union Cadet", "lamp": "Lamp",
             "lamp-bearers": "Lamp Bearers", "WGS-01": "Short", "WGS-099": "Solar Union Cadet"}
    assert _leaks(text, {"WGS-011", "lamp", "WGS-01"}, names, set()) == ["WGS-011"]
    assert _leaks(text, {"lamp-bearers"}, names, set()) == ["lamp-bearers"]
    assert _leaks(text, {"WGS-021"}, names, set()) == ["Solar Union Cadet"]
    assert _leaks(text, {"WGS-021"}, names, {"WGS-099"}) == []
    assert _leaks(text, set(), names, set()) == []
    kings = {"K": "King Berenger of Sunholt", "D": "Sunholt"}
    assert _leaks('{"name": "King Berenger of Sunholt"}', {"D"}, kings, {"K"}) == []
    assert _leaks('{"name": "Sunholt"}', {"D"}, kings, {"K"}) == ["Sunholt"]


def test_no_tournament_channel_shows_a_closed_decklist(
        store: tuple[Kiroku, str, Server]) -> None:
    """Under the closed decklist policy, before the tournament is finished, no tournament
    channel (the tournament, its players, rounds, standings, results, the match list, every
    decklist asked for, and the refusals) names a card of a deck its reader does not hold:
    each player reads as themself, as the seat credential of their round's match, and a
    spectator reads with no credential. The matches are best of three, the second game
    started by a player, so each reads the series' games too, and is refused its next."""
    _, _, server = store
    cards, decks = sample_data(get_game("worldgainer"))
    names = {cid: str(card["name"]) for cid, card in cards.items()}
    with server.client(server.organiser_token) as organiser:
        made = organiser.post("/tournaments", json={"name": "Closed Lists Cup",
                                                    "game": "worldgainer",
                                                    "best_of": 3}).json()
        url = f"/tournaments/{made['tournament_id']}"
        tokens, lists = {}, {}
        for i, player in enumerate(("Ann", "Ben")):
            registered = organiser.post(f"{url}/players", json={"name": player}).json()
            tokens[player], lists[player] = registered["token"], decks[i % len(decks)]
            with server.client(registered["token"]) as holder:
                assert holder.put(f"{url}/players/{player}/decklist",
                               json={"deck": lists[player]}).status_code == 200
        paired = organiser.post(f"{url}/rounds", json={"tables": [
            {"table": 1, "players": ["Ann", "Ben"]}]}).json()
    seats = {s["name"]: s["token"] for s in paired["tables"][0]["seats"]}
    with server.client(seats["Ben"]) as ben:
        assert ben.post(f"/matches/{paired['tables'][0]['match_id']}/actions",
                        json={"action": {"type": "concede", "seat": 2}}).status_code == 201
    with server.client(tokens["Ann"]) as ann:
        started = ann.post(f"{url}/rounds/1/tables/1/games")
        assert started.status_code == 201, started.text
    game_two = started.json()["current_match_id"]
    every = set(lists["Ann"]) | set(lists["Ben"])
    readers: dict[str, tuple[str | None, set[str]]] = {"spectator": (None, set())}
    for player in ("Ann", "Ben"):
        readers[player] = (tokens[player], set(lists[player]))
        readers[f"{player}'s seat"] = (seats[player], set(lists[player]))
    scanned = 0
    for reader, (token, own) in readers.items():
        hidden = every - own
        with server.client(token) as c:
            channels = {path: c.get(path).text for path in (
                "/tournaments", url, f"{url}/players", f"{url}/rounds/1", f"{url}/standings",
                f"{url}/standings?format=csv", f"{url}/results.csv",
                f"{url}/results.csv?shape=tables",
                f"/matches?tournament={made['tournament_id']}",
                f"{url}/players/Ann/decklist", f"{url}/players/Ben/decklist",
                f"{url}/disputes", "/me", f"/matches/{game_two}")}
            channels["next game refused"] = c.post(f"{url}/rounds/1/tables/1/games").text
            channels["drop refused"] = c.post(f"{url}/players/Ann/drop",
                                              json={"reason": "x"}).text
        for channel, text in channels.items():
            assert not _leaks(text, hidden, names, own), (reader, channel)
        scanned += bool(hidden)
    assert scanned == len(readers), "every reader had a list hidden from it"
