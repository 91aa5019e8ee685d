"""Where each table's Discord messages are: the public table message, each player's hand
DM and turn ping (channel and message ids), and the notices already given.

Knows nothing of Discord beyond ids. Message ids are bookkeeping written after Discord
answered, each in its own short transaction, never part of a move's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Conn

TABLE = "table"
HAND = "hand"
PING = "ping"
DM_CLOSED = "dm_closed"


@dataclass(frozen=True)
class MessageRef:
    """A message of a table: ``kind`` table/hand/ping, ``user_id`` 0 for the table's."""

    table_id: int
    kind: str
    user_id: int
    channel_id: int
    message_id: int


def put(conn: Conn, ref: MessageRef) -> None:
    """Remember (or replace) a table's message of ``ref.kind`` for ``ref.user_id``."""
    conn.execute(
        "INSERT INTO discord_messages (table_id, kind, user_id, channel_id, message_id)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, kind, user_id) DO UPDATE SET"
        " channel_id = excluded.channel_id, message_id = excluded.message_id",
        (ref.table_id, ref.kind, ref.user_id, ref.channel_id, ref.message_id),
    )


def get(conn: Conn, table_id: int, kind: str, user_id: int = 0) -> MessageRef | None:
    """A table's message of ``kind`` for ``user_id``, if one was stored."""
    r = conn.one(
        "SELECT channel_id, message_id FROM discord_messages"
        " WHERE table_id = ? AND kind = ? AND user_id = ?",
        (table_id, kind, user_id),
    )
    if r is None:
        return None
    return MessageRef(table_id, kind, user_id, int(r["channel_id"]), int(r["message_id"]))


def for_table(conn: Conn, table_id: int) -> list[MessageRef]:
    """Every stored message of a table."""
    rows = conn.all(
        "SELECT kind, user_id, channel_id, message_id FROM discord_messages"
        " WHERE table_id = ? ORDER BY kind, user_id",
        (table_id,),
    )
    return [
        MessageRef(table_id, r["kind"], int(r["user_id"]), int(r["channel_id"]),
                   int(r["message_id"]))
        for r in rows
    ]


def forget(conn: Conn, table_id: int, kind: str, user_id: int = 0) -> None:
    """Drop a stored message (it was deleted)."""
    conn.execute(
        "DELETE FROM discord_messages WHERE table_id = ? AND kind = ? AND user_id = ?",
        (table_id, kind, user_id),
    )


def note(conn: Conn, table_id: int, user_id: int, notice: str, now: float) -> bool:
    """Record a notice; True if it is new (so it should be given now), False if given."""
    return conn.execute(
        "INSERT INTO discord_notices (table_id, user_id, notice, at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (table_id, user_id, notice) DO NOTHING",
        (table_id, user_id, notice, now),
    ) == 1


def noted(conn: Conn, table_id: int, user_id: int, notice: str) -> bool:
    """Whether a notice was given."""
    r = conn.one(
        "SELECT 1 AS given FROM discord_notices WHERE table_id = ? AND user_id = ? AND notice = ?",
        (table_id, user_id, notice),
    )
    return r is not None


def clear_note(conn: Conn, table_id: int, user_id: int, notice: str) -> None:
    """Forget a notice (e.g. the user opened their DMs again)."""
    conn.execute(
        "DELETE FROM discord_notices WHERE table_id = ? AND user_id = ? AND notice = ?",
        (table_id, user_id, notice),
    )
