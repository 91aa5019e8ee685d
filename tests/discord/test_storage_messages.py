"""Message ids and notices per table, in a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.tables import TableService
from storage import messages as refs
from storage import tables as table_repo
from storage.db import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "deckhand.db")
    yield database
    await database.close()


async def new_table(db: Database, channel: int = 7) -> int:
    result = await TableService(db).create(channel, 9, 100, "Alice", "gin_rummy")
    return result.table_id


async def test_put_get_replace_forget(db: Database) -> None:
    t = await new_table(db)
    assert await refs.get(db, t, refs.TABLE) is None
    await refs.put(db, t, refs.TABLE, 7, 555)
    await refs.put(db, t, refs.HAND, 80, 600, user_id=100)
    assert await refs.get(db, t, refs.TABLE) == refs.MessageRef(t, "table", 0, 7, 555)
    await refs.put(db, t, refs.TABLE, 7, 556)
    assert (await refs.get(db, t, refs.TABLE)) == refs.MessageRef(t, "table", 0, 7, 556)
    assert [r.kind for r in await refs.for_table(db, t)] == ["hand", "table"]
    await refs.forget(db, t, refs.HAND, 100)
    assert await refs.get(db, t, refs.HAND, 100) is None


async def test_a_notice_is_given_once_per_table(db: Database) -> None:
    t, other = await new_table(db, 7), await new_table(db, 8)
    assert await refs.note(db, t, 100, refs.DM_CLOSED)
    assert not await refs.note(db, t, 100, refs.DM_CLOSED)
    assert await refs.noted(db, t, 100, refs.DM_CLOSED)
    assert not await refs.noted(db, other, 100, refs.DM_CLOSED)
    await refs.clear_note(db, t, 100, refs.DM_CLOSED)
    assert not await refs.noted(db, t, 100, refs.DM_CLOSED)


async def test_rows_go_with_their_table(db: Database) -> None:
    t = await new_table(db)
    await refs.put(db, t, refs.TABLE, 7, 555)
    await refs.note(db, t, 100, refs.DM_CLOSED)
    async with db.transaction() as conn:
        assert await table_repo.delete(conn, [t]) == 1
    assert await refs.for_table(db, t) == []
    assert not await refs.noted(db, t, 100, refs.DM_CLOSED)


async def test_a_message_needs_a_table(db: Database) -> None:
    with pytest.raises(Exception, match="FOREIGN KEY"):
        await refs.put(db, 999, refs.TABLE, 7, 1)
