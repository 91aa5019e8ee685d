"""What the runtime does on its own, on a clock the test moves: paced computer moves that
hold no lock, reminders and time-outs per table, retries that keep a table moving, and
start-up catching up on what fell due while the process was down."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import games
import storage.sqlite
from bot.services import errors
from bot.services.tables import Reminder, TableResult, TableService
from bot.services.tables.records import Table
from bot.services.tables.replay import check_table
from bot.services.tables.thinking import Thinker
from games.base import Game, State
from games.rng import rng_for
from storage import tables as repo
from storage.connect import open_database
from storage.db import Conn, Database, StorageUnavailable
from storage.models import load_options
from tests.services.conftest import Events, ManualClock
from tests.waiting import DEADLINE, until

CH = 31
ALICE, BOB = 1, 2


async def two_humans(service: TableService, timer: int = 60, channel: int = CH) -> TableResult:
    await service.create(channel, 1, ALICE, "Alice", "gin_rummy", turn_timer=timer)
    await service.join(channel, BOB, "Bob")
    return await service.start(channel, ALICE)


async def test_reminder_at_half_time_then_the_computer_moves(
    service: TableService, db: Database, clock: ManualClock
) -> None:
    events = Events(service)
    r = await two_humans(service)
    assert r.deadline == clock.t + 60
    await clock.advance(29)
    await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
    assert events.got == []
    await clock.advance(1)
    [reminder] = await events.wait(1)
    assert isinstance(reminder, Reminder)
    assert reminder.seats == r.to_act and reminder.deadline == r.deadline
    assert reminder.user_ids == (r.seats[r.to_act[0]].user_id,)
    row = await db.read(repo.get, r.table_id)
    assert row is not None and row.reminded
    await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
    await clock.advance(29.5)
    await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
    assert len(events.got) == 1
    await clock.advance(0.5)
    late = (await events.wait(2))[1]
    assert isinstance(late, TableResult)
    assert late.version == r.version + 1 and late.steps[0].by == "timeout"
    assert "ran out of time" in str(late.message)
    assert late.deadline == clock.t + 60
    [logged] = await db.read(repo.actions, r.table_id)
    assert logged.timed_out and logged.by_user is None and logged.seat == r.to_act[0]


async def test_a_move_in_time_resets_the_timer(service: TableService, clock: ManualClock) -> None:
    events = Events(service)
    r = await two_humans(service)
    await clock.advance(25)
    seat = r.to_act[0]
    r2 = await service.act(CH, r.seats[seat].user_id or 0, r.private[seat].legal[0], r.version)
    assert r2.deadline == clock.t + 60
    await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
    await clock.advance(20)
    await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
    assert events.got == []
    await clock.advance(10)
    [reminder] = await events.wait(1)
    assert isinstance(reminder, Reminder) and reminder.version == r2.version


async def test_absent_players_are_played_to_the_end(
    service: TableService, db: Database, clock: ManualClock
) -> None:
    events = Events(service)
    await service.create(CH, 1, ALICE, "Alice", "ono99", turn_timer=10)
    await service.add_bot(CH, ALICE)
    r = await service.start(CH, ALICE)
    async with asyncio.timeout(DEADLINE):
        while (await service.status(CH)).status == "playing":
            await service.settled(CH)
            await until(lambda: clock.sleeping() >= 1 or service.autoplay.driving() == 0,
                        "a timer, or the end")
            await clock.advance(5)
    results = [e for e in events.got if isinstance(e, TableResult)]
    reminders = [e for e in events.got if isinstance(e, Reminder)]
    timeouts = [e for e in results if e.steps[0].by == "timeout"]
    assert len(reminders) == len(timeouts) >= 1
    assert results[-1].status == "finished" and results[-1].outcome is not None
    me = next(s.seat for s in r.seats if s.user_id == ALICE)
    log = await db.read(repo.actions, r.table_id)
    mine = [a for a in log if a.seat == me]
    assert mine and all(a.timed_out for a in mine)
    assert (await check_table(db, r.table_id)).ok


async def test_expired_timers_fire_at_start_up(db: Database, clock: ManualClock) -> None:
    first = TableService(db, clock=clock)
    r = await two_humans(first, timer=300)
    await first.close()
    clock.t += 3600
    second = TableService(db, clock=clock)
    events = Events(second)
    report = await second.load()
    assert report.playing == 1
    second.resume()
    fired = (await events.wait(1))[0]
    assert isinstance(fired, TableResult)
    assert fired.steps[0].by == "timeout" and fired.version == r.version + 1
    await second.close()


async def test_computer_moves_cut_short_by_a_crash_resume_at_start_up(
    db: Database, clock: ManualClock
) -> None:
    first = TableService(db, clock=clock)
    r = await two_humans(first, timer=0)
    await first.close()
    row = await db.read(repo.get, r.table_id)
    assert row is not None
    seats = json.loads(row.seats)
    seats[r.to_act[0]] = {"bot": "normal", "name": "Computer (normal) 1"}
    await db.write(
        lambda c: c.execute("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), row.id))
    )
    second = TableService(db, clock=clock)
    await second.load()
    second.resume()
    assert second.autoplay.driving() == 1
    await second.settled(CH)
    after = await second.status(CH)
    assert after.version > r.version
    assert all(after.seats[s].user_id is not None for s in after.to_act)
    await second.close()


async def test_nothing_is_scheduled_without_a_timer_or_computer(
    service: TableService, clock: ManualClock
) -> None:
    r = await two_humans(service, timer=0)
    assert r.deadline is None and service.autoplay.driving() == 0
    await clock.advance(10**6)
    assert service.autoplay.driving() == 0 and clock.sleeping() == 0


async def test_paced_computers_hold_no_lock_while_they_think(
    db: Database, clock: ManualClock
) -> None:
    # Seed 1: a computer opens (a random seed let Alice open one game in six).
    service = TableService(db, clock=clock, pace=0.8, new_seed=lambda: 1)
    events = Events(service)
    await service.create(CH, 1, ALICE, "Alice", "ono99", turn_timer=0)
    for _ in range(5):
        await service.add_bot(CH, ALICE, "normal")
    await service.start(CH, ALICE)
    seen = 0
    while True:
        await until(lambda: clock.sleeping() == 1 or service.autoplay.driving() == 0,
                    "a computer pausing, or the end")
        if service.autoplay.driving() == 0:
            break
        # A computer is pausing: the table's lock is free, and everything reads at once.
        assert service.store.lock_count() == 0
        now = await service.status(CH)
        assert now.status == "playing" and now.seats[now.to_act[0]].bot is not None
        assert now.for_user(ALICE) is not None
        await clock.advance(0.8)
        seen += 1
        await events.wait(seen)
    r = await service.status(CH)
    assert seen >= 1 and r.status == "playing"
    assert r.seats[r.to_act[0]].user_id == ALICE
    steps = [e.steps[0] for e in events.got if isinstance(e, TableResult)]
    assert [s.version for s in steps] == list(range(1, r.version + 1))
    assert all(s.by == "computer" for s in steps)
    # Abort answers at once while computers still have moves due.
    mine = r.for_user(ALICE)
    assert mine is not None
    await service.act(CH, ALICE, mine.legal[0], r.version)
    await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
    assert (await service.abort(CH, ALICE)).status == "aborted"
    await clock.advance(0.8)
    await service.close()
    assert (await service.status(CH)).status == "aborted"
    stored = await db.read(repo.get, r.table_id)
    assert stored is not None and stored.version == r.version + 1


async def test_one_tables_stuck_work_never_delays_anothers_timer(
    service: TableService, db: Database, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = Events(service)
    await service.create(1, 1, ALICE, "Alice", "ono99", turn_timer=0)
    await service.add_bot(1, ALICE)
    await two_humans(service, timer=60, channel=2)
    stuck = asyncio.Event()
    real = service.store.commit

    async def slow_for_table_1(table: Table, fn: Callable[[Conn], object]) -> object:
        if table.channel_id == 1 and table.status == "playing":
            await stuck.wait()
        return await real(table, fn)

    monkeypatch.setattr(service.store, "commit", slow_for_table_1)
    await service.start(1, ALICE)  # its first computer move now hangs
    await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
    await clock.advance(30)
    [reminder] = await events.wait(1)
    assert isinstance(reminder, Reminder) and reminder.channel_id == 2
    stuck.set()
    await service.settled(1)


async def test_failed_computer_moves_are_retried_and_the_reply_stays_true(
    service: TableService, db: Database, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = Events(service)
    await service.create(CH, 1, ALICE, "Alice", "ono99", turn_timer=0)
    await service.add_bot(CH, ALICE)
    r = await service.start(CH, ALICE)
    await service.settled(CH)
    r = await service.status(CH)
    failures = {"left": 3}
    real = db.write

    async def flaky(fn: Callable[..., object], *args: object) -> object:
        computer_turn = (t := service.store.cached(CH)) is not None and t.computer_to_act()
        if computer_turn is not None and computer_turn is not False and failures["left"]:
            failures["left"] -= 1
            raise StorageUnavailable("The database is locked by another program.")
        return await real(fn, *args)

    monkeypatch.setattr(db, "write", flaky)
    mine = r.for_user(ALICE)
    assert mine is not None
    done = await service.act(CH, ALICE, mine.legal[0], r.version)
    assert done.version == r.version + 1  # committed, whatever happens next
    assert done.to_act != r.to_act  # the computer's turn now
    stored = await db.read(repo.get, r.table_id)
    assert stored is not None and stored.version == r.version + 1
    for wait in (1, 2, 4):  # backoff after each failure
        await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
        assert service.autoplay.driving() == 1  # the table is never left unscheduled
        await clock.advance(wait)
    await events.wait(2)  # the computer's opening move, then the one that was retried
    assert failures["left"] == 0
    await service.settled(CH)
    after = await service.status(CH)
    assert after.version > done.version and after.seats[after.to_act[0]].user_id == ALICE


async def test_a_timer_and_a_move_at_the_same_instant_apply_once(
    service: TableService, db: Database, clock: ManualClock
) -> None:
    events = Events(service)
    r = await two_humans(service, timer=60)
    await clock.advance(30)
    await events.wait(1)  # the reminder
    await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
    seat = r.to_act[0]
    user = r.seats[seat].user_id or 0
    await clock.advance(30)  # the time-out is due now …
    move = asyncio.create_task(service.act(CH, user, r.private[seat].legal[0], r.version))
    outcome = await asyncio.gather(move, return_exceptions=True)
    await until(lambda: service.autoplay.driving() <= 1 and clock.sleeping() != 0,
                "one driver left, asleep")
    log = await db.read(repo.actions, r.table_id)
    assert len([a for a in log if a.version == r.version + 1]) == 1
    if isinstance(outcome[0], Exception):
        assert isinstance(outcome[0], errors.StaleVersion | errors.NotYourTurn)
        assert log[0].timed_out
    else:
        assert not log[0].timed_out


@pytest.mark.parametrize("when", ["human move", "start", "leave"])
async def test_a_write_lock_held_elsewhere_refuses_truthfully_then_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: ManualClock, when: str
) -> None:
    monkeypatch.setattr(storage.sqlite, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "locked.db"
    db = await open_database(path)
    service = TableService(db, clock=clock)
    try:
        await service.create(CH, 1, ALICE, "Alice", "gin_rummy", turn_timer=0)
        await service.join(CH, BOB, "Bob")
        if when != "start":
            await service.start(CH, ALICE)
        before = await service.status(CH)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock

        async def attempt() -> TableResult:
            if when == "start":
                return await service.start(CH, ALICE)
            if when == "leave":
                return await service.leave(CH, BOB)
            seat = before.to_act[0]
            user = before.seats[seat].user_id or 0
            return await service.act(CH, user, before.private[seat].legal[0], before.version)

        with pytest.raises(StorageUnavailable, match="locked"):
            await attempt()
        other.execute("ROLLBACK")
        other.close()
        now = await service.status(CH)
        assert (now.version, now.status, now.seats) == (before.version, before.status,
                                                        before.seats)
        assert (await attempt()).version >= before.version  # works once the lock is gone
    finally:
        await service.close()
        await db.close()


class RecordingThinker(Thinker):
    """The real thinker, noting the level of every move it is asked for."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.levels: list[str] = []

    async def choose(
        self, game: Game[Any], state: State, seat: int, level: str, rng: random.Random
    ) -> str:
        self.levels.append(level)
        return await super().choose(game, state, seat, level, rng)


async def test_the_servers_stand_in_plays_for_a_timed_out_or_departed_player(
    db: Database, clock: ManualClock
) -> None:
    async def stand_in(guild_id: int) -> str:
        return "expert" if guild_id == 1 else "normal"

    thinker = RecordingThinker()
    service = TableService(db, clock=clock, thinker=thinker, stand_in=stand_in)
    try:
        events = Events(service)
        r = await two_humans(service)
        seat = r.to_act[0]
        row = await db.read(repo.get, r.table_id)
        assert row is not None
        game = games.get("gin_rummy")
        state = game.new(2, seed=row.seed, options=load_options(row.options))
        expected = game.choose(state, seat, "expert", rng_for(row.seed, "bot", r.version))
        await clock.advance(30)
        await events.wait(1)  # the reminder
        await until(lambda: clock.sleeping() == 1, "the table asleep on the clock")
        await clock.advance(30)
        late = (await events.wait(2))[1]
        assert isinstance(late, TableResult) and late.steps[0].by == "timeout"
        [logged] = await db.read(repo.actions, r.table_id)
        assert thinker.levels == ["expert"] and logged.action == expected

        left = await service.leave(CH, late.seats[late.to_act[0]].user_id or 0)
        assert any(str(s.name).startswith("Computer (expert) for") for s in left.seats)
    finally:
        await service.close()
