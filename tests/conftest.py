"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import storage.db
from storage.connect import open_database
from storage.db import Conn, Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database in a fresh SQLite file, closed after the test."""
    database = await open_database(tmp_path / "deckhand.db")
    yield database
    await database.close()


@pytest.fixture
def groups(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every commit group the database runs (a spy on group commit)."""
    sizes: list[int] = []
    real = storage.db._commit_group

    def spy(works: list[Any], conn: Conn) -> list[tuple[bool, Any]]:
        sizes.append(len(works))
        return real(works, conn)

    monkeypatch.setattr(storage.db, "_commit_group", spy)
    return sizes
