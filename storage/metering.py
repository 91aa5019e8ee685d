"""The processor time one piece of work costs (a web request: ``bot.web.app``), counted
where it is spent: on the event loop, in the work's own steps only, and on the
database's threads, in the calls made for it.

Decisions:
* Processor time of the thread that does the work (``time.thread_time``), not the time on
  a wall clock: while a request waits, other requests, a flood of connections being
  dropped and other programs run, and none of that is its cost. So a visitor is charged
  the same on a busy server as on an idle one.
* A PostgreSQL server's own time is not counted (it is another process); the rows
  arriving and being read into Python are.
* Tasks the work starts are not metered on the loop; their database calls are (the meter
  travels in the context they copy).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Generator
from contextvars import ContextVar
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


class Meter:
    """Processor seconds counted so far (added to from any thread)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._lock = threading.Lock()

    def add(self, seconds: float) -> None:
        """Count ``seconds`` more."""
        with self._lock:
            self.seconds += seconds


_CURRENT: ContextVar[Meter | None] = ContextVar("deckhand_meter", default=None)


def charged(fn: Callable[[], T]) -> Callable[[], T]:
    """``fn``, counting its processor time on whatever thread runs it to the meter of the
    work that calls this (``fn`` itself when nothing is metered)."""
    meter = _CURRENT.get()
    if meter is None:
        return fn

    def run() -> T:
        start = time.thread_time()
        try:
            return fn()
        finally:
            meter.add(time.thread_time() - start)

    return run


def metered(work: Awaitable[T], meter: Meter) -> Awaitable[T]:
    """``work``, with the processor time of each of its steps on the loop, and of the
    database calls it makes, counted to ``meter``."""
    return _Metered(work, meter)


class _Metered(Generic[T]):
    def __init__(self, work: Awaitable[T], meter: Meter) -> None:
        self.work, self.meter = work, meter

    def __await__(self) -> Generator[Any, Any, T]:
        steps = self.work.__await__()
        sent: Any = None
        thrown: BaseException | None = None
        while True:
            token = _CURRENT.set(self.meter)
            start = time.thread_time()
            try:
                out = steps.send(sent) if thrown is None else steps.throw(thrown)
            except StopIteration as done:
                return cast(T, done.value)
            finally:
                self.meter.add(time.thread_time() - start)
                _CURRENT.reset(token)
            try:
                sent, thrown = (yield out), None
            except GeneratorExit:
                steps.close()
                raise
            except BaseException as exc:  # a cancellation, handed on to the work
                sent, thrown = None, exc
