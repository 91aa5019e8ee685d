"""Shared fixtures for the service tests: a real SQLite file, a fake clock, a service."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.services.tables import TableService
from storage.db import Database


class FakeClock:
    """A clock whose ``sleep`` advances ``now`` at once (so timer tests take no time)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start
        self.slept: list[float] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds
        await asyncio.sleep(0)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(db: Database, clock: FakeClock) -> TableService:
    seeds = itertools.count(101)
    return TableService(db, now=clock.now, new_seed=lambda: next(seeds))
