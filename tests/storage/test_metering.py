"""A piece of work is charged the processor time spent on it, on the loop and on the
database's threads, and not the time it waited while others ran (``storage.metering``:
a web visitor is charged the same on a busy server as on an idle one)."""

from __future__ import annotations

import asyncio
import time

import pytest

from storage.db import Worker
from storage.metering import Meter, metered

BURN = 0.05


def burn(seconds: float = BURN) -> None:
    """Spend ``seconds`` of this thread's processor time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def test_a_step_on_the_loop_is_charged_and_waiting_is_not() -> None:
    meter = Meter()

    async def work() -> str:
        burn()
        await asyncio.sleep(0.3)  # meanwhile another task burns the loop
        return "done"

    async def other() -> None:
        await asyncio.sleep(0)
        burn(0.2)

    other_task = asyncio.create_task(other())
    assert await metered(work(), meter) == "done"
    await other_task
    assert BURN <= meter.seconds < BURN + 0.05  # the other task's 0.2 s is not in it


async def test_the_database_threads_work_is_charged_and_their_waiting_is_not() -> None:
    worker = Worker("metering-test")
    meter = Meter()

    async def work() -> None:
        await worker.hop(burn)
        await worker.hop(lambda: time.sleep(0.2))

    try:
        await metered(work(), meter)
        unmetered = Meter()
        await worker.hop(burn)  # outside any metered work: charged to no one
    finally:
        await worker.close()
    assert BURN <= meter.seconds < BURN + 0.05
    assert unmetered.seconds == 0


async def test_an_error_and_a_cancellation_reach_the_work() -> None:
    async def fails() -> None:
        await asyncio.sleep(0)
        raise ValueError("bad")

    with pytest.raises(ValueError, match="bad"):
        await metered(fails(), Meter())

    cancelled = asyncio.Event()

    async def waits() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def metered_wait() -> None:
        await metered(waits(), Meter())

    task = asyncio.create_task(metered_wait())
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cancelled.is_set()
