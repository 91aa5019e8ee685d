"""The tables repository: one row per table (current snapshot) and its append-only action log.

Plain functions of a ``Conn`` (see ``storage.db``): the service runs a snapshot update, its
log row and (when the game ends) the match in one ``Database.write``.
Updates are guarded by the expected status and version (optimistic concurrency): if
another process changed or purged the row meanwhile, ``RowChanged`` is raised and the
transaction rolls back, so two writers can never both apply a move.

Rows are returned as ``TableRow`` with the JSON columns still as text: the service decides
how to load them (and quarantines what it cannot read), the CLI can list rows without
parsing any snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from storage.db import Conn, Row, RowChanged

OPEN = ("lobby", "playing")


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
    #: A practice table: hints are on and its game counts toward no rating
    #: (``bot.services.tables.hints``).
    unrated: bool = False

    @classmethod
    def from_row(cls, r: Row) -> TableRow:
        """Build from a row selected with ``COLUMNS``."""
        values = {name: r[name] for name in _NAMES}
        values["reminded"] = bool(values["reminded"])
        values["unrated"] = bool(values["unrated"])
        return cls(**values)


_NAMES = tuple(f.name for f in fields(TableRow))
COLUMNS = ", ".join(_NAMES)


@dataclass(frozen=True)
class ActionRow:
    """One logged action: the version it produced, who acted and how."""

    version: int
    seat: int
    action: str
    by_user: int | None
    timed_out: bool
    at: float


@dataclass(frozen=True, kw_only=True)
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
    #: A practice table (``bot.services.tables.hints``), unrated from its first move.
    unrated: bool = False


def insert(conn: Conn, t: NewTable) -> int:
    """Create a lobby; ``storage.db.Conflict`` if the channel already has an open table."""
    row = conn.one(
        "INSERT INTO tables (channel_id, guild_id, league_id, game, options, host_id, status,"
        " seed, seats, turn_timer, created_at, updated_at, unrated)"
        " VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
        (t.channel_id, t.guild_id, t.league_id, t.game, t.options, t.host_id, t.seed,
         t.seats, t.turn_timer, t.now, t.now, int(t.unrated)),
    )
    assert row is not None
    return int(row["id"])


def _update_one(conn: Conn, table_id: int, sql: str, params: Sequence[object]) -> None:
    if conn.execute(sql, params) != 1:
        raise RowChanged(f"table {table_id} changed underneath this write")


def update_lobby(conn: Conn, table_id: int, seats: str, host_id: int, now: float) -> None:
    """New seats and host of a lobby."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET seats = ?, host_id = ?, updated_at = ?"
        " WHERE id = ? AND status = 'lobby'",
        (seats, host_id, now, table_id),
    )


def start(
    conn: Conn, table_id: int, seats: str, snapshot: str, deadline: float | None, now: float
) -> None:
    """Lobby → playing with the seating order and the first snapshot (version 0)."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET status = 'playing', seats = ?, snapshot = ?, version = 0,"
        " deadline = ?, reminded = 0, started_at = ?, updated_at = ?"
        " WHERE id = ? AND status = 'lobby'",
        (seats, snapshot, deadline, now, now, table_id),
    )


def record_action(
    conn: Conn, table_id: int, *, version: int, seat: int, action: str,
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


def update_seats(conn: Conn, table_id: int, seats: str, host_id: int, now: float) -> None:
    """New occupants of a running game (a leaver replaced by a computer player)."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET seats = ?, host_id = ?, updated_at = ?"
        " WHERE id = ? AND status = 'playing'",
        (seats, host_id, now, table_id),
    )


def set_reminded(conn: Conn, table_id: int, version: int) -> None:
    """Note that the half-time reminder for ``version`` went out."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET reminded = 1 WHERE id = ? AND status = 'playing' AND version = ?",
        (table_id, version),
    )


def close(conn: Conn, table_id: int, status: str, now: float) -> None:
    """End an open table as ``aborted`` (or ``finished``); it stays as history."""
    _update_one(
        conn, table_id,
        "UPDATE tables SET status = ?, deadline = NULL, updated_at = ?,"
        " finished_at = ? WHERE id = ? AND status IN ('lobby', 'playing')",
        (status, now, now, table_id),
    )


def quarantine(conn: Conn, table_id: int, reason: str) -> None:
    """Mark a table whose snapshot cannot be loaded (its status is left as it was)."""
    conn.execute("UPDATE tables SET quarantine = ? WHERE id = ?", (reason, table_id))


def get(conn: Conn, table_id: int) -> TableRow | None:
    """A table by id."""
    r = conn.one(f"SELECT {COLUMNS} FROM tables WHERE id = ?", (table_id,))
    return TableRow.from_row(r) if r else None


def open_in_channel(conn: Conn, channel_id: int) -> TableRow | None:
    """The channel's open (lobby or playing) table."""
    r = conn.one(
        f"SELECT {COLUMNS} FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
        (channel_id,),
    )
    return TableRow.from_row(r) if r else None


def latest_in_channel(conn: Conn, channel_id: int, status: str | None = None) -> TableRow | None:
    """The channel's most recent table (optionally with ``status``)."""
    sql = f"SELECT {COLUMNS} FROM tables WHERE channel_id = ?"
    params: list[object] = [channel_id]
    if status is not None:
        sql += " AND status = ?"
        params.append(status)
    r = conn.one(sql + " ORDER BY id DESC LIMIT 1", params)
    return TableRow.from_row(r) if r else None


def load_open(conn: Conn) -> list[TableRow]:
    """Every open table (one query, for start-up)."""
    rows = conn.all(
        f"SELECT {COLUMNS} FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
    )
    return [TableRow.from_row(r) for r in rows]


def actions(conn: Conn, table_id: int) -> list[ActionRow]:
    """A table's action log, in order."""
    rows = conn.all(
        "SELECT version, seat, action, by_user, timed_out, at FROM table_actions"
        " WHERE table_id = ? ORDER BY version",
        (table_id,),
    )
    return [
        ActionRow(r["version"], r["seat"], r["action"], r["by_user"], bool(r["timed_out"]),
                  r["at"])
        for r in rows
    ]


def list_tables(
    conn: Conn, statuses: Sequence[str] = OPEN, guild_id: int | None = None, limit: int = 100
) -> list[TableRow]:
    """Tables with one of ``statuses``, most recently active first."""
    marks = ", ".join("?" for _ in statuses)
    sql = f"SELECT {COLUMNS} FROM tables WHERE status IN ({marks})"
    params: list[object] = list(statuses)
    if guild_id is not None:
        sql += " AND guild_id = ?"
        params.append(guild_id)
    rows = conn.all(sql + " ORDER BY updated_at DESC LIMIT ?", [*params, limit])
    return [TableRow.from_row(r) for r in rows]


def ids(conn: Conn, statuses: Sequence[str]) -> list[int]:
    """Ids of every table with one of ``statuses``, oldest first."""
    marks = ", ".join("?" for _ in statuses)
    rows = conn.all(
        f"SELECT id FROM tables WHERE status IN ({marks}) ORDER BY id", list(statuses)
    )
    return [int(r["id"]) for r in rows]


#: What ``stale`` and ``delete`` may remove: open tables, and lobbies cancelled before a
#: deal (no game, so no history).
_PURGEABLE = "(status IN ('lobby', 'playing') OR (status = 'aborted' AND started_at IS NULL))"


def stale(conn: Conn, now: float, lobby_seconds: float, idle_seconds: float) -> list[TableRow]:
    """Lobbies created over ``lobby_seconds`` ago, lobbies cancelled (before any deal) over
    ``lobby_seconds`` ago and games with no move for over ``idle_seconds`` whose turn timer
    (if any) has run out: a timer still running will move the game."""
    rows = conn.all(
        f"SELECT {COLUMNS} FROM tables WHERE (status = 'lobby' AND created_at < ?)"
        " OR (status = 'aborted' AND started_at IS NULL AND updated_at < ?)"
        " OR (status = 'playing' AND updated_at < ? AND (deadline IS NULL OR deadline < ?))"
        " ORDER BY id",
        (now - lobby_seconds, now - lobby_seconds, now - idle_seconds, now),
    )
    return [TableRow.from_row(r) for r in rows]


def delete(conn: Conn, table_ids: Sequence[int]) -> int:
    """Delete open tables and cancelled lobbies (and, by cascade, their logs and message
    references); return how many went. Finished games and games aborted after their deal
    are history and stay."""
    if not table_ids:
        return 0
    marks = ", ".join("?" for _ in table_ids)
    return conn.execute(
        f"DELETE FROM tables WHERE id IN ({marks}) AND {_PURGEABLE}", tuple(table_ids)
    )
