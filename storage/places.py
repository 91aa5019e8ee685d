"""Where Deckhand plays without its bot (a user install, ``bot.ui.places``): the tables only
interaction tokens reach (and those whose authorising install is gone), and who keeps the
leagues of each DM or group DM.

Knows nothing of Discord beyond ids. A table's reach and its place's keeper are written in
the transaction that opens the table (no table is left without them); the reach is read at
start-up for the open tables.
"""

from __future__ import annotations

from storage import messages
from storage.db import Conn
from storage.tables import OPEN

#: The notice of a table whose authorising install is gone (``bot.ui.publish.router``).
LOST = "authorisation_lost"


def mark_tokens_only(conn: Conn, table_id: int) -> None:
    """The table is reached only through interaction tokens."""
    conn.execute(
        "INSERT INTO discord_tokens_only (table_id) VALUES (?) ON CONFLICT (table_id) DO NOTHING",
        (table_id,),
    )


def open_tokens_only(conn: Conn) -> set[int]:
    """The open tables only interaction tokens reach."""
    marks = ", ".join("?" for _ in OPEN)
    rows = conn.all(
        "SELECT r.table_id FROM discord_tokens_only r JOIN tables t ON t.id = r.table_id"
        f" WHERE t.status IN ({marks})",
        OPEN,
    )
    return {int(r["table_id"]) for r in rows}


def mark_lost(conn: Conn, table_id: int, now: float) -> bool:
    """The install that let Deckhand post at the table is gone; True if that is news."""
    return messages.note(conn, table_id, 0, LOST, now)


def clear_lost(conn: Conn, table_id: int) -> None:
    """Someone's own install reaches the table again."""
    messages.clear_note(conn, table_id, 0, LOST)


def open_lost(conn: Conn) -> set[int]:
    """The open tables whose authorising install is gone."""
    marks = ", ".join("?" for _ in OPEN)
    rows = conn.all(
        "SELECT n.table_id FROM discord_notices n JOIN tables t ON t.id = n.table_id"
        f" WHERE n.notice = ? AND n.user_id = 0 AND t.status IN ({marks})",
        (LOST, *OPEN),
    )
    return {int(r["table_id"]) for r in rows}


def claim_keeper(conn: Conn, scope_id: int, user_id: int, now: float) -> int:
    """Make ``user_id`` the keeper of the scope unless it has one; the keeper after."""
    conn.execute(
        "INSERT INTO discord_keepers (scope_id, user_id, at) VALUES (?, ?, ?)"
        " ON CONFLICT (scope_id) DO NOTHING",
        (scope_id, user_id, now),
    )
    found = keeper(conn, scope_id)
    assert found is not None
    return found


def keeper(conn: Conn, scope_id: int) -> int | None:
    """Who keeps the scope's leagues, if anyone opened a table there yet."""
    row = conn.one("SELECT user_id FROM discord_keepers WHERE scope_id = ?", (scope_id,))
    return int(row["user_id"]) if row is not None else None
