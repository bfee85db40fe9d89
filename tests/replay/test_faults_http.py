"""Faults in the store, answered truthfully over HTTP (issue 41): a snapshot that no longer
decodes is a cache missed (every read answers, the audit notes it); a store whose events were
moved (two events' versions swapped, events swapped between matches) or whose topic this build
does not know (a later build's code) answers ``corrupt_record``, never ``illegal_action`` nor an
undocumented 500; a snapshot of such a topic is a cache missed too; and of judges racing to undo
to one position, one gets 201 and the rest 200 with where the match stands."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest

from engine import get_game
from ledger.compactrows import stored_stream
from ledger.identity import Role
from replay.service import Kiroku
from tests.replay.conftest import Server, serve

DECKS = ["solar_vanguard", "pleiades_bloom"]
READS = ("/state", "/events", "/transcript", "", "/audit")  # "": the match's summary


def _played(kiroku: Kiroku, actions: int, seed: int, decks: list[str] = DECKS) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], decks,
                                options={"first_player": 1}, seed=bytes([seed]) * 32)
    for _ in range(actions):
        match = kiroku.recorder.get_match(match_id)
        legal = kiroku.legal_actions(kiroku.seen_by(match_id), match.state.active)
        if match.ended or not legal:
            break
        kiroku.record(match_id, legal[0], recorded_by="judge")
    return match_id


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, UUID]]:
    """A store with a match whose latest snapshot no longer decodes, one with two events'
    versions swapped, two that swapped an event each, and an untouched one."""
    path = tmp_path_factory.mktemp("faults") / "kiroku.db"
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        matches = {name: _played(kiroku, 30, seed) for seed, name in enumerate(
            ("snapshot", "swapped", "untouched", "first"), start=1)}  # 3 is still on
        matches["second"] = _played(kiroku, 30, 5, DECKS[::-1])  # other cards in each hand
        matches["behind a snapshot"] = _played(kiroku, 30, 3)
        matches["unknown topic"] = _played(kiroku, 30, 6)
        matches["snapshot of an unknown topic"] = _played(kiroku, 30, 7)
        playing = _playing_a_card(kiroku, matches["first"])
    finally:
        kiroku.close()
    with sqlite3.connect(path) as con:
        _flip_snapshot(con, matches["snapshot"])
        _swap_versions(con, matches["swapped"], 12, 13)
        _swap_versions(con, matches["behind a snapshot"], 12, 13, snapshots=True)
        _swap_between(con, matches["first"], matches["second"], playing)
        _unknown_topic(con, "stored_events", matches["unknown topic"], 12)
        _drop_snapshots(con, matches["unknown topic"])
        _unknown_topic(con, "stored_snapshots", matches["snapshot of an unknown topic"], 25)
    return path, matches


def _playing_a_card(kiroku: Kiroku, match_id: UUID) -> int:
    """The version of the match's first action that names a card (moved to a match whose
    seats hold other cards, it cannot be replayed)."""
    return next(e.originator_version for e in kiroku.recorder.stored_events(match_id)
                if "card" in getattr(e, "action", {}))


@pytest.fixture(scope="module")
def faulty(store: tuple[Path, dict[str, UUID]]) -> Iterator[Server]:
    path, _ = store
    yield from serve(path)


def _flip_snapshot(con: sqlite3.Connection, match_id: UUID) -> None:
    """Cut the match's latest snapshot short: it no longer decodes."""
    version, blob = con.execute(
        "SELECT originator_version, state FROM stored_snapshots WHERE originator_id = ? "
        "ORDER BY originator_version DESC LIMIT 1", (stored_stream(con, match_id),)).fetchone()
    con.execute("UPDATE stored_snapshots SET state = ? WHERE originator_id = ? AND "
                "originator_version = ?",
                (blob[: len(blob) // 2], stored_stream(con, match_id), version))


def _swap_versions(con: sqlite3.Connection, match_id: UUID, a: int, b: int,
                   snapshots: bool = False) -> None:
    """Two events of one match trade places (versions); its snapshots are kept or not."""
    con.execute("UPDATE stored_events SET originator_version = -1 WHERE originator_id = ? AND "
                "originator_version = ?", (stored_stream(con, match_id), a))
    con.execute("UPDATE stored_events SET originator_version = ? WHERE originator_id = ? AND "
                "originator_version = ?", (a, stored_stream(con, match_id), b))
    con.execute("UPDATE stored_events SET originator_version = ? WHERE originator_id = ? AND "
                "originator_version = -1", (b, stored_stream(con, match_id)))
    if not snapshots:
        _drop_snapshots(con, match_id)


def _swap_between(con: sqlite3.Connection, first: UUID, second: UUID, version: int) -> None:
    """The two matches trade their events at ``version``."""
    rows = {m: con.execute("SELECT topic, state FROM stored_events WHERE originator_id = ? AND "
                           "originator_version = ?", (stored_stream(con, m), version)).fetchone()
            for m in (first, second)}
    for match_id, other in ((first, second), (second, first)):
        con.execute("UPDATE stored_events SET topic = ?, state = ? WHERE originator_id = ? AND "
                    "originator_version = ?", (*rows[other], stored_stream(con, match_id), version))
        _drop_snapshots(con, match_id)


def _unknown_topic(con: sqlite3.Connection, table: str, match_id: UUID, version: int) -> None:
    """The row at ``version`` gets a topic code no build gives yet (a later build's)."""
    changed = con.execute(f"UPDATE {table} SET topic = '999' WHERE originator_id = ? AND "  # noqa: S608
                          "originator_version = ?",
                          (stored_stream(con, match_id), version)).rowcount
    assert changed == 1


def _drop_snapshots(con: sqlite3.Connection, match_id: UUID) -> None:
    """Reads rebuild from the events (a snapshot past the change would hide it)."""
    con.execute("DELETE FROM stored_snapshots WHERE originator_id = ?",
                (stored_stream(con, match_id),))


def _read(server: Server, match_id: UUID, what: str) -> httpx.Response:
    with server.client(server.organiser_token) as organiser:
        return organiser.get(f"/matches/{match_id}{what}")


@pytest.mark.parametrize("which", ["snapshot", "snapshot of an unknown topic"])
@pytest.mark.parametrize("what", READS)
def test_a_snapshot_that_no_longer_decodes_is_a_cache_missed(
        faulty: Server, store: tuple[Path, dict[str, UUID]], which: str, what: str) -> None:
    _, matches = store
    answer = _read(faulty, matches[which], what)
    assert answer.status_code == 200, answer.text
    if what == "/audit":
        report = answer.json()
        assert report["ok"], report
        assert any("ignored" in note and "cannot be read" in note for note in report["notes"])


def test_the_match_read_past_a_broken_snapshot_is_the_match_its_events_make(
        faulty: Server, store: tuple[Path, dict[str, UUID]]) -> None:
    path, matches = store
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        match = kiroku.recorder.get_match(matches["snapshot"])
        last = kiroku.recorder.stored_events(matches["snapshot"])[-1]
        assert match.version == last.originator_version >= 26  # past the snapshot at 25
        assert get_game("worldgainer").digest(match.state) == last.digest
        assert kiroku.audit(matches["snapshot"]).ok
    finally:
        kiroku.close()


@pytest.mark.parametrize("which", ["swapped", "first", "second", "unknown topic"])
@pytest.mark.parametrize("what", READS[:-1])
def test_a_store_whose_events_were_moved_answers_corrupt_record(
        faulty: Server, store: tuple[Path, dict[str, UUID]], which: str, what: str) -> None:
    _, matches = store
    answer = _read(faulty, matches[which], what)
    assert answer.status_code == 500, answer.text
    assert answer.json()["code"] == "corrupt_record"
    assert "audit verify" in answer.json()["message"]


@pytest.mark.parametrize("which", ["swapped", "first", "second", "unknown topic"])
def test_the_audit_of_a_moved_event_fails_and_names_it(
        faulty: Server, store: tuple[Path, dict[str, UUID]], which: str) -> None:
    _, matches = store
    answer = _read(faulty, matches[which], "/audit")
    assert answer.status_code == 200, answer.text
    assert not answer.json()["ok"] and answer.json()["failure"]["version"] >= 1


@pytest.mark.parametrize("what", ["/transcript", "/study"])
def test_a_reader_that_replays_a_moved_event_answers_corrupt_record(
        faulty: Server, store: tuple[Path, dict[str, UUID]], what: str) -> None:
    """The match stands as its trusted snapshot at v25 says, but a reader that replays every
    event from the start meets the events swapped before it."""
    _, matches = store
    assert _read(faulty, matches["behind a snapshot"], "/state").status_code == 200
    answer = _read(faulty, matches["behind a snapshot"], what)
    assert answer.status_code == 500, answer.text
    assert answer.json()["code"] == "corrupt_record"


def test_an_untouched_match_beside_them_reads(
        faulty: Server, store: tuple[Path, dict[str, UUID]]) -> None:
    _, matches = store
    for what in READS:
        assert _read(faulty, matches["untouched"], what).status_code == 200


def test_of_judges_racing_to_undo_to_one_position_one_appends(
        faulty: Server, store: tuple[Path, dict[str, UUID]]) -> None:
    path, matches = store
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        judges = [kiroku.credentials.issue(Role.JUDGE, f"Judge {n}", issued_by="test")[1]
                  for n in range(8)]
    finally:
        kiroku.close()
    match_id = matches["untouched"]
    barrier = threading.Barrier(len(judges))
    answers: list[tuple[int, dict[str, Any]]] = []

    def undo(token: str) -> None:
        with faulty.client(token) as judge:
            barrier.wait()
            found = judge.post(f"/matches/{match_id}/undo",
                               json={"to_position": 25, "reason": "a misplay, rewound"})
            answers.append((found.status_code, found.json()))

    threads = [threading.Thread(target=undo, args=(t,)) for t in judges]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for status, _ in answers) == [200] * 7 + [201]
    assert len({body["version"] for _, body in answers}) == 1  # where the match stands
    with faulty.client(faulty.organiser_token) as organiser:
        events = organiser.get(f"/matches/{match_id}/events").json()
    assert [e["event"] for e in events].count("ActionsUndone") == 1


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Server,
                                                                             Server]]:
    """Two servers on one SQLite store (two processes, as `--workers 2` or two machines)."""
    path = tmp_path_factory.mktemp("rulings") / "kiroku.db"
    Kiroku.open(f"sqlite:///{path}").close()
    for first in serve(path):
        for second in serve(path):
            yield path, first, second


def test_two_rulings_through_two_servers_at_once_store_one_remedy(
        two_servers: tuple[Path, Server, Server]) -> None:
    """The judge who took a dispute and an organiser rule it at once, each through another
    server: one ruling is stored with its adjustment, the other is refused and stores nothing
    (3 of 3 rounds stored two adjustments before, issue 41)."""
    path, first, second = two_servers
    kiroku = Kiroku.open(f"sqlite:///{path}")
    try:
        judge, judge_token = kiroku.credentials.issue(Role.JUDGE, "Judge Jun", issued_by="test")
        rounds = []
        for seed in range(3):
            match_id = _played(kiroku, 6, 20 + seed)
            dispute = kiroku.disputes.open(
                match_id=str(match_id), position=6, match_version=7, claim="a card too many",
                concerns=[7], pause=False, opened_by={**judge.recorded_by, "seat": None},
                recorded_at="2026-12-01T00:00:00+00:00")
            hand = kiroku.view(kiroku.seen_by(match_id), None)["state"]["seats"][0]["hand"]
            rounds.append((match_id, dispute.id, hand[0]["id"]))
    finally:
        kiroku.close()
    with first.client(judge_token) as judge_client, \
            second.client(first.organiser_token) as organiser:  # one store, one organiser
        for match_id, dispute_id, card in rounds:
            body = {"decision": "Card returned", "reasoning": "Drawn by mistake.", "remedy": {
                "kind": "adjustment", "action": {"type": "adjust", "seat": 1, "move": {
                    "card": card, "from_zone": "hand", "to_zone": "deck"}}}}
            answers = _at_once([judge_client, organiser], f"/disputes/{dispute_id}/rule", body)
            # the loser lost the race (409) or came after the winner had ruled (422)
            won, lost = sorted(answers, key=lambda a: a.status_code)
            assert won.status_code == 200, won.text
            assert (lost.status_code, lost.json()["code"]) in (
                (409, "concurrent_append"), (422, "dispute_refused")), lost.text
            events = organiser.get(f"/matches/{match_id}/events").json()
            assert sum(1 for e in events if e.get("action", {}).get("type") == "adjust") == 1
            read = organiser.get(f"/disputes/{dispute_id}").json()
            assert len(read["rulings"]) == 1
            assert organiser.get(f"/matches/{match_id}/audit").json()["ok"]


def _at_once(clients: list[httpx.Client], path: str, body: dict[str, Any]) -> list[httpx.Response]:
    """Each client POSTs ``body`` to ``path`` at one moment; their answers."""
    barrier = threading.Barrier(len(clients))
    answers: list[httpx.Response] = []

    def post(client: httpx.Client) -> None:
        barrier.wait()
        answers.append(client.post(path, json=body))

    threads = [threading.Thread(target=post, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers
