"""Turn timers: one asyncio task that fires reminders and time-outs for every table.

The service announces when a table next needs a look (``TableService.on_schedule``); the
runner keeps those times in a heap and sleeps until the earliest, waking early when an
earlier one arrives. Stale entries are harmless: ``TableService.fire_timer`` re-checks the
table under its lock and does nothing if nothing is due. On start the runner takes
``TableService.pending()``, so timers that expired while the process was down (and
computer moves interrupted by a crash) fire at once.

Time comes from an injectable ``Clock`` (``now`` and ``sleep``); give the service the same
clock's ``now``. Tests use a clock whose ``sleep`` just advances ``now``.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.services.errors import ServiceError
from bot.services.tables import Reminder, TableResult, TableService

log = logging.getLogger(__name__)

Notify = Callable[[Reminder | TableResult], Awaitable[None]]


class Clock(Protocol):
    """Where the timers get the time from."""

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


class TurnTimers:
    """Runs the service's turn timers; ``notify`` gets every reminder and time-out result."""

    def __init__(
        self, service: TableService, clock: Clock | None = None, notify: Notify | None = None
    ) -> None:
        self.service = service
        self.clock: Clock = clock or SystemClock()
        self.notify = notify
        self._heap: list[tuple[float, int]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        service.on_schedule(self.schedule)

    def schedule(self, channel_id: int, when: float) -> None:
        """Look at the channel's table at ``when`` (wakes the runner if that is sooner)."""
        sooner = not self._heap or when < self._heap[0][0]
        heapq.heappush(self._heap, (when, channel_id))
        if sooner:
            self._wake.set()

    def start(self) -> asyncio.Task[None]:
        """Start the runner task (loading what ``service.pending()`` reports)."""
        for channel_id, when in self.service.pending():
            heapq.heappush(self._heap, (when, channel_id))
        self._task = asyncio.create_task(self._run(), name="deckhand-turn-timers")
        return self._task

    async def stop(self) -> None:
        """Stop the runner task."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def fire_due(self) -> list[Reminder | TableResult]:
        """Fire everything due now; return what happened (also sent to ``notify``)."""
        now = self.clock.now()
        seen: set[int] = set()
        fired: list[Reminder | TableResult] = []
        while self._heap and self._heap[0][0] <= now:
            _, channel_id = heapq.heappop(self._heap)
            if channel_id in seen:
                continue
            seen.add(channel_id)
            try:
                event = await self.service.fire_timer(channel_id)
            except ServiceError as exc:
                log.warning("turn timer for channel %s: %s", channel_id, exc)
                continue
            except Exception:
                log.exception("turn timer for channel %s failed", channel_id)
                continue
            if event is None:
                continue
            fired.append(event)
            if self.notify is not None:
                try:
                    await self.notify(event)
                except Exception:
                    log.exception("turn timer notification for channel %s failed", channel_id)
        return fired

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            await self.fire_due()
            if self._wake.is_set():
                continue
            waits: set[asyncio.Future[object]] = {asyncio.ensure_future(self._wake.wait())}
            if self._heap:
                delay = max(0.0, self._heap[0][0] - self.clock.now())
                waits.add(asyncio.ensure_future(self.clock.sleep(delay)))
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()
