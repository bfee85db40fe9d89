"""How a bench runs the servers it measures: each in a session of its own, stopped with
everything it started when the bench ends, Ctrl-C and SIGTERM included."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

STOP_GRACE = 20.0  # seconds a server has to stop when asked, before its session is killed
EXIT_POLL = 0.05  # seconds between looks at whether it has
HELD_BACK = {signal.SIGTERM, signal.SIGINT}  # signals to the bench that wait while it stops one


@contextmanager
def started(command: list[str], cwd: Path, env: dict[str, str] | None = None,
            log: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` running in ``cwd`` in a session of its own, its output in ``log`` (whose
    last lines are printed if the run fails; discarded without one), stopped on exit by
    ``stop_session``, so that no worker of a server outlives the bench (``stop_on_sigterm``
    lets a bench stopped by SIGTERM get here)."""
    with open(log or os.devnull, "wb") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield process
    except BaseException:
        if log is not None:
            print(f"--- {log.name}:\n" + "\n".join(log.read_text(errors="replace")
                                                  .splitlines()[-15:]), file=sys.stderr)
        raise
    finally:
        stop_session(process)


def stop_session(process: subprocess.Popen[bytes], grace: float = STOP_GRACE) -> None:
    """Stop ``process``, the leader of a session of its own, and every process of that
    session: SIGTERM, up to ``grace`` seconds for it to exit, then SIGKILL to the whole
    process group, then reap it. The group is killed while its leader is still unreaped
    (``exited``), so its number cannot yet belong to another process. A SIGTERM or a Ctrl-C
    to the bench meanwhile waits until this is done (then ends the bench as it would have:
    ``stop_on_sigterm``, ``KeyboardInterrupt``); acted on at once, it would skip the kill."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_BACK)
    try:
        if process.returncode is None:  # not reaped: Popen.terminate would reap it first
            with suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while not exited(process.pid) and time.monotonic() < deadline:
            time.sleep(EXIT_POLL)
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def exited(pid: int) -> bool:
    """Whether the child ``pid`` has exited, without reaping it (``WNOWAIT``): until it is
    reaped, its process id (and its group's) stays its own. True too for a child already
    reaped."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def stop_on_sigterm() -> None:
    """A SIGTERM ends the bench as Ctrl-C does, through its ``finally`` blocks (which stop
    its servers), instead of at once."""
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
