"""Sign-in links (ledger.signin): one sign-in per link, only the newest link of a scope works,
links expire, and two phones racing with one link get one session (SQLite and PostgreSQL)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest

from ledger.identity import Identity, Role, Unauthenticated
from ledger.signin import Scope, SignInDesk
from replay.service import Kiroku

JUDGE = Identity.operator("judge Kato")


def _scope(seat: int = 1) -> Scope:
    return Scope(Role.SEAT, "Aiko", match_id=uuid4(), seat=seat)


def test_a_link_opens_a_session_of_its_scope_once(kiroku: Kiroku) -> None:
    scope = _scope(2)
    code = kiroku.links.issue(scope, issued_by=JUDGE)["code"]
    identity, token = kiroku.links.sign_in(code)
    assert (identity.role, identity.match_id, identity.seat, identity.name) == (
        Role.SEAT, scope.match_id, 2, "Aiko")
    assert kiroku.credentials.authenticate(token) == identity
    assert kiroku.links.is_session(identity)
    with pytest.raises(Unauthenticated, match="used already"):
        kiroku.links.sign_in(code)


def test_only_the_newest_link_works_and_it_may_end_older_sessions(kiroku: Kiroku) -> None:
    scope = _scope()
    old = kiroku.links.issue(scope, issued_by=JUDGE)["code"]
    _, session = kiroku.links.sign_in(old)
    kept = kiroku.links.issue(scope, issued_by=JUDGE)
    assert kept["sessions_revoked"] == 0
    assert kiroku.credentials.authenticate(session)
    newest = kiroku.links.issue(scope, issued_by=JUDGE, revoke_sessions=True)
    assert newest["sessions_revoked"] == 1
    with pytest.raises(Unauthenticated):
        kiroku.credentials.authenticate(session)
    for stale in (old, kept["code"]):
        with pytest.raises(Unauthenticated, match="not valid"):
            kiroku.links.sign_in(stale)
    assert kiroku.links.sign_in(newest["code"])[0].seat == 1


def test_a_link_expires(kiroku: Kiroku) -> None:
    issued_at = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
    code = kiroku.links.issue(_scope(), issued_by=JUDGE, valid_hours=2,
                              moment=issued_at)["code"]
    with pytest.raises(Unauthenticated, match="expired"):
        kiroku.links.sign_in(code, moment=issued_at + timedelta(hours=2))
    assert kiroku.links.sign_in(code, moment=issued_at + timedelta(hours=1, minutes=59))


def test_the_store_keeps_only_the_verifiers_hash(kiroku: Kiroku) -> None:
    scope = _scope()
    code = kiroku.links.issue(scope, issued_by=JUDGE)["code"]
    desk = kiroku.recorder.repository.get(scope.desk_id)
    assert isinstance(desk, SignInDesk)
    verifier = code.split(".", 1)[1]
    assert verifier not in repr(vars(desk)) and desk.verifier_hash


def test_two_phones_racing_with_one_link_get_one_session(kiroku: Kiroku) -> None:
    for _ in range(3):
        code = kiroku.links.issue(_scope(), issued_by=JUDGE)["code"]

        def attempt(_: int, code: str = code) -> str:
            try:
                return kiroku.links.sign_in(code)[1]
            except Unauthenticated:
                return ""
        with ThreadPoolExecutor(4) as pool:
            sessions = [t for t in pool.map(attempt, range(4)) if t]
        assert len(sessions) == 1


def test_a_new_link_and_the_sessions_it_ends_are_saved_together(
        kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reissue that fails to save (the store refuses it) ends no session: the new link and
    its revocations are one save, so a crash between them cannot leave the phones signed out
    with no new link to sign in by."""
    scope = _scope()
    _, session = kiroku.links.sign_in(kiroku.links.issue(scope, issued_by=JUDGE)["code"])
    real_save = kiroku.recorder.save

    def refused(*aggregates: object, **kwargs: object) -> object:
        if any(isinstance(a, SignInDesk) for a in aggregates):
            raise OSError("disk full")
        return real_save(*aggregates, **kwargs)

    monkeypatch.setattr(kiroku.recorder, "save", refused)
    with pytest.raises(OSError):
        kiroku.links.issue(scope, issued_by=JUDGE, revoke_sessions=True)
    monkeypatch.undo()
    assert kiroku.credentials.authenticate(session)


def test_a_session_signed_out_already_is_not_counted_as_ended_by_a_new_link(
        kiroku: Kiroku) -> None:
    scope = _scope()
    out, _ = kiroku.links.sign_in(kiroku.links.issue(scope, issued_by=JUDGE)["code"])
    _, kept = kiroku.links.sign_in(kiroku.links.issue(scope, issued_by=JUDGE)["code"])
    kiroku.credentials.revoke(out.credential_id, reason="signed out", revoked_by="Aiko")
    assert kiroku.links.issue(scope, issued_by=JUDGE, revoke_sessions=True)[
        "sessions_revoked"] == 1
    with pytest.raises(Unauthenticated):
        kiroku.credentials.authenticate(kept)
