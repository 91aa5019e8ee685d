"""The site in a real browser: Debian's headless Chromium driven by Playwright.

Pages load with no console error (which includes anything the CSP blocks), a replay steps
forward and back with its Previous/Next links, an event's standings as the browser shows
them are the event service's and its table's replay link leads to the replay, and
screenshots of a season's standings, of an event and of a replay are written to
``DECKHAND_SCREENSHOTS`` (default: the test's temporary
folder; ``docs/images`` holds copies made with
``DECKHAND_SCREENSHOTS=docs/images .venv/bin/python -m pytest tests/web/test_browser.py``).
Without Chromium (``apt-get install chromium``; ``.ci/run`` installs it) the tests are
skipped, saying so — and fail under ``.ci/run`` (``tests.system``).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from playwright.async_api import Browser, ConsoleMessage, Page, async_playwright

from bot.services.events.service import EventService
from bot.web import paths
from bot.web.app import make_app
from storage.connect import open_database
from tests.system import require
from tests.web.world import GUILD, World, standing_cells

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture
async def base(world: World) -> AsyncIterator[str]:
    """The site's address on 127.0.0.1."""
    db = await open_database(world.path)
    server = TestServer(make_app(db), host="127.0.0.1")
    await server.start_server()
    yield str(server.make_url("")).rstrip("/")
    await server.close()
    await db.close()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    require(Path(CHROMIUM), "chromium")
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        await b.close()


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("DECKHAND_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def _page(browser: Browser, problems: list[str]) -> Page:
    page = await browser.new_page(viewport={"width": 1000, "height": 900})

    def console(msg: ConsoleMessage) -> None:
        if msg.type in ("error", "warning"):
            problems.append(f"{msg.type}: {msg.text}")

    page.on("console", console)
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    # (a load cut short by the next click, e.g. the icon's, is not the page's fault)
    page.on("requestfailed", lambda req: None if req.failure == "net::ERR_ABORTED"
            else problems.append(f"failed: {req.url} {req.failure}"))
    return page


async def test_pages_load_cleanly_and_a_replay_steps_both_ways(
    browser: Browser, base: str, world: World, tmp_path: Path
) -> None:
    problems: list[str] = []
    page = await _page(browser, problems)
    s = world.slugs
    for path in ("/", paths.league(s, world.club), paths.player(s, world.club, 398475029384756101)):
        response = await page.goto(base + path)
        assert response is not None and response.ok, path
    shots = _shots(tmp_path)

    await page.goto(base + paths.season(s, world.club, 1))
    assert await page.locator("svg.chart polyline").count() >= 5
    await page.screenshot(path=str(shots / "web-standings.png"), full_page=True)

    await page.goto(base + paths.event(s, world.club, world.events["Autumn Swiss"]))
    rows = page.locator("table.standings tbody tr")
    shown = [[c.strip() for c in await rows.nth(i).locator("td").all_inner_texts()]
             for i in range(await rows.count())]
    db = await open_database(world.path)
    try:
        expected = await EventService(db).standings(GUILD, world.events["Autumn Swiss"])
    finally:
        await db.close()
    assert shown == standing_cells(expected)
    await page.screenshot(path=str(shots / "web-event.png"), full_page=True)
    await page.get_by_role("link", name="Replay").click()
    assert (await page.locator("#step").inner_text()).startswith("Step 0 of ")

    await page.goto(base + paths.match(s, world.club, 6))  # the Back Alley game
    step = page.locator("#step")
    assert (await step.inner_text()).startswith("Step 0 of ")
    for _ in range(3):
        await page.get_by_role("link", name="Next ▶").click()
    assert (await step.inner_text()).startswith("Step 3 of ")
    await page.get_by_role("link", name="◀ Previous").click()
    assert (await step.inner_text()).startswith("Step 2 of ")
    assert await page.get_by_role("columnheader", name="Hand", exact=True).count() == 0
    for _ in range(14):
        await page.get_by_role("link", name="Next ▶").click()
    await page.get_by_role("link", name="Show every hand").click()
    assert (await step.inner_text()).startswith("Step 16 of ")
    assert await page.get_by_role("columnheader", name="Hand", exact=True).count() == 1
    await page.screenshot(path=str(shots / "web-replay.png"), full_page=True)
    assert problems == []
