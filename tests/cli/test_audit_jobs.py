"""``audit verify --jobs``: matches verified by worker processes, each with its own connection
to the store, say exactly what they say verified one after the other in this process, in the
same order and with the same exit status, on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import Result

from cli import audit
from cli.audit import _START_METHOD, CHUNK, _chunk
from ledger.identity import Identity
from replay import variations as lines
from replay.service import Kiroku
from tests.cli.conftest import kiroku
from tests.replay.test_audit import _key, _rows, cut_last_event

HEAD = Identity.operator("Head Judge Hana")
ROOT = Path(__file__).resolve().parents[2]
MATCH_ID = re.compile(r"^(?:ok|FAILED)\s+(\S+)", re.MULTILINE)


def _store(url: str) -> list[UUID]:
    """Three ended matches and one still on with a variation beside it (list order)."""
    service = Kiroku.open(url)
    try:
        ended = service.simulate("worldgainer", 3, seed=7)
        live = service.new_match("worldgainer", ["Ann", "Ben"],
                                 ["solar_vanguard", "pleiades_bloom"],
                                 options={"first_player": 1})
        for turn in range(4):
            seat = 1 + turn % 2
            service.record(live, {"type": "end_turn", "seat": seat}, recorded_by=f"P{seat}")
        line = lines.start(service, service.audience(live, HEAD), 2, None, None, "what if",
                           "private")
        lines.play(service, HEAD, UUID(line["variation_id"]), {"type": "end_turn", "seat": 1},
                   None)
        listed = [m.match_id for m in service.list_matches()]
    finally:
        service.close()
    assert set(listed) == {*ended, live}
    return listed


def _verify(url: str, *args: str) -> Result:
    return kiroku(url, "audit", "verify", *args, ok=False)


def _same_in_workers(url: str, *args: str) -> Result:
    """The run in this process, once the runs by 2 and 3 workers (and by the default) were
    found to print and exit exactly as it does."""
    here = _verify(url, *args, "--jobs", "1")
    for jobs in (("--jobs", "2"), ("--jobs", "3"), ()):
        there = _verify(url, *args, *jobs)
        assert (there.exit_code, there.stdout, there.stderr) == (
            here.exit_code, here.stdout, here.stderr), jobs
    return here


def test_workers_report_a_truncated_match_as_one_process_does(store_url: str) -> None:
    listed = _store(store_url)
    assert _same_in_workers(store_url).stdout.endswith("4 verified, 0 failed\n")

    ended = cut_last_event(store_url, listed[1])  # its SeedRevealed
    here = _same_in_workers(store_url)
    assert here.exit_code == 1
    assert MATCH_ID.findall(here.stdout) == [str(m) for m in listed]
    assert (f"FAILED  {listed[1]}  at event v{ended} (MatchEnded): seed_not_revealed"
            in here.stdout)
    assert "beside: 1 variation(s), 0 dispute(s), 0 annotation(s) checked" in here.stdout
    assert "seed not revealed yet" in here.stdout
    assert here.stdout.endswith("3 verified, 1 failed\n")


def test_each_worker_holds_its_matches_against_their_receipts(store_url: str,
                                                              tmp_path: Path) -> None:
    listed = _store(store_url)
    service = Kiroku.open(store_url)
    try:
        heads = {m: service.records(service.seen_by(m))[-1] for m in listed[:2]}
        kept = [service.recorder.keyring.receipt(m, r["version"], r["hash"])
                for m, r in heads.items()]
    finally:
        service.close()
    kept[1] = {**kept[1], "head": "0" * 64}  # no longer what the key signed
    path = tmp_path / "receipts.json"
    path.write_text(json.dumps(kept))

    here = _same_in_workers(store_url, "--receipts", str(path))
    assert here.exit_code == 1
    assert "1 signed receipt(s) checked" in here.stdout
    assert f"FAILED  {listed[1]}  at event v{heads[listed[1]]['version']} (None): bad_receipt" \
        in here.stdout
    assert here.stdout.endswith("3 verified, 1 failed\n")


def test_an_unreadable_row_is_reported_by_workers_as_by_one_process(store_url: str) -> None:
    listed = _store(store_url)
    run, table = _rows(store_url)
    key = _key(store_url, listed[2])
    run(f"UPDATE {table} SET state = %s WHERE originator_id = %s AND originator_version = %s",
        (b"\x01\xc1garbage", key, 3))
    here = _same_in_workers(store_url)
    assert here.exit_code == 1
    assert f"FAILED  {listed[2]}  at event v3" in here.stdout
    assert here.stdout.endswith("3 verified, 1 failed\n")


def test_the_progress_bar_follows_the_workers(db: str, progress_screen: io.StringIO) -> None:
    _store(db)
    assert _verify(db, "--jobs", "2").stdout.endswith("4 verified, 0 failed\n")
    shown = progress_screen.getvalue()
    assert "verifying" in shown and "4/4" in shown


def test_workers_handed_several_matches_at_once_report_as_one_process(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: a worker is handed a few matches at a time (``_chunk``); a failure among them
    is still reported at its match, in list order."""
    service = Kiroku.open(db)
    try:
        service.simulate("worldgainer", 18, seed=11)
        listed = [m.match_id for m in service.list_matches()]
    finally:
        service.close()
    handed: list[int] = []
    imap = Pool.imap_unordered

    def spied(pool: Pool, func: Any, iterable: Any, chunksize: int = 1) -> Any:
        handed.append(chunksize)
        return imap(pool, func, iterable, chunksize)

    monkeypatch.setattr(Pool, "imap_unordered", spied)
    cut_last_event(db, listed[9])
    here = _same_in_workers(db)
    # --jobs 2, --jobs 3, then the default (a worker a core)
    assert handed == [2, 1, _chunk(len(listed), os.cpu_count() or 1)], handed
    assert MATCH_ID.findall(here.stdout) == [str(m) for m in listed]
    assert f"FAILED  {listed[9]}  at event" in here.stdout
    assert here.stdout.endswith("17 verified, 1 failed\n")


def test_a_worker_is_handed_more_matches_at_once_the_more_there_are() -> None:
    assert [_chunk(n, 2) for n in (1, 4, 15, 16, 40, 1000)] == [1, 1, 1, 2, 5, CHUNK]
    assert _chunk(1000, 64) == 3


def test_a_worker_learns_the_stores_stream_numbers_as_it_opens_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker reads most of the store's matches: it reads their streams' numbers at once
    (``Recorder.learn_stream_numbers``), not one at a time as each match is read."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    listed = _store(url)
    monkeypatch.setattr(audit, "_worker", None)
    monkeypatch.setattr(audit, "Finalize", lambda *args, **kwargs: None)  # closed below
    worker = audit._worker_service(url, None)  # noqa: SLF001
    try:
        assert set(listed) <= set(worker.recorder.recorder._numbers)  # type: ignore[attr-defined]  # noqa: SLF001
    finally:
        worker.close()


FROZEN = """
import gc, json
from cli.audit import _worker_pool
with _worker_pool(2) as pool:
    in_worker = pool.apply(gc.get_freeze_count)
after = gc.get_freeze_count()
gc.freeze()  # a command that had frozen its heap itself
frozen = gc.get_freeze_count()
with _worker_pool(2) as pool:
    pass
# still frozen: all but what was freed meanwhile (unfrozen, the count would be 0)
print(json.dumps({"in_worker": in_worker, "after": after,
                  "kept": gc.get_freeze_count() > frozen // 2 > 0}))
"""


@pytest.mark.skipif(_START_METHOD != "fork", reason="only a forked worker inherits the heap "
                    "(elsewhere than Linux the workers are spawned and import everything anew)")
def test_workers_start_with_the_commands_heap_out_of_the_collectors_reach() -> None:
    """Issue 43: the workers are forked with what the command had made frozen (``gc.freeze``),
    so that their full collections walk only what their audits make; the command itself
    collects as before (nothing of it left frozen), and a heap it had frozen itself stays
    frozen. In a fresh interpreter, whose heap nothing else froze."""
    done = subprocess.run([sys.executable, "-c", FROZEN], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    seen = json.loads(done.stdout)
    assert seen["in_worker"] > 1000, seen
    assert seen["after"] == 0, seen
    assert seen["kept"] is True, seen


RESTS = """
import json
from multiprocessing.pool import Pool
from cli.audit import _worker_pool
turns = 0
wait = Pool._wait_for_updates
def counted(sentinels, notifier, timeout=None):
    global turns
    turns += 1
    wait(sentinels, notifier, timeout)
Pool._wait_for_updates = staticmethod(counted)
def a_megabyte(_):
    return bytes(1_000_000)
with _worker_pool(2) as pool:
    got = sum(map(len, pool.imap_unordered(a_megabyte, range(100))))
print(json.dumps({"got": got, "turns": turns}))
"""


@pytest.mark.skipif(_START_METHOD != "fork", reason="the script's task is a function of the "
                    "script itself, which only a forked worker has")
def test_the_pools_worker_handler_rests_while_results_wait_to_be_read() -> None:
    """Issue 43: the audit's pool (``cli.audit._Pool``) wakes its worker-handling thread for
    a worker's end and the pool's own changes only. The standard library's wakes for every
    result waiting in the pipe too, and turns without waiting until it is read: about 14,000
    turns for these 100 results of a megabyte, and 0.2-0.3 s of CPU in an audit of 2,000
    matches. In a fresh interpreter (the pool forks it)."""
    done = subprocess.run([sys.executable, "-c", RESTS], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=60)
    seen = json.loads(done.stdout)
    assert seen["got"] == 100 * 1_000_000, seen
    assert seen["turns"] <= 5, seen


REPLACED = """
import json, multiprocessing, os
from cli.audit import _Pool
def pid(_):
    return os.getpid()
pool = _Pool(2, maxtasksperchild=1, context=multiprocessing.get_context("fork"))
done = pool.map_async(pid, range(40), chunksize=1).get(timeout=20)
pool.close()
pool.join()
print(json.dumps({"done": len(done), "workers": len(set(done))}))
"""


@pytest.mark.skipif(_START_METHOD != "fork", reason="the script's task is a function of the "
                    "script itself, which only a forked worker has")
def test_the_pool_starts_a_worker_in_place_of_one_that_ended() -> None:
    """Issue 43: ``_Pool``'s worker-handling thread still wakes when a worker ends (its own
    sentinel) and starts another in its place, as the library's does: with each worker
    ending after one task, 40 tasks are done by 40 workers, one after the other."""
    done = subprocess.run([sys.executable, "-c", REPLACED], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=60)
    assert json.loads(done.stdout) == {"done": 40, "workers": 40}


STOPPED = """
import json, os, time
from cli.audit import _worker_pool
pids = []
try:
    with _worker_pool(2) as pool:
        pids = [p.pid for p in pool._pool]
        pool.apply_async(time.sleep, (120,))
        time.sleep(0.5)
        raise KeyboardInterrupt  # Ctrl-C while a worker is busy
except KeyboardInterrupt:
    pass
alive = []
for pid in pids:
    try:
        os.kill(pid, 0)
        alive.append(pid)
    except ProcessLookupError:
        pass
print(json.dumps({"workers": len(pids), "alive": alive}))
"""


def test_an_interrupted_audit_stops_its_workers_at_once() -> None:
    """Issue 43: Ctrl-C stops ``_Pool``'s workers, a busy one included, and the pool's
    threads let the command end (its worker-handling thread is woken by the pool's notice,
    not by a result): the 120 s task is cut short within the run's 60 s."""
    done = subprocess.run([sys.executable, "-c", STOPPED], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=60)
    assert json.loads(done.stdout) == {"workers": 2, "alive": []}
