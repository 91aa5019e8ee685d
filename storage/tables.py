"""The tables repository: one row per table (current snapshot) and its append-only action log.

Writes are plain functions of a ``sqlite3.Connection``, run on the writer's thread by
``Database.write`` (group commit) or ``Database.call`` (inside ``transaction()``), so the
service puts a snapshot update, its log row and (when the game ends) the match in one
transaction and one thread round trip; only ``delete`` (for the CLI) is async, inside
``transaction()``.
Updates are guarded by the expected status and version (optimistic concurrency): if
another process changed or purged the row meanwhile, ``RowChanged`` is raised and the
transaction rolls back, so two writers can never both apply a move.

Rows are returned as ``TableRow`` with the JSON columns still as text: the service decides
how to load them (and quarantines what it cannot read), the CLI can list rows without
parsing any snapshot.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from storage.db import Database

OPEN = ("lobby", "playing")
_COLUMNS = (
    "id, channel_id, guild_id, league_id, game, options, host_id, status, seed, version,"
    " seats, snapshot, deadline, reminded, turn_timer, quarantine, created_at, updated_at,"
    " started_at, finished_at"
)


class RowChanged(RuntimeError):
    """The table row was not in the state the write expected (changed or deleted)."""


@dataclass(frozen=True)
class TableRow:
    """One row of ``tables``; ``options``, ``seats`` and ``snapshot`` are JSON text."""

    id: int
    channel_id: int
    guild_id: int
    league_id: int | None
    game: str
    options: str
    host_id: int
    status: str
    seed: int
    version: int
    seats: str
    snapshot: str | None
    deadline: float | None
    reminded: bool
    turn_timer: int
    quarantine: str | None
    created_at: float
    updated_at: float
    started_at: float | None
    finished_at: float | None

    @classmethod
    def from_row(cls, r: sqlite3.Row) -> TableRow:
        """Build from a row selected with this module's column list."""
        return cls(
            r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12],
            bool(r[13]), r[14], r[15], r[16], r[17], r[18], r[19],
        )


@dataclass(frozen=True)
class ActionRow:
    """One logged action: the version it produced, who acted and how."""

    version: int
    seat: int
    action: str
    by_user: int | None
    timed_out: bool
    at: float


@dataclass(frozen=True)
class NewTable:
    """What ``insert`` needs to create a table."""

    channel_id: int
    guild_id: int
    league_id: int | None
    game: str
    options: str
    host_id: int
    seed: int
    seats: str
    turn_timer: int
    now: float


def insert(conn: sqlite3.Connection, t: NewTable) -> int:
    """Create a lobby; ``sqlite3.IntegrityError`` if the channel already has an open table."""
    cur = conn.execute(
        "INSERT INTO tables (channel_id, guild_id, league_id, game, options, host_id, status,"
        " seed, seats, turn_timer, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
        (t.channel_id, t.guild_id, t.league_id, t.game, t.options, t.host_id, t.seed,
         t.seats, t.turn_timer, t.now, t.now),
    )
    assert cur.lastrowid is not None
    return cur.lastrowid


def _update_one(
    conn: sqlite3.Connection, table_id: int, sql: str, params: tuple[object, ...]
) -> None:
    if conn.execute(sql, params).rowcount != 1:
        raise RowChanged(f"table {table_id} changed underneath this write")


def update_lobby(
    conn: sqlite3.Connection, table_id: int, seats: str, host_id: int, now: float
) -> None:
    """New seats and host of a lobby."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET seats = ?, host_id = ?, updated_at = ?"
        " WHERE id = ? AND status = 'lobby'",
        (seats, host_id, now, table_id),
    )


def start(
    conn: sqlite3.Connection, table_id: int, seats: str, snapshot: str,
    deadline: float | None, now: float, *, from_status: str = "lobby",
) -> None:
    """Lobby → playing with the seating order and the first snapshot (version 0)."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET status = 'playing', seats = ?, snapshot = ?, version = 0,"
        " deadline = ?, reminded = 0, started_at = ?, updated_at = ?"
        " WHERE id = ? AND status = ?",
        (seats, snapshot, deadline, now, now, table_id, from_status),
    )


def record_action(
    conn: sqlite3.Connection, table_id: int, *, version: int, seat: int, action: str,
    by_user: int | None, timed_out: bool, snapshot: str, deadline: float | None,
    finished: bool, now: float,
) -> None:
    """Store the snapshot of ``version`` and log the action that produced it.

    The row must still be playing at ``version - 1``; ``finished`` also marks it finished.
    """
    _update_one(
        conn, table_id,
        "UPDATE tables SET snapshot = ?, version = ?, deadline = ?, reminded = 0,"
        " updated_at = ?, status = ?, finished_at = ?"
        " WHERE id = ? AND status = 'playing' AND version = ?",
        (snapshot, version, deadline, now, "finished" if finished else "playing",
         now if finished else None, table_id, version - 1),
    )
    conn.execute(
        "INSERT INTO table_actions (table_id, version, seat, action, by_user, timed_out, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, version, seat, action, by_user, int(timed_out), now),
    )


def update_seats(
    conn: sqlite3.Connection, table_id: int, seats: str, host_id: int, now: float
) -> None:
    """New occupants of a running game (a leaver replaced by a computer player)."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET seats = ?, host_id = ?, updated_at = ?"
        " WHERE id = ? AND status = 'playing'",
        (seats, host_id, now, table_id),
    )


def set_reminded(conn: sqlite3.Connection, table_id: int, version: int) -> None:
    """Note that the half-time reminder for ``version`` went out."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET reminded = 1 WHERE id = ? AND status = 'playing' AND version = ?",
        (table_id, version),
    )


def close(conn: sqlite3.Connection, table_id: int, status: str, now: float) -> None:
    """End an open table as ``aborted`` (or ``finished``); it stays as history."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET status = ?, deadline = NULL, updated_at = ?,"
        " finished_at = ? WHERE id = ? AND status IN ('lobby', 'playing')",
        (status, now, now, table_id),
    )


def quarantine(conn: sqlite3.Connection, table_id: int, reason: str) -> None:
    """Mark a table whose snapshot cannot be loaded (its status is left as it was)."""
    conn.execute("UPDATE tables SET quarantine = ? WHERE id = ?", (reason, table_id))


async def get(db: Database, table_id: int) -> TableRow | None:
    """A table by id."""
    r = await db.fetchone(f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,))
    return TableRow.from_row(r) if r else None


async def open_in_channel(db: Database, channel_id: int) -> TableRow | None:
    """The channel's open (lobby or playing) table."""
    r = await db.fetchone(
        f"SELECT {_COLUMNS} FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
        (channel_id,),
    )
    return TableRow.from_row(r) if r else None


async def latest_in_channel(
    db: Database, channel_id: int, status: str | None = None
) -> TableRow | None:
    """The channel's most recent table (optionally with ``status``)."""
    sql = f"SELECT {_COLUMNS} FROM tables WHERE channel_id = ?"
    params: list[object] = [channel_id]
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    r = await db.fetchone(sql + " ORDER BY id DESC LIMIT 1", params)
    return TableRow.from_row(r) if r else None


async def load_open(db: Database) -> list[TableRow]:
    """Every open table (one query, for start-up)."""
    rows = await db.fetchall(
        f"SELECT {_COLUMNS} FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
    )
    return [TableRow.from_row(r) for r in rows]


async def actions(db: Database, table_id: int) -> list[ActionRow]:
    """A table's action log, in order."""
    rows = await db.fetchall(
        "SELECT version, seat, action, by_user, timed_out, at FROM table_actions"
        " WHERE table_id = ? ORDER BY version",
        (table_id,),
    )
    return [ActionRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]


async def list_tables(
    db: Database, statuses: Sequence[str] = OPEN, guild_id: int | None = None, limit: int = 100
) -> list[TableRow]:
    """Tables with one of ``statuses``, most recently active first."""
    marks = ", ".join("?" for _ in statuses)
    sql = f"SELECT {_COLUMNS} FROM tables WHERE status IN ({marks})"
    params: list[object] = list(statuses)
    if guild_id is not None:
        sql += " AND guild_id = ?"
        params.append(guild_id)
    rows = await db.fetchall(sql + " ORDER BY updated_at DESC LIMIT ?", [*params, limit])
    return [TableRow.from_row(r) for r in rows]


async def ids(db: Database, statuses: Sequence[str]) -> list[int]:
    """Ids of every table with one of ``statuses``, oldest first."""
    marks = ", ".join("?" for _ in statuses)
    rows = await db.fetchall(
        f"SELECT id FROM tables WHERE status IN ({marks}) ORDER BY id", list(statuses)
    )
    return [int(r[0]) for r in rows]


async def stale(
    db: Database, now: float, lobby_seconds: float, idle_seconds: float
) -> list[TableRow]:
    """Lobbies created over ``lobby_seconds`` ago and games idle over ``idle_seconds``."""
    rows = await db.fetchall(
        f"SELECT {_COLUMNS} FROM tables WHERE (status = 'lobby' AND created_at < ?)"
        " OR (status = 'playing' AND updated_at < ?) ORDER BY id",
        (now - lobby_seconds, now - idle_seconds),
    )
    return [TableRow.from_row(r) for r in rows]


async def delete(conn: aiosqlite.Connection, table_ids: Sequence[int]) -> int:
    """Delete open tables (and, by cascade, their logs); return how many went."""
    if not table_ids:
        return 0
    marks = ", ".join("?" for _ in table_ids)
    cur = await conn.execute(
        f"DELETE FROM tables WHERE id IN ({marks}) AND status IN ('lobby', 'playing')",
        tuple(table_ids),
    )
    return cur.rowcount
