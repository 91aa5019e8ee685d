"""Fair-play benchmark (not a test), issue 37, on a league of 100,000 matches:

* what asking "may this finished game be shown yet?" (``storage.events.shown``) costs the
  heaviest lists: each query run with and without the condition, fastest of 9;
* how long ``/league export`` holds the event loop: the whole file built on the loop and
  measured afterwards (as it was), against ``exports.league_file`` (pages turned into lines
  in a worker thread, stopped at 8 MiB).

    .venv/bin/python bench/fair_play_bench.py [--matches 100000] [--db PATH]

Matches get a table id each, as real games have (the condition looks tables up); the
database is kept at ``--db`` when given, and reused when it exists.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.league_bench import GUILD, random_match, record_all
from bot.services import exports
from bot.services.leagues import MAX_ROWS, LeagueService
from storage import events as events_repo
from storage import exports as exports_repo
from storage import league_reports
from storage.connect import open_database
from storage.db import Conn, Database
from storage.leagues import League

TICK = 0.005


async def build(path: Path, matches: int) -> None:
    db = await open_database(path)
    svc = LeagueService(db)
    cup = await svc.create_league(GUILD, "Cup", is_admin=True)
    rng = random.Random(1)
    for done in range(0, matches, 1000):
        batch = [random_match(rng, 1000, cup.id, 1.7e9 + done + k)
                 for k in range(min(1000, matches - done))]
        await db.write(record_all, svc, batch)
    await db.close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA foreign_keys = OFF")
    raw.execute("UPDATE matches SET table_id = id")
    raw.commit()
    raw.close()


async def filter_cost(db: Database, league: League) -> None:
    """Each list with and without the condition (fastest of 9, alternating). Players'
    records (``/stats``, partners) are not among them: they are stored as games count
    (``storage.records``), so a board still in play never reaches them."""
    cases: dict[str, Callable[[Conn], object]] = {
        "league history, all 100,000": lambda c: league_reports.league_history(
            c, league.id, None, MAX_ROWS),
        "a player's history, all": lambda c: league_reports.player_history(
            c, GUILD, 7, league.id, MAX_ROWS),
        "head-to-head": lambda c: league_reports.head_to_head(c, GUILD, 7, 8, None),
        "export page (200 games)": lambda c: exports_repo.league_games(c, league.id, 0, 200),
    }
    real = events_repo.shown
    modules: tuple[Any, ...] = (league_reports, exports_repo)
    for label, fn in cases.items():
        on, off = [], []
        for _ in range(9):
            on.append(await _timed(partial(db.read, fn)))
            for m in modules:
                m.shown = _everything
            off.append(await _timed(partial(db.read, fn)))
            for m in modules:
                m.shown = real
        print(f"{label:<32} without {min(off) * 1000:9.2f} ms   with {min(on) * 1000:9.2f} ms")


def _everything(alias: str) -> str:
    """A ``shown`` filter that lets every game through (the check switched off)."""
    return "1 = 1"


async def _timed(fn: Callable[[], Awaitable[object]]) -> float:
    t0 = time.perf_counter()
    await fn()
    return time.perf_counter() - t0


async def stalls(work: Awaitable[object]) -> tuple[float, float]:
    """Run ``work``; its time and the longest the event loop went without a turn."""
    longest = 0.0
    done = False

    async def tick() -> None:  # wakes every TICK seconds; any more is the loop held up
        nonlocal longest
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            longest, last = max(longest, now - last - TICK), now

    ticker = asyncio.create_task(tick())
    t0 = time.perf_counter()
    with contextlib.suppress(exports.TooLarge):  # the file stopped at its limit
        await work
    elapsed = time.perf_counter() - t0
    done = True
    await ticker
    return elapsed, longest


async def whole_on_the_loop(db: Database, league: League) -> int:
    """What ``/league export`` did: every line joined on the loop, then the size checked."""
    data = "".join([t + "\n" async for t in exports.export_lines(db, league_id=league.id)])
    return len(data.encode())


async def main(matches: int, where: Path | None, idle: float = 5.0) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = where or Path(tmp) / "bench.db"
        if not path.exists():
            await build(path, matches)
        db = await open_database(path)
        league = await LeagueService(db).league(GUILD, "Cup")
        await filter_cost(db, league)
        _, jitter = await stalls(asyncio.sleep(idle))
        print(f"idle loop for {idle:g} s (the machine)   loop held up to"
              f" {jitter * 1000:8.1f} ms")
        took, stall = await stalls(whole_on_the_loop(db, league))
        print(f"export, whole file on the loop    {took:6.2f} s, loop held up to"
              f" {stall * 1000:8.1f} ms")
        took, stall = await stalls(exports.league_file(db, league, is_admin=True))
        print(f"export, league_file (8 MiB)       {took:6.2f} s, loop held up to"
              f" {stall * 1000:8.1f} ms")
        await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.db))
