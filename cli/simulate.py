"""``kiroku simulate``: random legal playouts recorded with a progress bar. ``cli.main``
registers it by name and click imports it when asked for (``cli.lazy``), so that the
commands a scorekeeper runs do not import rich's progress module (issue 43)."""

from __future__ import annotations

import click

from cli import bars
from cli.common import parse_options, seen_as, service


@click.command()
@click.argument("game")
@click.option("-n", "count", default=1, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--players", default=2, show_default=True, type=int)
@click.option("--option", "options", multiple=True, help="Regulation option NAME=VALUE.")
@click.pass_context
def simulate(ctx: click.Context, game: str, count: int, seed: int, players: int,
             options: tuple[str, ...]) -> None:
    """Record N random legal playouts of GAME, labelled as simulated ('match list
    --simulated' lists them); each line as its match is done, with a progress bar."""
    with service(ctx) as kiroku, bars.progress() as bar:
        task = bar.add_task(f"simulating {game}", total=count)
        for match_id in kiroku.simulated(game, count, seed, players, parse_options(options)):
            s = kiroku.summary(seen_as(kiroku, match_id))
            r = s["result"] or {}
            click.echo(f"{match_id}  {s['positions']} actions  {r.get('reason')} "
                       f"winners={r.get('winners')}")
            bar.advance(task)
