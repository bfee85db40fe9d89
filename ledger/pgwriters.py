"""Several writers on one PostgreSQL store: inserts without the table lock.

eventsourcing's PostgreSQL application recorder takes ``LOCK TABLE ... IN EXCLUSIVE MODE``
in every insert transaction and sends a ``NOTIFY`` with it. The lock makes the order in which
notification ids become visible their id order, so a reader following the log never passes
over an id that a slower transaction commits later; the price is that every insert of every
server waits for the one before it to commit, and adding servers adds no throughput.
``NOTIFY`` takes a database-wide lock at commit, which serialises commits again.

This recorder, plugged in with the library's own ``APPLICATION_RECORDER_TOPIC`` setting
(``ledger/settings.py``), is the library's recorder without either:

- **Inserts run side by side.** An insert takes only the ``ROW EXCLUSIVE`` lock every
  ``INSERT`` takes. One match's appends stay exactly-once: the store's primary key on
  (match, version) lets one of two racing appends commit, and the other waits for it and is
  refused with the library's ``IntegrityError`` (``ConcurrentAppend`` to the caller). The
  library's ``lock_timeout`` setting still bounds every wait.
- **Readers ask for a settled head.** Ids may now become visible out of order, with a gap
  below an id already visible while an earlier transaction is still open.
  ``settled_notification_id`` is the head a reader may process up to: it takes ``SHARE``
  mode on the table, which waits for every open insert transaction to end (each holds
  ``ROW EXCLUSIVE`` from before it draws its ids until it ends) and lets no new one start,
  reads the highest id and lets go. Every id up to it is then committed or gone for good.
  Readers pay this, once per catch-up (``ledger/matchlist.py``), instead of every insert.
- **Each append is notified with what it appended.** The library sends a bare ``NOTIFY``
  on its channel (the events table's name) in every insert; this recorder sends, in the
  same transaction, ``pg_notify(channel, '<aggregate> <version>')`` once per aggregate
  inserted, at its last version, so that a listener knows which match moved without
  reading the store: the live streams of every server (``replay.api.following``, issue 43).
  PostgreSQL delivers it at commit, never for a rolled-back insert. A notification takes a
  database-wide lock while its transaction commits, which serialises the commits (not the
  inserts) of the servers; at the rates of an event (hundreds of appends a second) that
  costs little beside each commit's own WAL flush, and is the price of one service.
  ``listen`` hears them, on an asyncio connection of its own.
- **An insert is one statement.** With the library's ``POSTGRES_ENABLE_DB_FUNCTIONS`` setting
  (which ``ledger/settings.py`` turns on), the library inserts a save's events by calling a
  database function in one autocommit statement, instead of a pipelined transaction of
  several. Its function sends a bare ``NOTIFY``, so this recorder defines its own,
  ``<events table>_insert``, the library's body with the notifications above instead, which
  sets the lock timeout each server's call passes. Without the setting, the library's
  pipelined transaction runs, equally without lock and with the same notifications.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import AsyncConnection, Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier, Literal

TOPIC = "ledger.pgwriters:ManyWritersRecorder"


class ManyWritersRecorder(PostgresApplicationRecorder):
    """eventsourcing's PostgreSQL application recorder, with concurrent inserts."""

    def __init__(self, datastore: PostgresDatastore, *,
                 events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        timeout = SQL("SET LOCAL lock_timeout = '{0}s'").format(datastore.lock_timeout)
        self.lock_table_statements = [timeout]  # the library's timeout, without its LOCK TABLE
        self._settle_statements = [timeout, SQL("LOCK TABLE {0}.{1} IN SHARE MODE").format(
            Identifier(datastore.schema), Identifier(events_table_name))]
        self._notify_statement = SQL("SELECT pg_notify(%s, %s)")
        self._define_insert_function(datastore, events_table_name)

    def _define_insert_function(self, datastore: PostgresDatastore, table: str) -> None:
        """The library's insert function under a name of this table's, without ``NOTIFY``:
        replaces the library's definition among the statements that create the tables, and
        its call.

        The library writes its ``lock_timeout`` into the function's body, so the last server
        to open a store would set every server's. Here each server's call passes its own."""
        name = f"{table}_insert"
        self.check_identifier_length(name)
        self.pg_function_name_insert_events = name
        schema, function = Identifier(datastore.schema), Identifier(name)
        # the events go in binary (%b): their state as raw bytes, not hex text escaped here
        # and parsed back by the server
        self.sql_invoke_pg_function_insert_events = SQL(
            "SELECT * FROM {0}.{1}((%b), {2})").format(
            schema, function, Literal(f"{datastore.lock_timeout}s"))
        self.sql_create_pg_function_insert_events = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[], "
            "wait_at_most text) RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ BEGIN "
            "PERFORM set_config('lock_timeout', wait_at_most, true); "
            "RETURN QUERY INSERT INTO {schema}.{table} AS t "
            "(originator_id, originator_version, topic, state) "
            "SELECT originator_id, originator_version, topic, state FROM unnest(events) "
            "RETURNING notification_id; "
            "PERFORM pg_notify({channel}, originator_id::text || ' ' || "
            "max(originator_version)) FROM unnest(events) GROUP BY originator_id; "
            "END; $BODY$").format(
            schema=schema, function=function, event=Identifier(self.stored_event_type_name),
            table=Identifier(table), channel=Literal(self.channel_name))
        self.sql_create_statements[self.create_insert_function_statement_index] = (
            self.sql_create_pg_function_insert_events)

    def _notify_channel(self, curs: Cursor[DictRow]) -> None:
        """No bare ``NOTIFY``: ``_insert_events`` says what was appended instead."""

    def _insert_events(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent],
                       **_: Any) -> None:
        """The library's hook in the insert transaction (when the insert is not one call of
        the database function): each aggregate's last version inserted, notified."""
        latest: dict[str, int] = {}
        for event in stored_events:
            key = str(event.originator_id)
            latest[key] = max(latest.get(key, 0), event.originator_version)
        for originator, version in latest.items():
            curs.execute(self._notify_statement, (self.channel_name, f"{originator} {version}"))

    async def listen(self, heard: Callable[[str], None], listening: Callable[[], None],
                     still: Callable[[], bool]) -> None:
        """``LISTEN`` on the channel on a connection of its own, as the library's pool
        connects, telling ``listening`` once it listens and ``heard`` each payload, while
        ``still`` holds (asked at least every second). A lost connection raises psycopg's
        error."""
        arguments = self.datastore.pool.kwargs
        arguments = dict(arguments() if callable(arguments) else arguments or {})
        arguments.pop("row_factory", None)
        async with await AsyncConnection.connect(**arguments, autocommit=True) as connection:
            await connection.execute(SQL("LISTEN {0}").format(Identifier(self.channel_name)))
            listening()
            while still():
                async for notify in connection.notifies(timeout=1.0):
                    heard(notify.payload)

    def settled_notification_id(self) -> int:
        """The highest notification id such that every id up to it is committed or will
        never be: waits for the insert transactions open now to end (0 for an empty log)."""
        with self.datastore.transaction(commit=True) as curs:
            for statement in self._settle_statements:
                curs.execute(statement)
            curs.execute(self.max_notification_id_statement)
            row: Any = curs.fetchone()
            return int(row["max"] or 0)
