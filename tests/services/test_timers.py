"""Turn timers with an injected clock: reminder, time-out, restart, resume, off."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from bot.services.tables import Reminder, TableResult, TableService, check_table
from bot.services.timers import TurnTimers
from storage import tables as repo
from storage.db import Database

if TYPE_CHECKING:
    from tests.services.conftest import FakeClock

CH = 31
ALICE, BOB = 1, 2


async def two_humans(service: TableService, timer: int = 60) -> TableResult:
    await service.create(CH, 1, ALICE, "Alice", "gin_rummy", turn_timer=timer)
    await service.join(CH, BOB, "Bob")
    return await service.start(CH, ALICE)


async def test_reminder_at_half_time_then_the_computer_moves(
    service: TableService, db: Database, clock: FakeClock
) -> None:
    timers = TurnTimers(service, clock)
    r = await two_humans(service)
    assert r.deadline == clock.t + 60
    clock.t += 29
    assert await timers.fire_due() == []
    clock.t += 1
    [reminder] = await timers.fire_due()
    assert isinstance(reminder, Reminder)
    assert reminder.seats == r.to_act and reminder.deadline == r.deadline
    assert reminder.user_ids == (r.seats[r.to_act[0]].user_id,)
    row = await repo.get(db, r.table_id)
    assert row is not None and row.reminded
    clock.t += 29.5
    assert await timers.fire_due() == []
    clock.t += 0.5
    [late] = await timers.fire_due()
    assert isinstance(late, TableResult)
    assert late.version == r.version + 1 and late.steps[0].by == "timeout"
    assert "timed out" in late.message
    assert late.deadline == clock.t + 60
    [logged] = await repo.actions(db, r.table_id)
    assert logged.timed_out and logged.by_user is None and logged.seat == r.to_act[0]


async def test_a_move_in_time_resets_the_timer(service: TableService, clock: FakeClock) -> None:
    timers = TurnTimers(service, clock)
    r = await two_humans(service)
    clock.t += 50
    seat = r.to_act[0]
    r2 = await service.act(CH, r.seats[seat].user_id or 0, r.private[seat].legal[0], r.version)
    assert r2.deadline == clock.t + 60
    clock.t += 20
    assert await timers.fire_due() == []
    clock.t += 10
    [reminder] = await timers.fire_due()
    assert isinstance(reminder, Reminder) and reminder.version == r2.version


async def test_the_runner_plays_absent_players_to_the_end(
    service: TableService, db: Database, clock: FakeClock
) -> None:
    got: list[Reminder | TableResult] = []
    done = asyncio.Event()

    async def notify(event: Reminder | TableResult) -> None:
        got.append(event)
        if isinstance(event, TableResult) and event.status == "finished":
            done.set()

    timers = TurnTimers(service, clock, notify)
    await service.create(CH, 1, ALICE, "Alice", "ono99", turn_timer=10)
    await service.add_bot(CH, ALICE)
    r = await service.start(CH, ALICE)
    task = timers.start()
    await asyncio.wait_for(done.wait(), 20)
    await timers.stop()
    assert task.done()
    results = [e for e in got if isinstance(e, TableResult)]
    reminders = [e for e in got if isinstance(e, Reminder)]
    assert len(reminders) == len(results) >= 1
    assert results[-1].status == "finished" and results[-1].outcome is not None
    log = await repo.actions(db, r.table_id)
    mine = [a for a in log if a.seat == r.to_act[0]]
    assert mine and all(a.timed_out for a in mine)
    assert all(5 <= s <= 10 for s in clock.slept)
    assert (await check_table(db, r.table_id)).ok


async def test_expired_timers_fire_at_start_up(db: Database, clock: FakeClock) -> None:
    first = TableService(db, now=clock.now)
    r = await two_humans(first, timer=300)
    clock.t += 3600
    second = TableService(db, now=clock.now)
    report = await second.load()
    assert report.playing == 1
    fired: list[Reminder | TableResult] = []
    arrived = asyncio.Event()

    async def notify(event: Reminder | TableResult) -> None:
        fired.append(event)
        arrived.set()

    timers = TurnTimers(second, clock, notify)
    timers.start()
    await asyncio.wait_for(arrived.wait(), 5)
    await timers.stop()
    assert isinstance(fired[0], TableResult)
    assert fired[0].steps[0].by == "timeout" and fired[0].version == r.version + 1


async def test_computer_moves_cut_short_by_a_crash_resume_at_start_up(
    db: Database, clock: FakeClock
) -> None:
    first = TableService(db, now=clock.now)
    r = await two_humans(first, timer=0)
    to_act = r.to_act[0]
    row = await repo.get(db, r.table_id)
    assert row is not None
    seats = json.loads(row.seats)
    seats[to_act] = {"bot": "normal", "name": "Computer (normal) 1"}
    await db.conn.execute("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), row.id))

    second = TableService(db, now=clock.now)
    await second.load()
    assert second.pending() == [(CH, 0.0)]
    timers = TurnTimers(second, clock)
    timers.start()
    for _ in range(100):
        if (await second.status(CH)).version > r.version:
            break
        await asyncio.sleep(0.01)
    await timers.stop()
    after = await second.status(CH)
    assert after.version > r.version
    assert all(after.seats[s].user_id is not None for s in after.to_act)


async def test_no_timer_when_off(service: TableService, clock: FakeClock) -> None:
    timers = TurnTimers(service, clock)
    r = await two_humans(service, timer=0)
    assert r.deadline is None and service.pending() == []
    clock.t += 10**6
    assert await timers.fire_due() == []
