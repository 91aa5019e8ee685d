"""Several processes on one PostgreSQL database: each keeps the tables of the guilds it
owns; a move made by another (a hand clicked in a DM reaches the process of shard 0) is
committed against the row's version and announced, and the owner reloads the table at
once and plays the computers' answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.services.errors import StaleVersion, TableBusy
from bot.services.tables import TableResult, TableService
from storage.connect import open_database
from tests.waiting import until

GUILD = 5 << 22  # shard 1 of 2


@pytest.fixture
async def two_processes(pg_url: str) -> AsyncIterator[tuple[TableService, TableService]]:
    """The owner of ``GUILD`` and a process that owns none of it, each with its own
    connections, as two bot processes have."""
    services = []
    for owns in (lambda guild: True, lambda guild: False):
        # Computers paced as users run them: a move is seen before they answer it.
        service = TableService(await open_database(pg_url), owns=owns, pace=0.2)
        service.watch()
        services.append(service)
    try:
        yield services[0], services[1]
    finally:
        for service in services:
            await service.close()
            await service.db.close()


async def human_to_act(service: TableService, channel: int) -> TableResult:
    await service.settled(channel)
    result = await service.status(channel)
    assert result.to_act and result.seats[result.to_act[0]].user_id == 1
    return result


async def test_a_move_made_elsewhere_reaches_the_owner_at_once(
    two_processes: tuple[TableService, TableService],
) -> None:
    owner, elsewhere = two_processes
    await owner.create(7, GUILD, 1, "ann", "gin_rummy")
    await owner.add_bot(7, 1, "normal")
    await owner.start(7, 1)
    before = await human_to_act(owner, 7)
    seat = before.to_act[0]

    # Ann's moves arrive at the other process until the computer is to move.
    now = before
    while now.to_act == (seat,):
        done = await elsewhere.act(7, 1, now.private[seat].legal[0], now.version)
        assert done.version == now.version + 1
        assert elsewhere.store.cached(7) is None  # read afresh, never kept
        now = await elsewhere.status(7)

    # The owner hears of it, reloads, and its computer answers (nobody poked it).
    def answered() -> bool:
        table = owner.store.cached(7)
        return table is not None and table.version > now.version
    await until(answered, "the owner to hear of the moves and answer")
    after = await human_to_act(owner, 7)
    assert (await elsewhere.status(7)).version == after.version

    # An old button clicked in the DM again: refused by version, nothing written.
    with pytest.raises(StaleVersion):
        await elsewhere.act(7, 1, before.private[seat].legal[0], before.version)
    assert (await owner.status(7)).version == after.version


async def test_the_same_move_from_two_processes_commits_once(
    two_processes: tuple[TableService, TableService],
) -> None:
    """A click that reaches both processes (the channel and the DM at once): one commits,
    the other is refused without writing — the row's version decides, not a lock."""
    owner, elsewhere = two_processes
    await owner.create(8, GUILD, 1, "ann", "gin_rummy")
    await owner.add_bot(8, 1, "normal")
    await owner.start(8, 1)
    before = await human_to_act(owner, 8)
    move = before.private[before.to_act[0]].legal[0]
    results = await asyncio.gather(
        owner.act(8, 1, move, before.version),
        elsewhere.act(8, 1, move, before.version),
        return_exceptions=True,
    )
    committed = [r for r in results if isinstance(r, TableResult)]
    refused = [r for r in results if isinstance(r, (TableBusy, StaleVersion))]
    assert len(committed) == 1 and len(refused) == 1, results
    await until(lambda: (owner.store.cached(8) or before).version >= before.version + 1,
                "the owner to hear of the move")
    actions = await owner.db.read(
        lambda c: c.all("SELECT version FROM table_actions ORDER BY version")
    )
    assert [a["version"] for a in actions].count(before.version + 1) == 1
