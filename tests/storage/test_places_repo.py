"""Where Deckhand plays without its bot (``storage.places``), on both backends: the tables
only interaction tokens reach (open ones listed at start-up, rows gone with their table),
and the first user to open a table in a DM or group DM keeps its leagues."""

from __future__ import annotations

from storage import places
from storage import tables as repo
from storage.db import Conn, Database


def new(channel: int) -> repo.NewTable:
    return repo.NewTable(
        channel_id=channel, guild_id=channel, league_id=None, game="gin_rummy", options="{}",
        host_id=1, seed=1, seats="[]", turn_timer=86400, now=0.0,
    )


async def test_only_open_tables_reached_by_tokens_are_listed(db: Database) -> None:
    def three(c: Conn) -> tuple[int, int, int]:
        ids = (repo.insert(c, new(1)), repo.insert(c, new(2)), repo.insert(c, new(3)))
        for table_id in ids[:2]:
            places.mark_tokens_only(c, table_id)
            places.mark_tokens_only(c, table_id)  # marking twice is once
        repo.close(c, ids[1], "aborted", 1.0)
        return ids

    open_tokens, closed, _by_bot = await db.write(three)
    assert await db.read(places.open_tokens_only) == {open_tokens}  # not closed, nor by_bot
    await db.write(lambda c: c.execute("DELETE FROM tables WHERE id = ?", (closed,)))
    left = await db.read(lambda c: c.all("SELECT table_id FROM discord_tokens_only"))
    assert [r["table_id"] for r in left] == [open_tokens]


async def test_the_first_to_open_a_table_keeps_the_scope(db: Database) -> None:
    scope = 1234567890123456789
    assert await db.read(places.keeper, scope) is None
    assert await db.write(places.claim_keeper, scope, 11, 1.0) == 11
    assert await db.write(places.claim_keeper, scope, 22, 2.0) == 11
    assert await db.read(places.keeper, scope) == 11
    assert await db.write(places.claim_keeper, scope + 1, 22, 3.0) == 22
