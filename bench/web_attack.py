"""The standings page under attack (not a test): is a bystander still answered?

    .venv/bin/python -m bench.web_attack [--seconds 20] [--deckhand DIR] [--json]

It runs in a network namespace of its own (``unshare -rn``: no privilege is needed and
nothing of this machine's network is touched), where any address of 127.0.0.0/8, the
gateway of ``docker-compose.yml``'s network (172.30.44.1) and any of the IPv6 networks
2001:db8:1::/64 and 2001:db8:2::/64 can be a client's. ``deckhand web`` (``python -m bot
web`` run from ``--deckhand``: this clone, or another version's, to compare) serves a
database of real games (``tests/web/world.py``) with its default limits, and for
``--seconds`` a bystander asks for a season page every half second (a new
connection each, 10 s to be answered) while one of these attacks goes on:

* ``proxy``: the set-up docs/web.md documents for Docker Compose. A reverse proxy (written
  here: it appends the client's address to ``X-Forwarded-For``, as nginx's
  ``$proxy_add_x_forwarded_for`` and Caddy do) reaches the site from the network's
  gateway, as Docker hands a host proxy's connections over, which ``DECKHAND_WEB_PROXIES``
  names (as ``docker-compose.yml`` sets it). A greedy client asks through it for
  the costliest page (a Back Alley replay's last step with every hand), one more at a
  time than a client may have in flight (``Budget.parallel``), without pause, so it is
  refused on any machine (on a starved one it cannot spend its processor time faster than
  it earns it); the bystander starts once the greedy one is refused.
* ``slow-ipv4``: 576 slowloris connections from 9 addresses (64 each, the per-address
  cap), each sending a request head a line a second and reconnecting when dropped.
* ``slow-ipv6``: 600 such connections from 600 addresses of one IPv6 /64; the bystander
  is another /64.

The slowloris attackers run in a process of their own at a lower priority (nice 10),
standing for machines of their own: what they may take is the server's connections, not
its processor.

It prints, per attack, how many of the bystander's requests were answered (200) of
those asked, and how the attackers fared; ``--json`` prints the same as one JSON object
(for ``tests/web/test_attacks.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

INSIDE = "DECKHAND_BENCH_NETNS"
GATEWAY = "172.30.44.1"
SLOW_V4 = [f"127.0.0.{n}" for n in range(11, 20)]
SLOW_V6 = "2001:db8:1::"
BYSTANDER_V4, GREEDY_V4 = "127.0.0.2", "127.0.0.3"
BYSTANDER_V6 = "2001:db8:2::1"
#: A request line and the first header of a slowloris head; then a header a second.
SLOW_START = b"GET / HTTP/1.1\r\nHost: deckhand.test\r\n"
#: Seconds between the bystander's requests.
PACE = 0.5


@dataclass
class Result:
    """One attack: the bystander's answers, and what the attackers saw."""

    attack: str
    asked: int = 0
    answered: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    #: Seconds each answered request of the bystander took.
    times: list[float] = field(default_factory=list)
    attacker: Counter[str] = field(default_factory=Counter)

    @property
    def share(self) -> float:
        """The share of the bystander's requests answered."""
        return self.answered / self.asked if self.asked else 0.0

    def line(self) -> str:
        """One line for the terminal."""
        seen = ", ".join(f"{k} {v:,}" for k, v in sorted(self.statuses.items()))
        them = ", ".join(f"{k} {v:,}" for k, v in sorted(self.attacker.items()))
        times = sorted(self.times) or [0.0]
        return (f"{self.attack}: bystander {self.answered} of {self.asked} answered"
                f" ({100 * self.share:.0f} %; {seen}; p50 {1000 * times[len(times) // 2]:.0f}"
                f" ms, max {1000 * times[-1]:.0f} ms); attacker: {them}")


def netns() -> None:
    """Bring up this namespace's loopback with the addresses the attacks use."""
    for command in (
        ["ip", "link", "set", "lo", "up"],
        ["ip", "addr", "add", f"{GATEWAY}/24", "dev", "lo"],
        ["ip", "-6", "route", "add", "local", f"{SLOW_V6}/64", "dev", "lo"],
        ["ip", "-6", "route", "add", "local", "2001:db8:2::/64", "dev", "lo"],
        ["sysctl", "-q", "-w", "net.ipv6.ip_nonlocal_bind=1"],  # bind any of those
    ):
        subprocess.run(command, check=True)


async def get(host: str, port: int, path: str, source: str, timeout: float = 10.0) -> str:
    """One request on a new connection from ``source``: the status, or why there was none."""
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
            try:
                writer.write(f"GET {path} HTTP/1.1\r\nHost: deckhand.test\r\n"
                             "Connection: close\r\n\r\n".encode())
                await writer.drain()
                head = await reader.readline()
                while await reader.read(65536):
                    pass
            finally:
                writer.close()
    except TimeoutError:
        return "timed out"
    except OSError:
        return "refused or dropped"
    parts = head.split()
    return parts[1].decode() if len(parts) > 1 else "dropped"


async def slowloris(host: str, port: int, source: str, seen: Counter[str], stop: float) -> None:
    """Hold a connection with a head that never ends; reconnect when dropped."""
    while time.monotonic() < stop:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        except OSError:
            seen["connect failed"] += 1
            await asyncio.sleep(0.05)
            continue
        seen["connections"] += 1
        try:
            writer.write(SLOW_START)
            while time.monotonic() < stop:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):
                        if not await reader.read(1024):
                            break  # closed by the server
                writer.write(b"X-Slow: 1\r\n")
                await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()
        seen["dropped"] += 1
        await asyncio.sleep(0.01)


async def proxy(upstream: tuple[str, int], via: str) -> asyncio.Server:
    """A reverse proxy on 127.0.0.1: each request (one per connection) goes to
    ``upstream`` from the address ``via``, with the client's address appended to
    ``X-Forwarded-For``."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = writer.get_extra_info("peername")[0]
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")[:-2]
            kept = [ln for ln in lines[1:] if not ln.lower().startswith(
                ("x-forwarded-for:", "connection:"))]
            forwarded = [ln.split(":", 1)[1].strip() for ln in lines[1:]
                         if ln.lower().startswith("x-forwarded-for:")]
            chain = ", ".join([*forwarded, client])
            out = "\r\n".join([lines[0], *kept, f"X-Forwarded-For: {chain}",
                               "Connection: close", "", ""])
            up_reader, up_writer = await asyncio.open_connection(
                *upstream, local_addr=(via, 0))
            up_writer.write(out.encode("latin-1"))
            while data := await up_reader.read(65536):
                writer.write(data)
                await writer.drain()
            up_writer.close()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    return await asyncio.start_server(serve, "127.0.0.1", 0)


def free_port(family: int = socket.AF_INET) -> int:
    with socket.socket(family) as s:
        s.bind(("::1" if family == socket.AF_INET6 else "127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def site(deckhand: Path, db: Path, host: str, env: dict[str, str]) -> Iterator[int]:
    """``deckhand web`` from the clone at ``deckhand``, serving ``db`` on ``host``; the
    port."""
    port = free_port(socket.AF_INET6 if ":" in host else socket.AF_INET)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web", "--db", str(db), "--host", host,
         "--port", str(port)],
        cwd=deckhand, env={**os.environ, "PYTHONPATH": str(deckhand), **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        end = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(
                ("::1" if ":" in host else "127.0.0.1", port), timeout=1
            ):
                break
            if process.poll() is not None or time.monotonic() > end:
                said = process.stderr.read() if process.stderr else ""
                raise RuntimeError(f"deckhand web did not start: {said}")
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)


async def bystander(
    host: str, port: int, path: str, source: str, seconds: float, result: Result
) -> None:
    """A request every ``PACE`` seconds for ``seconds`` (each on its own)."""

    async def timed() -> None:
        began = time.monotonic()
        status = await get(host, port, path, source)
        result.asked += 1
        result.statuses[status] += 1
        if status == "200":
            result.answered += 1
            result.times.append(time.monotonic() - began)

    tasks = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tasks.append(asyncio.create_task(timed()))
        await asyncio.sleep(PACE)
    await asyncio.gather(*tasks)


async def greedy(port: int, path: str, seen: Counter[str], stop: asyncio.Event) -> None:
    """Ask for ``path`` through the proxy without pause, one request at a time."""
    while not stop.is_set():
        seen[await get("127.0.0.1", port, path, GREEDY_V4)] += 1


async def attack_proxy(deckhand: Path, db: Path, paths: tuple[str, str], seconds: float) -> Result:
    from bot.web.limits import Budget

    result = Result("proxy")
    season, costly = paths
    with site(deckhand, db, "0.0.0.0", {"DECKHAND_WEB_PROXIES": GATEWAY}) as port:
        front = await proxy(("127.0.0.1", port), GATEWAY)
        front_port = front.sockets[0].getsockname()[1]
        stop = asyncio.Event()
        greedy_tasks = [asyncio.create_task(greedy(front_port, costly, result.attacker, stop))
                        for _ in range(Budget().parallel + 1)]
        end = time.monotonic() + 60  # until it is refused
        while not result.attacker["429"] and time.monotonic() < end:
            await asyncio.sleep(0.1)
        await bystander("127.0.0.1", front_port, season, BYSTANDER_V4, seconds, result)
        stop.set()
        await asyncio.gather(*greedy_tasks)
        front.close()
    return result


def slow_sources(v6: bool) -> list[str]:
    """The slowloris connections' addresses, one per connection."""
    if v6:
        return [f"{SLOW_V6}{n + 1:x}" for n in range(600)]
    return [a for a in SLOW_V4 for _ in range(64)]


async def slow_attacker(target: str, port: int, v6: bool) -> None:
    """The slowloris attack (run in a process of its own, ``--attacker``): every
    connection held until standard input closes; then its counts as JSON."""
    seen: Counter[str] = Counter()
    stop = time.monotonic() + 3600
    tasks = [asyncio.create_task(slowloris(target, port, s, seen, stop))
             for s in slow_sources(v6)]
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(seen))


async def attack_slow(
    deckhand: Path, db: Path, season: str, seconds: float, v6: bool
) -> Result:
    """The slowloris attackers run in a process of their own at a lower priority (nice
    10), standing for machines of their own: they do not take the server's processor,
    only its connections."""
    result = Result("slow-ipv6" if v6 else "slow-ipv4")
    host = "::" if v6 else "0.0.0.0"
    target = "::1" if v6 else "127.0.0.1"
    with site(deckhand, db, host, {}) as port:
        attacker = subprocess.Popen(
            ["nice", "-n", "10", sys.executable, "-m", "bench.web_attack", "--attacker",
             target, str(port), *(["--v6"] if v6 else [])],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        await asyncio.sleep(5.0)  # every connection open and held
        await bystander(target, port, season, BYSTANDER_V6 if v6 else BYSTANDER_V4, seconds,
                        result)
        out, _ = attacker.communicate(timeout=60)
        result.attacker.update(json.loads(out))
    return result


async def measure(deckhand: Path, seconds: float, only: list[str]) -> list[Result]:
    """Every attack of ``only`` on a new database of real games."""
    from bot.web import paths
    from tests.web.world import fill

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "site.db"
        world = await fill(db)
        season = paths.season(world.slugs, world.club, 1)
        costly = paths.match(world.slugs, world.club, 6, 10**6, hands=True)
        out = []
        if "proxy" in only:
            out.append(await attack_proxy(deckhand, db, (season, costly), seconds))
        for v6 in (False, True):
            if ("slow-ipv6" if v6 else "slow-ipv4") in only:
                out.append(await attack_slow(deckhand, db, season, seconds, v6))
        return out


ATTACKS = ["proxy", "slow-ipv4", "slow-ipv6"]


def main() -> None:
    """Re-run in a network namespace of its own, then measure."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--deckhand", type=Path, default=ROOT,
                   help="the clone whose `deckhand web` serves (default: this one)")
    p.add_argument("--only", action="append", choices=ATTACKS)
    p.add_argument("--json", action="store_true")
    p.add_argument("--attacker", nargs=2, metavar=("HOST", "PORT"), help=argparse.SUPPRESS)
    p.add_argument("--v6", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.attacker:
        asyncio.run(slow_attacker(args.attacker[0], int(args.attacker[1]), args.v6))
        return
    if os.environ.get(INSIDE) != "1":
        unshare = shutil.which("unshare")
        if unshare is None:
            sys.exit("bench.web_attack needs unshare (util-linux) for a network namespace")
        done = subprocess.run(
            [unshare, "-rn", sys.executable, "-m", "bench.web_attack", *sys.argv[1:]],
            cwd=ROOT, env={**os.environ, INSIDE: "1"}, check=False,
        )
        sys.exit(done.returncode)
    netns()
    results = asyncio.run(measure(args.deckhand.resolve(), args.seconds, args.only or ATTACKS))
    if args.json:
        print(json.dumps({r.attack: {
            "asked": r.asked, "answered": r.answered, "share": r.share,
            "statuses": dict(r.statuses), "attacker": dict(r.attacker), "times": r.times,
        } for r in results}))
    else:
        for r in results:
            print(r.line())


if __name__ == "__main__":
    main()
