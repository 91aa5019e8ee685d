"""The site's parts: slugs, escaping, the chart, records per game and partner, the
publication flag on both backends, the replay guard, and the link under /league standings."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from discord.ext import commands
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.cogs.league import LeagueCommands
from bot.services import publication, replays
from bot.services.leagues import LeagueService, NotAdmin
from bot.services.player_record import records
from bot.services.publication import Slugs
from bot.settings import Settings
from bot.web import paths
from bot.web.chart import Series, rating_chart
from bot.web.html import Safe, h, join
from storage import league_reports
from storage import leagues as repo
from storage.connect import open_database
from storage.db import Conn, Database
from storage.matches import MatchRecord, SeatResult, insert_match
from tests.web.world import fill

KEY = Slugs(bytes(range(32)))
IDS = st.integers(min_value=0, max_value=2**63 - 1)


KINDS = st.sampled_from(["guild", "league", "player", "match", "event"])


@given(IDS, KINDS, st.integers(0, 10**6))
def test_a_slug_turns_back_into_its_id_and_hides_it(value: int, kind: str, scope: int) -> None:
    slug = KEY.encode(kind, scope, value)
    assert re.fullmatch(r"[0-9a-f]{16}", slug)
    assert KEY.decode(kind, scope, slug) == value
    assert str(value) not in slug or value < 10**4  # (a short number may occur by chance)


@given(IDS)
def test_slugs_differ_by_kind_scope_and_key(value: int) -> None:
    slugs = {
        KEY.encode("player", 1, value), KEY.encode("player", 2, value),
        KEY.encode("match", 1, value), KEY.encode("event", 1, value),
        Slugs(b"other key").encode("player", 1, value),
    }
    assert len(slugs) == 5


@pytest.mark.parametrize("text", ["", "abc", "0123456789ABCDEF", "0123456789abcdeg",
                                  "0123456789abcdef0", " 123456789abcdef"])
def test_what_is_not_a_slug_names_nothing(text: str) -> None:
    assert KEY.decode("league", 0, text) is None


def test_only_ids_a_database_holds_have_slugs() -> None:
    with pytest.raises(ValueError):
        KEY.encode("player", 0, 2**63)
    decoded = [KEY.decode("player", 0, f"{i:016x}") for i in range(64)]
    assert None in decoded  # about half of all slugs would name an id past 2**63 - 1
    assert all(d is None or 0 <= d < 2**63 for d in decoded)


def test_markup_escapes_text_and_attributes() -> None:
    made = h("a", "<script>&", Safe("<b>ok</b>"), None, 3, href='/x?a=1&b="2"', class_="c",
             data_x=True, hidden=False)
    assert made == ('<a href="/x?a=1&amp;b=&quot;2&quot;" class="c" data-x>'
                    "&lt;script&gt;&amp;<b>ok</b>3</a>")
    assert h("meta", charset="utf-8") == '<meta charset="utf-8">'
    assert join(["<i>", Safe("<i>")], " & ") == "&lt;i&gt; &amp; <i>"


def test_the_chart_draws_a_line_per_player_and_escapes_names() -> None:
    assert rating_chart([], 0, "none") == ""
    svg = rating_chart(
        [Series("Ann", ((0, 1000), (1, 1140), (2, 1180))), Series("<Bo>", ((1, 1000), (2, 930)))],
        2, "Gin Rummy",
    )
    assert svg.count("<polyline") == 2 and "&lt;Bo&gt;" in svg and "<Bo>" not in svg
    assert svg.startswith("<svg") and "<script" not in svg


def _seat(seat: int, uid: int | None, team: int, rank: int) -> SeatResult:
    return SeatResult(seat, uid, None if uid else "normal", f"u{uid}", team, 0, rank)


async def test_records_per_game_and_partner_follow_the_league_results(db: Database) -> None:
    leagues = LeagueService(db, clock=lambda: 1.0)
    league = await leagues.league(1)

    def m(game: str, *seats: SeatResult) -> MatchRecord:
        return MatchRecord(None, 1, 1, None, game, {}, 1, 0.0, 0.0, seats)

    matches = [
        m("back_alley", _seat(0, 1, 0, 1), _seat(1, 2, 1, 2), _seat(2, 3, 0, 1),
          _seat(3, None, 1, 2)),
        m("back_alley", _seat(0, 1, 0, 1), _seat(1, 2, 1, 1), _seat(2, 3, 0, 1),
          _seat(3, 4, 1, 1)),
        m("gin_rummy", _seat(0, 2, 0, 1), _seat(1, 1, 1, 2)),
        m("gin_rummy", _seat(0, 2, 0, 1), _seat(1, 3, 1, 2)),
    ]

    def record(conn: Conn) -> None:
        for match in matches:
            leagues.record_match(conn, insert_match(conn, match), match)

    await db.write(record)
    per_game, per_partner = records(await db.report(league_reports.league_records, league.id, 1))
    assert [(r.game, r.played, r.won, r.drawn, r.lost) for r in per_game] == [
        ("back_alley", 2, 1, 1, 0), ("gin_rummy", 1, 0, 0, 1)]
    assert [(r.game, r.partner, r.played, r.won, r.drawn) for r in per_partner] == [
        ("back_alley", "u3", 2, 1, 1)]


async def test_publishing_needs_an_admin_and_keeps_one_key(db: Database) -> None:
    leagues = LeagueService(db, clock=lambda: 1.0)
    cup = await leagues.create_league(7, "Cup", is_admin=True)
    assert await publication.slugs(db) is None
    with pytest.raises(NotAdmin):
        await publication.set_published(db, cup, True, is_admin=False)
    await publication.set_published(db, cup, True, is_admin=True)
    first = await publication.slugs(db)
    assert first is not None
    assert [lg.name for lg in await db.read(repo.published_leagues, 7)] == ["Cup"]
    assert (await leagues.league(7, "Cup")).published
    await publication.set_published(db, cup, False, is_admin=True)
    await publication.set_published(db, cup, True, is_admin=True)
    again = await publication.slugs(db)
    assert again is not None and again.encode("league", 0, 5) == first.encode("league", 0, 5)
    await publication.set_published(db, cup, False, is_admin=True)
    assert await db.read(repo.published_leagues, 7) == []


async def test_a_replay_needs_a_finished_table_with_the_match_seed_and_a_sound_log(
    tmp_path: Path,
) -> None:
    world = await fill(tmp_path / "deckhand.db")
    db = await open_database(world.path)
    try:
        assert await replays.replay_step(db, 1, 3, hands=True, league_id=world.club) is not None
        assert await replays.replay_step(db, 1, 3, hands=True, league_id=world.secret) is None
    finally:
        await db.close()
    raw = sqlite3.connect(world.path)
    with raw:
        raw.execute("UPDATE tables SET status = 'playing' WHERE id = 1")
        raw.execute("UPDATE tables SET seed = seed + 1 WHERE id = 2")
        raw.execute("UPDATE table_actions SET action = 'nonsense' WHERE table_id = 4"
                    " AND version = 2")
    raw.close()
    db = await open_database(world.path)
    try:
        assert await replays.replay_step(db, 1, 3, hands=True, league_id=world.club) is None
        assert await replays.replay_step(db, 2, 3, hands=False, league_id=world.club) is None
        assert await replays.replay_step(db, 4, 3, hands=False, league_id=world.club) is None
        assert await replays.replay_step(db, 3, 3, hands=False, league_id=world.club) is not None
    finally:
        await db.close()


def test_the_web_address_setting_is_checked() -> None:
    assert Settings(DECKHAND_WEB_URL="").web_url is None
    assert Settings(DECKHAND_WEB_URL="https://cards.example.org/").web_url == (
        "https://cards.example.org")
    with pytest.raises(ValidationError):
        Settings(DECKHAND_WEB_URL="cards.example.org")


async def test_standings_link_only_when_set_up_and_published(db: Database) -> None:
    leagues = LeagueService(db, clock=lambda: 1.0)
    cup = await leagues.create_league(7, "Cup", is_admin=True)
    bot = SimpleNamespace(settings=Settings(DECKHAND_WEB_URL="https://x.org"), db=db)
    cog = LeagueCommands(cast(commands.Bot, bot))  # a stand-in with what the cog reads
    assert await cog._page_link(cup, 1) == ""
    await publication.set_published(db, cup, True, is_admin=True)
    cup = await leagues.league(7, "Cup")
    slugs = await publication.slugs(db)
    assert slugs is not None
    assert await cog._page_link(cup, 1) == (
        f"\nStandings page: <https://x.org{paths.season(slugs, cup.id, 1)}>")
    bot.settings = Settings(DECKHAND_WEB_URL="")
    assert await cog._page_link(cup, 1) == ""
