"""``kiroku serve``: the HTTP service (FastAPI on uvicorn), one process or uvicorn's worker
processes on the one store. Imported when asked for (``cli.lazy``): the other commands import
neither uvicorn nor the HTTP application. What it starts with is looked up in
``replay.api.connections`` when it runs (``connections.run_workers``), where the tests put
their stand-ins."""

from __future__ import annotations

import os

import click
import uvicorn

from cli.common import service
from replay.api import connections, create_app, serving
from replay.api.heavy import HeavyShareSettingError, caller_share
from replay.threads import DEFAULT_THREADS, MOST_THREADS, ThreadsSettingError, threads_setting


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--demo/--no-demo", default=True, show_default=True,
              help="Record one demo match first when the store is empty.")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Server processes on the one store (uvicorn's workers) [default: one per "
                   "core this process may run on, on a database file or PostgreSQL; 1 on an "
                   "in-memory store, which processes cannot share]. On SQLite their writes "
                   "take turns on the file's write gate; on Linux each listens on a socket "
                   "of its own (bench/RESULTS.md).")
@click.option("--threads", type=click.IntRange(1, MOST_THREADS), default=None,
              help=f"Threads each server process runs requests on [default: "
                   f"KIROKU_THREADS, else {DEFAULT_THREADS}]. Few is faster: the work "
                   "holds Python's interpreter lock (bench/RESULTS.md).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, demo: bool, workers: int | None,
          threads: int | None) -> None:
    """Run the HTTP service (OpenAPI docs at /docs)."""
    url = ctx.obj["db"]
    try:
        threads = threads_setting(threads)
        caller_share()
    except (ThreadsSettingError, HeavyShareSettingError) as exc:
        raise click.UsageError(str(exc)) from None
    if workers is None:
        workers = connections.default_workers(url)
    elif workers > 1 and connections.in_memory(url):
        raise click.UsageError("--workers needs a database file or PostgreSQL: an in-memory "
                               "store cannot be shared between processes.")
    with service(ctx) as kiroku:
        token = kiroku.credentials.ensure_organiser()
        if token:
            click.echo("First start: the organiser's credential (shown only this once; "
                       "'kiroku credentials issue --role organiser' makes another):\n"
                       f"    {token}\n"
                       "Send it as 'Authorization: Bearer TOKEN'.", err=True)
        if demo:
            made = kiroku.ensure_demo()
            if made:
                click.echo(f"Recorded a demo match {made}: try GET /matches/{made}/transcript")
        click.echo(f"Kiroku on {ctx.obj['db']} at http://{host}:{port} (docs: /docs)"
                   + (f", {workers} worker processes" if workers > 1 else ""))
        if workers == 1:
            uvicorn.run(serving(create_app(kiroku, threads)), host=host, port=port,
                        log_level="info", http=connections.HTTP,
                        timeout_keep_alive=connections.KEEP_ALIVE_SECONDS)
            return
    # each worker opens the store itself, from the environment it inherits
    os.environ["KIROKU_DATABASE_URL"] = url
    os.environ["KIROKU_THREADS"] = str(threads)
    if ctx.obj["keys"]:
        os.environ["KIROKU_KEY_FILE"] = ctx.obj["keys"]
    config = uvicorn.Config("replay.api:create_app_from_environment", factory=True,
                            workers=workers, host=host, port=port, log_level="info",
                            http=connections.HTTP,
                            timeout_worker_healthcheck=connections.HEALTHCHECK_SECONDS,
                            timeout_keep_alive=connections.KEEP_ALIVE_SECONDS)
    try:
        sock = connections.listening_socket(config)
    except OSError as exc:
        raise click.ClickException(f"Cannot listen on {host}:{port}: {exc.strerror or exc}."
                                   ) from None
    connections.run_workers(config, sock)
