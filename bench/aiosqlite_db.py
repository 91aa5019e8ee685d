"""The SQLite backend built on aiosqlite's public API — kept for ``bench/service_bench.py
--backends sqlite,aiosqlite`` only, which measures it beside the storage seam (why the
seam is what Deckhand runs: ``docs/architecture.md``, storage).

Everything but the connection is ``storage.sqlite.SqliteDatabase`` unchanged: group commit
(``BEGIN IMMEDIATE``, a ``SAVEPOINT`` per member), the quick and report readers, the
background checkpointer, each running the synchronous repositories (``storage.db``) on a
thread of its own. The connection is an ``aiosqlite.Connection``: aiosqlite's thread runs
every statement, and the repository's thread awaits each call on an event loop of its own
(aiosqlite answers the loop that asked). A statement is then two thread hops and never a
turn of the bot's event loop: the cheapest way to run these repositories over aiosqlite's
public API (awaiting each statement from the bot's loop adds a loop turn per statement,
behind everything else the loop is doing).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Coroutine, Iterator, Sequence
from typing import Any, TypeVar

import aiosqlite

from storage.db import Conn, Params, Row
from storage.sqlite import BUSY_TIMEOUT_MS, SqliteDatabase

T = TypeVar("T")


class AioConn(Conn):
    """``Conn`` over an ``aiosqlite.Connection`` in autocommit mode with ``sqlite3.Row``
    rows, used from one thread (which owns the event loop its calls are awaited on)."""

    dialect = "sqlite"

    def __init__(self, path: str, synchronous: str, *, query_only: bool) -> None:
        self._loop = asyncio.new_event_loop()
        pragmas = [f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}", f"PRAGMA synchronous={synchronous}",
                   "PRAGMA foreign_keys=ON"] + (["PRAGMA query_only=ON"] if query_only else [])
        self.aio = self._run(self._open(path, pragmas))

    @staticmethod
    async def _open(path: str, pragmas: list[str]) -> aiosqlite.Connection:
        aio = await aiosqlite.connect(path, isolation_level=None)
        aio.row_factory = sqlite3.Row
        for pragma in pragmas:
            async with aio.execute(pragma):
                pass
        return aio

    def _run(self, call: Coroutine[Any, Any, T]) -> T:
        return self._loop.run_until_complete(call)

    async def _changed(self, sql: str, params: Params) -> int:
        async with self.aio.execute(sql, tuple(params)) as cur:
            return cur.rowcount

    async def _many(self, sql: str, rows: Sequence[Params]) -> None:
        async with self.aio.executemany(sql, [tuple(r) for r in rows]):
            pass

    def execute(self, sql: str, params: Params = ()) -> int:
        return self._run(self._changed(sql, params))

    def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        self._run(self._many(sql, rows))

    def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(self._run(self.aio.execute_fetchall(sql, tuple(params))))

    def one(self, sql: str, params: Params = ()) -> Row | None:
        rows = self.all(sql, params)
        return rows[0] if rows else None

    def iterate(self, sql: str, params: Params = ()) -> Iterator[Row]:
        yield from self.all(sql, params)

    def begin_write(self) -> None:
        self.execute("BEGIN IMMEDIATE")

    def close(self) -> None:
        self._run(self.aio.close())
        self._loop.close()

    def announce(self, topic: str, payload: str) -> None:
        """One process owns a SQLite file: there is nobody else to tell."""

    @property
    def in_transaction(self) -> bool:
        return self.aio.in_transaction


class AiosqliteDatabase(SqliteDatabase):
    """``SqliteDatabase`` whose connections are aiosqlite's (open it with
    ``migrate=False`` on a file the seam migrated: migrations run SQLite scripts through
    ``sqlite3`` itself)."""

    @staticmethod
    def connection(path: str, synchronous: str, *, query_only: bool = False) -> Conn:
        return AioConn(path, synchronous, query_only=query_only)
