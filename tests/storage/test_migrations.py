"""Migrations from an empty file and re-run; online backup of a live database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage.db import Database, migrations


async def test_migrate_from_empty_then_rerun_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "new" / "deckhand.db"
    db = await Database.open(path, migrate=False)
    try:
        assert await db.schema_version() == 0
        applied = await db.migrate()
        assert applied == [n for n, _ in migrations()] and applied[0] == 1
        assert await db.schema_version() == applied[-1]
        assert await db.migrate() == []
        names = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master")}
        assert {"tables", "table_actions", "matches", "match_seats"} <= names
        cols = {r[1] for r in await db.fetchall("PRAGMA table_info(tables)")}
        assert {"quarantine", "turn_timer", "deadline", "reminded"} <= cols
        assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
        assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1  # type: ignore[index]
    finally:
        await db.close()
    again = await Database.open(path)
    try:
        assert await again.schema_version() == applied[-1]
    finally:
        await again.close()


async def test_backup_copies_committed_rows(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "live.db")
    try:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO tables (channel_id, guild_id, game, options, host_id, status, seed,"
                " seats, created_at, updated_at) VALUES (1, 2, 'ono99', '{}', 3, 'lobby', 4,"
                " '[]', 0, 0)"
            )
        await db.backup(tmp_path / "copies" / "backup.db")
    finally:
        await db.close()
    copy = sqlite3.connect(tmp_path / "copies" / "backup.db")
    try:
        assert copy.execute("SELECT channel_id, game FROM tables").fetchall() == [(1, "ono99")]
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        copy.close()
