"""``audit verify``: the hash chain, re-projection of every action and the revealed seed.

The check walks a match's records in order and stops at the first failure, naming the event
(version and name) and the reason. It needs nothing but the records: the same routine verifies a
stored match and an import file before it is stored.

Two findings are not tampering and are reported as what they are:
- *rules drift*: the match was recorded under another ruleset version and this build's rules
  replay it differently. The report names both versions and the first differing action; the
  rules check stops there, but the hash chain is still checked to the last event.
- *unverifiable digests*: digests in a format this build cannot reproduce (the legacy digest of
  the whole internal state, once that state's layout has changed) are counted in the notes,
  never reported as a mismatch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from engine.core.chance import Chance, ChanceError, Outcome, ReplayChance
from engine.core.contract import GameState, MatchConfig, Ruleset
from engine.core.data import digest_format
from engine.core.errors import ActionError
from engine.registry import get_game
from ledger.chain import GENESIS, commit, event_hash, salt, value_at
from ledger.fold import (
    EVENT_KINDS,
    BadUndo,
    Fold,
    LiveAction,
    Record,
    Visitor,
    project,
    setup_position,
)
from ledger.identity import by_staff
from ledger.keys import key_id, verify_receipt
from ledger.mapper import Derived
from ledger.seed import SeededChance, commitment
from ledger.visibility import hidden_paths
from replay.records import payload_of


@dataclass
class AuditReport:
    """The result of verifying one match."""

    match_id: str
    ok: bool
    events: int
    actions: int
    failure: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    drift: dict[str, Any] | None = None
    # the game its creation names (None before one): what the checks beside the match ask
    # (replay.beside), not set up again from the store; not part of the report's data
    game: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {"match_id": self.match_id, "ok": self.ok, "events": self.events,
                "actions": self.actions, "failure": self.failure, "notes": self.notes,
                "drift": self.drift}


class _Failed(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def verify_records(records: Sequence[dict[str, Any]]) -> AuditReport:
    """Verify a match given as records (see replay.records), oldest first."""
    return verify_walked(records)[0]


def verify_walked(records: Sequence[dict[str, Any]], derived: Derived | None = None,
                  ) -> tuple[AuditReport, dict[str, Any] | None]:
    """``verify_records``, and the card definitions of the position the walk set the match up
    to (its state's ``shared_fields``; None where it did not get that far): what reading the
    match's snapshots needs (ledger.match.Creation), which the stored match's audit would
    otherwise set up a second time.

    ``derived`` notes the commitments that reading the records derived, and from which seed
    (ledger.mapper.noting_derived): one derived from the very seed the match revealed is
    what holding it to that seed would compute again, and is not computed twice."""
    match_id = str(records[0].get("match_id")) if records else "?"
    report = AuditReport(match_id=match_id, ok=True, events=0, actions=0)
    walker = _Walker(records, derived or {})
    for record in records:
        try:
            walker.check(record)
        except _Failed as failure:
            report.ok = False
            report.failure = {"version": record.get("version"), "event": record.get("event"),
                              "reason": failure.reason, "message": failure.message}
            break
        report.events += 1
    report.actions = walker.actions
    report.drift = walker.drift
    report.game = walker.game
    if report.ok and report.drift is not None:
        report.ok = False
        report.failure = {"version": report.drift["version"], "event": report.drift["event"],
                          "reason": "rules_drift", "message": report.drift["message"]}
    report.notes += walker.digest_notes()
    if report.ok and walker.recorded_version not in (None, walker.replayed_version):
        report.notes.append(f"recorded under {walker.recorded_version}, verified under "
                            f"{walker.replayed_version}: the rules replay it identically")
    if report.ok and walker.over and not walker.sealed:
        report.ok = False
        report.failure = {"version": report.events, "event": "MatchEnded",
                          "reason": "seed_not_revealed",
                          "message": "the match ended but its seed was never revealed: the "
                                     "SeedRevealed that follows MatchEnded is missing (a "
                                     "truncated record)"}
    if report.ok and walker.withheld:
        report.notes.append("seed withheld: the match was imported while on and ended here, "
                            "without its seed; seeded outcomes not re-derived")
    elif report.ok and walker.seed is None:
        report.notes.append("seed not revealed yet (match in progress): seeded outcomes not "
                            "re-derived")
    if not records:
        report.ok = False
        report.failure = {"version": None, "event": None, "reason": "empty",
                          "message": "the match has no events"}
    return report, walker.shared


def _revealed_seeds(records: Sequence[dict[str, Any]]) -> dict[int, bytes]:
    """The seed each segment revealed at its end (segment 1 is the match's own)."""
    seeds: dict[int, bytes] = {}
    segment = 1
    for record in records:
        if record.get("event") == "MatchReopened":
            segment += 1
        elif record.get("event") == "SeedRevealed":
            try:
                seeds[segment] = bytes.fromhex(str(record.get("seed")))
            except ValueError:
                continue
    return seeds


def check_receipts(report: AuditReport, records: Sequence[dict[str, Any]],
                   receipts: Sequence[dict[str, Any]], public_keys: Sequence[str]) -> None:
    """Hold the records against signed receipts kept outside the store (ledger.keys): each
    must carry a valid signature by one of ``public_keys`` and name an event the records still
    hold with that very hash. A receipt past the last record is a truncation; another hash at
    its version, a rewrite (even if the chain was rebuilt). The first finding fails the report.
    """
    keys = {key_id(k): k for k in public_keys}
    for receipt in receipts:
        finding = _receipt_finding(report.match_id, records, receipt, keys)
        if finding is not None:
            if report.ok:
                report.ok = False
                report.failure = finding
            return
    if receipts:
        last = max(int(r["version"]) for r in receipts)
        report.notes.append(f"{len(receipts)} signed receipt(s) checked, the latest for "
                            f"v{last}: no event up to v{last} was removed or changed")


def _receipt_finding(match_id: str, records: Sequence[dict[str, Any]],
                     receipt: dict[str, Any], keys: dict[str, str]) -> dict[str, Any] | None:
    version = receipt.get("version")
    key = keys.get(str(receipt.get("key_id")))
    if key is None or not verify_receipt(receipt, key):
        return {"version": version, "event": None, "reason": "bad_receipt",
                "message": "a receipt's signature does not verify with the service's key"}
    if receipt.get("match_id") != match_id:
        return {"version": version, "event": None, "reason": "bad_receipt",
                "message": f"a receipt names match {receipt.get('match_id')}, not this one"}
    if not isinstance(version, int) or version < 1:
        return {"version": version, "event": None, "reason": "bad_receipt",
                "message": "a receipt names no version"}
    if version > len(records):
        return {"version": version, "event": None, "reason": "truncated",
                "message": f"a receipt signed v{version}, but the record ends at "
                           f"v{len(records)}: events were removed"}
    if records[version - 1].get("hash") != receipt.get("head"):
        return {"version": version, "event": records[version - 1].get("event"),
                "reason": "rewritten", "message": f"event v{version} is not the one a "
                "receipt signed: the record was rewritten from there"}
    return None


class _Drifted(Exception):
    """A difference found while replaying under another ruleset version than recorded."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class _Walker(Visitor):
    """Carries the chain head and the seed through the records, and checks what the one fold of
    the match (ledger.fold) reaches: digests, seeded outcomes, the result."""

    def __init__(self, records: Sequence[dict[str, Any]], derived: Derived) -> None:
        self.match_id = records[0].get("match_id") if records else None
        self.derived_by_reader = derived  # (version, path) -> the seed reading derived it from
        self.match_text: str | None = None  # the match id read once, by the first event
        self.prev = GENESIS
        self.version = 0
        self.fold = Fold(self)
        self.actions = 0
        self.game: str | None = None
        self.commitment: str | None = None
        self.segment = 1  # seed segments: a reopened match goes on under a fresh seed
        self.seeds = _revealed_seeds(records)
        self.over = False
        self.sealed = False  # SeedRevealed or SeedWithheld seen: nothing may follow
        self.withheld = False
        self.recorded_version: str | None = None
        self.drift: dict[str, Any] | None = None  # once set, only the chain is checked
        self.legacy_digests = 0
        self.legacy_unverified = 0
        self.other_format_digests = 0
        self.seats = len(records[0]["config"]["players"]) if records and isinstance(
            records[0].get("config"), dict) else 0
        self.commits = any(r.get("commitments") for r in records)
        self.derived: Record | None = None  # the event whose run from the seed is checked
        # the actions whose position before is an undo's target later: replayed on a copy;
        # every other one changes the position it starts from in place (nothing reads it again)
        self.returned_to = _returned_to(records)
        self.restored: GameState | None = None  # ``before`` rebuilt after a failed run in place
        self.pausing: set[str] = set()  # the disputes pausing the match (MatchPaused)
        self.shared: dict[str, Any] | None = None  # the set-up position's card definitions

    @property
    def seed(self) -> bytes | None:
        """The revealed seed of the segment being walked (None while it is not revealed)."""
        return self.seeds.get(self.segment)

    def check(self, record: dict[str, Any]) -> None:
        self._check_chain(record)
        self._check_commitments(record)
        if record.get("event") == "MatchReopened":
            self._reopen(record)
        if self.drift is not None:
            self._after_drift(record)
            return
        kind = record["event"]
        if kind != "MatchCreated" and self.game is None:
            raise _Failed("no_creation", "the first event is not MatchCreated")
        if self.over and kind not in ("SeedRevealed", "SeedWithheld"):
            raise _Failed("after_end", f"{kind} recorded after the match ended")
        if self.sealed:
            raise _Failed("after_end", f"{kind} recorded after the seed was revealed")
        if kind not in EVENT_KINDS:
            raise _Failed("unknown_event", f"unknown event {kind!r}")
        try:
            if kind == "MatchCreated":
                self._begin(record)
            self.fold.feed(record)
        except _Drifted as drifted:
            self._drifted(record, drifted.what)
        except BadUndo as bad:
            raise _Failed("bad_undo", str(bad)) from None
        except (ActionError, ChanceError, KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, _Failed):
                raise
            raise _Failed("replay_failed", f"re-projecting this event failed: {exc}") from None

    def _reopen(self, record: dict[str, Any]) -> None:
        """A ruling reopened the match: only after its end and its seed's reveal (or withheld
        seed), starting the next segment under the commitment this event publishes."""
        if not self.sealed:
            raise _Failed("reopen_while_on", "MatchReopened recorded while the match was on "
                          "or before its seed was revealed")
        if record.get("segment") != self.segment + 1:
            raise _Failed("segment_gap", f"expected seed segment {self.segment + 1}, found "
                          f"{record.get('segment')}")
        self.segment += 1
        self.commitment = str(record.get("commitment"))
        self.over = self.sealed = self.withheld = False

    @property
    def replayed_version(self) -> str:
        """The game and ruleset version of this build, as the report names them."""
        return f"{self.game} {get_game(str(self.game)).version}"

    def _differs(self, reason: str, message: str, what: str) -> _Failed | _Drifted:
        """Under the ruleset version the match was recorded with, a difference is a failure;
        under another version it is rules drift, not evidence of tampering."""
        if self.recorded_version is not None and self.recorded_version != self.replayed_version:
            return _Drifted(what)
        return _Failed(reason, message)

    def _drifted(self, record: dict[str, Any], what: str) -> None:
        where = (f"action #{record['seq']}" if record.get("event") == "ActionRecorded"
                 else f"{record.get('event')} (v{record.get('version')})")
        self.drift = {
            "recorded_under": self.recorded_version, "replayed_under": self.replayed_version,
            "version": record.get("version"), "event": record.get("event"),
            "seq": record.get("seq"),
            "message": f"rules drift, not tampering: recorded under {self.recorded_version}, "
                       f"replayed under {self.replayed_version}; first difference at {where}: "
                       f"{what}. The hash chain was still checked to the last event."}

    def _after_drift(self, record: dict[str, Any]) -> None:
        """Past rules drift the rules cannot judge the events; the chain and seed still can."""
        if record["event"] == "MatchEnded":
            self.over = True
        elif record["event"] == "SeedRevealed":
            self.seed_revealed(record)
        elif record["event"] == "SeedWithheld":
            self.seed_withheld(record)

    def _check_chain(self, record: dict[str, Any]) -> None:
        self.version += 1
        if record.get("match_id") != self.match_id:
            raise _Failed("foreign_record", f"this event belongs to match "
                          f"{record.get('match_id')}, not {self.match_id}")
        if record.get("version") != self.version:
            raise _Failed("version_gap", f"expected version {self.version}, found "
                          f"{record.get('version')}")
        if record.get("prev_hash") != self.prev:
            raise _Failed("chain_broken", "prev_hash does not match the previous event's hash")
        try:
            expected = event_hash(record["event"], self._match_text(record),
                                  record["version"], payload_of(record))
        except (KeyError, ValueError, TypeError) as exc:
            raise _Failed("unreadable", f"the event cannot be hashed: {exc}") from None
        if record.get("hash") != expected:
            raise _Failed("hash_mismatch", "the event does not match its hash: it, or the "
                          "event before it (whose hash it covers), was changed after it was "
                          "recorded")
        self.prev = expected

    def _match_text(self, record: dict[str, Any]) -> str:
        """The match id as the hashes and salts cover it, ``str()`` of its UUID, read once:
        every event names the same (``_check_chain`` sees to it)."""
        if self.match_text is None:
            self.match_text = str(UUID(str(record["match_id"])))
        return self.match_text

    def _check_commitments(self, record: dict[str, Any]) -> None:
        """In a match whose events commit to hidden values, every value some viewer may not see
        is committed to; once the seed is revealed, every commitment is to the recorded value."""
        if not self.commits or record.get("event") not in ("MatchCreated", "ActionRecorded"):
            return
        committed = record.get("commitments") or {}
        try:
            game = get_game(str(record.get("game") or self.game))
            hidden = hidden_paths(record, game, self.seats)
        except (ActionError, KeyError, TypeError, ValueError) as exc:
            raise _Failed("unreadable",
                          f"the event's hidden values cannot be read: {exc}") from None
        missing = [p for p in hidden if p not in committed]
        if missing:
            raise _Failed("uncommitted_hidden_value", f"{missing[0]} is hidden from some "
                          "viewers but not committed to: the public chain would reveal it")
        if self.seed is None:
            return
        match_id = self._match_text(record)
        seed, version, derived = self.seed, record["version"], self.derived_by_reader
        for path, c in committed.items():
            if derived.get((version, path)) == seed:
                continue  # derived from this very seed as the record was read: the same sum
            try:
                value = value_at(record, path)
            except (KeyError, IndexError, ValueError, TypeError):
                raise _Failed("commitment_mismatch", f"{path} is committed to but not in the "
                              "event") from None
            if commit(salt(seed, match_id, version, path), value) != c:
                raise _Failed("commitment_mismatch", f"the recorded {path} is not the value "
                              "committed to when the event was recorded")

    def _begin(self, record: Record) -> None:
        """What MatchCreated says about the match, before its setup is replayed."""
        if self.version != 1:
            raise _Failed("duplicate_creation", "MatchCreated appears twice")
        self.game = record["game"]
        self.recorded_version = f"{record['game']} {record['ruleset_version']}"
        self.commitment = record["commitment"]

    def setup(self, ruleset: Ruleset, record: Record) -> GameState:
        """Position 0, run once from the seed where that gives the stored outcomes."""
        seeded = self._from_seed(record, _setting_up(ruleset, record), 0,
                                 record["setup_outcomes"])
        if seeded is not None:
            return seeded
        return setup_position(ruleset, record["config"], record["setup_outcomes"])

    def created(self, record: Record, state: GameState) -> None:
        """Setup replayed: its digest, and its outcomes re-derived from the seed."""
        ruleset = self.fold.ruleset
        self._compare_digest(state, record)
        self._rederive(record, _setting_up(ruleset, record), 0, record["setup_outcomes"])
        # taken now: later actions replay onto this state in place (never onto these fields)
        self.shared = {name: getattr(state, name) for name in state.shared_fields}

    def apply(self, ruleset: Ruleset, before: GameState, record: Record) -> GameState:
        """The action replayed (once, from the seed, where that gives the stored outcomes);
        what the rules refuse or ask differently is a finding.

        The run from the seed changes ``before`` in place unless an undo returns to it later
        (``returned_to``). If that run fails or gives other outcomes, ``before`` is rebuilt
        from the live line (already verified) for the two runs that name the finding."""
        in_place = id(record) not in self.returned_to
        run = ruleset.apply_in_place if in_place else ruleset.apply
        seeded = self._from_seed(record, lambda c: run(before, record["action"], c),
                                 len(self.fold.live) + 1, record["outcomes"])
        if seeded is not None:
            return seeded
        if in_place and self._runs_from_seed(record):
            before = self.restored = project(self.fold.config, ruleset.game_id,
                                             self.fold.setup_outcomes, self.fold.live)
        try:
            return super().apply(ruleset, before, record)
        except ChanceError as exc:
            raise self._differs("replay_failed", f"re-projecting this event failed: {exc}",
                                f"the rules ask for other chance outcomes ({exc})") from None
        except ActionError as exc:
            raise self._differs("illegal_on_replay", f"the rules refuse this action now: "
                                f"{exc.message} ({exc.reason})",
                                f"the rules refuse it ({exc.reason})") from None

    def action(self, record: Record, before: GameState, after: GameState,
               position: int) -> None:
        """The action's digest, and its seeded outcomes re-derived from the seed."""
        if self.pausing and not by_staff(record.get("recorded_by", "")):
            raise _Failed("action_while_paused", f"a seat's action was recorded while dispute "
                          f"{', '.join(sorted(self.pausing))} paused the match")
        ruleset = self.fold.ruleset
        if self.restored is not None:  # the fold's ``before`` was changed by a failed run
            before, self.restored = self.restored, None
        self._compare_digest(after, record)
        if record.get("chance_source") == "seed":
            self._rederive(record, lambda c: ruleset.apply(before, record["action"], c),
                           position, record["outcomes"])
        self.actions += 1

    def undone(self, record: Record, voided: list[LiveAction], state: GameState) -> None:
        """The digest of the position the undo returns to."""
        self._compare_digest(state, record)

    def ended(self, record: Record, state: GameState) -> None:
        """The recorded result against the rules' result at the final position."""
        result = self.fold.ruleset.outcome(state)
        if result is None:
            raise self._differs("result_mismatch", "MatchEnded recorded but the rules say the "
                                "match goes on", "the rules say the match goes on")
        if (sorted(result.winners), sorted(result.losers), result.reason) != (
                sorted(record["winners"]), sorted(record["losers"]), record["reason"]):
            raise self._differs("result_mismatch", f"recorded result {record['reason']} "
                                f"{record['winners']} differs from the rules' {result.reason} "
                                f"{result.winners}", "the rules give another result")
        self.over = True

    def paused(self, record: Record) -> None:
        """A dispute pauses the match: one that does not already."""
        if record["dispute_id"] in self.pausing:
            raise _Failed("bad_pause", f"dispute {record['dispute_id']} already pauses the "
                          "match")
        self.pausing.add(record["dispute_id"])

    def resumed(self, record: Record) -> None:
        """A dispute lets the match go: one that paused it."""
        if record["dispute_id"] not in self.pausing:
            raise _Failed("bad_pause", f"dispute {record['dispute_id']} does not pause the "
                          "match")
        self.pausing.remove(record["dispute_id"])

    def seed_withheld(self, record: Record) -> None:
        """A match ended where its seed is not held: said in the notes, not a failure."""
        if not self.over:
            raise _Failed("seed_before_end", "SeedWithheld recorded before the match ended")
        self.sealed = True
        self.withheld = True

    def seed_revealed(self, record: Record) -> None:
        """The revealed seed against the commitment published at creation."""
        if not self.over:
            raise _Failed("seed_before_end", "the seed was revealed before the match ended")
        self.sealed = True
        if commitment(bytes.fromhex(record["seed"])) != self.commitment:
            raise _Failed("seed_mismatch", "the revealed seed does not match the commitment "
                          "published when the match was created"
                          + (" (or reopened)" if self.segment > 1 else ""))

    def _compare_digest(self, state: GameState, record: dict[str, Any]) -> None:
        """The recorded digest against the replayed position, in the digest's own format."""
        ruleset = get_game(str(self.game))
        recorded = str(record["digest"])
        fmt = digest_format(recorded)
        if fmt is None:
            self.legacy_digests += 1
            if ruleset.legacy_digest(state) != recorded:
                self.legacy_unverified += 1
            return
        if fmt != ruleset.position_format:
            self.other_format_digests += 1
            return
        if ruleset.digest(state) != recorded:
            raise self._differs("digest_mismatch", "re-projecting gives a different state than "
                                "the one recorded (a rules change or a tampered event)",
                                "the replayed position differs from the recorded digest")

    def digest_notes(self) -> list[str]:
        """What the digest check could not verify, said plainly."""
        notes = []
        if self.legacy_digests:
            checked = self.legacy_digests - self.legacy_unverified
            notes.append(f"{self.legacy_digests} digest(s) in the legacy format (whole internal "
                         f"state): {checked} re-checked, {self.legacy_unverified} not "
                         "reproducible by this build and not verified (not a sign of "
                         "tampering; the chain, the rules and the seed were checked)")
        if self.other_format_digests:
            notes.append(f"{self.other_format_digests} digest(s) in a position format other "
                         f"than this build's p{get_game(str(self.game)).position_format}: "
                         "not verified")
        return notes

    def _from_seed(self, record: Record, run: Callable[[Chance], GameState],
                   position: int, stored: Any) -> GameState | None:
        """``run`` once, under the revealed seed, instead of twice (replaying the stored
        outcomes, then re-deriving them): when the seed gives exactly the stored outcomes, kind
        and value, type for type, replaying them would take the rules down the same path to the
        same position, and the re-derivation holds. Otherwise (None) both runs are made as
        before, and they name the finding."""
        seed = self.seed
        if seed is None or not self._runs_from_seed(record):
            return None
        chance = SeededChance(seed, position)
        try:
            state = run(chance)
            ReplayChance(stored)  # outcomes it cannot read fail the replay: left to it
        except Exception:  # whatever it is, the two runs below find and name it
            return None
        if not _same_outcomes(chance.outcomes, stored):
            return None
        self.derived = record
        return state

    def _runs_from_seed(self, record: Record) -> bool:
        """Whether ``_from_seed`` runs the event (its seeded outcomes, the seed revealed)."""
        return self.seed is not None and record.get("chance_source") == "seed"

    def _rederive(self, record: dict[str, Any], run: Any, position: int,
                  stored: list[dict[str, Any]]) -> None:
        """With the seed revealed, seeded outcomes must be exactly what the seed gives."""
        if self.seed is None or record.get("chance_source") != "seed" or self.derived is record:
            return
        chance = SeededChance(self.seed, position)
        run(chance)
        if [(o.kind, o.value) for o in chance.outcomes] != [
                (o["kind"], o["value"]) for o in stored]:
            raise self._differs("seed_outcomes_mismatch", "the recorded outcomes are not the "
                                "ones the revealed seed gives",
                                "the revealed seed gives other outcomes")


def _returned_to(records: Sequence[Record]) -> set[int]:
    """The actions (by ``id`` of their record) whose position before some later undo returns
    to, found by walking the live line's length alone."""
    leaving: list[int] = []  # leaving[n]: the live action that left position n
    kept: set[int] = set()
    for record in records:
        if record.get("event") == "ActionRecorded":
            leaving.append(id(record))
        elif record.get("event") == "ActionsUndone":
            count = record.get("count")
            if isinstance(count, int) and 1 <= count <= len(leaving):
                kept.add(leaving[-count])
                del leaving[-count:]
    return kept


def _setting_up(ruleset: Ruleset, record: Record) -> Callable[[Chance], GameState]:
    """The match's setup under a chance source."""
    return lambda chance: ruleset.setup(MatchConfig.model_validate(record["config"]), chance)


def _same_outcomes(derived: Sequence[Outcome], stored: Any) -> bool:
    """Whether ``stored`` holds exactly the ``derived`` outcomes: the same kinds and values,
    of the same plain type (a stored ``True`` equals a derived ``1``: only values alike in
    type are sure to replay alike)."""
    return (isinstance(stored, list) and len(stored) == len(derived)
            and all(isinstance(s, dict) and _exactly(s.get("kind"), d.kind)
                    and _exactly(s.get("value"), d.value) for d, s in zip(derived, stored)))


def _exactly(stored: Any, derived: Any) -> bool:
    """The same string or integer (and not merely equal)."""
    return type(stored) is type(derived) and type(stored) in (str, int) and stored == derived
