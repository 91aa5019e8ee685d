"""The ``deckhand db`` functions on a real file: migrate, backup, list, purge, check."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.services import dbcli
from bot.services.tables import TableService
from storage.connect import open_database
from tests.services.conftest import ManualClock

NOW = 1_000_000.0
DAY = 86400.0


def build(path: Path) -> None:
    """Three tables: an old lobby, a game idle for ten days, a finished game."""

    async def main() -> None:
        db = await open_database(path)
        clock = ManualClock(NOW - 10 * DAY)
        service = TableService(db, clock=clock)
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


def test_migrate_and_backup(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    first = dbcli.migrate(path)
    assert first.applied[0] == 1 and "Applied" in first.text()
    again = dbcli.migrate(path)
    assert again.applied == () and again.version == first.version
    assert "up to date" in again.text()
    build(path)
    message = dbcli.backup(path, tmp_path / "b" / "copy.db")
    assert "Backed up" in message
    copy = sqlite3.connect(tmp_path / "b" / "copy.db")
    try:
        assert copy.execute("SELECT count(*) FROM tables").fetchone() == (3,)
    finally:
        copy.close()


def test_list_check_and_purge(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    build(path)
    listed = dbcli.list_tables(path)
    assert sorted(r.channel_id for r in listed.rows) == [1, 3]
    assert "gin_rummy" in listed.text() and "craits" in listed.text()
    assert [r.channel_id for r in dbcli.list_tables(path, ("finished",)).rows] == [2]
    checked = dbcli.check(path)
    assert checked.ok and len(checked.results) == 2 and "0 problem" in checked.text()

    dry = dbcli.purge(path, lobby_hours=24, idle_days=7, dry_run=True, now=NOW)
    assert dry.deleted == 0 and len(dry.tables) == 2
    assert dry.text() == "Would delete 1 stale lobby(ies) and 1 idle game(s)."
    assert len(dbcli.list_tables(path).rows) == 2
    kept = dbcli.purge(path, lobby_hours=72, idle_days=30, now=NOW)
    assert kept.deleted == 0 and kept.tables == ()
    done = dbcli.purge(path, lobby_hours=24, idle_days=7, now=NOW)
    assert done.deleted == 2 and done.text().startswith("Deleted")
    assert dbcli.list_tables(path).rows == ()
    assert dbcli.list_tables(path).text() == "No tables."
    with pytest.raises(ValueError, match="positive"):
        dbcli.purge(path, lobby_hours=0)


def test_check_reports_a_tampered_log(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    build(path)
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM table_actions WHERE table_id = 2 AND version = 2")
    conn.commit()
    conn.close()
    report = dbcli.check(path)
    assert not report.ok and "table 2" in report.text()
