"""Unreadable snapshots quarantine their table only; the rest load and play on."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from bot.services import errors
from bot.services.tables import TableService
from storage import tables as repo
from storage.db import Database

if TYPE_CHECKING:
    from tests.services.conftest import ManualClock

ALICE, BOB = 1, 2


async def start_tables(service: TableService, channels: range) -> None:
    for ch in channels:
        await service.create(ch, 1, ALICE, "Alice", "gin_rummy")
        await service.join(ch, BOB, "Bob")
        await service.start(ch, ALICE)


@pytest.mark.parametrize(
    ("snapshot", "words"),
    [
        ('{"schema": 2, "game": "gin_rummy", "version": 0, "state": {}}', "schema"),
        ('{"schema": 1, "game": "gin_rummy", "ver', "json"),
        ('{"schema": 1, "game": "spades", "version": 0, "state": {}}', "spades"),
        ('{"schema": 1, "game": "gin_rummy", "version": 3, "state": {}}', "version 3"),
        ('{"schema": 1, "game": "gin_rummy", "version": 0, "state": {"game": "x"}}', "gin"),
        (None, "missing"),
    ],
)
async def test_a_bad_snapshot_quarantines_only_its_table(
    db: Database, clock: ManualClock, snapshot: str | None, words: str
) -> None:
    await start_tables(TableService(db, clock=clock), range(1, 4))
    await db.write(
        lambda c: c.execute("UPDATE tables SET snapshot = ? WHERE channel_id = 2", (snapshot,))
    )

    service = TableService(db, clock=clock)
    report = await service.load()
    assert (report.loaded, report.playing) == (2, 2)
    [bad] = report.quarantined
    assert bad.channel_id == 2 and words in bad.reason.lower()
    row = await db.read(repo.open_in_channel, 2)
    assert row is not None and row.status == "playing" and row.quarantine == bad.reason
    with pytest.raises(errors.TableQuarantined, match="admin can abort"):
        await service.act(2, ALICE, "draw stock")
    with pytest.raises(errors.TableQuarantined):
        await service.status(2)
    assert (await service.status(3)).status == "playing"

    again = TableService(db, clock=clock)
    assert [q.table_id for q in (await again.load()).quarantined] == [bad.table_id]
    with pytest.raises(errors.NotAllowed):
        await again.abort(2, ALICE)
    aborted = await again.abort(2, 99, is_admin=True)
    assert aborted.status == "aborted"
    created = await again.create(2, 1, ALICE, "Alice", "ono99")
    assert created.status == "lobby"


async def test_a_table_loaded_on_demand_is_quarantined_too(
    db: Database, clock: ManualClock
) -> None:
    await start_tables(TableService(db, clock=clock), range(5, 6))
    await db.write(
        lambda c: c.execute("UPDATE tables SET seats = '[{\"who\": 1}]' WHERE channel_id = 5")
    )
    service = TableService(db, clock=clock)
    with pytest.raises(errors.TableQuarantined):
        await service.act(5, ALICE, "draw stock")
    row = await db.read(repo.open_in_channel, 5)
    assert row is not None and row.quarantine is not None
