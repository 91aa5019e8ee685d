"""The standings site over a database of real games: every page answers with the security
headers, only published leagues (and their events) exist, only GET/HEAD, plain errors,
and — crawled over every page, event and replay step — a running game's hands and users'
ids never appear; an event page's standings are the event service's."""

from __future__ import annotations

import html
import re
from collections import deque

import pytest
from aiohttp import ClientResponse, web
from aiohttp.test_utils import TestClient

from bot.render import renderer
from bot.render.markup import markdown_lines
from bot.render.steps import event_lines
from bot.render.table import table_message
from bot.services import replays
from bot.services.events.service import EventService
from bot.services.tables import SeatInfo, TableResult, TableStatus
from bot.web import paths
from bot.web.app import SECURITY_HEADERS
from bot.web.html import rich
from bot.web.site import Site
from storage.connect import open_database
from tests.web.world import (
    ANN,
    EVENTS,
    FINISHED,
    GUILD,
    HOSTILE_NAMES,
    SECRET_MATCH,
    USERS,
    World,
    standing_cells,
    start_links,
)

Client = TestClient[web.Request, web.Application]
#: Dee's name is markup here: every page must show it escaped.
WORLD_NAMES = HOSTILE_NAMES
_HREF = re.compile(r'href="(/[^"]*)"')
_LANG_PARAMETER = re.compile(r"[?&]lang=([^&]*)")


def _headers_ok(response: ClientResponse) -> None:
    headers = response.headers
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, name
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert "Server" not in headers


def _language_of(path: str) -> str | None:
    found = _LANG_PARAMETER.search(path)
    return found[1] if found else None


async def crawl(client: Client, w: World, start: list[str] | None = None) -> dict[str, str]:
    """Every page reachable from the front, the guild and the league page (or ``start``),
    in the language it starts in (the language switch's links are not followed):
    path -> body."""
    seen: dict[str, str] = {}
    todo = deque(start_links(w) if start is None else start)
    lang = _language_of(todo[0])
    while todo:
        path = todo.popleft().replace("&amp;", "&")
        if path in seen or (_language_of(path) != lang and not path.startswith("/static/")):
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
    club_events = [name for name, spec in EVENTS.items() if spec[4] == "club"]
    assert len([p for p in pages if "/e/" in p]) == len(club_events)
    assert len({p.split("?")[0] for p in replays}) == len(FINISHED)
    assert any("hands=1" in p for p in replays) and len(replays) > 300  # every step, twice
    running = world.running_markup()
    assert len(running) == 4
    for path, body in pages.items():
        for user in (*USERS, GUILD):
            assert str(user) not in body and str(user) not in path, path
        for hand in running:
            assert hand not in body, f"{path} shows a running game's hand"
        assert "<b>" not in body, path  # Dee's name is escaped, never markup
        assert "Secret" not in body, path
        assert "Hidden Cup" not in body and "Loose Event" not in body, path
        if "/m/" in path and "hands=1" not in path:
            assert "<th>Hand</th>" not in body, path
    assert any("Dee &lt;b&gt;&amp;" in b for b in pages.values())


async def test_replay_steps_forward_back_and_reveals_hands_only_on_request(
    client: Client, world: World
) -> None:
    first = paths.match(world.slugs, world.club, 1)
    body = await (await client.get(first)).text()
    assert '<p class="move">The deal</p>' in body and "Step 0 of " in body
    steps = re.search(r"Step 0 of (\d+)", body)
    assert steps is not None
    last = int(steps.group(1))
    step2 = await (await client.get(f"{first}?step=2")).text()
    assert "Step 2 of" in step2 and f"{first}?step=1" in step2 and f"{first}?step=3" in step2
    end = await (await client.get(f"{first}?step=999999")).text()
    assert f"Step {last} of {last}" in end and 'rel="next"' not in end
    shown = await (await client.get(f"{first}?step=1&hands=1")).text()
    assert "<th>Hand</th>" in shown and 'class="card' in shown


#: What the replay page once showed instead of the table: the view's raw keys and values.
RAW = re.compile(r"History|To act|Hand counts|Direction|Trump [SHDC]\b|Contracts tricks"
                 r"|Left at|Discard top|Team tricks|type: |: None|True|False|\*\*")


async def test_a_replay_step_shows_what_the_table_message_showed(
    client: Client, world: World
) -> None:
    """Each game's replay page draws the step with the table message's own lines (the
    game's renderer on the spectator view) and the move's events, in HTML: no raw view
    keys, no Discord markdown."""
    db = await open_database(world.path)
    try:
        for match, (game, _, _) in enumerate(FINISHED, start=1):
            first = await replays.replay_step(db, match, 0, hands=False, league_id=world.club)
            assert first is not None and first.game == game
            for step in sorted({0, 1, 2, first.last // 2, first.last}):
                rep = await replays.replay_step(db, match, step, hands=False,
                                                league_id=world.club)
                assert rep is not None
                body = await (await client.get(paths.match(world.slugs, world.club, match,
                                                           step))).text()
                names = [str(n) for n in rep.names]
                table = renderer(game).table(rep.public, names)
                message = table_message(_result_of(rep))
                assert message.embed is not None
                assert message.embed.description == "\n".join(markdown_lines(table))
                for line in [*table, *event_lines(game, rep.events, names)]:
                    assert rich(line) in body, (game, step, str(line))
                text = html.unescape(re.sub(r"<[^>]+>", "", body))
                assert not RAW.search(text), (game, step, RAW.search(text))
    finally:
        await db.close()


def _result_of(rep: replays.ReplayStep) -> TableResult:
    """The table message's input at a replay's step (public part only)."""
    seats = tuple(SeatInfo(i, n, None, "normal") for i, n in enumerate(rep.names))
    return TableResult(
        table_id=1, channel_id=1, guild_id=GUILD, game=rep.game, title=rep.game,
        status=TableStatus.PLAYING, version=rep.step, host_id=0, seats=seats, options={},
        turn_timer=0, deadline=None, public=rep.public,
    )


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
        paths.event(s, world.club, world.events["Hidden Cup"]),  # another league's event
        paths.event(s, world.secret, world.events["Hidden Cup"]),  # an unpublished league's
        paths.event(s, world.club, world.events["Loose Event"]),  # of no league
        paths.event(s, world.default, world.events["Loose Event"]),
        paths.event(s, world.club, 10_000), f"{club}/e/not-a-slug",
        f"{club}/e/{s.encode('event', world.secret, world.events['Autumn Swiss'])}",
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


def _cells(body: str, kind: str | None = "standings") -> list[list[str]]:
    """The text of each body row's cells in the first table of class ``kind`` (None: of
    no class) in ``body``."""
    tag = f'<table class="{kind}">' if kind else "<table>"
    found = re.search(rf"{tag}.*?<tbody>(.*?)</tbody>", body, re.S)
    assert found is not None
    return [
        [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", found.group(1))
    ]


async def _event(client: Client, world: World, name: str) -> str:
    """The page of the published league's event ``name``."""
    r = await client.get(paths.event(world.slugs, world.club, world.events[name]))
    assert r.status == 200, name
    return await r.text()


async def test_a_league_lists_its_events_only(client: Client, world: World) -> None:
    body = await (await client.get(paths.league(world.slugs, world.club))).text()
    for name, (_, _, _, _, league, _, _) in EVENTS.items():
        href = paths.event(world.slugs, world.club, world.events[name])
        assert (href in body and name in body) == (league == "club"), name
    rows = {r[0]: r[1:] for r in _cells(body.split("<h2>Events</h2>")[1], None)}
    assert rows["Autumn Swiss"] == ["Gin Rummy", "Swiss", "running", "2 of 3"]
    assert rows["Spades Round Robin"][2:] == ["finished", "3 of 3"]
    assert rows["Duplicate Night"][1:] == ["Duplicate", "finished", "2 of 2"]
    assert rows["Winter Swiss"][2:] == ["taking sign-ups", "0 of 3"]
    assert list(rows) == sorted(rows, key=lambda n: -world.events[n])  # newest first


async def test_an_event_page_shows_the_services_standings_rounds_and_replays(
    client: Client, world: World
) -> None:
    db = await open_database(world.path)
    try:
        service = EventService(db)
        for name, (_, format, _, _, league, recorded, _) in EVENTS.items():
            if league != "club" or recorded is None:
                continue
            body = await _event(client, world, name)
            st = await service.standings(GUILD, world.events[name])
            assert _cells(body) == standing_cells(st), name
            assert f"Ranked by {st.order}." in body
            assert (">Matchpoints</th>" in body) == (format == "duplicate")
            assert (">Buchholz</th>" in body) == (format != "duplicate")
    finally:
        await db.close()
    s = world.slugs
    swiss = await _event(client, world, "Autumn Swiss")
    assert "Ranked by points, then Buchholz, then Sonneborn-Berger, then seed." in swiss
    assert [h.count("<tr>") for h in swiss.split("<h2>Round ")[1:]] == [3, 3, 3]
    assert "Round 3<span" in swiss and ">playing<" in swiss and "Bye (a win): Eve." in swiss
    assert f'href="{paths.match(s, world.club, 1)}"' in swiss  # recorded with its replay
    assert paths.match(s, world.club, SECRET_MATCH) not in swiss  # not of this league
    assert swiss.count(">Replay<") == 1
    dup = await _event(client, world, "Duplicate Night")
    boards = [r for part in dup.split("<h2>Round ")[1:] for r in _cells(part, "boards")]
    assert len(boards) == 8 and {r[0] for r in boards} == {"1", "2", "3", "4"}
    assert all(r[5] in {"2 – 0", "0 – 2", "1 – 1"} for r in boards)  # two tables: top is 2
    assert "half a top on each board" in dup
    half = await _event(client, world, "Duplicate Half")  # board 1 played at one table of 2
    boards = [r for part in half.split("<h2>Round ")[1:] for r in _cells(part, "boards")]
    assert boards[0][:2] == ["1", "1"] and boards[0][4:] == ["played", "", ""], boards[0]
    assert ">Replay<" not in half and paths.match(s, world.club, 3) not in half
    pairs = await _event(client, world, "Back Alley Pairs")
    assert "<th>Team</th>" in pairs and "Ann &amp; Dee &lt;b&gt;&amp;" in pairs
    signup = await _event(client, world, "Winter Swiss")
    assert "Signed up so far: Ben, Cy." in signup and "<h2>Round" not in signup
