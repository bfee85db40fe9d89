"""Tournaments in the service (issue 14): who may create, enter, pair and read an event; decklists
checked when submitted, locked at the deadline or the first pairing and amended only by the
tournament's judges; rounds whose matches carry the registered decks and their seat in the event;
results from the game, a ruling or a judge; standings and the CSV files; appeals heard by the
head judge; refusals that store nothing."""

from __future__ import annotations

import copy
import csv
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid4

import pytest

from engine.core.errors import ActionError, SetupError
from engine.registry import get_game
from ledger.catalog import sample_decks
from ledger.errors import ConcurrentAppend, Forbidden
from ledger.identity import Identity, Role, Unauthenticated
from ledger.tournaments import TournamentNotFound, TournamentRefused
from replay import disputes as hearing
from replay import tournaments as events
from replay.pairings import Pairing
from replay.service import Kiroku

ORG = Identity.operator("TO Tomoko")
DECKS = sample_decks("worldgainer")
SOLAR = dict(DECKS["solar_vanguard"].cards)
BLOOM = dict(DECKS["pleiades_bloom"].cards)
PAST = "2020-01-01T09:00:00+09:00"
SOON = "2998-01-01T09:00:00+09:00"
AFTER_SOON = "2998-01-01T00:00:01.000000+00:00"  # as ``now()`` says it, after SOON in UTC
FUTURE = "2999-01-01T09:00:00+09:00"


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


@dataclass(frozen=True)
class Event:
    """A tournament with a head judge and a floor judge, and four players (external ids 1001
    to 1004, alternately on Solar Vanguard and Pleiades Bloom) whose lists are in."""

    id: UUID
    head: Identity
    judge: Identity
    players: list[str]  # player ids, registration order
    tokens: list[str]  # their credentials' tokens

    def player(self, kiroku: Kiroku, index: int) -> Identity:
        return kiroku.credentials.authenticate(self.tokens[index])


@pytest.fixture
def event(kiroku: Kiroku) -> Event:
    head, judge = _judge(kiroku, "Head Judge Hana"), _judge(kiroku, "Judge Jun")
    tid = _create(kiroku, judges=[judge.credential_id], head_judge=head.credential_id)
    made = [events.register(kiroku, ORG, tid, name, str(1001 + i))
            for i, name in enumerate(["Aiko", "Ben", "Chie", "Dan"])]
    for i, player in enumerate(made):
        events.submit_decklist(kiroku, ORG, tid, player["player_id"],
                               SOLAR if i % 2 == 0 else BLOOM)
    return Event(tid, head, judge, [p["player_id"] for p in made], [p["token"] for p in made])


def _judge(kiroku: Kiroku, name: str = "Judge Jo") -> Identity:
    return kiroku.credentials.issue(Role.JUDGE, name, issued_by="test")[0]


def _create(kiroku: Kiroku, caller: Identity | None = ORG, **extra: Any) -> UUID:
    made = events.create(kiroku, caller, name=extra.pop("name", "Kiroku Cup"),
                         game=extra.pop("game", "worldgainer"), **extra)
    return UUID(made["tournament_id"])


def _pair(kiroku: Kiroku, tid: UUID, *tables: Sequence[str],
          byes: Sequence[str] = ()) -> dict[str, Any]:
    """Pair the next round: table N holds the N-th group of players."""
    pairings = [Pairing(n, tuple(players)) for n, players in enumerate(tables, start=1)]
    return events.pair(kiroku, ORG, tid, pairings + [Pairing(None, (b,)) for b in byes])


def _match(answer: dict[str, Any], table: int) -> UUID:
    return UUID(next(t["match_id"] for t in answer["tables"] if t["table"] == table))


def _concede(kiroku: Kiroku, match_id: UUID, seat: int) -> None:
    kiroku.record(match_id, {"type": "concede", "seat": seat}, recorded_by=ORG.recorded_by)


def _stored(kiroku: Kiroku, tid: UUID) -> tuple[int, int]:
    """How many matches and how many events of the tournament are stored."""
    return len(kiroku.list_matches()), len(kiroku.tournaments.history(tid))


def _status(kiroku: Kiroku, tid: UUID, round_number: int, table: int) -> dict[str, Any]:
    view = events.round_view(kiroku, tid, round_number)
    return next(t for t in view["tables"] if t["table"] == table)


def _open_dispute(kiroku: Kiroku, match_id: UUID, by: Identity) -> UUID:
    made = hearing.open_dispute(kiroku, by, match_id, None, "Deck count disputed", [1], False)
    return UUID(made["dispute_id"])


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# ----- creating ----------------------------------------------------------------------------
def test_an_organiser_creates_a_tournament_with_its_staff(kiroku: Kiroku) -> None:
    head, judge = _judge(kiroku, "Hana"), _judge(kiroku, "Jun")
    tid = _create(kiroku, judges=[judge.credential_id], head_judge=head.credential_id,
                  decklists="open", deadline=FUTURE, options={"turn_limit": 30})
    shown = events.read(kiroku, tid)
    assert shown["name"] == "Kiroku Cup" and shown["game"] == "worldgainer"
    assert shown["options"] == {"turn_limit": 30, "decklists": "open"}
    assert shown["judges"] == [{"id": str(judge.credential_id), "name": "Jun"}]
    assert shown["head_judge"] == {"id": str(head.credential_id), "name": "Hana"}
    assert shown["deadline"] == "2999-01-01T00:00:00.000000+00:00"
    assert shown["created_by"]["role"] == "organiser"
    assert not shown["decklists_locked"] and not shown["finished"]


@pytest.mark.parametrize("who", ["judge", "player", "seat"])
def test_only_an_organiser_creates(kiroku: Kiroku, event: Event, who: str) -> None:
    callers = {"judge": event.judge, "player": event.player(kiroku, 0)}
    if who == "seat":
        answer = _pair(kiroku, event.id, event.players[:2])
        callers["seat"] = kiroku.credentials.authenticate(answer["tables"][0]["seats"][0]
                                                          ["token"])
    before = list(kiroku.tournaments.all_ids())
    with pytest.raises(Forbidden) as refused:
        _create(kiroku, callers[who])
    assert refused.value.reason == "organisers_only"
    assert list(kiroku.tournaments.all_ids()) == before


def test_creating_needs_a_credential(kiroku: Kiroku) -> None:
    with pytest.raises(Unauthenticated):
        _create(kiroku, None)
    assert list(kiroku.tournaments.all_ids()) == []


def test_an_unknown_game_is_refused(kiroku: Kiroku) -> None:
    with pytest.raises(ActionError) as refused:
        _create(kiroku, game="chess")
    assert refused.value.reason == "unknown_game"
    assert list(kiroku.tournaments.all_ids()) == []


@pytest.mark.parametrize("options", [{"turn_limit": 0}, {"no_such_option": 1}])
def test_a_bad_regulation_option_is_refused(kiroku: Kiroku, options: dict[str, Any]) -> None:
    with pytest.raises(SetupError) as refused:
        _create(kiroku, options=options)
    assert refused.value.reason == "bad_option"
    assert list(kiroku.tournaments.all_ids()) == []


def test_a_bad_policy_is_refused(kiroku: Kiroku) -> None:
    with pytest.raises(TournamentRefused) as refused:
        _create(kiroku, decklists="secret")
    assert refused.value.reason == "bad_policy"


@pytest.mark.parametrize("staff", ["organiser", "seat", "revoked judge", "unknown"])
def test_staff_must_be_judge_credentials(kiroku: Kiroku, staff: str) -> None:
    if staff == "organiser":
        not_a_judge = kiroku.credentials.issue(Role.ORGANISER, "Oz", issued_by="t")[0]
        staff_id = not_a_judge.credential_id
    elif staff == "seat":
        match_id = kiroku.new_match("worldgainer", ["A", "B"],
                                    ["solar_vanguard", "pleiades_bloom"])
        staff_id = UUID(kiroku.seat_credentials(match_id, ORG)[0]["credential_id"])
    elif staff == "revoked judge":
        staff_id = _judge(kiroku).credential_id
        kiroku.credentials.revoke(staff_id, reason="left", revoked_by="t")
    else:
        staff_id = uuid4()
    for where in ({"judges": [staff_id]}, {"head_judge": staff_id}):
        with pytest.raises(TournamentRefused) as refused:
            _create(kiroku, **where)
        assert refused.value.reason == "unknown_judge"
    assert list(kiroku.tournaments.all_ids()) == []


def test_only_an_organiser_changes_the_staff(kiroku: Kiroku, event: Event) -> None:
    other = _judge(kiroku, "Kei")
    with pytest.raises(Forbidden):
        events.change_staff(kiroku, event.head, event.id, [other.credential_id], None)
    shown = events.change_staff(kiroku, ORG, event.id, [other.credential_id],
                                event.head.credential_id)
    assert [j["name"] for j in shown["judges"]] == ["Kei"]
    tournament = kiroku.tournaments.get(event.id)
    assert tournament.is_judge(other.credential_id)
    assert not tournament.is_judge(event.judge.credential_id)


def test_an_unknown_tournament_is_not_found(kiroku: Kiroku) -> None:
    with pytest.raises(TournamentNotFound):
        events.read(kiroku, uuid4())


# ----- registering ---------------------------------------------------------------------------
def test_registration_returns_a_player_credential_once(kiroku: Kiroku) -> None:
    tid = _create(kiroku)
    made = events.register(kiroku, ORG, tid, "Aiko", "1001")
    identity = kiroku.credentials.authenticate(made["token"])
    assert identity.role == Role.PLAYER and identity.name == "Aiko"
    assert identity.tournament_id == tid and identity.player_id == UUID(made["player_id"])
    listed = events.players(kiroku, tid)
    assert listed == [{"player_id": made["player_id"], "name": "Aiko", "external_id": "1001",
                       "has_decklist": False, "dropped": False}]
    assert "token" not in listed[0]


def test_a_duplicate_external_id_is_refused(kiroku: Kiroku) -> None:
    tid = _create(kiroku)
    events.register(kiroku, ORG, tid, "Aiko", "1001")
    before = _stored(kiroku, tid)
    with pytest.raises(TournamentRefused) as refused:
        events.register(kiroku, ORG, tid, "Ben", "1001")
    assert refused.value.reason == "duplicate_player"
    assert _stored(kiroku, tid) == before and len(events.players(kiroku, tid)) == 1


def test_only_an_organiser_registers(kiroku: Kiroku, event: Event) -> None:
    for caller in (event.head, event.player(kiroku, 0)):
        with pytest.raises(Forbidden):
            events.register(kiroku, caller, event.id, "Eri")
    with pytest.raises(Unauthenticated):
        events.register(kiroku, None, event.id, "Eri")
    assert len(events.players(kiroku, event.id)) == 4


def test_players_are_filtered_by_name_or_external_id(kiroku: Kiroku, event: Event) -> None:
    assert [p["name"] for p in events.players(kiroku, event.id, "ai")] == ["Aiko"]
    assert [p["name"] for p in events.players(kiroku, event.id, "1003")] == ["Chie"]
    assert all(p["has_decklist"] for p in events.players(kiroku, event.id))


# ----- decklists -----------------------------------------------------------------------------
def test_a_player_submits_their_own_decklist(kiroku: Kiroku, event: Event) -> None:
    aiko = event.player(kiroku, 0)
    shown = events.submit_decklist(kiroku, aiko, event.id, event.players[0], BLOOM)
    assert shown["deck"] == BLOOM and not shown["locked"]
    submitted = kiroku.tournaments.history(event.id)[-1]
    assert submitted.by["id"] == str(aiko.credential_id)


def test_a_player_cannot_submit_anothers_decklist(kiroku: Kiroku, event: Event) -> None:
    before = _stored(kiroku, event.id)
    for caller in (event.player(kiroku, 0), event.head):
        with pytest.raises(Forbidden) as refused:
            events.submit_decklist(kiroku, caller, event.id, event.players[1], SOLAR)
        assert refused.value.reason == "not_your_decklist"
    with pytest.raises(Unauthenticated):
        events.submit_decklist(kiroku, None, event.id, event.players[1], SOLAR)
    assert _stored(kiroku, event.id) == before
    assert events.decklist(kiroku, ORG, event.id, event.players[1])["deck"] == BLOOM


@pytest.mark.parametrize(("deck", "reason"), [
    ({**SOLAR, "WGS-021": 4}, "too_many_copies"),
    ({c: n for c, n in SOLAR.items() if c != "WGS-021"}, "deck_too_small"),
    ({**SOLAR, "WGS-999": 1}, "unknown_card"),
])
def test_an_illegal_list_is_refused_with_the_rules_reason(kiroku: Kiroku, event: Event,
                                                          deck: dict[str, int],
                                                          reason: str) -> None:
    aiko = event.player(kiroku, 0)
    before = _stored(kiroku, event.id)
    with pytest.raises(SetupError) as refused:
        events.submit_decklist(kiroku, aiko, event.id, event.players[0], deck)
    assert refused.value.reason == reason
    assert _stored(kiroku, event.id) == before
    assert events.decklist(kiroku, aiko, event.id, event.players[0])["deck"] == SOLAR


def test_a_list_after_the_deadline_is_refused(kiroku: Kiroku, event: Event,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    events.set_deadline(kiroku, ORG, event.id, SOON)
    monkeypatch.setattr(events, "now", lambda: AFTER_SOON)  # the deadline has come
    assert events.read(kiroku, event.id)["decklists_locked"]
    before = _stored(kiroku, event.id)
    with pytest.raises(TournamentRefused) as refused:
        events.submit_decklist(kiroku, event.player(kiroku, 0), event.id, event.players[0],
                               BLOOM)
    assert refused.value.reason == "decklists_locked"
    assert _stored(kiroku, event.id) == before


def test_a_deadline_still_to_come_does_not_lock(kiroku: Kiroku, event: Event) -> None:
    events.set_deadline(kiroku, ORG, event.id, FUTURE)
    events.submit_decklist(kiroku, event.player(kiroku, 0), event.id, event.players[0], BLOOM)


def test_a_deadline_needs_its_time_zone(kiroku: Kiroku, event: Event) -> None:
    for bad in ("2026-11-28T09:30:00", "tomorrow"):
        with pytest.raises(TournamentRefused) as refused:
            events.set_deadline(kiroku, ORG, event.id, bad)
        assert refused.value.reason == "bad_deadline"


def test_a_list_after_the_lock_is_refused(kiroku: Kiroku, event: Event) -> None:
    events.lock(kiroku, ORG, event.id)
    before = _stored(kiroku, event.id)
    for caller in (event.player(kiroku, 0), ORG):
        with pytest.raises(TournamentRefused) as refused:
            events.submit_decklist(kiroku, caller, event.id, event.players[0], BLOOM)
        assert refused.value.reason == "decklists_locked"
    with pytest.raises(TournamentRefused) as late:
        events.set_deadline(kiroku, ORG, event.id, FUTURE)
    assert late.value.reason == "decklists_locked"
    assert _stored(kiroku, event.id) == before


def test_only_an_organiser_locks(kiroku: Kiroku, event: Event) -> None:
    with pytest.raises(Forbidden):
        events.lock(kiroku, event.head, event.id)
    assert not events.read(kiroku, event.id)["decklists_locked"]


def test_amending_needs_the_lock(kiroku: Kiroku, event: Event) -> None:
    with pytest.raises(TournamentRefused) as refused:
        events.amend_decklist(kiroku, event.judge, event.id, "1001", BLOOM, "Mis-registered")
    assert refused.value.reason == "decklists_not_locked"


def test_amending_needs_a_reason(kiroku: Kiroku, event: Event) -> None:
    events.lock(kiroku, ORG, event.id)
    before = _stored(kiroku, event.id)
    with pytest.raises(TournamentRefused) as refused:
        events.amend_decklist(kiroku, event.judge, event.id, "1001", BLOOM, "   ")
    assert refused.value.reason == "bad_text"
    assert _stored(kiroku, event.id) == before


def test_amending_is_for_the_tournaments_judges(kiroku: Kiroku, event: Event) -> None:
    events.lock(kiroku, ORG, event.id)
    before = _stored(kiroku, event.id)
    for caller in (_judge(kiroku, "Off-duty Oki"), event.player(kiroku, 0)):
        with pytest.raises(Forbidden) as refused:
            events.amend_decklist(kiroku, caller, event.id, "1001", BLOOM, "Mis-registered")
        assert refused.value.reason == "tournament_staff_only"
    with pytest.raises(Unauthenticated):
        events.amend_decklist(kiroku, None, event.id, "1001", BLOOM, "Mis-registered")
    assert _stored(kiroku, event.id) == before


def test_an_amendment_is_listed_in_the_decklist(kiroku: Kiroku, event: Event) -> None:
    events.lock(kiroku, ORG, event.id)
    amended = events.amend_decklist(kiroku, event.judge, event.id, "1001", BLOOM,
                                    "Registered the wrong deck file")
    assert amended["deck"] == BLOOM and amended["locked"]
    shown = events.decklist(kiroku, event.player(kiroku, 0), event.id, "1001")
    assert shown["deck"] == BLOOM
    [amendment] = shown["amendments"]
    assert amendment["reason"] == "Registered the wrong deck file"
    assert amendment["by"]["id"] == str(event.judge.credential_id)
    assert events.decklist(kiroku, ORG, event.id, "1002")["amendments"] == []


def test_an_amended_list_is_the_one_the_next_round_plays(kiroku: Kiroku, event: Event) -> None:
    events.lock(kiroku, ORG, event.id)
    events.amend_decklist(kiroku, event.head, event.id, "1001", BLOOM, "Wrong deck file")
    answer = _pair(kiroku, event.id, ["1001", "1002"])
    assert kiroku.recorder.get_match(_match(answer, 1)).config["decks"] == [BLOOM, BLOOM]


def test_closed_decklists_are_read_by_the_player_and_the_staff(kiroku: Kiroku,
                                                               event: Event) -> None:
    for reader in (event.player(kiroku, 0), event.judge, event.head, ORG):
        assert events.decklist(kiroku, reader, event.id, "1001")["deck"] == SOLAR


def test_closed_decklists_are_hidden_from_others(kiroku: Kiroku, event: Event) -> None:
    answer = _pair(kiroku, event.id, ["1001", "1002"])
    opponent_seat = kiroku.credentials.authenticate(answer["tables"][0]["seats"][1]["token"])
    for reader in (event.player(kiroku, 1), opponent_seat, _judge(kiroku, "Off-duty Oki"),
                   None):
        with pytest.raises(Forbidden) as refused:
            events.decklist(kiroku, reader, event.id, "1001")
        assert refused.value.reason == "decklist_closed"


def test_open_decklists_are_read_by_anyone(kiroku: Kiroku) -> None:
    tid = _create(kiroku, decklists="open")
    aiko = events.register(kiroku, ORG, tid, "Aiko")
    ben = events.register(kiroku, ORG, tid, "Ben")
    events.submit_decklist(kiroku, ORG, tid, aiko["player_id"], SOLAR)
    for reader in (None, kiroku.credentials.authenticate(ben["token"])):
        assert events.decklist(kiroku, reader, tid, "Aiko")["deck"] == SOLAR


def test_every_decklist_is_public_once_finished(kiroku: Kiroku, event: Event) -> None:
    events.finish(kiroku, ORG, event.id)
    assert events.decklist(kiroku, None, event.id, "1001")["deck"] == SOLAR
    assert events.decklist(kiroku, event.player(kiroku, 1), event.id, "1003")["deck"] == SOLAR


# ----- pairing -------------------------------------------------------------------------------
def test_pairing_creates_the_matches_with_the_registered_decks(kiroku: Kiroku,
                                                               event: Event) -> None:
    answer = _pair(kiroku, event.id, ["1001", "1002"], ["1004", "1003"])
    assert answer["round"] == 1 and answer["byes"] == []
    first, second = kiroku.recorder.get_match(_match(answer, 1)), \
        kiroku.recorder.get_match(_match(answer, 2))
    assert first.players == ["Aiko", "Ben"] and second.players == ["Dan", "Chie"]
    assert first.config["decks"] == [SOLAR, BLOOM] and second.config["decks"] == [BLOOM, SOLAR]
    assert [p["player_id"] for p in answer["tables"][1]["players"]] == \
        [event.players[3], event.players[2]]


def test_paired_matches_carry_the_tournaments_decklist_policy(kiroku: Kiroku) -> None:
    for policy in ("open", "closed"):
        tid = _create(kiroku, decklists=policy)
        for name, deck in (("Aiko", SOLAR), ("Ben", BLOOM)):
            made = events.register(kiroku, ORG, tid, name)
            events.submit_decklist(kiroku, ORG, tid, made["player_id"], deck)
        match_id = _match(_pair(kiroku, tid, ["Aiko", "Ben"]), 1)
        assert kiroku.summary(kiroku.seen_by(match_id))["options"]["decklists"] == policy


def test_a_paired_match_knows_its_tournament_round_and_table(kiroku: Kiroku,
                                                             event: Event) -> None:
    _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"])
    answer = _pair(kiroku, event.id, ["1001", "1003"], ["1002", "1004"])
    labels = kiroku.summary(kiroku.seen_by(_match(answer, 2)))["tournament"]
    assert labels == {"tournament_id": str(event.id), "tournament": "Kiroku Cup", "round": 2,
                      "table": 2, "game": 1, "players": [event.players[1], event.players[3]]}
    outside = kiroku.new_match("worldgainer", ["X", "Y"], ["solar_vanguard", "pleiades_bloom"])
    assert kiroku.summary(kiroku.seen_by(outside))["tournament"] is None


def test_pairing_locks_the_decklists(kiroku: Kiroku, event: Event) -> None:
    _pair(kiroku, event.id, ["1001", "1002"])
    assert events.read(kiroku, event.id)["decklists_locked"]
    with pytest.raises(TournamentRefused) as refused:
        events.submit_decklist(kiroku, event.player(kiroku, 2), event.id, "1003", BLOOM)
    assert refused.value.reason == "decklists_locked"


def test_each_seat_credential_acts_in_its_match_only(kiroku: Kiroku, event: Event) -> None:
    answer = _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"])
    match_id, other = _match(answer, 1), _match(answer, 2)
    seats = answer["tables"][0]["seats"]
    assert [(s["seat"], s["name"]) for s in seats] == [(1, "Aiko"), (2, "Ben")]
    ben = kiroku.credentials.authenticate(seats[1]["token"])
    assert ben.role == Role.SEAT and ben.match_id == match_id and ben.seat == 2
    concede = {"type": "concede", "seat": 2}
    assert kiroku.audience(match_id, ben).actor(concede, outcomes=False,
                                                judges_only=False) == ben
    for where, action in ((match_id, {"type": "concede", "seat": 1}), (other, concede)):
        with pytest.raises(Forbidden) as refused:
            kiroku.audience(where, ben).actor(action, outcomes=False, judges_only=False)
        assert refused.value.reason == "not_your_seat"
    kiroku.record(match_id, concede, recorded_by=ben.recorded_by)
    assert kiroku.summary(kiroku.seen_by(match_id))["result"]["winners"] == [1]


@pytest.mark.parametrize(("tables", "byes", "reason"), [
    ([["1001", "9999"]], [], "unknown_player"),
    ([["1001", "1002"], ["1001", "1003"]], [], "paired_twice"),
    ([["1001", "1002"]], ["1002"], "paired_twice"),
    ([["1001", "1001"]], [], "paired_twice"),
    ([["1001", "Eri"]], [], "no_decklist"),
    ([["1001", "1002", "1003"]], [], "bad_pairings"),
    ([["1001"]], [], "bad_pairings"),
    ([], [], "bad_pairings"),
])
def test_a_refused_pairing_stores_nothing(kiroku: Kiroku, event: Event,
                                          tables: list[list[str]], byes: list[str],
                                          reason: str) -> None:
    events.register(kiroku, ORG, event.id, "Eri", "1005")  # without a decklist
    before = _stored(kiroku, event.id)
    credentials = len(list(kiroku.credentials.issued()))
    with pytest.raises(TournamentRefused) as refused:
        _pair(kiroku, event.id, *tables, byes=byes)
    assert refused.value.reason == reason
    assert _stored(kiroku, event.id) == before
    assert len(list(kiroku.credentials.issued())) == credentials
    assert not events.read(kiroku, event.id)["decklists_locked"]
    assert events.read(kiroku, event.id)["rounds"] == 0


@pytest.mark.parametrize("table", [0, -3, 10_001])
def test_a_table_number_out_of_range_is_refused(kiroku: Kiroku, event: Event,
                                                table: int) -> None:
    before = _stored(kiroku, event.id)
    with pytest.raises(TournamentRefused) as refused:
        events.pair(kiroku, ORG, event.id, [Pairing(table, ("1001", "1002"))])
    assert refused.value.reason == "bad_pairings"
    assert _stored(kiroku, event.id) == before


def test_only_an_organiser_pairs(kiroku: Kiroku, event: Event) -> None:
    before = _stored(kiroku, event.id)
    with pytest.raises(Forbidden):
        events.pair(kiroku, event.head, event.id, [Pairing(1, ("1001", "1002"))])
    assert _stored(kiroku, event.id) == before


MELEE_CSV = (
    '"Table","Player 1","Player 1 Decklist","Player 2","Player 2 Decklist","Record"\r\n'
    '"1","1001","Solar Vanguard","1002","Pleiades Bloom","0-0-0"\r\n'
    '"2","Chie","Solar Vanguard","Dan","Pleiades Bloom","0-0-0"\r\n'
    '"","1005","","BYE","","0-0-0"\r\n'
)


def test_pairing_from_a_pairing_programs_csv(kiroku: Kiroku, event: Event) -> None:
    eri = events.register(kiroku, ORG, event.id, "Eri", "1005")
    answer = events.pair_file(kiroku, ORG, event.id, ("\ufeff" + MELEE_CSV).encode())
    assert [[p["name"] for p in t["players"]] for t in answer["tables"]] == \
        [["Aiko", "Ben"], ["Chie", "Dan"]]
    assert [b["player_id"] for b in answer["byes"]] == [eri["player_id"]]
    assert all(len(t["seats"]) == 2 for t in answer["tables"])


def test_an_unreadable_pairings_csv_stores_nothing(kiroku: Kiroku, event: Event) -> None:
    before = _stored(kiroku, event.id)
    with pytest.raises(TournamentRefused) as refused:
        events.pair_file(kiroku, ORG, event.id, b"Name,Points\r\nAiko,3\r\n")
    assert refused.value.reason == "bad_pairings"
    assert "one of Table, Table #, TableNumber" in refused.value.message
    assert _stored(kiroku, event.id) == before


# ----- rounds and results --------------------------------------------------------------------
def test_a_tables_status_follows_its_match(kiroku: Kiroku, event: Event) -> None:
    match_id = _match(_pair(kiroku, event.id, ["1001", "1002"]), 1)
    assert _status(kiroku, event.id, 1, 1)["status"] == "not_started"
    match = kiroku.recorder.get_match(match_id)
    seat = get_game("worldgainer").to_act(match.state)[0]
    kiroku.record(match_id, kiroku.legal_actions(kiroku.seen_by(match_id), seat)[0],
                  recorded_by=ORG.recorded_by)
    assert _status(kiroku, event.id, 1, 1)["status"] == "in_progress"
    dispute = _open_dispute(kiroku, match_id, event.judge)
    assert _status(kiroku, event.id, 1, 1)["status"] == "awaiting_ruling"
    hearing.rule(kiroku, event.judge, dispute, "Game loss", "Drew an extra card.",
                 {"kind": "penalty", "penalty": "game_loss", "seat": 2})
    table = _status(kiroku, event.id, 1, 1)
    assert table["status"] == "result" and table["positions"] == 2
    assert events.round_view(kiroku, event.id, 1)["complete"]


def test_a_result_from_the_game(kiroku: Kiroku, event: Event) -> None:
    _concede(kiroku, _match(_pair(kiroku, event.id, ["1001", "1002"]), 1), seat=2)
    result = _status(kiroku, event.id, 1, 1)["result"]
    assert result["source"] == "game" and not result["drawn"]
    assert [w["name"] for w in result["winners"]] == ["Aiko"]


def test_a_result_from_a_ruling(kiroku: Kiroku, event: Event) -> None:
    match_id = _match(_pair(kiroku, event.id, ["1001", "1002"]), 1)
    dispute = _open_dispute(kiroku, match_id, event.judge)
    hearing.rule(kiroku, event.judge, dispute, "Game loss", "Marked sleeves.",
                 {"kind": "penalty", "penalty": "game_loss", "seat": 1})
    result = _status(kiroku, event.id, 1, 1)["result"]
    assert result["source"] == "ruling" and [w["name"] for w in result["winners"]] == ["Ben"]


def test_a_game_played_out_after_an_overturned_game_loss_is_the_games(kiroku: Kiroku,
                                                                      event: Event) -> None:
    match_id = _match(_pair(kiroku, event.id, ["1001", "1002"]), 1)
    seat = get_game("worldgainer").to_act(kiroku.recorder.get_match(match_id).state)[0]
    kiroku.record(match_id, kiroku.legal_actions(kiroku.seen_by(match_id), seat)[0],
                  recorded_by=ORG.recorded_by)
    dispute = _open_dispute(kiroku, match_id, event.judge)
    hearing.rule(kiroku, event.judge, dispute, "Game loss", "Marked sleeves.",
                 {"kind": "penalty", "penalty": "game_loss", "seat": 1})
    hearing.appeal(kiroku, event.judge, dispute, "The sleeves were the venue's.")
    hearing.rule(kiroku, event.head, dispute, "Overturned", "Play on from position 1.",
                 {"kind": "reopen", "to_position": 1})
    assert _status(kiroku, event.id, 1, 1)["status"] == "in_progress"
    _concede(kiroku, match_id, seat=2)  # the game ends by itself: Aiko wins
    result = _status(kiroku, event.id, 1, 1)["result"]
    assert [w["name"] for w in result["winners"]] == ["Aiko"]
    assert result["source"] == "game"


def test_a_judge_enters_a_result_with_a_reason(kiroku: Kiroku, event: Event) -> None:
    _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"])
    view = events.enter_result(kiroku, event.judge, event.id, 1, 1, ["1002"], False,
                               "Aiko did not show up")
    table = next(t for t in view["tables"] if t["table"] == 1)
    assert table["status"] == "result" and table["result"]["source"] == "judge"
    assert [w["name"] for w in table["result"]["winners"]] == ["Ben"]
    events.enter_result(kiroku, ORG, event.id, 1, 2, [], True, "Intentional draw")
    assert _status(kiroku, event.id, 1, 2)["result"] == {"winners": [], "drawn": True,
                                                         "source": "judge", "game_wins": [],
                                                         "game_draws": 0}
    entered = kiroku.tournaments.history(event.id)[-1]
    assert entered.reason == "Intentional draw" and entered.by["role"] == "organiser"


def test_a_result_is_entered_by_the_tournaments_staff_only(kiroku: Kiroku,
                                                           event: Event) -> None:
    _pair(kiroku, event.id, ["1001", "1002"])
    before = _stored(kiroku, event.id)
    for caller in (_judge(kiroku, "Off-duty Oki"), event.player(kiroku, 0)):
        with pytest.raises(Forbidden) as refused:
            events.enter_result(kiroku, caller, event.id, 1, 1, ["1001"], False, "No-show")
        assert refused.value.reason == "tournament_staff_only"
    assert _stored(kiroku, event.id) == before


def test_a_judge_cannot_override_the_matchs_own_result(kiroku: Kiroku, event: Event) -> None:
    _concede(kiroku, _match(_pair(kiroku, event.id, ["1001", "1002"]), 1), seat=2)
    before = _stored(kiroku, event.id)
    with pytest.raises(TournamentRefused) as refused:
        events.enter_result(kiroku, event.judge, event.id, 1, 1, ["1002"], False, "Changed")
    assert refused.value.reason == "match_has_result"
    assert _stored(kiroku, event.id) == before


@pytest.mark.parametrize(("winners", "drawn"), [
    (["1003"], False),  # not at the table
    (["1001"], True),  # won and drawn
    ([], False),  # neither
])
def test_a_result_names_winners_at_the_table_or_a_draw(kiroku: Kiroku, event: Event,
                                                       winners: list[str],
                                                       drawn: bool) -> None:
    _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"])
    before = _stored(kiroku, event.id)
    with pytest.raises(TournamentRefused) as refused:
        events.enter_result(kiroku, event.judge, event.id, 1, 1, winners, drawn, "Paper game")
    assert refused.value.reason == "bad_result"
    assert _stored(kiroku, event.id) == before


def test_an_unknown_round_or_table_is_refused(kiroku: Kiroku, event: Event) -> None:
    _pair(kiroku, event.id, ["1001", "1002"])
    with pytest.raises(TournamentRefused) as no_round:
        events.round_view(kiroku, event.id, 2)
    assert no_round.value.reason == "unknown_round"
    with pytest.raises(TournamentRefused) as no_table:
        events.enter_result(kiroku, event.judge, event.id, 1, 7, ["1001"], False, "x")
    assert no_table.value.reason == "unknown_table"


# ----- standings and the CSV files -----------------------------------------------------------
def _two_rounds(kiroku: Kiroku, event: Event) -> None:
    """Round 1: Aiko beats Ben in game, Chie and Dan draw; round 2: Aiko beats Chie in game,
    Dan beats Ben on a judge's entry. Aiko 6 points, Dan 4, Chie 1, Ben 0."""
    first = _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"])
    _concede(kiroku, _match(first, 1), seat=2)
    events.enter_result(kiroku, event.judge, event.id, 1, 2, [], True, "Intentional draw")
    second = _pair(kiroku, event.id, ["1001", "1003"], ["1004", "1002"])
    _concede(kiroku, _match(second, 1), seat=2)
    events.enter_result(kiroku, event.judge, event.id, 2, 2, ["1004"], False, "Ben left")


def test_standings_after_two_rounds(kiroku: Kiroku, event: Event) -> None:
    _two_rounds(kiroku, event)
    table = events.standings_of(kiroku, event.id)
    assert table["through_round"] == 2
    rows = [(r["rank"], r["name"], r["match_points"], r["wins"], r["losses"], r["draws"])
            for r in table["standings"]]
    assert rows == [(1, "Aiko", 6, 2, 0, 0), (2, "Dan", 4, 1, 0, 1), (3, "Chie", 1, 0, 1, 1),
                    (4, "Ben", 0, 0, 2, 0)]
    after_one = events.standings_of(kiroku, event.id, through=1)["standings"]
    assert [(r["name"], r["match_points"]) for r in after_one] == \
        [("Aiko", 3), ("Chie", 1), ("Dan", 1), ("Ben", 0)]


def test_the_results_csv(kiroku: Kiroku, event: Event) -> None:
    eri = events.register(kiroku, ORG, event.id, "Eri", "1005")
    first = _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"], byes=["1005"])
    _concede(kiroku, _match(first, 1), seat=2)
    events.enter_result(kiroku, event.judge, event.id, 1, 2, [], True, "Intentional draw")
    rows = _rows(events.results_csv_of(kiroku, event.id))
    got = {r["external_id"]: (r["round"], r["table"], r["result"], r["match_points"],
                              r["opponents"]) for r in rows}
    assert got == {"1001": ("1", "1", "W", "3", "Ben (1002)"),
                   "1002": ("1", "1", "L", "0", "Aiko (1001)"),
                   "1003": ("1", "2", "D", "1", "Dan (1004)"),
                   "1004": ("1", "2", "D", "1", "Chie (1003)"),
                   "1005": ("1", "", "BYE", "3", "")}
    assert next(r for r in rows if r["result"] == "BYE")["player_id"] == eri["player_id"]


def test_the_standings_csv(kiroku: Kiroku, event: Event) -> None:
    _two_rounds(kiroku, event)
    text = events.standings_csv(kiroku, event.id)
    assert text.splitlines()[0] == ("rank,external_id,name,match_points,wins,losses,draws,byes,"
                                    "game_wins,game_losses,game_draws,opponents_match_win,"
                                    "game_win,opponents_game_win,dropped,player_id")
    rows = _rows(text)
    assert [(r["rank"], r["external_id"], r["match_points"]) for r in rows] == \
        [("1", "1001", "6"), ("2", "1004", "4"), ("3", "1003", "1"), ("4", "1002", "0")]
    assert all(len(r[c].split(".")[1]) == 4 for r in rows
               for c in ("opponents_match_win", "game_win", "opponents_game_win"))


def test_a_formula_like_name_is_defused_in_the_csv_files(kiroku: Kiroku) -> None:
    tid = _create(kiroku)
    for name, deck in (("=HYPERLINK(1)", SOLAR), ("Ben", BLOOM)):
        made = events.register(kiroku, ORG, tid, name)
        events.submit_decklist(kiroku, ORG, tid, made["player_id"], deck)
    _concede(kiroku, _match(_pair(kiroku, tid, ["=HYPERLINK(1)", "Ben"]), 1), seat=2)
    results = _rows(events.results_csv_of(kiroku, tid))
    assert [r["name"] for r in results] == ["'=HYPERLINK(1)", "Ben"]
    assert results[1]["opponents"] == "'=HYPERLINK(1)"
    assert _rows(events.standings_csv(kiroku, tid))[0]["name"] == "'=HYPERLINK(1)"


def test_matches_are_found_by_tournament_round_table_and_player(kiroku: Kiroku,
                                                                event: Event) -> None:
    first = _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"])
    second = _pair(kiroku, event.id, ["1001", "1003"], ["1002", "1004"])
    kiroku.new_match("worldgainer", ["Aiko", "Zed"], ["solar_vanguard", "pleiades_bloom"])

    def found(**filters: Any) -> list[str]:
        return [m["match_id"] for m in kiroku.find_matches(**filters)]

    assert len(found()) == 5
    assert found(tournament=event.id) == [str(_match(first, 1)), str(_match(first, 2)),
                                          str(_match(second, 1)), str(_match(second, 2))]
    assert found(tournament=event.id, round_number=2) == [str(_match(second, 1)),
                                                          str(_match(second, 2))]
    assert found(tournament=event.id, table=1) == [str(_match(first, 1)),
                                                   str(_match(second, 1))]
    assert found(tournament=event.id, round_number=1, table=2) == [str(_match(first, 2))]
    assert found(tournament=event.id, player="chie") == [str(_match(first, 2)),
                                                         str(_match(second, 1))]
    assert len(found(player="aiko")) == 3
    assert found(tournament=uuid4()) == []
    labelled = kiroku.find_matches(tournament=event.id, round_number=2, table=2)[0]
    assert labelled["tournament"]["round"] == 2 and labelled["tournament"]["table"] == 2


# ----- appeals -------------------------------------------------------------------------------
def _appealed(kiroku: Kiroku, event: Event) -> UUID:
    """A dispute in round 1's table 1, ruled by the floor judge and appealed by seat 2."""
    answer = _pair(kiroku, event.id, ["1001", "1002"])
    match_id = _match(answer, 1)
    ben = kiroku.credentials.authenticate(answer["tables"][0]["seats"][1]["token"])
    dispute = _open_dispute(kiroku, match_id, ben)
    hearing.rule(kiroku, event.judge, dispute, "Warning", "Slow play.",
                 {"kind": "penalty", "penalty": "warning", "seat": 2})
    hearing.appeal(kiroku, ben, dispute, "I was not slow.")
    return dispute


def test_the_head_judge_rules_an_appeal(kiroku: Kiroku, event: Event) -> None:
    dispute = _appealed(kiroku, event)
    final = hearing.rule(kiroku, event.head, dispute, "Overturned", "Within time.",
                         {"kind": "none"})
    assert final["status"] == "final" and final["rulings"][1]["on_appeal"]
    assert final["rulings"][1]["by"]["id"] == str(event.head.credential_id)


def test_another_judge_does_not_rule_an_appeal(kiroku: Kiroku, event: Event) -> None:
    dispute = _appealed(kiroku, event)
    for judge in (event.judge, _judge(kiroku, "Off-duty Oki")):
        with pytest.raises(Forbidden):
            hearing.rule(kiroku, judge, dispute, "Upheld", "Slow.", {"kind": "none"})
    assert kiroku.disputes.get(dispute).status == "appealed"


def test_a_judge_off_the_staff_does_not_hear_the_tournaments_disputes(kiroku: Kiroku,
                                                                      event: Event) -> None:
    match_id = _match(_pair(kiroku, event.id, ["1001", "1002"]), 1)
    dispute = _open_dispute(kiroku, match_id, event.judge)
    outsider = _judge(kiroku, "Off-duty Oki")
    with pytest.raises(Forbidden) as refused:
        hearing.take(kiroku, outsider, dispute, False)
    assert refused.value.reason == "tournament_staff_only"
    with pytest.raises(Forbidden):
        hearing.rule(kiroku, outsider, dispute, "No penalty", "Fine.", {"kind": "none"})
    assert kiroku.disputes.get(dispute).status == "open"
    hearing.take(kiroku, event.judge, dispute, False)


def test_a_table_awaits_the_ruling_on_an_appeal_of_its_result(kiroku: Kiroku,
                                                              event: Event) -> None:
    answer = _pair(kiroku, event.id, ["1001", "1002"])
    match_id = _match(answer, 1)
    ben = kiroku.credentials.authenticate(answer["tables"][0]["seats"][1]["token"])
    dispute = _open_dispute(kiroku, match_id, ben)
    hearing.rule(kiroku, event.judge, dispute, "Game loss", "Marked sleeves.",
                 {"kind": "penalty", "penalty": "game_loss", "seat": 2})
    assert _status(kiroku, event.id, 1, 1)["status"] == "result"
    hearing.appeal(kiroku, ben, dispute, "The sleeves were new.")
    table = _status(kiroku, event.id, 1, 1)
    assert table["status"] == "awaiting_ruling" and table["result"]["source"] == "ruling"
    assert not events.round_view(kiroku, event.id, 1)["complete"]


def test_a_finished_tournament_takes_no_more_results(kiroku: Kiroku, event: Event) -> None:
    _pair(kiroku, event.id, ["1001", "1002"])
    events.finish(kiroku, ORG, event.id)
    with pytest.raises(TournamentRefused) as refused:
        events.enter_result(kiroku, event.judge, event.id, 1, 1, [], True, "late entry")
    assert refused.value.reason == "tournament_finished"


def test_the_tournaments_disputes_are_its_staffs_docket(kiroku: Kiroku, event: Event) -> None:
    answer = _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"])
    first = _open_dispute(kiroku, _match(answer, 1), event.judge)
    second = _open_dispute(kiroku, _match(answer, 2), event.judge)
    hearing.rule(kiroku, event.judge, second, "No penalty", "Fine.", {"kind": "none"})
    docket = events.disputes_of(kiroku, event.head, event.id)
    assert [(d["dispute_id"], d["round"], d["table"]) for d in docket] == [
        (str(first), 1, 1), (str(second), 1, 2)]
    assert [d["table"] for d in events.disputes_of(kiroku, ORG, event.id, status="open")] == [1]
    assert [d["table"] for d in events.disputes_of(kiroku, ORG, event.id, table=2)] == [2]
    assert events.disputes_of(kiroku, ORG, event.id, round_number=2) == []
    for outsider in (_judge(kiroku, "Off-duty Oki"), event.player(kiroku, 0), None):
        with pytest.raises((Forbidden, Unauthenticated)):
            events.disputes_of(kiroku, outsider, event.id)


def test_an_organiser_may_rule_an_appeal(kiroku: Kiroku, event: Event) -> None:
    dispute = _appealed(kiroku, event)
    final = hearing.rule(kiroku, ORG, dispute, "Upheld", "Slow.", {"kind": "none"})
    assert final["status"] == "final"


# ----- listing and finishing -----------------------------------------------------------------
def test_tournaments_are_listed_by_game_name_and_player(kiroku: Kiroku, event: Event) -> None:
    other = _create(kiroku, name="Grail Open", game="grail")
    events.register(kiroku, ORG, other, "Zed", "2001")

    def listed(**filters: Any) -> list[str]:
        return [t["name"] for t in events.listing(kiroku, **filters)]

    assert listed() == ["Kiroku Cup", "Grail Open"]
    assert listed(game="grail") == ["Grail Open"]
    assert listed(name="kiroku") == ["Kiroku Cup"]
    assert listed(player="zed") == ["Grail Open"]
    assert listed(player="1002") == ["Kiroku Cup"]
    assert listed(game="grail", player="aiko") == []


def test_a_finished_tournament_refuses_registration_and_pairing(kiroku: Kiroku,
                                                                event: Event) -> None:
    _pair(kiroku, event.id, ["1001", "1002"], ["1003", "1004"])
    assert events.finish(kiroku, ORG, event.id)["finished"]
    before = _stored(kiroku, event.id)
    refusals = [
        lambda: events.register(kiroku, ORG, event.id, "Eri"),
        lambda: _pair(kiroku, event.id, ["1001", "1003"]),
        lambda: events.lock(kiroku, ORG, event.id),
        lambda: events.finish(kiroku, ORG, event.id),
    ]
    for refused_call in refusals:
        with pytest.raises(TournamentRefused) as refused:
            refused_call()
        assert refused.value.reason == "tournament_finished"
    assert _stored(kiroku, event.id) == before


def test_only_an_organiser_finishes(kiroku: Kiroku, event: Event) -> None:
    with pytest.raises(Forbidden):
        events.finish(kiroku, event.head, event.id)
    assert not events.read(kiroku, event.id)["finished"]


def test_the_public_round_view_keeps_the_spectators_delay(kiroku: Kiroku) -> None:
    """The round view once gave every table's live position count to anyone."""
    tid = _create(kiroku, options={"spectators": "delayed", "spectator_delay": 2})
    for i, name in enumerate(["Aiko", "Ben"]):
        player = events.register(kiroku, ORG, tid, name, str(1001 + i))
        events.submit_decklist(kiroku, ORG, tid, player["player_id"], SOLAR if i else BLOOM)
    match_id = _match(_pair(kiroku, tid, ["1001", "1002"]), 1)
    for _ in range(3):
        seat = get_game("worldgainer").to_act(kiroku.recorder.get_match(match_id).state)[0]
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=ORG.recorded_by)
    assert _status(kiroku, tid, 1, 1)["positions"] == 1


def test_a_registration_that_loses_a_race_issues_no_credential(
        kiroku: Kiroku, event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    """The credential and the registration are saved together: when the tournament changed
    meanwhile (another command), neither is stored; the registration runs again from a fresh
    read, and when every read is stale it gives up, having stored nothing."""
    stale = kiroku.tournaments.get(event.id)
    events.register(kiroku, ORG, event.id, "Eri", "1005")  # the tournament moves on
    reads = []

    def stale_read(tournament_id: UUID) -> Any:
        reads.append(tournament_id)
        return copy.deepcopy(stale)

    monkeypatch.setattr(kiroku.tournaments, "get", stale_read)
    issued = len(list(kiroku.credentials.issued()))
    with pytest.raises(ConcurrentAppend):
        events.register(kiroku, ORG, event.id, "Fumi", "1006")
    assert len(reads) == events.APPEND_ATTEMPTS
    assert len(list(kiroku.credentials.issued())) == issued
