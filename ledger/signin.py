"""Sign-in links: how a seat's (or a tournament player's) credential reaches a phone (issue 40).

A judge prints a slip with a link and its QR code; the player scans it and is signed in as that
seat of that match (or, for an event's player, as that player in each of their paired matches),
with no token to type. A link is a *split token*, ``SELECTOR.VERIFIER``:

- the selector is the id of the scope's ``SignInDesk`` (one per seat of a match, one per player
  of a tournament), which finds the desk without a search;
- the verifier is random (192 bits); the desk keeps only its SHA-256, compared in constant time.

A link is good for one sign-in, until it expires (24 hours by default), and only while it is the
desk's newest: issuing a new link for the scope makes the older one worthless (a lost slip), and
can revoke the sessions earlier links opened (a lost phone). Signing in saves the desk's
``SignedIn`` event and the new session credential in one transaction, so two phones racing with
one link get one session between them. The link travels in the address's fragment
(``/sign-in#code=...``), which browsers never send to a server, so it is in no access log.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from ledger.identity import Credential, Credentials, Identity, Role, Unauthenticated

_NAMESPACE = uuid5(NAMESPACE_URL, "https://kiroku.invalid/sign-in")
VALID_HOURS = 24
MAX_VALID_HOURS = 24 * 14
_INVALID = "This sign-in link is not valid: ask a judge for a new one."


@dataclass(frozen=True)
class Scope:
    """What a link signs in as: seat ``seat`` of ``match_id`` (the scorekeeper of
    ``match_id`` without a seat), or player ``player_id`` of ``tournament_id`` (in each of the
    player's paired matches), under the player's name."""

    role: Role
    name: str
    match_id: UUID | None = None
    seat: int | None = None
    tournament_id: UUID | None = None
    player_id: UUID | None = None

    @property
    def desk_id(self) -> UUID:
        """The id of the scope's desk (derived, so it is found without a search)."""
        if self.role == Role.SEAT and self.match_id is not None and self.seat is not None:
            return uuid5(_NAMESPACE, f"seat:{self.match_id}:{self.seat}")
        if self.role == Role.SCOREKEEPER and self.match_id is not None and self.seat is None:
            return uuid5(_NAMESPACE, f"scorekeeper:{self.match_id}")
        if self.role == Role.PLAYER and self.tournament_id and self.player_id:
            return uuid5(_NAMESPACE, f"player:{self.tournament_id}:{self.player_id}")
        raise ValueError("a sign-in link is for a seat or the scorekeeper of a match, or a "
                         "player of a tournament")


class SignInDesk(Aggregate):
    """Where one scope's sign-in links are issued and spent: a seat of a match, or a player of
    a tournament. Only the newest link's hash is kept."""

    TOPIC = "kiroku:SignInDesk"

    class Created(Aggregate.Created):
        """SignInDeskOpened: the scope its links sign in to."""

        TOPIC = "kiroku:SignInDeskOpened/1"
        role: str
        name: str
        match_id: str | None
        seat: int | None
        tournament_id: str | None
        player_id: str | None

    class LinkIssued(Aggregate.Event):
        """A new link; every older one stops working (and their sessions, if asked)."""

        TOPIC = "kiroku:SignInLinkIssued/1"
        verifier_hash: str
        expires_at: str
        issued_by: dict[str, str]
        sessions_revoked: list[str]

        def apply(self, aggregate: Any) -> None:
            """The desk now answers to this link only."""
            aggregate.verifier_hash = self.verifier_hash
            aggregate.expires_at = self.expires_at
            aggregate.used = False
            revoked = set(self.sessions_revoked)
            aggregate.sessions = [s for s in aggregate.sessions if s not in revoked]

    class SignedIn(Aggregate.Event):
        """The newest link was spent on a session credential."""

        TOPIC = "kiroku:SignedIn/1"
        credential_id: str

        def apply(self, aggregate: Any) -> None:
            """The link is spent; the session is remembered for a later revocation."""
            aggregate.used = True
            aggregate.sessions.append(self.credential_id)

    def __init__(self, role: str, name: str, match_id: str | None, seat: int | None,
                 tournament_id: str | None, player_id: str | None) -> None:
        self.role = role
        self.name = name
        self.match_id = match_id
        self.seat = seat
        self.tournament_id = tournament_id
        self.player_id = player_id
        self.verifier_hash: str | None = None
        self.expires_at = ""
        self.used = False
        self.sessions: list[str] = []


def _hash(verifier: str) -> str:
    return hashlib.sha256(verifier.encode()).hexdigest()


def _selector(desk: UUID) -> str:
    return base64.urlsafe_b64encode(desk.bytes).decode().rstrip("=")


def _split(code: str) -> tuple[UUID, str]:
    """The desk a link's code names and its verifier; Unauthenticated for anything else."""
    selector, dot, verifier = code.partition(".")
    if not dot or len(selector) != 22 or not 20 <= len(verifier) <= 64:
        raise Unauthenticated(_INVALID)
    try:
        return UUID(bytes=base64.urlsafe_b64decode(selector + "==")), verifier
    except ValueError:
        raise Unauthenticated(_INVALID) from None


class SignInLinks:
    """Issuing and spending sign-in links in an eventsourcing application's store."""

    def __init__(self, app: Any, credentials: Credentials) -> None:
        self.app = app
        self.credentials = credentials

    def issue(self, scope: Scope, *, issued_by: Identity, valid_hours: int = VALID_HOURS,
              revoke_sessions: bool = False, moment: datetime | None = None) -> dict[str, Any]:
        """A new link for ``scope``: its code (shown this once), when it expires, and how
        many sessions were revoked.
        The scope's older link stops working; with ``revoke_sessions`` so do the sessions
        that earlier links opened."""
        if not 1 <= valid_hours <= MAX_VALID_HOURS:
            raise ValueError(f"a link is valid for 1 to {MAX_VALID_HOURS} hours")
        desk = self._desk(scope)
        revoked = list(desk.sessions) if revoke_sessions else []
        sessions = [self.credentials.revoking(UUID(session), reason="a new sign-in link was "
                                              "issued", revoked_by=str(issued_by.credential_id))
                    for session in revoked]
        verifier = secrets.token_urlsafe(24)
        expires = (moment or datetime.now(UTC)) + timedelta(hours=valid_hours)
        desk.trigger_event(SignInDesk.LinkIssued, verifier_hash=_hash(verifier),
                           expires_at=expires.isoformat(timespec="seconds"),
                           issued_by=issued_by.recorded_by, sessions_revoked=revoked)
        ended = [s for s in sessions if s is not None]  # (a signed-out one was already)
        self.app.save(desk, *ended)  # the link and the revocations together, or neither
        return {"code": f"{_selector(desk.id)}.{verifier}", "expires_at": desk.expires_at,
                "sessions_revoked": len(ended)}

    def sign_in(self, code: str, *, moment: datetime | None = None) -> tuple[Identity, str]:
        """Spend a link on a new session credential of its scope: the session's identity and
        token. Unauthenticated for an unknown, replaced, spent or expired link."""
        found, verifier = _split(code)
        try:
            desk: Any = self.app.repository.get(found)
        except AggregateNotFoundError:
            raise Unauthenticated(_INVALID) from None
        if not isinstance(desk, SignInDesk) or desk.verifier_hash is None or (
                not secrets.compare_digest(desk.verifier_hash, _hash(verifier))):
            raise Unauthenticated(_INVALID)
        if desk.used:
            raise Unauthenticated("This sign-in link has been used already: each link signs "
                                  "in one phone once. Ask a judge for a new one.")
        if (moment or datetime.now(UTC)) >= datetime.fromisoformat(desk.expires_at):
            raise Unauthenticated("This sign-in link has expired: ask a judge for a new one.")
        credential, token = self._session(desk)
        desk.trigger_event(SignInDesk.SignedIn, credential_id=str(credential.id))
        try:
            self.app.save(desk, credential)
        except IntegrityError:  # another phone spent it at the same moment
            raise Unauthenticated("This sign-in link has been used already: each link signs "
                                  "in one phone once. Ask a judge for a new one.") from None
        return credential.identity(), token

    def _session(self, desk: SignInDesk) -> tuple[Credential, str]:
        return Credentials.prepare(
            Role(desk.role), desk.name, issued_by=f"sign-in link {desk.id}",
            match_id=UUID(desk.match_id) if desk.match_id else None, seat=desk.seat,
            tournament_id=UUID(desk.tournament_id) if desk.tournament_id else None,
            player_id=UUID(desk.player_id) if desk.player_id else None)

    def is_session(self, identity: Identity) -> bool:
        """Whether ``identity`` is a session a link opened (signing out revokes it)."""
        try:
            found: Any = self.app.repository.get(identity.credential_id)
        except AggregateNotFoundError:
            return False
        return str(getattr(found, "issued_by", "")).startswith("sign-in link ")

    def _desk(self, scope: Scope) -> Any:
        try:
            return self.app.repository.get(scope.desk_id)
        except AggregateNotFoundError:
            return SignInDesk._create(
                SignInDesk.Created, id=scope.desk_id, role=scope.role.value, name=scope.name,
                match_id=str(scope.match_id) if scope.match_id else None, seat=scope.seat,
                tournament_id=str(scope.tournament_id) if scope.tournament_id else None,
                player_id=str(scope.player_id) if scope.player_id else None)
