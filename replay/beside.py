"""The audit of what lives beside a match (issue 13): its variations, disputes and annotations.

These streams are the store's own aggregates, without the match's hash chain; what the audit
can hold them to is the rules and the match's record:

- every action of every variation is replayed from where the line branches, with its stored
  outcomes, and must reach the digest recorded with it (``variation_digest_mismatch``,
  ``variation_replay_failed``); a nested line's parent must be a line of the same match;
- every ruling whose remedy changed the match must find that change in the match's record,
  between the dispute's opening and the version the ruling names, recorded by the ruling's
  judge (and, for a backup or a reopening, an undo that names the dispute):
  ``remedy_not_in_match``;
- every annotation of a variation names a variation of the match
  (``annotation_of_unknown_variation``);
- strays of compound writes that older versions made in two saves (issue 41; now each is one
  save): an action that called a judge without the dispute it opens
  (``call_without_dispute``), and a remedy recorded more often than its dispute was ruled
  with one, as when two rulings at once both applied theirs and one was stored
  (``remedy_without_ruling``: an undo or adjustment naming the dispute beyond its rulings).

The report names streams, versions and reasons, never a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from engine.core.chance import ChanceError
from engine.core.errors import ActionError
from engine.registry import get_game
from ledger.disputes import Dispute, docket_id
from ledger.fold import replay_action
from ledger.variations import Variation, VariationNotFound
from replay import variations as lines
from replay.service import Kiroku


def verify(kiroku: Kiroku, match_id: UUID, game: str | None = None, *,
           streams_current: bool = False) -> dict[str, Any]:
    """Check the match's variations, disputes and annotations; the first findings of each.
    ``game``: the match's game where the caller knows it (the audit of its record just read
    it), else read from the store. ``streams_current``: the caller brought the streams' read
    model up to date itself (``catch_up_streams``) before checking every match, so the
    streams are those of that moment, not read again for each match."""
    variation_ids, annotation_ids = _stream_ids(kiroku, match_id, streams_current)
    variations = [kiroku.variations.get(v) for v in variation_ids]
    disputes = kiroku.disputes.of_match(match_id) if _has_docket(kiroku, match_id) else []
    # the match's record is read only to hold rulings to it: rebuilding the match for every
    # match without a dispute was a third of ``audit verify`` (issue 16)
    records = kiroku.records(kiroku.seen_by(match_id)) if disputes else []
    annotations = [kiroku.annotations.get(a) for a in annotation_ids]
    known = {str(v.id) for v in variations}
    failures: list[dict[str, Any]] = []
    for variation in variations:
        failures += _line(kiroku, variation, known)
    for dispute in disputes:
        failures += _rulings(records, dispute)
        failures += _remedies_beyond_rulings(records, dispute)
    failures += _calls_without_disputes(kiroku, match_id, disputes, game)
    failures += [_finding("annotation", str(a.id), "annotation_of_unknown_variation",
                          f"it annotates variation {a.variation}, which is not one of this "
                          "match's") for a in annotations
                 if a.variation is not None and a.variation not in known]
    return {"ok": not failures, "variations": len(variations), "disputes": len(disputes),
            "annotations": len(annotations), "failures": failures}


def catch_up_streams(kiroku: Kiroku) -> None:
    """Bring the streams' read model up to date, for ``verify`` of every match after it
    (``streams_current``)."""
    kiroku.recorder.streams.catch_up()


def _stream_ids(kiroku: Kiroku, match_id: UUID,
                current: bool) -> tuple[list[UUID], list[UUID]]:
    """The ids of the match's variations and of its annotations, oldest first: what
    ``Variations.of_match`` and ``Annotations.of_match`` read, in one read of the streams'
    read model, brought up to date first unless it is ``current`` (each catch-up asks the
    store for the log's head and the model's position: those and a read for each kind were
    four of the eight reads this check made of every match, issue 43)."""
    kinds = kiroku.recorder.streams.kinds_of_match(match_id, catch_up=not current)
    return kinds.get("variation", []), kinds.get("annotation", [])


def _has_docket(kiroku: Kiroku, match_id: UUID) -> bool:
    """Whether the match's docket (which files its disputes) has an event stored: one read of
    its stream, where ``Disputes.of_match`` reads the docket as an aggregate (its snapshot
    store, then its events) only to find that most matches have none (issue 43). A match
    without a docket has no dispute."""
    return bool(kiroku.recorder.recorder.select_events(docket_id(match_id), limit=1))


def _finding(stream: str, stream_id: str, reason: str, message: str) -> dict[str, Any]:
    return {"stream": stream, "id": stream_id, "reason": reason, "message": message}


def _line(kiroku: Kiroku, variation: Variation, known: set[str]) -> list[dict[str, Any]]:
    """The line replayed from its branch point, step by step, against its digests."""
    vid = str(variation.id)
    if variation.parent is not None and variation.parent not in known:
        return [_finding("variation", vid, "variation_replay_failed",
                         f"its parent {variation.parent} is not a line of this match")]
    ruleset = get_game(kiroku.recorder.get_match(UUID(variation.match_id)).game)
    try:
        state = lines.state_of(kiroku, variation, 0)
        for n, step in enumerate(variation.line, start=1):
            state = replay_action(ruleset, state, step["action"], step["outcomes"])
            if ruleset.digest(state) != step["digest"]:
                return [_finding("variation", vid, "variation_digest_mismatch",
                                 f"action {n} of the line does not reach the position "
                                 "recorded with it")]
    except (ActionError, ChanceError, VariationNotFound, KeyError, TypeError) as exc:
        return [_finding("variation", vid, "variation_replay_failed",
                         f"replaying the line failed: {exc}")]
    return []


def _rulings(records: Sequence[dict[str, Any]], dispute: Dispute) -> list[dict[str, Any]]:
    """Each remedy that changed the match, found in the match's record."""
    found = []
    for n, ruling in enumerate(dispute.rulings, start=1):
        applied = ruling["applied"]
        if "version" not in applied:
            continue
        window = [r for r in records
                  if dispute.match_version < r["version"] <= int(applied["version"])]
        judge = ruling["by"].get("id")
        by_judge = [r for r in window if isinstance(r.get("recorded_by"), dict)
                    and r["recorded_by"].get("id") == judge]
        if applied["kind"] in ("backup", "reopen"):
            by_judge = [r for r in by_judge if r["event"] == "ActionsUndone"
                        and str(dispute.id) in str(r.get("reason"))]
        if not by_judge:
            found.append(_finding("dispute", str(dispute.id), "remedy_not_in_match",
                                  f"ruling {n} says its {applied['kind']} reached version "
                                  f"{applied['version']}, but the match records no such act "
                                  "by its judge"))
    return found


def _remedies_beyond_rulings(records: Sequence[dict[str, Any]],
                             dispute: Dispute) -> list[dict[str, Any]]:
    """The undos and adjustments that name the dispute's ruling, beyond one per ruling that
    applied such a remedy (a ruling names itself in an undo's reason, and in an adjustment's
    when its judge gave none)."""
    named = f"ruling on dispute {dispute.id}"
    kinds = [r["applied"]["kind"] for r in dispute.rulings if "version" in r["applied"]]
    undos = [r for r in records if r["event"] == "ActionsUndone"
             and str(r.get("reason", "")).startswith(named)]
    adjustments = [r for r in records if r["event"] == "ActionRecorded"
                   and r["action"].get("type") == "adjust"
                   and str(r["action"].get("reason", "")).startswith(named)]
    found = []
    for what, events, ruled in (
            ("undo", undos, sum(1 for k in kinds if k in ("backup", "reopen"))),
            ("adjustment", adjustments, kinds.count("adjustment"))):
        if len(events) > ruled:
            found.append(_finding("dispute", str(dispute.id), "remedy_without_ruling",
                                  f"the match records its {what} {len(events)} times (versions "
                                  f"{', '.join(str(r['version']) for r in events)}), its "
                                  f"rulings {ruled}"))
    return found


def _calls_without_disputes(kiroku: Kiroku, match_id: UUID, disputes: Sequence[Dispute],
                            game: str | None) -> list[dict[str, Any]]:
    """Each action that called a judge (the game's own dispute of a claim) that no dispute of
    the match concerns. Only a game with such actions has its events read. The game is read
    from the match's creation only where the caller does not know it: that sets the match
    up, which was a tenth of ``audit verify`` (issue 43)."""
    ruleset = get_game(game or kiroku.recorder.creation(match_id).game)
    if not any(ruleset.calls_judge(kind) for kind in ruleset.action_types()):
        return []
    concerned = {v for d in disputes for v in d.concerns}
    return [_finding("match", str(match_id), "call_without_dispute",
                     f"the action at version {e.originator_version} called a judge, and no "
                     "dispute of the match concerns it")
            for e in kiroku.recorder.events_as_stored(match_id)
            if ruleset.calls_judge(getattr(e, "action", {}).get("type"))
            and e.originator_version not in concerned]
