"""The standings site over a database of real games: every page answers with the security
headers, only published leagues exist, only GET/HEAD, plain errors, and — crawled over
every page and every replay step — a running game's hands and users' ids never appear."""

from __future__ import annotations

import re
from collections import deque

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from bot.web import paths
from bot.web.app import SECURITY_HEADERS
from bot.web.site import Site
from tests.web.world import ANN, BEN, CY, DEE, FINISHED, GUILD, World, start_links

Client = TestClient[web.Request, web.Application]
_HREF = re.compile(r'href="(/[^"]*)"')


def _headers_ok(response: object) -> None:
    headers = response.headers  # type: ignore[attr-defined]
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, name
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert "Server" not in headers


async def crawl(client: Client, w: World) -> dict[str, str]:
    """Every page reachable from the front, the guild and the league page: path -> body."""
    seen: dict[str, str] = {}
    todo = deque(start_links(w))
    while todo:
        path = todo.popleft().replace("&amp;", "&")
        if path in seen:
            continue
        r = await client.get(path)
        assert r.status == 200, path
        _headers_ok(r)
        body = await r.text()
        seen[path] = body
        if r.content_type == "text/html":
            todo.extend(_HREF.findall(body))
    return seen


async def test_every_page_answers_and_no_hidden_card_or_id_appears(
    client: Client, world: World
) -> None:
    pages = await crawl(client, world)
    replays = [p for p in pages if "/m/" in p]
    assert len([p for p in pages if "/p/" in p]) == 4  # Ann, Ben, Cy, Dee
    assert len({p.split("?")[0] for p in replays}) == len(FINISHED)
    assert any("hands=1" in p for p in replays) and len(replays) > 300  # every step, twice
    running = world.running_markup()
    assert len(running) == 2
    for path, body in pages.items():
        for user in (ANN, BEN, CY, DEE, GUILD):
            assert str(user) not in body and str(user) not in path, path
        for hand in running:
            assert hand not in body, f"{path} shows a running game's hand"
        assert "<b>" not in body, path  # Dee's name is escaped, never markup
        assert "Secret" not in body, path
        if "/m/" in path and "hands=1" not in path:
            assert "<th>Hand</th>" not in body, path
    assert any("Dee &lt;b&gt;&amp;" in b for b in pages.values())


async def test_replay_steps_forward_back_and_reveals_hands_only_on_request(
    client: Client, world: World
) -> None:
    first = paths.match(world.slugs, world.club, 1)
    body = await (await client.get(first)).text()
    assert "The deal." in body and "Step 0 of " in body
    last = int(re.search(r"Step 0 of (\d+)", body).group(1))  # type: ignore[union-attr]
    step2 = await (await client.get(f"{first}?step=2")).text()
    assert "Step 2 of" in step2 and f"{first}?step=1" in step2 and f"{first}?step=3" in step2
    end = await (await client.get(f"{first}?step=999999")).text()
    assert f"Step {last} of {last}" in end and 'rel="next"' not in end
    shown = await (await client.get(f"{first}?step=1&hands=1")).text()
    assert "<th>Hand</th>" in shown and 'class="card' in shown


async def test_unknown_unpublished_and_foreign_things_are_404(
    client: Client, world: World
) -> None:
    s = world.slugs
    club = paths.league(s, world.club)
    missing = [
        "/nope", "/g/zz", "/l/not-a-slug", paths.guild(s, GUILD + 1),
        paths.league(s, world.secret), paths.league(s, world.default),
        paths.season(s, world.secret, 1), paths.season(s, world.club, 2),
        f"{club}/s/0", paths.player(s, world.club, 12345),
        paths.player(s, world.secret, ANN), f"{club}/p/{s.encode('player', world.secret, ANN)}",
        paths.match(s, world.club, 10_000), paths.match(s, world.club, len(FINISHED) + 1),
        "/static/nothing.css",
    ]
    for path in missing:
        r = await client.get(path)
        assert r.status == 404, path
        _headers_ok(r)
        assert "Traceback" not in await r.text()


async def test_only_get_and_head(client: Client, world: World) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        r = await client.request(method, paths.league(world.slugs, world.club))
        assert r.status == 405 and r.headers["Allow"] == "GET, HEAD"
        _headers_ok(r)
    head = await client.head("/")
    assert head.status == 200 and await head.read() == b""


async def test_a_failing_page_is_a_plain_500(
    client: Client, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: Site, slug: str, number: int) -> None:
        raise RuntimeError("secret detail of the failure")

    monkeypatch.setattr(Site, "season", broken)
    r = await client.get(paths.season(world.slugs, world.club, 1))
    body = await r.text()
    assert r.status == 500 and "secret detail" not in body and "Traceback" not in body
    _headers_ok(r)
