"""Scheduling: the work a table needs without anyone asking — computer moves, reminders,
time-outs — each table in its own task, so no table ever waits for another.

Decisions:

* A table's **driver** task asks the runtime what is due (``plan``: from the cache, no I/O),
  waits until then, and has it done (``fire``: one change under the table's lock, one
  transaction). It ends when nothing is due; ``poke`` starts it again (or wakes it to plan
  afresh) after every change. Waiting holds no lock, so everything else on the table —
  status, hands, autocomplete, leave, abort — is answered at once meanwhile.
* Computer moves are paced: ``pace`` seconds pass before each (0 in the terminal and in
  tests), and the computer thinks (``think``) during that pause, not after it. A player
  whose timer runs out is played for by the stand-in, which thinks once the time is up
  (not before: most players move in time), off the loop like every computer.
* A ``fire`` that fails (the database is locked or down) is retried with backoff — 1, 2, 4,
  … up to 30 s — and logged; the table keeps its driver until the work is done, so no
  playing table is ever left with nobody scheduled to move it.
* ``settled`` waits until a table has no computer move due (tests and the terminal use it
  to wait for the computers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from bot.services.tables.turns import Due, DueKind

log = logging.getLogger(__name__)

BACKOFF = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)

Plan = Callable[[int], Due | None]
Think = Callable[[int, Due], Coroutine[Any, Any, str | None]]
Fire = Callable[[int, Due, str | None], Coroutine[Any, Any, None]]


class Clock(Protocol):
    """Where the runtime gets the time from (one clock for moves, timers and pacing)."""

    def now(self) -> float:
        """Seconds since the epoch."""

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(seconds)


class Autoplay:
    """One driver task per table with work due; see the module docstring."""

    def __init__(
        self, *, plan: Plan, think: Think, fire: Fire, clock: Clock, pace: float = 0.0
    ) -> None:
        self._plan, self._think, self._fire = plan, think, fire
        self.clock = clock
        self.pace = pace
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._wakes: dict[int, asyncio.Event] = {}
        self._waiters: dict[int, list[asyncio.Future[None]]] = {}
        self._firing: set[asyncio.Task[None]] = set()
        self._closed = False

    def poke(self, channel_id: int) -> None:
        """The table changed: plan its work afresh (start its driver if it has none)."""
        if self._closed:
            return
        wake = self._wakes.get(channel_id)
        if wake is not None:
            wake.set()
            return
        if self._plan(channel_id) is None:
            return
        self._wakes[channel_id] = asyncio.Event()
        self._drivers[channel_id] = asyncio.create_task(
            self._drive(channel_id), name=f"deckhand-table-{channel_id}"
        )

    def driving(self) -> int:
        """How many tables have a driver now."""
        return len(self._drivers)

    async def settled(self, channel_id: int) -> None:
        """Return once the table has no computer move due and none in flight."""
        while self._computer_due(channel_id):
            progress = asyncio.get_running_loop().create_future()
            self._waiters.setdefault(channel_id, []).append(progress)
            self.poke(channel_id)
            await progress

    async def idle(self) -> None:
        """Return once no table has a computer move due (tests and benchmarks)."""
        while busy := [c for c in self._drivers if self._computer_due(c)]:
            await asyncio.gather(*(self.settled(c) for c in busy))

    def _computer_due(self, channel_id: int) -> bool:
        due = self._plan(channel_id)
        return due is not None and due.kind is DueKind.COMPUTER

    async def close(self) -> None:
        """Stop every driver; changes already being committed are let finish."""
        self._closed = True
        for task in list(self._drivers.values()):
            task.cancel()
        await asyncio.gather(*self._drivers.values(), return_exceptions=True)
        await asyncio.gather(*self._firing, return_exceptions=True)

    # -- the driver ----------------------------------------------------------------------
    async def _drive(self, channel_id: int) -> None:
        wake = self._wakes[channel_id]
        failures = 0
        try:
            while True:
                wake.clear()
                due = self._plan(channel_id)
                if due is None:
                    return
                delay = due.when - self.clock.now()
                thinking: asyncio.Task[str | None] | None = None
                if due.kind is DueKind.COMPUTER:
                    delay = self.pace
                    thinking = asyncio.create_task(self._think(channel_id, due))
                if failures:
                    delay = max(delay, BACKOFF[min(failures, len(BACKOFF)) - 1])
                if delay > 0 and not await self._wait(delay, wake):
                    if thinking is not None:
                        thinking.cancel()
                    continue
                if due.kind is DueKind.TIMEOUT:  # the stand-in thinks once time is up
                    thinking = asyncio.create_task(self._think(channel_id, due))
                action = await self._thought(thinking)
                if await self._fire_once(channel_id, due, action, failures):
                    failures = 0
                else:
                    failures += 1
                self._progressed(channel_id)
        finally:
            self._drivers.pop(channel_id, None)
            self._wakes.pop(channel_id, None)
            self._progressed(channel_id)

    async def _wait(self, seconds: float, wake: asyncio.Event) -> bool:
        """Sleep ``seconds``; False if woken first (the table changed) — a wake that comes
        with the time already up does not restart the wait."""
        sleeper = asyncio.ensure_future(self.clock.sleep(seconds))
        waker = asyncio.ensure_future(wake.wait())
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            waker.cancel()
        return sleeper.done() or not wake.is_set()

    @staticmethod
    async def _thought(thinking: asyncio.Task[str | None] | None) -> str | None:
        if thinking is None:
            return None
        try:
            return await thinking
        except Exception:
            log.exception("a computer player failed to choose a move; it plays a random one")
            return None

    async def _fire_once(
        self, channel_id: int, due: Due, action: str | None, failures: int
    ) -> bool:
        """Do the due work; False (logged, with the traceback the first time) if it failed
        and must be retried."""
        task = asyncio.create_task(self._fire(channel_id, due, action))
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await task
            raise
        except Exception as exc:
            log.warning(
                "table in channel %s: %s work failed (attempt %d), retrying: %s",
                channel_id, due.kind.value, failures + 1, exc, exc_info=failures == 0,
            )
            return False
        return True

    def _progressed(self, channel_id: int) -> None:
        for waiter in self._waiters.pop(channel_id, []):
            if not waiter.done():
                waiter.set_result(None)
