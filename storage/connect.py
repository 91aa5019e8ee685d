"""Which backend a ``DECKHAND_DB`` value selects, and opening it."""

from __future__ import annotations

from pathlib import Path

from storage.db import Database
from storage.postgres import PostgresDatabase
from storage.sqlite import SqliteDatabase

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(where: str | Path) -> bool:
    """Whether ``where`` is a PostgreSQL URL (else a SQLite path or ``sqlite:///`` URL)."""
    return isinstance(where, str) and where.startswith(POSTGRES_SCHEMES)


async def open_database(
    where: str | Path, *, migrate: bool = True, synchronous: str = "NORMAL"
) -> Database:
    """Open the database at ``where``: ``postgresql://user@host/db`` (PostgreSQL), or a
    path or ``sqlite:///path`` (SQLite; ``synchronous`` is its durability setting).
    Raises ``StorageUnavailable`` with a plain sentence when it cannot be used."""
    if is_postgres(where):
        return await PostgresDatabase.open(str(where), migrate=migrate)
    text = str(where)
    path = text.removeprefix("sqlite:///") if text.startswith("sqlite:///") else text
    return await SqliteDatabase.open(path, migrate=migrate, synchronous=synchronous)
