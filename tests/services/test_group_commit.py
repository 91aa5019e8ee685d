"""Moves from many tables are group committed: all durable after reopening, and a move
that fails inside a group (a table changed elsewhere) does not affect the others."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import games
from bot.services import errors
from bot.services.tables import TableResult, TableService
from bot.services.tables.replay import check_table
from storage import tables as repo
from storage.connect import open_database
from tests.storage.holding import held_open


async def two_humans(service: TableService, channel: int, game: str) -> TableResult:
    await service.create(channel, 1, channel * 10, "A", game)
    await service.join(channel, channel * 10 + 1, "B")
    return await service.start(channel, channel * 10)


async def test_many_tables_at_full_speed_are_all_durable(
    tmp_path: Path, groups: list[int]
) -> None:
    path = tmp_path / "group.db"
    db = await open_database(path)
    try:
        service = TableService(db)
        names = ["gin_rummy", "spades", "ono99", "craits"]
        started = [await two_humans(service, ch, names[ch % 4]) for ch in range(1, 61)]
        groups.clear()

        async def play(r: TableResult) -> TableResult:
            rng = random.Random(r.channel_id)
            for _ in range(15):
                if r.status != "playing":
                    break
                seat = r.to_act[0]
                mine = r.private[seat]
                action = games.get(r.game).bots["normal"](mine.view, list(mine.legal), rng)
                r = await service.act(r.channel_id, mine.user_id, action, r.version)
            return r

        finals = await asyncio.gather(*[play(r) for r in started])
        assert max(groups) > 1 and sum(groups) == sum(r.version for r in finals), groups
    finally:
        await db.close()

    db = await open_database(path)
    try:
        fresh = TableService(db)
        await fresh.load()
        for r in finals:
            row = await db.read(repo.get, r.table_id)
            assert row is not None and row.version == r.version and row.status == r.status
            assert [a.version for a in await db.read(repo.actions, r.table_id)] == list(
                range(1, r.version + 1)
            )
            assert (await check_table(db, r.table_id)).ok
            assert (await fresh.status(r.channel_id)).public == r.public
    finally:
        await db.close()


async def test_a_stale_move_fails_alone_in_its_group(
    where: str, groups: list[int]
) -> None:
    db = await open_database(where)
    service = TableService(db)
    try:
        a = await two_humans(service, 1, "gin_rummy")
        b = await two_humans(service, 2, "gin_rummy")
        elsewhere_db = await open_database(where)
        try:  # another process moves on table A; our in-memory copy is now stale
            seat = a.to_act[0]
            await TableService(elsewhere_db).act(1, a.private[seat].user_id,
                                                 a.private[seat].legal[0], a.version)
        finally:
            await elsewhere_db.close()
        groups.clear()
        moves: list[asyncio.Task[TableResult]] = []

        def queue() -> None:
            moves.extend(
                asyncio.create_task(service.act(r.channel_id, r.private[r.to_act[0]].user_id,
                                                r.private[r.to_act[0]].legal[0], r.version))
                for r in (a, b)
            )

        await held_open(db, queue, writes=2)
        stale, fine = await asyncio.gather(*moves, return_exceptions=True)
        assert groups == [1, 2]  # the write held open, then both moves in one group
        assert isinstance(stale, errors.TableBusy)
        assert isinstance(fine, TableResult) and fine.version == b.version + 1
        assert [x.version for x in await db.read(repo.actions, a.table_id)] == [1]
        assert [x.version for x in await db.read(repo.actions, b.table_id)] == [1]
        assert (await service.status(1)).version == 1  # reloaded from the database
    finally:
        await db.close()
