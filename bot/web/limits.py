"""How much of ``deckhand web`` one client may use: a budget of server time, not a count.

Each client (its address; behind a proxy on this machine, the address the proxy puts last
in ``X-Forwarded-For``) has a bucket of seconds: every answered request costs the time it
took to answer (a season page that reads 20,000 matches costs far more than the style
sheet), the bucket refills at ``rate`` seconds per second up to ``burst``, and a client
whose bucket is empty, or who has ``parallel`` requests in flight, is answered 429 with
``Retry-After`` at once, costing nothing. So one client can take at most ``rate`` of the
site's time once its burst is spent, however it spreads its requests.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass, field

from aiohttp import web


@dataclass
class _Account:
    balance: float
    at: float
    in_flight: int = 0


@dataclass
class Budget:
    """Per-client budgets of server time (see the module's docstring)."""

    #: Seconds of server time a client earns per second.
    rate: float = 0.25
    #: Seconds a client may spend at once, after being idle.
    burst: float = 4.0
    #: Requests one client may have in flight.
    parallel: int = 4
    #: Clients remembered; past it, the settled ones (idle, bucket full) are forgotten.
    remembered: int = 10_000
    _accounts: dict[str, _Account] = field(default_factory=dict)

    def _account(self, client: str, now: float) -> _Account:
        account = self._accounts.get(client)
        if account is None:
            if len(self._accounts) >= self.remembered:
                self._forget_settled(now)
            account = self._accounts[client] = _Account(self.burst, now)
        account.balance = min(self.burst, account.balance + (now - account.at) * self.rate)
        account.at = now
        return account

    def _forget_settled(self, now: float) -> None:
        for client, a in list(self._accounts.items()):
            if not a.in_flight and a.balance + (now - a.at) * self.rate >= self.burst:
                del self._accounts[client]

    def admit(self, client: str, now: float) -> float | None:
        """None when ``client`` may be answered now (it is then in flight until
        ``done``); else the seconds after which to come back."""
        account = self._account(client, now)
        if account.balance <= 0:
            return max(1.0, math.ceil(-account.balance / self.rate))
        if account.in_flight >= self.parallel:
            return 1.0
        account.in_flight += 1
        return None

    def done(self, client: str, cost: float, now: float) -> None:
        """``client``'s request was answered in ``cost`` seconds."""
        account = self._account(client, now)
        account.in_flight = max(0, account.in_flight - 1)
        account.balance -= cost


def client_of(request: web.BaseRequest) -> str:
    """Who is asking: the peer's address, or, from a proxy on this machine (a loopback
    peer), the last address of ``X-Forwarded-For`` (the one that proxy saw)."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For", "")
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    last = forwarded.rsplit(",", 1)[-1].strip()
    return last[:64] if local and last else peer
