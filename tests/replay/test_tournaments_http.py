"""Tournaments over a real server (issue 14): the organiser's walkthrough from creating the event
to exporting the standings, each answer checked against the OpenAPI response models, and every
role's refusals with their status and error body, storing nothing."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from ledger.catalog import sample_decks
from replay.api.shapes import (
    DecklistOut,
    MatchListed,
    PlayerOut,
    PlayerRegisteredOut,
    RoundOut,
    StandingsOut,
    TableOut,
    TournamentDispute,
    TournamentOut,
)
from tests.replay.conftest import Server
from tests.replay.test_roles_http import error

DECKS = {name: dict(deck.cards) for name, deck in sample_decks("worldgainer").items()}
PLAYERS = [("Ann", "1001", "solar_vanguard"), ("Ben", "1002", "pleiades_bloom"),
           ("Cid", "1003", "solar_vanguard"), ("Dee", "1004", "pleiades_bloom"),
           ("Eve", "1005", "solar_vanguard")]


@dataclass
class Event:
    """A tournament with five registered players, and a client per role."""

    tournament_id: str
    organiser: httpx.Client
    judge: httpx.Client
    head: httpx.Client
    outside_judge: httpx.Client
    players: dict[str, httpx.Client]
    player_ids: dict[str, str]
    anonymous: httpx.Client

    @property
    def url(self) -> str:
        return f"/tournaments/{self.tournament_id}"


def _judge(client: httpx.Client, name: str) -> dict[str, Any]:
    made = client.post("/credentials", json={"role": "judge", "name": name})
    assert made.status_code == 201, made.text
    return dict(made.json())


@pytest.fixture
def event(server: Server, client: httpx.Client) -> Iterator[Event]:
    judge, head, outsider = (_judge(client, n) for n in ("Jo Judge", "Hana Head", "Olly"))
    made = client.post("/tournaments", json={
        "name": "Kiroku Open", "game": "worldgainer", "judges": [judge["credential_id"]],
        "head_judge": head["credential_id"]})
    assert made.status_code == 201, made.text
    shown = TournamentOut.model_validate(made.json())
    assert shown.head_judge and shown.head_judge.name == "Hana Head"
    url = f"/tournaments/{shown.tournament_id}"
    tokens, ids = {}, {}
    for name, number, _ in PLAYERS:
        registered = client.post(f"{url}/players", json={"name": name, "external_id": number})
        assert registered.status_code == 201, registered.text
        player = PlayerRegisteredOut.model_validate(registered.json())
        tokens[name], ids[name] = player.token, player.player_id
    clients = {"judge": server.client(judge["token"]), "head": server.client(head["token"]),
               "outside_judge": server.client(outsider["token"]),
               "anonymous": server.client()}
    players = {name: server.client(token) for name, token in tokens.items()}
    yield Event(shown.tournament_id, client, players=players, player_ids=ids, **clients)
    for c in [*clients.values(), *players.values()]:
        c.close()


def _submit(e: Event) -> None:
    for name, _, deck in PLAYERS:
        sent = e.players[name].put(f"{e.url}/players/{e.player_ids[name]}/decklist",
                                   json={"deck": DECKS[deck]})
        assert sent.status_code == 200, sent.text
        DecklistOut.model_validate(sent.json())


PAIRINGS = "Table,Player 1,Player 1 Decklist,Player 2\r\n1,1001,,1002\r\n2,1003,,1004\r\n" \
           ",1005,,BYE\r\n"


def test_from_registration_to_the_final_standings(event: Event) -> None:
    e = event
    _submit(e)
    paired = e.organiser.post(f"{e.url}/rounds/csv", content=PAIRINGS,
                              headers={"content-type": "text/csv"})
    assert paired.status_code == 201, paired.text
    round_one = RoundOut.model_validate(paired.json())
    assert [t.status for t in round_one.tables] == ["not_started", "not_started"]
    assert [b.name for b in round_one.byes] == ["Eve"]
    seats = {s.name: s.token for t in round_one.tables for s in t.seats or []}
    assert set(seats) == {"Ann", "Ben", "Cid", "Dee"}
    assert TournamentOut.model_validate(e.organiser.get(e.url).json()).decklists_locked
    table_one = round_one.tables[0].match_id
    summary = e.anonymous.get(f"/matches/{table_one}").json()
    assert summary["tournament"]["round"] == 1 and summary["tournament"]["table"] == 1
    listed = e.anonymous.get("/matches", params={"tournament": e.tournament_id, "table": 2})
    assert [MatchListed.model_validate(m).match_id for m in listed.json()] == [
        round_one.tables[1].match_id]
    assert [m["players"] for m in e.anonymous.get(
        "/matches", params={"tournament": e.tournament_id, "player": "ann"}).json()] == [
        ["Ann", "Ben"]]

    with httpx.Client(base_url=str(e.organiser.base_url),
                      headers={"authorization": f"Bearer {seats['Ben']}"}) as ben:
        conceded = ben.post(f"/matches/{table_one}/actions",
                            json={"action": {"type": "concede", "seat": 2}})
        assert conceded.status_code == 201, conceded.text
    entered = e.judge.post(f"{e.url}/rounds/1/tables/2/result",
                           json={"drawn": True, "reason": "intentional draw"})
    assert entered.status_code == 200, entered.text
    done = RoundOut.model_validate(e.anonymous.get(f"{e.url}/rounds/1").json())
    assert done.complete
    assert [(t.result.source if t.result else None) for t in done.tables] == ["game", "judge"]

    table = StandingsOut.model_validate(e.anonymous.get(f"{e.url}/standings").json())
    assert [(s.name, s.rank, s.match_points) for s in table.standings] == [
        ("Ann", 1, 3), ("Eve", 2, 3), ("Cid", 3, 1), ("Dee", 3, 1), ("Ben", 5, 0)]
    as_csv = e.anonymous.get(f"{e.url}/standings", params={"format": "csv"})
    assert as_csv.headers["content-type"].startswith("text/csv")
    assert next(csv.DictReader(io.StringIO(as_csv.text)))["external_id"] == "1001"
    results = list(csv.DictReader(io.StringIO(e.anonymous.get(f"{e.url}/results.csv").text)))
    assert {(r["external_id"], r["result"]) for r in results} == {
        ("1001", "W"), ("1002", "L"), ("1003", "D"), ("1004", "D"), ("1005", "BYE")}
    finished = e.organiser.post(f"{e.url}/finish")
    assert TournamentOut.model_validate(finished.json()).finished
    assert e.anonymous.get(f"{e.url}/players/1002/decklist").status_code == 200


def test_each_role_is_refused_what_it_may_not_do(event: Event) -> None:
    e = event
    ann, ben = e.players["Ann"], e.players["Ben"]
    before = e.organiser.get(f"{e.url}/players").json()
    error(e.anonymous.post("/tournaments", json={"name": "X", "game": "worldgainer"}), 401,
          "unauthenticated")
    error(e.judge.post("/tournaments", json={"name": "X", "game": "worldgainer"}), 403,
          "forbidden", "organisers_only")
    error(ann.post(f"{e.url}/players", json={"name": "Zed"}), 403, "forbidden",
          "organisers_only")
    error(ann.put(f"{e.url}/players/1002/decklist", json={"deck": DECKS["pleiades_bloom"]}),
          403, "forbidden", "not_your_decklist")
    error(ann.put(f"{e.url}/players/1001/decklist", json={"deck": {"WGS-001": 501}}), 422,
          "malformed_request")
    error(ann.put(f"{e.url}/players/1001/decklist", json={"deck": {"WGS-001": 4}}), 422,
          "setup_error")
    error(e.judge.post(f"{e.url}/rounds", json={"tables": [
        {"table": 1, "players": ["1001", "1002"]}]}), 403, "forbidden", "organisers_only")
    error(e.organiser.post(f"{e.url}/rounds", json={"tables": [
        {"table": 1, "players": ["1001", "1002"]}]}), 422, "tournament_refused", "no_decklist")
    error(e.organiser.post(f"{e.url}/rounds/csv", content="no,pairings\n",
                           headers={"content-type": "text/csv"}), 422, "tournament_refused",
          "bad_pairings")
    assert e.organiser.get(e.url).json()["rounds"] == 0
    assert e.organiser.get(f"{e.url}/players").json() == before
    error(e.anonymous.get("/tournaments/6b6f7269-6b75-4000-8000-000000000000"), 404,
          "tournament_not_found")

    _submit(e)
    error(ann.get(f"{e.url}/players/1002/decklist"), 403, "forbidden", "decklist_closed")
    error(e.anonymous.get(f"{e.url}/players/1002/decklist"), 403, "forbidden",
          "decklist_closed")
    error(e.outside_judge.get(f"{e.url}/players/1002/decklist"), 403, "forbidden",
          "decklist_closed")
    for reader in (ben, e.judge, e.head, e.organiser):
        DecklistOut.model_validate(reader.get(f"{e.url}/players/1002/decklist").json())
    listed = [PlayerOut.model_validate(p) for p in e.anonymous.get(f"{e.url}/players").json()]
    assert all(p.has_decklist for p in listed)

    assert e.organiser.post(f"{e.url}/lock").status_code == 200
    error(ann.put(f"{e.url}/players/1001/decklist", json={"deck": DECKS["solar_vanguard"]}),
          422, "tournament_refused", "decklists_locked")
    amend = {"deck": DECKS["pleiades_bloom"], "reason": "registered the wrong list"}
    error(e.outside_judge.post(f"{e.url}/players/1001/decklist/amend", json=amend), 403,
          "forbidden", "tournament_staff_only")
    error(ann.post(f"{e.url}/players/1001/decklist/amend", json=amend), 403, "forbidden",
          "tournament_staff_only")
    amended = DecklistOut.model_validate(
        e.judge.post(f"{e.url}/players/1001/decklist/amend", json=amend).json())
    assert amended.deck == DECKS["pleiades_bloom"]
    assert [a.reason for a in amended.amendments] == ["registered the wrong list"]


def test_the_head_judge_hears_appeals_of_the_tournaments_matches(event: Event) -> None:
    e = event
    _submit(e)
    paired = e.organiser.post(f"{e.url}/rounds", json={
        "tables": [{"table": 1, "players": ["Ann", "Ben"]},
                   {"table": 2, "players": ["Cid", "Dee"]}], "byes": ["Eve"]})
    assert paired.status_code == 201, paired.text
    table = RoundOut.model_validate(paired.json()).tables[0]
    token = next(s.token for s in table.seats or [] if s.seat == 1)
    with httpx.Client(base_url=str(e.organiser.base_url),
                      headers={"authorization": f"Bearer {token}"}) as seat:
        opened = seat.post(f"/matches/{table.match_id}/disputes", json={"claim": "slow play"})
        url = f"/disputes/{opened.json()['dispute_id']}"
        status = RoundOut.model_validate(e.anonymous.get(f"{e.url}/rounds/1").json())
        assert status.tables[0].status == "awaiting_ruling"
        ruled = e.judge.post(f"{url}/rule", json={
            "decision": "No penalty", "reasoning": "Within time.", "remedy": {"kind": "none"}})
        assert ruled.status_code == 200, ruled.text
        assert seat.post(f"{url}/appeal", json={"reason": "He was slow"}).status_code == 200
    docket = e.head.get(f"{e.url}/disputes", params={"status": "appealed"})
    assert [TournamentDispute.model_validate(d).table for d in docket.json()] == [1]
    error(e.outside_judge.get(f"{e.url}/disputes"), 403, "forbidden", "tournament_staff_only")
    error(e.anonymous.get(f"{e.url}/disputes"), 401, "unauthenticated")
    ruling = {"decision": "Upheld", "reasoning": "Within time.", "remedy": {"kind": "none"}}
    error(e.judge.post(f"{url}/rule", json=ruling), 403, "forbidden", "organisers_only")
    final = e.head.post(f"{url}/rule", json=ruling)
    assert final.status_code == 200 and final.json()["status"] == "final", final.text


def test_tournaments_are_listed_and_filtered(event: Event) -> None:
    e = event
    found = e.anonymous.get("/tournaments", params={"player": "1003", "game": "worldgainer"})
    assert e.tournament_id in [TournamentOut.model_validate(t).tournament_id
                               for t in found.json()]
    assert e.anonymous.get("/tournaments", params={"game": "kami"}).json() == [
        t for t in e.anonymous.get("/tournaments").json() if t["game"] == "kami"]
    assert [p["name"] for p in e.anonymous.get(f"{e.url}/players",
                                               params={"name": "ee"}).json()] == ["Dee"]


def test_a_best_of_three_table_over_http(server: Server, client: httpx.Client) -> None:
    made = client.post("/tournaments", json={"name": "Kiroku Bo3", "game": "worldgainer",
                                             "best_of": 3, "tiebreakers": "mtr"})
    assert made.status_code == 201, made.text
    shown = TournamentOut.model_validate(made.json())
    assert (shown.best_of, shown.tiebreakers, shown.dropped) == (3, "mtr", 0)
    url = f"/tournaments/{shown.tournament_id}"
    tokens = {}
    for name, number, deck in PLAYERS[:4]:
        registered = client.post(f"{url}/players", json={"name": name, "external_id": number})
        tokens[name] = registered.json()["token"]
        assert client.put(f"{url}/players/{number}/decklist",
                          json={"deck": DECKS[deck]}).status_code == 200
    paired = RoundOut.model_validate(client.post(f"{url}/rounds", json={"tables": [
        {"table": 1, "players": ["1001", "1002"]},
        {"table": 2, "players": ["1003", "1004"]}]}).json())
    ann, cid = server.client(tokens["Ann"]), server.client(tokens["Cid"])
    game_one = paired.tables[0].match_id
    error(ann.post(f"{url}/rounds/1/tables/1/games"), 422, "tournament_refused",
          "game_in_progress")
    conceded = ann.post(f"/matches/{game_one}/actions",
                        json={"action": {"type": "concede", "seat": 1}})
    assert conceded.status_code == 201, conceded.text
    error(cid.post(f"{url}/rounds/1/tables/1/games"), 403, "forbidden", "not_your_table")
    error(server.client().post(f"{url}/rounds/1/tables/1/games"), 401, "unauthenticated")
    started = ann.post(f"{url}/rounds/1/tables/1/games")
    assert started.status_code == 201, started.text
    table = TableOut.model_validate(started.json())
    assert (table.game_wins, len(table.games), table.status) == ([0, 1], 2, "in_progress")
    game_two = table.current_match_id
    assert ann.post(f"/matches/{game_two}/actions", json={
        "action": {"type": "concede", "seat": 1}}).status_code == 201
    round_one = RoundOut.model_validate(server.client().get(f"{url}/rounds/1").json())
    decided = round_one.tables[0]
    assert decided.status == "result" and decided.result is not None
    assert (decided.result.game_wins, [w.name for w in decided.result.winners]) == (
        [0, 2], ["Ben"])

    entered = client.post(f"{url}/rounds/1/tables/2/result", json={
        "winners": ["1003"], "reason": "time called", "game_wins": [1, 0], "game_draws": 1})
    assert entered.status_code == 200, entered.text
    error(client.post(f"{url}/rounds/1/tables/1/result", json={
        "drawn": True, "reason": "ID"}), 422, "tournament_refused", "match_has_result")
    dropped = client.post(f"{url}/players/1004/drop", json={"reason": "went home"})
    assert PlayerOut.model_validate(dropped.json()).dropped
    error(client.post(f"{url}/rounds", json={"tables": [
        {"table": 1, "players": ["1001", "1004"]}]}), 422, "tournament_refused",
        "player_dropped")
    error(client.post(f"{url}/players/1004/drop", json={}), 422, "malformed_request")
    table_now = StandingsOut.model_validate(server.client().get(f"{url}/standings").json())
    assert table_now.tiebreakers[:4] == ["match_points", "opponents_match_win", "game_win",
                                         "opponents_game_win"]
    lines = {s.name: s for s in table_now.standings}
    assert (lines["Ben"].game_wins, lines["Ann"].game_losses, lines["Cid"].game_draws) == (
        2, 2, 1)
    assert lines["Dee"].dropped
    refused = client.post("/tournaments", json={"name": "Late", "game": "worldgainer",
                                                "deadline": "2020-01-01T00:00:00Z"})
    error(refused, 422, "tournament_refused", "deadline_passed")
    error(client.post("/tournaments", json={"name": "Odd", "game": "worldgainer",
                                            "best_of": 2}), 422, "malformed_request")


AETHERHUB = (Path(__file__).parent.parent / "data" / "pairings" / "aetherhub.csv").read_bytes()
AETHERHUB_PLAYERS = ("Name,Player ID\r\nAiko Arai,1\r\nBen Brandt,2\r\nChie Chiba,3\r\n"
                     "Dan Doi,4\r\nEri Endo,5\r\n")


def _csv_post(client: httpx.Client, path: str, data: bytes, **params: Any) -> httpx.Response:
    return client.post(path, content=data, params=params, headers={"content-type": "text/csv"})


def test_an_event_from_the_files_its_programs_export(server: Server,
                                                      client: httpx.Client) -> None:
    made = client.post("/tournaments", json={"name": "Files Cup", "game": "worldgainer"})
    url = f"/tournaments/{made.json()['tournament_id']}"
    bad = _csv_post(client, f"{url}/players/csv", b"Points,Deck\r\n3,x\r\n")
    error(bad, 422, "tournament_refused", "bad_players_file")
    assert "the header needs a name column" in bad.json()["message"]
    duplicate = AETHERHUB_PLAYERS.replace("Dan Doi,4", "Dan Doi,1").encode()
    error(_csv_post(client, f"{url}/players/csv", duplicate), 422, "tournament_refused",
          "bad_players_file")
    assert client.get(f"{url}/players").json() == []  # all or nothing
    registered = _csv_post(client, f"{url}/players/csv",
                           AETHERHUB_PLAYERS.encode("utf-16"))
    assert registered.status_code == 201, registered.text
    players = [PlayerRegisteredOut.model_validate(p) for p in registered.json()]
    assert [(p.name, p.external_id) for p in players][:2] == [("Aiko Arai", "1"),
                                                               ("Ben Brandt", "2")]
    assert all(p.token for p in players)
    for i, player in enumerate(players):
        deck = DECKS["solar_vanguard" if i % 2 == 0 else "pleiades_bloom"]
        assert client.put(f"{url}/players/{player.player_id}/decklist",
                          json={"deck": deck}).status_code == 200

    wrong_round = _csv_post(client, f"{url}/rounds/csv", AETHERHUB, round=5)
    error(wrong_round, 422, "tournament_refused", "bad_pairings")
    assert "holds rounds 1, 2, 3; round 5 is not among them" in \
        wrong_round.json()["message"]
    first = _csv_post(client, f"{url}/rounds/csv", AETHERHUB, filename="aetherhub.csv")
    assert first.status_code == 201, first.text  # the round paired next: 1, not the latest
    names = [[p.name for p in t.players] for t in RoundOut.model_validate(first.json()).tables]
    assert names == [["Aiko Arai", "Ben Brandt"], ["Chie Chiba", "Dan Doi"]]
    assert [b["name"] for b in first.json()["byes"]] == ["Eri Endo"]
    second = _csv_post(client, f"{url}/rounds/csv", AETHERHUB.decode().encode("cp1252"))
    assert second.status_code == 201, second.text
    assert [b["name"] for b in second.json()["byes"]] == ["Ben Brandt"]
    binary = _csv_post(client, f"{url}/rounds/csv", b"\x89PNG\r\n\x1a\n\x00\x00")
    error(binary, 422, "tournament_refused", "bad_pairings")
    assert "not text in UTF-8, UTF-16 or Windows-1252" in binary.json()["message"]
    as_tdf = _csv_post(client, f"{url}/rounds/csv", AETHERHUB, filename="round.tdf")
    error(as_tdf, 422, "tournament_refused", "bad_pairings")
    assert client.get(url).json()["rounds"] == 2

    ben = next(t for t in second.json()["tables"] if t["table"] == 2)
    assert ben["players"][0]["name"] == "Eri Endo"
    tables = client.get(f"{url}/results.csv", params={"shape": "tables"})
    assert tables.status_code == 200 and tables.text.startswith(
        "Round,Table,Player 1,Player 2,Player 1 Wins,Player 2 Wins,Draws")


TOM = (Path(__file__).parent.parent / "data" / "pairings" / "tom.tdf").read_bytes()
TOM_IDS = ("3865580", "4268713", "5124501", "4672166", "4842326", "5599533")


def test_a_tom_round_paired_and_its_outcomes_written_back(server: Server,
                                                           client: httpx.Client) -> None:
    made = client.post("/tournaments", json={"name": "League Cup", "game": "worldgainer",
                                             "tiebreakers": "pokemon"})
    url = f"/tournaments/{made.json()['tournament_id']}"
    players = "Name,POP ID\r\n" + "".join(f"P{n},{n}\r\n" for n in TOM_IDS)
    assert _csv_post(client, f"{url}/players/csv", players.encode()).status_code == 201
    for i, number in enumerate(TOM_IDS):
        deck = DECKS["solar_vanguard" if i % 2 == 0 else "pleiades_bloom"]
        assert client.put(f"{url}/players/{number}/decklist",
                          json={"deck": deck}).status_code == 200
    paired = client.post(f"{url}/rounds/csv", content=TOM, params={"filename": "cup.tdf"},
                         headers={"content-type": "application/xml"})
    assert paired.status_code == 201, paired.text
    round_one = RoundOut.model_validate(paired.json())
    assert [[p.external_id for p in t.players] for t in round_one.tables] == [
        ["3865580", "4268713"], ["5124501", "4672166"]]
    assert [b.external_id for b in round_one.byes] == ["4842326"]  # 5599533 entered late
    seat_two = round_one.tables[0].seats[1].token  # type: ignore[index]
    with server.client(seat_two) as conceding:
        assert conceding.post(f"/matches/{round_one.tables[0].match_id}/actions", json={
            "action": {"type": "concede", "seat": 2}}).status_code == 201
    assert client.post(f"{url}/rounds/1/tables/2/result", json={
        "drawn": True, "reason": "intentional draw"}).status_code == 200
    written = client.post(f"{url}/rounds/1/results.tdf", content=TOM,
                          headers={"content-type": "application/xml"})
    assert written.status_code == 200, written.text
    assert written.headers["content-type"].startswith("application/xml")
    changed = [(a, b) for a, b in zip(TOM.decode().splitlines(), written.text.splitlines(),
                                      strict=True) if a != b]
    assert [b.strip() for _, b in changed] == ['<match outcome="3">']  # table 1 was 1 already
    error(client.post(f"{url}/rounds/4/results.tdf", content=TOM,
                      headers={"content-type": "application/xml"}), 422,
          "tournament_refused", "unknown_round")
    table = StandingsOut.model_validate(client.get(f"{url}/standings").json())
    assert table.tiebreakers == ["match_points", "opponents_match_win",
                                 "opponents_opponents_match_win", "registration_order"]
