"""Tournament day (issue 42) in the service: best-of-N matches whose games are recorded matches
of their own, played by the table's slips and the players' one sign-in; results entered with
their game score; drops and late entries; deadlines that cannot be set in the past."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from ledger.catalog import sample_decks
from ledger.errors import Forbidden
from ledger.identity import Identity, Role, Unauthenticated
from ledger.tournaments import TournamentRefused
from replay import disputes as hearing
from replay import signin
from replay import tournaments as events
from replay.pairings import Pairing
from replay.service import Kiroku

ORG = Identity.operator("TO Tomoko")
DECKS = sample_decks("worldgainer")
SOLAR = dict(DECKS["solar_vanguard"].cards)
BLOOM = dict(DECKS["pleiades_bloom"].cards)
PAST = "2020-01-01T09:00:00+09:00"
FUTURE = "2999-01-01T09:00:00+09:00"


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


class Bo3:
    """A best-of-three event of four players (1001-1004) with a judge, round 1 paired: table 1
    Aiko (seat 1) v Ben, table 2 Chie v Dan."""

    def __init__(self, kiroku: Kiroku, best_of: int = 3) -> None:
        self.kiroku = kiroku
        self.judge = kiroku.credentials.issue(Role.JUDGE, "Judge Jun", issued_by="test")[0]
        made = events.create(kiroku, ORG, name="Kiroku Bo3", game="worldgainer",
                             best_of=best_of, judges=[self.judge.credential_id])
        self.id = UUID(made["tournament_id"])
        self.players = [events.register(kiroku, ORG, self.id, name, str(1001 + i))
                        for i, name in enumerate(["Aiko", "Ben", "Chie", "Dan"])]
        for i, player in enumerate(self.players):
            events.submit_decklist(kiroku, ORG, self.id, player["player_id"],
                                   SOLAR if i % 2 == 0 else BLOOM)
        self.round = events.pair(kiroku, ORG, self.id, [Pairing(1, ("1001", "1002")),
                                                        Pairing(2, ("1003", "1004"))])

    def player(self, index: int) -> Identity:
        return self.kiroku.credentials.authenticate(self.players[index]["token"])

    def slip(self, table: int, seat: int) -> Identity:
        """The seat credential printed on a table's slip."""
        entry = next(t for t in self.round["tables"] if t["table"] == table)
        return self.kiroku.credentials.authenticate(entry["seats"][seat - 1]["token"])

    def table(self, number: int = 1) -> dict[str, Any]:
        view = events.round_view(self.kiroku, self.id, 1)
        found: dict[str, Any] = next(t for t in view["tables"] if t["table"] == number)
        return found

    def win_current(self, seat_won: int, number: int = 1) -> None:
        """The current game of a table ends: the other seat concedes."""
        match_id = UUID(self.table(number)["current_match_id"])
        self.kiroku.record(match_id, {"type": "concede", "seat": 3 - seat_won},
                           recorded_by=ORG.recorded_by)

    def next_game(self, by: Identity | None = None, number: int = 1) -> dict[str, Any]:
        return events.next_game(self.kiroku, by or self.player(0), self.id, 1, number)


@pytest.fixture
def bo3(kiroku: Kiroku) -> Bo3:
    return Bo3(kiroku)


# ----- the series ---------------------------------------------------------------------------
def test_a_won_first_game_opens_the_second(bo3: Bo3) -> None:
    bo3.win_current(1)
    table = bo3.table()
    assert (table["status"], table["game_wins"], table["next_game"]) == (
        "in_progress", [1, 0], True)
    started = bo3.next_game()
    assert [g["game"] for g in started["games"]] == [1, 2]
    assert started["current_match_id"] == started["games"][1]["match_id"] != started["match_id"]


def test_two_nil_is_the_tables_result(bo3: Bo3) -> None:
    bo3.win_current(1)
    bo3.next_game()
    bo3.win_current(1)
    table = bo3.table()
    assert table["status"] == "result" and table["next_game"] is False
    assert table["result"]["game_wins"] == [2, 0]
    assert [w["name"] for w in table["result"]["winners"]] == ["Aiko"]


def test_the_next_game_waits_for_the_last_to_end(bo3: Bo3) -> None:
    with pytest.raises(TournamentRefused) as refused:
        bo3.next_game()
    assert refused.value.reason == "game_in_progress"


def test_a_decided_series_starts_no_other_game(bo3: Bo3) -> None:
    bo3.win_current(2)
    bo3.next_game()
    bo3.win_current(2)
    before = len(bo3.kiroku.list_matches())
    with pytest.raises(TournamentRefused) as refused:
        bo3.next_game()
    assert refused.value.reason == "series_over" and "0-2" in refused.value.message
    assert len(bo3.kiroku.list_matches()) == before


def test_a_call_waiting_for_a_ruling_holds_the_next_game(bo3: Bo3) -> None:
    bo3.win_current(1)
    game_one = UUID(bo3.table()["match_id"])
    hearing.open_dispute(bo3.kiroku, bo3.judge, game_one, None, "Was that a legal concede?",
                         [1], False)
    assert bo3.table()["status"] == "awaiting_ruling"
    with pytest.raises(TournamentRefused) as refused:
        bo3.next_game()
    assert refused.value.reason == "awaiting_ruling"


def test_the_slip_of_game_one_plays_the_same_seat_of_game_two(bo3: Bo3) -> None:
    bo3.win_current(1)
    started = bo3.next_game(by=bo3.slip(1, 2))
    game_two = UUID(started["current_match_id"])
    ben = bo3.slip(1, 2)
    audience = bo3.kiroku.audience(game_two, ben)
    assert audience.seat == 2 and str(audience.viewer) == "seat:2"
    other_table = UUID(bo3.table(2)["match_id"])
    assert bo3.kiroku.audience(other_table, ben).seat is None


def test_a_players_sign_in_plays_each_game_as_their_seat(bo3: Bo3) -> None:
    bo3.win_current(2)
    started = bo3.next_game(by=bo3.player(1))
    ben = bo3.player(1)
    assert bo3.kiroku.audience(UUID(started["current_match_id"]), ben).seat == 2
    plays = signin.my_matches(bo3.kiroku, ben)
    assert [(p["round"], p["table"], p["game"], p["seat"]) for p in plays] == [
        (1, 1, 2, 2), (1, 1, 1, 2)]


def test_someone_from_another_table_cannot_start_the_next_game(bo3: Bo3) -> None:
    bo3.win_current(1)
    with pytest.raises(Forbidden) as refused:
        bo3.next_game(by=bo3.player(2))
    assert refused.value.reason == "not_your_table"
    with pytest.raises(Forbidden):
        bo3.next_game(by=bo3.slip(2, 1))


def test_a_spectator_cannot_start_a_game(bo3: Bo3) -> None:
    bo3.win_current(1)
    with pytest.raises(Unauthenticated):
        events.next_game(bo3.kiroku, None, bo3.id, 1, 1)


def test_standings_count_the_games(bo3: Bo3) -> None:
    bo3.win_current(1)
    bo3.next_game()
    bo3.win_current(2)
    bo3.next_game()
    bo3.win_current(1)
    rows = {r["name"]: r for r in events.standings_of(bo3.kiroku, bo3.id)["standings"]}
    assert (rows["Aiko"]["game_wins"], rows["Aiko"]["game_losses"]) == (2, 1)
    assert (rows["Ben"]["game_wins"], rows["Ben"]["game_losses"]) == (1, 2)
    assert rows["Aiko"]["match_points"] == 3 and rows["Ben"]["match_points"] == 0


# ----- results a judge enters -----------------------------------------------------------------
def test_time_called_at_one_all_is_entered_as_a_draw_with_its_games(bo3: Bo3) -> None:
    bo3.win_current(1)
    bo3.next_game()
    bo3.win_current(2)
    view = events.enter_result(bo3.kiroku, bo3.judge, bo3.id, 1, 1, [], True,
                               "time called at 1-1", game_wins=[1, 1])
    table = next(t for t in view["tables"] if t["table"] == 1)
    assert table["status"] == "result" and table["result"]["source"] == "judge"
    assert table["result"]["game_wins"] == [1, 1] and table["next_game"] is False


def test_game_wins_that_contradict_the_result_are_refused(bo3: Bo3) -> None:
    with pytest.raises(TournamentRefused) as refused:
        events.enter_result(bo3.kiroku, bo3.judge, bo3.id, 1, 1, ["1002"], False,
                            "paper", game_wins=[2, 1])
    assert refused.value.reason == "bad_result"


def test_more_games_than_the_match_plays_are_refused(bo3: Bo3) -> None:
    with pytest.raises(TournamentRefused, match="ends at 2 game wins, after at most 6 games"):
        events.enter_result(bo3.kiroku, bo3.judge, bo3.id, 1, 1, ["1001"], False,
                            "paper", game_wins=[3, 1])


def test_a_series_decided_by_its_games_takes_no_entry(bo3: Bo3) -> None:
    bo3.win_current(1)
    bo3.next_game()
    bo3.win_current(1)
    with pytest.raises(TournamentRefused) as refused:
        events.enter_result(bo3.kiroku, bo3.judge, bo3.id, 1, 1, [], True, "ID")
    assert refused.value.reason == "match_has_result"


def test_an_entered_result_ends_the_series(bo3: Bo3) -> None:
    events.enter_result(bo3.kiroku, bo3.judge, bo3.id, 1, 2, [], True, "intentional draw")
    with pytest.raises(TournamentRefused) as refused:
        bo3.next_game(by=bo3.player(2), number=2)
    assert refused.value.reason == "series_over"


# ----- creating, deadlines ----------------------------------------------------------------------
def test_a_deadline_in_the_past_is_refused_at_creation(kiroku: Kiroku) -> None:
    with pytest.raises(TournamentRefused) as refused:
        events.create(kiroku, ORG, name="Late", game="worldgainer", deadline=PAST)
    assert refused.value.reason == "deadline_passed"
    assert list(kiroku.tournaments.all_ids()) == []


def test_a_deadline_moves_until_the_lists_lock(bo3: Bo3, kiroku: Kiroku) -> None:
    made = events.create(kiroku, ORG, name="Later", game="worldgainer", deadline=FUTURE)
    tid = UUID(made["tournament_id"])
    moved = events.set_deadline(kiroku, ORG, tid, "2998-06-01T10:00:00+09:00")
    assert moved["deadline"].startswith("2998-06-01T01:00:00")
    with pytest.raises(TournamentRefused) as refused:
        events.set_deadline(kiroku, ORG, tid, PAST)
    assert refused.value.reason == "deadline_passed"
    with pytest.raises(TournamentRefused) as locked:  # bo3's lists locked at its pairing
        events.set_deadline(kiroku, ORG, bo3.id, FUTURE)
    assert locked.value.reason == "decklists_locked"


@pytest.mark.parametrize("best_of", [0, 2, 7])
def test_a_match_is_best_of_one_three_or_five(kiroku: Kiroku, best_of: int) -> None:
    with pytest.raises(TournamentRefused) as refused:
        events.create(kiroku, ORG, name="Odd", game="worldgainer", best_of=best_of)
    assert refused.value.reason == "bad_best_of"


def test_unknown_tiebreakers_are_refused(kiroku: Kiroku) -> None:
    with pytest.raises(TournamentRefused) as refused:
        events.create(kiroku, ORG, name="Odd", game="worldgainer", tiebreakers="buchholz")
    assert refused.value.reason == "bad_tiebreakers"


def test_the_tournament_says_its_format(bo3: Bo3) -> None:
    shown = events.read(bo3.kiroku, bo3.id)
    assert (shown["best_of"], shown["tiebreakers"], shown["dropped"]) == (3, "mtr", 0)


# ----- drops and late entries -------------------------------------------------------------------
def test_a_dropped_player_is_not_paired_again(bo3: Bo3) -> None:
    dropped = events.drop(bo3.kiroku, ORG, bo3.id, "1004", "went home")
    assert dropped["dropped"] is True
    before = len(bo3.kiroku.list_matches())
    with pytest.raises(TournamentRefused) as refused:
        events.pair(bo3.kiroku, ORG, bo3.id, [Pairing(1, ("1001", "1004"))])
    assert refused.value.reason == "player_dropped" and "Dan" in refused.value.message
    assert len(bo3.kiroku.list_matches()) == before


def test_a_dropped_player_stays_in_the_standings(bo3: Bo3) -> None:
    bo3.win_current(1, number=2)
    events.drop(bo3.kiroku, bo3.judge, bo3.id, "1004", "went home")
    rows = {r["name"]: r for r in events.standings_of(bo3.kiroku, bo3.id)["standings"]}
    assert rows["Dan"]["dropped"] is True and rows["Chie"]["dropped"] is False
    assert [p["dropped"] for p in events.players(bo3.kiroku, bo3.id)] == [
        False, False, False, True]


def test_a_player_drops_once_and_only_staff_drop_them(bo3: Bo3) -> None:
    events.drop(bo3.kiroku, ORG, bo3.id, "1004", "went home")
    with pytest.raises(TournamentRefused):
        events.drop(bo3.kiroku, ORG, bo3.id, "1004", "again")
    with pytest.raises(Forbidden):
        events.drop(bo3.kiroku, bo3.player(0), bo3.id, "1002", "he left")


def test_a_late_entry_submits_a_first_list_after_the_lock(bo3: Bo3) -> None:
    late = events.register(bo3.kiroku, ORG, bo3.id, "Emi", "1005")
    emi = bo3.kiroku.credentials.authenticate(late["token"])
    shown = events.submit_decklist(bo3.kiroku, emi, bo3.id, late["player_id"], SOLAR)
    assert shown["locked"] and shown["deck"] == SOLAR
    with pytest.raises(TournamentRefused) as refused:  # a second list is a change
        events.submit_decklist(bo3.kiroku, emi, bo3.id, late["player_id"], BLOOM)
    assert refused.value.reason == "decklists_locked"
    answer = events.pair(bo3.kiroku, ORG, bo3.id, [Pairing(1, ("1005", "1002"))])
    assert answer["round"] == 2


# ----- one status for a table everywhere ----------------------------------------------------
def test_an_entered_result_ends_the_tables_game_in_the_match_list(bo3: Bo3) -> None:
    events.enter_result(bo3.kiroku, bo3.judge, bo3.id, 1, 2, [], True, "intentional draw")
    listed = {m["tournament"]["table"]: m for m in bo3.kiroku.find_matches(tournament=bo3.id)}
    assert listed[2]["status"] == "ended" and listed[2]["result"]["drawn"] is True
    assert listed[2]["result"]["reason"] == "table_result_entered"
    assert listed[1]["status"] == "live"
    assert bo3.kiroku.find_matches(tournament=bo3.id, status="live") == [listed[1]]


def test_an_entered_win_names_the_winners_seat_in_the_list(bo3: Bo3) -> None:
    events.enter_result(bo3.kiroku, bo3.judge, bo3.id, 1, 1, ["1002"], False, "no-show",
                        game_wins=[0, 2])
    listed = {m["tournament"]["table"]: m for m in bo3.kiroku.find_matches(tournament=bo3.id)}
    assert listed[1]["result"]["winners"] == [2]
    rows = {r["name"]: r for r in events.standings_of(bo3.kiroku, bo3.id)["standings"]}
    assert (rows["Ben"]["match_points"], rows["Ben"]["game_wins"]) == (3, 2)


def test_the_list_says_which_game_of_the_table_a_match_is(bo3: Bo3) -> None:
    bo3.win_current(1)
    bo3.next_game()
    games = sorted(m["tournament"]["game"] for m in bo3.kiroku.find_matches(tournament=bo3.id,
                                                                            table=1))
    assert games == [1, 2]


# ----- one stream, many tables --------------------------------------------------------------
def test_two_tables_starting_their_next_games_at_once_both_start(
        bo3: Bo3, monkeypatch: pytest.MonkeyPatch) -> None:
    """Table 2's next game is appended between table 1's read of the tournament and its save:
    table 1's save clashes with it and runs again on the fresh tournament."""
    bo3.win_current(1)
    bo3.win_current(1, number=2)
    reads = 0
    real_get = bo3.kiroku.tournaments.get

    def get_while_table_two_starts(tournament_id: UUID) -> Any:
        nonlocal reads
        read = real_get(tournament_id)
        reads += 1
        if reads == 1:  # table 1 has read: table 2 starts its game before table 1 saves
            monkeypatch.setattr(bo3.kiroku.tournaments, "get", real_get)
            bo3.next_game(by=bo3.player(2), number=2)
            monkeypatch.setattr(bo3.kiroku.tournaments, "get", get_while_table_two_starts)
        return read

    monkeypatch.setattr(bo3.kiroku.tournaments, "get", get_while_table_two_starts)
    started = bo3.next_game(by=bo3.player(0), number=1)
    assert reads >= 2  # the clash was met and table 1's command ran again
    assert len(started["games"]) == 2 and len(bo3.table(2)["games"]) == 2
    started_events = [e for e in bo3.kiroku.tournaments.history(bo3.id)
                      if type(e).__name__ == "GameStarted"]
    assert sorted(e.table for e in started_events) == [1, 2]


def test_a_tablemates_press_at_the_same_moment_starts_one_game(
        bo3: Bo3, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both players of table 1 press "Start game 2" at once: one game starts, the other press
    is refused as a game in progress (no 409, no second game)."""
    bo3.win_current(1)
    real_get = bo3.kiroku.tournaments.get
    pressed = False

    def get_while_the_tablemate_presses(tournament_id: UUID) -> Any:
        nonlocal pressed
        read = real_get(tournament_id)
        if not pressed:
            pressed = True
            monkeypatch.setattr(bo3.kiroku.tournaments, "get", real_get)
            bo3.next_game(by=bo3.player(1))
        return read

    monkeypatch.setattr(bo3.kiroku.tournaments, "get", get_while_the_tablemate_presses)
    with pytest.raises(TournamentRefused) as refused:
        bo3.next_game(by=bo3.player(0))
    assert refused.value.reason == "game_in_progress"
    assert len(bo3.table()["games"]) == 2
