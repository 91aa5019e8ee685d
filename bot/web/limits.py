"""Who a client of ``deckhand web`` is, and how much of the site one client may use: a
budget of server time, not a count.

**Who.** A client is an address (``identity``): an IPv4 address as it is, whether it
arrives as such or mapped into IPv6 (``::ffff:192.0.2.7``, how a dual-stack listener sees
an IPv4 peer); an IPv6 address by its /64 network, since one subscriber is handed a whole
/64 and can pick a new address in it for every request. Behind a reverse proxy the peer is
the proxy: its connections are many clients. So a peer in ``Proxies`` (the
``DECKHAND_WEB_PROXIES`` setting; by default this machine's loopback addresses, a proxy on
this machine) is trusted to say whom it serves: ``X-Forwarded-For`` is read from the
right, skipping the trusted hops, and the right-most address that is not a trusted proxy
is the client (the hops to its left were written by the client itself, and prove
nothing). Without ``X-Forwarded-For`` the ``for=`` parameters of ``Forwarded`` (RFC 7239)
are read the same way. A peer that is not trusted is the client, whatever it sends.

**How much.** Each client has a bucket of seconds: every answered request costs the
processor time spent answering it (``storage.metering``: its steps on the event loop and
its reads on the database's threads, not the time it waited while others were served, so a
flood of connections slowing the server does not make a bystander's pages dearer; a season
page that reads 20,000 matches costs far more than the style sheet), the bucket refills
at ``rate`` seconds per second up to ``burst``, and a client whose bucket is empty, or who
has ``parallel`` requests in flight, is answered 429 with ``Retry-After`` at once, costing
nothing. So one client can take at most ``rate`` of the
site's time once its burst is spent, however it spreads its requests.
"""

from __future__ import annotations

import ipaddress
import math
import re
from dataclasses import dataclass, field

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: Trusted when ``DECKHAND_WEB_PROXIES`` is empty: a proxy on this machine.
LOOPBACK: tuple[Network, ...] = (
    ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"),
)
#: The IPv6 prefix one subscriber is given, counted as one client.
IPV6_CLIENT_PREFIX = 64
#: How much of a hop that is not an address is kept as a client's name.
NAME_LIMIT = 64
#: ``for=`` in a ``Forwarded`` element: a token or a quoted string.
_FOR = re.compile(r'(?:^|;)\s*for\s*=\s*("[^"]*"|[^;,\s]*)', re.IGNORECASE)


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
    #: Requests one client may have in flight: as many connections as a browser opens to
    #: one host (6 in Chromium, ``kDefaultMaxSocketsPerGroup``, and in Firefox,
    #: ``network.http.max-persistent-connections-per-server``), so a visitor's own browser
    #: is not refused when a slowed server keeps its pages in flight longer.
    parallel: int = 6
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


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP address ``text`` writes (an IPv4-mapped IPv6 address as IPv4), or None."""
    try:
        found = ipaddress.ip_address(text.strip().split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def identity(address: str) -> str:
    """The client an address stands for: an IPv4 address (mapped or not) as itself, an
    IPv6 address as its /64; anything else (a hop a proxy named without an address) as
    written, cut to ``NAME_LIMIT`` characters."""
    found = _address(address)
    if found is None:
        return address.strip()[:NAME_LIMIT] or "?"
    if isinstance(found, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{found}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(found)


def networks(text: str) -> tuple[Network, ...]:
    """The addresses and networks a ``DECKHAND_WEB_PROXIES`` value lists (commas or
    spaces between them; an address is a network of one); ``ValueError`` names one that
    is neither. Empty: ``LOOPBACK``."""
    found = []
    for word in text.replace(",", " ").split():
        try:
            network = ipaddress.ip_network(word, strict=False)
        except ValueError:
            raise ValueError(
                f"{word[:NAME_LIMIT]!r} is not an address or a network (e.g. 172.18.0.1,"
                " 10.0.0.0/8, fd00::/8)"
            ) from None
        mapped = getattr(network.network_address, "ipv4_mapped", None)
        if mapped is not None:  # ::ffff:10.0.0.0/104 is 10.0.0.0/8
            network = ipaddress.ip_network(
                f"{mapped}/{max(network.prefixlen - 96, 0)}", strict=False
            )
        found.append(network)
    return tuple(found) or LOOPBACK


def _forwarded_for(header: str) -> list[str]:
    """The ``for=`` hops of a ``Forwarded`` header, in order (quotes, brackets and ports
    taken off: ``"[2001:db8::1]:4711"`` is ``2001:db8::1``)."""
    hops = []
    for element in header.split(","):
        match = _FOR.search(element)
        if match is None:
            continue
        value = match.group(1).strip('"')
        if value.startswith("["):
            value = value[1:].split("]", 1)[0]
        elif value.count(":") == 1:
            value = value.split(":", 1)[0]
        hops.append(value)
    return hops


@dataclass(frozen=True)
class Proxies:
    """The peers trusted to say whom they serve (see the module's docstring)."""

    trusted: tuple[Network, ...] = LOOPBACK

    def trusts(self, address: str) -> bool:
        """Whether ``address`` is one of the trusted proxies."""
        found = _address(address)
        return found is not None and any(
            found.version == n.version and found in n for n in self.trusted
        )

    def client(self, peer: str, forwarded_for: str = "", forwarded: str = "") -> str:
        """Who is asking (an ``identity``), given the connection's peer and the request's
        ``X-Forwarded-For`` and ``Forwarded`` headers."""
        if not self.trusts(peer):
            return identity(peer)
        hops = ([h.strip() for h in forwarded_for.split(",")] if forwarded_for.strip()
                else _forwarded_for(forwarded))
        hops = [h for h in hops if h]
        for hop in reversed(hops):
            if not self.trusts(hop):
                return identity(hop)
        return identity(hops[0] if hops else peer)

