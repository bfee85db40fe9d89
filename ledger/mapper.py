"""How a match's events are stored: without what the rest of the store gives.

Every event of a match carries ``prev_hash`` (the hash of the event before it, ledger.chain) and
the library's ``timestamp``. Neither is stored any more (issue 16: together about a fifth of a
stored World Gainer action, 49 of 272 bytes):

- ``prev_hash`` is the previous event's stored ``hash``; a reader that walks the match from its
  first event links each event to the one before it (``ledger.match.linked``). The chain loses
  nothing: an event's hash covers the ``prev_hash`` it was recorded with, so an event changed or
  moved still breaks the chain at the event after it, and one removed leaves a gap in the
  versions, as when the field was stored.
- ``timestamp`` is the instant ``recorded_at`` names (the recorder gives the library that
  instant: ``instant``). It is left out only where the two agree exactly, so a stored event
  whose timestamp differs keeps it.

An event's ``commitments`` to its hidden values (ledger.chain) are each a SHA-256 of a salt
derived from the match's seed and of the value, which the event holds. Where the store holds the
seed that reproduces them exactly, the event stores for each one which seed derives it (its
segment: 1 for the match's own seed, 2 and on after reopenings) and the commitment's first
``CHECK_BYTES`` bytes, and reading it derives each commitment again and refuses one that does
not begin with its check (issue 16: 23 of a World Gainer action's 193 bytes, and 17
commitments of a match's creation).

Only what shows them derives them (a match's records, exports, the audit): a reader that never
looks at them, such as loading a match to view or record on it, or its transcript, reads them
as stored (``MatchMapper.as_stored``). Deriving needs the seed: this store's sealed one, which
only the deployment's key file opens, or, once the match has ended, the seed its own events
reveal (ledger.recorder).

Nothing is lost. What is read back is what was recorded, and the hash still covers the whole
commitments. A hidden value changed in the store derives another commitment: the event no
longer reads (``MapperDeserialisationError``; the audit names its version), and no commitment
is derived for it, so whoever changed it cannot rebuild the hash chain around it. Forging a
value that passes needs a commitment that begins with the 8 stored bytes: about 2**63 tries,
each a change to the database and a read through a server that holds the key file. An event
whose seed this store does not hold (imported without it) keeps its commitments whole. A store
written so is format 3 or later (ledger.transcoder): a version that knows nothing of derived
commitments refuses it instead of misreading them.

Events stored before keep their fields and read as they were written. Everything else, and every
other stream (seeds, credentials, annotations, snapshots), is stored as the library stores it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from itertools import count
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent
from eventsourcing.utils import TopicError, resolve_topic

from ledger.chain import commitments
from ledger.keys import KeyfileError
from ledger.match import EVENT_NAMES
from ledger.match import instant as instant  # re-exported: where it was
from ledger.transcoder import MsgpackTranscoder, Wanted

# The seed of one segment of a match (match id, segment), or None where the store holds none.
SeedOf = Callable[[UUID, int], "bytes | None"]
CHECK_BYTES = 8  # of each derived commitment, stored
# (event version, path) -> the seed a commitment was derived from (``MatchMapper.noting``)
Derived = dict[tuple[int, str], bytes]
# (match id, version) -> the segment whose seed the recorder derived the commitments of the
# event it is about to store from (``MatchMapper.sealing``)
Sealed = dict[tuple[UUID, int], int]


# the events stored leaner: a match's
_CHAINED = frozenset(EVENT_NAMES)
# the fields a match event declares after ``prev_hash``
_AFTER_PREV_HASH = frozenset({"hash", "commitments"})


class MatchMapper(Mapper[UUID]):
    """The library's mapper, storing a match's events without ``prev_hash``, without a
    ``timestamp`` that ``recorded_at`` already says, and with commitments that the match's
    seed derives named by that seed's segment (``seed_of``, set by the recorder)."""

    seed_of: SeedOf | None = None
    # False: a match's events are read with their commitments as stored, derived ones not
    # derived (``[segment, check]`` for each), and stored with them as they are, none made
    # derivable: for readers that never look at them, such as loading a match, which then
    # needs no seed and spends nothing on them, and for an import, which brings no seed
    deriving = True
    # where every commitment read back derived from a seed is noted: (event version, path) ->
    # that seed. The audit, reading one match, holds each commitment to the revealed seed;
    # one the store derived from that very seed is the same computation, not made twice
    noted: Derived | None = None
    # the segments whose seeds the recorder derived the commitments of the events it stores
    # from: storing such an event takes its segment from here instead of deriving every
    # commitment again to find it (issue 16: the same HMACs, computed twice for every action
    # that hides a value, 17 times for a creation)
    sealed: Sealed | None = None

    def as_stored(self) -> MatchMapper:
        """This mapper reading and storing commitments as they are (``deriving``)."""
        return self._with(deriving=False)

    def noting(self, noted: Derived) -> MatchMapper:
        """This mapper noting in ``noted`` each commitment it derives from a seed."""
        return self._with(noted=noted)

    def sealing(self, sealed: Sealed) -> MatchMapper:
        """This mapper storing the events ``sealed`` names with the segments it gives."""
        return self._with(sealed=sealed)

    def _with(self, **settings: Any) -> MatchMapper:
        clone = copy.copy(self)
        clone.__dict__.update(settings)
        return clone

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        """The stored form of ``domain_event`` (a match's events leaner, see the module): the
        library's own, of a copy of the event without what it leaves out."""
        if type(domain_event) not in _CHAINED:
            return super().to_stored_event(domain_event)
        fields = dict(vars(domain_event))
        fields.pop("prev_hash", None)
        if fields.get("timestamp") == instant(fields["recorded_at"]):
            del fields["timestamp"]
        committed = fields.get("commitments")
        if committed and self.deriving:
            segment = self._sealed_segment(domain_event.originator_id,
                                           domain_event.originator_version, fields)
            if segment is not None:
                fields["commitments"] = {path: [segment, bytes.fromhex(c)[:CHECK_BYTES]]
                                         for path, c in committed.items()}
        lean = object.__new__(type(domain_event))
        object.__setattr__(lean, "__dict__", fields)
        return super().to_stored_event(lean)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        """The domain event ``stored_event`` holds. A match event stored without ``prev_hash``
        has it ``None`` until ``ledger.match.linked`` sets it. A topic this build does not
        know (a later build's, or a row changed in the store) is MapperDeserialisationError,
        as a state that does not decode is: a record that cannot be read."""
        try:
            event = super().to_domain_event(stored_event)
        except TopicError as exc:
            raise _unknown_topic(stored_event) from exc
        if type(event) not in _CHAINED:
            return event
        fields = vars(event)
        if "timestamp" not in fields:
            fields["timestamp"] = instant(fields["recorded_at"])
        if "prev_hash" not in fields:
            # in its declared place, before ``hash``, so records keep their field order
            rest = {k: fields.pop(k) for k in list(fields) if k in _AFTER_PREV_HASH}
            fields["prev_hash"] = None
            fields.update(rest)
        committed = fields.get("commitments")
        if committed and self.deriving and any(type(c) is not str for c in committed.values()):
            fields["commitments"] = self._derived(event.originator_id,
                                                  event.originator_version, fields)
        return event

    def fields_of(self, stored_event: StoredEvent, wanted: Wanted) -> dict[str, Any] | None:
        """Only the fields ``wanted`` of the event ``stored_event`` holds, each read as
        ``to_domain_event`` reads it (after the library's cipher and compressor, where set),
        without building the others (``MsgpackTranscoder.decode_fields``): for a read model
        that needs a few fields of a long event. They are the fields as stored: what the store
        leaves out of a match's events (``prev_hash``, a ``timestamp`` that ``recorded_at``
        says) is not among them, nor are commitments derived. None where the event must be
        read whole instead: a transcoder that reads no fields apart, or an event stored by an
        earlier version of its class, which the library upcasts as it reads it."""
        if not isinstance(self.transcoder, MsgpackTranscoder):
            return None
        try:
            state = stored_event.state
            if self.cipher:
                state = self.cipher.decrypt(state)
            if self.compressor:
                state = self.compressor.decompress(state)
            fields = self.transcoder.decode_fields(state, {**wanted, "class_version": None})
        except Exception as exc:  # as the library's to_domain_event reports it
            raise MapperDeserialisationError(
                f"Failed to deserialise state of stored event with topic "
                f"'{stored_event.topic}', originator_id '{stored_event.originator_id}' and "
                f"originator_version {stored_event.originator_version}: {exc}") from exc
        stored_version = fields.pop("class_version", 1)
        if stored_version != getattr(_event_class(stored_event), "class_version", 1):
            return None
        return fields

    def _sealed_segment(self, match_id: UUID, version: int,
                        fields: dict[str, Any]) -> int | None:
        """The segment the recorder noted deriving the event's commitments from
        (``sealed``), else the one ``_deriving_segment`` finds."""
        segment = self.sealed.get((match_id, version)) if self.sealed is not None else None
        if segment is not None:
            return segment
        return self._deriving_segment(match_id, version, fields)

    def _deriving_segment(self, match_id: UUID, version: int,
                          fields: dict[str, Any]) -> int | None:
        """The segment whose seed derives exactly the commitments ``fields`` hold, or None
        when no seed this store holds does (each segment is tried in turn; a match that was
        never reopened has one)."""
        if self.seed_of is None:
            return None
        committed = fields["commitments"]
        for segment in count(1):
            try:
                seed = self.seed_of(match_id, segment)
            except KeyfileError:  # sealed with another key file: kept whole
                return None
            if seed is None:
                return None
            if commitments(seed, match_id, version, fields, committed) == committed:
                return segment
        return None  # pragma: no cover (count never ends)

    def _derived(self, match_id: UUID, version: int, fields: dict[str, Any]) -> dict[str, str]:
        """The commitments, those stored as the segment whose seed derives them and their
        checks derived (whole ones as they are); MapperDeserialisationError for one in neither
        form, where the seed is not here, or where a commitment derived from the value the
        event holds does not begin with its check."""
        derived: dict[str, str] = {}
        seeds: dict[int, bytes | None] = {}  # by segment: one lookup each (a creation has 17)
        match_text = str(match_id)  # as the salts cover it, made once for every path
        noted = self.noted
        for path, stored in fields["commitments"].items():
            if type(stored) is str:
                derived[path] = stored
                continue
            if not _derivable(stored):
                raise MapperDeserialisationError(
                    f"v{version} of match {match_id} holds a commitment at {path} in no form "
                    f"this version reads")
            segment, check = stored
            if segment not in seeds:
                seeds[segment] = (self.seed_of(match_id, segment) if self.seed_of is not None
                                  else None)
            seed = seeds[segment]
            if seed is None:
                raise MapperDeserialisationError(
                    f"v{version} of match {match_id} derives its commitments from the seed of "
                    f"segment {segment}, which this store does not hold")
            (derived[path],) = commitments(seed, match_text, version, fields,
                                           [path]).values()
            if bytes.fromhex(derived[path])[:CHECK_BYTES] != check:
                raise MapperDeserialisationError(
                    f"v{version} of match {match_id} holds a value at {path} that is not the "
                    f"one committed to when it was recorded")
            if noted is not None:
                noted[(version, path)] = seed
        return derived


def _event_class(stored_event: StoredEvent) -> type:
    """The class of the event ``stored_event`` holds, or MapperDeserialisationError when this
    build knows no class by its topic (the library raises TopicError, which no reader takes
    for a record that cannot be read)."""
    try:
        return resolve_topic(stored_event.topic)  # type: ignore[no-any-return]
    except TopicError as exc:
        raise _unknown_topic(stored_event) from exc


def _unknown_topic(stored_event: StoredEvent) -> MapperDeserialisationError:
    return MapperDeserialisationError(
        f"the topic {stored_event.topic!r} of the event at version "
        f"{stored_event.originator_version} is none this build of Kiroku knows")


def _derivable(stored: Any) -> bool:
    """Whether ``stored`` is a commitment as ``to_stored_event`` keeps a derived one: its
    seed's segment and its first ``CHECK_BYTES`` bytes."""
    return (type(stored) is list and len(stored) == 2 and type(stored[0]) is int
            and stored[0] >= 1 and type(stored[1]) is bytes and len(stored[1]) == CHECK_BYTES)
