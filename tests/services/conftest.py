"""Shared fixtures for the service tests: a real SQLite file, a clock the test moves, a
service, and a recorder of what the runtime does on its own."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncIterator

import pytest

import games
from bot.services.tables import Reminder, TableResult, TableService
from storage.db import Database
from tests.waiting import until


class ManualClock:
    """A clock that only moves when the test says: ``sleep`` waits until ``advance`` has
    moved the time past its end (a zero sleep just yields)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        entry = (self.t + seconds, asyncio.get_running_loop().create_future())
        self._sleepers.append(entry)
        try:
            await entry[1]
        finally:
            if entry in self._sleepers:  # cancelled before its time
                self._sleepers.remove(entry)

    def sleeping(self) -> int:
        """How many tasks are asleep on this clock."""
        return len(self._sleepers)

    async def advance(self, seconds: float) -> None:
        """Move the time on and wake every sleeper that is due."""
        self.t += seconds
        for entry in list(self._sleepers):
            when, fut = entry
            if when <= self.t:
                self._sleepers.remove(entry)
                if not fut.done():
                    fut.set_result(None)
        await asyncio.sleep(0)


class Events:
    """What the runtime told its listeners (computer moves, time-outs, reminders)."""

    def __init__(self, service: TableService) -> None:
        self.got: list[TableResult | Reminder] = []
        service.subscribe(self._record)

    async def _record(self, event: TableResult | Reminder) -> None:
        self.got.append(event)

    async def wait(self, count: int) -> list[TableResult | Reminder]:
        """Wait until ``count`` events arrived in all; return them."""
        await until(lambda: len(self.got) >= count, f"{count} events from the runtime")
        return list(self.got)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def service(db: Database, clock: ManualClock) -> AsyncIterator[TableService]:
    seeds = itertools.count(101)
    svc = TableService(db, clock=clock, new_seed=lambda: next(seeds))
    yield svc
    await svc.close()


async def play_out(service: TableService, channel: int, result: TableResult) -> TableResult:
    """Play to the end: whoever is to act plays what the ``normal`` computer would, from
    the private view the result gave them; computers move in between."""
    r = result
    rng = random.Random(7)
    while True:
        await service.settled(channel)
        r = await service.status(channel)
        if r.status != "playing":
            return r
        seat = r.to_act[0]
        user = r.seats[seat].user_id
        assert user is not None, "a computer seat was left to act"
        mine = r.private[seat]
        action = games.get(r.game).bots["normal"](mine.view, list(mine.legal), rng)
        r = await service.act(channel, user, action, r.version)
