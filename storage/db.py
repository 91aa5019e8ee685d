"""The database: a writer, a reader and a checkpointer connection per process; migrations.

SQLite in WAL mode with foreign keys on and a busy timeout; the connections run in
autocommit mode. Durability and isolation decisions:

* **Writes** are serialised on the writer connection by an ``asyncio.Lock``. There are two
  ways in, both all-or-nothing even on ``kill -9``:

  - ``transaction()``: an async body in ``BEGIN IMMEDIATE … COMMIT`` (``ROLLBACK`` on any
    exception). Each statement in the body is one round trip to the writer's thread.
  - ``write(work)``: ``work`` is a plain function of the ``sqlite3.Connection`` that runs
    on the writer's thread. Calls that arrive while a commit is in flight are **group
    committed**: the next group runs as ONE thread call (``BEGIN IMMEDIATE``, each member
    inside its own ``SAVEPOINT``, ``COMMIT``). A member that raises is rolled back to its
    savepoint and gets its exception; the others are unaffected. Should the whole
    transaction be lost anyway (SQLite abandons it after a member's error, or ``COMMIT``
    fails), nothing of the group is written and the innocent members are re-run (see
    ``_flush``). Each caller gets its result only after the ``COMMIT`` that contains its
    work returned, so a result still means "durable"; an exception means nothing of it
    was written.

* ``synchronous=NORMAL`` (the default here) is durable against a killed process — a
  committed transaction is in the WAL before ``COMMIT`` returns — and loses at most the last
  moments of commits on a power cut; ``synchronous="FULL"`` also survives that, at the
  price of an fsync per commit (per group, with ``write``).

* **Checkpoints** run off the commit path: the writer has ``wal_autocheckpoint`` off (an
  automatic checkpoint would stall the commit that crosses the threshold, and every move
  grouped with it), and a third connection runs a ``PASSIVE`` checkpoint in the background
  at most every ``checkpoint_interval`` seconds after writes. Should the WAL still pass
  ``wal_restart_frames`` (sustained load never lets a passive checkpoint catch up), one
  ``RESTART`` checkpoint runs between writes. Checkpoints change where committed data
  lives, never whether it is durable.

* **Reads** (``fetchone``/``fetchall``) use a separate, ``query_only`` reader connection, so
  they see only committed data (WAL snapshot isolation) and never another task's
  half-done transaction. Inside the caller's own ``transaction()`` they use the writer, so
  a transaction reads its own writes. (``:memory:`` databases have just the one connection.)

Migrations are the numbered files ``storage/migrations/NNN_name.sql``; ``PRAGMA
user_version`` records the last one applied, each is applied in its own transaction, and
re-running is a no-op.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]

# The databases whose ``transaction()`` the current task is inside (reads go to the writer).
_in_transaction: ContextVar[tuple[Database, ...]] = ContextVar("in_transaction", default=())


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


async def on_thread(conn: aiosqlite.Connection, fn: Work[T]) -> T:
    """Run ``fn(sqlite3_connection)`` on ``conn``'s worker thread as ONE queued call.

    aiosqlite makes every execute, fetch and commit its own round trip to that thread
    (about 0.1 ms each, measured); this submits a whole function instead. It relies on
    aiosqlite's private ``Connection._execute`` and ``Connection._conn`` (unchanged since
    0.17; pyproject pins ``<1``), which the storage tests exercise on every run.
    """
    submit = cast(Callable[[Callable[[], T]], Awaitable[T]], conn._execute)
    return await submit(lambda: fn(conn._conn))


class _GroupLost(Exception):
    """A group's transaction was rolled back as a whole: SQLite abandoned it after member
    ``index`` failed, or (``index`` None) its ``COMMIT`` failed."""

    def __init__(self, index: int | None, error: Exception) -> None:
        super().__init__(index, error)
        self.index, self.error = index, error


def _commit_group(works: list[Work[Any]], conn: sqlite3.Connection) -> list[tuple[bool, Any]]:
    """One transaction, each work in its own savepoint; ``(ok, result or exception)`` each.

    A lone work needs no savepoint: if it fails, the whole transaction is rolled back.
    """
    conn.execute("BEGIN IMMEDIATE")
    if len(works) == 1:
        try:
            result = works[0](conn)
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if not isinstance(exc, Exception):
                raise
            return [(False, exc)]
        return [(True, result)]
    try:
        outcomes: list[tuple[bool, Any]] = []
        for i, work in enumerate(works):
            conn.execute("SAVEPOINT member")
            try:
                outcomes.append((True, work(conn)))
            except Exception as exc:
                if not conn.in_transaction:
                    raise _GroupLost(i, exc) from exc
                conn.execute("ROLLBACK TO member")
                outcomes.append((False, exc))
            conn.execute("RELEASE member")
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise _GroupLost(None, exc) from exc
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


@dataclass
class _Member:
    work: Work[Any]
    future: asyncio.Future[Any]

    def fail(self, exc: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(exc)


class Database:
    """An open Deckhand database."""

    checkpoint_interval = 1.0
    wal_restart_frames = 10_000

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._queue: list[_Member] = []
        self._flusher: asyncio.Task[None] | None = None
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpointing: asyncio.Task[None] | None = None
        self._last_checkpoint = 0.0

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
        conn = await _connect(p, synchronous)
        await conn.execute("PRAGMA journal_mode=WAL")
        db = cls(conn, p)
        if migrate:
            await db.migrate()
        if p != ":memory:":
            await conn.execute("PRAGMA wal_autocheckpoint=0")
            db._reader = await _connect(p, synchronous)
            await db._reader.execute("PRAGMA query_only=ON")
            db._checkpointer = await _connect(p, synchronous)
        return db

    async def close(self) -> None:
        """Finish queued writes, then close the connections (the writer last: it checkpoints
        the WAL into the database file)."""
        while (busy := self._flusher or self._checkpointing) is not None:
            await asyncio.shield(busy)
        for conn in (self._checkpointer, self._reader):
            if conn is not None:
                await conn.close()
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
            token = _in_transaction.set((*_in_transaction.get(), self))
            try:
                yield self.conn
                await self.conn.execute("COMMIT")
                self._wrote()
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise
            finally:
                _in_transaction.reset(token)

    async def call(self, work: Work[T]) -> T:
        """Run ``work`` on the writer's thread inside the caller's open ``transaction()``:
        several statements for one round trip."""
        if self not in _in_transaction.get():
            raise RuntimeError("Database.call needs an open transaction(); use write()")
        return await on_thread(self.conn, work)

    async def write(self, work: Work[T]) -> T:
        """Run ``work`` in a write transaction (group committed) and return its result once
        committed; its exception, with nothing of it written, if it raised.

        ``work`` runs on the writer's thread: it may only use the connection it is given
        (no ``BEGIN``/``COMMIT``/``ROLLBACK``), must not touch event-loop state, and may be
        run again if SQLite abandons its group. If the caller is cancelled while waiting,
        the work may still be committed.
        """
        if self in _in_transaction.get():
            raise RuntimeError("Database.write inside transaction() would wait for itself")
        member = _Member(work, asyncio.get_running_loop().create_future())
        self._queue.append(member)
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush(), name="deckhand-group-commit")
        return cast(T, await member.future)

    async def _flush(self) -> None:
        """Commit queued writes, one group at a time, until the queue is empty.

        When a group is rolled back as a whole, its innocent members are not failed with
        it: after a member made SQLite abandon the transaction, the others are re-run as a
        group; after a failed ``COMMIT`` (e.g. a deferred constraint), each is re-run alone
        to find the culprit. Only a failed ``BEGIN`` (the database is locked by another
        process past the busy timeout) fails the whole group.
        """
        group: list[_Member] = []
        alone: list[_Member] = []
        try:
            while alone or self._queue:
                async with self._write_lock:
                    if alone:
                        group = [alone.pop(0)]
                    else:
                        group, self._queue = self._queue, []
                    try:
                        outcomes = await on_thread(
                            self.conn, partial(_commit_group, [m.work for m in group])
                        )
                    except _GroupLost as lost:
                        if lost.index is not None:
                            group.pop(lost.index).fail(lost.error)
                            self._queue[:0] = group
                        elif len(group) == 1:
                            group[0].fail(lost.error)
                        else:
                            alone[:0] = group
                        group = []
                        continue
                    except Exception as exc:
                        for m in group:
                            m.fail(exc)
                        continue
                self._wrote()
                for m, (ok, value) in zip(group, outcomes, strict=True):
                    if m.future.done():
                        continue
                    if ok:
                        m.future.set_result(value)
                    else:
                        m.future.set_exception(value)
        finally:
            self._flusher = None
            for m in [*group, *alone, *self._queue]:
                if not m.future.done():
                    m.future.cancel()
            self._queue = []

    def _wrote(self) -> None:
        """After a commit: start a background checkpoint if one is due."""
        now = asyncio.get_running_loop().time()
        if (
            self._checkpointer is None
            or self._checkpointing is not None
            or now - self._last_checkpoint < self.checkpoint_interval
        ):
            return
        self._last_checkpoint = now
        self._checkpointing = asyncio.create_task(self._checkpoint(self._checkpointer))

    async def _checkpoint(self, conn: aiosqlite.Connection) -> None:
        try:
            row = await on_thread(conn, partial(_fetchone, "PRAGMA wal_checkpoint(PASSIVE)", ()))
            if row is not None and row[1] > self.wal_restart_frames:
                async with self._write_lock:
                    await on_thread(conn, partial(_fetchone, "PRAGMA wal_checkpoint(RESTART)", ()))
        except Exception as exc:  # maintenance only: never let it break a write or close()
            log.warning("WAL checkpoint failed (it is retried after the next write): %s", exc)
        finally:
            self._checkpointing = None

    @property
    def reads(self) -> aiosqlite.Connection:
        """The connection for reads: the reader (committed data only), or the writer inside
        the caller's own ``transaction()`` so it sees its own changes."""
        if self._reader is None or self in _in_transaction.get():
            return self.conn
        return self._reader

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of a query, or None (committed data, or the caller's transaction)."""
        return await on_thread(self.reads, partial(_fetchone, sql, tuple(params)))

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """All rows of a query (committed data, or the caller's transaction)."""
        return await on_thread(self.reads, partial(_fetchall, sql, tuple(params)))

    async def backup(self, target: str | Path) -> None:
        """Copy the last committed state to ``target`` with SQLite's online backup."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        dest = await aiosqlite.connect(str(target))
        try:
            await (self._reader or self.conn).backup(dest)
        finally:
            await dest.close()


async def _connect(path: str, synchronous: str) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    await conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
    await conn.execute("PRAGMA foreign_keys=ON")
    await conn.execute("PRAGMA busy_timeout=5000")
    return conn


def _fetchone(sql: str, params: tuple[Any, ...], conn: sqlite3.Connection) -> sqlite3.Row | None:
    cur = conn.execute(sql, params)
    try:
        row: sqlite3.Row | None = cur.fetchone()
        return row
    finally:
        cur.close()


def _fetchall(sql: str, params: tuple[Any, ...], conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()
