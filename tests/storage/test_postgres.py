"""What only the PostgreSQL backend has to prove, on a real server: ``?`` placeholders,
one schema for both dialects, migrations and version checks across processes, connections
lost while idle, inside a transaction and during ``COMMIT``, plain sentences for servers
that cannot be used, ``pg_dump`` backups, the integrity check."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import threading
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

import storage.postgres
from storage import tables as repo
from storage.connect import open_database
from storage.db import (
    CommitUncertain,
    Conn,
    Database,
    RowChanged,
    StorageUnavailable,
    migrations,
)
from storage.postgres import PostgresDatabase, translate
from tests.conftest import PostgresCluster
from tests.waiting import DEADLINE, until


def new(channel: int) -> repo.NewTable:
    return repo.NewTable(
        channel_id=channel, guild_id=7, league_id=None, game="ono99", options="{}", host_id=1,
        seed=42, seats="[]", turn_timer=300, now=0.0,
    )


def channels(c: Conn) -> list[int]:
    return [r["channel_id"] for r in c.all("SELECT channel_id FROM tables ORDER BY channel_id")]


def test_placeholders_become_psycopg_ones_outside_quotes_and_comments() -> None:
    sql = "SELECT ?, '?''s', \"a?\", 5 % 2 -- why?\nFROM t WHERE x = ?"
    assert translate(sql) == "SELECT %s, '?''s', \"a?\", 5 %% 2 -- why?\nFROM t WHERE x = %s"


async def test_a_url_selects_postgresql_and_no_password_is_shown(pg_url: str) -> None:
    with_password = pg_url.replace("postgres:@", "postgres:hunter2@")
    db = await open_database(with_password)
    try:
        assert db.dialect == "postgresql" and "hunter2" not in db.where
        assert db.where.startswith("postgresql://postgres@")
        row = await db.read(lambda c: c.one("SELECT ? AS a, '?' AS b, 7 % 3 AS c", (1,)))
        assert row == {"a": 1, "b": "?", "c": 1}
        assert await db.read(lambda c: c.one("SELECT '100%' AS p")) == {"p": "100%"}
    finally:
        await db.close()


def sqlite_schema(path: Path) -> dict[str, dict[str, bool]]:
    """Each table's columns and whether they are NOT NULL."""
    with closing(sqlite3.connect(path)) as raw:
        names = [r[0] for r in raw.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
        return {
            t: {c[1]: bool(c[3]) or bool(c[5]) for c in raw.execute(f"PRAGMA table_info({t})")}
            for t in names
        }


def sqlite_indexes(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as raw:
        rows = raw.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"
        )
        return {r[0] for r in rows}


def postgres_schema(c: Conn) -> tuple[dict[str, dict[str, bool]], set[str], set[str]]:
    found: dict[str, dict[str, bool]] = {}
    for r in c.all(
        "SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns"
        " WHERE table_schema = 'public' AND table_name <> 'deckhand_schema'"
    ):
        found.setdefault(r["table_name"], {})[r["column_name"]] = r["is_nullable"] == "NO"
    types = {r["data_type"] for r in c.all(
        "SELECT data_type FROM information_schema.columns WHERE table_schema = 'public'"
        " AND table_name <> 'deckhand_schema'"
    )}
    indexes = {r["indexname"] for r in c.all(
        "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
        " AND indexname NOT LIKE '%_pkey'"
    )}
    return found, types, indexes


async def test_one_schema_for_both_dialects(pg_url: str, tmp_path: Path) -> None:
    lite = await open_database(tmp_path / "d.db")
    await lite.close()
    db = await open_database(pg_url)
    try:
        columns, types, indexes = await db.read(postgres_schema)
    finally:
        await db.close()
    assert columns == sqlite_schema(tmp_path / "d.db")
    assert types == {"bigint", "double precision", "text"}
    assert indexes == sqlite_indexes(tmp_path / "d.db")


async def test_two_processes_starting_together_migrate_once(pg_url: str) -> None:
    first, second = await asyncio.gather(open_database(pg_url), open_database(pg_url))
    try:
        last = migrations()[-1][0]
        assert await first.schema_version() == await second.schema_version() == last
        assert await first.migrate() == [] and await second.migrate() == []
    finally:
        await first.close()
        await second.close()


async def test_of_two_processes_moving_one_table_exactly_one_wins(pg_url: str) -> None:
    here, there = await open_database(pg_url), await open_database(pg_url)
    try:
        def started(c: Conn) -> int:
            tid = repo.insert(c, new(1))
            repo.start(c, tid, "[]", "snap0", None, 1.0)
            return tid

        tid = await here.write(started)
        moved, release = threading.Event(), threading.Event()

        def act(c: Conn, action: str, hold: bool) -> None:
            repo.record_action(
                c, tid, version=1, seat=0, action=action, by_user=9, timed_out=False,
                snapshot=f"after {action}", deadline=None, finished=False, now=2.0,
            )
            if hold:  # keep the row locked until the other process tried too
                moved.set()
                release.wait(10)

        first = asyncio.create_task(here.write(act, "first", True))
        await asyncio.to_thread(moved.wait, 10)
        second = asyncio.create_task(there.write(act, "second", False))
        await asyncio.sleep(0.05)  # let the second reach the row lock (either way it loses)
        release.set()
        done = await asyncio.gather(first, second, return_exceptions=True)
        assert done[0] is None and isinstance(done[1], RowChanged)
        log = await there.read(repo.actions, tid)
        assert [a.action for a in log] == ["first"]
    finally:
        await here.close()
        await there.close()


def terminate_others(postgres: PostgresCluster, pg_url: str) -> int:
    name = psycopg.conninfo.conninfo_to_dict(pg_url)["dbname"]
    rows = postgres.admin.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = %s AND pid <> pg_backend_pid()", (name,),
    ).fetchall()
    return len(rows)


async def test_connections_dropped_while_idle_are_replaced_unnoticed(
    pg_url: str, postgres: PostgresCluster
) -> None:
    db = await open_database(pg_url)
    try:
        await db.write(repo.insert, new(1))
        # writer, reader and reporter: a restart, a blip
        assert terminate_others(postgres, pg_url) == 3
        assert await db.write(repo.insert, new(2)) > 0
        assert await db.read(channels) == [1, 2]
        assert await db.report(channels) == [1, 2]
    finally:
        await db.close()


async def test_a_connection_lost_inside_a_transaction_fails_only_that_work(
    pg_url: str, groups: list[int]
) -> None:
    db = await open_database(pg_url)
    try:
        await lost_inside(db, groups)
    finally:
        await db.close()


async def lost_inside(db: Database, groups: list[int]) -> None:
    started, release = threading.Event(), threading.Event()

    def hold(c: Conn) -> None:
        started.set()
        release.wait(10)

    def lost(c: Conn) -> None:
        c.one("SELECT pg_terminate_backend(pg_backend_pid())")

    holder = asyncio.create_task(db.write(hold))
    await asyncio.to_thread(started.wait, 10)
    tasks = [asyncio.create_task(db.write(w))
             for w in (lambda c: repo.insert(c, new(1)), lost, lambda c: repo.insert(c, new(2)))]
    await asyncio.sleep(0)
    release.set()
    await holder
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(done[0], int) and isinstance(done[2], int)
    assert isinstance(done[1], StorageUnavailable) and "cannot be reached" in str(done[1])
    assert groups == [1, 3, 2]
    assert await db.read(channels) == [1, 2]


async def test_a_connection_lost_during_commit_is_uncertain_and_never_rerun(
    pg_url: str, groups: list[int]
) -> None:
    db = await open_database(pg_url)
    try:
        await db.write(lambda c: c.execute(
            "CREATE FUNCTION die() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            " PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$;"
            " CREATE CONSTRAINT TRIGGER die_at_commit AFTER INSERT ON tables"
            " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.channel_id = 666)"
            " EXECUTE FUNCTION die();"
        ))
        groups.clear()
        done = await asyncio.gather(
            db.write(repo.insert, new(1)), db.write(repo.insert, new(666)),
            return_exceptions=True,
        )
        assert all(isinstance(d, CommitUncertain) for d in done), done
        assert "may or may not have been saved" in str(done[0])
        assert groups == [2]  # not re-run: it might have been committed
        assert await db.read(channels) == []  # (here the server had not committed it)
        assert await db.write(repo.insert, new(2)) > 0
    finally:
        await db.close()


async def test_servers_that_cannot_be_used_say_so(postgres: PostgresCluster) -> None:
    with pytest.raises(StorageUnavailable) as missing:
        await open_database(postgres.url("no_such_db"))
    assert "/no_such_db?host=" in str(missing.value)
    assert "does not exist: create it" in str(missing.value)
    with pytest.raises(StorageUnavailable) as down:
        await open_database("postgresql://deckhand@127.0.0.1:1/deckhand")
    text = str(down.value)
    assert text.startswith(
        "The PostgreSQL database postgresql://deckhand@127.0.0.1:1/deckhand cannot be reached"
    ) and "check that the server is running" in text
    with pytest.raises(StorageUnavailable) as login:
        await open_database(postgres.url("postgres").replace("postgres:@", "nobody:@"))
    assert "refused the login" in str(login.value)


async def test_a_row_locked_elsewhere_times_out_plainly(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.postgres, "LOCK_TIMEOUT_MS", 50)
    db = await open_database(pg_url)
    try:
        tid = await db.write(repo.insert, new(1))
        with psycopg.connect(pg_url) as other:  # a transaction of another program
            other.execute("UPDATE tables SET host_id = 2 WHERE id = %s", (tid,))
            with pytest.raises(StorageUnavailable) as info:
                await db.write(repo.update_lobby, tid, "[]", 3, 1.0)
            assert "is locked by another program" in str(info.value)
            other.rollback()
        await db.write(repo.update_lobby, tid, "[]", 3, 1.0)
    finally:
        await db.close()


async def test_backup_uses_pg_dump_or_says_what_it_needs(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, postgres: PostgresCluster
) -> None:
    db = await open_database(pg_url)
    try:
        await db.write(repo.insert, new(1))
        monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
        with pytest.raises(StorageUnavailable) as info:
            await db.backup(str(tmp_path / "b.dump"))
        assert "needs pg_dump, which is not installed here" in str(info.value)
        monkeypatch.setenv("PATH", f"{postgres.bin}{os.pathsep}{os.environ.get('PATH', '')}")
        message = await db.backup(str(tmp_path / "d.dump"))
    finally:
        await db.close()
    assert "with pg_dump" in message and "pg_restore" in message
    listing = subprocess.run(
        [postgres.bin / "pg_restore", "--list", tmp_path / "d.dump"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert "TABLE DATA public tables" in listing


async def test_integrity_reads_every_table_and_checks_indexes(pg_url: str) -> None:
    db = await open_database(pg_url)
    try:
        await db.write(repo.insert, new(1))
        assert isinstance(db, PostgresDatabase) and await db.integrity() == []
        await db.write(lambda c: c.execute("CREATE EXTENSION amcheck"))
        assert await db.integrity() == []  # every index checked, none broken
    finally:
        await db.close()


async def listening_to(listening: Database, writing: Database) -> asyncio.Queue[str | None]:
    """What ``listening`` hears on topic ``deckhand_test``, once its listener is live
    (``writing`` announces "ready?" until the first one is heard)."""
    heard: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def hear(payload: str | None) -> None:
        loop.call_soon_threadsafe(heard.put_nowait, payload)

    listening.listen("deckhand_test", hear)

    async def live() -> bool:
        if heard.empty():
            await writing.write(lambda c: c.announce("deckhand_test", "ready?"))
        return not heard.empty()

    await until(live, "the listener to hear a first announcement")
    return heard


async def test_announcements_reach_other_processes_only_when_committed(pg_url: str) -> None:
    """NOTIFY through ``Conn.announce`` is heard by every ``listen``er on the database —
    once the write commits, never for a write that failed."""
    listening, writing = await open_database(pg_url), await open_database(pg_url)
    try:
        heard = await listening_to(listening, writing)

        def refused(c: Conn) -> None:
            c.announce("deckhand_test", "rolled back")
            raise RuntimeError("refused")

        with pytest.raises(RuntimeError):
            await writing.write(refused)
        await writing.write(lambda c: c.announce("deckhand_test", "7 moved"))
        # Announcements arrive in the order their writes committed: before "7 moved" come
        # only listening_to's "ready?"s, never the rolled-back one.
        while (note := await asyncio.wait_for(heard.get(), DEADLINE)) != "7 moved":
            assert note == "ready?", note
    finally:
        await writing.close()
        await listening.close()


async def test_a_listener_whose_connection_drops_listens_again_and_says_it_missed_some(
    pg_url: str, postgres: PostgresCluster
) -> None:
    """A database restart or a network blip ends the listener's connection: it connects
    again and hears ``None`` (announcements may have been missed), then hears on."""
    listening, writing = await open_database(pg_url), await open_database(pg_url)
    try:
        heard = await listening_to(listening, writing)
        assert terminate_others(postgres, pg_url) >= 1
        while (note := await asyncio.wait_for(heard.get(), DEADLINE)) is not None:
            assert note == "ready?"
        await writing.write(lambda c: c.announce("deckhand_test", "7 moved"))
        assert await asyncio.wait_for(heard.get(), DEADLINE) == "7 moved"
    finally:
        await writing.close()
        await listening.close()


async def test_a_database_restart_refuses_writes_meanwhile_and_then_carries_on() -> None:
    """The server stops (fast shutdown) and starts again, on a server of this test's own:
    writes meanwhile are refused as "cannot be reached" (nothing half-saved), writes after
    it succeed on fresh connections, and the listener says it missed announcements."""
    cluster = PostgresCluster()
    try:
        url = cluster.url(cluster.create())
        db = await open_database(url)
        heard = await listening_to(db, db)
        await db.write(repo.insert, new(1))
        cluster.admin.close()
        pid = cluster.server.get_pid()
        assert pid is not None
        os.kill(pid, signal.SIGINT)  # fast shutdown
        await until(lambda: not pid_alive(pid), "the server to stop")
        with pytest.raises(StorageUnavailable, match="cannot be reached"):
            await db.write(repo.insert, new(2))
        cluster.server.ensure_postgres_running()
        assert await db.write(repo.insert, new(3)) > 0
        assert await db.read(channels) == [1, 3]
        while (note := await asyncio.wait_for(heard.get(), DEADLINE)) is not None:
            assert note == "ready?"
        await db.close()
    finally:
        cluster.close()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
