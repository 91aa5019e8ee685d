"""Ratings over time: stored as matches are recorded (every league a match counts toward),
read back by charts without a replay, reset by a new season, checked against a
recomputation from the matches, and filled in for a database counted before they were
stored (migration 013), on both backends."""

from __future__ import annotations

import itertools

import pytest

from bot.services.leagues import LeagueService, chart_games, charts, season_ratings
from bot.services.ratings import display
from storage import league_reports, league_totals
from storage.connect import open_database
from storage.db import Conn, Database, Row
from tests.leagues.conftest import Kit

GAME = "gin_rummy"


def over_time(c: Conn) -> list[tuple[object, ...]]:
    rows = c.all("SELECT * FROM league_ratings ORDER BY league_id, season, game, user_id, games")
    return [tuple(_values(r)) for r in rows]


def _values(r: Row) -> list[object]:
    keys = ("league_id", "season", "game", "user_id", "games", "number", "mu", "sigma")
    return [r[k] for k in keys]


async def test_each_counted_game_stores_every_players_rating_after_it(
    kit: Kit, svc: LeagueService, db: Database
) -> None:
    cup = await svc.create_league(kit.guild, "Cup", is_admin=True)
    shown: dict[int, list[int]] = {1: [1000], 2: [1000], 3: [1000]}
    for winner, loser in ((1, 2), (1, 3), (2, 1), (3, 2), (1, 2)):
        await kit.duel(GAME, winner, loser, league_id=cup.id)
        for row in (await svc.standings(kit.guild, game=GAME)).rows:
            if row.user_id in (winner, loser):
                shown[row.user_id].append(row.rating_display)
    await kit.duel("ono99", 1, 2)  # another game: a line of its own
    lines = dict(await svc.rating_lines(kit.guild, 1))
    assert [v for _, v in lines[GAME]] == shown[1]
    assert [n for n, _ in lines[GAME]] == [0, 1, 2, 3, 4]
    assert [n for n, _ in lines["ono99"]] == [0, 1]
    # the named league counted the same games: the same ratings, numbered there
    cup_lines = await db.report(season_ratings, cup.id, 1, GAME, [1, 2, 3])
    assert cup_lines.played == 5 and not cup_lines.pending
    assert [p.number for p in cup_lines.lines[3]] == [2, 4]
    assert [display(p.ordinal) for p in cup_lines.lines[2]] == shown[2][1:]
    assert await svc.check() == []


async def test_a_new_season_starts_every_line_afresh(kit: Kit, svc: LeagueService) -> None:
    await kit.duel(GAME, 1, 2)
    await kit.duel(GAME, 1, 2)
    await svc.new_season(kit.guild, None, is_admin=True)
    assert await svc.rating_lines(kit.guild, 1) == []
    await kit.duel(GAME, 2, 1)
    [(game, line)] = await svc.rating_lines(kit.guild, 1)
    assert game == GAME and [n for n, _ in line] == [0, 1]
    assert line[1][1] < 1000  # lost the season's first game
    league = await svc.league(kit.guild)
    assert (await svc.db.report(season_ratings, league.id, 2, GAME, [1])).played == 1
    assert await svc.check() == []


def test_a_long_season_is_charted_by_evenly_spread_games() -> None:
    assert chart_games(5, 400) == [1, 2, 3, 4, 5]
    picked = chart_games(100_000, 400)
    assert len(picked) == 400 and picked[0] == 1 and picked[-1] == 100_000
    gaps = {b - a for a, b in itertools.pairwise(picked)}
    assert max(gaps) - min(gaps) <= 1


async def test_a_chart_reads_a_bounded_number_of_points(
    kit: Kit, svc: LeagueService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(charts, "CHART_POINTS", 4)
    for k in range(10):
        await kit.duel(GAME, 1 + k % 2, 2 - k % 2)
    [(_, line)] = await svc.rating_lines(kit.guild, 1)
    assert [n for n, _ in line] == [0, 1, 4, 7, 10]
    now = {r.user_id: r.rating_display for r in (await svc.standings(kit.guild)).rows}
    assert line[-1][1] == now[1]


async def test_the_check_finds_stored_rows_that_differ_from_the_matches(
    kit: Kit, svc: LeagueService, db: Database
) -> None:
    for winner, loser in ((1, 2), (2, 3), (3, 1)):
        await kit.duel(GAME, winner, loser)
    assert await svc.check() == []
    await db.write(lambda c: c.execute(
        "UPDATE league_ratings SET mu = mu + 0.5 WHERE user_id = 2 AND games = 1"))
    [problem] = await svc.check()
    assert "'Default'" in problem and "season 1, gin_rummy" in problem
    assert "ratings over time differ" in problem
    await db.write(lambda c: c.execute("UPDATE league_players SET wins = 9 WHERE user_id = 3"))
    assert any("totals differ" in p for p in await svc.check())
    assert await svc.rebuild(kit.guild, is_admin=True) == 3
    assert await svc.check() == []
    await db.write(lambda c: c.execute("DELETE FROM league_matches WHERE number = 2"))
    problems = await svc.check()
    assert any("matches it counts are not the ones" in p for p in problems)
    assert any("not numbered 1 to 2" in p for p in problems)


async def test_the_check_finds_records_that_differ_from_the_matches(
    kit: Kit, svc: LeagueService, db: Database
) -> None:
    await kit.record(kit.match("back_alley", [
        kit.human(0, 1, 5, 1, team=0), kit.human(1, 2, 2, 2, team=1),
        kit.human(2, 3, 5, 1, team=0), kit.human(3, 4, 2, 2, team=1)]))
    await kit.duel(GAME, 1, 2)
    assert await svc.check() == []
    await db.write(lambda c: c.execute("UPDATE player_games SET won = 0 WHERE user_id = 1"))
    await db.write(lambda c: c.execute("UPDATE league_partners SET draws = 1 WHERE user_id = 3"))
    problems = await svc.check()
    assert any("players' records (/stats) differ" in p for p in problems)
    assert any("results with partners differ" in p for p in problems)
    assert await svc.rebuild(kit.guild, is_admin=True) == 2
    assert await svc.check() == []
    assert (await svc.player_stats(kit.guild, 1)).won == 2


def _undo_migrations_013_and_014(c: Conn) -> None:
    """Back to the schema before ratings over time and players' records were stored,
    counted rows kept (the later migrations' tables go too, to be made again)."""
    for statement in (
        "DROP TABLE discord_keepers", "DROP TABLE discord_tokens_only",  # 015
        "DROP TABLE league_partners", "DROP TABLE player_partners", "DROP TABLE player_games",
        "DROP INDEX league_players_user",
        "DROP TABLE league_ratings_pending", "DROP TABLE league_ratings",
        "DROP INDEX league_matches_number", "ALTER TABLE league_matches DROP COLUMN number",
        "ALTER TABLE player_preferences DROP COLUMN language",  # 016
        "ALTER TABLE player_preferences DROP COLUMN locale",
        "ALTER TABLE guild_preferences DROP COLUMN language",
        "ALTER TABLE match_seats DROP COLUMN bot_number",  # 017
        "ALTER TABLE match_seats DROP COLUMN stands_for",
    ):
        c.execute(statement)
    if c.dialect == "sqlite":
        c.execute("PRAGMA user_version = 12")
    else:
        c.execute("UPDATE deckhand_schema SET version = 12")


async def test_a_database_counted_before_migrations_013_and_014_is_filled_in(
    where: str
) -> None:
    db = await open_database(where)
    svc = LeagueService(db, clock=lambda: 1_700_000_000.0)
    kit = Kit(db, svc)
    try:
        cup = await svc.create_league(kit.guild, "Cup", is_admin=True)
        for k in range(7):
            await kit.duel(GAME, 1 + k % 3, 1 + (k + 1) % 3, league_id=cup.id)
        await kit.record(
            kit.match("ono99", [kit.human(i, i + 1, 9 - i, i + 1) for i in range(4)]))
        await kit.record(kit.match("back_alley", [
            kit.human(0, 1, 5, 1, team=0), kit.human(1, 2, 2, 2, team=1),
            kit.human(2, 3, 5, 1, team=0), kit.computer(3, "normal", 2, 2, team=1)]))
        await svc.new_season(kit.guild, "Cup", is_admin=True)
        await kit.duel(GAME, 2, 1, league_id=cup.id)
        stored = await db.read(over_time)
        stats = await svc.player_stats(kit.guild, 1)
        league = await svc.league(kit.guild)
        page = await db.report(league_reports.league_records, league.id, 1)
        await db.write(_undo_migrations_013_and_014)
    finally:
        await db.close()
    db = await open_database(where)  # migration 013 again, on the rows counted so far
    svc = LeagueService(db, clock=lambda: 1_700_000_000.0)
    kit = Kit(db, svc)
    try:
        assert await db.read(over_time) == []
        assert await svc.player_stats(kit.guild, 1) == stats  # counted by migration 014
        assert await db.report(league_reports.league_records, league.id, 1) == page
        pending = await db.read(league_totals.pending_ratings)
        # the Cup's two seasons, then the Default league (which had no new season)
        assert [(p.season, p.game, p.through) for p in pending] == [
            (1, GAME, 7), (2, GAME, 1), (1, "back_alley", 1), (1, GAME, 8), (1, "ono99", 1),
        ]
        assert await svc.rating_lines(kit.guild, 1) == []  # left out until filled
        assert await svc.check() == []  # the totals still agree
        await kit.duel(GAME, 3, 2, league_id=cup.id)  # recorded while the rest waits
        assert await svc.backfill(most=3) == 7 + 1 + 1 + 8 + 1
        assert await db.read(league_totals.pending_ratings) == []
        assert await svc.backfill() == 0
        now = await db.read(over_time)
        assert [r for r in now if r in stored] == stored
        assert len(now) == len(stored) + 2 * 2  # the new game, in two leagues
        assert await svc.check() == []
        assert [n for n, _ in dict(await svc.rating_lines(kit.guild, 1))[GAME]] == list(
            range(7))
    finally:
        await db.close()


async def test_a_rebuild_settles_what_is_still_pending(
    kit: Kit, svc: LeagueService, db: Database
) -> None:
    for k in range(3):
        await kit.duel(GAME, 1 + k % 2, 2 - k % 2)
    stored = await db.read(over_time)
    league = await svc.league(kit.guild)
    await db.write(lambda c: c.execute("DELETE FROM league_ratings"))
    await db.write(lambda c: c.execute(
        "INSERT INTO league_ratings_pending (league_id, season, game, through)"
        " VALUES (?, 1, ?, 3)", (league.id, GAME)))
    assert await svc.rebuild(kit.guild, is_admin=True) == 3
    assert await db.read(league_totals.pending_ratings) == []
    assert await db.read(over_time) == stored
    assert await svc.backfill() == 0
