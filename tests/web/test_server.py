"""``deckhand web`` under attack, on a real socket: slow clients are dropped after the
deadline and capped, malformed requests get the plain page with every security header and
no traceback in the log, each client is held to a budget of server time, and the
database is opened read-only."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.web.app import SECURITY_HEADERS
from bot.web.limits import Budget
from bot.web.server import Limits, Served, start
from storage.connect import NoDatabase, open_database
from storage.db import Database, StorageUnavailable
from tests.waiting import until

HEAD = b"GET / HTTP/1.1\r\nHost: deckhand.test\r\n"
#: A whole request, after which the server closes the connection.
REQUEST = HEAD + b"Connection: close\r\n\r\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    path = tmp_path / "d.db"
    await (await open_database(path)).close()  # a migrated, empty database
    opened = await open_database(path, read_only=True)
    yield opened
    await opened.close()


async def serving(db: Database, limits: Limits, budget: Budget | None = None) -> tuple[
    Served, int
]:
    port = free_port()
    return await start(db, "127.0.0.1", port, limits=limits, budget=budget), port


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the server closed the connection within ``seconds`` (reading what came)."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(65536):
                pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


async def ask(port: int, raw: bytes) -> tuple[bytes, dict[str, str]]:
    """Send ``raw``; the status line and headers of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, _ = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return status.encode(), headers


async def test_slow_clients_are_dropped_after_the_deadline_and_capped(db: Database) -> None:
    served, port = await serving(db, Limits(head=0.5, connections=1000, per_address=20))
    try:
        conns = [await asyncio.open_connection("127.0.0.1", port) for _ in range(30)]
        for _, writer in conns:  # slowloris: a head that never ends, a byte at a time
            writer.write(HEAD[:5])
        began = time.monotonic()
        over_cap = [await closed_within(r, 0.3) for r, _ in conns[20:]]
        assert all(over_cap)  # past 20 from one address: closed at once
        for _, writer in conns[:20]:
            writer.write(HEAD[5:10])  # still trickling, inside the deadline
        held = [await closed_within(r, 3.0) for r, _ in conns[:20]]
        assert all(held) and time.monotonic() - began < 3.0
        status, _ = await ask(port, REQUEST)  # others are served meanwhile
        assert status == b"HTTP/1.1 200 OK"
        for _, writer in conns:
            writer.close()
    finally:
        await served.close()


async def test_a_trickled_body_is_dropped_on_the_same_deadline(db: Database) -> None:
    served, port = await serving(db, Limits(head=0.5))
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nab")
        assert await closed_within(reader, 3.0)
        writer.close()
    finally:
        await served.close()


async def test_the_connection_cap_counts_every_address(db: Database) -> None:
    served, port = await serving(db, Limits(head=5, connections=5, per_address=5))
    try:
        conns = [await asyncio.open_connection("127.0.0.1", port) for _ in range(5)]
        extra_reader, extra_writer = await asyncio.open_connection("127.0.0.1", port)
        assert await closed_within(extra_reader, 1.0)
        assert not await closed_within(conns[0][0], 0.3)  # the first five stay
        for _, writer in conns:
            writer.close()
        extra_writer.close()

        async def served_again() -> bool:  # room again once they left
            try:
                return (await ask(port, REQUEST))[0] == b"HTTP/1.1 200 OK"
            except ConnectionError:  # still full: closed at once
                return False

        await until(served_again, "room for a new connection")
    finally:
        await served.close()


@pytest.mark.parametrize("raw", [
    b"NOT HTTP AT ALL\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
    b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"b" * 20_000 + b"\r\n\r\n",
], ids=["garbage", "bad header", "long address", "long header"])
async def test_a_malformed_request_gets_the_headers_and_logs_no_traceback(
    db: Database, raw: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    served, port = await serving(db, Limits())
    try:
        with caplog.at_level(logging.DEBUG):
            status, headers = await ask(port, raw)
    finally:
        await served.close()
    assert status.split()[1].startswith(b"4")
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, name
    assert headers["Content-Type"].startswith("text/html")
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert "Traceback" not in caplog.text
    assert all(len(r.getMessage()) < 300 for r in caplog.records)


async def test_a_client_is_held_to_its_budget_of_server_time(db: Database) -> None:
    budget = Budget(rate=0.0001, burst=0.002, parallel=4)
    served, port = await serving(db, Limits(), budget)
    try:
        statuses = [(await ask(port, REQUEST))[0] for _ in range(200)]
    finally:
        await served.close()
    refused = statuses.index(b"HTTP/1.1 429 Too Many Requests")
    assert 0 < refused < 200  # answered while its burst lasted, then refused
    _, headers = await ask_refused(db, budget)
    assert int(headers["Retry-After"]) >= 1
    assert headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]


async def ask_refused(db: Database, budget: Budget) -> tuple[bytes, dict[str, str]]:
    served, port = await serving(db, Limits(), budget)
    try:
        return await ask(port, REQUEST)
    finally:
        await served.close()


def test_the_budget_counts_cost_not_requests() -> None:
    budget = Budget(rate=0.1, burst=1.0, parallel=2)
    now = 100.0
    for _ in range(500):  # many cheap requests: the style sheet, a small page
        assert budget.admit("cheap", now) is None
        budget.done("cheap", 0.001, now)
        now += 0.01
    assert budget.admit("costly", now) is None
    budget.done("costly", 3.0, now)  # one season page over a huge league
    wait = budget.admit("costly", now)
    assert wait is not None and wait >= 20  # 2 s owed at 0.1 s a second
    assert budget.admit("cheap", now) is None  # others are not affected
    assert budget.admit("cheap", now) is None
    assert budget.admit("cheap", now) == 1.0  # …but at most two in flight each


async def test_the_site_opens_its_database_read_only(tmp_path: Path) -> None:
    with pytest.raises(NoDatabase):
        await open_database(tmp_path / "typo.db", read_only=True)
    assert not (tmp_path / "typo.db").exists()
    await (await open_database(tmp_path / "d.db")).close()
    db = await open_database(tmp_path / "d.db", read_only=True)
    try:
        with pytest.raises(StorageUnavailable):
            await db.write(lambda c: c.execute("DELETE FROM tables"))
        assert await db.read(lambda c: c.one("SELECT count(*) AS n FROM tables")) is not None
    finally:
        await db.close()


async def test_a_database_older_than_this_deckhand_is_refused_not_migrated(
    tmp_path: Path,
) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StorageUnavailable, match="schema 0, older"):
        await open_database(path, read_only=True)
