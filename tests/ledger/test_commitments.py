"""Salted commitments in the hash chain: every viewer verifies the chain over what it sees, and
nobody learns a hidden value by guessing (ledger.chain)."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from engine import JUDGE, SPECTATOR, Viewer
from engine.core.data import canonical_bytes
from ledger.chain import event_hash, first_break, hashed_payload
from replay.audit import verify_records
from replay.records import payload_of
from replay.service import Kiroku, parse_export
from tests.golden.record import GOLDEN_DIR


@pytest.fixture
def kiroku() -> Iterator[Kiroku]:
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()


def _live_match(kiroku: Kiroku) -> UUID:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"first_player": 1})
    kiroku.record(match_id, {"type": "end_turn", "seat": 1}, recorded_by="Ann")
    kiroku.record(match_id, {"type": "end_turn", "seat": 2}, recorded_by="Ben")
    return match_id


def _guesses(record: dict[str, Any], path: str, candidates: list[str]) -> list[str]:
    """The candidates that reproduce ``record``'s hash when put at ``path``: the attack on a
    chain whose hash covers hidden values in plain."""
    found = []
    for card in candidates:
        trial = copy.deepcopy(record)
        trial.pop("commitments", None)
        trial.pop("redacted_for", None)
        key, index, field = path.split(".")
        trial[key][int(index)][field] = card
        trial[key][int(index)].pop("redacted", None)
        if event_hash(trial["event"], UUID(trial["match_id"]), trial["version"],
                      payload_of(trial)) == record["hash"]:
            found.append(card)
    return found


def test_every_viewer_verifies_the_chain_over_what_it_sees(kiroku: Kiroku) -> None:
    match_id = _live_match(kiroku)
    for viewer in (SPECTATOR, Viewer("seat", 1), Viewer("seat", 2), JUDGE):
        records = kiroku.records(kiroku.seen_by(match_id, viewer))
        assert first_break(records) is None, str(viewer)
    seen = kiroku.records(kiroku.seen_by(match_id, SPECTATOR))
    assert seen[-1]["outcomes"][0]["value"] is None  # seat 1's draw, hidden
    assert seen[-1]["commitments"]["outcomes.0.value"]


def test_the_commitments_cover_exactly_what_some_viewer_may_not_see(kiroku: Kiroku) -> None:
    match_id = _live_match(kiroku)
    created, first, second = kiroku.records(kiroku.seen_by(match_id, JUDGE))
    assert set(created["commitments"]) == {"config.decks.0", "config.decks.1",
                                           "config.cards"} | {
        f"setup_outcomes.{i}.value" for i in range(14)}
    assert set(first["commitments"]) == {"outcomes.0.value"}
    assert first["hash"] == event_hash("ActionRecorded", match_id, 2, hashed_payload(first))
    assert hashed_payload(first)["outcomes"][0]["value"] == {
        "commitment": first["commitments"]["outcomes.0.value"]}


def test_guessing_a_hidden_draw_from_the_public_chain_fails(kiroku: Kiroku) -> None:
    """The attack that recovered 8 of 8 single-card draws: a spectator hashes every card id the
    match could hold at the hidden place. With commitments no candidate fits, and the
    commitment is no unsalted hash of the card either."""
    match_id = _live_match(kiroku)
    cards = sorted(kiroku.records(kiroku.seen_by(match_id, JUDGE))[0]["config"]["cards"])
    drawn = kiroku.records(kiroku.seen_by(match_id, JUDGE))[1]["outcomes"][0]["value"]
    record = kiroku.records(kiroku.seen_by(match_id, SPECTATOR))[1]
    assert _guesses(record, "outcomes.0.value", cards) == []
    c = record["commitments"]["outcomes.0.value"]
    assert c not in {hashlib.sha256(canonical_bytes(card)).hexdigest() for card in cards}
    assert drawn in cards


def test_the_same_attack_recovers_draws_of_matches_recorded_before_commitments() -> None:
    """Why commitments: on a match recorded before them (a golden match), the attack works."""
    _, records = parse_export((GOLDEN_DIR / "worldgainer" / "in-progress" / "match.jsonl")
                              .read_bytes())
    cards = sorted(records[0]["config"]["cards"])
    record = next(r for r in records if r["event"] == "ActionRecorded"
                  and r["chance_source"] == "seed" and len(r["outcomes"]) == 1)
    assert _guesses(record, "outcomes.0.value", cards) == [record["outcomes"][0]["value"]]


def test_after_the_reveal_the_audit_checks_every_commitment(kiroku: Kiroku) -> None:
    match_id = _live_match(kiroku)
    kiroku.record(match_id, {"type": "concede", "seat": 1}, recorded_by="Ann")
    records = kiroku.records(kiroku.seen_by(match_id, JUDGE))
    assert verify_records(records).ok
    dropped = copy.deepcopy(records)
    del dropped[1]["commitments"]["outcomes.0.value"]
    report = verify_records(_rechain(dropped))
    assert report.failure is not None
    assert (report.failure["reason"], report.failure["version"]) == (
        "uncommitted_hidden_value", 2)


def _rechain(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    prev = "0" * 64
    for r in records:
        r["prev_hash"] = prev
        r["hash"] = event_hash(r["event"], UUID(r["match_id"]), r["version"], payload_of(r))
        prev = r["hash"]
    return records


def _deck_only(records: list[dict[str, Any]], seat: int) -> set[str]:
    """Card ids that only ``seat``'s deck holds."""
    decks = records[0]["config"]["decks"]
    others = {cid for i, deck in enumerate(decks, start=1) if i != seat for cid in deck}
    return set(decks[seat - 1]) - others


def test_deck_lists_and_their_cards_are_seen_by_their_own_seat_only(kiroku: Kiroku) -> None:
    """Closed deck lists (the default): the match's first event names no card of another
    seat's deck to a seat, none to a spectator, in /events as in exports; judges see all."""
    match_id = _live_match(kiroku)
    full = kiroku.records(kiroku.seen_by(match_id, JUDGE))
    only_two = _deck_only(full, 2)
    assert only_two and full[0]["config"]["options"]["decklists"] == "closed"
    mine = kiroku.records(kiroku.seen_by(match_id, Viewer("seat", 1)))[0]["config"]
    assert mine["decks"][1] is None and set(mine["cards"]) == set(full[0]["config"]["decks"][0])
    spectator = kiroku.records(kiroku.seen_by(match_id, SPECTATOR))[0]
    assert spectator["config"]["cards"] == {} and spectator["config"]["decks"] == [None, None]
    created_line = kiroku.export(kiroku.seen_by(match_id, Viewer("seat", 1)),
                                 "jsonl").splitlines()[1]
    assert not [cid for cid in only_two if cid.encode() in created_line]
    assert not [cid for cid in only_two if cid in " ".join(spectator["commitments"])]


def test_open_deck_lists_are_public(kiroku: Kiroku) -> None:
    match_id = kiroku.new_match("worldgainer", ["Ann", "Ben"], ["solar_vanguard",
                                "pleiades_bloom"], options={"decklists": "open"})
    seen = kiroku.records(kiroku.seen_by(match_id, SPECTATOR))[0]
    full = kiroku.records(kiroku.seen_by(match_id, JUDGE))[0]
    assert seen["config"]["decks"] == full["config"]["decks"]
    assert seen["config"]["cards"] == full["config"]["cards"]
    assert first_break(kiroku.records(kiroku.seen_by(match_id, SPECTATOR))) is None


def test_a_match_imported_without_its_seed_records_no_hidden_value(kiroku: Kiroku) -> None:
    """Without the seed there are no salts: an action that would hide a value is refused and
    nothing is stored, rather than hashed in plain for anyone to guess."""
    match_id = _live_match(kiroku)
    other = Kiroku.open("sqlite:///:memory:")
    try:
        imported = other.import_match(kiroku.export(kiroku.seen_by(match_id, JUDGE),
                                                    "jsonl")).match_id
        version = other.summary(other.seen_by(imported))["version"]
        deck = other.recorder.get_match(imported).state.player(2).deck  # seat 2 draws next
        with pytest.raises(Exception) as info:
            other.record(imported, {"type": "end_turn", "seat": 1}, recorded_by="judge",
                         outcomes=[deck[0]])
        assert getattr(info.value, "reason", None) == "seed_unavailable"
        assert other.summary(other.seen_by(imported))["version"] == version
        assert other.audit(imported).ok
    finally:
        other.close()
