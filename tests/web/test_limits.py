"""Who a client of ``deckhand web`` is (``bot.web.limits``): an IPv4 address however it
arrives, an IPv6 /64, and behind a trusted proxy the right-most hop it did not add itself."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, load_settings
from bot.web.limits import LOOPBACK, Proxies, identity, networks

COMPOSE = Proxies(networks("172.18.0.1"))


@pytest.mark.parametrize(("address", "client"), [
    ("192.0.2.7", "192.0.2.7"),
    ("::ffff:192.0.2.7", "192.0.2.7"),  # an IPv4 peer of a dual-stack listener
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),  # the same subscriber
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    ("fe80::1%eth0", "fe80::/64"),
    ("unknown", "unknown"),
    ("x" * 500, "x" * 64),
])
def test_a_client_is_an_ipv4_address_or_an_ipv6_64(address: str, client: str) -> None:
    assert identity(address) == client


def test_a_mapped_loopback_proxy_is_trusted_like_the_loopback() -> None:
    """Today's code took ``::ffff:127.0.0.1`` for a client: every visitor was one."""
    proxies = Proxies()
    assert proxies.client("::ffff:127.0.0.1", "198.51.100.4") == "198.51.100.4"
    assert proxies.client("127.0.0.1", "198.51.100.4") == "198.51.100.4"
    assert proxies.client("::1", "2001:db8::9") == "2001:db8::/64"


def test_the_compose_gateway_is_trusted_when_named() -> None:
    """Today's code trusted the loopback only: behind Docker's bridge gateway every visitor
    shared one budget."""
    assert COMPOSE.client("172.18.0.1", "198.51.100.4") == "198.51.100.4"
    assert Proxies().client("172.18.0.1", "198.51.100.4") == "172.18.0.1"


def test_the_right_most_hop_the_proxies_did_not_add_is_the_client() -> None:
    proxies = Proxies(networks("172.18.0.1, 10.0.0.0/8"))
    # The client wrote the first two hops itself; the proxies added the last two.
    chain = "1.2.3.4, 5.6.7.8, 198.51.100.4, 10.1.2.3"
    assert proxies.client("172.18.0.1", chain) == "198.51.100.4"
    assert proxies.client("172.18.0.1", "10.1.1.1, 10.2.2.2") == "10.1.1.1"  # all trusted
    assert proxies.client("172.18.0.1", "") == "172.18.0.1"  # a proxy that said nothing
    assert proxies.client("203.0.113.5", chain) == "203.0.113.5"  # not a proxy: ignored


def test_forwarded_is_read_when_there_is_no_x_forwarded_for() -> None:
    header = 'for=1.2.3.4, for="[2001:db8:cafe::17]:4711";proto=https, for=10.0.0.2'
    proxies = Proxies(networks("172.18.0.1 10.0.0.0/8"))
    assert proxies.client("172.18.0.1", "", header) == "2001:db8:cafe::/64"
    assert proxies.client("172.18.0.1", "", "for=198.51.100.4:8080") == "198.51.100.4"
    assert proxies.client("172.18.0.1", "198.51.100.9", header) == "198.51.100.9"


def test_the_setting_lists_addresses_and_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKHAND_WEB_PROXIES", "172.18.0.1, 10.0.0.0/8 fd00::/8")
    assert [str(n) for n in load_settings().web_proxies] == [
        "172.18.0.1/32", "10.0.0.0/8", "fd00::/8"]
    monkeypatch.setenv("DECKHAND_WEB_PROXIES", "")
    assert load_settings().web_proxies == LOOPBACK
    assert networks("::ffff:10.0.0.0/104") == networks("10.0.0.0/8")
    monkeypatch.setenv("DECKHAND_WEB_PROXIES", "172.18.0.1, my-proxy")
    with pytest.raises(SettingsError, match="DECKHAND_WEB_PROXIES: 'my-proxy' is not an address"):
        load_settings()
