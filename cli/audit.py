"""``kiroku audit verify``: every match's audit trail and the streams beside it, one match or
all of them, these by worker processes (one per core) with the output of one process; a match
that a pairing which never landed left behind is noted as a stray (replay.strays)."""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.pool import Pool
from multiprocessing.util import Finalize
from pathlib import Path
from typing import Any
from uuid import UUID

import click
import msgpack

from cli import bars
from cli.common import find_match, service
from engine.core.errors import ActionError
from ledger.errors import LedgerError
from ledger.recorder import Recorder
from ledger.settings import SettingsError
from replay import beside, strays
from replay.audit import AuditReport
from replay.service import Kiroku


@click.group()
def audit() -> None:
    """Verify the audit trail."""


@audit.command("verify")
@click.argument("match_ref", required=False)
@click.option("--receipts", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Signed receipts kept outside the store (JSON lines, a JSON list, or an "
                   "export): proves that no event up to them was removed or changed.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Matches verified at once, each by a worker process with its own "
                   "connection to the store (default: one per core). 1: every match in this "
                   "process.")
@click.pass_context
def audit_verify(ctx: click.Context, match_ref: str | None, receipts: str | None,
                 jobs: int | None) -> None:
    """Verify one match, or every match; exit status 1 on any failure. Every match: those
    listed as the command starts, with the variations and annotations beside them
    as they stood then (what is added meanwhile is checked by the next run). A stray of a
    pairing that never landed (left by a version that paired table by table) is a note, not
    a failure."""
    kept = _read_receipts(Path(receipts)) if receipts else []
    workers = 1 if match_ref or ctx.obj["db"].endswith(":memory:") else jobs or os.cpu_count()
    with _worker_pool(workers or 1) as pool, service(ctx) as kiroku:
        if match_ref:
            match_id = find_match(kiroku, match_ref)
            checked = [_check_match(kiroku, match_id, _receipts_of(kept, match_id))]
        else:
            every = [m.match_id for m in kiroku.list_matches()]
            checked = _check_every(kiroku, ctx.obj, every, kept, pool, workers or 1)
        _raise_first_error(checked)
        noted = _note_strays(kiroku, checked)
    failed = sum(_print_checked(one) for one in checked)
    click.echo(f"{len(checked) - failed} verified, {failed} failed")
    if noted:
        click.echo(f"{noted} stray match(es) of a pairing that never landed: see their notes")
    sys.exit(1 if failed else 0)


def _note_strays(kiroku: Kiroku, checked: list[_Checked]) -> int:
    """Note on their reports the checked matches that are strays of a pairing that never
    landed (replay.strays: a note, not a failure); how many they are."""
    notes = strays.notes_by_match(kiroku)
    noted = 0
    for report in (one.report for one in checked if one.report is not None):
        note = notes.get(UUID(report.match_id))
        if note is not None:
            report.notes.append(note)
            noted += 1
    return noted


@dataclass(frozen=True)
class _Checked:
    """One match verified, here or by a worker process, as plain data: its audit report and
    the check of the streams beside it (replay.beside), or the error one of them met."""

    report: AuditReport | None
    streams: dict[str, Any] | None = None
    error: tuple[str, str] | None = None  # (reason, message) of an error service() reports


# the errors service() reports as one line (exit status 2)
_REPORTED = (ActionError, LedgerError, SettingsError)
# A forked worker starts at once, with every module this process has loaded; a spawned one
# imports them all again (about a second). Workers are forked before the store is opened or
# any thread started, so they inherit no connection; elsewhere than Linux, fork is unsafe.
_START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"
CHUNK = 8  # the most matches handed to a worker at once (``_chunk``)


def _check_match(kiroku: Kiroku, match_id: UUID, receipts: list[dict[str, Any]],
                 streams_current: bool = False) -> _Checked:
    """Audit one match against its receipts, then check the streams beside it (as the
    streams' read model stands, where ``streams_current``: ``beside.verify``)."""
    try:
        report = kiroku.audit(match_id, receipts)
    except _REPORTED as exc:
        return _Checked(None, error=_reported(exc))
    try:
        return _Checked(report, beside.verify(kiroku, match_id, report.game,
                                              streams_current=streams_current))
    except _REPORTED as exc:
        return _Checked(report, error=_reported(exc))


def _reported(exc: Exception) -> tuple[str, str]:
    """An error as service() names it: its reason (or code) and its message."""
    reason = getattr(exc, "reason", None) or getattr(exc, "code", "error")
    return str(reason), str(getattr(exc, "message", exc))


def _raise_first_error(checked: list[_Checked]) -> None:
    """The error that verifying the matches one after the other meets first: the audits come
    first (every match's, in list order), then the streams beside them."""
    first = next((c.error for c in checked if c.report is None), None) or next(
        (c.error for c in checked if c.error is not None), None)
    if first is not None:
        raise ActionError.passed_on(*first)  # service() prints it as it would the original


def _receipts_of(kept: list[dict[str, Any]], match_id: UUID) -> list[dict[str, Any]]:
    """The receipts that name ``match_id``."""
    return [r for r in kept if r.get("match_id") == str(match_id)]


@contextmanager
def _worker_pool(workers: int) -> Iterator[Pool | None]:
    """``workers`` processes started now, before the store is opened (None for one: the
    matches are then verified in this process); closed, or stopped on an error, at the end."""
    if workers <= 1:
        yield None
        return
    # Forked workers start with what this process made so far (its modules, about 50,000
    # objects) out of the collector's reach: a worker's full collections then walk only what
    # its audits make, and leave the pages it shares with this process unwritten. This
    # process collects as before (a heap it had frozen itself stays frozen).
    frozen_before = gc.get_freeze_count() > 0
    gc.freeze()
    try:
        pool = _Pool(workers, _leave_interrupts, context=multiprocessing.get_context(_START_METHOD))
    finally:
        if not frozen_before:
            gc.unfreeze()
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()


class _Pool(Pool):
    """The standard library's pool of worker processes, whose worker-handling thread waits
    only for what it handles: a worker that ends, and the pool's own changes (closed,
    stopped, its last task done). The library's thread also wakes whenever a result waits in
    the pipe from the workers, and then loops, without waiting, until the result-handling
    thread has read it: 0.2-0.3 s of CPU over 2,000 matches (250 results of 8 matches each),
    taken from the workers when they have a core each (docs/architecture.md, "The audit's
    pool of workers")."""

    def _get_sentinels(self) -> list[Any]:
        """What the worker-handling thread waits for besides the workers' own ends (the
        library's, without the results' pipe): the pool's notices of its changes."""
        return [self._change_notifier._reader]  # type: ignore[attr-defined]


def _leave_interrupts() -> None:
    """A worker leaves Ctrl-C to the command, which stops every worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _check_every(kiroku: Kiroku, store: dict[str, Any], every: list[UUID],
                 kept: list[dict[str, Any]], pool: Pool | None,
                 workers: int) -> list[_Checked]:
    """Every match checked, by the ``workers`` of ``pool`` or here, the progress bar advancing
    as each is done; the results in list order."""
    checked: list[_Checked | None] = [None] * len(every)
    with bars.progress() as bar:
        task = bar.add_task("verifying", total=len(every))
        found: Iterable[tuple[int, _Checked]]
        if pool is None or len(every) < 2:
            beside.catch_up_streams(kiroku)  # once: every match's streams as of now
            kiroku.recorder.learn_stream_numbers()
            found = ((i, _check_match(kiroku, m, _receipts_of(kept, m), streams_current=True))
                     for i, m in enumerate(every))
        else:
            found = pool.imap_unordered(_check_in_worker, [
                (i, store["db"], store["keys"], m, _receipts_of(kept, m))
                for i, m in enumerate(every)], chunksize=_chunk(len(every), workers))
        for i, one in found:
            checked[i] = one
            bar.advance(task)
    return [c for c in checked if c is not None]


def _chunk(matches: int, workers: int) -> int:
    """How many matches a worker is handed at once: enough that handing them out and sending
    the results back costs little beside verifying them (one at a time, the workers of a
    thousand short matches waited on the one pipe they answer through), few enough that
    every worker still gets a share of the last of them."""
    return max(1, min(CHUNK, matches // (workers * 4)))


_worker: Kiroku | None = None  # a worker process's own service on the store


def _check_in_worker(work: tuple[int, str, str | None, UUID, list[dict[str, Any]]],
                     ) -> tuple[int, _Checked]:
    """One match checked in a worker process: (its index, its result)."""
    index, db, keys, match_id, receipts = work
    return index, _check_match(_worker_service(db, keys), match_id, receipts,
                               streams_current=True)


def _worker_service(db: str, keys: str | None) -> Kiroku:
    """The worker's own service on the store, opened by its first match with one database
    connection (it reads one match at a time), closed when the worker ends; the streams'
    read model brought up to date then, once for every match the worker checks (the list of
    matches was read as the command started: their streams are read as of about then too),
    and the store's stream numbers read at once (``Recorder.learn_stream_numbers``)."""
    global _worker
    if _worker is None:
        _worker = Kiroku(Recorder.open(db, keys=keys, POSTGRES_POOL_SIZE="1"))
        Finalize(_worker, _worker.close, exitpriority=0)
        beside.catch_up_streams(_worker)
        _worker.recorder.learn_stream_numbers()
    return _worker


def _print_checked(checked: _Checked) -> bool:
    """Print one match's lines; whether it failed."""
    report, found = checked.report, checked.streams
    assert report is not None and found is not None  # _raise_first_error let it through
    if report.ok and found["ok"]:
        click.echo(f"ok      {report.match_id}  {report.events} events, "
                   f"{report.actions} actions re-projected")
    elif not report.ok:
        f = report.failure or {}
        click.echo(f"FAILED  {report.match_id}  at event v{f.get('version')} "
                   f"({f.get('event')}): {f.get('reason')}: {f.get('message')}")
    for problem in found["failures"]:
        click.echo(f"FAILED  {report.match_id}  {problem['stream']} {problem['id']}: "
                   f"{problem['reason']}: {problem['message']}")
    for note in report.notes:
        click.echo(f"        note: {note}")
    if found["variations"] or found["disputes"] or found["annotations"]:
        click.echo(f"        beside: {found['variations']} variation(s), "
                   f"{found['disputes']} dispute(s), {found['annotations']} "
                   "annotation(s) checked")
    return not (report.ok and found["ok"])


def _read_receipts(path: Path) -> list[dict[str, Any]]:
    """Receipts from a file of JSON lines, a JSON list, or an export's header."""
    data = path.read_bytes()
    try:
        if data[:1] == b"[":
            found = json.loads(data)
        elif data[:1] == b"{":
            lines = [json.loads(line) for line in data.decode().splitlines() if line.strip()]
            found = [x.get("receipt", x) for x in lines if "receipt" in x or "signature" in x]
        else:
            found = [msgpack.unpackb(data, raw=False).get("receipt")]
    except (ValueError, AttributeError, msgpack.UnpackException) as exc:
        raise click.BadParameter(f"not receipts: {exc}", param_hint="--receipts") from None
    receipts = [r for r in found if isinstance(r, dict)]
    if not receipts:
        raise click.BadParameter("no receipt in the file", param_hint="--receipts")
    return receipts
