"""The storage seam: repositories are plain synchronous functions of a ``Conn``; a
``Database`` runs them on threads it owns.

* **One convention.** Every repository function takes a ``Conn`` first and runs portable
  SQL with ``?`` placeholders through it; rows are read by column name (``row["id"]``).
  SQLite takes ``?`` as it is; ``PgConn`` rewrites each ``?`` outside quoted text to
  ``%s`` (and a literal ``%`` to ``%%``) before psycopg sees the statement. Callers run
  them with ``await db.read(fn, *args)`` (committed data only) or ``await db.write(fn,
  *args)`` (one write transaction). A function that needs several statements, or reads and
  writes together, is one function and therefore one round trip and one transaction.
* **Heavy reads never queue in front of a move.** ``read`` runs on the *quick* reader,
  for what a move or a click waits on (rows by key); ``report`` runs the same kind of
  function on a reader of its own, for reads whose cost grows with the history (standings
  pages, histories, statistics, exports, the web site). However many reports are queued,
  a ``read`` waits only for the quick reads before it.
* **Writes are group committed.** ``write`` calls that arrive while a commit is in flight
  run as ONE transaction, each inside its own ``SAVEPOINT``. A member that raises is
  rolled back to its savepoint and gets its exception; the others are unaffected. Should
  the whole transaction be lost anyway (the engine abandoned it after a member's error, or
  ``COMMIT`` failed), nothing of the group is written and the innocent members are re-run
  (see ``Database._flush``). A caller gets its result only after the ``COMMIT`` that holds
  its work returned: **a result means durable**; an exception means nothing was written,
  except ``CommitUncertain``: a server connection lost during ``COMMIT`` leaves unknown
  whether the group was committed (it is never re-run; version checks make a retry safe).
* **Failures are plain.** ``StorageUnavailable`` (the database cannot be opened, written or
  read: locked by another process, read-only, full, corrupt) carries one sentence saying
  what is wrong and what to do; the backends translate their drivers' errors into it.

The SQL dialect lives in the backend modules (``storage.sqlite``, ``storage.postgres``);
``storage.connect.open_database`` picks one from a path or URL.
"""

from __future__ import annotations

import asyncio
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar, cast

from storage.metering import charged

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

T = TypeVar("T")
P = ParamSpec("P")
C = TypeVar("C")


class Row(Protocol):
    """A result row, read by column name."""

    def __getitem__(self, key: str) -> Any: ...


Params = Sequence[object]


class Conn(ABC):
    """A connection as repositories see it: SQL with ``?`` placeholders, rows by name."""

    dialect: str

    @abstractmethod
    def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement for each parameter row."""

    @abstractmethod
    def one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query (or of an ``… RETURNING``), or None."""

    @abstractmethod
    def all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""

    @abstractmethod
    def iterate(self, sql: str, params: Params = ()) -> Iterator[Row]:
        """The rows of a query one at a time (for scans too big to hold at once)."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    @abstractmethod
    def announce(self, topic: str, payload: str) -> None:
        """Tell the other processes on this database, once this transaction commits (and
        only if it does)."""

    # -- used by the Database only -------------------------------------------------------
    @abstractmethod
    def begin_write(self) -> None:
        """Start a write transaction (taking the write lock at once)."""

    @property
    @abstractmethod
    def in_transaction(self) -> bool:
        """Whether a transaction is open (the engine may have abandoned it)."""

    def commit(self) -> None:
        """Commit the open transaction."""
        self.execute("COMMIT")

    def rollback(self) -> None:
        """Roll back the open transaction, if there still is one."""
        if self.in_transaction:
            self.execute("ROLLBACK")


Work = Callable[[Conn], T]


class StorageUnavailable(Exception):
    """The database cannot be used right now; ``str()`` says what is wrong and what to do."""


class CommitUncertain(StorageUnavailable):
    """The connection was lost while ``COMMIT`` was on its way: the server may or may not
    have committed the group."""


class RowChanged(RuntimeError):
    """A guarded update found its row changed or gone (optimistic concurrency)."""


class Conflict(Exception):
    """A uniqueness rule of the schema refused the write (e.g. a second open table in a
    channel); nothing of it was written."""


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


class Worker:
    """One thread and the one connection only it uses.

    The connection is made on the thread (SQLite connections belong to their thread), every
    call is one hop to it, and ``close`` ends the thread, so a process never waits for it
    at exit.
    """

    def __init__(self, name: str) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        self._conn: Conn | None = None

    async def hop(self, fn: Callable[[], T]) -> T:
        """Run ``fn()`` on the worker's thread (its processor time charged to the caller's
        meter, ``storage.metering``)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, charged(fn))

    async def connect(self, make: Callable[[], Conn]) -> None:
        """Make the worker's connection on its thread."""
        self._conn = await self.hop(make)

    @property
    def conn(self) -> Conn:
        """The worker's connection."""
        if self._conn is None:
            raise RuntimeError("the worker has no connection")
        return self._conn

    async def run(self, fn: Callable[Concatenate[Conn, P], T], *args: P.args, **kw: P.kwargs) -> T:
        """Run ``fn(conn, …)`` on the worker's thread."""
        conn = self.conn
        return await self.hop(lambda: fn(conn, *args, **kw))

    async def close(self) -> None:
        """Close the connection (if any) and end the thread."""
        try:
            if self._conn is not None:
                conn, self._conn = self._conn, None
                await self.hop(conn.close)
        finally:
            self._pool.shutdown(wait=True)


class _GroupLost(Exception):
    """A group's transaction was rolled back as a whole: the engine abandoned it after
    member ``index`` failed, or (``index`` None) its ``COMMIT`` failed."""

    def __init__(self, index: int | None, error: Exception) -> None:
        super().__init__(index, error)
        self.index, self.error = index, error


def _commit_group(works: list[Work[Any]], conn: Conn) -> list[tuple[bool, Any]]:
    """One transaction, each work in its own savepoint; ``(ok, result or exception)`` each.

    A lone work needs no savepoint: if it fails, the whole transaction is rolled back.
    """
    conn.begin_write()
    if len(works) == 1:
        try:
            result = works[0](conn)
            conn.commit()
        except BaseException as exc:
            conn.rollback()
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
                conn.execute("ROLLBACK TO SAVEPOINT member")
                outcomes.append((False, exc))
            conn.execute("RELEASE SAVEPOINT member")
        try:
            conn.commit()
        except CommitUncertain:
            raise  # re-running the group could apply it twice
        except Exception as exc:
            raise _GroupLost(None, exc) from exc
    except BaseException:
        conn.rollback()
        raise
    return outcomes


@dataclass
class _Member:
    work: Work[Any]
    future: asyncio.Future[Any]

    def fail(self, exc: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(exc)


class Database(ABC):
    """An open Deckhand database: reads, group-committed writes, migrations, upkeep."""

    #: ``sqlite`` or ``postgresql``.
    dialect: str
    #: Where it is, for messages (a path, or a URL without its password).
    where: str

    def __init__(self) -> None:
        self._queue: list[_Member] = []
        self._flusher: asyncio.Task[None] | None = None

    # -- the backend's part --------------------------------------------------------------
    @abstractmethod
    async def _run_write(self, fn: Callable[[Conn], T]) -> T:
        """Run ``fn`` on the writer connection's thread."""

    @abstractmethod
    async def _snapshot(self, work: Callable[[Conn], T], *, heavy: bool) -> T:
        """Run ``work`` in one read transaction on the report reader (``heavy``) or the
        quick one."""

    @abstractmethod
    def _portable(self, exc: Exception) -> Exception | None:
        """A driver error as ``StorageUnavailable`` (with its plain sentence) or
        ``Conflict``; None when it is neither."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abstractmethod
    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; the numbers applied."""

    @abstractmethod
    async def backup(self, target: str) -> str:
        """Copy the last committed state to ``target``; a sentence saying what was made."""

    @abstractmethod
    async def integrity(self) -> list[str]:
        """The engine's own integrity check: one line per problem (naming the table or
        index), empty when the database is sound."""

    @abstractmethod
    async def _close_connections(self) -> None:
        """Close every connection and end their threads."""

    @abstractmethod
    def listen(self, topic: str, heard: Callable[[str | None], None]) -> None:
        """Call ``heard(payload)`` (from another thread) for every ``announce`` of
        ``topic`` by any process, and ``heard(None)`` when some may have been missed (the
        connection was lost and is back)."""

    @abstractmethod
    async def _stop_listening(self) -> None:
        """End ``listen``'s thread, if there is one."""

    # -- shared --------------------------------------------------------------------------
    async def read(
        self, fn: Callable[Concatenate[Conn, P], T], *args: P.args, **kw: P.kwargs
    ) -> T:
        """Run ``fn(conn, …)`` on the quick reader, in one read transaction: every
        statement sees the same committed state, and nothing is written. For what a move
        or a click waits on; anything that grows with the history is a ``report``."""
        return await self._snapshot(lambda conn: fn(conn, *args, **kw), heavy=False)

    async def report(
        self, fn: Callable[Concatenate[Conn, P], T], *args: P.args, **kw: P.kwargs
    ) -> T:
        """``read``, on the report reader: for reads whose cost grows with the history,
        which then queue behind each other and never in front of a ``read``."""
        return await self._snapshot(lambda conn: fn(conn, *args, **kw), heavy=True)

    async def close(self) -> None:
        """Finish queued writes, then close the connections."""
        while self._flusher is not None:
            await asyncio.shield(self._flusher)
        await self._stop_listening()
        await self._close_connections()

    async def write(
        self, fn: Callable[Concatenate[Conn, P], T], *args: P.args, **kw: P.kwargs
    ) -> T:
        """Run ``fn(conn, …)`` in a write transaction (group committed); its result once
        committed, or its exception with nothing of it written.

        ``fn`` runs on the writer's thread: it may only use the connection it is given (no
        ``BEGIN``/``COMMIT``/``ROLLBACK``), must not touch event-loop state, and may be run
        again if the engine abandons its group. If the caller is cancelled while waiting,
        the work may still be committed.
        """
        def work(conn: Conn) -> T:
            return fn(conn, *args, **kw)

        member = _Member(work, asyncio.get_running_loop().create_future())
        self._queue.append(member)
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush(), name="deckhand-group-commit")
        return cast(T, await member.future)

    def queued(self) -> int:
        """How many writes wait for the writer: the next commit group, so far."""
        return len(self._queue)

    def _translate(self, exc: Exception) -> Exception:
        return self._portable(exc) or exc

    async def _flush(self) -> None:
        """Commit queued writes, one group at a time, until the queue is empty.

        When a group is rolled back as a whole, its innocent members are not failed with
        it: after a member made the engine abandon the transaction, the others are re-run
        as a group; after a failed ``COMMIT`` (e.g. a deferred constraint), each is re-run
        alone to find the culprit. Only a failed ``BEGIN`` (the database is locked by
        another process past the busy timeout, or cannot be written) or an uncertain
        ``COMMIT`` (``CommitUncertain``) fails the group.
        """
        group: list[_Member] = []
        alone: list[_Member] = []
        try:
            while alone or self._queue:
                if alone:
                    group = [alone.pop(0)]
                else:
                    group, self._queue = self._queue, []
                try:
                    outcomes = await self._run_write(
                        partial(_commit_group, [m.work for m in group])
                    )
                except _GroupLost as lost:
                    if lost.index is not None:
                        group.pop(lost.index).fail(self._translate(lost.error))
                        self._queue[:0] = group
                    elif len(group) == 1:
                        group[0].fail(self._translate(lost.error))
                    else:
                        alone[:0] = group
                    group = []
                    continue
                except Exception as exc:
                    failure = self._translate(exc)
                    for m in group:
                        m.fail(failure)
                    continue
                self._wrote()
                for m, (ok, value) in zip(group, outcomes, strict=True):
                    if m.future.done():
                        continue
                    if ok:
                        m.future.set_result(value)
                    else:
                        m.future.set_exception(self._translate(value))
        finally:
            self._flusher = None
            for m in [*group, *alone, *self._queue]:
                if not m.future.done():
                    m.future.cancel()
            self._queue = []

    @abstractmethod
    def _wrote(self) -> None:
        """After each commit group (the SQLite backend schedules checkpoints here)."""
