"""What the judge's console reads (issue 40): the open calls across the matches a judge hears,
and what an adjustment of one match may touch, from its game's zone table and tallies, so the
console builds its adjustment form without JSON."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from engine.core.errors import ActionError
from engine.registry import get_game
from ledger.errors import Forbidden
from ledger.identity import Role
from ledger.matchlist import MatchQuery
from replay import access
from replay.access import Caller
from replay.audience import Audience
from replay.disputes import shown
from replay.service import Kiroku

OPEN = ("open", "appealed")


def open_calls(kiroku: Kiroku, caller: Caller) -> list[dict[str, Any]]:
    """The disputes waiting for a judge (open, or appealed) in the live matches the caller
    hears (a tournament's matches: its own judges; the organisers every match), oldest first,
    each with its match's players and its tournament, round and table."""
    judge = access.staff(caller, "The open calls")
    calls = []
    for listed in kiroku.recorder.find_matches(MatchQuery(status="live")):
        docket = kiroku.disputes.docket(listed.match_id)
        if not docket.disputes:
            continue
        seating = kiroku.tournaments.seating(listed.match_id)
        if seating is not None and judge.role != Role.ORGANISER and not (
                kiroku.tournaments.get(UUID(seating.tournament_id)).is_judge(
                    judge.credential_id)):
            continue
        for dispute_id in docket.disputes:
            dispute = kiroku.disputes.get(UUID(dispute_id))
            if dispute.status in OPEN:
                calls.append({**shown(dispute), "players": list(listed.players),
                              "game": listed.game,
                              "tournament": seating.labels() if seating else None})
    return sorted(calls, key=lambda call: str(call["recorded_at"]))


def adjustable(kiroku: Kiroku, audience: Audience) -> dict[str, Any]:
    """What an adjustment of the match may touch now (judges only): every place of the zone
    table with the cards in it (ids and names), every counter with its value and bounds, the
    stats lasting modifiers change with the cards that have them, and the phases a turn
    change may set. The names of the fields are those of ``adjust``'s."""
    if not audience.is_staff or audience.narrowed:
        raise Forbidden("judges_only", "What an adjustment may touch is for judges.")
    match = audience.match
    ruleset = get_game(match.game)
    state = match.state
    names = kiroku.card_names(audience)
    seats = list(range(1, len(match.players) + 1))

    def cards(ids: list[str]) -> list[dict[str, str]]:
        return [{"id": c, "name": names.get(c, c)} for c in ids]

    places = [{"zone": place.zone, "seat": place.seat, "address": place.address,
               "ref": f"{place.zone}:{place.address}" if place.address else place.zone,
               "label": str(place), "cards": cards(held)}
              for place, held in ruleset.places(state).items()]
    counters = []
    for tally in ruleset.tallies:
        owners = [1] if tally.of == "match" else seats
        for seat in owners:
            keys = list(tally.keys(state, seat)) if tally.keyed else [""]
            for key in keys:
                try:
                    value = tally.get(state, seat, key)
                except ActionError:  # not there now (a battle's modifier outside a battle)
                    continue
                counters.append({
                    "name": f"{tally.name}:{key}" if key else tally.name, "of": tally.of,
                    "seat": None if tally.of == "match" else seat,
                    "key_name": names.get(key, key) if key else None, "value": value,
                    "low": tally.low, "high": tally.high, "description": tally.description})
    stats = [{"name": stat.name, "description": stat.description,
              "cards": cards(list(stat.cards(state)))} for stat in ruleset.stats]
    return {"match_id": str(match.id), "game": match.game, "version": match.version,
            "positions": len(match.live), "seats": seats, "places": places,
            "counters": counters, "stats": stats, "phases": list(ruleset.phases)}
