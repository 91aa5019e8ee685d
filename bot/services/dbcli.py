"""Plain (synchronous) functions behind ``deckhand db …``: each opens the database at
``path`` (a SQLite path or a ``postgresql://`` URL), does one job, closes it, and returns
data with a ``text()`` for the terminal.

``purge`` deletes stale open tables (and their logs) outright: lobbies older than
``lobby_hours`` and games with no move for ``idle_days``. Finished and aborted tables are
history and are never purged. Run it while the bot is stopped, or accept that a running
bot answers a purged table's next move with "the table changed elsewhere".

``copy`` moves a SQLite database (it may be live) into an empty PostgreSQL database — or
any empty Deckhand database — then checks that every table's log replays there.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bot.services.tables.replay import CheckResult, check_table
from games.wording import noun, plural
from storage import tables as repo
from storage.connect import is_postgres, open_database
from storage.copy import count_rows, fill, tables_in_order
from storage.db import Database, StorageUnavailable

T = TypeVar("T")


def run_on(
    path: str | Path,
    job: Callable[[Database], Awaitable[T]],
    migrate: bool = True,
    create: bool = False,
) -> T:
    """Run ``job`` on the database at ``path``; only ``create`` makes a missing SQLite
    file (upkeep of a mistyped path must not make an empty database and report on it)."""
    file = Path(str(path).removeprefix("sqlite:///"))
    if not create and not is_postgres(path) and not file.exists():
        raise StorageUnavailable(
            f"There is no database at {file}: check --db (or DECKHAND_DB)."
        )

    async def main() -> T:
        db = await open_database(path, migrate=migrate)
        try:
            return await job(db)
        finally:
            await db.close()

    return asyncio.run(main())


@dataclass(frozen=True)
class MigrateReport:
    """Migrations applied now and the schema version reached."""

    applied: tuple[int, ...]
    version: int

    def text(self) -> str:
        """One line for the terminal."""
        if not self.applied:
            return f"Database is up to date (schema {self.version})."
        done = ", ".join(f"{n:03d}" for n in self.applied)
        kind = noun(len(self.applied), "migration")
        return f"Applied {kind} {done}; schema is now {self.version}."


def migrate(path: str | Path) -> MigrateReport:
    """Apply pending migrations."""

    async def job(db: Database) -> MigrateReport:
        applied = await db.migrate()
        return MigrateReport(tuple(applied), await db.schema_version())

    return run_on(path, job, migrate=False, create=True)


def backup(path: str | Path, dest: str | Path) -> str:
    """Copy the database to ``dest`` (SQLite's online backup; ``pg_dump`` on
    PostgreSQL); return a message."""

    async def job(db: Database) -> str:
        return await db.backup(str(dest))

    return run_on(path, job, migrate=False)


@dataclass(frozen=True)
class TableList:
    """Rows from ``list_tables``."""

    rows: tuple[repo.TableRow, ...]

    def text(self) -> str:
        """A small aligned table for the terminal."""
        if not self.rows:
            return "No tables."
        lines = [f"{'id':>6}  {'channel':>20}  {'game':<10}  {'status':<8}  {'ver':>5}  idle"]
        now = time.time()
        for r in self.rows:
            idle = _ago(now - r.updated_at)
            flag = "  QUARANTINED" if r.quarantine else ""
            lines.append(
                f"{r.id:>6}  {r.channel_id:>20}  {r.game:<10}  {r.status:<8}  {r.version:>5}"
                f"  {idle}{flag}"
            )
        return "\n".join(lines)


def _ago(seconds: float) -> str:
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} d"


def list_tables(
    path: str | Path,
    statuses: Sequence[str] = repo.OPEN,
    guild_id: int | None = None,
    limit: int = 100,
) -> TableList:
    """Tables with one of ``statuses`` (open ones by default), most recently active first."""

    async def job(db: Database) -> TableList:
        return TableList(tuple(await db.read(repo.list_tables, statuses, guild_id, limit)))

    return run_on(path, job)


@dataclass(frozen=True)
class PurgeReport:
    """The stale tables found and whether they were deleted."""

    tables: tuple[repo.TableRow, ...]
    deleted: int
    dry_run: bool

    def text(self) -> str:
        """One line for the terminal."""
        lobbies = sum(1 for t in self.tables if t.status == "lobby")
        games = len(self.tables) - lobbies
        what = f"{plural(lobbies, 'stale lobby', 'stale lobbies')} and {plural(games, 'idle game')}"
        return f"Would delete {what}." if self.dry_run else f"Deleted {what}."


def purge(
    path: str | Path,
    lobby_hours: float = 24.0,
    idle_days: float = 7.0,
    dry_run: bool = False,
    now: float | None = None,
) -> PurgeReport:
    """Delete lobbies older than ``lobby_hours`` and games idle over ``idle_days``."""
    if lobby_hours <= 0 or idle_days <= 0:
        raise ValueError("lobby_hours and idle_days must be positive.")
    at = time.time() if now is None else now

    async def job(db: Database) -> PurgeReport:
        found = await db.read(repo.stale, at, lobby_hours * 3600, idle_days * 86400)
        deleted = 0
        if not dry_run:
            deleted = await db.write(repo.delete, [t.id for t in found])
        return PurgeReport(tuple(found), deleted, dry_run)

    return run_on(path, job)


@dataclass(frozen=True)
class CheckReport:
    """The database engine's integrity check, then replay checks of every table that
    has a game (skipped when the file itself is damaged)."""

    integrity: tuple[str, ...]
    results: tuple[CheckResult, ...]

    @property
    def ok(self) -> bool:
        """True when the file is sound and every table replays to its snapshot."""
        return not self.integrity and all(r.ok for r in self.results)

    def text(self) -> str:
        """A summary line and one line per problem."""
        if self.integrity:
            head = (
                f"The database file is damaged: the integrity check found"
                f" {plural(len(self.integrity), 'problem')}. Restore a backup. Problems:"
            )
            return "\n".join([head, *(f"  {p}" for p in self.integrity)])
        bad = [r for r in self.results if not r.ok]
        lines = [f"Checked {plural(len(self.results), 'table')}: {plural(len(bad), 'problem')}."]
        lines += [f"  table {r.table_id}: {r.problem}" for r in bad]
        return "\n".join(lines)


def check(path: str | Path, statuses: Sequence[str] = ("playing", "finished")) -> CheckReport:
    """The integrity check, then replay the log of every table with one of ``statuses``
    against its snapshot."""

    async def job(db: Database) -> CheckReport:
        problems = tuple(await db.integrity())
        if problems:
            return CheckReport(problems, ())
        ids = await db.read(repo.ids, statuses)
        return CheckReport((), tuple([await check_table(db, i) for i in ids]))

    return run_on(path, job, migrate=False)


@dataclass(frozen=True)
class CopyReport:
    """Rows copied per table (and any count that differs from the source), then the
    replay check of every table with a game, in the target."""

    target: str
    copied: tuple[tuple[str, int], ...]
    mismatched: tuple[str, ...]
    results: tuple[CheckResult, ...]

    @property
    def ok(self) -> bool:
        """True when every row arrived and every table replays to its snapshot."""
        return not self.mismatched and all(r.ok for r in self.results)

    def text(self) -> str:
        """What was copied, then a summary line and one line per problem."""
        rows = ", ".join(f"{table} {n}" for table, n in self.copied)
        bad = [r for r in self.results if not r.ok]
        lines = [
            f"Copied into {self.target}: {rows}.",
            f"Checked {plural(len(self.results), 'table')}:"
            f" {plural(len(bad) + len(self.mismatched), 'problem')}.",
        ]
        lines += [f"  {m}" for m in self.mismatched]
        lines += [f"  table {r.table_id}: {r.problem}" for r in bad]
        return "\n".join(lines)


def copy(
    source: str | Path, target: str | Path, statuses: Sequence[str] = ("playing", "finished")
) -> CopyReport:
    """Copy the SQLite database ``source`` (a consistent snapshot of it, even while a bot
    writes to it) into the empty database ``target``, migrated to the same schema; then
    replay the log of every table with one of ``statuses`` there."""
    if is_postgres(source):
        raise ValueError("db copy reads a SQLite database: give its path first.")

    async def main(snapshot: str) -> CopyReport:
        live = await open_database(source, migrate=False)
        try:
            await live.backup(snapshot)
        finally:
            await live.close()
        snap = await open_database(snapshot)  # brings an older file to today's schema
        try:
            expected = await snap.read(lambda c: count_rows(c, tables_in_order(c)))
        finally:
            await snap.close()
        db = await open_database(target)
        try:
            copied = await db.write(fill, snapshot)
            mismatched = tuple(
                f"{table}: {copied.get(table)} of {plural(n, 'row')} copied"
                for table, n in expected.items() if copied.get(table) != n
            )
            ids = await db.read(repo.ids, statuses)
            results = tuple([await check_table(db, i) for i in ids])
            return CopyReport(db.where, tuple(copied.items()), mismatched, results)
        finally:
            await db.close()

    with tempfile.TemporaryDirectory(prefix="deckhand-copy-") as folder:
        return asyncio.run(main(str(Path(folder) / "snapshot.db")))
