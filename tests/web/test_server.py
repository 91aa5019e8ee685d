"""``deckhand web`` under attack, on a real socket: slow clients are dropped after the
deadline and capped (the oldest waiting connection makes room for a newcomer), malformed
requests get the plain page with every security header and no traceback in the log, each
client is held to a budget of server time, and the database is opened read-only. (The
attacks at full size, from many addresses, are ``tests/web/test_attacks.py``.)"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.web.app import SECURITY_HEADERS
from bot.web.limits import Budget, Proxies, networks
from bot.web.server import Gate, Limits, Served, start
from storage.connect import NoDatabase, open_database
from storage.db import Database, StorageUnavailable

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


#: Trusting no proxy: the tests' clients (on 127.0.0.1) are clients, not a proxy's.
NO_PROXY = Proxies(networks("192.0.2.1"))


async def serving(db: Database, limits: Limits, budget: Budget | None = None) -> tuple[
    Served, int
]:
    port = free_port()
    return await start(db, "127.0.0.1", port, limits=limits, budget=budget,
                       proxies=NO_PROXY), port


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
        made_room = [await closed_within(r, 0.3) for r, _ in conns[:10]]
        assert all(made_room)  # past 20 from one address, the oldest made room
        for _, writer in conns[10:]:
            writer.write(HEAD[5:10])  # still trickling, inside the deadline
        held = [await closed_within(r, 3.0) for r, _ in conns[10:]]
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


async def slow_heads(
    port: int, count: int
) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """``count`` connections that each send the start of a request head and no more."""
    conns = [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]
    for _, writer in conns:
        writer.write(HEAD[:5])
    await asyncio.sleep(0.1)
    return conns


async def test_a_full_cap_drops_the_oldest_waiting_connection_for_a_newcomer(
    db: Database,
) -> None:
    """Today's code refused the newcomer: five slow heads kept everyone out."""
    served, port = await serving(db, Limits(head=5, connections=5, per_address=5))
    try:
        conns = await slow_heads(port, 5)
        status, _ = await ask(port, REQUEST)  # the newcomer is answered…
        assert status == b"HTTP/1.1 200 OK"
        assert await closed_within(conns[0][0], 1.0)  # …in the room of the oldest
        assert not await closed_within(conns[1][0], 0.3)  # the others stay
        for _, writer in conns:
            writer.close()
    finally:
        await served.close()


async def test_a_second_address_makes_room_too(db: Database) -> None:
    """The site-wide cap is full of one address's slow heads: another address's request
    is answered, in the room of the oldest of them."""
    served, port = await serving(db, Limits(head=5, connections=4, per_address=4))
    try:
        conns = await slow_heads(port, 4)
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=("127.0.0.2", 0))
        writer.write(REQUEST)
        assert (await asyncio.wait_for(reader.read(), 10)).startswith(b"HTTP/1.1 200 OK")
        writer.close()
        assert await closed_within(conns[0][0], 1.0)
        for _, w in conns:
            w.close()
    finally:
        await served.close()


@dataclass(eq=False)
class Peer:
    """What the gate knows of a connection."""

    peer: str
    address: str
    counted: bool = False
    dropped: bool = False

    def drop(self, why: str) -> None:
        self.dropped = True


def test_the_gate_never_drops_a_connection_being_answered() -> None:
    gate = Gate(Limits(connections=3, per_address=2), NO_PROXY)
    a1, a2, b1 = Peer("192.0.2.7", "192.0.2.7"), Peer("192.0.2.7", "192.0.2.7"), Peer(
        "198.51.100.1", "198.51.100.1")
    for p in (a1, a2, b1):
        assert gate.enter(p)
        p.counted = True
    gate.answering(a1)
    a3 = Peer("192.0.2.7", "192.0.2.7")
    assert gate.enter(a3)
    assert a2.dropped and not a1.dropped  # its own address's oldest waiting one
    a3.counted = True
    for p in (b1, a3):
        gate.answering(p)
    late = Peer("203.0.113.9", "203.0.113.9")
    assert not gate.enter(late)  # every one is being answered
    gate.waits(b1)
    assert gate.enter(late)
    assert b1.dropped and gate.open == 3


def test_a_trusted_proxy_has_no_cap_of_its_own() -> None:
    gate = Gate(Limits(connections=100, per_address=2), Proxies(networks("172.18.0.1")))
    conns = [Peer("172.18.0.1", "172.18.0.1") for _ in range(10)]
    assert all(gate.enter(c) for c in conns)
    assert not any(c.dropped for c in conns)


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
