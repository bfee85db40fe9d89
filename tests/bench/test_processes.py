"""bench/processes.py: a bench's server is stopped with everything it started, also when it
ignores SIGTERM, and also when the bench itself is sent SIGTERM or Ctrl-C while it stops it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import suppress
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from processes import exited, started, stop_session  # noqa: E402

# a "server" that ignores SIGTERM and starts a "worker" in its session that ignores it too;
# it prints the worker's process id, then waits for ever
STUBBORN = textwrap.dedent("""
    import signal, subprocess, sys, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    worker = subprocess.Popen([sys.executable, "-c",
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"])
    print(worker.pid, flush=True)
    time.sleep(600)
""")


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (a zombie counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _kill_if_alive(*pids: int) -> None:
    """Kill what a failed test left running (a stubborn process would stay for 600 s)."""
    for pid in pids:
        if _alive(pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _stubborn(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    """The stubborn server, started in a session of its own, and its worker's process id."""
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-c", STUBBORN], stdout=out,
                                  start_new_session=True)
    deadline = time.monotonic() + 30
    while not log.read_text().strip():
        assert time.monotonic() < deadline, "the server did not start its worker"
        time.sleep(0.05)
    return server, int(log.read_text())


def test_a_server_that_ignores_sigterm_is_killed_with_its_worker(tmp_path: Path) -> None:
    server, worker = _stubborn(tmp_path)
    try:
        stop_session(server, grace=0.5)
        assert server.returncode == -signal.SIGKILL
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker)
    finally:
        _kill_if_alive(server.pid, worker)


def test_a_server_that_stops_when_asked_is_not_waited_for(tmp_path: Path) -> None:
    code = "import time; time.sleep(600)"
    begun = time.monotonic()
    with started([sys.executable, "-c", code], tmp_path) as server:
        pass
    assert server.returncode == -signal.SIGTERM
    assert time.monotonic() - begun < 10  # not the 20 s grace


def test_a_server_that_already_ended_and_was_reaped_is_stopped_quietly(tmp_path: Path) -> None:
    server = subprocess.Popen([sys.executable, "-c", "pass"], start_new_session=True)
    server.wait(30)
    assert exited(server.pid)
    stop_session(server, grace=0.5)
    assert server.returncode == 0


def test_an_exited_server_is_told_apart_before_it_is_reaped(tmp_path: Path) -> None:
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                              start_new_session=True)
    assert not exited(server.pid)
    os.kill(server.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not exited(server.pid):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert server.returncode is None  # exited() did not reap it
    assert server.wait(10) == -signal.SIGKILL


@pytest.mark.parametrize("stop, ends_with", [
    (signal.SIGTERM, 128 + signal.SIGTERM),  # stop_on_sigterm: sys.exit
    (signal.SIGINT, -signal.SIGINT),  # Ctrl-C: KeyboardInterrupt, which Python ends by SIGINT
], ids=["SIGTERM", "Ctrl-C"])
def test_a_signal_to_the_bench_while_it_stops_its_server_waits_until_it_has(
        tmp_path: Path, stop: signal.Signals, ends_with: int) -> None:
    """A bench (a child here) stops a stubborn server; a SIGTERM or Ctrl-C sent to the bench
    during the grace ends the bench only after the server and its worker are killed (one
    acted on at once would skip the kill: both would outlive the bench)."""
    bench = textwrap.dedent(f"""
        import signal, subprocess, sys
        sys.path.insert(0, {str(ROOT / "bench")!r})
        from processes import stop_on_sigterm, stop_session
        # Ctrl-C as at a terminal: a test run started in the background of a shell (as CI
        # runs it) starts its processes with SIGINT ignored
        signal.signal(signal.SIGINT, signal.default_int_handler)
        stop_on_sigterm()
        server = subprocess.Popen([sys.executable, "-c", {STUBBORN!r}],
                                  stdout=subprocess.PIPE, start_new_session=True)
        assert server.stdout is not None
        print(server.pid, server.stdout.readline().decode().strip(), flush=True)
        input()  # until the test is ready
        stop_session(server, grace=3)
        print("not reached: the signal held back ends the bench here", flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", bench], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdin is not None and child.stdout is not None
    server, worker = (int(pid) for pid in child.stdout.readline().split())
    child.stdin.write("\n")
    child.stdin.flush()
    time.sleep(1)  # the bench is inside the grace now
    child.send_signal(stop)
    try:
        out, _ = child.communicate(timeout=30)
        assert child.returncode == ends_with
        assert out == ""
        assert not _alive(server)
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker)
    finally:
        _kill_if_alive(server, worker)
