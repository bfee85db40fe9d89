"""The routes a table calls at every tap name no dependency of their own (issue 43): FastAPI
solves each named dependency as a small request of its own, so these routes read the service
and the caller from the request (``wire.kiroku_of``, ``wire.caller_of``), and the match's id
and the asked viewer as plain parameters (``wire.audience_of``). What the OpenAPI document
says of them is unchanged: the caller is still the application's ``authenticated``
dependency, with its two security schemes, and the id and the viewer the same parameters."""

from __future__ import annotations

import re
from collections.abc import Iterator

import anyio
import httpx
import pytest
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from replay.api import create_app
from replay.service import Kiroku

PER_TAP = [("POST", "/matches/{match_id}/actions"), ("GET", "/matches/{match_id}/legal"),
           ("GET", "/matches/{match_id}/turn"), ("GET", "/matches/{match_id}"),
           ("GET", "/matches/{match_id}/state")]


def _routes(app: FastAPI) -> Iterator[APIRoute]:
    for route in app.router.routes:
        for inner in getattr(getattr(route, "original_router", None), "routes", [route]):
            if isinstance(inner, APIRoute):
                yield inner


def _route(app: FastAPI, method: str, path: str) -> APIRoute:
    return next(r for r in _routes(app) if r.path == path and method in (r.methods or ()))


def _calls(dependant: Dependant) -> Iterator[object]:
    for sub in dependant.dependencies:
        yield sub.call
        yield from _calls(sub)


@pytest.fixture
def app(memory_kiroku: Kiroku) -> FastAPI:
    return create_app(memory_kiroku)


@pytest.mark.parametrize(("method", "path"), PER_TAP)
def test_a_route_of_every_tap_names_no_dependency(
        app: FastAPI, method: str, path: str) -> None:
    assert list(_calls(_route(app, method, path).dependant)) == []


@pytest.mark.parametrize(("method", "path"), PER_TAP)
def test_a_route_of_every_tap_still_documents_both_credentials(
        app: FastAPI, method: str, path: str) -> None:
    operation = app.openapi()["paths"][path][method.lower()]
    assert operation["security"] == [{"HTTPBearer": []}, {"APIKeyCookie": []}]


def test_the_caller_read_from_the_request_decides_the_answer(app: FastAPI) -> None:
    """A bad token is still refused before the route, and the route sees the spectator
    without one (the match's id given by a prefix, which the route reads in the store)."""
    kiroku = app.state.kiroku
    match_id = kiroku.simulate("worldgainer", 1, seed=3)[0]

    async def asked() -> tuple[httpx.Response, httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as client:
            return (await client.get(f"/matches/{match_id}/state",
                                     headers={"authorization": "Bearer nope"}),
                    await client.get(f"/matches/{str(match_id)[:8]}/state"))

    refused, seen = anyio.run(asked)
    assert refused.status_code == 401
    assert refused.json()["code"] == "unauthenticated"
    assert seen.status_code == 200, seen.text
    assert seen.json()["viewer"] == "spectator"


def test_every_route_of_a_tap_takes_a_match_by_a_prefix_of_its_id(app: FastAPI) -> None:
    """Each reads the match a prefix names (``wire.match_named``), as ``match_ref`` resolves
    it for the other routes; an unknown prefix is a 404 ``match_not_found``."""
    kiroku = app.state.kiroku
    match_id = kiroku.simulate("worldgainer", 1, seed=3)[0]
    prefix = str(match_id)[:8]

    async def asked() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as client:
            answers = [await client.request(method, path.replace("{match_id}", ref),
                                            json={"action": {"type": "end_turn", "seat": 1}}
                                            if method == "POST" else None)
                       for ref in (prefix, "ffffffff") for method, path in PER_TAP]
            return answers

    answers = anyio.run(asked)
    found, unknown = answers[:len(PER_TAP)], answers[len(PER_TAP):]
    # a spectator: read, or refused for who it is (401 on the seats' routes), never a 404
    assert [a.status_code == 404 for a in found] == [False] * len(PER_TAP), [
        a.text for a in found]
    assert [(a.status_code, a.json()["code"]) for a in unknown] == [
        (404, "match_not_found")] * len(PER_TAP)


def _sample(path: str) -> str:
    """A concrete path of a route's template: each id a UUID, each other parameter ``1``."""
    return re.sub(r"\{(\w+)(:\w+)?\}",
                  lambda m: "0b9c2f2e-1111-2222-3333-444455556666"
                  if m.group(1).endswith("id") else "1", path)


def test_the_order_of_the_routers_decides_no_answer(app: FastAPI) -> None:
    """The application includes the routers of every tap first (replay.api.create_app): that
    is only the order in which the router tries them, since no request a route of one router
    answers is one a route of another router would answer too."""
    routers = [(route.original_router, list(_routes_of(route))) for route in app.router.routes
               if hasattr(route, "original_router")]
    for router, routes in routers:
        for route in routes:
            sample = _sample(route.path)
            others = [other.path for elsewhere, its in routers if elsewhere is not router
                      for other in its if other.path_regex.match(sample)
                      and set(other.methods or ()) & set(route.methods or ())]
            assert others == [], (route.path, others)


def _routes_of(included: object) -> Iterator[APIRoute]:
    for inner in getattr(getattr(included, "original_router", None), "routes", []):
        if isinstance(inner, APIRoute):
            yield inner
