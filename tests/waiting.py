"""The one way a test waits for something published asynchronously: ``until``.

A test asserts on the state it waits for — the edit, the message, the row — never on what
is there right after a click's acknowledgement, and never after a fixed pause: on a busy
machine (two suites side by side on two cores) the work that follows an acknowledgement
can take seconds. ``DEADLINE`` is long enough for that machine and short enough that a
real hang fails within a minute.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, overload

T = TypeVar("T")

#: Seconds a test waits for a state before it fails (the slowest wait seen with two
#: suites and two busy loops on two cores was well under a third of it).
DEADLINE = 60.0
#: Seconds between two looks.
POLL = 0.02


@overload
async def until(
    condition: Callable[[], Awaitable[T | None]], what: str, timeout: float = DEADLINE
) -> T: ...


@overload
async def until(condition: Callable[[], T | None], what: str, timeout: float = DEADLINE) -> T: ...


async def until(condition: Callable[[], object], what: str, timeout: float = DEADLINE) -> object:
    """Wait until ``condition()`` (a plain or an async function) is truthy; return its
    value. Fails saying ``what`` was waited for, and for how long."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}"
        await asyncio.sleep(POLL)
