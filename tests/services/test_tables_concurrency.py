"""Concurrent moves: on one table exactly one applies; many tables run side by side."""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING

import games
from bot.services import errors
from bot.services.tables import TableResult, TableService, lobby
from bot.services.tables.replay import check_table
from storage import tables as repo
from storage.connect import open_database
from storage.db import Database

if TYPE_CHECKING:
    from tests.services.conftest import ManualClock

ALICE, BOB = 1, 2


async def two_humans(service: TableService, channel: int, game: str = "gin_rummy") -> TableResult:
    await service.create(channel, 1, ALICE, "Alice", game)
    await service.join(channel, BOB, "Bob")
    return await service.start(channel, ALICE)


async def test_simultaneous_clicks_apply_exactly_once(service: TableService, db: Database) -> None:
    r = await two_humans(service, 10)
    seat = r.to_act[0]
    mover = r.seats[seat].user_id
    other = BOB if mover == ALICE else ALICE
    assert mover is not None
    action = r.private[seat].legal[0]
    calls = [service.act(10, mover, action, r.version) for _ in range(20)]
    calls += [service.act(10, other, action, r.version) for _ in range(20)]
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    applied = [o for o in outcomes if isinstance(o, TableResult)]
    refused = [o for o in outcomes if not isinstance(o, TableResult)]
    assert len(applied) == 1 and applied[0].version == r.version + 1
    assert all(isinstance(o, errors.StaleVersion | errors.NotYourTurn) for o in refused)
    assert len(await db.read(repo.actions, r.table_id)) == r.version + 1


async def test_simultaneous_moves_without_versions_apply_once(
    service: TableService, db: Database
) -> None:
    r = await two_humans(service, 11)
    seat = r.to_act[0]
    mover = r.seats[seat].user_id
    assert mover is not None
    action = r.private[seat].legal[0]
    outcomes = await asyncio.gather(
        *[service.act(11, mover, action) for _ in range(10)], return_exceptions=True
    )
    applied = [o for o in outcomes if isinstance(o, TableResult)]
    assert len(applied) == 1
    assert all(isinstance(o, errors.ServiceError) for o in outcomes if o not in applied)
    row = await db.read(repo.get, r.table_id)
    assert row is not None and row.version == r.version + 1


async def test_many_tables_play_concurrently(service: TableService, db: Database) -> None:
    names = ["gin_rummy", "ono99", "craits", "spades"]
    channels = range(100, 140)

    async def play(channel: int) -> TableResult:
        game = names[channel % len(names)]
        await service.create(channel, 1, channel * 10, f"P{channel}", game)
        await service.add_bot(channel, channel * 10, "random")
        await service.start(channel, channel * 10)
        await service.settled(channel)
        r = await service.status(channel)
        rng = random.Random(channel)
        for _ in range(12):
            if r.status != "playing":
                break
            mine = r.for_user(channel * 10)
            assert mine is not None
            action = games.get(game).bots["normal"](mine.view, list(mine.legal), rng)
            await service.act(channel, channel * 10, action, r.version)
            await service.settled(channel)
            r = await service.status(channel)
        return r

    results = await asyncio.gather(*[play(c) for c in channels])
    for r in results:
        row = await db.read(repo.get, r.table_id)
        assert row is not None and row.version == r.version > 0
        assert len(await db.read(repo.actions, r.table_id)) == r.version
        assert (await check_table(db, r.table_id)).ok


async def test_a_move_made_elsewhere_makes_a_stale_one_busy(
    service: TableService, db: Database, where: str, clock: ManualClock
) -> None:
    r = await two_humans(service, 12)
    seat = r.to_act[0]
    mover = r.seats[seat].user_id
    assert mover is not None
    other_db = await open_database(where)
    try:
        elsewhere = TableService(other_db, clock=clock)
        await elsewhere.act(12, mover, r.private[seat].legal[0], r.version)
    finally:
        await other_db.close()
    before = await db.read(repo.actions, r.table_id)
    try:
        await service.act(12, mover, r.private[seat].legal[0], r.version)
    except errors.TableBusy as exc:
        assert "try again" in str(exc)
    else:
        raise AssertionError("the stale in-memory table was not refused")
    assert await db.read(repo.actions, r.table_id) == before
    fresh = await service.status(12)
    assert fresh.version == r.version + 1


async def test_lobbies_opened_at_once_in_many_channels_keep_the_cap(
    service: TableService, db: Database
) -> None:
    """Eight ``/table new`` at the same instant in eight channels: each channel has its own
    lock, yet the host still gets only ``MAX_LOBBIES_PER_HOST`` lobbies."""
    outcomes = await asyncio.gather(
        *[service.create(100 + n, 1, ALICE, "Alice", "gin_rummy") for n in range(8)],
        return_exceptions=True,
    )
    opened = [o for o in outcomes if isinstance(o, TableResult)]
    refused = [o for o in outcomes if not isinstance(o, TableResult)]
    assert len(opened) == lobby.MAX_LOBBIES_PER_HOST
    assert all(isinstance(o, errors.TooManyLobbies) for o in refused), refused
    stored = await db.read(repo.load_open)
    assert sorted(r.channel_id for r in stored) == sorted(o.channel_id for o in opened)
    await service.abort(opened[0].channel_id, ALICE)  # a closed lobby frees its place
    await service.create(200, 1, ALICE, "Alice", "gin_rummy")
