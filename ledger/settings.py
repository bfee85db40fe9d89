"""Persistence settings: one URL, ``KIROKU_DATABASE_URL`` (or ``--db``), mapped onto eventsourcing.

- ``sqlite:///path/file.db`` (default ``sqlite:///./kiroku.db``): an embedded file, zero setup.
- ``sqlite:///:memory:``: a private in-memory database (tests, demos).
- ``postgresql://user:password@host:port/dbname[?schema=name]``: a PostgreSQL server.
"""

from __future__ import annotations

import os
import re
import sys
import uuid
from collections.abc import Mapping
from urllib.parse import parse_qs, unquote, urlsplit

# The recorders and factory eventsourcing is told to use, by topic (the library imports each
# by its name when the setting names it): a store on an SQLite file never imports psycopg.
GATED_SQLITE = "ledger.writegate:GatedSQLiteFactory"  # ledger.writegate.TOPIC
GROUP_COMMIT = "ledger.groupcommit:GroupCommitRecorder"  # ledger.groupcommit.TOPIC
MANY_WRITERS = "ledger.pgwriters:ManyWritersRecorder"  # ledger.pgwriters.TOPIC

DEFAULT_URL = "sqlite:///./kiroku.db"
# SQLite files are written through the write gate (ledger.writegate), a POSIX flock
SQLITE_FACTORY = GATED_SQLITE if sys.platform != "win32" else "eventsourcing.sqlite"
# How long opening a store waits for the PostgreSQL server to answer. (POSTGRES_CONNECT_TIMEOUT
# is eventsourcing's: how long a command waits for a free connection of its pool.)
CONNECT_TIMEOUT = 2
CHECK_URL = "check KIROKU_DATABASE_URL or --db"


class SettingsError(ValueError):
    """The database URL cannot be used."""

    reason = "bad_database_url"


class DatabaseUnavailable(SettingsError):
    """The URL is well formed, but the database behind it cannot be used: nothing answers
    there, or the server refuses the connection (unknown database or user, wrong password)."""

    reason = "database_unavailable"


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
        return {"PERSISTENCE_MODULE": SQLITE_FACTORY, "SQLITE_DBNAME": path,
                "SQLITE_LOCK_TIMEOUT": "10",
                "APPLICATION_RECORDER_TOPIC": GROUP_COMMIT}
    if parts.scheme in ("postgresql", "postgres"):
        dbname = parts.path.lstrip("/")
        if not dbname or not parts.hostname:
            raise SettingsError(f"{url!r}: write postgresql://user:password@host:port/dbname")
        env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
               "POSTGRES_HOST": parts.hostname, "POSTGRES_PORT": str(parts.port or 5432),
               "POSTGRES_USER": unquote(parts.username or "postgres"),
               "POSTGRES_PASSWORD": unquote(parts.password or ""),
               "POSTGRES_CONNECT_TIMEOUT": "5", "POSTGRES_POOL_SIZE": "5",
               "POSTGRES_ENABLE_DB_FUNCTIONS": "y",  # an insert in one statement (pgwriters)
               "APPLICATION_RECORDER_TOPIC": MANY_WRITERS}
        schema = parse_qs(parts.query).get("schema")
        if schema:
            env["POSTGRES_SCHEMA"] = schema[0]
        return env
    raise SettingsError(f"Unsupported database URL {url!r}: use sqlite:///file.db or "
                        "postgresql://user:password@host:port/dbname")


def database_unavailable(env: Mapping[str, str], error: BaseException) -> DatabaseUnavailable:
    """One sentence for a failed connection to the PostgreSQL server of ``env`` (the
    eventsourcing settings of ``persistence_env``): where, and why in plain words. It never
    holds the password."""
    host, port = env.get("POSTGRES_HOST", "?"), env.get("POSTGRES_PORT", "5432")
    dbname, user = env.get("POSTGRES_DBNAME", "?"), env.get("POSTGRES_USER", "?")
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    text = str(error)
    password = env.get("POSTGRES_PASSWORD", "")
    if password:
        text = text.replace(password, "***")
    said = text.lower()
    server = f"The PostgreSQL server at {where}"
    if "connection refused" in said:
        sentence = f"Cannot reach the PostgreSQL database at {where} (connection refused)"
    elif "timeout" in said or "timed out" in said or "pooltimeout" in type(error).__name__.lower():
        sentence = (f"Cannot reach the PostgreSQL database at {where} (no answer within "
                    f"{CONNECT_TIMEOUT} s)")
    elif "resolve host" in said or "translate host name" in said or "not known" in said:
        sentence = (f"Cannot reach the PostgreSQL database at {where} (the host name {host!r} "
                    "is not known)")
    elif re.search(r'role ".*" does not exist', said):
        sentence = f"{server} has no user {user!r}"
    elif re.search(r'database ".*" does not exist', said):
        sentence = f"{server} has no database {dbname!r}"
    elif "password authentication failed" in said:
        sentence = f"{server} refused the password given for user {user!r}"
    elif "no password supplied" in said or "password is required" in said:
        sentence = f"{server} needs a password for user {user!r} and none was given"
    elif "pg_hba.conf" in said:
        sentence = f"{server} does not accept user {user!r} from this machine (pg_hba.conf)"
    elif "permission denied" in said:
        sentence = f"{server} does not let user {user!r} use the database {dbname!r}"
    elif "too many" in said or "starting up" in said or "shutting down" in said:
        sentence = f"{server} does not accept connections now ({_detail(text)})"
    else:
        sentence = f"Cannot use the PostgreSQL database {dbname!r} at {where} ({_detail(text)})"
    return DatabaseUnavailable(f"{sentence}; {CHECK_URL}.")


def sqlite_unavailable(env: Mapping[str, str], error: BaseException) -> DatabaseUnavailable:
    """One sentence for an SQLite file of ``env`` that cannot be opened (a folder, a file
    that is not a database, one this user may not write, or the lock file beside it)."""
    path = env.get("SQLITE_DBNAME", "?")
    why = error.strerror if isinstance(error, OSError) and error.strerror else _detail(str(error))
    return DatabaseUnavailable(f"Cannot open the SQLite database {path} ({why}): it must be a "
                               "database file, or a new one, that this user may read and "
                               f"write, in a folder it may write; {CHECK_URL}.")


def _detail(text: str) -> str:
    """The server's own words, without libpq's framing: the first line, after 'failed: '."""
    line = (text.strip().splitlines() or ["unknown error"])[0]
    line = line.rpartition("failed: ")[2] or line
    return line.removeprefix("FATAL:").strip().rstrip(".") or "unknown error"
