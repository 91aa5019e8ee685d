"""The tables repository on a real SQLite file: one open table per channel, guarded
writes, the action log, listing and purging stale tables, quarantine."""

from __future__ import annotations

import asyncio

import pytest

from storage import tables as repo
from storage.db import Conflict, Conn, Database, RowChanged

DAY = 86400.0


def new(channel: int, now: float = 0.0) -> repo.NewTable:
    return repo.NewTable(
        channel_id=channel, guild_id=7, league_id=None, game="ono99", options="{}", host_id=1,
        seed=42, seats="[]", turn_timer=300, now=now,
    )


async def test_one_open_table_per_channel(db: Database) -> None:
    first = await db.write(repo.insert, new(5))
    with pytest.raises(Conflict):
        await db.write(repo.insert, new(5))

    def close_and_reopen(c: Conn) -> int:
        repo.close(c, first, "aborted", 1.0)
        return repo.insert(c, new(5))

    second = await db.write(close_and_reopen)
    reopened = await db.read(repo.open_in_channel, 5)
    assert reopened is not None and reopened.id == second
    latest = await db.read(repo.latest_in_channel, 5, "aborted")
    assert latest is not None and latest.id == first and latest.finished_at == 1.0


def started(c: Conn, channel: int, snapshot: str = "snap0") -> int:
    tid = repo.insert(c, new(channel))
    repo.start(c, tid, "[]", snapshot, 100.0, 1.0)
    return tid


def act(c: Conn, tid: int, version: int, action: str, now: float = 2.0) -> None:
    repo.record_action(
        c, tid, version=version, seat=version % 2, action=action,
        by_user=None if version == 2 else 9, timed_out=version == 2,
        snapshot=f"snap{version}", deadline=None, finished=version == 2, now=now,
    )


async def test_actions_are_logged_and_guarded_by_version(db: Database) -> None:
    tid = await db.write(started, 6)
    for version in (1, 2):
        await db.write(act, tid, version, f"play {version}")
    with pytest.raises(RowChanged):
        await db.write(act, tid, 3, "late", 3.0)
    row = await db.read(repo.get, tid)
    assert row is not None
    assert (row.status, row.version, row.snapshot, row.finished_at) == ("finished", 2, "snap2", 2.0)
    log = await db.read(repo.actions, tid)
    assert [(a.version, a.action, a.by_user, a.timed_out) for a in log] == [
        (1, "play 1", 9, False), (2, "play 2", None, True),
    ]


async def test_a_stale_write_rolls_back_everything(db: Database, groups: list[int]) -> None:
    tid = await db.write(started, 8)
    with pytest.raises(RowChanged):
        await db.write(repo.update_lobby, tid, '[{"user_id": 1, "name": "x"}]', 1, 2.0)

    def move_then_stale_reminder(c: Conn) -> None:
        act(c, tid, 1, "a")
        repo.set_reminded(c, tid, 0)

    with pytest.raises(RowChanged):
        await db.write(move_then_stale_reminder)
    # the same as one member of a commit group: only its savepoint is rolled back
    done = await asyncio.gather(
        db.write(move_then_stale_reminder), db.write(repo.insert, new(9)),
        return_exceptions=True,
    )
    assert groups[-1] == 2
    assert isinstance(done[0], RowChanged) and isinstance(done[1], int)
    assert await db.read(repo.actions, tid) == []
    row = await db.read(repo.get, tid)
    assert row is not None and (row.version, row.snapshot, row.reminded) == (0, "snap0", False)
    assert await db.read(repo.open_in_channel, 9) is not None


async def test_list_stale_and_purge(db: Database) -> None:
    now = 100 * DAY

    def fill(c: Conn) -> tuple[int, int, int, int]:
        old_lobby = repo.insert(c, new(1, now - 2 * DAY))
        repo.insert(c, new(2, now - 3600))
        idle_game = repo.insert(c, new(3, now - 30 * DAY))
        repo.start(c, idle_game, "[]", "s", None, now - 30 * DAY)
        busy_game = repo.insert(c, new(4, now - 30 * DAY))
        repo.start(c, busy_game, "[]", "s", None, now - 60)
        done = repo.insert(c, new(5, now - 90 * DAY))
        repo.close(c, done, "finished", now - 90 * DAY)
        repo.quarantine(c, busy_game, "corrupt")
        return old_lobby, idle_game, busy_game, done

    old_lobby, idle_game, busy_game, done = await db.write(fill)
    listed = await db.read(repo.list_tables)
    assert {t.channel_id for t in listed} == {1, 2, 3, 4}
    assert listed[0].channel_id == 4 and listed[0].quarantine == "corrupt"
    assert [t.id for t in await db.read(repo.list_tables, ("finished",))] == [done]
    assert await db.read(repo.list_tables, guild_id=8) == []
    stale = await db.read(repo.stale, now, DAY, 7 * DAY)
    assert [t.id for t in stale] == [old_lobby, idle_game]
    assert await db.write(repo.delete, [t.id for t in stale] + [done]) == 2
    assert {t.channel_id for t in await db.read(repo.list_tables)} == {2, 4}
    assert await db.read(repo.get, done) is not None
    assert await db.read(repo.ids, ("playing", "finished")) == [busy_game, done]
