"""Can one member stall the bot? A move's latency while the heaviest reads are hammered
(not a test; prints numbers).

    .venv/bin/python -m bench.stall_bench [--matches 100000] [--players 1000]
        [--seconds 60] [--db PATH]

1. A SQLite file with ``--matches`` finished two-seat Gin Rummy games in one guild's
   Default league (published on the web page), recorded through the real recorder. One
   member, the *regular*, sat in every one of them (the worst case for their ``/stats``
   and their player page); the other seat is one of ``--players`` players or, one game
   in ten, a computer. ``--db PATH`` keeps the file there and reuses it when it exists;
   every run works on a copy of it.
2. The load, all at once for ``--seconds``:
   * **moves**: ten two-human tables of another guild, a move every 50 ms in turn, each
     timed as a click is served: the controller's read of the table row, then ``act``
     (lock, checks, apply, commit);
   * **one member** asking ``/stats`` about the regular as often as the per-user budget
     lets them (``bot.ui.cooldown`` with the default ``DECKHAND_USER_RATE``, at the cost
     the command declares), each answered as the cog answers it (``stats_answer``:
     record, rating lines, chart picture), concurrently;
   * **eight web clients** (another process) fetching the season page and the
     regular's player page from ``deckhand web`` (a third process), back to back.
3. Printed: how long each of those heavy reads takes alone (before the load), then the
   moves' p50/p99/max, how many ``/stats`` were answered and how long they took, the same
   for the web pages.

A database counted before ratings over time were stored (one built by an older Deckhand,
kept with ``--db``) is first filled in (``LeagueService.backfill``, as the bot does at
start-up) while the moves go on: how long that took and the moves' latency meanwhile are
printed first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from bench.service_bench import pick
from bot.cogs.stats import StatsCommands, stats_answer
from bot.services import publication
from bot.services.leagues import LeagueService, season_ratings
from bot.services.tables import TableResult, TableService
from bot.ui.cooldown import Cooldown, cost_of
from bot.web import paths
from bot.web.server import serve
from bot.web.site import CHARTED
from storage import league_reports
from storage import tables as table_repo
from storage.connect import open_database
from storage.db import Conn
from storage.matches import MatchRecord, SeatResult, insert_match
from storage.models import computer_name

GUILD = 1
MOVES_GUILD = 2
REGULAR = 7
MEMBER = 8
CLIENTS = 8
TABLES = 10
MOVE_EVERY = 0.05
GAME = "gin_rummy"


def played(rng: random.Random, n: int, players: int) -> MatchRecord:
    """The regular against another player (or, one game in ten, a computer)."""
    other = rng.randint(100, 99 + players)
    won = rng.random() < 0.5
    them = (SeatResult(1, None, "normal", computer_name("normal"), 1, 40, 1 if not won else 2)
            if rng.random() < 0.1
            else SeatResult(1, other, None, f"player{other}", 1, 40, 1 if not won else 2))
    regular = SeatResult(0, REGULAR, None, "Regular", 0, 100, 1 if won else 2)
    t = 1_700_000_000.0 + n * 60
    return MatchRecord(None, GUILD, 1, None, GAME, {}, n, t - 600, t, (regular, them))


async def build(path: Path, matches: int, players: int) -> None:
    """The league of ``matches`` games, published."""
    db = await open_database(path)
    leagues = LeagueService(db)
    rng = random.Random(1)
    t0 = time.perf_counter()

    def record(conn: Conn, batch: list[MatchRecord]) -> None:
        for m in batch:
            leagues.record_match(conn, insert_match(conn, m), m)

    for start in range(0, matches, 1000):
        batch = [played(rng, n, players) for n in range(start, min(matches, start + 1000))]
        await db.write(record, batch)
    league = await leagues.league(GUILD)
    await publication.set_published(db, league, True, is_admin=True)
    await db.close()
    print(f"built {matches:,} matches in {time.perf_counter() - t0:.0f} s")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentiles(label: str, xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{label}: {len(xs)} answered"
    q = statistics.quantiles(xs, n=100, method="inclusive")
    return (f"{label}: {len(xs):,} answered; p50 {q[49] * 1000:,.1f} ms, p99"
            f" {q[98] * 1000:,.1f} ms, max {max(xs) * 1000:,.1f} ms")


@dataclass
class Tables:
    """The moving tables and the latest result of each."""

    service: TableService
    results: dict[int, TableResult]

    async def move(self, ch: int, rng: random.Random) -> float:
        r = self.results[ch]
        if r.status != "playing":
            r = await self.service.rematch(ch, ch * 10)
        seat = r.to_act[0]
        action = pick(r, seat, rng)
        t0 = time.perf_counter()
        await self.service.db.read(table_repo.get, r.table_id)
        self.results[ch] = await self.service.act(
            ch, r.seats[seat].user_id or 0, action, r.version
        )
        return time.perf_counter() - t0


async def load(path: Path, seconds: float, urls: list[str]) -> list[str]:
    """The moves and the member in this process, the web clients in another; the
    result lines."""
    db = await open_database(path)
    leagues = LeagueService(db)
    service = TableService(db)
    service.add_match_recorder(leagues.record_match)
    tables = Tables(service, {})
    for ch in range(1, TABLES + 1):
        await service.create(ch, MOVES_GUILD, ch * 10, "A", GAME)
        await service.join(ch, ch * 10 + 1, "B")
        tables.results[ch] = await service.start(ch, ch * 10)
    lines = await fill_in(leagues, tables)
    lines += await single_reads(leagues)
    clients = subprocess.Popen(
        [sys.executable, "-m", "bench.stall_bench", "--clients", json.dumps([seconds, urls])],
        stdout=subprocess.PIPE,
    )
    until = time.perf_counter() + seconds
    moves: list[float] = []
    answered: list[float] = []
    asked = 0

    async def mover() -> None:
        rng = random.Random(3)
        ch = 0
        while time.perf_counter() < until:
            ch = ch % TABLES + 1
            moves.append(await tables.move(ch, rng))
            await asyncio.sleep(MOVE_EVERY)

    async def one_stats() -> None:
        t0 = time.perf_counter()
        await stats_answer(leagues, GUILD, REGULAR, "Regular")
        answered.append(time.perf_counter() - t0)

    async def member() -> None:
        nonlocal asked
        budget = Cooldown()
        tokens = cost_of(StatsCommands.stats.extras)
        pending: list[asyncio.Task[None]] = []
        while time.perf_counter() < until:
            if budget.allow(MEMBER, tokens):
                asked += 1
                pending.append(asyncio.create_task(one_stats()))
            await asyncio.sleep(0.05)

    await asyncio.gather(mover(), member())
    out, _ = clients.communicate()
    pages = json.loads(out)
    lines += [percentiles("moves (read + act)", moves),
              percentiles(f"/stats ({asked} asked)", answered)]
    for label, url in zip(("web season page", "web player page"), urls, strict=True):
        lines.append(percentiles(label, pages[url]))
    return lines


async def fill_in(leagues: LeagueService, tables: Tables) -> list[str]:
    """Fill in the ratings over time of a database counted before they were stored, with
    the moves going on; what it took (nothing when there is nothing to fill)."""
    moves: list[float] = []
    t0 = time.perf_counter()
    backfill = asyncio.create_task(leagues.backfill())
    rng = random.Random(2)
    ch = 0
    while not backfill.done():
        ch = ch % TABLES + 1
        moves.append(await tables.move(ch, rng))
        await asyncio.sleep(MOVE_EVERY)
    filled = await backfill
    if not filled:
        return []
    return [f"filled in the ratings over time of {filled:,} matches in"
            f" {time.perf_counter() - t0:.1f} s",
            percentiles("moves meanwhile (read + act)", moves)]


async def single_reads(leagues: LeagueService) -> list[str]:
    """How long each heavy read takes alone, before the load (one call each)."""
    db = leagues.db
    league = await leagues.league(GUILD)
    top = [r.user_id for r in (await leagues.standings(GUILD, limit=CHARTED)).rows]
    reads: list[tuple[str, Callable[[], Awaitable[object]]]] = [
        ("/stats record (player_stats)", lambda: leagues.player_stats(GUILD, REGULAR)),
        ("/stats picture's lines (rating_lines)", lambda: leagues.rating_lines(GUILD, REGULAR)),
        ("season page's chart lines", lambda: db.report(
            season_ratings, league.id, league.season, GAME, top)),
        ("player page's records", lambda: db.report(
            league_reports.league_records, league.id, REGULAR)),
        ("standings, 100 rows", lambda: leagues.standings(GUILD, limit=100)),
    ]
    out = []
    for label, read in reads:
        t0 = time.perf_counter()
        await read()
        out.append(f"alone: {label}: {(time.perf_counter() - t0) * 1000:,.1f} ms")
    return out


async def fetch_pages(seconds: float, urls: list[str]) -> dict[str, list[float]]:
    """``CLIENTS`` clients fetching ``urls`` in turn until ``seconds`` have passed."""
    import aiohttp

    times: dict[str, list[float]] = {u: [] for u in urls}
    until = time.perf_counter() + seconds

    async def client(k: int) -> None:
        timeout = aiohttp.ClientTimeout(total=None)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            n = k
            while time.perf_counter() < until:
                url = urls[n % len(urls)]
                n += 1
                t0 = time.perf_counter()
                async with session.get(url) as response:
                    await response.read()
                    if response.status == 200:
                        times[url].append(time.perf_counter() - t0)

    tasks = [asyncio.create_task(client(k)) for k in range(CLIENTS)]
    await asyncio.sleep(seconds)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return times


async def addresses(path: Path, port: int) -> list[str]:
    """The season page and the regular's player page."""
    db = await open_database(path)
    league = await LeagueService(db).league(GUILD)
    slugs = await publication.slugs(db)
    await db.close()
    assert slugs is not None
    base = f"http://127.0.0.1:{port}"
    return [base + paths.season(slugs, league.id, league.season),
            base + paths.player(slugs, league.id, REGULAR)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=1_000)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--db", type=Path, help="keep the database here (reused if it exists)")
    ap.add_argument("--clients", help=argparse.SUPPRESS)
    ap.add_argument("--serve", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.clients:
        seconds, urls = json.loads(args.clients)
        print(json.dumps(asyncio.run(fetch_pages(seconds, urls))))
        return
    if args.serve:
        serve(args.serve[0], "127.0.0.1", int(args.serve[1]), "WARNING")
        return
    with tempfile.TemporaryDirectory() as tmp:
        kept = args.db or Path(tmp) / "league.db"
        if not kept.exists():
            asyncio.run(build(kept, args.matches, args.players))
        path = Path(tmp) / "stall.db"
        shutil.copyfile(kept, path)
        port = free_port()
        site = subprocess.Popen(
            [sys.executable, "-m", "bench.stall_bench", "--serve", str(path), str(port)]
        )
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.2)
            urls = asyncio.run(addresses(path, port))
            lines = asyncio.run(load(path, args.seconds, urls))
        finally:
            site.terminate()
        print("\n".join(lines), flush=True)
        os._exit(0)  # reads still queued on the database's threads are not waited for


if __name__ == "__main__":
    main()
