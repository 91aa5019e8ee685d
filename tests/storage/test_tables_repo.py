"""The tables repository on a real SQLite file: one open table per channel, guarded
writes, the action log, listing and purging stale tables, quarantine."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import tables as repo
from storage.db import Database

DAY = 86400.0


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "repo.db")
    yield database
    await database.close()


def new(channel: int, now: float = 0.0) -> repo.NewTable:
    return repo.NewTable(channel, 7, None, "ono99", "{}", 1, 42, "[]", 300, now)


async def test_one_open_table_per_channel(db: Database) -> None:
    async with db.transaction() as conn:
        first = await repo.insert(conn, new(5))
    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction() as conn:
            await repo.insert(conn, new(5))
    async with db.transaction() as conn:
        await repo.close(conn, first, "aborted", 1.0)
        second = await repo.insert(conn, new(5))
    assert (await repo.open_in_channel(db, 5)).id == second  # type: ignore[union-attr]
    latest = await repo.latest_in_channel(db, 5, "aborted")
    assert latest is not None and latest.id == first and latest.finished_at == 1.0


async def test_actions_are_logged_and_guarded_by_version(db: Database) -> None:
    async with db.transaction() as conn:
        tid = await repo.insert(conn, new(6))
        await repo.start(conn, tid, "[]", "snap0", 100.0, 1.0)
    for version in (1, 2):
        async with db.transaction() as conn:
            await repo.record_action(
                conn, tid, version=version, seat=version % 2, action=f"play {version}",
                by_user=None if version == 2 else 9, timed_out=version == 2,
                snapshot=f"snap{version}", deadline=None, finished=version == 2, now=2.0,
            )
    with pytest.raises(repo.RowChanged):
        async with db.transaction() as conn:
            await repo.record_action(
                conn, tid, version=3, seat=0, action="late", by_user=1, timed_out=False,
                snapshot="x", deadline=None, finished=False, now=3.0,
            )
    row = await repo.get(db, tid)
    assert row is not None
    assert (row.status, row.version, row.snapshot, row.finished_at) == ("finished", 2, "snap2", 2.0)
    log = await repo.actions(db, tid)
    assert [(a.version, a.action, a.by_user, a.timed_out) for a in log] == [
        (1, "play 1", 9, False), (2, "play 2", None, True),
    ]


async def test_a_stale_write_rolls_back_everything(db: Database) -> None:
    async with db.transaction() as conn:
        tid = await repo.insert(conn, new(8))
        await repo.start(conn, tid, "[]", "snap0", None, 1.0)
    with pytest.raises(repo.RowChanged):
        async with db.transaction() as conn:
            await repo.update_lobby(conn, tid, '[{"user_id": 1, "name": "x"}]', 1, 2.0)
    with pytest.raises(repo.RowChanged):
        async with db.transaction() as conn:
            await repo.record_action(
                conn, tid, version=1, seat=0, action="a", by_user=1, timed_out=False,
                snapshot="s1", deadline=None, finished=False, now=2.0,
            )
            await repo.set_reminded(conn, tid, 0)
    assert await repo.actions(db, tid) == []
    row = await repo.get(db, tid)
    assert row is not None and (row.version, row.snapshot, row.reminded) == (0, "snap0", False)


async def test_list_stale_and_purge(db: Database) -> None:
    now = 100 * DAY
    async with db.transaction() as conn:
        old_lobby = await repo.insert(conn, new(1, now - 2 * DAY))
        await repo.insert(conn, new(2, now - 3600))
        idle_game = await repo.insert(conn, new(3, now - 30 * DAY))
        await repo.start(conn, idle_game, "[]", "s", None, now - 30 * DAY)
        busy_game = await repo.insert(conn, new(4, now - 30 * DAY))
        await repo.start(conn, busy_game, "[]", "s", None, now - 60)
        done = await repo.insert(conn, new(5, now - 90 * DAY))
        await repo.close(conn, done, "finished", now - 90 * DAY)
        await repo.quarantine(conn, busy_game, "corrupt")
    listed = await repo.list_tables(db)
    assert {t.channel_id for t in listed} == {1, 2, 3, 4}
    assert listed[0].channel_id == 4 and listed[0].quarantine == "corrupt"
    assert [t.id for t in await repo.list_tables(db, ("finished",))] == [done]
    assert await repo.list_tables(db, guild_id=8) == []
    stale = await repo.stale(db, now, DAY, 7 * DAY)
    assert [t.id for t in stale] == [old_lobby, idle_game]
    async with db.transaction() as conn:
        assert await repo.delete(conn, [t.id for t in stale] + [done]) == 2
    assert {t.channel_id for t in await repo.list_tables(db)} == {2, 4}
    assert await repo.get(db, done) is not None
    assert await repo.ids(db, ("playing", "finished")) == [busy_game, done]
