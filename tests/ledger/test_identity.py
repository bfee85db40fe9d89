"""Credentials (issue 8, first part): random bearer tokens stored only as hashes, roles that
decide the viewer, revocation, and the first organiser of a fresh store. SQLite and PostgreSQL."""

from __future__ import annotations

import time
from uuid import uuid4

import pytest

from engine import JUDGE, SPECTATOR, Viewer
from ledger.identity import CredentialRefused, Credentials, Role, Unauthenticated, token_hash
from ledger.transcoder import MsgpackTranscoder
from replay.service import Kiroku


def test_a_token_authenticates_as_what_it_was_issued_for(kiroku: Kiroku) -> None:
    credentials = Credentials(kiroku.recorder)
    match_id = uuid4()
    issued, token = credentials.issue(Role.SEAT, "Ann", issued_by="organiser",
                                      match_id=match_id, seat=2)
    me = credentials.authenticate(token)
    assert me == issued and (me.role, me.name, me.match_id, me.seat) == (
        Role.SEAT, "Ann", match_id, 2)
    assert me.viewer_of(match_id) == Viewer("seat", 2)
    assert me.viewer_of(uuid4()) == SPECTATOR
    assert me.may_act_for(match_id, 2) and not me.may_act_for(match_id, 1)
    assert me.recorded_by == {"id": str(me.credential_id), "name": "Ann", "role": "seat"}
    judge = credentials.authenticate(credentials.issue(Role.JUDGE, "Kato",
                                                       issued_by="organiser")[1])
    assert judge.viewer_of(match_id) == JUDGE and judge.may_act_for(match_id, 1)


def test_unknown_and_revoked_tokens_do_not_authenticate(kiroku: Kiroku) -> None:
    credentials = Credentials(kiroku.recorder)
    issued, token = credentials.issue(Role.JUDGE, "Kato", issued_by="organiser")
    for wrong in ("", "x" * 500, token + "x", token[:-1]):
        with pytest.raises(Unauthenticated):
            credentials.authenticate(wrong)
    credentials.revoke(issued.credential_id, reason="left the event", revoked_by="organiser")
    with pytest.raises(Unauthenticated):
        credentials.authenticate(token)


def test_the_store_keeps_only_the_tokens_hash(kiroku: Kiroku) -> None:
    token = Credentials(kiroku.recorder).issue(Role.JUDGE, "Kato", issued_by="organiser")[1]
    rows = kiroku.recorder.recorder.select_notifications(1, 1000)
    stored = [repr(MsgpackTranscoder().decode(bytes(row.state))) for row in rows]
    assert stored and not any(token in fields for fields in stored)
    assert any(token_hash(token) in fields for fields in stored)


def test_revoking_an_unknown_credential_is_refused(kiroku: Kiroku) -> None:
    with pytest.raises(CredentialRefused):
        Credentials(kiroku.recorder).revoke(uuid4(), reason="typo", revoked_by="organiser")


def test_a_fresh_store_gets_one_organiser(kiroku: Kiroku) -> None:
    credentials = Credentials(kiroku.recorder)
    token = credentials.ensure_organiser()
    assert token is not None and credentials.authenticate(token).role == Role.ORGANISER
    assert credentials.ensure_organiser() is None
    assert [i.role for i in credentials.issued()] == [Role.ORGANISER]


def test_a_credential_names_its_holder_and_only_a_seat_credential_a_seat(
        kiroku: Kiroku) -> None:
    credentials = Credentials(kiroku.recorder)
    for name in ("", " ", "x" * 65, "tab\there"):
        with pytest.raises(CredentialRefused):
            credentials.issue(Role.JUDGE, name, issued_by="organiser")
    with pytest.raises(CredentialRefused):
        credentials.issue(Role.SEAT, "Ann", issued_by="organiser")
    with pytest.raises(CredentialRefused):
        credentials.issue(Role.JUDGE, "Kato", issued_by="organiser", match_id=uuid4(), seat=1)


def test_a_credential_revoked_by_another_server_stops_working_here_at_once(
        store_url: str) -> None:
    """Authenticating reads the credential this server cached, fast-forwarded to what the
    store holds (not a copy of it): another server's revocation counts on the next request."""
    here, there = Kiroku.open(store_url), Kiroku.open(store_url)
    try:
        issued, token = here.credentials.issue(Role.JUDGE, "Kato", issued_by="organiser")
        assert here.credentials.authenticate(token) == issued
        assert here.credentials.authenticate(token) == issued  # from this server's cache
        there.credentials.revoke(issued.credential_id, reason="left the event",
                                 revoked_by="organiser")
        with pytest.raises(Unauthenticated):
            here.credentials.authenticate(token)
    finally:
        here.close()
        there.close()


def test_a_credential_read_a_moment_ago_is_known_without_reading_the_store(
        store_url: str) -> None:
    """What the HTTP service asks first on every request (issue 43): the credential this
    server read less than ``recheck_after`` seconds ago, taken from its memory. Another
    server's revocation is not seen until then (which shows the store is not read), and is
    refused once the time has passed."""
    here, there = Kiroku.open(store_url), Kiroku.open(store_url)
    try:
        here.credentials.recheck_after = 0.5
        issued, token = here.credentials.issue(Role.JUDGE, "Kato", issued_by="organiser")
        assert here.credentials.recently_authenticated(token) is None  # never read here
        assert here.credentials.authenticate(token) == issued
        assert here.credentials.recently_authenticated(token) == issued
        there.credentials.revoke(issued.credential_id, reason="left the event",
                                 revoked_by="organiser")
        revoked_at = time.monotonic()
        assert here.credentials.recently_authenticated(token) == issued  # not read again yet
        while here.credentials.recently_authenticated(token) is not None:
            assert time.monotonic() - revoked_at < 0.5
            time.sleep(0.01)
        with pytest.raises(Unauthenticated):
            here.credentials.authenticate(token)
        assert here.credentials.recently_authenticated(token) is None
    finally:
        here.close()
        there.close()


def test_a_credential_revoked_by_this_server_is_not_known_from_memory(kiroku: Kiroku) -> None:
    credentials = kiroku.credentials
    issued, token = credentials.issue(Role.SEAT, "Ann", issued_by="organiser",
                                      match_id=uuid4(), seat=1)
    credentials.authenticate(token)
    assert credentials.recently_authenticated(token) == issued
    credentials.revoke(issued.credential_id, reason="lost phone", revoked_by="organiser")
    assert credentials.recently_authenticated(token) is None
    with pytest.raises(Unauthenticated):
        credentials.authenticate(token)


def test_only_a_token_itself_is_known_from_memory(kiroku: Kiroku) -> None:
    credentials = kiroku.credentials
    issued, token = credentials.issue(Role.JUDGE, "Kato", issued_by="organiser")
    credentials.authenticate(token)
    for wrong in ("", "x" * 500, token + "x", token[:-1]):
        assert credentials.recently_authenticated(wrong) is None
    assert credentials.recently_authenticated(token) == issued
