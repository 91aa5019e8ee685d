"""The disk fills up mid-game: the move that cannot be saved is refused with a plain
sentence, every acknowledged move is stored, and play goes on once there is room."""

from __future__ import annotations

import pytest

from bot.services.tables import TableService
from storage import tables as repo
from storage.db import Conn, Database, StorageUnavailable

CH = 91


def cap_pages(conn: Conn, extra: int | None) -> None:
    """Let the file grow by ``extra`` pages at most (None: no limit), as a full disk does."""
    pages = conn.one("PRAGMA page_count")
    assert pages is not None
    limit = 2**31 - 2 if extra is None else int(pages["page_count"]) + extra
    conn.execute(f"PRAGMA max_page_count = {limit}")


@pytest.mark.sqlite_only  # the full disk is made with SQLite's max_page_count
async def test_a_full_disk_refuses_the_move_plainly_and_play_goes_on(
    service: TableService, db: Database
) -> None:
    await service.create(CH, 1, 1, "Ann", "gin_rummy", turn_timer=0)
    await service.join(CH, 2, "Bob")
    r = await service.start(CH, 1)
    await db.write(cap_pages, 0)
    acknowledged = r.version
    with pytest.raises(StorageUnavailable, match="is full"):
        for _ in range(500):  # until a move needs a page the disk does not have
            seat = r.to_act[0]
            user = r.seats[seat].user_id or 0
            r = await service.act(CH, user, r.private[seat].legal[0], r.version)
            acknowledged = r.version
    row = await db.read(repo.get, r.table_id)
    assert row is not None and row.version == acknowledged  # nothing acknowledged is lost
    await db.write(cap_pages, None)
    now = await service.status(CH)
    assert now.version == acknowledged
    seat = now.to_act[0]
    after = await service.act(CH, now.seats[seat].user_id or 0, now.private[seat].legal[0])
    assert after.version == acknowledged + 1
