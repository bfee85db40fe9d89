"""How many threads a server process runs requests on (replay.threads): ``kiroku serve
--threads``, else ``KIROKU_THREADS``, else two; the application sets anyio's default thread
limiter, which its plain-function routes and dependencies take from, when it starts."""

from __future__ import annotations

import gc
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio.to_thread
import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from replay.api import connections, create_app, create_app_from_environment
from replay.service import Kiroku
from replay.threads import DEFAULT_THREADS, ThreadsSettingError, threads_setting
from tests.cli.conftest import kiroku as run_kiroku
from tests.replay.conftest import serve


def _threads_in_use(app: FastAPI) -> int:
    """The thread limit the application runs requests under once started (its lifespan run,
    as a server runs it), read on its own event loop."""

    async def started() -> int:
        async with app.router.lifespan_context(app):
            return int(anyio.to_thread.current_default_thread_limiter().total_tokens)

    return anyio.run(started)


def test_a_server_runs_requests_on_two_threads_by_default(
        memory_kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIROKU_THREADS", raising=False)
    assert DEFAULT_THREADS == 2
    assert _threads_in_use(create_app(memory_kiroku)) == 2


def test_the_threads_given_are_the_threads_used(
        memory_kiroku: Kiroku, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIROKU_THREADS", "7")
    assert _threads_in_use(create_app(memory_kiroku, threads=5)) == 5


def test_each_worker_process_takes_its_threads_from_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIROKU_DATABASE_URL", f"sqlite:///{tmp_path / 'k.db'}")
    monkeypatch.setenv("KIROKU_THREADS", "3")
    app = create_app_from_environment()
    try:
        assert _threads_in_use(app) == 3
    finally:
        app.state.kiroku.close()
        gc.unfreeze()  # a worker freezes its heap for its life (replay.api.serving); not ours


@pytest.mark.parametrize("raw", ["0", "-1", "257", "two", "", " ", "1.5"])
def test_a_bad_threads_setting_is_refused_by_name(
        raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIROKU_THREADS", raw)
    with pytest.raises(ThreadsSettingError, match="KIROKU_THREADS .* 1 to 256"):
        threads_setting()


def test_serve_refuses_a_thread_count_out_of_range(tmp_path: Path) -> None:
    result = run_kiroku(f"sqlite:///{tmp_path / 'k.db'}", "serve", "--threads", "0", ok=False)
    assert result.exit_code == 2
    assert "--threads" in result.output and "1<=x<=256" in result.output


@pytest.mark.parametrize("options", [("--threads", "1"), ("--threads", "1", "--workers", "2")])
def test_a_server_on_one_thread_answers_clients_at_once(
        tmp_path: Path, options: tuple[str, ...]) -> None:
    for server in serve(tmp_path / "k.db", *options):
        urls = [f"{server.base}/matches"] * 40
        with ThreadPoolExecutor(8) as clients:
            answers = list(clients.map(lambda url: httpx.get(url, timeout=30).status_code,
                                       urls))
        assert answers == [200] * 40


def test_serve_refuses_a_bad_threads_setting_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIROKU_THREADS", "many")
    result = run_kiroku(f"sqlite:///{tmp_path / 'k.db'}", "serve", ok=False)
    assert result.exit_code == 2
    assert "KIROKU_THREADS" in result.output and "'many'" in result.output


def test_serve_hands_its_threads_to_the_app_and_to_each_worker_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("KIROKU_THREADS", "KIROKU_DATABASE_URL", "KIROKU_KEY_FILE"):
        monkeypatch.setenv(name, "")  # restored after the test: serve exports them
        monkeypatch.delenv(name)
    served: list[tuple[object, str | None]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: served.append(
        (app, os.environ.get("KIROKU_THREADS"))))
    monkeypatch.setattr(connections, "listening_socket", lambda config: None)
    monkeypatch.setattr(connections, "run_workers", lambda config, sock: served.append(
        (config.app, os.environ.get("KIROKU_THREADS"))))
    db = f"sqlite:///{tmp_path / 'k.db'}"
    run_kiroku(db, "serve", "--no-demo", "--threads", "3", "--workers", "1")
    run_kiroku(db, "serve", "--no-demo", "--threads", "5", "--workers", "2")
    (one, _), (workers, exported) = served
    assert isinstance(one, FastAPI) and one.state.threads == 3
    assert workers == "replay.api:create_app_from_environment" and exported == "5"
