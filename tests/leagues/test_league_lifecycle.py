"""Leagues, seasons, history, head-to-head, stats, CSV, rebuild and atomic recording."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from bot.services.leagues import (
    DuplicateLeague,
    InvalidRequest,
    LeagueService,
    NotAdmin,
    UnknownLeague,
    UnknownSeason,
)
from storage import league_reports, league_totals
from storage.connect import open_database
from storage.db import Conn, Database
from storage.matches import MatchRecord, SeatResult, insert_match
from tests.conftest import values
from tests.leagues.conftest import Kit


def count(c: Conn, table: str) -> int:
    row = c.one(f"SELECT COUNT(*) AS n FROM {table}")
    assert row is not None
    return int(row["n"])


async def test_create_and_find_leagues(kit: Kit, svc: LeagueService) -> None:
    lg = await svc.create_league(kit.guild, "  Friday   Night ", is_admin=True)
    assert (lg.name, lg.game, lg.scoring, lg.count_bots, lg.season) == (
        "Friday Night", None, "rating", True, 1)
    assert (await svc.league(kit.guild, "FRIDAY NIGHT")).id == lg.id
    with pytest.raises(DuplicateLeague, match="already a league called Friday Night"):
        await svc.create_league(kit.guild, "friday night", is_admin=True)
    with pytest.raises(DuplicateLeague, match="Default"):
        await svc.create_league(kit.guild, "default", is_admin=True)
    with pytest.raises(NotAdmin):
        await svc.create_league(kit.guild, "Mine", is_admin=False)
    with pytest.raises(UnknownLeague, match="no league called 'Nope'"):
        await svc.standings(kit.guild, "Nope")
    for bad in ("", "   ", "x" * 51):
        with pytest.raises(InvalidRequest):
            await svc.create_league(kit.guild, bad, is_admin=True)
    with pytest.raises(InvalidRequest, match="Unknown scoring"):
        await svc.create_league(kit.guild, "Elo", is_admin=True, scoring="elo")
    with pytest.raises(InvalidRequest, match="Unknown game"):
        await svc.create_league(kit.guild, "Chess", is_admin=True, game="chess")
    # same name in another guild is fine
    other = await svc.create_league(2, "Friday Night", is_admin=True)
    assert other.id != lg.id
    names = [x.name for x in await svc.leagues(kit.guild)]
    assert names == ["Default", "Friday Night"]
    assert (await svc.league(kit.guild, "default")).is_default


async def test_season_rollover(kit: Kit, svc: LeagueService, db: Database) -> None:
    await kit.duel("gin_rummy", 1, 2)
    await kit.duel("gin_rummy", 1, 2)
    old = await svc.standings(kit.guild)
    with pytest.raises(NotAdmin):
        await svc.new_season(kit.guild, None, is_admin=False)
    season = await svc.new_season(kit.guild, None, is_admin=True)
    assert season.season == 2
    assert (await svc.standings(kit.guild)).rows == ()
    await kit.duel("gin_rummy", 2, 1)
    now = await svc.standings(kit.guild)
    assert now.season == 2 and now.current
    assert [(r.user_id, r.games, r.wins) for r in now.rows] == [(2, 1, 1), (1, 1, 0)]
    fresh = await svc.standings(kit.guild, "Default", season=1)
    assert fresh.rows == old.rows and not fresh.current
    # ratings restarted: season 2's winner is rated like a first-ever win
    assert now.rows[0].mu == pytest.approx(27.635389493140497)
    seasons = await svc.seasons(kit.guild)
    assert [(s.season, s.ended_at is None) for s in seasons] == [(1, False), (2, True)]
    for bad in (0, 3, -1):
        with pytest.raises(UnknownSeason, match="seasons 1 to 2"):
            await svc.standings(kit.guild, season=bad)
    history = await svc.league_history(kit.guild, season=1)
    assert len(history) == 2
    assert len(await svc.league_history(kit.guild)) == 3


async def test_history_and_head_to_head(kit: Kit, svc: LeagueService) -> None:
    assert await svc.league_history(kit.guild) == []
    assert await svc.player_history(kit.guild, 1) == []
    first = await kit.duel("gin_rummy", 1, 2)
    await kit.record(kit.match("ono99", [kit.human(0, 1, 3, 1), kit.human(1, 2, 3, 1),
                                         kit.computer(2, "normal", 0, 3)]))
    await kit.duel("spades", 2, 1)
    await kit.duel("spades", 3, 2)
    await kit.duel("spades", 1, 3, guild=99)  # another guild
    partners = [kit.human(0, 1, 9, 1, team=0), kit.human(1, 3, 1, 2, team=1),
                kit.human(2, 2, 9, 1, team=0), kit.human(3, 4, 1, 2, team=1)]
    await kit.record(kit.match("back_alley", partners))

    hist = await svc.league_history(kit.guild, limit=3)
    assert [m.game for m in hist] == ["back_alley", "spades", "spades"]
    assert [s.user_id for s in hist[0].seats] == [1, 3, 2, 4]
    assert hist[0].finished_at > hist[1].finished_at
    mine = await svc.player_history(kit.guild, 1)
    assert [m.game for m in mine] == ["back_alley", "spades", "ono99", "gin_rummy"]
    assert mine[-1].match_id == first
    ono = mine[2]
    assert [(s.name, s.score, s.rank, s.bot_level) for s in ono.seats] == [
        ("user1", 3, 1, None), ("user2", 3, 1, None), ("Computer (normal)", 0, 3, "normal")]

    h = await svc.head_to_head(kit.guild, 1, 2)
    assert (h.games, h.a_wins, h.b_wins, h.draws, h.as_partners) == (3, 1, 1, 1, 1)
    h = await svc.head_to_head(kit.guild, 2, 1, game="spades")
    assert (h.games, h.a_wins, h.b_wins, h.draws) == (1, 1, 0, 0)
    h = await svc.head_to_head(kit.guild, 1, 5)
    assert (h.games, h.a_wins, h.b_wins, h.draws, h.as_partners) == (0, 0, 0, 0, 0)
    with pytest.raises(InvalidRequest, match="two different"):
        await svc.head_to_head(kit.guild, 1, 1)
    with pytest.raises(InvalidRequest):
        await svc.league_history(kit.guild, limit=0)


async def test_player_stats(kit: Kit, svc: LeagueService) -> None:
    def ba(p1: int, p2: int, won: bool) -> list[SeatResult]:
        return [kit.human(0, 1, 250 if won else 100, 1 if won else 2, team=0),
                kit.human(1, 8, 0, 2 if won else 1, team=1),
                kit.human(2, p1, 250 if won else 100, 1 if won else 2, team=0),
                kit.human(3, p2, 0, 2 if won else 1, team=1)]

    await kit.record(kit.match("back_alley", ba(2, 9, True)))
    await kit.record(kit.match("back_alley", ba(3, 9, True)))
    await kit.record(kit.match("back_alley", ba(3, 9, False)))
    await kit.record(kit.match("back_alley", ba(2, 9, False)))
    # craits: lower is better, so the best score is the lowest
    await kit.record(kit.match("craits", [kit.human(0, 1, 4, 1), kit.human(1, 2, 9, 2)]))
    await kit.record(kit.match("craits", [kit.human(0, 1, 7, 2), kit.human(1, 2, 3, 1)]))
    await kit.record(kit.match("craits", [kit.human(0, 1, 5, 1), kit.human(1, 2, 5, 1)]))
    st = await svc.player_stats(kit.guild, 1)
    assert (st.played, st.won) == (7, 3)
    ba_stats, craits = st.games
    assert (ba_stats.game, ba_stats.played, ba_stats.won, ba_stats.best_score) == (
        "back_alley", 4, 2, 250)
    # 2 and 3 both partnered twice; 2 is the more recent
    assert ba_stats.favourite_partner is not None
    assert (ba_stats.favourite_partner.user_id, ba_stats.favourite_partner.games) == (2, 2)
    assert (craits.played, craits.won, craits.drawn, craits.best_score) == (3, 1, 1, 4)
    assert craits.favourite_partner is None
    assert st.favourite_partner == ba_stats.favourite_partner
    nobody = await svc.player_stats(kit.guild, 12345)
    assert (nobody.played, nobody.games, nobody.favourite_partner) == (0, (), None)


async def test_best_score_follows_the_options_a_game_was_played_with(
    kit: Kit, svc: LeagueService
) -> None:
    """ONO 99 counts up (players outlasted) by elimination but down in points scoring: the
    two are listed apart, each with its own best."""
    points = {"scoring": "points"}
    for mine, theirs, opts in ((73, 26, points), (30, 90, points), (1, 0, None), (0, 1, None)):
        rank = 1 if (mine < theirs) == (opts is points) else 2
        await kit.record(kit.match(
            "ono99", [kit.human(0, 1, mine, rank), kit.human(1, 2, theirs, 3 - rank)],
            options=opts,
        ))
    st = await svc.player_stats(kit.guild, 1)
    by_way = {g.lower_wins: g for g in st.games}
    assert (by_way[True].played, by_way[True].won, by_way[True].best_score) == (2, 1, 30)
    assert (by_way[False].played, by_way[False].won, by_way[False].best_score) == (2, 1, 1)


async def test_csv_export(kit: Kit, svc: LeagueService) -> None:
    await kit.rank_everyone()
    await kit.record(kit.match("gin_rummy", [SeatResult(0, 1, None, "=HYPERLINK(1)", 0, 100, 1),
                                             kit.human(1, 2, 50, 2)]))
    text = await svc.standings_csv(kit.guild)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["rank", "user_id", "name", "rating"]
    assert [r[:3] for r in rows[1:]] == [["1", "1", "'=HYPERLINK(1)"], ["2", "2", "user2"]]
    st = await svc.standings(kit.guild)
    assert rows[1][3] == str(st.rows[0].rating_display) and rows[1][-1] == "W1"
    hist = list(csv.reader(io.StringIO(await svc.history_csv(kit.guild))))
    assert hist[0] == ["match_id", "finished_at", "game", "seat", "user_id", "computer", "name",
                       "team", "score", "rank"]
    assert [r[3:] for r in hist[1:]] == [
        ["0", "1", "", "'=HYPERLINK(1)", "0", "100", "1"],
        ["1", "2", "", "user2", "1", "50", "2"],
    ]
    assert hist[1][1].endswith("+00:00")
    empty = await svc.history_csv(kit.guild, season=1, limit=5)
    assert empty.count("\n") == 3
    await svc.create_league(kit.guild, "Empty", is_admin=True)
    assert (await svc.standings_csv(kit.guild, "Empty")).count("\n") == 1


async def test_a_failing_recorder_leaves_nothing(kit: Kit, svc: LeagueService, db: Database,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    match = kit.match("gin_rummy", [kit.human(0, 1, 100, 1), kit.human(1, 2, 0, 2)])

    def boom(*args: object) -> None:
        raise RuntimeError("disk on fire")

    # fails after the totals were written, before the league-match rows
    monkeypatch.setattr(league_totals, "add_league_matches", boom)
    with pytest.raises(RuntimeError, match="disk on fire"):
        await kit.record(match)
    for table in ("matches", "match_seats", "leagues", "league_seasons", "league_players",
                  "league_matches", "league_bot_ratings", "league_ratings"):
        assert await db.read(count, table) == 0, table
    monkeypatch.undo()
    await kit.record(match)
    st = await svc.standings(kit.guild)
    assert [(r.user_id, r.games) for r in st.rows] == [(1, 1), (2, 1)]


async def test_rebuild_matches_incremental_totals(
    kit: Kit, svc: LeagueService, db: Database
) -> None:
    cup = await svc.create_league(kit.guild, "Cup", is_admin=True, scoring="points:2/1/0")
    await kit.duel("gin_rummy", 1, 2, league_id=cup.id)
    await kit.record(kit.match("ono99", [kit.human(i, i + 1, 9 - i, i + 1) for i in range(5)],
                               league_id=cup.id))
    await svc.new_season(kit.guild, "cup", is_admin=True)
    await kit.record(kit.match("back_alley", [
        kit.human(0, 1, 5, 1, team=0), kit.computer(1, "normal", 2, 2, team=1),
        kit.human(2, 3, 5, 1, team=0), kit.computer(3, "random", 2, 2, team=1)],
        league_id=cup.id))
    await kit.duel("gin_rummy", 2, 1, league_id=cup.id)

    def snapshot(c: Conn) -> list[tuple[object, ...]]:
        rows = c.all("SELECT * FROM league_players ORDER BY league_id, season, game, user_id")
        bots = c.all(
            "SELECT * FROM league_bot_ratings ORDER BY league_id, season, game, bot_level")
        lm = c.all("SELECT * FROM league_matches ORDER BY league_id, match_id")
        over_time = c.all(
            "SELECT * FROM league_ratings ORDER BY league_id, season, game, user_id, games")
        return [values(r) for r in rows + bots + lm + over_time]

    before = await db.read(snapshot)
    with pytest.raises(NotAdmin):
        await svc.rebuild(kit.guild, "Cup", is_admin=False)
    await db.write(lambda c: c.execute("DELETE FROM league_players"))  # lose derived totals
    assert await svc.rebuild(kit.guild, "Cup", is_admin=True) == 2 + 2
    assert await svc.rebuild(kit.guild, is_admin=True) == 4
    assert await svc.check() == []
    after = await db.read(snapshot)
    assert len(after) == len(before)
    for b, a in zip(before, after, strict=True):
        assert b == pytest.approx(a)


async def test_rebuild_picks_up_matches_recorded_without_leagues(
    kit: Kit, svc: LeagueService, db: Database
) -> None:
    # e.g. recorded before the leagues migration
    await db.write(insert_match, kit.match("gin_rummy", [kit.human(0, 1, 9, 1),
                                                        kit.human(1, 2, 1, 2)]))
    assert (await svc.standings(kit.guild)).rows == ()
    assert await svc.rebuild(kit.guild, is_admin=True) == 1
    assert [r.user_id for r in (await svc.standings(kit.guild)).rows] == [1, 2]


async def test_standings_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "reopen.db"
    first = await open_database(path)
    try:
        svc = LeagueService(first)
        match = SeatResult(0, 1, None, "a", 0, 9, 1), SeatResult(1, 2, None, "b", 1, 1, 2)
        rec = MatchRecord(None, 5, 1, None, "spades", {}, 1, 1.0, 2.0, match)
        await first.write(lambda c: svc.record_match(c, insert_match(c, rec), rec))
        before = await svc.standings(5)
    finally:
        await first.close()
    again = await open_database(path)
    try:
        after = await LeagueService(again).standings(5)
    finally:
        await again.close()
    assert after.rows == before.rows and [r.user_id for r in after.rows] == [1, 2]


async def test_recorder_ignores_a_league_of_another_guild(kit: Kit, svc: LeagueService) -> None:
    elsewhere = await svc.create_league(2, "Theirs", is_admin=True)
    await kit.duel("gin_rummy", 1, 2, league_id=elsewhere.id)
    assert len((await svc.standings(kit.guild)).rows) == 2
    assert (await svc.standings(2, "Theirs")).rows == ()


@pytest.mark.parametrize(
    ("order", "index"),
    [(league_reports.ORDER_BY_RATING, "league_players_by_rating"),
     (league_reports.ORDER_BY_POINTS, "league_players_by_points")],
)
@pytest.mark.sqlite_only  # SQLite's query plan; PostgreSQL's planner sorts small tables
async def test_standings_read_an_index_without_sorting(
    db: Database, order: str, index: str
) -> None:
    plan = await db.read(lambda c: c.all(
        "EXPLAIN QUERY PLAN SELECT * FROM league_players WHERE league_id = ? AND season = ?"
        f" AND game = ? ORDER BY {order} LIMIT ? OFFSET ?",
        (1, 1, "spades", 25, 0),
    ))
    details = " ".join(r["detail"] for r in plan)
    assert f"USING INDEX {index}" in details and "TEMP B-TREE" not in details
