"""The match list's read model (ledger.matchlist): a table kept in step with the events, each
change written with its tracking, read without reading events once it has caught up; and the
streams beside each match (its annotations and variations), kept the same way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError, Tracking

import ledger.matchlist
from ledger.identity import Identity, Role
from ledger.matchlist import ListedMatch, MatchQuery
from replay import annotations as annotating
from replay import disputes as hearing
from replay import tournaments
from replay import variations as lines
from replay.service import Kiroku


@pytest.fixture
def kiroku(store_url: str) -> Iterator[Kiroku]:
    service = Kiroku.open(store_url)
    yield service
    service.close()


def _match(kiroku: Kiroku, players: tuple[str, str] = ("Ann", "Ben")) -> UUID:
    return kiroku.new_match("worldgainer", list(players), ["solar_vanguard", "pleiades_bloom"],
                            options={"first_player": 1})


def _turns(kiroku: Kiroku, match_id: UUID, turns: int) -> None:
    for turn in range(turns):
        seat = 1 + turn % 2
        kiroku.record(match_id, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")


class _Reads:
    """Counts the list's queries of the store's notifications, and the notifications found."""

    def __init__(self, kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = self.rows = 0
        recorder = kiroku.recorder.recorder
        select = recorder.select_notifications

        def counted(*args: Any, **kwargs: Any) -> Any:
            found = select(*args, **kwargs)
            self.calls += 1
            self.rows += len(found)
            return found

        monkeypatch.setattr(recorder, "select_notifications", counted)


def test_a_match_is_listed_as_soon_as_it_is_created_and_ended(kiroku: Kiroku) -> None:
    match_id = _match(kiroku)
    assert [m["match_id"] for m in kiroku.find_matches(status="live")] == [str(match_id)]
    kiroku.record(match_id, {"type": "concede", "seat": 2}, recorded_by="P2")
    [ended] = kiroku.find_matches(status="ended")
    assert ended["result"] == {"winners": [1], "losers": [2], "reason": "concession",
                               "drawn": False}
    assert kiroku.find_matches(status="live") == []


def test_another_server_on_the_store_lists_a_match_the_first_just_created(
        store_url: str) -> None:
    first, second = Kiroku.open(store_url), Kiroku.open(store_url)
    try:
        assert second.find_matches() == []
        match_id = _match(first)
        assert [m["match_id"] for m in second.find_matches()] == [str(match_id)]
        second.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
        assert first.find_matches()[0]["status"] == "ended"
    finally:
        first.close()
        second.close()


def test_a_change_to_the_list_is_refused_with_a_tracking_already_recorded(
        kiroku: Kiroku) -> None:
    _match(kiroku)
    kiroku.find_matches()
    view = kiroku.recorder.match_list.view
    done = view.max_tracking_id(kiroku.recorder.name)
    assert done is not None
    ghost = ListedMatch(UUID(int=7), "worldgainer", ["Eve", "Mal"], "2026-01-01T00:00:00",
                        None, False, None)
    with pytest.raises(IntegrityError):
        view.match_created(ghost, Tracking(kiroku.recorder.name, done))
    assert view.ids_starting("0000") == []


def test_a_batch_of_changes_is_written_whole_or_not_at_all(kiroku: Kiroku) -> None:
    """Issue 43: a catch-up writes a page of notifications in one transaction, each change
    with its tracking; one tracking refused (another server recorded it first) rolls back
    every change of the batch, so none is applied twice."""
    _match(kiroku)
    kiroku.find_matches()
    view = kiroku.recorder.match_list.view
    done = view.max_tracking_id(kiroku.recorder.name)
    assert done is not None
    fresh = ListedMatch(UUID(int=8), "worldgainer", ["Eve", "Mal"], "2026-01-01T00:00:00",
                        None, False, None)
    with pytest.raises(IntegrityError), view.batch():
        view.match_created(fresh, Tracking(kiroku.recorder.name, done + 1000))
        view.result_changed(fresh.match_id, {"winners": [1]},
                            Tracking(kiroku.recorder.name, done))
    assert view.ids_starting("0000") == []
    assert view.max_tracking_id(kiroku.recorder.name) == done
    with view.batch():  # a batch that records nothing twice is written whole
        view.match_created(fresh, Tracking(kiroku.recorder.name, done + 1000))
        view.track(Tracking(kiroku.recorder.name, done + 1001))
    assert view.ids_starting("0000") == [fresh.match_id]
    assert view.max_tracking_id(kiroku.recorder.name) == done + 1001


def test_a_catch_up_of_many_pages_lists_every_match_once(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ledger.matchlist, "PAGE", 2)
    ids = [_match(kiroku, (f"P{n}a", f"P{n}b")) for n in range(5)]
    for match_id in ids[1::2]:
        kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="P1")
    reads = _Reads(kiroku, monkeypatch)
    listed = kiroku.find_matches()
    assert [m["match_id"] for m in listed] == [str(i) for i in ids]
    assert [m["status"] for m in listed] == ["live", "ended", "live", "ended", "live"]
    assert (reads.calls, reads.rows) == (4, 7)  # pages of 2: 2, 2, 2, 1


def test_once_caught_up_a_list_read_reads_no_events(kiroku: Kiroku,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ledger.matchlist, "SKIP_AHEAD", 10)
    match_id = _match(kiroku)
    kiroku.find_matches()
    _turns(kiroku, match_id, 12)
    reads = _Reads(kiroku, monkeypatch)
    kiroku.find_matches()  # reads past the twelve actions once, and moves on past them
    assert (reads.calls, reads.rows) == (1, 0)
    kiroku.find_matches(player="ann")
    kiroku.recorder.match_ids(str(match_id)[:6])
    assert reads.calls == 1


def test_a_new_list_event_is_the_only_one_read(kiroku: Kiroku,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    first = _match(kiroku)
    kiroku.find_matches()
    _turns(kiroku, first, 3)
    second = _match(kiroku, ("Cid", "Dee"))
    reads = _Reads(kiroku, monkeypatch)
    assert [m["match_id"] for m in kiroku.find_matches()] == [str(first), str(second)]
    assert (reads.calls, reads.rows) == (1, 1)


def test_a_store_recorded_before_the_list_existed_is_listed_in_full(store_url: str) -> None:
    kiroku = Kiroku.open(store_url)
    ids = [_match(kiroku, (f"P{n}a", f"P{n}b")) for n in range(3)]
    kiroku.record(ids[1], {"type": "concede", "seat": 1}, recorded_by="P1")
    view: Any = kiroku.recorder.match_list.view
    table = getattr(view, "table_name", ledger.matchlist.TABLE)
    tracking = getattr(view, "tracking_table_name", "tracking")
    with view.datastore.transaction(commit=True) as cursor:  # as a store from before it
        cursor.execute(f"DROP TABLE {_qualified(view, table)}")
        cursor.execute(f"DELETE FROM {_qualified(view, tracking)}")
    kiroku.close()
    reopened = Kiroku.open(store_url)
    try:
        listed = reopened.find_matches()
        assert [m["match_id"] for m in listed] == [str(i) for i in ids]
        assert [m["status"] for m in listed] == ["live", "ended", "live"]
    finally:
        reopened.close()


def _qualified(view: Any, table: str) -> str:
    schema = getattr(view.datastore, "schema", None)
    return f"{schema}.{table}" if schema else table


def test_a_part_of_a_name_is_searched_within_one_name(kiroku: Kiroku) -> None:
    _match(kiroku, ("Anna Berg", "Ben Ott"))
    assert len(kiroku.find_matches(player="BERG")) == 1
    assert kiroku.find_matches(player="berg\nben") == []
    assert kiroku.find_matches(player="nobody") == []


def test_simulated_matches_are_listed_apart(kiroku: Kiroku) -> None:
    table = _match(kiroku)
    [simulated] = kiroku.simulate("worldgainer", 1, seed=5)
    assert [m["match_id"] for m in kiroku.find_matches()] == [str(table)]
    assert [m["match_id"] for m in kiroku.find_matches(simulated=True)] == [str(simulated)]
    both = kiroku.recorder.find_matches(MatchQuery(simulated=None))
    assert {m.match_id for m in both} == {table, simulated}


def test_pages_follow_the_list_order(kiroku: Kiroku) -> None:
    ids = [str(_match(kiroku, (f"P{n}a", f"P{n}b"))) for n in range(5)]
    pages = [kiroku.find_matches(offset=o, limit=2) for o in (0, 2, 4)]
    assert [m["match_id"] for page in pages for m in page] == ids
    newest = kiroku.find_matches(newest_first=True, offset=1, limit=2)
    assert [m["match_id"] for m in newest] == ids[3:1:-1]


def test_a_page_says_how_many_matches_its_filters_select(kiroku: Kiroku) -> None:
    ids = [_match(kiroku, (f"P{n}a", f"P{n}b")) for n in range(5)]
    kiroku.record(ids[0], {"type": "concede", "seat": 2}, recorded_by="P2")
    for query, total in ((MatchQuery(limit=2), 5), (MatchQuery(offset=4, limit=2), 5),
                         (MatchQuery(status="ended", limit=1), 1),
                         (MatchQuery(player="p3", offset=1), 1),
                         (MatchQuery(player="no\tname"), 0)):
        page = kiroku.recorder.match_page(query)
        assert page.total == total
        assert page.matches == kiroku.recorder.find_matches(query)


# ----- the streams lists find (annotations, variations, tournaments, credentials) ------------
HEAD = Identity.operator("Head Judge Hana")
ORGANISER = Identity.operator("Organiser Oda")


def _annotate(kiroku: Kiroku, match_id: UUID, text: str) -> str:
    made = annotating.add(kiroku, kiroku.audience(match_id, HEAD), 0, text, [], [], [], "public")
    return str(made["annotation_id"])


def _tournament(kiroku: Kiroku, name: str) -> UUID:
    return UUID(str(tournaments.create(kiroku, ORGANISER, name=name,
                                       game="worldgainer")["tournament_id"]))


def _branch(kiroku: Kiroku, match_id: UUID, name: str) -> str:
    return str(lines.start(kiroku, kiroku.audience(match_id, HEAD), 0, None, None, name,
                           "private")["variation_id"])


def test_a_match_s_annotations_and_variations_are_its_own_in_order(kiroku: Kiroku) -> None:
    first, second = _match(kiroku), _match(kiroku, ("Cid", "Dee"))
    # six of each: random ids would come back in the order they were started 1 time in 720
    notes = [_annotate(kiroku, first, f"note {n}") for n in range(6)]
    _annotate(kiroku, second, "elsewhere")
    branches = [_branch(kiroku, second, f"line {n}") for n in range(6)]
    assert [str(a.id) for a in kiroku.annotations.of_match(first)] == notes
    assert [str(v.id) for v in kiroku.variations.of_match(second)] == branches
    assert kiroku.variations.of_match(first) == []
    # every kind in one read (audit verify's check beside a match), in the same order
    kinds = kiroku.recorder.streams.kinds_of_match(second)
    assert {kind: [str(i) for i in ids] for kind, ids in kinds.items()} == {
        "annotation": [str(a.id) for a in kiroku.annotations.of_match(second)],
        "variation": branches}
    assert kiroku.recorder.streams.kinds_of_match(first) == {"annotation": [
        UUID(n) for n in notes]}


def test_another_server_finds_an_annotation_the_first_just_added(store_url: str) -> None:
    first, second = Kiroku.open(store_url), Kiroku.open(store_url)
    try:
        match_id = _match(first)
        assert list(second.annotations.of_match(match_id)) == []
        note = _annotate(first, match_id, "seen")
        assert [str(a.id) for a in second.annotations.of_match(match_id)] == [note]
    finally:
        first.close()
        second.close()


def test_once_caught_up_a_match_s_annotations_are_read_without_the_log(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = _match(kiroku)
    _annotate(kiroku, match_id, "a")
    _branch(kiroku, match_id, "x")
    list(kiroku.annotations.of_match(match_id))
    reads = _Reads(kiroku, monkeypatch)
    assert len(list(kiroku.annotations.of_match(match_id))) == 1
    assert len(kiroku.variations.of_match(match_id)) == 1
    assert reads.calls == 0


def test_tournaments_and_credentials_are_listed_in_order_without_the_log(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ledger.matchlist, "SKIP_AHEAD", 1)  # moves on past the revocation
    judge = kiroku.credentials.issue(Role.JUDGE, "Kato", issued_by="organiser")[0]
    _match(kiroku)
    cups = [_tournament(kiroku, "Spring Cup"), _tournament(kiroku, "Summer Cup")]
    kiroku.credentials.revoke(judge.credential_id, reason="typo", revoked_by="organiser")
    issued = [i.credential_id for i in kiroku.credentials.issued()]
    assert issued[-1] == judge.credential_id  # the organiser's, made at opening, comes first
    reads = _Reads(kiroku, monkeypatch)
    assert list(kiroku.tournaments.all_ids()) == cups
    assert [i.credential_id for i in kiroku.credentials.issued()] == issued
    assert kiroku.credentials.is_revoked(judge)
    assert reads.calls == 0


def _as_before(kiroku: Kiroku, tracking_name: str, forget: str) -> None:
    """The store as it was before a read model of the streams' table was kept: ``forget``
    (SQL on ``{table}``, the streams' table) run, and the model's position deleted."""
    view: Any = kiroku.recorder.match_list.view
    table = getattr(view, "streams_table_name", ledger.matchlist.STREAMS)
    tracking = getattr(view, "tracking_table_name", "tracking")
    with view.datastore.transaction(commit=True) as cursor:
        cursor.execute(forget.format(table=_qualified(view, table)))
        cursor.execute(f"DELETE FROM {_qualified(view, tracking)} WHERE application_name = "
                       f"'{tracking_name}'")


def test_a_store_annotated_before_the_streams_were_kept_is_read_in_full(
        store_url: str) -> None:
    kiroku = Kiroku.open(store_url)
    match_id = _match(kiroku)
    notes = [_annotate(kiroku, match_id, "a"), _annotate(kiroku, match_id, "b")]
    branch = _branch(kiroku, match_id, "x")
    cup = _tournament(kiroku, "Autumn Cup")
    issued = [i.credential_id for i in kiroku.credentials.issued()]
    _as_before(kiroku, kiroku.recorder.streams.tracking_name, "DROP TABLE {table}")
    kiroku.close()
    reopened = Kiroku.open(store_url)
    try:
        assert [str(a.id) for a in reopened.annotations.of_match(match_id)] == notes
        assert [str(v.id) for v in reopened.variations.of_match(match_id)] == [branch]
        assert list(reopened.tournaments.all_ids()) == [cup]
        assert [i.credential_id for i in reopened.credentials.issued()] == issued
        assert len(reopened.find_matches()) == 1  # the list's own position is untouched
    finally:
        reopened.close()


def test_disputes_opened_before_they_were_indexed_are_found_by_a_prefix(
        store_url: str) -> None:
    """The dispute index (issue 40: ids by prefix) reads a store's older disputes: it is
    tracked under a name of its own, which an older store has no position for."""
    kiroku = Kiroku.open(store_url)
    match_id = _match(kiroku)
    organiser = Identity.operator("organiser")
    opened = [hearing.open_dispute(kiroku, organiser, match_id, None, claim, [], False)[
        "dispute_id"] for claim in ("one", "two")]
    _as_before(kiroku, kiroku.recorder.dispute_streams.tracking_name,
               "DELETE FROM {table} WHERE kind = 'dispute'")
    kiroku.close()
    reopened = Kiroku.open(store_url)
    try:
        assert [str(d) for d in reopened.disputes.all_ids()] == opened
        assert str(hearing.find(reopened, organiser, opened[1][:8])) == opened[1]
    finally:
        reopened.close()
