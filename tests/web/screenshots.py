"""Screenshots of every game's board for docs/viewer.md (the board alone, in a 1280-wide window,
at the middle position of one golden match per game): ``python -m tests.web.screenshots``
from the repository's root."""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.web.conftest import CHROMIUM, ROOT, golden_matches, guard, viewer_server


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for server in viewer_server(Path(tmp) / "shots.db"):
            with server.client() as anonymous, sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                watched = guard(context)
                for game in golden_matches():
                    match = anonymous.get("/matches", params={"game": game}).json()[0]
                    last = anonymous.get(f"/matches/{match['match_id']}/state").json()
                    position = last["positions"] // 2
                    watched.page.goto(f"{server.base}/watch/{match['match_id']}#at={position}")
                    watched.page.wait_for_selector(
                        f"#entries li.current[data-position='{position}']")
                    watched.page.wait_for_selector(f"#board[data-position='{position}']")
                    # the controls stick to the top of the window: not over the board's shot
                    watched.page.evaluate(
                        "document.querySelector('.controls').style.position = 'static'")
                    watched.page.locator("#board").screenshot(path=str(out / f"{game}.png"))
                    print(out / f"{game}.png")
                watched.assert_clean()
                browser.close()


if __name__ == "__main__":
    main()
