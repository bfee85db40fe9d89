"""What Kiroku adds to eventsourcing's PostgreSQL module: the match list's table there, and
the lock that lets one process at a time open a store.

Imported only when the database URL is PostgreSQL, by name, the way eventsourcing imports its
own PostgreSQL module only when the ``PERSISTENCE_MODULE`` setting names it
(``ledger.settings.persistence_env``): psycopg and eventsourcing's PostgreSQL module take
about a tenth of a second to import, which every command on an SQLite file paid before.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from eventsourcing.postgres import PostgresTrackingRecorder
from psycopg.sql import SQL, Composed, Identifier

from ledger.matchlist import STREAMS, TABLE, MatchListView, _Statements
from ledger.settings import CONNECT_TIMEOUT

# the driver's errors: opening a store that fails with one of them is reported in one
# sentence (ledger.settings.database_unavailable)
DRIVER_ERRORS: tuple[type[Exception], ...] = (psycopg.Error,)
OPEN_LOCK = 0x6B69726F6B75  # "kiroku": one advisory lock key for every Kiroku store


class PostgresMatchListView(PostgresTrackingRecorder, MatchListView):
    """The match list in PostgreSQL, in the store's schema beside the events."""

    SQL = _Statements("%s", "strpos", "BOOLEAN", 'TEXT COLLATE "C"')
    NO_LIMIT = None

    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        prefix = self.tracking_table_name.removesuffix("_tracking")
        self.table_name = f"{prefix}_{TABLE}"
        self.streams_table_name = f"{prefix}_{STREAMS}"
        self.check_identifier_length(self.table_name + "_by_seating")
        self.check_identifier_length(self.streams_table_name)
        self.sql_create_statements += [self._sql(s) for s in self.SQL.create]

    def _sql(self, sql: str) -> Composed:
        return SQL(sql).format(t=Identifier(self.datastore.schema, self.table_name),
                               s=Identifier(self.datastore.schema, self.streams_table_name),
                               by_time=Identifier(f"{self.table_name}_by_time"),
                               by_seating=Identifier(f"{self.table_name}_by_seating"))

    def _transaction(self, commit: bool) -> AbstractContextManager[Any]:
        return self.datastore.transaction(commit=commit)

    def _execute(self, cursor: Any, sql: str, params: list[Any]) -> None:
        cursor.execute(self._sql(sql), params)


@contextmanager
def one_opener_at_a_time(env: Mapping[str, str]) -> Iterator[None]:
    """PostgreSQL's advisory lock ``OPEN_LOCK``, held on a connection of its own while the
    store is opened (ledger.recorder)."""
    with psycopg.connect(host=env["POSTGRES_HOST"], port=int(env["POSTGRES_PORT"]),
                         dbname=env["POSTGRES_DBNAME"], user=env["POSTGRES_USER"],
                         password=env["POSTGRES_PASSWORD"], autocommit=True,
                         connect_timeout=CONNECT_TIMEOUT) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (OPEN_LOCK,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (OPEN_LOCK,))
