"""Provisional players: fewer than the league's ``provisional_games`` counted games in the
season means unranked and listed after every established player (both backends)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cogs.league import standings_text
from bot.services.leagues import InvalidRequest, LeagueService, NotAdmin, Standings
from bot.terminal.standings import standings_lines
from bot.ui.answers import CONTENT_LIMIT
from storage.connect import open_database
from tests.leagues.conftest import Kit


async def test_a_lucky_newcomer_is_listed_below_every_established_player(
    kit: Kit, svc: LeagueService
) -> None:
    for _ in range(5):
        await kit.duel("gin_rummy", 1, 2)  # 1 and 2 play five games each; 2 loses them all
    await kit.duel("gin_rummy", 3, 2)  # the newcomer 3 wins once
    st = await svc.standings(kit.guild)
    assert [(r.user_id, r.rank, r.games) for r in st.rows] == [(1, 1, 5), (2, 2, 6), (3, None, 1)]
    assert [r.position for r in st.rows] == [1, 2, 3]
    assert (st.total, st.established, st.provisional_games) == (3, 2, 5)
    newcomer, loser = st.rows[2], st.rows[1]
    assert newcomer.provisional and not loser.provisional
    assert newcomer.rating > loser.rating  # the ordinal alone would have put 3 above 2


async def test_the_fifth_game_makes_a_player_established(kit: Kit, svc: LeagueService) -> None:
    for _ in range(4):
        await kit.duel("gin_rummy", 1, 2)
    st = await svc.standings(kit.guild)
    assert [r.rank for r in st.rows] == [None, None] and st.established == 0
    await kit.duel("gin_rummy", 1, 2)
    st = await svc.standings(kit.guild)
    assert [(r.user_id, r.rank) for r in st.rows] == [(1, 1), (2, 2)]


async def test_the_setting_is_per_league_and_admin_only(kit: Kit, svc: LeagueService) -> None:
    cup = await svc.create_league(kit.guild, "Cup", is_admin=True, provisional_games=1)
    assert cup.provisional_games == 1
    assert (await svc.league(kit.guild)).provisional_games == 5
    await kit.duel("gin_rummy", 1, 2, league_id=cup.id)
    ranked = await svc.standings(kit.guild, "cup")
    assert [r.rank for r in ranked.rows] == [1, 2]
    assert [r.rank for r in (await svc.standings(kit.guild)).rows] == [None, None]
    with pytest.raises(NotAdmin):
        await svc.set_provisional_games(kit.guild, "cup", 3, is_admin=False)
    for bad in (-1, 1001, True, 2.5):  # (wrong types on purpose: the service refuses them too)
        with pytest.raises(InvalidRequest):
            await svc.set_provisional_games(kit.guild, "cup", bad, is_admin=True)  # type: ignore[arg-type]
    with pytest.raises(InvalidRequest):
        await svc.create_league(kit.guild, "Other", is_admin=True, provisional_games=-2)
    changed = await svc.set_provisional_games(kit.guild, "cup", 3, is_admin=True)
    assert changed.provisional_games == 3 == (await svc.league(kit.guild, "Cup")).provisional_games
    st = await svc.standings(kit.guild, "cup")
    assert [r.rank for r in st.rows] == [None, None] and st.provisional_games == 3


async def test_a_new_season_makes_everyone_provisional_again(kit: Kit, svc: LeagueService) -> None:
    for _ in range(5):
        await kit.duel("gin_rummy", 1, 2)
    await svc.new_season(kit.guild, None, is_admin=True)
    await kit.duel("gin_rummy", 2, 1)
    st = await svc.standings(kit.guild)
    assert [r.rank for r in st.rows] == [None, None]
    old = await svc.standings(kit.guild, season=1)
    assert [r.rank for r in old.rows] == [1, 2]


async def test_pages_across_the_boundary_join_up(kit: Kit, svc: LeagueService) -> None:
    """Established 10, 11, 12 (five games each), provisional 20, 21: every page split
    (limit, offset) gives the slice of the whole list."""
    for _ in range(5):
        await kit.record(kit.match("ono99", [kit.human(i, 10 + i, 0, i + 1) for i in range(3)]))
    await kit.duel("ono99", 20, 21)
    whole = await svc.standings(kit.guild)
    assert [r.rank for r in whole.rows] == [1, 2, 3, None, None]
    assert [r.user_id for r in whole.rows[3:]] == [20, 21]
    for limit in range(1, 6):
        for offset in range(6):
            page = await svc.standings(kit.guild, limit=limit, offset=offset)
            assert page.rows == whole.rows[offset:offset + limit], (limit, offset)
            assert (page.total, page.established) == (5, 3)


@settings(max_examples=25, deadline=None)
@given(games_played=st.lists(st.integers(0, 7), min_size=2, max_size=6), least=st.integers(0, 6))
def test_no_provisional_player_is_ever_above_an_established_one(
    games_played: list[int], least: int
) -> None:
    """Ranks 1..E for the established (in standings order), then the provisional: each
    example on a fresh SQLite database, players alternately losing and winning."""

    async def run() -> Standings:
        with tempfile.TemporaryDirectory() as folder:
            db = await open_database(Path(folder) / "p.db")
            try:
                svc = LeagueService(db, clock=lambda: 1.0)
                kit = Kit(db, svc)
                await svc.set_provisional_games(kit.guild, None, least, is_admin=True)
                for uid, n in enumerate(games_played, start=1):
                    for g in range(n):
                        pair = (uid, 100 + g) if g % 2 else (100 + g, uid)
                        await kit.duel("gin_rummy", *pair)
                return await svc.standings(kit.guild, limit=100)
            finally:
                await db.close()

    table = asyncio.run(run())
    flags = [r.provisional for r in table.rows]
    assert flags == sorted(flags)  # False (established) first
    ranks = [r.rank for r in table.rows if not r.provisional]
    assert ranks == list(range(1, table.established + 1))
    for r in table.rows:
        assert r.provisional == (r.games < least)


async def test_rendered_standings_fit_one_message_and_set_provisional_apart(
    kit: Kit, svc: LeagueService
) -> None:
    for _ in range(5):
        await kit.record(kit.match("ono99", [
            kit.human(i, 1000 + i, 0, i + 1) for i in range(8)]))
    for i in range(10):
        await kit.duel("ono99", 2000 + i, 3000 + i)
    st = await svc.standings(kit.guild)
    text = standings_text(st)
    assert len(text) <= CONTENT_LIMIT
    lines = text.splitlines()
    heading = lines.index("Provisional (fewer than 5 games), not ranked:")
    assert [line.split()[0] for line in lines[3:heading]] == [str(n) for n in range(1, 9)]
    below = [line.split()[0] for line in lines[heading + 1:-2]]
    assert below and all(name.startswith(("user2", "user3")) for name in below)  # no rank
    terminal = standings_lines(st)
    at = terminal.index(st.provisional_heading)
    assert terminal[at - 1].split()[0] == "8"
    assert not terminal[at + 1].split()[0].isdigit()  # provisional players have no rank
