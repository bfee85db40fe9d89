"""The write gate: the processes writing one SQLite file take turns in the kernel, not in
SQLite's busy handler.

SQLite lets one connection write to a file at a time. A connection that finds the write lock
taken waits in SQLite's busy handler, which sleeps 1, 2, 5, 10, 15, 20, 25 ... ms between
tries, while a Kiroku commit holds the lock for about half a millisecond. With several
processes on one file (``kiroku serve --workers N``), their writers spent those sleeps idle:
two processes recorded more slowly than one (bench/sqlite_processes.py, issue 16).

Every write transaction on a Kiroku SQLite file first passes the file's gate: a thread lock
shared by every connection to the file in this process, then an exclusive ``flock`` on the file
``<db>-write-lock`` beside it, which the kernel hands to the next waiting process the moment
it is released (and releases by itself when a process dies). SQLite's own lock and busy timeout
are unchanged beneath it, for any writer that does not pass the gate (another program, the
``sqlite3`` shell). Readers never pass it: in WAL mode they do not wait for writers.

A write waits at the gate no longer than SQLite's busy timeout (the library's
``SQLITE_LOCK_TIMEOUT``, 10 s for Kiroku's stores) for each of its two locks, then fails with
the library's ``OperationalError`` before it has begun, as SQLite's own lock would have made
it fail: a process that stops while holding the gate (stopped by a debugger, its disk hung)
holds up the others' writes for that long, not for ever. ``flock`` itself cannot stop
waiting, so when another process holds the file, the gate's own thread waits in the kernel
(``_Waiter``, started at the first such write and kept), and the write waits for that thread
with a timeout (``_FileWait``).

Plugged in through the library's own ``PERSISTENCE_MODULE`` setting, as a factory class
(``TOPIC``), whose datastore is eventsourcing's with write transactions gated. The datastore
also gives a new file its page size (``paged``), before the library's first connection
writes the file's first page.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from eventsourcing.sqlite import (
    SQLITE3_DEFAULT_LOCK_TIMEOUT,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteDatastore,
    SQLiteFactory,
    SQLiteTransaction,
)
from eventsourcing.utils import Environment, EnvType

if sys.platform != "win32":  # flock is POSIX's (settings.py leaves Windows ungated)
    import fcntl

TOPIC = "ledger.writegate:GatedSQLiteFactory"
SUFFIX = "-write-lock"


class WriteGate:
    """One SQLite file's gate in this process: a thread lock, then a ``flock`` on the file
    beside the database."""

    def __init__(self, db_path: str) -> None:
        self.path = db_path + SUFFIX
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        self._threads = threading.Lock()
        self._waiter = _Waiter()
        self.users = 0  # the open datastores of this process on the file
        self.passed = 0  # write transactions through the gate (tests and benches read it)

    @contextmanager
    def held(self, timeout: float) -> Iterator[None]:
        """Hold the gate: ``OperationalError`` if another thread of this process, or another
        process, keeps it longer than ``timeout`` seconds each (as SQLite's busy timeout would
        have said); nothing was written then."""
        if not self._threads.acquire(timeout=timeout):
            raise OperationalError(f"database is locked: a write waited {timeout} s for the "
                                   "gate of this process")
        try:
            taken = self._take_file(timeout)
        except (OSError, OperationalError):  # the thread lock is still ours (_take_file)
            self._threads.release()
            raise
        if not taken:  # the waiting thread lets go of the thread lock once it has the file
            raise OperationalError(f"database is locked: a write waited {timeout} s for "
                                   "another process's write to end")
        try:
            self.passed += 1
            yield
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self._threads.release()

    def _take_file(self, timeout: float) -> bool:
        """Take the file's ``flock`` within ``timeout`` seconds (this thread holds the thread
        lock). At once when no other process holds it; otherwise the gate's waiting thread
        waits in the kernel (which hands the lock over the moment it is released, where
        polling would sleep), so that this one can stop waiting. False when it gave up: the
        waiting thread then takes the lock when it comes, lets go of it at once and releases
        the thread lock, so no other thread of this process touches the descriptor meanwhile.
        ``OSError`` (the lock file failed) and ``OperationalError`` (no thread could be
        started to wait in) leave the thread lock with the writer."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            pass
        wait = _FileWait(self._fd, self._threads)
        self._waiter.ask(wait)
        return wait.result(timeout)

    def close(self) -> None:
        """Close the lock file's descriptor (the file stays, as SQLite's ``-wal`` does),
        unless a write of this process holds the gate: its unlock must not reach a closed
        descriptor, or another file given the descriptor's number. That descriptor is left
        open to the process's end; waiting for the write instead could wait forever, when
        the collector closes a forgotten store in the very thread that writes."""
        self._waiter.close()
        if self._threads.acquire(blocking=False):
            try:
                os.close(self._fd)
            finally:
                self._threads.release()


class _Waiter:
    """A gate's thread that waits in the kernel for the file's ``flock``, one wait at a time,
    started by the first write that finds another process holding the file and kept for the
    next. One is enough: the writer that asks holds the gate's thread lock, and a wait given
    up keeps it until its ``flock`` has come and gone, so no second wait is asked meanwhile.

    A thread started at every such write (as before) made the gate's own CPU a contended
    pass 62 us against 37 with the thread kept (issue 43, ``bench/gate_passes.py``), at
    about every other commit of two processes recording on one file; and a process at its
    limit of threads had each of those writes refused, where once this one runs they are
    served."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._asked: _FileWait | None = None
        self._closed = False
        self._thread: threading.Thread | None = None
        self.waits = 0  # waits taken up by the thread (tests read it)

    def ask(self, wait: _FileWait) -> None:
        """Have ``wait`` run in the waiting thread, started first if there is none running
        (none yet, one ended by ``close``, or one ended by an error it did not expect; each
        says so under this lock as it ends). ``OperationalError`` when no thread could be
        started (the process may start no more): nothing was asked then."""
        with self._changed:
            if self._thread is None:
                thread = threading.Thread(target=self._serve, name="kiroku-write-gate",
                                          daemon=True)
                try:
                    thread.start()
                except RuntimeError as exc:
                    raise OperationalError(
                        f"database is locked, and no thread could be started to wait for "
                        f"another process's write to end: {exc}") from None
                self._thread = thread
            self._asked = wait
            self._changed.notify()

    def close(self) -> None:
        """End the thread once it has run what it was asked (a wait under way is finished)."""
        with self._changed:
            self._closed = True
            self._changed.notify()

    def _serve(self) -> None:
        """Run each wait asked, until closed with none asked. The thread says it has ended
        (``_thread`` None) under the lock ``ask`` takes, before it ends: a wait asked as it
        ends, when it would still look alive, starts another thread instead of being lost
        (its writer would time out, and the gate's thread lock, which the waiting thread lets
        go, would stay taken)."""
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._asked is not None or self._closed)
                wait, self._asked = self._asked, None
                if wait is None:
                    self._thread = None
                    return
                self.waits += 1
            try:
                wait.run()
            except BaseException:
                with self._changed:
                    self._thread = None
                raise


class _FileWait:
    """One wait for a file's ``flock``, run by the gate's waiting thread (``_Waiter``), which
    the writer that asked for it may give up."""

    def __init__(self, fd: int, threads: threading.Lock) -> None:
        self._fd = fd
        self._threads = threads  # the gate's thread lock, held by the writer
        self._settled = threading.Condition()
        self._taken = False
        self._error: OSError | None = None
        self._given_up = False

    def run(self) -> None:
        """Wait for the lock; hand it to the writer, or let it go if the writer gave up."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except OSError as exc:
            with self._settled:
                if not self._given_up:
                    self._error = exc
                    self._settled.notify()
                    return
            self._threads.release()
            return
        with self._settled:
            if not self._given_up:
                self._taken = True
                self._settled.notify()
                return
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._threads.release()

    def result(self, timeout: float) -> bool:
        """Whether the writer has the lock within ``timeout`` seconds (False: given up)."""
        with self._settled:
            try:
                self._settled.wait_for(lambda: self._taken or self._error is not None,
                                       timeout)
            finally:  # given up, also when interrupted: the waiting thread cleans up
                self._given_up = not self._taken and self._error is None
            if self._error is not None:
                raise self._error
            return self._taken


_gates: dict[str, WriteGate] = {}
_gates_guard = threading.Lock()


@functools.lru_cache(maxsize=64)
def _file_of(db_path: str) -> str:
    """The file ``db_path`` names, symbolic links resolved: the key of its gate. Resolved
    once per path, not at every write (``realpath`` asks the file system about each part of
    the path: 2.5% of recording an action on a file). A path that comes to name another file
    while the process runs keeps its first resolution, as the process's SQLite connections
    keep the file they opened."""
    return os.path.realpath(db_path)


_every_reads: weakref.WeakSet[_Reads] = weakref.WeakSet()  # to forget in a forked child


def gate_for(db_path: str) -> WriteGate:
    """The gate of the SQLite file ``db_path`` in this process (one per file, whichever
    connection or store writes to it). OSError when the lock file cannot be opened."""
    key = _file_of(db_path)
    with _gates_guard:
        gate = _gates.get(key)
        if gate is None:
            gate = _gates[key] = WriteGate(db_path)
        return gate


def open_gate(db_path: str) -> None:
    """A datastore on ``db_path`` opens: its gate is kept until the last one closes."""
    gate = gate_for(db_path)
    with _gates_guard:
        gate.users += 1


def close_gate(db_path: str) -> None:
    """A datastore on ``db_path`` closes: the last one closes the lock file's descriptor."""
    key = _file_of(db_path)
    with _gates_guard:
        gate = _gates.get(key)
        if gate is None:
            return
        gate.users -= 1
        if gate.users <= 0:
            del _gates[key]
            gate.close()


def _forget_after_fork() -> None:
    """A forked child opens its own lock files: a descriptor inherited from its parent
    shares the parent's ``flock``, and a thread lock held at the fork stays held. It opens
    its own reading connections too (SQLite's rule: no connection across a fork)."""
    global _gates_guard
    _gates.clear()
    _gates_guard = threading.Lock()
    for reads in list(_every_reads):
        reads.forget()


if sys.platform != "win32":
    os.register_at_fork(after_in_child=_forget_after_fork)


# A new file's page, in bytes (SQLite's default is 4096). Every table and index takes a page
# from the first match on, so 4 KiB pages made an empty store 56 KiB; at 1 KiB it is 16, and
# no read or write measured slower (docs/architecture.md, "Storage: the file", issue 43).
PAGE_SIZE = 1024


def paged(db_name: str, lock_timeout: float | None) -> None:
    """Give a file that has no page yet pages of ``PAGE_SIZE`` bytes, before the library's
    first connection writes its first page (SQLite fixes the size then, and a file in WAL
    mode cannot change it). A file with pages keeps theirs. Errors as the library's pool
    raises them."""
    try:
        connection = sqlite3.connect(db_name, uri=True,
                                     timeout=lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT)
        try:
            if connection.execute("PRAGMA page_count").fetchone()[0] == 0:
                connection.execute(f"PRAGMA page_size = {PAGE_SIZE}")
                connection.execute("PRAGMA journal_mode = WAL")  # writes the first page
        finally:
            connection.close()
    except sqlite3.Error as exc:
        raise InterfaceError(exc) from exc


class GatedDatastore(SQLiteDatastore):
    """eventsourcing's SQLite datastore, whose write transactions pass the file's gate."""

    def __init__(self, db_name: str, **kwargs: Any) -> None:
        super().__init__(db_name, **kwargs)  # its pool connects at the first statement
        self.db_path = db_name
        self.lock_timeout = float(kwargs.get("lock_timeout") or SQLITE3_DEFAULT_LOCK_TIMEOUT)
        open_gate(db_name)  # a lock file that cannot be made fails the open, not a write
        self._gate_open = True
        try:  # after the gate: an open that fails there makes no database file
            paged(db_name, self.lock_timeout)
        except InterfaceError:
            self.close()
            raise

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[SQLiteCursor]:
        """The library's transaction; a writing one holds the gate from before its BEGIN
        until after its COMMIT or ROLLBACK. A reading one is a statement on this thread's
        reading connection (``_Reads``)."""
        if not commit:
            with self._reads.connection() as connection, _Statement(connection) as cursor, \
                    cursor:
                yield cursor
            return
        with gate_for(self.db_path).held(self.lock_timeout), \
                super().transaction(commit=True) as cursor:
            yield cursor

    @functools.cached_property
    def _reads(self) -> _Reads:
        return _Reads(self.pool)

    def close(self) -> None:
        """Close the library's pool, the reading connections, and this datastore's hold on
        the file's gate (once: the library closes again when the datastore is collected)."""
        super().close()
        self._reads.close()
        if getattr(self, "_gate_open", False):
            self._gate_open = False
            close_gate(self.db_path)


class _Statement(SQLiteTransaction):
    """The library's read transaction without its ``BEGIN``: one statement in autocommit
    mode reads one snapshot of a WAL file by itself, as ``BEGIN``, the statement and
    ``ROLLBACK`` do. What fails is raised as the library raises it (its ``__exit__``; its
    ``ROLLBACK`` of no transaction does nothing)."""

    def __enter__(self) -> SQLiteCursor:
        return self.connection.cursor()


class _Reads:
    """A connection for each thread that reads the file, made as the library's pool makes
    its own (its settings, its row factory): a read takes it without the pool's lock and
    queue, and as each of the library's reads (and Kiroku's) is one statement, without a
    ``BEGIN`` and ``ROLLBACK`` around it either. That was about 40 of the 49 us the
    library took to read three events of a match (docs/architecture.md, issue 43). A
    thread's connection closes when the thread ends, or when the datastore does."""

    def __init__(self, pool: SQLiteConnectionPool) -> None:
        self.pool = pool
        self.local = threading.local()
        self.opened: weakref.WeakSet[SQLiteConnection] = weakref.WeakSet()
        self.guard = threading.Lock()
        self.closed = False
        _every_reads.add(self)

    def forget(self) -> None:
        """In a forked child: its parent's connections are not this process's to use."""
        self.local = threading.local()
        self.opened = weakref.WeakSet()
        self.guard = threading.Lock()

    @contextmanager
    def connection(self) -> Iterator[SQLiteConnection]:
        """This thread's reading connection (opened at its first read)."""
        connection: SQLiteConnection | None = getattr(self.local, "connection", None)
        if connection is None or connection.closed:
            connection = self._open()
        yield connection

    def _open(self) -> SQLiteConnection:
        connection = self.pool._create_connection()  # the library's own settings
        with self.guard:
            if self.closed:
                connection.close()
                raise OperationalError("the store is closed")
            self.opened.add(connection)
        self.local.connection = connection
        return connection

    def close(self) -> None:
        """Close every thread's reading connection."""
        with self.guard:
            self.closed = True
            opened, self.opened = list(self.opened), weakref.WeakSet()
        for connection in opened:
            connection.close()


class GatedSQLiteFactory(SQLiteFactory):
    """eventsourcing's SQLite factory with a gated datastore for a database file (an
    in-memory database belongs to one process and is left as the library has it)."""

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        plain = self.datastore
        if plain.pool.is_sqlite_memory_mode:
            return
        self.datastore = GatedDatastore(
            plain.pool.db_name, lock_timeout=plain.pool.lock_timeout,
            single_row_tracking=plain.single_row_tracking,
            originator_id_type=plain.originator_id_type)
        plain.close()
