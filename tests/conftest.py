"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.db import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database in a fresh SQLite file, closed after the test."""
    database = await Database.open(tmp_path / "deckhand.db")
    yield database
    await database.close()
