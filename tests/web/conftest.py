"""The web viewer's tests: a real ``kiroku serve`` on a SQLite file holding one golden match per
game, and Debian's Chromium driven by Playwright (never a downloaded browser). Every request a
page makes to another host is aborted and remembered, so a test can assert none was tried."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from replay.service import Kiroku
from tests.replay.conftest import Server, serve

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip("Chromium is not installed (apt-get install chromium); in CI (CI set) these "
                "tests run and fail without it", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402

LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def card_ids(value: Any) -> Counter[str]:
    """Every card of a position's view, counted by the id its chip carries: each dict with a
    name and an ``id`` (else a ``card``), the way the boards draw them."""
    found: Counter[str] = Counter()
    if isinstance(value, dict):
        card = value.get("id", value.get("card"))
        if isinstance(value.get("name"), str) and isinstance(card, str):
            found[card] += 1
        for inner in value.values():
            found += card_ids(inner)
    elif isinstance(value, list):
        for item in value:
            found += card_ids(item)
    return found


def golden_matches() -> dict[str, Path]:
    """One golden match per game: the first of its directory."""
    return {game.name: sorted(game.glob("*/match.jsonl"))[0]
            for game in sorted(GOLDEN.iterdir()) if game.is_dir()}


def viewer_server(db_path: Path) -> Iterator[Server]:
    """A server over a fresh SQLite file holding one golden match per game."""
    kiroku = Kiroku.open("sqlite:///" + str(db_path))
    try:
        for path in golden_matches().values():
            kiroku.import_match(path.read_bytes())
    finally:
        kiroku.close()
    yield from serve(db_path)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server the viewer's tests share."""
    yield from viewer_server(tmp_path_factory.mktemp("viewer") / "viewer.db")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Watched:
    """A page with what it tried that it should not: requests to other hosts, console errors
    (a Content-Security-Policy refusal among them), a game's board falling back to the generic
    one, and uncaught exceptions."""

    page: Page
    context: BrowserContext
    external: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.external == [], f"requests to other hosts: {self.external}"
        assert self.errors == [], f"errors in the page: {self.errors}"


def guard(context: BrowserContext) -> Watched:
    page = context.new_page()
    watched = Watched(page, context)

    def route(handle: Any) -> None:
        url = handle.request.url
        if urlparse(url).hostname in LOCAL_HOSTS:
            handle.continue_()
        else:
            watched.external.append(url)
            handle.abort()

    context.route("**/*", route)
    page.on("console", lambda m: watched.errors.append(m.text) if m.type == "error" or (
        m.type == "warning" and "generic one" in m.text) else None)  # a board fell back
    page.on("pageerror", lambda e: watched.errors.append(str(e)))
    return watched


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    """A fresh page (1280x900) whose requests to other hosts are aborted and listed."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield guard(context)
    finally:
        context.close()
