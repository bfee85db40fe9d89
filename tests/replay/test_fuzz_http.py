"""A bounded schemathesis run over the service's own OpenAPI document, against a real server:
every generated request, valid (positive) or not (negative), from the organiser (who gets past
every access check) and from a caller without a credential, is answered below 500 with the
documented error body, and a refused request stores nothing (the store's event count stays).
Each answer also conforms to the document (schemathesis' conformance checks: a status, a
content type, a body and headers it lists) and carries the hardening headers."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from replay.api import create_app
from replay.api.hardening import HARDENING
from replay.service import Kiroku
from tests.replay.conftest import Server, serve


def _operations() -> list[Any]:
    kiroku = Kiroku.open("sqlite:///:memory:")
    try:
        document = create_app(kiroku).openapi()
    finally:
        kiroku.close()
    return [result.ok() for result in schemathesis.openapi.from_dict(document)
            .get_all_operations()]


OPERATIONS = _operations()
MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
CONFORMANCE = [status_code_conformance, content_type_conformance, response_schema_conformance,
               response_headers_conformance]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own, so the fuzzer's writes stay out of the other tests' store."""
    yield from serve(tmp_path_factory.mktemp("fuzz") / "fuzz.db")


def _events(server: Server) -> int:
    path = Path(server.db_url.removeprefix("sqlite:///"))
    with sqlite3.connect(path) as con:
        return int(con.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0])


@pytest.mark.parametrize("caller", ["organiser", "spectator"])
@pytest.mark.parametrize("mode", MODES, ids=[m.value for m in MODES])
@pytest.mark.parametrize("operation", OPERATIONS, ids=[o.label for o in OPERATIONS])
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_request_gets_a_5xx_or_an_undocumented_answer_or_stores_anything_when_refused(
        fuzzed: Server, operation: Any, mode: GenerationMode, caller: str,
        data: st.DataObject) -> None:
    case = data.draw(operation.as_strategy(generation_mode=mode))
    headers = ({"authorization": f"Bearer {fuzzed.organiser_token}"}
               if caller == "organiser" else {})
    before = _events(fuzzed)
    response = case.call(base_url=fuzzed.base, headers=headers, timeout=30)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text)
    case.validate_response(response, checks=CONFORMANCE, headers=headers)
    for name, value in HARDENING:
        assert response.headers.get(name.decode()) == [value.decode()], (name, response.headers)
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"code", "reason", "message", "details"}, body
        assert _events(fuzzed) == before, ("a refused request stored events", body)
