"""Serving ``deckhand web``: the connection-level defences around the application.

aiohttp reads request heads with no deadline, holds any number of connections, and
answers a malformed request outside the application (no security headers) after logging
its traceback. So the site is served by ``Connection``, aiohttp's public
``web.RequestHandler`` with these decisions added:

* **Deadline per request.** From a request's first byte (or the connection's opening)
  its head must be complete within ``Limits.head`` seconds, else the connection is
  dropped: a slowloris client is gone after that many seconds. The site reads no body: a
  body's bytes count as the start of the next request, so a trickled body is dropped on
  the same deadline, and what is left of one after the answer is read for at most
  ``Limits.linger`` seconds. An idle kept-alive connection is closed after ``Limits.idle``.
* **Connection caps.** At most ``Limits.connections`` open connections, and
  ``Limits.per_address`` from one address; a connection past either is closed at once.
* **Malformed requests** get the site's plain error page with every security header, and
  one log line without a traceback (a failure inside the site keeps its traceback).
* Listening problems (port in use, an address not of this machine) are one sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.services.errors import ServiceError
from bot.text import clip
from bot.web.app import error, make_app
from bot.web.limits import Budget
from storage.connect import open_database, shown
from storage.db import Database

log = logging.getLogger(__name__)

END_OF_HEAD = b"\r\n\r\n"


@dataclass(frozen=True)
class Limits:
    """The connection-level limits (seconds, counts)."""

    head: float = 10.0
    idle: float = 15.0
    linger: float = 2.0
    connections: int = 512
    per_address: int = 64


@dataclass
class Gate:
    """The open connections, in all and per address."""

    limits: Limits
    open: int = 0
    by_address: Counter[str] = field(default_factory=Counter)

    def enter(self, address: str) -> bool:
        """Whether one more connection from ``address`` may stay open (it is counted)."""
        if self.open >= self.limits.connections or (
            self.by_address[address] >= self.limits.per_address
        ):
            return False
        self.open += 1
        self.by_address[address] += 1
        return True

    def leave(self, address: str) -> None:
        """A counted connection closed."""
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


class Connection(web.RequestHandler):
    """One client connection: aiohttp's handler with a deadline per request, the caps, and
    plain answers to malformed requests (see the module's docstring)."""

    def __init__(self, manager: web.Server, gate: Gate, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self.gate = gate
        self.address = ""
        self.admitted = False
        self.wire: asyncio.Transport | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        if not self.gate.enter(self.address):
            log.debug("connection from %s refused: too many open", self.address)
            transport.abort()
            return
        self.admitted, self.wire = True, transport
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        limit = self.gate.limits.head
        self.deadline = asyncio.get_running_loop().call_later(limit, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        log.debug("connection from %s dropped: a request took over %.0f s to arrive",
                  self.address, self.gate.limits.head)
        if self.wire is not None:
            self.wire.abort()

    def data_received(self, data: bytes) -> None:
        seen = self.tail + data
        end = seen.rfind(END_OF_HEAD)
        rest = seen[end + len(END_OF_HEAD):] if end >= 0 else data
        if end >= 0:
            self._disarm()
        if rest and self.deadline is None:
            self._arm()  # the first bytes of the next request (or of a body)
        self.tail = seen[-(len(END_OF_HEAD) - 1):]
        super().data_received(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        if not self.admitted:
            return
        self.admitted = False
        self._disarm()
        self.gate.leave(self.address)
        super().connection_lost(exc)

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """A request aiohttp could not read (or a failure outside the site's own error
        path): the site's plain error page, every security header, the connection closed."""
        if status >= 500:
            log.error("request from %s failed", request.remote, exc_info=exc)
        else:
            log.info("malformed request from %s (%d): %s", request.remote, status,
                     clip(message or "", 80))
        if request.writer.output_size > 0:
            raise ConnectionError("the answer had begun; the connection is closed")
        text = "That request could not be read." if status < 500 else (
            "Something went wrong on our side."
        )
        response = error(status, text)
        response.force_close()
        return response


@dataclass
class Served:
    """A running site: ``close()`` stops listening, then closes every connection."""

    runner: web.AppRunner
    listener: asyncio.Server

    async def close(self) -> None:
        """Stop serving."""
        self.listener.close()
        await self.runner.cleanup()


def _listen_problem(exc: OSError, host: str, port: int) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (f"Port {port} on {host} is in use (another deckhand web?): choose another"
                " --port, or stop the other program.")
    if exc.errno == errno.EACCES:
        return f"Port {port} needs privileges this user lacks: choose a --port of 1024 or more."
    return (f"Cannot listen on {clip(host, 60)}: it is not an address of this machine"
            " (--host 127.0.0.1 for this machine only, 0.0.0.0 for every address).")


async def start(
    db: Database, host: str, port: int, *, limits: Limits | None = None,
    budget: Budget | None = None,
) -> Served:
    """Serve the site of ``db`` on ``host:port`` (``ServiceError`` if it cannot listen)."""
    limits = limits or Limits()
    runner = web.AppRunner(make_app(db, budget or Budget()), handle_signals=False)
    await runner.setup()
    server = runner.server
    assert server is not None  # made by setup()
    gate = Gate(limits)
    loop = asyncio.get_running_loop()

    def connection() -> Connection:
        return Connection(
            server, gate, loop=loop, keepalive_timeout=limits.idle,
            lingering_time=limits.linger, access_log=None, logger=log,
        )

    try:
        listener = await loop.create_server(connection, host, port, reuse_address=True)
    except OSError as exc:
        await runner.cleanup()
        raise ServiceError(_listen_problem(exc, host, port)) from None
    return Served(runner, listener)


def serve(where: str, host: str, port: int, log_level: str = "INFO") -> int:
    """Serve the site of the database at ``where`` (opened read-only) until Ctrl-C or
    SIGTERM."""
    logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    async def main() -> None:
        db = await open_database(where, read_only=True)
        try:
            served = await start(db, host, port)
            try:
                address = f"[{host}]" if ":" in host else host
                print(f"Serving {shown(where)} (read-only) at http://{address}:{port}"
                      " — Ctrl-C stops.", file=sys.stderr)
                stop = asyncio.Event()
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
                await stop.wait()
            finally:
                await served.close()
        finally:
            await db.close()

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how one stops it
        asyncio.run(main())
    print("Stopped serving.", file=sys.stderr)
    return 0

