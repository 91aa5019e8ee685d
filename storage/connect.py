"""Which backend a ``DECKHAND_DB`` value selects, and opening it."""

from __future__ import annotations

from pathlib import Path

from storage.db import Database
from storage.sqlite import SqliteDatabase


async def open_database(
    where: str | Path, *, migrate: bool = True, synchronous: str = "NORMAL"
) -> Database:
    """Open the database at ``where``: a path or ``sqlite:///path`` (SQLite). Raises
    ``StorageUnavailable`` with a plain sentence when it cannot be used."""
    text = str(where)
    path = text.removeprefix("sqlite:///") if text.startswith("sqlite:///") else text
    return await SqliteDatabase.open(path, migrate=migrate, synchronous=synchronous)
