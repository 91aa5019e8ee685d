"""Holding the database's writer busy, so that writes queued meanwhile commit as one
group when it is let go (storage and service tests of group commit)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from storage.db import Conn, Database


async def held_open(db: Database, body: Callable[[], Any], *, settle: float = 0.0) -> None:
    """Run ``body`` (which queues writes) while the writer is busy with another write, so
    everything it queues is committed as one group when that write ends; ``settle``
    seconds let queued tasks reach the writer first."""
    started, release = threading.Event(), threading.Event()

    def hold(conn: Conn) -> None:
        started.set()
        release.wait(10)

    holder = asyncio.create_task(db.write(hold))
    await asyncio.to_thread(started.wait, 10)
    body()
    await asyncio.sleep(settle)
    release.set()
    await holder
