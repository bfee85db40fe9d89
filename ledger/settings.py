"""Persistence settings: one URL, ``KIROKU_DATABASE_URL`` (or ``--db``), mapped onto eventsourcing.

- ``sqlite:///path/file.db`` (default ``sqlite:///./kiroku.db``): an embedded file, zero setup.
- ``sqlite:///:memory:``: a private in-memory database (tests, demos).
- ``postgresql://user:password@host:port/dbname[?schema=name]``: a PostgreSQL server.
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_URL = "sqlite:///./kiroku.db"


class SettingsError(ValueError):
    """The database URL cannot be used."""

    reason = "bad_database_url"


def database_url(explicit: str | None = None) -> str:
    """The URL in force: the explicit one, else ``KIROKU_DATABASE_URL``, else the default."""
    return explicit or os.environ.get("KIROKU_DATABASE_URL") or DEFAULT_URL


def persistence_env(url: str) -> dict[str, str]:
    """eventsourcing settings for ``url``."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
        if parts.netloc:
            raise SettingsError(f"{url!r}: write sqlite:///relative/path.db or "
                                "sqlite:////absolute/path.db")
        if not path:
            raise SettingsError(f"{url!r} names no database file")
        if path == ":memory:":
            path = f"file:kiroku-{uuid.uuid4().hex}?mode=memory&cache=shared"
        else:
            parent = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(parent):
                raise SettingsError(f"{url!r}: the folder {parent} does not exist")
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path,
                "SQLITE_LOCK_TIMEOUT": "10"}
    if parts.scheme in ("postgresql", "postgres"):
        dbname = parts.path.lstrip("/")
        if not dbname or not parts.hostname:
            raise SettingsError(f"{url!r}: write postgresql://user:password@host:port/dbname")
        env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
               "POSTGRES_HOST": parts.hostname, "POSTGRES_PORT": str(parts.port or 5432),
               "POSTGRES_USER": unquote(parts.username or "postgres"),
               "POSTGRES_PASSWORD": unquote(parts.password or ""),
               "POSTGRES_CONNECT_TIMEOUT": "5", "POSTGRES_POOL_SIZE": "5"}
        schema = parse_qs(parts.query).get("schema")
        if schema:
            env["POSTGRES_SCHEMA"] = schema[0]
        return env
    raise SettingsError(f"Unsupported database URL {url!r}: use sqlite:///file.db or "
                        "postgresql://user:password@host:port/dbname")
