"""The database's write paths and read isolation on a real SQLite file: group commit (all
durable, one failing member does not affect the others, whole-group losses re-run the
innocent), reads that never see another task's uncommitted rows."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import storage.db
from storage import tables as repo
from storage.db import Database


def new(channel: int) -> repo.NewTable:
    return repo.NewTable(channel, 7, None, "ono99", "{}", 1, 42, "[]", 300, 0.0)


def lobby(channel: int) -> Callable[[sqlite3.Connection], int]:
    return lambda c: repo.insert(c, new(channel))


async def held_open(db: Database, body: Callable[[], Any]) -> None:
    """Run ``body`` (which queues writes) while another task holds a write transaction, so
    everything it queues is committed as one group when that transaction ends."""
    entered, release = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with db.transaction():
            entered.set()
            await release.wait()

    task = asyncio.create_task(holder())
    await entered.wait()
    body()
    await asyncio.sleep(0)
    release.set()
    await task


async def test_concurrent_writes_are_grouped_and_all_durable(
    tmp_path: Path, groups: list[int]
) -> None:
    path = tmp_path / "many.db"
    db = await Database.open(path)
    ids = await asyncio.gather(*[db.write(lobby(ch)) for ch in range(1, 301)])
    assert len(set(ids)) == 300
    assert sum(groups) == 300 and max(groups) > 1, groups
    await db.close()
    with closing(sqlite3.connect(path)) as check:
        rows = check.execute("SELECT id, channel_id FROM tables ORDER BY channel_id").fetchall()
    assert rows == [(tid, ch) for ch, tid in zip(range(1, 301), ids, strict=True)]


async def test_a_failing_member_does_not_affect_the_others(
    db: Database, groups: list[int]
) -> None:
    def half_then_fail(c: sqlite3.Connection) -> None:
        repo.insert(c, new(50))  # written, then undone with the member's savepoint
        raise ValueError("the move was bad")

    tasks: list[asyncio.Task[Any]] = []

    def queue() -> None:
        tasks.append(asyncio.create_task(db.write(lobby(1))))
        tasks.append(asyncio.create_task(db.write(half_then_fail)))
        tasks.append(asyncio.create_task(db.write(lobby(2))))
        tasks.append(asyncio.create_task(db.write(lobby(1))))  # an open table there already
        tasks.append(asyncio.create_task(db.write(lobby(3))))

    await held_open(db, queue)
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert groups == [5]
    assert isinstance(done[1], ValueError) and isinstance(done[3], sqlite3.IntegrityError)
    assert all(isinstance(done[i], int) for i in (0, 2, 4))
    rows = await db.fetchall("SELECT channel_id FROM tables ORDER BY channel_id")
    assert [r[0] for r in rows] == [1, 2, 3]
    assert await db.write(lobby(50)) > 0  # the connection is fine afterwards


async def test_a_member_that_loses_the_transaction_fails_alone(
    db: Database, groups: list[int]
) -> None:
    def abandon(c: sqlite3.Connection) -> None:
        repo.insert(c, new(60))
        c.execute("ROLLBACK")  # as SQLite does itself on e.g. a full disk
        raise OSError("disk full")

    tasks: list[asyncio.Task[Any]] = []

    def queue() -> None:
        tasks.extend(asyncio.create_task(db.write(w)) for w in (lobby(1), abandon, lobby(2)))

    await held_open(db, queue)
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(done[1], OSError) and isinstance(done[0], int) and isinstance(done[2], int)
    assert groups == [3, 2]  # lobby(1) was rolled back with the group and re-run
    rows = await db.fetchall("SELECT channel_id FROM tables ORDER BY channel_id")
    assert [r[0] for r in rows] == [1, 2]


async def test_a_failed_commit_reruns_each_member_alone(db: Database, groups: list[int]) -> None:
    def dangling(c: sqlite3.Connection) -> None:
        c.execute("PRAGMA defer_foreign_keys = ON")  # the violation surfaces at COMMIT
        c.execute(
            "INSERT INTO table_actions (table_id, version, seat, action, at)"
            " VALUES (999, 1, 0, 'x', 0)"
        )

    tasks: list[asyncio.Task[Any]] = []

    def queue() -> None:
        tasks.extend(asyncio.create_task(db.write(w)) for w in (lobby(1), dangling, lobby(2)))

    await held_open(db, queue)
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(done[1], sqlite3.IntegrityError)
    assert isinstance(done[0], int) and isinstance(done[2], int)
    assert groups == [3, 1, 1, 1]
    rows = await db.fetchall("SELECT channel_id FROM tables ORDER BY channel_id")
    assert [r[0] for r in rows] == [1, 2]
    assert await db.fetchall("SELECT * FROM table_actions") == []


async def test_reads_see_only_committed_rows_except_inside_the_transaction(
    db: Database,
) -> None:
    inserted, release = asyncio.Event(), asyncio.Event()
    inside: list[int] = []

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO tables (channel_id, guild_id, game, options, host_id, status,"
                " seed, seats, created_at, updated_at)"
                " VALUES (9, 1, 'ono99', '{}', 1, 'lobby', 1, '[]', 0, 0)"
            )
            row = await repo.open_in_channel(db, 9)  # its own write, through the writer
            inside.append(row.id if row else 0)
            inserted.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await inserted.wait()
    assert await repo.open_in_channel(db, 9) is None  # not committed yet
    assert (await db.fetchone("SELECT count(*) FROM tables"))[0] == 0  # type: ignore[index]
    release.set()
    await task
    assert inside[0] > 0
    assert (await repo.open_in_channel(db, 9)) is not None


async def test_write_and_call_refuse_the_wrong_place(db: Database) -> None:
    with pytest.raises(RuntimeError):
        await db.call(lobby(1))
    async with db.transaction():
        with pytest.raises(RuntimeError):
            await db.write(lobby(1))
        assert await db.call(lobby(1)) > 0
    assert (await repo.open_in_channel(db, 1)) is not None


async def test_close_commits_what_is_queued(tmp_path: Path) -> None:
    path = tmp_path / "close.db"
    db = await Database.open(path)
    tasks = [asyncio.create_task(db.write(lobby(ch))) for ch in range(1, 21)]
    await asyncio.sleep(0)
    await db.close()
    assert all(isinstance(t.result(), int) for t in tasks)
    with closing(sqlite3.connect(path)) as check:
        assert check.execute("SELECT count(*) FROM tables").fetchone() == (20,)


async def test_checkpoints_run_in_the_background(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    db = await Database.open(path)
    try:
        db.checkpoint_interval = 0.0
        empty = path.stat().st_size
        seats = "[" + ",".join(['{"user_id": 1, "name": "x"}'] * 50) + "]"
        for ch in range(1, 201):
            await db.write(lambda c: repo.insert(c, replace(new(ch), seats=seats)))  # noqa: B023
        while db._checkpointing is not None:
            await asyncio.sleep(0.01)
        assert path.stat().st_size > empty + 200 * len(seats) // 2  # copied into the file
    finally:
        await db.close()


async def test_a_wal_too_long_for_passive_checkpoints_is_restarted(db: Database) -> None:
    seen: list[str] = []
    assert db._checkpointer is not None
    await storage.db.on_thread(db._checkpointer, lambda c: c.set_trace_callback(seen.append))
    db.checkpoint_interval = 1e12  # only the explicit checkpoints below
    for ch in range(1, 41):
        await db.write(lambda c: repo.insert(c, new(ch)))  # noqa: B023
    await db._checkpoint(db._checkpointer)
    assert seen == ["PRAGMA wal_checkpoint(PASSIVE)"]
    db.wal_restart_frames = 10
    for ch in range(41, 81):
        await db.write(lambda c: repo.insert(c, new(ch)))  # noqa: B023
    await db._checkpoint(db._checkpointer)
    assert seen[1:] == ["PRAGMA wal_checkpoint(PASSIVE)", "PRAGMA wal_checkpoint(RESTART)"]
