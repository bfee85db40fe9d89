"""Shared fixtures: a store per backend (SQLite file, real PostgreSQL), sample data."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from replay.service import Kiroku

POSTGRES_URL = os.environ.get("KIROKU_TEST_POSTGRES_URL",
                              "postgresql://postgres@127.0.0.1:5432/test")
REQUIRE_POSTGRES = os.environ.get("KIROKU_REQUIRE_POSTGRES") == "1"


def postgres_schema() -> str | None:
    """Create a fresh schema on the test server, or None when there is no server."""
    try:
        import psycopg

        name = f"kiroku_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(POSTGRES_URL, connect_timeout=3, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return name
    except Exception as exc:  # no server here: skip, unless CI demands PostgreSQL
        if REQUIRE_POSTGRES:
            pytest.fail(f"PostgreSQL required (KIROKU_REQUIRE_POSTGRES=1) but unreachable: {exc}")
        return None


def drop_schema(name: str) -> None:
    import psycopg

    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {name} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path,
              monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A database URL for an empty store, once per backend (the PostgreSQL store's key file
    in the test's own folder, as an SQLite store's is beside its database)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/kiroku.db"
        return
    monkeypatch.setenv("KIROKU_KEY_FILE", str(tmp_path / "kiroku.keys"))
    schema = postgres_schema()
    if schema is None:
        pytest.skip("no PostgreSQL server (set KIROKU_TEST_POSTGRES_URL)")
    try:
        yield f"{POSTGRES_URL}?schema={schema}"
    finally:
        drop_schema(schema)


@pytest.fixture
def kiroku(store_url: str) -> Iterator[Kiroku]:
    """A Kiroku service on a fresh store."""
    service = Kiroku.open(store_url)
    yield service
    service.close()


@pytest.fixture
def memory_kiroku() -> Iterator[Kiroku]:
    """A Kiroku service on a private in-memory SQLite database (fast engine-level tests)."""
    service = Kiroku.open("sqlite:///:memory:")
    yield service
    service.close()
