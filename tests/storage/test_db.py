"""The database's write paths and read isolation on both backends: group commit (all
durable, one failing member does not affect the others, whole-group losses re-run the
innocent), reads that never see uncommitted rows; on SQLite, checkpoints off the commit
path."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest

from storage import tables as repo
from storage.connect import open_database
from storage.db import Conflict, Conn, Database
from storage.sqlite import SqliteConn, SqliteDatabase
from tests.storage.holding import held_open
from tests.waiting import until


def new(channel: int) -> repo.NewTable:
    return repo.NewTable(
        channel_id=channel, guild_id=7, league_id=None, game="ono99", options="{}", host_id=1,
        seed=42, seats="[]", turn_timer=300, now=0.0,
    )


def lobby(channel: int) -> Callable[[Conn], int]:
    return lambda c: repo.insert(c, new(channel))


def channels(c: Conn) -> list[int]:
    return [r["channel_id"] for r in c.all("SELECT channel_id FROM tables ORDER BY channel_id")]


def ids_and_channels(c: Conn) -> list[tuple[int, int]]:
    rows = c.all("SELECT id, channel_id FROM tables ORDER BY channel_id")
    return [(r["id"], r["channel_id"]) for r in rows]


async def test_concurrent_writes_are_grouped_and_all_durable(
    where: str, groups: list[int]
) -> None:
    db = await open_database(where)
    ids = await asyncio.gather(*[db.write(lobby(ch)) for ch in range(1, 301)])
    assert len(set(ids)) == 300
    assert sum(groups) == 300 and max(groups) > 1, groups
    await db.close()
    again = await open_database(where)
    try:
        rows = await again.read(ids_and_channels)
    finally:
        await again.close()
    assert rows == [(tid, ch) for ch, tid in zip(range(1, 301), ids, strict=True)]


async def test_a_failing_member_does_not_affect_the_others(
    db: Database, groups: list[int]
) -> None:
    def half_then_fail(c: Conn) -> None:
        repo.insert(c, new(50))  # written, then undone with the member's savepoint
        raise ValueError("the move was bad")

    tasks: list[asyncio.Task[Any]] = []

    def queue() -> None:
        tasks.append(asyncio.create_task(db.write(lobby(1))))
        tasks.append(asyncio.create_task(db.write(half_then_fail)))
        tasks.append(asyncio.create_task(db.write(lobby(2))))
        tasks.append(asyncio.create_task(db.write(lobby(1))))  # an open table there already
        tasks.append(asyncio.create_task(db.write(lobby(3))))

    await held_open(db, queue, writes=5)
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert groups == [1, 5]
    assert isinstance(done[1], ValueError) and isinstance(done[3], Conflict)
    assert all(isinstance(done[i], int) for i in (0, 2, 4))
    assert await db.read(channels) == [1, 2, 3]
    assert await db.write(lobby(50)) > 0  # the connection is fine afterwards


async def test_a_member_that_loses_the_transaction_fails_alone(
    db: Database, groups: list[int]
) -> None:
    def abandon(c: Conn) -> None:
        repo.insert(c, new(60))
        c.execute("ROLLBACK")  # as SQLite does itself on e.g. a full disk
        raise OSError("disk trouble")

    tasks: list[asyncio.Task[Any]] = []

    def queue() -> None:
        tasks.extend(asyncio.create_task(db.write(w)) for w in (lobby(1), abandon, lobby(2)))

    await held_open(db, queue, writes=3)
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(done[1], Exception) and isinstance(done[0], int)
    assert isinstance(done[2], int)
    assert groups == [1, 3, 2]  # lobby(1) was rolled back with the group and re-run
    assert await db.read(channels) == [1, 2]


async def test_a_failed_commit_reruns_each_member_alone(db: Database, groups: list[int]) -> None:
    if db.dialect == "postgresql":  # only a deferrable key can be deferred there
        await db.write(lambda c: c.execute(
            "ALTER TABLE table_actions ALTER CONSTRAINT table_actions_table_id_fkey DEFERRABLE"
        ))
        groups.clear()

    def dangling(c: Conn) -> None:
        # the violation surfaces at COMMIT
        c.execute(
            "PRAGMA defer_foreign_keys = ON" if c.dialect == "sqlite"
            else "SET CONSTRAINTS ALL DEFERRED"
        )
        c.execute(
            "INSERT INTO table_actions (table_id, version, seat, action, at)"
            " VALUES (999, 1, 0, 'x', 0)"
        )

    tasks: list[asyncio.Task[Any]] = []

    def queue() -> None:
        tasks.extend(asyncio.create_task(db.write(w)) for w in (lobby(1), dangling, lobby(2)))

    await held_open(db, queue, writes=3)
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(done[1], sqlite3.IntegrityError | psycopg.errors.ForeignKeyViolation)
    assert isinstance(done[0], int) and isinstance(done[2], int)
    assert groups == [1, 3, 1, 1, 1]
    assert await db.read(channels) == [1, 2]
    assert await db.read(lambda c: c.all("SELECT * FROM table_actions")) == []


async def test_reads_see_only_committed_rows(db: Database) -> None:
    inserted, release = threading.Event(), threading.Event()

    def slow_insert(c: Conn) -> int | None:
        repo.insert(c, new(9))
        row = repo.open_in_channel(c, 9)  # its own write, in its own transaction
        inserted.set()
        release.wait(10)
        return row.id if row else None

    task = asyncio.create_task(db.write(slow_insert))
    await asyncio.to_thread(inserted.wait, 10)
    assert await db.read(repo.open_in_channel, 9) is None  # not committed yet
    release.set()
    assert await task
    assert await db.read(repo.open_in_channel, 9) is not None


async def test_reports_never_queue_in_front_of_reads(db: Database) -> None:
    await db.write(lobby(1))
    started, release = threading.Event(), threading.Event()

    def long_report(c: Conn) -> list[int]:
        started.set()
        release.wait(10)
        return channels(c)

    reports = [asyncio.create_task(db.report(long_report)) for _ in range(3)]
    await asyncio.to_thread(started.wait, 10)
    try:
        # the reporter is busy with the first report, two more wait for it: a read does not
        assert await asyncio.wait_for(db.read(channels), 5) == [1]
        assert not any(r.done() for r in reports)
    finally:
        release.set()
    assert await asyncio.gather(*reports) == [[1]] * 3


async def test_close_commits_what_is_queued(where: str) -> None:
    db = await open_database(where)
    tasks = [asyncio.create_task(db.write(lobby(ch))) for ch in range(1, 21)]
    await asyncio.sleep(0)
    await db.close()
    assert all(isinstance(t.result(), int) for t in tasks)
    again = await open_database(where)
    try:
        assert await again.read(channels) == list(range(1, 21))
    finally:
        await again.close()


async def test_checkpoints_run_in_the_background(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    db = await SqliteDatabase.open(path)
    try:
        db.checkpoint_interval = 0.0
        empty = path.stat().st_size
        seats = "[" + ",".join(['{"user_id": 1, "name": "x"}'] * 50) + "]"
        for ch in range(1, 201):
            await db.write(lambda c: repo.insert(c, replace(new(ch), seats=seats)))  # noqa: B023
        await db.close()
        assert path.stat().st_size > empty + 200 * len(seats) // 2  # copied into the file
    finally:
        await db.close()


async def test_a_wal_too_long_for_passive_checkpoints_is_restarted(tmp_path: Path) -> None:
    db = await SqliteDatabase.open(tmp_path / "restart.db")
    seen: list[str] = []

    def trace(c: Conn) -> None:
        assert isinstance(c, SqliteConn)
        c.raw.set_trace_callback(lambda sql: seen.append(sql) if "checkpoint" in sql else None)

    try:
        await db.read(trace)  # reads and checkpoints do not share a connection
        await db.write(trace)
        db.checkpoint_interval = 1e12  # only the explicit checkpoints below
        for ch in range(1, 41):
            await db.write(lambda c: repo.insert(c, new(ch)))  # noqa: B023
        assert seen == []
        db.checkpoint_interval = 0.0
        db.wal_restart_frames = 10
        await db.write(lambda c: repo.insert(c, new(99)))
        await until(lambda: not db.checkpointing(), "the checkpoint to end")
        assert seen == ["PRAGMA wal_checkpoint(RESTART)"]  # the passive one ran elsewhere
    finally:
        await db.close()


@pytest.mark.parametrize("where", ["plain", "url"])
async def test_a_path_or_a_sqlite_url_selects_sqlite(tmp_path: Path, where: str) -> None:
    path = tmp_path / "x.db"
    db = await open_database(path if where == "plain" else f"sqlite:///{path}")
    try:
        assert db.dialect == "sqlite" and db.where == str(path)
    finally:
        await db.close()
