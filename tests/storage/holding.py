"""Holding the database's writer busy, so that writes queued meanwhile commit as one
group when it is let go (storage and service tests of group commit)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from storage.db import Conn, Database
from tests.waiting import DEADLINE, until


async def held_open(db: Database, body: Callable[[], Any], *, writes: int) -> None:
    """Run ``body`` (which sets off ``writes`` writes) while the writer is busy with
    another write, so that all of them, once queued, are committed as one group when that
    write ends."""
    started, release = threading.Event(), threading.Event()

    def hold(conn: Conn) -> None:
        started.set()
        release.wait(DEADLINE)

    holder = asyncio.create_task(db.write(hold))
    await asyncio.to_thread(started.wait, DEADLINE)
    body()
    await until(lambda: db.queued() >= writes, f"{writes} writes queued")
    release.set()
    await holder
