"""Credentials and roles: who is asking decides what they see and do (issue 8, first part).

A credential is a random bearer token handed to one person once; the event store keeps only its
SHA-256, in a ``Credential`` aggregate whose id is derived from that hash, so a token is looked
up without a scan and can never be read back. Roles:

- ``organiser``: creates judges and matches and manages credentials (the CLI, run on the machine
  that holds the database, acts as the organiser);
- ``judge``: the judge's view, undo, adjustments, importable exports and imports, of every
  match; a tournament's own judge's commands (decklists, entered results, appeals for its head
  judge) only for the tournaments whose staff name the judge;
- ``seat``: seat N of match M: acts and reads legal actions for that seat only, sees its view;
- ``player``: a player registered to a tournament: submits and reads their own decklist and
  reads the tournament's rounds and standings (each round's seat credentials act in its matches);
- ``commentator``: reads every match as a spectator does (its delay included) and writes
  public annotations and studies beside it, nothing else;
- ``scorekeeper``: the one device that records both seats of match M (issue 40): sees M as a
  judge does (it is handed every card played, and enters both seats' actions) and records any
  seat's actions of M, but undoes, adjusts and rules nothing; a spectator of every other match;
- anyone without a credential is a spectator (public views under the match's policy).

Revoking appends an event; a revoked token no longer authenticates. The HTTP service
authenticates every request (replay.access decides what the caller may see and do): with
``Credentials.recently_authenticated`` where this process read the credential from the store
less than ``RECHECK_AFTER`` seconds ago, else with ``Credentials.authenticate``, which reads
it; the command line acts as ``Identity.operator``.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from engine.core.viewer import JUDGE, SPECTATOR, Viewer
from ledger.errors import LedgerError

_NAMESPACE = uuid5(NAMESPACE_URL, "https://kiroku.invalid/credentials")
NAME_LIMIT = 64
RECHECK_AFTER = 1.0
"""Seconds for which a credential this process read from the store is taken as read: a
revocation saved by another process (another worker, another server on the store) is
refused here at most this long after it; one saved by this process at once."""
_CHECKED_KEPT = 10_000  # credential read-times kept before the stale ones are dropped

RecordedBy = str | dict[str, str]
"""An event's author: an identity's ``{"id", "name", "role"}``, or a plain name in matches
recorded before identities existed (and ``kiroku``/``simulator`` for the service's own)."""


def author_name(recorded_by: RecordedBy) -> str:
    """The display name of an event's author."""
    if isinstance(recorded_by, dict):
        return str(recorded_by.get("name", "?"))
    return str(recorded_by)


class Role(StrEnum):
    """What a credential allows."""

    ORGANISER = "organiser"
    JUDGE = "judge"
    SEAT = "seat"
    PLAYER = "player"
    COMMENTATOR = "commentator"
    SCOREKEEPER = "scorekeeper"


def by_staff(recorded_by: RecordedBy) -> bool:
    """Whether an event was recorded by a judge or an organiser (by their identity's role):
    they act during a dispute's pause, and see every chance outcome's possibilities."""
    return isinstance(recorded_by, Mapping) and recorded_by.get("role") in (Role.JUDGE,
                                                                            Role.ORGANISER)


class Unauthenticated(LedgerError):
    """The token is unknown or revoked."""

    code = "unauthenticated"


class CredentialRefused(LedgerError):
    """A credential cannot be issued or revoked as asked (a bad name, a seat credential without
    its match and seat, an unknown credential)."""

    code = "credential_refused"


@dataclass(frozen=True)
class Identity:
    """An authenticated caller: what ``recorded_by`` names and what decides the viewer."""

    credential_id: UUID
    role: Role
    name: str
    match_id: UUID | None = None
    seat: int | None = None
    tournament_id: UUID | None = None
    player_id: UUID | None = None

    def viewer_of(self, match_id: UUID) -> Viewer:
        """How this caller sees ``match_id``: judges and organisers see everything, a seat
        credential its own seat of its own match, and anything else as a spectator."""
        if self.role in (Role.ORGANISER, Role.JUDGE) or self.keeps_score(match_id):
            return JUDGE
        if self.match_id == match_id and self.seat is not None:
            return Viewer("seat", self.seat)
        return SPECTATOR

    def keeps_score(self, match_id: UUID) -> bool:
        """Whether this caller is ``match_id``'s scorekeeper (records both of its seats)."""
        return self.role == Role.SCOREKEEPER and self.match_id == match_id

    def may_act_for(self, match_id: UUID, seat: int) -> bool:
        """Whether this caller may record an action of ``seat`` in ``match_id``."""
        return self.role in (Role.ORGANISER, Role.JUDGE) or self.keeps_score(match_id) or (
            self.match_id == match_id and self.seat == seat)

    @classmethod
    def operator(cls, name: str = "operator") -> Identity:
        """The command line's caller: the operator on the machine that holds the database acts
        as the organiser (anyone who can run it can read the database anyway)."""
        return cls(uuid5(_NAMESPACE, "operator"), Role.ORGANISER, name.strip() or "operator")

    @property
    def is_staff(self) -> bool:
        """Organisers and judges: the judge's view, undo, adjustments, import."""
        return self.role in (Role.ORGANISER, Role.JUDGE)

    @property
    def recorded_by(self) -> dict[str, str]:
        """The event's ``recorded_by``: the credential's id and display name, never text from
        a request body."""
        return {"id": str(self.credential_id), "name": self.name, "role": self.role.value}


class Credential(Aggregate):
    """One credential: issued once, revocable."""

    TOPIC = "kiroku:Credential"

    class Created(Aggregate.Created):
        """CredentialIssued: the role, display name, match and seat, the token's hash."""

        TOPIC = "kiroku:CredentialIssued/1"
        role: str
        name: str
        match_id: str | None
        seat: int | None
        token_hash: str
        issued_by: str
        tournament_id: str | None = None  # a player credential's (absent before tournaments)
        player_id: str | None = None

    class Revoked(Aggregate.Event):
        """CredentialRevoked: the token no longer authenticates."""

        TOPIC = "kiroku:CredentialRevoked/1"
        reason: str
        revoked_by: str

        def apply(self, aggregate: Any) -> None:
            """Mark the credential revoked."""
            aggregate.revoked = True

    def __init__(self, role: str, name: str, match_id: str | None, seat: int | None,
                 token_hash: str, issued_by: str, tournament_id: str | None = None,
                 player_id: str | None = None) -> None:
        self.role = role
        self.name = name
        self.match_id = match_id
        self.seat = seat
        self.token_hash = token_hash
        self.issued_by = issued_by
        self.tournament_id = tournament_id
        self.player_id = player_id
        self.revoked = False

    def identity(self) -> Identity:
        """The caller this credential stands for."""
        return Identity(self.id, Role(self.role), self.name,
                        UUID(self.match_id) if self.match_id else None, self.seat,
                        UUID(self.tournament_id) if self.tournament_id else None,
                        UUID(self.player_id) if self.player_id else None)


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def credential_id(token: str) -> UUID:
    """The id of the credential a token belongs to (derived from its hash)."""
    return uuid5(_NAMESPACE, token_hash(token))


class Credentials:
    """Issuing, authenticating and revoking credentials in an eventsourcing application's
    store (the Recorder's)."""

    def __init__(self, app: Any, recheck_after: float = RECHECK_AFTER) -> None:
        self.app = app
        self.recheck_after = recheck_after
        # when this process last read each credential from the store (time.monotonic)
        self._checked: dict[UUID, float] = {}
        self._checked_guard = threading.Lock()

    def issue(self, role: Role, name: str, *, issued_by: str, match_id: UUID | None = None,
              seat: int | None = None, tournament_id: UUID | None = None,
              player_id: UUID | None = None) -> tuple[Identity, str]:
        """A new credential and its token (returned once: only its hash is stored)."""
        credential, token = self.prepare(role, name, issued_by=issued_by, match_id=match_id,
                                         seat=seat, tournament_id=tournament_id,
                                         player_id=player_id)
        self.app.save(credential)
        return credential.identity(), token

    @staticmethod
    def prepare(role: Role, name: str, *, issued_by: str, match_id: UUID | None = None,
                seat: int | None = None, tournament_id: UUID | None = None,
                player_id: UUID | None = None) -> tuple[Credential, str]:
        """``issue`` without saving: the credential to save together with what it belongs to
        (a tournament's registration), and its token."""
        name = name.strip()
        if not 1 <= len(name) <= NAME_LIMIT or not name.isprintable():
            raise CredentialRefused(f"A credential's name is 1 to {NAME_LIMIT} printable "
                                  "characters.")
        if (role == Role.SEAT) != (match_id is not None and seat is not None):
            raise CredentialRefused("A seat credential names its match and seat; no other "
                                    "does.")
        if (role == Role.SCOREKEEPER) != (match_id is not None and seat is None):
            raise CredentialRefused("A scorekeeper's credential names its match and no seat; "
                                    "a seat's names both.")
        if (role == Role.PLAYER) != (tournament_id is not None and player_id is not None):
            raise CredentialRefused("A player credential names its tournament and player; no "
                                    "other does.")
        token = secrets.token_urlsafe(32)
        player = {"tournament_id": str(tournament_id), "player_id": str(player_id)} \
            if role == Role.PLAYER else {}
        credential = Credential._create(
            Credential.Created, id=credential_id(token), role=role.value, name=name,
            match_id=str(match_id) if match_id else None, seat=seat,
            token_hash=token_hash(token), issued_by=issued_by, **player)
        return credential, token

    def authenticate(self, token: str) -> Identity:
        """The caller a bearer token stands for, as the store has it now (its credential read,
        or fast-forwarded in the library's cache), or Unauthenticated."""
        if not token or len(token) > 200:
            raise Unauthenticated("Unknown or revoked credential.")
        reading = time.monotonic()
        try:
            # the cached credential itself, not the library's deep copy of it (two fifths of
            # authenticating): nothing here changes it, and what a revocation fast-forwarded
            # into it is read as the library's copy would have it
            credential: Any = self.app.repository.get(credential_id(token),
                                                      deepcopy_from_cache=False)
        except AggregateNotFoundError:
            raise Unauthenticated("Unknown or revoked credential.") from None
        if not isinstance(credential, Credential) or credential.revoked or (
                not secrets.compare_digest(credential.token_hash, token_hash(token))):
            raise Unauthenticated("Unknown or revoked credential.")
        self._read_at(credential.id, reading)
        return credential.identity()

    def recently_authenticated(self, token: str) -> Identity | None:
        """The caller a bearer token stands for, without reading the store: if this process
        read its credential less than ``recheck_after`` seconds ago (``authenticate``) and the
        library's cache of aggregates still holds it unrevoked; else None (``authenticate``
        decides). A revocation saved in this process puts the revoked credential in that
        cache (ledger.recorder), so it is refused here at once; one saved elsewhere, once
        ``recheck_after`` has passed and the store is read again."""
        if not token or len(token) > 200:
            return None
        found = credential_id(token)
        read = self._checked.get(found)
        cache = self.app.repository.cache
        if read is None or cache is None or time.monotonic() - read >= self.recheck_after:
            return None
        try:
            credential: Any = cache.get(found)
        except KeyError:  # evicted since
            return None
        if not isinstance(credential, Credential) or credential.revoked or (
                not secrets.compare_digest(credential.token_hash, token_hash(token))):
            return None
        return credential.identity()

    def _read_at(self, credential: UUID, when: float) -> None:
        """Note that ``credential`` was read from the store at ``when`` (``time.monotonic``);
        past ``_CHECKED_KEPT`` credentials, those read too long ago to count are dropped."""
        with self._checked_guard:
            self._checked[credential] = when
            if len(self._checked) > _CHECKED_KEPT:
                fresh = time.monotonic() - self.recheck_after
                self._checked = {k: t for k, t in self._checked.items() if t > fresh}

    def revoke(self, credential: UUID, *, reason: str, revoked_by: str) -> None:
        """Revoke a credential by its id; its token stops working at once."""
        found = self.revoking(credential, reason=reason, revoked_by=revoked_by)
        if found is not None:
            self.app.save(found)

    def revoking(self, credential: UUID, *, reason: str, revoked_by: str) -> Credential | None:
        """The credential with its revocation triggered, for the caller to save with what
        goes with it in one save (None if it was revoked already)."""
        reason = reason.strip()
        if not 1 <= len(reason) <= 200 or not reason.isprintable():
            raise CredentialRefused("A revocation's reason is 1 to 200 printable characters.")
        try:
            found: Any = self.app.repository.get(credential)
        except AggregateNotFoundError:
            raise CredentialRefused(f"No credential {credential}.") from None
        if not isinstance(found, Credential):
            raise CredentialRefused(f"No credential {credential}.")
        if found.revoked:
            return None
        found.trigger_event(Credential.Revoked, reason=reason, revoked_by=revoked_by)
        return found  # type: ignore[no-any-return]

    def reissue_seat(self, match_id: UUID, seat: int, name: str, *,
                     issued_by: str) -> tuple[Identity, str]:
        """A new credential for ``seat`` of ``match_id``; every earlier one of that seat is
        revoked first (a lost or shared device)."""
        for old in self.issued():
            if old.match_id == match_id and old.seat == seat and not self.is_revoked(old):
                self.revoke(old.credential_id, reason="reissued", revoked_by=issued_by)
        return self.issue(Role.SEAT, name, issued_by=issued_by, match_id=match_id, seat=seat)

    def is_revoked(self, identity: Identity) -> bool:
        """Whether the credential behind ``identity`` has been revoked."""
        found: Any = self.app.repository.get(identity.credential_id)
        return bool(found.revoked)

    def issued(self) -> Iterator[Identity]:
        """Every credential ever issued, oldest first (revoked ones included)."""
        for credential_id in self.app.streams.every("credential"):
            yield self.app.repository.get(credential_id).identity()

    def ensure_organiser(self) -> str | None:
        """On a fresh store, the first organiser credential's token (to tell the operator
        once); None once an organiser exists."""
        if any(i.role == Role.ORGANISER for i in self.issued()):
            return None
        return self.issue(Role.ORGANISER, "organiser", issued_by="kiroku")[1]
