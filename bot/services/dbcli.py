"""Plain (synchronous) functions behind ``deckhand db …``: each opens the database at
``where`` (a SQLite path or a ``postgresql://`` URL) through ``storage.connect``, does one
job, closes it, and returns data with a ``text()`` for the terminal. Long jobs show
progress (``bot.progress``) and turn Ctrl-C into ``Interrupted`` saying what was done.

``purge`` deletes stale open tables (and their logs) outright: lobbies older than
``lobby_hours``, games nobody has moved for ``idle_days`` whose turn timer (if any) has
run out, and lobbies that were cancelled before a deal (nothing of them is history) once
older than ``lobby_hours``. Finished games, and games aborted after their deal, are
history and are never purged. It first finds them and hands the list to ``confirm``
(the command line shows it and asks); each batch is then deleted in its own transaction,
each table only if it is still stale then (a game moved while the question waited
stays). Run it while the bot is stopped, or accept that a running bot answers a purged
table's next move with "the table changed elsewhere".

``copy`` moves a SQLite database (it may be live) into an empty PostgreSQL database — or
any empty Deckhand database — then checks that every table's log replays there. The
source is checked first (it must be an existing Deckhand database), so a mistyped path is
refused and blamed, never copied as nothing.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

import games
from bot.failures import output
from bot.invocation import typed
from bot.progress import Interrupted, progress
from bot.services.leagues import LeagueService
from bot.services.tables.replay import CheckResult, check_table
from i18n import _, ngettext
from storage import tables as repo
from storage.connect import check_sqlite_file, is_postgres, open_database, shown, sqlite_path
from storage.copy import count_rows, fill, tables_in_order
from storage.db import Conn, Database, StorageUnavailable, migrations

T = TypeVar("T")

#: Tables deleted per transaction by ``purge``.
PURGE_BATCH = 200


def run_on(
    where: str | Path,
    job: Callable[[Database], Awaitable[T]],
    *,
    migrate: bool = True,
    create: bool = False,
    read_only: bool = False,
    stopped: Callable[[], str] | None = None,
) -> T:
    """Run ``job`` on the database at ``where``. Only ``create`` makes a missing SQLite
    file (upkeep of a mistyped path must not make an empty database and report on it).
    Ctrl-C raises ``Interrupted`` with ``stopped()`` (default: nothing was changed)."""

    async def main() -> T:
        db = await open_database(where, migrate=migrate, create=create, read_only=read_only)
        try:
            return await job(db)
        finally:
            await db.close()

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        raise Interrupted(stopped() if stopped else _("Stopped; nothing was changed.")) from None


@dataclass(frozen=True)
class MigrateReport:
    """Migrations applied now and the schema version reached."""

    where: str
    applied: tuple[int, ...]
    version: int

    def text(self) -> str:
        """One line for the terminal."""
        if not self.applied:
            return _(
                "{where} is up to date (schema {version}).",
                where=self.where, version=self.version,
            )
        done = ", ".join(f"{n:03d}" for n in self.applied)
        return ngettext(
            "Applied {n} migration ({done}) to {where}; schema is now {version}.",
            "Applied {n} migrations ({done}) to {where}; schema is now {version}.",
            len(self.applied), done=done, where=self.where, version=self.version,
        )


def migrate(where: str | Path) -> MigrateReport:
    """Apply pending migrations."""

    async def job(db: Database) -> MigrateReport:
        applied = await db.migrate()
        return MigrateReport(shown(where), tuple(applied), await db.schema_version())

    return run_on(where, job, migrate=False, create=True)


def backup_target(where: str | Path, dest: str | Path) -> Path:
    """``dest`` made absolute, once it is a place a backup of ``where`` may be written: a
    file (not a folder) in a folder that exists (no folder is made), not the database
    itself, and — for SQLite — nothing there but an older SQLite database."""
    path = output(Path(dest).absolute())
    if not is_postgres(where):
        if path == sqlite_path(where):
            raise StorageUnavailable(_(
                "{target} is the database itself: give the backup another name.",
                target=path,
            ))
        check_sqlite_file(path, create=True, named_by="the backup's file name")
    return path


def backup(
    where: str | Path, dest: str | Path, confirm: Callable[[Path], None] | None = None
) -> str:
    """Copy the database to ``dest`` (SQLite's online backup; ``pg_dump`` on
    PostgreSQL); return a message. A file already at ``dest`` is replaced only once
    ``confirm`` was shown it (it raises to stop)."""
    target = backup_target(where, dest)
    if target.exists() and confirm is not None:
        confirm(target)

    async def job(db: Database) -> str:
        try:
            return await db.backup(str(target))
        except (sqlite3.Error, OSError) as exc:
            raise StorageUnavailable(
                _(
                    "The backup cannot be written to {target} ({exc}): choose a writable place.",
                    target=target, exc=exc,
                )
            ) from None

    return run_on(where, job, migrate=False)


@dataclass(frozen=True)
class TableList:
    """Rows from ``list_tables``."""

    rows: tuple[repo.TableRow, ...]

    def text(self) -> str:
        """A small aligned table for the terminal."""
        if not self.rows:
            return _("No tables.")
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
    where: str | Path,
    statuses: Sequence[str] = repo.OPEN,
    guild_id: int | None = None,
    limit: int = 100,
) -> TableList:
    """Tables with one of ``statuses`` (open ones by default), most recently active first."""

    async def job(db: Database) -> TableList:
        return TableList(tuple(await db.read(repo.list_tables, statuses, guild_id, limit)))

    return run_on(where, job)


#: Tables a purge names one by one; past it, how many more.
LISTED = 20


@dataclass(frozen=True)
class PurgeReport:
    """The stale tables found (at ``now``), and how many were deleted."""

    tables: tuple[repo.TableRow, ...]
    deleted: int
    dry_run: bool
    now: float = 0.0

    def text(self) -> str:
        """One line for the terminal."""
        lobbies = sum(1 for t in self.tables if t.status == "lobby")
        cancelled = sum(1 for t in self.tables if t.status == "aborted")
        games = len(self.tables) - lobbies - cancelled
        what = _(
            "{lobbies}, {cancelled} and {games}",
            lobbies=ngettext("{n} stale lobby", "{n} stale lobbies", lobbies),
            cancelled=ngettext("{n} cancelled lobby", "{n} cancelled lobbies", cancelled),
            games=ngettext("{n} idle game", "{n} idle games", games),
        )
        return (_("Would delete {what}.", what=what) if self.dry_run
                else _("Deleted {what}.", what=what))

    def listing(self) -> list[str]:
        """Each table found, one line each (the first ``LISTED``, then how many more)."""
        lines = []
        for t in self.tables[:LISTED]:
            title = _(games.get(t.game).title) if t.game in games.names() else t.game
            if t.status == "playing":
                kind = _("a game, no move for {ago}", ago=_ago(self.now - t.updated_at))
            elif t.status == "lobby":
                kind = _("a lobby, open for {ago}", ago=_ago(self.now - t.created_at))
            else:
                kind = _("a lobby cancelled {ago} ago", ago=_ago(self.now - t.updated_at))
            lines.append("  " + _("table {table} · {game} · {kind} · channel {channel}",
                                  table=t.id, game=title, kind=kind, channel=t.channel_id))
        more = len(self.tables) - LISTED
        if more > 0:
            lines.append("  " + ngettext("… and {n} more table", "… and {n} more tables", more))
        return lines


def purge(
    where: str | Path,
    lobby_hours: float = 24.0,
    idle_days: float = 7.0,
    dry_run: bool = False,
    now: float | None = None,
    confirm: Callable[[PurgeReport], None] | None = None,
) -> PurgeReport:
    """Delete lobbies (open or cancelled) older than ``lobby_hours`` and games idle over
    ``idle_days`` (see the module's docstring), ``PURGE_BATCH`` tables per transaction —
    once ``confirm`` was shown what would go (it raises to stop)."""
    if lobby_hours < 0 or idle_days <= 0:
        raise ValueError(_("The lobby limit is 0 or more, the idle limit more than 0."))
    at = time.time() if now is None else now
    limits = (at, lobby_hours * 3600, idle_days * 86400)
    found = run_on(where, lambda db: db.read(repo.stale, *limits))
    plan = PurgeReport(tuple(found), 0, True, at)
    if dry_run or not found:
        return plan if dry_run else replace(plan, dry_run=False)
    if confirm is not None:
        confirm(plan)
    deleted = 0

    def still_stale(conn: Conn, batch: list[int]) -> int:
        return repo.delete(conn, [t.id for t in repo.stale(conn, *limits) if t.id in batch])

    async def job(db: Database) -> PurgeReport:
        nonlocal deleted
        with progress(len(found), _("tables"), _("Deleting")) as bar:
            for first in range(0, len(found), PURGE_BATCH):
                batch = [t.id for t in found[first:first + PURGE_BATCH]]
                deleted += await db.write(still_stale, batch)
                bar.update(len(batch))
        return replace(plan, deleted=deleted, dry_run=False)

    def stopped() -> str:
        return ngettext(
            "Stopped: deleted {deleted} of {n} stale table; run it again for the rest.",
            "Stopped: deleted {deleted} of {n} stale tables; run it again for the rest.",
            len(found), deleted=deleted,
        )

    return run_on(where, job, stopped=stopped)


@dataclass(frozen=True)
class CheckReport:
    """The database engine's integrity check, then replay checks of every table that
    has a game and the leagues' stored rows against their matches (both skipped when the
    file itself is damaged)."""

    integrity: tuple[str, ...]
    results: tuple[CheckResult, ...]
    leagues: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the file is sound, every table replays to its snapshot and every
        league's standings and ratings are those its matches give."""
        return not self.integrity and all(r.ok for r in self.results) and not self.leagues

    def text(self) -> str:
        """A summary line and one line per problem."""
        if self.integrity:
            head = ngettext(
                "The database file is damaged: the integrity check found {n} problem."
                " Restore a backup. Problems:",
                "The database file is damaged: the integrity check found {n} problems."
                " Restore a backup. Problems:", len(self.integrity),
            )
            return "\n".join([head, *(f"  {p}" for p in self.integrity)])
        return "\n".join([
            checked(self.results),
            ngettext(
                "Checked the leagues' standings and ratings: {n} problem (rebuilding a league"
                " recomputes it from its matches).",
                "Checked the leagues' standings and ratings: {n} problems (rebuilding a league"
                " recomputes it from its matches).", len(self.leagues),
            ),
            *(f"  {p}" for p in self.leagues),
        ])


def checked(results: Sequence[CheckResult], extra: Sequence[str] = ()) -> str:
    """"Checked N tables: M problems", then one line per problem."""
    bad = [r for r in results if not r.ok]
    lines = [_(
        "Checked {tables}: {problems}.",
        tables=ngettext("{n} table", "{n} tables", len(results)),
        problems=ngettext("{n} problem", "{n} problems", len(bad) + len(extra)),
    )]
    lines += [f"  {m}" for m in extra]
    lines += ["  " + _("table {table}: {problem}", table=r.table_id, problem=r.problem)
              for r in bad]
    return "\n".join(lines)


async def check_tables(db: Database, ids: Sequence[int], done: list[CheckResult]) -> None:
    """Replay every table of ``ids`` against its snapshot, into ``done`` (with a bar)."""
    with progress(len(ids), _("tables"), _("Checking")) as bar:
        for table_id in ids:
            done.append(await check_table(db, table_id))
            bar.update(1)


def _checked_so_far(done: Sequence[CheckResult], total: int) -> str:
    bad = sum(1 for r in done if not r.ok)
    return ngettext(
        "checked {done} of {n} table ({problems} so far)",
        "checked {done} of {n} tables ({problems} so far)", total, done=len(done),
        problems=ngettext("{n} problem", "{n} problems", bad),
    )


def check(where: str | Path, statuses: Sequence[str] = ("playing", "finished")) -> CheckReport:
    """The integrity check, then replay the log of every table with one of ``statuses``
    against its snapshot, then recompute every league from its matches (once the
    database has every migration)."""
    done: list[CheckResult] = []
    ids: list[int] = []

    async def job(db: Database) -> CheckReport:
        problems = tuple(await db.integrity())
        if problems:
            return CheckReport(problems, ())
        ids.extend(await db.read(repo.ids, statuses))
        await check_tables(db, ids, done)
        current = await db.schema_version() == migrations()[-1][0]
        leagues = tuple(await LeagueService(db).check() if current else ())
        return CheckReport((), tuple(done), leagues)

    return run_on(where, job, migrate=False, stopped=lambda: (
        _("Stopped: {done}; nothing was changed.", done=_checked_so_far(done, len(ids)))
    ))


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
        copied = _("Copied into {target}: {rows}.", target=self.target, rows=rows)
        return copied + "\n" + checked(self.results, self.mismatched)


async def _snapshot_of(source: str | Path, snapshot: str) -> dict[str, int]:
    """Back the SQLite database ``source`` up into ``snapshot`` (brought to today's schema);
    the rows of each table. Anything wrong is blamed on the source."""
    name = shown(source)
    live = await open_database(
        source, migrate=False, create=False, named_by="the source (the first path given)"
    )
    try:
        if await live.schema_version() == 0:
            raise StorageUnavailable(
                _(
                    "The source {name} holds no Deckhand data: check the first path given.",
                    name=name,
                )
            )
        await live.backup(snapshot)
    except (sqlite3.Error, OSError) as exc:
        raise StorageUnavailable(
            _(
                "The source {name} cannot be read ({exc}): check it with `{command}`.",
                name=name, exc=exc, command=typed(f"db check --db {name}"),
            )
        ) from None
    finally:
        await live.close()
    snap = await open_database(snapshot)
    try:
        return await snap.read(lambda c: count_rows(c, tables_in_order(c)))
    finally:
        await snap.close()


def copy(
    source: str | Path, target: str | Path, statuses: Sequence[str] = ("playing", "finished")
) -> CopyReport:
    """Copy the SQLite database ``source`` (a consistent snapshot of it, even while a bot
    writes to it) into the empty database ``target``, migrated to the same schema; then
    replay the log of every table with one of ``statuses`` there. Ctrl-C during the copy
    leaves the target as it was (the copy is one transaction)."""
    if is_postgres(source):
        raise ValueError(_("db copy reads a SQLite database: give its path first."))
    if not is_postgres(target) and sqlite_path(target) == sqlite_path(source):
        raise ValueError(_(
            "The source and the target are the same file ({file}): give another target.",
            file=sqlite_path(source),
        ))
    stop = threading.Event()
    copied: dict[str, int] = {}
    ids: list[int] = []
    done: list[CheckResult] = []

    async def main(snapshot: str) -> CopyReport:
        expected = await _snapshot_of(source, snapshot)
        db = await open_database(target, named_by="the target (the second path given)")
        try:
            with progress(sum(expected.values()), _("rows"), _("Copying")) as bar:
                try:
                    copied.update(await db.write(fill, snapshot, bar.update, stop))
                except asyncio.CancelledError:
                    stop.set()  # the copy's transaction stops at its next batch, unwritten
                    raise
            mismatched = tuple(
                ngettext("{table}: {n} row copied of {all}", "{table}: {n} rows copied of {all}",
                         copied.get(table, 0), table=table, all=n)
                for table, n in expected.items() if copied.get(table) != n
            )
            ids.extend(await db.read(repo.ids, statuses))
            await check_tables(db, ids, done)
            return CopyReport(db.where, tuple(copied.items()), mismatched, tuple(done))
        finally:
            await db.close()

    def stopped() -> str:
        where = shown(target)
        if not copied:
            return _(
                "Stopped: nothing was copied into {where} (the copy is one transaction).",
                where=where,
            )
        so_far = _checked_so_far(done, len(ids))
        return _(
            "Stopped after the copy (every row is in {where}): {so_far}.",
            where=where, so_far=so_far,
        )

    with tempfile.TemporaryDirectory(prefix="deckhand-copy-") as folder:
        try:
            return asyncio.run(main(str(Path(folder) / "snapshot.db")))
        except KeyboardInterrupt:
            raise Interrupted(stopped()) from None
