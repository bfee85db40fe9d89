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
- **Nothing is notified.** Kiroku follows the log by reading it on demand and has no
  subscriber, so the ``NOTIFY`` that wakes the library's subscriptions is not sent.
- **An insert is one statement.** With the library's ``POSTGRES_ENABLE_DB_FUNCTIONS`` setting
  (which ``ledger/settings.py`` turns on), the library inserts a save's events by calling a
  database function in one autocommit statement, instead of a pipelined transaction of
  several. Its function sends ``NOTIFY``, so this recorder defines its own,
  ``<events table>_insert``, the library's body without it, which sets the lock timeout each
  server's call passes. Without the setting, the library's pipelined transaction runs,
  equally without lock or notification.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import Cursor
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
            "RETURNING notification_id; END; $BODY$").format(
            schema=schema, function=function, event=Identifier(self.stored_event_type_name),
            table=Identifier(table))
        self.sql_create_statements[self.create_insert_function_statement_index] = (
            self.sql_create_pg_function_insert_events)

    def _notify_channel(self, curs: Cursor[DictRow]) -> None:
        """No ``NOTIFY``: nothing listens, and it would serialise the commits."""

    def settled_notification_id(self) -> int:
        """The highest notification id such that every id up to it is committed or will
        never be: waits for the insert transactions open now to end (0 for an empty log)."""
        with self.datastore.transaction(commit=True) as curs:
            for statement in self._settle_statements:
                curs.execute(statement)
            curs.execute(self.max_notification_id_statement)
            row: Any = curs.fetchone()
            return int(row["max"] or 0)
