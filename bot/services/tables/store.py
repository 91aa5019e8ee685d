"""The open tables of this process: cache, per-channel locks, quarantine, loading.

Decisions:

* One open table per channel, so the channel's lock is the table's lock. A lock is held
  only for check → apply → commit of one change, and is dropped from memory as soon as
  nobody holds or waits for it (``locked``), so locks never outlive their use.
* The cache holds each open table at its last committed state; the runtime updates it only
  after ``COMMIT``, so a read of the cache never sees an uncommitted change and needs no
  lock. A channel not in the cache is looked up in the database on use (tables created by
  another process, or dropped after a conflicting write).
* A snapshot that cannot be loaded quarantines its table (status unchanged): every
  operation on it is refused with ``TableQuarantined`` except abort, which frees the
  channel.
* Several processes may share one (PostgreSQL) database; each owns the tables of the
  guilds on its shards (``owns``) and caches only those. A table it does not own (a hand
  clicked in a DM reaches the process of shard 0) is read afresh for each use and never
  kept; its move commits only if the row is still at the version read (``RowChanged``
  otherwise), so no process ever overwrites another's move. Every commit of a table
  change is announced (``TABLES_TOPIC``: ``"<channel id> <process token>"``) so the owner
  reloads it at once (``TableService.changed_elsewhere``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from bot.services.errors import NoTable, TableBusy, TableQuarantined
from bot.services.tables import lobby
from bot.services.tables.records import (
    LOAD_ERRORS,
    OPEN,
    QuarantinedTable,
    Table,
    reason,
    table_of,
)
from i18n import lazy_gettext
from storage import tables as repo
from storage.db import Conn, Database, RowChanged
from storage.tables import TableRow

log = logging.getLogger(__name__)

#: Where table changes are announced to the other processes on the database.
TABLES_TOPIC = "deckhand_tables"
#: What a table's opening writes besides the table, in its transaction, given the new id
#: (where a front end reaches it, an event's table record).
Link = Callable[[Conn, int], None]


@dataclass(frozen=True)
class LoadReport:
    """What start-up loaded."""

    loaded: int
    playing: int
    quarantined: tuple[QuarantinedTable, ...]
    seconds: float


def no_table() -> NoTable:
    """The error for a channel without an open table."""
    return NoTable(lazy_gettext("There is no table here yet; open one to play."))


def quarantined() -> TableQuarantined:
    """The error for an operation on a quarantined table."""
    return TableQuarantined(
        lazy_gettext(
            "This table's saved game could not be read, so it is on hold. An admin can abort it "
            "to free the place for a new table."
        )
    )


class _Lock:
    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


def _quarantine_all(conn: Conn, found: list[QuarantinedTable]) -> None:
    for q in found:
        repo.quarantine(conn, q.table_id, q.reason)


class TableStore:
    """Open tables by channel, their locks, and the quarantine list."""

    def __init__(self, db: Database, owns: Callable[[int], bool] = lambda guild_id: True) -> None:
        self.db = db
        self.owns = owns
        #: Tells this process's announcements from the others'.
        self.token = secrets.token_hex(8)
        self._tables: dict[int, Table] = {}
        self._quarantined: dict[int, QuarantinedTable] = {}
        self._locks: dict[int, _Lock] = {}
        #: Lobbies being opened (written, not yet kept), by guild and host.
        self._opening: Counter[tuple[int, int]] = Counter()

    # -- locks ---------------------------------------------------------------------------
    @asynccontextmanager
    async def locked(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's lock; it is forgotten once nobody holds or waits for it."""
        entry = self._locks.get(channel_id)
        if entry is None:
            entry = self._locks[channel_id] = _Lock()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[channel_id]

    async def insert_lobby(self, new: repo.NewTable, link: Link | None = None) -> int:
        """Write a new lobby (its id) and whatever ``link`` writes with it, in one
        transaction; refused when its host has no room for another. The check and the place
        it takes are one step and the place is held until the write returns — the caller
        keeps the table before it awaits again — so lobbies opened at once in different
        channels, under different locks, count each other."""
        key = (new.guild_id, new.host_id)
        lobby.require_room_for_a_lobby(self.tables(), *key, self._opening[key])
        self._opening[key] += 1

        def insert(conn: Conn) -> int:
            table_id = repo.insert(conn, new)
            if link is not None:
                link(conn, table_id)
            return table_id

        try:
            return await self.db.write(insert)
        finally:
            self._opening[key] -= 1
            if not self._opening[key]:
                del self._opening[key]

    def lock_count(self) -> int:
        """How many channel locks are in memory (held or waited for)."""
        return len(self._locks)

    # -- the cache -----------------------------------------------------------------------
    def cached(self, channel_id: int) -> Table | None:
        """The channel's open table if it is in memory (no I/O)."""
        return self._tables.get(channel_id)

    def channels(self) -> list[int]:
        """The channels whose tables this process keeps."""
        return list(self._tables)

    def tables(self) -> list[Table]:
        """Every open table in memory."""
        return list(self._tables.values())

    def keep(self, table: Table) -> None:
        """Cache ``table`` while it is open; forget it once it is closed."""
        if table.status in OPEN and self.owns(table.guild_id):
            self._tables[table.channel_id] = table
        elif self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]

    def forget(self, channel_id: int) -> None:
        """Drop a channel's table from memory (it is reloaded from the database on use)."""
        self._tables.pop(channel_id, None)

    def quarantined_in(self, channel_id: int) -> QuarantinedTable | None:
        """The channel's quarantined table, if it has one."""
        return self._quarantined.get(channel_id)

    def release_quarantine(self, channel_id: int) -> None:
        """The quarantined table was aborted."""
        self._quarantined.pop(channel_id, None)

    async def find(self, channel_id: int) -> Table | QuarantinedTable | None:
        """The channel's open table, loading it from the database if needed."""
        found = self._tables.get(channel_id) or self._quarantined.get(channel_id)
        if found is not None:
            return found
        row = await self.db.read(repo.open_in_channel, channel_id)
        if row is None:
            return None
        # Another task may have loaded it while this one read.
        found = self._tables.get(channel_id) or self._quarantined.get(channel_id)
        if found is not None:
            return found
        return await self._admit(row)

    async def usable(self, channel_id: int) -> Table:
        """The channel's open table, or the error saying why there is none to use."""
        found = await self.find(channel_id)
        if found is None:
            raise no_table()
        if isinstance(found, QuarantinedTable):
            raise quarantined()
        return found

    async def _admit(self, row: TableRow) -> Table | QuarantinedTable:
        if row.quarantine is not None:
            q = self._quarantined[row.channel_id] = QuarantinedTable(
                row.id, row.channel_id, row.quarantine
            )
            return q
        try:
            table = table_of(row)
        except LOAD_ERRORS as exc:
            q = self._quarantined[row.channel_id] = QuarantinedTable(
                row.id, row.channel_id, reason(exc)
            )
            log.warning("table %s (channel %s) quarantined: %s", q.table_id, q.channel_id, q.reason)
            await self.db.write(repo.quarantine, row.id, q.reason)
            return q
        if self.owns(row.guild_id):
            self._tables[row.channel_id] = table
        return table

    def heard(self, payload: str | None) -> list[int] | None:
        """The channels another process changed, from an announcement (``[]``: this
        process's own; ``None``: announcements were missed, any may have changed)."""
        if payload is None:
            return None
        channel, _, token = payload.partition(" ")
        return [] if token == self.token else [int(channel)]

    async def load(self) -> LoadReport:
        """Load every open table of the guilds this process owns (start-up)."""
        started = time.perf_counter()
        bad: list[QuarantinedTable] = []
        fresh: list[QuarantinedTable] = []
        for row in await self.db.read(repo.load_open):
            if not self.owns(row.guild_id):
                continue
            if row.quarantine is not None:
                q = QuarantinedTable(row.id, row.channel_id, row.quarantine)
            else:
                try:
                    self._tables[row.channel_id] = table_of(row)
                    continue
                except LOAD_ERRORS as exc:
                    q = QuarantinedTable(row.id, row.channel_id, reason(exc))
                    fresh.append(q)
            self._quarantined[row.channel_id] = q
            bad.append(q)
        if fresh:
            await self.db.write(_quarantine_all, fresh)
        for q in bad:
            log.warning("table %s (channel %s) quarantined: %s", q.table_id, q.channel_id, q.reason)
        playing = sum(1 for t in self._tables.values() if t.state is not None)
        return LoadReport(len(self._tables), playing, tuple(bad), time.perf_counter() - started)

    async def commit(self, table: Table, fn: Callable[[Conn], object]) -> object:
        """Run a change of ``table`` in one write transaction. If the row changed
        underneath (another process), the cached table is dropped and ``TableBusy`` says
        to try again; nothing was written."""
        def announced(conn: Conn) -> object:
            done = fn(conn)
            conn.announce(TABLES_TOPIC, f"{table.channel_id} {self.token}")
            return done

        try:
            return await self.db.write(announced)
        except RowChanged:
            self.forget(table.channel_id)
            raise TableBusy(
                lazy_gettext(
                    "The table changed elsewhere in the meantime; nothing was changed here. "
                    "Please try again."
                )
            ) from None
