"""Migrations from an empty database and re-run (both backends); SQLite's pragmas and
online backup of a live database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage.connect import open_database
from storage.db import Conn, migrations


def names(c: Conn) -> set[str]:
    return {r["name"] for r in c.all("SELECT name FROM sqlite_master")}


def pragma(c: Conn, name: str) -> object:
    row = c.one(f"PRAGMA {name}")
    assert row is not None
    return row[name]


def counts(c: Conn) -> dict[str, int]:
    found = {}
    for table in ("tables", "table_actions", "matches", "match_seats", "leagues",
                  "league_players", "discord_messages"):
        row = c.one(f"SELECT count(*) AS n FROM {table}")
        found[table] = row["n"] if row else -1
    return found


async def test_migrate_from_empty_then_rerun_is_a_no_op(where: str) -> None:
    db = await open_database(where, migrate=False)
    try:
        assert await db.schema_version() == 0
        applied = await db.migrate()
        assert applied == [n for n, _ in migrations()] and applied[0] == 1
        assert await db.schema_version() == applied[-1]
        assert await db.migrate() == []
        assert set((await db.read(counts)).values()) == {0}
        row = await db.read(lambda c: c.one(
            "SELECT quarantine, turn_timer, deadline, reminded FROM tables"))
        assert row is None
    finally:
        await db.close()
    again = await open_database(where)
    try:
        assert await again.schema_version() == applied[-1]
    finally:
        await again.close()


async def test_sqlite_pragmas(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "new" / "deckhand.db")
    try:
        assert {"tables", "table_actions", "matches", "match_seats"} <= await db.read(names)
        cols = {r["name"] for r in await db.read(lambda c: c.all("PRAGMA table_info(tables)"))}
        assert {"quarantine", "turn_timer", "deadline", "reminded"} <= cols
        assert await db.read(pragma, "journal_mode") == "wal"
        assert await db.read(pragma, "foreign_keys") == 1
        assert await db.write(pragma, "foreign_keys") == 1
    finally:
        await db.close()


async def test_backup_copies_committed_rows(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "live.db")
    try:
        await db.write(
            lambda c: c.execute(
                "INSERT INTO tables (channel_id, guild_id, game, options, host_id, status, seed,"
                " seats, created_at, updated_at) VALUES (1, 2, 'ono99', '{}', 3, 'lobby', 4,"
                " '[]', 0, 0)"
            )
        )
        await db.backup(str(tmp_path / "backup.db"))
    finally:
        await db.close()
    copy = sqlite3.connect(tmp_path / "backup.db")
    try:
        assert copy.execute("SELECT channel_id, game FROM tables").fetchall() == [(1, "ono99")]
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        copy.close()
