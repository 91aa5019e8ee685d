"""Message ids and notices per table, in a real SQLite file (``tests/conftest.py``'s ``db``)."""

from __future__ import annotations

import pytest

from bot.services.tables import TableService
from storage import messages as refs
from storage import tables as table_repo
from storage.db import Database
from storage.messages import MessageRef


async def new_table(db: Database, channel: int = 7) -> int:
    result = await TableService(db).create(channel, 9, 100, "Alice", "gin_rummy")
    return result.table_id


async def test_put_get_replace_forget(db: Database) -> None:
    t = await new_table(db)
    assert await db.read(refs.get, t, refs.TABLE) is None
    await db.write(refs.put, MessageRef(t, refs.TABLE, 0, 7, 555))
    await db.write(refs.put, MessageRef(t, refs.HAND, 100, 80, 600))
    assert await db.read(refs.get, t, refs.TABLE) == MessageRef(t, "table", 0, 7, 555)
    await db.write(refs.put, MessageRef(t, refs.TABLE, 0, 7, 556))
    assert await db.read(refs.get, t, refs.TABLE) == MessageRef(t, "table", 0, 7, 556)
    assert [r.kind for r in await db.read(refs.for_table, t)] == ["hand", "table"]
    await db.write(refs.forget, t, refs.HAND, 100)
    assert await db.read(refs.get, t, refs.HAND, 100) is None


async def test_a_notice_is_given_once_per_table(db: Database) -> None:
    t, other = await new_table(db, 7), await new_table(db, 8)
    assert await db.write(refs.note, t, 100, refs.DM_CLOSED, 1.0)
    assert not await db.write(refs.note, t, 100, refs.DM_CLOSED, 2.0)
    assert await db.read(refs.noted, t, 100, refs.DM_CLOSED)
    assert not await db.read(refs.noted, other, 100, refs.DM_CLOSED)
    await db.write(refs.clear_note, t, 100, refs.DM_CLOSED)
    assert not await db.read(refs.noted, t, 100, refs.DM_CLOSED)


async def test_rows_go_with_their_table(db: Database) -> None:
    t = await new_table(db)
    await db.write(refs.put, MessageRef(t, refs.TABLE, 0, 7, 555))
    await db.write(refs.note, t, 100, refs.DM_CLOSED, 1.0)
    assert await db.write(table_repo.delete, [t]) == 1
    assert await db.read(refs.for_table, t) == []
    assert not await db.read(refs.noted, t, 100, refs.DM_CLOSED)


async def test_a_message_needs_a_table(db: Database) -> None:
    with pytest.raises(Exception, match=r"(?i)foreign key"):
        await db.write(refs.put, MessageRef(999, refs.TABLE, 0, 7, 1))
    assert await db.read(refs.for_table, 999) == []
