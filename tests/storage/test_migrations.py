"""Migrations from an empty database and re-run (both backends); SQLite's pragmas and
online backup of a live database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from i18n import speaking
from storage import events, matches, tables
from storage.connect import open_database
from storage.db import Conn, migrations
from storage.models import load_seats


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
        await db.backup(str(tmp_path / "copies" / "backup.db"))
    finally:
        await db.close()
    copy = sqlite3.connect(tmp_path / "copies" / "backup.db")
    try:
        assert copy.execute("SELECT channel_id, game FROM tables").fetchall() == [(1, "ono99")]
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        copy.close()


def _undo_migration_017(c: Conn) -> None:
    """Back to the schema before computer seats were stored as a level and a number."""
    c.execute("ALTER TABLE match_seats DROP COLUMN bot_number")
    c.execute("ALTER TABLE match_seats DROP COLUMN stands_for")
    if c.dialect == "sqlite":
        c.execute("PRAGMA user_version = 16")
    else:
        c.execute("UPDATE deckhand_schema SET version = 16")


#: Seats as Deckhand wrote them before migration 017: a person named like a computer, then
#: the three forms of a computer's English name.
_OLD_SEATS = (
    '[{"user_id":1,"name":"Computer (normal) 1"},{"bot":"normal","name":"Computer (normal) 2"},'
    '{"bot":"expert","name":"Computer (expert) for \\"Ann\\""},'
    '{"bot":"random","name":"Computer (random)"},{"bot":"normal","name":"Robo"}]'
)


def _old_rows(c: Conn) -> None:
    c.execute(
        "INSERT INTO tables (id, channel_id, guild_id, game, options, host_id, status, seed,"
        " seats, created_at, updated_at) VALUES (7, 1, 2, 'ono99', '{}', 1, 'finished', 4, ?,"
        " 0, 0)", (_OLD_SEATS,))
    c.execute("INSERT INTO matches (id, table_id, guild_id, channel_id, game, options, seed,"
              " started_at, finished_at) VALUES (9, 7, 2, 1, 'ono99', '{}', 4, 0, 1)")
    c.executemany(
        "INSERT INTO match_seats (match_id, seat, user_id, bot_level, name, team, score, rank)"
        " VALUES (9, ?, ?, ?, ?, ?, 0, ?)",
        [(0, 1, None, "Computer (normal) 1", 0, 1),
         (1, None, "normal", "Computer (normal) 2", 1, 2),
         (2, None, "expert", 'Computer (expert) for "Ann"', 2, 3),
         (3, None, "random", "Computer (random)", 3, 4), (4, None, "normal", "Robo", 4, 5)])
    c.execute("INSERT INTO events (id, guild_id, channel_id, name, game, format, rounds,"
              " boards, options, seed, status, created_by, computer, created_at) VALUES"
              " (3, 2, 1, 'Cup', 'gin_rummy', 'swiss', 3, 1, '{}', 5, 'running', 1, 'expert',"
              " 0)")
    c.execute("INSERT INTO event_entrants (event_id, user_id, name, joined)"
              " VALUES (3, -1, 'Computer (expert)', 1)")


async def test_migration_017_stores_computers_as_level_and_number(where: str) -> None:
    """Every English name the earlier versions stored for a computer becomes its level and
    number (or whom it stands in for), named then in the reader's language; a person's name
    and a computer name of no known form read as before."""
    db = await open_database(where)
    try:
        await db.write(_undo_migration_017)
        await db.write(_old_rows)
    finally:
        await db.close()
    db = await open_database(where)  # migrates again: 017 on the old rows
    try:
        row = await db.read(tables.get, 7)
        assert row is not None
        seats = load_seats(row.seats)
        match = (await db.read(matches.seats_of, [9]))[9]
        (computer,) = await db.read(events.entrants, 3)
        stored = await db.read(lambda c: c.all(
            "SELECT name, bot_number, stands_for FROM match_seats ORDER BY seat"))
    finally:
        await db.close()
    assert [(r["name"], r["bot_number"], r["stands_for"]) for r in stored] == [
        ("Computer (normal) 1", None, None), ("", 2, None), ("", None, '"Ann"'),
        ("", None, None), ("Robo", None, None)]
    assert [o.model_dump(exclude_none=True) for o in seats[1:4]] == [
        {"bot": "normal", "number": 2}, {"bot": "expert", "stands_for": '"Ann"'},
        {"bot": "random"}]
    english = ["Computer (normal) 1", "Computer (normal) 2", 'Computer (expert) for "Ann"',
               "Computer (random)", "Robo"]
    welsh = ["Computer (normal) 1", "Cyfrifiadur (normal) 2",
             'Cyfrifiadur (expert) yn lle "Ann"', "Cyfrifiadur (random)", "Robo"]
    for lang, names, event_computer in (("en", english, "Computer (expert)"),
                                        ("cy", welsh, "Cyfrifiadur (expert)")):
        with speaking(lang):
            assert [str(o.name) for o in seats] == names
            assert [str(s.name) for s in match] == names
            assert str(computer.name) == event_computer
