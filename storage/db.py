"""The database: one long-lived aiosqlite connection per process, and its migrations.

SQLite in WAL mode with foreign keys on and a busy timeout. The connection runs in
autocommit mode; every write goes through ``Database.transaction()``, which serialises
writers with an ``asyncio.Lock`` and wraps the body in ``BEGIN IMMEDIATE … COMMIT`` (or
``ROLLBACK`` on any exception), so a transaction is all or nothing even on ``kill -9``.

``synchronous=NORMAL`` (the default here) is durable against a killed process — a
committed transaction is in the WAL before ``COMMIT`` returns — and loses at most the last
moments of commits on a power cut; ``synchronous="FULL"`` also survives that, at the price
of an fsync per move.

Migrations are the numbered files ``storage/migrations/NNN_name.sql``; ``PRAGMA
user_version`` records the last one applied, each is applied in its own transaction, and
re-running is a no-op.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, Path]]:
    """The migration files, by number."""
    found = []
    for p in MIGRATIONS_DIR.iterdir():
        m = _MIGRATION_NAME.match(p.name)
        if m:
            found.append((int(m.group(1)), p))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"Migrations must be numbered 001, 002, … without gaps: {numbers}")
    return found


class Database:
    """An open Deckhand database."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(
        cls, path: str | Path, *, synchronous: str = "NORMAL", migrate: bool = True
    ) -> Database:
        """Open (creating if needed) the database at ``path`` and apply migrations."""
        if synchronous.upper() not in {"NORMAL", "FULL"}:
            raise ValueError("synchronous must be NORMAL or FULL")
        p = str(path)
        if p != ":memory:":
            Path(p).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(p, isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        db = cls(conn, p)
        if migrate:
            await db.migrate()
        return db

    async def close(self) -> None:
        """Close the connection (checkpointing the WAL)."""
        await self.conn.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> list[int]:
        """Apply pending migrations; return the numbers applied."""
        applied = []
        async with self._write_lock:
            current = await self.schema_version()
            for number, path in migrations():
                if number <= current:
                    continue
                script = path.read_text(encoding="utf-8")
                await self.conn.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
                )
                applied.append(number)
        return applied

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run the body as one write transaction; writers take turns."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of a query, or None."""
        async with self.conn.execute(sql, tuple(params)) as cur:
            row: sqlite3.Row | None = await cur.fetchone()
            return row

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """All rows of a query."""
        async with self.conn.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    async def backup(self, target: str | Path) -> None:
        """Copy the live database to ``target`` with SQLite's online backup."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        dest = await aiosqlite.connect(str(target))
        try:
            await self.conn.backup(dest)
        finally:
            await dest.close()
