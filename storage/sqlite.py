"""The SQLite backend (the embedded default): every SQLite specific lives here.

* Four connections, each on its own thread (``storage.db.Worker``): the **writer** (WAL
  mode, ``BEGIN IMMEDIATE`` transactions, group commit), two ``query_only`` readers — the
  quick **reader** and the **reporter** for heavy reads (committed data only: WAL snapshot
  isolation) — and a **checkpointer**. ``:memory:`` databases have just the writer.
* ``synchronous=NORMAL`` (the default) is durable against a killed process — a committed
  transaction is in the WAL before ``COMMIT`` returns — and loses at most the last moments
  of commits on a power cut; ``FULL`` also survives that, at an fsync per commit group.
* Checkpoints run off the commit path: the writer has ``wal_autocheckpoint`` off (an
  automatic checkpoint would stall the commit that crosses the threshold, and every move
  grouped with it); the checkpointer runs a ``PASSIVE`` checkpoint at most every
  ``checkpoint_interval`` seconds after writes, and should the WAL still pass
  ``wal_restart_frames`` (sustained load never lets a passive one catch up), one
  ``RESTART`` checkpoint runs on the writer's thread, between two commit groups.
* Migrations: ``PRAGMA user_version`` records the last one applied.
* Every driver error that means "this database cannot be used" (locked past the busy
  timeout, read-only, full, unopenable, damaged) becomes ``StorageUnavailable`` with a
  sentence naming the file and what to do.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TypeVar

from storage.db import (
    Conflict,
    Conn,
    Database,
    Params,
    Row,
    StorageUnavailable,
    Worker,
    migrations,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
BUSY_TIMEOUT_MS = 5000


class SqliteConn(Conn):
    """``Conn`` over a ``sqlite3.Connection`` in autocommit mode with ``sqlite3.Row`` rows."""

    dialect = "sqlite"

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Params = ()) -> int:
        cur = self.raw.execute(sql, tuple(params))
        try:
            return cur.rowcount
        finally:
            cur.close()

    def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        self.raw.executemany(sql, [tuple(r) for r in rows]).close()

    def one(self, sql: str, params: Params = ()) -> Row | None:
        cur = self.raw.execute(sql, tuple(params))
        try:
            row: Row | None = cur.fetchone()
            return row
        finally:
            cur.close()

    def all(self, sql: str, params: Params = ()) -> list[Row]:
        cur = self.raw.execute(sql, tuple(params))
        try:
            return list(cur.fetchall())
        finally:
            cur.close()

    def iterate(self, sql: str, params: Params = ()) -> Iterator[Row]:
        cur = self.raw.execute(sql, tuple(params))
        try:
            yield from cur
        finally:
            cur.close()

    def begin_write(self) -> None:
        self.raw.execute("BEGIN IMMEDIATE")

    def close(self) -> None:
        self.raw.close()

    def announce(self, topic: str, payload: str) -> None:
        """One process owns a SQLite file: there is nobody else to tell."""

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction


def _connect(
    path: str, synchronous: str, *, query_only: bool = False, read_only: bool = False
) -> SqliteConn:
    if read_only:  # SQLite itself refuses every write, and never creates the file
        raw = sqlite3.connect(
            f"{Path(path).absolute().as_uri()}?mode=ro", isolation_level=None, uri=True
        )
    else:
        raw = sqlite3.connect(path, isolation_level=None)
    try:
        raw.row_factory = sqlite3.Row
        raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        raw.execute(f"PRAGMA synchronous={synchronous}")
        raw.execute("PRAGMA foreign_keys=ON")
        if query_only:
            raw.execute("PRAGMA query_only=ON")
    except BaseException:
        raw.close()
        raise
    return SqliteConn(raw)


def explain(path: str, exc: Exception) -> StorageUnavailable | None:
    """The plain sentence for a SQLite error that makes the database unusable, else None."""
    if not isinstance(exc, sqlite3.Error | OSError):
        return None
    text = str(exc).lower()
    where = f"The database {path}"
    if isinstance(exc, PermissionError) or "readonly" in text or "read-only" in text:
        sentence = (
            f"{where} cannot be written: give the user running Deckhand write access to"
            " the file and its folder, or set DECKHAND_DB to a writable path."
        )
    elif "locked" in text or "busy" in text:
        sentence = (
            f"{where} is locked by another program (another Deckhand process?): stop it or"
            " wait for it to finish, then try again."
        )
    elif "full" in text:
        sentence = f"The disk holding {path} is full: free some space, then try again."
    elif "unable to open" in text or isinstance(exc, OSError):
        sentence = (
            f"{where} cannot be opened: check that the path exists, is a file and that its"
            " folder is writable (DECKHAND_DB)."
        )
    elif isinstance(exc, sqlite3.DatabaseError) and not isinstance(
        exc, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError
    ):
        sentence = (
            f"{where} is damaged ({exc}): restore a backup (`deckhand db backup` makes"
            " them) or move the file away to start afresh."
        )
    else:
        return None
    return StorageUnavailable(sentence)


class SqliteDatabase(Database):
    """A SQLite file (or ``:memory:``)."""

    dialect = "sqlite"
    checkpoint_interval = 1.0
    wal_restart_frames = 10_000

    def __init__(self, path: str, synchronous: str) -> None:
        super().__init__()
        self.path = path
        self.where = path
        self.synchronous = synchronous
        self._writer = Worker("deckhand-db-writer")
        self._reader: Worker | None = None
        self._reporter: Worker | None = None
        self._checkpointer: Worker | None = None
        self._checkpointing: asyncio.Task[None] | None = None
        self._last_checkpoint = 0.0

    #: Makes one connection, on the thread that will use it (``bench/aiosqlite_db.py``
    #: makes aiosqlite's instead).
    connection: Callable[..., Conn] = staticmethod(_connect)

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "NORMAL",
        migrate: bool = True,
        read_only: bool = False,
    ) -> SqliteDatabase:
        """Open (creating if needed) the database at ``path`` and apply migrations; or,
        ``read_only``, open an existing file on one connection that cannot write (no
        migrations, no checkpoints)."""
        sync = synchronous.upper()
        if sync not in {"NORMAL", "FULL"}:
            raise ValueError("synchronous must be NORMAL or FULL")
        p = str(path)
        db = cls(p, sync)
        try:
            if read_only:  # one connection, which SQLite will not let write
                await db._writer.connect(partial(_connect, p, sync, read_only=True))
                return db
            if p != ":memory:":
                Path(p).parent.mkdir(parents=True, exist_ok=True)
            await db._writer.connect(partial(cls.connection, p, sync))
            await db._writer.run(_set_wal)
            if migrate:
                await db.migrate()
            if p != ":memory:":
                await db._writer.run(_pragma, "PRAGMA wal_autocheckpoint=0")
                db._reader = Worker("deckhand-db-reader")
                await db._reader.connect(partial(cls.connection, p, sync, query_only=True))
                db._reporter = Worker("deckhand-db-reports")
                await db._reporter.connect(partial(cls.connection, p, sync, query_only=True))
                db._checkpointer = Worker("deckhand-db-checkpoint")
                await db._checkpointer.connect(partial(cls.connection, p, sync))
        except Exception as exc:
            await db._close_connections()
            raise explain(p, exc) or exc from None
        return db

    async def _run_write(self, fn: Callable[[Conn], T]) -> T:
        return await self._writer.run(fn)

    async def _snapshot(self, work: Callable[[Conn], T], *, heavy: bool) -> T:
        worker = (self._reporter if heavy else self._reader) or self._writer

        def snapshot(conn: Conn) -> T:
            conn.execute("BEGIN")  # every statement of work sees the same committed state
            try:
                return work(conn)
            finally:
                conn.execute("COMMIT")

        try:
            return await worker.run(snapshot)
        except (sqlite3.OperationalError, sqlite3.DatabaseError) as exc:
            raise self._translate(exc) from None

    def _portable(self, exc: Exception) -> Exception | None:
        if isinstance(exc, sqlite3.IntegrityError) and "UNIQUE" in str(exc):
            return Conflict(str(exc))
        return explain(self.path, exc)

    async def schema_version(self) -> int:
        row = await self._writer.run(_pragma, "PRAGMA user_version")
        return int(row["user_version"]) if row is not None else 0

    async def migrate(self) -> list[int]:
        current = await self.schema_version()
        applied = []
        for number, path in migrations():
            if number <= current:
                continue
            script = path.read_text(encoding="utf-8")
            await self._writer.run(_apply_migration, script, number)
            applied.append(number)
        return applied

    async def backup(self, target: str) -> str:
        await (self._reporter or self._writer).run(_backup_to, target)
        return f"Backed up {self.path} to {target} (a complete SQLite file)."

    async def integrity(self) -> list[str]:
        return await (self._reporter or self._writer).run(_integrity)

    def checkpointing(self) -> bool:
        """Whether a background checkpoint is running."""
        return self._checkpointing is not None

    def listen(self, topic: str, heard: Callable[[str | None], None]) -> None:
        """One process owns a SQLite file: nothing to hear from others."""

    async def _stop_listening(self) -> None:
        """No listening thread to stop."""

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

    async def _checkpoint(self, worker: Worker) -> None:
        try:
            row = await worker.run(_pragma, "PRAGMA wal_checkpoint(PASSIVE)")
            if row is not None and row["log"] > self.wal_restart_frames:
                await self._writer.run(_pragma, "PRAGMA wal_checkpoint(RESTART)")
        except Exception as exc:  # upkeep only: never let it break a write or close()
            log.warning("WAL checkpoint failed (it is retried after the next write): %s", exc)
        finally:
            self._checkpointing = None

    async def _close_connections(self) -> None:
        if self._checkpointing is not None:
            await asyncio.shield(self._checkpointing)
        # The writer last: closing the last connection checkpoints the WAL into the file.
        for worker in (self._checkpointer, self._reporter, self._reader, self._writer):
            if worker is not None:
                try:
                    await worker.close()
                except sqlite3.Error as exc:
                    log.warning("closing %s: %s", self.path, exc)


def _pragma(conn: Conn, sql: str) -> Row | None:
    return conn.one(sql)


def _set_wal(conn: Conn) -> None:
    conn.one("PRAGMA journal_mode=WAL")


def _apply_migration(conn: Conn, script: str, number: int) -> None:
    assert isinstance(conn, SqliteConn)
    conn.raw.executescript(
        f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
    )


def _backup_to(conn: Conn, target: str) -> None:
    assert isinstance(conn, SqliteConn)
    dest = sqlite3.connect(target)
    try:
        conn.raw.backup(dest)
    finally:
        dest.close()


def _integrity(conn: Conn) -> list[str]:
    """``PRAGMA integrity_check``; when it finds problems, each table is checked alone
    (with its indexes) so every problem line names its table."""
    try:
        lines = [str(r["integrity_check"]) for r in conn.all("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:  # a damaged page can stop the whole check
        lines = [str(exc)]
    if lines == ["ok"]:
        return []
    names = [
        str(r["name"])
        for r in conn.all("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    ]
    problems: list[str] = []
    for name in names:
        try:
            found = [
                str(r["integrity_check"])
                for r in conn.all(f'PRAGMA integrity_check("{name}")')
            ]
        except sqlite3.DatabaseError as exc:
            found = [str(exc)]
        problems += [f"table {name}: {line}" for line in found if line != "ok"]
    return problems or lines
