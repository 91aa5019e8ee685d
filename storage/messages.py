"""Where each table's Discord messages are: the public table message, each player's hand
DM and turn ping (channel and message ids), and the notices already given.

Knows nothing of Discord beyond ids. Each call is its own short transaction: message ids
are bookkeeping written after Discord answered, never part of a move's transaction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from storage.db import Database

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


async def put(
    db: Database, table_id: int, kind: str, channel_id: int, message_id: int, user_id: int = 0
) -> MessageRef:
    """Remember (or replace) a table's message of ``kind`` for ``user_id``."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO discord_messages (table_id, kind, user_id, channel_id, message_id)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, kind, user_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id",
            (table_id, kind, user_id, channel_id, message_id),
        )
    return MessageRef(table_id, kind, user_id, channel_id, message_id)


async def get(db: Database, table_id: int, kind: str, user_id: int = 0) -> MessageRef | None:
    """A table's message of ``kind`` for ``user_id``, if one was stored."""
    r = await db.fetchone(
        "SELECT channel_id, message_id FROM discord_messages"
        " WHERE table_id = ? AND kind = ? AND user_id = ?",
        (table_id, kind, user_id),
    )
    return MessageRef(table_id, kind, user_id, int(r[0]), int(r[1])) if r else None


async def for_table(db: Database, table_id: int) -> list[MessageRef]:
    """Every stored message of a table."""
    rows = await db.fetchall(
        "SELECT kind, user_id, channel_id, message_id FROM discord_messages"
        " WHERE table_id = ? ORDER BY kind, user_id",
        (table_id,),
    )
    return [MessageRef(table_id, r[0], int(r[1]), int(r[2]), int(r[3])) for r in rows]


async def forget(db: Database, table_id: int, kind: str, user_id: int = 0) -> None:
    """Drop a stored message (it was deleted)."""
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM discord_messages WHERE table_id = ? AND kind = ? AND user_id = ?",
            (table_id, kind, user_id),
        )


async def note(db: Database, table_id: int, user_id: int, notice: str) -> bool:
    """Record a notice; True if it is new (so it should be given now), False if given."""
    async with db.transaction() as conn:
        cur = await conn.execute(
            "INSERT OR IGNORE INTO discord_notices (table_id, user_id, notice, at)"
            " VALUES (?, ?, ?, ?)",
            (table_id, user_id, notice, time.time()),
        )
        return cur.rowcount == 1


async def noted(db: Database, table_id: int, user_id: int, notice: str) -> bool:
    """Whether a notice was given."""
    r = await db.fetchone(
        "SELECT 1 FROM discord_notices WHERE table_id = ? AND user_id = ? AND notice = ?",
        (table_id, user_id, notice),
    )
    return r is not None


async def clear_note(db: Database, table_id: int, user_id: int, notice: str) -> None:
    """Forget a notice (e.g. the user opened their DMs again)."""
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM discord_notices WHERE table_id = ? AND user_id = ? AND notice = ?",
            (table_id, user_id, notice),
        )
