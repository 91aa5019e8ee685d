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
* **Connection caps, and who makes room.** At most ``Limits.connections`` open
  connections, and ``Limits.per_address`` from one client address (``limits.identity``:
  an IPv6 /64 is one address; a trusted proxy, ``limits.Proxies``, carries many clients
  and has no cap of its own). When a cap is full, a new connection does not wait behind
  the old ones: the oldest connection that is *waiting* — it has not finished sending a
  request head, or sits idle between requests — is dropped to make room (of that address
  when its own cap is full). A connection whose request is being answered is never
  dropped; only when every connection is, is the newcomer closed. So slow heads, however
  many addresses send them, cannot keep anyone out: a client that sends its request at
  once is answered, and the slow ones give way to it.
* **Malformed requests** get the site's plain error page with every security header, and
  one log line without a traceback (a failure inside the site keeps its traceback).
* Listening problems (port in use, an address not of this machine) are one sentence.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import signal
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web

from bot.progress import Interrupted
from bot.services.errors import ServiceError
from bot.terminal.lines import say
from bot.text import clip
from bot.web.app import error, make_app
from bot.web.limits import Budget, Proxies, identity
from i18n import _
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
    #: Connections the system holds for the server to accept (asyncio's default is 100:
    #: a flood of connections would fill it, and a newcomer's would wait seconds for the
    #: system to try again).
    backlog: int = 2048


class Held(Protocol):
    """A connection as the gate counts it."""

    #: The peer's address as it connected, and the client address it counts as.
    peer: str
    address: str
    #: Whether the gate counts it.
    counted: bool

    def drop(self, why: str) -> None:
        """Close it at once (``why``: for the debug log)."""


@dataclass(eq=False)
class Gate:
    """The open connections, in all and per client address, and those waiting for a
    request head, oldest first (see the module's docstring)."""

    limits: Limits
    proxies: Proxies = field(default_factory=Proxies)
    open: int = 0
    by_address: Counter[str] = field(default_factory=Counter)
    #: Connections not being answered, in the order they began to wait (a dict: ordered).
    waiting: dict[Held, None] = field(default_factory=dict)

    def enter(self, new: Held) -> bool:
        """Whether ``new`` may stay open (it is then counted), once room is made for it by
        dropping the oldest waiting connection where a cap is full."""
        capped = not self.proxies.trusts(new.peer)
        if capped and self.by_address[new.address] >= self.limits.per_address and not (
            self._drop_oldest(new.address)
        ):
            return False
        if self.open >= self.limits.connections and not self._drop_oldest(None):
            return False
        self.open += 1
        self.by_address[new.address] += 1
        self.waiting[new] = None
        return True

    def _drop_oldest(self, address: str | None) -> bool:
        """Drop the oldest waiting connection (from ``address``, when given); whether
        there was one."""
        oldest = next(
            (c for c in self.waiting if address is None or c.address == address), None
        )
        if oldest is None:
            return False
        self.leave(oldest)
        oldest.drop("the oldest waiting connection, to make room for a new one")
        return True

    def answering(self, conn: Held) -> None:
        """``conn`` sent a whole request head: it is not dropped while it is answered."""
        self.waiting.pop(conn, None)

    def waits(self, conn: Held) -> None:
        """``conn``'s requests are answered: it waits for the next one, the newest to."""
        if conn.counted:
            self.waiting.pop(conn, None)
            self.waiting[conn] = None

    def leave(self, conn: Held) -> None:
        """A counted connection closes (or is dropped): it is counted no more."""
        if not conn.counted:
            return
        conn.counted = False
        self.waiting.pop(conn, None)
        self.open -= 1
        self.by_address[conn.address] -= 1
        if self.by_address[conn.address] <= 0:
            del self.by_address[conn.address]


class Connection(web.RequestHandler):
    """One client connection: aiohttp's handler with a deadline per request, the caps, and
    plain answers to malformed requests (see the module's docstring)."""

    def __init__(self, manager: web.Server, gate: Gate, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self.gate = gate
        #: The peer as it connected, and the client address it counts as.
        self.peer = ""
        self.address = ""
        #: Counted by the gate; handed to aiohttp (which must then hear of its end).
        self.counted = False
        self.started = False
        #: Request heads received and not yet answered.
        self.unanswered = 0
        self.wire: asyncio.Transport | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        self.peer = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.address = identity(self.peer)
        self.wire = transport
        if not self.gate.enter(self):
            log.debug("connection from %s refused: every connection is being answered",
                      self.address)
            transport.abort()
            return
        self.counted = self.started = True
        super().connection_made(transport)
        self._arm()

    def drop(self, why: str) -> None:
        """Close the connection at once (``why``: for the debug log)."""
        self._disarm()
        log.debug("connection from %s dropped: %s", self.address, why)
        if self.wire is not None:
            self.wire.abort()

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
        self.drop(f"a request took over {self.gate.limits.head:.0f} s to arrive")

    def data_received(self, data: bytes) -> None:
        seen = self.tail + data
        end = seen.rfind(END_OF_HEAD)
        rest = seen[end + len(END_OF_HEAD):] if end >= 0 else data
        if end >= 0:
            self._disarm()
            self.unanswered += seen.count(END_OF_HEAD)
            self.gate.answering(self)
        if rest and self.deadline is None:
            self._arm()  # the first bytes of the next request (or of a body)
        self.tail = seen[-(len(END_OF_HEAD) - 1):]
        super().data_received(data)

    def log_access(
        self, request: web.BaseRequest, response: web.StreamResponse, time: float | None
    ) -> None:
        """aiohttp's hook after each answer is sent (access logging is off): once every
        request head received is answered, the connection waits again."""
        self.unanswered = max(0, self.unanswered - 1)
        if not self.unanswered:
            self.gate.waits(self)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.gate.leave(self)
        self._disarm()
        if self.started:
            self.started = False
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
        return _("Port {port} on {host} is in use (another deckhand web?): choose another"
                 " --port, or stop the other program.", port=port, host=host)
    if exc.errno == errno.EACCES:
        return _("Port {port} needs privileges this user lacks: choose a --port of 1024 or"
                 " more.", port=port)
    return _("Cannot listen on {host}: it is not an address of this machine (--host"
             " 127.0.0.1 for this machine only, 0.0.0.0 for every address).",
             host=clip(host, 60))


async def start(
    db: Database, host: str, port: int, *, limits: Limits | None = None,
    budget: Budget | None = None, proxies: Proxies | None = None,
) -> Served:
    """Serve the site of ``db`` on ``host:port`` (``ServiceError`` if it cannot listen),
    believing ``proxies`` (default: a proxy on this machine) about whom they serve."""
    limits, proxies = limits or Limits(), proxies or Proxies()
    runner = web.AppRunner(make_app(db, budget or Budget(), proxies), handle_signals=False)
    await runner.setup()
    server = runner.server
    assert server is not None  # made by setup()
    gate = Gate(limits, proxies)
    loop = asyncio.get_running_loop()

    def connection() -> Connection:
        return Connection(
            server, gate, loop=loop, keepalive_timeout=limits.idle,
            lingering_time=limits.linger, access_log=None, logger=log,
        )

    try:
        listener = await loop.create_server(
            connection, host, port, reuse_address=True, backlog=limits.backlog
        )
    except OSError as exc:
        await runner.cleanup()
        raise ServiceError(_listen_problem(exc, host, port)) from None
    return Served(runner, listener)


def serve(
    where: str, host: str, port: int, log_level: str = "INFO", proxies: Proxies | None = None
) -> int:
    """Serve the site of the database at ``where`` (opened read-only) until Ctrl-C or
    SIGTERM."""
    logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    async def main() -> None:
        db = await open_database(where, read_only=True)
        try:
            served = await start(db, host, port, proxies=proxies)
            try:
                address = f"[{host}]" if ":" in host else host
                url = f"http://{address}:{port}"
                say(_("Serving {database} (read-only) at {address} — Ctrl-C stops.",
                      database=shown(where), address=url), sys.stderr)
                stop = asyncio.Event()
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
                await stop.wait()
            finally:
                await served.close()
        finally:
            await db.close()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # Ctrl-C is how one stops it: said as every command says it
        raise Interrupted(_("Stopped serving.")) from None
    return 0

