"""Issue 43's dependency solving: what FastAPI's own ``solve_dependencies`` costs for the routes
a table calls at every tap, side by side with another tree.

    python bench/route_solving.py [--quick] [--repeats 3] [--baseline TREE]

For each tree, ``--repeats`` fresh processes in turn (``--child``), each on an SQLite file of
its own with one recorded World Gainer playout, build the application (``create_app``) and
call ``solve_dependencies`` for the route's own dependant 150 times, 30 times over, as
FastAPI's router calls it once it has the request (the application's ``authenticated``,
solved before any route's, is not in the figure: it is the same for both trees): a position
(``GET /matches/{id}/state?at=3&viewer=spectator``) and a recorded action's
(``POST /matches/{id}/actions``, the body already parsed). Printed: each process's fastest
and median microseconds a call of the 30, and the medians of those over the processes.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.utils import solve_dependencies
from fastapi.routing import APIRoute
from starlette.requests import Request
from trees import tree_name

from replay.api import create_app  # a run's tree's own: its folder is first on PYTHONPATH
from replay.service import Kiroku

BENCH = Path(__file__).resolve().parent
ROUTES = {"GET state": ("GET", "/matches/{match_id}/state", b"at=3&viewer=spectator", None),
          "POST action": ("POST", "/matches/{match_id}/actions", b"",
                          {"action": {"type": "end_turn", "seat": 1}})}


def _routes(app: FastAPI) -> Iterator[APIRoute]:
    for route in app.router.routes:
        for inner in getattr(getattr(route, "original_router", None), "routes", [route]):
            if isinstance(inner, APIRoute):
                yield inner


async def _solve(app: FastAPI, route: APIRoute, match_id: str, query: bytes,
                 body: Any) -> None:
    """One solve of ``route``'s dependant, as the router does it for a request."""
    scope: dict[str, Any] = {
        "type": "http", "method": next(iter(route.methods or {"GET"})),
        "path": route.path.replace("{match_id}", match_id), "query_string": query,
        "headers": [(b"host", b"bench")], "path_params": {"match_id": match_id}, "app": app,
        "kiroku.caller": None}  # what the application's ``authenticated`` leaves: a spectator
    async with AsyncExitStack() as stack:
        scope["fastapi_inner_astack"] = scope["fastapi_function_astack"] = stack
        solved = await solve_dependencies(request=Request(scope), dependant=route.dependant,
                                          body=body, async_exit_stack=stack,
                                          embed_body_fields=False)
        if solved.errors:
            raise RuntimeError(f"{route.path}: {solved.errors}")


async def child(calls: int, rounds: int) -> dict[str, tuple[float, float]]:
    """In a fresh process of the tree on ``sys.path``: fastest and median µs a solve."""
    with tempfile.TemporaryDirectory() as tmp:
        kiroku = Kiroku.open(f"sqlite:///{tmp}/solve.db")
        match_id = str(kiroku.simulate("worldgainer", 1, seed=3)[0])
        app = create_app(kiroku)
        found: dict[str, tuple[float, float]] = {}
        for name, (method, path, query, body) in ROUTES.items():
            route = next(r for r in _routes(app) if r.path == path and method in (r.methods or ()))
            times = []
            for _ in range(rounds):
                start = time.perf_counter()
                for _ in range(calls):
                    await _solve(app, route, match_id, query, body)
                times.append((time.perf_counter() - start) / calls * 1e6)
            found[name] = (min(times), statistics.median(times))
        kiroku.close()
    return found


def run_child(tree: Path, calls: int, rounds: int) -> dict[str, list[float]]:
    """One process of ``tree``."""
    out = subprocess.run([sys.executable, __file__, "--child", "--calls", str(calls),
                          "--rounds", str(rounds)], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree)
    result: dict[str, list[float]] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a second")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another Kiroku tree, measured beside this one")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--calls", type=int, default=150, help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=30, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child(args.calls, args.rounds))))
        return
    if args.quick:
        args.repeats, args.calls, args.rounds = 1, 20, 3
    trees = [(tree_name(BENCH.parent, "this tree"), BENCH.parent)]
    if args.baseline is not None:
        trees.append((tree_name(args.baseline.resolve(), "baseline"), args.baseline.resolve()))
    print(f"Kiroku, FastAPI's dependency solving for a tap's routes (python "
          f"{sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}): {args.calls} calls x {args.rounds}, {args.repeats} "
          f"process(es) a tree, µs a call, fastest/median of each process")
    runs: list[list[dict[str, list[float]]]] = [[] for _ in trees]
    for _ in range(args.repeats):
        for n, (_, tree) in enumerate(trees):
            runs[n].append(run_child(tree, args.calls, args.rounds))
    medians = []
    for (name, _), tree_runs in zip(trees, runs):
        median = {route: statistics.median(run[route][0] for run in tree_runs)
                  for route in ROUTES}
        medians.append(median)
        print(f"{name}: " + "; ".join(
            f"{route} {median[route]:.0f} (runs " + ", ".join(
                f"{run[route][0]:.0f}/{run[route][1]:.0f}" for run in tree_runs) + ")"
            for route in ROUTES))
    if len(medians) == 2:
        print("this tree / baseline (fastest): " + ", ".join(
            f"{route} x{medians[0][route] / medians[1][route]:.2f}" for route in ROUTES))


if __name__ == "__main__":
    main()
