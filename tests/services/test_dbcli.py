"""The ``deckhand db`` functions on both backends: migrate, backup, list, purge, check;
and copying a SQLite database into PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.failures import Declined
from bot.services import dbcli
from bot.services.errors import ServiceError
from bot.services.leagues import LeagueService
from bot.services.tables import TableService
from storage.connect import open_database
from storage.db import StorageUnavailable
from tests.conftest import PostgresCluster, values
from tests.services.conftest import ManualClock

NOW = 1_000_000.0
DAY = 86400.0


def build(where: str | Path) -> None:
    """Three tables: an old lobby, a game idle for ten days, a finished game (which
    counted toward the guild's league)."""

    async def main() -> None:
        db = await open_database(where)
        clock = ManualClock(NOW - 10 * DAY)
        service = TableService(db, clock=clock)
        service.add_match_recorder(LeagueService(db, clock=clock.now).record_match)
        await service.create(1, 5, 10, "Ann", "gin_rummy")
        await service.join(1, 11, "Ben")
        await service.start(1, 10)
        await service.create(2, 5, 10, "Ann", "ono99")
        await service.add_bot(2, 10, "random")
        await service.start(2, 10)
        while True:
            await service.settled(2)
            r = await service.status(2)
            if r.status != "playing":
                break
            mine = r.for_user(10)
            assert mine is not None
            await service.act(2, 10, mine.legal[0])
        clock.t = NOW - 2 * DAY
        await service.create(3, 5, 12, "Cy", "craits")
        await service.close()
        await db.close()

    asyncio.run(main())


def test_migrate(where: str) -> None:
    first = dbcli.migrate(where)
    assert first.applied[0] == 1 and "Applied" in first.text()
    again = dbcli.migrate(where)
    assert again.applied == () and again.version == first.version
    assert "up to date" in again.text()


def test_backup_of_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    build(path)
    message = dbcli.backup(path, tmp_path / "copy.db")
    assert "Backed up" in message
    copy = sqlite3.connect(tmp_path / "copy.db")
    try:
        assert copy.execute("SELECT count(*) FROM tables").fetchone() == (3,)
    finally:
        copy.close()


def test_a_backup_makes_no_folder_replaces_only_when_told_and_never_its_database(
    tmp_path: Path,
) -> None:
    """Today's code made missing folders (at the root too), replaced an older backup
    without a word, and would back a database up onto itself."""
    path = tmp_path / "d.db"
    build(path)
    with pytest.raises(ServiceError, match=r"the folder .* does not exist, and this command"
                                           r" makes no folders"):
        dbcli.backup(path, tmp_path / "b" / "copy.db")
    assert not (tmp_path / "b").exists()
    with pytest.raises(StorageUnavailable, match="is the database itself"):
        dbcli.backup(f"sqlite://{path}", path)
    dbcli.backup(path, tmp_path / "copy.db")
    shown: list[Path] = []

    def no(target: Path) -> None:
        shown.append(target)
        raise Declined("Nothing was written.")

    before = (tmp_path / "copy.db").stat().st_mtime_ns
    with pytest.raises(Declined):
        dbcli.backup(path, tmp_path / "copy.db", confirm=no)
    assert shown == [tmp_path / "copy.db"] and (tmp_path / "copy.db").stat().st_mtime_ns == before
    assert "Backed up" in dbcli.backup(path, tmp_path / "copy.db", confirm=lambda target: None)


def test_backup_of_postgresql(
    pg_url: str, tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(pg_url)
    monkeypatch.setenv("PATH", str(postgres.bin))
    message = dbcli.backup(pg_url, tmp_path / "d.dump")
    assert "with pg_dump" in message
    restored = postgres.create()
    subprocess.run(
        [postgres.bin / "pg_restore", f"--dbname={postgres.url(restored)}",
         tmp_path / "d.dump"], check=True, capture_output=True,
    )
    assert len(dbcli.list_tables(postgres.url(restored)).rows) == 2
    assert dbcli.check(postgres.url(restored)).ok
    postgres.drop(restored)


def test_list_check_and_purge(where: str) -> None:
    path = where
    build(path)
    listed = dbcli.list_tables(path)
    assert sorted(r.channel_id for r in listed.rows) == [1, 3]
    assert "gin_rummy" in listed.text() and "craits" in listed.text()
    assert [r.channel_id for r in dbcli.list_tables(path, ("finished",)).rows] == [2]
    checked = dbcli.check(path)
    assert checked.ok and len(checked.results) == 2 and "0 problem" in checked.text()

    dry = dbcli.purge(path, lobby_hours=24, idle_days=7, dry_run=True, now=NOW)
    assert dry.deleted == 0 and len(dry.tables) == 2
    assert dry.text() == "Would delete 1 stale lobby, 0 cancelled lobbies and 1 idle game."
    assert dry.listing() == [
        "  table 1 · Gin Rummy · a game, no move for 10.0 d · channel 1",
        "  table 3 · Craits · a lobby, open for 2.0 d · channel 3",
    ]
    assert len(dbcli.list_tables(path).rows) == 2
    kept = dbcli.purge(path, lobby_hours=72, idle_days=30, now=NOW)
    assert kept.deleted == 0 and kept.tables == ()

    def no(plan: dbcli.PurgeReport) -> None:
        assert plan.listing() == dry.listing()
        raise Declined("Nothing was deleted.")

    with pytest.raises(Declined):
        dbcli.purge(path, lobby_hours=24, idle_days=7, now=NOW, confirm=no)
    assert len(dbcli.list_tables(path).rows) == 2
    done = dbcli.purge(path, lobby_hours=24, idle_days=7, now=NOW, confirm=lambda plan: None)
    assert done.deleted == 2 and done.text().startswith("Deleted")
    assert dbcli.list_tables(path).rows == ()
    assert dbcli.list_tables(path).text() == "No tables."
    with pytest.raises(ValueError, match="0 or more"):
        dbcli.purge(path, lobby_hours=-1)
    with pytest.raises(ValueError, match="more than 0"):  # today's code: every game
        dbcli.purge(path, idle_days=0)


def test_purge_spares_a_game_with_a_running_timer_or_moved_while_it_asked(where: str) -> None:
    """Idle means nobody moved for the days given and no turn timer will move it; a game
    moved while the question waited is still stale no more, and stays."""
    build(where)

    async def timer_of_a_week_and_a_move() -> None:
        db = await open_database(where)
        clock = ManualClock(NOW - 6 * DAY)
        service = TableService(db, clock=clock)
        try:
            await service.create(4, 5, 20, "Di", "gin_rummy", turn_timer=7 * 86400)
            await service.join(4, 21, "Ed")
            await service.start(4, 20)
            await service.load()
            clock.t = NOW - DAY
            r = await service.status(1)
            mover = r.seats[r.to_act[0]].user_id
            assert mover is not None and r.to_act
            await service.act(1, mover, r.private[r.to_act[0]].legal[0])
        finally:
            await service.close()
            await db.close()

    def move_meanwhile(plan: dbcli.PurgeReport) -> None:
        assert [t.channel_id for t in plan.tables] == [1, 3]
        asyncio.run(timer_of_a_week_and_a_move())

    done = dbcli.purge(where, idle_days=5, now=NOW, confirm=move_meanwhile)
    assert done.deleted == 1  # the lobby; the game moved meanwhile
    assert sorted(r.channel_id for r in dbcli.list_tables(where).rows) == [1, 4]
    assert dbcli.purge(where, idle_days=5, dry_run=True, now=NOW).tables == ()  # timer runs
    later = [dbcli.purge(where, idle_days=5, dry_run=True, now=NOW + days * DAY).tables
             for days in (2, 5)]
    assert [[t.channel_id for t in found] for found in later] == [[4], [1, 4]]


LOST_MOVE = "DELETE FROM table_actions WHERE table_id = 2 AND version = 2"


def tamper(where: str, sql: str = LOST_MOVE) -> None:
    async def main() -> None:
        db = await open_database(where)
        try:
            await db.write(lambda c: c.execute(sql))
        finally:
            await db.close()

    asyncio.run(main())


def test_check_reports_a_tampered_log(where: str) -> None:
    build(where)
    tamper(where)
    report = dbcli.check(where)
    assert not report.ok and "table 2" in report.text()


def test_check_reports_ratings_that_differ_from_the_matches(where: str) -> None:
    build(where)
    assert "leagues' standings and ratings: 0 problems" in dbcli.check(where).text()
    tamper(where, "UPDATE league_ratings SET sigma = sigma / 2 WHERE user_id = 10")
    report = dbcli.check(where)
    assert not report.ok and all(r.ok for r in report.results)
    assert "'Default'" in report.text() and "ratings over time differ" in report.text()


def standings(where: str | Path) -> list[tuple[object, ...]]:
    async def main() -> list[tuple[object, ...]]:
        db = await open_database(where)
        try:
            rows = (await LeagueService(db).standings(5)).rows
            return [(r.user_id, r.rating, r.games, r.wins) for r in rows]
        finally:
            await db.close()

    return asyncio.run(main())


def next_table(where: str) -> int:
    async def main() -> int:
        db = await open_database(where)
        service = TableService(db, clock=ManualClock(NOW))
        try:
            return (await service.create(9, 5, 10, "Ann", "ono99")).table_id
        finally:
            await service.close()
            await db.close()

    return asyncio.run(main())


def test_copy_a_sqlite_database_into_postgresql(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "d.db"
    build(path)
    report = dbcli.copy(path, pg_url)
    assert report.ok, report.text()
    copied = dict(report.copied)
    assert copied["tables"] == 3 and copied["matches"] == 1 and copied["leagues"] == 1
    assert copied["table_actions"] > 10 and copied["league_players"] == 1
    assert copied["league_bot_ratings"] == 1
    assert len(report.results) == 2 and "0 problems" in report.text()
    assert standings(pg_url) == standings(path) != []
    assert dbcli.list_tables(pg_url).rows == dbcli.list_tables(path).rows
    assert next_table(pg_url) == 4  # new ids continue after the copied ones
    with pytest.raises(ValueError, match="already holds Deckhand rows"):
        dbcli.copy(path, pg_url)
    with pytest.raises(ValueError, match="reads a SQLite database"):
        dbcli.copy(pg_url, path)


def test_copy_reports_a_table_that_does_not_replay(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "d.db"
    build(path)
    tamper(str(path))
    report = dbcli.copy(path, pg_url)
    assert not report.ok and "table 2:" in report.text()


def test_purge_removes_cancelled_lobbies_with_their_references(where: str) -> None:
    """A lobby cancelled before its deal is no history: purged with its message ids once
    over the lobby limit; a game aborted after its deal stays."""
    build(where)

    async def cancel_a_lobby_and_abort_a_game() -> None:
        db = await open_database(where)
        service = TableService(db, clock=ManualClock(NOW - 2 * DAY))
        try:
            lobby = await service.create(4, 5, 10, "Ann", "spades")
            await service.abort(4, 10)
            await db.write(lambda c: c.execute(
                "INSERT INTO discord_messages (table_id, kind, user_id, channel_id,"
                " message_id) VALUES (?, 'table', 0, 4, 99)", (lobby.table_id,)
            ))
            await service.abort(1, 10)  # the idle game of build(), after its deal
        finally:
            await service.close()
            await db.close()

    asyncio.run(cancel_a_lobby_and_abort_a_game())
    dry = dbcli.purge(where, lobby_hours=24, idle_days=7, dry_run=True, now=NOW)
    assert dry.text() == "Would delete 1 stale lobby, 1 cancelled lobby and 0 idle games."
    done = dbcli.purge(where, lobby_hours=24, idle_days=7, now=NOW)
    assert done.deleted == 2

    async def left() -> list[tuple[object, ...]]:
        db = await open_database(where)
        try:
            rows = await db.read(lambda c: c.all("SELECT id, status FROM tables ORDER BY id"))
            refs = await db.read(lambda c: c.all("SELECT table_id FROM discord_messages"))
            return [values(r) for r in rows] + [
                ("refs", len(refs))
            ]
        finally:
            await db.close()

    assert asyncio.run(left()) == [(1, "aborted"), (2, "finished"), ("refs", 0)]
    kept = dbcli.purge(where, idle_days=1, now=NOW)
    assert kept.deleted == 0  # nothing open is left; history stays


def test_copy_refuses_a_sqlite_file_that_holds_no_deckhand_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE notes (x)").connection.close()
    with pytest.raises(StorageUnavailable, match="holds no Deckhand data"):
        dbcli.copy(other, tmp_path / "target.db")
    assert not (tmp_path / "target.db").exists()


def test_a_stopped_copy_writes_nothing(tmp_path: Path) -> None:
    import threading

    from storage.copy import CopyStopped, fill

    source = tmp_path / "d.db"
    build(source)
    stop = threading.Event()
    stop.set()

    async def main() -> int:
        db = await open_database(tmp_path / "target.db")
        try:
            with pytest.raises(CopyStopped):
                await db.write(fill, str(source), None, stop)
            row = await db.read(lambda c: c.one("SELECT count(*) AS n FROM tables"))
            assert row is not None
            return int(row["n"])
        finally:
            await db.close()

    assert asyncio.run(main()) == 0
